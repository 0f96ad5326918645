//! `shashki tablebase build|probe|verify`: the endgame tables from the command line.

use crate::ai::tablebase::{self, BuildProgress, Tablebase, Wdl};
use crate::rules::{Counters, Game, Position, Variant};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(clap::Subcommand, Debug)]
pub enum TablebaseCommand {
    /// Solve every ending with up to N pieces (restartable: finished tables are kept).
    Build {
        #[arg(long, default_value = "russian")]
        variant: Variant,
        #[arg(long, default_value_t = 4)]
        pieces: u32,
        /// Folder of the table files (default: the game's own).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Print `win|draw|loss`, the plies to the next capture, promotion or man move that
    /// keeps it, and the counting rule that binds.
    Probe {
        #[arg(long, default_value = "russian")]
        variant: Variant,
        #[arg(long)]
        fen: String,
        #[arg(long)]
        dir: Option<PathBuf>,
        /// The draw rules' counters: plies since a man moved or a piece was taken,
        /// plies since the last capture or promotion (default: both 0, a fresh balance).
        #[arg(long, num_args = 2, value_names = ["REVERSIBLE", "BALANCE"])]
        counters: Option<Vec<u32>>,
        /// The lone king stood on the long diagonal when the balance arose (7.2.7;
        /// default: where it stands now).
        #[arg(long)]
        diagonal: Option<bool>,
    },
    /// For the games of a PDN file (a match's), count the endings the tables called won
    /// for a side and whether that side won, and the drawn ones that were lost.
    Audit {
        #[arg(long)]
        pdn: PathBuf,
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Also print, for each won ending not converted, the move that let the win go.
        #[arg(long)]
        verbose: bool,
    },
    /// Check every stored position against its successors.
    Verify {
        #[arg(long, default_value = "russian")]
        variant: Variant,
        #[arg(long)]
        dir: Option<PathBuf>,
        #[arg(long, default_value_t = 7)]
        pieces: u32,
    },
}

fn dir_or_default(dir: Option<PathBuf>) -> PathBuf {
    let from_env = std::env::var_os(super::TABLEBASES_VAR)
        .filter(|v| !v.is_empty() && v != "off")
        .map(PathBuf::from);
    dir.or(from_env)
        .unwrap_or_else(|| crate::store::Store::open().tablebase_dir())
}

pub fn run(cmd: TablebaseCommand) -> Result<(), String> {
    match cmd {
        TablebaseCommand::Build {
            variant,
            pieces,
            dir,
            threads,
        } => {
            if !(2..=7).contains(&pieces) {
                return Err("--pieces must be 2 to 7".into());
            }
            let dir = dir_or_default(dir);
            let threads = threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let start = Instant::now();
            let stop = AtomicBool::new(false);
            let mut solved = 0u64;
            let tb = tablebase::build(
                variant,
                pieces,
                threads,
                Some(&dir),
                &stop,
                &mut |p: &BuildProgress| {
                    let width = 30;
                    let filled = p.done * width / p.total.max(1);
                    eprintln!(
                        "[{}{}] {:>3}/{} {:<14} {:>11} entries {:>8.2} s{}",
                        "#".repeat(filled),
                        ".".repeat(width - filled),
                        p.done,
                        p.total,
                        p.key.file_name(variant).trim_end_matches(".shtb"),
                        p.entries,
                        p.elapsed.as_secs_f64(),
                        if p.from_file { " (from file)" } else { "" }
                    );
                    if !p.from_file {
                        solved += p.entries;
                    }
                },
            )?;
            let secs = start.elapsed().as_secs_f64();
            let bytes: u64 = std::fs::read_dir(&dir)
                .map(|rd| {
                    rd.filter_map(|e| e.ok())
                        .filter(|e| {
                            e.file_name()
                                .to_string_lossy()
                                .starts_with(&format!("{}-", variant.name()))
                        })
                        .filter_map(|e| e.metadata().ok())
                        .map(|m| m.len())
                        .sum()
                })
                .unwrap_or(0);
            println!(
                "built {} tables, {} entries, up to {} pieces, in {:.1} s ({:.0} entries/s solved), {} bytes on disk in {}",
                tb.tables().len(),
                tb.entries(),
                tb.max_pieces(),
                secs,
                solved as f64 / secs.max(1e-9),
                bytes,
                dir.display()
            );
            Ok(())
        }
        TablebaseCommand::Probe {
            variant,
            fen,
            dir,
            counters,
            diagonal,
        } => {
            let pos = Position::from_fen(&fen).map_err(|e| e.to_string())?;
            let dir = dir_or_default(dir);
            let (tb, _) = Tablebase::load(variant, &dir, pos.piece_count());
            if tb.max_pieces() < pos.piece_count() {
                return Err(format!(
                    "no tables for {} pieces in {} (build them with `shashki tablebase build --variant {variant} --pieces {}`)",
                    pos.piece_count(),
                    dir.display(),
                    pos.piece_count()
                ));
            }
            let mut c = Counters::fresh(&pos);
            if let Some(v) = counters {
                c.reversible = v[0];
                c.balance = v[1].max(v[0]);
                // The side that moved first since the balance arose follows from the count.
                if v[1] % 2 == 1 {
                    c.balance_first_mover = Some(pos.side_to_move().opposite());
                }
            }
            if let Some(d) = diagonal {
                c.lone_king_on_long_diagonal = d;
            }
            let game = Game::from_position(variant, pos);
            if let Some(o) = game.outcome() {
                println!("{}", o.result_text());
                return Ok(());
            }
            let p = tb
                .probe(&pos, &c)
                .ok_or_else(|| "the position is not in the tables".to_string())?;
            let word = match p.wdl {
                Wdl::Win => "win",
                Wdl::Draw => "draw",
                Wdl::Loss => "loss",
            };
            let rule = match p.rule {
                Some(r) => format!("{} in {} plies", r.number(), p.plies_left),
                None => "no counting rule".to_string(),
            };
            println!("{word} {} {rule}", p.plies);
            Ok(())
        }
        TablebaseCommand::Audit { pdn, dir, verbose } => audit(&pdn, &dir_or_default(dir), verbose),
        TablebaseCommand::Verify {
            variant,
            dir,
            pieces,
        } => {
            let dir = dir_or_default(dir);
            let (tb, problems) = Tablebase::load(variant, &dir, pieces);
            let start = Instant::now();
            let report = tablebase::verify(&tb);
            for p in &report.errors {
                println!("{p}");
            }
            println!(
                "verified {} tables, {} positions, {} errors, in {:.1} s{}",
                tb.tables().len(),
                report.positions,
                report.errors.len(),
                start.elapsed().as_secs_f64(),
                if problems.is_empty() || tb.tables().is_empty() {
                    String::new()
                } else {
                    format!(" ({} tables missing or unreadable)", problems.len())
                }
            );
            if tb.tables().is_empty() {
                return Err(format!("no tables of {variant} in {}", dir.display()));
            }
            if report.errors.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "{} positions disagree with their successors",
                    report.errors.len()
                ))
            }
        }
    }
}

