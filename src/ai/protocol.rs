//! The engine line protocol of `shashki engine`: commands in, replies out.
//!
//! One command per line on standard input; replies on standard output, one per line.
//! Moves are written in the rules engine's notation with the full route of a capture
//! (`c3-d4`, `a5:c3:e1`); moves read may also be short (`c3:e1`) when unambiguous.
//!
//! | command | effect |
//! |---|---|
//! | `variant russian\|giveaway` | the rules for the following positions (default russian) |
//! | `position startpos [moves M1 M2 ...]` | the start position, then moves |
//! | `position fen FEN [moves M1 M2 ...]` | a FEN position (`W:Wa1,c3:Bb8`), then moves |
//! | `threads N` | search with N threads (1-256; default 1) |
//! | `hash MB` | a new transposition table of about MB MiB (1-4096; default 64) |
//! | `go depth D` / `go movetime MS` / `go nodes N` | search with that limit (they combine) |
//! | `go wtime W btime B [winc I] [binc J] [movestogo N]` | play under a clock: W and B ms left, I and J ms added after each move, N moves to the next control (combines with the limits above) |
//! | `go level L [seed S]` | the move level L (1-10) would play |
//! | `stop` | end the current search now; its `bestmove` follows at once |
//! | `tablebase on\|off` | probe the endgame tables (on by default where they are built) |
//! | `contempt C` | score a draw C centi-men below equal for the side searched for (0-100; default [`DEFAULT_CONTEMPT`]; 0 plays for the objective score) |
//! | `book on\|off` | answer `go` from the opening book where it holds the position (on by default; `go level L` below 10 keeps the named openings) |
//! | `isready` | replies `readyok` |
//! | `newgame` | forgets the transposition table |
//! | `quit` | stops any search and exits |
//!
//! A search replies with `info depth D score S nodes N nps N pv M1 M2 ...` after each
//! completed iteration (score in centi-men from the side to move's view; about ±30000
//! for a won game) and then exactly one `bestmove MOVE`, or `bestmove none` when the
//! game is over. When the endgame tables hold the position searched, each `info` line
//! ends with `tb win|draw|loss PLIES` (the tables' verdict for the side to move and the
//! plies to the next capture or promotion that keeps it). A move from the opening book is
//! answered at once with `info depth 0 score S nodes 0 nps 0 pv MOVE book` (S: the
//! book's value of the move). The search runs in its own thread, so `stop` and `quit` are read while
//! it thinks; other commands wait for it to finish. A malformed or illegal command gets
//! one line `error ...` and the engine keeps running.
//!
//! A `position` that is refused (a bad FEN, an illegal move, a move after the game has
//! ended) leaves no position set: until the next accepted `position`, `go` answers
//! `error no position` and `bestmove none`. Before the first `position` the start
//! position is set.
//!
//! Example session (`>` input, `<` output):
//!
//! ```text
//! > variant russian
//! > position startpos moves c3-d4 f6-g5
//! > go movetime 500
//! < info depth 1 score 20 nodes 9 nps 450000 pv g3-f4
//! < ...
//! < bestmove b2-c3
//! ```

use super::{Clock, Level, Limits};
use crate::rules::{Game, Variant};
use std::time::Duration;

/// The engine's contempt for a draw until `contempt` says otherwise, in centi-men.
pub const DEFAULT_CONTEMPT: i32 = 0;

/// What `go` asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Go {
    Limits(Limits),
    /// Under a clock: each side's clock, White's first; the side to move's applies.
    Timed {
        limits: Limits,
        clocks: [Clock; 2],
    },
    Level {
        level: Level,
        seed: u64,
    },
}

/// One parsed command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Variant(Variant),
    Position(Box<Game>),
    Go(Go),
    Stop,
    /// Number of search threads.
    Threads(usize),
    /// Transposition table size in MiB.
    Hash(usize),
    /// Probe the endgame tables or not.
    Tablebase(bool),
    Book(bool),
    /// Centi-men a draw costs the engine's side (see `Ai::set_contempt`).
    Contempt(i32),
    IsReady,
    NewGame,
    Quit,
}

/// Parses one line (`Ok(None)` for a blank line); `variant` is the one in force, for
/// `position`.
pub fn parse(line: &str, variant: Variant) -> Result<Option<Command>, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&cmd, rest)) = words.split_first() else {
        return Ok(None);
    };
    Ok(Some(match cmd {
        "quit" => Command::Quit,
        "stop" => Command::Stop,
        "isready" => Command::IsReady,
        "newgame" => Command::NewGame,
        "variant" => Command::Variant(
            rest.first()
                .ok_or("expected 'variant russian' or 'variant giveaway'")?
                .parse()?,
        ),
        "position" => Command::Position(Box::new(position(variant, rest)?)),
        "threads" => {
            let n: usize = number(rest.first(), "a thread count after 'threads'")?;
            if !(1..=256).contains(&n) {
                return Err(format!("threads {n} is not 1-256"));
            }
            Command::Threads(n)
        }
        "hash" => {
            let n: usize = number(rest.first(), "a size in MiB after 'hash'")?;
            if !(1..=4096).contains(&n) {
                return Err(format!("hash {n} is not 1-4096 MiB"));
            }
            Command::Hash(n)
        }
        "tablebase" => Command::Tablebase(match rest.first() {
            Some(&"on") => true,
            Some(&"off") => false,
            _ => return Err("expected 'tablebase on' or 'tablebase off'".into()),
        }),
        "book" => Command::Book(match rest.first() {
            Some(&"on") => true,
            Some(&"off") => false,
            _ => return Err("expected 'book on' or 'book off'".into()),
        }),
        "contempt" => {
            let c: i32 = number(rest.first(), "centi-men 0-100 after 'contempt'")?;
            if !(0..=100).contains(&c) {
                return Err(format!("contempt {c} is not 0-100"));
            }
            Command::Contempt(c)
        }
        "go" => Command::Go(go(rest)?),
        other => return Err(format!("unknown command '{other}'")),
    }))
}

