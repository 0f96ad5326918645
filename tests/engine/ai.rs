//! The AI: forced wins, legality, levels and поддавки play.

use shashki::ai::{self, Ai, Level, Limits};
use shashki::rules::{Color, Game, Move, Variant};
use std::sync::atomic::AtomicBool;

fn limits(depth: Option<u32>, nodes: Option<u64>) -> Limits {
    Limits {
        depth,
        nodes,
        time: None,
        clock: None,
    }
}

fn best(variant: Variant, fen: &str, depth: u32) -> (String, i32) {
    let game = Game::from_fen(variant, fen).unwrap();
    let stop = AtomicBool::new(false);
    let r = Ai::with_table(16).search(&game, &limits(Some(depth), None), &stop);
    (r.best.expect("a move").to_string(), r.score)
}

/// Tiny deterministic generator for the random playouts.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

#[test]
fn russian_combinations_are_found() {
    // (position, the move wanted, the least score of a 10-ply search). Each was checked,
    // before forced replies cost no depth in Russian draughts, by searching every other
    // move 14 plies deep: all of them scored a draw or worse.
    let cases = [
        // A man breaks through to promotion: b8-c7 would be taken b6:d8. Half a man or
        // more: the evaluation sees the king to come.
        ("W:Wa5,h2:Bb8,f8", "a5-b6", 50),
        // The attack on b4 wins it: the man is pinned against the edge. The ending of
        // three men against two that follows is a draw in the endgame tables, and a
        // search that sees the forced captures to their end scores it so (0 from 13
        // plies): the move keeps the draw.
        ("W:Wd4,b2,e5:Bf8,d8,b4", "b2-a3", 0),
    ];
    for (fen, want, least) in cases {
        let (mv, score) = best(Variant::Russian, fen, 10);
        assert_eq!(mv, want, "{fen}");
        assert!(score >= least, "{fen}: score {score}");
    }
}

#[test]
fn russian_shot_wins_material() {
    // e3-d4 gives a man: c5:e3 is forced (e5 cannot take, c3 is occupied), and then
    // d2:f4:d6 takes two.
    let (mv, score) = best(Variant::Russian, "W:Wc1,c3,d2,e3:Bc5,e5,a7,h8", 8);
    assert_eq!(mv, "e3-d4");
    assert!(score >= 150, "score {score}");
}

/// The game after `moves` from the start, Russian rules.
fn after(moves: &str) -> Game {
    let mut game = Game::new(Variant::Russian);
    for m in moves.split_whitespace() {
        game.play_text(m).unwrap();
    }
    game
}

#[test]
fn a_shot_behind_two_sacrifices_is_found_early() {
    // From a game: 12. a3-b4?? loses to 12...d6-c5 13. b4:d6:f4 f6-g5 14. h4:f6 f8-e7
    // 15. c3:e5 e7:g5:e3:c1:a3: the man crowns at c1 in the middle of its capture, and a
    // 14-ply search scores Black more than four men ahead. The shallow verification cut hid
    // it where White had a capture due (it saw only the men won): a search found
    // 12...d6-c5 from depth 14 and kept 12. a3-b4 up to depth 18.
    let opening = "e3-d4 f6-e5 d4:f6 e7:g5 g3-h4 b6-c5 h4:f6 g7:e5 c3-d4 e5:c3 b2:b6 a7:c5 \
                   h2-g3 h8-g7 g3-h4 g7-f6 a1-b2 d6-e5 b2-c3 c5-d4 c1-b2 c7-d6";
    let stop = AtomicBool::new(false);
    let game = after(&format!("{opening} a3-b4"));
    let r = Ai::with_table(16).search(&game, &limits(Some(8), None), &stop);
    assert_eq!(r.best.expect("a move").to_string(), "d6-c5");
    assert!(r.score >= 150, "score {}", r.score);
    let game = after(opening);
    let r = Ai::with_table(16).search(&game, &limits(Some(13), None), &stop);
    assert_ne!(r.best.expect("a move").to_string(), "a3-b4");
}

