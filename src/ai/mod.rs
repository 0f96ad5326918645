//! The computer opponent: search, evaluation and levels.
//!
//! Pure Rust on top of [`crate::rules`]. A front-end keeps one [`Ai`] per computer
//! player, runs [`Ai::choose_move`] or [`Ai::search`] on a worker thread, and may abort
//! a search at any moment through the stop flag; the search then returns at once with
//! the best move found so far. Scores are in centi-men (100 = a man); a won game scores
//! near ±30000.

pub mod analysis;
pub mod book;
mod eval;
pub mod hub;
mod level;
pub mod net;
pub mod pattern;
pub mod protocol;
pub mod puzzle;
mod search;
pub(crate) mod shared;
pub mod tablebase;
pub mod time;
pub mod train;
mod tt;
mod zobrist;

pub use eval::{EvalKind, Weights};
pub use level::Level;
pub use search::{TB_WIN, WIN};
pub use time::{Clock, TimeControl, TimePlan};

/// Whether a score comes from the endgame tables (a won or lost ending, not yet a win the
/// search has seen to the end).
pub fn is_tablebase_score(score: i32) -> bool {
    (TB_WIN - 300..=TB_WIN).contains(&score.abs())
}

use crate::rules::{Color, DrawRule, Game, Move, Variant};
use search::{History, Params, Searcher};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tablebase::Tablebase;

/// How long a search may run. Unset fields do not limit; with none set the search
/// stops at depth 64 (effectively: until stopped).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Hard deadline: the search returns within this plus a few milliseconds.
    pub time: Option<Duration>,
    /// The player's clock: the search takes its share of the remaining time
    /// ([`time::Clock::plan`]), within `time` when that is set too.
    pub clock: Option<Clock>,
}

/// What a search found. `score` is from the side to move's view, in centi-men (100 = a man).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the game is over (no legal move).
    pub best: Option<Move>,
    pub score: i32,
    /// Last completed iteration (0 when the move was forced or the search was cut at once;
    /// the score is then 0 too).
    pub depth: u32,
    pub nodes: u64,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Move>,
}

/// A root move and its score from [`Ai::search_root_moves`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootScore {
    pub mv: Move,
    pub score: i32,
    /// False when `score` is only an upper bound (the move is worse than the spread).
    pub exact: bool,
}

/// Transposition table size of a playing engine: 2^22 entries of 16 bytes (64 MiB). A
/// search of 100 ms fills a quarter of 16 MiB, and there both sizes play alike; a search
/// of a second overflows 16 MiB, and there 64 MiB measured stronger (README, Strength
/// history).
const TT_LOG2: u32 = 22;

/// [`TT_LOG2`] in MiB, as the protocols report it.
pub const DEFAULT_TABLE_MIB: usize = 16 << (TT_LOG2 - 20);

/// The 16 MiB table of the tools whose output must stay as it was before the default
/// grew: `bench` (its node count is the signature), `selfplay` and `book build` (the same
/// command makes the same file); each clears its table often, which a small one makes cheap.
pub const TOOL_TABLE_LOG2: u32 = 20;

/// The search engine. It owns its transposition table, so keep one per computer player.
///
/// With more than one thread ([`Ai::set_threads`]) the search is a lazy SMP: helper
/// threads run the same iterative deepening on the shared table (every other helper one
/// ply deeper); the answer is the main thread's result, or a helper's when it completed a
/// deeper iteration. A thread that reaches a move whose position another thread is
/// searching defers it behind the node's other moves (as in ABDADA), so that the threads
/// spread over the tree instead of searching the same nodes. With one thread (the default)
/// a search limited by depth or nodes is deterministic.
pub struct Ai {
    searcher: Searcher,
    helpers: Vec<Searcher>,
    eval: EvalKind,
    weights: Weights,
    tablebases: TablebaseSource,
    /// Plays from the opening book ([`book`]) where [`Ai::book_move`] is asked.
    book: bool,
    /// What a draw costs the side to move at the root (see [`Ai::set_contempt`]).
    contempt: i32,
}

