// SPDX-License-Identifier: GPL-3.0-or-later

// The direct-form kernels of kernels/fir_filter.cu on the CPU (cuda_on_cpu.h): FIR
// filters and rational resamplers on random data against GNU Radio's formulas in double
// precision, and the tiled kernels bit for bit against the kernel that reads device
// memory, which sums in the same order. Prints one line per failing case and a summary;
// exits 1 on a failure.

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
    Kernel untiled, tiled, undecimated;
};

// tile_shared_bytes() of src/kernels/fir_filter.rs.
template <typename Sample, typename Tap>
std::size_t tile_shared_bytes(std::size_t tap_count, std::size_t decimation)
{
    const std::size_t phase_taps =
        ((tap_count + decimation - 1) / decimation + 15) / 16 * 16;
    const std::size_t items = TILE_OUTPUTS + phase_taps;
    const std::size_t padded = items + items / 16 * (16 / sizeof(Sample));
    return std::min(decimation, tap_count) * phase_taps * sizeof(Tap) +
           padded * sizeof(Sample);
}

// One call of `outputs` outputs: a FIR filter (interpolation 1, reversed taps) or a
// rational resampler (the prototype's taps), with `tap_count` taps per phase.
template <typename Sample, typename Tap>
bool check(const Kernels& kernels,
           std::size_t tap_count,
           std::size_t interpolation,
           std::size_t decimation,
           std::size_t first_phase,
           std::size_t outputs,
           unsigned blocks,
           Rotation rotation)
{
    std::mt19937 generator(tap_count * 1000 + decimation * 10 + interpolation);
    const Slots slots{ interpolation, first_phase, interpolation > 1 ? 1 : 0 };
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
    const Kernel tiled = decimation == 1 ? kernels.undecimated : kernels.tiled;
    launch(
        blocks, TILE_THREADS, tile_shared_bytes<Sample, Tap>(tap_count, decimation), [&] {
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
                interpolation > 1
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
        std::printf("FAILED %s: %zu taps per phase, interpolation %zu, decimation %zu, "
                    "first phase %zu, %zu outputs, "
                    "%u blocks: %zu outputs differ from the untiled kernel's, worst "
                    "relative error %.2e\n",
                    kernels.name,
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

} // namespace

int main()
{
    const Kernels fff{ "fff",
                       (Kernel)grcuda_fir_filter_fff,
                       (Kernel)grcuda_fir_filter_tiled_fff,
                       (Kernel)grcuda_fir_filter_tiled_undecimated_fff };
    const Kernels ccf{ "ccf",
                       (Kernel)grcuda_fir_filter_ccf,
                       (Kernel)grcuda_fir_filter_tiled_ccf,
                       (Kernel)grcuda_fir_filter_tiled_undecimated_ccf };
    const Kernels ccc{ "ccc",
                       (Kernel)grcuda_fir_filter_ccc,
                       (Kernel)grcuda_fir_filter_tiled_ccc,
                       (Kernel)grcuda_fir_filter_tiled_undecimated_ccc };
    const Rotation none{ 0.0, 0.0, 0 }, turning{ 0.3, 0.001, 1 };
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
                    failures += !check<float, float>(fff,
                                                     tap_count,
                                                     interpolation,
                                                     decimation,
                                                     first_phase,
                                                     outputs,
                                                     blocks,
                                                     none);
                    failures += !check<complex64, float>(ccf,
                                                         tap_count,
                                                         interpolation,
                                                         decimation,
                                                         first_phase,
                                                         outputs,
                                                         blocks,
                                                         rotation);
                    failures += !check<complex64, complex64>(ccc,
                                                             tap_count,
                                                             interpolation,
                                                             decimation,
                                                             first_phase,
                                                             outputs,
                                                             blocks,
                                                             rotation);
                    cases += 3;
                }
            }
        }
    }
    std::printf("%d of %d direct-form cases passed\n", cases - failures, cases);
    return failures == 0 ? 0 : 1;
}
