/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "elementwise_impl.h"
#include <gnuradio/cuda/conjugate_cc.h>

namespace gr {
namespace cuda {

using conjugate_cc_impl = unary_elementwise_impl<conjugate_cc,
                                                 sizeof(gr_complex),
                                                 sizeof(gr_complex),
                                                 grcuda_conjugate_cc>;

conjugate_cc::sptr conjugate_cc::make(int device)
{
    return gnuradio::make_block_sptr<conjugate_cc_impl>("conjugate_cc", 1, device);
}

} // namespace cuda
} // namespace gr
