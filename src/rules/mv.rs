//! A move that describes itself: origin, every landing square, captured squares in order.

use super::square::Square;
use std::fmt;

/// Most pieces one capture sequence can take on 8x8 (bounded by the 12 enemy pieces).
pub const MAX_HOPS: usize = 12;

/// Filler for unused route slots (kept identical so that derived equality compares routes).
const EMPTY: Square = Square::from_bit_unchecked(0);

/// One legal move. Two capture routes with the same origin, destination, captured set and
/// resulting piece are the same move; the generator keeps the first route it found.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    from: Square,
    /// Landing squares in order (the first `hops`; the last one is the destination).
    path: [Square; MAX_HOPS],
    /// Squares of the taken pieces, in the order they were taken (the first `taken_len`).
    taken: [Square; MAX_HOPS],
    hops: u8,
    taken_len: u8,
    /// Bitboard of the taken pieces (for playing and comparing moves).
    taken_mask: u64,
    promotes: bool,
}

impl Move {
    pub(crate) fn quiet(from: Square, to: Square, promotes: bool) -> Move {
        let mut path = [EMPTY; MAX_HOPS];
        path[0] = to;
        Move {
            from,
            path,
            taken: [EMPTY; MAX_HOPS],
            hops: 1,
            taken_len: 0,
            taken_mask: 0,
            promotes,
        }
    }

    pub(crate) fn capture(
        from: Square,
        path: &[Square],
        taken: &[Square],
        taken_mask: u64,
        promotes: bool,
    ) -> Move {
        let mut p = [EMPTY; MAX_HOPS];
        p[..path.len()].copy_from_slice(path);
        let mut t = [EMPTY; MAX_HOPS];
        t[..taken.len()].copy_from_slice(taken);
        Move {
            from,
            path: p,
            taken: t,
            hops: path.len() as u8,
            taken_len: taken.len() as u8,
            taken_mask,
            promotes,
        }
    }

    pub fn from(&self) -> Square {
        self.from
    }

    pub fn to(&self) -> Square {
        self.path[(self.hops as usize).max(1) - 1]
    }

    /// Every landing square in order (the destination last).
    pub fn path(&self) -> &[Square] {
        &self.path[..self.hops as usize]
    }

    /// Squares of the captured pieces in the order they were taken.
    pub fn captured(&self) -> &[Square] {
        &self.taken[..self.taken_len as usize]
    }

    pub fn captured_mask(&self) -> u64 {
        self.taken_mask
    }

    pub fn is_capture(&self) -> bool {
        self.taken_mask != 0
    }

    /// True when a man becomes a king during this move (at its end or mid-capture).
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// Same position-changing move: origin, destination, captured set and promotion.
    pub fn same_effect(&self, other: &Move) -> bool {
        self.from == other.from
            && self.to() == other.to()
            && self.taken_mask == other.taken_mask
            && self.promotes == other.promotes
    }

    /// Short notation: `c3-d4`, `c3:e5` (origin and destination only).
    pub fn short(&self) -> String {
        let sep = if self.is_capture() { ':' } else { '-' };
        format!("{}{}{}", self.from, sep, self.to())
    }

    /// Numeric PDN notation with every landing square: `22-18`, `22x15x8`.
    pub fn numeric(&self) -> String {
        let sep = if self.is_capture() { "x" } else { "-" };
        let mut s = self.from.pdn().to_string();
        for sq in self.path() {
            s.push_str(sep);
            s.push_str(&sq.pdn().to_string());
        }
        s
    }
}

impl fmt::Display for Move {
    /// Full Russian notation: `c3-d4`, `a5:c3:e1` (every landing square of a capture).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { ':' } else { '-' };
        write!(f, "{}", self.from)?;
        for sq in self.path() {
            write!(f, "{sep}{sq}")?;
        }
        Ok(())
    }
}
