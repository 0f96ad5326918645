//! Combination puzzles: the finder and the shipped collections.

use shashki::ai::Ai;
use shashki::ai::puzzle::{self, Goal, Puzzle, read_puzzles};
use shashki::rules::{Game, Position, Variant};

#[test]
fn a_sacrifice_that_wins_two_men_is_found_with_its_forced_line() {
    let start = Position::from_fen("W:Wa5,b4,c1,f2,g1,g3:Bc7,d4,e3,e5,e7,h8").unwrap();
    let p = puzzle::find(&mut Ai::with_table(16), Variant::Russian, start, 10, "test").unwrap();
    let moves: Vec<String> = p.solution.iter().map(|m| m.to_string()).collect();
    assert_eq!(moves[..2], ["b4-c5", "d4:b6"]);
    assert_eq!(p.goal, Goal::Material);
    assert!((1..=5).contains(&p.level));
    // The line written and read back is the same puzzle.
    assert_eq!(Puzzle::from_line(&p.to_line()).unwrap(), p);
    // The start position is no puzzle: nothing wins two men.
    assert!(
        puzzle::find(
            &mut Ai::with_table(16),
            Variant::Russian,
            Position::start(),
            8,
            "x"
        )
        .is_none()
    );
}

#[test]
fn a_puzzle_checked_again_keeps_its_first_move_or_is_dropped() {
    let start = Position::from_fen("W:Wa5,b4,c1,f2,g1,g3:Bc7,d4,e3,e5,e7,h8").unwrap();
    let mut ai = Ai::with_table(16);
    let p = puzzle::find(&mut ai, Variant::Russian, start, 10, "test").unwrap();
    assert_eq!(puzzle::check_again(&mut ai, &p, 10), Some(p.clone()));
    // The same start with another first move is no longer that puzzle.
    let game = Game::from_position(Variant::Russian, start);
    let other = *game
        .legal_moves()
        .iter()
        .find(|m| **m != p.solution[0])
        .unwrap();
    let wrong = Puzzle {
        solution: vec![other],
        ..p.clone()
    };
    assert_eq!(puzzle::check_again(&mut ai, &wrong, 10), None);
    // Nor is a start where nothing wins.
    let none = Puzzle {
        start: Position::start(),
        solution: vec![Game::new(Variant::Russian).legal_moves()[0]],
        ..p
    };
    assert_eq!(puzzle::check_again(&mut ai, &none, 8), None);
}

#[test]
fn damaged_puzzle_lines_are_refused_with_the_reason() {
    let e = read_puzzles("1\trussian\tW:Wc3:Bh8\twin\t3\tc3-b5\tx\n").unwrap_err();
    assert!(e.starts_with("puzzles line 1: move 'c3-b5'"), "{e}");
    let e = read_puzzles("# c\n9\trussian\tW:Wc3:Bh8\twin\t3\tc3-d4\tx\n").unwrap_err();
    assert!(e.contains("line 2: level '9'"), "{e}");
    assert!(read_puzzles("1\trussian\tW:Wc3:Bh8\twin\n").is_err());
}

#[test]
fn the_shipped_puzzles_replay_and_each_first_move_is_the_only_win() {
    for (variant, file, least) in [
        (Variant::Russian, "assets/puzzles/russian.tsv", 300),
        (Variant::Giveaway, "assets/puzzles/giveaway.tsv", 100),
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        let puzzles = read_puzzles(&text).unwrap();
        assert!(puzzles.len() >= least, "{file}: {}", puzzles.len());
        let mut levels = [0; 5];
        for p in &puzzles {
            assert_eq!(p.variant, variant);
            levels[(p.level - 1) as usize] += 1;
            let mut g = Game::from_position(variant, p.start);
            for mv in &p.solution {
                g.play(mv).unwrap();
            }
        }
        assert!(levels.iter().filter(|&&n| n > 0).count() >= 3, "{levels:?}");
        // Re-check a sample with a fresh search (an empty table each, as the puzzles were
        // made): the first move is the only winning one.
        let mut ai = Ai::with_table(16);
        for p in puzzles.iter().step_by(37) {
            ai.clear();
            let game = Game::from_position(variant, p.start);
            let (mv, _) = puzzle::only_win(&mut ai, &game, 12)
                .unwrap_or_else(|| panic!("no single winning move: {}", p.to_line()));
            assert_eq!(mv, p.solution[0], "{}", p.to_line());
        }
    }
}
