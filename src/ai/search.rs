//! Iterative deepening PVS over copy-made positions, with a transposition table,
//! killer and history move ordering, late-move reductions (logarithmic in depth and
//! move number), futility pruning near the horizon and a shallow verification cut
//! (both Russian) and capture extension:
//! a position where a capture is due is never a leaf (captures are compulsory, so the
//! whole forced sequence is the quiescence search).

use super::eval::{self, EvalKind, Weights};
use super::net::{Accumulator, Net};
use super::tablebase::{self, Tablebase, Wdl};
use super::time::TimePlan;
use super::tt::{Bound, Tt};
use super::zobrist;
use crate::rules::movegen::{KeyList, MAX_MOVES, MoveKey};
use crate::rules::{Move, Position, Variant};
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// Deepest path the search follows (iterations plus capture sequences).
pub(crate) const MAX_PLY: usize = 96;
/// Score of a won game at the root; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses found by the search.
pub(crate) const WIN_BOUND: i32 = WIN - 1_000;
const INF: i32 = WIN + 1;
const NO_KILLER: u16 = u16::MAX;

/// A root move with the score of its last search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    /// Exact when `exact`, otherwise an upper bound below the window.
    pub score: i32,
    pub exact: bool,
}

/// Tables kept between searches.
pub(crate) struct Searcher {
    tt: Arc<Tt>,
    killers: [[u16; 2]; MAX_PLY + 1],
    history: Box<[[[i32; 36]; 36]; 2]>,
    /// Static evaluations of leaves (see [`EvalCache`]), and what they were made with.
    evals: EvalCache,
    evals_made_with: Option<(Variant, EvalKind, Weights)>,
}

/// The static evaluations of recent leaves by position key: a leaf reached again (moves
/// of draughts often commute) costs one read instead of the evaluation. Each entry is
/// the key's upper half (with its lowest bit set, so that an empty entry never matches)
/// and the score; a position without moves is stored as [`NO_MOVES`].
struct EvalCache(Box<[u64]>);

const EVAL_CACHE_LOG2: u32 = 16;
const NO_MOVES: i32 = i32::MIN;

impl EvalCache {
    fn new() -> EvalCache {
        EvalCache(vec![0; 1 << EVAL_CACHE_LOG2].into_boxed_slice())
    }

    fn clear(&mut self) {
        self.0.fill(0);
    }

    #[inline(always)]
    fn check(key: u64) -> u64 {
        (key | (1 << 32)) & !0xffff_ffff
    }

    #[inline(always)]
    fn get(&self, key: u64) -> Option<i32> {
        let e = self.0[key as usize & ((1 << EVAL_CACHE_LOG2) - 1)];
        (e & !0xffff_ffff == EvalCache::check(key)).then_some(e as u32 as i32)
    }

    /// Asks the processor to bring `key`'s slot into the cache, so that a child's leaf
    /// evaluation does not wait for memory.
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        super::shared::prefetch(&self.0[key as usize & ((1 << EVAL_CACHE_LOG2) - 1)]);
    }

    #[inline(always)]
    fn put(&mut self, key: u64, score: i32) {
        self.0[key as usize & ((1 << EVAL_CACHE_LOG2) - 1)] =
            EvalCache::check(key) | score as u32 as u64;
    }
}

/// The draw-rule state of the game at the root.
#[derive(Clone, Default)]
pub(crate) struct History {
    /// Keys of the game's positions, oldest first, the root last.
    pub keys: Vec<u64>,
    /// For each, plies since a man moved or a piece was taken.
    pub reversible: Vec<u32>,
    /// Plies from the root to a draw by 7.2.5 if no man moves and nothing is taken.
    pub kings_only_in: u32,
    /// Plies from the root to a draw by a balance rule (7.2.4, 7.2.6-7.2.8) if nothing is taken.
    pub balance_in: u32,
    /// The root's 7.2.7 flag: the lone king stood on the long diagonal when the balance arose.
    pub lone_on_diagonal: bool,
}

