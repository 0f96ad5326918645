//! `shashki analyze`, `engine` and `bench`: the AI from the command line.
//!
//!
//! The engine protocol is described in [`crate::ai::protocol`].

use crate::ai::protocol::{self, Go};
use crate::ai::{Ai, Level, Limits, SearchResult};
use crate::rules::{Game, Move, Variant};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Stack size of search threads: each ply of the search keeps a move list on the stack.
const SEARCH_STACK: usize = 32 << 20;

fn pv_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn info_line(r: &SearchResult, elapsed: Duration) -> String {
    let nps = (r.nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64;
    format!(
        "info depth {} score {} nodes {} nps {} pv {}",
        r.depth,
        r.score,
        r.nodes,
        nps,
        pv_text(&r.pv)
    )
}

/// Runs `f` on a thread with a stack deep enough for the search.
pub(crate) fn spawn_search<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> JoinHandle<T> {
    std::thread::Builder::new()
        .stack_size(SEARCH_STACK)
        .spawn(f)
        .expect("cannot start a search thread")
}

/// What `shashki analyze` searches and how.
#[derive(clap::Args, Debug)]
pub struct AnalyzeOptions {
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    #[arg(long)]
    pub fen: Option<String>,
    #[arg(long)]
    pub depth: Option<u32>,
    #[arg(long)]
    pub movetime: Option<u64>,
    #[arg(long)]
    pub level: Option<u8>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB (default 64).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub hash: Option<u16>,
}

pub fn analyze(o: AnalyzeOptions) -> Result<(), String> {
    let AnalyzeOptions {
        variant,
        fen,
        depth,
        movetime,
        level,
        threads,
        hash,
    } = o;
    let fen = fen.as_deref();
    let hash = hash.map(usize::from);
    let game = match fen {
        Some(f) => Game::from_fen(variant, f).map_err(|e| e.to_string())?,
        None => Game::new(variant),
    };
    if depth.is_none() && movetime.is_none() && level.is_none() {
        return Err("give --depth D, --movetime MS or --level L".into());
    }
    let handle = spawn_search(move || {
        let stop = AtomicBool::new(false);
        let mut ai = Ai::new();
        if let Some(mib) = hash {
            ai.set_table_mib(mib);
        }
        ai.set_threads(threads);
        let start = Instant::now();
        let tables = tablebase_note(&ai, &game);
        if let Some(l) = level {
            let level = Level::new(l);
            let limits = level.limits();
            let r = ai.search_with_info(&game, &limits, &stop, &mut |r| {
                println!("{}{tables}", info_line(r, start.elapsed()))
            });
            ai.clear();
            let chosen = ai.choose_move(&game, level, 1, &stop);
            println!(
                "level {} ({}) plays {}",
                level.number(),
                level.name(),
                chosen.map_or("none".to_string(), |m| m.to_string())
            );
            return (r, start.elapsed());
        }
        let limits = Limits {
            depth,
            nodes: None,
            time: movetime.map(Duration::from_millis),
            clock: None,
        };
        let r = ai.search_with_info(&game, &limits, &stop, &mut |r| {
            println!("{}{tables}", info_line(r, start.elapsed()))
        });
        (r, start.elapsed())
    });
    let (r, elapsed) = handle.join().map_err(|_| "the search failed".to_string())?;
    match r.best {
        None => println!("bestmove none"),
        Some(m) => println!(
            "bestmove {m} score {} depth {} nodes {} ms {} pv {}",
            r.score,
            r.depth,
            r.nodes,
            elapsed.as_millis(),
            pv_text(&r.pv)
        ),
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Engine protocol
// ---------------------------------------------------------------------------------------

/// A search running in its thread; joining gives the engine back.
struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Ai>,
}

struct EngineState {
    variant: Variant,
    /// `None` after a refused `position` (see `src/ai/protocol.rs`).
    game: Option<Game>,
    ai: Option<Ai>,
    running: Option<Running>,
    /// Varies the book's choice: taken from the clock at start, one more at each `go`.
    seed: u64,
}

impl EngineState {
    /// Waits for a running search (stopping it first if asked) and takes the engine back.
    fn finish(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop {
                r.stop.store(true, Ordering::Relaxed);
            }
            self.ai = Some(r.handle.join().unwrap_or_else(|_| engine_ai()));
        }
    }
}

/// The engine of `shashki engine`: plays for a win with the default contempt.
fn engine_ai() -> Ai {
    let mut ai = Ai::new();
    ai.set_contempt(protocol::DEFAULT_CONTEMPT);
    ai
}

fn go(state: &mut EngineState, go: Go) {
    state.finish(false);
    let Some(game) = state.game.clone() else {
        println!("error no position");
        println!("bestmove none");
        return;
    };
    let mut ai = state.ai.take().unwrap_or_default();
    state.seed = state.seed.wrapping_add(1);
    let seed = state.seed;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let handle = spawn_search(move || {
        let start = Instant::now();
        let tables = tablebase_note(&ai, &game);
        // Under a clock, the side to move's applies.
        let go = match go {
            Go::Timed { limits, clocks } => Go::Limits(Limits {
                clock: Some(clocks[game.side_to_move() as usize]),
                ..limits
            }),
            go => go,
        };
        let best = match go {
            Go::Level { level, seed } => ai.choose_move(&game, level, seed, &flag),
            Go::Timed { .. } => None,
            Go::Limits(_) if let Some(b) = ai.book_move(&game, seed) => {
                println!(
                    "info depth 0 score {} nodes 0 nps 0 pv {} book",
                    b.score, b.mv
                );
                Some(b.mv)
            }
            Go::Limits(limits) => {
                let r = ai.search_with_info(&game, &limits, &flag, &mut |r| {
                    println!("{}{tables}", info_line(r, start.elapsed()))
                });
                r.best
            }
        };
        println!(
            "bestmove {}",
            best.map_or("none".to_string(), |m| m.to_string())
        );
        let _ = std::io::stdout().flush();
        ai
    });
    state.running = Some(Running { stop, handle });
}

/// ` tb win 9` when the engine's endgame tables hold the game's position, else nothing.
fn tablebase_note(ai: &Ai, game: &Game) -> String {
    let Some(p) = ai
        .tablebase(game.variant())
        .and_then(|tb| tb.probe_game(game))
    else {
        return String::new();
    };
    let word = match p.wdl {
        crate::ai::tablebase::Wdl::Win => "win",
        crate::ai::tablebase::Wdl::Draw => "draw",
        crate::ai::tablebase::Wdl::Loss => "loss",
    };
    format!(" tb {word} {}", p.plies)
}

/// Handles one protocol line; returns false on `quit`.
fn engine_command(state: &mut EngineState, line: &str) -> Result<bool, String> {
    let cmd = match protocol::parse(line, state.variant) {
        Ok(Some(cmd)) => cmd,
        Ok(None) => return Ok(true),
        Err(e) => {
            if line.split_whitespace().next() == Some("position") {
                state.finish(false);
                state.game = None;
            }
            return Err(e);
        }
    };
    match cmd {
        protocol::Command::Quit => {
            state.finish(true);
            return Ok(false);
        }
        protocol::Command::Stop => state.finish(true),
        protocol::Command::IsReady => println!("readyok"),
        protocol::Command::Variant(v) => {
            state.finish(false);
            state.variant = v;
            if let Some(g) = state.game.as_mut() {
                g.set_variant(v);
            }
        }
        protocol::Command::Position(game) => {
            state.finish(false);
            state.game = Some(*game);
        }
        protocol::Command::Threads(n) => {
            state.finish(false);
            state.ai.get_or_insert_with(engine_ai).set_threads(n);
        }
        protocol::Command::Hash(mib) => {
            state.finish(false);
            state.ai.get_or_insert_with(engine_ai).set_table_mib(mib);
        }
        protocol::Command::Tablebase(on) => {
            state.finish(false);
            state
                .ai
                .get_or_insert_with(engine_ai)
                .set_use_tablebases(on);
        }
        protocol::Command::Book(on) => {
            state.finish(false);
            state.ai.get_or_insert_with(engine_ai).set_book(on);
        }
        protocol::Command::Contempt(c) => {
            state.finish(false);
            state.ai.get_or_insert_with(engine_ai).set_contempt(c);
        }
        protocol::Command::Go(g) => go(state, g),
        protocol::Command::NewGame => {
            state.finish(false);
            if let Some(ai) = state.ai.as_mut() {
                ai.clear();
            }
        }
    }
    Ok(true)
}

pub fn engine() -> Result<(), String> {
    crate::ai::tablebase::preload_or_solve(&[Variant::Russian, Variant::Giveaway]);
    let mut state = EngineState {
        variant: Variant::Russian,
        game: Some(Game::new(Variant::Russian)),
        ai: Some(engine_ai()),
        running: None,
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    };
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        match engine_command(&mut state, &line) {
            Ok(true) => {}
            Ok(false) => return Ok(()),
            Err(e) => println!("error {e}"),
        }
        let _ = std::io::stdout().flush();
    }
    state.finish(true);
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Bench
// ---------------------------------------------------------------------------------------

/// Positions of the bench: the start and fixed pseudo-random middlegames, both variants.
fn bench_positions() -> Vec<Game> {
    let mut games = Vec::new();
    for variant in [Variant::Russian, Variant::Giveaway] {
        games.push(Game::new(variant));
        for (seed, plies) in [(1u64, 8u32), (2, 14), (3, 20), (4, 26), (5, 32)] {
            games.push(super::match_cmd::opening(variant, plies, seed, None));
        }
    }
    games
}

pub fn bench(depth: Option<u32>, threads: usize) -> Result<(), String> {
    let depth = depth.unwrap_or(13);
    // The endgame tables are read before the clock starts.
    for v in [Variant::Russian, Variant::Giveaway] {
        crate::ai::tablebase::installed(v);
    }
    let handle = spawn_search(move || {
        let stop = AtomicBool::new(false);
        let mut ai = Ai::with_table(crate::ai::TOOL_TABLE_LOG2);
        ai.set_threads(threads);
        let mut nodes = 0u64;
        let start = Instant::now();
        for game in bench_positions() {
            ai.clear();
            let limits = Limits {
                depth: Some(depth),
                nodes: None,
                time: None,
                clock: None,
            };
            nodes += ai.search(&game, &limits, &stop).nodes;
        }
        (nodes, start.elapsed())
    });
    let (nodes, elapsed) = handle.join().map_err(|_| "the bench failed".to_string())?;
    let ms = elapsed.as_millis().max(1);
    println!(
        "bench nodes {nodes} ms {ms} nps {}",
        (nodes as u128 * 1000 / ms) as u64
    );
    Ok(())
}
