//! The player's settings: language, sound, look, and the choices of the last new game.
//!
//! Every field has a default, so a file from an older version loads; a value this
//! version does not know (a theme added later, a level out of range) falls back to its
//! default alone instead of discarding the whole file.

use crate::i18n::{Lang, Text};
use crate::rules::Variant;
use serde::{Deserialize, Serialize};

/// How fast pieces glide; the game multiplies its animation times by [`AnimationSpeed::duration_scale`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum AnimationSpeed {
    /// Pieces jump to their squares at once.
    Off,
    Fast,
    #[default]
    Normal,
    Slow,
}

impl AnimationSpeed {
    pub const ALL: [AnimationSpeed; 4] = [
        AnimationSpeed::Off,
        AnimationSpeed::Fast,
        AnimationSpeed::Normal,
        AnimationSpeed::Slow,
    ];

    /// Factor on animation durations: 0 for none, 1 for normal.
    pub fn duration_scale(self) -> f32 {
        match self {
            AnimationSpeed::Off => 0.0,
            AnimationSpeed::Fast => 0.5,
            AnimationSpeed::Normal => 1.0,
            AnimationSpeed::Slow => 1.8,
        }
    }

    pub fn label(self) -> Text {
        match self {
            AnimationSpeed::Off => Text::AnimationOff,
            AnimationSpeed::Fast => Text::AnimationFast,
            AnimationSpeed::Normal => Text::AnimationNormal,
            AnimationSpeed::Slow => Text::AnimationSlow,
        }
    }
}

/// The look of the board and pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum BoardTheme {
    /// Dark walnut and light maple, the classic wooden set.
    #[default]
    Walnut,
    /// Pale birch with honey-coloured dark squares.
    Birch,
    /// Green and cream, as on tournament boards.
    Tournament,
}

impl BoardTheme {
    pub const ALL: [BoardTheme; 3] = [
        BoardTheme::Walnut,
        BoardTheme::Birch,
        BoardTheme::Tournament,
    ];

    pub fn label(self) -> Text {
        match self {
            BoardTheme::Walnut => Text::ThemeWalnut,
            BoardTheme::Birch => Text::ThemeBirch,
            BoardTheme::Tournament => Text::ThemeTournament,
        }
    }
}

/// The colour the player asks for in a new game against the computer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum ColourChoice {
    #[default]
    White,
    Black,
    Random,
}

impl ColourChoice {
    pub const ALL: [ColourChoice; 3] = [
        ColourChoice::White,
        ColourChoice::Black,
        ColourChoice::Random,
    ];

    pub fn label(self) -> Text {
        match self {
            ColourChoice::White => Text::White,
            ColourChoice::Black => Text::Black,
            ColourChoice::Random => Text::Random,
        }
    }
}

/// The kind of opponent chosen for the last new game (the level is kept separately).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum OpponentChoice {
    #[default]
    Computer,
    Human,
}

impl OpponentChoice {
    pub const ALL: [OpponentChoice; 2] = [OpponentChoice::Computer, OpponentChoice::Human];

    pub fn label(self) -> Text {
        match self {
            OpponentChoice::Computer => Text::Computer,
            OpponentChoice::Human => Text::SecondPlayerHere,
        }
    }
}

/// Shadows and smoothing; Auto lets the game choose Low on a software renderer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum GraphicsQuality {
    Low,
    High,
    #[default]
    Auto,
}

impl GraphicsQuality {
    pub const ALL: [GraphicsQuality; 3] = [
        GraphicsQuality::Low,
        GraphicsQuality::High,
        GraphicsQuality::Auto,
    ];

    pub fn label(self) -> Text {
        match self {
            GraphicsQuality::Low => Text::QualityLow,
            GraphicsQuality::High => Text::QualityHigh,
            GraphicsQuality::Auto => Text::QualityAuto,
        }
    }
}

/// Everything the player can set, saved as `settings.json`.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub language: Lang,
    /// Master volume, 0 (silent) to 1.
    pub volume: f32,
    pub muted: bool,
    pub animation_speed: AnimationSpeed,
    pub board_theme: BoardTheme,
    pub show_coordinates: bool,
    pub show_legal_moves: bool,
    pub eval_bar: bool,
    pub graphics_quality: GraphicsQuality,
    /// The choices of the last new game, offered again in the next one.
    pub last_variant: Variant,
    pub last_opponent: OpponentChoice,
    /// Computer level 1-10.
    pub last_level: u8,
    pub last_colour: ColourChoice,
    /// The time control of the last new game; `None` plays without a clock.
    pub last_time_control: Option<crate::rules::TimeControl>,
    /// The folder of the game file opened or saved last (the file dialog starts there).
    pub last_folder: Option<std::path::PathBuf>,
    /// Games against the computer, won, drawn and lost per variant and level.
    pub stats: super::stats::Statistics,
    /// The puzzles solved, by variant and position (`russian:W:Wa1,...`).
    pub puzzles_solved: Vec<String>,
    /// The window's size and place when it was last moved or resized.
    pub window: Option<WindowPlace>,
}

