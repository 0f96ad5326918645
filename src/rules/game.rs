//! A game: variant, history with undo/redo, the outcome and the draw rules 7.2.3-7.2.8.
//!
//! Counting is in plies; "15 moves" means 15 by each side, 30 plies. Every running draw
//! rule reports how many plies remain (see [`Game::draw_countdowns`]).

use super::bitboard::LONG_DIAGONAL;
use super::fen::FenError;
use super::mv::Move;
use super::notation::NotationError;
use super::position::{Color, Position};
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The two games Shashki plays; they differ only in who wins and in the draw rules used.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum Variant {
    /// Русские шашки: a side without pieces or moves loses.
    #[default]
    Russian,
    /// Поддавки: a side without pieces or moves wins.
    Giveaway,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Variant::Russian => "russian",
            Variant::Giveaway => "giveaway",
        }
    }
}

impl std::str::FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "russian" | "r" | "русские" => Ok(Variant::Russian),
            "giveaway" | "poddavki" | "g" | "поддавки" | "antidraughts" => {
                Ok(Variant::Giveaway)
            }
            other => Err(format!(
                "unknown variant '{other}' (expected russian or giveaway)"
            )),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rule that drew a game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum DrawRule {
    /// 7.2.1: both players agreed.
    Agreement,
    /// 7.2.3: the same position with the same side to move for the third time.
    Repetition,
    /// 7.2.4: three or more kings against a lone king, not taken by the 15th move.
    ThreeKingsVsOne,
    /// 7.2.5: 15 moves by each side with kings only, no man moved, no capture.
    KingsOnly,
    /// 7.2.6: both sides have kings and the balance stayed for 30 (4-5 pieces) or 60 (6-7) moves.
    BalanceUnchanged,
    /// 7.2.7: three pieces with a king against a lone king on the long diagonal, 5 moves.
    LongDiagonal,
    /// 7.2.8: two pieces with a king, or one king, against a lone king, 5 moves.
    SmallEnding,
    /// 7.2.9: under a clock without increment the endings of 7.2.7 and 7.2.8 are drawn at
    /// once, unless the win can be shown.
    StandardEnding,
}

impl DrawRule {
    /// The rule number in the FMJD/FSR rules.
    pub fn number(self) -> &'static str {
        match self {
            DrawRule::Agreement => "7.2.1",
            DrawRule::Repetition => "7.2.3",
            DrawRule::ThreeKingsVsOne => "7.2.4",
            DrawRule::KingsOnly => "7.2.5",
            DrawRule::BalanceUnchanged => "7.2.6",
            DrawRule::LongDiagonal => "7.2.7",
            DrawRule::SmallEnding => "7.2.8",
            DrawRule::StandardEnding => "7.2.9",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            DrawRule::Agreement => "draw by agreement",
            DrawRule::Repetition => "threefold repetition",
            DrawRule::ThreeKingsVsOne => "three kings against one, 15 moves",
            DrawRule::KingsOnly => "15 moves with kings only",
            DrawRule::BalanceUnchanged => "balance unchanged in a king ending",
            DrawRule::LongDiagonal => "lone king on the long diagonal, 5 moves",
            DrawRule::SmallEnding => "small king ending, 5 moves",
            DrawRule::StandardEnding => "standard draw ending under a clock without increment",
        }
    }
}

/// Why a game was won.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum WinReason {
    /// The side to move had no pieces left.
    NoPieces,
    /// The side to move had pieces but no legal move.
    NoMoves,
    /// The loser resigned.
    Resignation,
    /// The loser's time ran out (1.8.1).
    Time,
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Outcome {
    Win { winner: Color, reason: WinReason },
    Draw(DrawRule),
}

impl Outcome {
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw(_) => None,
        }
    }

    /// PDN result text: `1-0`, `0-1`, `1/2-1/2`.
    pub fn result_text(self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// A draw rule in progress and how many plies remain before it draws the game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Countdown {
    pub rule: DrawRule,
    pub plies_left: u32,
}

impl Countdown {
    /// Moves left, rounding up (for a player: "9 moves left").
    pub fn moves_left(&self) -> u32 {
        self.plies_left.div_ceil(2)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("the game is over")]
    GameOver,
    #[error("{0} is not a legal move here")]
    IllegalMove(String),
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error("move {ply} ({text}): {error}")]
    Replay {
        ply: usize,
        text: String,
        error: String,
    },
}

