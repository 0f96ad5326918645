//! The endgame tables: against a full-width search under the referee's counting rules,
//! against Russian endgame theory, and in play.

use shashki::ai::tablebase::{self, Material, Probe, Tablebase, Wdl};
use shashki::rules::game::{countdowns, lone_on_diagonal};
use shashki::rules::{Counters, Position, Variant};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

/// Every table up to four pieces, built once per variant for the whole test binary.
fn tables(variant: Variant) -> Arc<Tablebase> {
    static RUSSIAN: OnceLock<Arc<Tablebase>> = OnceLock::new();
    static GIVEAWAY: OnceLock<Arc<Tablebase>> = OnceLock::new();
    let cell = match variant {
        Variant::Russian => &RUSSIAN,
        Variant::Giveaway => &GIVEAWAY,
    };
    cell.get_or_init(|| {
        let stop = AtomicBool::new(false);
        let tb = tablebase::build(variant, 4, 2, None, &stop, &mut |_| {}).expect("built");
        assert_eq!(tb.max_pieces(), 4);
        Arc::new(tb)
    })
    .clone()
}

/// The counters after a move, as the referee keeps them (independent of the tables).
fn next_counters(pos: &Position, mv: &shashki::rules::Move, c: &Counters) -> Counters {
    let next = pos.play(mv);
    let man_moved = pos.men(pos.side_to_move()) & mv.from().mask() != 0;
    let changed = mv.is_capture()
        || mv.promotes()
        || (man_moved && next.kings(next.side_to_move().opposite()) & mv.to().mask() != 0);
    Counters {
        reversible: if man_moved || mv.is_capture() {
            0
        } else {
            c.reversible + 1
        },
        balance: if changed { 0 } else { c.balance + 1 },
        balance_first_mover: if changed {
            Some(next.side_to_move())
        } else {
            c.balance_first_mover
        },
        lone_king_on_long_diagonal: if changed {
            lone_on_diagonal(&next)
        } else {
            c.lone_king_on_long_diagonal
        },
    }
}

/// What the side to move can force, by a full-width search to the end of the game under
/// the counting rules (every line ends: each counter runs out or a side loses). `None`
/// when the search would visit more than `budget` new states.
fn solve(
    variant: Variant,
    pos: &Position,
    c: &Counters,
    memo: &mut HashMap<(Position, Counters), Wdl>,
    budget: &mut u64,
) -> Option<Wdl> {
    if let Some(&v) = memo.get(&(*pos, *c)) {
        return Some(v);
    }
    *budget = budget.checked_sub(1)?;
    let moves = pos.legal_moves();
    let v = if pos.pieces(pos.side_to_move()) == 0 || moves.is_empty() {
        match variant {
            Variant::Russian => Wdl::Loss,
            Variant::Giveaway => Wdl::Win,
        }
    } else if countdowns(variant, pos, c)
        .iter()
        .any(|cd| cd.plies_left == 0)
    {
        Wdl::Draw
    } else {
        let mut best = Wdl::Loss;
        for mv in &moves {
            let child = pos.play(mv);
            match solve(variant, &child, &next_counters(pos, mv, c), memo, budget)? {
                Wdl::Loss => {
                    best = Wdl::Win;
                    break;
                }
                Wdl::Draw => best = Wdl::Draw,
                Wdl::Win => {}
            }
        }
        best
    };
    memo.insert((*pos, *c), v);
    Some(v)
}

/// Counters `elapsed` plies into a balance that arose with `first` to move and the 7.2.7 flag.
fn counters_after(pos: &Position, elapsed: u32, diagonal: bool) -> Counters {
    Counters {
        reversible: elapsed,
        balance: elapsed,
        balance_first_mover: Some(if elapsed.is_multiple_of(2) {
            pos.side_to_move()
        } else {
            pos.side_to_move().opposite()
        }),
        lone_king_on_long_diagonal: diagonal,
    }
}

