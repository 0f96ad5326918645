//! One test per rule: position in, exact legal move list out; draw rules; outcomes.

use shashki::rules::game::{Countdown, WinReason};
use shashki::rules::{Color, DrawRule, Game, Outcome, PieceKind, Position, Square, Variant};
use std::collections::HashSet;

fn moves(fen: &str) -> Vec<String> {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn sq(s: &str) -> Square {
    s.parse().expect("square")
}

#[test]
fn start_position_has_seven_moves() {
    assert_eq!(
        moves("W:W21-32:B1-12"),
        [
            "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"
        ]
    );
}

#[test]
fn men_move_forward_only() {
    assert_eq!(moves("W:Wc3:Bh8"), ["c3-b4", "c3-d4"]);
    assert_eq!(moves("B:Wa1:Bd6"), ["d6-c5", "d6-e5"]);
}

#[test]
fn men_capture_backward() {
    assert_eq!(moves("W:Wd4:Bc3"), ["d4:b2"]);
    assert_eq!(moves("B:We5:Bd4"), ["d4:f6"]);
}

#[test]
fn capture_is_compulsory() {
    // g3 could move quietly, but c3 must take d4.
    assert_eq!(moves("W:Wc3,g3:Bd4"), ["c3:e5"]);
}

#[test]
fn any_capture_may_be_chosen_whatever_it_takes() {
    // One piece or two: the player chooses (no rule of the majority).
    assert_eq!(moves("W:Wa3,g3:Bb4,f4,f6"), ["a3:c5", "g3:e5:g7"]);
}

#[test]
fn no_capture_over_own_piece_or_onto_an_occupied_square() {
    assert_eq!(moves("W:Wc3,d4:Be5,f6"), ["c3-b4", "d4-c5"]);
}

#[test]
fn kings_fly_along_free_diagonals() {
    assert_eq!(
        moves("W:WKa1:Bh8"),
        ["a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7"]
    );
}

#[test]
fn king_captures_at_a_distance_and_lands_on_any_free_square() {
    assert_eq!(moves("W:WKa1:Bd4"), ["a1:e5", "a1:f6", "a1:g7", "a1:h8"]);
}

#[test]
fn king_must_land_where_the_capture_goes_on() {
    // Rule 1.5.6: after c3 only e5 lets the king go on (over f4), so d4 is not allowed.
    assert_eq!(moves("W:WKa1:Bc3,f4"), ["a1:e5:g3", "a1:e5:h2"]);
    // Where several landing squares go on, each is allowed; d4 and e5 both reach g7 over f6
    // (one move: same result).
    assert_eq!(moves("W:WKa1:Bc3,f6"), ["a1:d4:g7", "a1:d4:h8"]);
}

#[test]
fn turkish_strike_example_1() {
    // 2.1.5.17: c3 is taken but still stands, so the king cannot go on to take d4.
    assert_eq!(moves("B:Wc3,d4,e3,f2,f4:Bd6,Ka5"), ["a5:e1:g3:e5"]);
}

#[test]
fn turkish_strike_example_2() {
    // The king must stop on d4: c3 cannot be jumped twice.
    assert_eq!(moves("W:WKe1:Bc3,b6,e7,e5,d6"), ["e1:a5:d8:f6:d4"]);
}

#[test]
fn turkish_strike_example_3_and_promotion_mid_capture() {
    let fen = "B:Wb4,d4,f4,a3,e3,b2,d2,f2,a1:Bc7,e7,g7,a5,c5";
    // The two routes take the same pieces, end on c3 as a king: one move.
    let listed = moves(fen);
    assert_eq!(listed.len(), 1);
    assert!(listed[0] == "a5:c3:e1:g3:e5:c3" || listed[0] == "a5:c3:e5:g3:e1:c3");
    let mut game = Game::from_fen(Variant::Russian, fen).expect("fen");
    let route = game
        .play_text("a5:c3:e1:g3:e5:c3")
        .expect("first route is legal");
    assert_eq!(route.to_string(), "a5:c3:e1:g3:e5:c3");
    assert!(route.promotes());
    let taken: Vec<String> = route.captured().iter().map(|s| s.to_string()).collect();
    assert_eq!(taken, ["b4", "d2", "f2", "f4", "d4"]);
    let other = Position::from_fen(fen)
        .expect("fen")
        .parse_move("a5:c3:e5:g3:e1:c3")
        .expect("second route");
    assert!(other.same_effect(&route));
    assert_eq!(game.position().to_fen(), "W:Wa1,a3,b2,e3:BKc3,c5,c7,e7,g7");
    // White's man becomes a king on d8 and goes on as a king.
    assert_eq!(moves(&game.position().to_fen()), ["b2:d4:b6:d8:f6:h8"]);
    let mv = game.play_text("b2:h8").expect("short form is unambiguous");
    assert!(mv.promotes());
    assert_eq!(
        game.position().piece_at(sq("h8")).map(|p| p.kind),
        Some(PieceKind::King)
    );
}

#[test]
fn man_reaching_last_row_at_end_of_move_is_a_king_from_the_next_move() {
    let mut game = Game::from_fen(Variant::Russian, "W:Wc7:Bh2").expect("fen");
    assert_eq!(moves("W:Wc7:Bh2"), ["c7-b8", "c7-d8"]);
    let mv = game.play_text("c7-d8").expect("legal");
    assert!(mv.promotes());
    assert_eq!(
        game.position().piece_at(sq("d8")).map(|p| p.kind),
        Some(PieceKind::King)
    );
    game.play_text("h2-g1").expect("legal");
    assert!(game.legal_moves().iter().any(|m| m.to_string() == "d8-h4"));
}

#[test]
fn man_promoting_by_capture_stops_when_the_king_cannot_go_on() {
    let pos = Position::from_fen("W:Wb6:Bc7").expect("fen");
    let legal = pos.legal_moves();
    assert_eq!(legal.len(), 1);
    assert!(legal[0].promotes());
    assert_eq!(legal[0].to_string(), "b6:d8");
    // Crowned on d8, the king goes on at once over e7, landing on any free square behind it.
    assert_eq!(moves("W:Wb6:Bc7,e7"), ["b6:d8:f6", "b6:d8:g5", "b6:d8:h4"]);
    assert!(
        Position::from_fen("W:Wb6:Bc7,e7")
            .expect("fen")
            .legal_moves()
            .iter()
            .all(|m| m.promotes())
    );
}

#[test]
fn notation_accepts_every_written_form() {
    let pos = Position::start();
    for text in ["c3-d4", "22-18", "C3-D4", "c3xd4"] {
        assert_eq!(pos.parse_move(text).expect(text).to_string(), "c3-d4");
    }
    assert!(pos.parse_move("c3-c4").is_err());
    assert!(pos.parse_move("c3").is_err());
    assert!(pos.parse_move("").is_err());
    let pos = Position::from_fen("W:WKa1:Bd4").expect("fen");
    assert!(pos.parse_move("a1:e5").is_ok());
    assert!(pos.parse_move("29x15").is_ok());
}

/// Plays `plies` quiet, new, non-capturing, non-promoting moves (kings only when asked),
/// never leaving the opponent a capture; backtracks when a line gets stuck. Asserts that
/// the game does not end before the last of them.
fn play_quiet(game: &mut Game, plies: usize, kings_only: bool) {
    let mut seen: HashSet<Position> = (0..=game.ply())
        .filter_map(|p| game.position_at(p).copied())
        .collect();
    let mut budget = 200_000u32;
    assert!(
        quiet_line(game, plies, kings_only, &mut seen, &mut budget),
        "no quiet line of {plies} plies from {}",
        game.position().to_fen()
    );
}

fn quiet_line(
    game: &mut Game,
    plies: usize,
    kings_only: bool,
    seen: &mut HashSet<Position>,
    budget: &mut u32,
) -> bool {
    if plies == 0 {
        return true;
    }
    if game.outcome().is_some() || *budget == 0 {
        return false;
    }
    *budget -= 1;
    let pos = *game.position();
    let side = pos.side_to_move();
    for m in game.legal_moves() {
        let next = pos.play(&m);
        let is_king = pos.kings(side) & m.from().mask() != 0;
        if m.is_capture()
            || m.promotes()
            || (kings_only && !is_king)
            || seen.contains(&next)
            || next.has_capture()
        {
            continue;
        }
        game.play(&m).expect("legal");
        seen.insert(next);
        if quiet_line(game, plies - 1, kings_only, seen, budget) {
            return true;
        }
        seen.remove(&next);
        game.undo();
    }
    false
}

/// Plays a man's quiet move that leaves the opponent no capture.
fn play_man_move(game: &mut Game) {
    let pos = *game.position();
    let side = pos.side_to_move();
    let mv = game
        .legal_moves()
        .into_iter()
        .find(|m| {
            pos.men(side) & m.from().mask() != 0
                && !m.is_capture()
                && !m.promotes()
                && !pos.play(m).has_capture()
        })
        .unwrap_or_else(|| panic!("no man move in {}", pos.to_fen()));
    game.play(&mv).expect("legal");
}

fn countdown(game: &Game, rule: DrawRule) -> Option<Countdown> {
    game.draw_countdowns().into_iter().find(|c| c.rule == rule)
}

#[test]
fn draw_7_2_3_threefold_repetition() {
    let mut game = Game::from_fen(Variant::Russian, "W:WKh2,c1:BKa7,f8").expect("fen");
    for (i, mv) in [
        "h2-g1", "a7-b8", "g1-h2", "b8-a7", "h2-g1", "a7-b8", "g1-h2",
    ]
    .iter()
    .enumerate()
    {
        game.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        assert_eq!(game.outcome(), None, "after ply {}", i + 1);
    }
    assert_eq!(game.repetitions(), 2);
    game.play_text("b8-a7").expect("legal");
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawRule::Repetition)));
    // Undo takes the draw back.
    game.undo();
    assert_eq!(game.outcome(), None);
}