/// Counters of the draw rules, kept for every position of the history.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Counters {
    /// Plies since the last man move or capture (7.2.3 window, 7.2.5).
    pub reversible: u32,
    /// Plies since the last capture or promotion (the balance of forces, 7.2.4 and 7.2.6-7.2.8).
    pub balance: u32,
    /// Side to move when the current balance arose (to count the stronger side's moves).
    pub balance_first_mover: Option<Color>,
    /// The lone king stood on the long diagonal when the balance arose (7.2.7).
    pub lone_king_on_long_diagonal: bool,
}

impl Counters {
    /// The counters of a balance that arises in `pos` (after a capture or a promotion, or
    /// at the start of a game).
    pub fn fresh(pos: &Position) -> Counters {
        Counters {
            reversible: 0,
            balance: 0,
            balance_first_mover: Some(pos.side_to_move()),
            lone_king_on_long_diagonal: lone_on_diagonal(pos),
        }
    }
}

/// The counting rules running for a position with the given counters, and the plies left
/// before each draws the game: the referee's reading of 7.2.4-7.2.8 in one place.
pub fn countdowns(variant: Variant, pos: &Position, c: &Counters) -> ArrayVec<Countdown, 4> {
    let mut out = ArrayVec::new();
    let both_kings = pos.kings(Color::White) != 0 && pos.kings(Color::Black) != 0;
    // 7.2.5 (both variants): kings only, no man moved, no capture.
    if both_kings {
        out.push(Countdown {
            rule: DrawRule::KingsOnly,
            plies_left: 30u32.saturating_sub(c.reversible),
        });
    }
    // Plies the stronger side needs before its n-th move since the balance arose has been made.
    let stronger_limit = |strong: Color, moves: u32| -> u32 {
        let first = c.balance_first_mover.unwrap_or(strong);
        // The stronger side's n-th move is ply 2n-1 if it moved first, else ply 2n.
        let needed = if first == strong {
            2 * moves - 1
        } else {
            2 * moves
        };
        needed.saturating_sub(c.balance)
    };
    if let Some((strong, men, kings)) = lone_king_ending(pos) {
        let pieces = men + kings;
        // 7.2.4: three or more kings (no men) against a lone king, 15 moves. In поддавки
        // the rule asks also that the stronger side holds the long diagonal.
        let holds_diagonal = pos.kings(strong) & LONG_DIAGONAL != 0;
        if men == 0 && kings >= 3 && (variant == Variant::Russian || holds_diagonal) {
            out.push(Countdown {
                rule: DrawRule::ThreeKingsVsOne,
                plies_left: stronger_limit(strong, 15),
            });
        }
        if variant == Variant::Russian {
            // 7.2.7: three pieces with a king against a lone king on the long diagonal.
            if pieces == 3 && c.lone_king_on_long_diagonal {
                out.push(Countdown {
                    rule: DrawRule::LongDiagonal,
                    plies_left: stronger_limit(strong, 5),
                });
            }
            // 7.2.8: two kings, king and man, or one king against a lone king.
            if pieces <= 2 {
                out.push(Countdown {
                    rule: DrawRule::SmallEnding,
                    plies_left: stronger_limit(strong, 5),
                });
            }
        }
    }
    // 7.2.6: both sides have kings, balance unchanged: 30 moves with 4-5 pieces, 60 with 6-7.
    if variant == Variant::Russian && both_kings {
        let limit = match pos.piece_count() {
            4 | 5 => Some(60),
            6 | 7 => Some(120),
            _ => None,
        };
        if let Some(limit) = limit {
            out.push(Countdown {
                rule: DrawRule::BalanceUnchanged,
                plies_left: limit - c.balance.min(limit),
            });
        }
    }
    out
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    position: Position,
    counters: Counters,
}

/// A game of draughts from a start position, with its history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    variant: Variant,
    history: Vec<Entry>,
    moves: Vec<Move>,
    redo: Vec<Move>,
    /// Resignation or agreement, which no position shows.
    declared: Option<Outcome>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Variant::Russian)
    }
}

/// Material as (men, kings) of the stronger and lone side, when one side has a lone king.
pub fn lone_king_ending(pos: &Position) -> Option<(Color, u32, u32)> {
    for strong in [Color::White, Color::Black] {
        let weak = strong.opposite();
        if pos.pieces(weak).count_ones() == 1 && pos.kings(weak) != 0 && pos.kings(strong) != 0 {
            let men = pos.men(strong).count_ones();
            let kings = pos.kings(strong).count_ones();
            return Some((strong, men, kings));
        }
    }
    None
}

