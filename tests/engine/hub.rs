//! `shashki hub` (Scan's Hub protocol), the engine under a clock and the desktop install.

use shashki::ai::{Ai, Clock, Limits};
use shashki::rules::{Game, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// A running `shashki hub`: lines in, lines out.
struct Hub {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: BufReader<std::process::ChildStdout>,
}

impl Hub {
    fn start() -> Hub {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shashki"))
            .arg("hub")
            .env("SHASHKI_TABLEBASES", "off")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Hub {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    fn line(&mut self) -> String {
        let mut s = String::new();
        self.output.read_line(&mut s).unwrap();
        assert!(!s.is_empty(), "the engine closed its output");
        s.trim().to_string()
    }

    /// Reads lines up to one starting with `word`; returns them all.
    fn until(&mut self, word: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let l = self.line();
            let done = l.split_whitespace().next() == Some(word);
            lines.push(l);
            if done {
                return lines;
            }
        }
    }
}

#[test]
fn hub_session_answers_as_the_protocol_says() {
    let mut hub = Hub::start();
    hub.send("hub");
    let intro = hub.until("wait");
    assert!(intro[0].starts_with("id name=Shashki"), "{intro:?}");
    assert!(
        intro
            .iter()
            .any(|l| l.contains("name=variant") && l.contains("values=\"russian giveaway\"")),
        "{intro:?}"
    );
    assert!(
        intro
            .iter()
            .any(|l| l == "param name=book value=true type=bool"),
        "{intro:?}"
    );
    // The opening book answers a move to play at once; switched off, the engine searches.
    hub.send("init");
    assert_eq!(hub.line(), "ready");
    hub.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    hub.send("level depth=3");
    hub.send("go think");
    let lines = hub.until("done");
    assert!(lines[0].starts_with("info depth=0 "), "{lines:?}");
    hub.send("set-param name=book value=false");
    hub.send("go think");
    let lines = hub.until("done");
    assert!(lines[0].starts_with("info depth=1 "), "{lines:?}");
    hub.send("set-param name=book value=maybe");
    assert!(hub.line().starts_with("error message="));
    // Contempt: a king against a king is a draw (7.2.8) that a move to play scores below
    // equal for the engine's side and an analysis scores 0.
    let contempt = format!(
        "param name=contempt value={} type=int min=0 max=100",
        shashki::ai::protocol::DEFAULT_CONTEMPT
    );
    assert!(intro.contains(&contempt), "{intro:?}");
    hub.send("set-param name=contempt value=30");
    hub.send("pos pos=WBeeeeeeeeeeeeeeeeeeeeeeeeeeeWeee");
    hub.send("level depth=12");
    for (go, score) in [("go think", "score=-0.30 "), ("go analyze", "score=0.00 ")] {
        hub.send(go);
        let lines = hub.until("done");
        let last = &lines[lines.len() - 2];
        assert!(
            last.starts_with("info depth=12 ") && last.contains(score),
            "{lines:?}"
        );
    }
    hub.send("set-param name=contempt value=101");
    assert!(hub.line().starts_with("error message="));
    hub.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    hub.send("set-param name=variant value=russian");
    hub.send("set-param name=unknown value=1");
    hub.send("set-param name=threads value=zero");
    assert!(hub.line().starts_with("error message="));
    hub.send("init");
    assert_eq!(hub.line(), "ready");
    // An unknown command is ignored; a malformed line gets an error and the engine lives.
    hub.send("greet everyone");
    hub.send("pos pos=\"Wbbb");
    assert!(hub.line().starts_with("error message="));
    hub.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14 99-1\"");
    assert!(hub.line().contains("99-1"));
    // An infinite analysis answers ping while it searches and ends with stop.
    hub.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14 23-19\"");
    hub.send("level depth=3");
    hub.send("go think");
    let lines = hub.until("done");
    assert_eq!(lines.last().unwrap(), "done move=14x23x19", "{lines:?}");
    hub.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    hub.send("level infinite");
    hub.send("go analyze");
    let first = hub.line();
    assert!(first.starts_with("info depth="), "{first}");
    hub.send("ping");
    assert_eq!(hub.until("pong").last().unwrap(), "pong");
    hub.send("stop");
    let done = hub.until("done");
    assert!(done.last().unwrap().starts_with("done move="), "{done:?}");
    // Pondering: nothing is played until ponder-hit, then the move comes within the time.
    hub.send("new-game");
    hub.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14\"");
    hub.send("level move-time=0.2");
    hub.send("go ponder");
    std::thread::sleep(Duration::from_millis(300));
    hub.send("ping");
    let before = hub.until("pong");
    assert!(
        !before.iter().any(|l| l.starts_with("done")),
        "a ponder search waits: {before:?}"
    );
    let hit = Instant::now();
    hub.send("ponder-hit");
    let done = hub.until("done");
    assert!(
        hit.elapsed() < Duration::from_secs(5),
        "{:?}",
        hit.elapsed()
    );
    let mv = done.last().unwrap();
    assert!(
        mv.starts_with("done move=") && mv.contains("ponder="),
        "{mv}"
    );
    // A ponder search that ends by itself (one legal move: c3 must take d4) keeps its
    // answer until stop or ponder-hit, so that no early `done` is taken for the next one.
    let forced = shashki::rules::Position::from_fen("W:Wc3,h2:Bd4,a7").unwrap();
    assert_eq!(forced.legal_moves().len(), 1);
    hub.send(&format!(
        "pos pos={}",
        shashki::ai::hub::position_text(&forced)
    ));
    for hit in [false, true] {
        hub.send("go ponder");
        std::thread::sleep(Duration::from_millis(200));
        hub.send("ping");
        let before = hub.until("pong");
        assert!(
            !before.iter().any(|l| l.starts_with("done")),
            "a finished ponder search waits: {before:?}"
        );
        hub.send(if hit { "ponder-hit" } else { "stop" });
        let done = hub.until("done");
        assert!(done.last().unwrap().starts_with("done move="), "{done:?}");
        // Exactly one answer: the next line is the pong of a fresh ping.
        hub.send("ping");
        assert_eq!(hub.line(), "pong");
    }
    hub.send("quit");
    assert!(hub.child.wait().unwrap().success());
}

