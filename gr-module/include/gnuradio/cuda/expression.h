/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_EXPRESSION_H
#define INCLUDED_CUDA_EXPRESSION_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_block.h>
#include <map>
#include <string>
#include <vector>

namespace gr {
namespace cuda {

/*!
 * \brief output = a formula over the inputs in0, in1, ..., as one fused GPU kernel.
 * \ingroup cuda
 *
 * The expression is C++-style: float literals, + - * / and unary minus, parentheses, the
 * math functions (sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, exp, log, log10,
 * sqrt, floor, ceil, trunc, fabs, pow, atan2, fmin, fmax, fmod, hypot) on floats, the
 * complex helpers (conj, abs, arg, real, imag, norm, polar(r, theta), complex(re, im)),
 * and named float parameters, which set_parameter() changes while the flowgraph runs.
 * Types: IN_T for every input, OUT_T for the output; a float promotes to complex where
 * needed, and a complex value for a float output is refused (take real(), abs(), ...).
 * make() checks the expression and compiles its kernel; errors are std::invalid_argument
 * (ValueError) showing the expression with a caret at the fault. With vlen > 1 each item
 * is a vector of vlen values, computed elementwise.
 */
template <class IN_T, class OUT_T>
class CUDA_API expression : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<expression<IN_T, OUT_T>> sptr;

    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(const std::string& expression,
                     size_t ninputs = 1,
                     size_t vlen = 1,
                     const std::map<std::string, float>& parameters = {},
                     int device = default_device);

    //! The expression's text.
    virtual std::string text() const = 0;
    //! The parameters' names.
    virtual std::vector<std::string> parameter_names() const = 0;
    //! The parameter's value; an unknown name is std::invalid_argument.
    virtual float parameter(const std::string& name) const = 0;
    //! Sets a parameter for the calls that follow; any thread may call it.
    virtual void set_parameter(const std::string& name, float value) = 0;
    //! Sets several parameters (GRC's callback for the parameters dict); each name must
    //! be one of the expression's.
    virtual void set_parameters(const std::map<std::string, float>& values) = 0;
};

typedef expression<float, float> expression_ff;
typedef expression<gr_complex, gr_complex> expression_cc;
typedef expression<gr_complex, float> expression_cf;
typedef expression<float, gr_complex> expression_fc;

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_EXPRESSION_H */
