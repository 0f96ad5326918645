//! The game clock: a time control (base time and Fischer increment) and both players'
//! time after every ply, so that undo, review and a saved game show the clocks as they
//! were. A player whose time runs out loses the game (FSR 1.8.1).

use super::Color;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// A time control: a base time and a Fischer increment added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    pub fn new(base_secs: f64, increment_secs: f64) -> TimeControl {
        TimeControl {
            base: Duration::from_secs_f64(base_secs.max(0.0)),
            increment: Duration::from_secs_f64(increment_secs.max(0.0)),
        }
    }

    /// The PDN `TimeControl` tag's value: seconds, `180+2`.
    pub fn pdn(&self) -> String {
        let secs = |d: Duration| {
            let s = d.as_secs_f64();
            if s.fract() == 0.0 {
                format!("{}", s as u64)
            } else {
                format!("{s}")
            }
        };
        format!("{}+{}", secs(self.base), secs(self.increment))
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// `BASE+INC` in seconds (`10+0.1`, the PDN tag's `180+2`), or with the base in
    /// minutes (`3m+2`); `BASE` alone has no increment.
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let bad = || format!("'{text}' is not a time control such as 10+0.1, 180+2 or 3m+2");
        let (base, inc) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
        let (base, unit) = match base.strip_suffix('m') {
            Some(b) => (b, 60.0),
            None => (base.strip_suffix('s').unwrap_or(base), 1.0),
        };
        let number = |t: &str| {
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1.0e6)
        };
        let (Some(base), Some(inc)) = (number(base), number(inc.strip_suffix('s').unwrap_or(inc)))
        else {
            return Err(bad());
        };
        if base * unit <= 0.0 {
            return Err(bad());
        }
        Ok(TimeControl::new(base * unit, inc))
    }
}

impl TimeControl {
    /// `minutes` each and `increment` seconds a move, as clubs write it ("5+3").
    pub const fn minutes(minutes: u64, increment: u64) -> TimeControl {
        TimeControl {
            base: Duration::from_secs(minutes * 60),
            increment: Duration::from_secs(increment),
        }
    }

    /// A control within what the game offers: a base of 1 s to 3 h, an increment up to
    /// a minute.
    pub fn is_valid(self) -> bool {
        (Duration::from_secs(1)..=MAX_BASE).contains(&self.base) && self.increment <= MAX_INCREMENT
    }
}

/// The longest base time the game offers and the largest increment.
pub const MAX_BASE: Duration = Duration::from_secs(3 * 3600);
pub const MAX_INCREMENT: Duration = Duration::from_secs(60);

impl fmt::Display for TimeControl {
    /// "5+3" in minutes and seconds, as the new-game panel names a control.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = self.base.as_secs_f64() / 60.0;
        let inc = self.increment.as_secs_f64();
        write!(f, "{base}+{inc}")
    }
}

/// Why a saved clock does not fit its game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    #[error("the time control {0} is outside 1 s to 3 h with an increment up to 60 s")]
    Control(TimeControl),
    #[error("the clock records {found} positions but the game has {expected}")]
    Length { found: usize, expected: usize },
    #[error("the clock records more time ({0} ms) than the game can have")]
    Time(u64),
}

/// Both clocks through a game: the time each player had after every ply, and the time
/// the side to move has spent so far on the current move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameClock {
    pub control: TimeControl,
    /// `history[p]` is White's and Black's time (ms) in the position after `p` plies.
    history: Vec<[u64; 2]>,
    /// Milliseconds the side to move has used in the position after `running_at` plies.
    #[serde(default)]
    running_ms: u64,
    #[serde(default)]
    running_at: usize,
    /// A paused clock does not run.
    #[serde(default)]
    pub paused: bool,
}

fn ms(d: Duration) -> u64 {
    d.as_millis().min(u128::from(u64::MAX)) as u64
}

fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl GameClock {
    /// Both players with the full base time, at ply 0.
    pub fn new(control: TimeControl) -> GameClock {
        GameClock {
            control,
            history: vec![[ms(control.base); 2]],
            running_ms: 0,
            running_at: 0,
            paused: false,
        }
    }

    /// The clocks before any move of a game whose record holds `plies` plies: each side
    /// starts with its base time there (a game read from a file without clock times).
    pub fn starting_at(control: TimeControl, plies: usize) -> GameClock {
        GameClock {
            control,
            history: vec![[ms(control.base); 2]; plies + 1],
            running_ms: 0,
            running_at: plies,
            paused: false,
        }
    }

    /// The clocks of `game` from each move's reading (the mover's time after it, as a
    /// PDN `[%clk]` gives it); `None` when the readings do not fit the game or the control.
    pub fn from_readings(
        control: TimeControl,
        game: &super::Game,
        readings: &[Duration],
    ) -> Option<GameClock> {
        if !control.is_valid() || readings.len() != game.ply() {
            return None;
        }
        let mut clock = GameClock::new(control);
        for (ply, reading) in readings.iter().enumerate() {
            let mover = game.position_at(ply)?.side_to_move();
            let mut times = *clock.history.last()?;
            times[index(mover)] = ms(*reading);
            clock.history.push(times);
        }
        clock.running_at = game.ply();
        clock.validate(game.ply()).ok()?;
        Some(clock)
    }

    /// Time left on `color`'s clock in the position after `ply` plies; the side to move
    /// (`to_move`) there has the time it is spending taken off.
    pub fn remaining(&self, color: Color, ply: usize, to_move: Color) -> Duration {
        let Some(last) = self.history.len().checked_sub(1) else {
            return Duration::ZERO;
        };
        let mut ms = self.history[ply.min(last)][index(color)];
        if color == to_move && ply == self.running_at {
            ms = ms.saturating_sub(self.running_ms);
        }
        Duration::from_millis(ms)
    }

    /// The side to move at `ply` spends `elapsed`; true when its time has run out. Time
    /// spent at another ply before (then undone or redone over) does not count here.
    pub fn tick(&mut self, ply: usize, to_move: Color, elapsed: Duration) -> bool {
        if ply >= self.history.len() {
            return false;
        }
        if self.running_at != ply {
            self.running_at = ply;
            self.running_ms = 0;
        }
        if !self.paused {
            self.running_ms = self.running_ms.saturating_add(ms(elapsed));
        }
        self.flagged(ply, to_move)
    }

    /// True when the side to move at `ply` has no time left.
    pub fn flagged(&self, ply: usize, to_move: Color) -> bool {
        self.remaining(to_move, ply, to_move).is_zero()
    }

    /// `mover` played a new move from the position after `ply` plies (the clocks after
    /// it are dropped): its time spent comes off and the increment goes on.
    pub fn record_move(&mut self, ply: usize, mover: Color) {
        let ply = ply.min(self.history.len().saturating_sub(1));
        let Some(&before) = self.history.get(ply) else {
            return;
        };
        let mut times = before;
        times[index(mover)] = ms(self.remaining(mover, ply, mover)) + ms(self.control.increment);
        self.history.truncate(ply + 1);
        self.history.push(times);
        self.running_at = ply + 1;
        self.running_ms = 0;
    }

    /// The time spent on the current move is given back (a move taken back).
    pub fn restart_move(&mut self) {
        self.running_ms = 0;
    }

    /// Drops the clocks after `ply` plies (continuing from a reviewed point).
    pub fn truncate(&mut self, ply: usize) {
        self.history.truncate(ply + 1);
    }

    /// Positions the clock has times for (plies recorded + 1).
    pub fn len(&self) -> usize {
        self.history.len()
    }

    /// Never true: the start position always has its times.
    pub fn is_empty(&self) -> bool {
        self.history.is_empty()
    }

    /// Checks a clock read from a file against a game of `plies` recorded plies.
    pub fn validate(&self, plies: usize) -> Result<(), ClockError> {
        if !self.control.is_valid() {
            return Err(ClockError::Control(self.control));
        }
        if self.history.len() != plies + 1 {
            return Err(ClockError::Length {
                found: self.history.len(),
                expected: plies + 1,
            });
        }
        // More than the base plus every increment is a damaged value.
        let most = ms(self.control.base) + ms(self.control.increment) * (plies as u64 + 1);
        if let Some(&bad) = self
            .history
            .iter()
            .flatten()
            .chain(std::iter::once(&self.running_ms))
            .find(|&&ms| ms > most)
        {
            return Err(ClockError::Time(bad));
        }
        Ok(())
    }
}

/// A clock reading as players see it: `4:05`, `1:02:03`, and tenths in the last ten
/// seconds (`9.3`).
pub fn clock_text(time: Duration) -> String {
    let ms = time.as_millis() as u64;
    if ms < 10_000 {
        return format!("{}.{}", ms / 1000, (ms % 1000) / 100);
    }
    let secs = ms / 1000;
    let (h, m, s) = (secs / 3600, (secs / 60) % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// The PDN `[%clk h:mm:ss]` form of a clock reading.
pub fn pdn_clock(time: Duration) -> String {
    let secs = time.as_secs();
    format!(
        "[%clk {}:{:02}:{:02}]",
        secs / 3600,
        (secs / 60) % 60,
        secs % 60
    )
}

/// The reading of a PDN comment's `[%clk h:mm:ss]` (seconds may have a fraction).
pub fn parse_pdn_clock(comment: &str) -> Option<Duration> {
    let rest = &comment[comment.find("[%clk")? + 5..];
    let text = rest[..rest.find(']')?].trim();
    let mut parts = text.rsplit(':');
    let secs: f64 = parts.next()?.trim().parse().ok()?;
    let mins: u64 = parts.next().map_or(Some(0), |m| m.trim().parse().ok())?;
    let hours: u64 = parts.next().map_or(Some(0), |h| h.trim().parse().ok())?;
    if parts.next().is_some() || !secs.is_finite() || !(0.0..60.0).contains(&secs) || mins >= 60 {
        return None;
    }
    Some(Duration::from_secs(hours * 3600 + mins * 60) + Duration::from_secs_f64(secs))
}
