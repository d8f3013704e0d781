// SPDX-License-Identifier: GPL-3.0-or-later

//! Elementwise kernels (and the moving average, which reads a window per item) alone against
//! the device-to-device copy: the rate a GPU block's kernel can reach, apart from any
//! flowgraph, in bytes read + written per second.
//!
//! Each kernel runs back to back on one stream through arrays of
//! [`CALLS_PER_ARRAY`](super::CALLS_PER_ARRAY) calls' worth.

use super::{CALLS_PER_ARRAY, Settings, time_calls};
use grcuda::expression::{Expression, ValueType};
use grcuda::kernels::{self, Complex32};
use grcuda::memory::DeviceAllocation;
use grcuda::{Device, Stream};

/// One call of a kernel: the stream, the input arrays, the output array and the item count.
trait Launch: Fn(&Stream, &[u64], u64, usize) {}
impl<T: Fn(&Stream, &[u64], u64, usize)> Launch for T {}

/// One kernel of the table: its name, input arrays, item bytes in and out (`Case::new` takes
/// these three as a tuple), and the launch of one call of `items` items from `inputs` to
/// `output`.
struct Case {
    name: &'static str,
    inputs: usize,
    input_bytes: usize,
    output_bytes: usize,
    launch: Box<dyn Launch>,
}

impl Case {
    fn new(
        name: &'static str,
        (inputs, input_bytes, output_bytes): (usize, usize, usize),
        launch: impl Launch + 'static,
    ) -> Case {
        Case { name, inputs, input_bytes, output_bytes, launch: Box::new(launch) }
    }
}

/// Item bytes of the arrays: float and complex float.
const F: usize = 4;
const C: usize = 8;

fn cases(device: &Device) -> Vec<Case> {
    let expression = |text: &str, value_type: ValueType| {
        Expression::new(device, text, value_type, value_type, 2, 1, &[("k", 0.5)]).unwrap()
    };
    let expression_ff = expression("(in0 * in1 + in0) * k * in1", ValueType::Float);
    let expression_cc = expression("(in0 * in1 + in0) * k * conj(in1)", ValueType::Complex);
    // Safety of every launch: `run` passes arrays of at least `items` items of the case's types.
    vec![
        Case::new("copy (16-byte units)", (1, F, F), |stream, inputs, output, items| unsafe {
            kernels::copy(stream, inputs[0], output, items * F).unwrap()
        }),
        Case::new("multiply_const_ff", (1, F, F), |stream, inputs, output, items| unsafe {
            kernels::multiply_const(stream, inputs[0], output, items, 1.5f32).unwrap()
        }),
        Case::new("multiply_const_cc", (1, C, C), |stream, inputs, output, items| unsafe {
            kernels::multiply_const(stream, inputs[0], output, items, Complex32::new(1.5, -0.5)).unwrap()
        }),
        Case::new("multiply_ff (2 inputs)", (2, F, F), |stream, inputs, output, items| unsafe {
            kernels::multiply::<f32>(stream, inputs, output, items).unwrap()
        }),
        Case::new("multiply_cc (2 inputs)", (2, C, C), |stream, inputs, output, items| unsafe {
            kernels::multiply::<Complex32>(stream, inputs, output, items).unwrap()
        }),
        Case::new("complex_to_mag_squared", (1, C, F), |stream, inputs, output, items| unsafe {
            kernels::magnitude_squared(stream, inputs[0], output, items).unwrap()
        }),
        Case::new(
            "expression_ff (in0 * in1 + in0) * k * in1",
            (2, F, F),
            move |stream, inputs, output, items| unsafe {
                expression_ff.launch(stream, inputs, output, items).unwrap()
            },
        ),
        Case::new(
            "expression_cc (in0 * in1 + in0) * k * conj(in1)",
            (2, C, C),
            move |stream, inputs, output, items| unsafe {
                expression_cc.launch(stream, inputs, output, items).unwrap()
            },
        ),
        // GNU Radio's default max_iter; the input's history is within HISTORY_SLACK_ITEMS.
        Case::new("moving_average_ff(64)", (1, F, F), |stream, inputs, output, items| unsafe {
            kernels::moving_average(stream, inputs[0], output, items, 1, 64, 1.0f32 / 64.0, 4000, 0).unwrap()
        }),
        Case::new("moving_average_cc(64)", (1, C, C), |stream, inputs, output, items| unsafe {
            kernels::moving_average(stream, inputs[0], output, items, 1, 64, Complex32::new(1.0 / 64.0, 0.0), 4000, 0)
                .unwrap()
        }),
    ]
}

/// Items past an input array's last call for the kernels that read history before their
/// first item (the moving average's length - 1 plus a segment).
const HISTORY_SLACK_ITEMS: usize = 4096;

/// Bytes read + written per second by `case` at `items` per call.
fn run(device: &Device, settings: &Settings, case: &Case, items: usize) -> f64 {
    let array =
        |bytes: usize, slack: usize| DeviceAllocation::new(device, (CALLS_PER_ARRAY * items + slack) * bytes).unwrap();
    let inputs: Vec<DeviceAllocation> =
        (0..case.inputs).map(|_| array(case.input_bytes, HISTORY_SLACK_ITEMS)).collect();
    let output = array(case.output_bytes, 0);
    let stream = Stream::new(device).unwrap();
    let bytes_per_call = items * (case.inputs * case.input_bytes + case.output_bytes);
    let calls = settings.volume.div_ceil(bytes_per_call);
    let seconds = time_calls(settings, &stream, calls, |slot| {
        let addresses: Vec<u64> =
            inputs.iter().map(|input| input.address() + (slot * items * case.input_bytes) as u64).collect();
        (case.launch)(&stream, &addresses, output.address() + (slot * items * case.output_bytes) as u64, items);
    });
    (calls * bytes_per_call) as f64 / seconds / 1e9
}

pub(crate) fn elementwise_table(device: &Device, settings: &Settings) {
    let sizes: &[u32] = if device.is_simulated() { &[16] } else { &[20, 22, 24] };
    println!(
        "### Elementwise kernels alone, bytes read + written per second (GB/s) and share of the copy kernel's \
         rate at the same size, back to back on one stream\n"
    );
    let header: Vec<String> = sizes.iter().map(|shift| format!("2^{shift} items")).collect();
    println!("| kernel | {} |", header.join(" | "));
    println!("|---|{}", "---:|".repeat(sizes.len()));
    let cases = cases(device);
    let copy_rates: Vec<f64> = sizes.iter().map(|&shift| run(device, settings, &cases[0], 1 << shift)).collect();
    for case in &cases {
        let cells: Vec<String> = sizes
            .iter()
            .zip(&copy_rates)
            .map(|(&shift, copy)| {
                let rate = run(device, settings, case, 1 << shift);
                format!("{rate:.0} ({:.0}%)", 100.0 * rate / copy)
            })
            .collect();
        println!("| {} | {} |", case.name, cells.join(" | "));
    }
    println!();
}
