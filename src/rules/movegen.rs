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

/// State of one capture sequence being explored.
struct CaptureSearch<'a> {
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
    out: &'a mut MoveList,
}

#[inline(always)]
fn sq(bit: u32) -> Square {
    // Bits come only from masks of real squares.
    Square::from_bit_unchecked(bit)
}

impl CaptureSearch<'_> {
    fn emit(&mut self) {
        let mv = Move::capture(
            self.from,
            &self.path,
            &self.taken,
            self.taken_mask,
            self.promoted,
        );
        if !self.out.iter().any(|m| m.same_effect(&mv)) {
            let _ = self.out.try_push(mv);
        }
    }

    fn hop(&mut self, victim: u64, landing: u64, then_king: bool) {
        let (v, l) = (victim.trailing_zeros(), landing.trailing_zeros());
        let was_promoted = self.promoted;
        self.path.push(sq(l));
        self.taken.push(sq(v));
        self.taken_mask |= victim;
        self.enemy &= !victim;
        if then_king {
            self.king_from(landing);
        } else if landing & self.promotion_rank != 0 {
            // A man reaching the last row mid-capture is a king at once (rule 1.5.9).
            self.promoted = true;
            self.king_from(landing);
        } else {
            self.man_from(landing);
        }
        self.promoted = was_promoted;
        self.enemy |= victim;
        self.taken_mask &= !victim;
        self.taken.pop();
        self.path.pop();
    }

    fn man_from(&mut self, at: u64) {
        let mut found = false;
        for d in DIRS {
            let victim = shift(at, d) & self.enemy;
            if victim != 0 {
                let landing = shift(victim, d) & self.empty;
                if landing != 0 {
                    found = true;
                    self.hop(victim, landing, false);
                }
            }
        }
        if !found && !self.path.is_empty() {
            self.emit();
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
        if !found && !self.path.is_empty() {
            self.emit();
        }
    }
}

impl Position {
    /// Every legal move; one per distinct resulting position.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_captures(&mut list);
        if list.is_empty() {
            self.generate_quiet(&mut list);
        }
        list
    }

    /// All capture moves (empty when no capture is possible).
    pub fn generate_captures(&self, list: &mut MoveList) {
        let side = self.side;
        let own = self.pieces(side);
        let enemy = self.pieces(side.opposite());
        let empty_base = self.empty_squares();
        for b in Bits(own & !self.kings) {
            if !self.man_can_capture(1u64 << b, enemy, empty_base) {
                continue;
            }
            let mut s = CaptureSearch {
                from: sq(b),
                enemy,
                empty: empty_base | (1u64 << b),
                promotion_rank: side.promotion_rank(),
                path: ArrayVec::new(),
                taken: ArrayVec::new(),
                taken_mask: 0,
                promoted: false,
                out: list,
            };
            s.man_from(1u64 << b);
        }
        for b in Bits(own & self.kings) {
            let mut s = CaptureSearch {
                from: sq(b),
                enemy,
                empty: empty_base | (1u64 << b),
                promotion_rank: side.promotion_rank(),
                path: ArrayVec::new(),
                taken: ArrayVec::new(),
                taken_mask: 0,
                promoted: false,
                out: list,
            };
            if s.king_can_capture(1u64 << b) {
                s.king_from(1u64 << b);
            }
        }
    }

    #[inline(always)]
    fn man_can_capture(&self, men: u64, enemy: u64, empty: u64) -> bool {
        DIRS.iter()
            .any(|&d| shift(shift(men, d) & enemy, d) & empty != 0)
    }

    /// True when the side to move must capture.
    pub fn has_capture(&self) -> bool {
        let side = self.side;
        let enemy = self.pieces(side.opposite());
        let empty = self.empty_squares();
        if self.man_can_capture(self.men(side), enemy, empty) {
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
        let side = self.side;
        let empty = self.empty_squares();
        let men = self.men(side);
        let promo = side.promotion_rank();
        for d in Self::forward_dirs(side) {
            for to in Bits(shift(men, d) & empty) {
                let from = (to as i32 - d) as u32;
                let _ = list.try_push(Move::quiet(sq(from), sq(to), (1u64 << to) & promo != 0));
            }
        }
        for b in Bits(self.kings(side)) {
            for d in DIRS {
                let mut t = shift(1u64 << b, d) & empty;
                while t != 0 {
                    let _ = list.try_push(Move::quiet(sq(b), sq(t.trailing_zeros()), false));
                    t = shift(t, d) & empty;
                }
            }
        }
    }

    /// Number of legal moves, without building quiet moves (bulk counting for perft).
    pub fn count_moves(&self) -> u64 {
        if self.has_capture() {
            let mut list = MoveList::new();
            self.generate_captures(&mut list);
            return list.len() as u64;
        }
        let side = self.side;
        let empty = self.empty_squares();
        let men = self.men(side);
        let mut n = 0u64;
        for d in Self::forward_dirs(side) {
            n += (shift(men, d) & empty).count_ones() as u64;
        }
        for b in Bits(self.kings(side)) {
            for d in DIRS {
                let mut t = shift(1u64 << b, d) & empty;
                while t != 0 {
                    n += 1;
                    t = shift(t, d) & empty;
                }
            }
        }
        n
    }

    /// Leaf count of the move tree to `depth` plies.
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(),
            _ => self
                .legal_moves()
                .iter()
                .map(|m| self.play(m).perft(depth - 1))
                .sum(),
        }
    }
}
