//! The game in progress, saved after every move so that "Continue" brings it back.
//!
//! The game is stored as its start position and move texts (see [`crate::rules::game::GameRecord`]);
//! loading replays them, so a file edited into an illegal game is refused rather than
//! loaded into an impossible position, and the draw counters come back exactly.

use crate::rules::{Color, Game, GameClock, Variant};
use serde::{Deserialize, Serialize};

/// Who plays against the player at this computer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Opponent {
    /// Two people at one computer.
    Human,
    /// The computer at a level from 1 to 10.
    Computer { level: u8 },
}

impl Opponent {
    /// The computer's level, if the opponent is the computer.
    pub fn level(self) -> Option<u8> {
        match self {
            Opponent::Human => None,
            Opponent::Computer { level } => Some(level),
        }
    }
}

/// Version of the file layout; a later version can read older ones by it.
pub const SAVE_FORMAT: u32 = 1;

/// A game to continue, with who plays what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedGame {
    #[serde(default = "save_format")]
    pub format: u32,
    /// Moves, undone moves that can be redone, and a resignation or agreed draw.
    pub game: Game,
    #[serde(default = "default_opponent")]
    pub opponent: Opponent,
    /// The colour of the player at the bottom of the board (the one the computer plays against).
    #[serde(default = "default_colour")]
    pub human_colour: Color,
    /// Seconds since 1970 when saved, to show "saved 5 minutes ago"; 0 when unknown.
    #[serde(default)]
    pub saved_at: u64,
    /// The chess clock of a game with a time control: both players' time after every ply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<GameClock>,
}

fn save_format() -> u32 {
    SAVE_FORMAT
}

fn default_opponent() -> Opponent {
    Opponent::Computer { level: 3 }
}

fn default_colour() -> Color {
    Color::White
}

/// A saved-game text that cannot be continued.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// Not JSON, not a saved game, or its moves do not replay (the message says which move).
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    #[error("saved by a newer version (format {0}, this version reads up to {SAVE_FORMAT})")]
    NewerFormat(u32),
    #[error("the game's clock: {0}")]
    Clock(#[from] crate::rules::clock::ClockError),
}

impl SavedGame {
    /// A game to save now, stamped with the current time.
    pub fn new(game: Game, opponent: Opponent, human_colour: Color) -> SavedGame {
        let saved_at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        SavedGame {
            format: SAVE_FORMAT,
            game,
            opponent,
            human_colour,
            saved_at,
            clock: None,
        }
    }

    /// The same game with its clock.
    pub fn with_clock(mut self, clock: Option<GameClock>) -> SavedGame {
        self.clock = clock;
        self
    }

    pub fn variant(&self) -> Variant {
        self.game.variant()
    }

    /// The colour the computer plays, if it plays.
    pub fn computer_colour(&self) -> Option<Color> {
        match self.opponent {
            Opponent::Human => None,
            Opponent::Computer { .. } => Some(self.human_colour.opposite()),
        }
    }

    /// Reads a saved game; the level is brought into 1-10.
    pub fn from_json(text: &str) -> Result<SavedGame, SaveError> {
        let mut saved: SavedGame = serde_json::from_str(text)?;
        if saved.format > SAVE_FORMAT {
            return Err(SaveError::NewerFormat(saved.format));
        }
        if let Opponent::Computer { level } = &mut saved.opponent {
            *level = (*level).clamp(1, 10);
        }
        if let Some(clock) = &saved.clock {
            let plies = saved.game.ply() + saved.game.redo_moves().len();
            clock.validate(plies)?;
        }
        Ok(saved)
    }

    pub fn to_json(&self) -> String {
        // A game serialises to strings and enums only, so this cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_else(|_| "{}".to_string())
    }
}
