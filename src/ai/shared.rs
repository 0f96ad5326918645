//! Helpers that the evaluation, the levels, the data files and training share: a seeded
//! generator, the board turned half a turn, the mobility count, the cross-entropy loss,
//! and the checksum and variant code of the engine's files. They import nothing of the engine, so that
//! `src/ai` reads top-down: rules, evaluation, search, levels, tools.

use crate::rules::bitboard::{Bits, DIRS, shift};
use crate::rules::{Color, Position, Variant};

/// SplitMix64: a tiny seeded generator, enough for choosing moves.
pub(crate) struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A seeded draw among `(item, weight)` pairs, each chosen in proportion to its weight
/// (the last one when rounding leaves the draw past them all); `None` when there are none.
pub(crate) fn weighted_choice<T: Copy>(choices: &[(T, f64)], rng: &mut Rng) -> Option<T> {
    let total: f64 = choices.iter().map(|c| c.1).sum();
    let mut x = rng.next_f64() * total;
    for (item, w) in choices {
        if x < *w {
            return Some(*item);
        }
        x -= w;
    }
    choices.last().map(|c| c.0)
}

/// Quiet moves of one side (men forward, kings sliding), ignoring compulsory capture.
#[inline(always)]
pub(crate) fn quiet_moves(pos: &Position, c: Color) -> u32 {
    let empty = pos.empty_squares();
    let men = pos.men(c);
    let mut n = match c {
        Color::White => (shift(men, 5) & empty).count_ones() + (shift(men, 4) & empty).count_ones(),
        Color::Black => {
            (shift(men, -4) & empty).count_ones() + (shift(men, -5) & empty).count_ones()
        }
    };
    for b in Bits(pos.kings(c)) {
        for d in DIRS {
            let mut t = shift(1u64 << b, d) & empty;
            while t != 0 {
                n += 1;
                t = shift(t, d) & empty;
            }
        }
    }
    n
}

pub(crate) fn cross_entropy(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The board turned half a turn (bit `b` becomes bit `35 - b`): Black's view as White's.
#[inline(always)]
pub const fn turn(b: u64) -> u64 {
    b.reverse_bits() >> 28
}

/// Asks the processor to bring the cache line of `r` into its cache ahead of a read, so
/// that the read does not wait for memory; only a hint, and nothing elsewhere than x86-64.
#[inline(always)]
pub(crate) fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch never faults, and the pointer comes from a reference.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(r as *const T as *const i8) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

/// FNV-1a 64: the checksum of the engine's data files.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The variant's number in the engine's data files.
pub(crate) fn variant_code(v: Variant) -> u32 {
    match v {
        Variant::Russian => 0,
        Variant::Giveaway => 1,
    }
}
