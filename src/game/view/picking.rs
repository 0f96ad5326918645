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
        // The mouse reaches picking through `mouse_in_order` instead of Bevy's own reader.
        .insert_resource(bevy::picking::input::PointerInputSettings {
            is_mouse_enabled: false,
            ..default()
        })
        .add_systems(
            First,
            mouse_in_order.in_set(bevy::picking::PickingSystems::Input),
        )
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

/// Button events held back to the next frame, with where the pointer was.
#[derive(Default)]
struct HeldBack(Vec<(Vec2, bevy::window::WindowEvent)>);

/// The mouse as picking's pointer, like Bevy's own reader, except that a press or
/// release arriving in the same frame as a move of the pointer waits for the next frame:
/// picking finds what is under the pointer once a frame, so on a slow frame a move and a
/// whole click together would be judged at the old place and the click lost.
fn mouse_in_order(
    mut window_events: MessageReader<bevy::window::WindowEvent>,
    primary: Query<Entity, With<bevy::window::PrimaryWindow>>,
    mut cursor: Local<Vec2>,
    mut held: Local<HeldBack>,
    mut inputs: MessageWriter<bevy::picking::pointer::PointerInput>,
) {
    use bevy::camera::RenderTarget;
    use bevy::input::ButtonState;
    use bevy::picking::pointer::{Location, PointerAction, PointerButton, PointerId, PointerInput};
    use bevy::window::{WindowEvent, WindowRef};
    let target = |window: Entity| {
        RenderTarget::Window(WindowRef::Entity(window)).normalize(primary.single().ok())
    };
    let mut queue: Vec<(Option<Vec2>, WindowEvent)> =
        held.0.drain(..).map(|(p, e)| (Some(p), e)).collect();
    queue.extend(window_events.read().map(|e| (None, e.clone())));
    let mut moved = false;
    let mut holding = false;
    for (at, event) in queue {
        if holding {
            held.0.push((at.unwrap_or(*cursor), event));
            continue;
        }
        let (window, position, action) = match &event {
            WindowEvent::CursorMoved(e) => {
                let delta = e.position - *cursor;
                *cursor = e.position;
                moved = true;
                (e.window, e.position, PointerAction::Move { delta })
            }
            WindowEvent::MouseButtonInput(input) => {
                if moved && at.is_none() {
                    holding = true;
                    held.0.push((*cursor, event.clone()));
                    continue;
                }
                let button = match input.button {
                    MouseButton::Left => PointerButton::Primary,
                    MouseButton::Right => PointerButton::Secondary,
                    MouseButton::Middle => PointerButton::Middle,
                    _ => continue,
                };
                let action = match input.state {
                    ButtonState::Pressed => PointerAction::Press(button),
                    ButtonState::Released => PointerAction::Release(button),
                };
                (input.window, at.unwrap_or(*cursor), action)
            }
            WindowEvent::MouseWheel(e) => (
                e.window,
                *cursor,
                PointerAction::Scroll {
                    x: e.x,
                    y: e.y,
                    unit: e.unit,
                    phase: e.phase,
                },
            ),
            _ => continue,
        };
        if let Some(target) = target(window) {
            inputs.write(PointerInput::new(
                PointerId::Mouse,
                Location { target, position },
                action,
            ));
        }
    }
}
