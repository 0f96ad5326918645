//! The egui panels: menu bar, game panel with the move list and review, new game,
//! settings, help with the rules, files and clipboard, position editor, banner and
//! messages, coordinates and the evaluation bar. Every text comes from [`crate::i18n`].

mod editor;
mod files;
mod help;
mod panel;
mod puzzles;
mod settings;

use super::camera::CameraRig;
use super::quality::Quality;
use super::{FlipView, UiClick};
use crate::ai::Level;
use crate::game::analysis::RequestHint;
use crate::game::animation::AnimationSpeed;
use crate::game::editor::EditorCommand;
use crate::game::persist::Persist;
use crate::game::pieces::square_center;
use crate::game::{
    AppState, BoardCursor, CancelSelection, CursorKey, GameCommand, GameSet, Language, NewGame,
    Player, Rules, Selection, Setup, Status,
};
use crate::i18n::{self, Lang, Text, tr};
use crate::rules::{Color as Side, GameClock, Square, TimeControl, Variant};
use crate::store::{
    AnimationSpeed as SavedSpeed, ColourChoice as ColorChoice, GraphicsQuality,
    OpponentChoice as Opponent,
};
use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Which windows are open.
#[derive(Resource, Debug, Default)]
pub(super) struct Windows {
    pub new_game: bool,
    pub settings: bool,
    pub help: bool,
    pub help_page: help::Page,
    pub confirm_resign: bool,
    pub stats: bool,
    pub puzzles: bool,
    /// The move field takes the keyboard at the next frame.
    pub focus_move: bool,
}

impl Windows {
    /// Closes the open windows; false when none was open.
    fn close_all(&mut self) -> bool {
        let any = self.new_game || self.settings || self.help || self.confirm_resign || self.stats;
        self.stats = false;
        self.new_game = false;
        self.settings = false;
        self.help = false;
        self.confirm_resign = false;
        any
    }
}

/// The new-game panel's choices (kept between games).
#[derive(Resource, Debug)]
pub(super) struct NewGameForm {
    variant: Variant,
    opponent: Opponent,
    level: u8,
    color: ColorChoice,
    clock: ClockChoice,
    /// The custom control's base in minutes and increment in seconds.
    custom_minutes: u64,
    custom_increment: u64,
}

/// The time controls of the new-game panel: blitz 3+2 and 5+3, rapid 15+10 (Fischer).
const CLOCK_PRESETS: [TimeControl; 3] = [
    TimeControl::minutes(3, 2),
    TimeControl::minutes(5, 3),
    TimeControl::minutes(15, 10),
];

/// The new-game panel's clock choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum ClockChoice {
    None,
    Preset(TimeControl),
    Custom,
}

impl Default for NewGameForm {
    fn default() -> Self {
        NewGameForm {
            variant: Variant::Russian,
            opponent: Opponent::Computer,
            level: 3,
            color: ColorChoice::White,
            clock: ClockChoice::None,
            custom_minutes: 10,
            custom_increment: 5,
        }
    }
}

impl NewGameForm {
    /// The chosen time control, if any.
    fn time_control(&self) -> Option<TimeControl> {
        match self.clock {
            ClockChoice::None => None,
            ClockChoice::Preset(tc) => Some(tc),
            ClockChoice::Custom => Some(TimeControl::minutes(
                self.custom_minutes.clamp(1, 180),
                self.custom_increment.min(60),
            )),
        }
    }

    /// Shows a remembered control: a preset's button, or the custom fields.
    fn set_time_control(&mut self, tc: Option<TimeControl>) {
        self.clock = match tc {
            None => ClockChoice::None,
            Some(tc) if CLOCK_PRESETS.contains(&tc) => ClockChoice::Preset(tc),
            Some(tc) => {
                self.custom_minutes = (tc.base.as_secs() / 60).clamp(1, 180);
                self.custom_increment = tc.increment.as_secs().min(60);
                ClockChoice::Custom
            }
        };
    }

    /// The new game this form starts: the players, and a fresh clock if one is chosen.
    fn new_game(&self) -> NewGame {
        NewGame {
            clock: self.time_control().map(GameClock::new),
            ..NewGame::fresh(self.setup())
        }
    }

