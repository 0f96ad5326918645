//! `shashki analyze`, `engine`, `match` and `bench`: the AI from the command line.

use crate::rules::Variant;

pub struct MatchOptions {
    pub white: String,
    pub black: String,
    pub games: u32,
    pub variant: Variant,
    pub movetime: Option<u64>,
    pub openings: u32,
    pub pdn: Option<String>,
    pub jobs: usize,
    pub seed: u64,
}

pub fn analyze(
    variant: Variant,
    fen: Option<&str>,
    depth: Option<u32>,
    movetime: Option<u64>,
    level: Option<u8>,
) -> Result<(), String> {
    let _ = (variant, fen, depth, movetime, level);
    Err("analysis is not built yet".into())
}

pub fn engine() -> Result<(), String> {
    Err("the engine protocol is not built yet".into())
}

pub fn run_match(opts: MatchOptions) -> Result<(), String> {
    let _ = opts;
    Err("matches are not built yet".into())
}

pub fn bench(depth: Option<u32>) -> Result<(), String> {
    let _ = depth;
    Err("bench is not built yet".into())
}
