//! The computer opponent: search, evaluation and levels.
//!
//! Pure Rust on top of [`crate::rules`]; the game front-end drives it from a worker
//! thread and may abort a search at any time through the stop flag.

use crate::rules::{Color, Game, Move, Position, Variant};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a search may run. Unset fields do not limit; all unset means depth 64.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
}

/// What a search found. `score` is from the side to move's view, in centi-men (100 = a man).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// A playing strength, 1 (Novice) to 10 (Master).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Level(u8);

const LEVEL_NAMES: [(&str, &str); 10] = [
    ("Novice", "Новичок"),
    ("Beginner", "Начинающий"),
    ("Amateur", "Любитель"),
    ("Club player", "Клубный игрок"),
    ("Third category", "Третий разряд"),
    ("Second category", "Второй разряд"),
    ("First category", "Первый разряд"),
    ("Candidate master", "Кандидат в мастера"),
    ("Expert", "Эксперт"),
    ("Master", "Мастер"),
];

impl Level {
    /// A level, clamped to 1..=10.
    pub fn new(n: u8) -> Level {
        Level(n.clamp(1, 10))
    }

    pub fn number(self) -> u8 {
        self.0
    }

    pub fn name(self) -> &'static str {
        LEVEL_NAMES[self.index()].0
    }

    pub fn name_ru(self) -> &'static str {
        LEVEL_NAMES[self.index()].1
    }

    fn index(self) -> usize {
        (self.0.clamp(1, 10) - 1) as usize
    }

    /// The search budget of this level: mainly nodes, with a time cap for slow machines.
    pub fn limits(self) -> Limits {
        const NODES: [u64; 10] = [
            300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000, 3_000_000, 10_000_000,
        ];
        const MILLIS: [u64; 10] = [200, 300, 400, 500, 700, 1000, 1500, 2000, 2500, 3000];
        Limits {
            depth: None,
            nodes: Some(NODES[self.index()]),
            time: Some(Duration::from_millis(MILLIS[self.index()])),
        }
    }
}

impl Default for Level {
    fn default() -> Self {
        Level(5)
    }
}

/// The search engine; owns its transposition table, so keep one per player.
pub struct Ai {
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
}

impl Default for Ai {
    fn default() -> Self {
        Ai::new()
    }
}

const WIN: i32 = 30_000;

impl Ai {
    pub fn new() -> Ai {
        Ai {
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
        }
    }

    /// Forgets everything learnt (transposition table, move-ordering statistics).
    pub fn clear(&mut self) {}

    pub fn search(&mut self, game: &Game, limits: &Limits, stop: &AtomicBool) -> SearchResult {
        self.search_with_info(game, limits, stop, &mut |_| {})
    }

    /// Searches and calls `on_info` after each completed iteration.
    pub fn search_with_info(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let start = Instant::now();
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.map(|t| start + t);
        self.aborted = false;
        let pos = *game.position();
        let variant = game.variant();
        let moves = if game.outcome().is_some() {
            Default::default()
        } else {
            pos.legal_moves()
        };
        let mut result = SearchResult {
            best: moves.first().copied(),
            pv: moves.first().copied().into_iter().collect(),
            ..SearchResult::default()
        };
        if moves.len() <= 1 {
            return result;
        }
        let max_depth = limits.depth.unwrap_or(64).clamp(1, 64);
        for depth in 1..=max_depth {
            let mut best = None;
            let mut alpha = -WIN - 1;
            for mv in &moves {
                let s = -self.negamax(&pos.play(mv), variant, depth - 1, -WIN - 1, -alpha, 1, stop);
                if self.aborted {
                    break;
                }
                if s > alpha {
                    alpha = s;
                    best = Some(*mv);
                }
            }
            if self.aborted {
                break;
            }
            result.best = best;
            result.score = alpha;
            result.depth = depth;
            result.nodes = self.nodes;
            result.pv = best.into_iter().collect();
            on_info(&result);
            if alpha.abs() > WIN - 100 {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        variant: Variant,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        stop: &AtomicBool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || (self.nodes & 1023 == 0
                && (stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return match variant {
                Variant::Russian => -WIN + ply,
                Variant::Giveaway => WIN - ply,
            };
        }
        if depth == 0 && !moves[0].is_capture() {
            return material(pos, variant);
        }
        let next = depth.saturating_sub(1);
        for mv in &moves {
            let s = -self.negamax(&pos.play(mv), variant, next, -beta, -alpha, ply + 1, stop);
            if s > alpha {
                alpha = s;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }

    /// The level's choice: a near-best move, picked with the seed at the lower levels.
    pub fn choose_move(
        &mut self,
        game: &Game,
        level: Level,
        seed: u64,
        stop: &AtomicBool,
    ) -> Option<Move> {
        let _ = seed;
        self.search(game, &level.limits(), stop).best
    }
}

fn material(pos: &Position, variant: Variant) -> i32 {
    let us = pos.side_to_move();
    let them = us.opposite();
    let m =
        |c: Color| pos.men(c).count_ones() as i32 * 100 + pos.kings(c).count_ones() as i32 * 250;
    let s = m(us) - m(them);
    match variant {
        Variant::Russian => s,
        Variant::Giveaway => -s,
    }
}

/// Static-plus-short-search evaluation of the game for the eval bar / draw offers:
/// centi-men from White's view.
pub fn evaluate_white(game: &Game) -> i32 {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(6),
        nodes: Some(50_000),
        time: None,
    };
    let r = Ai::new().search(game, &limits, &stop);
    match game.side_to_move() {
        Color::White => r.score,
        Color::Black => -r.score,
    }
}

/// Whether the AI playing `ai` accepts a draw offer (its evaluation says equal or worse for it).
pub fn accepts_draw(game: &Game, ai: Color) -> bool {
    let white = evaluate_white(game);
    let mine = if ai == Color::White { white } else { -white };
    mine <= 0
}
