//! The ten playing levels: a node budget each (so strength does not depend on the
//! machine), a time cap for slow machines, and a seeded, score-weighted choice among
//! near-best moves so that the lower levels make human-like mistakes.

use super::Limits;
use super::search::{RootMove, WIN_BOUND};
use super::shared::{Rng, weighted_choice};
use std::time::Duration;

/// A playing strength, 1 (Novice) to 10 (Master).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Level(u8);

/// How one level plays.
pub(crate) struct Style {
    pub nodes: u64,
    pub time_ms: u64,
    /// Moves within this many centi-men of the best may be chosen.
    pub margin: i32,
    /// Softmax temperature of the choice, in centi-men.
    pub temperature: f64,
    /// Depth always completed whatever the node budget (sees one-move losses from 3 on).
    pub min_depth: u32,
    /// Material-only evaluation.
    pub simple_eval: bool,
    /// Probes the endgame tables: from level 6 on, so that the lower levels still let
    /// won endings go as a club player would.
    pub tablebases: bool,
}

const NAMES: [(&str, &str); 10] = [
    ("Novice", "Новичок"),
    ("Beginner", "Начинающий"),
    ("Amateur", "Любитель"),
    ("Club player", "Клубный игрок"),
    ("Experienced", "Опытный"),
    ("Strong", "Сильный"),
    ("Expert", "Эксперт"),
    ("Candidate master", "Кандидат в мастера"),
    ("Grandmaster's pupil", "Ученик гроссмейстера"),
    ("Master", "Мастер"),
];

const NODES: [u64; 10] = [
    150, 600, 2_000, 6_000, 20_000, 60_000, 180_000, 500_000, 1_500_000, 8_000_000,
];
const TIME_MS: [u64; 10] = [150, 200, 300, 400, 600, 800, 1200, 1800, 2500, 5000];
const MARGIN: [i32; 10] = [250, 160, 90, 70, 60, 56, 52, 45, 25, 0];
const TEMPERATURE: [f64; 10] = [120.0, 80.0, 45.0, 35.0, 30.0, 28.0, 26.0, 22.0, 12.0, 1.0];

impl Level {
    /// A level, clamped to 1..=10.
    pub fn new(n: u8) -> Level {
        Level(n.clamp(1, 10))
    }

    pub fn number(self) -> u8 {
        self.0
    }

    /// English name, "Novice" to "Master".
    pub fn name(self) -> &'static str {
        NAMES[self.index()].0
    }

    /// Russian name, "Новичок" to "Мастер".
    pub fn name_ru(self) -> &'static str {
        NAMES[self.index()].1
    }

    fn index(self) -> usize {
        (self.0.clamp(1, 10) - 1) as usize
    }

    /// The search budget of this level: a node count, with a time cap for slow machines.
    pub fn limits(self) -> Limits {
        let s = self.style();
        Limits {
            depth: None,
            nodes: Some(s.nodes),
            time: Some(Duration::from_millis(s.time_ms)),
            clock: None,
        }
    }

    pub(crate) fn style(self) -> Style {
        let i = self.index();
        Style {
            nodes: NODES[i],
            time_ms: TIME_MS[i],
            margin: MARGIN[i],
            temperature: TEMPERATURE[i],
            min_depth: if i < 2 { 1 } else { 3 },
            simple_eval: i < 3,
            tablebases: i >= 5,
        }
    }
}

impl Default for Level {
    fn default() -> Self {
        Level(5)
    }
}

/// Picks among the root moves whose exact score is within `margin` of the best, with
/// weights falling off as exp(-loss / temperature). Root moves come best first.
pub(crate) fn pick(root: &[RootMove], style: &Style, rng: &mut Rng) -> Option<usize> {
    let best = root.first()?.score;
    let candidates: Vec<(usize, f64)> = root
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            *i == 0
                || (r.exact
                    && r.score >= best - style.margin
                    // Never throw away a won game or walk into a lost one at random.
                    && !(best > WIN_BOUND && r.score <= WIN_BOUND)
                    && r.score >= -WIN_BOUND)
        })
        .map(|(i, r)| {
            let loss = (best - r.score).max(0) as f64;
            (i, (-loss / style.temperature.max(0.5)).exp())
        })
        .collect();
    weighted_choice(&candidates, rng)
}
