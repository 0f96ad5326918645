//! Settings and saved games: round trips, damaged files, atomic writes.

use shashki::i18n::Lang;
use shashki::rules::{Color, Game, Outcome, Variant};
use shashki::store::{
    AnimationSpeed, BoardTheme, ColourChoice, FileKind, GraphicsQuality, Notice, Opponent,
    OpponentChoice, SavedGame, Settings, Store, write_atomic,
};
use std::path::{Path, PathBuf};

/// A fresh folder under the system temp folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "shashki-store-{name}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn names(&self) -> Vec<String> {
        names_in(&self.0)
    }
}

/// File names in a folder, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn custom_settings() -> Settings {
    Settings {
        language: Lang::Ru,
        volume: 0.25,
        muted: true,
        animation_speed: AnimationSpeed::Slow,
        board_theme: BoardTheme::Birch,
        show_coordinates: false,
        show_legal_moves: false,
        eval_bar: true,
        graphics_quality: GraphicsQuality::Low,
        last_variant: Variant::Giveaway,
        last_opponent: OpponentChoice::Human,
        last_level: 7,
        last_colour: ColourChoice::Random,
        last_time_control: Some(shashki::rules::TimeControl::minutes(5, 3)),
        last_folder: Some("/tmp/партии".into()),
        stats: {
            let mut s = shashki::store::Statistics::default();
            s.record(
                Variant::Russian,
                6,
                shashki::rules::Color::Black,
                shashki::rules::Outcome::Draw(shashki::rules::DrawRule::Agreement),
            );
            s
        },
        puzzles_solved: vec!["russian:W:Wa1:Bh8".into()],
        window: Some(shashki::store::settings::WindowPlace {
            width: 1000.0,
            height: 700.0,
            x: None,
            y: None,
        }),
    }
}

/// A game of `plies` moves, always the first legal move, so it includes captures.
fn played_game(variant: Variant, fen: Option<&str>, plies: usize) -> Game {
    let mut game = match fen {
        Some(fen) => Game::from_fen(variant, fen).unwrap(),
        None => Game::new(variant),
    };
    for i in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        game.play(&moves[i % moves.len()]).unwrap();
    }
    game
}

#[test]
fn settings_round_trip() {
    let dir = TempDir::new("settings");
    let store = Store::at(dir.path());
    let settings = custom_settings();
    store.save_settings(&settings).unwrap();
    let loaded = store.load_settings();
    assert_eq!(loaded.notice, None);
    assert_eq!(loaded.value, settings);
    assert_eq!(dir.names(), ["settings.json"]);
}

#[test]
fn missing_settings_are_first_start_defaults() {
    let dir = TempDir::new("missing");
    let loaded = Store::at(dir.path()).load_settings();
    assert_eq!(loaded.notice, None);
    assert_eq!(loaded.value, Settings::first_start());
    assert!(dir.names().is_empty(), "loading writes nothing");
}

#[test]
fn old_or_partly_unknown_settings_keep_what_is_understood() {
    let text = r#"{"volume": 0.3, "board_theme": "Marble", "last_level": 99,
                   "language": "Ru", "future_option": [1, 2], "muted": "yes"}"#;
    let s = Settings::from_json(text).unwrap();
    assert_eq!(s.volume, 0.3);
    assert_eq!(s.language, Lang::Ru);
    assert_eq!(
        s.board_theme,
        BoardTheme::default(),
        "unknown theme falls back"
    );
    assert_eq!(s.last_level, 10, "level is brought into 1-10");
    assert!(!s.muted, "a value of the wrong kind falls back");
    assert_eq!(Settings::from_json("{}").unwrap(), Settings::default());
    let loud = Settings::from_json(r#"{"volume": 7.5, "last_level": 0}"#).unwrap();
    assert_eq!((loud.volume, loud.last_level), (1.0, 1));
}

