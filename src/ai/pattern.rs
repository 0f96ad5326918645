//! The learned evaluation: weights for the configurations of men in small board regions
//! plus a few counted terms, fitted to self-played games (see `shashki tune`).
//!
//! Every position is seen from the side to move: when Black is to move the board is
//! turned half a turn (square `b` becomes `35 - b` in the internal layout) and the colours
//! swapped, so "us" always moves up the board. The features are
//!
//! - **patterns**: the 25 overlapping 4x4 windows of the board (file and rank offsets
//!   0-4), each holding 8 dark squares; a window's configuration is the base-3 number of
//!   its squares (empty, our man, their man), 6561 configurations per window. Kings are
//!   not part of the patterns (the counted terms weigh them);
//! - **counted terms** ([`DENSE`]): a bias (the value of having the move), men, kings,
//!   quiet moves, runaway men (a free path to the crowning row while the opponent has no
//!   king), kings on the long diagonal a1-h8, ranks made by the men, and the back-rank
//!   guards, each for both sides.
//!
//! Each weight exists twice, for the opening (24 men on the board) and for the ending (no
//! men); a position's score blends the two by the number of men. Weights are stored as
//! 1/16 of a centi-man.
//!
//! The weights file (`assets/eval/*.weights`, embedded in the binary) is little-endian:
//! magic `SHPW`, format version (u32), variant (u32: 0 Russian, 1 поддавки), the number
//! of weights (u32), the weights (i16 each), and an FNV-1a 64 checksum of everything
//! before it (u64). A file that does not match is refused with the reason.

use super::shared::{fnv1a, quiet_moves, turn, variant_code};
use crate::rules::bitboard::{Bits, LONG_DIAGONAL};
use crate::rules::{Color, Position, Variant};
use std::sync::OnceLock;

/// Number of pattern windows: every 4x4 block of the board (file and rank offsets 0-4).
pub const WINDOWS: usize = 25;
/// Configurations of one window (3^8).
pub const CONFIGS: usize = 6561;
/// Number of counted terms.
pub const DENSE: usize = 15;
/// Weights of one phase.
pub const PHASE_LEN: usize = WINDOWS * CONFIGS + DENSE;
/// All weights of one variant.
pub const LEN: usize = 2 * PHASE_LEN;
/// Weights are in 1/SCALE centi-men.
pub const SCALE: i32 = 16;
/// Number of men at which the opening weights apply in full.
pub const FULL_PHASE: i32 = 24;
/// Version of the weights file format.
pub const FORMAT: u32 = 2;

/// Names of the counted terms, in the order of the features.
pub const DENSE_NAMES: [&str; DENSE] = [
    "bias",
    "men",
    "their men",
    "kings",
    "their kings",
    "moves",
    "their moves",
    "runaways",
    "their runaways",
    "king on the long diagonal",
    "their king on the long diagonal",
    "ranks made",
    "their ranks made",
    "back-rank guards",
    "their back-rank guards",
];

const fn sq(file: u32, rank: u32) -> u64 {
    1u64 << ((rank * 9 + file) / 2)
}

/// Our guards c1, e1 (theirs are the same squares turned: d8, f8).
const GUARDS: u64 = sq(2, 0) | sq(4, 0);
const THEIR_GUARDS: u64 = sq(3, 7) | sq(5, 7);

/// First bit of each of the four rows of each window (two consecutive bits a row).
const STARTS: [[u32; 4]; WINDOWS] = {
    let mut s = [[0u32; 4]; WINDOWS];
    let mut w = 0;
    while w < WINDOWS {
        let fx = (w % 5) as u32;
        let ry = (w / 5) as u32;
        let mut k = 0;
        while k < 4 {
            let r = ry + k as u32;
            // The first dark square of the row inside the window, then the one two files on.
            s[w][k] = (r * 9 + fx + ((r + fx) & 1)) / 2;
            k += 1;
        }
        w += 1;
    }
    s
};

