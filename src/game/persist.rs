//! The game in progress is saved after every change so that "Continue" brings it back.
//!
//! Window-only: headless tests and tools never touch the player's files. Games without a
//! human (the demo) are neither saved nor cleared.

use super::rules::{Language, NewGame, Player, Rules, Setup, Start, Status};
use super::{AppState, GameSet};
use crate::ai::Level;
use crate::rules::Color;
use crate::store::{Opponent, SavedGame, Settings, Store};
use bevy::prelude::*;

/// The game's files and what was found in them at start.
#[derive(Resource, Debug)]
pub struct Persist {
    pub store: Store,
    /// The settings as last loaded or saved; the view applies them at start.
    pub settings: Settings,
    /// A saved game still going on, offered by the new-game panel.
    pub resumable: Option<SavedGame>,
}

impl Persist {
    /// Writes the settings; a failure is logged, as the game goes on without them.
    pub fn save_settings(&self) {
        if let Err(e) = self.store.save_settings(&self.settings) {
            warn!("{e}");
        }
    }

    /// Starts the saved game: the panel sends the returned [`NewGame`] so that everything
    /// reacting to a new game (camera, AI, pieces) does so.
    pub fn resume(&mut self) -> Option<NewGame> {
        let mut saved = self.resumable.take()?;
        let setup = setup_of(&saved);
        // A game with a clock comes back paused: the player starts it with Resume.
        if let Some(clock) = &mut saved.clock {
            clock.paused = true;
        }
        Some(NewGame {
            setup,
            start: Start::Game(Box::new(saved.game)),
            clock: saved.clock,
        })
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, open_store)
        .add_systems(
            Update,
            (restore, save)
                .chain()
                .in_set(GameSet::Rules)
                .after(super::rules::start_new_game),
        )
        // After the rules have taken this frame's new game and moves.
        .add_systems(Update, count_result.in_set(GameSet::View));
}

/// Adds each game against the computer to the statistics once, when it ends here.
fn count_result(
    mut new_games: MessageReader<NewGame>,
    rules: Res<Rules>,
    state: Res<State<AppState>>,
    editor: Res<super::editor::Editor>,
    persist: Option<ResMut<Persist>>,
    mut counter: Local<crate::store::stats::ResultCounter>,
) {
    if new_games.read().count() > 0 {
        counter.new_game();
    }
    let Some(mut persist) = persist else {
        return;
    };
    if *state.get() != AppState::Playing || editor.is_open() {
        return;
    }
    let Some(outcome) = counter.observe(rules.game.outcome(), rules.in_review()) else {
        return;
    };
    let Some(computer) = rules.setup.computer() else {
        return;
    };
    if let Player::Computer(level) = rules.setup.player(computer) {
        let variant = rules.game.variant();
        persist
            .settings
            .stats
            .record(variant, level.number(), computer.opposite(), outcome);
        persist.save_settings();
    }
}

fn open_store(mut commands: Commands, mut status: ResMut<Status>, mut language: ResMut<Language>) {
    let store = Store::open();
    let settings = store.load_settings();
    let lang = settings.value.language;
    language.0 = lang;
    let loaded = store.load_game();
    // Both files may be damaged: every notice reaches the screen, one per line.
    let mut texts = Vec::new();
    for notice in [&settings.notice, &loaded.notice].into_iter().flatten() {
        warn!("{}", notice.details());
        texts.push(notice.text(lang));
    }
    if !texts.is_empty() {
        say_long(&mut status, texts.join("\n"));
    }
    let resumable = loaded.value.filter(|s| s.game.outcome().is_none());
    commands.insert_resource(Persist {
        store,
        settings: settings.value,
        resumable,
    });
}

/// A notice about a file stays longer than a game message.
fn say_long(status: &mut Status, text: String) {
    status.say(text);
    status.message_ttl = 10.0;
}

/// Who plays what in a saved game, as the rules resource wants it.
fn setup_of(saved: &SavedGame) -> Setup {
    let (white, black) = match saved.opponent {
        Opponent::Human => (Player::Human, Player::Human),
        Opponent::Computer { level } => {
            let computer = Player::Computer(Level::new(level));
            match saved.human_colour {
                Color::White => (Player::Human, computer),
                Color::Black => (computer, Player::Human),
            }
        }
    };
    Setup {
        variant: saved.variant(),
        white,
        black,
    }
}

/// The saved form of a game, or `None` when no human plays it.
fn saved_of(rules: &Rules) -> Option<SavedGame> {
    let setup = rules.setup;
    let opponent = match (setup.white, setup.black) {
        (Player::Human, Player::Human) => Opponent::Human,
        (Player::Computer(level), Player::Human) | (Player::Human, Player::Computer(level)) => {
            Opponent::Computer {
                level: level.number(),
            }
        }
        (Player::Computer(_), Player::Computer(_)) => return None,
    };
    // While the player reviews an earlier point the whole game is kept, not the point.
    let game = if rules.in_review() {
        rules.full_game()
    } else {
        rules.game.clone()
    };
    Some(SavedGame::new(game, opponent, setup.viewer()).with_clock(rules.clock.clone()))
}

/// Once a new game starts (the saved one or another), there is nothing left to continue.
fn restore(mut new_games: MessageReader<NewGame>, persist: Option<ResMut<Persist>>) {
    let Some(mut persist) = persist else {
        return;
    };
    if new_games.read().count() > 0 {
        persist.resumable = None;
    }
}

/// Writes the game whenever it changed: a move, undo, redo, new game, resignation or draw.
/// A finished game is cleared, so there is nothing to continue.
#[allow(clippy::too_many_arguments)]
fn save(
    rules: Res<Rules>,
    state: Res<State<AppState>>,
    persist: Option<Res<Persist>>,
    mut status: ResMut<Status>,
    language: Res<Language>,
    editor: Res<super::editor::Editor>,
    puzzles: Option<Res<super::puzzles::Puzzles>>,
    mut last: Local<Option<(u64, usize, bool, bool)>>,
) {
    let Some(persist) = persist else {
        return;
    };
    if *state.get() != AppState::Playing {
        return;
    }
    // The editor shows its position in the rules resource: that is not the game.
    if editor.is_open() {
        return;
    }
    // Nor is a puzzle's or an ending's: the autosave keeps the game set aside.
    if puzzles.is_some_and(|p| p.in_exercise()) {
        return;
    }
    let over = rules.game.outcome().is_some();
    let paused = rules.clock.as_ref().is_some_and(|c| c.paused);
    let key = (rules.generation, rules.game.ply(), over, paused);
    if *last == Some(key) {
        return;
    }
    *last = Some(key);
    let Some(saved) = saved_of(&rules) else {
        return;
    };
    let written = if saved.game.outcome().is_some() {
        persist.store.clear_game()
    } else {
        persist.store.save_game(&saved)
    };
    if let Err(e) = written {
        warn!("{e}");
        status.say(crate::i18n::save_failed(language.0, &e.to_string()));
    }
}