#[test]
fn damaged_settings_give_defaults_a_message_and_a_backup() {
    let dir = TempDir::new("damaged-settings");
    let store = Store::at(dir.path());
    let garbage = "{\"volume\": 0.5, \"language\": ";
    std::fs::write(store.settings_path(), garbage).unwrap();

    let loaded = store.load_settings();
    assert_eq!(loaded.value, Settings::first_start());
    let notice = loaded.notice.expect("a message for the player");
    let backup = dir.path().join("settings.json.bak");
    assert!(matches!(
        &notice,
        Notice::Damaged { kind: FileKind::Settings, backup: Some(b), .. } if *b == backup
    ));
    assert_eq!(
        notice.text(Lang::En),
        "Settings file was damaged; defaults restored (old file kept as settings.json.bak)"
    );
    assert!(notice.text(Lang::Ru).contains("settings.json.bak"));
    assert!(!notice.text(Lang::En).contains('\n'), "one line");
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), garbage);
    assert_eq!(dir.names(), ["settings.json.bak"]);

    // A second damaged file does not overwrite the first backup.
    std::fs::write(store.settings_path(), [0xff, 0xfe, 0x00]).unwrap();
    let again = store.load_settings();
    assert!(matches!(
        again.notice,
        Some(Notice::Damaged { backup: Some(ref b), .. }) if b.ends_with("settings.json.bak2")
    ));
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), garbage);

    // Saving afterwards writes a good file; the next load is quiet.
    store.save_settings(&custom_settings()).unwrap();
    let good = store.load_settings();
    assert_eq!((good.value, good.notice), (custom_settings(), None));
}

#[test]
fn settings_that_are_not_an_object_are_damaged() {
    for text in ["", "[]", "42", "\"Walnut\"", "null", "{", "{\"volume\":}"] {
        assert!(Settings::from_json(text).is_err(), "{text:?}");
    }
}

#[test]
fn autosave_round_trip_keeps_history_redo_and_counters() {
    let dir = TempDir::new("autosave");
    let store = Store::at(dir.path());
    assert_eq!(
        store.load_game(),
        shashki::store::Loaded {
            value: None,
            notice: None
        }
    );

    let mut game = played_game(Variant::Russian, None, 40);
    assert!(game.ply() >= 20);
    for _ in 0..3 {
        game.undo();
    }
    assert_eq!(game.redo_moves().len(), 3);
    let saved = SavedGame::new(game.clone(), Opponent::Computer { level: 6 }, Color::Black);
    store.save_game(&saved).unwrap();

    let loaded = store.load_game();
    assert_eq!(loaded.notice, None);
    let back = loaded.value.expect("a game to continue");
    assert_eq!(back, saved);
    assert_eq!(back.game.position(), game.position());
    assert_eq!(back.game.moves(), game.moves());
    assert_eq!(back.game.redo_moves(), game.redo_moves());
    assert_eq!(back.game.outcome(), game.outcome());
    assert_eq!(back.variant(), Variant::Russian);
    assert_eq!(back.computer_colour(), Some(Color::White));
    assert_eq!(dir.names(), ["game.json"]);

    // Redo after loading goes on exactly as before saving.
    let mut a = game;
    let mut b = back.game;
    while a.redo().is_some() {
        assert!(b.redo().is_some());
        assert_eq!(a, b);
    }
}

#[test]
fn autosave_keeps_draw_countdowns_and_outcomes() {
    let dir = TempDir::new("counters");
    let store = Store::at(dir.path());
    // Kings only on both sides: the 15-move rule (7.2.5) and others are counting.
    let game = played_game(Variant::Russian, Some("W:WKa1,Kc1:BKh8,Kf8"), 7);
    assert!(
        game.draw_countdowns().len() >= 2,
        "{:?}",
        game.draw_countdowns()
    );
    store
        .save_game(&SavedGame::new(game.clone(), Opponent::Human, Color::White))
        .unwrap();
    let back = store.load_game().value.unwrap().game;
    assert_eq!(back, game);
    assert_eq!(back.draw_countdowns(), game.draw_countdowns());
    assert_eq!(back.repetitions(), game.repetitions());

    // A declared result (resignation) comes back too, in поддавки as well.
    let mut resigned = played_game(Variant::Giveaway, None, 6);
    resigned.resign(Color::White);
    let outcome = resigned.outcome();
    assert!(matches!(
        outcome,
        Some(Outcome::Win {
            winner: Color::Black,
            ..
        })
    ));
    store
        .save_game(&SavedGame::new(
            resigned,
            Opponent::Computer { level: 1 },
            Color::White,
        ))
        .unwrap();
    let back = store.load_game().value.unwrap();
    assert_eq!(back.game.outcome(), outcome);
    assert_eq!(back.variant(), Variant::Giveaway);

    store.clear_game().unwrap();
    store.clear_game().unwrap();
    assert_eq!(store.load_game().value, None);
}

