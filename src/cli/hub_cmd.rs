//! `shashki hub`: the engine behind Scan's Hub protocol (version 2), as pydraughts and
//! lidraughts-bot drive it. The formats are in [`crate::ai::hub`]; README.md lists the
//! commands.
//!
//! Searches run on their own thread while this one reads the input, so that `ping`,
//! `stop` and `ponder-hit` are answered during a search. `ponder-hit` ends the ponder
//! search quietly and starts the real one on the same position: its table is warm, so
//! the depths reached while pondering come back at once, and the clock's share is
//! measured from the hit. Any other command that arrives during a search stops it first.

use super::ai_cmd::spawn_search;
use crate::ai::hub::{self, Line};
use crate::ai::{Ai, Limits, SearchResult};
use crate::rules::{Game, Variant};
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Instant;

/// The names a `variant` parameter takes: pydraughts' and lidraughts' for Russian
/// draughts, and ours for поддавки.
const VARIANTS: [(&str, Variant); 4] = [
    ("russian", Variant::Russian),
    ("giveaway", Variant::Giveaway),
    ("poddavki", Variant::Giveaway),
    ("russian-giveaway", Variant::Giveaway),
];

struct Search {
    stop: Arc<AtomicBool>,
    /// Set before stopping a ponder search that `ponder-hit` replaces: no `done` then.
    quiet: Arc<AtomicBool>,
    ponder: bool,
    handle: JoinHandle<Ai>,
}

struct Hub {
    variant: Variant,
    game: Option<Game>,
    level: hub::Level,
    ai: Option<Ai>,
    threads: usize,
    hash: usize,
    tablebases: bool,
    /// Answers `go think` from the opening book where it holds the position.
    book: bool,
    /// Centi-men a draw costs the engine's side when it plays (`go think`, pondering);
    /// `go analyze` always scores a draw 0.
    contempt: i32,
    /// Varies the book's choice: taken from the clock at start, one more at each search.
    seed: u64,
    running: Option<Search>,
}

/// An integer parameter's value, within `range` (`unit` follows the range in the error).
fn whole<T>(
    name: &str,
    value: &str,
    range: std::ops::RangeInclusive<T>,
    unit: &str,
) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    value
        .parse()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            format!(
                "{name}={value} is not {}-{}{unit}",
                range.start(),
                range.end()
            )
        })
}

/// A boolean parameter's value.
fn switch(name: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(format!("{name}={value} is not true or false")),
    }
}

fn say(line: &str) {
    println!("{line}");
}

fn error(message: &str) {
    say(&format!("error message={}", hub::quote(message)));
}

impl Hub {
    fn ai(&mut self) -> &mut Ai {
        self.ai.get_or_insert_with(Ai::new)
    }

    /// Waits for the running search, stopping it first when `stop`, and takes the
    /// engine back.
    fn finish(&mut self, stop: bool) {
        if let Some(s) = self.running.take() {
            if stop {
                s.stop.store(true, Ordering::Relaxed);
            }
            self.ai = Some(s.handle.join().unwrap_or_default());
        }
    }