/// Which endgame tables a search probes.
#[derive(Clone)]
pub enum TablebaseSource {
    /// Those installed for the whole process ([`tablebase::installed`]), the default.
    Installed,
    Off,
    /// These, for games of their variant.
    Own(Arc<Tablebase>),
}

/// Stack size of helper search threads: each ply keeps a move list on the stack.
const HELPER_STACK: usize = 32 << 20;

impl Default for Ai {
    fn default() -> Self {
        Ai::new()
    }
}

impl Ai {
    pub fn new() -> Ai {
        Ai::with_table(TT_LOG2)
    }

    /// An engine with a table of `2^log2` entries (small ones for quick evaluations).
    pub fn with_table(log2: u32) -> Ai {
        Ai {
            searcher: Searcher::new(log2.clamp(4, 28)),
            helpers: Vec::new(),
            eval: EvalKind::Auto,
            weights: Weights::default(),
            tablebases: TablebaseSource::Installed,
            book: true,
            contempt: 0,
        }
    }

    /// Scores a draw `centi_men` below equal for the side the engine searches for (and as
    /// much above for its opponent), so that it plays on in level positions instead of
    /// steering into a draw; 0 (the default) scores a draw 0, as analysis must. Clamped
    /// to 0-100.
    pub fn set_contempt(&mut self, centi_men: i32) {
        self.contempt = centi_men.clamp(0, 100);
    }

    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    /// Switches the opening book on or off (on by default).
    pub fn set_book(&mut self, on: bool) {
        self.book = on;
    }

    /// The book's move for the game's position, chosen by `seed` among the moves within
    /// [`book::MARGIN`] of the best, with its value (centi-men, the mover's view); `None`
    /// when the book is off or does not hold the position. The engine protocols and the
    /// top level play it instead of searching; analysis never does.
    pub fn book_move(&self, game: &Game, seed: u64) -> Option<book::BookMove> {
        if !self.book || game.outcome().is_some() {
            return None;
        }
        let found = book::embedded(game.variant()).choose(game.position(), seed)?;
        // The book's move is legal in its position; the game's own list decides.
        game.legal_moves().contains(&found.mv).then_some(found)
    }

    /// Which endgame tables the search probes (those installed for the process by default).
    pub fn set_tablebases(&mut self, source: TablebaseSource) {
        self.tablebases = source;
    }

    /// Switches the endgame tables installed for the process on or off.
    pub fn set_use_tablebases(&mut self, on: bool) {
        self.tablebases = if on {
            TablebaseSource::Installed
        } else {
            TablebaseSource::Off
        };
    }

    /// The tables a search of this variant probes.
    pub fn tablebase(&self, variant: Variant) -> Option<Arc<Tablebase>> {
        match &self.tablebases {
            // Never read here: a search must not wait for the files (a second or more for
            // five pieces). Until they are read in the background it goes on without them.
            TablebaseSource::Installed => tablebase::ready(variant).or_else(|| {
                tablebase::request(variant);
                None
            }),
            TablebaseSource::Off => None,
            TablebaseSource::Own(t) => (t.variant() == variant).then(|| Arc::clone(t)),
        }
    }

