//! `shashki puzzles`: combination puzzles found in self-play positions and real games
//! (see `src/ai/puzzle.rs` for what counts as one).

use crate::ai::Ai;
use crate::ai::puzzle::{self, Puzzle};
use crate::rules::pdn::{pdn_files_in, read_pdn_file};
use crate::rules::{Color, Position, Variant};
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct PuzzlesOptions {
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// Training files of `shashki selfplay` (comma-separated) to scan.
    #[arg(long, value_delimiter = ',')]
    pub data: Vec<String>,
    /// A folder of PDN files (searched recursively) whose games are scanned too.
    #[arg(long)]
    pub pdn: Option<String>,
    /// Search depth of the checks.
    #[arg(long, default_value_t = 12)]
    pub depth: u32,
    /// Least score (centi-men) of a self-play position's own search for it to be checked.
    #[arg(long, default_value_t = 150)]
    pub min_score: i32,
    /// Stop after this many puzzles.
    #[arg(long, default_value_t = 300)]
    pub max: usize,
    /// Scan every k-th candidate only (to spread the puzzles over more games).
    #[arg(long, default_value_t = 1)]
    pub every: usize,
    /// Check the puzzles of this file again instead of scanning (after the evaluation
    /// changed): each start is searched afresh at `--depth`, and only those that still
    /// hold a puzzle with the same first move are written, with the solution and level
    /// the present search gives them.
    #[arg(long)]
    pub check: Option<String>,
    /// The puzzles file to write.
    #[arg(long)]
    pub out: String,
}

/// A position to check and where it comes from.
struct Candidate {
    pos: Position,
    source: String,
}

/// The positions of every game under `dir`, each with its event, players and move.
fn from_pdn(dir: &str, variant: Variant, out: &mut Vec<Candidate>) {
    for file in pdn_files_in(Path::new(dir)) {
        let Ok(games) = read_pdn_file(&file) else {
            continue;
        };
        for g in games.into_iter().flatten() {
            if g.variant() != variant {
                continue;
            }
            let tag = |n: &str| g.tag(n).unwrap_or("?").to_string();
            let first_black = g.game.start_position().side_to_move() == Color::Black;
            for ply in 0..g.game.ply() {
                let Some(pos) = g.game.position_at(ply) else {
                    break;
                };
                let number = (ply + usize::from(first_black)) / 2 + 1;
                out.push(Candidate {
                    pos: *pos,
                    source: format!(
                        "{}, round {}, {} - {}, move {number}",
                        tag("Event"),
                        tag("Round"),
                        tag("White"),
                        tag("Black")
                    ),
                });
            }
        }
    }
}

/// Self-play positions whose own search already saw a gain.
fn from_data(path: &str, min_score: i32, out: &mut Vec<Candidate>) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let name = Path::new(path)
        .file_name()
        .map_or(path.to_string(), |n| n.to_string_lossy().into_owned());
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let [game, white, black, kings, side, _, score] = f[..] else {
            continue;
        };
        let Ok(score) = score.parse::<i32>() else {
            continue;
        };
        if score < min_score {
            continue;
        }
        let hex = |s: &str| u64::from_str_radix(s, 16).ok();
        let (Some(w), Some(b), Some(k)) = (hex(white), hex(black), hex(kings)) else {
            continue;
        };
        let side = if side == "w" {
            Color::White
        } else {
            Color::Black
        };
        if let Ok(pos) = Position::from_bitboards(w, b, k, side) {
            out.push(Candidate {
                pos,
                source: match game.parse::<u64>() {
                    Ok(g) => format!(
                        "self-play, seed {} game {}, {name}",
                        g >> 32,
                        g & 0xFFFF_FFFF
                    ),
                    Err(_) => format!("self-play game {game}, {name}"),
                },
            });
        }
    }
    Ok(())
}

/// `--check`: the puzzles of `path` that still hold, written to `--out` under the old
/// file's own comment lines and one that says how they were checked.
fn check(path: &str, opts: &PuzzlesOptions) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let old = puzzle::read_puzzles(&text).map_err(|e| format!("{path}: {e}"))?;
    let mut out = String::new();
    for line in text.lines().filter(|l| l.starts_with('#')) {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&format!(
        "# Checked again by: shashki puzzles --check {path} --variant {} --depth {}\n",
        opts.variant, opts.depth
    ));
    let mut ai = Ai::with_table(18);
    let started = Instant::now();
    let mut kept = 0usize;
    for p in old.iter().filter(|p| p.variant == opts.variant) {
        match puzzle::check_again(&mut ai, p, opts.depth) {
            Some(q) => {
                out.push_str(&q.to_line());
                out.push('\n');
                kept += 1;
            }
            None => eprintln!("puzzles: dropped {}", p.to_line()),
        }
    }
    std::fs::write(&opts.out, out).map_err(|e| format!("cannot write {}: {e}", opts.out))?;
    eprintln!(
        "puzzles: {kept} of {} still hold, {:.0} s",
        old.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

pub fn run(opts: PuzzlesOptions) -> Result<(), String> {
    if let Some(path) = &opts.check {
        return check(path, &opts);
    }
    let mut candidates = Vec::new();
    if let Some(dir) = &opts.pdn {
        from_pdn(dir, opts.variant, &mut candidates);
    }
    for path in &opts.data {
        from_data(path, opts.min_score, &mut candidates)?;
    }
    let mut file =
        std::fs::File::create(&opts.out).map_err(|e| format!("cannot write {}: {e}", opts.out))?;
    writeln!(
        file,
        "# Puzzles, {}: level, variant, FEN, goal, depth, solution, source (tab-separated).\n\
         # Made by: shashki puzzles --variant {} --depth {} --min-score {} --every {} --max {}",
        opts.variant, opts.variant, opts.depth, opts.min_score, opts.every, opts.max
    )
    .map_err(|e| e.to_string())?;
    let mut ai = Ai::with_table(18);
    let mut seen = HashSet::new();
    let mut found: Vec<Puzzle> = Vec::new();
    let started = Instant::now();
    let mut checked = 0usize;
    for c in candidates.iter().step_by(opts.every.max(1)) {
        if found.len() >= opts.max {
            break;
        }
        if !seen.insert(c.pos) {
            continue;
        }
        checked += 1;
        if let Some(p) = puzzle::find(&mut ai, opts.variant, c.pos, opts.depth, &c.source) {
            writeln!(file, "{}", p.to_line()).map_err(|e| e.to_string())?;
            found.push(p);
            if found.len().is_multiple_of(10) {
                eprintln!(
                    "puzzles: {} found in {checked} positions, {:.0} s",
                    found.len(),
                    started.elapsed().as_secs_f64()
                );
            }
        }
    }
    let mut levels = [0usize; 5];
    for p in &found {
        levels[(p.level - 1) as usize] += 1;
    }
    eprintln!(
        "puzzles: {} found in {checked} positions of {} candidates, {:.0} s; levels 1-5: {levels:?}",
        found.len(),
        candidates.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