/// What one search may do.
#[derive(Clone)]
pub(crate) struct Params<'a> {
    pub variant: Variant,
    pub eval: EvalKind,
    pub weights: &'a Weights,
    pub max_depth: u32,
    pub node_limit: u64,
    /// The node limit applies only to iterations deeper than this.
    pub min_depth: u32,
    pub deadline: Option<Instant>,
    /// Time after which no new iteration starts.
    pub soft_deadline: Option<Instant>,
    /// Under a clock: the move's share of the time, stretched when the search is unstable.
    pub plan: Option<TimePlan>,
    /// Root moves within this many centi-men of the best get exact scores (for the levels).
    pub spread: i32,
    /// 0 for the main thread; a helper thread of a parallel search counts from 1 (odd
    /// helpers search one ply deeper than the main thread's iteration).
    pub helper: usize,
    /// More than one thread searches: moves another thread is searching are deferred.
    pub parallel: bool,
    /// Endgame tables probed inside the tree.
    pub tablebase: Option<&'a Tablebase>,
    /// What a draw costs the side to move at the root, in centi-men (0: a draw scores 0
    /// for both sides). A positive value makes the engine play on in a level position
    /// against a weaker opponent instead of steering into a draw.
    pub contempt: i32,
    /// The shallow verification cut applies (Russian). Off where every root move's score
    /// must be exact: the puzzles' check and the book's build.
    pub verify: bool,
}

/// Score of a position the tables call won, before the plies to it are taken off: below
/// every win the search itself proves, above every evaluation.
pub const TB_WIN: i32 = WIN_BOUND - 200;

/// Futility pruning (Russian) applies this many plies from the horizon and closer...
const FUTILITY_DEPTH: i32 = 2;
/// ...to quiet moves whose node evaluates this many centi-men a ply below alpha.
const FUTILITY_MARGIN: i32 = 80;

/// The shallow verification cut (Russian) applies from this remaining depth...
const VERIFY_DEPTH: i32 = 3;
/// ...searching the node again at this percentage of its depth...
const VERIFY_PERCENT: i32 = 40;
/// ...against beta raised by this many centi-men a ply of the full depth.
const VERIFY_MARGIN: i32 = 10;

/// Least remaining depth at which a parallel search defers a move that another thread
/// is searching.
const DEFER_DEPTH: i32 = 3;

/// The singular extension (both variants) from this depth on...
const SINGULAR_DEPTH: i32 = 6;
/// ...when every other move stays this far (centi-men) below the table's score.
const SINGULAR_MARGIN: i32 = 40;

/// The result of iterative deepening.
pub(crate) struct Outcome {
    pub root: Vec<RootMove>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

impl Searcher {
    pub fn new(tt_log2: u32) -> Searcher {
        Searcher::with_tt(Arc::new(Tt::new(tt_log2)))
    }

    /// A searcher using `tt` (shared with the other threads of a search).
    pub fn with_tt(tt: Arc<Tt>) -> Searcher {
        Searcher {
            tt,
            killers: [[NO_KILLER; 2]; MAX_PLY + 1],
            history: Box::new([[[0; 36]; 36]; 2]),
            evals: EvalCache::new(),
            evals_made_with: None,
        }
    }

    /// The table, to share it with helper threads.
    pub fn tt(&self) -> &Arc<Tt> {
        &self.tt
    }

    /// Forgets the move-ordering statistics (and the table, when `table`).
    pub fn clear(&mut self, table: bool) {
        if table {
            self.tt.clear();
        }
        self.killers = [[NO_KILLER; 2]; MAX_PLY + 1];
        *self.history = [[[0; 36]; 36]; 2];
        self.evals.clear();
    }

