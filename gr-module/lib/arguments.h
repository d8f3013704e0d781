/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_ARGUMENTS_H
#define INCLUDED_CUDA_ARGUMENTS_H

// Argument checks shared by every block's make(), run before the block and its
// io_signatures exist: gr::io_signature refuses bad sizes and port counts only with
// "gr::io_signature(3)", and a size that does not fit its int wraps around silently.
// Each refusal is a std::invalid_argument (ValueError in Python) naming the block, the
// argument, what it accepts and the value given.

#include <gnuradio/gr_complex.h>
#include <type_traits>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace cuda {
namespace arguments {

//! GNU Radio keeps an item size, in bytes, in an int.
constexpr uint64_t max_item_size = INT_MAX;
//! GNU Radio keeps state for every output port a block may have from its construction
//! (16 bytes each), so 2^31 - 1 ports would take 32 GiB before anything is connected.
constexpr uint64_t max_ports = uint64_t{ 1 } << 16;
//! FFT sizes: cuFFT documents single-precision transforms of up to 512 Mi elements, less
//! as device memory allows; a 2^27-point vector is already a 1 GiB item, and cuda.fft
//! keeps two scratch vectors and cuFFT a work area for each vector of a batch.
constexpr uint64_t max_fft_size = uint64_t{ 1 } << 27;

//! \p value written so that the limits read easily: 2^27, 2^31 - 1, 715827882 or 2047.
inline std::string limit_text(uint64_t value)
{
    for (int bits = 16; bits < 64; bits++) {
        const uint64_t power = uint64_t{ 1 } << bits;
        if (value == power) {
            return "2^" + std::to_string(bits);
        }
        if (value == power - 1) {
            return "2^" + std::to_string(bits) + " - 1";
        }
    }
    return std::to_string(value);
}

//! The shortest text that reads back as \p value: 0.1 rather than 0.10000000000000001.
inline std::string value_text(double value)
{
    std::string text;
    for (int digits = 1; digits <= 17; digits++) {
        std::ostringstream out;
        out.precision(digits);
        out << value;
        text = out.str();
        if (!std::isfinite(value) || std::strtod(text.c_str(), nullptr) == value) {
            break;
        }
    }
    return text;
}

[[noreturn]] inline void refuse(const std::string& block, const std::string& message)
{
    throw std::invalid_argument(block + ": " + message);
}

//! \p value in [\p min, \p max]; \p after_max follows the maximum in the message (a unit,
//! or where the maximum comes from). The message gives \p value as the caller passed it,
//! a negative int included.
template <typename Integer>
inline void require_between(const std::string& block,
                            const char* argument,
                            Integer value,
                            uint64_t min,
                            uint64_t max,
                            const std::string& after_max = "")
{
    static_assert(std::is_integral_v<Integer>,
                  "require_between checks integer arguments");
    bool negative = false;
    if constexpr (std::is_signed_v<Integer>) {
        negative = value < 0;
    }
    if (negative || uint64_t(value) < min || uint64_t(value) > max) {
        refuse(block,
               std::string(argument) + " must be between " + limit_text(min) + " and " +
                   limit_text(max) + after_max + ", got " + std::to_string(value));
    }
}

//! An item size in bytes: at least 1, and what GNU Radio can hold.
inline void
require_item_size(const std::string& block, const char* argument, uint64_t itemsize)
{
    require_between(block, argument, itemsize, 1, max_item_size, " bytes");
}

//! A number of input or output ports.
inline void require_ports(const std::string& block, const char* argument, uint64_t count)
{
    require_between(block, argument, count, 1, max_ports);
}

//! \p count elements of \p element_size bytes each make one item: \p count is at least 1
//! and the item's size fits GNU Radio's int.
inline void require_elements_per_item(const std::string& block,
                                      const char* argument,
                                      uint64_t count,
                                      uint64_t element_size)
{
    require_between(block,
                    argument,
                    count,
                    1,
                    max_item_size / element_size,
                    " (" + std::string(argument) + " * " + std::to_string(element_size) +
                        " bytes must fit GNU Radio's largest item, " +
                        limit_text(max_item_size) + " bytes)");
}

//! A number of ports whose items of \p itemsize bytes each are joined into one item
//! (streams_to_vector): within both limits.
inline void require_ports_in_item(const std::string& block,
                                  const char* argument,
                                  uint64_t count,
                                  uint64_t itemsize)
{
    if (max_item_size / itemsize < max_ports) {
        require_elements_per_item(block, argument, count, itemsize);
    } else {
        require_ports(block, argument, count);
    }
}

//! A rate, a period: finite and > 0.
inline void require_positive(const std::string& block, const char* argument, double value)
{
    if (!std::isfinite(value) || !(value > 0)) {
        refuse(block,
               std::string(argument) + " must be finite and > 0, got " +
                   value_text(value));
    }
}

//! An averaging weight in (0, 1].
inline void require_fraction(const std::string& block, const char* argument, double value)
{
    if (!(value > 0 && value <= 1)) {
        refuse(block,
               std::string(argument) + " must be in (0, 1], got " + value_text(value));
    }
}

//! A constant that multiplies or offsets samples: NaN or infinity would only ever make
//! NaN or infinite output. Integers are always accepted.
template <class T>
void require_finite(const std::string& block, const char* argument, T value)
{
    if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(value)) {
            refuse(block,
                   std::string(argument) + " must be finite, got " + value_text(value));
        }
    }
}

