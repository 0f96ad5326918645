//! Shashki: Russian draughts and поддавки. The rules engine and the AI are plain Rust;
//! the 3D game (feature `game`) is built on them.

pub mod ai;
pub mod cli;
#[cfg(feature = "game")]
pub mod game;
pub mod i18n;
pub mod rules;
pub mod store;
