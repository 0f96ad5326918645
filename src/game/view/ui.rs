//! The egui panels: new game, game panel with the move list, banner, messages, coordinates.

use super::FlipView;
use super::camera::CameraRig;
use super::quality::{Quality, RendererInfo};
use crate::ai::Level;
use crate::game::ai::AiPlayer;
use crate::game::animation::{AnimationSpeed, Animator};
use crate::game::persist::Persist;
use crate::game::pieces::square_center;
use crate::game::text::{color_name, countdown_text, move_list, outcome_text, variant_name};
use crate::game::{AppState, GameCommand, NewGame, Player, Rules, Setup, Status};
use crate::rules::{Color as Side, Square, Variant};
use crate::store::{
    AnimationSpeed as SavedSpeed, ColourChoice as ColorChoice, GraphicsQuality,
    OpponentChoice as Opponent,
};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The new-game panel's choices (kept between games).
#[derive(Resource, Debug)]
struct NewGameForm {
    open: bool,
    variant: Variant,
    opponent: Opponent,
    level: u8,
    color: ColorChoice,
}

impl Default for NewGameForm {
    fn default() -> Self {
        NewGameForm {
            open: false,
            variant: Variant::Russian,
            opponent: Opponent::Computer,
            level: 3,
            color: ColorChoice::White,
        }
    }
}

impl NewGameForm {
    fn setup(&self) -> Setup {
        let computer = Player::Computer(Level::new(self.level));
        let human_side = match self.color {
            ColorChoice::White => Side::White,
            ColorChoice::Black => Side::Black,
            ColorChoice::Random => {
                let nanos = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.subsec_nanos())
                    .unwrap_or(0);
                if (nanos / 1000).is_multiple_of(2) {
                    Side::White
                } else {
                    Side::Black
                }
            }
        };
        let (white, black) = match (self.opponent, human_side) {
            (Opponent::Human, _) => (Player::Human, Player::Human),
            (Opponent::Computer, Side::White) => (Player::Human, computer),
            (Opponent::Computer, Side::Black) => (computer, Player::Human),
        };
        Setup {
            variant: self.variant,
            white,
            black,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<NewGameForm>()
        // After the files are read and the renderer is known (both at Startup).
        .add_systems(PostStartup, apply_settings)
        .add_systems(Update, remember_settings)
        .add_systems(
            EguiPrimaryContextPass,
            (
                board_labels,
                game_panel,
                new_game_panel,
                banner_and_messages,
            )
                .chain(),
        );
}

fn player_text(player: Player) -> String {
    match player {
        Player::Human => "Human".to_string(),
        Player::Computer(level) => format!(
            "Computer, level {} ({} / {})",
            level.number(),
            level.name(),
            level.name_ru()
        ),
    }
}

#[allow(clippy::too_many_arguments)]
fn game_panel(
    mut contexts: EguiContexts,
    rules: Res<Rules>,
    ai: Res<AiPlayer>,
    animator: Res<Animator>,
    state: Res<State<AppState>>,
    info: Res<RendererInfo>,
    mut speed: ResMut<AnimationSpeed>,
    mut quality: ResMut<Quality>,
    mut form: ResMut<NewGameForm>,
    mut persist: Option<ResMut<Persist>>,
    mut commands: MessageWriter<GameCommand>,
    mut flips: MessageWriter<FlipView>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = &rules.game;
    let playing = *state.get() == AppState::Playing;
    egui::Window::new("Шашки")
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0])
        .resizable(false)
        .collapsible(true)
        .default_width(270.0)
        .show(ctx, |ui| {
            ui.heading(variant_name(game.variant()));
            ui.label(format!("White: {}", player_text(rules.setup.white)));
            ui.label(format!("Black: {}", player_text(rules.setup.black)));
            ui.separator();
            match game.outcome() {
                Some(outcome) => {
                    ui.strong(outcome_text(outcome, game.variant()));
                }
                None if !playing => {
                    ui.label("Choose a game to start");
                }
                None => {
                    ui.horizontal(|ui| {
                        ui.strong(format!("{} to move", color_name(game.side_to_move())));
                        if ai.is_thinking() {
                            ui.add(egui::Spinner::new());
                            ui.label("thinking…");
                        } else if animator.is_busy() {
                            ui.label("…");
                        }
                    });
                }
            }
            for countdown in game.draw_countdowns() {
                ui.label(countdown_text(&countdown));
            }
            ui.separator();
            ui.horizontal_wrapped(|ui| {
                if ui.button("New game").clicked() {
                    form.open = true;
                }
                if ui
                    .add_enabled(playing && game.ply() > 0, egui::Button::new("Undo"))
                    .clicked()
                {
                    commands.write(GameCommand::Undo);
                }
                if ui
                    .add_enabled(playing && game.can_redo(), egui::Button::new("Redo"))
                    .clicked()
                {
                    commands.write(GameCommand::Redo);
                }
                if ui.button("Flip (F)").clicked() {
                    flips.write(FlipView);
                }
                let live = playing && game.outcome().is_none();
                if ui.add_enabled(live, egui::Button::new("Resign")).clicked() {
                    commands.write(GameCommand::Resign);
                }
                if ui
                    .add_enabled(live, egui::Button::new("Offer a draw"))
                    .clicked()
                {
                    commands.write(GameCommand::OfferDraw);
                }
            });
            ui.separator();
            ui.label("Moves");
            egui::ScrollArea::vertical()
                .max_height(220.0)
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    let black_first = game.start_position().side_to_move() == Side::Black;
                    for line in move_list(game.moves(), black_first) {
                        ui.monospace(line);
                    }
                });
            ui.separator();
            ui.horizontal(|ui| {
                ui.label("Animation");
                egui::ComboBox::from_id_salt("speed")
                    .selected_text(speed.name())
                    .show_ui(ui, |ui| {
                        for s in AnimationSpeed::ALL {
                            ui.selectable_value(&mut *speed, s, s.name());
                        }
                    });
            });
            ui.horizontal(|ui| {
                ui.label("Graphics");
                ui.selectable_value(&mut *quality, Quality::Low, "Low");
                ui.selectable_value(&mut *quality, Quality::High, "High");
            });
            if let Some(persist) = persist.as_mut() {
                let settings = &mut persist.settings;
                let mut changed = false;
                ui.horizontal(|ui| {
                    let mut sound_on = !settings.muted;
                    if ui.checkbox(&mut sound_on, "Sound").changed() {
                        settings.muted = !sound_on;
                        changed = true;
                    }
                    let slider = ui.add_enabled(
                        sound_on,
                        egui::Slider::new(&mut settings.volume, 0.0..=1.0).show_value(false),
                    );
                    // Written once the handle is let go, not on every frame of a drag.
                    changed |= slider.drag_stopped() || (slider.changed() && !slider.dragged());
                });
                if changed {
                    persist.save_settings();
                }
            }
            if info.software {
                ui.small(format!("Software renderer: {}", info.adapter));
            }
        });
    Ok(())
}

