//! Solving the tables: smallest material first, each by retrograde analysis.
//!
//! Inside a table only non-capturing moves that keep the binding counter running stay
//! in it: king moves, and man moves too where a balance rule binds (7.2.4, 7.2.7, 7.2.8;
//! those count from the last capture or promotion). Every other move leads to a table
//! solved before, entered with fresh counters (or, for a man move under 7.2.5, to a
//! placement of the same material with more advanced men, solved before). A position's
//! distance is found by breadth-first retrograde analysis: losses at distance d make
//! their predecessors wins at d + 1; a predecessor all of whose moves win for the
//! opponent loses at one more than the longest of them. Positions never reached are
//! draws at every state of the counters.

use super::index::{Layout, flip};
use super::{
    Counting, DRAW, MAX_DISTANCE, Table, TableKey, Tablebase, Wdl, counting, decode, fresh_budget,
    keys_with, loss_byte, win_byte,
};
use crate::rules::bitboard::{Bits, DIRS, shift};
use crate::rules::game::lone_on_diagonal;
use crate::rules::movegen::{KeyList, MoveKey};
use crate::rules::{Color, Position, Variant};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A table finished (or read back from its file).
#[derive(Clone, Debug)]
pub struct BuildProgress {
    pub key: TableKey,
    /// Tables finished so far and in all.
    pub done: usize,
    pub total: usize,
    pub entries: u64,
    pub elapsed: Duration,
    /// Read from an earlier build's file instead of solved.
    pub from_file: bool,
}

/// Marks a position with no in-table move left to refute (it can reach a draw).
const CANNOT_LOSE: u8 = u8::MAX;

/// Solves every table of `variant` with up to `pieces` pieces on `threads` threads. With a
/// folder, each finished table is written there at once and tables already there (and
/// intact) are read instead of solved, so an interrupted build goes on where it stopped.
/// `stop` ends the build early between tables (the result then lacks the rest).
pub fn build(
    variant: Variant,
    pieces: u32,
    threads: usize,
    dir: Option<&Path>,
    stop: &std::sync::atomic::AtomicBool,
    progress: &mut (dyn FnMut(&BuildProgress) + Send),
) -> Result<Tablebase, String> {
    let mut tb = Tablebase::empty(variant);
    if let Some(d) = dir {
        std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    }
    let all: Vec<TableKey> = (2..=pieces.min(7))
        .flat_map(|n| keys_with(variant, n))
        .collect();
    let total = all.len();
    let mut done = 0;
    let progress = Mutex::new(progress);
    let mut start = 0;
    while start < all.len() {
        // One group: the same number of pieces and men; none needs another of the group.
        let head = all[start].material;
        let end = all[start..]
            .iter()
            .position(|k| k.material.pieces() != head.pieces() || k.material.men() != head.men())
            .map_or(all.len(), |i| start + i);
        let group = &all[start..end];
        let next = AtomicUsize::new(0);
        let finished = Mutex::new(Vec::new());
        let errors = Mutex::new(Vec::new());
        let counter = AtomicUsize::new(done);
        std::thread::scope(|scope| {
            for _ in 0..threads.clamp(1, group.len()) {
                scope.spawn(|| {
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&key) = group.get(i) else { break };
                        let t0 = Instant::now();
                        let path = dir.map(|d| d.join(key.file_name(variant)));
                        let (table, from_file) =
                            match path.as_deref().map(|p| super::file::read(p, variant, key)) {
                                Some(Ok(t)) => (t, true),
                                _ => (solve(variant, key, &tb), false),
                            };
                        if let (Some(p), false) = (&path, from_file)
                            && let Err(e) = super::file::write(p, variant, &table)
                        {
                            errors.lock().map(|mut v| v.push(e.to_string())).ok();
                        }
                        let n = counter.fetch_add(1, Ordering::Relaxed) + 1;
                        let report = BuildProgress {
                            key,
                            done: n,
                            total,
                            entries: table.values.len() as u64,
                            elapsed: t0.elapsed(),
                            from_file,
                        };
                        if let Ok(mut p) = progress.lock() {
                            (*p)(&report);
                        }
                        if let Ok(mut f) = finished.lock() {
                            f.push(table);
                        }
                    }
                });
            }
        });
        let mut finished = finished.into_inner().unwrap_or_default();
        finished.sort_by_key(|t| t.key);
        done += finished.len();
        for t in finished {
            tb.insert(t);
        }
        if let Some(e) = errors.into_inner().unwrap_or_default().into_iter().next() {
            return Err(e);
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
        start = end;
    }
    Ok(tb)
}

/// The solver of one table: the finished tables it looks into and its own entries.
struct Solver<'a> {
    variant: Variant,
    key: TableKey,
    kind: Counting,
    layout: Layout,
    done: &'a Tablebase,
    values: Vec<u8>,
    remaining: Vec<u8>,
}