#[test]
fn a_forced_reply_costs_no_depth() {
    // Six plies: b2-c3 b4:d2 d6-c7 d8:b6 d4-c5 b6:d4, and White has given every man away;
    // each Black capture is the only legal move. A search three plies deep proves it only
    // because the forced replies do not count.
    let (mv, score) = best(Variant::Giveaway, "W:Wd6,d4,b2:Bf8,d8,b4", 3);
    assert_eq!(mv, "b2-c3");
    assert_eq!(score, ai::WIN - 6);
    // Russian draughts too: the five-ply win d4:b6 f6:h4 c7-b8 h4-g3 b8:h2 (Black's two
    // replies forced) is proved three plies deep; two are not enough.
    let fen = "W:Wd4,c7,g5,a7:Bc5,f6";
    assert!(best(Variant::Russian, fen, 2).1 < ai::WIN - 100);
    assert_eq!(best(Variant::Russian, fen, 3).1, ai::WIN - 5);
}

#[test]
fn a_singular_move_is_searched_deeper_in_giveaway() {
    // d6:b8 e7-d6 b8:f4 h8-g7 f4-c1 b4-a3 c1-b2 a3:c1: eight plies and White has no piece
    // left. White's king moves are the only good ones among several, and a seven-ply
    // search proves the win only because such singular moves are searched a ply deeper;
    // without that the same search scores 504.
    let (mv, score) = best(Variant::Giveaway, "W:Wd6:Bh8,b4,c7,e7", 7);
    assert_eq!(mv, "d6:b8");
    assert_eq!(score, ai::WIN - 8);
}

#[test]
fn giveaway_forced_wins_are_found() {
    // Positions where White forces the loss of every white piece or a block; the move
    // chosen must be a forced win, which a search of the position after it confirms.
    for fen in [
        "W:Wf2,g1:Bc5,f4,a3",
        "W:Wa1,c3,f4:Bc5,a7,g5,h6",
        "W:Wa5,d6,d4:Ba3,h8,a7",
    ] {
        let (mv, score) = best(Variant::Giveaway, fen, 14);
        assert!(score > ai::WIN - 100, "{fen}: score {score}");
        let mut game = Game::from_fen(Variant::Giveaway, fen).unwrap();
        game.play_text(&mv).unwrap();
        // A forced reply is answered without a search: play forced moves out first.
        while game.legal_moves().len() == 1 {
            let only = game.legal_moves()[0];
            game.play(&only).unwrap();
        }
        if game.outcome().is_none() {
            let stop = AtomicBool::new(false);
            let reply = Ai::with_table(16).search(&game, &limits(Some(14), None), &stop);
            let white = if game.side_to_move() == Color::White {
                reply.score
            } else {
                -reply.score
            };
            assert!(white > ai::WIN - 100, "{fen} {mv}: {}", reply.score);
        } else {
            assert_eq!(
                game.outcome().unwrap().winner(),
                Some(Color::White),
                "{fen} {mv}"
            );
        }
    }
}

#[test]
fn giveaway_prefers_giving_pieces_away() {
    // A lone man offered to the enemy wins at once (White has nothing left).
    let (mv, score) = best(Variant::Giveaway, "W:Wc3:Be5,h8", 4);
    assert_eq!(mv, "c3-d4");
    assert!(score > ai::WIN - 100);
    // Here поддавки play gives a man away for nothing (c3-d4: after e5:c3 White has no
    // capture back), while Russian play never does (it exchanges with g3-f4, or waits), at
    // every depth.
    let fen = "W:Wc3,g3,h2,e1:Ba7,e5,h8,b8";
    let given_for_nothing = |variant: Variant, depth: u32| {
        let game = Game::from_fen(variant, fen).unwrap();
        let stop = AtomicBool::new(false);
        let r = Ai::with_table(16).search(&game, &limits(Some(depth), None), &stop);
        let after = game.position().play(&r.best.unwrap());
        after
            .legal_moves()
            .iter()
            .any(|reply| reply.is_capture() && !after.play(reply).has_capture())
    };
    for depth in [6, 9, 12] {
        assert!(
            given_for_nothing(Variant::Giveaway, depth),
            "{fen} depth {depth}"
        );
        assert!(
            !given_for_nothing(Variant::Russian, depth),
            "{fen} depth {depth}"
        );
    }
}

fn random_games(variant: Variant, count: usize, seed: u64) -> Vec<Game> {
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut game = Game::new(variant);
        let plies = rng.below(90);
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(&moves[rng.below(moves.len())]).unwrap();
        }
        out.push(game);
    }
    out
}

