// SPDX-License-Identifier: GPL-3.0-or-later

//! Benchmark of the buffer protocol; prints Markdown tables (docs/PERFORMANCE.md holds them).
//!
//! 1. Host-to-device and device-to-host throughput through a buffer (a CPU thread and a GPU
//!    "block" thread, as in a flowgraph), against raw cuMemcpyAsync between a pinned and a
//!    device allocation, in the same run, for several sizes per call.
//! 2. CPU cost of the protocol calls per work() round, in microseconds.
//! 3. multiply_const_ff through two device-to-device buffers (three blocks, three streams)
//!    against the same kernel on raw allocations of the same size: once with one thread making
//!    every block's calls in turn (the protocol's own cost), once with a thread per block and
//!    a condition-variable scheduler like GNU Radio's (adds thread hand-offs).
//! 4. Kernel launches: the CPU time of enqueueing one or three small kernels with
//!    cuLaunchKernel, as nodes of a graph given new arguments before each launch, and through
//!    libgrcuda's launcher.
//! 5. The driver calls of a GPU block's work() (a launch, an event record, a stream wait)
//!    made by 1 to 8 threads at once, as GNU Radio's threads make them.
//! 6. What making and freeing a buffer costs, by ring size and edge kind: a flowgraph's start
//!    makes one per edge, and an edge between a CPU and a GPU block also pins a host ring as
//!    large as its device ring.
//!
//! Run: cargo run --release --example benchmark [-- --quick] [--only TABLE ...], TABLE one of
//! transfers, protocol, multiply, graphs, concurrent_calls, buffer_lifetime.

#[path = "../tests/support/mod.rs"]
mod support;

use grcuda::buffer::{Buffer, TransferType};
use grcuda::memory::{DeviceAllocation, PinnedAllocation, host_ring_cache};
use grcuda::{Device, Event, HostWait, Stream, kernels};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};
use support::Edge;

