//! `shashki annotate`: a game of a PDN file analysed and written back as PDN, with the
//! evaluation after each move as a comment, marks as NAGs and better moves as variations.

use crate::ai::analysis::{self, Analysis, Mark};
use crate::ai::{Ai, Limits, WIN};
use crate::rules::pdn::{MoveNote, PdnGame, read_pdn_file, write_pdn_annotated};
use clap::Args;
use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Plies of the better line written as a variation.
const VARIATION_PLIES: usize = 6;

#[derive(Args, Debug)]
pub struct AnnotateOptions {
    /// The PDN file to read.
    #[arg(long)]
    pub pdn: String,
    /// Game number, counted from 1 in file order.
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// Time per position in milliseconds.
    #[arg(long, conflicts_with = "depth", required_unless_present = "depth")]
    pub movetime: Option<u64>,
    /// Depth per position instead of a time.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Where to write the annotated game.
    #[arg(long)]
    pub out: String,
}

pub fn run(opts: AnnotateOptions) -> Result<(), String> {
    let games = read_pdn_file(&opts.pdn).map_err(|e| format!("cannot read {}: {e}", opts.pdn))?;
    let count = games.len();
    let record = opts
        .game
        .checked_sub(1)
        .and_then(|i| games.get(i))
        .ok_or_else(|| {
            format!(
                "{} has {count} game{}; there is no game {} (games count from 1)",
                opts.pdn,
                if count == 1 { "" } else { "s" },
                opts.game
            )
        })?
        .as_ref()
        .map_err(|e| format!("{}, game {}: {e}", opts.pdn, opts.game))?;
    let limits = Limits {
        depth: opts.depth,
        time: opts.movetime.map(Duration::from_millis),
        clock: None,
        nodes: None,
    };
    let mut ai = Ai::new();
    ai.set_threads(opts.threads as usize);
    let stop = AtomicBool::new(false);
    let tty = std::io::stderr().is_terminal();
    let analysis = analysis::analyse(&mut ai, &record.game, &limits, &stop, &mut |done, all| {
        if tty {
            eprint!("\rannotate: position {done} of {all}");
        }
    })
    .ok_or("the analysis was stopped")?;
    if tty {
        eprintln!();
    }
    let text = annotated_pdn(record, &analysis);
    std::fs::write(&opts.out, text).map_err(|e| format!("cannot write {}: {e}", opts.out))?;
    for (side, name) in [
        (crate::rules::Color::White, "White"),
        (crate::rules::Color::Black, "Black"),
    ] {
        let s = analysis.summary(side);
        eprintln!(
            "{name}: {} inaccuracies, {} mistakes, {} blunders, average loss {:.1}",
            s.inaccuracies, s.mistakes, s.blunders, s.average_loss
        );
    }
    Ok(())
}

/// A score from White's view as a comment: `+0.35` (men), or who wins.
pub fn score_text(white: i32) -> String {
    if white.abs() > WIN - 1000 {
        let plies = WIN - white.abs();
        let side = if white > 0 { "White" } else { "Black" };
        if plies > 0 {
            format!("{side} wins in {plies} plies")
        } else {
            format!("{side} wins")
        }
    } else if crate::ai::is_tablebase_score(white) {
        let side = if white > 0 { "White" } else { "Black" };
        format!("{side} wins (tablebase)")
    } else {
        format!("{:+.2}", white as f64 / 100.0)
    }
}

/// The game as PDN with the analysis in it; every tag of the record is kept.
pub fn annotated_pdn(record: &PdnGame, analysis: &Analysis) -> String {
    let notes: Vec<MoveNote> = analysis
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let after = analysis.white_scores.get(i + 1).copied().unwrap_or(0);
            let mut comment = score_text(after);
            let variation = match m.mark {
                Some(mark) if !m.best_line.is_empty() => {
                    let before = analysis.white_scores[i];
                    comment = format!(
                        "{comment}; {} (best {})",
                        mark_name(mark),
                        score_text(before)
                    );
                    m.best_line.iter().take(VARIATION_PLIES).copied().collect()
                }
                _ => Vec::new(),
            };
            MoveNote {
                nag: m.mark.map(Mark::nag),
                comment: Some(comment),
                variation,
            }
        })
        .collect();
    let mut tags = record.tags.clone();
    tags.retain(|(n, _)| !n.eq_ignore_ascii_case("Annotator"));
    tags.push(("Annotator".into(), "shashki".into()));
    if record.tag("Opening").is_none()
        && let Some(opening) = crate::rules::openings::book().name_of(&record.game)
    {
        tags.push(("Opening".into(), opening.name_ru.clone()));
    }
    write_pdn_annotated(&record.game, &tags, &notes)
}

fn mark_name(mark: Mark) -> &'static str {
    match mark {
        Mark::Inaccuracy => "inaccuracy",
        Mark::Mistake => "mistake",
        Mark::Blunder => "blunder",
    }
}