impl Game {
    pub fn new(variant: Variant) -> Game {
        Game::from_position(variant, Position::start())
    }

    /// A game from a set-up position (validated by its constructor).
    pub fn from_position(variant: Variant, position: Position) -> Game {
        let counters = Counters::fresh(&position);
        Game {
            variant,
            history: vec![Entry { position, counters }],
            moves: Vec::new(),
            redo: Vec::new(),
            declared: None,
        }
    }

    pub fn from_fen(variant: Variant, fen: &str) -> Result<Game, GameError> {
        Ok(Game::from_position(variant, Position::from_fen(fen)?))
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Changes the variant of a game (the history stays; the outcome is recomputed).
    pub fn set_variant(&mut self, variant: Variant) {
        self.variant = variant;
    }

    pub fn start_position(&self) -> &Position {
        &self.history[0].position
    }

    pub fn position(&self) -> &Position {
        &self.history[self.history.len() - 1].position
    }

    /// Position after `ply` plies (0 = start); `None` past the end.
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        self.history.get(ply).map(|e| &e.position)
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    pub fn side_to_move(&self) -> Color {
        self.position().side_to_move()
    }

    /// Legal moves now; none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome().is_some() {
            Vec::new()
        } else {
            self.position().legal_moves().to_vec()
        }
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: &Move) -> Result<(), GameError> {
        if self.outcome().is_some() {
            return Err(GameError::GameOver);
        }
        let pos = *self.position();
        let legal = pos.legal_moves();
        if !legal.iter().any(|m| m.same_effect(mv)) {
            return Err(GameError::IllegalMove(mv.to_string()));
        }
        // Moves are built only by the generator, so the route given is a legal one.
        self.push(*mv);
        self.redo.clear();
        Ok(())
    }

    /// Plays a move written in notation (`c3-d4`, `a5:c3:e1`, `22x15`).
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if self.outcome().is_some() {
            return Err(GameError::GameOver);
        }
        let mv = self.position().parse_move(text)?;
        self.play(&mv)?;
        Ok(mv)
    }

    fn push(&mut self, mv: Move) {
        let prev = &self.history[self.history.len() - 1];
        let pos = prev.position;
        let next = pos.play(&mv);
        let man_moved = pos.men(pos.side_to_move()) & mv.from().mask() != 0;
        let balance_changed =
            mv.is_capture() || mv.promotes() || (man_moved && next.kings & mv.to().mask() != 0);
        let c = prev.counters;
        let counters = Counters {
            reversible: if man_moved || mv.is_capture() {
                0
            } else {
                c.reversible + 1
            },
            balance: if balance_changed { 0 } else { c.balance + 1 },
            balance_first_mover: if balance_changed {
                Some(next.side_to_move())
            } else {
                c.balance_first_mover
            },
            lone_king_on_long_diagonal: if balance_changed {
                lone_on_diagonal(&next)
            } else {
                c.lone_king_on_long_diagonal
            },
        };
        self.history.push(Entry {
            position: next,
            counters,
        });
        self.moves.push(mv);
    }

    /// Takes back the last move; it can be replayed with [`Game::redo`].
    pub fn undo(&mut self) -> Option<Move> {
        if self.declared.take().is_some() {
            return None;
        }
        let mv = self.moves.pop()?;
        self.history.pop();
        self.redo.push(mv);
        Some(mv)
    }

    /// Replays the last move taken back.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = self.redo.pop()?;
        self.push(mv);
        Some(mv)
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Moves that [`Game::redo`] would replay, next one last.
    pub fn redo_moves(&self) -> &[Move] {
        &self.redo
    }

    /// Cuts the game back to `ply` plies, dropping the tail and the moves that could be
    /// replayed (for continuing from a reviewed point).
    pub fn truncate(&mut self, ply: usize) {
        if ply < self.moves.len() {
            self.moves.truncate(ply);
            self.history.truncate(ply + 1);
            self.declared = None;
        }
        self.redo.clear();
    }

    /// The side `color` resigns.
    pub fn resign(&mut self, color: Color) {
        if self.outcome().is_none() {
            self.declared = Some(Outcome::Win {
                winner: color.opposite(),
                reason: WinReason::Resignation,
            });
        }
    }

    /// Both players agree to a draw (7.2.1).
    pub fn agree_draw(&mut self) {
        if self.outcome().is_none() {
            self.declared = Some(Outcome::Draw(DrawRule::Agreement));
        }
    }

    /// A declared result (resignation, agreement, or a result recorded in a PDN file).
    pub fn declare(&mut self, outcome: Outcome) {
        self.declared = Some(outcome);
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.declared {
            return Some(o);
        }
        let pos = self.position();
        let side = pos.side_to_move();
        let reason = if pos.pieces(side) == 0 {
            Some(WinReason::NoPieces)
        } else if pos.count_moves() == 0 {
            Some(WinReason::NoMoves)
        } else {
            None
        };
        if let Some(reason) = reason {
            let winner = match self.variant {
                Variant::Russian => side.opposite(),
                Variant::Giveaway => side,
            };
            return Some(Outcome::Win { winner, reason });
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::Draw(DrawRule::Repetition));
        }
        self.draw_countdowns()
            .into_iter()
            .find(|c| c.plies_left == 0)
            .map(|c| Outcome::Draw(c.rule))
    }

    /// How many times the current position (with the same side to move) has occurred.
    pub fn repetitions(&self) -> usize {
        let last = self.history.len() - 1;
        let current = &self.history[last];
        let window = current.counters.reversible as usize;
        self.history[last - window.min(last)..=last]
            .iter()
            .filter(|e| e.position == current.position)
            .count()
    }

    /// The counting draw rules now running and the plies left before each draws the game.
    pub fn draw_countdowns(&self) -> Vec<Countdown> {
        let entry = &self.history[self.history.len() - 1];
        countdowns(self.variant, &entry.position, &entry.counters).to_vec()
    }

    /// The draw rules' counters of the current position.
    pub fn counters(&self) -> Counters {
        self.history[self.history.len() - 1].counters
    }

    /// Replays a list of move texts from a start position.
    pub fn replay<S: AsRef<str>>(
        variant: Variant,
        start: Position,
        moves: &[S],
    ) -> Result<Game, GameError> {
        let mut game = Game::from_position(variant, start);
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text.as_ref())
                .map_err(|e| GameError::Replay {
                    ply: i + 1,
                    text: text.as_ref().to_string(),
                    error: e.to_string(),
                })?;
        }
        Ok(game)
    }
}

