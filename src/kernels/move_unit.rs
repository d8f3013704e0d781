// SPDX-License-Identifier: GPL-3.0-or-later

//! The unit in which the byte-moving kernels (copy, interleave, de-interleave) move data.
//!
//! Those kernels exist for units of 1, 2, 4, 8 and 16 bytes (`FOR_EACH_MOVE_UNIT` in
//! `kernels/grcuda_common.cuh`). A call uses the widest unit that divides every address and
//! byte size it involves, so every access is aligned and whole items are never split
//! unevenly: aligned buffers move 16 bytes per thread step, odd ones one byte.

/// The width of one unit, and the kernel name suffix for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveUnit {
    pub bytes: usize,
    pub variant: &'static str,
}

const UNITS: [MoveUnit; 5] = [
    MoveUnit { bytes: 16, variant: "16" },
    MoveUnit { bytes: 8, variant: "8" },
    MoveUnit { bytes: 4, variant: "4" },
    MoveUnit { bytes: 2, variant: "2" },
    MoveUnit { bytes: 1, variant: "1" },
];

/// The kernel name suffix of every unit, widest first.
pub(crate) const VARIANTS: [&str; UNITS.len()] = {
    let mut variants = [""; UNITS.len()];
    let mut index = 0;
    while index < UNITS.len() {
        variants[index] = UNITS[index].variant;
        index += 1;
    }
    variants
};

/// The widest unit that divides every value (addresses and byte sizes).
pub(crate) fn widest_unit(values: impl IntoIterator<Item = u64>) -> MoveUnit {
    // Units are powers of two, so a unit divides every value exactly when it divides their
    // bitwise OR: the low bits are zero in all of them or not.
    let common = values.into_iter().fold(0u64, |bits, value| bits | value);
    *UNITS.iter().find(|unit| common % unit.bytes as u64 == 0).expect("every value is a multiple of one byte")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_widest_common_divisor() {
        assert_eq!(widest_unit([0x1000, 4096]).bytes, 16);
        assert_eq!(widest_unit([0x1000, 0x2008, 24]).bytes, 8);
        assert_eq!(widest_unit([0x1000, 12]).bytes, 4);
        assert_eq!(widest_unit([0x1002, 16]).bytes, 2);
        assert_eq!(widest_unit([0x1000, 3]).bytes, 1);
    }
}