    /// Searches with `n` threads (at least 1) from the next search on.
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, 256);
        self.helpers.truncate(n - 1);
        while self.helpers.len() < n - 1 {
            self.helpers
                .push(Searcher::with_tt(Arc::clone(self.searcher.tt())));
        }
    }

    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// A new, empty transposition table of about `mib` MiB (rounded down to a power of
    /// two entries of 16 bytes, 1 MiB to 4 GiB).
    pub fn set_table_mib(&mut self, mib: usize) {
        let entries = (mib.max(1) << 20) / 16;
        let log2 = (usize::BITS - 1 - entries.leading_zeros()).clamp(4, 28);
        let threads = self.threads();
        self.searcher = Searcher::new(log2);
        self.helpers.clear();
        self.set_threads(threads);
    }

    /// Size of the transposition table in MiB.
    pub fn table_mib(&self) -> usize {
        (self.searcher.tt().len() * 16) >> 20
    }

    /// Uses another evaluation or other weights (for matches that compare them).
    pub fn set_eval(&mut self, kind: EvalKind, weights: Weights) {
        self.eval = kind;
        self.weights = weights;
    }

    /// Forgets everything learnt (transposition table, move-ordering statistics), so that
    /// the next search behaves exactly like the first one of a new engine.
    pub fn clear(&mut self) {
        self.searcher.clear(true);
        for h in &mut self.helpers {
            h.clear(false);
        }
    }

    /// Searches the game's current position within `limits`.
    pub fn search(&mut self, game: &Game, limits: &Limits, stop: &AtomicBool) -> SearchResult {
        self.search_with_info(game, limits, stop, &mut |_| {})
    }

    /// Searches and calls `on_info` after each completed iteration.
    pub fn search_with_info(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let weights = self.weights.clone();
        let tb = self.tablebase(game.variant());
        let params = self.params(game, limits, &weights, tb.as_deref(), 0, 0);
        self.run(game, &params, stop, on_info).0
    }

    /// Searches and scores every root move: exactly for the moves within `spread`
    /// centi-men of the best, as an upper bound below that for the others (`exact`
    /// false). Moves come best first.
    pub fn search_root_moves(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        spread: i32,
    ) -> (SearchResult, Vec<RootScore>) {
        let weights = self.weights.clone();
        let tb = self.tablebase(game.variant());
        // Puzzles and the book need every root move's score exact: no speculative cut.
        let params = Params {
            verify: false,
            ..self.params(game, limits, &weights, tb.as_deref(), 0, spread.max(0))
        };
        let (result, root) = self.run(game, &params, stop, &mut |_| {});
        let scores = root
            .iter()
            .map(|r| RootScore {
                mv: r.mv,
                score: r.score,
                exact: r.exact,
            })
            .collect();
        (result, scores)
    }

    fn params<'a>(
        &self,
        game: &Game,
        limits: &Limits,
        weights: &'a Weights,
        tablebase: Option<&'a Tablebase>,
        min_depth: u32,
        spread: i32,
    ) -> Params<'a> {
        let start = Instant::now();
        let plan = limits.clock.map(|c| c.plan(start));
        let fixed = limits.time.map(|t| start + t);
        let deadline = match (fixed, plan) {
            (Some(f), Some(p)) => Some(f.min(p.hard())),
            (f, p) => f.or(p.map(|p| p.hard())),
        };
        Params {
            variant: game.variant(),
            eval: self.eval,
            weights,
            max_depth: limits.depth.unwrap_or(64),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            min_depth,
            deadline,
            // Iterations go on until the deadline: an unfinished one still answers with
            // its best move when its first move was searched to the new depth. Under a
            // clock no iteration starts once about half the move's share is spent.
            soft_deadline: match plan {
                Some(p) => Some(deadline.map_or(p.soft(1.0), |d| d.min(p.soft(1.0)))),
                None => fixed,
            },
            plan,
            spread,
            helper: 0,
            parallel: !self.helpers.is_empty(),
            tablebase: tablebase.filter(|t| t.variant() == game.variant()),
            contempt: self.contempt,
            verify: true,
        }
    }

    fn run(
        &mut self,
        game: &Game,
        params: &Params,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchResult),
    ) -> (SearchResult, Vec<search::RootMove>) {
        if game.outcome().is_some() {
            return (SearchResult::default(), Vec::new());
        }
        // A won or lost position the tables hold: their move, the quickest conversion.
        if let Some(tb) = params.tablebase
            && let Some((mv, wdl, d)) = tb.best_move(game)
        {
            let s = TB_WIN - d as i32;
            let score = if wdl == tablebase::Wdl::Win { s } else { -s };
            let result = SearchResult {
                best: Some(mv),
                score,
                depth: 1,
                nodes: 1,
                pv: vec![mv],
            };
            on_info(&result);
            let root = vec![search::RootMove {
                mv,
                score,
                exact: true,
            }];
            return (result, root);
        }
        let history = game_history(game);
        let pos = game.position();
        let done = AtomicBool::new(false);
        let (searcher, helpers) = (&mut self.searcher, &mut self.helpers);
        let out = std::thread::scope(|scope| {
            let mut running = Vec::new();
            for (i, h) in helpers.iter_mut().enumerate() {
                let hp = Params {
                    helper: i + 1,
                    node_limit: u64::MAX,
                    ..params.clone()
                };
                let (history, done) = (&history, &done);
                let spawned = std::thread::Builder::new()
                    .stack_size(HELPER_STACK)
                    // A new thread inherits the caller's priority (the game lowers it).
                    .spawn_scoped(scope, move || {
                        h.run(pos, history, &hp, [stop, done], &mut |_| {})
                    });
                // A helper that cannot start only costs speed.
                if let Ok(handle) = spawned {
                    running.push(handle);
                }
            }
            let mut out = searcher.run(pos, &history, params, [stop, stop], &mut |o| {
                on_info(&result_of(o))
            });
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            // A helper that completed a deeper iteration than the main thread answers.
            let mut nodes = out.nodes;
            for handle in running {
                let Ok(h) = handle.join() else { continue };
                nodes += h.nodes;
                if h.depth > out.depth && !h.root.is_empty() {
                    out = h;
                }
            }
            out.nodes = nodes;
            out
        });
        (result_of(&out), out.root)
    }

    /// The level's move: the best one at the top level, a seeded, score-weighted choice
    /// among near-best moves below it. `None` only when the game is over.
    pub fn choose_move(
        &mut self,
        game: &Game,
        level: Level,
        seed: u64,
        stop: &AtomicBool,
    ) -> Option<Move> {
        self.choose_move_on_clock(game, level, None, seed, stop)
    }

    /// [`Ai::choose_move`] under a game clock: the level's node budget and time cap still
    /// hold, and the clock's share of the remaining time limits the search further.
    pub fn choose_move_on_clock(
        &mut self,
        game: &Game,
        level: Level,
        clock: Option<Clock>,
        seed: u64,
        stop: &AtomicBool,
    ) -> Option<Move> {
        if let Some(mv) = named_opening_move(game, level, seed) {
            return Some(mv);
        }
        if level.number() >= 10
            && let Some(found) = self.book_move(game, seed)
        {
            return Some(found.mv);
        }
        let style = level.style();
        let mut weights = self.weights.clone();
        weights.simple |= style.simple_eval;
        let limits = Limits {
            clock,
            ..level.limits()
        };
        let tb = self.tablebase(game.variant()).filter(|_| style.tablebases);
        let params = self.params(
            game,
            &limits,
            &weights,
            tb.as_deref(),
            style.min_depth,
            style.margin,
        );
        let (result, root) = self.run(game, &params, stop, &mut |_| {});
        if style.margin == 0 || root.len() < 2 {
            return result.best;
        }
        let key = zobrist::hash(game.position(), game.variant());
        let mut rng = shared::Rng::new(seed ^ key ^ (game.ply() as u64).rotate_left(32));
        level::pick(&root, &style, &mut rng)
            .map(|i| root[i].mv)
            .or(result.best)
    }
}

