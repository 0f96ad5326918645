//! Legal move generation. Captures come first and quiet moves are generated only when
//! there is none, so compulsory capture is a property of the generator (rule 1.5.2).
//! During a multi-capture the taken pieces stay on the board as blockers and can no
//! longer be taken: that is the Turkish strike (rule 1.5.12 / 2.1.5.17).

use super::bitboard::{Bits, DIRS, shift};
use super::mv::{MAX_HOPS, Move};
use super::position::{Color, Position};
use super::square::Square;
use arrayvec::ArrayVec;

/// Capacity of a move list; far above the most moves any reachable position has.
pub const MAX_MOVES: usize = 192;

/// The legal moves of a position.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// A compact move: enough to play it, without its route (used by perft and search).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MoveKey {
    pub from: u64,
    pub to: u64,
    pub taken: u64,
    pub promotes: bool,
}

/// Compact move list for counting and fast play.
pub type KeyList = ArrayVec<MoveKey, MAX_MOVES>;

/// A completed capture sequence, as handed to a [`CaptureSink`].
pub struct Capture<'a> {
    pub from: Square,
    /// Mask of the final landing square.
    pub to: u64,
    /// Landing squares in order (empty when the sink does not ask for routes).
    pub path: &'a [Square],
    /// Taken squares in order (empty when the sink does not ask for routes).
    pub taken: &'a [Square],
    pub taken_mask: u64,
    pub promotes: bool,
}

/// Where completed capture sequences go; both kinds of list keep one entry per result.
pub trait CaptureSink {
    /// Whether the sink needs the route (landing squares and taken squares in order).
    const ROUTE: bool = true;
    fn capture(&mut self, c: Capture<'_>);
}

impl CaptureSink for MoveList {
    fn capture(&mut self, c: Capture<'_>) {
        let mv = Move::capture(c.from, c.path, c.taken, c.taken_mask, c.promotes);
        if !self.iter().any(|m| m.same_effect(&mv)) {
            let _ = self.try_push(mv);
        }
    }
}

impl CaptureSink for KeyList {
    const ROUTE: bool = false;
    #[inline]
    fn capture(&mut self, c: Capture<'_>) {
        let key = MoveKey {
            from: c.from.mask(),
            to: c.to,
            taken: c.taken_mask,
            promotes: c.promotes,
        };
        if !self.contains(&key) {
            let _ = self.try_push(key);
        }
    }
}

/// Every route of every capture, including routes that give the same result.
#[derive(Default, Debug)]
pub struct AllRoutes(pub Vec<Move>);

impl CaptureSink for AllRoutes {
    fn capture(&mut self, c: Capture<'_>) {
        self.0.push(Move::capture(
            c.from,
            c.path,
            c.taken,
            c.taken_mask,
            c.promotes,
        ));
    }
}

/// State of one capture sequence being explored.
struct CaptureSearch<'a, S: CaptureSink> {
    from: Square,
    /// Enemy pieces that can still be taken (taken ones are removed from this set).
    enemy: u64,
    /// Squares a piece may land on or pass: empty, plus the mover's own origin.
    empty: u64,
    promotion_rank: u64,
    path: ArrayVec<Square, MAX_HOPS>,
    taken: ArrayVec<Square, MAX_HOPS>,
    taken_mask: u64,
    promoted: bool,
    out: &'a mut S,
}

/// Squares a king on `from` reaches along free diagonals.
#[inline(always)]
fn king_reach(from: u64, empty: u64) -> u64 {
    let mut reach = 0;
    for d in DIRS {
        let mut t = shift(from, d) & empty;
        while t != 0 {
            reach |= t;
            t = shift(t, d) & empty;
        }
    }
    reach
}

#[inline(always)]
fn sq(bit: u32) -> Square {
    // Bits come only from masks of real squares.
    Square::from_bit_unchecked(bit)
}

