//! Piece entities: one parent per piece with one disc (man) or two stacked discs (king).

use super::GameSet;
use super::animation::Animator;
use super::rules::{RebuildPieces, Rules};
use crate::rules::{Color, PieceKind, Position, Square};
use bevy::prelude::*;

/// Radius of a disc in board units (a square is 1 x 1).
pub const DISC_RADIUS: f32 = 0.39;
/// Height of one disc; a king's second disc sits this high on the first.
pub const DISC_HEIGHT: f32 = 0.13;

/// A piece on the board. Its square and kind follow the rules resource once animations end.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceToken {
    pub color: Color,
    pub king: bool,
}

/// The square a piece stands on (the origin of a move while it is animated).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnSquare(pub Square);

/// One turned disc of a piece; `level` 0 is the bottom one.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Disc {
    pub color: Color,
    pub level: u8,
}

/// A piece already jumped in the current capture; it stays on the board, dimmed, until the
/// capture sequence ends (the Turkish strike).
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct Taken;

/// The centre of a square on the board surface (White sits at +z, file a at -x).
pub fn square_center(sq: Square) -> Vec3 {
    Vec3::new(sq.file() as f32 - 3.5, 0.0, 3.5 - sq.rank() as f32)
}

/// The square under a point of the board surface, if it is a dark square.
pub fn square_at(point: Vec3) -> Option<Square> {
    let file = (point.x + 4.0).floor();
    let rank = (4.0 - point.z).floor();
    if !(0.0..8.0).contains(&file) || !(0.0..8.0).contains(&rank) {
        return None;
    }
    Square::from_coords(file as u8, rank as u8)
}

/// One disc as a child of a piece.
pub fn disc(color: Color, level: u8) -> impl Bundle {
    (
        Disc { color, level },
        Transform::from_xyz(0.0, level as f32 * DISC_HEIGHT, 0.0),
        Visibility::default(),
    )
}

/// Spawns a piece with its discs on `sq`.
pub fn spawn_piece(commands: &mut Commands, sq: Square, color: Color, king: bool) -> Entity {
    let mut piece = commands.spawn((
        PieceToken { color, king },
        OnSquare(sq),
        Transform::from_translation(square_center(sq)),
        Visibility::default(),
        Name::new(format!(
            "{} {} on {sq}",
            color_word(color),
            if king { "king" } else { "man" }
        )),
    ));
    piece.with_children(|parent| {
        parent.spawn(disc(color, 0));
        if king {
            parent.spawn(disc(color, 1));
        }
    });
    piece.id()
}

fn color_word(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Every piece of a position, as (square, colour, king).
pub fn pieces_of(pos: &Position) -> Vec<(Square, Color, bool)> {
    Square::all()
        .filter_map(|sq| {
            pos.piece_at(sq)
                .map(|p| (sq, p.color, p.kind == PieceKind::King))
        })
        .collect()
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, |mut rebuild: MessageWriter<RebuildPieces>| {
        rebuild.write(RebuildPieces);
    })
    .add_systems(
        Update,
        rebuild_pieces
            .in_set(GameSet::Animate)
            .before(super::animation::animate),
    );
}

/// Despawns every piece and spawns the rules resource's position afresh, with no animation.
fn rebuild_pieces(
    mut requests: MessageReader<RebuildPieces>,
    mut commands: Commands,
    rules: Res<Rules>,
    pieces: Query<Entity, With<PieceToken>>,
    mut animator: ResMut<Animator>,
) {
    if requests.read().count() == 0 {
        return;
    }
    animator.clear();
    for entity in &pieces {
        commands.entity(entity).despawn();
    }
    for (sq, color, king) in pieces_of(rules.game.position()) {
        spawn_piece(&mut commands, sq, color, king);
    }
}
