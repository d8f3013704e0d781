#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Keeps this module's Python blocks alive while a flowgraph holds their C++ side.

GNU Radio holds only a Python block's C++ object (its gateway), which points back at the
Python block without owning it: a block made inline, as in
tb.connect(source, cuda.multiply_const_py(2.0), sink), is freed as soon as connect()
returns, and the flowgraph crashes at start() when the gateway calls into it. Every
connection asks the block for its C++ object (to_basic_block()); the blocks here answer
through kept_alive, which holds the Python block from then until no flowgraph holds its
gateway any more. That is checked at every new connection and before every garbage
collection, so a freed flowgraph releases its blocks soon after. A block counts as held by a
flowgraph only once it has been seen connected: connect() asks every block of a chain for
its C++ object before it connects the first pair.
"""

import gc

from . import cuda_python

# The blocks whose gateway some flowgraph may hold, each with whether one was seen to.
_held = {}


def _release_unused():
    for block, seen_connected in list(_held.items()):
        if cuda_python._cpp_owners(block.gateway) > 1:
            _held[block] = True
        elif seen_connected:
            del _held[block]


def _before_collection(phase, info):
    if phase == "start":
        _release_unused()


gc.callbacks.append(_before_collection)


class kept_alive:
    """A Python block base (before gr.sync_block and the others) whose block lives as long
    as a flowgraph holds its gateway."""

    def to_basic_block(self):
        _release_unused()
        _held.setdefault(self, False)
        return self.gateway.to_basic_block()
