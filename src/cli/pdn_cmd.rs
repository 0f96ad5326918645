//! `shashki fen`: positions from PDN files.

use crate::rules::pdn::read_pdn_file;

/// Prints the FEN after `ply` plies of game `game` (counted from 1; every record counts,
/// broken ones too) of a PDN file; without `ply`, after the game's last move.
pub fn fen(pdn: &str, game: usize, ply: Option<usize>) -> Result<(), String> {
    println!("{}", fen_at(pdn, game, ply)?);
    Ok(())
}

/// The FEN that [`fen`] prints, or the message of what went wrong.
pub fn fen_at(pdn: &str, game: usize, ply: Option<usize>) -> Result<String, String> {
    let games = read_pdn_file(pdn).map_err(|e| format!("cannot read {pdn}: {e}"))?;
    let count = games.len();
    let record = game
        .checked_sub(1)
        .and_then(|i| games.get(i))
        .ok_or_else(|| {
            format!(
                "{pdn} has {count} game{}; there is no game {game} (games count from 1)",
                if count == 1 { "" } else { "s" }
            )
        })?;
    let record = record
        .as_ref()
        .map_err(|e| format!("{pdn}, game {game}: {e}"))?;
    let last = record.game.ply();
    let ply = ply.unwrap_or(last);
    let position = record
        .game
        .position_at(ply)
        .ok_or_else(|| format!("{pdn}, game {game} has {last} plies; there is no ply {ply}"))?;
    Ok(position.to_fen())
}
