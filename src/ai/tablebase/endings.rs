//! Classic endings for the trainer, taken from the tables, and the tables' own move.
//!
//! Each theme is a material with a condition on the start (the Petrov triangle: three
//! kings, one on the main road a1-h8, against a lone king off it); its positions are the
//! won ones with the side to win to move and no capture due, the hardest first.

use super::{Material, TableKey, Tablebase, Wdl};
use crate::rules::bitboard::LONG_DIAGONAL;
use crate::rules::{Color, Game, Move, Position, Variant};

/// A kind of classic ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Three kings, one on the main road, against a lone king off it (7.2.4: 15 moves).
    PetrovTriangle,
    /// Two kings and a man against a king (7.2.5, or 7.2.7 with the king on a1-h8).
    TwoKingsAndManVsKing,
    /// A king and a man against a king and a man.
    KingAndManVsKingAndMan,
    /// A king and two men against a king.
    KingAndTwoMenVsKing,
    /// поддавки: a lone king against two kings, to be given away.
    GiveawayKingVsTwoKings,
    /// поддавки: a king and a man against a king, all to be given away.
    GiveawayKingAndManVsKing,
}

impl Theme {
    pub const ALL: [Theme; 6] = [
        Theme::PetrovTriangle,
        Theme::TwoKingsAndManVsKing,
        Theme::KingAndTwoMenVsKing,
        Theme::KingAndManVsKingAndMan,
        Theme::GiveawayKingVsTwoKings,
        Theme::GiveawayKingAndManVsKing,
    ];

    pub fn variant(self) -> Variant {
        match self {
            Theme::GiveawayKingVsTwoKings | Theme::GiveawayKingAndManVsKing => Variant::Giveaway,
            _ => Variant::Russian,
        }
    }

    fn material(self) -> &'static str {
        match self {
            Theme::PetrovTriangle => "KKKvK",
            Theme::TwoKingsAndManVsKing => "KKMvK",
            Theme::KingAndManVsKingAndMan => "KMvKM",
            Theme::KingAndTwoMenVsKing => "KMMvK",
            Theme::GiveawayKingVsTwoKings => "KvKK",
            Theme::GiveawayKingAndManVsKing => "KMvK",
        }
    }

    /// Whether a position suits the theme beyond its material (White is the side to win).
    fn fits(self, pos: &Position) -> bool {
        match self {
            Theme::PetrovTriangle => {
                pos.kings(Color::White) & LONG_DIAGONAL != 0
                    && pos.kings(Color::Black) & LONG_DIAGONAL == 0
            }
            _ => true,
        }
    }
}

/// One ending of the trainer: White to move wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub theme: Theme,
    pub start: Position,
    /// Plies to the first capture or promotion with the best play on both sides.
    pub plies: u32,
}

/// Up to `count` endings of a theme from the tables, the hardest first, spread over the
/// board (no two with the same distance and lone piece square).
pub fn endings(tb: &Tablebase, theme: Theme, count: usize) -> Vec<Ending> {
    if tb.variant() != theme.variant() {
        return Vec::new();
    }
    let Ok(m) = theme.material().parse::<Material>() else {
        return Vec::new();
    };
    let flipped = !m.is_canonical();
    let Some(t) = tb.table(TableKey {
        material: m.canonical(),
        diagonal: false,
    }) else {
        return Vec::new();
    };
    let mut found: Vec<Ending> = Vec::new();
    for i in 0..t.layout.len() {
        let Some(p) = t.layout.position(i) else {
            continue;
        };
        let pos = if flipped { super::index::flip(&p) } else { p };
        if pos.side_to_move() != Color::White
            || pos.has_capture()
            || pos.with_side_to_move(Color::Black).has_capture()
            || !theme.fits(&pos)
        {
            continue;
        }
        let game = Game::from_position(theme.variant(), pos);
        let Some(probe) = tb.probe_game(&game) else {
            continue;
        };
        if probe.wdl == Wdl::Win && probe.plies >= 3 {
            found.push(Ending {
                theme,
                start: pos,
                plies: probe.plies,
            });
        }
    }
    found.sort_by_key(|e| (std::cmp::Reverse(e.plies), e.start.black, e.start.white));
    let mut out: Vec<Ending> = Vec::new();
    for e in found {
        if out.len() >= count {
            break;
        }
        if !out
            .iter()
            .any(|o| o.plies == e.plies && o.start.black == e.start.black)
        {
            out.push(e);
        }
    }
    out
}

/// The tables' move: the quickest win, the longest defence, a draw where there is one
/// (see [`Tablebase::best_move`]). `None` when the tables do not hold the position or the
/// game is over.
pub fn best_move(tb: &Tablebase, game: &Game) -> Option<Move> {
    if let Some((mv, _, _)) = tb.best_move(game) {
        return Some(mv);
    }
    // A drawn position: any move that keeps the draw.
    tb.probe_game(game)?;
    let mover = game.side_to_move();
    game.legal_moves().into_iter().find(|mv| {
        let mut after = game.clone();
        after.play(mv).is_ok()
            && match after.outcome() {
                Some(o) => o.winner() != Some(mover.opposite()),
                None => tb.probe_game(&after).is_some_and(|p| p.wdl != Wdl::Win),
            }
    })
}

/// Whether the side to move keeps the win it had by playing `mv` (for the trainer: a
/// move that lets the win go is refused).
pub fn keeps_win(tb: &Tablebase, game: &Game, mv: &Move) -> bool {
    let mover = game.side_to_move();
    let mut after = game.clone();
    if after.play(mv).is_err() {
        return false;
    }
    match after.outcome() {
        Some(o) => o.winner() == Some(mover),
        None => tb.probe_game(&after).is_some_and(|p| p.wdl == Wdl::Loss),
    }
}
