//! Endgame tablebases that know the FSR counting rules (7.2.4-7.2.8).
//!
//! A table holds, for every position of one material with either side to move, what
//! the side to move can force and how many plies it needs: "win in d" means a win that
//! needs d plies before the next capture or promotion (or before the next man move,
//! where the 15-move count of 7.2.5 binds), "loss in d" the longest defence. Inside those
//! plies every counter advances by one each ply, so the value at any state of the
//! counters follows from one number: with `L` plies left before a counting rule draws
//! (the smallest of the running countdowns) the side to move wins when d <= L, loses
//! when its loss needs d <= L, and otherwise the game is a draw. See README.md,
//! "Endgame tablebases", for the rules each material uses and what is approximated.

pub mod endings;
mod file;
mod generate;
pub mod index;

pub use file::{FORMAT_VERSION, TableFileError};
pub use generate::{BuildProgress, VerifyReport, build, verify};
pub use index::{Layout, Material};

use crate::rules::game::{countdowns, lone_king_ending};
use crate::rules::{Color, Counters, DrawRule, Game, Position, Variant};
use index::flip;
use std::path::Path;

/// Value byte of a drawn entry (or of a number that names no position).
pub const DRAW: u8 = 0;

#[inline(always)]
pub(crate) const fn win_byte(d: u32) -> u8 {
    1 + d as u8
}

#[inline(always)]
pub(crate) const fn loss_byte(d: u32) -> u8 {
    128 + d as u8
}

/// Longest distance an entry can hold.
pub(crate) const MAX_DISTANCE: u32 = 126;

/// Plies left when no counting rule runs.
pub const NO_LIMIT: u32 = u32::MAX;

/// What the side to move can force.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Wdl {
    Win,
    Draw,
    Loss,
}

/// A table's answer for one position and state of the counters.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Probe {
    pub wdl: Wdl,
    /// Plies to the next capture, promotion or man move that keeps the result (0 for a draw).
    pub plies: u32,
    /// The counting rule that draws the game or limits the win (the one closest to its end).
    pub rule: Option<DrawRule>,
    /// Plies left before that rule draws the game.
    pub plies_left: u32,
}

/// Reads a value byte with `budget` plies left before a counting rule draws.
#[inline(always)]
pub fn decode(v: u8, budget: u32) -> (Wdl, u32) {
    if v == DRAW {
        (Wdl::Draw, 0)
    } else if v < 128 {
        let d = (v - 1) as u32;
        if d <= budget {
            (Wdl::Win, d)
        } else {
            (Wdl::Draw, 0)
        }
    } else {
        let d = (v - 128) as u32;
        if d <= budget {
            (Wdl::Loss, d)
        } else {
            (Wdl::Draw, 0)
        }
    }
}

/// One table: a material (canonical) and, where 7.2.7 can apply, whether the lone king
/// stood on the long diagonal when the balance arose.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct TableKey {
    pub material: Material,
    pub diagonal: bool,
}

impl TableKey {
    /// File name of the table.
    pub fn file_name(&self, variant: Variant) -> String {
        format!(
            "{}-{}{}.shtb",
            variant.name(),
            self.material,
            if self.diagonal { "-diag" } else { "" }
        )
    }
}

/// Whether the 7.2.7 flag splits a material in two tables: Russian, three pieces with a
/// king against a lone king.
pub fn has_diagonal_flag(variant: Variant, m: Material) -> bool {
    variant == Variant::Russian
        && [(m, false), (m.flipped(), true)].iter().any(|(m, _)| {
            m.black_men == 0
                && m.black_kings == 1
                && m.white_kings >= 1
                && m.white_men + m.white_kings == 3
        })
}

/// Which counter a table's moves advance without leaving it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Counting {
    /// A balance rule binds (7.2.4, 7.2.7, 7.2.8): man moves do not reset it, so a table
    /// is solved whole, man moves inside it.
    Balance,
    /// 7.2.5 binds: a man move resets it, so each placement of the men is solved alone.
    KingsOnly,
    /// No counting rule: one side has no king.
    None,
}