fn check_legal_everywhere(variant: Variant, seed: u64) {
    let stop = AtomicBool::new(false);
    let mut ai = Ai::with_table(12);
    for (i, game) in random_games(variant, 1000, seed).into_iter().enumerate() {
        let legal: Vec<Move> = game.legal_moves();
        let r = ai.search(&game, &limits(None, Some(150)), &stop);
        match r.best {
            None => assert!(legal.is_empty(), "no move in {}", game.position().to_fen()),
            Some(m) => {
                assert!(
                    legal.contains(&m),
                    "illegal {m} in {}",
                    game.position().to_fen()
                );
                assert_eq!(r.pv.first(), Some(&m));
                let mut g = game.clone();
                for step in &r.pv {
                    g.play(step).expect("the principal variation is legal");
                }
            }
        }
        // Every tenth position also through a level's choice.
        if i % 10 == 0 && !legal.is_empty() {
            let level = Level::new((i / 10 % 3) as u8 + 1);
            let m = ai.choose_move(&game, level, i as u64, &stop).unwrap();
            assert!(legal.contains(&m));
        }
    }
}

#[test]
fn never_an_illegal_move_russian() {
    check_legal_everywhere(Variant::Russian, 11);
}

#[test]
fn never_an_illegal_move_giveaway() {
    check_legal_everywhere(Variant::Giveaway, 12);
}

#[test]
fn stop_flag_and_single_moves_answer_at_once() {
    // Stopped before it starts: still a legal move.
    let game = Game::new(Variant::Russian);
    let stop = AtomicBool::new(true);
    let r = Ai::with_table(12).search(&game, &Limits::default(), &stop);
    assert!(game.legal_moves().contains(&r.best.unwrap()));
    // One legal move (a forced capture): played without a search.
    let game = Game::from_fen(Variant::Russian, "W:Wc3:Bd4,h8").unwrap();
    let stop = AtomicBool::new(false);
    let r = Ai::with_table(12).search(&game, &Limits::default(), &stop);
    assert_eq!(r.best.unwrap().to_string(), "c3:e5");
    assert!(r.nodes <= 1);
    // A finished game has no move.
    let game = Game::from_fen(Variant::Russian, "W:W:Bd4").unwrap();
    assert_eq!(
        Ai::with_table(12)
            .search(&game, &Limits::default(), &stop)
            .best,
        None
    );
}

#[test]
fn deterministic_for_a_node_limit() {
    let games = random_games(Variant::Russian, 5, 3);
    let stop = AtomicBool::new(false);
    for game in &games {
        let a = Ai::with_table(14).search(game, &limits(None, Some(3000)), &stop);
        let b = Ai::with_table(14).search(game, &limits(None, Some(3000)), &stop);
        assert_eq!(a, b);
        let mut ai = Ai::with_table(14);
        let x = ai.choose_move(game, Level::new(2), 7, &stop);
        ai.clear();
        let y = ai.choose_move(game, Level::new(2), 7, &stop);
        assert_eq!(x, y);
    }
}

#[test]
fn levels_are_named_and_clamped() {
    assert_eq!(Level::new(0).number(), 1);
    assert_eq!(Level::new(11).number(), 10);
    assert_eq!(Level::new(1).name(), "Novice");
    assert_eq!(Level::new(10).name(), "Master");
    assert_eq!(Level::new(10).name_ru(), "Мастер");
    let mut last = 0;
    for n in 1..=10 {
        let l = Level::new(n).limits();
        let nodes = l.nodes.unwrap();
        assert!(nodes > last);
        last = nodes;
        assert!(l.time.unwrap().as_secs_f64() <= 5.0);
    }
}

#[test]
fn levels_from_three_do_not_hang_a_man() {
    // f4-g5 would be taken by h6:f4; every other move keeps the material.
    let game = Game::from_fen(Variant::Russian, "W:Wf4,a1,c1:Bh6,a7,c7").unwrap();
    let stop = AtomicBool::new(false);
    let mut ai = Ai::with_table(14);
    for seed in 0..30 {
        let m = ai.choose_move(&game, Level::new(3), seed, &stop).unwrap();
        assert_ne!(m.to_string(), "f4-g5", "seed {seed}");
    }
}

