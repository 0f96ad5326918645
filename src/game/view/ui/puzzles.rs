//! The puzzles window: the collection by level with the player's progress, and the
//! puzzle on the board with its task, hint, solution and next puzzle.

use super::Windows;
use crate::ai::tablebase::endings::{Ending, Theme};
use crate::game::Language;
use crate::game::persist::Persist;
use crate::game::puzzles::{PuzzleCommand, Puzzles, puzzle_id};
use crate::i18n::{self, Text, tr};
use crate::rules::{Color, Variant};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use std::collections::HashSet;

/// The variant whose collection the window lists.
#[derive(Resource, Default)]
pub(super) struct PuzzleForm {
    variant: Variant,
    /// How many endings of each theme were started (the next one is the next of the list).
    ending_turn: usize,
}

fn theme_name(theme: Theme) -> Text {
    match theme {
        Theme::PetrovTriangle => Text::EndingPetrov,
        Theme::TwoKingsAndManVsKing => Text::EndingTwoKingsMan,
        Theme::KingAndTwoMenVsKing => Text::EndingKingTwoMen,
        Theme::KingAndManVsKingAndMan => Text::EndingKingManPair,
        Theme::GiveawayKingVsTwoKings => Text::EndingGiveawayKing,
        Theme::GiveawayKingAndManVsKing => Text::EndingGiveawayKingMan,
    }
}

/// The next ending of a theme after the `turn`-th.
fn ending_of(list: &[Ending], theme: Theme, turn: usize) -> Option<Ending> {
    let of_theme: Vec<&Ending> = list.iter().filter(|e| e.theme == theme).collect();
    (!of_theme.is_empty()).then(|| of_theme[turn % of_theme.len()].clone())
}

/// The first puzzle of `level` not in `solved` after `after` (wrapping), else the first.
fn next_of_level(
    puzzles: &[crate::ai::puzzle::Puzzle],
    level: u8,
    solved: &HashSet<String>,
    after: Option<usize>,
) -> Option<usize> {
    let of_level: Vec<usize> = (0..puzzles.len())
        .filter(|&i| puzzles[i].level == level)
        .collect();
    let start = after
        .and_then(|a| of_level.iter().position(|&i| i > a))
        .unwrap_or(0);
    let turned = of_level[start..].iter().chain(of_level[..start].iter());
    turned
        .clone()
        .copied()
        .find(|&i| !solved.contains(&puzzle_id(&puzzles[i])) && Some(i) != after)
        .or_else(|| turned.copied().find(|&i| Some(i) != after))
        .or(of_level.first().copied())
}

/// The state line and the buttons a puzzle and an ending share (hint, solution, next,
/// leave); true when "Next" was clicked.
fn controls(
    ui: &mut egui::Ui,
    lang: crate::i18n::Lang,
    solved: bool,
    showing: bool,
    commands: &mut MessageWriter<PuzzleCommand>,
) -> bool {
    let t = |k| tr(lang, k);
    if solved {
        ui.colored_label(
            egui::Color32::from_rgb(120, 220, 120),
            t(Text::PuzzleSolved),
        );
    } else if showing {
        ui.label(t(Text::PuzzleShown));
    }
    let mut next = false;
    ui.horizontal_wrapped(|ui| {
        let busy = solved || showing;
        if ui
            .add_enabled(!busy, egui::Button::new(t(Text::PuzzleHint)))
            .clicked()
        {
            commands.write(PuzzleCommand::Hint);
        }
        if ui
            .add_enabled(!busy, egui::Button::new(t(Text::PuzzleShowSolution)))
            .clicked()
        {
            commands.write(PuzzleCommand::ShowSolution);
        }
        next = ui.button(t(Text::PuzzleNext)).clicked();
        if ui.button(t(Text::PuzzleLeave)).clicked() {
            commands.write(PuzzleCommand::Leave);
        }
    });
    next
}

pub(super) fn window(
    mut contexts: EguiContexts,
    language: Res<Language>,
    mut windows: ResMut<Windows>,
    mut form: ResMut<PuzzleForm>,
    mut puzzles: ResMut<Puzzles>,
    mut persist: Option<ResMut<Persist>>,
    mut commands: MessageWriter<PuzzleCommand>,
) -> Result {
    // Solved puzzles go into the settings file at once.
    if let Some(persist) = persist.as_mut()
        && !puzzles.newly_solved.is_empty()
    {
        for id in std::mem::take(&mut puzzles.newly_solved) {
            if !persist.settings.puzzles_solved.contains(&id) {
                persist.settings.puzzles_solved.push(id);
            }
        }
        persist.save_settings();
    }
    if !windows.puzzles {
        return Ok(());
    }
    let solved: HashSet<String> = match &persist {
        Some(p) => p.settings.puzzles_solved.iter().cloned().collect(),
        None => puzzles.newly_solved.iter().cloned().collect(),
    };
    show(
        &mut contexts,
        language.0,
        &mut windows,
        &mut form,
        &puzzles,
        &solved,
        &mut commands,
    )
}

