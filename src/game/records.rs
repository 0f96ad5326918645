//! The game on the board as PDN and FEN, and games read back from PDN text, for the
//! file and clipboard commands.

use super::rules::{Player, Rules};
use crate::i18n::Lang;
use crate::rules::clock::pdn_clock;
use crate::rules::pdn::{MoveNote, PdnGame, read_pdn, read_pdn_file, write_pdn_annotated};
use crate::rules::{FenError, Position};
use std::path::Path;

/// The games read from a text, and what could not be read, in the player's words.
#[derive(Debug, Default)]
pub struct Loaded {
    pub games: Vec<PdnGame>,
    pub errors: Vec<String>,
}

/// The whole game as PDN, including moves stepped back over in review (and a declared
/// result set aside while reviewing).
pub fn pdn_of(rules: &Rules) -> String {
    let game = rules.full_game();
    let name = |player: Player| match player {
        Player::Human => "Human".to_string(),
        Player::Computer(level) => format!("Shashki level {}", level.number()),
    };
    let mut tags = vec![
        ("Event".to_string(), "Shashki game".to_string()),
        ("Date".to_string(), today()),
        ("White".to_string(), name(rules.setup.white)),
        ("Black".to_string(), name(rules.setup.black)),
    ];
    if let Some(opening) = crate::rules::openings::book().name_of(&game) {
        tags.push(("Opening".to_string(), opening.name_ru.clone()));
    }
    // Under a clock: the control, and the mover's time after each move as `[%clk]`.
    let mut notes = Vec::new();
    if let Some(clock) = &rules.clock {
        tags.push(("TimeControl".to_string(), clock.control.pdn()));
        for ply in 0..game.ply() {
            let Some(mover) = game.position_at(ply).map(|p| p.side_to_move()) else {
                break;
            };
            notes.push(MoveNote {
                comment: Some(pdn_clock(clock.remaining(mover, ply + 1, mover.opposite()))),
                ..MoveNote::default()
            });
        }
    }
    write_pdn_annotated(&game, &tags, &notes)
}

/// A position from FEN text (surrounding blanks and a trailing full stop are ignored, as
/// pasted text often has them).
pub fn position_from_fen(text: &str) -> Result<Position, FenError> {
    let text = text.trim();
    let text = text.strip_suffix('.').unwrap_or(text);
    Position::from_fen(text)
}

/// Every game of a PDN text; games that cannot be read are reported with their line and
/// column.
pub fn read_games(text: &str, lang: Lang) -> Loaded {
    collect(read_pdn(text), lang)
}

/// Every game of a PDN file (any of the usual encodings).
pub fn read_games_file(path: &Path, lang: Lang) -> std::io::Result<Loaded> {
    read_pdn_file(path).map(|games| collect(games, lang))
}

fn collect(results: Vec<Result<PdnGame, crate::rules::pdn::PdnError>>, lang: Lang) -> Loaded {
    let mut loaded = Loaded::default();
    for (i, result) in results.into_iter().enumerate() {
        match result {
            Ok(game) => loaded.games.push(game),
            Err(e) => loaded.errors.push(match lang {
                Lang::En => format!(
                    "Game {}: line {}, column {}: {}",
                    i + 1,
                    e.line,
                    e.column,
                    e.message
                ),
                Lang::Ru => format!(
                    "Партия {}: строка {}, столбец {}: {}",
                    i + 1,
                    e.line,
                    e.column,
                    e.message
                ),
            }),
        }
    }
    loaded
}

/// One line naming a game in a list: "3. Ivanov – Petrov, 1-0 (Moscow 1985)".
pub fn game_title(index: usize, game: &PdnGame) -> String {
    let tag = |name| game.tag(name).filter(|v| !v.is_empty() && *v != "?");
    let white = tag("White").unwrap_or("?");
    let black = tag("Black").unwrap_or("?");
    let result = game.result.as_deref().unwrap_or("*");
    let mut title = format!("{}. {white} – {black}, {result}", index + 1);
    let place: Vec<&str> = ["Event", "Date"].into_iter().filter_map(tag).collect();
    if !place.is_empty() {
        title.push_str(&format!(" ({})", place.join(", ")));
    }
    title
}

/// Today's date as PDN writes it (YYYY.MM.DD), from the system clock.
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Days since 1970-01-01 to a civil date (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}
