//! A small network added to the pattern evaluation ([`super::pattern`]): it sees every
//! piece at once, where a pattern sees one 4x4 window of men, so it can weigh what the
//! windows miss (where the kings stand, the balance of the flanks, kings against men).
//!
//! The inputs are 144 bits from the side to move's view (the board turned for Black as in
//! the patterns): our men, our kings, their men, their kings, 36 slots each (the internal
//! layout's bit numbers; the four unused bits never fire). One hidden layer of [`HIDDEN`]
//! clipped-linear units (`min(max(z, 0), 1)`) feeds one output, in centi-men, that is added
//! to the pattern score; each variant has its own. A position has at most 24 pieces, so the first layer costs at
//! most 24 additions of a row of [`HIDDEN`] 16-bit weights.
//!
//! The file (`assets/eval/*.net`, embedded in the binary) is little-endian: magic `SHPN`,
//! format version (u32), variant (u32: 0 Russian, 1 поддавки), inputs (u32), hidden units
//! (u32), then the first layer's weights (input by input, [`HIDDEN`] i16 each, in 1/[`Q1`]),
//! its biases ([`HIDDEN`] i16, 1/[`Q1`]), the output weights ([`HIDDEN`] i32, 1/[`Q2`]
//! centi-men for a unit fully on), the output bias (i32, 1/[`Q2`] centi-men), and an FNV-1a
//! 64 checksum of everything before it (u64). A file that does not match is refused with
//! the reason.

use super::pattern::{fnv1a, turn, variant_code};
use super::train::cross_entropy;
use crate::rules::bitboard::Bits;
use crate::rules::{Color, Position, Variant};
use std::sync::OnceLock;

/// Input slots: four kinds of piece, 36 bit numbers each.
pub const INPUTS: usize = 144;
/// Hidden units.
pub const HIDDEN: usize = 32;
/// First-layer weights are stored in 1/Q1 (a unit is fully on at Q1).
pub const Q1: i32 = 256;
/// Output weights are stored in 1/Q2 centi-men.
pub const Q2: i32 = 16;
/// Version of the network file format.
pub const FORMAT: u32 = 1;
/// Largest stored first-layer weight: 24 of them never overflow an i16 sum.
const W1_MAX: i32 = i16::MAX as i32 / 25;

/// Our men, our kings, their men, their kings, from the side to move's view.
#[inline(always)]
fn planes(pos: &Position) -> [u64; 4] {
    let us = pos.side_to_move();
    let them = us.opposite();
    let planes = [pos.men(us), pos.kings(us), pos.men(them), pos.kings(them)];
    if us == Color::Black {
        planes.map(turn)
    } else {
        planes
    }
}

/// The active inputs of a position, from the side to move's view.
pub fn inputs(pos: &Position) -> impl Iterator<Item = usize> {
    planes(pos)
        .into_iter()
        .enumerate()
        .flat_map(|(k, b)| Bits(b).map(move |bit| k * 36 + bit as usize))
}

/// A network in its stored, integer form.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// Rows by kind of piece and bit number (64 a kind, so that a bit number indexes
    /// without a bounds check).
    w1: Box<[[[i16; HIDDEN]; 64]; 4]>,
    b1: [i16; HIDDEN],
    w2: [i32; HIDDEN],
    b2: i32,
}

impl Net {
    /// The network's term for `pos`, in centi-men from the side to move's view.
    #[inline]
    pub fn score(&self, pos: &Position) -> i32 {
        let mut acc = self.b1;
        for (rows, mut b) in self.w1.iter().zip(planes(pos)) {
            while b != 0 {
                let row = &rows[(b.trailing_zeros() & 63) as usize];
                b &= b - 1;
                for j in 0..HIDDEN {
                    acc[j] = acc[j].wrapping_add(row[j]);
                }
            }
        }
        let mut out = 0i32;
        for (a, w) in acc.iter().zip(&self.w2) {
            out += *w * (*a).clamp(0, Q1 as i16) as i32;
        }
        (out + self.b2 * Q1) / (Q1 * Q2)
    }

    /// Rounds a float network (first layer in units, output in centi-men).
    pub fn quantize(f: &FloatNet) -> Net {
        let q1 = |x: f32| ((x * Q1 as f32).round() as i32).clamp(-W1_MAX, W1_MAX) as i16;
        let q2 = |x: f32| (x * Q2 as f32).round() as i32;
        let mut w1 = Box::new([[[0i16; HIDDEN]; 64]; 4]);
        for i in 0..INPUTS {
            for j in 0..HIDDEN {
                w1[i / 36][i % 36][j] = q1(f.w1[i * HIDDEN + j]);
            }
        }
        Net {
            w1,
            b1: std::array::from_fn(|j| q1(f.b1[j])),
            w2: std::array::from_fn(|j| q2(f.w2[j] * OUT)),
            b2: q2(f.b2 * OUT),
        }
    }