#[test]
fn damaged_save_gives_nothing_to_continue_a_message_and_a_backup() {
    let good = SavedGame::new(
        played_game(Variant::Russian, None, 10),
        Opponent::Human,
        Color::White,
    );
    let illegal = good
        .to_json()
        .replacen("\"moves\": [\n", "\"moves\": [\n    \"a1-h8\",\n", 1);
    assert_ne!(illegal, good.to_json());
    let newer = good.to_json().replace("\"format\": 1", "\"format\": 99");
    for (i, text) in [
        "",
        "{\"game\": 3}",
        illegal.as_str(),
        newer.as_str(),
        "\u{0}\u{1}",
    ]
    .into_iter()
    .enumerate()
    {
        let dir = TempDir::new(&format!("damaged-save-{i}"));
        let store = Store::at(dir.path());
        std::fs::write(store.saved_game_path(), text).unwrap();
        let loaded = store.load_game();
        assert_eq!(loaded.value, None, "{text:?}");
        let notice = loaded.notice.expect("a message");
        assert!(matches!(
            notice,
            Notice::Damaged {
                kind: FileKind::SavedGame,
                ..
            }
        ));
        assert!(
            notice.text(Lang::En).contains("game.json.bak"),
            "{}",
            notice.text(Lang::En)
        );
        assert!(!notice.details().is_empty());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("game.json.bak")).unwrap(),
            text
        );
        assert_eq!(dir.names(), ["game.json.bak"]);
    }
}

#[test]
fn atomic_write_leaves_no_temporary_files() {
    let dir = TempDir::new("atomic");
    let store = Store::at(dir.path().join("nested").join("folder"));
    let mut game = Game::new(Variant::Russian);
    for _ in 0..30 {
        let Some(mv) = game.legal_moves().into_iter().next() else {
            break;
        };
        game.play(&mv).unwrap();
        store
            .save_game(&SavedGame::new(
                game.clone(),
                Opponent::Computer { level: 2 },
                Color::White,
            ))
            .unwrap();
        store.save_settings(&custom_settings()).unwrap();
    }
    let inner = dir.path().join("nested").join("folder");
    assert_eq!(names_in(&inner), ["game.json", "settings.json"]);
    assert_eq!(store.load_game().value.unwrap().game, game);

    // A failed write (the target is a folder) reports the path and leaves nothing behind.
    let blocked = dir.path().join("blocked");
    std::fs::create_dir(&blocked).unwrap();
    let err = write_atomic(&blocked, b"data").unwrap_err();
    assert!(err.to_string().contains("blocked"));
    assert_eq!(dir.names(), ["blocked", "nested"]);

    // Overwriting replaces the content whole.
    let file = dir.path().join("f.txt");
    write_atomic(&file, b"first, longer content").unwrap();
    write_atomic(&file, b"second").unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), b"second");
}

#[test]
fn settings_file_is_readable_json_with_every_field() {
    let text = custom_settings().to_json();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    for field in [
        "language",
        "volume",
        "muted",
        "animation_speed",
        "board_theme",
        "show_coordinates",
        "show_legal_moves",
        "eval_bar",
        "graphics_quality",
        "last_variant",
        "last_opponent",
        "last_level",
        "last_colour",
    ] {
        assert!(value.get(field).is_some(), "{field} in {text}");
    }
    assert_eq!(custom_settings().effective_volume(), 0.0, "muted");
    assert_eq!(
        Settings::default().effective_volume(),
        Settings::default().volume
    );
    assert_eq!(AnimationSpeed::Off.duration_scale(), 0.0);
}

#[test]
fn the_window_place_is_kept_and_a_foolish_one_is_not_used() {
    use shashki::store::settings::{Settings, WindowPlace};
    let place = WindowPlace {
        width: 900.0,
        height: 650.0,
        x: Some(40),
        y: Some(30),
    };
    let settings = Settings {
        window: Some(place),
        ..Settings::default()
    };
    let text = serde_json::to_string(&settings).unwrap();
    let back: Settings = serde_json::from_str(&text).unwrap();
    assert_eq!(back.window, Some(place));
    // Settings written before the window was remembered still load.
    let old: Settings = serde_json::from_str(r#"{"volume": 0.5}"#).unwrap();
    assert_eq!(old.window, None);
    assert_eq!(place.fitting((1024.0, 768.0)), Some(place));
    assert_eq!(
        place.fitting((800.0, 600.0)),
        None,
        "larger than the screen"
    );
    for (w, h) in [(f32::NAN, 600.0), (100.0, 600.0), (900.0, -1.0)] {
        let bad = WindowPlace {
            width: w,
            height: h,
            ..place
        };
        assert_eq!(bad.fitting((1920.0, 1080.0)), None, "{w}x{h}");
    }
}