fn probe(tb: &Tablebase, pos: &Position, c: &Counters) -> Probe {
    tb.probe(pos, c).expect("in the tables")
}

#[test]
fn every_position_of_two_and_three_pieces_agrees_with_a_full_width_search() {
    for variant in [Variant::Russian, Variant::Giveaway] {
        let tb = tables(variant);
        let mut memo = HashMap::new();
        let mut checked = 0;
        for t in tb.tables() {
            if t.key.material.pieces() > 3 {
                continue;
            }
            for i in 0..t.layout.len() {
                let Some(pos) = t.layout.position(i) else {
                    continue;
                };
                // A fresh balance, and the same position further into its counts.
                for elapsed in [0, 7, 9, 28] {
                    let c = counters_after(&pos, elapsed, t.key.diagonal);
                    let mut unlimited = u64::MAX;
                    let want =
                        solve(variant, &pos, &c, &mut memo, &mut unlimited).expect("no limit");
                    let got = probe(&tb, &pos, &c);
                    assert_eq!(
                        got.wdl,
                        want,
                        "{variant} {} elapsed {elapsed}: {got:?}",
                        pos.to_fen()
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }
}

/// Sampled four-piece positions: a few hundred, or as many as `SHASHKI_TB_SAMPLES` says
/// (README.md gives the result of a longer run).
fn samples() -> u32 {
    std::env::var("SHASHKI_TB_SAMPLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}

/// Tables whose value the 7.2.6 count (Russian, men on the board) or поддавки's
/// "holding the long diagonal" can make differ from what they store.
fn approximated(variant: Variant, m: Material) -> bool {
    match variant {
        Variant::Russian => {
            m.men() > 0 && m.white_kings > 0 && m.black_kings > 0 && m.pieces() >= 4
        }
        Variant::Giveaway => m.men() == 0 && m.pieces() >= 4,
    }
}

#[test]
fn sampled_four_piece_positions_agree_with_a_full_width_search() {
    for variant in [Variant::Russian, Variant::Giveaway] {
        let tb = tables(variant);
        let mut memo = HashMap::new();
        let mut seed = 0x1234_5678_9abc_def0u64;
        let (mut exact, mut approx, mut differ, mut too_long) = (0, 0, 0, 0);
        let four: Vec<_> = tb
            .tables()
            .iter()
            .filter(|t| t.key.material.pieces() == 4)
            .collect();
        while exact + approx < samples() {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let t = four[(seed >> 33) as usize % four.len()];
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let Some(pos) = t.layout.position((seed >> 20) % t.layout.len()) else {
                continue;
            };
            // Counts far on leave few plies, so that a full-width search ends soon.
            let elapsed = 16 + (seed % 14) as u32;
            let c = counters_after(&pos, elapsed, t.key.diagonal);
            if memo.len() > 2_000_000 {
                memo.clear();
            }
            let Some(want) = solve(variant, &pos, &c, &mut memo, &mut 30_000) else {
                too_long += 1;
                continue;
            };
            let got = probe(&tb, &pos, &c).wdl;
            if approximated(variant, t.key.material) {
                approx += 1;
                differ += (got != want) as u32;
            } else {
                exact += 1;
                assert_eq!(got, want, "{variant} {} elapsed {elapsed}", pos.to_fen());
            }
        }
        println!(
            "{variant}: {exact} positions of exact tables agree; {differ} of {approx} in approximated tables differ; {too_long} too long to search in full"
        );
        assert!(differ * 100 <= approx, "{differ} of {approx}");
    }
}

/// Every position of `material` (White to move unless `black_to_move`) that `keep` accepts,
/// with its value at a fresh balance.
fn survey(
    tb: &Tablebase,
    material: &str,
    black_to_move: bool,
    keep: impl Fn(&Position) -> bool,
) -> Vec<(Position, Probe)> {
    let m: Material = material.parse().unwrap();
    let t = tb
        .tables()
        .iter()
        .find(|t| t.key.material == m && !t.key.diagonal)
        .expect("table");
    let mut out = Vec::new();
    for i in 0..t.layout.len() {
        let Some(pos) = t.layout.position(i) else {
            continue;
        };
        if (pos.side_to_move() == shashki::rules::Color::Black) != black_to_move || !keep(&pos) {
            continue;
        }
        let c = Counters::fresh(&pos);
        out.push((pos, probe(tb, &pos, &c)));
    }
    out
}

const LONG_DIAGONAL: u64 = shashki::rules::bitboard::LONG_DIAGONAL;

#[test]
fn three_kings_holding_the_main_road_win_within_the_count() {
    use shashki::rules::Color::{Black, White};
    let tb = tables(Variant::Russian);
    // Three kings, one on a1-h8, against a lone king off it; no capture for either side
    // in the start position.
    let quiet = |p: &Position| {
        !p.has_capture()
            && !p
                .with_side_to_move(p.side_to_move().opposite())
                .has_capture()
    };
    let petrov = survey(&tb, "KKKvK", false, |p| {
        p.kings(White) & LONG_DIAGONAL != 0 && p.kings(Black) & LONG_DIAGONAL == 0 && quiet(p)
    });
    let won = petrov.iter().filter(|(_, p)| p.wdl == Wdl::Win).count();
    let longest = petrov
        .iter()
        .filter(|(_, p)| p.wdl == Wdl::Win)
        .map(|(_, p)| p.plies)
        .max();
    let worst = petrov
        .iter()
        .filter(|(_, p)| p.wdl == Wdl::Win)
        .max_by_key(|(_, p)| p.plies)
        .map(|(pos, _)| pos.to_fen());
    println!(
        "three kings holding the main road, White to move: {won} of {} won, the longest in {} plies ({:?})",
        petrov.len(),
        longest.unwrap_or(0),
        worst
    );
    assert_eq!(won, petrov.len(), "every such position is won");
    // 7.2.4 leaves the stronger side 15 moves (29 plies when it moves first).
    assert!(longest.unwrap_or(99) <= 29);
    // The examples: a 5-second search found wins in 17-23 plies.
    for fen in ["W:WKh4,Ka1,Ke1:BKh2", "W:WKc3,Kd2,Kg5:BKg3"] {
        let pos = Position::from_fen(fen).unwrap();
        let p = probe(&tb, &pos, &Counters::fresh(&pos));
        assert_eq!(p.wdl, Wdl::Win, "{fen}");
        assert!((17..=23).contains(&p.plies), "{fen}: {p:?}");
    }

    // The lone king holds the main road and the three kings are off it: a draw.
    let held = survey(&tb, "KKKvK", false, |p| {
        p.kings(White) & LONG_DIAGONAL == 0 && p.kings(Black) & LONG_DIAGONAL != 0 && quiet(p)
    });
    let drawn = held.iter().filter(|(_, p)| p.wdl == Wdl::Draw).count();
    println!(
        "lone king holding the main road, White to move: {drawn} of {} drawn",
        held.len()
    );
    assert!(drawn * 100 >= held.len() * 95, "{drawn} of {}", held.len());

    // Two kings against one: a draw by 7.2.8 unless the lone king is caught at once.
    let two = survey(&tb, "KKvK", false, quiet);
    let two_won: Vec<_> = two.iter().filter(|(_, p)| p.wdl == Wdl::Win).collect();
    let longest_two = two_won.iter().map(|(_, p)| p.plies).max().unwrap_or(0);
    println!(
        "two kings against one, White to move: {} of {} won, the longest in {longest_two} plies",
        two_won.len(),
        two.len()
    );
    assert!(two_won.len() * 10 < two.len());
    assert!(longest_two <= 9, "7.2.8 leaves five moves");
}

#[test]
fn the_trainers_endings_are_won_by_the_tables_moves_within_the_count() {
    use shashki::ai::tablebase::endings::{Theme, best_move, endings, keeps_win};
    for theme in Theme::ALL {
        let tb = tables(theme.variant());
        let list = endings(&tb, theme, 2);
        assert_eq!(list.len(), 2, "{theme:?}");
        for e in list {
            let mut game = shashki::rules::Game::from_position(theme.variant(), e.start);
            // The hardest start: some first moves let the win go, and are told apart.
            let legal = game.legal_moves();
            assert!(legal.iter().any(|m| keeps_win(&tb, &game, m)), "{theme:?}");
            for _ in 0..200 {
                if game.outcome().is_some() {
                    break;
                }
                let mv = best_move(&tb, &game).expect("the tables hold every position");
                game.play(&mv).unwrap();
            }
            let outcome = game.outcome().expect("the ending ends");
            assert_eq!(
                outcome.winner(),
                Some(shashki::rules::Color::White),
                "{theme:?} from {}: {outcome:?}",
                e.start.to_fen()
            );
        }
    }
}

#[test]
fn a_won_ending_is_kept_where_the_winning_move_repeats_a_position() {
    // A match game: White's king went g7-h8 two moves ago, so the only move that keeps the
    // win (h8-g7, win in 3 plies) makes a position for the second time. That is no draw
    // (7.2.3 needs a third), and the engine must play it.
    let moves = "g3-h4 d6-e5 f2-g3 e7-d6 e3-f4 b6-c5 c3-b4 a7-b6 d2-e3 e5-d4 b4-a5 d4:f2 g1:e3 f8-e7 b2-c3 b8-a7 c3-b4 f6-g5 h4:f6 g7:e5 a1-b2 h8-g7 b2-c3 g7-f6 e1-d2 h6-g5 f4:h6 c5-d4 e3:c5 b6:b2 b4-c5 d6:b4 a5:a1 a7-b6 a1-b2 b6-c5 d2-e3 e5-f4 g3:g7 e7-f6 g7:e5 c5-b4 a3:c5 c7-d6 c5:e7 d8:f2 c1-d2 f2-g1 b2-c3 g1-c5 d2-e3 c5:f2 h6-g7 f2-h4 c3-d4 h4-e7 d4-e5 e7-f8 g7-h8 f8-e7 h8-g7 e7-a3 g7-f6 a3-f8 h2-g3 f8-b4 f6-h8 b4-f8 g3-h4 f8-a3 h4-g5 a3-f8 g5-f6 f8-c5 h8-g7 c5-b6 e5-d6 b6-d8 d6-e7 d8-b6 g7-h8 b6-d8";
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let game = shashki::rules::Game::replay(Variant::Russian, Position::start(), &moves).unwrap();
    assert_eq!(game.position().to_fen(), "W:We7,f6,Kh8:BKd8");
    let tb = tables(Variant::Russian);
    let probe = tb.probe_game(&game).unwrap();
    assert_eq!((probe.wdl, probe.plies), (Wdl::Win, 3));
    let mut ai = shashki::ai::Ai::with_table(16);
    ai.set_tablebases(shashki::ai::TablebaseSource::Own(tb.clone()));
    let stop = AtomicBool::new(false);
    let limits = shashki::ai::Limits {
        depth: Some(8),
        nodes: None,
        time: None,
        clock: None,
    };
    let r = ai.search(&game, &limits, &stop);
    let best = r.best.unwrap();
    assert!(tablebase::endings::keeps_win(&tb, &game, &best), "{best}");
    assert!(shashki::ai::is_tablebase_score(r.score), "{}", r.score);
}

#[test]
fn a_won_ending_with_men_is_converted_not_shuffled() {
    // A match game where the winning side, offered a man move that wins at once, kept
    // moving its king to positions "closer" to the next conversion and repeated them
    // into a draw. The tables' root move converts.
    let moves = "c3-d4 d6-c5 g3-h4 b6-a5 d4:b6 a7:c5 b2-c3 c7-d6 c1-b2 b8-c7 c3-b4 a5:c3 b2:b6 c7:a5 a1-b2 f6-g5 h4:f6 g7:e5 b2-c3 h8-g7 h2-g3 g7-f6 a3-b4 f6-g5 e3-d4 g5-h4 d4:f6 e7:g5 d2-e3 f8-e7 e3-d4 d6-e5 d4:f6 e7-d6 f6-e7 d6:f8 e1-d2 d8-c7 d2-e3 c7-d6 e3-d4 f8-e7 d4-c5 d6-e5 c3-d4 a5:c3 d4:d8 c3-d2 c5-d6 d2-e1 d8-a5 g5-f4 g3:e5 e1:g3 a5-b6 g3-h2 b6-a7 h6-g5 a7-b8 h4-g3 b8-a7 g3-f2 g1:e3 h2-g1 a7-d4 g1-h2 d4-c5 h2-g1 e3-d4 g1-h2 e5-f6 h2:b8 f6:h4 b8-a7 h4-g5 a7-b8 g5-h6 b8-a7 h6-g7 a7-b8 c5-e7 b8-g3 e7-f8 g3-f2 d4-e5 f2-g3";
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let mut game =
        shashki::rules::Game::replay(Variant::Russian, Position::start(), &moves).unwrap();
    let tb = tables(Variant::Russian);
    assert_eq!(tb.probe_game(&game).map(|p| p.wdl), Some(Wdl::Win));
    let mut ai = shashki::ai::Ai::with_table(16);
    ai.set_tablebases(shashki::ai::TablebaseSource::Own(tb.clone()));
    let stop = AtomicBool::new(false);
    let limits = shashki::ai::Limits {
        depth: Some(6),
        nodes: None,
        time: None,
        clock: None,
    };
    for _ in 0..120 {
        if game.outcome().is_some() {
            break;
        }
        let mv = ai.search(&game, &limits, &stop).best.unwrap();
        game.play(&mv).unwrap();
    }
    assert_eq!(
        game.outcome().and_then(|o| o.winner()),
        Some(shashki::rules::Color::White),
        "{:?}",
        game.outcome()
    );
}

#[test]
fn an_engine_without_tables_solves_the_small_ones_and_plays_from_them() {
    // `shashki engine` pointed at an empty folder solves every table of up to four
    // pieces of the variant on its own (in the background), writes them there, and then
    // answers a three-kings ending from them.
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let dir = std::env::temp_dir().join(format!("shashki-tb-solve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_shashki"))
        .arg("engine")
        .env("SHASHKI_TABLEBASES", &dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    // A liveness bound, not a speed check: the solve takes seconds on one core.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    let mut answered = None;
    while answered.is_none() && std::time::Instant::now() < deadline {
        writeln!(input, "position fen W:WKf6,Kg7,Kh8:BKc5\ngo depth 1").unwrap();
        input.flush().unwrap();
        let mut line = String::new();
        loop {
            line.clear();
            assert!(output.read_line(&mut line).unwrap() > 0, "the engine ended");
            if line.contains(" tb win ") {
                answered = Some(line.clone());
            }
            if line.starts_with("bestmove") {
                break;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    writeln!(input, "quit").unwrap();
    drop(input);
    child.wait().unwrap();
    let answered = answered.expect("the engine never answered from its own tables");
    assert!(answered.contains("tb win 22"), "{answered}");
    let russian = tablebase::keys_with(Variant::Russian, 4).len()
        + tablebase::keys_with(Variant::Russian, 3).len()
        + tablebase::keys_with(Variant::Russian, 2).len();
    let written = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("russian-"))
        .count();
    assert_eq!(written, russian);
    let _ = std::fs::remove_dir_all(&dir);
}
