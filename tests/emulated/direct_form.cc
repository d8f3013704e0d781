// SPDX-License-Identifier: GPL-3.0-or-later

// The direct-form kernels of kernels/fir_filter.cu on the CPU (cuda_on_cpu.h): FIR
// filters and rational resamplers on random data against GNU Radio's formulas in double
// precision, and the tiled and rows kernels bit for bit against the kernel that reads
// device memory, which sums in the same order. Prints one line per failing case and a
// summary; exits 1 on a failure.

#include "cuda_on_cpu.h"

#include KERNEL_SOURCE

#include "kernel_checks.h"

#include <cstdio>

namespace {

using checks::random_item;
using checks::same_bits;
using checks::widened;

using Kernel = void (*)(
    const void*, const void*, void*, count_type, count_type, count_type, Rotation, Slots);

struct Kernels {
    const char* name;
    // rows5 for float samples only (rows_tile() in src/kernels/fir_filter.rs).
    Kernel untiled, tiled, undecimated, rows, rows3, rows5;
};

// How the kernel under test runs: the tiled kernels with TILE_THREADS threads, or the
// rows kernel with `threads` threads of `outputs_per_thread` outputs each (1, 3 or 5).
struct Tiling {
    bool rows;
    unsigned threads;
    unsigned outputs_per_thread = 1;
};

// tile_shared_bytes() of src/kernels/fir_filter.rs.
template <typename Sample, typename Tap>
std::size_t tile_shared_bytes(std::size_t tap_count, std::size_t decimation)
{
    const std::size_t unit = UNIT_OUTPUTS_PER_THREAD;
    const std::size_t phase_taps =
        ((tap_count + decimation - 1) / decimation + unit - 1) / unit * unit;
    const std::size_t items = TILE_OUTPUTS + phase_taps;
    const std::size_t padded = items + items / unit * (16 / sizeof(Sample));
    return std::min(decimation, tap_count) * phase_taps * sizeof(Tap) +
           padded * sizeof(Sample);
}

// rows_tile() of src/kernels/fir_filter.rs, for `threads` threads: every slot's taps,
// then the rows (one more where the slots' inputs start up to a row apart).
template <typename Sample, typename Tap>
std::size_t rows_shared_bytes(std::size_t tap_count,
                              std::size_t interpolation,
                              std::size_t decimation,
                              unsigned threads,
                              unsigned outputs_per_thread)
{
    const std::size_t most_phase_taps = (tap_count + decimation - 1) / decimation;
    const std::size_t taps =
        (interpolation * std::min(decimation, tap_count) * most_phase_taps * sizeof(Tap) +
         15) /
        16 * 16;
    const std::size_t rows =
        threads * outputs_per_thread - 1 + most_phase_taps + (interpolation > 1 ? 1 : 0);
    return taps + rows * (decimation | 1) * sizeof(Sample);
}

// One call of `outputs` outputs: a FIR filter (interpolation 1, reversed taps) or a
// rational resampler (the prototype's taps, also without interpolation where
// `prototype`), with `tap_count` taps per phase.
template <typename Sample, typename Tap>
bool check(const Kernels& kernels,
           Tiling tiling,
           std::size_t tap_count,
           std::size_t interpolation,
           std::size_t decimation,
           std::size_t first_phase,
           std::size_t outputs,
           unsigned blocks,
           Rotation rotation,
           bool prototype = false)
{
    std::mt19937 generator(tap_count * 1000 + decimation * 10 + interpolation);
    prototype = prototype || interpolation > 1;
    const Slots slots{ interpolation, first_phase, prototype ? 1 : 0 };
    const std::size_t input_items =
        (first_phase + (outputs - 1) * decimation) / interpolation + tap_count;
    std::vector<Sample> input(input_items), expected(outputs), actual(outputs);
    std::vector<Tap> taps(tap_count * interpolation);
    for (Sample& item : input)
        item = random_item<Sample>(generator);
    for (Tap& tap : taps)
        tap = random_item<Tap>(generator);
    launch(3, 64, 0, [&] {
        kernels.untiled(input.data(),
                        taps.data(),
                        expected.data(),
                        outputs,
                        tap_count,
                        decimation,
                        rotation,
                        slots);
    });
    const Kernel rows = tiling.outputs_per_thread == 5   ? kernels.rows5
                        : tiling.outputs_per_thread == 3 ? kernels.rows3
                                                         : kernels.rows;
    const Kernel tiled = tiling.rows       ? rows
                         : decimation == 1 ? kernels.undecimated
                                           : kernels.tiled;
    const unsigned threads = tiling.rows ? tiling.threads : TILE_THREADS;
    const std::size_t shared_bytes =
        tiling.rows ? rows_shared_bytes<Sample, Tap>(tap_count,
                                                     interpolation,
                                                     decimation,
                                                     threads,
                                                     tiling.outputs_per_thread)
                    : tile_shared_bytes<Sample, Tap>(tap_count, decimation);
    launch(blocks, threads, shared_bytes, [&] {
        tiled(input.data(),
              taps.data(),
              actual.data(),
              outputs,
              tap_count,
              decimation,
              rotation,
              slots);
    });
    std::size_t differing = 0;
    double worst = 0.0;
    for (std::size_t i = 0; i < outputs; ++i) {
        differing += !same_bits(expected[i], actual[i]);
        std::complex<double> sum = 0.0;
        double magnitude = 0.0;
        const std::size_t position = first_phase + i * decimation;
        for (std::size_t k = 0; k < tap_count; ++k) {
            // GNU Radio's rational_resampler loop, or fir_filter with its taps reversed.
            const std::complex<double> term =
                prototype
                    ? widened(input[position / interpolation + tap_count - 1 - k]) *
                          widened(taps[position % interpolation + k * interpolation])
                    : widened(input[i * decimation + k]) * widened(taps[k]);
            sum += term;
            magnitude += std::abs(term);
        }
        if (rotation.rotate) {
            sum *= std::polar(1.0, rotation.start + i * rotation.increment);
        }
        worst = std::max(worst, std::abs(sum - widened(actual[i])) / (magnitude + 1e-30));
    }
    const bool passed = differing == 0 && worst < 1e-6;
    if (!passed) {
        std::printf("FAILED %s (%s, %u threads of %u outputs): %zu taps per phase, "
                    "interpolation %zu, "
                    "decimation %zu, first phase %zu, %zu outputs, "
                    "%u blocks: %zu outputs differ from the untiled kernel's, worst "
                    "relative error %.2e\n",
                    kernels.name,
                    tiling.rows ? "rows" : "tiled",
                    threads,
                    tiling.rows ? tiling.outputs_per_thread : 16,
                    tap_count,
                    interpolation,
                    decimation,
                    first_phase,
                    outputs,
                    blocks,
                    differing,
                    worst);
    }
    return passed;
}

// One case for each of the three types: fff unrotated, ccf and ccc with `rotation`
// (float samples only for 5 outputs per thread). Adds the cases to `cases`; returns the
// number of failures.
int check_types(const Kernels (&kernels)[3],
                Tiling tiling,
                std::size_t tap_count,
                std::size_t interpolation,
                std::size_t decimation,
                std::size_t first_phase,
                std::size_t outputs,
                unsigned blocks,
                Rotation rotation,
                int& cases,
                bool prototype = false)
{
    // check<Sample, Tap> of one kernel family, with this case's shape.
    const auto passed = [&](auto sample, auto tap, const Kernels& family, Rotation turn) {
        return check<decltype(sample), decltype(tap)>(family,
                                                      tiling,
                                                      tap_count,
                                                      interpolation,
                                                      decimation,
                                                      first_phase,
                                                      outputs,
                                                      blocks,
                                                      turn,
                                                      prototype);
    };
    const bool complex_too = tiling.outputs_per_thread != 5;
    cases += complex_too ? 3 : 1;
    int failures = !passed(float(), float(), kernels[0], Rotation{ 0.0, 0.0, 0 });
    if (complex_too) {
        failures += !passed(complex64(), float(), kernels[1], rotation) +
                    !passed(complex64(), complex64(), kernels[2], rotation);
    }
    return failures;
}

} // namespace

