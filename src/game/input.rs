//! The human's move, square by square: selection, hop-by-hop captures, refusals with reasons.
//!
//! Clicks arrive as [`BoardClick`] messages (from mesh picking in the window, or from tests);
//! only a complete legal move leaves this module, as [`PlayMove`].

use super::analysis::Analysis;
use super::animation::{Animator, Cue};
use super::rules::{PlayMove, RebuildPieces, Rules, Status};
use super::{AppState, GameSet};
use crate::i18n::Text;
use crate::rules::{Move, Square};
use bevy::prelude::*;

/// The player clicked a dark square or the piece standing on it.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardClick(pub Square);

/// The keyboard's board cursor: a square (any of the 64, as file and rank from a1 = 0, 0)
/// that the arrow keys move and Enter or Space clicks, as the mouse would.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BoardCursor {
    pub at: Option<(u8, u8)>,
}

impl BoardCursor {
    /// The dark square under the cursor, the one a press clicks.
    pub fn square(&self) -> Option<Square> {
        self.at.and_then(|(f, r)| Square::from_coords(f, r))
    }
}

/// The board cursor's keys, already turned to the board's orientation by the view.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CursorKey {
    /// One square along files and ranks (White's view: +1 rank is up); the first step
    /// only shows the cursor.
    Step { files: i8, ranks: i8 },
    /// Enter or Space: click the square under the cursor (or show the cursor).
    Press,
    /// Esc: the cursor goes away, the arrows step through the moves again.
    Hide,
}

/// Right click or Esc: forget the selection of an incomplete move.
#[derive(Message, Debug, Clone, Copy, Default)]
pub struct CancelSelection;

/// The piece picked up and the landing squares clicked so far.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct Selection {
    pub from: Option<Square>,
    pub hops: Vec<Square>,
}

/// Squares and pieces to light up, derived from the rules resource and the selection.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct Highlights {
    /// Origin and destination of the last move.
    pub last_move: Vec<Square>,
    /// The other side's move before it, lit more faintly: each side's last move shows.
    pub previous_move: Vec<Square>,
    pub selected: Option<Square>,
    /// Where the selected piece can land next.
    pub targets: Vec<Square>,
    /// Pieces that must capture (shown while a capture is compulsory).
    pub must_capture: Vec<Square>,
    /// Pieces that can move now (for hover lighting).
    pub movable: Vec<Square>,
    /// Landing squares of a capture chosen so far.
    pub route: Vec<Square>,
    /// Set when the player tried a piece that may not move because another must capture.
    pub warn_capture: bool,
    /// The hinted move: its piece, then every landing square.
    pub hint: Vec<Square>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .init_resource::<Highlights>()
        .init_resource::<BoardCursor>()
        .add_message::<BoardClick>()
        .add_message::<CancelSelection>()
        .add_message::<TypedMove>()
        .add_message::<CursorKey>()
        .add_systems(
            Update,
            (move_cursor, handle_clicks, typed_moves)
                .chain()
                .in_set(GameSet::Input)
                .run_if(in_state(AppState::Playing)),
        )
        .add_systems(Update, update_highlights.in_set(GameSet::View));
}

/// Where the cursor first shows: the selected piece, else the last move's square, else a
/// piece that can move, else the centre.
fn cursor_start(rules: &Rules, selection: &Selection) -> (u8, u8) {
    let sq = selection
        .hops
        .last()
        .copied()
        .or(selection.from)
        .or_else(|| {
            let legal = rules.game.legal_moves();
            legal.first().map(Move::from)
        })
        .or_else(|| rules.game.moves().last().map(Move::to));
    sq.map_or((3, 3), |s| (s.file(), s.rank()))
}

/// The arrows move the cursor within the board; a press clicks the dark square under it.
fn move_cursor(
    mut keys: MessageReader<CursorKey>,
    mut cursor: ResMut<BoardCursor>,
    selection: Res<Selection>,
    rules: Res<Rules>,
    mut clicks: MessageWriter<BoardClick>,
    mut cues: MessageWriter<Cue>,
) {
    for key in keys.read() {
        match (*key, cursor.at) {
            (CursorKey::Hide, _) => cursor.at = None,
            (CursorKey::Step { .. } | CursorKey::Press, None) => {
                cursor.at = Some(cursor_start(&rules, &selection));
            }
            (CursorKey::Step { files, ranks }, Some((f, r))) => {
                let step = |v: u8, d: i8| (v as i8 + d).clamp(0, 7) as u8;
                cursor.at = Some((step(f, files), step(r, ranks)));
            }
            (CursorKey::Press, Some(_)) => match cursor.square() {
                Some(sq) => {
                    clicks.write(BoardClick(sq));
                }
                // Play is on the dark squares only.
                None => {
                    cues.write(Cue::Refused);
                }
            },
        }
    }
}