#[test]
fn draw_offers_follow_the_evaluation() {
    let fen = "W:Wc3,e3,g3:Bb6";
    let game = Game::from_fen(Variant::Russian, fen).unwrap();
    assert!(!ai::accepts_draw(&game, Color::White));
    assert!(ai::accepts_draw(&game, Color::Black));
    // In the opening with level material the offer is declined, whatever the evaluation.
    let mut game = Game::new(Variant::Russian);
    assert!(!ai::accepts_draw(&game, Color::Black));
    for mv in ["c3-d4", "f6-e5", "d4:f6", "g7:e5"] {
        game.play_text(mv).unwrap();
    }
    assert!(!ai::accepts_draw(&game, Color::White));
    assert!(!ai::accepts_draw(&game, Color::Black));
}

#[test]
fn engine_is_send() {
    fn send<T: Send + 'static>() {}
    send::<Ai>();
}

/// Runs `shashki engine` on `input` and returns everything it printed.
fn engine_session(input: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_shashki"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn engine_protocol_answers() {
    let input = "hello\nvariant giveaway\nposition startpos moves c3-d4\ngo depth 3\n\
                 position fen W:Wc3:Bd4,h8\ngo nodes 100\nposition fen W:W:Bd4\ngo depth 2\n\
                 go sideways\nposition startpos moves a1-b2\nquit\n";
    let text = engine_session(input);
    let lines: Vec<&str> = text.lines().collect();
    let best: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .copied()
        .collect();
    assert_eq!(best.len(), 3, "{text}");
    assert!(best[0].len() > "bestmove ".len(), "{text}");
    assert_eq!(best[1], "bestmove c3:e5");
    assert_eq!(best[2], "bestmove none");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("error")).count(),
        3,
        "{text}"
    );
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
}

#[test]
fn search_fits_the_default_thread_stack() {
    // Worker threads of a front-end get 2 MiB; a long king ending reaches the ply limit.
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let game = Game::from_fen(Variant::Russian, "W:WKa1,Kc1,Ke1:BKh8,Kf8").unwrap();
            let stop = AtomicBool::new(false);
            Ai::with_table(14)
                .search(&game, &limits(Some(60), Some(20_000)), &stop)
                .best
        })
        .unwrap();
    assert!(handle.join().unwrap().is_some());
}

#[test]
fn a_refused_position_leaves_none_set() {
    // After c3:e5 Black has no pieces: the game is over and the next move is refused.
    let input = "position startpos\nposition fen W:Wc3:Bd4 moves c3:e5 e5-f6\ngo depth 2\n\
                 variant giveaway\ngo depth 2\nthreads 2\nhash 4\nposition startpos\n\
                 go depth 4\nquit\n";
    let text = engine_session(input);
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("info")).collect();
    assert!(lines[0].starts_with("error move e5-f6"), "{text}");
    assert_eq!(
        &lines[1..5],
        [
            "error no position",
            "bestmove none",
            "error no position",
            "bestmove none"
        ],
        "{text}"
    );
    // A new position is searched as usual, with two threads and a small table.
    assert_eq!(lines.len(), 6, "{text}");
    assert!(lines[5].starts_with("bestmove ") && lines[5] != "bestmove none");
}

#[test]
fn threads_search_together_and_agree_on_forced_wins() {
    let game = Game::from_fen(Variant::Russian, "W:Wc1,c3,d2,e3:Bc5,e5,a7,h8").unwrap();
    let stop = AtomicBool::new(false);
    let mut ai = Ai::with_table(16);
    ai.set_threads(3);
    assert_eq!(ai.threads(), 3);
    let r = ai.search(&game, &limits(Some(10), None), &stop);
    assert_eq!(r.best.unwrap().to_string(), "e3-d4");
    // The helpers' nodes are counted too.
    let mut one = Ai::with_table(16);
    let single = one.search(&game, &limits(Some(10), None), &stop);
    assert!(r.nodes > 0 && single.nodes > 0);
    ai.set_table_mib(2);
    assert_eq!(ai.table_mib(), 2);
    assert_eq!(ai.threads(), 3);
    let stopped = AtomicBool::new(true);
    // A search stopped before it starts still answers a legal move.
    let r = ai.search(&Game::new(Variant::Russian), &limits(None, None), &stopped);
    assert!(
        Game::new(Variant::Russian)
            .legal_moves()
            .contains(&r.best.unwrap())
    );
}