struct Settings {
    /// Bytes moved per measurement.
    volume: usize,
    /// Measurements per figure; the median is reported.
    repeats: usize,
    /// Protocol rounds for the CPU-cost figure.
    rounds: usize,
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn measure(settings: &Settings, mut run: impl FnMut() -> Duration) -> f64 {
    run(); // warm-up: first-use costs (pinning, module load) are not the steady state
    median((0..settings.repeats).map(|_| run().as_secs_f64()).collect())
}

fn gigabytes_per_second(bytes: usize, seconds: f64) -> f64 {
    bytes as f64 / seconds / 1e9
}

/// Raw copies of `chunk` bytes, back to back on one stream, between pinned and device memory;
/// with `event_per_copy`, an event recorded after each copy, as any event-based protocol must.
fn raw_copy(device: &Device, settings: &Settings, chunk: usize, to_device: bool, event_per_copy: bool) -> f64 {
    let host = PinnedAllocation::new(device, chunk).unwrap();
    let device_memory = DeviceAllocation::new(device, chunk).unwrap();
    let stream = Stream::new(device).unwrap();
    let event = Event::new(device, HostWait::Spin).unwrap();
    let calls = settings.volume.div_ceil(chunk);
    let (destination, source) =
        if to_device { (device_memory.address(), host.address()) } else { (host.address(), device_memory.address()) };
    let seconds = measure(settings, || {
        let started = Instant::now();
        for _ in 0..calls {
            unsafe { stream.copy_async(destination, source, chunk).unwrap() };
            if event_per_copy {
                stream.record(&event).unwrap();
            }
        }
        stream.synchronize().unwrap();
        started.elapsed()
    });
    gigabytes_per_second(calls * chunk, seconds)
}

/// `chunk` bytes per work() call through a buffer of 8 chunks: host-to-device (CPU writer
/// thread, GPU reader thread) or device-to-host (GPU writer thread, CPU reader thread).
fn buffered_copy(device: &Device, settings: &Settings, chunk: usize, to_device: bool, host_wait: HostWait) -> f64 {
    let calls = settings.volume.div_ceil(chunk);
    let seconds = measure(settings, || {
        let buffer = Buffer::new(device, 4, 8 * chunk / 4, host_wait).unwrap();
        let transfer = if to_device { TransferType::HostToDevice } else { TransferType::DeviceToHost };
        buffer.set_transfer_type(transfer).unwrap();
        let gpu_stream = Arc::new(Stream::new(device).unwrap());
        let edge = Edge::new(buffer);
        let reader = if to_device {
            edge.add_reader(Some(gpu_stream.clone()))
        } else {
            edge.buffer.set_writer_stream(Some(gpu_stream.clone())).unwrap();
            edge.add_reader(None)
        };
        let items = (chunk / 4) as u64;
        let started = Instant::now();
        let writer = {
            let edge = edge.clone();
            thread::spawn(move || {
                for _ in 0..calls {
                    let (index, n) = edge.wait_space(items);
                    edge.buffer.begin_write(index, n as usize).unwrap();
                    edge.buffer.post_work(index, n as usize).unwrap();
                    edge.publish(n);
                }
                edge.finish();
            })
        };
        // The GPU reader works on one call's worth per work() (a block whose output is the same
        // size); the CPU reader takes every item already copied, so the copies stay queued.
        let want = if to_device { items } else { u64::MAX };
        let reader_handle = edge.buffer.reader(reader).unwrap();
        while let Some((index, available)) = edge.wait_items(reader, want) {
            let n = if to_device { available } else { support::pipeline::published(&edge.buffer, index, available) };
            edge.buffer.consume(&reader_handle, index, n as usize).unwrap();
            edge.release(reader, n);
        }
        writer.join().unwrap();
        edge.buffer.synchronize().unwrap();
        gpu_stream.synchronize().unwrap();
        started.elapsed()
    });
    gigabytes_per_second(calls * chunk, seconds)
}

fn transfer_table(device: &Device, settings: &Settings) {
    for (to_device, title) in [(true, "Host-to-device"), (false, "Device-to-host")] {
        println!("### {title} copies through a buffer vs raw pinned cuMemcpyAsync\n");
        println!("GB/s. \"raw + event\": the raw copies with an event recorded after each, the least any");
        println!("event-based protocol adds. Ratios are the buffer against plain raw copies.\n");
        println!(
            "| bytes per call | raw | raw + event | buffer, spin events | ratio | buffer, blocking-sync events | ratio |"
        );
        println!("|---:|---:|---:|---:|---:|---:|---:|");
        for chunk in [64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20] {
            let raw = raw_copy(device, settings, chunk, to_device, false);
            let with_event = raw_copy(device, settings, chunk, to_device, true);
            let spin = buffered_copy(device, settings, chunk, to_device, HostWait::Spin);
            let block = buffered_copy(device, settings, chunk, to_device, HostWait::Block);
            println!(
                "| {} | {raw:.1} | {with_event:.1} | {spin:.1} | {:.0}% | {block:.1} | {:.0}% |",
                human_bytes(chunk),
                100.0 * spin / raw,
                100.0 * block / raw
            );
        }
        println!();
    }
}

/// CPU time of the calls one work() round makes on a device-to-device edge (begin_write,
/// post_work, and the reader's consume), with no kernels so the GPU is never the limit.
fn protocol_cost_table(device: &Device, settings: &Settings) {
    let buffer = Buffer::new(device, 4, 1 << 20, HostWait::Spin).unwrap();
    buffer.set_transfer_type(TransferType::DeviceToDevice).unwrap();
    let writer = Arc::new(Stream::new(device).unwrap());
    let reader_stream = Arc::new(Stream::new(device).unwrap());
    buffer.set_writer_stream(Some(writer.clone())).unwrap();
    let reader = buffer.add_reader(Some(reader_stream.clone())).unwrap();
    let ring = buffer.ring_items();
    let mut timings = [Duration::ZERO; 3];
    for round in 0..settings.rounds {
        let index = (round * 4096) % ring;
        let started = Instant::now();
        buffer.begin_write(index, 4096).unwrap();
        let begun = Instant::now();
        buffer.post_work(index, 4096).unwrap();
        let posted = Instant::now();
        buffer.consume(&reader, index, 4096).unwrap();
        let consumed = Instant::now();
        timings[0] += begun - started;
        timings[1] += posted - begun;
        timings[2] += consumed - posted;
    }
    buffer.synchronize().unwrap();
    let per_round = |d: Duration| d.as_secs_f64() * 1e6 / settings.rounds as f64;
    println!("### CPU cost of the protocol per work() round (device-to-device edge, one GPU reader)\n");
    println!("| call | microseconds per call |");
    println!("|---|---:|");
    println!("| begin_write (writer stream waits for the reader's overlapping read) | {:.2} |", per_round(timings[0]));
    println!("| post_work (post event + reader stream waits for it) | {:.2} |", per_round(timings[1]));
    println!("| consume (read event on the reader's stream) | {:.2} |", per_round(timings[2]));
    println!("| whole round | {:.2} |", per_round(timings.iter().sum()));
    println!("\n({} rounds)\n", settings.rounds);
}

/// Calls' worth of items each multiply buffer holds; the bare kernel cycles through the same
/// footprint, so neither runs from cache while the other runs from memory.
const MULTIPLY_RING_CALLS: usize = 4;

/// The bare kernel: multiply_const_ff between raw allocations of the rings' size, back to back
/// on one stream, moving through them call by call.
fn raw_multiply(device: &Device, settings: &Settings, items: usize) -> f64 {
    let input = DeviceAllocation::new(device, MULTIPLY_RING_CALLS * items * 4).unwrap();
    let output = DeviceAllocation::new(device, MULTIPLY_RING_CALLS * items * 4).unwrap();
    let stream = Stream::new(device).unwrap();
    let calls = (settings.volume / 4).div_ceil(items);
    let seconds = measure(settings, || {
        let started = Instant::now();
        for call in 0..calls {
            let offset = ((call % MULTIPLY_RING_CALLS) * items * 4) as u64;
            unsafe {
                kernels::multiply_const(&stream, input.address() + offset, output.address() + offset, items, 1.5f32)
                    .unwrap()
            };
        }
        stream.synchronize().unwrap();
        started.elapsed()
    });
    (calls * items) as f64 / seconds / 1e9
}

/// source -> [D2D] -> multiply_const_ff -> [D2D] -> sink, every block's calls made in turn by
/// one thread: the protocol's cost without any scheduler's.
fn driven_multiply(device: &Device, settings: &Settings, items: usize, host_wait: HostWait) -> f64 {
    let calls = (settings.volume / 4).div_ceil(items);
    let seconds = measure(settings, || {
        let streams: Vec<Arc<Stream>> = (0..3).map(|_| Arc::new(Stream::new(device).unwrap())).collect();
        let buffer = |writer: &Arc<Stream>, reader: &Arc<Stream>| {
            let buffer = Buffer::new(device, 4, MULTIPLY_RING_CALLS * items, host_wait).unwrap();
            buffer.set_transfer_type(TransferType::DeviceToDevice).unwrap();
            buffer.set_writer_stream(Some(writer.clone())).unwrap();
            let reader = buffer.add_reader(Some(reader.clone())).unwrap();
            (buffer, reader)
        };
        let (first, multiply_reader) = buffer(&streams[0], &streams[1]);
        let (second, sink_reader) = buffer(&streams[1], &streams[2]);
        let ring = first.ring_items();
        let started = Instant::now();
        for call in 0..calls {
            let index = (call * items) % ring;
            first.begin_write(index, items).unwrap();
            first.post_work(index, items).unwrap();
            second.begin_write(index, items).unwrap();
            let (input, output) = (first.reader_pointer(index).unwrap(), second.writer_pointer(index).unwrap());
            unsafe { kernels::multiply_const(&streams[1], input, output, items, 1.5f32).unwrap() };
            first.consume(&multiply_reader, index, items).unwrap();
            second.post_work(index, items).unwrap();
            second.consume(&sink_reader, index, items).unwrap();
        }
        streams.iter().for_each(|s| s.synchronize().unwrap());
        started.elapsed()
    });
    (calls * items) as f64 / seconds / 1e9
}

/// source block -> [D2D] -> multiply_const_ff block -> [D2D] -> sink block, one thread and one
/// stream each; the source and sink enqueue no work, so the figure is the multiply block's.
fn buffered_multiply(device: &Device, settings: &Settings, items: usize, host_wait: HostWait) -> f64 {
    let calls = (settings.volume / 4).div_ceil(items);
    let seconds = measure(settings, || {
        let edge = |writer: &Arc<Stream>| {
            let buffer = Buffer::new(device, 4, MULTIPLY_RING_CALLS * items, host_wait).unwrap();
            buffer.set_transfer_type(TransferType::DeviceToDevice).unwrap();
            buffer.set_writer_stream(Some(writer.clone())).unwrap();
            Edge::new(buffer)
        };
        let streams: Vec<Arc<Stream>> = (0..3).map(|_| Arc::new(Stream::new(device).unwrap())).collect();
        let (first, second) = (edge(&streams[0]), edge(&streams[1]));
        let multiply_reader = first.add_reader(Some(streams[1].clone()));
        let sink_reader = second.add_reader(Some(streams[2].clone()));
        let started = Instant::now();
        let source = {
            let first = first.clone();
            thread::spawn(move || {
                for _ in 0..calls {
                    let (index, n) = first.wait_space(items as u64);
                    first.buffer.begin_write(index, n as usize).unwrap();
                    first.buffer.post_work(index, n as usize).unwrap();
                    first.publish(n);
                }
                first.finish();
            })
        };
        let multiply = {
            let (first, second, stream) = (first.clone(), second.clone(), streams[1].clone());
            thread::spawn(move || {
                let multiply_handle = first.buffer.reader(multiply_reader).unwrap();
                while let Some((read_index, available)) = first.wait_items(multiply_reader, items as u64) {
                    let (write_index, n) = second.wait_space(available);
                    second.buffer.begin_write(write_index, n as usize).unwrap();
                    let input = first.buffer.reader_pointer(read_index).unwrap();
                    let output = second.buffer.writer_pointer(write_index).unwrap();
                    unsafe { kernels::multiply_const(&stream, input, output, n as usize, 1.5f32).unwrap() };
                    first.buffer.consume(&multiply_handle, read_index, n as usize).unwrap();
                    first.release(multiply_reader, n);
                    second.buffer.post_work(write_index, n as usize).unwrap();
                    second.publish(n);
                }
                second.finish();
            })
        };
        let sink_handle = second.buffer.reader(sink_reader).unwrap();
        while let Some((index, n)) = second.wait_items(sink_reader, u64::MAX) {
            second.buffer.consume(&sink_handle, index, n as usize).unwrap();
            second.release(sink_reader, n);
        }
        source.join().unwrap();
        multiply.join().unwrap();
        streams.iter().for_each(|s| s.synchronize().unwrap());
        started.elapsed()
    });
    (calls * items) as f64 / seconds / 1e9
}

fn multiply_table(device: &Device, settings: &Settings) {
    println!("### multiply_const_ff through device-to-device buffers vs the bare kernel\n");
    println!("Gitems/s; \"driven\": one thread makes every block's calls in turn; \"threaded\": a thread per block.\n");
    println!(
        "| items per call | bare kernel | driven, spin events | ratio | driven, blocking-sync events | ratio | threaded, spin events | ratio |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for shift in [16, 18, 20, 22, 24] {
        let items = 1usize << shift;
        let raw = raw_multiply(device, settings, items);
        let spin = driven_multiply(device, settings, items, HostWait::Spin);
        let block = driven_multiply(device, settings, items, HostWait::Block);
        let threaded = buffered_multiply(device, settings, items, HostWait::Spin);
        let ratio = |x: f64| 100.0 * x / raw;
        println!(
            "| 2^{shift} | {raw:.1} | {spin:.1} | {:.0}% | {block:.1} | {:.0}% | {threaded:.1} | {:.0}% |",
            ratio(spin),
            ratio(block),
            ratio(threaded)
        );
    }
    println!();
}

/// CPU microseconds per call of `launch`, which enqueues on `stream`, over `calls` calls
/// (the GPU work is a few microseconds: the host's launch cost sets the pace).
fn launch_microseconds(stream: &Stream, calls: usize, mut launch: impl FnMut()) -> f64 {
    launch();
    stream.synchronize().unwrap();
    let started = Instant::now();
    for _ in 0..calls {
        launch();
    }
    let elapsed = started.elapsed();
    stream.synchronize().unwrap();
    elapsed.as_secs_f64() * 1e6 / calls as f64
}

/// A kernel argument as the driver takes it: a pointer to the value.
fn kernel_argument<T>(value: &T) -> *mut std::ffi::c_void {
    (value as *const T).cast_mut().cast()
}

/// libgrcuda's multiply_const_ff kernel, compiled from its source and loaded into the
/// context of `stream`'s device (which making the stream made current on this thread), for
/// launches made straight through the driver.
fn multiply_const_function(stream: &Stream) -> cudarc::driver::sys::CUfunction {
    use cudarc::driver::result;
    let (major, minor) = stream.device().info().compute_capability;
    let program = kernels::programs().iter().find(|program| program.name == "multiply_const.cu").unwrap();
    let image = kernels::compile(program, &format!("sm_{major}{minor}")).unwrap();
    let name = std::ffi::CString::new("grcuda_multiply_const_float32").unwrap();
    unsafe { result::module::get_function(result::module::load_data(image.as_ptr().cast()).unwrap(), name).unwrap() }
}

/// The multiply_const_ff arguments of `count` items in place at `address`, times 1.
struct MultiplyArguments {
    address: u64,
    count: u64,
    constant: f32,
    pointers: [*mut std::ffi::c_void; 4],
}

impl MultiplyArguments {
    fn new(address: u64, count: usize) -> Box<MultiplyArguments> {
        let mut arguments = Box::new(MultiplyArguments {
            address,
            count: count as u64,
            constant: 1.0,
            pointers: [std::ptr::null_mut(); 4],
        });
        arguments.pointers = [
            kernel_argument(&arguments.address),
            kernel_argument(&arguments.address),
            kernel_argument(&arguments.count),
            kernel_argument(&arguments.constant),
        ];
        arguments
    }