#[test]
fn draw_7_2_4_three_kings_against_one() {
    let mut game = Game::from_fen(Variant::Russian, "W:WKa1,Kc1,Ke1:BKh2").expect("fen");
    assert_eq!(
        countdown(&game, DrawRule::ThreeKingsVsOne).map(|c| c.plies_left),
        Some(29)
    );
    play_quiet(&mut game, 28, true);
    assert_eq!(game.outcome(), None);
    assert_eq!(
        countdown(&game, DrawRule::ThreeKingsVsOne).map(|c| c.plies_left),
        Some(1)
    );
    play_quiet(&mut game, 1, true);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(DrawRule::ThreeKingsVsOne))
    );
}

#[test]
fn draw_7_2_5_fifteen_moves_of_kings_only() {
    let mut game = Game::from_fen(Variant::Russian, "W:WKd2,a1,c1,e1:BKe7,h8,f8,d8").expect("fen");
    play_quiet(&mut game, 29, true);
    assert_eq!(game.outcome(), None);
    assert_eq!(
        countdown(&game, DrawRule::KingsOnly).map(|c| (c.plies_left, c.moves_left())),
        Some((1, 1))
    );
    play_quiet(&mut game, 1, true);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawRule::KingsOnly)));
}

#[test]
fn draw_7_2_5_count_restarts_after_a_man_moves() {
    let mut game = Game::from_fen(Variant::Russian, "W:WKd2,a1,c1,e1:BKe7,h8,f8,d8").expect("fen");
    play_quiet(&mut game, 20, true);
    play_man_move(&mut game);
    play_quiet(&mut game, 20, true);
    assert_eq!(game.outcome(), None);
    assert_eq!(
        countdown(&game, DrawRule::KingsOnly).map(|c| c.plies_left),
        Some(10)
    );
}

