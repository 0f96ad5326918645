//! Zobrist keys: one random word per (piece kind, square), the side to move and the variant.

use crate::rules::bitboard::Bits;
use crate::rules::{Color, Position, Variant};

/// SplitMix64, usable in `const` context so the keys are fixed at compile time.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Keys for white men, black men, white kings, black kings on each of the 36 bits.
const PIECES: [[u64; 36]; 4] = {
    let mut keys = [[0u64; 36]; 4];
    let mut state = 0x5348_4153_484B_4931u64;
    let mut k = 0;
    while k < 4 {
        let mut b = 0;
        while b < 36 {
            let (s, v) = splitmix(state);
            state = s;
            keys[k][b] = v;
            b += 1;
        }
        k += 1;
    }
    keys
};

const BLACK_TO_MOVE: u64 = splitmix(1).1;
const GIVEAWAY: u64 = splitmix(2).1;

/// The four piece sets in the order of [`PIECES`].
#[inline(always)]
fn sets(pos: &Position) -> [u64; 4] {
    [
        pos.white & !pos.kings,
        pos.black & !pos.kings,
        pos.white & pos.kings,
        pos.black & pos.kings,
    ]
}

/// Full key of a position in a variant.
pub(crate) fn hash(pos: &Position, variant: Variant) -> u64 {
    let mut h = if variant == Variant::Giveaway {
        GIVEAWAY
    } else {
        0
    };
    if pos.side == Color::Black {
        h ^= BLACK_TO_MOVE;
    }
    for (k, set) in sets(pos).into_iter().enumerate() {
        for b in Bits(set) {
            h ^= PIECES[k][b as usize];
        }
    }
    h
}

/// Key of `child` from the key of its parent: only the squares that changed are touched.
#[inline(always)]
pub(crate) fn update(key: u64, parent: &Position, child: &Position) -> u64 {
    let (a, b) = (sets(parent), sets(child));
    let mut h = key ^ BLACK_TO_MOVE;
    for k in 0..4 {
        for bit in Bits(a[k] ^ b[k]) {
            h ^= PIECES[k][bit as usize];
        }
    }
    h
}