    /// A kernel node's parameters for `function` with these arguments, 16 blocks of 256.
    fn node(&mut self, function: cudarc::driver::sys::CUfunction) -> cudarc::driver::sys::CUDA_KERNEL_NODE_PARAMS {
        cudarc::driver::sys::CUDA_KERNEL_NODE_PARAMS {
            func: function,
            gridDimX: 16,
            gridDimY: 1,
            gridDimZ: 1,
            blockDimX: 256,
            blockDimY: 1,
            blockDimZ: 1,
            sharedMemBytes: 0,
            kernelParams: self.pointers.as_mut_ptr(),
            extra: std::ptr::null_mut(),
            kern: std::ptr::null_mut(),
            ctx: std::ptr::null_mut(),
        }
    }
}

/// An instantiated graph of `nodes` kernel nodes in a chain, each launch of which first gives
/// every node new parameters, as a block would give its call's addresses.
struct ParameterizedGraph {
    graph: cudarc::driver::sys::CUgraph,
    executable: cudarc::driver::sys::CUgraphExec,
    nodes: Vec<cudarc::driver::sys::CUgraphNode>,
}

impl ParameterizedGraph {
    fn new(nodes: usize, parameters: &cudarc::driver::sys::CUDA_KERNEL_NODE_PARAMS) -> ParameterizedGraph {
        use cudarc::driver::{result, sys};
        unsafe {
            let mut graph = std::ptr::null_mut();
            sys::cuGraphCreate(&mut graph, 0).result().unwrap();
            let mut chain: Vec<sys::CUgraphNode> = Vec::new();
            for _ in 0..nodes {
                let mut node = std::ptr::null_mut();
                let previous = chain.last().map_or(std::ptr::null(), |node| node);
                sys::cuGraphAddKernelNode_v2(&mut node, graph, previous, chain.len().min(1), parameters)
                    .result()
                    .unwrap();
                chain.push(node);
            }
            let executable = result::graph::instantiate(graph, sys::CUgraphInstantiate_flags(0)).unwrap();
            ParameterizedGraph { graph, executable, nodes: chain }
        }
    }