    /// The colour the human takes: the chosen one, or a random one.
    fn human_side(&self) -> Side {
        match self.color {
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
        }
    }

    /// Players as chosen, the human on `human_side` against the computer.
    fn setup_with(&self, variant: Variant, human_side: Side) -> Setup {
        let computer = Player::Computer(Level::new(self.level));
        let (white, black) = match (self.opponent, human_side) {
            (Opponent::Human, _) => (Player::Human, Player::Human),
            (Opponent::Computer, Side::White) => (Player::Human, computer),
            (Opponent::Computer, Side::Black) => (computer, Player::Human),
        };
        Setup {
            variant,
            white,
            black,
        }
    }

    fn setup(&self) -> Setup {
        self.setup_with(self.variant, self.human_side())
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Windows>()
        .init_resource::<NewGameForm>()
        .init_resource::<puzzles::PuzzleForm>()
        .add_plugins(files::plugin)
        // After the files are read and the renderer is known (both at Startup).
        .add_systems(PostStartup, apply_settings)
        .add_systems(Update, (remember_settings, follow_language))
        .add_systems(
            Update,
            shortcuts
                .in_set(GameSet::Input)
                .run_if(not(egui_wants_any_keyboard_input)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                board_labels,
                panel::eval_bar,
                menu_bar,
                panel::game_panel,
                new_game_panel,
                settings::window,
                help::window,
                stats_window,
                puzzles::window,
                editor::panel,
                files::windows,
                confirm_dialogs,
                banner_and_messages,
                click_sound,
                leave_room_for_panels,
            )
                .chain(),
        );
}

/// A player in the header, in the player's language.
fn player_text(lang: Lang, player: Player) -> String {
    match player {
        Player::Human => tr(lang, Text::Human).to_string(),
        Player::Computer(level) => {
            let name = match lang {
                Lang::En => level.name(),
                Lang::Ru => level.name_ru(),
            };
            format!("{} ({name})", i18n::player_name(lang, Some(level.number())))
        }
    }
}

/// Opponent, computer level and the human's colour (the new-game panel and the editor).
fn players_form(ui: &mut egui::Ui, lang: Lang, form: &mut NewGameForm) {
    let t = |k| tr(lang, k);
    ui.label(t(Text::Opponent));
    ui.horizontal(|ui| {
        ui.radio_value(&mut form.opponent, Opponent::Computer, t(Text::Computer));
        ui.radio_value(
            &mut form.opponent,
            Opponent::Human,
            t(Text::SecondPlayerHere),
        );
    });
    if form.opponent == Opponent::Computer {
        let name = level_name(lang, form.level);
        ui.add(egui::Slider::new(&mut form.level, 1..=10).text(name));
        ui.label(t(Text::YourColour));
        ui.horizontal(|ui| {
            for c in ColorChoice::ALL {
                ui.radio_value(&mut form.color, c, t(c.label()));
            }
        });
    }
}

/// The time control: none, the presets, or a custom base and increment.
fn clock_form(ui: &mut egui::Ui, lang: Lang, form: &mut NewGameForm) {
    let t = |k| tr(lang, k);
    ui.label(t(Text::TimeControlLabel));
    ui.horizontal_wrapped(|ui| {
        ui.radio_value(&mut form.clock, ClockChoice::None, t(Text::NoClock));
        for tc in CLOCK_PRESETS {
            ui.radio_value(&mut form.clock, ClockChoice::Preset(tc), tc.to_string());
        }
        ui.radio_value(&mut form.clock, ClockChoice::Custom, t(Text::CustomClock));
    });
    if form.clock == ClockChoice::Custom {
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut form.custom_minutes).range(1..=180));
            ui.label(t(Text::ClockMinutes));
            ui.add(egui::DragValue::new(&mut form.custom_increment).range(0..=60));
            ui.label(t(Text::ClockIncrement));
        });
    }
}

/// The level's name for the slider.
fn level_name(lang: Lang, level: u8) -> &'static str {
    let level = Level::new(level);
    match lang {
        Lang::En => level.name(),
        Lang::Ru => level.name_ru(),
    }
}

