//! The rules of Russian draughts and поддавки: board, moves, variants, draws, FEN and PDN.
//! Pure Rust, independent of the game engine.

pub mod bitboard;
pub mod clock;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod mv;
pub mod notation;
pub mod openings;
pub mod pdn;
pub mod position;
pub mod square;

pub use clock::{GameClock, TimeControl};
pub use fen::FenError;
pub use game::{Countdown, Counters, DrawRule, Game, GameError, Outcome, Variant};
pub use movegen::MoveList;
pub use mv::Move;
pub use position::{Color, Piece, PieceKind, Position, PositionError};
pub use square::{Square, SquareError};
