//! A bare Bevy 3D scene (one mesh, one light, one egui window) to compare frame times with.

use crate::game::demo::FrameStats;
use bevy::prelude::*;
use bevy::render::view::Msaa;
use bevy::window::WindowResolution;
use bevy::winit::WinitSettings;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};

#[derive(Resource)]
struct FramesLeft(u32);

/// The reference app: renders `frames` frames, then prints the same statistics as the demo.
pub fn bare_app(frames: u32) -> App {
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Shashki bare scene".into(),
            resolution: WindowResolution::new(1280, 720),
            ..default()
        }),
        ..default()
    }))
    .insert_resource(WinitSettings::continuous())
    .add_plugins(EguiPlugin::default())
    .insert_resource(FrameStats::with_warmup(10, crate::game::demo::WARMUP))
    .insert_resource(FramesLeft(frames))
    .add_systems(Startup, setup)
    .add_systems(EguiPrimaryContextPass, window)
    .add_systems(Last, count);
    app
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(2.0, 2.0, 2.0))),
        MeshMaterial3d(materials.add(Color::srgb(0.6, 0.4, 0.2))),
    ));
    commands.spawn((
        DirectionalLight {
            shadow_maps_enabled: false,
            ..default()
        },
        Transform::from_xyz(3.0, 8.0, 4.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        Camera3d::default(),
        Msaa::Off,
        Transform::from_xyz(0.0, 6.0, 9.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

fn window(mut contexts: EguiContexts) -> Result {
    egui::Window::new("Bare").show(contexts.ctx_mut()?, |ui| {
        ui.label("One mesh, one light, one egui window");
    });
    Ok(())
}

fn count(
    mut stats: ResMut<FrameStats>,
    mut left: ResMut<FramesLeft>,
    mut exit: MessageWriter<AppExit>,
) {
    stats.record(false);
    if left.0 == 0 {
        return;
    }
    left.0 -= 1;
    if left.0 == 0 {
        println!("bare {}", stats.summary());
        exit.write(AppExit::Success);
    }
}
