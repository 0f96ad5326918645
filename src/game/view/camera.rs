//! The camera: orbit by right-drag, zoom by wheel, flip with F; faces the human at a new game.

use super::FlipView;
use crate::game::{CancelSelection, GameSet, NewGame};
use crate::rules::Color as Side;
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_pointer_input;
use std::f32::consts::{PI, TAU};

/// Where the camera looks from: angles around the board centre and distance.
#[derive(Resource, Debug, Clone, Copy)]
pub struct CameraRig {
    /// 0 = from White's side (+z), PI = from Black's side.
    pub yaw: f32,
    pub target_yaw: f32,
    /// Elevation above the board plane.
    pub pitch: f32,
    pub distance: f32,
}

impl Default for CameraRig {
    fn default() -> Self {
        CameraRig {
            yaw: 0.0,
            target_yaw: 0.0,
            pitch: 0.95,
            distance: 12.5,
        }
    }
}

impl CameraRig {
    const MIN_PITCH: f32 = 0.35;
    const MAX_PITCH: f32 = 1.45;
    const MIN_DISTANCE: f32 = 7.0;
    const MAX_DISTANCE: f32 = 20.0;

    fn transform(&self) -> Transform {
        // The aim point sits a little towards the viewer's edge of the board (so the near
        // frame and its letters stay in view); it turns with the camera, so the board is
        // framed alike from either side.
        let target = Vec3::new(0.6 * self.yaw.sin(), -0.3, 0.6 * self.yaw.cos());
        let offset = Vec3::new(
            self.yaw.sin() * self.pitch.cos(),
            self.pitch.sin(),
            self.yaw.cos() * self.pitch.cos(),
        ) * self.distance;
        Transform::from_translation(target + offset).looking_at(target, Vec3::Y)
    }

    /// Turns towards a side's half of the board, the short way round.
    fn face(&mut self, side: Side) {
        let goal = match side {
            Side::White => 0.0,
            Side::Black => PI,
        };
        self.target_yaw = self.yaw + wrap(goal - self.yaw);
    }

    /// The side the camera is closer to now (for the board labels).
    pub fn viewer(&self) -> Side {
        if self.yaw.cos() >= 0.0 {
            Side::White
        } else {
            Side::Black
        }
    }
}

fn wrap(angle: f32) -> f32 {
    (angle + PI).rem_euclid(TAU) - PI
}

/// Where the right button went down, to tell a click (cancel) from a drag (orbit).
#[derive(Default)]
struct RightPress {
    moved: f32,
    down: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CameraRig>()
        .add_systems(Startup, spawn_camera)
        .add_systems(
            Update,
            (
                orbit
                    .run_if(not(egui_wants_any_pointer_input))
                    .in_set(GameSet::Input),
                (face_new_game, flip, place_camera)
                    .chain()
                    .in_set(GameSet::View),
            ),
        );
}

fn spawn_camera(mut commands: Commands, rig: Res<CameraRig>) {
    commands.spawn((
        Camera3d::default(),
        Tonemapping::TonyMcMapface,
        rig.transform(),
    ));
}

fn orbit(
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    mut rig: ResMut<CameraRig>,
    mut press: Local<RightPress>,
    mut cancel: MessageWriter<CancelSelection>,
) {
    if buttons.just_pressed(MouseButton::Right) {
        *press = RightPress {
            moved: 0.0,
            down: true,
        };
    }
    if buttons.pressed(MouseButton::Right) && press.down {
        let delta = motion.delta;
        press.moved += delta.length();
        if delta != Vec2::ZERO {
            rig.yaw -= delta.x * 0.006;
            rig.target_yaw = rig.yaw;
            rig.pitch =
                (rig.pitch + delta.y * 0.005).clamp(CameraRig::MIN_PITCH, CameraRig::MAX_PITCH);
        }
    }
    if buttons.just_released(MouseButton::Right) && press.down {
        press.down = false;
        if press.moved < 4.0 {
            cancel.write(CancelSelection);
        }
    }
    if scroll.delta.y != 0.0 {
        let lines = match scroll.unit {
            MouseScrollUnit::Line => scroll.delta.y,
            MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
        };
        rig.distance = (rig.distance * (1.0 - 0.08 * lines))
            .clamp(CameraRig::MIN_DISTANCE, CameraRig::MAX_DISTANCE);
    }
}

fn face_new_game(
    mut games: MessageReader<NewGame>,
    mut rig: ResMut<CameraRig>,
    puzzles: Res<crate::game::puzzles::Puzzles>,
) {
    if let Some(game) = games.read().last() {
        // A puzzle is seen from the solver's side.
        let solver = match (&game.start, &puzzles.active) {
            (crate::game::Start::Position(p), Some(a)) if *p == a.puzzle.start => {
                Some(a.puzzle.solver())
            }
            _ => None,
        };
        rig.face(solver.unwrap_or(game.setup.viewer()));
    }
}

fn flip(mut flips: MessageReader<FlipView>, mut rig: ResMut<CameraRig>) {
    for _ in flips.read() {
        rig.target_yaw += PI;
    }
}

/// Eases the yaw towards its target and places the camera.
fn place_camera(
    time: Res<Time>,
    mut rig: ResMut<CameraRig>,
    mut camera: Query<&mut Transform, With<Camera3d>>,
) {
    let gap = rig.target_yaw - rig.yaw;
    if gap.abs() > 1e-4 {
        let step = gap * (1.0 - (-6.0 * time.delta_secs()).exp());
        rig.yaw += if gap.abs() < 1e-3 { gap } else { step };
    }
    let transform = rig.transform();
    for mut t in &mut camera {
        if *t != transform {
            *t = transform;
        }
    }
}