    /// Iterative deepening from `pos`, calling `on_iteration` after each completed depth.
    pub fn run(
        &mut self,
        pos: &Position,
        history: &History,
        params: &Params,
        stops: [&AtomicBool; 2],
        on_iteration: &mut dyn FnMut(&Outcome),
    ) -> Outcome {
        if params.helper == 0 {
            self.tt.new_search();
        }
        self.killers = [[NO_KILLER; 2]; MAX_PLY + 1];
        let made_with = (params.variant, params.eval, params.weights.clone());
        if self.evals_made_with.as_ref() != Some(&made_with) {
            self.evals.clear();
            self.evals_made_with = Some(made_with);
        }
        for side in self.history.iter_mut() {
            for row in side.iter_mut() {
                for h in row.iter_mut() {
                    *h /= 8;
                }
            }
        }
        let mut keys = history.keys.clone();
        let mut reversible = history.reversible.clone();
        let root_key = *keys.last().unwrap_or(&zobrist::hash(pos, params.variant));
        if keys.is_empty() {
            keys.push(root_key);
            reversible.push(0);
        }
        let mut run = Run {
            s: self,
            p: params,
            stops,
            nodes: 0,
            enforce_nodes: false,
            aborted: false,
            keys,
            reversible,
            since_capture: vec![0],
            root_len: 0,
            kings_only_in: history.kings_only_in,
            balance_in: history.balance_in,
            pv: vec![ArrayVec::new(); MAX_PLY + 1],
            budgets: vec![Budget {
                kings_only: history.kings_only_in,
                balance: history.balance_in,
                diagonal: history.lone_on_diagonal,
            }],
            tb_pieces: params
                .tablebase
                .map(|t| t.max_pieces())
                .filter(|&n| n >= 2)
                .unwrap_or(0),
            tb_hits: 0,
            soft_deadline: params.soft_deadline,
            net: eval::network(params.variant, params.eval, params.weights),
            path: vec![*pos; MAX_PLY + 1],
            accs: Vec::new(),
            acc_made: vec![false; MAX_PLY + 1],
            verifying: false,
            excluded: vec![None; MAX_PLY + 1],
        };
        if let Some(net) = run.net {
            run.accs = vec![net.refresh(pos); MAX_PLY + 1];
            run.acc_made[0] = true;
        }
        run.root_len = run.keys.len();
        run.since_capture = vec![0; run.keys.len()];
        run.iterate(pos, root_key, on_iteration)
    }
}

/// One search in progress.
struct Run<'a> {
    s: &'a mut Searcher,
    p: &'a Params<'a>,
    /// The search ends when either is set.
    stops: [&'a AtomicBool; 2],
    nodes: u64,
    enforce_nodes: bool,
    aborted: bool,
    /// Keys from the game's start to the current node.
    keys: Vec<u64>,
    reversible: Vec<u32>,
    /// Plies since the last capture or promotion (only meaningful inside the search).
    since_capture: Vec<u32>,
    root_len: usize,
    kings_only_in: u32,
    balance_in: u32,
    pv: Vec<ArrayVec<MoveKey, MAX_PLY>>,
    /// The draw rules' plies left at each node of the path from the root (for the tables).
    budgets: Vec<Budget>,
    /// Positions with at most this many pieces are probed in the tables (0: none).
    tb_pieces: u32,
    tb_hits: u64,
    /// No new iteration starts after this moment.
    soft_deadline: Option<Instant>,
    /// The evaluation's network, whose first-layer sums are kept along the path.
    net: Option<&'static Net>,
    /// The position at each ply of the path, its network sums, and whether they are
    /// already made (they are made when a leaf needs them, from the nearest made ones).
    path: Vec<Position>,
    accs: Vec<Accumulator>,
    acc_made: Vec<bool>,
    /// Set while a shallow verification search runs, so that none nests inside it.
    verifying: bool,
    /// The move a singular-extension test leaves out at each ply.
    excluded: Vec<Option<u16>>,
}

/// Plies left before 7.2.5 and before a balance rule draw, and the 7.2.7 flag.
#[derive(Clone, Copy)]
struct Budget {
    kings_only: u32,
    balance: u32,
    diagonal: bool,
}

/// Moves the best-scored move of `order[next..]` to `next`: one step of a selection sort.
#[inline(always)]
fn select(order: &mut [(i32, u8)], next: usize) {
    let mut top = next;
    for j in next + 1..order.len() {
        if order[j].0 > order[top].0 {
            top = j;
        }
    }
    order.swap(next, top);
}

/// The late-move reduction of the `i`-th move searched (from 0) at `depth`:
/// `0.5 + ln(depth) ln(i + 1) / 2.25`, rounded down, read from a table.
fn reduction(depth: i32, i: usize) -> i32 {
    static TABLE: OnceLock<[[u8; 64]; 64]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate() {
                *r = (0.5 + (d as f64).ln() * ((n + 1) as f64).ln() / 2.25) as u8;
            }
        }
        t
    });
    table[depth.clamp(0, 63) as usize][i.min(63)] as i32
}