/// Base-3 value of each 8-bit occupancy (bit i counts 3^i).
const BASE3: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut m = 0;
    while m < 256 {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut i = 0;
        while i < 8 {
            if m & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// Squares in front of one of our men (towards rank 8) that it may pass on its way.
const CONES: [u64; 36] = {
    let mut c = [0u64; 36];
    let mut b = 0u32;
    while b < 36 {
        if b % 9 != 4 {
            let (f, r) = ((b * 2) % 9, b * 2 / 9);
            let mut r2 = r + 1;
            while r2 < 8 {
                let mut f2 = 0u32;
                while f2 < 8 {
                    if (f2 + r2).is_multiple_of(2) && f2.abs_diff(f) <= r2 - r {
                        c[b as usize] |= sq(f2, r2);
                    }
                    f2 += 1;
                }
                r2 += 1;
            }
        }
        b += 1;
    }
    c
};

#[cfg(test)]
fn window_bits(x: u64, w: usize) -> usize {
    let s = &STARTS[w];
    (((x >> s[0]) & 3)
        | (((x >> s[1]) & 3) << 2)
        | (((x >> s[2]) & 3) << 4)
        | (((x >> s[3]) & 3) << 6)) as usize
}

/// Base-3 code (0-80) of the four squares of a rank, from our and their occupancy bits.
const RANK_CODE: [[u8; 16]; 16] = {
    let mut t = [[0u8; 16]; 16];
    let mut u = 0;
    while u < 16 {
        let mut v = 0;
        while v < 16 {
            t[u][v] = (BASE3[u] + 2 * BASE3[v]) as u8;
            v += 1;
        }
        u += 1;
    }
    t
};

/// For a rank's code and a pair of adjacent squares k (0-2), the pair's code (0-8).
const PAIR: [[u16; 3]; 81] = {
    let mut t = [[0u16; 3]; 81];
    let mut c = 0;
    while c < 81 {
        t[c][0] = (c % 9) as u16;
        t[c][1] = ((c / 3) % 9) as u16;
        t[c][2] = ((c / 9) % 9) as u16;
        c += 1;
    }
    t
};

/// For each window and row: the rank, and which pair of the rank's squares it holds.
const ROWS: [[(u8, u8); 4]; WINDOWS] = {
    let mut t = [[(0u8, 0u8); 4]; WINDOWS];
    let mut w = 0;
    while w < WINDOWS {
        let ry = (w / 5) as u32;
        let mut k = 0;
        while k < 4 {
            let r = ry + k as u32;
            t[w][k] = (r as u8, (STARTS[w][k] - (r * 9).div_ceil(2)) as u8);
            k += 1;
        }
        w += 1;
    }
    t
};

/// Windows padded to a whole number of vector registers.
const WINDOWS_PADDED: usize = 32;

/// For each rank and each base-3 code of its four squares, what the rank adds to the code
/// of every window (0 for the windows that do not hold the rank): the pair of the rank's
/// squares in the window, times 9 to the power of the rank's row in the window. A
/// window's code is then the sum over the eight ranks, eight vector additions.
#[repr(align(64))]
struct RankWindows([[[u16; WINDOWS_PADDED]; 81]; 8]);

static RANK_WINDOWS: RankWindows = {
    let mut t = [[[0u16; WINDOWS_PADDED]; 81]; 8];
    let mut w = 0;
    while w < WINDOWS {
        let mut k = 0;
        let mut place = 1u16;
        while k < 4 {
            let (rank, pair) = ROWS[w][k];
            let mut code = 0;
            while code < 81 {
                t[rank as usize][code][w] = PAIR[code][pair as usize] * place;
                code += 1;
            }
            place *= 9;
            k += 1;
        }
        w += 1;
    }
    RankWindows(t)
};

/// Configuration of every window: rank by rank, four squares at a time.
#[inline(always)]
fn window_codes(us: u64, them: u64) -> [u16; WINDOWS] {
    let mut sums = [0u16; WINDOWS_PADDED];
    for (r, table) in RANK_WINDOWS.0.iter().enumerate() {
        let start = (r * 9).div_ceil(2);
        let code = RANK_CODE[((us >> start) & 15) as usize][((them >> start) & 15) as usize];
        let add = &table[code as usize];
        for (s, a) in sums.iter_mut().zip(add) {
            *s += a;
        }
    }
    let mut out = [0u16; WINDOWS];
    out.copy_from_slice(&sums[..WINDOWS]);
    out
}

/// The features of a position, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Configuration of each window.
    pub patterns: [u16; WINDOWS],
    /// Value of each counted term.
    pub dense: [i8; DENSE],
    /// Men on the board, at most [`FULL_PHASE`].
    pub phase: u8,
}

/// The side to move's pieces and the opponent's, turned so that "us" moves up.
#[derive(Clone, Copy)]
struct View {
    us_men: u64,
    us_kings: u64,
    them_men: u64,
    them_kings: u64,
}

fn view(pos: &Position) -> View {
    let us = pos.side_to_move();
    let them = us.opposite();
    let v = View {
        us_men: pos.men(us),
        us_kings: pos.kings(us),
        them_men: pos.men(them),
        them_kings: pos.kings(them),
    };
    if us == Color::White {
        v
    } else {
        View {
            us_men: turn(v.us_men),
            us_kings: turn(v.us_kings),
            them_men: turn(v.them_men),
            them_kings: turn(v.them_kings),
        }
    }
}

const fn rank_of(bit: u32) -> i32 {
    (bit * 2 / 9) as i32
}

/// Computes the features; `own_moves` is the side to move's count of quiet moves.
pub fn features(pos: &Position, own_moves: u32) -> Features {
    let v = view(pos);
    let patterns = window_codes(v.us_men, v.them_men);
    // Their quiet moves: the turned position with them as White... they move down, so
    // count them in the original position with the other side to move.
    let them_moves = quiet_moves(pos, pos.side_to_move().opposite());
    let occupied = v.us_men | v.us_kings | v.them_men | v.them_kings;
    let mut runaways = [0i32; 2];
    if v.them_kings == 0 {
        runaways[0] = Bits(v.us_men)
            .filter(|&b| CONES[b as usize] & occupied == 0)
            .count() as i32;
    }
    if v.us_kings == 0 {
        // Their men run down: turn the board so that they run up.
        let occ = turn(occupied);
        runaways[1] = Bits(turn(v.them_men))
            .filter(|&b| CONES[b as usize] & occ == 0)
            .count() as i32;
    }
    let ranks_us: i32 = Bits(v.us_men).map(rank_of).sum();
    let ranks_them: i32 = Bits(v.them_men).map(|b| 7 - rank_of(b)).sum();
    let n = |x: u64| x.count_ones() as i32;
    let dense = [
        1,
        n(v.us_men),
        n(v.them_men),
        n(v.us_kings),
        n(v.them_kings),
        own_moves.min(127) as i32,
        them_moves.min(127) as i32,
        runaways[0],
        runaways[1],
        (v.us_kings & LONG_DIAGONAL != 0) as i32,
        (v.them_kings & LONG_DIAGONAL != 0) as i32,
        ranks_us,
        ranks_them,
        n(v.us_men & GUARDS),
        n(v.them_men & THEIR_GUARDS),
    ]
    .map(|x| x as i8);
    let phase = n(v.us_men | v.them_men).min(FULL_PHASE) as u8;
    Features {
        patterns,
        dense,
        phase,
    }
}

/// The weights of one variant: `w` in the file's order (all opening weights, then all
/// ending weights), and the same pattern weights with each opening weight beside its
/// ending weight, so that one look-up reads both.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternWeights {
    pub w: Vec<i16>,
    pairs: Vec<[i16; 2]>,
}

