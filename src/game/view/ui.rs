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
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Opponent {
    Computer,
    Human,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ColorChoice {
    White,
    Black,
    Random,
}

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
    app.init_resource::<NewGameForm>().add_systems(
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
