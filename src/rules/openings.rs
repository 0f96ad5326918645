//! The named openings of Russian draughts (`assets/openings/russian.tsv`, embedded): a
//! game's opening by name, and the lines the computer may follow.
//!
//! Each line of the table is a sequence of moves from the start position; the position
//! it ends in is the opening's position. A game is named after the last such position it
//! has reached (with transpositions: any move order that reaches it counts). Only
//! Russian games from the start position have an opening name; поддавки has no such
//! classification.

use super::game::{Game, Variant};
use super::mv::Move;
use super::position::Position;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The table as shipped.
const TABLE: &str = include_str!("../../assets/openings/russian.tsv");

/// One named opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub name_ru: String,
    pub name_en: String,
    /// How often the computer below its top level follows this line (0: never).
    pub weight: u32,
    pub moves: Vec<Move>,
    /// Where the line was published.
    pub source: String,
}

/// The openings and the position each one ends in.
#[derive(Debug)]
pub struct Book {
    pub openings: Vec<Opening>,
    by_position: HashMap<Position, usize>,
}

/// Reads a table in the format of `assets/openings/russian.tsv`; the error names the line.
pub fn read_table(text: &str) -> Result<Book, String> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |m: String| format!("openings line {}: {m}", i + 1);
        let fields: Vec<&str> = line.split('\t').collect();
        let [ru, en, weight, moves, source] = fields[..] else {
            return Err(at(format!("expected 5 fields, found {}", fields.len())));
        };
        let weight = weight
            .parse()
            .map_err(|_| at(format!("weight '{weight}' is not a number")))?;
        let mut game = Game::new(Variant::Russian);
        for text in moves.split_whitespace() {
            game.play_text(text)
                .map_err(|e| at(format!("move '{text}': {e}")))?;
        }
        if game.moves().is_empty() {
            return Err(at("no moves".into()));
        }
        openings.push(Opening {
            name_ru: ru.to_string(),
            name_en: en.to_string(),
            weight,
            moves: game.moves().to_vec(),
            source: source.to_string(),
        });
    }
    let mut by_position = HashMap::new();
    for (i, o) in openings.iter().enumerate() {
        let mut game = Game::new(Variant::Russian);
        for mv in &o.moves {
            // Replayed once above: cannot fail.
            let _ = game.play(mv);
        }
        // The first line listed for a position names it.
        by_position.entry(*game.position()).or_insert(i);
    }
    Ok(Book {
        openings,
        by_position,
    })
}

/// The shipped table (checked by a test, so it always reads).
pub fn book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| {
        read_table(TABLE).unwrap_or_else(|_| Book {
            openings: Vec::new(),
            by_position: HashMap::new(),
        })
    })
}

/// Whether a game can have an opening name: Russian, from the start position.
fn classified(game: &Game) -> bool {
    game.variant() == Variant::Russian && *game.start_position() == Position::start()
}

impl Book {
    /// The opening of `game` up to its current move: the last named position reached.
    pub fn name_of(&self, game: &Game) -> Option<&Opening> {
        if !classified(game) {
            return None;
        }
        (1..=game.ply())
            .rev()
            .filter_map(|ply| game.position_at(ply))
            .find_map(|p| self.by_position.get(p))
            .map(|&i| &self.openings[i])
    }

    /// The moves that continue a line of the table from the game's current position
    /// (which must be reached by the line's own moves), with their weights summed.
    pub fn continuations(&self, game: &Game) -> Vec<(Move, u32)> {
        let mut out: Vec<(Move, u32)> = Vec::new();
        if !classified(game) || game.outcome().is_some() {
            return out;
        }
        let played = game.moves();
        for o in self.openings.iter().filter(|o| o.weight > 0) {
            if o.moves.len() > played.len() && o.moves.starts_with(played) {
                let next = o.moves[played.len()];
                match out.iter_mut().find(|(m, _)| *m == next) {
                    Some((_, w)) => *w += o.weight,
                    None => out.push((next, o.weight)),
                }
            }
        }
        out
    }
}