/// The top-left menus: game, files and clipboard, settings, help.
#[allow(clippy::too_many_arguments)]
fn menu_bar(
    mut contexts: EguiContexts,
    language: Res<Language>,
    state: Res<State<AppState>>,
    mut windows: ResMut<Windows>,
    mut files: MessageWriter<files::FileAction>,
    mut editor: MessageWriter<crate::game::editor::EditorCommand>,
    mut exit: MessageWriter<AppExit>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = language.0;
    let t = |k| tr(lang, k);
    let editing = *state.get() == AppState::Editing;
    egui::Area::new(egui::Id::new("menu"))
        .anchor(egui::Align2::LEFT_TOP, [8.0, 8.0])
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.menu_button(t(Text::AppTitle), |ui| {
                        if ui.button(t(Text::NewGame)).clicked() {
                            windows.new_game = true;
                            ui.close();
                        }
                        ui.add_enabled_ui(!editing, |ui| {
                            if ui.button(t(Text::PositionEditor)).clicked() {
                                editor.write(crate::game::editor::EditorCommand::Open);
                                ui.close();
                            }
                        });
                        if ui.button(t(Text::Puzzles)).clicked() {
                            windows.puzzles = true;
                            ui.close();
                        }
                        if ui.button(t(Text::Statistics)).clicked() {
                            windows.stats = true;
                            ui.close();
                        }
                        ui.separator();
                        if ui.button(t(Text::Quit)).clicked() {
                            exit.write(AppExit::Success);
                        }
                    });
                    ui.menu_button(t(Text::MenuFiles), |ui| {
                        ui.add_enabled_ui(!editing, |ui| {
                            for (text, action) in [
                                (Text::OpenPdn, files::FileAction::Open),
                                (Text::SavePdn, files::FileAction::Save),
                                (Text::CopyFen, files::FileAction::CopyFen),
                                (Text::PasteFen, files::FileAction::PasteFen),
                                (Text::CopyPdn, files::FileAction::CopyPdn),
                                (Text::PastePdn, files::FileAction::PastePdn),
                            ] {
                                if ui.button(t(text)).clicked() {
                                    files.write(action);
                                    ui.close();
                                }
                            }
                        });
                    });
                    if ui.button(t(Text::Settings)).clicked() {
                        windows.settings = !windows.settings;
                    }
                    if ui.button(t(Text::Help)).clicked() {
                        windows.help = !windows.help;
                    }
                });
            });
        });
    Ok(())
}

fn new_game_panel(
    mut contexts: EguiContexts,
    language: Res<Language>,
    state: Res<State<AppState>>,
    mut windows: ResMut<Windows>,
    mut form: ResMut<NewGameForm>,
    mut persist: Option<ResMut<Persist>>,
    mut new_games: MessageWriter<NewGame>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = language.0;
    let t = |k| tr(lang, k);
    let first = *state.get() == AppState::Setup;
    if !windows.new_game && !first {
        return Ok(());
    }
    let mut start = false;
    let mut close = false;
    let mut resume = false;
    let resumable = persist.as_ref().and_then(|p| p.resumable.as_ref());
    let resumable_text = resumable.map(|saved| {
        let against = match saved.opponent.level() {
            Some(level) => i18n::player_name(lang, Some(level)),
            None => t(Text::SecondPlayerHere).to_string(),
        };
        let clock = saved
            .clock
            .as_ref()
            .map_or(String::new(), |c| format!(", {}", c.control));
        format!(
            "{}, {} {}, {against}{clock}",
            i18n::variant_name(lang, saved.variant()),
            t(Text::MoveWord),
            saved.game.ply() / 2 + 1
        )
    });
    egui::Window::new(t(Text::NewGame))
        .id(egui::Id::new("new_game"))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            if let Some(text) = &resumable_text {
                ui.horizontal(|ui| {
                    if ui.button(t(Text::Continue)).clicked() {
                        resume = true;
                    }
                    ui.label(text);
                });
                ui.separator();
            }
            ui.label(t(Text::Variant));
            ui.horizontal(|ui| {
                for v in [Variant::Russian, Variant::Giveaway] {
                    ui.radio_value(&mut form.variant, v, i18n::variant_name(lang, v));
                }
            });
            ui.separator();
            players_form(ui, lang, &mut form);
            ui.separator();
            clock_form(ui, lang, &mut form);
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button(t(Text::Play)).clicked() {
                    start = true;
                }
                if !first && ui.button(t(Text::Cancel)).clicked() {
                    close = true;
                }
            });
        });
    if resume && let Some(game) = persist.as_mut().and_then(|p| p.resume()) {
        new_games.write(game);
        windows.new_game = false;
    } else if start {
        new_games.write(form.new_game());
        windows.new_game = false;
    } else if close {
        windows.new_game = false;
    }
    Ok(())
}