fn lost_in(ply: usize, variant: Variant) -> i32 {
    // A side with no move loses in Russian draughts and wins in поддавки.
    match variant {
        Variant::Russian => -(WIN - ply as i32),
        Variant::Giveaway => WIN - ply as i32,
    }
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Identity of a move for the table and the killers: origin and destination (two
/// captures sharing both are rare and only cost some ordering).
#[inline(always)]
fn move_id(mv: &MoveKey) -> u16 {
    (mv.from.trailing_zeros() * 36 + mv.to.trailing_zeros()) as u16
}

fn root_id(mv: &Move) -> u16 {
    (mv.from().bit() * 36 + mv.to().bit()) as u16
}

fn key_of(mv: &Move) -> MoveKey {
    MoveKey {
        from: mv.from().mask(),
        to: mv.to().mask(),
        taken: mv.captured_mask(),
        promotes: mv.promotes(),
    }
}

impl Run<'_> {
    fn iterate(
        &mut self,
        pos: &Position,
        key: u64,
        on_iteration: &mut dyn FnMut(&Outcome),
    ) -> Outcome {
        let legal = pos.legal_moves();
        let mut root: Vec<RootMove> = legal
            .iter()
            .map(|mv| RootMove {
                mv: *mv,
                score: -INF,
                exact: false,
            })
            .collect();
        // The table's move from an earlier search goes first.
        if let Some(id) = self.s.tt.probe(key).and_then(|h| h.mv)
            && let Some(at) = root.iter().position(|r| root_id(&r.mv) == id)
        {
            root[..=at].rotate_right(1);
        } else {
            root.sort_by_key(|r| -(r.mv.captured().len() as i32));
        }
        let mut out = Outcome {
            root: root.clone(),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: root.first().map(|r| vec![r.mv]).unwrap_or_default(),
        };
        if root.len() <= 1 {
            return out;
        }
        // Under a clock: how unstable the search is (best-move changes, decaying) and
        // whether the score fell at the last iteration.
        let mut changes = 0.0f64;
        let mut last: Option<(Move, i32)> = None;
        for depth in 1..=self.p.max_depth.clamp(1, MAX_PLY as u32 - 1) {
            if depth > 1 && self.soft_deadline.is_some_and(|t| Instant::now() >= t) {
                break;
            }
            self.enforce_nodes = depth > self.p.min_depth;
            let d = depth as i32 + (self.p.helper & 1) as i32;
            let completed = self.root_search(pos, key, d, &mut root);
            if self.aborted {
                // A new best move searched in full this iteration is still better information.
                if completed > 0 && root[0].exact {
                    out.root = root.clone();
                    out.score = root[0].score;
                    if out.pv.first() != Some(&root[0].mv) {
                        out.pv = self.root_pv(pos, root[0].mv);
                    }
                }
                break;
            }
            out.root = root.clone();
            out.score = root[0].score;
            out.depth = d as u32;
            out.pv = self.root_pv(pos, root[0].mv);
            out.nodes = self.nodes;
            on_iteration(&out);
            if let Some(plan) = self.p.plan {
                changes *= 0.5;
                let mut factor = 1.0;
                if let Some((mv, score)) = last {
                    if mv != root[0].mv {
                        changes += 1.0;
                    }
                    if out.score < score - 30 {
                        factor *= 1.5;
                    }
                }
                factor *= 1.0 + changes;
                last = Some((root[0].mv, out.score));
                self.soft_deadline = self.p.deadline.map(|d| d.min(plan.soft(factor)));
            }
            if out.score.abs() > WIN_BOUND && depth as i32 > WIN - out.score.abs() {
                break;
            }
        }
        out.nodes = self.nodes;
        out
    }

    /// Searches every root move; returns how many were searched completely. Sorts `root`
    /// best first (moves that failed low keep their order behind the exact ones).
    fn root_search(
        &mut self,
        pos: &Position,
        key: u64,
        depth: i32,
        root: &mut [RootMove],
    ) -> usize {
        let mut alpha = -INF;
        let mut best = -INF;
        let mut completed = 0;
        self.pv[0].clear();
        for (i, rm) in root.iter_mut().enumerate() {
            let mv = rm.mv;
            let child = pos.play(&mv);
            let ck = zobrist::update(key, pos, &child);
            self.push(pos, &key_of(&mv), ck);
            // With a spread, moves close to the best are searched with a window that
            // yields their exact score.
            let floor = if best > -INF {
                (best - self.p.spread).max(-INF)
            } else {
                -INF
            };
            let s = if i == 0 {
                -self.search(&child, ck, depth - 1, -INF, INF, 1)
            } else {
                let a = floor.max(-INF);
                let mut s = -self.search(&child, ck, depth - 1, -a - 1, -a, 1);
                if s > a && !self.aborted {
                    s = -self.search(&child, ck, depth - 1, -INF, -a, 1);
                }
                s
            };
            self.pop();
            if self.aborted {
                break;
            }
            completed += 1;
            rm.exact = i == 0 || s > floor;
            rm.score = s;
            if s > best {
                best = s;
                let mut line = ArrayVec::<MoveKey, MAX_PLY>::new();
                line.push(key_of(&mv));
                let child_pv = self.pv[1].clone();
                for m in child_pv {
                    if line.try_push(m).is_err() {
                        break;
                    }
                }
                self.pv[0] = line;
                if s > alpha {
                    alpha = s;
                }
            }
        }
        if completed > 0 {
            // Stable: the previous order breaks ties; unfinished moves stay behind.
            let (done, _) = root.split_at_mut(completed);
            done.sort_by_key(|r| std::cmp::Reverse(if r.exact { r.score } else { r.score - 1 }));
            let id = root_id(&root[0].mv);
            self.s
                .tt
                .store(key, to_tt(best, 0), depth, Bound::Exact, Some(id));
        }
        completed
    }

    #[inline(always)]
    fn push(&mut self, pos: &Position, mv: &MoveKey, key: u64) {
        let man = pos.kings & mv.from == 0;
        let last = self.keys.len() - 1;
        self.reversible.push(if man || mv.taken != 0 {
            0
        } else {
            self.reversible[last] + 1
        });
        self.since_capture.push(if mv.taken != 0 || mv.promotes {
            0
        } else {
            self.since_capture[last] + 1
        });
        self.keys.push(key);
        if self.tb_pieces > 0 {
            let b = self.budgets[self.budgets.len() - 1];
            let next = if pos.piece_count() - mv.taken.count_ones() > self.tb_pieces {
                b
            } else {
                let child = pos.play_key(mv);
                if mv.taken != 0 || mv.promotes {
                    let c = crate::rules::Counters::fresh(&child);
                    let (kings_only, balance) = tablebase::budgets(self.p.variant, &child, &c);
                    Budget {
                        kings_only,
                        balance,
                        diagonal: c.lone_king_on_long_diagonal,
                    }
                } else if man {
                    // A man move starts the 7.2.5 count again; the balance count runs on.
                    let c = crate::rules::Counters {
                        balance: 0,
                        ..crate::rules::Counters::fresh(&child)
                    };
                    Budget {
                        kings_only: tablebase::budgets(self.p.variant, &child, &c).0,
                        balance: b.balance.saturating_sub(1),
                        diagonal: b.diagonal,
                    }
                } else {
                    Budget {
                        kings_only: b.kings_only.saturating_sub(1),
                        balance: b.balance.saturating_sub(1),
                        diagonal: b.diagonal,
                    }
                }
            };
            self.budgets.push(next);
        }
    }

    /// Starts loading what the search of the child `key`, made at `depth`, reads first:
    /// its table bucket, and its leaf-cache slot one ply from the horizon.
    #[inline(always)]
    fn prefetch(&self, key: u64, depth: i32) {
        self.s.tt.prefetch(key);
        if depth <= 1 {
            self.s.evals.prefetch(key);
        }
    }

    #[inline(always)]
    fn pop(&mut self) {
        self.keys.pop();
        self.reversible.pop();
        self.since_capture.pop();
        if self.tb_pieces > 0 {
            self.budgets.pop();
        }
    }

    /// The tables' score of a position they hold, from the side to move's view.
    #[inline]
    fn probe(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        let tb = self.p.tablebase?;
        let draw = self.draw(ply);
        let b = self.budgets[self.budgets.len() - 1];
        let v = tb.raw(pos, b.diagonal)?;
        self.tb_hits += 1;
        let budget = b.kings_only.min(b.balance);
        let (wdl, d) = tablebase::decode(v, budget);
        let s = TB_WIN - ply as i32 - d as i32;
        Some(match wdl {
            Wdl::Win => s,
            Wdl::Loss => -s,
            Wdl::Draw => draw,
        })
    }

    /// The score of a draw at `ply`, from the side to move's view (see `Params::contempt`).
    #[inline(always)]
    fn draw(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            -self.p.contempt
        } else {
            self.p.contempt
        }
    }

    /// Whether the current position occurred twice before in the game and search path
    /// (so that it is now drawn by 7.2.3).
    fn occurred_twice(&self) -> bool {
        let n = self.keys.len() - 1;
        let window = (self.reversible[n] as usize).min(n);
        let key = self.keys[n];
        let mut seen = 0;
        let mut i = 4;
        while i <= window {
            if self.keys[n - i] == key {
                seen += 1;
                if seen == 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// Draw by repetition (once within the game and search path is enough) or by a
    /// counting rule running out inside the search.
    fn is_draw(&self, pos: &Position, ply: usize) -> bool {
        let n = self.keys.len() - 1;
        let window = (self.reversible[n] as usize).min(n);
        let key = self.keys[n];
        let mut i = 4;
        while i <= window {
            if self.keys[n - i] == key {
                return true;
            }
            i += 2;
        }
        let p = ply as u32;
        let counting = (p >= self.kings_only_in && self.reversible[n] >= p)
            || (p >= self.balance_in && self.since_capture[n] >= p);
        // A side without moves has lost (or won) before any draw rule applies.
        counting && pos.count_moves() > 0
    }

    #[inline(always)]
    fn check_limits(&mut self) {
        if self.enforce_nodes && self.nodes >= self.p.node_limit {
            self.aborted = true;
        }
        if self.nodes & 1023 == 0
            && (self.stops[0].load(Ordering::Relaxed)
                || self.stops[1].load(Ordering::Relaxed)
                || self.p.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
    }

    /// Makes the network sums of the position at `ply` from the nearest made ones.
    #[inline]
    fn make_acc(&mut self, net: &Net, ply: usize) {
        let mut k = ply;
        while !self.acc_made[k] {
            k -= 1;
        }
        for i in k + 1..=ply {
            let (done, rest) = self.accs.split_at_mut(i);
            net.update(&mut rest[0], &done[i - 1], &self.path[i - 1], &self.path[i]);
            self.acc_made[i] = true;
        }
    }

    fn leaf(&mut self, pos: &Position, key: u64, ply: usize) -> i32 {
        let s = match self.s.evals.get(key) {
            Some(s) => {
                #[cfg(test)]
                assert_eq!(s, self.evaluate(pos, ply), "cached evaluation at ply {ply}");
                s
            }
            None => {
                let s = self.evaluate(pos, ply);
                self.s.evals.put(key, s);
                s
            }
        };
        if s == NO_MOVES {
            lost_in(ply, self.p.variant)
        } else {
            s
        }
    }

    /// The static evaluation, or [`NO_MOVES`].
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        if let Some(net) = self.net {
            self.make_acc(net, ply);
            // The unit tests' searches check every sums kept along the path.
            #[cfg(test)]
            assert_eq!(self.accs[ply], net.refresh(pos), "sums at ply {ply}");
        }
        let acc = self.net.map(|_| &self.accs[ply]);
        let st = eval::evaluate(pos, self.p.variant, self.p.eval, self.p.weights, acc);
        if st.own_moves == 0 {
            NO_MOVES
        } else {
            st.score
        }
    }

    fn search(
        &mut self,
        pos: &Position,
        key: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        self.check_limits();
        if self.aborted {
            return 0;
        }
        self.pv[ply].clear();
        // Ply 0 is the root, whose sums are made before the search.
        if self.net.is_some() && ply > 0 {
            self.path[ply] = *pos;
            self.acc_made[ply] = false;
        }
        // The tables know the counting rules; of repetition only the rule itself applies
        // there (a third occurrence draws), since a winning line never repeats.
        if pos.piece_count() <= self.tb_pieces {
            if self.occurred_twice() {
                return self.draw(ply);
            }
            if let Some(s) = self.probe(pos, ply) {
                return s;
            }
        }
        if self.is_draw(pos, ply) {
            return self.draw(ply);
        }
        let capture = pos.has_capture();
        if !capture && depth <= 0 {
            return self.leaf(pos, key, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.leaf(pos, key, ply);
        }
        // A win in fewer plies than the window allows cannot change the result.
        let (alpha_floor, beta_cap) = (-(WIN - ply as i32), WIN - ply as i32);
        if alpha_floor >= beta {
            return alpha_floor;
        }
        if beta_cap <= alpha {
            return beta_cap;
        }
        let pv_node = beta - alpha > 1;
        let mut tt_move = None;
        let excluded = self.excluded[ply];
        let mut tt_hit = None;
        if let Some(h) = self.s.tt.probe(key) {
            tt_move = h.mv;
            let s = from_tt(h.score, ply);
            tt_hit = Some((s, h.depth, h.bound));
            if !pv_node && h.depth >= depth && excluded.is_none() {
                match h.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        // Shallow verification (Russian): outside the principal variation, a null-window
        // search of this node at a fraction of the depth that clears beta by a margin
        // growing with the depth cuts the node; its score less the margin is returned.
        // Not where a capture is due: the opponent has just given up a piece (a sacrifice
        // or an exchange), and a shot behind it (a second sacrifice, then a multiple
        // capture) lies past the shallow search, which would see only the piece won.
        if !pv_node
            && !capture
            && excluded.is_none()
            && self.p.verify
            && !self.verifying
            && depth >= VERIFY_DEPTH
            && self.p.variant == Variant::Russian
            && beta.abs() < WIN_BOUND
        {
            let margin = VERIFY_MARGIN * depth;
            let raised = beta + margin;
            self.verifying = true;
            let s = self.search(
                pos,
                key,
                depth * VERIFY_PERCENT / 100,
                raised - 1,
                raised,
                ply,
            );
            self.verifying = false;
            if self.aborted {
                return 0;
            }
            if s >= raised {
                return s - margin;
            }
        }
        let mut moves = KeyList::new();
        pos.legal_keys_into(&mut moves);
        if moves.is_empty() {
            return lost_in(ply, self.p.variant);
        }
        // A forced reply (the only legal move) costs no depth, so the chains of forced
        // captures and exchanges are seen to their end. Only above the horizon (a capture
        // due there is searched anyway) and within half the path. It gained +80 at 100 ms
        // a move in поддавки; in Russian draughts nothing at 100 ms and +48 at 1 s.
        let ext = (moves.len() == 1 && depth > 0 && ply < MAX_PLY / 2) as i32;
        // Singular extension: when the table holds a lower bound or an exact score for
        // this node's move from a search at most 3 plies shallower, the node is searched
        // without that move at half the depth, against a null window a margin below that
        // score; if every other move stays below it, the move is the only good one, as
        // near-forced as a forced reply, and it is searched one ply deeper. Both variants:
        // in Russian draughts it measured nothing at 100 ms a move and gained at 1 s.
        let mut singular = 0;
        if ext == 0
            && excluded.is_none()
            && depth >= SINGULAR_DEPTH
            && ply < MAX_PLY / 2
            && moves.len() > 1
            && let (Some(m), Some((ts, td, tb))) = (tt_move, tt_hit)
            && td >= depth - 3
            && tb != Bound::Upper
            && ts.abs() < WIN_BOUND
        {
            let sb = ts - SINGULAR_MARGIN;
            self.excluded[ply] = Some(m);
            let s = self.search(pos, key, (depth - 1) / 2, sb - 1, sb, ply);
            self.excluded[ply] = None;
            if self.aborted {
                return 0;
            }
            if s < sb {
                singular = 1;
            }
        }
        let mut order = ArrayVec::<(i32, u8), MAX_MOVES>::new();
        self.order(pos, &moves, tt_move, ply, &mut order);
        let side = pos.side_to_move().index();
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_id = None;
        let killers = self.s.killers[ply];
        let defer = self.p.parallel && depth >= DEFER_DEPTH;
        let mut deferred = ArrayVec::<u8, MAX_MOVES>::new();
        let futile =
            !pv_node && !capture && depth <= FUTILITY_DEPTH && self.p.variant == Variant::Russian;
        let mut static_eval: Option<i32> = None;
        let (mut next, mut next_deferred) = (0, 0);
        // The next move's child, made while the move before it is searched so that its
        // table bucket is in the cache when its search starts (see below).
        let mut peeked: Option<(u8, Position, u64)> = None;
        // `i` counts the moves taken so far, searched or pruned (the late-move reduction
        // depends on it).
        for i in 0..order.len() {
            // The move, with its child position and key when the deferral or the look
            // ahead made them.
            let (index, made) = loop {
                if let Some((index, child, ck)) = peeked.take() {
                    next += 1;
                    break (index as usize, Some((child, ck)));
                }
                if next < order.len() {
                    // Selection sort: most cut-offs come from the first few moves.
                    select(&mut order, next);
                    let index = order[next].1;
                    next += 1;
                    if defer && i > 0 && next < order.len() {
                        let child = pos.play_key(&moves[index as usize]);
                        let ck = zobrist::update(key, pos, &child);
                        if self.s.tt.is_busy(ck) {
                            deferred.push(index);
                            continue;
                        }
                        break (index as usize, Some((child, ck)));
                    }
                    break (index as usize, None);
                }
                next_deferred += 1;
                break (deferred[next_deferred - 1] as usize, None);
            };
            let mv = &moves[index];
            if excluded == Some(move_id(mv)) {
                continue;
            }
            let quiet = !capture && !mv.promotes && !killers.contains(&move_id(mv));
            // Futility (Russian): outside the principal variation, a ply or two from the
            // horizon and with no capture due, a quiet move is not searched when the
            // static evaluation is far enough below alpha that one quiet move is not
            // expected to lift it there.
            if futile && quiet && i > 0 && best > -WIN_BOUND {
                let e = *static_eval.get_or_insert_with(|| self.leaf(pos, key, ply));
                if e + FUTILITY_MARGIN * depth <= alpha {
                    continue;
                }
            }
            let (child, ck) = made.unwrap_or_else(|| {
                let child = pos.play_key(mv);
                (child, zobrist::update(key, pos, &child))
            });
            self.prefetch(ck, depth);
            // Past the first move a cut-off is less likely: make the next move's child
            // now and start loading its table bucket (or leaf cache slot), which a probe
            // right at the start of its search would otherwise wait for. The selection
            // step is the one the next turn of the loop would take, so the order and the
            // tree are unchanged.
            if !defer && i > 0 && next < order.len() {
                select(&mut order, next);
                let index = order[next].1;
                let pmv = &moves[index as usize];
                if excluded != Some(move_id(pmv)) {
                    let c = pos.play_key(pmv);
                    let k = zobrist::update(key, pos, &c);
                    self.prefetch(k, depth);
                    peeked = Some((index, c, k));
                }
            }
            self.push(pos, mv, ck);
            let entered = defer && self.s.tt.enter(ck);
            let s = if i == 0 {
                -self.search(
                    &child,
                    ck,
                    depth - 1 + ext + singular,
                    -beta,
                    -alpha,
                    ply + 1,
                )
            } else {
                // Russian: the logarithmic table, gated there; поддавки keeps the fixed
                // reductions until the table passes a gate of its own.
                let russian = self.p.variant == Variant::Russian;
                let r = if !quiet || depth < 3 {
                    0
                } else if russian && i >= 2 {
                    (reduction(depth, i) - pv_node as i32).clamp(0, depth - 2)
                } else if !russian && i >= 3 {
                    1 + (i >= 6 && depth >= 5) as i32
                } else {
                    0
                };
                let mut s = -self.search(&child, ck, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
                if s > alpha && r > 0 && !self.aborted {
                    s = -self.search(&child, ck, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta && !self.aborted {
                    s = -self.search(&child, ck, depth - 1, -beta, -alpha, ply + 1);
                }
                s
            };
            if entered {
                self.s.tt.leave(ck);
            }
            self.pop();
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                best_id = Some(move_id(mv));
                if s > alpha {
                    alpha = s;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(*mv);
                        for m in tail[0].iter() {
                            if line.try_push(*m).is_err() {
                                break;
                            }
                        }
                    }
                    if s >= beta {
                        if !capture {
                            let k = move_id(mv);
                            let slot = &mut self.s.killers[ply];
                            if slot[0] != k {
                                slot[1] = slot[0];
                                slot[0] = k;
                            }
                            let h = &mut self.s.history[side][mv.from.trailing_zeros() as usize]
                                [mv.to.trailing_zeros() as usize];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        if excluded.is_some() {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.s
            .tt
            .store(key, to_tt(best, ply), depth, bound, best_id);
        best
    }

    /// Ordering scores: the table's move, then the captures taking most (kings count
    /// extra), promotions, killers, and the history of cut-offs; each move's score and
    /// index are pushed onto `order`, which the caller owns so that the list is not
    /// copied on return.
    fn order(
        &self,
        pos: &Position,
        moves: &KeyList,
        tt_move: Option<u16>,
        ply: usize,
        order: &mut ArrayVec<(i32, u8), MAX_MOVES>,
    ) {
        let side = pos.side_to_move().index();
        let killers = self.s.killers[ply];
        order.extend(moves.iter().enumerate().map(|(i, mv)| {
            let id = move_id(mv);
            let score = if Some(id) == tt_move {
                1 << 30
            } else if mv.taken != 0 {
                (1 << 24)
                    + 1000 * mv.taken.count_ones() as i32
                    + 300 * (mv.taken & pos.kings).count_ones() as i32
            } else if mv.promotes {
                1 << 23
            } else if killers[0] == id {
                1 << 22
            } else if killers[1] == id {
                1 << 21
            } else {
                self.s.history[side][mv.from.trailing_zeros() as usize]
                    [mv.to.trailing_zeros() as usize]
            };
            (score, i as u8)
        }));
    }

    /// The principal variation as full moves, replayed from the root and cut where a
    /// stored step is not legal.
    fn root_pv(&self, pos: &Position, best: Move) -> Vec<Move> {
        let mut line = vec![best];
        let mut p = pos.play(&best);
        for k in self.pv[0].iter().skip(1) {
            let legal = p.legal_moves();
            let Some(m) = legal.iter().find(|m| key_of(m) == *k) else {
                break;
            };
            line.push(*m);
            p = p.play(m);
        }
        if self.pv[0].first() != Some(&key_of(&best)) {
            line.truncate(1);
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use crate::ai::{Ai, Limits};
    use crate::rules::{Game, Position, Variant};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn the_network_sums_kept_along_the_path_are_exact_at_every_leaf() {
        // `Run::leaf` compares the kept sums with sums made afresh in the unit tests; these
        // searches reach captures, promotions and king moves in both variants.
        for (variant, fen) in [
            (Variant::Russian, None),
            (
                Variant::Russian,
                Some("W:WKa1,c3,e3,g3,h2:Bb6,Kd6,f6,g7,h8"),
            ),
            (Variant::Russian, Some("B:Wa3,c5,e5,g5:Bb6,d6,f6,h6,Kh2")),
            (Variant::Giveaway, None),
            (Variant::Giveaway, Some("W:Wc3,e3,g5:Bb6,d6,f8")),
        ] {
            let pos = fen.map_or_else(Position::start, |f| Position::from_fen(f).unwrap());
            let game = Game::from_position(variant, pos);
            let mut ai = Ai::new();
            let limits = Limits {
                depth: Some(7),
                ..Limits::default()
            };
            let found = ai.search(&game, &limits, &AtomicBool::new(false));
            assert!(found.best.is_some());
        }
    }
}
