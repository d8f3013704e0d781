// SPDX-License-Identifier: GPL-3.0-or-later

// The moving-average kernels of kernels/moving_average.cu on the CPU (cuda_on_cpu.h): the
// sums against their definition in double precision, and the tiled kernel (vectors of one
// item) bit for bit against the kernel that reads device memory, which makes the same
// additions in the same order. Prints one line per failing case and a summary; exits 1 on
// a failure.

#include "cuda_on_cpu.h"

#include KERNEL_SOURCE

#include "kernel_checks.h"

#include <cstdio>

namespace {

using checks::random_item;
using checks::same_bits;
using checks::widened;

template <typename T>
using Untiled =
    void (*)(const T*, T*, count_type, count_type, count_type, T, count_type, count_type);
template <typename T>
using Tiled = void (*)(const T*, T*, count_type, count_type, T, count_type);

// tile_shared_bytes() of src/kernels/moving_average.rs.
template <typename T>
std::size_t tile_shared_bytes(std::size_t length)
{
    const auto padded = [](std::size_t items) { return items + items / 32; };
    const std::size_t positions = MOVING_AVERAGE_TILE_THREADS * MOVING_AVERAGE_SEGMENT;
    return (padded(positions) + padded(positions + length - 1) + 1) * sizeof(T);
}

// One call of `items` outputs of `vlen` lanes whose first output is output `phase` of its
// segment; the input holds segment - 1 + length - 1 items of history.
template <typename T>
bool check(const char* name,
           Untiled<T> untiled,
           Tiled<T> tiled,
           std::size_t items,
           std::size_t vlen,
           std::size_t length,
           std::size_t segment,
           std::size_t phase,
           unsigned blocks)
{
    std::mt19937 generator(items * 7 + vlen * 11 + length * 13 + segment * 17 + phase);
    const T scale = random_item<T>(generator);
    std::vector<T> input((items + segment - 1 + length - 1) * vlen),
        expected(items * vlen), actual(items * vlen);
    for (T& item : input)
        item = random_item<T>(generator);
    launch(blocks, 64, 0, [&] {
        untiled(
            input.data(), expected.data(), items, vlen, length, scale, segment, phase);
    });
    std::size_t differing = 0;
    // The host runs the tiled kernel for vectors of one lane and whole segments.
    if (vlen == 1 && segment == MOVING_AVERAGE_SEGMENT) {
        launch(blocks, MOVING_AVERAGE_TILE_THREADS, tile_shared_bytes<T>(length), [&] {
            tiled(input.data(), actual.data(), items, length, scale, phase);
        });
        for (std::size_t i = 0; i < items; ++i)
            differing += !same_bits(expected[i], actual[i]);
    }
    double worst = 0.0;
    for (std::size_t o = 0; o < items; ++o) {
        for (std::size_t lane = 0; lane < vlen; ++lane) {
            std::complex<double> sum = 0.0;
            double magnitude = 0.0;
            for (std::size_t k = 0; k < length; ++k) {
                const std::complex<double> item =
                    widened(input[(segment - 1 + o + k) * vlen + lane]);
                sum += item;
                magnitude += std::abs(item);
            }
            const std::complex<double> error =
                sum * widened(scale) - widened(expected[o * vlen + lane]);
            worst = std::max(worst,
                             std::abs(error) /
                                 ((magnitude + 1e-30) * std::abs(widened(scale))));
        }
    }
    const bool passed = differing == 0 && worst < 1e-5;
    if (!passed) {
        std::printf("FAILED %s: %zu items of %zu lanes, length %zu, segment %zu, phase "
                    "%zu, %u blocks: %zu outputs "
                    "differ between the kernels, worst relative error %.2e\n",
                    name,
                    items,
                    vlen,
                    length,
                    segment,
                    phase,
                    blocks,
                    differing,
                    worst);
    }
    return passed;
}

// The chunked kernel for long windows (segments of MOVING_AVERAGE_CHUNK outputs): bit for
// bit against the order of additions its comment gives (and the simulated backend makes),
// and against the definition in double precision.
template <typename T>
bool check_chunked(const char* name,
                   Tiled<T> chunked,
                   std::size_t items,
                   std::size_t length,
                   std::size_t phase,
                   unsigned blocks)
{
    constexpr std::size_t S = MOVING_AVERAGE_CHUNK;
    std::mt19937 generator(items * 7 + length * 13 + phase);
    const T scale = random_item<T>(generator);
    std::vector<T> input(items + S - 1 + length - 1), actual(items), expected(items);
    for (T& item : input)
        item = random_item<T>(generator);
    const std::size_t whole_chunks = (length - 1) / S;
    const std::size_t shared_bytes =
        (MOVING_AVERAGE_CHUNK_THREADS + whole_chunks - 1) * sizeof(T);
    launch(blocks, MOVING_AVERAGE_CHUNK_THREADS, shared_bytes, [&] {
        chunked(input.data(), actual.data(), items, length, scale, phase);
    });
    // origin[p] is the first item of position p's window; positions start `phase` before
    // the first output.
    const T* origin = input.data() + (S - 1) - phase;
    for (std::size_t first = 0; first < phase + items; first += S) {
        T sum{};
        for (std::size_t k = 0; k < whole_chunks; ++k) {
            T chunk{};
            for (std::size_t j = 0; j < S; ++j)
                chunk = grcuda::add(chunk, origin[first + k * S + j]);
            sum = grcuda::add(sum, chunk);
        }
        for (std::size_t k = whole_chunks * S; k + 1 < length; ++k)
            sum = grcuda::add(sum, origin[first + k]);
        for (std::size_t i = first; i < std::min(first + S, phase + items); ++i) {
            sum = grcuda::add(sum, origin[i + length - 1]);
            if (i >= phase)
                expected[i - phase] = grcuda::multiply(sum, scale);
            sum = grcuda::subtract(sum, origin[i]);
        }
    }
    std::size_t differing = 0;
    double worst = 0.0;
    for (std::size_t o = 0; o < items; ++o) {
        differing += !same_bits(expected[o], actual[o]);
        std::complex<double> sum = 0.0;
        double magnitude = 0.0;
        for (std::size_t k = 0; k < length; ++k) {
            sum += widened(origin[phase + o + k]);
            magnitude += std::abs(widened(origin[phase + o + k]));
        }
        worst = std::max(worst,
                         std::abs(sum * widened(scale) - widened(actual[o])) /
                             ((magnitude + 1e-30) * std::abs(widened(scale))));
    }
    const bool passed = differing == 0 && worst < 1e-5;
    if (!passed) {
        std::printf(
            "FAILED chunked %s: %zu items, length %zu, phase %zu, %u blocks: %zu "
            "outputs differ from the order of additions, worst relative error %.2e\n",
            name,
            items,
            length,
            phase,
            blocks,
            differing,
            worst);
    }
    return passed;
}

} // namespace

