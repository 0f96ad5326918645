//! Time management under a game clock: how much of the remaining time one move may use.
//!
//! As the strongest engines do it: each move gets a share of the remaining time (the time
//! left divided by the moves still to play, plus most of the increment), the *optimum*;
//! the search starts no new iteration once about 70% of it is spent, since the next one
//! would overrun it. When the best move changes between iterations or the score drops,
//! the share grows (up to three times), never past the *maximum*, a hard limit that
//! leaves a reserve on the clock so that the engine never loses on time.

pub use crate::rules::clock::TimeControl;
use std::time::{Duration, Instant};

/// A player's clock at the moment it is asked to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the player's clock now.
    pub remaining: Duration,
    /// Added to the player's clock after each of its moves (Fischer).
    pub increment: Duration,
    /// Moves to play before the next time control adds time (`None`: sudden death).
    pub moves_to_go: Option<u32>,
}

/// Moves the rest of a sudden-death game is assumed to last.
const HORIZON: u32 = 30;

/// Time kept back for the answer to reach the clock (process and pipe latency).
const OVERHEAD: Duration = Duration::from_millis(30);

/// How long one move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    pub start: Instant,
    /// The time the move should take when the search is stable.
    pub optimum: Duration,
    /// Never more than this.
    pub maximum: Duration,
}

impl Clock {
    /// The plan for a move whose search starts at `start`.
    pub fn plan(&self, start: Instant) -> TimePlan {
        // A reserve that grows with the clock: never spend the last 5% or the overhead.
        let reserve = OVERHEAD + self.remaining / 20;
        let safe = self.remaining.saturating_sub(reserve);
        let mtg = self.moves_to_go.unwrap_or(HORIZON).clamp(1, HORIZON);
        let inc = self.increment * 3 / 4;
        let (optimum, maximum) = if mtg == 1 {
            // The last move before the control: most of what is left.
            (safe * 3 / 4, safe)
        } else {
            let optimum = (safe / mtg + inc).min(safe / 2);
            (optimum, (optimum * 4).min(safe * 2 / 5).max(optimum))
        };
        TimePlan {
            start,
            optimum,
            maximum,
        }
    }
}

impl TimePlan {
    /// The moment after which no new iteration starts, for an instability `factor` (1 for
    /// a stable search, up to 3).
    pub fn soft(&self, factor: f64) -> Instant {
        let t = self.optimum.mul_f64(0.7 * factor.clamp(0.5, 3.0));
        self.start + t.min(self.maximum)
    }

    /// The moment the search stops whatever it is doing.
    pub fn hard(&self) -> Instant {
        self.start + self.maximum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(remaining_ms: u64, inc_ms: u64, mtg: Option<u32>) -> TimePlan {
        Clock {
            remaining: Duration::from_millis(remaining_ms),
            increment: Duration::from_millis(inc_ms),
            moves_to_go: mtg,
        }
        .plan(Instant::now())
    }

    #[test]
    fn shares_are_sane() {
        // 10 s + 0.1: about a third of a second a move, at most four times that.
        let p = plan(10_000, 100, None);
        assert!(p.optimum > Duration::from_millis(250) && p.optimum < Duration::from_millis(450));
        assert!(p.maximum >= p.optimum && p.maximum <= Duration::from_millis(4_000));
        // Almost no time: the answer comes at once and the clock keeps its reserve.
        let p = plan(20, 0, None);
        assert_eq!(p.maximum, Duration::ZERO);
        let p = plan(200, 0, None);
        assert!(p.maximum < Duration::from_millis(170));
        // The last move before the control may use most of the time, never all of it.
        let p = plan(5_000, 0, Some(1));
        assert!(
            p.maximum < Duration::from_millis(5_000) && p.optimum > Duration::from_millis(3_000)
        );
        // More moves to go, a smaller share.
        assert!(plan(60_000, 0, Some(10)).optimum > plan(60_000, 0, Some(30)).optimum);
        // The increment is mostly spent.
        assert!(plan(1_000, 2_000, None).optimum <= Duration::from_millis(500));
        assert!(plan(60_000, 2_000, None).optimum > Duration::from_millis(3_000));
    }

    #[test]
    fn time_controls_are_read_and_written() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.increment, Duration::from_millis(100));
        assert_eq!(tc.pdn(), "10+0.1");
        let tc: TimeControl = "3m+2".parse().unwrap();
        assert_eq!(tc.pdn(), "180+2");
        assert_eq!("300".parse::<TimeControl>().unwrap().pdn(), "300+0");
        for bad in ["", "x+1", "0+1", "-5+1", "5+-1", "5+y", "inf+1"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn instability_stretches_the_soft_limit_within_the_maximum() {
        let p = plan(60_000, 0, None);
        assert!(p.soft(2.0) > p.soft(1.0));
        assert!(p.soft(100.0) <= p.hard());
    }
}
