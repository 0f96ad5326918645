//! The game clock: time spent, increments, flags, undo and review, saved clocks checked.

use shashki::rules::clock::{ClockError, clock_text, pdn_clock};
use shashki::rules::{Color, Game, GameClock, TimeControl, Variant};
use shashki::store::{Opponent, SavedGame};
use std::time::Duration;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn a_move_costs_its_time_and_earns_the_increment() {
    let mut clock = GameClock::new(TimeControl::minutes(3, 2));
    assert_eq!(clock.remaining(Color::White, 0, Color::White), ms(180_000));
    assert!(!clock.tick(0, Color::White, ms(4_500)));
    assert_eq!(clock.remaining(Color::White, 0, Color::White), ms(175_500));
    // The side not to move does not lose time.
    assert_eq!(clock.remaining(Color::Black, 0, Color::White), ms(180_000));
    clock.record_move(0, Color::White);
    assert_eq!(clock.remaining(Color::White, 1, Color::Black), ms(177_500));
    clock.tick(1, Color::Black, ms(1_000));
    clock.record_move(1, Color::Black);
    assert_eq!(clock.remaining(Color::Black, 2, Color::White), ms(181_000));
    assert_eq!(clock.len(), 3);
    // The times at every earlier ply stay for review.
    assert_eq!(clock.remaining(Color::White, 0, Color::White), ms(180_000));
    assert_eq!(clock.remaining(Color::White, 1, Color::Black), ms(177_500));
}

#[test]
fn the_flag_falls_at_zero_and_pause_stops_the_clock() {
    let mut clock = GameClock::new(TimeControl::new(1.0, 0.0));
    assert!(!clock.tick(0, Color::White, ms(999)));
    clock.paused = true;
    assert!(!clock.tick(0, Color::White, ms(5_000)));
    assert_eq!(clock.remaining(Color::White, 0, Color::White), ms(1));
    clock.paused = false;
    assert!(clock.tick(0, Color::White, ms(1)));
    assert!(clock.flagged(0, Color::White));
    assert_eq!(
        clock.remaining(Color::White, 0, Color::White),
        Duration::ZERO
    );
}

#[test]
fn taking_a_move_back_brings_its_times_back() {
    let mut clock = GameClock::new(TimeControl::minutes(5, 0));
    clock.tick(0, Color::White, ms(10_000));
    clock.record_move(0, Color::White);
    clock.tick(1, Color::Black, ms(20_000));
    clock.record_move(1, Color::Black);
    clock.tick(2, Color::White, ms(3_000));
    // Back to ply 1 (undo): Black's time there is its time before it moved.
    assert_eq!(clock.remaining(Color::Black, 1, Color::Black), ms(300_000));
    clock.tick(1, Color::Black, ms(500));
    assert_eq!(clock.remaining(Color::Black, 1, Color::Black), ms(299_500));
    // Another move from ply 1 drops the old ply 2.
    clock.record_move(1, Color::Black);
    assert_eq!(clock.len(), 3);
    assert_eq!(clock.remaining(Color::Black, 2, Color::White), ms(299_500));
    assert_eq!(clock.remaining(Color::White, 2, Color::White), ms(290_000));
    clock.truncate(0);
    assert_eq!(clock.len(), 1);
}

#[test]
fn readings_are_written_as_players_and_pdn_write_them() {
    assert_eq!(clock_text(ms(185_000)), "3:05");
    assert_eq!(clock_text(ms(3_723_000)), "1:02:03");
    assert_eq!(clock_text(ms(9_350)), "9.3");
    assert_eq!(clock_text(Duration::ZERO), "0.0");
    assert_eq!(pdn_clock(ms(185_400)), "[%clk 0:03:05]");
    assert_eq!(TimeControl::minutes(5, 3).to_string(), "5+3");
    assert_eq!(TimeControl::minutes(5, 3).pdn(), "300+3");
    assert!(TimeControl::minutes(15, 10).is_valid());
    assert!(!TimeControl::minutes(0, 10).is_valid());
    assert!(!TimeControl::minutes(5, 61).is_valid());
}

