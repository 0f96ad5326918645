//! `shashki match`: AI-against-AI games, scored, with the players' times.

use super::ai_cmd::spawn_search;
use crate::ai::{Ai, Clock, EvalKind, Level, Limits, TimeControl, Weights};
use crate::rules::pdn::write_pdn;
use crate::rules::{Color, Game, Outcome, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct MatchOptions {
    /// `level:L`, `depth:D`, `nodes:N` or `engine:COMMAND`.
    #[arg(long)]
    pub white: String,
    #[arg(long)]
    pub black: String,
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// Time per move in milliseconds (a cap on top of the players' own limits).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Play under a clock: `BASE+INC` in seconds (`10+0.1`) or with the base in minutes
    /// (`1m+1`). A player whose clock runs out loses the game. Combines with --movetime
    /// and the players' own limits.
    #[arg(long)]
    pub time: Option<TimeControl>,
    /// Random opening plies shared by each pair of games.
    #[arg(long, default_value_t = 0)]
    pub openings: u32,
    /// Keep only openings that a search of the engine's own evaluation (depth
    /// [`BALANCE_DEPTH`]) scores within this many centi-men of equal; the others are
    /// drawn again. Random plies often give a man away, and such a pair of games is then
    /// won by whoever gets the extra man, which tells nothing about the players.
    #[arg(long)]
    pub balanced: Option<i32>,
    /// With `--balanced`: keep only openings scored at least this many centi-men from
    /// equal, so that one side of each pair starts a little ahead (as in the lopsided
    /// opening books of chess engine testing). Each pair plays the opening once from
    /// each side, so the player that converts and defends better wins the pair, and far
    /// fewer games end drawn than from even openings.
    #[arg(long)]
    pub unbalanced: Option<i32>,
    /// Write every game to this PDN file.
    #[arg(long)]
    pub pdn: Option<String>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Seed for the openings and the levels' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// A player of a match, as given on the command line.
#[derive(Clone, Debug)]
enum Spec {
    Internal {
        budget: Budget,
        eval: EvalKind,
        weights: Weights,
        threads: usize,
        hash: Option<usize>,
        /// Probes the endgame tables (`tb=off` switches them off).
        tablebases: bool,
    },
    Engine(String),
}

#[derive(Clone, Copy, Debug)]
enum Budget {
    Level(Level),
    Depth(u32),
    Nodes(u64),
}

/// Parses `level:L`, `depth:D`, `nodes:N` (each optionally followed by `:eval=russian|
/// giveaway`, `:threads=N`, `:hash=MIB`, `:tb=on|off` and `:weight=value`), or
/// `engine:COMMAND`.
fn parse_spec(text: &str) -> Result<Spec, String> {
    if let Some(cmd) = text.strip_prefix("engine:") {
        if cmd.trim().is_empty() {
            return Err("engine: needs a command".into());
        }
        return Ok(Spec::Engine(cmd.to_string()));
    }
    let mut parts = text.split(':');
    let kind = parts.next().unwrap_or("");
    let value = parts.next().ok_or_else(|| {
        format!("player '{text}': expected level:L, depth:D, nodes:N or engine:COMMAND")
    })?;
    let bad = || format!("player '{text}': '{value}' is not a valid number");
    let budget = match kind {
        "level" => Budget::Level(Level::new(
            value
                .parse::<u8>()
                .ok()
                .filter(|l| (1..=10).contains(l))
                .ok_or_else(bad)?,
        )),
        "depth" => Budget::Depth(value.parse().map_err(|_| bad())?),
        "nodes" => Budget::Nodes(value.parse().map_err(|_| bad())?),
        _ => return Err(format!("player '{text}': unknown kind '{kind}'")),
    };
    let mut eval = EvalKind::Auto;
    let mut weights = Weights::default();
    let mut threads = 1;
    let mut hash = None;
    let mut tablebases = true;
    for opt in parts {
        let (k, v) = opt
            .split_once('=')
            .ok_or_else(|| format!("player '{text}': option '{opt}' is not name=value"))?;
        if k == "threads" || k == "hash" {
            let n: usize = v
                .parse()
                .ok()
                .filter(|n| (1..=if k == "hash" { 4096 } else { 256 }).contains(n))
                .ok_or_else(|| {
                    let range = if k == "hash" { "1-4096 (MiB)" } else { "1-256" };
                    format!("player '{text}': {k}={v} is not in {range}")
                })?;
            if k == "threads" {
                threads = n;
            } else {
                hash = Some(n);
            }
        } else if k == "tb" {
            tablebases = match v {
                "on" => true,
                "off" => false,
                _ => return Err(format!("player '{text}': tb must be on or off")),
            };
        } else if k == "eval" {
            eval = match v {
                "auto" => EvalKind::Auto,
                "russian" => EvalKind::Russian,
                "giveaway" => EvalKind::Giveaway,
                _ => return Err(format!("player '{text}': eval must be russian or giveaway")),
            };
        } else {
            weights
                .set(k, v)
                .map_err(|e| format!("player '{text}': {e}"))?;
        }
    }
    Ok(Spec::Internal {
        budget,
        eval,
        weights,
        threads,
        hash,
        tablebases,
    })
}

/// An external engine speaking the protocol.
struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl External {
    fn start(cmd: &str) -> Result<External, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start '{cmd}': {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(External {
            child,
            stdin,
            lines: rx,
        })
    }

    /// Asks for a move; `Err` is a loss (no answer in time, or a dead engine).
    fn best_move(
        &mut self,
        game: &Game,
        movetime: Option<u64>,
        clocks: Option<[Clock; 2]>,
    ) -> Result<String, String> {
        let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        let mut text = format!(
            "variant {}\nposition fen {}",
            game.variant(),
            game.start_position().to_fen()
        );
        if !moves.is_empty() {
            text.push_str(" moves ");
            text.push_str(&moves.join(" "));
        }
        let mut wait = Duration::from_millis(movetime.unwrap_or(0));
        text.push_str("\ngo");
        if let Some([w, b]) = clocks {
            text.push_str(&format!(
                " wtime {} btime {} winc {} binc {}",
                w.remaining.as_millis(),
                b.remaining.as_millis(),
                w.increment.as_millis(),
                b.increment.as_millis()
            ));
            wait = wait.max(w.remaining.max(b.remaining));
        }
        if movetime.is_some() || clocks.is_none() {
            let ms = movetime.unwrap_or(1000);
            text.push_str(&format!(" movetime {ms}"));
            wait = wait.max(Duration::from_millis(ms));
        }
        text.push('\n');
        self.stdin
            .write_all(text.as_bytes())
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("engine input closed: {e}"))?;
        let deadline = Instant::now() + wait + Duration::from_secs(5);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(m) = line.strip_prefix("bestmove ") {
                        return Ok(m.trim().to_string());
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err("no bestmove in time".into()),
                Err(RecvTimeoutError::Disconnected) => return Err("engine exited".into()),
            }
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"quit\n");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

enum Player {
    Internal { ai: Box<Ai>, budget: Budget },
    External(External),
}

impl Player {
    fn new(spec: &Spec) -> Result<Player, String> {
        Ok(match spec {
            Spec::Internal {
                budget,
                eval,
                weights,
                threads,
                hash,
                tablebases,
            } => {
                let mut ai = Box::new(Ai::new());
                ai.set_use_tablebases(*tablebases);
                if let Some(mib) = hash {
                    ai.set_table_mib(*mib);
                }
                ai.set_threads(*threads);
                ai.set_eval(*eval, weights.clone());
                Player::Internal {
                    ai,
                    budget: *budget,
                }
            }
            Spec::Engine(cmd) => Player::External(External::start(cmd)?),
        })
    }

    fn new_game(&mut self) {
        if let Player::Internal { ai, .. } = self {
            ai.clear();
        }
    }

    /// The move text the player chose, or why it forfeits.
    /// `clocks`: both players' clocks, White's first, when the game is played under one.
    fn choose(
        &mut self,
        game: &Game,
        movetime: Option<u64>,
        clocks: Option<[Clock; 2]>,
        seed: u64,
    ) -> Result<String, String> {
        let stop = AtomicBool::new(false);
        let cap = movetime.map(Duration::from_millis);
        let clock = clocks.map(|c| c[game.side_to_move() as usize]);
        let best = match self {
            Player::External(e) => return e.best_move(game, movetime, clocks),
            Player::Internal { ai, budget } => match *budget {
                Budget::Level(l) if cap.is_none() && clock.is_none() => {
                    ai.choose_move(game, l, seed, &stop)
                }
                Budget::Level(l) => {
                    let mut limits = l.limits();
                    limits.clock = clock;
                    limits.time = Some(
                        limits
                            .time
                            .map_or(cap.unwrap_or_default(), |t| t.min(cap.unwrap_or(t))),
                    );
                    ai.search(game, &limits, &stop).best
                }
                Budget::Depth(d) => {
                    let limits = Limits {
                        depth: Some(d),
                        nodes: None,
                        time: cap,
                        clock,
                    };
                    ai.search(game, &limits, &stop).best
                }
                Budget::Nodes(n) => {
                    let limits = Limits {
                        depth: None,
                        nodes: Some(n),
                        time: cap,
                        clock,
                    };
                    ai.search(game, &limits, &stop).best
                }
            },
        };
        Ok(best.map_or("none".to_string(), |m| m.to_string()))
    }
}

/// How a match game ended, from the view of the first player (`--white`).
#[derive(Clone, Debug)]
enum GameEnd {
    Rules(Outcome),
    /// The ply cap was reached: a draw by adjudication.
    Adjudicated,
    /// A player forfeited (illegal move, no answer, dead engine).
    Forfeit {
        loser: Color,
        why: String,
    },
}

struct GameRecordOut {
    index: u32,
    game: Game,
    first_is_white: bool,
    end: GameEnd,
    /// Microseconds per move of the first and second player.
    times: [Vec<u64>; 2],
    /// Under a clock: the least time each player had left after a move, in microseconds.
    lowest: [Option<u64>; 2],
}

/// Plies after which a match game is adjudicated a draw.
const PLY_CAP: usize = 300;

/// Depth of the search that judges an opening for `--balanced`.
pub const BALANCE_DEPTH: u32 = 10;

/// `K` random opening plies from the pair's seed (rerolled until the game is still on and,
/// with `window`, until a search scores it that many centi-men from equal, at least the
/// first bound and at most the second; forced moves after the random plies are played as
/// part of the opening).
pub(crate) fn opening(variant: Variant, plies: u32, seed: u64, window: Option<(i32, i32)>) -> Game {
    let mut rng_state = seed;
    let mut judge = window.map(|_| Ai::with_table(16));
    for _ in 0..1000 {
        let mut game = Game::new(variant);
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            rng_state = rng_state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = ((rng_state >> 33) % moves.len() as u64) as usize;
            if game.play(&moves[i]).is_err() {
                break;
            }
        }
        if game.outcome().is_some() {
            continue;
        }
        let (Some((least, most)), Some(ai)) = (window, judge.as_mut()) else {
            return game;
        };
        while game.outcome().is_none() && game.legal_moves().len() == 1 {
            let only = game.legal_moves()[0];
            if game.play(&only).is_err() {
                break;
            }
        }
        if game.outcome().is_some() {
            continue;
        }
        ai.clear();
        let limits = Limits {
            depth: Some(BALANCE_DEPTH),
            nodes: None,
            time: None,
            clock: None,
        };
        let r = ai.search(&game, &limits, &AtomicBool::new(false));
        if (least..=most).contains(&r.score.abs()) {
            return game;
        }
    }
    Game::new(variant)
}

fn play_game(
    index: u32,
    specs: &[Spec; 2],
    players: &mut [Player; 2],
    opts: &MatchOptions,
) -> GameRecordOut {
    let pair = index / 2;
    let first_is_white = index.is_multiple_of(2);
    let mut game = opening(
        opts.variant,
        opts.openings,
        opts.seed.wrapping_add(pair as u64),
        opts.balanced
            .map(|most| (opts.unbalanced.unwrap_or(0), most)),
    );
    for p in players.iter_mut() {
        p.new_game();
    }
    let _ = specs;
    let mut times = [Vec::new(), Vec::new()];
    // Each player's clock (first and second player), under --time.
    let mut clocks = opts.time.map(|tc| {
        [Clock {
            remaining: tc.base,
            increment: tc.increment,
            moves_to_go: None,
        }; 2]
    });
    let mut lowest = [None, None];
    let end = loop {
        if let Some(o) = game.outcome() {
            break GameEnd::Rules(o);
        }
        if game.ply() >= PLY_CAP {
            break GameEnd::Adjudicated;
        }
        let side = game.side_to_move();
        let who = if (side == Color::White) == first_is_white {
            0
        } else {
            1
        };
        let seed = opts
            .seed
            .wrapping_mul(0x9E37_79B9)
            .wrapping_add(index as u64 * 1000 + game.ply() as u64);
        let start = Instant::now();
        // The clocks by colour, for the player.
        let by_colour = clocks.map(|c| {
            if first_is_white {
                [c[0], c[1]]
            } else {
                [c[1], c[0]]
            }
        });
        let chosen = players[who].choose(&game, opts.movetime, by_colour, seed);
        let used = start.elapsed();
        times[who].push(used.as_micros() as u64);
        if let Some(c) = clocks.as_mut() {
            let clock = &mut c[who];
            if used > clock.remaining {
                break GameEnd::Forfeit {
                    loser: side,
                    why: format!(
                        "lost on time ({} ms used, {} ms left)",
                        used.as_millis(),
                        clock.remaining.as_millis()
                    ),
                };
            }
            clock.remaining = clock.remaining - used + clock.increment;
            let left = (clock.remaining - clock.increment).as_micros() as u64;
            lowest[who] = Some(lowest[who].map_or(left, |l: u64| l.min(left)));
        }
        let text = match chosen {
            Ok(t) => t,
            Err(why) => break GameEnd::Forfeit { loser: side, why },
        };
        if let Err(e) = game.play_text(&text) {
            break GameEnd::Forfeit {
                loser: side,
                why: format!("illegal move '{text}': {e}"),
            };
        }
    };
    GameRecordOut {
        index,
        game,
        first_is_white,
        end,
        times,
        lowest,
    }
}

/// Score of the first player in a game: 1, 0.5 or 0.
fn first_score(r: &GameRecordOut) -> f64 {
    let first = if r.first_is_white {
        Color::White
    } else {
        Color::Black
    };
    match &r.end {
        GameEnd::Rules(o) => match o.winner() {
            Some(c) if c == first => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        },
        GameEnd::Adjudicated => 0.5,
        GameEnd::Forfeit { loser, .. } => {
            if *loser == first {
                0.0
            } else {
                1.0
            }
        }
    }
}

/// The games counted by pairs (the two games of one opening, colours swapped): how many
/// pairs gave the first player 0, 1/2, 1, 3/2 and 2 points, the mean score and the half
/// width of its 95% interval from the spread of the pairs' scores. When the opening
/// favours one side, the two games of a pair are not independent (each side tends to win
/// with the better half), and the spread of the pairs measures the players alone: the
/// same games give a narrower, correct interval.
struct Pairs {
    count: [u32; 5],
    mean: f64,
    half: f64,
}

fn pairs(results: &[GameRecordOut]) -> Option<Pairs> {
    let mut by_pair: std::collections::BTreeMap<u32, Vec<f64>> = Default::default();
    for r in results {
        by_pair.entry(r.index / 2).or_default().push(first_score(r));
    }
    let points: Vec<f64> = by_pair
        .values()
        .filter(|v| v.len() == 2)
        .map(|v| v[0] + v[1])
        .collect();
    if points.len() < 2 {
        return None;
    }
    let mut count = [0u32; 5];
    for p in &points {
        count[((p * 2.0).round() as usize).min(4)] += 1;
    }
    let n = points.len() as f64;
    let mean = points.iter().sum::<f64>() / n / 2.0;
    let var = points.iter().map(|p| (p / 2.0 - mean).powi(2)).sum::<f64>() / n;
    Some(Pairs {
        count,
        mean,
        half: 1.96 * (var / n).sqrt(),
    })
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn elo(score: f64) -> f64 {
    let s = score.clamp(0.001, 0.999);
    -400.0 * (1.0 / s - 1.0).log10()
}

pub fn run_match(opts: MatchOptions) -> Result<(), String> {
    let specs = [parse_spec(&opts.white)?, parse_spec(&opts.black)?];
    if opts.games == 0 {
        return Err("--games must be at least 1".into());
    }
    match (opts.unbalanced, opts.balanced) {
        (Some(_), None) => {
            return Err("--unbalanced needs --balanced for the largest margin".into());
        }
        (Some(least), Some(most)) if least > most || least < 0 => {
            return Err(format!(
                "--unbalanced {least} must be from 0 up to --balanced {most}"
            ));
        }
        _ => {}
    }
    let jobs = opts.jobs.clamp(1, 64);
    // The players in this process read the endgame tables before the first game.
    crate::ai::tablebase::installed(opts.variant);
    let next = Arc::new(AtomicUsize::new(0));
    let results = Arc::new(Mutex::new(Vec::<GameRecordOut>::new()));
    let opts = Arc::new(opts);
    let specs = Arc::new(specs);
    let mut handles = Vec::new();
    for _ in 0..jobs {
        let (next, results, opts, specs) = (
            Arc::clone(&next),
            Arc::clone(&results),
            Arc::clone(&opts),
            Arc::clone(&specs),
        );
        handles.push(spawn_search(move || -> Result<(), String> {
            let mut players = [Player::new(&specs[0])?, Player::new(&specs[1])?];
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed) as u32;
                if i >= opts.games {
                    return Ok(());
                }
                let r = play_game(i, &specs, &mut players, &opts);
                let s = first_score(&r);
                let how = match &r.end {
                    GameEnd::Rules(o) => format!("{} {:?}", o.result_text(), o),
                    GameEnd::Adjudicated => format!("1/2-1/2 adjudicated after {PLY_CAP} plies"),
                    GameEnd::Forfeit { loser, why } => format!("{loser} forfeits: {why}"),
                };
                eprintln!(
                    "game {} ({} white): {} plies, {how}, first player scores {s}",
                    i + 1,
                    if r.first_is_white {
                        &opts.white
                    } else {
                        &opts.black
                    },
                    r.game.ply()
                );
                if let Ok(mut v) = results.lock() {
                    v.push(r);
                }
            }
        }));
    }
    for h in handles {
        h.join()
            .map_err(|_| "a match thread failed".to_string())??;
    }
    let mut results = std::mem::take(&mut *results.lock().map_err(|_| "lock")?);
    results.sort_by_key(|r| r.index);
    report(&opts, &results);
    if let Some(path) = &opts.pdn {
        write_games(path, &opts, &results)?;
    }
    Ok(())
}

