/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// DOC(gr, cuda, block[, member[, overload]]) names the docstring constant that the
// binding templates gr_modtool writes (docstrings/<block>_pydoc_template.h) declare:
// __doc_gr_cuda_block, __doc_gr_cuda_block_member, ... Their D(...) macro expands to it.

#ifndef INCLUDED_CUDA_PYDOC_MACROS_H
#define INCLUDED_CUDA_PYDOC_MACROS_H

#define GRCUDA_DOC_NAME3(a, b, c) __doc_##a##_##b##_##c
#define GRCUDA_DOC_NAME4(a, b, c, d) __doc_##a##_##b##_##c##_##d
#define GRCUDA_DOC_NAME5(a, b, c, d, e) __doc_##a##_##b##_##c##_##d##_##e
#define GRCUDA_DOC_NAME6(a, b, c, d, e, f) __doc_##a##_##b##_##c##_##d##_##e##_##f
#define GRCUDA_DOC_PICK(_1, _2, _3, _4, _5, _6, name, ...) name
#define DOC(...)                        \
    GRCUDA_DOC_PICK(__VA_ARGS__,        \
                    GRCUDA_DOC_NAME6,   \
                    GRCUDA_DOC_NAME5,   \
                    GRCUDA_DOC_NAME4,   \
                    GRCUDA_DOC_NAME3, ) \
    (__VA_ARGS__)

#endif /* INCLUDED_CUDA_PYDOC_MACROS_H */
