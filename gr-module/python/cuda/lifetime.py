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
collection, so a freed flowgraph releases its blocks soon after. connect() asks every block
of a chain for its C++ object before it connects the first pair, and holds what it got
until it returns: a block counts as released only when no flowgraph holds its gateway and
nothing else holds more references to the gateway's Python object than it had when the
block was asked for it.
"""

import gc
import sys

from . import cuda_python

# The blocks whose gateway a flowgraph may hold, each with the references its gateway's
# Python object had before connect() got it.
_held = {}


def _references(gateway):
    """The references to a gateway's Python object, counted the same way by both callers
    (each holds it in a local name and passes it here), so that only other holders make a
    difference."""
    return sys.getrefcount(gateway)


def _release_unused():
    for block, references in list(_held.items()):
        gateway = block.gateway
        if cuda_python._cpp_owners(gateway) <= 1 and _references(gateway) <= references:
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
        gateway = self.gateway
        _held.setdefault(self, _references(gateway))
        return gateway.to_basic_block()