fn show(
    contexts: &mut EguiContexts,
    lang: crate::i18n::Lang,
    windows: &mut Windows,
    form: &mut PuzzleForm,
    puzzles: &Puzzles,
    solved: &HashSet<String>,
    commands: &mut MessageWriter<PuzzleCommand>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let t = |k| tr(lang, k);
    let mut open = true;
    let mut started = false;
    // Docked in the right-hand column under the game panel, as wide as it, so that the
    // board keeps the width between the panels; it scrolls when the column is short.
    let screen = ctx.content_rect();
    let top = ctx
        .memory(|m| m.area_rect(egui::Id::new("game_panel")))
        .map_or(48.0, |r| r.bottom() - screen.top() + 8.0);
    let room = (screen.height() - top - 48.0).max(120.0);
    egui::Window::new(t(Text::Puzzles))
        .id(egui::Id::new("puzzles"))
        .open(&mut open)
        .collapsible(true)
        .resizable(false)
        .default_width(290.0)
        .min_width(290.0)
        .max_width(290.0)
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, top])
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(room)
                .show(ui, |ui| {
                    if let Some(e) = &puzzles.ending {
                        let theme = e.ending.theme;
                        ui.strong(i18n::puzzle_task(
                            lang,
                            Color::White,
                            crate::ai::puzzle::Goal::Win,
                            theme.variant(),
                        ));
                        ui.small(t(theme_name(theme)));
                        ui.small(t(Text::EndingsIntro));
                        if controls(ui, lang, e.solved, e.showing, commands)
                            && let Some(list) = crate::game::tables::endings(theme.variant())
                        {
                            form.ending_turn += 1;
                            if let Some(next) = ending_of(&list, theme, form.ending_turn) {
                                commands.write(PuzzleCommand::StartEnding(next));
                                started = true;
                            }
                        }
                        ui.separator();
                    } else if let Some(active) = &puzzles.active {
                        let p = &active.puzzle;
                        let list = puzzles.of(active.variant);
                        let of_level: Vec<usize> = (0..list.len())
                            .filter(|&i| list[i].level == p.level)
                            .collect();
                        let number = of_level
                            .iter()
                            .position(|&i| i == active.index)
                            .unwrap_or(0)
                            + 1;
                        ui.strong(i18n::puzzle_task(lang, p.solver(), p.goal, p.variant));
                        ui.small(i18n::puzzle_position_line(
                            lang,
                            p.level,
                            number,
                            of_level.len(),
                        ));
                        if controls(ui, lang, active.solved, active.showing, commands)
                            && let Some(index) =
                                next_of_level(list, p.level, solved, Some(active.index))
                        {
                            commands.write(PuzzleCommand::Start {
                                variant: active.variant,
                                index,
                            });
                            started = true;
                        }
                        ui.separator();
                    } else {
                        ui.small(t(Text::PuzzlesIntro));
                    }
                    ui.horizontal(|ui| {
                        ui.radio_value(
                            &mut form.variant,
                            Variant::Russian,
                            t(Text::RussianDraughts),
                        );
                        ui.radio_value(&mut form.variant, Variant::Giveaway, t(Text::Giveaway));
                    });
                    let list = puzzles.of(form.variant);
                    for level in 1..=5u8 {
                        let total = list.iter().filter(|p| p.level == level).count();
                        if total == 0 {
                            continue;
                        }
                        let done = list
                            .iter()
                            .filter(|p| p.level == level && solved.contains(&puzzle_id(p)))
                            .count();
                        ui.horizontal(|ui| {
                            ui.label(i18n::puzzle_level_line(lang, level, done, total));
                            if ui.small_button(t(Text::PuzzlePlay)).clicked()
                                && let Some(index) = next_of_level(list, level, solved, None)
                            {
                                commands.write(PuzzleCommand::Start {
                                    variant: form.variant,
                                    index,
                                });
                                started = true;
                            }
                        });
                    }
                    ui.separator();
                    ui.strong(t(Text::Endings));
                    match crate::game::tables::endings(form.variant) {
                        None => {
                            ui.small(t(Text::EndingsNotReady));
                        }
                        Some(list) => {
                            for theme in Theme::ALL
                                .into_iter()
                                .filter(|th| th.variant() == form.variant)
                            {
                                ui.horizontal_wrapped(|ui| {
                                    ui.label(t(theme_name(theme)));
                                    if ui.small_button(t(Text::PuzzlePlay)).clicked()
                                        && let Some(e) = ending_of(&list, theme, form.ending_turn)
                                    {
                                        commands.write(PuzzleCommand::StartEnding(e));
                                        started = true;
                                    }
                                });
                            }
                        }
                    }
                });
        });
    windows.puzzles &= open;
    // A puzzle is a game on the board: the new-game panel gives way to it.
    if started {
        windows.new_game = false;
    }
    Ok(())
}