#[test]
fn commands_end_quietly_on_a_closed_pipe() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_shashki"))
        .args(["perft", "9"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read the first line, then close the pipe as `head -1` would.
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 8];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    child.wait().unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn the_engine_answers_from_its_book_until_told_not_to() {
    let input = "position startpos\ngo depth 2\nbook off\ngo depth 2\nbook on\n\
                 variant giveaway\nposition startpos\ngo depth 2\nbook sideways\nquit\n";
    let text = engine_session(input);
    let lines: Vec<&str> = text.lines().collect();
    let infos: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("info"))
        .copied()
        .collect();
    // The start position is in both books: answered at once, with the book's value.
    assert!(
        infos[0].starts_with("info depth 0 ") && infos[0].ends_with(" book"),
        "{text}"
    );
    let book = shashki::ai::book::embedded(Variant::Russian);
    let start = shashki::rules::Position::start();
    let first = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
    let best = book.moves(&start)[0].score;
    assert!(
        book.moves(&start)
            .iter()
            .any(|m| format!("bestmove {}", m.mv) == *first
                && m.score >= best - shashki::ai::book::MARGIN),
        "{text}"
    );
    // Switched off, the engine searches.
    assert!(infos[1].starts_with("info depth 1 "), "{text}");
    assert!(
        !infos[1].ends_with(" book") && !infos[2].ends_with(" book"),
        "{text}"
    );
    assert!(infos.last().unwrap().ends_with(" book"), "{text}");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        3
    );
    assert!(
        lines.contains(&"error expected 'book on' or 'book off'"),
        "{text}"
    );
}

#[test]
fn contempt_scores_a_draw_below_equal_for_the_engine_side() {
    // King against king: the 5-move rule (7.2.8) draws inside the search.
    let game = Game::from_fen(Variant::Russian, "W:WKa1:BKb8").unwrap();
    let stop = AtomicBool::new(false);
    let mut ai = Ai::with_table(16);
    ai.set_use_tablebases(false);
    let depth = limits(Some(12), None);
    assert_eq!(ai.search(&game, &depth, &stop).score, 0);
    ai.set_contempt(30);
    ai.clear();
    assert_eq!(ai.search(&game, &depth, &stop).score, -30);
    // Black to move gives up the same for its own side.
    let black = Game::from_fen(Variant::Russian, "B:WKa1:BKb8").unwrap();
    ai.clear();
    assert_eq!(ai.search(&black, &depth, &stop).score, -30);
    ai.set_contempt(500);
    assert_eq!(ai.contempt(), 100);
    // The protocol sets it and refuses values outside 0-100 (`newgame` waits for the
    // search, which `quit` would stop).
    let text = engine_session(
        "tablebase off\ncontempt 30\nposition fen W:WKa1:BKb8\ngo depth 12\nnewgame\n\
         contempt 101\nquit\n",
    );
    assert!(text.contains("info depth 12 score -30 "), "{text}");
    assert!(text.contains("error contempt 101 is not 0-100"), "{text}");
}

/// Runs `shashki selfplay` with `extra` options into a fresh file and returns its lines,
/// or the error it printed.
fn selfplay(name: &str, extra: &[&str]) -> Result<Vec<String>, String> {
    let dir = std::env::temp_dir().join(format!("shashki-selfplay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_shashki"))
        .env("SHASHKI_TABLEBASES", "off")
        .args(["selfplay", "--variant", "giveaway", "--games", "6"])
        .args(["--nodes", "300", "--openings", "2", "--seed", "5", "--out"])
        .arg(&path)
        .args(extra)
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    Ok(text.lines().map(str::to_string).collect())
}

#[test]
fn selfplay_varies_its_moves_when_asked_and_stays_reproducible() {
    let plain = selfplay("plain.txt", &[]).unwrap();
    let varied = selfplay("varied.txt", &["--vary", "1", "--vary-margin", "300"]).unwrap();
    let again = selfplay("again.txt", &["--vary", "1", "--vary-margin", "300"]).unwrap();
    assert!(!plain.is_empty() && !varied.is_empty());
    for line in plain.iter().chain(&varied) {
        shashki::ai::train::parse_line(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    // The same openings, but other moves within the margin: other games.
    assert_ne!(plain, varied);
    // Seeded: the same command writes the same games.
    assert_eq!(varied, again);
    let err = selfplay("bad.txt", &["--vary", "1.5"]).unwrap_err();
    assert!(err.contains("--vary"), "{err}");
}
