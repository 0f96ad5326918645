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

/// Finds the move a player typed: everything [`parse_move`] reads, and also the square
/// names run together (`c3e5`, `c3e5g3`) or the origin's file and the destination
/// (`cd4`, `ce5`). An entry that names several moves lists them; an illegal one lists
/// the legal moves.
pub fn parse_typed_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let t: String = text
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let b = t.as_bytes();
    let file = |c: u8| (b'a'..=b'h').contains(&c);
    let rank = |c: u8| (b'1'..=b'8').contains(&c);
    // Square names run together: split them with dashes.
    if b.len() >= 4 && b.len().is_multiple_of(2) && b.chunks(2).all(|p| file(p[0]) && rank(p[1])) {
        let spaced: Vec<&str> = (0..b.len() / 2).map(|i| &t[2 * i..2 * i + 2]).collect();
        return parse_move(pos, &spaced.join("-"));
    }
    // The origin's file and the destination.
    if b.len() == 3 && file(b[0]) && file(b[1]) && rank(b[2]) {
        let to: Square = t[1..]
            .parse()
            .map_err(|_| NotationError::Syntax(t.clone()))?;
        let origin_file = b[0] - b'a';
        let mut found: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.to() == to && m.from().file() == origin_file)
            .collect();
        found.dedup_by(|a, b| a.same_effect(b));
        return match found.as_slice() {
            [one] => Ok(*one),
            [] => Err(illegal(pos, text)),
            many => {
                let mut names: Vec<String> = many.iter().map(|m| m.to_string()).collect();
                names.sort();
                Err(NotationError::Ambiguous {
                    text: text.trim().to_string(),
                    options: names.join(", "),
                })
            }
        };
    }
    parse_move(pos, &t)
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

#[cfg(test)]
mod typed_tests {
    use super::*;

    #[test]
    fn typed_moves_in_every_form() {
        let start = Position::start();
        for text in ["c3-d4", "C3-D4", "c3d4", "cd4", " c3 d4 ", "22-18"] {
            let m = parse_typed_move(&start, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(m.to_string(), "c3-d4", "{text}");
        }
        // Two men of the c-file cannot reach b4 and d4 alike, but two of different
        // files can: "cb4" names one, "b4" alone is no move.
        assert_eq!(
            parse_typed_move(&start, "cb4").unwrap().to_string(),
            "c3-b4"
        );
        assert!(parse_typed_move(&start, "b4").is_err());
        // Illegal entries list the legal moves.
        let e = parse_typed_move(&start, "c3e5").unwrap_err().to_string();
        assert!(e.contains("legal moves") && e.contains("g3-h4"), "{e}");
        let capture = Position::from_fen("W:Wc3,g3:Bd4,f4").unwrap();
        assert_eq!(
            parse_typed_move(&capture, "c3e5").unwrap().to_string(),
            "c3:e5"
        );
        assert_eq!(
            parse_typed_move(&capture, "ce5").unwrap().to_string(),
            "c3:e5"
        );
        assert_eq!(
            parse_typed_move(&capture, "c3:e5").unwrap().to_string(),
            "c3:e5"
        );
        // Two captures landing on e5 from different files: each file names one.
        assert_eq!(
            parse_typed_move(&capture, "ge5").unwrap().to_string(),
            "g3:e5"
        );
        let e = parse_typed_move(&capture, "e5").unwrap_err();
        assert!(matches!(e, NotationError::Syntax(_)), "{e}");
        assert!(parse_typed_move(&start, "").is_err());
        assert!(parse_typed_move(&start, "zz9").is_err());
    }
}