/// Per player (the PDN's White and Black tags): endings the tables called won for that
/// player and the games that player then won, and endings called drawn that it lost.
fn audit(pdn: &std::path::Path, dir: &std::path::Path, verbose: bool) -> Result<(), String> {
    use std::collections::BTreeMap;
    let games = crate::rules::pdn::read_pdn_file(pdn)
        .map_err(|e| format!("cannot read {}: {e}", pdn.display()))?;
    let mut tables: Vec<Tablebase> = Vec::new();
    // (won endings, converted, drawn endings, lost from a drawn ending)
    let mut by_player: BTreeMap<String, [u32; 4]> = BTreeMap::new();
    for record in games.iter().flatten() {
        let variant = record.variant();
        if !tables.iter().any(|t| t.variant() == variant) {
            tables.push(Tablebase::load(variant, dir, 7).0);
        }
        let Some(tb) = tables.iter().find(|t| t.variant() == variant) else {
            continue;
        };
        let names = [
            record.tag("White").unwrap_or("White").to_string(),
            record.tag("Black").unwrap_or("Black").to_string(),
        ];
        let winner = record.game.outcome().and_then(|o| o.winner());
        let mut game = Game::from_position(variant, *record.game.start_position());
        // The tables' first verdict in the game: a win for a side, or a draw.
        let mut verdict = None;
        for mv in record.game.moves() {
            if let Some(p) = tb.probe_game(&game) {
                let side = game.side_to_move();
                verdict = Some(match p.wdl {
                    Wdl::Win => Some(side),
                    Wdl::Loss => Some(side.opposite()),
                    Wdl::Draw => None,
                });
                break;
            }
            if game.play(mv).is_err() {
                break;
            }
        }
        match verdict {
            Some(Some(side)) => {
                let row = by_player.entry(names[side.index()].clone()).or_default();
                row[0] += 1;
                row[1] += (winner == Some(side)) as u32;
                if verbose && winner != Some(side) {
                    report_lost_win(tb, record, game.ply(), side);
                }
            }
            Some(None) => {
                for name in &names {
                    by_player.entry(name.clone()).or_default()[2] += 1;
                }
                if let Some(w) = winner {
                    by_player
                        .entry(names[w.opposite().index()].clone())
                        .or_default()[3] += 1;
                }
            }
            None => {}
        }
    }
    for (name, [won, converted, drawn, lost]) in &by_player {
        println!(
            "{name}: {won} endings called won, {converted} converted; {drawn} games reached a drawn ending, {lost} of them lost"
        );
    }
    Ok(())
}

/// Prints where a won ending stopped being won: the position, its counters and the move.
fn report_lost_win(
    tb: &Tablebase,
    record: &crate::rules::pdn::PdnGame,
    from: usize,
    side: crate::rules::Color,
) {
    let variant = record.variant();
    let mut game = Game::from_position(variant, *record.game.start_position());
    for (ply, mv) in record.game.moves().iter().enumerate() {
        if ply >= from {
            let before = tb.probe_game(&game);
            let mut after = game.clone();
            if after.play(mv).is_err() {
                return;
            }
            let still = match after.outcome() {
                Some(o) => o.winner() == Some(side),
                None => tb.probe_game(&after).is_some_and(|p| {
                    (p.wdl == Wdl::Win) == (after.side_to_move() == side) && p.wdl != Wdl::Draw
                }),
            };
            if !still {
                let c = game.counters();
                println!(
                    "  game {:?}: ply {} {} (counters {} {}, {:?}) {mv} lets the win go: before {:?}, after {:?}",
                    record.tag("Round"),
                    ply + 1,
                    game.position().to_fen(),
                    c.reversible,
                    c.balance,
                    c.balance_first_mover,
                    before,
                    tb.probe_game(&after)
                );
                return;
            }
        }
        if game.play(mv).is_err() {
            return;
        }
    }
}