/// Below the top level, a Russian game from the start position that is still on a line
/// of the named openings goes on along one of them: a seeded choice weighted by the
/// table, so that two games at one level do not start alike.
fn named_opening_move(game: &Game, level: Level, seed: u64) -> Option<Move> {
    if level.number() >= 10 {
        return None;
    }
    let choices = crate::rules::openings::book().continuations(game);
    let total: u32 = choices.iter().map(|(_, w)| w).sum();
    if total == 0 {
        return None;
    }
    let key = zobrist::hash(game.position(), game.variant());
    let mut rng = shared::Rng::new(seed ^ key ^ 0x6f70_656e_696e_6773);
    let mut pick = (rng.next_f64() * total as f64) as u32;
    for (mv, w) in choices {
        if pick < w {
            return Some(mv);
        }
        pick -= w;
    }
    None
}

/// The number of search threads a front-end uses by default: every core but one (at
/// least one thread), so that the rest of the program keeps a core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .saturating_sub(1)
        .max(1)
}

fn result_of(o: &search::Outcome) -> SearchResult {
    let best = o.root.first().map(|r| r.mv);
    let mut pv = o.pv.clone();
    if pv.first() != best.as_ref() {
        pv = best.into_iter().collect();
    }
    SearchResult {
        best,
        score: o.score,
        depth: o.depth,
        nodes: o.nodes,
        pv,
    }
}