#[test]
fn draw_7_2_6_balance_unchanged_in_a_small_king_ending() {
    // Kings and men on both sides, 4 pieces: 30 moves (60 plies) without capture or promotion.
    let mut game = Game::from_fen(Variant::Russian, "W:WKa5,g1:BKh4,b8").expect("fen");
    for _ in 0..2 {
        play_quiet(&mut game, 20, true);
        play_man_move(&mut game);
    }
    let left = countdown(&game, DrawRule::BalanceUnchanged)
        .expect("7.2.6 runs")
        .plies_left;
    assert!(left > 0 && left < 30, "{left}");
    play_quiet(&mut game, left as usize - 1, true);
    assert_eq!(game.outcome(), None);
    play_quiet(&mut game, 1, true);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(DrawRule::BalanceUnchanged))
    );
}

#[test]
fn draw_7_2_6_limit_is_sixty_moves_with_six_or_seven_pieces() {
    let game = Game::from_fen(Variant::Russian, "W:WKd4,a1,c1:BKe7,h8,f8").expect("fen");
    assert_eq!(
        countdown(&game, DrawRule::BalanceUnchanged).map(|c| c.plies_left),
        Some(120)
    );
    let game = Game::from_fen(Variant::Russian, "W:WKd4,a1,c1,e1:BKe7,h8,f8,d8").expect("fen");
    assert_eq!(countdown(&game, DrawRule::BalanceUnchanged), None);
}

#[test]
fn draw_7_2_7_lone_king_on_the_long_diagonal() {
    let mut game = Game::from_fen(Variant::Russian, "W:WKc1,Ke1,Kg1:BKh8").expect("fen");
    assert_eq!(
        countdown(&game, DrawRule::LongDiagonal).map(|c| c.plies_left),
        Some(9)
    );
    play_quiet(&mut game, 8, false);
    assert_eq!(game.outcome(), None);
    play_quiet(&mut game, 1, false);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawRule::LongDiagonal)));
    // Off the long diagonal the rule does not run (7.2.4 does).
    let game = Game::from_fen(Variant::Russian, "W:WKc1,Ke1,Kg1:BKh2").expect("fen");
    assert_eq!(countdown(&game, DrawRule::LongDiagonal), None);
    assert!(countdown(&game, DrawRule::ThreeKingsVsOne).is_some());
}

