//! FEN in the PDN style: `W:Wa1,c1,Kd4:Bb8,f8` or numeric `W:W21,22,K18:B1-4`.
//!
//! Reading accepts algebraic and numeric squares, ranges of numbers (`1-12`), squares in
//! any order, a trailing `.`, spaces, and extra fields such as `:H0:F1` (ignored).
//! Writing gives algebraic squares, men and kings sorted by square name.

use super::position::{Color, Piece, PieceKind, Position, PositionError};
use super::square::Square;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("FEN must start with the side to move, W or B, found '{0}'")]
    SideToMove(String),
    #[error("FEN field '{0}' must start with W or B followed by squares")]
    Field(String),
    #[error("FEN names the {0} pieces twice")]
    DuplicateColor(&'static str),
    #[error("FEN square '{token}': {reason}")]
    Square { token: String, reason: String },
    #[error("FEN puts two pieces on {0}")]
    SquareTwice(Square),
    #[error("FEN describes an impossible position: {0}")]
    Position(#[from] PositionError),
}

fn parse_square(token: &str) -> Result<Square, FenError> {
    token.parse::<Square>().map_err(|e| FenError::Square {
        token: token.to_string(),
        reason: e.to_string(),
    })
}

/// Parses a FEN into a validated position.
pub fn parse_fen(text: &str) -> Result<Position, FenError> {
    let t: String = text
        .trim()
        .trim_matches('"')
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let t = t.trim_end_matches('.');
    if t.is_empty() {
        return Err(FenError::Empty);
    }
    let mut fields = t.split(':');
    let side = match fields.next().unwrap_or("") {
        "W" | "w" => Color::White,
        "B" | "b" => Color::Black,
        other => return Err(FenError::SideToMove(other.to_string())),
    };
    let mut pos = Position::empty(side);
    let mut seen = [false, false];
    for field in fields {
        let mut chars = field.chars();
        let color = match chars.next() {
            Some('W') | Some('w') => Color::White,
            Some('B') | Some('b') => Color::Black,
            // Extra fields like H0 (half-move clock) or F1 (move number) are ignored.
            Some(c) if c.is_ascii_alphabetic() => continue,
            _ => return Err(FenError::Field(field.to_string())),
        };
        if seen[color.index()] {
            return Err(FenError::DuplicateColor(if color == Color::White {
                "white"
            } else {
                "black"
            }));
        }
        seen[color.index()] = true;
        let list = chars.as_str().trim_end_matches('.');
        if list.is_empty() {
            continue;
        }
        for token in list.split(',') {
            let token = token.trim_end_matches('.');
            let (kind, body) = match token.strip_prefix(['K', 'k']) {
                Some(rest) => (PieceKind::King, rest),
                None => (PieceKind::Man, token),
            };
            let squares: Vec<Square> = match body.split_once('-') {
                Some((a, b))
                    if a.bytes().all(|c| c.is_ascii_digit())
                        && b.bytes().all(|c| c.is_ascii_digit()) =>
                {
                    let (sa, sb) = (parse_square(a)?, parse_square(b)?);
                    if sa.pdn() > sb.pdn() {
                        return Err(FenError::Square {
                            token: token.to_string(),
                            reason: "range runs backwards".into(),
                        });
                    }
                    (sa.pdn()..=sb.pdn()).filter_map(Square::from_pdn).collect()
                }
                _ => vec![parse_square(body)?],
            };
            for sq in squares {
                if pos.piece_at(sq).is_some() {
                    return Err(FenError::SquareTwice(sq));
                }
                pos.set_piece(sq, Some(Piece { color, kind }));
            }
        }
    }
    Ok(pos.validate()?)
}

/// Writes a position as an algebraic FEN, e.g. `W:Wa1,c1,Kd4:Bb8,f8`.
pub fn to_fen(pos: &Position) -> String {
    let side = if pos.side_to_move() == Color::White {
        'W'
    } else {
        'B'
    };
    let mut out = String::new();
    out.push(side);
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(if color == Color::White { 'W' } else { 'B' });
        let mut squares: Vec<(String, bool)> = Square::all()
            .filter_map(|sq| {
                pos.piece_at(sq)
                    .filter(|p| p.color == color)
                    .map(|p| (sq.to_string(), p.kind == PieceKind::King))
            })
            .collect();
        squares.sort();
        let parts: Vec<String> = squares
            .into_iter()
            .map(|(s, king)| if king { format!("K{s}") } else { s })
            .collect();
        out.push_str(&parts.join(","));
    }
    out
}

impl Position {
    /// Parses a FEN (see [`parse_fen`]).
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        parse_fen(text)
    }

    /// Algebraic FEN of this position.
    pub fn to_fen(&self) -> String {
        to_fen(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let start = Position::start();
        let fen = start.to_fen();
        assert_eq!(
            fen,
            "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8"
        );
        assert_eq!(parse_fen(&fen).unwrap(), start);
        assert_eq!(parse_fen("W:W21-32:B1-12").unwrap(), start);
        assert_eq!(
            parse_fen("W:W32,31,30,29,28,27,26,25,24,23,22,21.:B1,2,3,4,5,6,7,8,9,10,11,12.:H0:F1")
                .unwrap(),
            start
        );
    }
}
