//! Looks derived from game state: disc meshes and materials, square highlights.

use super::meshes::piece_disc;
use super::picking::Hovered;
use super::quality::Quality;
use super::wood::{WoodLight, WoodMaterial};
use crate::game::pieces::{Disc, OnSquare, PieceToken, Taken, square_center};
use crate::game::{GameSet, Highlights};
use crate::rules::{Color as Side, Square};
use bevy::prelude::*;

/// How a piece is lit now.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Look {
    Normal,
    Hover,
    Selected,
    Taken,
}

/// One look of a piece at each quality: the standard material (clearcoat, shadows) and
/// the cheap one a software renderer can afford.
#[derive(Clone)]
struct PieceLook {
    standard: Handle<StandardMaterial>,
    cheap: Handle<WoodMaterial>,
}

#[derive(Resource)]
struct PieceLooks {
    mesh: Handle<Mesh>,
    /// Indexed by colour, then look.
    materials: [[PieceLook; 4]; 2],
}

impl PieceLooks {
    fn get(&self, side: Side, look: Look) -> &PieceLook {
        let i = match look {
            Look::Normal => 0,
            Look::Hover => 1,
            Look::Selected => 2,
            Look::Taken => 3,
        };
        &self.materials[side.index()][i]
    }
}

/// Overlay materials for squares (flat colours: the cheap shader at every quality).
#[derive(Resource)]
struct MarkerLooks {
    quad: Handle<Mesh>,
    dot: Handle<Mesh>,
    last_move: Handle<WoodMaterial>,
    previous_move: Handle<WoodMaterial>,
    selected: Handle<WoodMaterial>,
    target: Handle<WoodMaterial>,
    route: Handle<WoodMaterial>,
    must_capture: Handle<WoodMaterial>,
    warn: Handle<WoodMaterial>,
    hint: Handle<WoodMaterial>,
}

/// A copy of a material drawn under the table while the game starts, then removed.
#[derive(Component)]
struct Prewarm;

/// A highlight entity; all are rebuilt when [`Highlights`] changes.
#[derive(Component)]
struct Marker;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, setup_looks).add_systems(
        Update,
        (
            dress_discs,
            style_pieces,
            place_markers,
            draw_cursor,
            end_prewarm,
        )
            .chain()
            .in_set(GameSet::View),
    );
}

fn setup_looks(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut woods: ResMut<Assets<WoodMaterial>>,
) {
    let alpha_mode = |alpha: f32| {
        if alpha < 1.0 {
            AlphaMode::Blend
        } else {
            AlphaMode::Opaque
        }
    };
    let mut piece = |base: Color, emissive: LinearRgba, alpha: f32| PieceLook {
        standard: materials.add(StandardMaterial {
            base_color: base.with_alpha(alpha),
            emissive,
            perceptual_roughness: 0.32,
            reflectance: 0.5,
            clearcoat: 0.6,
            clearcoat_perceptual_roughness: 0.25,
            alpha_mode: alpha_mode(alpha),
            ..default()
        }),
        cheap: woods.add(WoodMaterial::plain(
            {
                let glow = Color::linear_rgb(emissive.red, emissive.green, emissive.blue);
                let mut light = WoodLight::sunlit(base.with_alpha(alpha), 0.35, 48.0);
                let g = glow.to_linear();
                light.ambient += Vec4::new(g.red, g.green, g.blue, 0.0) * 2.5;
                light
            },
            alpha_mode(alpha),
        )),
    };
    let white = Color::srgb(0.93, 0.88, 0.76);
    let black = Color::srgb(0.16, 0.045, 0.035);
    let mut set = |base: Color| {
        [
            piece(base, LinearRgba::BLACK, 1.0),
            piece(base, LinearRgba::rgb(0.25, 0.2, 0.05), 1.0),
            piece(base, LinearRgba::rgb(0.05, 0.45, 0.12), 1.0),
            piece(
                base.mix(&Color::srgb(0.7, 0.1, 0.1), 0.45),
                LinearRgba::BLACK,
                0.55,
            ),
        ]
    };
    let materials_white = set(white);
    let materials_black = set(black);
    let looks = PieceLooks {
        mesh: meshes.add(piece_disc()),
        materials: [materials_white, materials_black],
    };
    // Every material drawn once from the start, hidden under the table, so the renderer
    // builds all pipelines while the game starts rather than in the middle of a move.
    for look in looks.materials.iter().flatten() {
        commands.spawn((
            Mesh3d(looks.mesh.clone()),
            MeshMaterial3d(look.standard.clone()),
            Transform::from_xyz(0.0, -3.0, 0.0),
            Pickable::IGNORE,
            Prewarm,
        ));
        commands.spawn((
            Mesh3d(looks.mesh.clone()),
            MeshMaterial3d(look.cheap.clone()),
            Transform::from_xyz(0.0, -3.0, 0.0),
            Pickable::IGNORE,
            Prewarm,
        ));
    }
    commands.insert_resource(looks);
    let overlay = |c: Color, woods: &mut Assets<WoodMaterial>| {
        woods.add(WoodMaterial::plain(WoodLight::flat(c), AlphaMode::Blend))
    };
    let markers = MarkerLooks {
        quad: meshes.add(Plane3d::default().mesh().size(0.96, 0.96)),
        dot: meshes.add(Circle::new(0.16)),
        last_move: overlay(Color::srgba(1.0, 0.8, 0.25, 0.35), &mut woods),
        previous_move: overlay(Color::srgba(1.0, 0.8, 0.25, 0.16), &mut woods),
        selected: overlay(Color::srgba(0.3, 1.0, 0.4, 0.45), &mut woods),
        target: overlay(Color::srgba(0.35, 1.0, 0.45, 0.8), &mut woods),
        route: overlay(Color::srgba(0.3, 0.6, 1.0, 0.45), &mut woods),
        must_capture: overlay(Color::srgba(1.0, 0.45, 0.1, 0.4), &mut woods),
        warn: overlay(Color::srgba(1.0, 0.1, 0.05, 0.6), &mut woods),
        hint: overlay(Color::srgba(0.55, 0.35, 1.0, 0.55), &mut woods),
    };
    for material in [&markers.last_move, &markers.previous_move, &markers.target] {
        commands.spawn((
            Mesh3d(markers.quad.clone()),
            MeshMaterial3d(material.clone()),
            Transform::from_xyz(0.0, -3.0, 0.0),
            Pickable::IGNORE,
            Prewarm,
        ));
    }
    commands.insert_resource(markers);
}