impl<S: CaptureSink> CaptureSearch<'_, S> {
    #[inline]
    fn emit(&mut self, at: u64) {
        self.out.capture(Capture {
            from: self.from,
            to: at,
            path: &self.path,
            taken: &self.taken,
            taken_mask: self.taken_mask,
            promotes: self.promoted,
        });
    }

    fn hop(&mut self, victim: u64, landing: u64, then_king: bool) {
        let (v, l) = (victim.trailing_zeros(), landing.trailing_zeros());
        let was_promoted = self.promoted;
        if S::ROUTE {
            self.path.push(sq(l));
            self.taken.push(sq(v));
        }
        self.taken_mask |= victim;
        self.enemy &= !victim;
        if then_king {
            self.king_from(landing);
        } else if landing & self.promotion_rank != 0 {
            // A man reaching the last row mid-capture is a king at once (rule 1.5.9).
            self.promoted = true;
            self.king_from(landing);
        } else if self.man_continues(landing) {
            self.man_from(landing);
        } else {
            // Most captures end after one hop: finish without another call.
            self.emit(landing);
        }
        self.promoted = was_promoted;
        self.enemy |= victim;
        self.taken_mask &= !victim;
        if S::ROUTE {
            self.taken.pop();
            self.path.pop();
        }
    }

    /// Whether a man on `at` can take another piece.
    #[inline(always)]
    fn man_continues(&self, at: u64) -> bool {
        let (e, f) = (self.enemy, self.empty);
        (shift(shift(at, 5) & e, 5)
            | shift(shift(at, 4) & e, 4)
            | shift(shift(at, -4) & e, -4)
            | shift(shift(at, -5) & e, -5))
            & f
            != 0
    }

    /// One direction of a man's capture; the direction is a constant so the shifts unroll.
    #[inline(always)]
    fn man_dir<const D: i32>(&mut self, at: u64) -> bool {
        let victim = shift(at, D) & self.enemy;
        if victim == 0 {
            return false;
        }
        let landing = shift(victim, D) & self.empty;
        if landing == 0 {
            return false;
        }
        self.hop(victim, landing, false);
        true
    }

    fn man_from(&mut self, at: u64) {
        let mut found = self.man_dir::<5>(at);
        found |= self.man_dir::<4>(at);
        found |= self.man_dir::<-4>(at);
        found |= self.man_dir::<-5>(at);
        if !found && self.taken_mask != 0 {
            self.emit(at);
        }
    }

    /// The enemy piece a king on `at` could take along `d`, and the first square behind it.
    #[inline(always)]
    fn king_target(&self, at: u64, d: i32) -> Option<(u64, u64)> {
        let mut t = shift(at, d);
        while t & self.empty != 0 {
            t = shift(t, d);
        }
        if t & self.enemy == 0 {
            return None;
        }
        let landing = shift(t, d) & self.empty;
        if landing == 0 {
            None
        } else {
            Some((t, landing))
        }
    }

    fn king_can_capture(&self, at: u64) -> bool {
        DIRS.iter().any(|&d| self.king_target(at, d).is_some())
    }

    fn king_from(&mut self, at: u64) {
        let mut found = false;
        for d in DIRS {
            let Some((victim, first)) = self.king_target(at, d) else {
                continue;
            };
            found = true;
            // Landing squares behind the victim, up to the next piece.
            let mut landings = ArrayVec::<u64, 8>::new();
            let mut l = first;
            while l & self.empty != 0 {
                landings.push(l);
                l = shift(l, d);
            }
            // Rule 1.5.6: if the capture can go on from some landing squares, the king
            // must land on one of those.
            self.enemy &= !victim;
            let continuing: ArrayVec<u64, 8> = landings
                .iter()
                .copied()
                .filter(|&l| self.king_can_capture(l))
                .collect();
            self.enemy |= victim;
            let chosen = if continuing.is_empty() {
                landings
            } else {
                continuing
            };
            for l in chosen {
                self.hop(victim, l, true);
            }
        }
        if !found && self.taken_mask != 0 {
            self.emit(at);
        }
    }
}

