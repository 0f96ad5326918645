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
    if moves.is_empty() {
        // "No moves yet" alone, even when Black moves first.
        return Vec::new();
    }
    if black_first {
        entries.insert(0, None);
    }
    entries
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| (i + 1, pair.iter().flatten().cloned().collect()))
        .collect()
}

/// A line of moves that starts at ply `ply` of the game (counted with a first Black move
/// as ply 1), numbered: "12... g7-f6 13. f2-g3".
pub fn line_text(ply: usize, moves: &[Move]) -> String {
    let mut out = Vec::new();
    for (k, m) in moves.iter().enumerate() {
        let p = ply + k;
        let number = p / 2 + 1;
        if p.is_multiple_of(2) {
            out.push(format!("{number}. {m}"));
        } else if k == 0 {
            out.push(format!("{number}... {m}"));
        } else {
            out.push(m.to_string());
        }
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;

    #[test]
    fn rows_number_moves_and_leave_an_empty_list_empty() {
        assert!(move_rows(&[], true).is_empty());
        assert!(move_rows(&[], false).is_empty());
        let mut game = Game::from_fen(crate::rules::Variant::Russian, "B:Wc3:Bf6").unwrap();
        game.play_text("f6-e5").unwrap();
        game.play_text("c3-d4").unwrap();
        let rows = move_rows(game.moves(), true);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0], (1, vec![(1, "f6-e5".to_string())]));
        assert_eq!(rows[1].0, 2);
        assert_eq!(line_text(1, game.moves()), "1... f6-e5 2. c3-d4");
        assert_eq!(line_text(2, &game.moves()[1..]), "2. c3-d4");
    }
}
