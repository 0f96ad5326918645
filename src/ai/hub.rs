//! Scan's Hub protocol (version 2), as `shashki hub` speaks it: the line syntax, the
//! position and move formats for the 8x8 board, the `level` forms and the score.
//!
//! Every line is `command name=value name="quoted value" flag ...`. Positions are the
//! side to move (`W` or `B`) and one character per dark square (`w` `b` men, `W` `B`
//! kings, `e` empty) in the order pydraughts sends them: from White's side of the board
//! the top row first, left to right (1 = b8, 4 = h8, 29 = a1, 32 = g1). Moves are
//! written in the Russian numbering that pydraughts uses for moves (1 = a1, 2 = c1, 5 =
//! b2, 32 = h8): `10-14` (c3-d4), a capture as origin, destination and every captured
//! piece, in any order (`14x23x19`, d4:f6 taking e5).
//!
//! The loop that answers the commands is in `src/cli/hub_cmd.rs`; README.md lists them.

use super::{Clock, Limits, WIN};
use crate::rules::{Color, Game, Move, Piece, PieceKind, Position, Square, Variant};
use std::time::Duration;

/// One line: its command and its arguments (a flag has an empty value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub command: String,
    pub args: Vec<(String, String)>,
}

impl Line {
    /// The value of an argument, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(n, _)| n == name)
    }
}

/// Splits a line into its command and arguments; `Ok(None)` for a blank line.
pub fn parse_line(text: &str) -> Result<Option<Line>, String> {
    let mut chars = text.trim().chars().peekable();
    let mut words: Vec<(String, Option<String>)> = Vec::new();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            break;
        }
        let mut name = String::new();
        while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != '=') {
            if c == '"' {
                return Err(format!("a quote in the name of an argument: '{text}'"));
            }
            name.push(c);
        }
        if name.is_empty() {
            return Err(format!("an argument without a name: '{text}'"));
        }
        let value = if chars.next_if_eq(&'=').is_some() {
            let mut value = String::new();
            if chars.next_if_eq(&'"').is_some() {
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some(c) => value.push(c),
                        None => return Err(format!("a quote is not closed: '{text}'")),
                    }
                }
                if chars.peek().is_some_and(|c| !c.is_whitespace()) {
                    return Err(format!("no space after a quoted value: '{text}'"));
                }
            } else {
                while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                    value.push(c);
                }
            }
            Some(value)
        } else {
            None
        };
        words.push((name, value));
    }
    let Some(((command, value), rest)) = words.split_first() else {
        return Ok(None);
    };
    if value.is_some() {
        return Err(format!(
            "a line starts with a command, not '{command}=': '{text}'"
        ));
    }
    Ok(Some(Line {
        command: command.clone(),
        args: rest
            .iter()
            .map(|(n, v)| (n.clone(), v.clone().unwrap_or_default()))
            .collect(),
    }))
}

/// Quotes a value when it needs it (a space, `=`, a quote or nothing at all).
pub fn quote(value: &str) -> String {
    if value.is_empty() || value.contains([' ', '=', '"']) {
        format!("\"{}\"", value.replace('"', "'"))
    } else {
        value.to_string()
    }
}

/// The square of a position string's `n`-th character (1 = b8, 29 = a1).
fn position_square(n: u8) -> Option<Square> {
    Square::from_pdn(n)
}

/// The square of a move number (1 = a1, 2 = c1, 5 = b2, 32 = h8).
pub fn move_square(n: u8) -> Option<Square> {
    if !(1..=32).contains(&n) {
        return None;
    }
    let rank = (n - 1) / 4;
    Square::from_coords(2 * ((n - 1) % 4) + rank % 2, rank)
}

/// The move number of a square (the inverse of [`move_square`]).
pub fn move_number(sq: Square) -> u8 {
    sq.rank() * 4 + sq.file() / 2 + 1
}

/// Reads a position string (`W` and 32 squares).
pub fn parse_position(text: &str) -> Result<Position, String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 33 {
        return Err(format!(
            "a position is the side to move and 32 squares, not {} characters",
            chars.len()
        ));
    }
    let side = match chars[0] {
        'W' | 'w' => Color::White,
        'B' | 'b' => Color::Black,
        c => return Err(format!("'{c}' is not a side to move (W or B)")),
    };
    let mut pos = Position::empty(side);
    for (i, c) in chars[1..].iter().enumerate() {
        let piece = |color, kind| Some(Piece { color, kind });
        let p = match c {
            'w' => piece(Color::White, PieceKind::Man),
            'b' => piece(Color::Black, PieceKind::Man),
            'W' => piece(Color::White, PieceKind::King),
            'B' => piece(Color::Black, PieceKind::King),
            'e' | '.' => None,
            c => return Err(format!("'{c}' is not a square (w b W B e)")),
        };
        let sq = position_square(i as u8 + 1).ok_or("no such square")?;
        pos.set_piece(sq, p);
    }
    pos.validate().map_err(|e| e.to_string())
}

