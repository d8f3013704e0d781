//! The simulated backend checks, before rustfft plans a transform, that the memory the plan
//! needs is available (`fft::simulated_plan_bytes`), because rustfft allocates infallibly and
//! running out there would abort the process. This test measures what rustfft's planner
//! really allocates at its peak, with a counting global allocator (alone in this binary), for
//! sizes of every kind the planner treats differently, and checks the estimate covers it.

use rustfft::{FftDirection, FftPlanner};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = CURRENT.fetch_add(bytes, Ordering::SeqCst) + bytes;
    PEAK.fetch_max(now, Ordering::SeqCst);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            grew(layout.size());
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { System.alloc_zeroed(layout) };
        if !pointer.is_null() {
            grew(layout.size());
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { System.dealloc(pointer, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::SeqCst);
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            CURRENT.fetch_sub(layout.size(), Ordering::SeqCst);
            grew(new_size);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes allocated at the peak while a fresh planner plans `size` points (a fresh planner has
/// no sub-plans cached: the most a plan can cost).
fn plan_peak(size: usize, direction: FftDirection) -> usize {
    let mut planner = FftPlanner::<f32>::new();
    let base = CURRENT.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let plan = planner.plan_fft(size, direction);
    let peak = PEAK.load(Ordering::SeqCst) - base;
    drop((plan, planner));
    peak
}

#[test]
fn the_pre_flight_covers_what_rustfft_plans_allocate() {
    let mut sizes: Vec<usize> = (1..=18).map(|k| 1 << k).collect();
    sizes.extend([
        // tiny sizes, with fixed costs
        1,
        2,
        3,
        5,
        6,
        7,
        11,
        13,
        17,
        23,
        29,
        31,
        37,
        // small factors, and products of butterfly sizes (which rustfft may plan with Bluestein's algorithm)
        100,
        1000,
        1001,
        3000,
        3125,
        5 * 7 * 11 * 13 * 17,
        6561,
        15625,
        16807,
        46656,
        100_000,
        19 * 23 * 29 * 31,
        29 * 29 * 31,
        31 * 31 * 31 * 2,
        17 * 19 * 64,
        13 * 11 * 7 * 5 * 3,
        23 * 4096,
        29 * 1024,
        31 * 2048,
        // primes rustfft plans with Rader's algorithm (p - 1 smooth) or Bluestein's
        61,
        127,
        251,
        509,
        1021,
        2039,
        4093,
        4097,
        8191,
        10_007,
        16_381,
        32_749,
        65_521,
        65_537,
        131_071,
        // composites with a large prime factor, and squares of primes
        2 * 65_521,
        3 * 32_749,
        4 * 16_381,
        6 * 10_007,
        127 * 127,
        251 * 251,
        509 * 3,
        37 * 37,
        41 * 64,
        17 * 241,
    ]);
    let mut worst = (0.0f64, 0);
    for size in sizes {
        let allowed = grcuda::fft::simulated_plan_bytes(size).unwrap();
        for direction in [FftDirection::Forward, FftDirection::Inverse] {
            let peak = plan_peak(size, direction);
            assert!(
                peak <= allowed,
                "rustfft allocated {peak} bytes planning {size} points ({direction:?}); the pre-flight checks only {allowed}"
            );
            let share = peak as f64 / allowed as f64;
            if share > worst.0 {
                worst = (share, size);
            }
        }
    }
    eprintln!("largest share of the pre-flight used: {:.0}% (size {})", worst.0 * 100.0, worst.1);
}
