//! Fitting the learned evaluation ([`super::pattern`]) to self-played positions.
//!
//! A training position is one line of text:
//! `GAME WHITE BLACK KINGS SIDE RESULT SCORE` with the game's number, the three bitboards
//! of the internal layout in hexadecimal, `w` or `b` to move, the game's result from
//! White's view (`2` won, `1` drawn, `0` lost) and the score the searching side gave the
//! position (centi-men, side to move's view). Only positions without a capture due are
//! written: those are the ones the evaluation is asked about.
//!
//! The fit is logistic regression (Texel's method): the model's score `s` predicts the
//! result as `sigmoid(s / K)`; the target blends the game's result and the search's own
//! prediction (`lambda` of the result); the loss is the cross-entropy plus an L2 penalty
//! on every weight but the counted terms; full-batch Adam minimises it. `K` is fitted
//! first, so that the search's scores, in centi-men, predict the results best: the learned
//! scores keep that scale (a man is about 100).

use super::pattern::{
    CONFIGS, DENSE, DENSE_NAMES, FULL_PHASE, Features, LEN, PHASE_LEN, PatternWeights, SCALE,
    WINDOWS, features,
};
use super::shared::{Rng, cross_entropy, quiet_moves};
use crate::rules::{Color, Position, Variant};

pub mod net;

/// One position ready for fitting.
#[derive(Clone, Copy)]
pub struct Sample {
    pub features: Features,
    /// Result from the side to move's view: 0, 0.5 or 1.
    pub result: f32,
    /// The search's score, side to move's view.
    pub score: i32,
    pub game: u64,
}

/// Formats a position for the training file.
pub fn data_line(game: u64, pos: &Position, result_white: u8, score: i32) -> String {
    format!(
        "{game} {:x} {:x} {:x} {} {result_white} {score}",
        pos.white,
        pos.black,
        pos.kings,
        if pos.side_to_move() == Color::White {
            'w'
        } else {
            'b'
        }
    )
}

/// Reads one line of a training file.
pub fn parse_line(line: &str) -> Result<Sample, String> {
    parse_line_with_position(line).map(|(s, _)| s)
}

