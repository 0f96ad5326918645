//! Robustness: generated and mutated inputs through every parser of outside text (FEN,
//! PDN, move text, settings, saved games). None may panic; every rejection must be an
//! error value with a message, and whatever is accepted must survive its own round trip.
//!
//! The CI runs a few thousand inputs; the full run pushes a million or more:
//!
//!     cargo test --release --no-default-features --test engine fuzz -- --ignored --nocapture
//!
//! `SHASHKI_FUZZ_INPUTS` sets the count and `SHASHKI_FUZZ_SEED` the seed (a failure prints
//! the input and the seed that produced it).

use crate::pdn_files;
use shashki::rules::pdn::{decode_pdn_bytes, read_pdn, write_pdn};
use shashki::rules::{Game, Position, Variant};
use shashki::store::{Opponent, SavedGame, Settings};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// SplitMix64: small, fast and reproducible from a seed, enough to drive mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Pieces of the languages being parsed, for insertion and for generated inputs.
const TOKENS: &[&str] = &[
    "W",
    "B",
    "K",
    ":",
    ",",
    "-",
    "x",
    "X",
    ":W",
    ":B",
    "W:",
    "B:",
    "K",
    "a1",
    "c3",
    "d4",
    "h8",
    "b8",
    "g1",
    "e5",
    "i9",
    "a0",
    "1",
    "4",
    "5",
    "29",
    "32",
    "33",
    "0",
    "-1",
    "21-32",
    "1-12",
    "999999999999999999999",
    ".",
    ":H0",
    ":F1",
    "[",
    "]",
    "\"",
    "\\",
    "{",
    "}",
    "(",
    ")",
    ";",
    "$",
    "$1",
    "!",
    "?",
    "!?",
    "1.",
    "1...",
    "12.",
    "1-0",
    "0-1",
    "1/2-1/2",
    "½-½",
    "2-0",
    "0-2",
    "1-1",
    "*",
    "[Event \"",
    "[FEN \"",
    "[GameType \"25\"]",
    "[Variant \"giveaway\"]",
    "[SetUp \"1\"]",
    "[Result \"",
    "\n",
    "\r\n",
    "\t",
    " ",
    "\u{0}",
    "\u{feff}",
    "ё",
    "Ш",
    "\u{fffd}",
    "🂡",
    "\u{202e}",
    "{\"",
    "\":",
    "null",
    "true",
    "false",
    "[]",
    "{}",
    "1e309",
    "-0.0",
    "NaN",
    "\"Ru\"",
    "\"Walnut\"",
    "\"Computer\"",
    "{\"level\":",
    "\"game\":",
    "\"moves\":[",
    "\"start_fen\":\"",
    "\"redo\":[",
    "\"declared\":",
    "\"variant\":\"Giveaway\"",
];

/// Texts known to be right or nearly right, from which mutations start.
struct Corpus {
    pdn: Vec<String>,
    fen: Vec<String>,
    moves: Vec<String>,
    json: Vec<String>,
    /// Positions to parse move texts in: the start, captures pending, kings on the board.
    positions: Vec<Position>,
}

impl Corpus {
    fn all(&self) -> impl Iterator<Item = &String> {
        self.pdn
            .iter()
            .chain(&self.fen)
            .chain(&self.moves)
            .chain(&self.json)
    }
}

/// A game of `plies` pseudo-random legal moves.
fn random_game(variant: Variant, fen: Option<&str>, plies: usize, rng: &mut Rng) -> Game {
    let mut game = fen
        .and_then(|f| Game::from_fen(variant, f).ok())
        .unwrap_or_else(|| Game::new(variant));
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        let mv = *rng.pick(&moves);
        let _ = game.play(&mv);
    }
    game
}

/// Splits a PDN file into game records, so that each input is small and quick to parse.
fn pdn_records(text: &str) -> Vec<String> {
    let mut records = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("[Event") && !current.trim().is_empty() {
            records.push(std::mem::take(&mut current));
        }
        current.push_str(line);
        current.push('\n');
    }
    if !current.trim().is_empty() {
        records.push(current);
    }
    records
}

