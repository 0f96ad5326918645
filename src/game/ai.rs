//! The computer's turn: a search on the async compute pool, polled every frame.

use super::animation::Animator;
use super::rules::{PlayMove, Rules};
use super::{AppState, GameSet};
use crate::ai::Ai;
use crate::rules::{Game, Move};
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A search in flight, tagged with the game state it was started for.
struct Thinking {
    task: Task<(Ai, Option<Move>)>,
    stop: Arc<AtomicBool>,
    generation: u64,
    ply: usize,
}

/// The computer player: its engine (kept between moves), the search in flight, and a
/// move found while the previous one was still being animated.
#[derive(Resource, Default)]
pub struct AiPlayer {
    engine: Option<Ai>,
    thinking: Option<Thinking>,
    ready: Option<(u64, usize, Move)>,
    seed: u64,
}

impl AiPlayer {
    /// True while a search runs (the panel shows a "thinking" indicator).
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    fn abandon(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.stop.store(true, Ordering::Relaxed);
        }
        self.ready = None;
    }
}

impl Drop for AiPlayer {
    fn drop(&mut self) {
        self.abandon();
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AiPlayer>().add_systems(
        Update,
        (start_search, poll_search)
            .chain()
            .in_set(GameSet::Ai)
            .run_if(in_state(AppState::Playing)),
    );
}

fn start_search(rules: Res<Rules>, mut player: ResMut<AiPlayer>) {
    let player = &mut *player;
    if let Some(t) = &player.thinking
        && (t.generation != rules.generation || t.ply != rules.game.ply())
    {
        player.abandon();
    }
    if player
        .ready
        .is_some_and(|(g, p, _)| g != rules.generation || p != rules.game.ply())
    {
        player.ready = None;
    }
    let Some(level) = rules.computer_to_move() else {
        return;
    };
    if player.thinking.is_some() || player.ready.is_some() {
        return;
    }
    let mut engine = player.engine.take().unwrap_or_else(|| {
        let mut ai = Ai::new();
        ai.set_threads(crate::ai::default_threads());
        ai
    });
    let game: Game = rules.game.clone();
    // Under a clock the engine manages its time, within the level's budget.
    let clock = rules.clock.as_ref().and_then(|c| {
        Some(crate::ai::Clock {
            remaining: rules.clock_time(game.side_to_move())?,
            increment: c.control.increment,
            moves_to_go: None,
        })
    });
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    player.seed = player.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let seed = player.seed;
    let task = AsyncComputeTaskPool::get().spawn(async move {
        yield_to_drawing();
        let mv = engine.choose_move_on_clock(&game, level, clock, seed, &flag);
        (engine, mv)
    });
    player.thinking = Some(Thinking {
        task,
        stop,
        generation: rules.generation,
        ply: rules.game.ply(),
    });
}

fn poll_search(
    rules: Res<Rules>,
    animator: Res<Animator>,
    mut player: ResMut<AiPlayer>,
    mut play: MessageWriter<PlayMove>,
) {
    let player = &mut *player;
    if let Some(thinking) = player.thinking.as_mut()
        && let Some((engine, mv)) = check_ready(&mut thinking.task)
    {
        let (generation, ply) = (thinking.generation, thinking.ply);
        player.thinking = None;
        player.engine = Some(engine);
        match mv {
            Some(mv) => player.ready = Some((generation, ply, mv)),
            None => warn!("the computer found no move"),
        }
    }
    // The move is played once the previous one has been shown.
    if !animator.is_busy()
        && let Some((generation, ply, mv)) = player.ready
        && generation == rules.generation
        && ply == rules.game.ply()
    {
        player.ready = None;
        play.write(PlayMove(mv));
    }
}

/// Lowers the calling thread's priority (nice 10) so that on a busy machine the frame is
/// drawn first and the search takes the time left over; on few cores (and with a software
/// renderer) this keeps the frame rate steady while the computer thinks. Linux only; the
/// threads of the compute pool keep the setting, which is what they are for here.
pub(super) fn yield_to_drawing() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its arguments; `who == 0` is the calling thread on
    // Linux, where the nice value is per thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}
