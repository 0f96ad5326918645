#![cfg(feature = "game")]
//! The game in progress is saved after each move and comes back with "Continue"; a
//! finished game leaves nothing to continue; damaged files never stop the game. Its own
//! test binary: it sets SHASHKI_HOME (one test at a time, under a lock).

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use shashki::ai::Level;
use shashki::game::persist::{self, Persist};
use shashki::game::{
    GameCommand, GamePlugin, Language, NewGame, PlayMove, Player, Rules, Setup, Status,
};
use shashki::i18n::Lang;
use shashki::rules::{Color as Side, Variant};
use shashki::store::{Opponent, Settings, Store};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

/// The player's folder is process-wide: tests take turns.
static HOME: Mutex<()> = Mutex::new(());

/// A fresh folder for one test, set as the player's folder.
fn fresh_home(name: &str) -> PathBuf {
    let home = std::env::temp_dir().join(format!("shashki-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    // SAFETY: tests that read or set the variable hold the HOME lock; nothing else reads it.
    unsafe { std::env::set_var(shashki::store::HOME_VAR, &home) };
    home
}

fn two_humans(variant: Variant) -> Setup {
    Setup {
        variant,
        white: Player::Human,
        black: Player::Human,
    }
}

/// Plays moves given in notation through the same message a click sends.
fn play(app: &mut App, moves: &[&str]) {
    for text in moves {
        let mv = app
            .world()
            .resource::<Rules>()
            .game
            .position()
            .parse_move(text)
            .expect("a legal test move");
        app.world_mut().write_message(PlayMove(mv));
        frames(app, 2);
    }
}

fn game_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, GamePlugin, persist::plugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            20,
        )));
    app.update();
    app
}