pub(crate) fn counting(variant: Variant, key: TableKey) -> Counting {
    let m = key.material;
    for (sm, sk, wm, wk) in [
        (m.white_men, m.white_kings, m.black_men, m.black_kings),
        (m.black_men, m.black_kings, m.white_men, m.white_kings),
    ] {
        if wm == 0 && wk == 1 && sk >= 1 {
            let strong = sm + sk;
            let balance = match variant {
                Variant::Russian => {
                    strong <= 2 || (strong == 3 && key.diagonal) || (sm == 0 && sk >= 3)
                }
                Variant::Giveaway => sm == 0 && sk >= 3,
            };
            if balance {
                return Counting::Balance;
            }
        }
    }
    if m.white_kings > 0 && m.black_kings > 0 {
        Counting::KingsOnly
    } else {
        Counting::None
    }
}

/// Plies left before 7.2.5 draws and before a balance rule draws, for these counters.
pub fn budgets(variant: Variant, pos: &Position, c: &Counters) -> (u32, u32) {
    let mut kings_only = NO_LIMIT;
    let mut balance = NO_LIMIT;
    for cd in countdowns(variant, pos, c) {
        if cd.rule == DrawRule::KingsOnly {
            kings_only = cd.plies_left;
        } else {
            balance = balance.min(cd.plies_left);
        }
    }
    (kings_only, balance)
}

/// Plies left in a position where the balance has just arisen, with the 7.2.7 flag given.
pub(crate) fn fresh_budget(variant: Variant, pos: &Position, diagonal: bool) -> u32 {
    let c = Counters {
        lone_king_on_long_diagonal: diagonal,
        ..Counters::fresh(pos)
    };
    let (k, b) = budgets(variant, pos, &c);
    k.min(b)
}

/// Code of a material in the lookup array (each count below 8).
fn slot_of(m: Material, diagonal: bool) -> Option<usize> {
    let parts = [m.white_men, m.white_kings, m.black_men, m.black_kings];
    if parts.iter().any(|&p| p >= 8) {
        return None;
    }
    let code = parts.iter().fold(0usize, |c, &p| c * 8 + p as usize);
    Some(code * 2 + diagonal as usize)
}

/// A solved table in memory.
pub struct Table {
    pub key: TableKey,
    pub layout: Layout,
    pub values: Vec<u8>,
}

/// Every table of one variant up to some number of pieces.
pub struct Tablebase {
    variant: Variant,
    max_pieces: u32,
    tables: Vec<Table>,
    slots: Vec<u32>,
}

/// Every table key of a variant with exactly `pieces` pieces, in the order they are solved
/// (fewer men first: a promotion leads to a table with one man fewer).
pub fn keys_with(variant: Variant, pieces: u32) -> Vec<TableKey> {
    let mut keys = Vec::new();
    for m in Material::all_with(pieces) {
        keys.push(TableKey {
            material: m,
            diagonal: false,
        });
        if has_diagonal_flag(variant, m) {
            keys.push(TableKey {
                material: m,
                diagonal: true,
            });
        }
    }
    keys.sort_by_key(|k| (k.material.men(), k.material, k.diagonal));
    keys
}

impl Tablebase {
    pub(crate) fn empty(variant: Variant) -> Tablebase {
        Tablebase {
            variant,
            max_pieces: 1,
            tables: Vec::new(),
            slots: vec![0; 8 * 8 * 8 * 8 * 2],
        }
    }

