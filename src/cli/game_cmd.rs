//! The window: the game itself and `shashki demo`.

use crate::rules::Variant;

pub fn run_game() -> Result<(), String> {
    Err("this build has no window; run a subcommand (see --help)".into())
}

pub fn demo(variant: Variant, moves: Option<u32>, screenshot: Option<String>) -> Result<(), String> {
    let _ = (variant, moves, screenshot);
    Err("this build has no window".into())
}
