//! `shashki book build`: grows the opening book (`src/ai/book.rs`) by drop-out expansion.
//!
//! Every book position holds the moves that one search scored exactly (those within
//! `--spread` of its best). The next position searched is the one reached by the cheapest
//! unexplored move: a path costs, at each of its positions, `--ply-cost` plus how much the
//! move played there falls short of the position's best (its drop-out), with values backed
//! up through the book. So the book goes deep along the best lines and wide where the
//! best and second-best moves are close; a move that drops more than `--max-drop` is
//! never followed. Each position is searched from an empty table to a fixed depth, so an
//! entry depends only on its position and the build on its options. The file is rewritten
//! (under a temporary name, then renamed) every few positions: an interrupted build
//! keeps what it did and goes on from it when started again.

use crate::ai::book::{Book, BookMove};
use crate::ai::{Ai, Limits};
use crate::rules::{Game, Move, Position, Variant};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Grow the book to N positions (restartable: an existing file is read and extended).
    Build {
        #[arg(long, default_value = "russian")]
        variant: Variant,
        /// Positions the book should hold.
        #[arg(long, default_value_t = 1000)]
        positions: usize,
        /// Search depth of each position.
        #[arg(long, default_value_t = 18)]
        depth: u32,
        /// Moves within this many centi-men of a position's best are scored exactly.
        #[arg(long, default_value_t = 40)]
        spread: i32,
        /// Cost of each ply of a path, in centi-men.
        #[arg(long, default_value_t = 8)]
        ply_cost: i32,
        /// A move further than this below its position's best is never followed.
        #[arg(long, default_value_t = 25)]
        max_drop: i32,
        /// The book file to write (and to extend when it exists).
        #[arg(long)]
        out: String,
    },
}

pub fn run(cmd: BookCommand) -> Result<(), String> {
    let BookCommand::Build {
        variant,
        positions,
        depth,
        spread,
        ply_cost,
        max_drop,
        out,
    } = cmd;
    let mut book = match std::fs::read_to_string(&out) {
        Ok(text) => Book::parse(&text, variant).map_err(|e| format!("{out}: {e}"))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Book::default(),
        Err(e) => return Err(format!("cannot read {out}: {e}")),
    };
    let mut ai = Ai::with_table(crate::ai::TOOL_TABLE_LOG2);
    ai.set_use_tablebases(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let start = Instant::now();
    let mut searched = 0usize;
    // Positions whose game is over: nothing to store, never to be chosen again.
    let mut ended = HashSet::new();
    let mut next = Some(Position::start());
    while book.entries.len() < positions {
        let Some(pos) = next
            .take()
            .filter(|p| !book.entries.contains_key(p))
            .or_else(|| {
                cheapest_leaf(&book, &ended, ply_cost, max_drop).map(|(p, mv)| p.play(&mv))
            })
        else {
            break;
        };
        let game = Game::from_position(variant, pos);
        ai.clear();
        let (_, scores) = ai.search_root_moves(&game, &limits, &AtomicBool::new(false), spread);
        let moves: Vec<BookMove> = scores
            .iter()
            .filter(|s| s.exact)
            .map(|s| BookMove {
                mv: s.mv,
                score: s.score,
            })
            .collect();
        if moves.is_empty() {
            ended.insert(pos);
            continue;
        }
        book.entries.insert(pos, moves);
        searched += 1;
        if searched.is_multiple_of(10) || book.entries.len() >= positions {
            save(&book, variant, &out)?;
            eprintln!(
                "book: {} positions ({searched} searched in {:.0} s), root value {}",
                book.entries.len(),
                start.elapsed().as_secs_f64(),
                book.value(&Position::start()).unwrap_or(0)
            );
        }
    }
    save(&book, variant, &out)?;
    println!(
        "book: wrote {out}: {} positions, {searched} searched in {:.0} s",
        book.entries.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn save(book: &Book, variant: Variant, out: &str) -> Result<(), String> {
    let tmp = format!("{out}.tmp");
    std::fs::write(&tmp, book.to_text(variant)).map_err(|e| format!("cannot write {tmp}: {e}"))?;
    std::fs::rename(&tmp, out).map_err(|e| format!("cannot rename {tmp} to {out}: {e}"))
}

/// The cheapest move from a book position to a position outside the book (see the
/// module documentation); ties go to the position and move that sort first as text.
fn cheapest_leaf(
    book: &Book,
    ended: &HashSet<Position>,
    ply_cost: i32,
    max_drop: i32,
) -> Option<(Position, Move)> {
    let values = book.values();
    // The queue holds (cost, FEN, index into `queued`).
    let mut queued = vec![Position::start()];
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((0i32, queued[0].to_fen(), 0usize)));
    let mut done = HashSet::new();
    let mut best: Option<(i32, String, String, Position, Move)> = None;
    while let Some(Reverse((cost, fen, at))) = heap.pop() {
        let pos = queued[at];
        if !book.entries.contains_key(&pos) || !done.insert(pos) {
            continue;
        }
        if best.as_ref().is_some_and(|b| b.0 <= cost) {
            break;
        }
        let top = values[&pos];
        for m in &book.entries[&pos] {
            let child = pos.play(&m.mv);
            let value = values.get(&child).map_or(m.score, |v| -v);
            let drop = top - value;
            if drop > max_drop {
                continue;
            }
            let c = cost + ply_cost + drop;
            if book.entries.contains_key(&child) {
                queued.push(child);
                heap.push(Reverse((c, child.to_fen(), queued.len() - 1)));
            } else if !ended.contains(&child) {
                let key = (c, fen.clone(), m.mv.to_string());
                if best
                    .as_ref()
                    .is_none_or(|b| (key.0, &key.1, &key.2) < (b.0, &b.1, &b.2))
                {
                    best = Some((key.0, key.1, key.2, pos, m.mv));
                }
            }
        }
    }
    best.map(|b| (b.3, b.4))
}
