//! Combination puzzles: finding them in positions, and their file format.
//!
//! A position holds a combination when the side to move has exactly one move that wins:
//! a search of depth `depth` scores it at least [`MARGIN`] (two men) and every other
//! move at least [`MARGIN`] below it. The solution then follows the search: the
//! opponent's best replies, and at each of the solver's turns again a single winning
//! move (or the only legal one), until the game is won or, in Russian draughts, the
//! solver is two men ahead of the start's balance with nothing left to capture. In
//! поддавки only a won game ends a solution ("give away and win").
//!
//! Difficulty 1-5 comes from the depth at which a search first finds the first move
//! with its winning score (up to 3 plies: 1, 5: 2, 7: 3, 9: 4, deeper: 5), one level
//! more when the solver makes four moves or more. A puzzle has at least two moves of the
//! solver and six pieces on the board at the start.

use super::{Ai, Limits, WIN};
use crate::rules::{Color, Game, Move, Position, Variant};
use std::sync::atomic::AtomicBool;

/// Two men: the margin of the winning move over every other, and its least score.
pub const MARGIN: i32 = 200;
/// Fewer pieces than this on the board is an ending study, not a combination.
const MIN_PIECES: u32 = 6;
/// Solver moves at most in one solution.
const MAX_SOLVER_MOVES: usize = 10;
/// Scores beyond this are won games.
const WON: i32 = WIN - 1000;

/// What the solver achieves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The game (in поддавки: by giving everything away or being blocked).
    Win,
    /// At least two men more than at the start.
    Material,
}

impl Goal {
    fn code(self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::Material => "material",
        }
    }
}

/// One puzzle: a position, its goal and its forced solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub level: u8,
    pub variant: Variant,
    pub start: Position,
    pub goal: Goal,
    /// The search depth at which the first move is found.
    pub depth: u32,
    /// The solver's moves and the opponent's replies, alternating, the solver first.
    pub solution: Vec<Move>,
    /// Where the position comes from.
    pub source: String,
}

impl Puzzle {
    /// The side that solves (the side to move at the start).
    pub fn solver(&self) -> Color {
        self.start.side_to_move()
    }

    /// One line of a puzzles file: level, variant, FEN, goal, depth, moves, source,
    /// separated by tabs.
    pub fn to_line(&self) -> String {
        let moves: Vec<String> = self.solution.iter().map(|m| m.to_string()).collect();
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.level,
            self.variant,
            self.start.to_fen(),
            self.goal.code(),
            self.depth,
            moves.join(" "),
            self.source.replace(['\t', '\n'], " ")
        )
    }

    /// Reads one line of a puzzles file; every move must be legal in turn.
    pub fn from_line(line: &str) -> Result<Puzzle, String> {
        let f: Vec<&str> = line.split('\t').collect();
        let [level, variant, fen, goal, depth, moves, source] = f[..] else {
            return Err(format!("expected 7 fields, found {}", f.len()));
        };
        let level: u8 = level
            .parse()
            .ok()
            .filter(|l| (1..=5).contains(l))
            .ok_or_else(|| format!("level '{level}' is not 1-5"))?;
        let variant: Variant = variant.parse()?;
        let mut game = Game::from_fen(variant, fen).map_err(|e| format!("{e}"))?;
        let start = *game.position();
        let goal = match goal {
            "win" => Goal::Win,
            "material" => Goal::Material,
            other => return Err(format!("goal '{other}' is neither 'win' nor 'material'")),
        };
        let depth = depth
            .parse()
            .map_err(|_| format!("depth '{depth}' is not a number"))?;
        let mut solution = Vec::new();
        for text in moves.split_whitespace() {
            solution.push(
                game.play_text(text)
                    .map_err(|e| format!("move '{text}': {e}"))?,
            );
        }
        if solution.is_empty() {
            return Err("no moves".into());
        }
        Ok(Puzzle {
            level,
            variant,
            start,
            goal,
            depth,
            solution,
            source: source.to_string(),
        })
    }
}

/// Every puzzle of a puzzles file (`#` lines are comments); the error names the line.
pub fn read_puzzles(text: &str) -> Result<Vec<Puzzle>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| Puzzle::from_line(l).map_err(|e| format!("puzzles line {}: {e}", i + 1)))
        .collect()
}

