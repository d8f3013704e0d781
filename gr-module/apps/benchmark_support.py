#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""What the module benchmarks share: baselines called straight through libgrcuda's C API,
steady-state rates of running flowgraphs, a CPU source that does not touch its output,
GNU Radio's per-block performance counters, and PNG plots of the results.

Flowgraph rates are read from the last block's item counter while the flowgraph runs
(after a warm-up), so neither start-up nor the end of the flowgraph is in the figure, and
no block has to stop it (cuda.head copies every item: it would add its own GPU work).
"""

import argparse
import ctypes
import json
import os
import time

import numpy as np
from gnuradio import gr

grcuda = ctypes.CDLL("libgrcuda.so.1")
for _name in (
    "grcuda_device_open",
    "grcuda_stream_new",
    "grcuda_memory_new",
    "grcuda_stream_copy_async",
    "grcuda_copy",
    "grcuda_stream_synchronize",
    "grcuda_multiply_const_cc",
    "grcuda_fft_plan_new",
    "grcuda_fft_plan_execute",
):
    getattr(grcuda, _name).restype = ctypes.c_int
grcuda.grcuda_memory_address.restype = ctypes.c_void_p


class complex32(ctypes.Structure):
    _fields_ = [("real", ctypes.c_float), ("imag", ctypes.c_float)]


def ok(status, what):
    if status != 0:
        raise RuntimeError(f"{what}: status {status}")


class raw:
    """Baselines straight through the C API, on one stream of device \\p ordinal."""

    def __init__(self, ordinal=0):
        self.device = ctypes.c_void_p()
        ok(grcuda.grcuda_device_open(ordinal, 0, ctypes.byref(self.device)), f"open device {ordinal}")
        self.stream = ctypes.c_void_p()
        ok(grcuda.grcuda_stream_new(self.device, ctypes.byref(self.stream)), "stream")
        self.fft_plans = {}

    def memory(self, kind, size):
        """Device (kind 0) or pinned host (kind 1) memory, never freed (one process run)."""
        handle = ctypes.c_void_p()
        ok(grcuda.grcuda_memory_new(self.device, kind, ctypes.c_size_t(size), ctypes.byref(handle)), "memory")
        return ctypes.c_void_p(grcuda.grcuda_memory_address(handle))

    def timed(self, calls, launch):
        """Seconds for \\p calls launches back to back, after one warm-up launch."""
        launch()
        ok(grcuda.grcuda_stream_synchronize(self.stream), "sync")
        started = time.perf_counter()
        for _ in range(calls):
            launch()
        ok(grcuda.grcuda_stream_synchronize(self.stream), "sync")
        return time.perf_counter() - started

    def copy(self, destination, source, nbytes):
        """A copy on the copy engines (cuMemcpyAsync): host <-> device, or from another
        device's memory (the driver's peer copy)."""
        ok(grcuda.grcuda_stream_copy_async(self.stream, destination, source, ctypes.c_size_t(nbytes)), "copy")

    def copy_kernel(self, destination, source, nbytes):
        """A device-to-device copy with the kernel the GPU blocks use."""
        ok(grcuda.grcuda_copy(self.stream, source, destination, ctypes.c_size_t(nbytes)), "copy kernel")

    def multiply_cc(self, source, destination, items):
        ok(
            grcuda.grcuda_multiply_const_cc(
                self.stream, source, destination, ctypes.c_size_t(items), complex32(1.0, 0.5)
            ),
            "multiply",
        )

    def fft(self, size, batch, source, destination):
        """A forward transform, cuFFT called directly: one cufftExec call on the stream per
        launch, through a plan of \\p size made at its first launch (timed()'s warm-up) and
        kept, never freed (one process run)."""
        plan = self.fft_plans.get(size)
        if plan is None:
            plan = ctypes.c_void_p()
            ok(grcuda.grcuda_fft_plan_new(self.stream, 0, ctypes.c_size_t(size), ctypes.byref(plan)), "fft plan")
            self.fft_plans[size] = plan
        ok(grcuda.grcuda_fft_plan_execute(plan, ctypes.c_size_t(batch), source, destination), "fft")


class untouched_source(gr.sync_block):
    """A CPU source that produces items without writing them: measures the host-to-device
    copy itself rather than a CPU block filling memory (GNU Radio's null_source memsets)."""

    def __init__(self, itemsize):
        gr.sync_block.__init__(self, "untouched_source", None, [np.dtype((np.uint8, itemsize))])

    def work(self, input_items, output_items):
        return len(output_items[0])


def configure(blocks, items_per_call, buffer_calls):
    """Every measured block makes calls of \\p items_per_call items into buffers of
    \\p buffer_calls calls."""
    for block in blocks:
        block.set_max_noutput_items(items_per_call)
        block.set_min_output_buffer(buffer_calls * items_per_call)


# The longest wait for a flowgraph's first items (NVRTC compiles the largest programs in a
# few seconds); a flowgraph still silent after it is measured as it is, at 0.
FIRST_ITEMS_SECONDS = 60


def steady_rate(tb, last_block, seconds, warmup=0.5):
    """Items per second into \\p last_block's input 0 while \\p tb runs (after \\p warmup)."""
    return steady_rate_and_cores(tb, last_block, seconds, warmup)[0]


def steady_rate_and_cores(tb, last_block, seconds, warmup=0.5, threads=None):
    """steady_rate(), and the CPU cores the process kept busy meanwhile (its CPU time over
    the wall time); \\p threads, a dict, receives thread_usage() over the same time. The
    warm-up starts when the first items reach \\p last_block: a GPU block's first call may
    compile its kernels (seconds, where the kernel cache is empty), which is no rate."""
    tb.start()
    try:
        first_items_by = time.perf_counter() + FIRST_ITEMS_SECONDS
        while last_block.nitems_read(0) == 0 and time.perf_counter() < first_items_by:
            time.sleep(0.01)
        time.sleep(warmup)
        first, started, cpu_started = last_block.nitems_read(0), time.perf_counter(), time.process_time()
        threads_started = thread_times() if threads is not None else None
        time.sleep(seconds)
        last, ended, cpu_ended = last_block.nitems_read(0), time.perf_counter(), time.process_time()
        if threads is not None:
            threads.update(thread_usage(threads_started, thread_times(), ended - started))
    finally:
        tb.stop()
        tb.wait()
    return (last - first) / (ended - started), (cpu_ended - cpu_started) / (ended - started)


def thread_cpu_seconds(folder):
    """The CPU time of the thread whose /proc folder is \\p folder: from schedstat (nanoseconds)
    where the kernel keeps it, else from stat (clock ticks, 10 ms)."""
    try:
        with open(f"{folder}/schedstat") as schedstat:
            return int(schedstat.read().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        with open(f"{folder}/stat") as stat:
            # Fields after the name, which is in parentheses and may hold spaces.
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_times():
    """{thread id: (name, CPU seconds, voluntary context switches)} of this process's threads,
    from Linux's /proc. A voluntary switch is a sleep: a host wait that blocks in the driver,
    a condition variable of GNU Radio's scheduler, a sleep of Python's."""
    times = {}
    for tid in os.listdir("/proc/self/task"):
        folder = f"/proc/self/task/{tid}"
        try:
            with open(f"{folder}/comm") as comm:
                name = comm.read().strip()
            seconds = thread_cpu_seconds(folder)
            with open(f"{folder}/status") as status:
                sleeps = next(int(line.split()[1]) for line in status if line.startswith("voluntary_ctxt_switches"))
        except (OSError, StopIteration):
            continue  # the thread ended meanwhile
        times[tid] = (name, seconds, sleeps)
    return times


def thread_usage(before, after, seconds):
    """{thread name: (cores, sleeps per second)} between two thread_times(), threads of one
    name added up (GNU Radio names a block's thread after the block; the CUDA driver's and
    Python's threads have their own names)."""
    usage = {}
    for tid, (name, cpu, sleeps) in after.items():
        _, cpu_before, sleeps_before = before.get(tid, (name, 0.0, 0))
        cores, rate = usage.get(name, (0.0, 0.0))
        usage[name] = (cores + (cpu - cpu_before) / seconds, rate + (sleeps - sleeps_before) / seconds)
    return usage


def work_times(blocks):
    """GNU Radio's performance counters of \\p blocks: mean microseconds in work() and mean
    items per call, or None where counters are off (GR_CONF_PERFCOUNTERS_ON=True)."""
    figures = []
    for block in blocks:
        try:
            figures.append((block.name(), block.pc_work_time_avg() / 1e3, block.pc_noutput_items_avg()))
        except RuntimeError:
            return None
    return figures


def counters_enabled():
    return os.environ.get("GR_CONF_PERFCOUNTERS_ON", "").lower() in ("1", "true", "yes")


def add_volume_argument(parser):
    """--volume: the bytes each same-run baseline (copy kernel, cuFFT) moves."""
    parser.add_argument("--volume", type=int, default=2 << 30, help="bytes per baseline figure")


def prepare_baselines(args):
    """args.raw for the baselines, and a small --volume in a smoke run (--quick)."""
    if args.quick:
        args.volume = min(args.volume, 16 << 20)
    args.raw = raw()


def copy_rate(args, nbytes):
    """Bytes read plus bytes written per second by libgrcuda's device-to-device copy kernel,
    at nbytes per copy."""
    r = args.raw
    source, destination = r.memory(0, nbytes), r.memory(0, nbytes)
    calls = max(8, args.volume // nbytes)
    return 2 * calls * nbytes / r.timed(calls, lambda: r.copy_kernel(destination, source, nbytes))


def main(description, title, tables, draw, add_arguments=None, prepare=None):
    r"""The command line both benchmarks share: runs \p tables (name -> function(args,
    results), each appending its rows to results[name]) and prints their Markdown; writes
    JSON (--json) and plots through \p draw(results, folder) (--plots); --plot-only redraws
    from a JSON file. \p add_arguments adds a benchmark's own options, \p prepare adjusts
    them (and may return a context object passed to the tables instead of args)."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.5, help="measuring time per flowgraph figure")
    parser.add_argument("--buffer-calls", type=int, default=16, help="buffer size in calls")
    parser.add_argument("--quick", action="store_true", help="smallest size of each table only (a smoke test)")
    parser.add_argument("--only", choices=tuple(tables), action="append", help="run only these tables (repeatable)")
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--plots", help="draw PNG plots into this folder")
    parser.add_argument("--plot-only", help="only draw the plots of this JSON file (needs --plots)")
    if add_arguments:
        add_arguments(parser)
    args = parser.parse_args()
    if args.plot_only:
        with open(args.plot_only) as figures:
            draw(json.load(figures), args.plots)
        return
    if prepare:
        prepare(args)
    # GNU Radio logs set_min_output_buffer at info level on the console it shares with the
    # tables: keep warnings and errors only, so that the Markdown stays a table.
    gr.logging().set_default_level(gr.log_levels.warn)
    from gnuradio import cuda

    print(f"## {title} ({'simulated backend' if cuda.simulated() else 'GPU'})\n")
    results = {name: [] for name in tables}
    for name, table in tables.items():
        if not args.only or name in args.only:
            table(args, results)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)
    if args.plots:
        draw(results, args.plots)


def plot(path, title, xlabel, ylabel, series, log_x=True, log_y=False):
    """A line plot of \\p series ({label: [(x, y), ...]}) to \\p path; skipped where no series
    has a point (a JSON of an --only run holds some tables) and without matplotlib (the GPU
    kit has none: plot from the JSON with --plot-only there)."""
    if not any(series.values()):
        return
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"(matplotlib missing: {path} not drawn)")
        return
    # The legend goes below the axes: with many series it would hide the lines.
    figure, axes = plt.subplots(figsize=(7, 4 + 0.25 * len(series)))
    for label, points in series.items():
        if not points:
            continue
        xs, ys = zip(*points)
        axes.plot(xs, ys, marker="o", label=label)
    if log_x:
        axes.set_xscale("log", base=2)
    if log_y:
        axes.set_yscale("log")
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.grid(True, alpha=0.3)
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.15), fontsize="small", ncol=1 if len(series) > 6 else 2)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    print(f"wrote {path}")
