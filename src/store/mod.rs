//! Files kept between runs: the player's settings and the game in progress.
//!
//! Writes are atomic (a temporary file in the same folder, flushed to disk, then renamed
//! over the old one), so a crash leaves either the old file or the new one. A file that
//! cannot be understood never stops the game: loading gives defaults and a [`Notice`]
//! for the player, and the damaged file is kept beside it as `.bak`.

pub mod save;
pub mod settings;
pub mod stats;

pub use save::{Opponent, SaveError, SavedGame};
pub use settings::{
    AnimationSpeed, BoardTheme, ColourChoice, GraphicsQuality, OpponentChoice, Settings,
    SettingsError,
};
pub use stats::{Statistics, Tally};

use crate::i18n::Lang;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable that puts every file of the game in one folder (tests, portable use).
pub const HOME_VAR: &str = "SHASHKI_HOME";

const SETTINGS_FILE: &str = "settings.json";
const SAVE_FILE: &str = "game.json";

/// Files larger than this are not games or settings; refusing them keeps memory bounded.
const MAX_FILE_BYTES: u64 = 16 << 20;

/// Where the game keeps its files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store {
    config_dir: PathBuf,
    data_dir: PathBuf,
}

/// Which of the game's files a [`Notice`] is about.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FileKind {
    Settings,
    SavedGame,
}

/// Something the player should hear about a file, shown once as a line of text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Notice {
    /// The file could not be understood; it was moved to `backup` (if that worked).
    Damaged {
        kind: FileKind,
        path: PathBuf,
        backup: Option<PathBuf>,
        error: String,
    },
    /// The file exists but could not be read (permissions, disk); it was left alone.
    Unreadable {
        kind: FileKind,
        path: PathBuf,
        error: String,
    },
}

/// A loaded value and, when the file was not usable, what to tell the player.
#[derive(Clone, PartialEq, Debug)]
pub struct Loaded<T> {
    pub value: T,
    pub notice: Option<Notice>,
}

/// A file could not be written.
#[derive(Debug, thiserror::Error)]
#[error("could not write {}: {source}", path.display())]
pub struct WriteError {
    pub path: PathBuf,
    #[source]
    pub source: io::Error,
}

impl Store {
    /// The platform's folders (`~/.config/shashki`, `%APPDATA%\Shashki`, ...), or
    /// `$SHASHKI_HOME` for both when it is set.
    pub fn open() -> Store {
        if let Some(home) = std::env::var_os(HOME_VAR).filter(|h| !h.is_empty()) {
            return Store::at(home);
        }
        match directories::ProjectDirs::from("", "", "Shashki") {
            Some(dirs) => Store {
                config_dir: dirs.config_dir().to_path_buf(),
                data_dir: dirs.data_dir().to_path_buf(),
            },
            // No home folder at all (a bare service account): keep files beside the game.
            None => Store::at(".shashki"),
        }
    }

    /// Every file in one folder.
    pub fn at(dir: impl Into<PathBuf>) -> Store {
        let dir = dir.into();
        Store {
            config_dir: dir.clone(),
            data_dir: dir,
        }
    }

    pub fn settings_path(&self) -> PathBuf {
        self.config_dir.join(SETTINGS_FILE)
    }

    /// The folder of the endgame tablebases built on this machine.
    pub fn tablebase_dir(&self) -> PathBuf {
        self.data_dir.join("tablebases")
    }

    pub fn saved_game_path(&self) -> PathBuf {
        self.data_dir.join(SAVE_FILE)
    }

    /// The settings, or the first-start defaults (in the system language) when there are none.
    pub fn load_settings(&self) -> Loaded<Settings> {
        let path = self.settings_path();
        match load_file(&path, FileKind::Settings, Settings::from_json) {
            Ok(Some(settings)) => Loaded {
                value: settings,
                notice: None,
            },
            Ok(None) => Loaded {
                value: Settings::first_start(),
                notice: None,
            },
            Err(notice) => Loaded {
                value: Settings::first_start(),
                notice: Some(notice),
            },
        }
    }

    pub fn save_settings(&self, settings: &Settings) -> Result<(), WriteError> {
        write_atomic(&self.settings_path(), settings.to_json().as_bytes())
    }

    /// The game to continue, if one was saved and can be read.
    pub fn load_game(&self) -> Loaded<Option<SavedGame>> {
        let path = self.saved_game_path();
        match load_file(&path, FileKind::SavedGame, SavedGame::from_json) {
            Ok(game) => Loaded {
                value: game,
                notice: None,
            },
            Err(notice) => Loaded {
                value: None,
                notice: Some(notice),
            },
        }
    }

    /// Saves the game in progress; call after every move, undo and redo.
    pub fn save_game(&self, game: &SavedGame) -> Result<(), WriteError> {
        write_atomic(&self.saved_game_path(), game.to_json().as_bytes())
    }

