//! Mouse picking: clicks on squares and pieces become board clicks; hovering is tracked.

use super::scene::BoardSurface;
use crate::game::BoardClick;
use crate::game::pieces::{OnSquare, PieceToken, square_at};
use crate::rules::Square;
use bevy::prelude::*;

/// The square of the piece under the pointer, and that piece.
#[derive(Resource, Debug, Default)]
pub struct Hovered(pub Option<Square>, Option<Entity>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Hovered>()
        .add_observer(on_click)
        .add_observer(on_over)
        .add_observer(on_out)
        .add_systems(Update, drop_stale_hover);
}

/// A piece rebuilt or removed under the pointer (undo, a new game) never sends "out":
/// the hover ends with the entity, and while the pointer is over a panel.
fn drop_stale_hover(
    mut hovered: ResMut<Hovered>,
    pieces: Query<&OnSquare, With<PieceToken>>,
    mut contexts: bevy_egui::EguiContexts,
) {
    let Some(entity) = hovered.1 else {
        return;
    };
    let over_panel = contexts
        .ctx_mut()
        .is_ok_and(|ctx| ctx.is_pointer_over_egui());
    if over_panel || pieces.get(entity).map(|on| Some(on.0)) != Ok(hovered.0) {
        *hovered = Hovered::default();
    }
}

/// Clicks bubble from a disc to its piece; the first entity that names a square answers.
fn on_click(
    mut click: On<Pointer<Click>>,
    board: Query<(), With<BoardSurface>>,
    pieces: Query<&OnSquare, With<PieceToken>>,
    mut clicks: MessageWriter<BoardClick>,
) {
    if click.event.button != PointerButton::Primary {
        return;
    }
    let target = click.event_target();
    let square = if let Ok(on) = pieces.get(target) {
        Some(on.0)
    } else if board.contains(target) {
        click.event.hit.position.and_then(square_at)
    } else {
        None
    };
    if let Some(sq) = square {
        clicks.write(BoardClick(sq));
        click.propagate(false);
    }
}

fn on_over(
    over: On<Pointer<Over>>,
    pieces: Query<&OnSquare, With<PieceToken>>,
    mut hovered: ResMut<Hovered>,
) {
    if let Ok(on) = pieces.get(over.event_target()) {
        *hovered = Hovered(Some(on.0), Some(over.event_target()));
    }
}

fn on_out(
    out: On<Pointer<Out>>,
    pieces: Query<&OnSquare, With<PieceToken>>,
    mut hovered: ResMut<Hovered>,
) {
    if pieces.contains(out.event_target()) && hovered.1 == Some(out.event_target()) {
        *hovered = Hovered::default();
    }
}