/// Material in men from `side`'s view (a king counts three).
pub fn balance(pos: &Position, side: Color) -> i32 {
    let worth = |c: Color| pos.men(c).count_ones() as i32 + 3 * pos.kings(c).count_ones() as i32;
    worth(side) - worth(side.opposite())
}

fn limits(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        nodes: None,
        time: None,
        clock: None,
    }
}

/// The single winning move of the side to move at `depth`, with its score, if there is
/// one: at least [`MARGIN`], and every other move at least [`MARGIN`] worse.
pub fn only_win(ai: &mut Ai, game: &Game, depth: u32) -> Option<(Move, i32)> {
    let stop = AtomicBool::new(false);
    let (_, roots) = ai.search_root_moves(game, &limits(depth), &stop, MARGIN);
    let best = *roots.first()?;
    if best.score < MARGIN {
        return None;
    }
    let rival = roots
        .iter()
        .skip(1)
        .any(|r| r.exact && r.score > best.score - MARGIN);
    (!rival).then_some((best.mv, best.score))
}

/// The shallowest depth at which a search plays `first` with a winning score.
fn depth_found(ai: &mut Ai, game: &Game, first: Move, max: u32) -> u32 {
    let stop = AtomicBool::new(false);
    for d in 1..=max {
        ai.clear();
        let r = ai.search(game, &limits(d), &stop);
        if r.best == Some(first) && r.score >= MARGIN {
            return d;
        }
    }
    max
}

/// A puzzle in `start`, if it holds a combination that `depth` plies find.
pub fn find(
    ai: &mut Ai,
    variant: Variant,
    start: Position,
    depth: u32,
    source: &str,
) -> Option<Puzzle> {
    let mut game = Game::from_position(variant, start);
    if game.outcome().is_some()
        || game.legal_moves().len() < 2
        || start.occupied().count_ones() < MIN_PIECES
    {
        return None;
    }
    let solver = start.side_to_move();
    let before = balance(&start, solver);
    // A position already won is no puzzle (in поддавки being behind is no advantage).
    if variant == Variant::Russian && before.abs() > 1 {
        return None;
    }
    ai.clear();
    let (first, score) = only_win(ai, &game, depth)?;
    if variant == Variant::Giveaway && score < WON {
        return None;
    }
    let mut solution = Vec::new();
    let mut solver_moves = 0;
    let mut next = Some(first);
    let stop = AtomicBool::new(false);
    let goal = loop {
        let mv = next.take()?;
        game.play(&mv).ok()?;
        solution.push(mv);
        solver_moves += 1;
        if let Some(o) = game.outcome() {
            if o.winner() == Some(solver) {
                break Goal::Win;
            }
            return None;
        }
        let settled = !game.position().has_capture();
        if variant == Variant::Russian && settled && balance(game.position(), solver) >= before + 2
        {
            break Goal::Material;
        }
        if solver_moves >= MAX_SOLVER_MOVES {
            return None;
        }
        // The opponent's best reply.
        let reply = ai.search(&game, &limits(depth), &stop).best?;
        game.play(&reply).ok()?;
        solution.push(reply);
        if let Some(o) = game.outcome() {
            if o.winner() == Some(solver) {
                // The reply ended the game (in поддавки, by taking the last piece).
                break Goal::Win;
            }
            return None;
        }
        let legal = game.legal_moves();
        next = if legal.len() == 1 {
            Some(legal[0])
        } else {
            Some(only_win(ai, &game, depth)?.0)
        };
    };
    // One move is a good move, not a combination.
    if solver_moves < 2 {
        return None;
    }
    let found = depth_found(ai, &Game::from_position(variant, start), first, depth);
    let mut level: u8 = match found {
        0..=3 => 1,
        4..=5 => 2,
        6..=7 => 3,
        8..=9 => 4,
        _ => 5,
    };
    if solver_moves >= 4 {
        level = (level + 1).min(5);
    }
    Some(Puzzle {
        level,
        variant,
        start,
        goal,
        depth: found,
        solution,
        source: source.to_string(),
    })
}

/// `p` checked again with the present search (after the evaluation or the search
/// changed): the puzzle a fresh search at `depth` makes of its start, with the solution
/// and level it gives now, if it still has the same first move.
pub fn check_again(ai: &mut Ai, p: &Puzzle, depth: u32) -> Option<Puzzle> {
    find(ai, p.variant, p.start, depth, &p.source)
        .filter(|q| q.solution.first() == p.solution.first())
}