/// Keys and reversible-move counts of the game so far, and the running draw counts.
fn game_history(game: &Game) -> History {
    let variant = game.variant();
    let mut h = History {
        kings_only_in: u32::MAX,
        balance_in: u32::MAX,
        lone_on_diagonal: game.counters().lone_king_on_long_diagonal,
        ..History::default()
    };
    let mut prev = None;
    for ply in 0..=game.ply() {
        let Some(pos) = game.position_at(ply) else {
            break;
        };
        let reversible = match prev {
            Some(p) => {
                let p: &crate::rules::Position = p;
                let mover = p.side_to_move();
                if p.men(mover) == pos.men(mover) && p.piece_count() == pos.piece_count() {
                    h.reversible.last().copied().unwrap_or(0) + 1
                } else {
                    0
                }
            }
            None => 0,
        };
        h.keys.push(zobrist::hash(pos, variant));
        h.reversible.push(reversible);
        prev = Some(pos);
    }
    for c in game.draw_countdowns() {
        match c.rule {
            DrawRule::KingsOnly => h.kings_only_in = h.kings_only_in.min(c.plies_left),
            _ => h.balance_in = h.balance_in.min(c.plies_left),
        }
    }
    h
}

/// Static-plus-short-search evaluation of the game for the eval bar / draw offers:
/// centi-men from White's view (about ±30000 for a decided game).
pub fn evaluate_white(game: &Game) -> i32 {
    if let Some(outcome) = game.outcome() {
        return match outcome.winner() {
            Some(Color::White) => WIN,
            Some(Color::Black) => -WIN,
            None => 0,
        };
    }
    // A forced move is answered without a search; play forced moves out so that the
    // bar shows what they lead to.
    let mut game = game.clone();
    for _ in 0..24 {
        let moves = game.legal_moves();
        if moves.len() != 1 || game.play(&moves[0]).is_err() {
            break;
        }
    }
    if game.outcome().is_some() {
        return evaluate_white(&game);
    }
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(8),
        nodes: Some(30_000),
        time: Some(Duration::from_millis(300)),
        clock: None,
    };
    let r = Ai::with_table(14).search(&game, &limits, &stop);
    match game.side_to_move() {
        Color::White => r.score,
        Color::Black => -r.score,
    }
}

/// Plies of the opening in which the computer, like a human opponent, declines a draw
/// while the material is level: the game has hardly begun.
const OPENING_PLIES: usize = 20;

/// Whether the AI playing `ai` accepts a draw offer: never in the first 10 moves with the
/// material level, otherwise when its evaluation says equal or worse for it.
pub fn accepts_draw(game: &Game, ai: Color) -> bool {
    let pos = game.position();
    let level = |c: Color| (pos.men(c).count_ones(), pos.kings(c).count_ones());
    if game.ply() < OPENING_PLIES && level(Color::White) == level(Color::Black) {
        return false;
    }
    let white = evaluate_white(game);
    let mine = if ai == Color::White { white } else { -white };
    // A tenth of a man either way is equal.
    mine <= 10
}
