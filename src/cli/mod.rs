//! Command-line tools of the `shashki` binary (no window opens for these).

mod ai_cmd;
mod annotate_cmd;
mod book_cmd;
mod game_cmd;
mod hub_cmd;
pub mod install_cmd;
mod match_cmd;
mod pdn_cmd;
mod puzzles_cmd;
mod selfplay_cmd;
mod tablebase_cmd;
mod tune_cmd;

pub use annotate_cmd::annotated_pdn;
pub use match_cmd::{MatchOptions, play_match_game};

use crate::rules::{Position, Variant};
use clap::{Parser, Subcommand};
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(
    name = "shashki",
    version,
    about = "Russian draughts and поддавки in 3D; with a subcommand, command-line tools"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print every legal move, one per line, sorted.
    Moves {
        #[arg(long)]
        fen: Option<String>,
    },
    /// Count the leaf nodes of the move tree, one line per depth.
    Perft {
        depth: u32,
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each move at the last depth.
        #[arg(long)]
        divide: bool,
    },
    /// Print the FEN after a ply of a game of a PDN file.
    Fen {
        #[arg(long)]
        pdn: String,
        /// Game number, counted from 1 in file order.
        #[arg(long, default_value_t = 1)]
        game: usize,
        /// Ply (default: the game's last).
        #[arg(long)]
        ply: Option<usize>,
    },
    /// Search a position and print the best move, score and principal variation.
    Analyze(ai_cmd::AnalyzeOptions),
    /// Analyse a game of a PDN file and write it annotated: the evaluation after each
    /// move, marks ($6 ?!, $2 ?, $4 ??) and the better move as a variation.
    Annotate(annotate_cmd::AnnotateOptions),
    /// Find combination puzzles in self-play positions and real games.
    Puzzles(puzzles_cmd::PuzzlesOptions),
    /// Speak the engine line protocol on standard input and output (see README.md).
    Engine,
    /// Speak Scan's Hub protocol (version 2) on standard input and output, for pydraughts,
    /// lidraughts-bot and other Hub clients (see README.md).
    Hub,
    /// Put the game in the desktop's menu: a freedesktop.org entry and icon under
    /// ~/.local/share (or $XDG_DATA_HOME) that start this program.
    InstallDesktop {
        /// Remove them instead.
        #[arg(long)]
        uninstall: bool,
    },
    /// Play AI-against-AI games and report the score.
    Match(match_cmd::MatchOptions),
    /// Play the engine against itself and write training positions.
    Selfplay(selfplay_cmd::SelfplayOptions),
    /// Fit the learned evaluation to training positions and write its weights file.
    Tune(tune_cmd::TuneOptions),
    /// Endgame tablebases: build, probe, verify.
    #[command(subcommand)]
    Tablebase(tablebase_cmd::TablebaseCommand),
    /// The opening book: build it by drop-out expansion.
    #[command(subcommand)]
    Book(book_cmd::BookCommand),
    /// Fixed-depth search over fixed positions: `bench nodes N ms T nps R`.
    Bench {
        #[arg(long)]
        depth: Option<u32>,
        /// Search threads (the time to reach the depth measures a parallel search).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Open the window and let the computer play both sides.
    Demo {
        #[arg(long, default_value = "russian")]
        variant: Variant,
        /// Exit after this many moves.
        #[arg(long)]
        moves: Option<u32>,
        /// Save a screenshot to this file before exiting.
        #[arg(long)]
        screenshot: Option<String>,
        /// Time a bare reference scene instead (for comparing frame times).
        #[arg(long, hide = true)]
        bare: bool,
        /// The computer's level on both sides (default: 1 for White, 2 for Black, brisk).
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
        level: Option<u8>,
        /// Instead, drive the window like a person and check what it shows (exits with
        /// an error naming the first failed check; --screenshot is then a file prefix).
        #[arg(long)]
        check: bool,
    },
}

fn position_arg(fen: &Option<String>) -> Result<Position, String> {
    match fen {
        None => Ok(Position::start()),
        Some(f) => Position::from_fen(f).map_err(|e| e.to_string()),
    }
}

/// When the command line started to run (the demo reports its time to the first frame).
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// The moment [`run`] was first called.
pub fn started() -> std::time::Instant {
    *STARTED.get_or_init(std::time::Instant::now)
}

/// A command whose output is cut short (`shashki moves | head -3`) ends quietly, as
/// command-line tools do, instead of failing on its next line of output.
fn quiet_on_closed_pipe() {
    #[cfg(target_os = "linux")]
    // SAFETY: restoring the default action of SIGPIPE touches no memory of ours; it is
    // done before any thread of this command starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Runs the command line; returns the process exit code.
pub fn run(args: &[String]) -> i32 {
    started();
    let cli = match Cli::try_parse_from(
        std::iter::once("shashki".to_string()).chain(args.iter().cloned()),
    ) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let result = match cli.command {
        None => game_cmd::run_game(),
        Some(cmd) => {
            quiet_on_closed_pipe();
            install_tablebases();
            run_command(cmd)
        }
    };
    match result {
        Ok(()) => 0,
        Err(msg) => {
            eprintln!("error: {msg}");
            1
        }
    }
}

/// The environment variable naming the folder of the endgame tables the engine uses
/// (`off`: none); by default the game's own folder.
pub const TABLEBASES_VAR: &str = "SHASHKI_TABLEBASES";

/// Points the engines of this process at the endgame tables.
fn install_tablebases() {
    match std::env::var_os(TABLEBASES_VAR) {
        Some(v) if v == "off" => {}
        Some(v) if !v.is_empty() => crate::ai::tablebase::use_dir(std::path::Path::new(&v)),
        _ => crate::ai::tablebase::use_dir(&crate::store::Store::open().tablebase_dir()),
    }
}

fn run_command(cmd: Command) -> Result<(), String> {
    match cmd {
        Command::Moves { fen } => {
            let pos = position_arg(&fen)?;
            let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            moves.sort();
            for m in moves {
                println!("{m}");
            }
            Ok(())
        }
        Command::Perft { depth, fen, divide } => {
            let pos = position_arg(&fen)?;
            if divide {
                let mut rows: Vec<(String, u64)> = pos
                    .legal_moves()
                    .iter()
                    .map(|m| (m.to_string(), pos.play(m).perft(depth.saturating_sub(1))))
                    .collect();
                rows.sort();
                for (m, n) in &rows {
                    println!("{m} {n}");
                }
            }
            for d in 1..=depth {
                let t = Instant::now();
                let n = pos.perft(d);
                println!("perft {d} nodes {n} ms {}", t.elapsed().as_millis());
            }
            Ok(())
        }
        Command::Fen { pdn, game, ply } => pdn_cmd::fen(&pdn, game, ply),
        Command::Analyze(opts) => ai_cmd::analyze(opts),
        Command::Annotate(opts) => annotate_cmd::run(opts),
        Command::Puzzles(opts) => puzzles_cmd::run(opts),
        Command::Engine => ai_cmd::engine(),
        Command::Hub => hub_cmd::run(),
        Command::InstallDesktop { uninstall } => install_cmd::run(uninstall),
        Command::Match(opts) => match_cmd::run_match(opts),
        Command::Bench { depth, threads } => ai_cmd::bench(depth, threads),
        Command::Selfplay(opts) => selfplay_cmd::run(opts),
        Command::Tune(opts) => tune_cmd::run(opts),
        Command::Tablebase(cmd) => tablebase_cmd::run(cmd),
        Command::Book(cmd) => book_cmd::run(cmd),
        Command::Demo {
            variant,
            moves,
            screenshot,
            bare,
            level,
            check,
        } => {
            if check {
                game_cmd::check(screenshot)
            } else {
                game_cmd::demo(variant, moves, screenshot, bare, level)
            }
        }
    }
}