/// Writes a position string (the inverse of [`parse_position`]).
pub fn position_text(pos: &Position) -> String {
    let mut s = String::with_capacity(33);
    s.push(match pos.side_to_move() {
        Color::White => 'W',
        Color::Black => 'B',
    });
    for n in 1..=32 {
        let c = match position_square(n).and_then(|sq| pos.piece_at(sq)) {
            None => 'e',
            Some(Piece { color, kind }) => {
                let c = if color == Color::White { 'w' } else { 'b' };
                if kind == PieceKind::King {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            }
        };
        s.push(c);
    }
    s
}

/// A move in Hub's format: `10-14`, `14x23x19` (the captured pieces in the order taken).
pub fn move_text(mv: &Move) -> String {
    let n = |sq: Square| move_number(sq).to_string();
    if mv.is_capture() {
        let mut parts = vec![n(mv.from()), n(mv.to())];
        parts.extend(mv.captured().iter().map(|&sq| n(sq)));
        parts.join("x")
    } else {
        format!("{}-{}", n(mv.from()), n(mv.to()))
    }
}

/// Finds the legal move a Hub move names: origin, destination and the set of captured
/// pieces (any order). Routes that take the same pieces are the same move.
pub fn parse_move(game: &Game, text: &str) -> Result<Move, String> {
    let sep = if text.contains('x') { 'x' } else { '-' };
    let squares: Vec<Square> = text
        .split(sep)
        .map(|p| {
            p.parse::<u8>()
                .ok()
                .and_then(move_square)
                .ok_or_else(|| format!("'{text}' is not a move (such as 10-14 or 14x23x19)"))
        })
        .collect::<Result<_, _>>()?;
    if squares.len() < 2 || (sep == '-' && squares.len() != 2) {
        return Err(format!(
            "'{text}' is not a move (such as 10-14 or 14x23x19)"
        ));
    }
    let mut taken: u64 = 0;
    for sq in &squares[2..] {
        taken |= sq.mask();
    }
    let found: Vec<Move> = game
        .legal_moves()
        .into_iter()
        .filter(|m| {
            m.from() == squares[0]
                && m.to() == squares[1]
                && m.is_capture() == (sep == 'x')
                && (squares.len() == 2 || m.captured_mask() == taken)
        })
        .collect();
    match found.as_slice() {
        [] => Err(format!("'{text}' is not a legal move here")),
        [first, rest @ ..] if rest.iter().all(|m| m.same_effect(first)) => Ok(*first),
        _ => Err(format!(
            "'{text}' names several captures: give the captured pieces"
        )),
    }
}

/// A game from a `pos` line: the position and the moves played from it.
pub fn parse_game(variant: Variant, pos: &str, moves: Option<&str>) -> Result<Game, String> {
    let mut game = Game::from_position(variant, parse_position(pos)?);
    for m in moves.unwrap_or("").split_whitespace() {
        // A client whose rules count draws differently plays on after a draw by ours:
        // the game goes on from the position (only its repetitions before are lost).
        if game.outcome().is_some_and(|o| o.winner().is_none()) {
            game = Game::from_position(variant, *game.position());
        }
        let mv = parse_move(&game, m)?;
        game.play(&mv).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// What a `level` line asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Level {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub move_time: Option<Duration>,
    /// `time` (the player's time, before this move's increment), `inc` and `moves`.
    pub time: Option<Duration>,
    pub increment: Duration,
    pub moves: Option<u32>,
}

fn seconds(v: &str, name: &str) -> Result<Duration, String> {
    v.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1.0e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{name}={v} is not a time in seconds"))
}

fn count<T: std::str::FromStr>(v: &str, name: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("{name}={v} is not a number"))
}

/// Reads a `level` line (`infinite` clears every limit).
pub fn parse_level(line: &Line) -> Result<Level, String> {
    let mut level = Level::default();
    if line.has("infinite") {
        return Ok(level);
    }
    for (name, v) in &line.args {
        match name.as_str() {
            "depth" => level.depth = Some(count(v, name)?),
            "nodes" => level.nodes = Some(count(v, name)?),
            "move-time" => level.move_time = Some(seconds(v, name)?),
            "time" => level.time = Some(seconds(v, name)?),
            "inc" => level.increment = seconds(v, name)?,
            "moves" => level.moves = Some(count::<u32>(v, name)?.max(1)),
            _ => {}
        }
    }
    Ok(level)
}

impl Level {
    /// The search limits of this level. Hub adds the increment before the move, so the
    /// clock holds `time + inc` now.
    pub fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            time: self.move_time,
            clock: self.time.map(|t| Clock {
                remaining: t + self.increment,
                increment: self.increment,
                moves_to_go: self.moves,
            }),
        }
    }
}