/// What a click on `sq` does given the selection so far.
enum ClickResult {
    Select(Square),
    Deselect,
    Extend(Square),
    Play(Move),
    Refuse(Text),
    MustCapture,
}

fn decide(legal: &[Move], selection: &Selection, rules: &Rules, sq: Square) -> ClickResult {
    let pos = rules.game.position();
    let own = pos
        .piece_at(sq)
        .is_some_and(|p| p.color == pos.side_to_move());
    let movable = legal.iter().any(|m| m.from() == sq);
    let capture_due = legal.first().is_some_and(Move::is_capture);
    let Some(from) = selection.from else {
        return if movable {
            ClickResult::Select(sq)
        } else if own && capture_due {
            ClickResult::MustCapture
        } else if own {
            ClickResult::Refuse(Text::PieceCannotMove)
        } else {
            ClickResult::Refuse(Text::ChooseMovablePiece)
        };
    };
    if sq == from && selection.hops.is_empty() {
        return ClickResult::Deselect;
    }
    if movable && selection.hops.is_empty() {
        return ClickResult::Select(sq);
    }
    let n = selection.hops.len();
    let candidates: Vec<&Move> = legal
        .iter()
        .filter(|m| m.from() == from && m.path().starts_with(&selection.hops))
        .collect();
    let next_hop: Vec<&Move> = candidates
        .iter()
        .copied()
        .filter(|m| m.path().get(n) == Some(&sq))
        .collect();
    let ending: Vec<&Move> = candidates
        .iter()
        .copied()
        .filter(|m| m.to() == sq)
        .collect();
    // A route already unique completes on its final square.
    if ending.len() == 1 && next_hop.iter().all(|m| m.same_effect(ending[0])) {
        return ClickResult::Play(*ending[0]);
    }
    if !next_hop.is_empty() {
        let mut hops = selection.hops.clone();
        hops.push(sq);
        let remaining: Vec<&&Move> = next_hop
            .iter()
            .filter(|m| m.path().starts_with(&hops))
            .collect();
        if remaining.len() == 1 && remaining[0].path().len() == hops.len() {
            return ClickResult::Play(**remaining[0]);
        }
        return ClickResult::Extend(sq);
    }
    if ending.len() > 1 {
        return ClickResult::Refuse(Text::SeveralRoutes);
    }
    if own && capture_due && !movable {
        return ClickResult::MustCapture;
    }
    if capture_due {
        ClickResult::Refuse(Text::NotALandingSquare)
    } else {
        ClickResult::Refuse(Text::NotALegalMove)
    }
}

/// Why a human move is refused when it is not the human's turn (a question pending, the
/// computer's turn in review or in play); nothing is said once the game is over.
fn refuse_out_of_turn(rules: &Rules, status: &mut Status, cues: &mut MessageWriter<Cue>) {
    if rules.pending_branch.is_some() {
        status.say(Text::AnswerFirst);
    } else if rules.paused() {
        status.say(Text::GamePaused);
        cues.write(Cue::Refused);
    } else if rules.in_review() {
        status.say(Text::ReviewComputerTurn);
        cues.write(Cue::Refused);
    } else if rules.game.outcome().is_none() {
        status.say(Text::WaitForComputer);
        cues.write(Cue::Refused);
    }
}

/// A move typed in the move field (`c3-d4`, `cd4`, `c3:e5:g3`, `c3e5`, `22-18`): played
/// as a click would play it, or refused with the reason and the candidates.
#[derive(Message, Debug, Clone)]
pub struct TypedMove(pub String);

