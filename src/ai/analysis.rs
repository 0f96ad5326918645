//! Game analysis: every position of a game searched, each move marked by how much of
//! the mover's winning chances it gave away.
//!
//! A score `s` (centi-men, the side to move's view) is read as an expected result
//! `1 / (1 + e^(-s / 100))`: level is 0.5, a man ahead about 0.73, a won game 1. A move
//! loses the difference between the chance before it (with the best move) and the chance
//! after it. The marks, as lidraughts makes them on its win-chance scale:
//!
//! | loss of expected result | mark | PDN NAG |
//! |---|---|---|
//! | 0.10 or more | inaccuracy `?!` | `$6` |
//! | 0.20 or more | mistake `?` | `$2` |
//! | 0.30 or more | blunder `??` | `$4` |
//!
//! (From a level position, about 0.4, 0.8 and 1.2 men.) A move that is the search's own
//! best move is never marked. In поддавки the scores are the поддавки evaluation's.

use super::{Ai, Limits, WIN};
use crate::rules::{Color, Game, Move};
use std::sync::atomic::AtomicBool;

/// Centi-men that change the expected result by the logistic's unit.
const SCALE: f64 = 100.0;
/// Scores are clamped to this before they are read as chances (a decided game is 1).
const CLAMP: i32 = 2_000;

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// The mark for a loss of expected result, if any.
    pub fn for_loss(loss: f64) -> Option<Mark> {
        if loss >= 0.30 {
            Some(Mark::Blunder)
        } else if loss >= 0.20 {
            Some(Mark::Mistake)
        } else if loss >= 0.10 {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The move glyph: `?!`, `?` or `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The PDN numeric annotation glyph: 6, 2 or 4.
    pub fn nag(self) -> u8 {
        match self {
            Mark::Inaccuracy => 6,
            Mark::Mistake => 2,
            Mark::Blunder => 4,
        }
    }
}

/// The expected result for the side whose view `score` is.
pub fn win_chance(score: i32) -> f64 {
    let s = score.clamp(-CLAMP, CLAMP) as f64;
    1.0 / (1.0 + (-s / SCALE).exp())
}

/// One move of the analysed game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReport {
    /// Who played it.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// The search's best move in the position before it and its line (empty when the
    /// move was the only one).
    pub best_line: Vec<Move>,
    /// Expected result the mover gave away (0 to 1).
    pub loss: f64,
    pub mark: Option<Mark>,
}

/// A whole game analysed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// The score of every position from the start to the end (one more than the moves),
    /// in centi-men from White's view; about ±30000 for a decided game.
    pub white_scores: Vec<i32>,
    pub moves: Vec<MoveReport>,
}

/// Counts of one side's marks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    pub moves: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// Mean loss of expected result per move, in hundredths (0-100).
    pub average_loss: f64,
}

impl Analysis {
    /// The marks and mean loss of one side.
    pub fn summary(&self, side: Color) -> Summary {
        let mut s = Summary::default();
        let mut total = 0.0;
        for m in self.moves.iter().filter(|m| m.mover == side) {
            s.moves += 1;
            total += m.loss;
            match m.mark {
                Some(Mark::Inaccuracy) => s.inaccuracies += 1,
                Some(Mark::Mistake) => s.mistakes += 1,
                Some(Mark::Blunder) => s.blunders += 1,
                None => {}
            }
        }
        if s.moves > 0 {
            s.average_loss = 100.0 * total / s.moves as f64;
        }
        s
    }
}

/// The score of a finished game from White's view.
fn outcome_score(game: &Game) -> Option<i32> {
    game.outcome().map(|o| match o.winner() {
        Some(Color::White) => WIN,
        Some(Color::Black) => -WIN,
        None => 0,
    })
}

/// Searches every position of `game` with `limits` and marks its moves. `progress` is
/// called with (positions done, positions in all) after each one. `None` when `stop` was
/// set before the end.
pub fn analyse(
    ai: &mut Ai,
    game: &Game,
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Option<Analysis> {
    let total = game.moves().len() + 1;
    let mut replay = Game::from_position(game.variant(), *game.start_position());
    let mut white_scores = Vec::with_capacity(total);
    let mut lines = Vec::with_capacity(total);
    ai.clear();
    for ply in 0..total {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        let (score, line) = match outcome_score(&replay) {
            Some(s) => (s, Vec::new()),
            None => {
                let r = ai.search(&replay, limits, stop);
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    return None;
                }
                let white = match replay.side_to_move() {
                    Color::White => r.score,
                    Color::Black => -r.score,
                };
                // A forced move is not searched: its score is the next position's.
                let line = if r.depth == 0 { Vec::new() } else { r.pv };
                (white, line)
            }
        };
        white_scores.push(score);
        lines.push(line);
        progress(ply + 1, total);
        if let Some(mv) = game.moves().get(ply)
            && replay.play(mv).is_err()
        {
            break;
        }
    }
    // Forced moves take the score of what follows them.
    for ply in (0..white_scores.len().saturating_sub(1)).rev() {
        if lines[ply].is_empty() {
            white_scores[ply] = white_scores[ply + 1];
        }
    }
    let mut moves = Vec::new();
    for (ply, played) in game.moves().iter().enumerate() {
        if ply + 1 >= white_scores.len() {
            break;
        }
        let mover = game
            .position_at(ply)
            .map_or(Color::White, |p| p.side_to_move());
        let view = |s: i32| if mover == Color::White { s } else { -s };
        let before = win_chance(view(white_scores[ply]));
        let after = win_chance(view(white_scores[ply + 1]));
        let best_line = lines[ply].clone();
        let is_best = best_line.first().is_none_or(|b| b == played);
        let loss = if is_best {
            0.0
        } else {
            (before - after).max(0.0)
        };
        moves.push(MoveReport {
            mover,
            played: *played,
            best_line,
            loss,
            mark: Mark::for_loss(loss),
        });
    }
    Some(Analysis {
        white_scores,
        moves,
    })
}
