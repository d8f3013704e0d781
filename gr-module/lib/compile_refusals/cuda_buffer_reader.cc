/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Must not compile: the reference's reader class, as a block written for it uses it
// (lib/CMakeLists.txt checks the compiler's message).

#include <gnuradio/cuda/cuda_buffer_reader.h>

void register_stream(gr::buffer_reader* reader, cudaStream_t stream)
{
    dynamic_cast<gr::cuda_buffer_reader*>(reader)->set_consumer_stream(stream);
}
