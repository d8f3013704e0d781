/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_KEEP_ONE_IN_N_IMPL_H
#define INCLUDED_CUDA_KEEP_ONE_IN_N_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/keep_one_in_n.h>

namespace gr {
namespace cuda {

class keep_one_in_n_impl : public cuda_block<keep_one_in_n>
{
public:
    keep_one_in_n_impl(size_t itemsize, int n, int device);

    void set_n(int n) override;

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

private:
    const size_t d_itemsize;
    // Under d_setlock, which general_work() holds.
    int d_n;
    //! Items until the next one kept, counting the kept one (n right after a kept item).
    int d_count;
    //! 1/n as GNU Radio's block keeps it, in a float: tag offsets are scaled by it.
    float d_decim_rate;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_KEEP_ONE_IN_N_IMPL_H */
