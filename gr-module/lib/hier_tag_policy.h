/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_HIER_TAG_POLICY_H
#define INCLUDED_CUDA_HIER_TAG_POLICY_H

#include <gnuradio/block.h>
#include <gnuradio/logger.h>

namespace gr {
namespace cuda {

/*!
 * \brief The tag propagation policy of a block that stands for a GNU Radio hier block
 * (logpwrfft, pfb channelizer) and moves tags in its work() as the hier block's blocks
 * move them, under TPP_CUSTOM.
 *
 * GNU Radio's scheduler would apply TPP_ALL_TO_ALL or TPP_ONE_TO_ONE set by the user with
 * the block's relative rate, which is not the hier block's movement (logpwrfft's rate
 * leaves out the decimation, to keep its input buffer small), on top of the block's own:
 * for this block they mean the hier block's movement, so they go back to TPP_CUSTOM, with
 * a note in the log. TPP_DONT stays and drops the tags. Call from check_topology(), which
 * GNU Radio calls before every run.
 */
inline void keep_hier_tag_movement(gr::block& block, const gr::logger_ptr& logger)
{
    const auto policy = block.tag_propagation_policy();
    if (policy == gr::block::TPP_ALL_TO_ALL || policy == gr::block::TPP_ONE_TO_ONE) {
        logger->info("tags move as GNU Radio's hier block moves them, which is what {} "
                     "means here; set TPP_DONT to drop them",
                     policy == gr::block::TPP_ALL_TO_ALL ? "TPP_ALL_TO_ALL"
                                                         : "TPP_ONE_TO_ONE");
        block.set_tag_propagation_policy(gr::block::TPP_CUSTOM);
    }
}

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_HIER_TAG_POLICY_H */