    /// Forgets the saved game (nothing to continue). A missing file is not an error.
    pub fn clear_game(&self) -> Result<(), WriteError> {
        let path = self.saved_game_path();
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(WriteError { path, source: e }),
            _ => Ok(()),
        }
    }
}

/// Reads and parses a file: `Ok(None)` when it does not exist, `Err` with the notice
/// for the player when it cannot be used (a damaged file is first moved aside).
fn load_file<T, E: fmt::Display>(
    path: &Path,
    kind: FileKind,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<Option<T>, Notice> {
    let error = match read_limited(path) {
        Ok(text) => match parse(&text) {
            Ok(value) => return Ok(Some(value)),
            Err(e) => e.to_string(),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        // Not text, or far too big: the content is at fault, not the disk.
        Err(e) if e.kind() == io::ErrorKind::InvalidData => e.to_string(),
        Err(e) => {
            return Err(Notice::Unreadable {
                kind,
                path: path.to_path_buf(),
                error: e.to_string(),
            });
        }
    };
    let backup = move_aside(path).ok();
    Err(Notice::Damaged {
        kind,
        path: path.to_path_buf(),
        backup,
        error,
    })
}

fn read_limited(path: &Path) -> io::Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {} MiB", MAX_FILE_BYTES >> 20),
        ));
    }
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// Renames a damaged file to `NAME.bak` (or `NAME.bak2`, ... when older backups exist,
/// so that no earlier copy is overwritten) and returns the new path.
fn move_aside(path: &Path) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?
        .to_string_lossy()
        .into_owned();
    for n in 1..1000 {
        let suffix = if n == 1 {
            ".bak".to_string()
        } else {
            format!(".bak{n}")
        };
        let backup = path.with_file_name(format!("{name}{suffix}"));
        if !backup.exists() {
            std::fs::rename(path, &backup)?;
            return Ok(backup);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "too many backups",
    ))
}

/// Writes `bytes` to `path` so that readers see the old content or the new, never a mix:
/// the folder is created if needed, the data goes to a temporary file beside the target,
/// is flushed to disk and then renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let wrap = |source| WriteError {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(wrap)?;
    let temp = temp_path(path);
    let written = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(wrap(e));
    }
    // Make the rename itself durable; folders cannot be opened for this on every system.
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// A temporary name beside `path`, unique per process and call so that two writers never share it.
fn temp_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy());
    path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()))
}

impl FileKind {
    fn file_name(self) -> &'static str {
        match self {
            FileKind::Settings => SETTINGS_FILE,
            FileKind::SavedGame => SAVE_FILE,
        }
    }
}

impl Notice {
    /// The line shown to the player in their language.
    pub fn text(&self, lang: Lang) -> String {
        let file_name = |p: &Path| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        };
        match (self, lang) {
            (Notice::Damaged { kind, backup, .. }, Lang::En) => {
                let kept = match backup {
                    Some(b) => format!("old file kept as {}", file_name(b)),
                    None => format!("{} could not be moved aside", kind.file_name()),
                };
                match kind {
                    FileKind::Settings => {
                        format!("Settings file was damaged; defaults restored ({kept})")
                    }
                    FileKind::SavedGame => {
                        format!("The saved game could not be read and cannot be continued ({kept})")
                    }
                }
            }
            (Notice::Damaged { kind, backup, .. }, Lang::Ru) => {
                let kept = match backup {
                    Some(b) => format!("старый файл сохранён как {}", file_name(b)),
                    None => format!("файл {} не удалось отложить", kind.file_name()),
                };
                match kind {
                    FileKind::Settings => {
                        format!(
                            "Файл настроек повреждён; восстановлены настройки по умолчанию ({kept})"
                        )
                    }
                    FileKind::SavedGame => {
                        format!(
                            "Сохранённую партию не удалось прочитать, продолжить её нельзя ({kept})"
                        )
                    }
                }
            }
            (Notice::Unreadable { kind, path, error }, Lang::En) => match kind {
                FileKind::Settings => format!(
                    "Could not read the settings file {} ({error}); defaults are used",
                    path.display()
                ),
                FileKind::SavedGame => {
                    format!("Could not read the saved game {} ({error})", path.display())
                }
            },
            (Notice::Unreadable { kind, path, error }, Lang::Ru) => match kind {
                FileKind::Settings => format!(
                    "Не удалось прочитать файл настроек {} ({error}); используются настройки по умолчанию",
                    path.display()
                ),
                FileKind::SavedGame => format!(
                    "Не удалось прочитать сохранённую партию {} ({error})",
                    path.display()
                ),
            },
        }
    }

    /// The details for a log: the path and the parser's message.
    pub fn details(&self) -> String {
        match self {
            Notice::Damaged { path, error, .. } | Notice::Unreadable { path, error, .. } => {
                format!("{}: {error}", path.display())
            }
        }
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}
