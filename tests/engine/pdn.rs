//! PDN and FEN: real games, round trips and broken inputs.

use crate::pdn_files;
use clap::Parser;
use proptest::prelude::*;
use shashki::cli::{Cli, Command, MatchOptions, play_match_game};
use shashki::rules::pdn::{
    PdnError, PdnGame, decode_pdn_bytes, read_pdn, read_pdn_file, write_pdn, write_pdn_games,
};
use shashki::rules::{Color, Game, Outcome, Piece, PieceKind, Position, Square, Variant};
use std::collections::HashSet;
use std::path::Path;

/// Every position of a game, start first.
fn positions(game: &Game) -> Vec<Position> {
    (0..=game.ply())
        .filter_map(|i| game.position_at(i).copied())
        .collect()
}

fn read_one(text: &str) -> PdnGame {
    let mut games = read_pdn(text);
    assert_eq!(games.len(), 1, "one game expected in:\n{text}");
    match games.remove(0) {
        Ok(g) => g,
        Err(e) => panic!("{e}\nin:\n{text}"),
    }
}

fn read_err(text: &str) -> PdnError {
    let games = read_pdn(text);
    match games.into_iter().find_map(Result::err) {
        Some(e) => e,
        None => panic!("an error expected in:\n{text}"),
    }
}

fn fen(text: &str) -> Position {
    match Position::from_fen(text) {
        Ok(p) => p,
        Err(e) => panic!("{text}: {e}"),
    }
}