int main()
{
    const Kernels kernels[3] = {
        { "fff",
          (Kernel)grcuda_fir_filter_fff,
          (Kernel)grcuda_fir_filter_tiled_fff,
          (Kernel)grcuda_fir_filter_tiled_undecimated_fff,
          (Kernel)grcuda_fir_filter_rows_fff,
          (Kernel)grcuda_fir_filter_rows3_fff,
          (Kernel)grcuda_fir_filter_rows5_fff },
        { "ccf",
          (Kernel)grcuda_fir_filter_ccf,
          (Kernel)grcuda_fir_filter_tiled_ccf,
          (Kernel)grcuda_fir_filter_tiled_undecimated_ccf,
          (Kernel)grcuda_fir_filter_rows_ccf,
          (Kernel)grcuda_fir_filter_rows3_ccf,
          nullptr },
        { "ccc",
          (Kernel)grcuda_fir_filter_ccc,
          (Kernel)grcuda_fir_filter_tiled_ccc,
          (Kernel)grcuda_fir_filter_tiled_undecimated_ccc,
          (Kernel)grcuda_fir_filter_rows_ccc,
          (Kernel)grcuda_fir_filter_rows3_ccc,
          nullptr },
    };
    const Rotation none{ 0.0, 0.0, 0 }, turning{ 0.3, 0.001, 1 };
    const Tiling tiled{ false, TILE_THREADS };
    int cases = 0, failures = 0;
    // Phases of one tap, of a partial block, of whole blocks and more; calls of one
    // output, of less than a tile and of several tiles (more than the blocks, so that
    // blocks take a second tile).
    for (std::size_t tap_count : { 1, 7, 16, 33 }) {
        for (std::size_t interpolation : { 1, 3 }) {
            for (std::size_t decimation : { 1, 2, 5 }) {
                for (std::size_t outputs : { 1, 2047, 7001 }) {
                    const std::size_t first_phase = (tap_count + outputs) % interpolation;
                    const unsigned blocks = outputs > 4096 ? 2 : 1;
                    const Rotation rotation =
                        interpolation == 1 && outputs > 4096 ? turning : none;
                    failures += check_types(kernels,
                                            tiled,
                                            tap_count,
                                            interpolation,
                                            decimation,
                                            first_phase,
                                            outputs,
                                            blocks,
                                            rotation,
                                            cases);
                }
            }
        }
    }
    // The rows kernel: FIR filters, resamplers without interpolation, and resamplers of
    // three slots sharing the rows (at decimation 2 and first phase 2 the last slot's
    // input starts a whole row after the first's); phases of one tap to many, decimations
    // odd and even (the rows' pitch), tiles of 32 to 256 outputs, calls of one output, of
    // part of a tile and of several tiles per block.
    for (std::size_t tap_count : { 1, 5, 64, 161 }) {
        for (std::size_t decimation : { 2, 7, 16, 33 }) {
            for (const Tiling rows : { Tiling{ true, 32, 1 },
                                       Tiling{ true, 256, 1 },
                                       Tiling{ true, 32, 3 },
                                       Tiling{ true, 64, 5 } }) {
                for (std::size_t interpolation : { 1, 3 }) {
                    for (std::size_t outputs : { 1, 45, 1001 }) {
                        const std::size_t first_phase =
                            (outputs + decimation) % interpolation;
                        const bool fir_filter = interpolation == 1 && tap_count != 5;
                        failures +=
                            check_types(kernels,
                                        rows,
                                        tap_count,
                                        interpolation,
                                        decimation,
                                        first_phase,
                                        outputs,
                                        outputs > 500 ? 2 : 1,
                                        fir_filter && outputs > 500 ? turning : none,
                                        cases,
                                        !fir_filter);
                    }
                }
            }
        }
    }
    std::printf("%d of %d direct-form cases passed\n", cases - failures, cases);
    return failures == 0 ? 0 : 1;
}
