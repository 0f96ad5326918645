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

/// Gives the window the application icon, once it exists (winit's windows live on the
/// main thread).
fn set_window_icon(_main_thread: bevy::ecs::system::NonSendMarker, mut done: Local<bool>) {
    if *done {
        return;
    }
    bevy::winit::WINIT_WINDOWS.with_borrow(|windows| {
        if windows.windows.is_empty() {
            return;
        }
        *done = true;
        let Some(icon) = window_icon() else {
            warn!("the window icon could not be read");
            return;
        };
        for w in windows.windows.values() {
            w.set_window_icon(Some(icon.clone()));
        }
    });
}

fn window_icon() -> Option<winit::window::Icon> {
    use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
    let image = Image::from_buffer(
        crate::cli::install_cmd::ICON_PNG,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        bevy::asset::RenderAssetUsages::default(),
    )
    .ok()?;
    let rgba = image.try_into_dynamic().ok()?.to_rgba8();
    let (w, h) = rgba.dimensions();
    winit::window::Icon::from_rgba(rgba.into_raw(), w, h).ok()
}

/// A first window larger than the screen (1280x720 on a 1024x768 screen) is fitted to it
/// and centred, so that the panels are not off-screen.
fn fit_window_to_monitor(
    mut done: Local<bool>,
    primary: Query<&bevy::window::Monitor, With<bevy::window::PrimaryMonitor>>,
    monitors: Query<&bevy::window::Monitor>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
    persist: Option<Res<persist::Persist>>,
) {
    if *done {
        return;
    }
    let Some(m) = primary.iter().next().or_else(|| monitors.iter().next()) else {
        return;
    };
    let Ok(mut window) = windows.single_mut() else {
        return;
    };
    *done = true;
    let scale = m.scale_factor.max(0.5) as f32;
    let (mw, mh) = (
        m.physical_width as f32 / scale,
        m.physical_height as f32 / scale,
    );
    // The size and place the player left it at, when they still fit this screen.
    if let Some(place) = persist
        .as_ref()
        .and_then(|p| p.settings.window)
        .and_then(|p| p.fitting((mw, mh)))
    {
        window.resolution.set(place.width, place.height);
        if let (Some(x), Some(y)) = (place.x, place.y) {
            window.position = WindowPosition::At(IVec2::new(x, y));
        }
        return;
    }
    let (w, h) = (window.resolution.width(), window.resolution.height());
    if mw > 0.0 && mh > 0.0 && (w > mw || h > mh) {
        // Room for the desktop's panels and the title bar.
        window
            .resolution
            .set(w.min(mw * 0.92).floor(), h.min(mh * 0.88).floor());
        window.position = WindowPosition::Centered(MonitorSelection::Primary);
    }
}

/// Keeps the window's size and place in the settings once it has stayed put for a
/// second after a change (so that a drag does not write the file at every frame).
fn remember_window(
    time: Res<Time>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    persist: Option<ResMut<persist::Persist>>,
    mut seen: Local<Option<(crate::store::settings::WindowPlace, f32)>>,
) {
    let (Some(mut persist), Ok(window)) = (persist, windows.single()) else {
        return;
    };
    let (x, y) = match window.position {
        WindowPosition::At(p) => (Some(p.x), Some(p.y)),
        _ => (None, None),
    };
    let place = crate::store::settings::WindowPlace {
        width: window.resolution.width(),
        height: window.resolution.height(),
        x,
        y,
    };
    let still = match seen.as_mut() {
        Some((last, since)) if *last == place => {
            *since += time.delta_secs();
            *since >= 1.0
        }
        _ => {
            *seen = Some((place, 0.0));
            false
        }
    };
    if still && persist.settings.window != Some(place) && time.elapsed_secs() > 3.0 {
        persist.settings.window = Some(place);
        persist.save_settings();
    }
}

/// The windowed app: the game with its panels.
pub fn game_app() -> App {
    let mut app = App::new();
    // Moves animate and the computer thinks whether or not the window has the focus.
    app.add_plugins(window_plugins())
        .insert_resource(WinitSettings::continuous())
        .add_systems(
            Update,
            (set_window_icon, fit_window_to_monitor, remember_window).chain(),
        )
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