/// Gives new discs their mesh (their material follows in [`style_pieces`]).
fn dress_discs(
    mut commands: Commands,
    looks: Res<PieceLooks>,
    discs: Query<Entity, (With<Disc>, Without<Mesh3d>)>,
) {
    for entity in &discs {
        commands.entity(entity).insert(Mesh3d(looks.mesh.clone()));
    }
}

/// The discs' material components, of either quality.
type DiscMaterials<'a> = (
    Option<&'a MeshMaterial3d<StandardMaterial>>,
    Option<&'a MeshMaterial3d<WoodMaterial>>,
);

/// Lights the hovered movable piece and the selected one; dims pieces already taken; gives
/// every disc the material of the graphics quality.
fn style_pieces(
    mut commands: Commands,
    looks: Res<PieceLooks>,
    quality: Res<Quality>,
    highlights: Res<Highlights>,
    hovered: Res<Hovered>,
    pieces: Query<(&PieceToken, &OnSquare, Has<Taken>, &Children)>,
    discs: Query<DiscMaterials, With<Disc>>,
) {
    let high = *quality == Quality::High;
    for (token, on, taken, children) in &pieces {
        let look = if taken {
            Look::Taken
        } else if highlights.selected == Some(on.0) {
            Look::Selected
        } else if hovered.0 == Some(on.0) && highlights.movable.contains(&on.0) {
            Look::Hover
        } else {
            Look::Normal
        };
        let wanted = looks.get(token.color, look);
        for child in children.iter() {
            let Ok((standard, cheap)) = discs.get(child) else {
                continue;
            };
            if high && standard.is_none_or(|m| m.0 != wanted.standard) {
                commands
                    .entity(child)
                    .remove::<MeshMaterial3d<WoodMaterial>>()
                    .insert(MeshMaterial3d(wanted.standard.clone()));
            } else if !high && cheap.is_none_or(|m| m.0 != wanted.cheap) {
                commands
                    .entity(child)
                    .remove::<MeshMaterial3d<StandardMaterial>>()
                    .insert(MeshMaterial3d(wanted.cheap.clone()));
            }
        }
    }
}

