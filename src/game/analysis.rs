//! Help for the player: the hint (the engine's best move for the human) and the
//! evaluation bar, from one background search of the position on the board.

use super::rules::{Rules, Status};
use super::{AppState, GameSet};
use crate::ai::{Ai, Limits};
use crate::i18n::Text;
use crate::rules::{Color, Game, Move};
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long the analysis of one position may take.
const ANALYSIS_TIME: Duration = Duration::from_millis(1200);
/// Deep enough for a sound hint, shallow enough to answer at once in simple positions.
const ANALYSIS_DEPTH: u32 = 24;

/// The player asks for a hint (H key or the panel's button).
#[derive(Message, Debug, Clone, Copy, Default)]
pub struct RequestHint;

/// What the engine thinks of one position of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// The position it belongs to: the rules' generation and ply.
    pub key: (u64, usize),
    pub best: Option<Move>,
    /// From White's view, in centi-men (100 = a man).
    pub score_white: i32,
    pub depth: u32,
}

struct Running {
    task: Task<(Ai, Option<Verdict>)>,
    stop: Arc<AtomicBool>,
    key: (u64, usize),
}

/// The analysis engine, its search in flight and what it found.
#[derive(Resource, Default)]
pub struct Analysis {
    /// The evaluation bar is shown: every new position is analysed.
    pub evaluate: bool,
    /// The verdict on the position on the board, once found.
    pub verdict: Option<Verdict>,
    /// The move shown as a hint, for the position on the board.
    pub hint: Option<Move>,
    hint_wanted: Option<(u64, usize)>,
    engine: Option<Ai>,
    running: Option<Running>,
    /// A search given up (the position changed), finishing so its engine can be reused.
    stale: Option<Running>,
}

impl Analysis {
    /// True while a search for the hint or the bar runs.
    pub fn is_busy(&self) -> bool {
        self.running.is_some()
    }

    /// Stops the search in flight; its engine comes back once it has returned.
    fn abandon(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            self.stale = Some(r);
        }
    }
}

impl Drop for Analysis {
    fn drop(&mut self) {
        for r in [self.running.take(), self.stale.take()]
            .into_iter()
            .flatten()
        {
            r.stop.store(true, Ordering::Relaxed);
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Analysis>()
        .add_message::<RequestHint>()
        .add_systems(
            Update,
            (take_requests, run_analysis)
                .chain()
                .in_set(GameSet::Ai)
                .run_if(in_state(AppState::Playing)),
        );
}

fn key_of(rules: &Rules) -> (u64, usize) {
    (rules.generation, rules.game.ply())
}

fn take_requests(
    mut requests: MessageReader<RequestHint>,
    rules: Res<Rules>,
    mut analysis: ResMut<Analysis>,
    mut status: ResMut<Status>,
) {
    if requests.read().count() == 0 {
        return;
    }
    if !rules.human_to_move() {
        status.say(Text::HintNotNow);
        return;
    }
    let key = key_of(&rules);
    analysis.hint_wanted = Some(key);
}

/// Starts a search when the bar or a hint needs one, and collects its verdict.
fn run_analysis(
    rules: Res<Rules>,
    editor: Res<super::editor::Editor>,
    mut analysis: ResMut<Analysis>,
) {
    let analysis = &mut *analysis;
    let key = key_of(&rules);
    if let Some(stale) = analysis.stale.as_mut()
        && let Some((engine, _)) = check_ready(&mut stale.task)
    {
        analysis.engine = Some(engine);
        analysis.stale = None;
    }
    if analysis.verdict.is_some_and(|v| v.key != key) {
        analysis.verdict = None;
    }
    if analysis.hint_wanted.is_some_and(|k| k != key) {
        analysis.hint_wanted = None;
    }
    if analysis.hint.is_some() && (analysis.verdict.is_none() || !rules.human_to_move()) {
        analysis.hint = None;
    }
    if let Some(running) = analysis.running.as_mut() {
        if let Some((engine, verdict)) = check_ready(&mut running.task) {
            analysis.engine = Some(engine);
            analysis.running = None;
            if let Some(v) = verdict.filter(|v| v.key == key) {
                analysis.verdict = Some(v);
            }
        } else if running.key != key {
            analysis.abandon();
        }
    }
    if analysis.hint_wanted == Some(key)
        && let Some(v) = analysis.verdict
    {
        analysis.hint = v.best;
        analysis.hint_wanted = None;
    }
    let wanted = analysis.evaluate || analysis.hint_wanted.is_some();
    // The computer's own search comes first; the editor's board is not a game.
    if !wanted
        || analysis.running.is_some()
        || analysis.stale.is_some()
        || analysis.verdict.is_some()
        || rules.game.outcome().is_some()
        || rules.computer_to_move().is_some()
        || editor.is_open()
    {
        return;
    }
    let mut engine = analysis.engine.take().unwrap_or_else(|| Ai::with_table(18));
    let game: Game = rules.game.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let task = AsyncComputeTaskPool::get().spawn(async move {
        super::ai::yield_to_drawing();
        let limits = Limits {
            depth: Some(ANALYSIS_DEPTH),
            nodes: None,
            time: Some(ANALYSIS_TIME),
            clock: None,
        };
        let result = engine.search(&game, &limits, &flag);
        let to_move = game.side_to_move();
        let score_white = if to_move == Color::White {
            result.score
        } else {
            -result.score
        };
        let verdict = Verdict {
            key,
            best: result.best,
            score_white,
            depth: result.depth,
        };
        (engine, Some(verdict))
    });
    analysis.running = Some(Running { task, stop, key });
}
