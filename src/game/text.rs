//! What the player reads: results, draw countdowns and the move list, in player words.

use crate::rules::game::{Countdown, WinReason};
use crate::rules::{Color, DrawRule, Move, Outcome, Variant};

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

pub fn variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Russian => "Russian draughts",
        Variant::Giveaway => "поддавки (giveaway)",
    }
}

/// The end banner: "White has no moves: Black wins", "Draw by threefold repetition (7.2.3)".
pub fn outcome_text(outcome: Outcome, variant: Variant) -> String {
    match outcome {
        Outcome::Win { winner, reason } => {
            let loser = color_name(winner.opposite());
            let winner = color_name(winner);
            match (variant, reason) {
                (_, WinReason::Resignation) => format!("{loser} resigned: {winner} wins"),
                (Variant::Russian, WinReason::NoPieces) => {
                    format!("{loser} has no pieces left: {winner} wins")
                }
                (Variant::Russian, WinReason::NoMoves) => {
                    format!("{loser} has no moves: {winner} wins")
                }
                (Variant::Giveaway, WinReason::NoPieces) => {
                    format!("поддавки: {winner} gave away all pieces and wins")
                }
                (Variant::Giveaway, WinReason::NoMoves) => {
                    format!("поддавки: {winner} has no moves left and wins")
                }
            }
        }
        Outcome::Draw(DrawRule::Agreement) => "Draw by agreement (7.2.1)".to_string(),
        Outcome::Draw(rule) => format!("Draw by {} ({})", rule.description(), rule.number()),
    }
}

/// A running draw rule: "15 king-only moves: 9 left (7.2.5)".
pub fn countdown_text(c: &Countdown) -> String {
    let left = c.moves_left();
    let what = match c.rule {
        DrawRule::KingsOnly => "15 king-only moves",
        DrawRule::ThreeKingsVsOne => "3 kings against 1, 15 moves",
        DrawRule::BalanceUnchanged => "Unchanged king ending",
        DrawRule::LongDiagonal => "Lone king on the long diagonal, 5 moves",
        DrawRule::SmallEnding => "Small king ending, 5 moves",
        DrawRule::Repetition => "Repetition",
        DrawRule::Agreement => "Agreement",
    };
    format!("{what}: {left} left ({})", c.rule.number())
}

/// Numbered move pairs in Russian notation: "1. c3-d4 f6-g5".
pub fn move_list(moves: &[Move], black_first: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    if black_first {
        texts.insert(0, "…".to_string());
    }
    for (i, pair) in texts.chunks(2).enumerate() {
        lines.push(format!("{}. {}", i + 1, pair.join("  ")));
    }
    lines
}
