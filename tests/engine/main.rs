//! Tests of the rules engine and the AI (no window): one binary, one module per part.

mod ai;
mod analysis;
mod clock;
mod fuzz;
mod hub;
mod i18n;
mod openings;
mod pdn;
mod perft;
mod puzzles;
mod rules;
mod store;
mod tablebase;

use std::path::{Path, PathBuf};

/// Every `.pdn` file under `dir`, recursively (the real games in `../shared/pdn`).
pub(crate) fn pdn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    out.extend(shashki::rules::pdn::pdn_files_in(dir));
}
