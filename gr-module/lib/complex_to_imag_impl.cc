/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "elementwise_impl.h"
#include <gnuradio/cuda/complex_to_imag.h>

namespace gr {
namespace cuda {

using complex_to_imag_impl = unary_elementwise_impl<complex_to_imag,
                                                    sizeof(gr_complex),
                                                    sizeof(float),
                                                    grcuda_complex_to_imag>;

complex_to_imag::sptr complex_to_imag::make(size_t vlen, int device)
{
    arguments::require_elements_per_item(
        "cuda.complex_to_imag", "vlen", vlen, sizeof(gr_complex));
    return gnuradio::make_block_sptr<complex_to_imag_impl>(
        "complex_to_imag", vlen, device);
}

} // namespace cuda
} // namespace gr
