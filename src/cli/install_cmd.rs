//! `shashki install-desktop`: the game in the desktop's menu (freedesktop.org entry and
//! icon under `~/.local/share`, or `$XDG_DATA_HOME`).

use std::path::{Path, PathBuf};

/// The application icon (256x256), also the window's.
pub const ICON_PNG: &[u8] = include_bytes!("../../assets/icon/shashki.png");

/// The desktop entry for the game started by `exe`.
pub fn desktop_entry(exe: &Path) -> String {
    let exe = exe.display().to_string();
    // The Exec key quotes paths with spaces; a quote or backslash inside is escaped.
    let exec = if exe.contains([' ', '"', '\\', '$', '`']) {
        format!(
            "\"{}\"",
            exe.replace('\\', "\\\\\\\\")
                .replace('"', "\\\\\"")
                .replace('$', "\\\\$")
                .replace('`', "\\\\`")
        )
    } else {
        exe
    };
    format!(
        "[Desktop Entry]\n\
         Type=Application\n\
         Version=1.5\n\
         Name=Shashki\n\
         Name[ru]=Шашки\n\
         GenericName=Russian draughts\n\
         GenericName[ru]=Русские шашки\n\
         Comment=Russian draughts and giveaway in 3D against a strong computer opponent\n\
         Comment[ru]=Русские шашки и поддавки в 3D с сильным компьютерным соперником\n\
         Exec={exec}\n\
         Icon=shashki\n\
         Terminal=false\n\
         Categories=Game;BoardGame;\n\
         Keywords=draughts;checkers;shashki;шашки;поддавки;\n\
         StartupWMClass=shashki\n"
    )
}

/// Writes the entry and the icon under `data_home` (`~/.local/share`); returns the files.
pub fn install(data_home: &Path, exe: &Path) -> Result<Vec<PathBuf>, String> {
    let entry = data_home.join("applications").join("shashki.desktop");
    let icon = data_home
        .join("icons/hicolor/256x256/apps")
        .join("shashki.png");
    for (path, bytes) in [
        (&entry, desktop_entry(exe).into_bytes()),
        (&icon, ICON_PNG.to_vec()),
    ] {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(vec![entry, icon])
}

/// Removes what [`install`] wrote; returns the files removed.
pub fn uninstall(data_home: &Path) -> Result<Vec<PathBuf>, String> {
    let mut removed = Vec::new();
    for path in [
        data_home.join("applications/shashki.desktop"),
        data_home.join("icons/hicolor/256x256/apps/shashki.png"),
    ] {
        if path.exists() {
            std::fs::remove_file(&path)
                .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
            removed.push(path);
        }
    }
    Ok(removed)
}

/// `$XDG_DATA_HOME`, else `~/.local/share`.
fn data_home() -> Result<PathBuf, String> {
    if let Some(d) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d));
    }
    directories::BaseDirs::new()
        .map(|b| b.home_dir().join(".local/share"))
        .ok_or_else(|| "no home folder to install into".to_string())
}

pub fn run(uninstall_it: bool) -> Result<(), String> {
    let home = data_home()?;
    if uninstall_it {
        for p in uninstall(&home)? {
            println!("removed {}", p.display());
        }
        return Ok(());
    }
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| format!("cannot find this program's path: {e}"))?;
    for p in install(&home, &exe)? {
        println!("wrote {}", p.display());
    }
    // Menus notice a new entry by themselves; this only speeds it up where it exists.
    let _ = std::process::Command::new("update-desktop-database")
        .arg(home.join("applications"))
        .output();
    println!(
        "Shashki is in the desktop's menu (Games); it starts {}",
        exe.display()
    );
    Ok(())
}
