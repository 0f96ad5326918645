//! Reading moves written by people: `c3-d4`, `c3:e5`, `a5:c3:e1`, `22-18`, `22x15`.
//!
//! A move is found among the legal moves of the position: the short form (origin and
//! destination) is accepted when it names one move, and intermediate landing squares,
//! when given, must appear along the route in order.

use super::mv::Move;
use super::position::Position;
use super::square::Square;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("'{0}' is not a move (expected e.g. c3-d4, c3:e5, 22-18 or 22x15)")]
    Syntax(String),
    #[error("'{text}' is not legal here; legal moves: {legal}")]
    Illegal { text: String, legal: String },
    #[error("'{text}' is ambiguous: write the whole route ({options})")]
    Ambiguous { text: String, options: String },
}

/// Splits a move text into its squares and whether it was written as a capture.
pub fn split_move(text: &str) -> Result<(Vec<Square>, bool), NotationError> {
    let t = text.trim().trim_end_matches(['!', '?', '+', '*', '#']);
    let syntax = || NotationError::Syntax(text.trim().to_string());
    let capture = t.contains([':', 'x', 'X', '×']);
    let squares: Result<Vec<Square>, _> = t
        .split(['-', ':', 'x', 'X', '×'])
        .map(|p| p.parse::<Square>())
        .collect();
    let squares = squares.map_err(|_| syntax())?;
    if squares.len() < 2 {
        return Err(syntax());
    }
    Ok((squares, capture))
}

fn matches(mv: &Move, squares: &[Square]) -> bool {
    let (first, rest) = (squares[0], &squares[1..]);
    if mv.from() != first || mv.to() != *rest.last().unwrap_or(&first) {
        return false;
    }
    // Intermediate squares must occur along the route, in order.
    let mut path = mv.path().iter();
    rest[..rest.len() - 1].iter().all(|s| path.any(|p| p == s))
}

fn illegal(pos: &Position, text: &str) -> NotationError {
    let mut names: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    names.sort();
    NotationError::Illegal {
        text: text.trim().to_string(),
        legal: if names.is_empty() {
            "none".into()
        } else {
            names.join(" ")
        },
    }
}

/// Finds the legal move that a text names.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let (squares, _capture) = split_move(text)?;
    let legal = pos.legal_moves();
    let found: Vec<&Move> = legal.iter().filter(|m| matches(m, &squares)).collect();
    match found.as_slice() {
        [one] => Ok(**one),
        [] if squares.len() > 2 => {
            // A full route that gives the same result as the kept one is the same move.
            let mut all = super::movegen::AllRoutes::default();
            pos.generate_captures(&mut all);
            match all
                .0
                .iter()
                .find(|m| m.path().len() + 1 == squares.len() && matches(m, &squares))
            {
                Some(route) => Ok(*route),
                None => Err(illegal(pos, text)),
            }
        }
        [] => Err(illegal(pos, text)),
        many => {
            // A route given in full picks its move even when a shorter text would not.
            if let Some(exact) = many.iter().find(|m| m.path().len() + 1 == squares.len())
                && many
                    .iter()
                    .filter(|m| m.path().len() + 1 == squares.len())
                    .count()
                    == 1
            {
                return Ok(**exact);
            }
            let mut names: Vec<String> = many.iter().map(|m| m.to_string()).collect();
            names.sort();
            Err(NotationError::Ambiguous {
                text: text.trim().to_string(),
                options: names.join(", "),
            })
        }
    }
}

/// The shortest unambiguous text for a move: `c3:e5` when enough, the full route otherwise.
pub fn move_text(pos: &Position, mv: &Move) -> String {
    let short = mv.short();
    match parse_move(pos, &short) {
        Ok(m) if m.same_effect(mv) => short,
        _ => mv.to_string(),
    }
}

impl Position {
    /// Finds the legal move that a text names (see [`parse_move`]).
    pub fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        parse_move(self, text)
    }
}
