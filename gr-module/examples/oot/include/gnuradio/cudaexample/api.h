/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDAEXAMPLE_API_H
#define INCLUDED_CUDAEXAMPLE_API_H

#include <gnuradio/attributes.h>

// CMake defines gnuradio_cudaexample_EXPORTS while it builds the gnuradio-cudaexample
// target.
#ifdef gnuradio_cudaexample_EXPORTS
#define CUDAEXAMPLE_API __GR_ATTR_EXPORT
#else
#define CUDAEXAMPLE_API __GR_ATTR_IMPORT
#endif

#endif /* INCLUDED_CUDAEXAMPLE_API_H */