/// A score in men, as Hub writes it: `0.12`; a win in `p` plies is `100 - p/100` men
/// (99.93), the endgame tables' wins 80 men less their plies, so that clients that
/// read scores above 90 as wins count the plies right.
pub fn score_text(score: i32) -> String {
    let s = score.abs();
    let men = if s > WIN - 1_000 {
        (10_000 - (WIN - s)) as f64 / 100.0
    } else if super::is_tablebase_score(s) {
        80.0 - (super::TB_WIN - s) as f64 / 100.0
    } else {
        s as f64 / 100.0
    };
    format!("{}{men:.2}", if score < 0 { "-" } else { "" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_with_quotes_and_flags() {
        let l = parse_line(r#"pos pos=Wbbe moves="10-14 23-19" flag x="""#)
            .unwrap()
            .unwrap();
        assert_eq!(l.command, "pos");
        assert_eq!(l.get("pos"), Some("Wbbe"));
        assert_eq!(l.get("moves"), Some("10-14 23-19"));
        assert!(l.has("flag") && l.get("flag") == Some(""));
        assert_eq!(l.get("x"), Some(""));
        assert_eq!(parse_line("   ").unwrap(), None);
        assert!(parse_line(r#"pos moves="10-14"#).is_err());
        assert!(parse_line("=x").is_err());
        assert!(parse_line(r#"a b="c"d"#).is_err());
        assert_eq!(quote("a b"), "\"a b\"");
        assert_eq!(quote("x"), "x");
    }

    #[test]
    fn squares_and_positions_follow_pydraughts() {
        assert_eq!(move_square(1).unwrap().to_string(), "a1");
        assert_eq!(move_square(10).unwrap().to_string(), "c3");
        assert_eq!(move_square(32).unwrap().to_string(), "h8");
        assert!(move_square(0).is_none() && move_square(33).is_none());
        for sq in Square::all() {
            assert_eq!(move_square(move_number(sq)), Some(sq));
        }
        // pydraughts' start position and one of its set-ups (W:WKa1:Bc3,e5,f6).
        let start = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
        assert_eq!(parse_position(start).unwrap(), Position::start());
        assert_eq!(position_text(&Position::start()), start);
        let setup = parse_position("WeeeeeeeeeebeeebeeeeeebeeeeeeWeee").unwrap();
        assert_eq!(setup, Position::from_fen("W:WKa1:Bc3,e5,f6").unwrap());
        assert!(parse_position("X").is_err());
        assert!(parse_position(&format!("X{}", &start[1..])).is_err());
        assert!(parse_position(&format!("W{}", "q".repeat(32))).is_err());
    }

    #[test]
    fn moves_are_read_and_written_in_pydraughts_numbering() {
        let g = parse_game(
            Variant::Russian,
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            Some("10-14 23-19"),
        )
        .unwrap();
        assert_eq!(g.moves()[0].to_string(), "c3-d4");
        let capture = parse_move(&g, "14x23x19").unwrap();
        assert_eq!(capture.to_string(), "d4:f6");
        assert_eq!(move_text(&capture), "14x23x19");
        assert_eq!(parse_move(&g, "14x23").unwrap(), capture);
        assert!(parse_move(&g, "18x11x15").is_err());
        assert!(parse_move(&g, "14-23").is_err());
        assert!(parse_move(&g, "x").is_err());
        assert!(
            parse_game(
                Variant::Russian,
                "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
                Some("10-15")
            )
            .is_err()
        );
    }

    #[test]
    fn levels_become_limits() {
        let level = |t: &str| {
            parse_level(&parse_line(t).unwrap().unwrap())
                .unwrap()
                .limits()
        };
        assert_eq!(level("level depth=7").depth, Some(7));
        assert_eq!(level("level nodes=5000").nodes, Some(5000));
        assert_eq!(
            level("level move-time=0.5").time,
            Some(Duration::from_millis(500))
        );
        let c = level("level moves=9 time=291.5 inc=2").clock.unwrap();
        assert_eq!(c.remaining, Duration::from_millis(293_500));
        assert_eq!(c.moves_to_go, Some(9));
        assert_eq!(level("level infinite"), Limits::default());
        assert!(parse_level(&parse_line("level time=x").unwrap().unwrap()).is_err());
    }

    #[test]
    fn scores_are_in_men() {
        assert_eq!(score_text(12), "0.12");
        assert_eq!(score_text(-250), "-2.50");
        assert_eq!(score_text(WIN - 7), "99.93");
        assert_eq!(score_text(-(WIN - 7)), "-99.93");
        assert_eq!(score_text(super::super::TB_WIN - 20), "79.80");
    }
}