/// Solves one table, given every table it leads to.
pub(crate) fn solve(variant: Variant, key: TableKey, done: &Tablebase) -> Table {
    let layout = Layout::new(key.material);
    let len = layout.len() as usize;
    let mut s = Solver {
        variant,
        key,
        kind: counting(variant, key),
        layout,
        done,
        values: vec![DRAW; len],
        remaining: vec![0; len],
    };
    match s.kind {
        Counting::Balance => {
            let all: Vec<(u64, u64)> = vec![(0, layout.len())];
            s.solve_slice(&all);
        }
        Counting::KingsOnly | Counting::None => {
            // Placements with the men furthest on first: a man move leads to one of those.
            let mut order: Vec<u64> = (0..layout.placements)
                .filter(|&p| layout.placement_men(p).is_some())
                .collect();
            order.sort_by_key(|&p| std::cmp::Reverse(layout.advancement(p)));
            for p in order {
                let a = p * layout.per_placement;
                let ranges = [
                    (a, a + layout.per_placement),
                    (
                        layout.per_side + a,
                        layout.per_side + a + layout.per_placement,
                    ),
                ];
                s.solve_slice(&ranges);
            }
        }
    }
    Table {
        key,
        layout,
        values: s.values,
    }
}

impl Solver<'_> {
    /// Whether a move stays inside the part being solved.
    #[inline]
    fn inside(&self, pos: &Position, mv: &MoveKey) -> bool {
        mv.taken == 0
            && !mv.promotes
            && (pos.kings & mv.from != 0 || self.kind == Counting::Balance)
    }

    /// What the side to move of `child` can force, entered by a move that leaves the part
    /// being solved (fresh counters; the 7.2.7 flag as given).
    fn child_value(&self, child: &Position, diagonal: bool) -> Wdl {
        if child.pieces(child.side) == 0 {
            return terminal(self.variant);
        }
        let m = super::Material::of(child);
        let (p, cm) = if m.is_canonical() {
            (*child, m)
        } else {
            (flip(child), m.flipped())
        };
        let diag = diagonal && super::has_diagonal_flag(self.variant, cm);
        let key = TableKey {
            material: cm,
            diagonal: diag,
        };
        let v = if key == self.key {
            self.values[self.layout.index(&p) as usize]
        } else {
            match self.done.table(key) {
                Some(t) => t.values[t.layout.index(&p) as usize],
                // Every table a move leads to is solved first (see `keys_with`).
                None => unreachable!("table {} solved before {}", cm, self.key.material),
            }
        };
        decode(v, fresh_budget(self.variant, child, diag)).0
    }

    fn solve_slice(&mut self, ranges: &[(u64, u64)]) {
        let mut levels: Vec<Vec<u32>> = vec![Vec::new(), Vec::new()];
        let mut moves = KeyList::new();
        for &(a, b) in ranges {
            for i in a..b {
                let Some(pos) = self.layout.position(i) else {
                    continue;
                };
                pos.legal_keys_into(&mut moves);
                if moves.is_empty() {
                    self.values[i as usize] = match terminal(self.variant) {
                        Wdl::Win => win_byte(0),
                        _ => loss_byte(0),
                    };
                    levels[0].push(i as u32);
                    continue;
                }
                let (mut inside, mut escape, mut won) = (0u8, false, false);
                for mv in &moves {
                    if self.inside(&pos, mv) {
                        inside += 1;
                        continue;
                    }
                    let child = pos.play_key(mv);
                    let diagonal = if mv.taken != 0 || mv.promotes {
                        lone_on_diagonal(&child)
                    } else {
                        self.key.diagonal
                    };
                    match self.child_value(&child, diagonal) {
                        Wdl::Loss => {
                            won = true;
                            break;
                        }
                        Wdl::Draw => escape = true,
                        Wdl::Win => {}
                    }
                }
                if won {
                    self.values[i as usize] = win_byte(1);
                    levels[1].push(i as u32);
                } else if inside == 0 && !escape {
                    self.values[i as usize] = loss_byte(1);
                    levels[1].push(i as u32);
                } else {
                    self.remaining[i as usize] = if escape { CANNOT_LOSE } else { inside };
                }
            }
        }
        let mut d = 0;
        let mut preds = Vec::new();
        while d < levels.len() {
            let level = std::mem::take(&mut levels[d]);
            if !level.is_empty() && d as u32 >= MAX_DISTANCE {
                // Beyond every budget a counting rule allows: these stay draws.
                for &i in &level {
                    self.values[i as usize] = DRAW;
                }
                d += 1;
                continue;
            }
            for &i in &level {
                let Some(pos) = self.layout.position(i as u64) else {
                    continue;
                };
                let lost = self.values[i as usize] >= 128;
                preds.clear();
                self.predecessors(&pos, &mut preds);
                for q in &preds {
                    let qi = self.layout.index(q) as usize;
                    if self.values[qi] != DRAW {
                        continue;
                    }
                    if lost {
                        self.values[qi] = win_byte(d as u32 + 1);
                    } else {
                        let r = &mut self.remaining[qi];
                        if *r == CANNOT_LOSE || *r == 0 {
                            continue;
                        }
                        *r -= 1;
                        if *r != 0 {
                            continue;
                        }
                        self.values[qi] = loss_byte(d as u32 + 1);
                    }
                    if levels.len() <= d + 1 {
                        levels.push(Vec::new());
                    }
                    levels[d + 1].push(qi as u32);
                }
            }
            d += 1;
        }
    }

    /// Positions of this part from which the side that just moved reached `pos` by a move
    /// that stays inside it.
    fn predecessors(&self, pos: &Position, out: &mut Vec<Position>) {
        let mover = pos.side.opposite();
        let empty = pos.empty_squares();
        let mine = pos.pieces(mover);
        let mut before = |from: u64, to: u64| {
            let mut q = *pos;
            match mover {
                Color::White => q.white = (mine & !to) | from,
                Color::Black => q.black = (mine & !to) | from,
            }
            if pos.kings & to != 0 {
                q.kings = (q.kings & !to) | from;
            }
            q.side = mover;
            // A capture was due there, so the move was not legal.
            if !q.has_capture() {
                out.push(q);
            }
        };
        for k in Bits(pos.kings(mover)) {
            let to = 1u64 << k;
            for d in DIRS {
                let mut f = shift(to, d) & empty;
                while f != 0 {
                    before(f, to);
                    f = shift(f, d) & empty;
                }
            }
        }
        if self.kind == Counting::Balance {
            let back = match mover {
                Color::White => [-5, -4],
                Color::Black => [4, 5],
            };
            for m in Bits(pos.men(mover)) {
                let to = 1u64 << m;
                for d in back {
                    let f = shift(to, d) & empty;
                    if f != 0 {
                        before(f, to);
                    }
                }
            }
        }
    }
}