#[test]
fn every_real_game_loads_and_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/pdn");
    // The games live beside the project, not in it: a lone clone skips this test (and
    // says so); under CI (CI=true), where the folder is laid beside the clone, it must run.
    if !dir.is_dir() && std::env::var("CI").as_deref() != Ok("true") {
        eprintln!(
            "skipped: no {} beside the project (the real tournament games)",
            dir.display()
        );
        return;
    }
    let mut files = Vec::new();
    pdn_files(&dir, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no PDN files under {}", dir.display());
    let (mut games, mut plies, mut set_ups) = (0, 0, 0);
    let mut failures = Vec::new();
    for file in &files {
        let records = read_pdn_file(file).expect("readable file");
        for (i, record) in records.into_iter().enumerate() {
            games += 1;
            let pdn = match record {
                Ok(g) => g,
                Err(e) => {
                    failures.push(format!("{}, game {}: {e}", file.display(), i + 1));
                    continue;
                }
            };
            plies += pdn.game.ply();
            if pdn.tag("FEN").is_some() {
                set_ups += 1;
            }
            assert!(pdn.result.is_some(), "every real game has a result");
            assert!(pdn.game.outcome().is_some());
            assert_eq!(pdn.variant(), Variant::Russian);
            // Written back and read again, the game goes through the same positions.
            let again = read_one(&pdn.to_pdn());
            assert_eq!(positions(&again.game), positions(&pdn.game));
            assert_eq!(again.tag("White"), pdn.tag("White"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(games > 700, "only {games} games found");
    assert!(set_ups > 200, "only {set_ups} games from set-up positions");
    println!(
        "{games} games ({set_ups} from set-ups, {plies} plies) in {} files",
        files.len()
    );
}

#[test]
fn cp1251_and_damaged_bytes_decode() {
    // "Минск" in Windows-1251.
    let cp1251 = b"[Site \"\xCC\xE8\xED\xF1\xEA\"]\r\n1. c3-d4 *\r\n";
    let text = decode_pdn_bytes(cp1251);
    assert!(text.contains("Минск"), "{text}");
    assert_eq!(read_one(&text).tag("site"), Some("Минск"));
    // UTF-8 with one broken byte keeps the rest of the line readable.
    let damaged = "[White \"Михальченко \u{0}.\"]\n1. c3-d4 *\n"
        .replace('\u{0}', "\u{1}")
        .into_bytes()
        .into_iter()
        .map(|b| if b == 1 { 0xD0 } else { b })
        .collect::<Vec<u8>>();
    let text = decode_pdn_bytes(&damaged);
    assert!(text.contains("Михальченко \u{fffd}."), "{text}");
    // A byte-order mark is not part of the text.
    let text = decode_pdn_bytes(b"\xEF\xBB\xBF1. c3-d4 *");
    assert_eq!(read_one(&text).game.ply(), 1);
}

#[test]
fn fen_round_trips() {
    let cases = [
        "W:W21-32:B1-12",
        "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
        "W:W30,31,32,25,26,27,28,21,22,23,24,18:B15,9,10,12,5,6,7,8,1,2,3,4.",
        "W:Wa1,c1,Kd4:Bb8,f8",
        "B:W:Bh8",
        "W:WKa1:BKh8",
        "B:Wc3,e3:Bd6,Kg1",
        "W:W29,30,31,32,25,26,27,21,22,23,24,16:B28,10,11,12,5,6,7,8,1,2,3,4.:H0:F1",
    ];
    for text in cases {
        let pos = fen(text);
        let written = pos.to_fen();
        assert_eq!(fen(&written), pos, "{text} -> {written}");
        assert_eq!(fen(&written).to_fen(), written);
    }
    assert_eq!(fen("W:W21-32:B1-12"), Position::start());
}

#[test]
fn pdn_features_are_read() {
    let text = "\u{feff}; a line comment\r\n\
        [Event \"Test \\\"quoted\\\" \\\\ event\"]\r\n\
        [White \"Белые\"]\r\n\
        [Result \"2-0\"]\r\n\
        \r\n\
        {opening comment} 1. c3-d4 $1 f6-g5! 2.b2-c3?! (2. d4-c5 (2. a3-b4) b6xd4 {in a variation}) \
        g5-h4 3... \r\n\
        % escaped line ( not a variation\r\n\
        3. 22-17 ; numeric move\n h6-g5 2-0\n";
    let g = read_one(text);
    assert_eq!(g.tag("event"), Some("Test \"quoted\" \\ event"));
    assert_eq!(g.tag("WHITE"), Some("Белые"));
    assert_eq!(g.result.as_deref(), Some("2-0"));
    assert_eq!(g.game.ply(), 6);
    let moves: Vec<String> = g.game.moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(
        moves,
        ["c3-d4", "f6-g5", "b2-c3", "g5-h4", "c3-b4", "h6-g5"]
    );
    // The recorded result is declared, since the position has not ended the game.
    assert_eq!(
        g.game.outcome().and_then(Outcome::winner),
        Some(Color::White)
    );

    // Captures written with x and only the start and end squares; a draw as 1-1.
    let g = read_one("1. c3-d4 f6-e5 2. d4xf6 g7xe5 3. g3-f4 e5xg3 4. h2xf4 1-1");
    assert_eq!(g.game.moves()[6].to_string(), "h2:f4");
    assert_eq!(g.game.outcome().and_then(Outcome::winner), None);
    assert!(g.game.outcome().is_some());
    assert_eq!(read_one("*").game.outcome(), None);
    assert_eq!(read_one("*").result, None);
    assert_eq!(
        read_one("1. c3-d4 1/2-1/2").result.as_deref(),
        Some("1/2-1/2")
    );

    // Set-up position with Black to move, and поддавки under its other names.
    for name in ["giveaway", "Poddavki", "ПОДДАВКИ", "antidraughts"] {
        let text = format!(
            "[Variant \"{name}\"]\n[SetUp \"1\"]\n[FEN \"B:W21-32:B1-12\"]\n1... f6-g5 2. g3-h4 *"
        );
        let g = read_one(&text);
        assert_eq!(g.variant(), Variant::Giveaway, "{name}");
        assert_eq!(g.game.start_position().side_to_move(), Color::Black);
        assert_eq!(g.game.ply(), 2);
    }
    let g = read_one("[FEN \"B:W21-32:B1-12\"]\n1. ... f6-g5 2. g3-h4 *");
    assert_eq!(g.game.ply(), 2);
}

#[test]
fn moves_after_the_end_are_refused() {
    let e = read_err("[FEN \"W:Wc3:Bd4\"]\n1. c3:e5 d4-c3 0-1");
    assert_eq!(
        e.to_string(),
        "line 2, column 10: move 1... d4-c3 comes after the end of the game (White won, Black has no pieces)"
    );
    // The result of a game the position has decided is the position's.
    let g = read_one("[FEN \"W:Wc3:Bd4\"]\n1. c3:e5 0-1");
    assert_eq!(
        g.game.outcome().and_then(Outcome::winner),
        Some(Color::White)
    );
    assert_eq!(g.result.as_deref(), Some("0-1"));
}

#[test]
fn broken_game_does_not_hide_the_others() {
    let text = "[Event \"one\"]\n1. c3-d4 f6-g5 1-0\n\n\
        [Event \"two\"]\n1. c3-d4 f6-g5 2. zz b6-a5 1-0\n\n\
        [Event \"three\"]\n1. c3-d4 f6-g5 2. d4-c5 b6xd4 3. e3xc5 { forgot to close\n\n\
        [Event \"four\"]\n1. a3-b4 b6-a5 0-1\n\n\
        [Event \"five\"]\n1. a3-b4 (1. c3-d4 (1. e3-f4) \n\n\
        [Event \"six\"]\n1. g3-h4 1/2-1/2\n";
    let games = read_pdn(text);
    assert_eq!(games.len(), 6);
    let events: Vec<String> = games
        .iter()
        .map(|g| match g {
            Ok(g) => g.tag("Event").unwrap_or("").to_string(),
            Err(e) => e.to_string(),
        })
        .collect();
    assert_eq!(events[0], "one");
    assert_eq!(events[1], "line 5, column 19: expected a move, found 'zz'");
    assert!(
        events[2].starts_with("line 8, column 40: comment"),
        "{}",
        events[2]
    );
    assert_eq!(events[3], "four");
    assert!(
        events[4].starts_with("line 14, column 10: variation opened here"),
        "{}",
        events[4]
    );
    assert_eq!(events[5], "six");

    // A broken tag spoils its own game only.
    let games = read_pdn("[Event x] 1. c3-d4 *\n[Event \"y\"]\n1. a3-b4 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].as_ref().err().map(ToString::to_string).as_deref(),
        Some("line 1, column 8: expected '\"' to open the value of tag Event, found 'x'")
    );
    assert!(games[1].as_ref().is_ok_and(|g| g.tag("Event") == Some("y")));
    // An illegal move names its move number.
    let e = read_err("1. c3-d4 f6-g5\n2. d4-c3 b6-a5 1-0");
    assert_eq!((e.line, e.column), (2, 4));
    assert!(
        e.message.starts_with("move 2.: 'd4-c3' is not legal"),
        "{e}"
    );
    let e = read_err("1. c3-d4 f6-g5 2. d4-c5 a7-b6 1-0");
    assert!(
        e.message.starts_with("move 2...: 'a7-b6' is not legal"),
        "{e}"
    );
}

#[test]
fn game_round_trips_through_pdn() {
    let mut game = Game::new(Variant::Russian);
    for text in [
        "c3-d4", "f6-e5", "d4:f6", "g7:e5", "g3-f4", "e5:g3", "h2:f4", "h8-g7", "b2-c3",
    ] {
        game.play_text(text).expect(text);
    }
    game.resign(Color::Black);
    let tags = vec![
        ("White".to_string(), "Иванов".to_string()),
        ("Annotator".to_string(), "A \"B\"".to_string()),
        ("Result".to_string(), "0-1".to_string()),
    ];
    let text = write_pdn(&game, &tags);
    assert!(text.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"));
    assert!(text.contains("[White \"Иванов\"]\n"));
    assert!(text.contains("[Result \"1-0\"]\n[GameType \"25\"]\n"));
    assert!(text.contains("[Annotator \"A \\\"B\\\"\"]\n"));
    assert!(!text.contains("Variant") && !text.contains("FEN"));
    assert!(
        text.contains(
            "\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. g3-f4 e5:g3 4. h2:f4 h8-g7 5. b2-c3 1-0\n"
        ),
        "{text}"
    );
    assert!(text.ends_with(" 1-0\n"), "{text}");
    let back = read_one(&text);
    assert_eq!(back.game, game);
    assert_eq!(back.tag("Annotator"), Some("A \"B\""));

    // Giveaway from a set-up with Black to move; a long game wraps at 80 columns.
    let start = fen("B:W21-32:B1-12");
    let mut game = Game::from_position(Variant::Giveaway, start);
    for _ in 0..40 {
        let moves = game.legal_moves();
        let Some(mv) = moves.first() else { break };
        game.play(mv).expect("legal");
    }
    let text = write_pdn(&game, &[]);
    assert!(text.contains("[Variant \"giveaway\"]\n[SetUp \"1\"]\n[FEN \"B:W"));
    assert!(text.contains("\n1... "));
    let move_lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('[')).collect();
    assert!(move_lines.len() > 3, "{text}");
    assert!(move_lines.iter().all(|l| l.chars().count() <= 80), "{text}");
    let back = read_one(&text);
    assert_eq!(back.game, game);

    // Several games in one file.
    let both = write_pdn_games(&[read_one(&text), back]);
    let games = read_pdn(&both);
    assert_eq!(games.len(), 2);
    assert!(
        games
            .iter()
            .all(|g| g.as_ref().is_ok_and(|g| g.game == game))
    );
}

/// Writes a game as PDN, reads it back and checks that nothing changed: moves, final
/// position, result, variant and tags; written again, the text is the same.
fn assert_round_trip(game: &Game, tags: &[(String, String)], label: &str) {
    let text = write_pdn(game, tags);
    let back = read_one(&text);
    assert_eq!(back.game.moves(), game.moves(), "{label}:\n{text}");
    assert_eq!(back.game.position(), game.position(), "{label}");
    assert_eq!(back.game.outcome(), game.outcome(), "{label}");
    assert_eq!(
        back.result.as_deref(),
        game.outcome().map(|o| o.result_text()),
        "{label}"
    );
    assert_eq!(back.variant(), game.variant(), "{label}");
    let giveaway = game.variant() == Variant::Giveaway;
    assert_eq!(
        back.tag("Variant"),
        giveaway.then_some("giveaway"),
        "{label}"
    );
    for (name, value) in tags {
        assert_eq!(back.tag(name), Some(value.as_str()), "{label}: tag {name}");
    }
    assert_eq!(back.to_pdn(), text, "{label}");
}

/// The options of `shashki match ARGS`.
fn match_options(args: &str) -> MatchOptions {
    let args = ["shashki", "match"]
        .into_iter()
        .chain(args.split_whitespace());
    match Cli::try_parse_from(args) {
        Ok(Cli {
            command: Some(Command::Match(opts)),
        }) => opts,
        other => panic!("not match options: {other:?}"),
    }
}

#[test]
fn match_games_round_trip_through_pdn() {
    // The soak run of README.md in small: fixed depths instead of a clock, so the games
    // are the same every run.
    for variant in ["russian", "giveaway"] {
        let opts = match_options(&format!(
            "--variant {variant} --white depth:3 --black depth:1 --openings 4 --seed 11"
        ));
        let mut games: Vec<Game> = Vec::new();
        for index in 0..8 {
            let label = format!("{variant} game {}", index + 1);
            let (game, tags) = play_match_game(&opts, index).expect("the players start");
            assert_eq!(game.variant().to_string(), variant, "{label}");
            let termination = tags.iter().find(|(n, _)| n == "Termination");
            assert!(
                game.outcome().is_some(),
                "{label} was not ended by the rules: {termination:?}"
            );
            assert!(game.ply() > 4, "{label}: {} plies", game.ply());
            assert_round_trip(&game, &tags, &label);
            // Games 2k and 2k+1 share their random opening with the colours swapped.
            if index % 2 == 1 {
                assert_eq!(games[games.len() - 1].moves()[..4], game.moves()[..4]);
            }
            games.push(game);
        }
        let different: HashSet<_> = games.iter().map(Game::moves).collect();
        assert_eq!(
            different.len(),
            games.len(),
            "{variant}: some games are the same"
        );
    }
}

/// Checks a soak run's output (see README.md): every game replays, round-trips and was
/// ended by the rules. Run with `SHASHKI_SOAK_PDN=a.pdn:b.pdn` and `--ignored`.
#[test]
#[ignore = "reads the files named in SHASHKI_SOAK_PDN"]
fn soak_games_round_trip_through_pdn() {
    let paths = std::env::var_os("SHASHKI_SOAK_PDN").expect("SHASHKI_SOAK_PDN names the files");
    let mut not_by_rules = Vec::new();
    for path in std::env::split_paths(&paths) {
        let text = std::fs::read_to_string(&path).expect("readable file");
        let mut games = Vec::new();
        for (i, record) in read_pdn(&text).into_iter().enumerate() {
            let label = format!("{}, game {}", path.display(), i + 1);
            let pdn = record.unwrap_or_else(|e| panic!("{label}: {e}"));
            assert_round_trip(&pdn.game, &pdn.tags, &label);
            if pdn.game.outcome().is_none() {
                not_by_rules.push(format!("{label}: {:?}", pdn.tag("Termination")));
            }
            games.push(pdn);
        }
        // The match writes each game followed by a blank line.
        let written = write_pdn_games(&games) + "\n";
        let same = written
            .bytes()
            .zip(text.bytes())
            .take_while(|(a, b)| a == b);
        assert!(
            written == text,
            "{}: written back, the file differs from byte {}",
            path.display(),
            same.count()
        );
        println!("{}: {} games", path.display(), games.len());
    }
    assert!(not_by_rules.is_empty(), "{}", not_by_rules.join("\n"));
}

#[test]
fn the_shortest_unambiguous_text_is_written() {
    // Two captures from g5 to e7 that take different pieces: the route must be given.
    let start = fen(AMBIGUOUS_FEN);
    let moves = start.legal_moves();
    let route = moves
        .iter()
        .find(|m| m.to_string() == AMBIGUOUS_ROUTE)
        .expect("the capture exists");
    let mut game = Game::from_position(Variant::Russian, start);
    game.play(route).expect("legal");
    let text = write_pdn(&game, &[]);
    assert!(text.contains(&format!("1. {AMBIGUOUS_ROUTE} *")), "{text}");
    assert_eq!(read_one(&text).game, game);
}

/// A position where the short form of a capture names two different moves.
const AMBIGUOUS_FEN: &str = "W:WKg5:Bb2,d4,d6,f4";
const AMBIGUOUS_ROUTE: &str = "g5:e3:c5:e7";
const AMBIGUOUS_SHORT: &str = "g5:e7";

#[test]
fn broken_inputs_give_errors() {
    let fens = [
        "",
        "X:W21-32:B1-12",
        "W:W21:B1:B2",
        "W:W21-32:B1-12:W5",
        "W:Wa2:Bb8",
        "W:W33:B1",
        "W:W0:B1",
        "W:Wi1:B1",
        "W:W21:B21",
        "W:W21,21:B1",
        "W:W20-32:B1-3",
        "W:W1:B30",
        "W:W30:B29",
        "W:W30-20:B1",
        "W:WKK21:B1",
        "W:W21;B1",
        "W:W-:B1",
        "W:W21:B1,Kb8,c7",
        "W:W21,:B1",
        "W:W21-:B1",
    ];
    for text in fens {
        assert!(Position::from_fen(text).is_err(), "FEN {text:?} accepted");
    }
    let pdns = [
        "[FEN \"X:W21-32:B1-12\"]\n*",
        "[FEN \"W:Wb1:B1\"]\n*",
        "[FEN \"W:W33:B1\"]\n*",
        "[FEN \"W:W21:B21\"]\n*",
        "[FEN \"W:W1:B12\"]\n*",
        "[FEN \"W:W20-32:B1\"]\n*",
        "[SetUp \"1\"]\n1. c3-d4 *",
        "1. c3-d4 {unterminated comment",
        "1. c3-d4 (1. a3-b4 *",
        "1. c3-d4 ((1. a3-b4) *",
        "1. c3-d4 ) *",
        "[Event \"x\"\n1. c3-d4 *",
        "[Event x]\n1. c3-d4 *",
        "[ \"x\"]\n1. c3-d4 *",
        "[Event \"x\n1. c3-d4 *",
        "1. c3-e5 *",
        "1. c3-d4 d4-e5 *",
        "1. zz *",
        "1. c3 *",
        "1. c3-d4 f6-g5 2. d4-c5",
        "[Event \"truncated",
        "1. c3-d4 f6-g",
        "1. c3-d4 $ *",
        "1. c3-d4 } *",
        "1. c3-d4 ] *",
        "[GameType \"20\"]\n1. 32-28 *",
        "[Variant \"chess\"]\n1. c3-d4 *",
        "\u{fffd}\u{fffd}\u{0}\u{7f}garbage",
        "[Event \"a\"]",
        "1. c3-d4 f6-e5 2. a3-b4 *",
        "1. f6-g5 *",
    ];
    for text in pdns {
        let games = read_pdn(text);
        assert!(
            games.iter().any(Result::is_err),
            "PDN accepted: {text:?} -> {games:?}"
        );
        for e in games.iter().filter_map(|g| g.as_ref().err()) {
            assert!(e.line >= 1 && e.column >= 1, "{e}");
        }
    }
    assert!(fens.len() + pdns.len() >= 30);
    // The ambiguous short form is refused; its full route is accepted.
    let ambiguous = format!("[FEN \"{AMBIGUOUS_FEN}\"]\n1. {AMBIGUOUS_SHORT} *");
    let e = read_err(&ambiguous);
    assert!(e.message.contains("ambiguous"), "{e}");
    let full = format!("[FEN \"{AMBIGUOUS_FEN}\"]\n1. {AMBIGUOUS_ROUTE} *");
    assert_eq!(read_one(&full).game.ply(), 1);
    // Bytes that are no text at all still decode and fail cleanly.
    let garbage: Vec<u8> = (0u8..=255).rev().collect();
    let games = read_pdn(&decode_pdn_bytes(&garbage));
    assert!(games.iter().any(Result::is_err));
}

#[test]
fn fen_command_prints_positions() {
    let dir = std::env::temp_dir().join(format!("shashki-pdn-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("games.pdn");
    std::fs::write(
        &file,
        "[Event \"1\"]\n1. c3-d4 f6-g5 1-0\n\n[Event \"2\"]\n1. zz *\n\n1. a3-b4 *\n",
    )
    .expect("write");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_shashki"))
            .arg("fen")
            .arg("--pdn")
            .arg(&file)
            .args(args)
            .output()
            .expect("run shashki");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).trim().to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let after = |moves: &[&str]| {
        let mut g = Game::new(Variant::Russian);
        for m in moves {
            g.play_text(m).expect("legal");
        }
        g.position().to_fen()
    };
    assert_eq!(run(&[]).1, after(&["c3-d4", "f6-g5"]));
    assert_eq!(run(&["--ply", "1"]).1, after(&["c3-d4"]));
    assert_eq!(run(&["--ply", "0"]).1, Position::start().to_fen());
    assert_eq!(run(&["--game", "3"]).1, after(&["a3-b4"]));
    let (ok, _, err) = run(&["--game", "2"]);
    assert!(
        !ok && err.contains("line 5, column 4: expected a move, found 'zz'"),
        "{err}"
    );
    let (ok, _, err) = run(&["--ply", "3"]);
    assert!(!ok && err.contains("no ply 3"), "{err}");
    for game in ["0", "4"] {
        let (ok, _, err) = run(&["--game", game]);
        assert!(!ok && err.contains("3 games"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A random legal set-up: each square empty or holding a man or king of either side.
fn set_up() -> impl Strategy<Value = Position> {
    (prop::collection::vec(0u8..12, 32), any::<bool>()).prop_filter_map(
        "not a legal set-up",
        |(cells, black)| {
            let side = if black { Color::Black } else { Color::White };
            let mut pos = Position::empty(side);
            for (sq, cell) in Square::all().zip(cells) {
                let piece = match cell {
                    0 => Some((Color::White, PieceKind::Man)),
                    1 => Some((Color::Black, PieceKind::Man)),
                    2 => Some((Color::White, PieceKind::King)),
                    3 => Some((Color::Black, PieceKind::King)),
                    _ => None,
                };
                pos.set_piece(sq, piece.map(|(color, kind)| Piece { color, kind }));
            }
            pos.validate().ok()
        },
    )
}

fn start_position() -> impl Strategy<Value = Position> {
    prop_oneof![Just(Position::start()), set_up()]
}

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::Russian), Just(Variant::Giveaway)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_games_replay_through_pdn(
        start in start_position(),
        variant in variant(),
        choices in prop::collection::vec(any::<u16>(), 0..80),
    ) {
        let mut game = Game::from_position(variant, start);
        for choice in choices {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[choice as usize % moves.len()];
            game.play(&mv).expect("a legal move plays");
        }
        let text = write_pdn(&game, &[("Event".into(), "random".into())]);
        let games = read_pdn(&text);
        prop_assert_eq!(games.len(), 1);
        let back = match &games[0] {
            Ok(g) => g,
            Err(e) => return Err(TestCaseError::fail(format!("{e}\n{text}"))),
        };
        prop_assert_eq!(back.variant(), variant);
        prop_assert_eq!(positions(&back.game), positions(&game));
        prop_assert_eq!(back.game.outcome(), game.outcome());
    }

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        let _ = read_pdn(&text);
        let _ = Position::from_fen(&text);
        let _ = Position::start().parse_move(&text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let text = decode_pdn_bytes(&bytes);
        let _ = read_pdn(&text);
        let _ = Position::from_fen(&text);
    }

    #[test]
    fn pdn_like_text_never_panics(
        text in r#"(\[[A-Za-z]{0,6} ?"[^"\n]{0,8}"?\]?\n|[0-9]{1,2}\.{1,3} ?|[a-h][1-8][-:x][a-h][1-8]([-:x][a-h][1-8])? |[0-9]{1,2}[-x][0-9]{1,2} |\{[^}]{0,5}\}?|[()]|\$[0-9]?|;[a-z ]{0,5}\n|1-0|0-1|1/2-1/2|2-0|1-1|\*|[WB:K,.0-9]{0,6}| |\n){0,40}"#
    ) {
        let _ = read_pdn(&text);
        let _ = Position::from_fen(&text);
        let _ = Position::start().parse_move(&text);
    }
}