int main()
{
    int cases = 0, failures = 0;
    // Lengths around the segment of 32 items: the start of a segment's sum runs in
    // blocks of 32, and a window may end across a pad at any offset.
    for (std::size_t length : { 1, 2, 7, 32, 33, 64, 100 }) {
        for (std::size_t segment : { 1, 5, 32 }) {
            for (std::size_t phase : { std::size_t{ 0 }, segment - 1 }) {
                for (std::size_t items : { 1, 1000, 5000 }) {
                    for (std::size_t vlen : { 1, 3 }) {
                        // Several tiles per block when the call holds more tiles than
                        // blocks.
                        const unsigned blocks = items > 64 * segment ? 2 : 1;
                        failures += !check<float>("float32",
                                                  grcuda_moving_average_float32,
                                                  grcuda_moving_average_tiled_float32,
                                                  items,
                                                  vlen,
                                                  length,
                                                  segment,
                                                  phase,
                                                  blocks);
                        failures +=
                            !check<complex64>("complex64",
                                              grcuda_moving_average_complex64,
                                              grcuda_moving_average_tiled_complex64,
                                              items,
                                              vlen,
                                              length,
                                              segment,
                                              phase,
                                              blocks);
                        cases += 2;
                    }
                }
            }
        }
    }
    // Long windows: a whole number of chunks and one more item (no remaining items, 63 of
    // them), calls of one segment or of several tiles, the call starting inside a
    // segment.
    for (std::size_t length : { 1024, 1025, 1087, 5000 }) {
        for (std::size_t phase : { 0, 63 }) {
            for (std::size_t items : { 1, 700, 20000 }) {
                const unsigned blocks = items > 8192 ? 2 : 1;
                failures += !check_chunked<float>("float32",
                                                  grcuda_moving_average_chunked_float32,
                                                  items,
                                                  length,
                                                  phase,
                                                  blocks);
                failures +=
                    !check_chunked<complex64>("complex64",
                                              grcuda_moving_average_chunked_complex64,
                                              items,
                                              length,
                                              phase,
                                              blocks);
                cases += 2;
            }
        }
    }
    std::printf("%d of %d moving-average cases passed\n", cases - failures, cases);
    return failures == 0 ? 0 : 1;
}
