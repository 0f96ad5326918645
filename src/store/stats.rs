//! The player's record against the computer: games won, drawn and lost per variant and
//! level, kept in the settings file (a damaged entry is dropped alone, as any other
//! setting falls back to its default).

use crate::rules::{Color, Outcome, Variant};
use serde::{Deserialize, Serialize};

/// Results at one variant and level, from the player's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Tally {
    pub variant: Variant,
    /// The computer's level, 1-10.
    pub level: u8,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
}

impl Tally {
    pub fn played(&self) -> u32 {
        self.won
            .saturating_add(self.drawn)
            .saturating_add(self.lost)
    }

    /// The player's score in percent (a draw is half a point); 0 with no games.
    pub fn score_percent(&self) -> f64 {
        match self.played() {
            0 => 0.0,
            n => 100.0 * (self.won as f64 + self.drawn as f64 / 2.0) / n as f64,
        }
    }
}

/// Every tally, sorted by variant and level.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize)]
#[serde(transparent)]
pub struct Statistics {
    pub tallies: Vec<Tally>,
}

/// A list whose entries are read one by one: a damaged entry is dropped, the others stay.
impl<'de> Deserialize<'de> for Statistics {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let values = Vec::<serde_json::Value>::deserialize(d)?;
        let tallies = values
            .into_iter()
            .filter_map(|v| serde_json::from_value::<Tally>(v).ok())
            .collect();
        Ok(Statistics { tallies })
    }
}

impl Statistics {
    /// Counts a finished game that the player (`player`) played against the computer at
    /// `level`.
    pub fn record(&mut self, variant: Variant, level: u8, player: Color, outcome: Outcome) {
        let level = level.clamp(1, 10);
        let at = match self
            .tallies
            .iter()
            .position(|t| t.variant == variant && t.level == level)
        {
            Some(i) => i,
            None => {
                self.tallies.push(Tally {
                    variant,
                    level,
                    won: 0,
                    drawn: 0,
                    lost: 0,
                });
                self.tallies
                    .sort_by_key(|t| (t.variant != Variant::Russian, t.level));
                self.tallies
                    .iter()
                    .position(|t| t.variant == variant && t.level == level)
                    .unwrap_or(0)
            }
        };
        let t = &mut self.tallies[at];
        match outcome.winner() {
            None => t.drawn = t.drawn.saturating_add(1),
            Some(w) if w == player => t.won = t.won.saturating_add(1),
            Some(_) => t.lost = t.lost.saturating_add(1),
        }
    }

    /// The tallies of one variant.
    pub fn of(&self, variant: Variant) -> impl Iterator<Item = &Tally> {
        self.tallies.iter().filter(move |t| t.variant == variant)
    }

    /// The same statistics with levels in range, one tally per variant and level, sorted.
    pub fn sanitized(&self) -> Statistics {
        let mut out = Statistics::default();
        for t in &self.tallies {
            if !(1..=10).contains(&t.level) {
                continue;
            }
            match out
                .tallies
                .iter_mut()
                .find(|o| o.variant == t.variant && o.level == t.level)
            {
                Some(o) => {
                    o.won = o.won.saturating_add(t.won);
                    o.drawn = o.drawn.saturating_add(t.drawn);
                    o.lost = o.lost.saturating_add(t.lost);
                }
                None => out.tallies.push(*t),
            }
        }
        out.tallies
            .sort_by_key(|t| (t.variant != Variant::Russian, t.level));
        out
    }
}

/// Decides when a game counts: once, when it ends after having been seen going on (a
/// game loaded already finished, or reviewed back and forth, does not count again).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResultCounter {
    going_on: bool,
    counted: bool,
}

impl ResultCounter {
    /// A new game is on the board.
    pub fn new_game(&mut self) {
        *self = ResultCounter::default();
    }

    /// The game's state this frame; `Some` exactly once per game: the result to count.
    pub fn observe(&mut self, outcome: Option<Outcome>, reviewing: bool) -> Option<Outcome> {
        if reviewing {
            return None;
        }
        match outcome {
            None => {
                self.going_on = true;
                None
            }
            Some(o) if self.going_on && !self.counted => {
                self.counted = true;
                Some(o)
            }
            Some(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::WinReason;

    fn win(c: Color) -> Outcome {
        Outcome::Win {
            winner: c,
            reason: WinReason::NoPieces,
        }
    }

    #[test]
    fn a_game_counts_once_and_a_loaded_finished_game_not_at_all() {
        let mut c = ResultCounter::default();
        assert_eq!(
            c.observe(Some(win(Color::White)), false),
            None,
            "loaded finished"
        );
        c.new_game();
        assert_eq!(c.observe(None, false), None);
        assert_eq!(
            c.observe(Some(win(Color::Black)), false),
            Some(win(Color::Black))
        );
        assert_eq!(c.observe(Some(win(Color::Black)), false), None);
        // Undo, then another ending: still the first result only.
        assert_eq!(c.observe(None, false), None);
        assert_eq!(c.observe(Some(win(Color::White)), false), None);
        c.new_game();
        assert_eq!(c.observe(None, true), None);
        assert_eq!(
            c.observe(Some(win(Color::White)), false),
            None,
            "only reviewed"
        );
    }

    #[test]
    fn tallies_count_per_variant_and_level_and_damaged_entries_drop_alone() {
        let mut s = Statistics::default();
        s.record(Variant::Giveaway, 4, Color::White, win(Color::White));
        s.record(Variant::Russian, 3, Color::Black, win(Color::White));
        s.record(
            Variant::Russian,
            3,
            Color::Black,
            Outcome::Draw(crate::rules::DrawRule::Repetition),
        );
        assert_eq!(s.tallies.len(), 2);
        let r = s.of(Variant::Russian).next().unwrap();
        assert_eq!(
            (r.level, r.won, r.drawn, r.lost, r.played()),
            (3, 0, 1, 1, 2)
        );
        assert!((r.score_percent() - 25.0).abs() < 1e-9);
        let g = s.of(Variant::Giveaway).next().unwrap();
        assert_eq!((g.won, g.score_percent() as u32), (1, 100));
        let json = serde_json::to_string(&s).unwrap();
        let back: Statistics = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
        let damaged = r#"[{"variant":"Russian","level":3,"won":"x","drawn":0,"lost":0},
            {"variant":"Russian","level":5,"won":2,"drawn":0,"lost":1},
            {"variant":"Russian","level":99,"won":1,"drawn":0,"lost":0}]"#;
        let read: Statistics = serde_json::from_str(damaged).unwrap();
        let clean = read.sanitized();
        assert_eq!(clean.tallies.len(), 1);
        assert_eq!((clean.tallies[0].level, clean.tallies[0].won), (5, 2));
    }
}