/// The result for a side to move that has no move.
fn terminal(variant: Variant) -> Wdl {
    match variant {
        Variant::Russian => Wdl::Loss,
        Variant::Giveaway => Wdl::Win,
    }
}

/// What [`verify`] found.
#[derive(Debug, Default)]
pub struct VerifyReport {
    pub positions: u64,
    /// One line per disagreeing position (at most 20 per table).
    pub errors: Vec<String>,
}

/// Re-derives every stored position from its successors and reports where the stored
/// value differs.
pub fn verify(tb: &Tablebase) -> VerifyReport {
    let next = AtomicUsize::new(0);
    let report = Mutex::new(VerifyReport::default());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(t) = tb.tables().get(i) else { break };
                    let (n, errors) = verify_table(tb, t);
                    if let Ok(mut r) = report.lock() {
                        r.positions += n;
                        r.errors.extend(errors);
                    }
                }
            });
        }
    });
    report.into_inner().unwrap_or_default()
}

fn verify_table(tb: &Tablebase, t: &Table) -> (u64, Vec<String>) {
    let s = Solver {
        variant: tb.variant(),
        key: t.key,
        kind: counting(tb.variant(), t.key),
        layout: t.layout,
        done: tb,
        values: t.values.clone(),
        remaining: Vec::new(),
    };
    let mut moves = KeyList::new();
    let mut errors = Vec::new();
    let mut n = 0;
    for i in 0..t.layout.len() {
        let Some(pos) = t.layout.position(i) else {
            continue;
        };
        n += 1;
        let expected = s.expected(&pos, &mut moves);
        let stored = t.values[i as usize];
        if expected != stored && errors.len() < 20 {
            errors.push(format!(
                "{} {}: stored {} but its moves give {}",
                t.key.file_name(tb.variant()),
                pos.to_fen(),
                byte_text(stored),
                byte_text(expected)
            ));
        }
    }
    (n, errors)
}

fn byte_text(v: u8) -> String {
    match v {
        DRAW => "draw".into(),
        1..=127 => format!("win in {}", v - 1),
        _ => format!("loss in {}", v - 128),
    }
}

impl Solver<'_> {
    /// The value byte a position must hold given its successors' stored values.
    fn expected(&self, pos: &Position, moves: &mut KeyList) -> u8 {
        pos.legal_keys_into(moves);
        if moves.is_empty() {
            return match terminal(self.variant) {
                Wdl::Win => win_byte(0),
                _ => loss_byte(0),
            };
        }
        let mut best_win = u32::MAX;
        let mut longest_loss = 0;
        let mut can_draw = false;
        for mv in moves.iter() {
            let child = pos.play_key(mv);
            if self.inside(pos, mv) {
                let v = self.values[self.layout.index(&child) as usize];
                match v {
                    DRAW => can_draw = true,
                    1..=127 => longest_loss = longest_loss.max(v as u32),
                    _ => best_win = best_win.min(v as u32 - 128 + 1),
                }
            } else {
                let diagonal = if mv.taken != 0 || mv.promotes {
                    lone_on_diagonal(&child)
                } else {
                    self.key.diagonal
                };
                match self.child_value(&child, diagonal) {
                    Wdl::Loss => best_win = 1,
                    Wdl::Draw => can_draw = true,
                    Wdl::Win => longest_loss = longest_loss.max(1),
                }
            }
        }
        if best_win != u32::MAX {
            if best_win >= MAX_DISTANCE {
                DRAW
            } else {
                win_byte(best_win)
            }
        } else if can_draw || longest_loss >= MAX_DISTANCE {
            DRAW
        } else {
            loss_byte(longest_loss)
        }
    }
}