    pub(crate) fn insert(&mut self, table: Table) {
        if let Some(s) = slot_of(table.key.material, table.key.diagonal) {
            self.tables.push(table);
            self.slots[s] = self.tables.len() as u32;
        }
        // The largest number of pieces whose tables are all here.
        let mut n = 1;
        while n < 7
            && keys_with(self.variant, n + 1)
                .iter()
                .all(|k| self.table(*k).is_some())
        {
            n += 1;
        }
        self.max_pieces = n;
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Every position with at most this many pieces is in the tables.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    pub fn tables(&self) -> &[Table] {
        &self.tables
    }

    pub fn table(&self, key: TableKey) -> Option<&Table> {
        let s = slot_of(key.material, key.diagonal)?;
        match self.slots[s] {
            0 => None,
            i => self.tables.get(i as usize - 1),
        }
    }

    /// Total entries held.
    pub fn entries(&self) -> u64 {
        self.tables.iter().map(|t| t.values.len() as u64).sum()
    }

    /// The stored byte of a position (`diagonal`: the 7.2.7 flag of its balance), or
    /// `None` when its material has no table here.
    #[inline]
    pub fn raw(&self, pos: &Position, diagonal: bool) -> Option<u8> {
        let m = Material::of(pos);
        let (p, m) = if m.is_canonical() {
            (*pos, m)
        } else {
            (flip(pos), m.flipped())
        };
        let diagonal = diagonal && has_diagonal_flag(self.variant, m);
        let t = self.table(TableKey {
            material: m,
            diagonal,
        })?;
        t.values.get(t.layout.index(&p) as usize).copied()
    }

    /// The value of a position with these counters (`None` when no table holds it).
    pub fn probe(&self, pos: &Position, counters: &Counters) -> Option<Probe> {
        let own = pos.pieces(pos.side_to_move());
        if own == 0 || pos.pieces(pos.side_to_move().opposite()) == 0 {
            return None;
        }
        let v = self.raw(pos, counters.lone_king_on_long_diagonal)?;
        let cds = countdowns(self.variant, pos, counters);
        let binding = cds.iter().min_by_key(|c| c.plies_left);
        let budget = binding.map_or(NO_LIMIT, |c| c.plies_left);
        let (wdl, plies) = decode(v, budget);
        Some(Probe {
            wdl,
            plies,
            rule: binding.map(|c| c.rule),
            plies_left: budget,
        })
    }

    /// The tables' move in a game's position that they hold and call won or lost: the
    /// quickest win (a move that converts now, a capture, promotion or man move leading to
    /// a won table, counts one ply; a move inside the table one more than its child's
    /// distance), or the longest defence. `None` for a drawn position (any drawing move
    /// will do, and the search chooses among them) or one the tables do not hold.
    pub fn best_move(&self, game: &Game) -> Option<(crate::rules::Move, Wdl, u32)> {
        let root = self.probe_game(game)?;
        if root.wdl == Wdl::Draw {
            return None;
        }
        let pos = game.position();
        let m = Material::of(pos);
        let key = TableKey {
            material: m.canonical(),
            diagonal: game.counters().lone_king_on_long_diagonal
                && has_diagonal_flag(self.variant, m.canonical()),
        };
        let kind = counting(self.variant, key);
        let mover = game.side_to_move();
        let mut best: Option<(i64, crate::rules::Move, Wdl, u32)> = None;
        for mv in game.legal_moves() {
            let mut after = game.clone();
            if after.play(&mv).is_err() {
                continue;
            }
            let man = pos.men(mover) & mv.from().mask() != 0;
            // A move that stays inside the position's table (see `generate`).
            let inside = !mv.is_capture() && !mv.promotes() && (!man || kind == Counting::Balance);
            let (wdl, d) = match after.outcome() {
                Some(o) if o.winner() == Some(mover) => (Wdl::Win, 1),
                Some(o) if o.winner().is_some() => (Wdl::Loss, 1),
                Some(_) => (Wdl::Draw, 0),
                None => match self.probe_game(&after) {
                    Some(p) => {
                        let d = if inside { p.plies + 1 } else { 1 };
                        match p.wdl {
                            Wdl::Loss => (Wdl::Win, d),
                            Wdl::Win => (Wdl::Loss, d),
                            Wdl::Draw => (Wdl::Draw, 0),
                        }
                    }
                    None => continue,
                },
            };
            // Higher is better for the mover.
            let rank = match wdl {
                Wdl::Win => 1_000 - d as i64,
                Wdl::Draw => 0,
                Wdl::Loss => -1_000 + d as i64,
            };
            if best.as_ref().is_none_or(|b| rank > b.0) {
                best = Some((rank, mv, wdl, d));
            }
        }
        best.map(|(_, mv, wdl, d)| (mv, wdl, d))
    }

    /// The value of a game's current position.
    pub fn probe_game(&self, game: &Game) -> Option<Probe> {
        if game.variant() != self.variant || game.outcome().is_some() {
            return None;
        }
        self.probe(game.position(), &game.counters())
    }

    /// Reads every table file of this variant in `dir` up to `max_pieces` pieces. Tables
    /// whose file is missing or damaged are left out (with the reason in the list).
    pub fn load(variant: Variant, dir: &Path, max_pieces: u32) -> (Tablebase, Vec<String>) {
        let mut tb = Tablebase::empty(variant);
        let mut problems = Vec::new();
        for n in 2..=max_pieces.min(7) {
            for key in keys_with(variant, n) {
                let path = dir.join(key.file_name(variant));
                match file::read(&path, variant, key) {
                    Ok(t) => tb.insert(t),
                    Err(e) => problems.push(format!("{}: {e}", path.display())),
                }
            }
        }
        (tb, problems)
    }
}

/// Which side is the stronger in a lone-king ending (for texts).
pub fn stronger_side(pos: &Position) -> Option<Color> {
    lone_king_ending(pos).map(|(s, _, _)| s)
}

/// The tables the engines of this process use: read from one folder, each variant on
/// its first use, and replaced when a build finishes.
struct Installed {
    dir: Option<std::path::PathBuf>,
    /// Each variant's tables once read (`None` inside: the folder has none).
    loaded: Vec<(Variant, Option<std::sync::Arc<Tablebase>>)>,
    /// Variants being read now: a search meanwhile goes on without tables.
    loading: Vec<Variant>,
    /// Variants whose reading [`request`] has started since the last [`reload`].
    requested: Vec<Variant>,
}

static INSTALLED: std::sync::Mutex<Installed> = std::sync::Mutex::new(Installed {
    dir: None,
    loaded: Vec::new(),
    loading: Vec::new(),
    requested: Vec::new(),
});

/// Names the folder whose tables every engine of this process uses (read on first use).
pub fn use_dir(dir: &Path) {
    if let Ok(mut i) = INSTALLED.lock() {
        i.dir = Some(dir.to_path_buf());
        i.loaded.clear();
    }
}

/// Forgets what was read, so that the next use reads the folder again (after a build).
pub fn reload() {
    if let Ok(mut i) = INSTALLED.lock() {
        i.loaded.clear();
        i.requested.clear();
    }
}

/// The tables of a variant in the folder named by [`use_dir`], or `None` when there are
/// none, no folder was named, or another thread is reading them right now. The first
/// call reads the files (a fraction of a second for five pieces); see [`preload`].
pub fn installed(variant: Variant) -> Option<std::sync::Arc<Tablebase>> {
    let dir = {
        let mut i = INSTALLED.lock().ok()?;
        if let Some((_, t)) = i.loaded.iter().find(|(v, _)| *v == variant) {
            return t.clone();
        }
        if i.loading.contains(&variant) {
            return None;
        }
        let dir = i.dir.clone()?;
        i.loading.push(variant);
        dir
    };
    let (tb, _) = Tablebase::load(variant, &dir, 7);
    let t = (tb.max_pieces() >= 2).then(|| std::sync::Arc::new(tb));
    if let Ok(mut i) = INSTALLED.lock() {
        i.loading.retain(|v| *v != variant);
        i.loaded.retain(|(v, _)| *v != variant);
        i.loaded.push((variant, t.clone()));
    }
    t
}

/// Reads the installed tables of these variants on a background thread, so that no
/// search waits for them.
pub fn preload(variants: &[Variant]) {
    let variants = variants.to_vec();
    let _ = std::thread::Builder::new()
        .name("tablebase-load".into())
        .spawn(move || {
            for v in variants {
                installed(v);
            }
        });
}

/// The size of table an engine solves for itself when its folder holds fewer pieces,
/// written into the folder so that later starts read them. Russian: up to 4 pieces (26
/// tables, 3.1 s of one core, 3.2 MB; five pieces measured nothing in play). поддавки:
/// up to 5 (45 tables, about two minutes of one core, 61 MB), first 4 and then 5, each
/// size used as soon as it is solved.
pub fn solved_by_engine(variant: Variant) -> u32 {
    match variant {
        Variant::Russian => 4,
        Variant::Giveaway => 5,
    }
}

/// As [`preload`], and then, for a variant whose folder holds tables of fewer than
/// [`solved_by_engine`] pieces, solves the missing sizes on the same thread at low
/// priority, smallest first, writes them into the folder (or keeps them in memory when
/// it cannot be written) and makes the engines use each size once it is complete. For
/// `shashki engine` and `hub`: an engine installed without the game's tables still knows
/// the small endings under the counting rules.
pub fn preload_or_solve(variants: &[Variant]) {
    let variants = variants.to_vec();
    let _ = std::thread::Builder::new()
        .name("tablebase-solve".into())
        .spawn(move || {
            let mut lowered = false;
            for v in variants {
                let held = read_waiting(v).map_or(0, |t| t.max_pieces());
                for pieces in (held + 1).max(SOLVED_FIRST)..=solved_by_engine(v) {
                    let Some(dir) = INSTALLED.lock().ok().and_then(|i| i.dir.clone()) else {
                        return;
                    };
                    if !lowered {
                        lower_priority();
                        lowered = true;
                    }
                    let stop = std::sync::atomic::AtomicBool::new(false);
                    let tb = build(v, pieces, 1, Some(&dir), &stop, &mut |_| {})
                        .or_else(|_| build(v, pieces, 1, None, &stop, &mut |_| {}));
                    let Ok(tb) = tb else {
                        break;
                    };
                    let Ok(mut i) = INSTALLED.lock() else {
                        return;
                    };
                    if i.dir.as_deref() != Some(dir.as_path()) {
                        return;
                    }
                    i.loaded.retain(|(w, _)| *w != v);
                    i.loaded.push((v, Some(std::sync::Arc::new(tb))));
                }
            }
        });
}

/// As [`installed`], but when another thread is reading the variant's tables, waits for
/// it rather than answering `None`.
fn read_waiting(variant: Variant) -> Option<std::sync::Arc<Tablebase>> {
    loop {
        let busy = INSTALLED
            .lock()
            .map(|i| i.loading.contains(&variant))
            .unwrap_or(false);
        if !busy {
            return installed(variant);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The smallest size an engine solves for itself: every ending of up to 4 pieces, in a
/// few seconds.
const SOLVED_FIRST: u32 = 4;

/// Lowers the calling thread's priority (nice 10), so that a search of the same process
/// keeps its core. Linux only, where the nice value is per thread.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its arguments; `who == 0` is the calling thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// The tables of a variant if they have been read already (never reads nor waits: for a
/// caller that must not stall, such as a frame being drawn).
pub fn ready(variant: Variant) -> Option<std::sync::Arc<Tablebase>> {
    let i = INSTALLED.try_lock().ok()?;
    i.loaded
        .iter()
        .find(|(v, _)| *v == variant)
        .and_then(|(_, t)| t.clone())
}

/// Starts reading a variant's tables in the background unless they are read, being
/// read, or already asked for since the last [`reload`] (cheap enough for every frame).
pub fn request(variant: Variant) {
    let Ok(mut i) = INSTALLED.try_lock() else {
        return;
    };
    if i.dir.is_none()
        || i.requested.contains(&variant)
        || i.loading.contains(&variant)
        || i.loaded.iter().any(|(v, _)| *v == variant)
    {
        return;
    }
    i.requested.push(variant);
    drop(i);
    preload(&[variant]);
}