#[allow(clippy::too_many_arguments)]
fn typed_moves(
    mut typed: MessageReader<TypedMove>,
    mut selection: ResMut<Selection>,
    mut status: ResMut<Status>,
    mut play: MessageWriter<PlayMove>,
    mut cues: MessageWriter<Cue>,
    rules: Res<Rules>,
    animator: Res<Animator>,
    (puzzles, language): (Res<super::puzzles::Puzzles>, Res<super::Language>),
) {
    let Some(TypedMove(text)) = typed.read().last() else {
        return;
    };
    if animator.is_busy() {
        return;
    }
    if !rules.human_to_move() {
        refuse_out_of_turn(&rules, &mut status, &mut cues);
        return;
    }
    match crate::rules::notation::parse_typed_move(rules.game.position(), text) {
        Ok(mv) if !puzzles.allows(&rules.game, &mv) => {
            status.say(puzzles.refusal());
            cues.write(Cue::Refused);
        }
        Ok(mv) => {
            *selection = Selection::default();
            play.write(PlayMove(mv));
        }
        Err(e) => {
            status.say(crate::i18n::typed_move_error(language.0, &e));
            cues.write(Cue::Refused);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn handle_clicks(
    mut clicks: MessageReader<BoardClick>,
    mut cancels: MessageReader<CancelSelection>,
    mut selection: ResMut<Selection>,
    mut highlights: ResMut<Highlights>,
    mut status: ResMut<Status>,
    mut play: MessageWriter<PlayMove>,
    mut cues: MessageWriter<Cue>,
    rules: Res<Rules>,
    animator: Res<Animator>,
    mut rebuilds: MessageReader<RebuildPieces>,
    puzzles: Res<super::puzzles::Puzzles>,
) {
    if rebuilds.read().count() > 0 || (rules.is_changed() && !rules.human_to_move()) {
        *selection = Selection::default();
    }
    if cancels.read().count() > 0 && selection.from.is_some() {
        *selection = Selection::default();
    }
    for &BoardClick(sq) in clicks.read() {
        if animator.is_busy() {
            continue;
        }
        if !rules.human_to_move() {
            refuse_out_of_turn(&rules, &mut status, &mut cues);
            continue;
        }
        let legal = rules.game.legal_moves();
        highlights.warn_capture = false;
        match decide(&legal, &selection, &rules, sq) {
            ClickResult::Select(from) => {
                *selection = Selection {
                    from: Some(from),
                    hops: Vec::new(),
                }
            }
            ClickResult::Deselect => *selection = Selection::default(),
            ClickResult::Extend(hop) => selection.hops.push(hop),
            ClickResult::Play(mv) if !puzzles.allows(&rules.game, &mv) => {
                *selection = Selection::default();
                status.say(puzzles.refusal());
                cues.write(Cue::Refused);
            }
            ClickResult::Play(mv) => {
                *selection = Selection::default();
                play.write(PlayMove(mv));
                // Only one move per frame: the rules must see it before the next click.
                break;
            }
            ClickResult::Refuse(why) => {
                status.say(why);
                cues.write(Cue::Refused);
            }
            ClickResult::MustCapture => {
                highlights.warn_capture = true;
                cues.write(Cue::Refused);
                status.say(Text::CaptureCompulsory);
            }
        }
    }
}

fn update_highlights(
    rules: Res<Rules>,
    selection: Res<Selection>,
    animator: Res<Animator>,
    analysis: Res<Analysis>,
    review: Res<super::review::GameReview>,
    puzzles: Res<super::puzzles::Puzzles>,
    mut highlights: ResMut<Highlights>,
) {
    let game = &rules.game;
    let mut next = Highlights {
        warn_capture: highlights.warn_capture,
        ..default()
    };
    if let Some(last) = game.moves().last() {
        next.last_move = vec![last.from(), last.to()];
        if let Some(previous) = game.moves().iter().rev().nth(1) {
            next.previous_move = vec![previous.from(), previous.to()];
        }
    }
    if rules.human_to_move() && !animator.is_busy() {
        let legal = game.legal_moves();
        next.movable = legal.iter().map(Move::from).collect();
        next.movable.sort();
        next.movable.dedup();
        if legal.first().is_some_and(Move::is_capture) {
            next.must_capture = next.movable.clone();
        }
        if let Some(hint) = analysis.hint.or(puzzles.hint(game)) {
            next.hint = std::iter::once(hint.from())
                .chain(hint.path().iter().copied())
                .collect();
        }
        if let Some(from) = selection.from {
            next.selected = Some(from);
            next.route = selection.hops.clone();
            let n = selection.hops.len();
            next.targets = legal
                .iter()
                .filter(|m| m.from() == from && m.path().starts_with(&selection.hops))
                .filter_map(|m| m.path().get(n).copied())
                .collect();
            next.targets.sort();
            next.targets.dedup();
        }
    } else {
        next.warn_capture = false;
    }
    // After a marked move of an analysed game, the better move as the hint's arrow.
    if next.hint.is_empty()
        && !animator.is_busy()
        && let Some(better) = review
            .move_before(game.ply())
            .filter(|r| r.mark.is_some())
            .and_then(|r| r.best_line.first())
    {
        next.hint = std::iter::once(better.from())
            .chain(better.path().iter().copied())
            .collect();
    }
    if *highlights != next {
        *highlights = next;
    }
}
