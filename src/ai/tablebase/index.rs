//! Materials and the numbering of positions inside one table.
//!
//! Squares are numbered 0..32 in bit order (0 = a1 ... 31 = h8). A table holds every
//! placement of one material with either side to move: white men on the 28 squares off
//! rank 8, black men on the 28 off rank 1 (numbers where they overlap name no position),
//! then the white kings and the black kings among the squares still free. A material and
//! its colour-reversed twin share one table: the board turned half a turn with the
//! colours swapped is the same game.

use crate::rules::{Color, Position};
use std::fmt;

/// Pieces of each kind and colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    pub white_men: u8,
    pub white_kings: u8,
    pub black_men: u8,
    pub black_kings: u8,
}

impl Material {
    pub fn of(pos: &Position) -> Material {
        Material {
            white_men: pos.men(Color::White).count_ones() as u8,
            white_kings: pos.kings(Color::White).count_ones() as u8,
            black_men: pos.men(Color::Black).count_ones() as u8,
            black_kings: pos.kings(Color::Black).count_ones() as u8,
        }
    }

    pub fn pieces(&self) -> u32 {
        (self.white_men + self.white_kings + self.black_men + self.black_kings) as u32
    }

    pub fn men(&self) -> u32 {
        (self.white_men + self.black_men) as u32
    }

    /// The same material with the colours swapped.
    pub fn flipped(&self) -> Material {
        Material {
            white_men: self.black_men,
            white_kings: self.black_kings,
            black_men: self.white_men,
            black_kings: self.white_kings,
        }
    }

    /// The one of a material and its twin that names their shared table: more pieces on
    /// White's side, then more kings, then more men.
    pub fn is_canonical(&self) -> bool {
        let side = |m: u8, k: u8| (m + k, k, m);
        side(self.white_men, self.white_kings) >= side(self.black_men, self.black_kings)
    }

    pub fn canonical(&self) -> Material {
        if self.is_canonical() {
            *self
        } else {
            self.flipped()
        }
    }

    /// Every material of exactly `pieces` pieces with both colours present, canonical.
    pub fn all_with(pieces: u32) -> Vec<Material> {
        let mut out = Vec::new();
        for w in 1..pieces {
            let b = pieces - w;
            for wm in 0..=w {
                for bm in 0..=b {
                    let m = Material {
                        white_men: wm as u8,
                        white_kings: (w - wm) as u8,
                        black_men: bm as u8,
                        black_kings: (b - bm) as u8,
                    };
                    if m.is_canonical() && !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }
}

impl fmt::Display for Material {
    /// `KKMvK`: White's kings and men, then Black's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |k: u8, m: u8| "K".repeat(k as usize) + &"M".repeat(m as usize);
        write!(
            f,
            "{}v{}",
            side(self.white_kings, self.white_men),
            side(self.black_kings, self.black_men)
        )
    }
}

impl std::str::FromStr for Material {
    type Err = String;
    fn from_str(s: &str) -> Result<Material, String> {
        let (w, b) = s
            .split_once(['v', 'V'])
            .ok_or_else(|| format!("'{s}' is not a material like KKMvK"))?;
        let count = |t: &str| -> Result<(u8, u8), String> {
            let mut kings = 0u8;
            let mut men = 0u8;
            for c in t.chars() {
                match c.to_ascii_uppercase() {
                    'K' => kings += 1,
                    'M' => men += 1,
                    _ => return Err(format!("'{s}': '{c}' is neither K (king) nor M (man)")),
                }
            }
            Ok((kings, men))
        };
        let ((wk, wm), (bk, bm)) = (count(w)?, count(b)?);
        if wk + wm == 0 || bk + bm == 0 || wk + wm > 12 || bk + bm > 12 {
            return Err(format!("'{s}': each side needs 1 to 12 pieces"));
        }
        Ok(Material {
            white_men: wm,
            white_kings: wk,
            black_men: bm,
            black_kings: bk,
        })
    }
}

/// Binomial coefficients C(n, k) for n <= 32, k <= 12.
const BINOM: [[u64; 13]; 33] = {
    let mut t = [[0u64; 13]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 12 && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

#[inline(always)]
fn binom(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        BINOM[n as usize][k as usize]
    }
}

/// 36-bit board layout to the 32 square numbers and back (ghost bits 4, 13, 22, 31).
#[inline(always)]
pub fn to32(x: u64) -> u32 {
    ((x & 0xF)
        | ((x >> 1) & 0xFF0)
        | ((x >> 2) & 0xF_F000)
        | ((x >> 3) & 0xFF0_0000)
        | ((x >> 4) & 0xF000_0000)) as u32
}

#[inline(always)]
pub fn to36(x: u32) -> u64 {
    let x = x as u64;
    (x & 0xF)
        | ((x & 0xFF0) << 1)
        | ((x & 0xF_F000) << 2)
        | ((x & 0xFF0_0000) << 3)
        | ((x & 0xF000_0000) << 4)
}

/// Rank of a set of squares among subsets of its size (combinatorial number system).
#[inline(always)]
fn rank_set(mut set: u32) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        r += binom(set.trailing_zeros(), i);
        set &= set - 1;
        i += 1;
    }
    r
}

/// The subset of `k` of `0..n` with rank `r`.
#[inline(always)]
fn unrank_set(mut r: u64, k: u32, n: u32) -> u32 {
    let mut set = 0;
    let mut top = n;
    for i in (1..=k).rev() {
        // Largest s < top with C(s, i) <= r.
        let mut s = top - 1;
        while binom(s, i) > r {
            s -= 1;
        }
        set |= 1 << s;
        r -= binom(s, i);
        top = s;
    }
    set
}

/// `set`'s members written as their rank among the members of `within`.
#[inline(always)]
fn compress(set: u32, within: u32) -> u32 {
    let mut out = 0;
    let mut s = set;
    while s != 0 {
        let b = s.trailing_zeros();
        out |= 1 << (within & ((1u32 << b) - 1)).count_ones();
        s &= s - 1;
    }
    out
}

/// The members of `within` whose ranks are in `set` (inverse of [`compress`]).
#[inline(always)]
fn expand(set: u32, within: u32) -> u32 {
    let mut out = 0;
    let mut w = within;
    let mut i = 0;
    while w != 0 {
        let b = w & w.wrapping_neg();
        if set & (1 << i) != 0 {
            out |= b;
        }
        w &= w - 1;
        i += 1;
    }
    out
}

/// The numbering of one material's positions.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub material: Material,
    black_men_count: u64,
    white_kings_count: u64,
    black_kings_count: u64,
    /// Positions per placement of the men (the king placements).
    pub per_placement: u64,
    pub placements: u64,
    /// Entries with one side to move.
    pub per_side: u64,
}