fn report(opts: &MatchOptions, results: &[GameRecordOut]) {
    let n = results.len() as f64;
    let scores: Vec<f64> = results.iter().map(first_score).collect();
    let wins = scores.iter().filter(|s| **s == 1.0).count();
    let losses = scores.iter().filter(|s| **s == 0.0).count();
    let draws = results.len() - wins - losses;
    let adjudicated = results
        .iter()
        .filter(|r| matches!(r.end, GameEnd::Adjudicated))
        .count();
    let forfeits: Vec<String> = results
        .iter()
        .filter_map(|r| match &r.end {
            GameEnd::Forfeit { loser, why } => {
                Some(format!("game {}: {loser}: {why}", r.index + 1))
            }
            _ => None,
        })
        .collect();
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
    let half = 1.96 * (var / n).sqrt();
    println!(
        "{} vs {} ({}, {} games): +{wins} ={draws} -{losses} ({adjudicated} of the draws adjudicated at {PLY_CAP} plies)",
        opts.white,
        opts.black,
        opts.variant,
        results.len()
    );
    println!(
        "score {:.1}% ± {:.1}% (95%), Elo {:+.0} [{:+.0}, {:+.0}]",
        100.0 * mean,
        100.0 * half,
        elo(mean),
        elo(mean - half),
        elo(mean + half)
    );
    if let Some(p) = pairs(results) {
        println!(
            "pairs {} (first player's points 0, 1/2, 1, 3/2, 2: {} {} {} {} {}): score {:.1}% ± {:.1}% (95%), Elo {:+.0} [{:+.0}, {:+.0}]",
            p.count.iter().sum::<u32>(),
            p.count[0],
            p.count[1],
            p.count[2],
            p.count[3],
            p.count[4],
            100.0 * p.mean,
            100.0 * p.half,
            elo(p.mean),
            elo(p.mean - p.half),
            elo(p.mean + p.half)
        );
    }
    for f in &forfeits {
        println!("forfeit {f}");
    }
    for (who, name) in [(0, &opts.white), (1, &opts.black)] {
        let mut t: Vec<u64> = results.iter().flat_map(|r| r.times[who].clone()).collect();
        t.sort_unstable();
        let mean = t.iter().sum::<u64>() as f64 / t.len().max(1) as f64;
        println!(
            "time per move {name}: {} moves, mean {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            t.len(),
            mean / 1000.0,
            percentile(&t, 0.99) as f64 / 1000.0,
            t.last().copied().unwrap_or(0) as f64 / 1000.0
        );
        if let Some(tc) = opts.time {
            let lows: Vec<u64> = results.iter().filter_map(|r| r.lowest[who]).collect();
            let on_time = results
                .iter()
                .filter(|r| {
                    let loser_is_first = |l: Color| (l == Color::White) == r.first_is_white;
                    matches!(&r.end, GameEnd::Forfeit { loser, why }
                        if why.starts_with("lost on time") && loser_is_first(*loser) == (who == 0))
                })
                .count();
            println!(
                "clock {} {name}: {on_time} games lost on time; least time left after a move {:.2} s (median over games {:.2} s)",
                tc.pdn(),
                lows.iter().min().copied().unwrap_or(0) as f64 / 1e6,
                {
                    let mut l = lows.clone();
                    l.sort_unstable();
                    percentile(&l, 0.5) as f64 / 1e6
                }
            );
        }
    }
}