fn new_game_panel(
    mut contexts: EguiContexts,
    state: Res<State<AppState>>,
    mut form: ResMut<NewGameForm>,
    mut persist: Option<ResMut<Persist>>,
    mut new_games: MessageWriter<NewGame>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let first = *state.get() == AppState::Setup;
    if !form.open && !first {
        return Ok(());
    }
    let mut start = false;
    let mut close = false;
    let mut resume = false;
    let resumable = persist.as_ref().and_then(|p| p.resumable.as_ref());
    let resumable_text = resumable.map(|saved| {
        let against = match saved.opponent.level() {
            Some(level) => format!("computer, level {level}"),
            None => "second player".to_string(),
        };
        format!(
            "{}, move {}, against {against}",
            variant_name(saved.variant()),
            saved.game.ply() / 2 + 1
        )
    });
    egui::Window::new("New game")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            if let Some(text) = &resumable_text {
                ui.horizontal(|ui| {
                    if ui.button("Continue").clicked() {
                        resume = true;
                    }
                    ui.label(text);
                });
                ui.separator();
            }
            ui.label("Variant");
            ui.horizontal(|ui| {
                ui.radio_value(&mut form.variant, Variant::Russian, "Russian draughts");
                ui.radio_value(&mut form.variant, Variant::Giveaway, "поддавки (giveaway)");
            });
            ui.separator();
            ui.label("Opponent");
            ui.horizontal(|ui| {
                ui.radio_value(&mut form.opponent, Opponent::Computer, "Computer");
                ui.radio_value(&mut form.opponent, Opponent::Human, "Second player here");
            });
            if form.opponent == Opponent::Computer {
                let level = Level::new(form.level);
                ui.add(egui::Slider::new(&mut form.level, 1..=10).text(format!(
                    "{} / {}",
                    level.name(),
                    level.name_ru()
                )));
                ui.label("You play");
                ui.horizontal(|ui| {
                    ui.radio_value(&mut form.color, ColorChoice::White, "White");
                    ui.radio_value(&mut form.color, ColorChoice::Black, "Black");
                    ui.radio_value(&mut form.color, ColorChoice::Random, "Random");
                });
            }
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button("Play").clicked() {
                    start = true;
                }
                if !first && ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
    if resume && let Some(game) = persist.as_mut().and_then(|p| p.resume()) {
        new_games.write(game);
        form.open = false;
    } else if start {
        new_games.write(NewGame {
            setup: form.setup(),
            start: None,
        });
        form.open = false;
    } else if close {
        form.open = false;
    }
    Ok(())
}