impl Layout {
    pub fn new(material: Material) -> Layout {
        let m = material;
        let men = (m.white_men + m.black_men) as u32;
        let free = 32 - men;
        let white_men_count = binom(28, m.white_men as u32);
        let black_men_count = binom(28, m.black_men as u32);
        let white_kings_count = binom(free, m.white_kings as u32);
        let black_kings_count = binom(free - m.white_kings as u32, m.black_kings as u32);
        let per_placement = white_kings_count * black_kings_count;
        let placements = white_men_count * black_men_count;
        Layout {
            material,
            black_men_count,
            white_kings_count,
            black_kings_count,
            per_placement,
            placements,
            per_side: placements * per_placement,
        }
    }

    /// Entries in the table (both sides to move).
    pub fn len(&self) -> u64 {
        2 * self.per_side
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entry of a position of exactly this material.
    #[inline]
    pub fn index(&self, pos: &Position) -> u64 {
        let wm = to32(pos.men(Color::White));
        let bm = to32(pos.men(Color::Black));
        let placement = rank_set(wm) * self.black_men_count + rank_set(bm >> 4);
        let free = !(wm | bm);
        let wk = compress(to32(pos.kings(Color::White)), free);
        let bk = compress(
            to32(pos.kings(Color::Black)),
            free & !to32(pos.kings(Color::White)),
        );
        let kings = rank_set(wk) * self.black_kings_count + rank_set(bk);
        let side = (pos.side_to_move() == Color::Black) as u64;
        side * self.per_side + placement * self.per_placement + kings
    }

    /// The men of a placement number, or `None` where white and black men would overlap.
    #[inline]
    pub fn placement_men(&self, placement: u64) -> Option<(u32, u32)> {
        let m = self.material;
        let wm = unrank_set(placement / self.black_men_count, m.white_men as u32, 28);
        let bm = unrank_set(placement % self.black_men_count, m.black_men as u32, 28) << 4;
        (wm & bm == 0).then_some((wm, bm))
    }

    /// The position of an entry, or `None` for numbers that name no position.
    #[inline]
    pub fn position(&self, index: u64) -> Option<Position> {
        let side = if index >= self.per_side {
            Color::Black
        } else {
            Color::White
        };
        let i = index % self.per_side;
        let (wm, bm) = self.placement_men(i / self.per_placement)?;
        let kings = i % self.per_placement;
        let m = self.material;
        let free = !(wm | bm);
        let men = (m.white_men + m.black_men) as u32;
        let wk = expand(
            unrank_set(
                kings / self.black_kings_count,
                m.white_kings as u32,
                32 - men,
            ),
            free,
        );
        let bk = expand(
            unrank_set(
                kings % self.black_kings_count,
                m.black_kings as u32,
                32 - men - m.white_kings as u32,
            ),
            free & !wk,
        );
        let _ = self.white_kings_count;
        Position::from_bitboards(to36(wm | wk), to36(bm | bk), to36(wk | bk), side).ok()
    }

    /// How far the men have come: every man move raises it (the order in which placements
    /// are solved, most advanced first).
    pub fn advancement(&self, placement: u64) -> u32 {
        match self.placement_men(placement) {
            Some((wm, bm)) => {
                let mut a = 0;
                for s in crate::rules::bitboard::Bits(wm as u64) {
                    a += s / 4;
                }
                for s in crate::rules::bitboard::Bits(bm as u64) {
                    a += 7 - s / 4;
                }
                a
            }
            None => 0,
        }
    }
}

/// The board turned half a turn with the colours swapped (the twin position).
#[inline(always)]
pub fn flip(pos: &Position) -> Position {
    let turn = |x: u64| x.reverse_bits() >> 28;
    Position {
        white: turn(pos.black),
        black: turn(pos.white),
        kings: turn(pos.kings),
        side: pos.side.opposite(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_names_its_own_number() {
        for text in ["KKvK", "KMvK", "MvM", "KMvKM", "MMvK", "KKvMM"] {
            let m: Material = text.parse().unwrap();
            let layout = Layout::new(m);
            let mut real = 0;
            for i in 0..layout.len() {
                if let Some(p) = layout.position(i) {
                    assert_eq!(Material::of(&p), m);
                    assert_eq!(layout.index(&p), i, "{m} {i}");
                    real += 1;
                }
            }
            assert!(real > layout.len() / 2, "{m}: {real} of {}", layout.len());
        }
    }

    #[test]
    fn square_numbers_round_trip() {
        let board = crate::rules::bitboard::BOARD;
        assert_eq!(to36(u32::MAX), board);
        assert_eq!(to32(board), u32::MAX);
        assert_eq!(
            to32(flip(&Position::start()).white),
            to32(Position::start().white)
        );
    }
}
