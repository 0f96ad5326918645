//! Training of the network added to the pattern evaluation ([`crate::ai::net`]): its
//! float form, the fit (mini-batch Adam on cross-entropy) and the rounding to the stored
//! integer form. The engine never imports this module.

use crate::ai::net::{HIDDEN, INPUTS, Net, QA, QB, W1_MAX, W2_MAX, bucket_of, inputs};
use crate::ai::shared::{Rng, cross_entropy};
use crate::rules::Position;

/// Output weights are trained in men: a float output of 1 is [`OUT`] centi-men.
pub const OUT: f32 = 100.0;
/// Largest first-layer weight in units: what the stored i16 can hold.
const W1_LIMIT: f32 = W1_MAX as f32 / QA as f32;
/// Largest output weight in men: what the stored i16 can hold.
const W2_LIMIT: f32 = W2_MAX as f32 / QB as f32 / OUT;

/// A network in float form, for training: `w1` input-major (`INPUTS * HIDDEN`), `w2`
/// bucket by bucket the side to move's units and then the opponent's (`buckets * 2 *
/// HIDDEN`), `b2` a bias a bucket.
#[derive(Clone, Debug)]
pub struct FloatNet {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    /// Whether the clipped units are squared.
    pub squared: bool,
}

/// The shape of a network to fit: output buckets and activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub buckets: usize,
    pub squared: bool,
}

impl Default for Shape {
    fn default() -> Self {
        Shape {
            buckets: 1,
            squared: false,
        }
    }
}

/// The first layer's sums of both views.
struct Hidden {
    us: [f32; HIDDEN],
    them: [f32; HIDDEN],
}

impl FloatNet {
    /// Small seeded random weights, every unit starting half on.
    pub fn new(seed: u64, shape: Shape) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut uniform =
            |r: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * r;
        let w1 = (0..INPUTS * HIDDEN).map(|_| uniform(0.1)).collect();
        let w2 = (0..shape.buckets * 2 * HIDDEN)
            .map(|_| uniform(0.02))
            .collect();
        FloatNet {
            w1,
            b1: vec![0.5; HIDDEN],
            w2,
            b2: vec![0.0; shape.buckets],
            squared: shape.squared,
        }
    }

    /// The number of output buckets.
    pub fn buckets(&self) -> usize {
        self.b2.len()
    }

    /// A unit's output for its sum `z`, and the slope there.
    #[inline(always)]
    fn activate(&self, z: f32) -> (f32, f32) {
        let c = z.clamp(0.0, 1.0);
        let inside = z > 0.0 && z < 1.0;
        if self.squared {
            (c * c, if inside { 2.0 * c } else { 0.0 })
        } else {
            (c, if inside { 1.0 } else { 0.0 })
        }
    }

    fn sums(&self, active: &[u8]) -> [f32; HIDDEN] {
        let mut z: [f32; HIDDEN] = std::array::from_fn(|j| self.b1[j]);
        for &i in active {
            let row = &self.w1[i as usize * HIDDEN..][..HIDDEN];
            for j in 0..HIDDEN {
                z[j] += row[j];
            }
        }
        z
    }

    fn hidden(&self, s: &Inputs) -> Hidden {
        Hidden {
            us: self.sums(&s.us),
            them: self.sums(&s.them),
        }
    }

    /// Output in centi-men.
    pub fn score(&self, s: &Inputs) -> f32 {
        let h = self.hidden(s);
        let b = bucket_of(s.pieces as u32, self.buckets());
        let (w_us, w_them) = self.w2[b * 2 * HIDDEN..][..2 * HIDDEN].split_at(HIDDEN);
        let dot = |z: &[f32; HIDDEN], w: &[f32]| -> f32 {
            z.iter().zip(w).map(|(z, w)| w * self.activate(*z).0).sum()
        };
        (self.b2[b] + dot(&h.us, w_us) + dot(&h.them, w_them)) * OUT
    }

    /// Adds the gradient of the output for `d` (d loss / d output in centi-men) to `g`.
    fn backward(&self, s: &Inputs, d: f32, g: &mut FloatNet) {
        let h = self.hidden(s);
        let d = d * OUT;
        let b = bucket_of(s.pieces as u32, self.buckets());
        g.b2[b] += d;
        let w2 = b * 2 * HIDDEN;
        for (half, (z, active)) in [(&h.us, &s.us), (&h.them, &s.them)].into_iter().enumerate() {
            let mut dz = [0.0f32; HIDDEN];
            for (j, &zj) in z.iter().enumerate() {
                let (a, slope) = self.activate(zj);
                let k = w2 + half * HIDDEN + j;
                g.w2[k] += d * a;
                dz[j] = d * slope * self.w2[k];
            }
            for (b, x) in g.b1.iter_mut().zip(&dz) {
                *b += x;
            }
            for &i in active.iter() {
                let row = &mut g.w1[i as usize * HIDDEN..][..HIDDEN];
                for (r, x) in row.iter_mut().zip(&dz) {
                    *r += x;
                }
            }
        }
    }

    fn zeros(&self) -> FloatNet {
        FloatNet {
            w1: vec![0.0; INPUTS * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; self.w2.len()],
            b2: vec![0.0; self.buckets()],
            squared: self.squared,
        }
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(self.b2.iter_mut())
    }

    /// Keeps every weight within what its stored form can hold.
    fn clip(&mut self) {
        for w in self.w1.iter_mut().chain(self.b1.iter_mut()) {
            *w = w.clamp(-W1_LIMIT, W1_LIMIT);
        }
        for w in self.w2.iter_mut() {
            *w = w.clamp(-W2_LIMIT, W2_LIMIT);
        }
    }
}

