//! Games and positions in and out: PDN files (open, with a choice of game when a file
//! holds several, and save), and FEN and PDN through the clipboard.

use super::NewGameForm;
use crate::game::persist::Persist;
use crate::game::records::{self, Loaded};
use crate::game::{Language, NewGame, Note, Rules, Start, Status};
use crate::i18n::{Lang, Text, tr};
use crate::rules::pdn::PdnGame;
use bevy::prelude::*;
use bevy_egui::{EguiClipboard, EguiContexts, egui};
use egui_file_dialog::{DialogState, FileDialog};
use std::path::{Path, PathBuf};

/// A request from the menu.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FileAction {
    Open,
    Save,
    CopyFen,
    PasteFen,
    CopyPdn,
    PastePdn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    Open,
    Save,
}

/// The games of a file or of pasted text, for the player to choose one.
struct Choice {
    source: String,
    games: Vec<PdnGame>,
    errors: Vec<String>,
}

/// The file dialog when open, and a pending choice of game.
#[derive(Resource, Default)]
pub(super) struct Files {
    dialog: Option<(FileDialog, Purpose)>,
    choice: Option<Choice>,
}

impl Files {
    /// True while the file dialog or the choice of game is on screen.
    pub(super) fn is_open(&self) -> bool {
        self.dialog.is_some() || self.choice.is_some()
    }