impl PatternWeights {
    /// Weights in the file's order ([`LEN`] of them).
    pub fn new(w: Vec<i16>) -> PatternWeights {
        assert_eq!(w.len(), LEN, "a weight set has {LEN} weights");
        let pairs = (0..WINDOWS * CONFIGS)
            .map(|i| [w[i], w[PHASE_LEN + i]])
            .collect();
        PatternWeights { w, pairs }
    }

    /// Score in centi-men from the side to move's view.
    #[inline]
    pub fn score(&self, f: &Features) -> i32 {
        let mut o = 0i32;
        let mut e = 0i32;
        for (k, &p) in f.patterns.iter().enumerate() {
            let [a, b] = self.pairs[k * CONFIGS + p as usize];
            o += a as i32;
            e += b as i32;
        }
        let d0 = WINDOWS * CONFIGS;
        let (open, end) = (&self.w[d0..PHASE_LEN], &self.w[PHASE_LEN + d0..]);
        for (k, &x) in f.dense.iter().enumerate() {
            o += open[k] as i32 * x as i32;
            e += end[k] as i32 * x as i32;
        }
        let ph = f.phase as i32;
        (o * ph + e * (FULL_PHASE - ph)) / (FULL_PHASE * SCALE)
    }

    /// Reads a weights file, checking its magic, version, variant, size and checksum.
    pub fn parse(bytes: &[u8], variant: Variant) -> Result<PatternWeights, String> {
        let header = 16;
        let want = header + 2 * LEN + 8;
        if bytes.len() != want {
            return Err(format!(
                "the weights file has {} bytes; format {FORMAT} needs {want}",
                bytes.len()
            ));
        }
        if &bytes[..4] != b"SHPW" {
            return Err("the weights file does not start with SHPW".into());
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        if u32_at(4) != FORMAT {
            return Err(format!(
                "the weights file is format {}, this program reads format {FORMAT}",
                u32_at(4)
            ));
        }
        let v = variant_code(variant);
        if u32_at(8) != v {
            return Err(format!(
                "the weights file is for variant {}, expected {v}",
                u32_at(8)
            ));
        }
        if u32_at(12) as usize != LEN {
            return Err(format!(
                "the weights file holds {} weights, expected {LEN}",
                u32_at(12)
            ));
        }
        let body = &bytes[..want - 8];
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&bytes[want - 8..]);
        if u64::from_le_bytes(sum) != fnv1a(body) {
            return Err("the weights file's checksum does not match: it is damaged".into());
        }
        let w = body[header..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(PatternWeights::new(w))
    }

    /// The file form of these weights (see the module documentation).
    pub fn to_bytes(&self, variant: Variant) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + 2 * LEN + 8);
        out.extend_from_slice(b"SHPW");
        out.extend_from_slice(&FORMAT.to_le_bytes());
        out.extend_from_slice(&variant_code(variant).to_le_bytes());
        out.extend_from_slice(&(LEN as u32).to_le_bytes());
        for x in &self.w {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }
}

