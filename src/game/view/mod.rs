//! The window: renderer, board scene, camera, picking, egui panels and audio.

pub mod bare;
pub mod camera;
pub mod check;
pub mod meshes;
pub mod picking;
pub mod quality;
pub mod scene;
pub mod sound;
pub mod style;
pub mod ui;
pub mod wood;

use super::GamePlugin;
use super::demo::{self, DemoConfig};
use super::persist;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy::winit::WinitSettings;
use bevy_egui::EguiPlugin;
use bevy_kira_audio::AudioPlugin;

/// Turn the view to the other side of the board (F key or the panel's button).
#[derive(Message, Debug, Clone, Copy, Default)]
pub struct FlipView;

/// A click on a panel (for the click sound).
#[derive(Message, Debug, Clone, Copy, Default)]
pub struct UiClick;

/// Everything that needs a window and a renderer, on top of [`GamePlugin`].
pub struct ViewPlugin;

impl Plugin for ViewPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<FlipView>()
            .add_message::<UiClick>()
            .add_plugins((
                quality::plugin,
                wood::plugin,
                scene::plugin,
                style::plugin,
                camera::plugin,
                picking::plugin,
                ui::plugin,
            ));
        // Without an audio device kira only warns and the sounds are silent.
        app.add_plugins((AudioPlugin, sound::plugin));
    }
}

fn window_plugins() -> impl PluginGroup {
    DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Шашки — Shashki".into(),
            resolution: WindowResolution::new(1280, 720),
            ..default()
        }),
        ..default()
    })
}

/// The windowed app: the game with its panels.
pub fn game_app() -> App {
    let mut app = App::new();
    // Moves animate and the computer thinks whether or not the window has the focus.
    app.add_plugins(window_plugins())
        .insert_resource(WinitSettings::continuous())
        .add_plugins((MeshPickingPlugin, EguiPlugin::default()))
        .add_plugins((GamePlugin, ViewPlugin))
        // The player's files are read and written by the windowed game only.
        .add_plugins(persist::plugin);
    app
}

/// The windowed app playing a demo: the computer on both sides.
/// The game driven by the check script of [`check`] (`shashki demo --check`).
pub fn check_app(config: DemoConfig) -> App {
    let mut app = game_app();
    let shots = config.screenshot.clone();
    app.insert_resource(config).add_systems(
        Startup,
        |config: Res<DemoConfig>, mut w: MessageWriter<crate::game::NewGame>| {
            w.write(config.new_game.clone());
        },
    );
    check::plugin(&mut app, shots);
    app
}

pub fn demo_app(config: DemoConfig) -> App {
    let mut app = game_app();
    app.insert_resource(config).add_plugins(demo::plugin);
    app
}
