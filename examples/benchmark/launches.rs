// SPDX-License-Identifier: GPL-3.0-or-later

//! The CPU cost of kernel launches: cuLaunchKernel against one-kernel CUDA graphs, from one
//! thread and from several at once.

use super::Settings;
use cudarc::driver::{result, sys};
use grcuda::memory::DeviceAllocation;
use grcuda::{Device, Event, HostWait, Stream, kernels};
use std::thread;
use std::time::Instant;

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
fn multiply_const_function(stream: &Stream) -> sys::CUfunction {
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
    fn node(&mut self, function: sys::CUfunction) -> sys::CUDA_KERNEL_NODE_PARAMS {
        sys::CUDA_KERNEL_NODE_PARAMS {
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
    graph: sys::CUgraph,
    executable: sys::CUgraphExec,
    nodes: Vec<sys::CUgraphNode>,
}

impl ParameterizedGraph {
    fn new(nodes: usize, parameters: &sys::CUDA_KERNEL_NODE_PARAMS) -> ParameterizedGraph {
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

    fn launch(&self, parameters: &sys::CUDA_KERNEL_NODE_PARAMS, stream: &Stream) {
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
            result::graph::exec_destroy(self.executable).unwrap();
            result::graph::destroy(self.graph).unwrap();
        }
    }
}

/// The CPU cost of the ways to enqueue a kernel: `cuLaunchKernel`, a one-node graph whose
/// parameters are set before each launch, and libgrcuda's launcher (argument checks, then
/// `cuLaunchKernel`), for the same multiply_const_ff kernel, loaded here from libgrcuda's
/// source for the first two.
pub(crate) fn graph_table(device: &Device, settings: &Settings) {
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
pub(crate) fn concurrent_calls_table(device: &Device, settings: &Settings) {
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
                            let parameters = arguments.node(function as sys::CUfunction);
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