/// The active inputs of both views of a position: the side to move's and the opponent's,
/// and the number of pieces (which picks the output bucket).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inputs {
    pub us: Vec<u8>,
    pub them: Vec<u8>,
    pub pieces: u8,
}

/// One training position for the network.
#[derive(Clone, Debug)]
pub struct NetSample {
    pub inputs: Inputs,
    /// The pattern evaluation's score, centi-men.
    pub base: f32,
    /// The target probability of winning for the side to move.
    pub target: f32,
}

/// The active inputs of both views, for [`NetSample`].
pub fn active_inputs(pos: &Position) -> Inputs {
    let us = pos.side_to_move();
    let view = |c| inputs(pos, c).map(|i| i as u8).collect();
    Inputs {
        us: view(us),
        them: view(us.opposite()),
        pieces: (pos.white | pos.black).count_ones() as u8,
    }
}

/// Mean cross-entropy of `sigmoid((base + net) / k)` against the targets.
pub fn loss(net: &FloatNet, samples: &[NetSample], k: f32) -> f64 {
    samples
        .iter()
        .map(|s| {
            let p = sigmoid((s.base + net.score(&s.inputs)) / k);
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
    let mut m = net.zeros();
    let mut v = net.zeros();
    let mut g = net.zeros();
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut order: Vec<u32> = (0..samples.len() as u32).collect();
    let mut rng = Rng::new(0x4E37);
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
                let p = sigmoid((s.base + net.score(&s.inputs)) / k);
                total += cross_entropy(p as f64, s.target as f64);
                net.backward(&s.inputs, (p - s.target) / k / chunk.len() as f32, &mut g);
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
            net.clip();
        }
        report(epoch, total / samples.len().max(1) as f64, net);
    }
}

/// Rounds a float network (first layer in units, output in men) to its stored form.
pub fn quantize(f: &FloatNet) -> Net {
    let q1 = |x: f32| ((x * QA as f32).round() as i32).clamp(-W1_MAX, W1_MAX) as i16;
    let q2 = |x: f32| ((x * OUT * QB as f32).round() as i32).clamp(-W2_MAX, W2_MAX) as i16;
    let mut w1 = Box::new([[[0i16; HIDDEN]; 64]; 4]);
    for i in 0..INPUTS {
        for j in 0..HIDDEN {
            w1[i / 36][i % 36][j] = q1(f.w1[i * HIDDEN + j]);
        }
    }
    Net {
        w1,
        b1: std::array::from_fn(|j| q1(f.b1[j])),
        w2: (0..f.buckets())
            .map(|b| {
                std::array::from_fn(|h| std::array::from_fn(|j| q2(f.w2[(2 * b + h) * HIDDEN + j])))
            })
            .collect(),
        b2: f
            .b2
            .iter()
            .map(|b| (b * OUT * QB as f32).round() as i32)
            .collect(),
        squared: f.squared,
    }
}

