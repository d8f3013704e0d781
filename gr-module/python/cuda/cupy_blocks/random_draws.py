#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Random values for the random sources of the CuPy block library, the same sequence for a
seed whatever the sizes of the work() calls."""

# Random values are drawn this many at a time (see chunked_draws).
DRAW_CHUNK = 1 << 20


class chunked_draws:
    """Random values made a fixed number at a time and handed out in order.

    Drawing DRAW_CHUNK values at a time makes the sequence depend on the seed alone, not on
    the sizes of the work() calls: CuPy's generator gives different values for one draw of
    2n than for two draws of n. The generator is made at the first draw, in work(), so that
    its set-up runs on the block's stream.
    """

    def __init__(self, xp, seed):
        self._xp = xp
        self._seed = seed
        self._rng = None
        self._chunk = None
        self._kind = None
        self._used = 0

    def take(self, out, kind, draw, scale=None):
        """Fills \\p out with the next values (times \\p scale); draw(rng) makes a chunk of
        values of \\p kind. A kind other than the last one's starts a new chunk."""
        if self._rng is None:
            self._rng = self._xp.random.default_rng(self._seed or None)
        position = 0
        while position < len(out):
            if self._kind != kind or self._used == len(self._chunk):
                self._chunk, self._kind, self._used = draw(self._rng), kind, 0
            count = min(len(self._chunk) - self._used, len(out) - position)
            values = self._chunk[self._used : self._used + count]
            if scale is None:
                out[position : position + count] = values
            else:
                self._xp.multiply(values, scale, out=out[position : position + count])
            self._used += count
            position += count