/// Questions that need a yes or no: resigning, and dropping the moves after a reviewed point.
fn confirm_dialogs(
    mut contexts: EguiContexts,
    language: Res<Language>,
    state: Res<State<AppState>>,
    rules: Res<Rules>,
    mut windows: ResMut<Windows>,
    mut commands: MessageWriter<GameCommand>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = language.0;
    let t = |k| tr(lang, k);
    let ask = |id: &str, question: Text| -> Option<bool> {
        let mut answer = None;
        egui::Window::new(t(Text::Confirm))
            .id(egui::Id::new(id))
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label(t(question));
                ui.horizontal(|ui| {
                    if ui.button(t(Text::Yes)).clicked() {
                        answer = Some(true);
                    }
                    if ui.button(t(Text::No)).clicked() {
                        answer = Some(false);
                    }
                });
            });
        answer
    };
    if rules.pending_branch.is_some() {
        match ask("branch", Text::ConfirmBranch) {
            Some(true) => {
                commands.write(GameCommand::ConfirmBranch);
            }
            Some(false) => {
                commands.write(GameCommand::CancelBranch);
            }
            None => {}
        }
    }
    if windows.confirm_resign
        && let Some(yes) = ask("resign", Text::ConfirmResign)
    {
        // Only if the game is still the one the question was about.
        let live = *state.get() == AppState::Playing
            && rules.game.outcome().is_none()
            && !rules.in_review();
        if yes && live {
            commands.write(GameCommand::Resign);
        }
        windows.confirm_resign = false;
    }
    Ok(())
}

fn banner_and_messages(
    mut contexts: EguiContexts,
    status: Res<Status>,
    language: Res<Language>,
    state: Res<State<AppState>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The position editor is not a game: no result banner while editing.
    let editing = *state.get() == AppState::Editing;
    if let Some(banner) = status.banner.as_ref().filter(|_| !editing) {
        // One area per text, like the messages below: a switch of language or a new
        // result must not wrap to the width of the previous banner.
        egui::Area::new(egui::Id::new(("banner", banner)))
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
        let text = message.text(language.0);
        // A new area for each text: an area keeps the size of what it showed last, and a
        // longer message would wrap to the width of the shorter one before it.
        let width = ctx.content_rect().width() * 0.7;
        egui::Area::new(egui::Id::new(("message", &text)))
            .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -24.0])
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style())
                    .inner_margin(10.0)
                    .show(ui, |ui| {
                        ui.set_max_width(width);
                        ui.add(
                            egui::Label::new(egui::RichText::new(text).size(18.0))
                                .wrap_mode(egui::TextWrapMode::Wrap),
                        );
                    });
            });
    }
    Ok(())
}

/// Any click on a panel gives the soft click sound.
fn click_sound(mut contexts: EguiContexts, mut clicks: MessageWriter<UiClick>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let clicked = ctx.input(|i| i.pointer.any_click());
    if clicked && ctx.is_pointer_over_egui() {
        clicks.write(UiClick);
    }
    Ok(())
}

