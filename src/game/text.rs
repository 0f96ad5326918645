//! The move list as the panel shows it; every other text comes from [`crate::i18n`].

use crate::rules::Move;

/// Numbered move pairs in Russian notation: "1. c3-d4 f6-g5", with the ply each move
/// leads to, so a click on a move can go there.
pub fn move_rows(moves: &[Move], black_first: bool) -> Vec<(usize, Vec<(usize, String)>)> {
    let mut entries: Vec<Option<(usize, String)>> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| Some((i + 1, m.to_string())))
        .collect();
    if black_first {
        entries.insert(0, None);
    }
    entries
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| (i + 1, pair.iter().flatten().cloned().collect()))
        .collect()
}
