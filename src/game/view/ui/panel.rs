//! The game panel (players, side to move, draw countdowns, buttons, the move list with
//! review) and the evaluation bar.

use super::{Windows, player_text};
use crate::game::ai::AiPlayer;
use crate::game::analysis::{Analysis, RequestHint};
use crate::game::animation::Animator;
use crate::game::text::move_rows;
use crate::game::view::FlipView;
use crate::game::view::quality::RendererInfo;
use crate::game::{AppState, GameCommand, Language, Rules};
use crate::i18n::{self, Text, tr};
use crate::rules::Color as Side;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

#[allow(clippy::too_many_arguments)]
pub(super) fn game_panel(
    mut contexts: EguiContexts,
    language: Res<Language>,
    rules: Res<Rules>,
    ai: Res<AiPlayer>,
    analysis: Res<Analysis>,
    animator: Res<Animator>,
    state: Res<State<AppState>>,
    info: Res<RendererInfo>,
    mut windows: ResMut<Windows>,
    mut commands: MessageWriter<GameCommand>,
    mut flips: MessageWriter<FlipView>,
    mut hints: MessageWriter<RequestHint>,
    mut shown_ply: Local<Option<usize>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = language.0;
    let t = |k| tr(lang, k);
    let game = &rules.game;
    // The list scrolls to the current move once when it changes, not on every frame.
    let scroll = shown_ply.replace(game.ply()) != Some(game.ply());
    let playing = *state.get() == AppState::Playing;
    if *state.get() == AppState::Editing {
        return Ok(());
    }
    egui::Window::new(t(Text::AppTitle))
        .id(egui::Id::new("game_panel"))
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0])
        .resizable(false)
        .collapsible(true)
        // A fixed width: a long line ("Looking for the best move…", a Russian label)
        // wraps instead of widening the panel for good.
        .default_width(290.0)
        .min_width(290.0)
        .max_width(290.0)
        .show(ctx, |ui| {
            ui.heading(i18n::variant_name(lang, game.variant()));
            // Before the first game starts (generation 0) nobody plays yet: the new-game
            // panel is where the players are chosen, so none are named here.
            if rules.generation > 0 {
                ui.label(format!(
                    "{}: {}",
                    t(Text::White),
                    player_text(lang, rules.setup.white)
                ));
                ui.label(format!(
                    "{}: {}",
                    t(Text::Black),
                    player_text(lang, rules.setup.black)
                ));
            }
            ui.separator();
            match game.outcome() {
                Some(outcome) => {
                    ui.strong(i18n::outcome_text(lang, outcome, game.variant()));
                }
                None if !playing => {
                    ui.label(t(Text::ChooseGame));
                }
                None => {
                    ui.horizontal(|ui| {
                        ui.strong(i18n::side_to_move(lang, game.side_to_move()));
                        if ai.is_thinking() {
                            ui.add(egui::Spinner::new());
                            ui.label(t(Text::Thinking));
                        } else if analysis.is_busy() && !analysis.evaluate {
                            ui.add(egui::Spinner::new());
                            ui.label(t(Text::HintThinking));
                        } else if animator.is_busy() {
                            ui.label("…");
                        }
                    });
                }
            }
            for countdown in game.draw_countdowns() {
                ui.label(i18n::countdown_text(lang, &countdown));
            }
            if game.outcome().is_none() && game.repetitions() >= 2 {
                ui.label(i18n::repetition_text(lang, game.repetitions()));
            }
            ui.separator();
            let live = playing && game.outcome().is_none() && !rules.in_review();
            ui.horizontal_wrapped(|ui| {
                if ui.button(t(Text::NewGame)).on_hover_text("N").clicked() {
                    windows.new_game = true;
                }
                if ui
                    .add_enabled(playing && game.ply() > 0, egui::Button::new(t(Text::Undo)))
                    .on_hover_text("U, Ctrl+Z")
                    .clicked()
                {
                    commands.write(GameCommand::Undo);
                }
                if ui
                    .add_enabled(playing && game.can_redo(), egui::Button::new(t(Text::Redo)))
                    .on_hover_text("Ctrl+Y")
                    .clicked()
                {
                    commands.write(GameCommand::Redo);
                }
                if ui.button(t(Text::Flip)).on_hover_text("F").clicked() {
                    flips.write(FlipView);
                }
                if ui
                    .add_enabled(
                        live && rules.human_to_move(),
                        egui::Button::new(t(Text::Hint)),
                    )
                    .on_hover_text("H")
                    .clicked()
                {
                    hints.write(RequestHint);
                }
                if ui
                    .add_enabled(live, egui::Button::new(t(Text::Resign)))
                    .clicked()
                {
                    windows.confirm_resign = true;
                }
                if ui
                    .add_enabled(live, egui::Button::new(t(Text::OfferDraw)))
                    .clicked()
                {
                    commands.write(GameCommand::OfferDraw);
                }
            });
            ui.separator();
            ui.horizontal(|ui| {
                ui.label(t(Text::MoveList));
                let total = rules.total_plies();
                let ply = game.ply();
                let nav = |ui: &mut egui::Ui, label: &str, hover: Text, enabled: bool| {
                    ui.add_enabled(enabled, egui::Button::new(label).small())
                        .on_hover_text(t(hover))
                        .clicked()
                };
                if nav(ui, "⏮", Text::ReviewFirst, playing && ply > 0) {
                    commands.write(GameCommand::GoTo(0));
                }
                if nav(ui, "◀", Text::ReviewBack, playing && ply > 0) {
                    commands.write(GameCommand::StepBack);
                }
                if nav(ui, "▶", Text::ReviewForward, playing && ply < total) {
                    commands.write(GameCommand::StepForward);
                }
                if nav(ui, "⏭", Text::ReviewLast, playing && ply < total) {
                    commands.write(GameCommand::GoTo(total));
                }
            });
            if rules.in_review() {
                ui.horizontal_wrapped(|ui| {
                    ui.colored_label(egui::Color32::from_rgb(240, 200, 120), t(Text::Reviewing));
                    if rules.computer_side_to_move() && ui.button(t(Text::ContinueHere)).clicked() {
                        commands.write(GameCommand::ContinueHere);
                    }
                });
            }
            move_list(ui, &rules, lang, scroll, &mut commands);
            if info.software {
                ui.small(format!("{}: {}", t(Text::SoftwareRenderer), info.adapter));
            }
        });
    Ok(())
}

