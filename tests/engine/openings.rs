//! The table of named openings: every line replays, games are named, and the computer
//! below the top level varies its openings along the lines.

use shashki::ai::{Ai, Level};
use shashki::rules::openings::{book, read_table};
use shashki::rules::{Game, Variant};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

fn game(moves: &str) -> Game {
    let mut g = Game::new(Variant::Russian);
    for m in moves.split_whitespace() {
        g.play_text(m).expect("a legal test move");
    }
    g
}

#[test]
fn every_line_of_the_shipped_table_replays_legally_and_cites_a_source() {
    let text = std::fs::read_to_string("assets/openings/russian.tsv").unwrap();
    let table = read_table(&text).expect("the shipped table reads");
    assert!(table.openings.len() >= 40, "{}", table.openings.len());
    assert_eq!(table.openings.len(), book().openings.len());
    let mut names = HashSet::new();
    for o in &table.openings {
        assert!(!o.name_ru.is_empty() && !o.name_en.is_empty());
        assert!(o.source.contains("http"), "{}: {}", o.name_ru, o.source);
        assert!(names.insert(o.name_ru.clone()), "twice: {}", o.name_ru);
        // The game replays each line and names it after the line (or an earlier one
        // listed for the same position).
        let mut g = Game::new(Variant::Russian);
        for mv in &o.moves {
            g.play(mv).unwrap();
        }
        assert!(book().name_of(&g).is_some(), "{}", o.name_ru);
    }
}

#[test]
fn a_game_is_named_after_the_last_opening_position_it_reached() {
    let b = book();
    assert_eq!(b.name_of(&game("c3-d4")), None);
    let city = game("c3-d4 d6-c5 b2-c3 f6-g5");
    assert_eq!(b.name_of(&city).unwrap().name_ru, "Городская партия");
    assert_eq!(b.name_of(&city).unwrap().name_en, "City game");
    let main = game("c3-d4 d6-c5 b2-c3 f6-g5 c3-b4 g5-h4 b4:d6 e7:c5");
    assert_eq!(
        b.name_of(&main).unwrap().name_ru,
        "Городская партия, основная система"
    );
    // Leaving the lines keeps the last name.
    let later = game("c3-d4 d6-c5 b2-c3 f6-g5 a3-b4 c5:a3");
    assert_eq!(b.name_of(&later).unwrap().name_ru, "Городская партия");
    // Another move order reaching the same position is named the same.
    let transposed = game("c3-d4 f6-g5 b2-c3 d6-c5");
    assert_eq!(b.name_of(&transposed).unwrap().name_ru, "Городская партия");
    let mut giveaway = Game::new(Variant::Giveaway);
    for m in ["c3-d4", "d6-c5", "b2-c3", "f6-g5"] {
        giveaway.play_text(m).unwrap();
    }
    assert_eq!(b.name_of(&giveaway), None);
}

#[test]
fn a_damaged_table_is_refused_with_its_line() {
    let e = read_table("# head\nName\tName\t1\tc3-d4 c3-d4\thttp://x\n").unwrap_err();
    assert!(e.starts_with("openings line 2: move 'c3-d4'"), "{e}");
    let e = read_table("A\tB\t1\tc3-d4\n").unwrap_err();
    assert!(e.contains("line 1: expected 5 fields, found 4"), "{e}");
    let e = read_table("A\tB\tmany\tc3-d4\thttp://x\n").unwrap_err();
    assert!(e.contains("weight 'many'"), "{e}");
}

#[test]
fn below_the_top_level_the_computer_follows_varied_book_lines() {
    let stop = AtomicBool::new(false);
    let start = Game::new(Variant::Russian);
    let book_first: HashSet<_> = book()
        .continuations(&start)
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    let mut chosen = HashSet::new();
    for seed in 0..24 {
        let mv = Ai::with_table(12)
            .choose_move(&start, Level::new(6), seed, &stop)
            .unwrap();
        assert!(book_first.contains(&mv), "{mv}");
        chosen.insert(mv);
    }
    assert!(chosen.len() >= 2, "{chosen:?}");
    // On a line, the reply is the line's move.
    let city = game("c3-d4 d6-c5 b2-c3");
    let replies: HashSet<_> = book()
        .continuations(&city)
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    let reply = Ai::with_table(12)
        .choose_move(&city, Level::new(3), 7, &stop)
        .unwrap();
    assert!(replies.contains(&reply), "{reply}");
    // Named but never chosen: a line of weight 0 is not followed past its own moves.
    assert!(book().openings.iter().any(|o| o.weight == 0));
}
