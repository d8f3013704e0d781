/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "elementwise_impl.h"
#include <gnuradio/cuda/complex_to_real.h>

namespace gr {
namespace cuda {

using complex_to_real_impl = unary_elementwise_impl<complex_to_real,
                                                    sizeof(gr_complex),
                                                    sizeof(float),
                                                    grcuda_complex_to_real>;

complex_to_real::sptr complex_to_real::make(size_t vlen, int device)
{
    arguments::require_elements_per_item(
        "cuda.complex_to_real", "vlen", vlen, sizeof(gr_complex));
    return gnuradio::make_block_sptr<complex_to_real_impl>(
        "complex_to_real", vlen, device);
}

} // namespace cuda
} // namespace gr