/// Whether the position is a lone-king ending with the lone king on the long diagonal a1-h8
/// (the condition of 7.2.7 when a balance arises).
pub fn lone_on_diagonal(pos: &Position) -> bool {
    lone_king_ending(pos)
        .is_some_and(|(strong, _, _)| pos.kings(strong.opposite()) & LONG_DIAGONAL != 0)
}

/// The serialised form of a game: variant, start FEN, moves and undone moves as text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub variant: Variant,
    pub start_fen: String,
    pub moves: Vec<String>,
    #[serde(default)]
    pub redo: Vec<String>,
    #[serde(default)]
    pub declared: Option<Outcome>,
}

impl From<&Game> for GameRecord {
    fn from(g: &Game) -> Self {
        GameRecord {
            variant: g.variant,
            start_fen: g.start_position().to_fen(),
            moves: g.moves.iter().map(|m| m.to_string()).collect(),
            redo: g.redo.iter().map(|m| m.to_string()).collect(),
            declared: g.declared,
        }
    }
}

impl TryFrom<GameRecord> for Game {
    type Error = GameError;
    fn try_from(r: GameRecord) -> Result<Game, GameError> {
        let start = Position::from_fen(&r.start_fen)?;
        let mut game = Game::replay(r.variant, start, &r.moves)?;
        // Redo moves are stored next-last; replay them forward to check, then take them back.
        let n = r.redo.len();
        for text in r.redo.iter().rev() {
            game.play_text(text).map_err(|e| GameError::Replay {
                ply: 0,
                text: text.clone(),
                error: e.to_string(),
            })?;
        }
        for _ in 0..n {
            game.undo();
        }
        game.declared = r.declared;
        Ok(game)
    }
}

impl Serialize for Game {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        GameRecord::from(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
        let record = GameRecord::deserialize(d)?;
        Game::try_from(record).map_err(serde::de::Error::custom)
    }
}