/// Reads one line of a training file, with its position.
pub fn parse_line_with_position(line: &str) -> Result<(Sample, Position), String> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() != 7 {
        return Err(format!("expected 7 fields, found {}", f.len()));
    }
    let hex = |s: &str| u64::from_str_radix(s, 16).map_err(|_| format!("'{s}' is not hexadecimal"));
    let side = match f[4] {
        "w" => Color::White,
        "b" => Color::Black,
        s => return Err(format!("side '{s}' is not w or b")),
    };
    let pos = Position::from_bitboards(hex(f[1])?, hex(f[2])?, hex(f[3])?, side)
        .map_err(|e| e.to_string())?;
    let result_white: u8 = match f[5] {
        "0" => 0,
        "1" => 1,
        "2" => 2,
        s => return Err(format!("result '{s}' is not 0, 1 or 2")),
    };
    let score: i32 = f[6]
        .parse()
        .map_err(|_| format!("score '{}' is not a number", f[6]))?;
    let game: u64 = f[0]
        .parse()
        .map_err(|_| format!("game '{}' is not a number", f[0]))?;
    let r = result_white as f32 / 2.0;
    let sample = Sample {
        features: features(&pos, quiet_moves(&pos, side)),
        result: if side == Color::White { r } else { 1.0 - r },
        score,
        game,
    };
    Ok((sample, pos))
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The `K` (centi-men) for which `sigmoid(score / K)` predicts the results best.
pub fn fit_scale(samples: &[Sample]) -> f64 {
    let loss = |k: f64| -> f64 {
        samples
            .iter()
            .map(|s| {
                cross_entropy(
                    sigmoid(s.score.clamp(-3000, 3000) as f64 / k),
                    s.result as f64,
                )
            })
            .sum::<f64>()
            / samples.len().max(1) as f64
    };
    let (mut lo, mut hi) = (20.0f64, 2000.0f64);
    for _ in 0..60 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// How a fit runs.
pub struct FitOptions {
    pub epochs: u32,
    /// Share of the game result in the target (the rest is the search's prediction).
    pub lambda: f64,
    /// L2 penalty per weight (centi-men²), divided by the number of samples.
    pub l2: f64,
    /// Adam's step, in centi-men.
    pub rate: f64,
    /// Samples a step (0: all of them).
    pub batch: usize,
    /// Epochs between reports.
    pub report: u32,
}

/// Starting weights: the hand-written evaluation's main terms, no patterns. Russian:
/// material and mobility; поддавки: both sides' moves and own kings.
pub fn initial_weights(variant: Variant) -> Vec<f64> {
    let mut w = vec![0.0; LEN];
    let terms: &[(usize, f64)] = match variant {
        Variant::Russian => &[
            (1, 100.0),
            (2, -100.0),
            (3, 280.0),
            (4, -280.0),
            (5, 3.0),
            (6, -3.0),
        ],
        Variant::Giveaway => &[(3, 50.0), (4, -50.0), (5, 6.0), (6, 2.0)],
    };
    for phase in 0..2 {
        let d = phase * PHASE_LEN + WINDOWS * CONFIGS;
        for &(i, x) in terms {
            w[d + i] = x;
        }
    }
    w
}

/// The model's score (centi-men) of a sample under float weights.
fn model(w: &[f64], f: &Features) -> f64 {
    let (open, end) = w.split_at(PHASE_LEN);
    let (mut o, mut e) = (0.0, 0.0);
    for (k, &p) in f.patterns.iter().enumerate() {
        let i = k * CONFIGS + p as usize;
        o += open[i];
        e += end[i];
    }
    let d0 = WINDOWS * CONFIGS;
    for (k, &x) in f.dense.iter().enumerate() {
        o += open[d0 + k] * x as f64;
        e += end[d0 + k] * x as f64;
    }
    let ph = f.phase as f64 / FULL_PHASE as f64;
    o * ph + e * (1.0 - ph)
}

pub fn target(s: &Sample, k: f64, lambda: f64) -> f64 {
    lambda * s.result as f64 + (1.0 - lambda) * sigmoid(s.score.clamp(-3000, 3000) as f64 / k)
}

/// Mean cross-entropy of the model on `samples`.
pub fn loss(w: &[f64], samples: &[Sample], k: f64, lambda: f64) -> f64 {
    samples
        .iter()
        .map(|s| cross_entropy(sigmoid(model(w, &s.features) / k), target(s, k, lambda)))
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// Adam from `w`; `report(epoch, train_loss, weights)` every `opts.report` epochs. With
/// `opts.batch` 0 every step sees all samples (full batch); otherwise each epoch visits
/// the samples in a new seeded order, `batch` at a time, and the step falls linearly to a
/// tenth of `rate` over the epochs.
pub fn fit(
    w: &mut [f64],
    samples: &[Sample],
    k: f64,
    opts: &FitOptions,
    report: &mut dyn FnMut(u32, f64, &[f64]),
) {
    let (mut m, mut v) = (vec![0.0f64; LEN], vec![0.0f64; LEN]);
    let mut g = vec![0.0f64; LEN];
    let d0 = WINDOWS * CONFIGS;
    let n_all = samples.len().max(1) as f64;
    let targets: Vec<f64> = samples.iter().map(|s| target(s, k, opts.lambda)).collect();
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let batch = if opts.batch == 0 {
        samples.len().max(1)
    } else {
        opts.batch
    };
    let mut order: Vec<u32> = (0..samples.len() as u32).collect();
    let mut rng = Rng::new(0x5EED);
    let mut step = 0i32;
    for epoch in 1..=opts.epochs {
        if opts.batch > 0 {
            // Fisher-Yates with the seeded generator.
            for i in (1..order.len()).rev() {
                let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                order.swap(i, j);
            }
        }
        let rate = if opts.batch > 0 {
            let done = (epoch - 1) as f64 / opts.epochs.max(1) as f64;
            opts.rate * (1.0 - 0.9 * done)
        } else {
            opts.rate
        };
        let mut total = 0.0;
        for chunk in order.chunks(batch) {
            g.fill(0.0);
            for &i in chunk {
                let (s, t) = (&samples[i as usize], targets[i as usize]);
                let f = &s.features;
                let p = sigmoid(model(w, f) / k);
                total += cross_entropy(p, t);
                let grad = (p - t) / k;
                let ph = f.phase as f64 / FULL_PHASE as f64;
                let (go, ge) = (grad * ph, grad * (1.0 - ph));
                for (j, &c) in f.patterns.iter().enumerate() {
                    let i = j * CONFIGS + c as usize;
                    g[i] += go;
                    g[PHASE_LEN + i] += ge;
                }
                for (j, &x) in f.dense.iter().enumerate() {
                    g[d0 + j] += go * x as f64;
                    g[PHASE_LEN + d0 + j] += ge * x as f64;
                }
            }
            step += 1;
            let n = chunk.len() as f64;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for i in 0..LEN {
                let dense = i % PHASE_LEN >= d0;
                // The penalty is per sample of the whole set, as in the full-batch fit.
                let reg = if dense { 0.0 } else { opts.l2 * w[i] / n_all };
                let gi = g[i] / n + reg;
                m[i] = b1 * m[i] + (1.0 - b1) * gi;
                v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
                w[i] -= rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
            }
        }
        if epoch % opts.report.max(1) == 0 || epoch == opts.epochs {
            report(epoch, total / n_all, w);
        }
    }
}

/// Scales the weights so that a man in the opening is worth 100 (the search's margins and
/// the evaluation bar count in men); returns the factor. Scaling by a positive factor
/// changes no comparison between positions.
pub fn normalize(w: &mut [f64]) -> f64 {
    let d0 = WINDOWS * CONFIGS;
    let man = (w[d0 + 1] - w[d0 + 2]) / 2.0;
    if man <= 1.0 {
        return 1.0;
    }
    let f = 100.0 / man;
    for x in w.iter_mut() {
        *x *= f;
    }
    f
}

/// Rounds float weights to the stored form.
pub fn quantize(w: &[f64]) -> PatternWeights {
    PatternWeights::new(
        w.iter()
            .map(|x| {
                (x * SCALE as f64)
                    .round()
                    .clamp(i16::MIN as f64, i16::MAX as f64) as i16
            })
            .collect(),
    )
}

/// The counted terms of both phases, for printing.
pub fn describe(w: &[f64]) -> Vec<String> {
    let d0 = WINDOWS * CONFIGS;
    (0..DENSE)
        .map(|j| {
            format!(
                "{:32} opening {:8.1}  ending {:8.1}",
                DENSE_NAMES[j],
                w[d0 + j],
                w[PHASE_LEN + d0 + j]
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_lines_read_back() {
        let pos = Position::start().play(&Position::start().legal_moves()[0]);
        let line = data_line(7, &pos, 2, -35);
        let s = parse_line(&line).unwrap();
        assert_eq!(s.game, 7);
        assert_eq!(s.score, -35);
        // White won; Black is to move.
        assert_eq!(s.result, 0.0);
        assert!(parse_line("1 2 3").is_err());
        assert!(parse_line("1 zz 0 0 w 1 0").is_err());
        assert!(parse_line("1 1 1 0 w 1 0").is_err());
    }

    #[test]
    fn a_fit_learns_that_material_wins() {
        // Positions where the side with more men won: the fit must keep men valuable and
        // lower the loss.
        let mut samples = Vec::new();
        let start = Position::start();
        let mut games = vec![start];
        for mv in start.legal_moves().iter() {
            games.push(start.play(mv));
        }
        for (i, p) in games.iter().enumerate() {
            let us = p.side_to_move();
            // Remove one of the opponent's men: we are a man up and won.
            let them = p.men(us.opposite());
            let bit = them & them.wrapping_neg();
            let (white, black) = match us {
                Color::White => (p.white, p.black & !bit),
                Color::Black => (p.white & !bit, p.black),
            };
            let q = Position::from_bitboards(white, black, 0, us).unwrap();
            let won = if us == Color::White { 2 } else { 0 };
            samples.push(parse_line(&data_line(i as u64, &q, won, 100)).unwrap());
        }
        let mut w = initial_weights(Variant::Russian);
        let k = 150.0;
        let before = loss(&w, &samples, k, 1.0);
        let opts = FitOptions {
            epochs: 50,
            lambda: 1.0,
            l2: 1.0,
            rate: 1.0,
            batch: 0,
            report: 25,
        };
        let mut full = w.clone();
        fit(&mut full, &samples, k, &opts, &mut |_, _, _| {});
        assert!(loss(&full, &samples, k, 1.0) < before);
        // In small shuffled batches, with a report after every epoch.
        let opts = FitOptions {
            batch: 3,
            report: 1,
            epochs: 10,
            ..opts
        };
        let mut reports = 0;
        fit(&mut w, &samples, k, &opts, &mut |_, _, _| reports += 1);
        assert_eq!(reports, 10);
        assert!(loss(&w, &samples, k, 1.0) < before);
        assert!(
            w[WINDOWS * CONFIGS + 1] > 0.0,
            "a man of ours stays worth something"
        );
    }
}