/// Files and ranks on the frame, on the sides nearest the player, drawn under the panels.
fn board_labels(
    mut contexts: EguiContexts,
    rig: Res<CameraRig>,
    persist: Option<Res<Persist>>,
    camera: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if persist.is_some_and(|p| !p.settings.show_coordinates) {
        return Ok(());
    }
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

/// The keyboard: N new game, U or Ctrl+Z undo, Ctrl+Y redo, H hint, / or M the move
/// field, arrows to review,
/// F1 help, Esc answers "no" to a pending question, drops a selection, closes a window,
/// leaves the editor, or else opens the new-game panel.
/// (F flips the board: see the camera.)
#[allow(clippy::too_many_arguments)]
fn shortcuts(
    keyboard: Res<ButtonInput<KeyCode>>,
    state: Res<State<AppState>>,
    selection: Res<Selection>,
    rules: Res<Rules>,
    mut files: ResMut<files::Files>,
    mut windows: ResMut<Windows>,
    mut commands: MessageWriter<GameCommand>,
    mut editor: MessageWriter<EditorCommand>,
    mut hints: MessageWriter<RequestHint>,
    mut cancel: MessageWriter<CancelSelection>,
    mut flips: MessageWriter<FlipView>,
    (cursor, mut cursor_keys, rig): (Res<BoardCursor>, MessageWriter<CursorKey>, Res<CameraRig>),
) {
    let ctrl = keyboard.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let pressed = |k| keyboard.just_pressed(k);
    if pressed(KeyCode::Escape) {
        if rules.pending_branch.is_some() {
            commands.write(GameCommand::CancelBranch);
        } else if selection.from.is_some() {
            cancel.write(CancelSelection);
        } else if cursor.at.is_some() {
            cursor_keys.write(CursorKey::Hide);
        } else if files.is_open() {
            files.close();
        } else if windows.close_all() {
            // Closing the open windows was all.
        } else if *state.get() == AppState::Editing {
            editor.write(EditorCommand::Cancel);
        } else {
            windows.new_game = true;
        }
    }
    if pressed(KeyCode::F1) {
        windows.help = !windows.help;
    }
    if pressed(KeyCode::KeyF) {
        flips.write(FlipView);
    }
    if *state.get() != AppState::Playing {
        return;
    }
    if pressed(KeyCode::KeyN) && !ctrl {
        windows.new_game = true;
    }
    if pressed(KeyCode::KeyU) || (ctrl && pressed(KeyCode::KeyZ)) {
        commands.write(GameCommand::Undo);
    }
    if ctrl && pressed(KeyCode::KeyY) {
        commands.write(GameCommand::Redo);
    }
    if pressed(KeyCode::KeyH) {
        hints.write(RequestHint);
    }
    if pressed(KeyCode::KeyP) && rules.clock.is_some() {
        commands.write(GameCommand::Pause);
    }
    if pressed(KeyCode::Slash) || pressed(KeyCode::KeyM) {
        windows.focus_move = true;
    }
    // The board cursor: up and down show and move it, left and right move it while it is
    // shown (else they step through the moves); directions follow the side the board is
    // seen from.
    let sign: i8 = if rig.viewer() == Side::White { 1 } else { -1 };
    let shown = cursor.at.is_some();
    for (key, files, ranks) in [
        (KeyCode::ArrowUp, 0, 1),
        (KeyCode::ArrowDown, 0, -1),
        (KeyCode::ArrowLeft, -1, 0),
        (KeyCode::ArrowRight, 1, 0),
    ] {
        if !pressed(key) {
            continue;
        }
        if ranks != 0 || shown {
            cursor_keys.write(CursorKey::Step {
                files: files * sign,
                ranks: ranks * sign,
            });
        } else if files < 0 {
            commands.write(GameCommand::StepBack);
        } else {
            commands.write(GameCommand::StepForward);
        }
    }
    if pressed(KeyCode::Enter) || pressed(KeyCode::NumpadEnter) || pressed(KeyCode::Space) {
        cursor_keys.write(CursorKey::Press);
    }
    if pressed(KeyCode::Home) {
        commands.write(GameCommand::GoTo(0));
    }
    if pressed(KeyCode::End) {
        commands.write(GameCommand::GoTo(usize::MAX));
    }
}

/// The language resource follows the settings (changed in the settings window).
fn follow_language(persist: Option<Res<Persist>>, mut language: ResMut<Language>) {
    if let Some(persist) = persist
        && language.0 != persist.settings.language
    {
        language.0 = persist.settings.language;
    }
}

/// The saved look, speed and new-game choices take effect at start.
fn apply_settings(
    persist: Option<Res<Persist>>,
    mut speed: ResMut<AnimationSpeed>,
    mut quality: ResMut<Quality>,
    mut form: ResMut<NewGameForm>,
    mut analysis: ResMut<crate::game::analysis::Analysis>,
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
    analysis.evaluate = s.eval_bar;
    form.variant = s.last_variant;
    form.opponent = s.last_opponent;
    form.level = s.last_level;
    form.color = s.last_colour;
    form.set_time_control(s.last_time_control);
}

/// What the player can change that the settings keep.
type Remembered = (
    AnimationSpeed,
    Quality,
    Variant,
    Opponent,
    u8,
    ColorChoice,
    Option<TimeControl>,
);

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
        form.time_control(),
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
    s.last_time_control = form.time_control();
    persist.save_settings();
}