    /// Drops a search that has ended on its own.
    fn reap(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|s| s.handle.is_finished())
        {
            self.finish(false);
        }
    }

    fn describe(&self) {
        say(&format!(
            "id name=Shashki version={} author={} country=Russia",
            env!("CARGO_PKG_VERSION"),
            hub::quote("Shashki authors")
        ));
        let names: Vec<&str> = VARIANTS.iter().map(|(n, _)| *n).collect();
        say(&format!(
            "param name=variant value={} type=enum values={}",
            variant_name(self.variant),
            hub::quote(&names[..2].join(" "))
        ));
        say(&format!(
            "param name=threads value={} type=int min=1 max=256",
            self.threads
        ));
        say(&format!(
            "param name=hash value={} type=int min=1 max=4096",
            self.hash
        ));
        say(&format!(
            "param name=tablebases value={} type=bool",
            self.tablebases
        ));
        say(&format!("param name=book value={} type=bool", self.book));
        say(&format!(
            "param name=contempt value={} type=int min=0 max=100",
            self.contempt
        ));
        say("wait");
    }

    fn set_param(&mut self, line: &Line) -> Result<(), String> {
        let (Some(name), Some(value)) = (line.get("name"), line.get("value")) else {
            return Err("set-param needs name=... value=...".into());
        };
        match name {
            "variant" => {
                self.variant = VARIANTS
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(value))
                    .map(|(_, v)| *v)
                    .ok_or_else(|| format!("variant {value} is not russian or giveaway"))?;
                if let Some(g) = self.game.as_mut() {
                    g.set_variant(self.variant);
                }
            }
            "threads" => {
                self.threads = whole(name, value, 1..=256, "")?;
                let n = self.threads;
                self.ai().set_threads(n);
            }
            "hash" => {
                self.hash = whole(name, value, 1..=4096, " (MiB)")?;
                let mib = self.hash;
                self.ai().set_table_mib(mib);
            }
            "tablebases" => {
                self.tablebases = switch(name, value)?;
                let on = self.tablebases;
                self.ai().set_use_tablebases(on);
            }
            "book" => {
                self.book = switch(name, value)?;
                let on = self.book;
                self.ai().set_book(on);
            }
            "contempt" => {
                self.contempt = whole(name, value, 0..=100, " (centi-men)")?;
            }
            // Parameters of other engines are ignored, as the protocol says.
            _ => {}
        }
        Ok(())
    }

    fn go(&mut self, line: &Line) -> Result<(), String> {
        let Some(game) = self.game.clone() else {
            return Err("no position: send pos first".into());
        };
        if game.position().legal_moves().is_empty() {
            error("the side to move has no legal move");
            say(&done(&SearchResult::default()));
            return Ok(());
        }
        // A position a draw rule has ended is still searched when the client asks for a
        // move (its rules may not count the same way), from the position alone.
        let game = if game.outcome().is_some() {
            Game::from_position(game.variant(), *game.position())
        } else {
            game
        };
        let ponder = line.has("ponder");
        // A ponder search runs until ponder-hit or stop.
        let limits = if ponder {
            Limits::default()
        } else {
            self.level.limits()
        };
        // Only a move to play comes from the book: never an analysis or a ponder search.
        // Contempt applies to play (and pondering for it), never to analysis.
        let play = !line.has("analyze");
        self.start(game, limits, ponder, line.has("think"), play);
        Ok(())
    }

    fn start(&mut self, game: Game, limits: Limits, ponder: bool, book: bool, play: bool) {
        let mut ai = self.ai.take().unwrap_or_default();
        ai.set_contempt(if play { self.contempt } else { 0 });
        self.seed = self.seed.wrapping_add(1);
        let book = if book && !ponder {
            ai.book_move(&game, self.seed)
        } else {
            None
        };
        let stop = Arc::new(AtomicBool::new(false));
        let quiet = Arc::new(AtomicBool::new(false));
        let (flag, hush) = (Arc::clone(&stop), Arc::clone(&quiet));
        let handle = spawn_search(move || {
            let start = Instant::now();
            let mut told = false;
            let r = match book {
                // A book move is answered at once: one line gives its value.
                Some(b) => SearchResult {
                    best: Some(b.mv),
                    score: b.score,
                    pv: vec![b.mv],
                    ..SearchResult::default()
                },
                None => ai.search_with_info(&game, &limits, &flag, &mut |r| {
                    if !hush.load(Ordering::Relaxed) {
                        say(&info(r, start));
                        told = true;
                    }
                }),
            };
            // A ponder search that ends by itself (a forced move, a proven result) keeps
            // its `done` until `stop` or `ponder-hit`: an early one would be taken by the
            // client as the answer to its next `go`.
            while ponder && !flag.load(Ordering::Relaxed) && !hush.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            if !hush.load(Ordering::Relaxed) {
                // A forced move is answered without a search: one line says so.
                if !told {
                    say(&info(&r, start));
                }
                say(&done(&r));
            }
            ai
        });
        self.running = Some(Search {
            stop,
            quiet,
            ponder,
            handle,
        });
    }

    fn ponder_hit(&mut self) {
        if !self.running.as_ref().is_some_and(|s| s.ponder) {
            return;
        }
        if let Some(s) = &self.running {
            s.quiet.store(true, Ordering::Relaxed);
        }
        self.finish(true);
        if let Some(game) = self.game.clone() {
            let limits = self.level.limits();
            self.start(game, limits, false, true, true);
        }
    }

    /// Handles one line; false on `quit`.
    fn command(&mut self, text: &str) -> bool {
        self.reap();
        let line = match hub::parse_line(text) {
            Ok(Some(line)) => line,
            Ok(None) => return true,
            Err(e) => {
                error(&e);
                return true;
            }
        };
        let searching = self.running.is_some();
        match line.command.as_str() {
            "ping" => say("pong"),
            "stop" => self.finish(true),
            "ponder-hit" => self.ponder_hit(),
            "quit" => {
                self.finish(true);
                return false;
            }
            // Any other command of the protocol ends a search first.
            "hub" | "set-param" | "init" | "new-game" | "pos" | "level" | "go" if searching => {
                self.finish(true);
                return self.command(text);
            }
            "hub" => self.describe(),
            "set-param" => {
                if let Err(e) = self.set_param(&line) {
                    error(&e);
                }
            }
            "init" => {
                crate::ai::tablebase::preload_or_solve(&[self.variant]);
                say("ready");
            }
            "new-game" => self.ai().clear(),
            "pos" => {
                let Some(pos) = line.get("pos") else {
                    error("pos needs pos=...");
                    return true;
                };
                match hub::parse_game(self.variant, pos, line.get("moves")) {
                    Ok(g) => self.game = Some(g),
                    Err(e) => {
                        self.game = None;
                        error(&e);
                    }
                }
            }
            "level" => match hub::parse_level(&line) {
                Ok(l) => self.level = l,
                Err(e) => error(&e),
            },
            "go" => {
                if let Err(e) = self.go(&line) {
                    error(&e);
                }
            }
            // Unknown commands are ignored, as the protocol says.
            _ => {}
        }
        true
    }
}