/// Builds a game from the words after `position`.
fn position(variant: Variant, words: &[&str]) -> Result<Game, String> {
    let (setup, moves) = match words.iter().position(|w| *w == "moves") {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &words[words.len()..]),
    };
    let mut game = match setup {
        ["startpos"] => Game::new(variant),
        ["fen", fen @ ..] if !fen.is_empty() => {
            Game::from_fen(variant, &fen.join(" ")).map_err(|e| e.to_string())?
        }
        _ => return Err("expected 'position startpos' or 'position fen FEN'".into()),
    };
    for m in moves {
        game.play_text(m).map_err(|e| format!("move {m}: {e}"))?;
    }
    Ok(game)
}

fn number<T: std::str::FromStr>(word: Option<&&str>, what: &str) -> Result<T, String> {
    word.and_then(|w| w.parse().ok())
        .ok_or_else(|| format!("expected {what}"))
}

/// Parses the words after `go`.
fn go(words: &[&str]) -> Result<Go, String> {
    let mut limits = Limits::default();
    let mut level = None;
    let mut seed = 1u64;
    let mut clocks: [Option<Clock>; 2] = [None, None];
    let mut increments = [Duration::ZERO; 2];
    let mut moves_to_go = None;
    let mut i = 0;
    while i < words.len() {
        let next = words.get(i + 1);
        match words[i] {
            "depth" => limits.depth = Some(number(next, "a depth after 'depth'")?),
            "nodes" => limits.nodes = Some(number(next, "a count after 'nodes'")?),
            "movetime" => {
                let ms: u64 = number(next, "milliseconds after 'movetime'")?;
                limits.time = Some(Duration::from_millis(ms));
            }
            "level" => {
                let l: u8 = number(next, "a level 1-10 after 'level'")?;
                if !(1..=10).contains(&l) {
                    return Err(format!("level {l} is not 1-10"));
                }
                level = Some(Level::new(l));
            }
            "seed" => seed = number(next, "a number after 'seed'")?,
            w @ ("wtime" | "btime") => {
                let ms: u64 = number(next, &format!("milliseconds after '{w}'"))?;
                clocks[usize::from(w == "btime")] = Some(Clock {
                    remaining: Duration::from_millis(ms),
                    ..Clock::default()
                });
            }
            w @ ("winc" | "binc") => {
                let ms: u64 = number(next, &format!("milliseconds after '{w}'"))?;
                increments[usize::from(w == "binc")] = Duration::from_millis(ms);
            }
            "movestogo" => {
                let n: u32 = number(next, "a move count after 'movestogo'")?;
                moves_to_go = Some(n.max(1));
            }
            other => return Err(format!("unknown go parameter '{other}'")),
        }
        i += 2;
    }
    if let [Some(w), Some(b)] = clocks {
        let clock = |c: Clock, inc| Clock {
            increment: inc,
            moves_to_go,
            ..c
        };
        return Ok(Go::Timed {
            limits,
            clocks: [clock(w, increments[0]), clock(b, increments[1])],
        });
    }
    if clocks.iter().any(Option::is_some) {
        return Err("go needs both wtime and btime".into());
    }
    match level {
        Some(level) => Ok(Go::Level { level, seed }),
        None if limits == Limits::default() => {
            Err("go needs depth D, movetime MS, nodes N, wtime W btime B or level L".into())
        }
        None => Ok(Go::Limits(limits)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands() {
        let v = Variant::Russian;
        assert_eq!(parse("", v), Ok(None));
        assert_eq!(parse("quit", v), Ok(Some(Command::Quit)));
        assert_eq!(
            parse("variant giveaway", v),
            Ok(Some(Command::Variant(Variant::Giveaway)))
        );
        assert!(matches!(
            parse("go depth 5 movetime 100", v),
            Ok(Some(Command::Go(Go::Limits(Limits {
                depth: Some(5),
                nodes: None,
                time: Some(_),
                clock: None
            }))))
        ));
        assert!(parse("go", v).is_err());
        assert!(parse("go level 11", v).is_err());
        assert!(parse("go depth x", v).is_err());
        assert!(parse("position startpos moves c3-d4 c3-d4", v).is_err());
        assert!(parse("position fen W:Wc3:Bd4 moves c3:e5", v).is_ok());
        assert!(parse("position", v).is_err());
        assert!(parse("fly", v).is_err());
        assert_eq!(parse("threads 2", v), Ok(Some(Command::Threads(2))));
        assert!(parse("threads 0", v).is_err());
        assert_eq!(parse("hash 64", v), Ok(Some(Command::Hash(64))));
        assert!(parse("hash", v).is_err());
        assert!(parse("hash 70000", v).is_err());
        let Ok(Some(Command::Go(Go::Timed { limits, clocks }))) =
            parse("go wtime 9000 btime 8000 winc 100 binc 200 movestogo 12", v)
        else {
            panic!("a clock is parsed");
        };
        assert_eq!(limits, Limits::default());
        assert_eq!(clocks[0].remaining, Duration::from_millis(9000));
        assert_eq!(clocks[1].increment, Duration::from_millis(200));
        assert_eq!(clocks[1].moves_to_go, Some(12));
        assert!(parse("go wtime 9000", v).is_err());
        assert!(parse("go wtime x btime 1", v).is_err());
    }
}