static RUSSIAN_FILE: &[u8] = include_bytes!("../../assets/eval/russian.weights");
static GIVEAWAY_FILE: &[u8] = include_bytes!("../../assets/eval/giveaway.weights");

/// The embedded weights of a variant, read once. A damaged embedded file is a broken
/// build: the error names the file and the reason.
pub fn embedded(variant: Variant) -> &'static PatternWeights {
    static RU: OnceLock<PatternWeights> = OnceLock::new();
    static GA: OnceLock<PatternWeights> = OnceLock::new();
    let (cell, bytes, name) = match variant {
        Variant::Russian => (&RU, RUSSIAN_FILE, "russian.weights"),
        Variant::Giveaway => (&GA, GIVEAWAY_FILE, "giveaway.weights"),
    };
    cell.get_or_init(|| match PatternWeights::parse(bytes, variant) {
        Ok(w) => w,
        Err(e) => panic!("assets/eval/{name}, embedded in this program, cannot be used: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turning_twice_is_identity_and_keeps_the_board() {
        use crate::rules::bitboard::BOARD;
        assert_eq!(turn(BOARD), BOARD);
        assert_eq!(turn(LONG_DIAGONAL), LONG_DIAGONAL);
        assert_eq!(turn(GUARDS), THEIR_GUARDS);
        for b in Bits(BOARD) {
            assert_eq!(turn(turn(1 << b)), 1 << b);
        }
    }

    #[test]
    fn windows_cover_the_board_with_eight_squares_each() {
        use crate::rules::bitboard::BOARD;
        let mut all = 0u64;
        for (w, starts) in STARTS.iter().enumerate() {
            let mut m = 0u64;
            for &s in starts {
                m |= 3 << s;
            }
            assert_eq!(m & BOARD, m);
            assert_eq!(m.count_ones(), 8);
            assert_eq!(window_bits(m, w), 255);
            // The rank-by-rank codes agree with reading the window square by square.
            for (us, them) in [(m, 0), (0, m), (m & 0x5_5555_5555, m & 0xA_AAAA_AAAA)] {
                let want = BASE3[window_bits(us, w)] + 2 * BASE3[window_bits(them, w)];
                assert_eq!(window_codes(us, them)[w], want);
            }
            all |= m;
        }
        assert_eq!(all, BOARD);
    }

    #[test]
    fn window_codes_agree_with_reading_each_window_square_by_square() {
        use crate::rules::bitboard::BOARD;
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..5000 {
            let us = next() & BOARD;
            let them = next() & BOARD & !us;
            let codes = window_codes(us, them);
            for (w, &code) in codes.iter().enumerate() {
                let want = BASE3[window_bits(us, w)] + 2 * BASE3[window_bits(them, w)];
                assert_eq!(code, want, "window {w} of {us:#x} / {them:#x}");
            }
        }
    }

    #[test]
    fn a_position_and_its_mirror_have_the_same_features() {
        // The start position with White to move and its colour-swapped, turned copy with
        // Black to move are the same position for the side to move.
        let p = Position::start();
        let q = Position::from_bitboards(turn(p.black), turn(p.white), 0, Color::Black).unwrap();
        let own = |x: &Position| quiet_moves(x, x.side_to_move());
        assert_eq!(features(&p, own(&p)), features(&q, own(&q)));
    }

    #[test]
    fn weights_files_round_trip_and_refuse_damage() {
        let w = PatternWeights::new((0..LEN).map(|i| (i % 200) as i16 - 100).collect());
        let bytes = w.to_bytes(Variant::Giveaway);
        let back = PatternWeights::parse(&bytes, Variant::Giveaway).unwrap();
        assert_eq!(back.w, w.w);
        assert!(PatternWeights::parse(&bytes, Variant::Russian).is_err());
        let mut bad = bytes.clone();
        bad[100] ^= 1;
        assert!(
            PatternWeights::parse(&bad, Variant::Giveaway)
                .unwrap_err()
                .contains("damaged")
        );
        assert!(PatternWeights::parse(&bytes[..50], Variant::Giveaway).is_err());
    }

    #[test]
    fn embedded_weights_load() {
        for v in [Variant::Russian, Variant::Giveaway] {
            assert_eq!(embedded(v).w.len(), LEN);
        }
    }
}
