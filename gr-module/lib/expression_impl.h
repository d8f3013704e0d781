/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_EXPRESSION_IMPL_H
#define INCLUDED_CUDA_EXPRESSION_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/expression.h>
#include <memory>

namespace gr {
namespace cuda {

struct expression_deleter {
    void operator()(grcuda_expression* handle) const { grcuda_expression_free(handle); }
};
using expression_handle = std::unique_ptr<grcuda_expression, expression_deleter>;

template <class IN_T, class OUT_T>
class expression_impl : public cuda_sync_block<expression<IN_T, OUT_T>>
{
public:
    expression_impl(std::string block,
                    const std::string& text,
                    size_t ninputs,
                    size_t vlen,
                    std::vector<std::string> parameter_names,
                    expression_handle handle,
                    int device);

    std::string text() const override;
    std::vector<std::string> parameter_names() const override;
    float parameter(const std::string& name) const override;
    void set_parameter(const std::string& name, float value) override;
    void set_parameters(const std::map<std::string, float>& values) override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const std::string d_block;
    const std::string d_text;
    const std::vector<std::string> d_parameter_names;
    //! libgrcuda's expression: its parameters are atomics, so set_parameter() needs no
    //! lock against work().
    const expression_handle d_handle;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_EXPRESSION_IMPL_H */