#[test]
fn a_clock_is_never_overrun_and_a_forced_move_is_at_once() {
    let game = Game::new(Variant::Russian);
    let stop = AtomicBool::new(false);
    let mut ai = Ai::new();
    for (remaining, increment) in [(1_000, 0), (2_000, 100)] {
        let limits = Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(remaining),
                increment: Duration::from_millis(increment),
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let t = Instant::now();
        let r = ai.search(&game, &limits, &stop);
        assert!(r.best.is_some());
        assert!(
            t.elapsed() < Duration::from_millis(remaining),
            "{remaining} ms: {:?}",
            t.elapsed()
        );
    }
    // One legal move: no search.
    let forced = Game::from_fen(Variant::Russian, "W:Wc3:Bd4,h8").unwrap();
    let limits = Limits {
        clock: Some(Clock {
            remaining: Duration::from_secs(600),
            ..Clock::default()
        }),
        ..Limits::default()
    };
    let r = ai.search(&forced, &limits, &stop);
    assert_eq!(r.depth, 0);
    assert_eq!(r.best.unwrap().to_string(), "c3:e5");
}

#[test]
fn the_engine_protocol_plays_under_a_clock() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shashki"))
        .arg("engine")
        .env("SHASHKI_TABLEBASES", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"position startpos\ngo wtime 400 btime 400 winc 10 binc 10\ngo wtime 5\nquit\n")
        .unwrap();
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    assert!(out.contains("bestmove "), "{out}");
    assert!(out.contains("error go needs both wtime and btime"), "{out}");
}

#[test]
fn the_desktop_entry_and_icon_are_installed_and_removed() {
    use shashki::cli::install_cmd;
    let dir = std::env::temp_dir().join(format!("shashki-install-{}", std::process::id()));
    let exe = std::path::Path::new("/opt/my games/shashki");
    let files = install_cmd::install(&dir, exe).unwrap();
    let entry = std::fs::read_to_string(&files[0]).unwrap();
    assert!(entry.starts_with("[Desktop Entry]\n"));
    assert!(
        entry.contains("Exec=\"/opt/my games/shashki\"\n"),
        "{entry}"
    );
    assert!(entry.contains("Icon=shashki\n") && entry.contains("Categories=Game;BoardGame;"));
    let icon = std::fs::read(&files[1]).unwrap();
    assert_eq!(&icon[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width and height 256.
    assert_eq!(&icon[16..24], &[0, 0, 1, 0, 0, 0, 1, 0]);
    // 8 bits a channel, RGBA: what the window icon takes.
    assert_eq!(&icon[24..26], &[8, 6]);
    assert_eq!(install_cmd::uninstall(&dir).unwrap().len(), 2);
    assert!(!files[0].exists() && !files[1].exists());
    let _ = std::fs::remove_dir_all(&dir);
}
