//! The position: three bitboards and the side to move, copied on every move.

use super::bitboard::{BOARD, Bits, RANK1, RANK8};
use super::movegen::MoveKey;
use super::mv::Move;
use super::square::Square;
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank where this side's men become kings.
    pub const fn promotion_rank(self) -> u64 {
        match self {
            Color::White => RANK8,
            Color::Black => RANK1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PieceKind {
    Man,
    King,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub color: Color,
    pub kind: PieceKind,
}

/// Why a set-up cannot be a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("square {0} holds both a white and a black piece")]
    Overlap(Square),
    #[error("{0} has {1} pieces; at most 12 are allowed")]
    TooManyPieces(Color, u32),
    #[error("a white man stands on {0} on the last row; it would be a king")]
    WhiteManOnLastRow(Square),
    #[error("a black man stands on {0} on the last row; it would be a king")]
    BlackManOnLastRow(Square),
    #[error("a bitboard names squares that are not dark squares of the board")]
    OffBoard,
    #[error("a king mark without a piece on the square")]
    KingWithoutPiece,
}

/// A position: where the men and kings of each side stand and who moves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub(crate) white: u64,
    pub(crate) black: u64,
    pub(crate) kings: u64,
    pub(crate) side: Color,
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The starting position: men on rows 1-3 (White) and 6-8 (Black), White to move.
    pub const fn start() -> Position {
        Position {
            white: 0x1FEF,
            black: 0xF_7F80_0000,
            kings: 0,
            side: Color::White,
        }
    }

    /// Builds a validated position from bitboards in the internal layout.
    pub fn from_bitboards(
        white: u64,
        black: u64,
        kings: u64,
        side: Color,
    ) -> Result<Position, PositionError> {
        if (white | black | kings) & !BOARD != 0 {
            return Err(PositionError::OffBoard);
        }
        if let Some(b) = Bits(white & black).next() {
            return Err(PositionError::Overlap(
                Square::from_bit(b).ok_or(PositionError::OffBoard)?,
            ));
        }
        if kings & !(white | black) != 0 {
            return Err(PositionError::KingWithoutPiece);
        }
        for (c, bb) in [(Color::White, white), (Color::Black, black)] {
            if bb.count_ones() > 12 {
                return Err(PositionError::TooManyPieces(c, bb.count_ones()));
            }
        }
        if let Some(b) = Bits(white & !kings & RANK8).next() {
            return Err(PositionError::WhiteManOnLastRow(
                Square::from_bit(b).ok_or(PositionError::OffBoard)?,
            ));
        }
        if let Some(b) = Bits(black & !kings & RANK1).next() {
            return Err(PositionError::BlackManOnLastRow(
                Square::from_bit(b).ok_or(PositionError::OffBoard)?,
            ));
        }
        Ok(Position {
            white,
            black,
            kings,
            side,
        })
    }

    /// A position with no pieces, for building set-ups.
    pub const fn empty(side: Color) -> Position {
        Position {
            white: 0,
            black: 0,
            kings: 0,
            side,
        }
    }

    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    pub fn with_side_to_move(mut self, side: Color) -> Position {
        self.side = side;
        self
    }

    /// All pieces of a colour.
    pub const fn pieces(&self, c: Color) -> u64 {
        match c {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    pub const fn men(&self, c: Color) -> u64 {
        self.pieces(c) & !self.kings
    }

    pub const fn kings(&self, c: Color) -> u64 {
        self.pieces(c) & self.kings
    }

    pub const fn occupied(&self) -> u64 {
        self.white | self.black
    }

    pub const fn empty_squares(&self) -> u64 {
        BOARD & !(self.white | self.black)
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let m = sq.mask();
        let color = if self.white & m != 0 {
            Color::White
        } else if self.black & m != 0 {
            Color::Black
        } else {
            return None;
        };
        let kind = if self.kings & m != 0 {
            PieceKind::King
        } else {
            PieceKind::Man
        };
        Some(Piece { color, kind })
    }

    /// Puts a piece on (or clears, with `None`) a square; validate the result with
    /// [`Position::validate`] before playing from it.
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        let m = sq.mask();
        self.white &= !m;
        self.black &= !m;
        self.kings &= !m;
        if let Some(p) = piece {
            match p.color {
                Color::White => self.white |= m,
                Color::Black => self.black |= m,
            }
            if p.kind == PieceKind::King {
                self.kings |= m;
            }
        }
    }

    /// Checks the set-up rules (see [`Position::from_bitboards`]).
    pub fn validate(&self) -> Result<Position, PositionError> {
        Position::from_bitboards(self.white, self.black, self.kings, self.side)
    }

    /// Plays a legal move of this position and returns the new position.
    #[inline]
    pub fn play(&self, mv: &Move) -> Position {
        self.play_key(&MoveKey {
            from: mv.from().mask(),
            to: mv.to().mask(),
            taken: mv.captured_mask(),
            promotes: mv.promotes(),
        })
    }

    /// Plays a legal move given in compact form.
    #[inline]
    pub fn play_key(&self, mv: &MoveKey) -> Position {
        let (from, to, taken) = (mv.from, mv.to, mv.taken);
        let mut p = *self;
        let was_king = p.kings & from != 0;
        match self.side {
            Color::White => {
                p.white = (p.white & !from) | to;
                p.black &= !taken;
            }
            Color::Black => {
                p.black = (p.black & !from) | to;
                p.white &= !taken;
            }
        }
        p.kings &= !(from | taken);
        if was_king || mv.promotes || to & self.side.promotion_rank() != 0 {
            p.kings |= to;
        }
        p.side = self.side.opposite();
        p
    }

    /// Number of pieces (men and kings) of both sides.
    pub const fn piece_count(&self) -> u32 {
        (self.white | self.black).count_ones()
    }
}

impl fmt::Display for Position {
    /// A text diagram, rank 8 at the top: `w`/`b` men, `W`/`B` kings, `.` dark empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..8 {
                let c = match Square::from_coords(file, rank) {
                    None => ' ',
                    Some(sq) => match self.piece_at(sq) {
                        None => '.',
                        Some(Piece {
                            color: Color::White,
                            kind: PieceKind::Man,
                        }) => 'w',
                        Some(Piece {
                            color: Color::White,
                            kind: PieceKind::King,
                        }) => 'W',
                        Some(Piece {
                            color: Color::Black,
                            kind: PieceKind::Man,
                        }) => 'b',
                        Some(Piece {
                            color: Color::Black,
                            kind: PieceKind::King,
                        }) => 'B',
                    },
                };
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "  a b c d e f g h   {} to move", self.side)
    }
}
