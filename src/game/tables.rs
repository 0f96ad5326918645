//! The endgame tables in the game: every ending of up to five pieces, both variants,
//! built in the background at the first start (the files are kept, so later starts only
//! read them), and their verdict on the position on the board.

use crate::ai::tablebase::{self, Probe};
use crate::rules::{Game, Variant};
use bevy::prelude::*;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

/// Pieces of the tables the game builds by itself.
pub const BUILT_AT_START: u32 = 5;

/// Inserted by the windowed game (not by the demo or the tests): build what is missing.
#[derive(Resource)]
pub struct BuildTablesAtStart;

/// Tables finished and in all while a build runs.
static PROGRESS: Mutex<Option<(usize, usize)>> = Mutex::new(None);

/// `Some((done, total))` while the tables are being built.
pub fn building() -> Option<(usize, usize)> {
    PROGRESS.try_lock().ok().and_then(|p| *p)
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Startup,
        start_build.run_if(resource_exists::<BuildTablesAtStart>),
    );
}

fn start_build() {
    build_in_background(BUILT_AT_START);
}

/// Builds (or reads back) every table of both variants up to `pieces` pieces on a
/// thread of low priority, then makes the engines use them. Does nothing while a build
/// runs.
pub fn build_in_background(pieces: u32) {
    if building().is_some() {
        return;
    }
    let dir = crate::store::Store::open().tablebase_dir();
    tablebase::use_dir(&dir);
    let spawned = std::thread::Builder::new()
        .name("tablebase-build".into())
        .spawn(move || {
            super::ai::yield_to_drawing();
            let stop = AtomicBool::new(false);
            let threads = crate::ai::default_threads();
            let variants = [Variant::Russian, Variant::Giveaway];
            let per_variant: Vec<usize> = variants
                .iter()
                .map(|&v| (2..=pieces).map(|n| tablebase::keys_with(v, n).len()).sum())
                .collect();
            let total: usize = per_variant.iter().sum();
            if let Ok(mut g) = PROGRESS.lock() {
                *g = Some((0, total));
            }
            let mut before = 0;
            for (i, &variant) in variants.iter().enumerate() {
                let result =
                    tablebase::build(variant, pieces, threads, Some(&dir), &stop, &mut |p| {
                        if let Ok(mut g) = PROGRESS.lock() {
                            *g = Some((before + p.done, total));
                        }
                    });
                if let Err(e) = result {
                    warn!("endgame tables of {variant}: {e}");
                }
                before += per_variant[i];
            }
            if let Ok(mut g) = PROGRESS.lock() {
                *g = None;
            }
            tablebase::reload();
            tablebase::preload(&[Variant::Russian]);
        });
    if let Err(e) = spawned {
        warn!("cannot start building the endgame tables: {e}");
    }
}

/// The tables' verdict on a game's position, when they hold it and are already read.
pub fn verdict(game: &Game) -> Option<Probe> {
    if game.position().piece_count() > 7 {
        return None;
    }
    let Some(tb) = tablebase::ready(game.variant()) else {
        if building().is_none() {
            tablebase::request(game.variant());
        }
        return None;
    };
    tb.probe_game(game)
}

/// The trainer's endings of each variant, once found (searching a table takes a moment,
/// so it runs on its own thread).
static ENDINGS: Mutex<Vec<(Variant, Vec<tablebase::endings::Ending>)>> = Mutex::new(Vec::new());
static FINDING: Mutex<Vec<Variant>> = Mutex::new(Vec::new());

/// Endings of each theme the trainer offers.
const ENDINGS_PER_THEME: usize = 5;

/// The trainer's endings of a variant, or `None` until the tables are read and the
/// endings found (the first call starts finding them).
pub fn endings(variant: Variant) -> Option<Vec<tablebase::endings::Ending>> {
    if let Ok(found) = ENDINGS.try_lock()
        && let Some((_, e)) = found.iter().find(|(v, _)| *v == variant)
    {
        return Some(e.clone());
    }
    let Some(tb) = tablebase::ready(variant) else {
        if building().is_none() {
            tablebase::request(variant);
        }
        return None;
    };
    let Ok(mut finding) = FINDING.try_lock() else {
        return None;
    };
    if finding.contains(&variant) {
        return None;
    }
    finding.push(variant);
    let _ = std::thread::Builder::new()
        .name("tablebase-endings".into())
        .spawn(move || {
            super::ai::yield_to_drawing();
            let mut all = Vec::new();
            for theme in tablebase::endings::Theme::ALL {
                all.extend(tablebase::endings::endings(&tb, theme, ENDINGS_PER_THEME));
            }
            if let Ok(mut found) = ENDINGS.lock() {
                found.push((variant, all));
            }
        });
    None
}
