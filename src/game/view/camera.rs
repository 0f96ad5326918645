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
    /// The wheel's zoom: 1 frames the whole board, more comes closer.
    pub zoom: f32,
    /// The part of the window the panels leave to the board (logical pixels: left, top,
    /// right, bottom margins).
    pub margins: [f32; 4],
}

impl Default for CameraRig {
    fn default() -> Self {
        CameraRig {
            yaw: 0.0,
            target_yaw: 0.0,
            pitch: 0.95,
            zoom: 1.0,
            margins: [0.0; 4],
        }
    }
}

impl CameraRig {
    const MIN_PITCH: f32 = 0.35;
    const MAX_PITCH: f32 = 1.45;
    const MIN_ZOOM: f32 = 0.6;
    const MAX_ZOOM: f32 = 1.8;
    /// Vertical field of view of the camera (Bevy's default perspective).
    const FOV: f32 = std::f32::consts::FRAC_PI_4;

    /// The camera for a window of `size` (logical pixels): the whole board with its frame
    /// and coordinates fills the part the panels leave free, centred in it, at any size
    /// and aspect ratio, from either side; the zoom then brings it closer.
    pub fn fit(&self, size: Vec2) -> Transform {
        let [left, top, right, bottom] = self.margins;
        let free_min = Vec2::new(left, top);
        let free_max = (size - Vec2::new(right, bottom)).max(free_min + Vec2::splat(50.0));
        let free = free_max - free_min;
        let dir = Vec3::new(
            self.yaw.sin() * self.pitch.cos(),
            self.pitch.sin(),
            self.yaw.cos() * self.pitch.cos(),
        );
        let place = |target: Vec3, distance: f32| {
            Transform::from_translation(target + dir * distance).looking_at(target, Vec3::Y)
        };
        // The board's box: the frame and the pieces standing on it.
        let half = super::scene::FRAME_HALF;
        let corners: Vec<Vec3> = [-half, half]
            .into_iter()
            .flat_map(|x| [-half, half].into_iter().map(move |z| (x, z)))
            .flat_map(|(x, z)| [Vec3::new(x, -0.26, z), Vec3::new(x, 0.3, z)])
            .collect();
        let aspect = size.x / size.y.max(1.0);
        let tan = (Self::FOV / 2.0).tan();
        // The pixel box of the board seen from `t`.
        let project = |t: &Transform| {
            let view = t.to_matrix().inverse();
            let mut lo = Vec2::splat(f32::MAX);
            let mut hi = Vec2::splat(f32::MIN);
            for c in &corners {
                let p = view.transform_point3(*c);
                let depth = (-p.z).max(0.1);
                let ndc = Vec2::new(p.x / (depth * tan * aspect), p.y / (depth * tan));
                let px = Vec2::new((ndc.x + 1.0) / 2.0 * size.x, (1.0 - ndc.y) / 2.0 * size.y);
                lo = lo.min(px);
                hi = hi.max(px);
            }
            (lo, hi)
        };
        let target = Vec3::new(0.0, -0.1, 0.0);
        // The nearest distance at which the box fits (it shrinks as the camera backs off).
        let (mut near, mut far) = (3.0f32, 80.0f32);
        for _ in 0..32 {
            let mid = (near + far) / 2.0;
            let (lo, hi) = project(&place(target, mid));
            if hi.x - lo.x <= free.x * 0.96 && hi.y - lo.y <= free.y * 0.96 {
                far = mid;
            } else {
                near = mid;
            }
        }
        let distance = far / self.zoom.clamp(Self::MIN_ZOOM, Self::MAX_ZOOM);
        // Slide camera and aim together so that the box's centre is the free part's.
        let mut t = place(target, distance);
        for _ in 0..10 {
            let (lo, hi) = project(&t);
            let off = (free_min + free_max) / 2.0 - (lo + hi) / 2.0;
            let per_pixel = 2.0 * distance * tan / size.y.max(1.0);
            let shift = t.right() * (-off.x * per_pixel) + t.up() * (off.y * per_pixel);
            t.translation += shift;
        }
        t
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
        rig.fit(Vec2::new(1280.0, 720.0)),
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
        rig.zoom =
            (rig.zoom * (1.0 + 0.08 * lines)).clamp(CameraRig::MIN_ZOOM, CameraRig::MAX_ZOOM);
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

/// The two lights of the scene, which turn with the camera.
type SceneLights = (
    Or<(With<super::scene::MainLight>, With<super::scene::FillLight>)>,
    Without<Camera3d>,
);

/// Eases the yaw towards its target and places the camera (and the lights, which turn
/// with it so that both sides see the board lit alike).
fn place_camera(
    time: Res<Time>,
    mut rig: ResMut<CameraRig>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut camera: Query<&mut Transform, With<Camera3d>>,
    mut lights: Query<(&mut Transform, Has<super::scene::MainLight>), SceneLights>,
) {
    let gap = rig.target_yaw - rig.yaw;
    if gap.abs() > 1e-4 {
        let step = gap * (1.0 - (-6.0 * time.delta_secs()).exp());
        rig.yaw += if gap.abs() < 1e-3 { gap } else { step };
    }
    let size = windows.single().map_or(Vec2::new(1280.0, 720.0), |w| {
        Vec2::new(w.width(), w.height())
    });
    let transform = rig.fit(size);
    for mut t in &mut camera {
        if *t != transform {
            *t = transform;
        }
    }
    let turn = Quat::from_rotation_y(rig.yaw);
    for (mut t, main) in &mut lights {
        let from = if main {
            super::wood::SUN
        } else {
            super::scene::FILL_LIGHT
        };
        let wanted = Transform::from_translation(turn * from).looking_at(Vec3::ZERO, Vec3::Y);
        if *t != wanted {
            *t = wanted;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::camera::CameraProjection;

    /// Where a world point lands in the window, through Bevy's own perspective.
    fn to_pixels(t: &Transform, size: Vec2, p: Vec3) -> Vec2 {
        let projection = PerspectiveProjection {
            fov: CameraRig::FOV,
            aspect_ratio: size.x / size.y,
            ..default()
        };
        let clip = projection.get_clip_from_view() * t.to_matrix().inverse() * p.extend(1.0);
        let ndc = clip.truncate() / clip.w;
        Vec2::new((ndc.x + 1.0) / 2.0 * size.x, (1.0 - ndc.y) / 2.0 * size.y)
    }

    #[test]
    fn the_whole_board_fits_the_free_part_of_any_window_from_either_side() {
        let half = crate::game::view::scene::FRAME_HALF;
        for size in [
            Vec2::new(1280.0, 720.0),
            Vec2::new(1920.0, 1080.0),
            Vec2::new(1024.0, 768.0),
            Vec2::new(800.0, 1000.0),
            Vec2::new(2560.0, 1080.0),
        ] {
            for yaw in [0.0, PI, 0.7] {
                let rig = CameraRig {
                    yaw,
                    target_yaw: yaw,
                    margins: [8.0, 44.0, 306.0, 8.0],
                    ..default()
                };
                let t = rig.fit(size);
                let (lo, hi) = (Vec2::new(8.0, 44.0), size - Vec2::new(306.0, 8.0));
                let mut box_lo = Vec2::splat(f32::MAX);
                let mut box_hi = Vec2::splat(f32::MIN);
                for x in [-half, half] {
                    for z in [-half, half] {
                        for y in [-0.26, 0.3] {
                            let p = to_pixels(&t, size, Vec3::new(x, y, z));
                            assert!(
                                p.x >= lo.x - 1.0 && p.x <= hi.x + 1.0,
                                "{size} yaw {yaw}: x {p}"
                            );
                            assert!(
                                p.y >= lo.y - 1.0 && p.y <= hi.y + 1.0,
                                "{size} yaw {yaw}: y {p}"
                            );
                            box_lo = box_lo.min(p);
                            box_hi = box_hi.max(p);
                        }
                    }
                }
                // It fills the free part in one direction and is centred in it.
                let (free, board) = (hi - lo, box_hi - box_lo);
                assert!(
                    board.x > 0.9 * free.x || board.y > 0.9 * free.y,
                    "{size} yaw {yaw}: {board} in {free}"
                );
                let off = (box_lo + box_hi) / 2.0 - (lo + hi) / 2.0;
                assert!(off.length() < 6.0, "{size} yaw {yaw}: off by {off}");
            }
        }
    }
}