/// A window's size in logical pixels and its position on the desktop (physical pixels).
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub struct WindowPlace {
    pub width: f32,
    pub height: f32,
    pub x: Option<i32>,
    pub y: Option<i32>,
}

impl WindowPlace {
    /// Smallest window the game opens at.
    pub const MIN: (f32, f32) = (640.0, 400.0);

    /// This place if it is a sensible one on a screen of `screen` logical pixels: a size
    /// no smaller than [`WindowPlace::MIN`] and no larger than the screen (a damaged
    /// or foreign value is not used).
    pub fn fitting(self, screen: (f32, f32)) -> Option<WindowPlace> {
        let ok = |v: f32, min: f32, max: f32| v.is_finite() && v >= min && v <= max;
        (ok(self.width, Self::MIN.0, screen.0) && ok(self.height, Self::MIN.1, screen.1))
            .then_some(self)
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            language: Lang::En,
            volume: 0.8,
            muted: false,
            animation_speed: AnimationSpeed::Normal,
            board_theme: BoardTheme::Walnut,
            show_coordinates: true,
            show_legal_moves: true,
            eval_bar: false,
            graphics_quality: GraphicsQuality::Auto,
            last_folder: None,
            last_variant: Variant::Russian,
            last_opponent: OpponentChoice::Computer,
            last_level: 3,
            window: None,
            last_colour: ColourChoice::White,
            last_time_control: None,
            stats: super::stats::Statistics::default(),
            puzzles_solved: Vec::new(),
        }
    }
}

/// A settings text that is not a settings object at all.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("expected a JSON object of settings")]
    NotAnObject,
}

pub const MIN_LEVEL: u8 = 1;
pub const MAX_LEVEL: u8 = 10;

impl Settings {
    /// The defaults for a player who has never changed anything: in the system language.
    pub fn first_start() -> Settings {
        Settings {
            language: Lang::system(),
            ..Settings::default()
        }
    }

    /// Reads settings from JSON. Fields that are missing, unknown or of the wrong kind
    /// keep their defaults; only text that is not a JSON object is an error.
    pub fn from_json(text: &str) -> Result<Settings, SettingsError> {
        let value: serde_json::Value = serde_json::from_str(text)?;
        let serde_json::Value::Object(fields) = value else {
            return Err(SettingsError::NotAnObject);
        };
        let settings: Settings =
            match serde_json::from_value(serde_json::Value::Object(fields.clone())) {
                Ok(s) => s,
                // Some field is not understood: take the fields one at a time so that the others stay.
                Err(_) => {
                    let mut merged = match serde_json::to_value(Settings::default()) {
                        Ok(serde_json::Value::Object(m)) => m,
                        _ => serde_json::Map::new(),
                    };
                    for (key, value) in fields {
                        if !merged.contains_key(&key) {
                            continue;
                        }
                        let old = merged.insert(key.clone(), value);
                        if serde_json::from_value::<Settings>(serde_json::Value::Object(
                            merged.clone(),
                        ))
                        .is_err()
                            && let Some(old) = old
                        {
                            merged.insert(key, old);
                        }
                    }
                    serde_json::from_value(serde_json::Value::Object(merged)).unwrap_or_default()
                }
            };
        Ok(settings.sanitized())
    }

    /// Pretty JSON, so that a curious player can edit the file by hand.
    pub fn to_json(&self) -> String {
        // Serialising plain enums, numbers and booleans cannot fail; the fallback is never used.
        serde_json::to_string_pretty(&self.sanitized()).unwrap_or_else(|_| "{}".to_string())
    }

    /// The same settings with every number in its range.
    pub fn sanitized(&self) -> Settings {
        let mut s = self.clone();
        s.volume = if s.volume.is_finite() {
            s.volume.clamp(0.0, 1.0)
        } else {
            Settings::default().volume
        };
        s.last_level = s.last_level.clamp(MIN_LEVEL, MAX_LEVEL);
        s.last_time_control = s.last_time_control.filter(|tc| tc.is_valid());
        s.stats = s.stats.sanitized();
        s
    }

    /// The volume to play at: 0 when muted.
    pub fn effective_volume(&self) -> f32 {
        if self.muted {
            0.0
        } else {
            self.sanitized().volume
        }
    }
}