inline void
require_finite(const std::string& block, const char* argument, gr_complex value)
{
    if (!std::isfinite(value.real()) || !std::isfinite(value.imag())) {
        refuse(block,
               std::string(argument) + " must be finite, got (" +
                   value_text(value.real()) + ", " + value_text(value.imag()) + ")");
    }
}

//! Text that libgrcuda takes as a C string, which would end at a NUL character and drop
//! the rest without a word.
inline void require_no_nul(const std::string& block,
                           const std::string& argument,
                           const std::string& text)
{
    const size_t nul = text.find('\0');
    if (nul != std::string::npos) {
        refuse(block,
               argument + " holds a NUL character (at " + std::to_string(nul) +
                   "), where the text would end: remove it");
    }
}

//! A count that must be at least 1 (a decimation, a number of threads), taken signed so
//! that a negative value is named as such.
inline void
require_at_least_one(const std::string& block, const char* argument, long long value)
{
    if (value < 1) {
        refuse(block,
               std::string(argument) + " must be at least 1, got " +
                   std::to_string(value));
    }
}

//! Filter taps: at least one, every one finite (GNU Radio's filters divide by nothing and
//! check nothing, but an empty or NaN filter can only make empty or NaN output).
template <class T>
void require_taps(const std::string& block,
                  const char* argument,
                  const std::vector<T>& taps)
{
    if (taps.empty()) {
        refuse(block, std::string(argument) + " must hold at least one tap, got none");
    }
    for (size_t tap = 0; tap < taps.size(); tap++) {
        require_finite(block,
                       (std::string(argument) + "[" + std::to_string(tap) + "]").c_str(),
                       taps[tap]);
    }
}

//! The suffix that names the version of a block for items of type T.
template <class T>
constexpr const char* type_suffix();
template <>
constexpr const char* type_suffix<std::int16_t>()
{
    return "ss";
}
template <>
constexpr const char* type_suffix<std::int32_t>()
{
    return "ii";
}
template <>
constexpr const char* type_suffix<float>()
{
    return "ff";
}
template <>
constexpr const char* type_suffix<gr_complex>()
{
    return "cc";
}

//! The name of the version of block \p base for items of type T, as Python and GRC call
//! it: cuda.add_ff, cuda.multiply_const_cc.
template <class T>
std::string typed_name(const char* base)
{
    return std::string(base) + "_" + type_suffix<T>();
}

//! GNU Radio's suffix for a filter of input IN_T and taps TAP_T: ccc, ccf or fff.
template <class IN_T, class TAP_T>
constexpr const char* filter_suffix()
{
    if constexpr (std::is_same_v<IN_T, float>) {
        return "fff";
    } else if constexpr (std::is_same_v<TAP_T, float>) {
        return "ccf";
    } else {
        return "ccc";
    }
}

//! The name of filter block \p base for IN_T and TAP_T, as Python calls it:
//! cuda.fir_filter_ccf.
template <class IN_T, class TAP_T>
std::string filter_name(const char* base)
{
    return std::string(base) + "_" + filter_suffix<IN_T, TAP_T>();
}

} // namespace arguments
} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_ARGUMENTS_H */