fn frames(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

#[test]
fn a_saved_game_continues_and_a_finished_one_is_cleared() {
    let _turn = HOME.lock().unwrap_or_else(|e| e.into_inner());
    let home = fresh_home("persist");
    let store = Store::open();

    let mut app = game_app();
    assert!(app.world().resource::<Persist>().resumable.is_none());
    let setup = Setup {
        variant: Variant::Russian,
        white: Player::Computer(Level::new(2)),
        black: Player::Human,
    };
    app.world_mut().write_message(NewGame::fresh(setup));
    frames(&mut app, 3);
    // White is the computer; its first move is saved, then the human is to move.
    for _ in 0..500 {
        app.update();
        if app.world().resource::<Rules>().game.ply() > 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    frames(&mut app, 2);
    let saved = store.load_game().value.expect("saved after the move");
    assert_eq!(saved.game.ply(), 1);
    assert_eq!(saved.opponent, Opponent::Computer { level: 2 });
    assert_eq!(saved.human_colour, Side::Black);

    let mut app = game_app();
    let new_game = app
        .world_mut()
        .resource_mut::<Persist>()
        .resume()
        .expect("something to continue");
    app.world_mut().write_message(new_game);
    frames(&mut app, 3);
    let rules = app.world().resource::<Rules>();
    assert_eq!(rules.game.ply(), 1);
    assert_eq!(rules.setup, setup);

    app.world_mut().write_message(GameCommand::Resign);
    frames(&mut app, 2);
    assert!(store.load_game().value.is_none());
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_restarted_game_continues_with_its_whole_history_and_counters() {
    let _turn = HOME.lock().unwrap_or_else(|e| e.into_inner());
    let home = fresh_home("restart");
    let mut app = game_app();
    app.world_mut()
        .write_message(NewGame::fresh(two_humans(Variant::Giveaway)));
    frames(&mut app, 3);
    play(
        &mut app,
        &[
            "c3-d4", "f6-g5", "b2-c3", "g5-h4", "g3-f4", "e7-f6", "c3-b4", "f6-g5",
        ],
    );
    // A move taken back: the game is saved as it stands after the undo.
    app.world_mut().write_message(GameCommand::Undo);
    frames(&mut app, 2);
    let before = app.world().resource::<Rules>().game.clone();
    drop(app);

    let mut app = game_app();
    let resumed = app
        .world_mut()
        .resource_mut::<Persist>()
        .resume()
        .expect("something to continue");
    app.world_mut().write_message(resumed);
    frames(&mut app, 3);
    let rules = app.world().resource::<Rules>();
    assert_eq!(rules.game.variant(), Variant::Giveaway);
    assert_eq!(rules.setup, two_humans(Variant::Giveaway));
    assert_eq!(rules.game.moves(), before.moves());
    assert_eq!(rules.game.position(), before.position());
    assert_eq!(rules.game.start_position(), before.start_position());
    assert_eq!(rules.game.draw_countdowns(), before.draw_countdowns());
    assert_eq!(rules.game.repetitions(), before.repetitions());
    // Play goes on from there.
    play(&mut app, &["f6-g5"]);
    assert_eq!(app.world().resource::<Rules>().game.ply(), 8);
    // Stepping back to review keeps the whole game in the save.
    for _ in 0..2 {
        app.world_mut().write_message(GameCommand::StepBack);
        frames(&mut app, 2);
    }
    assert_eq!(app.world().resource::<Rules>().game.ply(), 6);
    let saved = Store::open().load_game().value.expect("saved");
    assert_eq!(saved.game.ply(), 8);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn damaged_files_give_defaults_a_message_and_a_backup() {
    let _turn = HOME.lock().unwrap_or_else(|e| e.into_inner());
    let home = fresh_home("damaged");
    let store = Store::open();
    std::fs::create_dir_all(store.settings_path().parent().unwrap()).unwrap();
    std::fs::create_dir_all(store.saved_game_path().parent().unwrap()).unwrap();
    std::fs::write(store.settings_path(), "{\"language\": \"Ru\", \"volume\": ").unwrap();
    std::fs::write(store.saved_game_path(), [0xff, 0xfe, 0x00, 0x42]).unwrap();

    let mut app = game_app();
    frames(&mut app, 2);
    let persist = app.world().resource::<Persist>();
    assert!(persist.resumable.is_none());
    let defaults = Settings::first_start();
    assert_eq!(persist.settings.volume, defaults.volume);
    assert_eq!(persist.settings.animation_speed, defaults.animation_speed);
    let message = app
        .world()
        .resource::<Status>()
        .message
        .clone()
        .expect("the player is told");
    let lang = app.world().resource::<Language>().0;
    assert!(!message.text(lang).is_empty());
    // Both files were damaged: one line for each reaches the screen.
    assert_eq!(message.text(Lang::En).lines().count(), 2, "one line a file");
    let backup = |path: PathBuf| {
        let mut name = path.file_name().unwrap().to_os_string();
        name.push(".bak");
        path.with_file_name(name)
    };
    assert_eq!(
        std::fs::read(backup(store.saved_game_path())).unwrap(),
        [0xff, 0xfe, 0x00, 0x42],
        "the damaged save is kept"
    );
    assert!(
        std::fs::read_to_string(backup(store.settings_path()))
            .unwrap()
            .contains("volume")
    );

    // The game goes on and saves over the damaged file's place.
    app.world_mut()
        .write_message(NewGame::fresh(two_humans(Variant::Russian)));
    frames(&mut app, 3);
    play(&mut app, &["c3-d4"]);
    let saved = store.load_game();
    assert!(saved.notice.is_none());
    assert_eq!(saved.value.expect("saved").game.ply(), 1);
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_game_against_the_computer_counts_once_in_the_statistics() {
    let _turn = HOME.lock().unwrap_or_else(|e| e.into_inner());
    let home = fresh_home("stats");
    let store = Store::open();
    let mut app = game_app();
    let setup = Setup {
        variant: Variant::Giveaway,
        white: Player::Human,
        black: Player::Computer(Level::new(4)),
    };
    app.world_mut().write_message(NewGame::fresh(setup));
    frames(&mut app, 3);
    app.world_mut().write_message(GameCommand::Resign);
    frames(&mut app, 3);
    let finished = app.world().resource::<Rules>().game.clone();
    assert!(finished.outcome().is_some());
    let stats = store.load_settings().value.stats;
    let t: Vec<_> = stats.of(Variant::Giveaway).collect();
    assert_eq!(t.len(), 1);
    assert_eq!((t[0].level, t[0].won, t[0].drawn, t[0].lost), (4, 0, 0, 1));
    frames(&mut app, 5);
    // The same finished game loaded again is not a new result.
    app.world_mut().write_message(NewGame {
        setup,
        start: shashki::game::Start::Game(Box::new(finished)),
        clock: None,
    });
    frames(&mut app, 5);
    let again = store.load_settings().value.stats;
    assert_eq!(again, stats);
    // Two people at one computer are not counted.
    app.world_mut()
        .write_message(NewGame::fresh(two_humans(Variant::Russian)));
    frames(&mut app, 3);
    app.world_mut().write_message(GameCommand::Resign);
    frames(&mut app, 3);
    assert_eq!(store.load_settings().value.stats, stats);
    let _ = std::fs::remove_dir_all(&home);
}
