//! `shashki selfplay`: games of the engine against itself, written as training positions
//! for `shashki tune` (the line format is described in `src/ai/train.rs`).

use super::match_cmd::opening;
use crate::ai::shared::{Rng, weighted_choice};
use crate::ai::train::data_line;
use crate::ai::{Ai, Limits, RootScore, TB_WIN, Weights};
use crate::rules::{Color, Move, Variant};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct SelfplayOptions {
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Nodes searched for each move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Random opening plies before the engine plays (each game gets its own).
    #[arg(long, default_value_t = 8)]
    pub openings: u32,
    /// Play with the hand-written evaluation instead of the learned one.
    #[arg(long)]
    pub classic: bool,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// The training file to append to.
    #[arg(long)]
    pub out: String,
    /// Share of the moves (0 to 1, seeded) played as a random choice among the near-best
    /// ones instead of the best, so that the games also reach positions the engine itself
    /// would avoid. Each position is still written with the best move's score.
    #[arg(long, default_value_t = 0.0)]
    pub vary: f64,
    /// With `--vary`: moves within this many centi-men of the best may be chosen.
    #[arg(long, default_value_t = 40)]
    pub vary_margin: i32,
    /// With `--vary`: the choice's softmax temperature, in centi-men.
    #[arg(long, default_value_t = 20.0)]
    pub vary_temperature: f64,
}

/// Plies after which a self-play game counts as drawn.
const PLY_CAP: usize = 300;

pub fn run(opts: SelfplayOptions) -> Result<(), String> {
    if !(0.0..=1.0).contains(&opts.vary) {
        return Err("--vary must be between 0 and 1".into());
    }
    if opts.vary_margin < 0 || opts.vary_temperature.is_nan() || opts.vary_temperature <= 0.0 {
        return Err("--vary-margin must be at least 0 and --vary-temperature above 0".into());
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&opts.out)
        .map_err(|e| format!("cannot open {}: {e}", opts.out))?;
    let file = Arc::new(Mutex::new(std::io::BufWriter::new(file)));
    let next = Arc::new(AtomicU64::new(0));
    let written = Arc::new(AtomicU64::new(0));
    let opts = Arc::new(opts);
    let start = Instant::now();
    let mut handles = Vec::new();
    for _ in 0..opts.jobs.clamp(1, 64) {
        let (file, next, written, opts) = (
            Arc::clone(&file),
            Arc::clone(&next),
            Arc::clone(&written),
            Arc::clone(&opts),
        );
        handles.push(super::ai_cmd::spawn_search(
            move || -> Result<(), String> {
                let mut ai = Ai::with_table(crate::ai::TOOL_TABLE_LOG2);
                let weights = Weights {
                    classic: opts.classic,
                    ..Weights::default()
                };
                ai.set_eval(crate::ai::EvalKind::Auto, weights);
                let stop = AtomicBool::new(false);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= opts.games {
                        return Ok(());
                    }
                    let seed = opts.seed.wrapping_mul(1_000_003).wrapping_add(i);
                    let mut game = opening(opts.variant, opts.openings, seed, None);
                    let mut rng = Rng::new(seed ^ 0x7661_7279);
                    ai.clear();
                    let mut lines = Vec::new();
                    let limits = Limits {
                        depth: None,
                        nodes: Some(opts.nodes),
                        time: None,
                        clock: None,
                    };
                    while game.outcome().is_none() && game.ply() < PLY_CAP {
                        let pos = *game.position();
                        let varied = opts.vary > 0.0 && rng.next_f64() < opts.vary;
                        let (r, best) = if varied {
                            let (r, root) =
                                ai.search_root_moves(&game, &limits, &stop, opts.vary_margin);
                            let choice = pick(&root, &opts, &mut rng).or(r.best);
                            (r, choice)
                        } else {
                            let r = ai.search(&game, &limits, &stop);
                            let best = r.best;
                            (r, best)
                        };
                        let Some(best) = best else { break };
                        if !pos.has_capture() && r.depth > 0 {
                            lines.push((pos, r.score));
                        }
                        game.play(&best).map_err(|e| e.to_string())?;
                    }
                    let result = match game.outcome().and_then(|o| o.winner()) {
                        Some(Color::White) => 2,
                        Some(Color::Black) => 0,
                        None => 1,
                    };
                    let gid = opts.seed.wrapping_mul(1 << 32).wrapping_add(i);
                    let mut text = String::new();
                    for (pos, score) in &lines {
                        text.push_str(&data_line(gid, pos, result, *score));
                        text.push('\n');
                    }
                    let mut f = file.lock().map_err(|_| "lock")?;
                    f.write_all(text.as_bytes())
                        .and_then(|_| f.flush())
                        .map_err(|e| format!("cannot write {}: {e}", opts.out))?;
                    let n = written.fetch_add(lines.len() as u64, Ordering::Relaxed)
                        + lines.len() as u64;
                    if (i + 1) % 100 == 0 {
                        eprintln!(
                            "selfplay: {} games, {n} positions, {:.0} s",
                            i + 1,
                            start.elapsed().as_secs_f64()
                        );
                    }
                }
            },
        ));
    }
    for h in handles {
        h.join()
            .map_err(|_| "a self-play thread failed".to_string())??;
    }
    println!(
        "selfplay games {} positions {} s {:.0}",
        opts.games,
        written.load(Ordering::Relaxed),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Scores beyond this are won or lost (a mate found or an ending the tables hold).
const DECISIVE: i32 = TB_WIN - 1_000;

/// A seeded, score-weighted choice among the root moves whose exact score is within the
/// margin of the best (weights falling off as exp(-loss / temperature)); never a move that
/// throws away a win or walks into a loss. Root moves come best first.
fn pick(root: &[RootScore], opts: &SelfplayOptions, rng: &mut Rng) -> Option<Move> {
    let best = root.first()?.score;
    if best.abs() > DECISIVE {
        return Some(root[0].mv);
    }
    let candidates: Vec<(Move, f64)> = root
        .iter()
        .filter(|r| r.exact && r.score >= best - opts.vary_margin && r.score.abs() <= DECISIVE)
        .map(|r| {
            (
                r.mv,
                (-((best - r.score) as f64) / opts.vary_temperature).exp(),
            )
        })
        .collect();
    weighted_choice(&candidates, rng).or(Some(root[0].mv))
}
