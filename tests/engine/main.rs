//! Tests of the rules engine and the AI (no window): one binary, one module per part.

mod ai;
mod analysis;
mod fuzz;
mod i18n;
mod openings;
mod pdn;
mod perft;
mod puzzles;
mod rules;
mod store;

use std::path::{Path, PathBuf};

/// Every `.pdn` file under `dir`, recursively (the real games in `../shared/pdn`).
pub(crate) fn pdn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            pdn_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pdn"))
        {
            out.push(path);
        }
    }
}
