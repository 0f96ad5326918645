//! Bitboard constants and helpers for the 36-bit ghost-square layout (see `square.rs`).

/// Every real square (32 bits set; ghosts 4, 13, 22, 31 clear).
pub const BOARD: u64 = 0xF_7FBF_DFEF;
/// Rank 1 (White's back rank, Black's promotion rank).
pub const RANK1: u64 = 0xF;
/// Rank 8 (Black's back rank, White's promotion rank).
pub const RANK8: u64 = 0xF << 32;
/// The long diagonal a1-h8 ("большая дорога").
pub const LONG_DIAGONAL: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < 8 {
        m |= 1u64 << (i * 5);
        i += 1;
    }
    m
};

/// The four diagonal directions as bit offsets: NE, NW, SE, SW.
pub const DIRS: [i32; 4] = [5, 4, -4, -5];

/// Shift by a signed offset, dropping bits that leave the board.
#[inline(always)]
pub const fn shift(b: u64, d: i32) -> u64 {
    (if d > 0 { b << d } else { b >> (-d) }) & BOARD
}

/// Iterator over set bits, lowest first.
#[derive(Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let b = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(b)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Square;

    #[test]
    fn masks_match_squares() {
        let all = Square::all().fold(0u64, |m, s| m | s.mask());
        assert_eq!(all, BOARD);
        let diag = (0..8).fold(0u64, |m, i| m | Square::from_coords(i, i).unwrap().mask());
        assert_eq!(diag, LONG_DIAGONAL);
        let r8 = (0..4).fold(0u64, |m, i| {
            m | Square::from_coords(2 * i + 1, 7).unwrap().mask()
        });
        assert_eq!(r8, RANK8);
    }
}