fn banner_and_messages(mut contexts: EguiContexts, status: Res<Status>) -> Result {
    let ctx = contexts.ctx_mut()?;
    if let Some(banner) = &status.banner {
        egui::Area::new(egui::Id::new("banner"))
            .anchor(egui::Align2::CENTER_TOP, [0.0, 16.0])
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style())
                    .fill(egui::Color32::from_rgba_unmultiplied(20, 16, 12, 230))
                    .inner_margin(14.0)
                    .show(ui, |ui| {
                        ui.label(
                            egui::RichText::new(banner)
                                .size(26.0)
                                .color(egui::Color32::from_rgb(255, 225, 160)),
                        );
                    });
            });
    }
    if let Some(message) = &status.message {
        egui::Area::new(egui::Id::new("message"))
            .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -24.0])
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style())
                    .inner_margin(10.0)
                    .show(ui, |ui| {
                        ui.label(egui::RichText::new(message).size(18.0));
                    });
            });
    }
    Ok(())
}

/// Files and ranks on the frame, on the sides nearest the player, drawn under the panels.
fn board_labels(
    mut contexts: EguiContexts,
    rig: Res<CameraRig>,
    camera: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok((camera, camera_transform)) = camera.single() else {
        return Ok(());
    };
    let painter = ctx.layer_painter(egui::LayerId::background());
    let near = match rig.viewer() {
        Side::White => 1.0,
        Side::Black => -1.0,
    };
    let edge = 4.32;
    let color = egui::Color32::from_rgb(226, 196, 140);
    let label = |world: Vec3, text: String| {
        if let Ok(p) = camera.world_to_viewport(camera_transform, world) {
            painter.text(
                egui::pos2(p.x, p.y),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(17.0),
                color,
            );
        }
    };
    for i in 0..8u8 {
        // Any dark square of the file/rank gives its x/z.
        let file_sq = Square::from_coords(i, i % 2).map(square_center);
        let rank_sq = Square::from_coords(i % 2, i).map(square_center);
        if let Some(c) = file_sq {
            label(
                Vec3::new(c.x, 0.0, edge * near),
                ((b'a' + i) as char).to_string(),
            );
        }
        if let Some(c) = rank_sq {
            label(Vec3::new(-edge * near, 0.0, c.z), (i + 1).to_string());
        }
    }
    Ok(())
}

/// The saved look, speed and new-game choices take effect at start.
fn apply_settings(
    persist: Option<Res<Persist>>,
    mut speed: ResMut<AnimationSpeed>,
    mut quality: ResMut<Quality>,
    mut form: ResMut<NewGameForm>,
) {
    let Some(persist) = persist else {
        return;
    };
    let s = &persist.settings;
    *speed = match s.animation_speed {
        SavedSpeed::Off => AnimationSpeed::Off,
        SavedSpeed::Fast => AnimationSpeed::Fast,
        SavedSpeed::Normal => AnimationSpeed::Normal,
        SavedSpeed::Slow => AnimationSpeed::Slow,
    };
    match s.graphics_quality {
        GraphicsQuality::Low => *quality = Quality::Low,
        GraphicsQuality::High => *quality = Quality::High,
        // Whatever the renderer check chose.
        GraphicsQuality::Auto => {}
    }
    form.variant = s.last_variant;
    form.opponent = s.last_opponent;
    form.level = s.last_level;
    form.color = s.last_colour;
}

/// What the player can change that the settings keep.
type Remembered = (AnimationSpeed, Quality, Variant, Opponent, u8, ColorChoice);

/// Saves the settings when the player changes the speed, the graphics or a new-game choice.
fn remember_settings(
    persist: Option<ResMut<Persist>>,
    speed: Res<AnimationSpeed>,
    quality: Res<Quality>,
    form: Res<NewGameForm>,
    mut last: Local<Option<Remembered>>,
) {
    let Some(mut persist) = persist else {
        return;
    };
    let key = (
        *speed,
        *quality,
        form.variant,
        form.opponent,
        form.level,
        form.color,
    );
    let Some(before) = last.replace(key) else {
        return;
    };
    if before == key {
        return;
    }
    let s = &mut persist.settings;
    s.animation_speed = match *speed {
        AnimationSpeed::Off => SavedSpeed::Off,
        AnimationSpeed::Fast => SavedSpeed::Fast,
        AnimationSpeed::Normal => SavedSpeed::Normal,
        AnimationSpeed::Slow => SavedSpeed::Slow,
    };
    if before.1 != key.1 {
        s.graphics_quality = match *quality {
            Quality::Low => GraphicsQuality::Low,
            Quality::High => GraphicsQuality::High,
        };
    }
    s.last_variant = form.variant;
    s.last_opponent = form.opponent;
    s.last_level = form.level;
    s.last_colour = form.color;
    persist.save_settings();
}
