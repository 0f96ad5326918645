#![cfg(feature = "game")]
//! The game in progress is saved after each move and comes back with "Continue"; a
//! finished game leaves nothing to continue. Its own test binary: it sets SHASHKI_HOME.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use shashki::ai::Level;
use shashki::game::persist::{self, Persist};
use shashki::game::{GameCommand, GamePlugin, NewGame, Player, Rules, Setup};
use shashki::rules::{Color as Side, Variant};
use shashki::store::{Opponent, Store};
use std::time::Duration;

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
    let home = std::env::temp_dir().join(format!("shashki-persist-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    // SAFETY: this binary has one test and sets the variable before any thread reads it.
    unsafe { std::env::set_var(shashki::store::HOME_VAR, &home) };
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