fn corpus() -> Corpus {
    let mut rng = Rng(7);
    let mut pdn = Vec::new();
    // The real game files beside the project, when present.
    let mut files = Vec::new();
    pdn_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/pdn"),
        &mut files,
    );
    files.sort();
    for file in files {
        if let Ok(bytes) = std::fs::read(&file) {
            pdn.extend(pdn_records(&decode_pdn_bytes(&bytes)));
        }
    }
    pdn.push(
        "[Event \"Test\"]\n[Result \"1-0\"]\n1. c3-d4 {a comment} f6-g5 2. g3-f4 $1 (2. b2-c3 h6-h4?) \
         b6-a5 ; rest of line\n3. d4-c5 d6:b4 4. a3:c5 1-0\n"
            .to_string(),
    );
    pdn.push(
        "[GameType \"25\"]\n[SetUp \"1\"]\n[FEN \"W:W21-32:B1-12\"]\n1. 22-18 11-15 2. 18x11 8x15 *\n"
            .to_string(),
    );

    let mut fen: Vec<String> = [
        "W:W21-32:B1-12",
        "B:W21-32:B1-12:H0:F1",
        "W:Wa1,c1,Kd4:Bb8,f8",
        "W:W21,22,K18:B1,2",
        "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
        "W:W29,30,31,32,25,26,27,21,22,23,24,16:B28,10,11,12,5,6,7,8,1,2,3,4.:H0:F1",
        "B:Wc3,d4,e3,f2,f4:Bd6,Ka5",
        "W:WKa1,Kc1:BKh8,Kf8",
        "W:W:B",
        "",
    ]
    .map(String::from)
    .to_vec();
    let mut moves: Vec<String> = [
        "c3-d4", "c3:e5", "a5:c3:e1", "22-18", "22x15", "c3xe5", "Kd4-h8", "d4:h8:e5", "1-5",
    ]
    .map(String::from)
    .to_vec();
    let mut json = vec![Settings::default().to_json(), "{}".to_string()];
    let mut positions = vec![Position::start()];
    for (i, (variant, start)) in [
        (Variant::Russian, None),
        (Variant::Giveaway, None),
        (
            Variant::Russian,
            Some("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"),
        ),
        (Variant::Russian, Some("W:WKa1,Kc1,e3:BKh8,Kf8,d6")),
        (Variant::Giveaway, Some("W:Wb4,d4,f4,a3,e3:Bc7,e7,g7,a5,c5")),
    ]
    .into_iter()
    .enumerate()
    {
        let game = random_game(variant, start, 20 + 15 * i, &mut rng);
        for ply in 0..=game.ply() {
            let Some(pos) = game.position_at(ply) else {
                continue;
            };
            fen.push(pos.to_fen());
            let legal = pos.legal_moves();
            for mv in legal.iter().take(3) {
                moves.push(mv.to_string());
                moves.push(mv.short());
                moves.push(mv.numeric());
            }
            if legal.iter().any(|m| m.is_capture()) && positions.len() < 8 {
                positions.push(*pos);
            }
        }
        positions.push(*game.position());
        pdn.push(write_pdn(&game, &[("Event".into(), format!("Fuzz {i}"))]));
        let opponent = if i % 2 == 0 {
            Opponent::Human
        } else {
            Opponent::Computer { level: i as u8 }
        };
        let mut saved = SavedGame::new(game, opponent, shashki::rules::Color::Black);
        saved.game.undo();
        json.push(saved.to_json());
    }
    // Texts of the moves in the positions that move texts are parsed in.
    for pos in &positions {
        for mv in pos.legal_moves().iter() {
            moves.push(mv.to_string());
            moves.push(mv.numeric());
        }
    }
    let custom = Settings {
        volume: 0.3,
        last_level: 9,
        ..Settings::default()
    };
    json.push(custom.to_json());
    Corpus {
        pdn,
        fen,
        moves,
        json,
        positions,
    }
}

