/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "keep_one_in_n_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <climits>

namespace gr {
namespace cuda {

namespace {

void require_n(int n)
{
    arguments::require_between("cuda.keep_one_in_n", "n", n, 1, INT_MAX);
}

} // namespace

keep_one_in_n::sptr keep_one_in_n::make(size_t itemsize, int n, int device)
{
    arguments::require_item_size("cuda.keep_one_in_n", "itemsize", itemsize);
    require_n(n);
    return gnuradio::make_block_sptr<keep_one_in_n_impl>(itemsize, n, device);
}

keep_one_in_n_impl::keep_one_in_n_impl(size_t itemsize, int n, int device)
    : gr::block("keep_one_in_n",
                gr::io_signature::make(1, 1, itemsize, cuda_buffer::type),
                gr::io_signature::make(1, 1, itemsize, cuda_buffer::type)),
      cuda_block<keep_one_in_n>(device),
      d_itemsize(itemsize)
{
    // As GNU Radio's block: no relative rate (very large n would upset it), tags moved by
    // general_work() itself.
    set_tag_propagation_policy(TPP_DONT);
    set_n(n);
}

void keep_one_in_n_impl::set_n(int n)
{
    require_n(n);
    gr::thread::scoped_lock guard(d_setlock);
    d_n = n;
    d_count = n;
    d_decim_rate = 1.0 / (float)d_n;
}

int keep_one_in_n_impl::general_work(int noutput_items,
                                     gr_vector_int& ninput_items,
                                     gr_vector_const_void_star& input_items,
                                     gr_vector_void_star& output_items)
{
    return this->run_work(input_items, [&]() -> int {
        // GNU Radio's loop, in closed form: the items kept are d_count - 1, then every
        // d_n-th; it stops right after the noutput_items-th kept item, or at the end of
        // the input.
        const int64_t available = ninput_items[0];
        const int64_t first_kept = d_count - 1;
        const int64_t keepable =
            first_kept < available ? 1 + (available - 1 - first_kept) / d_n : 0;
        const int produced = static_cast<int>(std::min<int64_t>(keepable, noutput_items));
        const int64_t last_kept = first_kept + int64_t{ produced - 1 } * d_n;
        int consumed;
        if (produced == noutput_items) {
            consumed = static_cast<int>(last_kept + 1);
            d_count = d_n;
        } else {
            consumed = static_cast<int>(available);
            d_count = produced > 0 ? static_cast<int>(d_n - (available - 1 - last_kept))
                                   : static_cast<int>(d_count - available);
        }
        if (produced > 0) {
            const char* first =
                static_cast<const char*>(input_items[0]) + first_kept * d_itemsize;
            check(grcuda_keep_one_in_n(
                      this->stream(), first, output_items[0], produced, d_itemsize, d_n),
                  "cuda.keep_one_in_n");
        }

        std::vector<tag_t> tags;
        get_tags_in_range(tags, 0, nitems_read(0), nitems_read(0) + consumed);
        for (const auto& tag : tags) {
            tag_t moved = tag;
            moved.offset *= d_decim_rate;
            add_item_tag(0, moved);
        }

        this->report_consumed(0, consumed);
        consume_each(consumed);
        return produced;
    });
}

} // namespace cuda
} // namespace gr