fn variant_name(v: Variant) -> &'static str {
    match v {
        Variant::Russian => "russian",
        Variant::Giveaway => "giveaway",
    }
}

fn info(r: &SearchResult, start: Instant) -> String {
    let secs = start.elapsed().as_secs_f64();
    let pv: Vec<String> = r.pv.iter().map(hub::move_text).collect();
    format!(
        "info depth={} score={} nodes={} time={:.3} nps={:.2} pv={}",
        r.depth,
        hub::score_text(r.score),
        r.nodes,
        secs,
        r.nodes as f64 / secs.max(1e-6) / 1e6,
        hub::quote(&pv.join(" "))
    )
}

fn done(r: &SearchResult) -> String {
    let Some(best) = r.best else {
        return "done".into();
    };
    let mut s = format!("done move={}", hub::move_text(&best));
    if let Some(reply) = r.pv.get(1) {
        s.push_str(&format!(" ponder={}", hub::move_text(reply)));
    }
    s
}

pub fn run() -> Result<(), String> {
    let mut hub = Hub {
        variant: Variant::Russian,
        game: None,
        level: hub::Level {
            move_time: Some(std::time::Duration::from_secs(1)),
            ..hub::Level::default()
        },
        ai: None,
        threads: 1,
        hash: crate::ai::DEFAULT_TABLE_MIB,
        tablebases: true,
        book: true,
        contempt: crate::ai::protocol::DEFAULT_CONTEMPT,
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
        running: None,
    };
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if !hub.command(&line) {
            return Ok(());
        }
    }
    // The input closed: the client is gone.
    hub.finish(true);
    Ok(())
}