/// The PDN tags `--pdn` writes for a match game.
fn game_tags(opts: &MatchOptions, r: &GameRecordOut) -> Vec<(String, String)> {
    let (w, b) = if r.first_is_white {
        (&opts.white, &opts.black)
    } else {
        (&opts.black, &opts.white)
    };
    // The rules decide the Result tag; a game they did not end says why in Termination.
    let termination = match &r.end {
        GameEnd::Rules(o) => format!("{o:?}"),
        GameEnd::Adjudicated => format!("draw adjudicated after {PLY_CAP} plies"),
        GameEnd::Forfeit { loser, why } => format!("{loser} forfeits: {why}"),
    };
    let mut tags = vec![
        ("Event".to_string(), "shashki match".to_string()),
        ("Round".to_string(), (r.index + 1).to_string()),
        ("White".to_string(), w.clone()),
        ("Black".to_string(), b.clone()),
        ("Termination".to_string(), termination),
    ];
    if let Some(tc) = opts.time {
        tags.push(("TimeControl".to_string(), tc.pdn()));
    }
    tags
}

fn write_games(path: &str, opts: &MatchOptions, results: &[GameRecordOut]) -> Result<(), String> {
    let mut out = String::new();
    for r in results {
        out.push_str(&write_pdn(&r.game, &game_tags(opts, r)));
        out.push('\n');
    }
    std::fs::write(path, out).map_err(|e| format!("cannot write {path}: {e}"))
}