/// One mutation of `bytes`, drawing material from the corpus.
fn mutate(bytes: &mut Vec<u8>, corpus: &[&String], rng: &mut Rng) {
    let len = bytes.len();
    let at = if len == 0 { 0 } else { rng.below(len + 1) };
    match rng.below(9) {
        0 if len > 0 => {
            let i = rng.below(len);
            bytes[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            bytes[i] = *rng.pick(b" :,-xKWB0123456789abcdefgh.[]\"{}\n\\\x00\xff\xd0\xb5");
        }
        2 | 3 => {
            let token = rng.pick(TOKENS).as_bytes();
            bytes.splice(at..at, token.iter().copied());
        }
        4 if len > 0 => {
            let end = (at + 1 + rng.below(16)).min(len);
            bytes.drain(at.min(end)..end);
        }
        5 if len > 0 => {
            let start = rng.below(len);
            let end = (start + 1 + rng.below(64)).min(len);
            let copy = bytes[start..end].to_vec();
            bytes.splice(at..at, copy);
        }
        6 => {
            let other = rng.pick(corpus).as_bytes();
            if !other.is_empty() {
                let start = rng.below(other.len());
                let end = (start + 1 + rng.below(200)).min(other.len());
                let cut = (at + rng.below(32)).min(len);
                bytes.splice(at.min(cut)..cut, other[start..end].iter().copied());
            }
        }
        7 => bytes.truncate(at),
        _ => {
            // Replace a run of digits by an extreme number.
            if let Some(i) = (0..len)
                .map(|k| (at + k) % len)
                .find(|&i| bytes[i].is_ascii_digit())
            {
                let mut end = i;
                while end < len && bytes[end].is_ascii_digit() {
                    end += 1;
                }
                let n = *rng.pick(&[
                    "0",
                    "33",
                    "65",
                    "255",
                    "256",
                    "4294967296",
                    "18446744073709551616",
                ]);
                bytes.splice(i..end, n.bytes());
            }
        }
    }
}

/// For JSON texts: changes one value deep inside (a move text, a level, a whole field),
/// so that the result is still JSON and reaches the checks behind the JSON parser.
fn mutate_json(text: &str, corpus: &[&String], rng: &mut Rng) -> Option<Vec<u8>> {
    let mut value: serde_json::Value = serde_json::from_str(text).ok()?;
    for _ in 0..1 + rng.below(3) {
        mutate_value(&mut value, corpus, rng);
    }
    serde_json::to_vec(&value).ok()
}

fn mutate_value(value: &mut serde_json::Value, corpus: &[&String], rng: &mut Rng) {
    use serde_json::Value;
    // Walk down to a random node, stopping early now and then.
    let mut node = value;
    loop {
        let children = match node {
            Value::Array(a) => a.len(),
            Value::Object(o) => o.len(),
            _ => 0,
        };
        if children == 0 || rng.chance(25) {
            break;
        }
        let k = rng.below(children);
        node = match node {
            Value::Array(a) => &mut a[k],
            Value::Object(o) => match o.values_mut().nth(k) {
                Some(v) => v,
                None => return,
            },
            _ => return,
        };
    }
    match (rng.below(6), &mut *node) {
        (0 | 1, Value::String(s)) => {
            let mut bytes = s.clone().into_bytes();
            mutate(&mut bytes, corpus, rng);
            *s = String::from_utf8_lossy(&bytes).into_owned();
        }
        (2, Value::Array(a)) if !a.is_empty() => {
            let i = rng.below(a.len());
            if rng.chance(50) {
                a.remove(i);
            } else {
                let copy = a[i].clone();
                a.insert(rng.below(a.len() + 1), copy);
            }
        }
        (3, Value::Object(o)) if !o.is_empty() => {
            let key = o
                .keys()
                .nth(rng.below(o.len()))
                .cloned()
                .unwrap_or_default();
            o.remove(&key);
        }
        _ => {
            *node = match rng.below(7) {
                0 => Value::Null,
                1 => Value::Bool(rng.chance(50)),
                2 => Value::from(rng.next() as i64 >> rng.below(64)),
                3 => Value::from(f64::from_bits(rng.next()).clamp(-1e300, 1e300)),
                4 => Value::from(*rng.pick(TOKENS)),
                5 => Value::Array(vec![Value::from(rng.below(40))]),
                _ => serde_json::json!({ "level": rng.below(300) }),
            };
        }
    }
}

/// A new input from scratch: a soup of tokens, or a FEN-shaped or move-shaped string.
fn generate(rng: &mut Rng) -> String {
    let square = |rng: &mut Rng| -> String {
        if rng.chance(50) {
            let file = (b'a' + rng.below(9) as u8) as char;
            format!("{file}{}", rng.below(10))
        } else {
            rng.below(35).to_string()
        }
    };
    match rng.below(3) {
        0 => (0..1 + rng.below(30)).map(|_| *rng.pick(TOKENS)).collect(),
        1 => {
            let mut s = format!("{}:", *rng.pick(&["W", "B", "w", "", "X"]));
            for side in ["W", "B"] {
                s.push_str(side);
                for k in 0..rng.below(14) {
                    if k > 0 {
                        let separator = *rng.pick(&[",", ",", ",", "-", ";", ""]);
                        s.push_str(separator);
                    }
                    if rng.chance(20) {
                        s.push('K');
                    }
                    s.push_str(&square(rng));
                }
                s.push(':');
            }
            s
        }
        _ => {
            let mut s = square(rng);
            for _ in 0..rng.below(6) {
                let separator = *rng.pick(&["-", ":", "x", "X", "", " "]);
                s.push_str(separator);
                s.push_str(&square(rng));
            }
            s
        }
    }
}

/// What the parsers accepted, to show that the run reached past the first error.
#[derive(Default)]
struct Tally {
    inputs: AtomicU64,
    fen: AtomicU64,
    pdn_games: AtomicU64,
    moves: AtomicU64,
    settings: AtomicU64,
    saves: AtomicU64,
    slowest_us: AtomicU64,
}

fn expect_message(what: &str, message: String, input: &str) {
    assert!(
        !message.trim().is_empty(),
        "{what} rejected {input:?} without a message"
    );
}

/// Every parser on one input; panics (caught by the caller) on a broken property.
fn check(input: &str, bytes: &[u8], corpus: &Corpus, tally: &Tally) {
    let _ = decode_pdn_bytes(bytes);

    match Position::from_fen(input) {
        Ok(pos) => {
            tally.fen.fetch_add(1, Ordering::Relaxed);
            assert_eq!(
                Position::from_fen(&pos.to_fen()).as_ref(),
                Ok(&pos),
                "FEN round trip of {input:?}"
            );
        }
        Err(e) => expect_message("FEN", e.to_string(), input),
    }

    for pos in &corpus.positions {
        match pos.parse_move(input) {
            Ok(mv) => {
                tally.moves.fetch_add(1, Ordering::Relaxed);
                let _ = pos.play(&mv);
                assert!(
                    pos.parse_move(&mv.to_string()).is_ok(),
                    "move text of {input:?}"
                );
            }
            Err(e) => expect_message("move text", e.to_string(), input),
        }
    }

    for game in read_pdn(input) {
        match game {
            Ok(game) => {
                tally.pdn_games.fetch_add(1, Ordering::Relaxed);
                let again = read_pdn(&game.to_pdn());
                assert!(
                    matches!(again.first(), Some(Ok(g)) if g.game.position() == game.game.position()),
                    "PDN written from {input:?} does not read back: {:?}",
                    again.first()
                );
            }
            Err(e) => expect_message("PDN", e.to_string(), input),
        }
    }

    match Settings::from_json(input) {
        Ok(settings) => {
            tally.settings.fetch_add(1, Ordering::Relaxed);
            assert_eq!(
                Settings::from_json(&settings.to_json()).ok(),
                Some(settings.sanitized())
            );
        }
        Err(e) => expect_message("settings", e.to_string(), input),
    }

    match SavedGame::from_json(input) {
        Ok(saved) => {
            tally.saves.fetch_add(1, Ordering::Relaxed);
            assert_eq!(
                SavedGame::from_json(&saved.to_json()).ok().as_ref(),
                Some(&saved)
            );
        }
        Err(e) => expect_message("saved game", e.to_string(), input),
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().replace('_', "").parse().ok())
        .unwrap_or(default)
}

/// Runs `count` inputs on all cores; returns the tally.
fn run(count: u64, seed: u64) -> Tally {
    let corpus = corpus();
    let sources: Vec<&String> = corpus.all().collect();
    let tally = Tally::default();
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(16) as u64;
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (corpus, sources, tally) = (&corpus, &sources, &tally);
            scope.spawn(move || {
                let thread_seed = seed ^ (t + 1).wrapping_mul(0xA24B_AED4_963E_E407);
                let mut rng = Rng(thread_seed);
                let mut done = t;
                while done < count {
                    let mut bytes = if rng.chance(15) {
                        generate(&mut rng).into_bytes()
                    } else {
                        // Each kind equally often, whatever the size of its corpus.
                        let kind: &[String] = match rng.below(4) {
                            0 => &corpus.pdn,
                            1 => &corpus.fen,
                            2 => &corpus.moves,
                            _ => &corpus.json,
                        };
                        let source = rng.pick(kind);
                        let structured = if rng.chance(60) {
                            mutate_json(source, sources, &mut rng)
                        } else {
                            None
                        };
                        structured.unwrap_or_else(|| {
                            let mut b = source.as_bytes().to_vec();
                            for _ in 0..rng.below(5) {
                                mutate(&mut b, sources, &mut rng);
                            }
                            b
                        })
                    };
                    if bytes.len() > 1 << 16 {
                        bytes.truncate(1 << 16);
                    }
                    let input = if rng.chance(20) {
                        decode_pdn_bytes(&bytes)
                    } else {
                        String::from_utf8_lossy(&bytes).into_owned()
                    };
                    let started = Instant::now();
                    let result =
                        catch_unwind(AssertUnwindSafe(|| check(&input, &bytes, corpus, tally)));
                    if result.is_err() {
                        panic!("input {done} (seed {seed}, thread {t}) broke a parser: {input:?}");
                    }
                    let us = started.elapsed().as_micros() as u64;
                    tally.slowest_us.fetch_max(us, Ordering::Relaxed);
                    tally.inputs.fetch_add(1, Ordering::Relaxed);
                    done += threads;
                }
            });
        }
    });
    tally
}