impl Position {
    /// Every legal move; one per distinct resulting position.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Fills `list` (cleared first) with every legal move.
    #[inline]
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        self.generate_captures(list);
        if list.is_empty() {
            self.generate_quiet(list);
        }
    }

    /// Men of the side to move that can take an adjacent enemy piece.
    #[inline(always)]
    fn capturing_men(&self, enemy: u64, empty: u64) -> u64 {
        let men = self.men(self.side);
        let mut m = 0;
        for d in DIRS {
            m |= shift(shift(empty, -d) & enemy, -d);
        }
        m & men
    }

    /// All capture moves (empty when no capture is possible).
    pub fn generate_captures<S: CaptureSink>(&self, list: &mut S) {
        let side = self.side;
        let enemy = self.pieces(side.opposite());
        let empty_base = self.empty_squares();
        let men = self.capturing_men(enemy, empty_base);
        let kings = self.kings(side);
        if men == 0 && kings == 0 {
            return;
        }
        let mut s = CaptureSearch {
            from: sq(0),
            enemy,
            empty: empty_base,
            promotion_rank: side.promotion_rank(),
            path: ArrayVec::new(),
            taken: ArrayVec::new(),
            taken_mask: 0,
            promoted: false,
            out: list,
        };
        for b in Bits(men) {
            s.from = sq(b);
            s.empty = empty_base | (1u64 << b);
            s.man_from(1u64 << b);
        }
        for b in Bits(kings) {
            s.from = sq(b);
            s.empty = empty_base | (1u64 << b);
            if s.king_can_capture(1u64 << b) {
                s.king_from(1u64 << b);
            }
        }
    }

    /// True when the side to move must capture.
    pub fn has_capture(&self) -> bool {
        let side = self.side;
        let enemy = self.pieces(side.opposite());
        let empty = self.empty_squares();
        if self.capturing_men(enemy, empty) != 0 {
            return true;
        }
        Bits(self.kings(side)).any(|b| {
            let at = 1u64 << b;
            DIRS.iter().any(|&d| {
                let mut t = shift(at, d);
                while t & empty != 0 {
                    t = shift(t, d);
                }
                t & enemy != 0 && shift(t, d) & empty != 0
            })
        })
    }

    /// Squares of the pieces that can capture now (for highlighting compulsory captures).
    pub fn capturing_pieces(&self) -> u64 {
        let mut list = MoveList::new();
        self.generate_captures(&mut list);
        list.iter().fold(0, |m, mv| m | mv.from().mask())
    }

    fn forward_dirs(side: Color) -> [i32; 2] {
        match side {
            Color::White => [5, 4],
            Color::Black => [-4, -5],
        }
    }

    /// Quiet moves (only legal when there is no capture).
    pub fn generate_quiet(&self, list: &mut MoveList) {
        let mut keys = KeyList::new();
        self.quiet_keys_into(&mut keys);
        for k in &keys {
            let (from, to) = (sq(k.from.trailing_zeros()), sq(k.to.trailing_zeros()));
            let _ = list.try_push(Move::quiet(from, to, k.promotes));
        }
    }

    /// Number of legal moves, without building quiet moves (bulk counting for perft).
    pub fn count_moves(&self) -> u64 {
        if self.has_capture() {
            let mut list = MoveList::new();
            self.generate_captures(&mut list);
            return list.len() as u64;
        }
        self.count_quiet()
    }

    /// [`Position::count_moves`] with a caller's scratch list.
    #[inline]
    pub fn count_moves_with(&self, scratch: &mut MoveList) -> u64 {
        if self.has_capture() {
            scratch.clear();
            self.generate_captures(scratch);
            return scratch.len() as u64;
        }
        self.count_quiet()
    }

    #[inline]
    fn count_quiet(&self) -> u64 {
        let side = self.side;
        let empty = self.empty_squares();
        let men = self.men(side);
        let mut n = 0u64;
        for d in Self::forward_dirs(side) {
            n += (shift(men, d) & empty).count_ones() as u64;
        }
        for b in Bits(self.kings(side)) {
            n += king_reach(1u64 << b, empty).count_ones() as u64;
        }
        n
    }

    /// Every legal move in compact form (see [`MoveKey`]).
    pub fn legal_keys_into(&self, list: &mut KeyList) {
        list.clear();
        self.generate_captures(list);
        if !list.is_empty() {
            return;
        }
        self.quiet_keys_into(list);
    }

    /// Quiet moves in compact form: men first, then kings, direction by direction.
    fn quiet_keys_into(&self, list: &mut KeyList) {
        let side = self.side;
        let empty = self.empty_squares();
        let men = self.men(side);
        let promo = side.promotion_rank();
        for d in Self::forward_dirs(side) {
            for to in Bits(shift(men, d) & empty) {
                let to = 1u64 << to;
                let from = shift(to, -d);
                let _ = list.try_push(MoveKey {
                    from,
                    to,
                    taken: 0,
                    promotes: to & promo != 0,
                });
            }
        }
        for b in Bits(self.kings(side)) {
            let from = 1u64 << b;
            for d in DIRS {
                let mut t = shift(from, d) & empty;
                while t != 0 {
                    let _ = list.try_push(MoveKey {
                        from,
                        to: t,
                        taken: 0,
                        promotes: false,
                    });
                    t = shift(t, d) & empty;
                }
            }
        }
    }

    /// Leaf count of the move tree to `depth` plies.
    pub fn perft(&self, depth: u32) -> u64 {
        // One move list per ply, allocated once.
        let mut lists: Vec<KeyList> = (0..depth.max(1)).map(|_| KeyList::new()).collect();
        self.perft_with(depth, &mut lists)
    }

    fn perft_with(&self, depth: u32, lists: &mut [KeyList]) -> u64 {
        match depth {
            0 => 1,
            1 => {
                // Generating captures costs about what testing for them costs.
                let list = &mut lists[0];
                list.clear();
                self.generate_captures(list);
                if list.is_empty() {
                    self.count_quiet()
                } else {
                    list.len() as u64
                }
            }
            _ => {
                let Some((list, rest)) = lists.split_last_mut() else {
                    return 0;
                };
                self.legal_keys_into(list);
                list.iter()
                    .map(|k| self.play_key(k).perft_with(depth - 1, rest))
                    .sum()
            }
        }
    }
}