    /// The float network this one stores (each weight as it was rounded).
    pub fn to_float(&self) -> FloatNet {
        let mut w1 = vec![0.0; INPUTS * HIDDEN];
        for i in 0..INPUTS {
            for j in 0..HIDDEN {
                w1[i * HIDDEN + j] = self.w1[i / 36][i % 36][j] as f32 / Q1 as f32;
            }
        }
        let out = |x: i32| x as f32 / Q2 as f32 / OUT;
        FloatNet {
            w1,
            b1: self.b1.iter().map(|&x| x as f32 / Q1 as f32).collect(),
            w2: self.w2.iter().map(|&x| out(x)).collect(),
            b2: out(self.b2),
        }
    }

    /// The file form of this network (see the module documentation).
    pub fn to_bytes(&self, variant: Variant) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(b"SHPN");
        for x in [FORMAT, variant_code(variant), INPUTS as u32, HIDDEN as u32] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for i in 0..INPUTS {
            for x in &self.w1[i / 36][i % 36] {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        for x in &self.b1 {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for x in &self.w2 {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a network file, checking its magic, version, variant, shape and checksum.
    pub fn parse(bytes: &[u8], variant: Variant) -> Result<Net, String> {
        let header = 20;
        let want = header + 2 * INPUTS * HIDDEN + 2 * HIDDEN + 4 * HIDDEN + 4 + 8;
        if bytes.len() < header || &bytes[..4] != b"SHPN" {
            return Err("the network file does not start with SHPN".into());
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        if u32_at(4) != FORMAT {
            return Err(format!(
                "the network file is format {}, this program reads format {FORMAT}",
                u32_at(4)
            ));
        }
        let v = variant_code(variant);
        if u32_at(8) != v {
            return Err(format!(
                "the network file is for variant {}, expected {v}",
                u32_at(8)
            ));
        }
        if (u32_at(12), u32_at(16)) != (INPUTS as u32, HIDDEN as u32) {
            return Err(format!(
                "the network file has {}x{} weights, expected {INPUTS}x{HIDDEN}",
                u32_at(12),
                u32_at(16)
            ));
        }
        if bytes.len() != want {
            return Err(format!(
                "the network file has {} bytes; format {FORMAT} needs {want}",
                bytes.len()
            ));
        }
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&bytes[want - 8..]);
        if u64::from_le_bytes(sum) != fnv1a(&bytes[..want - 8]) {
            return Err("the network file's checksum does not match: it is damaged".into());
        }
        let mut at = header;
        let mut i16_next = || {
            let x = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            at += 2;
            x
        };
        let mut w1 = Box::new([[[0i16; HIDDEN]; 64]; 4]);
        for i in 0..INPUTS {
            for w in w1[i / 36][i % 36].iter_mut() {
                *w = i16_next();
            }
        }
        let b1 = std::array::from_fn(|_| i16_next());
        let mut at = header + 2 * INPUTS * HIDDEN + 2 * HIDDEN;
        let mut i32_next = || {
            let x = i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
            at += 4;
            x
        };
        let w2 = std::array::from_fn(|_| i32_next());
        let b2 = i32_next();
        if w1
            .iter()
            .flatten()
            .flatten()
            .chain(&b1)
            .any(|&w| w.unsigned_abs() as i32 > W1_MAX)
        {
            return Err(format!(
                "the network file has a first-layer weight beyond ±{W1_MAX}"
            ));
        }
        Ok(Net { w1, b1, w2, b2 })
    }
}

/// Output weights are trained in men: a float output of 1 is [`OUT`] centi-men.
pub const OUT: f32 = 100.0;

/// A network in float form, for training: `w1` input-major (`INPUTS * HIDDEN`).
#[derive(Clone, Debug)]
pub struct FloatNet {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: f32,
}

impl FloatNet {
    /// Small seeded random weights, every unit starting half on.
    pub fn new(seed: u64) -> FloatNet {
        let mut rng = super::level::Rng::new(seed);
        let mut uniform =
            |r: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * r;
        let w1 = (0..INPUTS * HIDDEN).map(|_| uniform(0.1)).collect();
        let w2 = (0..HIDDEN).map(|_| uniform(0.05)).collect();
        FloatNet {
            w1,
            b1: vec![0.5; HIDDEN],
            w2,
            b2: 0.0,
        }
    }

    /// Hidden sums for the active inputs.
    fn hidden(&self, active: &[u8]) -> [f32; HIDDEN] {
        let mut z: [f32; HIDDEN] = std::array::from_fn(|j| self.b1[j]);
        for &i in active {
            let row = &self.w1[i as usize * HIDDEN..][..HIDDEN];
            for j in 0..HIDDEN {
                z[j] += row[j];
            }
        }
        z
    }

    /// Output in centi-men.
    pub fn score(&self, active: &[u8]) -> f32 {
        let z = self.hidden(active);
        let hidden: f32 = z
            .iter()
            .zip(&self.w2)
            .map(|(z, w)| w * z.clamp(0.0, 1.0))
            .sum();
        (self.b2 + hidden) * OUT
    }

    /// Adds the gradient of the output for `d` (d loss / d output in centi-men) to `g`.
    fn backward(&self, active: &[u8], d: f32, g: &mut FloatNet) {
        let z = self.hidden(active);
        let d = d * OUT;
        g.b2 += d;
        for (j, &zj) in z.iter().enumerate() {
            g.w2[j] += d * zj.clamp(0.0, 1.0);
            if zj > 0.0 && zj < 1.0 {
                let dz = d * self.w2[j];
                g.b1[j] += dz;
                for &i in active {
                    g.w1[i as usize * HIDDEN + j] += dz;
                }
            }
        }
    }

    fn zeros() -> FloatNet {
        FloatNet {
            w1: vec![0.0; INPUTS * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; HIDDEN],
            b2: 0.0,
        }
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(std::iter::once(&mut self.b2))
    }
}

/// One training position for the network.
#[derive(Clone, Debug)]
pub struct NetSample {
    /// Active inputs.
    pub active: Vec<u8>,
    /// The pattern evaluation's score, centi-men.
    pub base: f32,
    /// The target probability of winning for the side to move.
    pub target: f32,
}

/// The active inputs as bytes, for [`NetSample`].
pub fn active_inputs(pos: &Position) -> Vec<u8> {
    inputs(pos).map(|i| i as u8).collect()
}

/// Mean cross-entropy of `sigmoid((base + net) / k)` against the targets.
pub fn loss(net: &FloatNet, samples: &[NetSample], k: f32) -> f64 {
    samples
        .iter()
        .map(|s| {
            let p = sigmoid((s.base + net.score(&s.active)) / k);
            cross_entropy(p as f64, s.target as f64)
        })
        .sum::<f64>()
        / samples.len().max(1) as f64
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Mini-batch Adam over `samples` in a seeded order each epoch, the step falling linearly
/// to a tenth of `rate`; `report(epoch, training loss, net)` after each epoch.
pub fn fit(
    net: &mut FloatNet,
    samples: &[NetSample],
    k: f32,
    epochs: u32,
    batch: usize,
    rate: f32,
    report: &mut dyn FnMut(u32, f64, &FloatNet),
) {
    let mut m = FloatNet::zeros();
    let mut v = FloatNet::zeros();
    let mut g = FloatNet::zeros();
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut order: Vec<u32> = (0..samples.len() as u32).collect();
    let mut rng = super::level::Rng::new(0x4E37);
    let mut step = 0i32;
    for epoch in 1..=epochs {
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let lr = rate * (1.0 - 0.9 * (epoch - 1) as f32 / epochs.max(1) as f32);
        let mut total = 0.0f64;
        for chunk in order.chunks(batch.max(1)) {
            g.params_mut().for_each(|x| *x = 0.0);
            for &i in chunk {
                let s = &samples[i as usize];
                let p = sigmoid((s.base + net.score(&s.active)) / k);
                total += cross_entropy(p as f64, s.target as f64);
                net.backward(&s.active, (p - s.target) / k / chunk.len() as f32, &mut g);
            }
            step += 1;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for (((w, gi), mi), vi) in net
                .params_mut()
                .zip(g.params_mut())
                .zip(m.params_mut())
                .zip(v.params_mut())
            {
                *mi = b1 * *mi + (1.0 - b1) * *gi;
                *vi = b2 * *vi + (1.0 - b2) * *gi * *gi;
                *w -= lr * (*mi / c1) / ((*vi / c2).sqrt() + eps);
            }
        }
        report(epoch, total / samples.len().max(1) as f64, net);
    }
}

static RUSSIAN_FILE: &[u8] = include_bytes!("../../assets/eval/russian.net");
static GIVEAWAY_FILE: &[u8] = include_bytes!("../../assets/eval/giveaway.net");

/// The embedded network of a variant, read once. A damaged embedded file is a broken
/// build: the error names the file and the reason.
pub fn embedded(variant: Variant) -> &'static Net {
    static RU: OnceLock<Net> = OnceLock::new();
    static GA: OnceLock<Net> = OnceLock::new();
    let (cell, bytes, name) = match variant {
        Variant::Russian => (&RU, RUSSIAN_FILE, "russian.net"),
        Variant::Giveaway => (&GA, GIVEAWAY_FILE, "giveaway.net"),
    };
    cell.get_or_init(|| match Net::parse(bytes, variant) {
        Ok(n) => n,
        Err(e) => panic!("assets/eval/{name}, embedded in this program, cannot be used: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_positions() -> Vec<Position> {
        let mut out = vec![Position::start()];
        let kings = Position::from_fen("W:WKa1,c3,e3,Kh6:Bb8,Kd6,f8,g7").unwrap();
        out.push(kings);
        let mut p = Position::start();
        for _ in 0..12 {
            let moves = p.legal_moves();
            p = p.play(&moves[moves.len() / 2]);
            out.push(p);
        }
        out
    }

    fn loud_net(seed: u64) -> FloatNet {
        let mut f = FloatNet::new(seed);
        f.w2.iter_mut().for_each(|w| *w *= 40.0);
        f.b2 = 0.3;
        f
    }

    #[test]
    fn network_files_round_trip_and_refuse_damage() {
        let net = Net::quantize(&loud_net(3));
        let bytes = net.to_bytes(Variant::Russian);
        assert_eq!(Net::parse(&bytes, Variant::Russian).unwrap(), net);
        assert!(
            Net::parse(&bytes, Variant::Giveaway)
                .unwrap_err()
                .contains("variant")
        );
        let mut bad = bytes.clone();
        bad[300] ^= 4;
        assert!(
            Net::parse(&bad, Variant::Russian)
                .unwrap_err()
                .contains("damaged")
        );
        assert!(Net::parse(&bytes[..bytes.len() - 1], Variant::Russian).is_err());
        assert!(Net::parse(b"SHPW", Variant::Russian).is_err());
        assert!(Net::parse(&[], Variant::Russian).is_err());
    }

    #[test]
    fn the_stored_network_computes_what_the_float_one_does() {
        let f = loud_net(7);
        let net = Net::quantize(&f);
        // The integer arithmetic matches the rounded weights' float arithmetic (up to the
        // final rounding), and rounding moves the score little.
        let rounded = net.to_float();
        assert_eq!(Net::quantize(&rounded), net);
        let mut spread = 0.0f32;
        for p in sample_positions() {
            let active = active_inputs(&p);
            let (float, exact) = (f.score(&active), rounded.score(&active));
            spread = spread.max(float.abs());
            let int = net.score(&p) as f32;
            assert!((exact - int).abs() <= 1.0, "{exact} against {int}");
            assert!(
                (float - int).abs() <= 2.0 + float.abs() / 5.0,
                "{float} against {int}"
            );
        }
        assert!(spread > 20.0, "the test network says something");
    }

    #[test]
    fn a_position_and_its_mirror_score_the_same() {
        let net = Net::quantize(&loud_net(11));
        for p in sample_positions() {
            let q = Position::from_bitboards(
                turn(p.black),
                turn(p.white),
                turn(p.kings),
                p.side_to_move().opposite(),
            )
            .unwrap();
            assert_eq!(net.score(&p), net.score(&q));
            assert_eq!(active_inputs(&p), active_inputs(&q));
        }
    }

    #[test]
    fn the_embedded_network_loads_and_has_something_to_say() {
        for v in [Variant::Russian, Variant::Giveaway] {
            let net = embedded(v);
            assert!(sample_positions().iter().any(|p| net.score(p) != 0));
        }
    }

    #[test]
    fn a_fit_learns_what_the_patterns_miss() {
        // The side to move wins exactly when it has a king on the long diagonal: the
        // network must learn it from a base score that knows nothing.
        let mut samples = Vec::new();
        for fen in [
            "W:WKa1,c3:Bf8,h6",
            "W:WKc3,e3:Bf8,h6",
            "W:WKd4,g1:Bb8,d8",
            "W:WKb2,a5:Bb8,d8",
            "W:WKa3,c1:Bf8,h6",
            "W:WKh2,a5:Bf8,h6",
            "B:WKa1,c3:Bf8,h6",
            "B:WKb2,c3:Bb8,d8",
        ] {
            let p = Position::from_fen(fen).unwrap();
            let us = p.kings(p.side_to_move()) & crate::rules::bitboard::LONG_DIAGONAL != 0;
            samples.push(NetSample {
                active: active_inputs(&p),
                base: 0.0,
                target: if us { 1.0 } else { 0.0 },
            });
        }
        let mut net = FloatNet::new(5);
        let k = 100.0;
        let before = loss(&net, &samples, k);
        let mut epochs = 0;
        fit(&mut net, &samples, k, 300, 4, 0.01, &mut |_, _, _| {
            epochs += 1
        });
        assert_eq!(epochs, 300);
        let after = loss(&net, &samples, k);
        assert!(after < before / 3.0, "loss {before} -> {after}");
        for s in &samples {
            let v = net.score(&s.active);
            assert!((v > 0.0) == (s.target > 0.5), "{v} for target {}", s.target);
        }
    }
}
