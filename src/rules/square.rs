//! Squares of the 8x8 board: algebraic names (a1..h8), PDN numbers (1..32) and bit indices.
//!
//! Only the 32 dark squares exist. Internally a square is a bit index in a 36-bit
//! layout with four "ghost" bits (4, 13, 22, 31), so that the diagonal neighbours
//! are always +4/+5 (towards rank 8) and -4/-5 (towards rank 1) and a shift never
//! wraps around the board edge.

use std::fmt;
use std::str::FromStr;

/// A dark square of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

/// Errors naming a square that does not exist or is light.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    #[error("'{0}' is not a square (expected a1..h8 or 1..32)")]
    Invalid(String),
    #[error("'{0}' is a light square; pieces stand on dark squares only")]
    Light(String),
}

impl Square {
    /// Square from file (0 = a) and rank (0 = 1); `None` for light or off-board squares.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file > 7 || rank > 7 || !(file + rank).is_multiple_of(2) {
            return None;
        }
        Some(Square((rank * 9 + file) / 2))
    }

    /// Square from its bit index in the internal layout; `None` for ghosts and out-of-range bits.
    pub const fn from_bit(bit: u32) -> Option<Square> {
        if bit > 35 || bit % 9 == 4 {
            None
        } else {
            Some(Square(bit as u8))
        }
    }

    /// Square from its PDN number (1 = b8, 4 = h8, 29 = a1, 32 = g1).
    pub const fn from_pdn(n: u8) -> Option<Square> {
        if n < 1 || n > 32 {
            return None;
        }
        let row = (n - 1) / 4;
        let rank = 7 - row;
        let file = 2 * ((n - 1) % 4) + rank % 2;
        Square::from_coords(file, rank)
    }

    /// For bits taken from masks of real squares only.
    pub(crate) const fn from_bit_unchecked(bit: u32) -> Square {
        Square(bit as u8)
    }

    pub const fn bit(self) -> u32 {
        self.0 as u32
    }

    pub const fn mask(self) -> u64 {
        1u64 << self.0
    }

    /// File, 0 = a.
    pub const fn file(self) -> u8 {
        let two = self.0 * 2;
        two - 9 * (two / 9)
    }

    /// Rank, 0 = rank 1.
    pub const fn rank(self) -> u8 {
        (self.0 * 2) / 9
    }

    /// PDN number 1..32.
    pub const fn pdn(self) -> u8 {
        let row = 7 - self.rank();
        row * 4 + self.file() / 2 + 1
    }

    /// All 32 squares in PDN order (1..32).
    pub fn all() -> impl Iterator<Item = Square> {
        (1..=32).filter_map(Square::from_pdn)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl FromStr for Square {
    type Err = SquareError;

    /// Accepts algebraic (`c3`, `C3`) or PDN numbers (`22`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let invalid = || SquareError::Invalid(t.to_string());
        if t.is_empty() {
            return Err(invalid());
        }
        if t.bytes().all(|b| b.is_ascii_digit()) {
            let n: u8 = t.parse().map_err(|_| invalid())?;
            return Square::from_pdn(n).ok_or_else(invalid);
        }
        let b = t.as_bytes();
        if b.len() != 2 {
            return Err(invalid());
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        if file > 7 || rank > 7 {
            return Err(invalid());
        }
        Square::from_coords(file, rank).ok_or_else(|| SquareError::Light(t.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_pdn() {
        assert_eq!(Square::from_pdn(1).unwrap().to_string(), "b8");
        assert_eq!(Square::from_pdn(4).unwrap().to_string(), "h8");
        assert_eq!(Square::from_pdn(29).unwrap().to_string(), "a1");
        assert_eq!(Square::from_pdn(32).unwrap().to_string(), "g1");
        assert_eq!(Square::from_pdn(22).unwrap().to_string(), "c3");
        for sq in Square::all() {
            assert_eq!(Square::from_pdn(sq.pdn()), Some(sq));
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
        }
        assert_eq!(Square::all().count(), 32);
        assert!("a2".parse::<Square>().is_err());
        assert!("i1".parse::<Square>().is_err());
        assert!("33".parse::<Square>().is_err());
    }
}
