/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "expression_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <stdexcept>

namespace gr {
namespace cuda {

namespace {

//! The most inputs libgrcuda's expressions read.
constexpr uint64_t max_inputs = 32;

template <class T>
constexpr uint32_t value_type()
{
    return std::is_same<T, float>::value ? GRCUDA_EXPRESSION_FLOAT
                                         : GRCUDA_EXPRESSION_COMPLEX;
}

template <class T>
constexpr char letter()
{
    return std::is_same<T, float>::value ? 'f' : 'c';
}

//! A failed call of libgrcuda: its bad arguments (the expression) as
//! std::invalid_argument naming the block and the argument (the library's message without
//! its "grcuda: " prefix), anything else (NVRTC, the driver) as std::runtime_error.
void check_argument(grcuda_status status, const std::string& block)
{
    if (status == GRCUDA_STATUS_INVALID_ARGUMENT) {
        const std::string message = grcuda_last_error_message();
        const std::string prefix = "grcuda: ";
        arguments::refuse(block,
                          message.compare(0, prefix.size(), prefix) == 0
                              ? message.substr(prefix.size())
                              : message);
    }
    check(status, block.c_str());
}

} // namespace

template <class IN_T, class OUT_T>
typename expression<IN_T, OUT_T>::sptr
expression<IN_T, OUT_T>::make(const std::string& text,
                              size_t ninputs,
                              size_t vlen,
                              const std::map<std::string, float>& parameters,
                              int device)
{
    const std::string block =
        std::string("cuda.expression_") + letter<IN_T>() + letter<OUT_T>();
    arguments::require_between(block, "ninputs", ninputs, 1, max_inputs);
    arguments::require_elements_per_item(
        block, "vlen", vlen, std::max(sizeof(IN_T), sizeof(OUT_T)));
    arguments::require_no_nul(block, "text", text);
    std::vector<std::string> names;
    std::vector<const char*> name_pointers;
    std::vector<float> values;
    for (const auto& parameter : parameters) {
        arguments::require_no_nul(block, "a parameter's name", parameter.first);
        names.push_back(parameter.first);
        values.push_back(parameter.second);
    }
    for (const auto& name : names) {
        name_pointers.push_back(name.c_str());
    }
    grcuda_expression* handle = nullptr;
    // The kernel is compiled for the device the block then runs on.
    check_argument(grcuda_expression_new(gr::cuda::device(device),
                                         text.c_str(),
                                         value_type<IN_T>(),
                                         value_type<OUT_T>(),
                                         ninputs,
                                         vlen,
                                         name_pointers.data(),
                                         values.data(),
                                         names.size(),
                                         &handle),
                   block);
    return gnuradio::make_block_sptr<expression_impl<IN_T, OUT_T>>(
        block, text, ninputs, vlen, std::move(names), expression_handle(handle), device);
}

template <class IN_T, class OUT_T>
expression_impl<IN_T, OUT_T>::expression_impl(std::string block,
                                              const std::string& text,
                                              size_t ninputs,
                                              size_t vlen,
                                              std::vector<std::string> parameter_names,
                                              expression_handle handle,
                                              int device)
    : gr::sync_block(
          "expression",
          gr::io_signature::make(static_cast<int>(ninputs),
                                 static_cast<int>(ninputs),
                                 sizeof(IN_T) * vlen,
                                 cuda_buffer::type),
          gr::io_signature::make(1, 1, sizeof(OUT_T) * vlen, cuda_buffer::type)),
      cuda_sync_block<expression<IN_T, OUT_T>>(device),
      d_block(std::move(block)),
      d_text(text),
      d_parameter_names(std::move(parameter_names)),
      d_handle(std::move(handle))
{
}

template <class IN_T, class OUT_T>
std::string expression_impl<IN_T, OUT_T>::text() const
{
    return d_text;
}

template <class IN_T, class OUT_T>
std::vector<std::string> expression_impl<IN_T, OUT_T>::parameter_names() const
{
    return d_parameter_names;
}

template <class IN_T, class OUT_T>
float expression_impl<IN_T, OUT_T>::parameter(const std::string& name) const
{
    arguments::require_no_nul(d_block, "name", name);
    float value = 0;
    check_argument(grcuda_expression_parameter(d_handle.get(), name.c_str(), &value),
                   d_block);
    return value;
}

template <class IN_T, class OUT_T>
void expression_impl<IN_T, OUT_T>::set_parameter(const std::string& name, float value)
{
    arguments::require_no_nul(d_block, "name", name);
    check_argument(grcuda_expression_set_parameter(d_handle.get(), name.c_str(), value),
                   d_block);
}

template <class IN_T, class OUT_T>
void expression_impl<IN_T, OUT_T>::set_parameters(
    const std::map<std::string, float>& values)
{
    // One call of libgrcuda, which checks every entry before it sets any: a bad entry
    // leaves all the parameters as they were.
    std::vector<const char*> names;
    std::vector<float> parameter_values;
    for (const auto& value : values) {
        arguments::require_no_nul(d_block, "a parameter's name", value.first);
        names.push_back(value.first.c_str());
        parameter_values.push_back(value.second);
    }
    check_argument(
        grcuda_expression_set_parameters(
            d_handle.get(), names.data(), parameter_values.data(), names.size()),
        d_block);
}

template <class IN_T, class OUT_T>
int expression_impl<IN_T, OUT_T>::work(int noutput_items,
                                       gr_vector_const_void_star& input_items,
                                       gr_vector_void_star& output_items)
{
    check(grcuda_expression_launch(d_handle.get(),
                                   this->stream(),
                                   input_items.data(),
                                   input_items.size(),
                                   output_items[0],
                                   static_cast<size_t>(noutput_items)),
          d_block.c_str());
    return noutput_items;
}

template class expression<float, float>;
template class expression<gr_complex, gr_complex>;
template class expression<gr_complex, float>;
template class expression<float, gr_complex>;

} // namespace cuda
} // namespace gr