fn report(tally: &Tally, elapsed: Duration) -> String {
    let n = |a: &AtomicU64| a.load(Ordering::Relaxed);
    format!(
        "fuzz: {} inputs through FEN, PDN, move text, settings and saved-game parsers in {:.1} s: \
         no panic, every rejection an error with a message; accepted FEN {}, PDN games {}, \
         moves {}, settings {}, saved games {}; slowest input {:.1} ms",
        n(&tally.inputs),
        elapsed.as_secs_f64(),
        n(&tally.fen),
        n(&tally.pdn_games),
        n(&tally.moves),
        n(&tally.settings),
        n(&tally.saves),
        n(&tally.slowest_us) as f64 / 1000.0
    )
}

/// The CI's share: a few thousand inputs.
#[test]
fn fuzz_parsers_quick() {
    let count = env_number("SHASHKI_FUZZ_QUICK_INPUTS", 3000);
    let started = Instant::now();
    let tally = run(count, env_number("SHASHKI_FUZZ_SEED", 1));
    assert_eq!(tally.inputs.load(Ordering::Relaxed), count);
    println!("{}", report(&tally, started.elapsed()));
}

/// The full run: a million inputs by default (minutes in release).
#[test]
#[ignore = "long: run with --release -- --ignored"]
fn fuzz_parsers_million() {
    let count = env_number("SHASHKI_FUZZ_INPUTS", 1_000_000);
    let started = Instant::now();
    let tally = run(count, env_number("SHASHKI_FUZZ_SEED", 2026));
    assert_eq!(tally.inputs.load(Ordering::Relaxed), count);
    println!("{}", report(&tally, started.elapsed()));
}
