//! The settings window: language, sound, animation, board theme, coordinates, legal
//! moves, evaluation bar, graphics. Every change is saved at once.

use super::Windows;
use crate::game::Language;
use crate::game::analysis::Analysis;
use crate::game::animation::AnimationSpeed;
use crate::game::persist::Persist;
use crate::game::view::quality::Quality;
use crate::i18n::{Lang, Text, tr};
use crate::store::BoardTheme;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

fn speed_label(speed: AnimationSpeed) -> Text {
    match speed {
        AnimationSpeed::Off => Text::AnimationOff,
        AnimationSpeed::Slow => Text::AnimationSlow,
        AnimationSpeed::Normal => Text::AnimationNormal,
        AnimationSpeed::Fast => Text::AnimationFast,
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn window(
    mut contexts: EguiContexts,
    mut language: ResMut<Language>,
    mut windows: ResMut<Windows>,
    mut speed: ResMut<AnimationSpeed>,
    mut quality: ResMut<Quality>,
    mut analysis: ResMut<Analysis>,
    mut persist: Option<ResMut<Persist>>,
    info: Res<crate::game::view::quality::RendererInfo>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if !windows.settings {
        return Ok(());
    }
    let lang = language.0;
    let t = |k| tr(lang, k);
    let mut open = true;
    egui::Window::new(t(Text::Settings))
        .id(egui::Id::new("settings"))
        .open(&mut open)
        .anchor(egui::Align2::LEFT_TOP, [8.0, 56.0])
        .resizable(false)
        .show(ctx, |ui| {
            let mut changed = false;
            egui::Grid::new("settings_grid")
                .num_columns(2)
                .spacing([16.0, 8.0])
                .show(ui, |ui| {
                    ui.label(t(Text::Language));
                    let mut chosen = lang;
                    egui::ComboBox::from_id_salt("language")
                        .selected_text(chosen.native_name())
                        .show_ui(ui, |ui| {
                            for l in Lang::ALL {
                                ui.selectable_value(&mut chosen, l, l.native_name());
                            }
                        });
                    if chosen != lang {
                        language.0 = chosen;
                        changed = true;
                    }
                    ui.end_row();

                    ui.label(t(Text::AnimationSpeed));
                    egui::ComboBox::from_id_salt("speed")
                        .selected_text(t(speed_label(*speed)))
                        .show_ui(ui, |ui| {
                            for s in AnimationSpeed::ALL {
                                ui.selectable_value(&mut *speed, s, t(speed_label(s)));
                            }
                        });
                    ui.end_row();

                    ui.label(t(Text::GraphicsQuality));
                    ui.horizontal(|ui| {
                        ui.selectable_value(&mut *quality, Quality::Low, t(Text::QualityLow));
                        ui.selectable_value(&mut *quality, Quality::High, t(Text::QualityHigh));
                    });
                    ui.end_row();
                    if info.software {
                        ui.label("");
                        ui.weak(t(Text::QualityNeedsGpu));
                        ui.end_row();
                    }

                    let Some(persist) = persist.as_mut() else {
                        return;
                    };
                    let settings = &mut persist.settings;

                    ui.label(t(Text::Volume));
                    ui.horizontal(|ui| {
                        let mut sound_on = !settings.muted;
                        if ui.checkbox(&mut sound_on, "").changed() {
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
                    ui.end_row();

                    ui.label(t(Text::BoardTheme));
                    egui::ComboBox::from_id_salt("theme")
                        .selected_text(t(settings.board_theme.label()))
                        .show_ui(ui, |ui| {
                            for theme in BoardTheme::ALL {
                                changed |= ui
                                    .selectable_value(
                                        &mut settings.board_theme,
                                        theme,
                                        t(theme.label()),
                                    )
                                    .changed();
                            }
                        });
                    ui.end_row();

                    ui.label("");
                    ui.vertical(|ui| {
                        changed |= ui
                            .checkbox(&mut settings.show_coordinates, t(Text::ShowCoordinates))
                            .changed();
                        changed |= ui
                            .checkbox(&mut settings.show_legal_moves, t(Text::ShowLegalMoves))
                            .changed();
                        if ui
                            .checkbox(&mut settings.eval_bar, t(Text::EvaluationBar))
                            .changed()
                        {
                            analysis.evaluate = settings.eval_bar;
                            changed = true;
                        }
                    });
                    ui.end_row();
                });
            ui.separator();
            ui.horizontal_wrapped(|ui| {
                ui.label(t(Text::EndgameTables));
                match crate::game::tables::building() {
                    Some((done, total)) => {
                        ui.weak(crate::i18n::tables_building_text(lang, done, total));
                    }
                    None => {
                        if ui
                            .button(t(Text::BuildSixPieceTables))
                            .on_hover_text(t(Text::BuildSixPieceHint))
                            .clicked()
                        {
                            crate::game::tables::build_in_background(6);
                        }
                    }
                }
            });
            if changed && let Some(persist) = persist.as_mut() {
                persist.settings.language = language.0;
                persist.save_settings();
            }
        });
    if !open {
        windows.settings = false;
    }
    Ok(())
}