/// The moves in pairs; the current one is marked and a click goes to any of them.
fn move_list(
    ui: &mut egui::Ui,
    rules: &Rules,
    lang: crate::i18n::Lang,
    scroll: bool,
    commands: &mut MessageWriter<GameCommand>,
) {
    let game = &rules.game;
    let mut all = game.moves().to_vec();
    all.extend(game.redo_moves().iter().rev());
    let black_first = game.start_position().side_to_move() == Side::Black;
    let current = game.ply();
    egui::ScrollArea::vertical()
        .max_height(240.0)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            if all.is_empty() {
                ui.weak(tr(lang, Text::NoMovesYet));
            }
            for (number, entries) in move_rows(&all, black_first) {
                ui.horizontal(|ui| {
                    ui.monospace(format!("{number:>3}."));
                    if black_first && number == 1 {
                        ui.monospace("…");
                    }
                    for (ply, text) in entries {
                        let here = ply == current;
                        let label = egui::RichText::new(text).monospace();
                        let label = if ply > current { label.weak() } else { label };
                        let response = ui.selectable_label(here, label);
                        if here && scroll {
                            response.scroll_to_me(None);
                        }
                        if response.clicked() {
                            commands.write(GameCommand::GoTo(ply));
                        }
                    }
                });
            }
        });
}

/// The engine's view of the position as a bar beside the board: white from below.
pub(super) fn eval_bar(
    mut contexts: EguiContexts,
    language: Res<Language>,
    analysis: Res<Analysis>,
    rules: Res<Rules>,
    state: Res<State<AppState>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if !analysis.evaluate || *state.get() != AppState::Playing {
        return Ok(());
    }
    let lang = language.0;
    // A finished game shows its result; otherwise the last verdict, or the middle.
    let (fraction, text) = match (rules.game.outcome(), analysis.verdict) {
        (Some(outcome), _) => match outcome.winner() {
            Some(Side::White) => (1.0, "1-0".to_string()),
            Some(Side::Black) => (0.0, "0-1".to_string()),
            None => (0.5, "½".to_string()),
        },
        (None, Some(v)) => {
            let men = v.score_white as f32 / 100.0;
            let fraction = 0.5 + 0.5 * (men / 3.0).tanh();
            (fraction, format!("{men:+.1}"))
        }
        (None, None) => (0.5, "…".to_string()),
    };
    let verdict_text = if fraction > 0.6 {
        tr(lang, Text::EvalWhiteBetter)
    } else if fraction < 0.4 {
        tr(lang, Text::EvalBlackBetter)
    } else {
        tr(lang, Text::EvalEqual)
    };
    egui::Area::new(egui::Id::new("eval_bar"))
        .anchor(egui::Align2::LEFT_CENTER, [12.0, 0.0])
        .show(ctx, |ui| {
            let (area, response) =
                ui.allocate_exact_size(egui::vec2(44.0, 322.0), egui::Sense::hover());
            let rect = egui::Rect::from_center_size(
                egui::pos2(area.center().x, area.top() + 150.0),
                egui::vec2(22.0, 300.0),
            );
            let painter = ui.painter();
            painter.rect_filled(rect, 4.0, egui::Color32::from_rgb(40, 14, 10));
            let mut white = rect;
            white.set_top(rect.bottom() - rect.height() * fraction);
            painter.rect_filled(white, 4.0, egui::Color32::from_rgb(238, 228, 205));
            painter.line_segment(
                [
                    egui::pos2(rect.left(), rect.center().y),
                    egui::pos2(rect.right(), rect.center().y),
                ],
                egui::Stroke::new(1.0, egui::Color32::from_rgb(200, 120, 40)),
            );
            painter.text(
                egui::pos2(area.center().x, area.bottom()),
                egui::Align2::CENTER_BOTTOM,
                text,
                egui::FontId::proportional(14.0),
                egui::Color32::from_rgb(240, 225, 190),
            );
            response.on_hover_text(verdict_text);
        });
    Ok(())
}
