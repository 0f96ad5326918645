//! `shashki demo`: the computer plays both sides; frame times are printed at exit.

use super::ai::AiPlayer;
use super::animation::Animator;
use super::rules::{MoveCommitted, NewGame, Rules};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use std::time::{Duration, Instant};

/// Frame durations, and which of them passed while the computer was thinking.
#[derive(Resource, Default)]
pub struct FrameStats {
    last: Option<Instant>,
    first: Option<Instant>,
    pub frames_ms: Vec<f64>,
    pub thinking_ms: Vec<f64>,
    /// Frames skipped at the start: the first ones, and all in the first seconds.
    pub warmup: u32,
    pub warmup_time: Duration,
}

impl FrameStats {
    /// Statistics that ignore the first `warmup` frames and every frame in the first
    /// `warmup_time` after the first one: the renderer compiles its shaders in the
    /// background at start (on a software renderer for about a second, during which the
    /// scene is not drawn yet and frames are short, and the first frames that draw it are
    /// long).
    pub fn with_warmup(warmup: u32, warmup_time: Duration) -> FrameStats {
        FrameStats {
            warmup,
            warmup_time,
            ..default()
        }
    }

    pub fn record(&mut self, thinking: bool) {
        let now = Instant::now();
        let first = *self.first.get_or_insert(now);
        if let Some(last) = self.last.replace(now) {
            if self.warmup > 0 || now - first < self.warmup_time {
                self.warmup = self.warmup.saturating_sub(1);
                return;
            }
            let ms = (now - last).as_secs_f64() * 1000.0;
            self.frames_ms.push(ms);
            if thinking {
                self.thinking_ms.push(ms);
            }
        }
    }

    /// `frames F median_ms M p99_ms P max_ms X`.
    pub fn summary(&self) -> String {
        let (median, p99, max) = percentiles(&self.frames_ms);
        format!(
            "frames {} median_ms {median:.1} p99_ms {p99:.1} max_ms {max:.1}",
            self.frames_ms.len()
        )
    }

    pub fn thinking_summary(&self) -> String {
        let (median, p99, max) = percentiles(&self.thinking_ms);
        format!(
            "while thinking: frames {} median_ms {median:.1} p99_ms {p99:.1} max_ms {max:.1}",
            self.thinking_ms.len()
        )
    }
}

fn percentiles(values: &[f64]) -> (f64, f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), v[v.len() - 1])
}

/// Start-up time left out of the frame statistics (the demo and the bare scene alike).
pub const WARMUP: Duration = Duration::from_secs(3);

/// What the demo does: how many moves, and where to save the last frame.
#[derive(Resource, Clone, Debug)]
pub struct DemoConfig {
    pub new_game: NewGame,
    pub moves: Option<u32>,
    pub screenshot: Option<String>,
    /// When the program started, for the time to the first frame.
    pub started: Instant,
}

/// The time from start to the first frame shown (the second frame of the loop: the first
/// one's picture is drawn while the second is prepared).
#[derive(Resource, Default)]
struct FirstFrame {
    frames: u32,
    ms: Option<f64>,
}

#[derive(Resource, Default, Debug)]
enum DemoPhase {
    #[default]
    Playing,
    /// Waiting for the screenshot to be written; counts frames.
    Capturing(u32),
    Done,
    Exiting,
}

#[derive(Resource, Default)]
struct MovesShown(u32);

pub fn plugin(app: &mut App) {
    app.insert_resource(FrameStats::with_warmup(10, WARMUP))
        .init_resource::<DemoPhase>()
        .init_resource::<MovesShown>()
        .init_resource::<FirstFrame>()
        .add_systems(
            Startup,
            |config: Res<DemoConfig>, mut w: MessageWriter<NewGame>| {
                w.write(config.new_game.clone());
            },
        )
        .add_systems(Last, (record_frame, drive_demo).chain());
}

fn record_frame(
    mut stats: ResMut<FrameStats>,
    mut first: ResMut<FirstFrame>,
    config: Res<DemoConfig>,
    ai: Res<AiPlayer>,
) {
    stats.record(ai.is_thinking());
    first.frames += 1;
    if first.frames == 2 {
        first.ms = Some(config.started.elapsed().as_secs_f64() * 1000.0);
    }
}

#[allow(clippy::too_many_arguments)]
fn drive_demo(
    mut commands: Commands,
    config: Res<DemoConfig>,
    mut phase: ResMut<DemoPhase>,
    mut shown: ResMut<MovesShown>,
    mut committed: MessageReader<MoveCommitted>,
    animator: Res<Animator>,
    rules: Res<Rules>,
    stats: Res<FrameStats>,
    first: Res<FirstFrame>,
    mut new_game: MessageWriter<NewGame>,
    mut exit: MessageWriter<AppExit>,
) {
    shown.0 += committed.read().count() as u32;
    match *phase {
        DemoPhase::Playing => {
            if animator.is_busy() {
                return;
            }
            if config.moves.is_some_and(|n| shown.0 >= n) {
                if let Some(path) = &config.screenshot {
                    commands
                        .spawn(Screenshot::primary_window())
                        .observe(save_to_disk(path.clone()));
                    *phase = DemoPhase::Capturing(0);
                } else {
                    *phase = DemoPhase::Done;
                }
            } else if rules.game.outcome().is_some() {
                // Keep the demo going: a finished game is followed by a new one.
                new_game.write(config.new_game.clone());
            }
        }
        DemoPhase::Capturing(n) => {
            // The capture is read back and written a few frames later.
            *phase = if n >= 10 {
                DemoPhase::Done
            } else {
                DemoPhase::Capturing(n + 1)
            };
        }
        DemoPhase::Done => {
            println!("{}", stats.summary());
            println!("{}", stats.thinking_summary());
            if let Some(ms) = first.ms {
                println!("first_frame_ms {ms:.0}");
            }
            exit.write(AppExit::Success);
            *phase = DemoPhase::Exiting;
        }
        DemoPhase::Exiting => {}
    }
}
