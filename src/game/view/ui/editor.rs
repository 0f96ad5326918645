//! The position editor's panel: the tool in hand, side to move, variant, and the players
//! to start with.

use super::NewGameForm;
use crate::game::editor::{Editor, EditorCommand, Tool};
use crate::game::{AppState, Language, Rules};
use crate::i18n::{self, Text, tr};
use crate::rules::{Color as Side, Variant};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

pub(super) fn panel(
    mut contexts: EguiContexts,
    language: Res<Language>,
    state: Res<State<AppState>>,
    rules: Res<Rules>,
    mut editor: ResMut<Editor>,
    mut form: ResMut<NewGameForm>,
    mut commands: MessageWriter<EditorCommand>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if *state.get() != AppState::Editing {
        return Ok(());
    }
    let lang = language.0;
    let t = |k| tr(lang, k);
    let position = *rules.game.position();
    egui::Window::new(t(Text::PositionEditor))
        .id(egui::Id::new("editor"))
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0])
        .resizable(false)
        .collapsible(false)
        .default_width(280.0)
        .show(ctx, |ui| {
            ui.label(t(Text::EditorHelp));
            ui.separator();
            for tool in Tool::ALL {
                ui.radio_value(&mut editor.tool, tool, t(tool.label()));
            }
            ui.horizontal(|ui| {
                if ui.button(t(Text::EditorClear)).clicked() {
                    commands.write(EditorCommand::Clear);
                }
                if ui.button(t(Text::EditorStartPosition)).clicked() {
                    commands.write(EditorCommand::StartPosition);
                }
            });
            ui.separator();
            ui.label(t(Text::EditorSideToMove));
            ui.horizontal(|ui| {
                for side in [Side::White, Side::Black] {
                    if ui
                        .radio(
                            position.side_to_move() == side,
                            i18n::color_name(lang, side),
                        )
                        .clicked()
                    {
                        commands.write(EditorCommand::SideToMove(side));
                    }
                }
            });
            ui.label(t(Text::Variant));
            ui.horizontal(|ui| {
                for v in [Variant::Russian, Variant::Giveaway] {
                    if ui
                        .radio(rules.game.variant() == v, i18n::variant_name(lang, v))
                        .clicked()
                    {
                        commands.write(EditorCommand::SetVariant(v));
                    }
                }
            });
            ui.separator();
            super::players_form(ui, lang, &mut form);
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button(t(Text::PlayFromHere)).clicked() {
                    let variant = rules.game.variant();
                    let setup = form.setup_with(variant, form.human_side());
                    commands.write(EditorCommand::Play(setup));
                }
                if ui.button(t(Text::Cancel)).clicked() {
                    commands.write(EditorCommand::Cancel);
                }
            });
        });
    Ok(())
}
