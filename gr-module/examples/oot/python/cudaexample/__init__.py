#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gr-cudaexample: an out-of-tree module with a GPU block built on gr-cuda."""

# gr-cuda first: it loads libgnuradio-cuda and binds the GNU Radio classes the block uses.
from gnuradio import cuda  # noqa: F401

from .cudaexample_python import *  # noqa: F401,F403