    fn launch(&self, parameters: &cudarc::driver::sys::CUDA_KERNEL_NODE_PARAMS, stream: &Stream) {
        use cudarc::driver::{result, sys};
        unsafe {
            for node in &self.nodes {
                sys::cuGraphExecKernelNodeSetParams_v2(self.executable, *node, parameters).result().unwrap();
            }
            result::graph::launch(self.executable, stream.raw_handle() as sys::CUstream).unwrap();
        }
    }
}

impl Drop for ParameterizedGraph {
    fn drop(&mut self) {
        unsafe {
            cudarc::driver::result::graph::exec_destroy(self.executable).unwrap();
            cudarc::driver::result::graph::destroy(self.graph).unwrap();
        }
    }
}

/// The CPU cost of the ways to enqueue a kernel: `cuLaunchKernel`, a one-node graph whose
/// parameters are set before each launch, and libgrcuda's launcher (argument checks, then
/// `cuLaunchKernel`), for the same multiply_const_ff kernel, loaded here from libgrcuda's
/// source for the first two.
fn graph_table(device: &Device, settings: &Settings) {
    use cudarc::driver::{result, sys};
    println!("### Kernel launches: cuLaunchKernel against a one-kernel CUDA graph\n");
    println!(
        "CPU microseconds per call of multiply_const_ff kernels of 4096 items in stream order. 'graph': \
         the kernels as nodes of one graph, each given new arguments (cuGraphExecKernelNodeSetParams, the \
         item count alternating) before each launch of it; 'libgrcuda': kernels::multiply_const per kernel \
         (its argument checks and cuLaunchKernel).\n"
    );
    println!("| kernels per call | cuLaunchKernel | graph | graph / cuLaunchKernel | libgrcuda |");
    println!("|---:|---:|---:|---:|---:|");
    let stream = Stream::new(device).unwrap();
    let function = multiply_const_function(&stream);
    let items = 4096;
    let data = DeviceAllocation::new(device, items * 4).unwrap();
    let mut arguments =
        [MultiplyArguments::new(data.address(), items), MultiplyArguments::new(data.address(), items - 1)];
    let calls = settings.rounds / 4;
    for count in [1, 3] {
        let mut call = 0;
        let plain = launch_microseconds(&stream, calls, || {
            call += 1;
            let pointers = &mut arguments[call % 2].pointers;
            for _ in 0..count {
                let raw_stream = stream.raw_handle() as sys::CUstream;
                unsafe { result::launch_kernel(function, (16, 1, 1), (256, 1, 1), 0, raw_stream, pointers).unwrap() };
            }
        });
        let graph = ParameterizedGraph::new(count, &arguments[0].node(function));
        let graphed = launch_microseconds(&stream, calls, || {
            call += 1;
            graph.launch(&arguments[call % 2].node(function), &stream);
        });
        let library = launch_microseconds(&stream, calls, || {
            call += 1;
            for _ in 0..count {
                unsafe {
                    kernels::multiply_const(&stream, data.address(), data.address(), items - call % 2, 1.0f32).unwrap()
                };
            }
        });
        println!("| {count} | {plain:.2} | {graphed:.2} | {:.0}% | {library:.2} |", 100.0 * graphed / plain);
    }
    println!("\n({calls} calls each)\n");
}

/// What a GPU block's work() call costs the CPU in driver calls, when other threads make
/// theirs at the same time, as GNU Radio's thread-per-block scheduler has them do: each thread
/// launches a kernel on its own stream, records an event after it and makes a second stream
/// wait for that event (a sync block's end_work and post_work), call after call.
fn concurrent_calls_table(device: &Device, settings: &Settings) {
    println!("### Driver calls of a GPU block's work() with other blocks' threads making theirs\n");
    println!(
        "Microseconds per call, the mean over the threads: a multiply_const_ff launch of 4096 items, \
         then an event record and a stream wait, each thread on streams of its own; \"launch only\": \
         the launch alone; \"graph launch only\": the kernel as a one-node graph per thread, given its \
         arguments (cuGraphExecKernelNodeSetParams) before each launch. The driver serialises parts of \
         these calls across threads, which is what a flowgraph of several GPU blocks pays on top of one \
         block's cost.\n"
    );
    println!(
        "| threads | launch only, us per call | launch + record + wait, us per call | graph launch only, us per call |"
    );
    println!("|---:|---:|---:|---:|");
    let calls = settings.rounds / 8;
    // A CUfunction is the driver's handle, usable from any thread: passed on as a number.
    let function = multiply_const_function(&Stream::new(device).unwrap()) as usize;
    for threads in [1usize, 2, 4, 8] {
        let per_call = |with_events: bool, as_graph: bool| {
            let barrier = std::sync::Barrier::new(threads);
            let totals: Vec<f64> = thread::scope(|scope| {
                let workers: Vec<_> = (0..threads)
                    .map(|_| {
                        scope.spawn(|| {
                            let (stream, reader) = (Stream::new(device).unwrap(), Stream::new(device).unwrap());
                            let event = Event::new(device, HostWait::Spin).unwrap();
                            let data = DeviceAllocation::new(device, 4096 * 4).unwrap();
                            let mut arguments = MultiplyArguments::new(data.address(), 4096);
                            let parameters = arguments.node(function as cudarc::driver::sys::CUfunction);
                            let graph = as_graph.then(|| ParameterizedGraph::new(1, &parameters));
                            let call = || {
                                match &graph {
                                    Some(graph) => graph.launch(&parameters, &stream),
                                    None => unsafe {
                                        kernels::multiply_const(&stream, data.address(), data.address(), 4096, 1.0f32)
                                            .unwrap()
                                    },
                                }
                                if with_events {
                                    stream.record(&event).unwrap();
                                    reader.wait(&event).unwrap();
                                }
                            };
                            call();
                            stream.synchronize().unwrap();
                            barrier.wait();
                            let started = Instant::now();
                            for _ in 0..calls {
                                call();
                            }
                            let elapsed = started.elapsed();
                            stream.synchronize().unwrap();
                            reader.synchronize().unwrap();
                            elapsed.as_secs_f64() * 1e6 / calls as f64
                        })
                    })
                    .collect();
                workers.into_iter().map(|worker| worker.join().unwrap()).collect()
            });
            totals.iter().sum::<f64>() / threads as f64
        };
        let (launch, with_events, graph) = (per_call(false, false), per_call(true, false), per_call(false, true));
        println!("| {threads} | {launch:.2} | {with_events:.2} | {graph:.2} |");
    }
    println!("\n({calls} calls per thread)\n");
}

/// Milliseconds to make a buffer of `bytes` with the transfer type `kind` (its rings mapped,
/// a host ring pinned for host edges) and to free it again: the medians of `repeats` runs,
/// with freed host rings kept for reuse (`kept`, after a first buffer has left one) or not.
fn buffer_lifetime_milliseconds(
    device: &Device,
    bytes: usize,
    kind: TransferType,
    repeats: usize,
    kept: bool,
) -> (f64, f64) {
    let limit = host_ring_cache::limit_bytes();
    host_ring_cache::set_limit_bytes(if kept { limit.max(bytes) } else { 0 });
    let lifetime = || {
        let started = Instant::now();
        let buffer = Buffer::new(device, 8, bytes / 8, HostWait::Adaptive).expect("buffer");
        buffer.set_transfer_type(kind).expect("transfer type");
        let made = started.elapsed().as_secs_f64() * 1e3;
        // The worst case for freeing: the whole ring written (a kept ring zeroes what was).
        let items = buffer.ring_items();
        buffer.begin_write(0, items).expect("begin_write");
        buffer.post_work(0, items).expect("post_work");
        buffer.synchronize().expect("synchronize");
        let started = Instant::now();
        drop(buffer);
        (made, started.elapsed().as_secs_f64() * 1e3)
    };
    lifetime();
    let (making, freeing): (Vec<f64>, Vec<f64>) = (0..repeats.max(1)).map(|_| lifetime()).unzip();
    host_ring_cache::set_limit_bytes(limit);
    (median(making), median(freeing))
}

fn buffer_lifetime_table(device: &Device, settings: &Settings) {
    println!("### Making and freeing a buffer, by ring size and edge kind\n");
    println!(
        "Milliseconds, median of {} runs after a warm-up. \"new\": every host ring registered afresh and \
         unregistered when freed; \"kept\": host rings kept for reuse (the host ring cache), so a \
         buffer takes over the ring the previous one left. Each buffer is written whole before it \
         is freed, the worst case for a kept ring, which zeroes what was written.\n",
        settings.repeats
    );
    println!(
        "| ring | device-to-device: make | free | host-to-device, new: make | free | kept: make | free | \
         device-to-host, new: make | free | kept: make | free |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for bytes in [16usize << 20, 64 << 20, 128 << 20, 256 << 20] {
        let mut cells = Vec::new();
        let (make, free) =
            buffer_lifetime_milliseconds(device, bytes, TransferType::DeviceToDevice, settings.repeats, false);
        cells.push(format!("{make:.1} | {free:.1}"));
        for kind in [TransferType::HostToDevice, TransferType::DeviceToHost] {
            for kept in [false, true] {
                let (make, free) = buffer_lifetime_milliseconds(device, bytes, kind, settings.repeats, kept);
                cells.push(format!("{make:.1} | {free:.1}"));
            }
        }
        println!("| {} | {} |", human_bytes(bytes), cells.join(" | "));
    }
    println!();
}

fn human_bytes(bytes: usize) -> String {
    if bytes >= 1 << 20 { format!("{} MiB", bytes >> 20) } else { format!("{} KiB", bytes >> 10) }
}

fn main() {
    let arguments: Vec<String> = std::env::args().collect();
    let quick = arguments.iter().any(|a| a == "--quick");
    let device = support::test_device();
    let info = device.info();
    let settings = if quick || device.is_simulated() {
        Settings { volume: 256 << 20, repeats: 1, rounds: 10_000 }
    } else {
        Settings { volume: 4 << 30, repeats: 5, rounds: 200_000 }
    };
    println!(
        "## grcuda benchmark on {} (compute capability {}.{}, {:?} backend)\n",
        info.name, info.compute_capability.0, info.compute_capability.1, info.backend
    );
    println!(
        "{} per measurement, median of {} runs after a warm-up; buffers hold 8 calls' worth (copies) \
         or {MULTIPLY_RING_CALLS} (multiply). GPU readers take one call's worth per work(), CPU readers \
         every item already copied.\n",
        human_bytes(settings.volume),
        settings.repeats
    );
    // `--only NAME` (repeatable) runs only the tables named; the graph and concurrency tables
    // call the driver directly and run on a GPU only.
    let only: Vec<String> =
        arguments.windows(2).filter(|pair| pair[0] == "--only").map(|pair| pair[1].clone()).collect();
    type Table = fn(&Device, &Settings);
    let tables: [(&str, Table, bool); 6] = [
        ("transfers", transfer_table, true),
        ("protocol", protocol_cost_table, true),
        ("multiply", multiply_table, true),
        ("graphs", graph_table, false),
        ("concurrent_calls", concurrent_calls_table, false),
        ("buffer_lifetime", buffer_lifetime_table, true),
    ];
    if let Some(wrong) = only.iter().find(|name| !tables.iter().any(|(table, ..)| table == name)) {
        let names: Vec<&str> = tables.iter().map(|(table, ..)| *table).collect();
        panic!("--only {wrong}: no such table; the tables are {}", names.join(", "));
    }
    for (name, table, simulated_too) in tables {
        if (only.is_empty() || only.iter().any(|wanted| wanted == name)) && (simulated_too || !device.is_simulated()) {
            table(&device, &settings);
        }
    }
}