/// The float network a stored one holds (each weight as it was rounded).
pub fn to_float(net: &Net) -> FloatNet {
    let mut w1 = vec![0.0; INPUTS * HIDDEN];
    for i in 0..INPUTS {
        for j in 0..HIDDEN {
            w1[i * HIDDEN + j] = net.w1[i / 36][i % 36][j] as f32 / QA as f32;
        }
    }
    let out = |x: i32| x as f32 / QB as f32 / OUT;
    FloatNet {
        w1,
        b1: net.b1.iter().map(|&x| x as f32 / QA as f32).collect(),
        w2: net
            .w2
            .iter()
            .flatten()
            .flatten()
            .map(|&x| out(x as i32))
            .collect(),
        b2: net.b2.iter().map(|&b| out(b)).collect(),
        squared: net.squared,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::shared::turn;
    use crate::rules::Variant;

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

    fn loud_net(seed: u64, shape: Shape) -> FloatNet {
        let mut f = FloatNet::new(seed, shape);
        f.w2.iter_mut().for_each(|w| *w *= 100.0);
        for (i, b) in f.b2.iter_mut().enumerate() {
            *b = 0.3 - 0.1 * i as f32;
        }
        f
    }

    const SHAPES: [Shape; 2] = [
        Shape {
            buckets: 1,
            squared: false,
        },
        Shape {
            buckets: 6,
            squared: true,
        },
    ];

    #[test]
    fn network_files_round_trip_and_refuse_damage() {
        let six = quantize(&loud_net(3, SHAPES[1]));
        assert_eq!(
            Net::parse(&six.to_bytes(Variant::Russian), Variant::Russian).unwrap(),
            six
        );
        let net = quantize(&loud_net(3, SHAPES[0]));
        let bytes = net.to_bytes(Variant::Russian);
        assert_eq!(Net::parse(&bytes, Variant::Russian).unwrap(), net);
        // Format 2 (no bucket and activation fields) is one clipped bucket.
        let mut two = bytes[..20].to_vec();
        two[4] = 2;
        two.extend_from_slice(&bytes[28..bytes.len() - 8]);
        let sum = crate::ai::shared::fnv1a(&two);
        two.extend_from_slice(&sum.to_le_bytes());
        assert_eq!(Net::parse(&two, Variant::Russian).unwrap(), net);
        let mut many = bytes.clone();
        many[20] = 99;
        assert!(
            Net::parse(&many, Variant::Russian)
                .unwrap_err()
                .contains("buckets")
        );
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
        for shape in SHAPES {
            stored_and_float_agree(shape);
        }
    }

    fn stored_and_float_agree(shape: Shape) {
        let f = loud_net(7, shape);
        let net = quantize(&f);
        // The integer arithmetic matches the rounded weights' float arithmetic (up to the
        // final rounding), and rounding moves the score little.
        let rounded = to_float(&net);
        assert_eq!(quantize(&rounded), net);
        let mut spread = 0.0f32;
        for p in sample_positions() {
            let active = active_inputs(&p);
            let (float, exact) = (f.score(&active), rounded.score(&active));
            spread = spread.max(float.abs());
            let int = net.score(&p) as f32;
            // Squared units are summed in steps of 1/256 of a product, rounded.
            let slack = if shape.squared { 3.0 } else { 1.0 };
            assert!((exact - int).abs() <= slack, "{exact} against {int}");
            // The first layer's weights of these networks are rounded by up to 2%.
            assert!((float - int).abs() <= 20.0, "{float} against {int}");
        }
        assert!(spread > 100.0, "the test network says something");
    }

    #[test]
    fn a_position_and_its_mirror_score_the_same() {
        let net = quantize(&loud_net(11, SHAPES[1]));
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
                inputs: active_inputs(&p),
                base: 0.0,
                target: if us { 1.0 } else { 0.0 },
            });
        }
        let mut net = FloatNet::new(5, Shape::default());
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
            let v = net.score(&s.inputs);
            assert!((v > 0.0) == (s.target > 0.5), "{v} for target {}", s.target);
        }
    }
}