/// The player's record against the computer, per variant and level.
fn stats_window(
    mut contexts: EguiContexts,
    language: Res<Language>,
    persist: Option<Res<Persist>>,
    mut windows: ResMut<Windows>,
) -> Result {
    if !windows.stats {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let lang = language.0;
    let t = |k| tr(lang, k);
    let stats = persist
        .map(|p| p.settings.stats.clone())
        .unwrap_or_default();
    let mut open = true;
    egui::Window::new(t(Text::Statistics))
        .id(egui::Id::new("statistics"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            if stats.tallies.is_empty() {
                ui.label(t(Text::StatisticsNone));
                return;
            }
            ui.small(t(Text::StatisticsNote));
            // One grid for both variants, so that their columns line up.
            egui::Grid::new("stats").striped(true).show(ui, |ui| {
                for variant in [Variant::Russian, Variant::Giveaway] {
                    let rows: Vec<_> = stats.of(variant).copied().collect();
                    if rows.is_empty() {
                        continue;
                    }
                    ui.strong(i18n::variant_name(lang, variant));
                    ui.end_row();
                    for head in [
                        Text::StatLevel,
                        Text::StatGames,
                        Text::StatWon,
                        Text::StatDrawn,
                        Text::StatLost,
                        Text::StatScore,
                    ] {
                        ui.label(egui::RichText::new(t(head)).weak());
                    }
                    ui.end_row();
                    for r in rows {
                        ui.label(format!("{} {}", r.level, level_name(lang, r.level)));
                        for n in [r.played(), r.won, r.drawn, r.lost] {
                            ui.label(n.to_string());
                        }
                        ui.label(format!("{:.0}%", r.score_percent()));
                        ui.end_row();
                    }
                }
            });
        });
    windows.stats &= open;
    Ok(())
}

/// Tells the camera which part of the window the panels leave to the board: the game
/// panel (or the editor's) on the right, the menu on top, the evaluation bar on the left.
fn leave_room_for_panels(
    mut contexts: EguiContexts,
    state: Res<State<AppState>>,
    analysis: Res<crate::game::analysis::Analysis>,
    windows: Res<Windows>,
    mut rig: ResMut<CameraRig>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let width_of = |id: &str| {
        ctx.memory(|m| m.area_rect(egui::Id::new(id)))
            .map(|r| screen.right() - r.left() + 8.0)
    };
    let editing = *state.get() == AppState::Editing;
    let right = if editing {
        width_of("editor").unwrap_or(300.0)
    } else {
        width_of("game_panel").unwrap_or(306.0)
    };
    let bar = analysis.evaluate && *state.get() == AppState::Playing;
    let mut left: f32 = if bar { 64.0 } else { 8.0 };
    // The settings window stays open beside the board on the left (the puzzles are
    // docked on the right, under the game panel).
    for (open, id) in [(windows.settings, "settings")] {
        if open && let Some(r) = ctx.memory(|m| m.area_rect(egui::Id::new(id))) {
            left = left.max(r.right() - screen.left() + 8.0);
        }
    }
    let margins = [
        left.min(screen.width() * 0.4),
        44.0,
        right.clamp(0.0, screen.width() * 0.5),
        8.0,
    ];
    if rig.margins != margins {
        rig.margins = margins;
    }
    Ok(())
}