fn place_markers(
    mut commands: Commands,
    looks: Res<MarkerLooks>,
    highlights: Res<Highlights>,
    persist: Option<Res<crate::game::persist::Persist>>,
    markers: Query<Entity, With<Marker>>,
    mut shown_targets: Local<bool>,
) {
    let show_targets = persist.is_none_or(|p| p.settings.show_legal_moves);
    if !highlights.is_changed() && *shown_targets == show_targets {
        return;
    }
    *shown_targets = show_targets;
    for entity in &markers {
        commands.entity(entity).despawn();
    }
    let mut quad = |sq: Square, material: &Handle<WoodMaterial>, lift: f32| {
        commands.spawn((
            Mesh3d(looks.quad.clone()),
            MeshMaterial3d(material.clone()),
            Transform::from_translation(square_center(sq) + Vec3::Y * lift),
            Pickable::IGNORE,
            Marker,
        ));
    };
    for &sq in &highlights.previous_move {
        quad(sq, &looks.previous_move, 0.0015);
    }
    for &sq in &highlights.last_move {
        quad(sq, &looks.last_move, 0.002);
    }
    let must = if highlights.warn_capture {
        &looks.warn
    } else {
        &looks.must_capture
    };
    for &sq in &highlights.must_capture {
        quad(sq, must, 0.003);
    }
    for &sq in &highlights.route {
        quad(sq, &looks.route, 0.004);
    }
    if let Some(sq) = highlights.selected {
        quad(sq, &looks.selected, 0.005);
    }
    // The hint: its piece and landing squares lit, and an arrow along the route above
    // the pieces, as analysis boards draw it.
    for (i, &sq) in highlights.hint.iter().enumerate() {
        let look = if i == 0 { &looks.hint } else { &looks.route };
        quad(sq, look, 0.0045);
    }
    let lift = Vec3::Y * (2.0 * crate::game::pieces::DISC_HEIGHT + 0.05);
    for pair in highlights.hint.windows(2) {
        let (a, b) = (square_center(pair[0]), square_center(pair[1]));
        let along = b - a;
        let length = along.length();
        if length < 0.01 {
            continue;
        }
        let dir = along / length;
        let turn = Quat::from_rotation_arc(Vec3::Z, dir);
        // The shaft stops short of the head; the head is the quad turned by 45 degrees.
        let shaft = (length - 0.3).max(0.1);
        commands.spawn((
            Mesh3d(looks.quad.clone()),
            MeshMaterial3d(looks.hint.clone()),
            Transform::from_translation(a + dir * (shaft / 2.0) + lift)
                .with_rotation(turn)
                .with_scale(Vec3::new(0.14 / 0.96, 1.0, shaft / 0.96)),
            Pickable::IGNORE,
            Marker,
        ));
        commands.spawn((
            Mesh3d(looks.quad.clone()),
            MeshMaterial3d(looks.hint.clone()),
            Transform::from_translation(b - dir * 0.3 + lift)
                .with_rotation(turn * Quat::from_rotation_y(std::f32::consts::FRAC_PI_4))
                .with_scale(Vec3::splat(0.36 / 0.96)),
            Pickable::IGNORE,
            Marker,
        ));
    }
    let targets: &[Square] = if show_targets {
        &highlights.targets
    } else {
        &[]
    };
    for &sq in targets {
        commands.spawn((
            Mesh3d(looks.dot.clone()),
            MeshMaterial3d(looks.target.clone()),
            Transform::from_translation(square_center(sq) + Vec3::Y * 0.006)
                .with_rotation(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
            Pickable::IGNORE,
            Marker,
        ));
    }
}

/// Once the pipelines exist the copies under the table only cost triangles.
fn end_prewarm(mut commands: Commands, time: Res<Time>, copies: Query<Entity, With<Prewarm>>) {
    if time.elapsed_secs() > 8.0 {
        for entity in &copies {
            commands.entity(entity).despawn();
        }
    }
}

/// The keyboard's board cursor: a bright frame around its square, light or dark, drawn
/// each frame while it is shown.
fn draw_cursor(
    cursor: Res<crate::game::BoardCursor>,
    state: Res<State<crate::game::AppState>>,
    mut gizmos: Gizmos,
) {
    // The editor and the first panel have no use for it.
    if *state.get() != crate::game::AppState::Playing {
        return;
    }
    let Some((file, rank)) = cursor.at else {
        return;
    };
    let centre = Vec3::new(file as f32 - 3.5, 0.004, 3.5 - rank as f32);
    let flat = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let colour = Color::srgb(1.0, 0.85, 0.2);
    for size in [0.94, 0.9, 0.86] {
        gizmos.rect(Isometry3d::new(centre, flat), Vec2::splat(size), colour);
    }
}