/// Plays game `index` (from 0) of a match on its own, as `shashki match` plays it, and
/// returns the finished game with the tags `--pdn` writes for it (`Termination` says how
/// it ended). A game that is not over was adjudicated or forfeited.
pub fn play_match_game(
    opts: &MatchOptions,
    index: u32,
) -> Result<(Game, Vec<(String, String)>), String> {
    let specs = [parse_spec(&opts.white)?, parse_spec(&opts.black)?];
    let mut players = [Player::new(&specs[0])?, Player::new(&specs[1])?];
    let record = play_game(index, &specs, &mut players, opts);
    let tags = game_tags(opts, &record);
    Ok((record.game, tags))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(game: &Game) -> i32 {
        let limits = Limits {
            depth: Some(BALANCE_DEPTH),
            nodes: None,
            time: None,
            clock: None,
        };
        Ai::with_table(16)
            .search(game, &limits, &AtomicBool::new(false))
            .score
    }

    #[test]
    fn balanced_openings_are_judged_even_and_repeat() {
        let mut rerolled = 0;
        for seed in 1..=12u64 {
            let free = opening(Variant::Russian, 4, seed, None);
            let even = opening(Variant::Russian, 4, seed, Some((0, 30)));
            assert!(even.ply() >= 4 && even.outcome().is_none());
            assert!(judged(&even).abs() <= 30, "seed {seed}: {}", judged(&even));
            let again = opening(Variant::Russian, 4, seed, Some((0, 30)));
            assert_eq!(
                even.moves(),
                again.moves(),
                "the same seed, the same opening"
            );
            if judged(&free).abs() > 30 {
                rerolled += 1;
                assert_ne!(free.moves(), even.moves());
            }
        }
        assert!(rerolled > 0, "some random openings are not even");
    }

    #[test]
    fn pairs_count_the_two_games_of_an_opening_together() {
        let record = |index: u32, end: GameEnd| GameRecordOut {
            index,
            game: Game::new(Variant::Russian),
            first_is_white: index.is_multiple_of(2),
            end,
            times: [Vec::new(), Vec::new()],
            lowest: [None, None],
        };
        let lost = |loser| GameEnd::Forfeit {
            loser,
            why: String::new(),
        };
        // Pair 1: each side wins with White (1 point); pair 2: two draws (1 point); pair 3:
        // the first player wins both (2 points); game 7 has no partner and is left out.
        let results = [
            record(0, lost(Color::Black)),
            record(1, lost(Color::Black)),
            record(2, GameEnd::Adjudicated),
            record(3, GameEnd::Adjudicated),
            record(4, lost(Color::Black)),
            record(5, lost(Color::White)),
            record(6, lost(Color::White)),
        ];
        let p = pairs(&results).expect("three whole pairs");
        assert_eq!(p.count, [0, 0, 2, 0, 1]);
        assert!((p.mean - 2.0 / 3.0).abs() < 1e-9);
        // Pair means 1/2, 1/2, 1: variance 1/18, over 3 pairs.
        assert!((p.half - 1.96 * (1.0f64 / 54.0).sqrt()).abs() < 1e-9);
        assert!(
            pairs(&results[..3]).is_none(),
            "one whole pair tells nothing"
        );
    }

    #[test]
    fn lopsided_openings_favour_one_side_within_the_window() {
        for seed in 1..=6u64 {
            let game = opening(Variant::Russian, 4, seed, Some((40, 120)));
            let score = judged(&game).abs();
            assert!((40..=120).contains(&score), "seed {seed}: {score}");
        }
    }
}
