//! `shashki fen`: positions from PDN files.

pub fn fen(pdn: &str, game: usize, ply: Option<usize>) -> Result<(), String> {
    let _ = (pdn, game, ply);
    Err("PDN reading is not built yet".into())
}
