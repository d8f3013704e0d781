/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_MESSAGE_TEXT_H
#define INCLUDED_CUDA_MESSAGE_TEXT_H

#include <pmt/pmt.h>
#include <string>

namespace gr {
namespace cuda {

/*!
 * \brief A message (or part of one) as the warnings about ignored messages quote it:
 * PMT's text, cut after 120 characters, so that a message of a megabyte makes a line of a
 * log, not two megabytes of it.
 */
inline std::string message_text(const pmt::pmt_t& message)
{
    constexpr size_t longest = 120;
    std::string text = pmt::write_string(message);
    if (text.size() > longest) {
        const std::string length = std::to_string(text.size());
        text.resize(longest);
        text += "... (" + length + " characters)";
    }
    return text;
}

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_MESSAGE_TEXT_H */