    /// Closes the dialog and the choice.
    pub(super) fn close(&mut self) {
        self.dialog = None;
        self.choice = None;
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<FileAction>().init_resource::<Files>();
}

/// The folder the dialogs open in: the player's documents, else home.
fn start_folder() -> Option<PathBuf> {
    let dirs = directories::UserDirs::new()?;
    Some(
        dirs.document_dir()
            .unwrap_or_else(|| dirs.home_dir())
            .to_path_buf(),
    )
}

fn dialog(lang: Lang, purpose: Purpose, last: Option<&PathBuf>) -> FileDialog {
    let mut dialog = FileDialog::new()
        .add_file_filter_extensions("PDN", vec!["pdn", "PDN", "txt"])
        .default_file_filter("PDN")
        .add_save_extension("PDN", "pdn")
        .default_save_extension("PDN")
        .default_file_name("shashki.pdn");
    // The folder used last, while it still exists; else the documents folder.
    let folder = last.filter(|f| f.is_dir()).cloned().or_else(start_folder);
    if let Some(folder) = folder {
        dialog = dialog.initial_directory(folder);
    }
    if lang == Lang::Ru {
        let labels = dialog.labels_mut();
        labels.title_select_file = "Открыть партию".into();
        labels.title_save_file = "Сохранить партию".into();
        labels.open_button = "Открыть".into();
        labels.save_button = "Сохранить".into();
        labels.cancel_button = "Отмена".into();
        labels.cancel = "Отмена".into();
        labels.overwrite = "Заменить".into();
        labels.file_name = "Имя файла".into();
        labels.heading_places = "Места".into();
        labels.heading_devices = "Диски".into();
        labels.heading_removable_devices = "Съёмные диски".into();
        labels.home_dir = "Домашняя папка".into();
        labels.documents_dir = "Документы".into();
        labels.downloads_dir = "Загрузки".into();
        labels.desktop_dir = "Рабочий стол".into();
        labels.file_filter_all_files = "Все файлы".into();
        labels.overwrite_file_modal_text = "уже есть. Заменить его?".into();
    }
    match purpose {
        Purpose::Open => dialog.pick_file(),
        Purpose::Save => dialog.save_file(),
    }
    dialog
}

#[allow(clippy::too_many_arguments)]
pub(super) fn windows(
    mut contexts: EguiContexts,
    mut files: ResMut<Files>,
    mut actions: MessageReader<FileAction>,
    mut clipboard: ResMut<EguiClipboard>,
    language: Res<Language>,
    rules: Res<Rules>,
    form: Res<NewGameForm>,
    mut status: ResMut<Status>,
    mut new_games: MessageWriter<NewGame>,
    mut persist: Option<ResMut<Persist>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = language.0;
    let last = persist
        .as_ref()
        .and_then(|p| p.settings.last_folder.clone());
    let t = |k| tr(lang, k);
    let files = &mut *files;
    for action in actions.read() {
        match action {
            FileAction::Open => {
                files.dialog = Some((dialog(lang, Purpose::Open, last.as_ref()), Purpose::Open))
            }
            FileAction::Save => {
                files.dialog = Some((dialog(lang, Purpose::Save, last.as_ref()), Purpose::Save))
            }
            FileAction::CopyFen => {
                clipboard.set_text(&rules.game.position().to_fen());
                status.say(Text::Copied);
            }
            FileAction::CopyPdn => {
                clipboard.set_text(&records::pdn_of(&rules));
                status.say(Text::Copied);
            }
            FileAction::PasteFen => match clipboard.get_text() {
                None => status.say(Text::ClipboardEmpty),
                Some(text) => match records::position_from_fen(&text) {
                    Ok(position) => {
                        let setup = form.setup_with(rules.game.variant(), position.side_to_move());
                        new_games.write(NewGame {
                            setup,
                            start: Start::Position(position),
                            clock: None,
                        });
                    }
                    Err(e) => status.say(Note::Plain(format!("{}: {e}", t(Text::InvalidFen)))),
                },
            },
            FileAction::PastePdn => match clipboard.get_text() {
                None => status.say(Text::ClipboardEmpty),
                Some(text) => {
                    let source = t(Text::Clipboard).to_string();
                    let loaded = records::read_games(&text, lang);
                    if let Some(game) = offer(files, &mut status, lang, source, loaded) {
                        new_games.write(load(&form, game));
                    }
                }
            },
        }
    }
    if let Some((dialog, purpose)) = files.dialog.as_mut() {
        dialog.update(ctx);
        let purpose = *purpose;
        match dialog.state().clone() {
            DialogState::Picked(path) => {
                files.dialog = None;
                if let (Some(p), Some(folder)) = (persist.as_mut(), path.parent())
                    && p.settings.last_folder.as_deref() != Some(folder)
                {
                    p.settings.last_folder = Some(folder.to_path_buf());
                    p.save_settings();
                }
                match purpose {
                    Purpose::Open => {
                        let source = file_name(&path);
                        match records::read_games_file(&path, lang) {
                            Ok(loaded) => {
                                if let Some(game) = offer(files, &mut status, lang, source, loaded)
                                {
                                    new_games.write(load(&form, game));
                                }
                            }
                            Err(e) => status.say(Note::Plain(format!("{source}: {e}"))),
                        }
                    }
                    Purpose::Save => match std::fs::write(&path, records::pdn_of(&rules)) {
                        Ok(()) => status.say(Note::Plain(format!(
                            "{}: {}",
                            t(Text::GameSaved),
                            path.display()
                        ))),
                        Err(e) => status.say(Note::Plain(format!("{}: {e}", path.display()))),
                    },
                }
            }
            DialogState::Open => {}
            _ => files.dialog = None,
        }
    }
    let mut chosen = None;
    let mut close = false;
    if let Some(choice) = &files.choice {
        egui::Window::new(format!("{} — {}", t(Text::ChooseGameTitle), choice.source))
            .id(egui::Id::new("choose_game"))
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .collapsible(false)
            .default_height(360.0)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(300.0)
                    .show(ui, |ui| {
                        for (i, game) in choice.games.iter().enumerate() {
                            if ui.button(records::game_title(i, game)).clicked() {
                                chosen = Some(i);
                            }
                        }
                        for error in &choice.errors {
                            ui.colored_label(egui::Color32::from_rgb(230, 120, 90), error);
                        }
                    });
                if ui.button(t(Text::Cancel)).clicked() {
                    close = true;
                }
            });
    }
    if let Some(i) = chosen
        && let Some(choice) = files.choice.take()
        && let Some(game) = choice.games.into_iter().nth(i)
    {
        new_games.write(load(&form, game));
    } else if close {
        files.choice = None;
    }
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The game to start from a PDN game: the players as the new-game form says, the human
/// taking the side to move at the end of the record.
fn load(form: &NewGameForm, game: PdnGame) -> NewGame {
    let setup = form.setup_with(game.variant(), game.game.side_to_move());
    // A record with its clocks goes on under them, paused until the player resumes.
    let clock = game.clock().map(|mut c| {
        c.paused = true;
        c
    });
    NewGame {
        setup,
        start: Start::Game(Box::new(game.game)),
        clock,
    }
}

/// A single readable game is returned to start at once; several (or one with errors
/// beside it) are offered for a choice; none gives the first error.
fn offer(
    files: &mut Files,
    status: &mut Status,
    lang: Lang,
    source: String,
    mut loaded: Loaded,
) -> Option<PdnGame> {
    match (loaded.games.len(), loaded.errors.is_empty()) {
        (0, _) => {
            let first = loaded
                .errors
                .first()
                .cloned()
                .unwrap_or_else(|| tr(lang, Text::InvalidPdn).to_string());
            status.say(Note::Plain(format!("{source}: {first}")));
            None
        }
        (1, true) => loaded.games.pop(),
        _ => {
            files.choice = Some(Choice {
                source,
                games: loaded.games,
                errors: loaded.errors,
            });
            None
        }
    }
}
