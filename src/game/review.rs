//! Analysis of the whole game ("Analyse"): every position searched in the background,
//! with progress and a way to cancel, then each move's mark and the better move (see
//! [`crate::ai::analysis`]). The game stays usable while it runs.

use super::rules::Rules;
use super::{AppState, GameSet};
use crate::ai::analysis::{self, Analysis, MoveReport};
use crate::ai::{self as engine, Ai, Limits};
use crate::rules::{Color, Game, Move, Position};
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// Time given to each position.
pub const TIME_PER_POSITION: Duration = Duration::from_millis(300);
/// No deeper than this (simple positions are done at once).
const MAX_DEPTH: u32 = 30;

/// What the player asks of the analysis.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewCommand {
    /// Analyse the whole game on the board.
    Start,
    Cancel,
}

/// A finished analysis and the game it belongs to.
#[derive(Clone, Debug)]
pub struct Reviewed {
    pub start: Position,
    /// Every move of the game analysed (including the ones stepped back over).
    pub moves: Vec<Move>,
    pub analysis: Analysis,
}

struct Running {
    task: Task<Option<Analysis>>,
    stop: Arc<AtomicBool>,
    done: Arc<AtomicUsize>,
    total: usize,
    start: Position,
    moves: Vec<Move>,
}

/// The analysis of the game: running, or done for the game on the board.
#[derive(Resource, Default)]
pub struct GameReview {
    running: Option<Running>,
    result: Option<Reviewed>,
}

impl Drop for GameReview {
    fn drop(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// Every move of the game on the board, the ones stepped back over included.
pub fn all_moves(game: &Game) -> Vec<Move> {
    let mut all = game.moves().to_vec();
    all.extend(game.redo_moves().iter().rev());
    all
}

impl GameReview {
    /// Positions searched and positions in all, while it runs.
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.running
            .as_ref()
            .map(|r| (r.done.load(Ordering::Relaxed), r.total))
    }

    /// The analysis, when it is of the game on the board.
    pub fn result(&self) -> Option<&Reviewed> {
        self.result.as_ref()
    }

    /// The report of the move that led to ply `ply` (the move `ply - 1`).
    pub fn move_before(&self, ply: usize) -> Option<&MoveReport> {
        ply.checked_sub(1)
            .and_then(|i| self.result.as_ref()?.analysis.moves.get(i))
    }

    fn cancel(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// Whether the game on the board may be analysed now: it has moves, and either it is
/// over, or the player is looking back through it, or no computer plays in it.
pub fn can_review(rules: &Rules) -> bool {
    rules.total_plies() > 0
        && (rules.full_game().outcome().is_some()
            || rules.in_review()
            || rules.setup.is_human(Color::White) && rules.setup.is_human(Color::Black))
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<GameReview>()
        .add_message::<ReviewCommand>()
        .add_systems(
            Update,
            run_review
                .in_set(GameSet::Ai)
                .run_if(in_state(AppState::Playing)),
        );
}

fn run_review(
    mut commands: MessageReader<ReviewCommand>,
    rules: Res<Rules>,
    mut review: ResMut<GameReview>,
) {
    let review = &mut *review;
    for command in commands.read() {
        match command {
            ReviewCommand::Cancel => review.cancel(),
            ReviewCommand::Start if review.running.is_none() && can_review(&rules) => {
                let game = rules.full_game();
                let moves = game.moves().to_vec();
                let start = *game.start_position();
                let stop = Arc::new(AtomicBool::new(false));
                let done = Arc::new(AtomicUsize::new(0));
                let (flag, counter) = (stop.clone(), done.clone());
                let task = AsyncComputeTaskPool::get().spawn(async move {
                    super::ai::yield_to_drawing();
                    let mut ai = Ai::with_table(20);
                    ai.set_threads(engine::default_threads());
                    let limits = Limits {
                        depth: Some(MAX_DEPTH),
                        nodes: None,
                        time: Some(TIME_PER_POSITION),
                        clock: None,
                    };
                    analysis::analyse(&mut ai, &game, &limits, &flag, &mut |d, _| {
                        counter.store(d, Ordering::Relaxed)
                    })
                });
                review.running = Some(Running {
                    task,
                    stop,
                    done,
                    total: moves.len() + 1,
                    start,
                    moves,
                });
            }
            ReviewCommand::Start => {}
        }
    }
    if let Some(running) = review.running.as_mut()
        && let Some(found) = check_ready(&mut running.task)
    {
        let running = review.running.take().expect("running");
        if let Some(analysis) = found {
            review.result = Some(Reviewed {
                start: running.start,
                moves: running.moves,
                analysis,
            });
        }
    }
    // A result stays only while the board holds the game it is of.
    let same = |start: &Position, moves: &[Move]| {
        rules.game.start_position() == start && all_moves(&rules.game) == moves
    };
    if review
        .result
        .as_ref()
        .is_some_and(|r| !same(&r.start, &r.moves))
    {
        review.result = None;
    }
    if review
        .running
        .as_ref()
        .is_some_and(|r| !same(&r.start, &r.moves))
    {
        review.cancel();
    }
}