#[test]
fn a_saved_clock_that_does_not_fit_its_game_is_refused() {
    let mut game = Game::new(Variant::Russian);
    game.play_text("c3-d4").unwrap();
    let mut clock = GameClock::new(TimeControl::minutes(3, 2));
    clock.tick(0, Color::White, ms(2_000));
    clock.record_move(0, Color::White);
    let saved = SavedGame::new(game.clone(), Opponent::Computer { level: 4 }, Color::White)
        .with_clock(Some(clock.clone()));
    let back = SavedGame::from_json(&saved.to_json()).unwrap();
    assert_eq!(back.clock, Some(clock.clone()));
    assert_eq!(
        back.clock.unwrap().remaining(Color::White, 1, Color::Black),
        ms(180_000)
    );
    // One ply too few.
    let short = SavedGame::new(game.clone(), Opponent::Human, Color::White)
        .with_clock(Some(GameClock::new(TimeControl::minutes(3, 2))));
    let err = SavedGame::from_json(&short.to_json()).unwrap_err();
    assert!(err.to_string().contains("clock"), "{err}");
    assert_eq!(
        GameClock::new(TimeControl::minutes(3, 2)).validate(1),
        Err(ClockError::Length {
            found: 1,
            expected: 2
        })
    );
    // A time no game can reach, and a control out of range.
    let mut value: serde_json::Value = serde_json::from_str(&saved.to_json()).unwrap();
    value["clock"]["history"][1][0] = serde_json::json!(99_999_999u64);
    let err = SavedGame::from_json(&value.to_string()).unwrap_err();
    assert!(err.to_string().contains("99999999"), "{err}");
    let wild = GameClock::starting_at(TimeControl::new(0.1, 0.0), 1);
    assert!(matches!(wild.validate(1), Err(ClockError::Control(_))));
}

#[test]
fn a_pdn_record_gives_back_its_clocks() {
    use shashki::rules::clock::parse_pdn_clock;
    use shashki::rules::pdn::read_pdn;
    let text = "[Event \"Blitz\"]\n[TimeControl \"180+2\"]\n[Result \"*\"]\n\n\
                1. c3-d4 {[%clk 0:02:59]} f6-g5 {good [%clk 0:03:01.5] move} \
                ( 1... f6-e5 {[%clk 0:00:01]} ) 2. b2-c3 {[%clk 0:02:40]} *\n";
    let games = read_pdn(text);
    let game = games[0].as_ref().unwrap();
    assert_eq!(
        game.clocks,
        vec![Some(ms(179_000)), Some(ms(181_500)), Some(ms(160_000))]
    );
    let clock = game.clock().expect("a clock");
    assert_eq!(clock.len(), 4);
    assert_eq!(clock.remaining(Color::White, 3, Color::Black), ms(160_000));
    assert_eq!(clock.remaining(Color::Black, 3, Color::Black), ms(181_500));
    assert_eq!(clock.remaining(Color::Black, 1, Color::Black), ms(180_000));
    // A move without a reading, or no control, gives no clock; readings are checked.
    let missing = text.replace("{[%clk 0:02:40]}", "");
    assert_eq!(read_pdn(&missing)[0].as_ref().unwrap().clock(), None);
    let untimed = text.replace("[TimeControl \"180+2\"]\n", "");
    assert_eq!(read_pdn(&untimed)[0].as_ref().unwrap().clock(), None);
    let wild = text.replace("0:02:40", "9:02:40");
    assert_eq!(read_pdn(&wild)[0].as_ref().unwrap().clock(), None);
    assert_eq!(parse_pdn_clock("[%clk 1:02:03]"), Some(ms(3_723_000)));
    assert_eq!(parse_pdn_clock("[%clk 4:05]"), Some(ms(245_000)));
    for bad in [
        "[%clk x]",
        "[%clk 0:61:00]",
        "[%clk 0:00:75]",
        "[%clk 1:2:3:4]",
        "clk",
    ] {
        assert_eq!(parse_pdn_clock(bad), None, "{bad}");
    }
}
