// SPDX-License-Identifier: GPL-3.0-or-later

//! Spans of items on a ring of N items, and whether two of them share an item.

/// `len` items starting at ring index `start`; the span may run past N and wrap to 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RingSpan {
    pub start: usize,
    pub len: usize,
}

impl RingSpan {
    pub fn new(start: usize, len: usize) -> Self {
        Self { start, len }
    }

    /// Whether the two spans share at least one item on a ring of `ring_items` items.
    /// Both spans must start in [0, ring_items) and be at most `ring_items` long.
    pub fn overlaps(&self, other: &RingSpan, ring_items: usize) -> bool {
        if self.len == 0 || other.len == 0 {
            return false;
        }
        let other_after_self = (other.start + ring_items - self.start) % ring_items;
        let self_after_other = (self.start + ring_items - other.start) % ring_items;
        other_after_self < self.len || self_after_other < other.len
    }

    /// The span's items as at most two pieces that do not wrap: `(start, len)` pairs.
    pub fn unwrapped(&self, ring_items: usize) -> [(usize, usize); 2] {
        let first = self.len.min(ring_items - self.start);
        [(self.start, first), (0, self.len - first)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force(a: RingSpan, b: RingSpan, n: usize) -> bool {
        (0..a.len).any(|i| (0..b.len).any(|j| (a.start + i) % n == (b.start + j) % n))
    }

    #[test]
    fn overlap_matches_item_by_item_check() {
        let n = 7;
        for a_start in 0..n {
            for a_len in 0..=n {
                for b_start in 0..n {
                    for b_len in 0..=n {
                        let a = RingSpan::new(a_start, a_len);
                        let b = RingSpan::new(b_start, b_len);
                        assert_eq!(a.overlaps(&b, n), brute_force(a, b, n), "{a:?} {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn unwrapped_splits_at_the_wrap_point() {
        assert_eq!(RingSpan::new(2, 3).unwrapped(8), [(2, 3), (0, 0)]);
        assert_eq!(RingSpan::new(6, 5).unwrapped(8), [(6, 2), (0, 3)]);
        assert_eq!(RingSpan::new(0, 8).unwrapped(8), [(0, 8), (0, 0)]);
    }
}