#[test]
fn draw_7_2_8_small_endings_after_five_moves() {
    let mut game = Game::from_fen(Variant::Russian, "W:WKa1,Kc1:BKh2").expect("fen");
    play_quiet(&mut game, 8, false);
    assert_eq!(game.outcome(), None);
    play_quiet(&mut game, 1, false);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawRule::SmallEnding)));
    // The lone side moves first: the stronger side's fifth move is the tenth ply.
    let mut game = Game::from_fen(Variant::Russian, "B:WKa1,c1:BKh2").expect("fen");
    play_quiet(&mut game, 9, true);
    assert_eq!(game.outcome(), None);
    play_quiet(&mut game, 1, true);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawRule::SmallEnding)));
}

#[test]
fn giveaway_applies_only_its_draw_rules() {
    let game = Game::from_fen(Variant::Giveaway, "W:WKa1,Kc1:BKh2").expect("fen");
    let rules: Vec<DrawRule> = game.draw_countdowns().iter().map(|c| c.rule).collect();
    assert_eq!(rules, [DrawRule::KingsOnly]);
    // 7.2.4 in поддавки asks that the three kings hold the long diagonal.
    let game = Game::from_fen(Variant::Giveaway, "W:WKa1,Kc1,Ke1:BKh2").expect("fen");
    assert!(countdown(&game, DrawRule::ThreeKingsVsOne).is_some());
    let game = Game::from_fen(Variant::Giveaway, "W:WKa3,Kc1,Ke1:BKh2").expect("fen");
    assert!(countdown(&game, DrawRule::ThreeKingsVsOne).is_none());
}

#[test]
fn outcomes_of_russian_and_giveaway() {
    // White must take and leaves Black without pieces.
    for (variant, winner) in [
        (Variant::Russian, Color::White),
        (Variant::Giveaway, Color::Black),
    ] {
        let mut game = Game::from_fen(variant, "W:Wc3:Bd4").expect("fen");
        game.play_text("c3:e5").expect("legal");
        assert_eq!(
            game.outcome(),
            Some(Outcome::Win {
                winner,
                reason: WinReason::NoPieces
            })
        );
        assert!(game.play_text("e5-f6").is_err());
    }
    // White is blocked: no legal move.
    for (variant, winner) in [
        (Variant::Russian, Color::Black),
        (Variant::Giveaway, Color::White),
    ] {
        let game = Game::from_fen(variant, "W:Wa1:Bb2,c3").expect("fen");
        assert_eq!(
            game.outcome(),
            Some(Outcome::Win {
                winner,
                reason: WinReason::NoMoves
            })
        );
    }
}

#[test]
fn resignation_agreement_undo_redo_and_serde() {
    let mut game = Game::new(Variant::Giveaway);
    for mv in ["c3-d4", "f6-g5", "d4-c5", "b6:d4"] {
        game.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    let json = serde_json::to_string(&game).expect("serialise");
    let back: Game = serde_json::from_str(&json).expect("deserialise");
    assert_eq!(back, game);
    assert_eq!(game.undo().map(|m| m.to_string()), Some("b6:d4".into()));
    assert!(game.can_redo());
    assert_eq!(game.redo().map(|m| m.to_string()), Some("b6:d4".into()));
    game.resign(Color::White);
    assert_eq!(game.outcome().and_then(Outcome::winner), Some(Color::Black));
    game.undo();
    assert_eq!(game.outcome(), None);
    game.agree_draw();
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawRule::Agreement)));
    assert!(
        serde_json::from_str::<Game>(
            "{\"variant\":\"Russian\",\"start_fen\":\"W:Wz9\",\"moves\":[]}"
        )
        .is_err()
    );
    assert!(
        serde_json::from_str::<Game>(
            "{\"variant\":\"Russian\",\"start_fen\":\"W:W21-32:B1-12\",\"moves\":[\"a1-a2\"]}"
        )
        .is_err()
    );
}

#[test]
fn bad_positions_are_errors() {
    for fen in [
        "",
        "X:W1:B2",
        "W:W1,1:B2",
        "W:W1:B1",
        "W:Wa2:B1",
        "W:W33:B1",
        "W:Wb8:Ba1",
        "W:W1-13:B20",
        "W:Wzz",
    ] {
        assert!(Position::from_fen(fen).is_err(), "{fen} should fail");
    }
}
