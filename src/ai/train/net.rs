//! Training of the network added to the pattern evaluation ([`crate::ai::net`]): its
//! float form, the fit (mini-batch Adam on cross-entropy) and the rounding to the stored
//! integer form. The engine never imports this module.

use crate::ai::net::{
    B3_MAX, HIDDEN, INPUTS, Net, QA, QB, QH, W1_MAX, W2_MAX, W3_MAX, bucket_of, inputs,
};
use crate::ai::shared::{Rng, cross_entropy};
use crate::rules::Position;

/// Output weights are trained in men: a float output of 1 is [`OUT`] centi-men.
pub const OUT: f32 = 100.0;
/// Largest first-layer weight in units: what the stored i16 can hold.
const W1_LIMIT: f32 = W1_MAX as f32 / QA as f32;
/// Largest output weight in men: what the stored i16 can hold.
const W2_LIMIT: f32 = W2_MAX as f32 / QB as f32 / OUT;
/// Largest hidden-layer weight and bias in units: what the stored forms can hold.
const W3_LIMIT: f32 = W3_MAX as f32 / QH as f32;
const B3_LIMIT: f32 = B3_MAX as f32 / (QA * QH) as f32;

/// A network in float form, for training: `w1` input-major (`INPUTS * HIDDEN`), `w2`
/// bucket by bucket the side to move's units and then the opponent's (`buckets * 2 *
/// HIDDEN`), `b2` a bias a bucket; the hidden layer (none where `b3` is empty): `w3` unit
/// by unit over the same `2 * HIDDEN` activations, `b3` a bias a unit, `w4` bucket by
/// bucket a weight a unit (in men).
#[derive(Clone, Debug)]
pub struct FloatNet {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    /// Whether the clipped units are squared.
    pub squared: bool,
    /// Whether the buckets also split positions with a king from those without.
    pub king_buckets: bool,
    pub w3: Vec<f32>,
    pub b3: Vec<f32>,
    pub w4: Vec<f32>,
}

/// The shape of a network to fit: output buckets, activation and hidden units (0: the
/// first layer's units go straight to the output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub buckets: usize,
    pub squared: bool,
    pub hidden2: usize,
    /// Half the buckets for positions without a king, half for those with one.
    pub king_buckets: bool,
}

impl Default for Shape {
    fn default() -> Self {
        Shape {
            buckets: 1,
            squared: false,
            hidden2: 0,
            king_buckets: false,
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
        let mut net = FloatNet {
            w1,
            b1: vec![0.5; HIDDEN],
            w2,
            b2: vec![0.0; shape.buckets],
            squared: shape.squared,
            king_buckets: shape.king_buckets,
            w3: Vec::new(),
            b3: Vec::new(),
            w4: Vec::new(),
        };
        net.add_hidden(shape.hidden2, seed ^ 0x4D1D);
        net
    }

    /// Gives a network without a hidden layer one of `n` units (small seeded weights, each
    /// unit half on, weighed 0 at the output, so the network's output is unchanged).
    pub fn add_hidden(&mut self, n: usize, seed: u64) {
        let mut rng = Rng::new(seed);
        let r = 0.05f32;
        self.w3 = (0..n * 2 * HIDDEN)
            .map(|_| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * r)
            .collect();
        self.b3 = vec![0.5; n];
        self.w4 = vec![0.0; self.buckets() * n];
    }

    /// The number of hidden units.
    pub fn hidden2(&self) -> usize {
        self.b3.len()
    }

    /// The number of output buckets.
    pub fn buckets(&self) -> usize {
        self.b2.len()
    }

    /// The output bucket of a position's inputs.
    fn bucket(&self, s: &Inputs) -> usize {
        bucket_of(s.pieces as u32, s.kings, self.buckets(), self.king_buckets)
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

    /// The activations of both views (the side to move's, then the opponent's) and their
    /// slopes.
    fn activations(&self, h: &Hidden) -> ([f32; 2 * HIDDEN], [f32; 2 * HIDDEN]) {
        let mut a = [0.0f32; 2 * HIDDEN];
        let mut slope = [0.0f32; 2 * HIDDEN];
        for (j, z) in h.us.iter().chain(&h.them).enumerate() {
            (a[j], slope[j]) = self.activate(*z);
        }
        (a, slope)
    }

    /// The hidden units' sums.
    fn hidden2_sums(&self, a: &[f32; 2 * HIDDEN]) -> Vec<f32> {
        self.b3
            .iter()
            .enumerate()
            .map(|(k, b)| {
                let w = &self.w3[k * 2 * HIDDEN..][..2 * HIDDEN];
                b + w.iter().zip(a).map(|(w, a)| w * a).sum::<f32>()
            })
            .collect()
    }

    /// Output in centi-men.
    pub fn score(&self, s: &Inputs) -> f32 {
        let (a, _) = self.activations(&self.hidden(s));
        self.output(s, &a)
    }

    /// Output in centi-men from the activations of both views.
    fn output(&self, s: &Inputs, a: &[f32; 2 * HIDDEN]) -> f32 {
        let b = self.bucket(s);
        let w2 = &self.w2[b * 2 * HIDDEN..][..2 * HIDDEN];
        let mut out = self.b2[b] + w2.iter().zip(a).map(|(w, a)| w * a).sum::<f32>();
        if self.hidden2() > 0 {
            let w4 = &self.w4[b * self.hidden2()..][..self.hidden2()];
            out += self
                .hidden2_sums(a)
                .iter()
                .zip(w4)
                .map(|(h, w)| w * h.clamp(0.0, 1.0))
                .sum::<f32>();
        }
        out * OUT
    }

    /// Adds the gradient of the output for `d` (d loss / d output in centi-men) to `g`.
    #[cfg(test)]
    fn backward(&self, s: &Inputs, d: f32, g: &mut FloatNet) {
        let (a, slope) = self.activations(&self.hidden(s));
        self.backward_from(s, &a, &slope, d, g);
    }

    /// [`FloatNet::backward`] from the activations and slopes of the forward pass.
    fn backward_from(
        &self,
        s: &Inputs,
        a: &[f32; 2 * HIDDEN],
        slope: &[f32; 2 * HIDDEN],
        d: f32,
        g: &mut FloatNet,
    ) {
        let d = d * OUT;
        let b = self.bucket(s);
        g.b2[b] += d;
        let w2 = b * 2 * HIDDEN;
        // d loss / d activation, from the output and from the hidden units.
        let mut da: [f32; 2 * HIDDEN] = std::array::from_fn(|j| d * self.w2[w2 + j]);
        for (g, a) in g.w2[w2..][..2 * HIDDEN].iter_mut().zip(a) {
            *g += d * a;
        }
        let n2 = self.hidden2();
        if n2 > 0 {
            for (k, hk) in self.hidden2_sums(a).into_iter().enumerate() {
                g.w4[b * n2 + k] += d * hk.clamp(0.0, 1.0);
                if hk <= 0.0 || hk >= 1.0 {
                    continue;
                }
                let dh = d * self.w4[b * n2 + k];
                g.b3[k] += dh;
                let w = &self.w3[k * 2 * HIDDEN..][..2 * HIDDEN];
                let gw = &mut g.w3[k * 2 * HIDDEN..][..2 * HIDDEN];
                for j in 0..2 * HIDDEN {
                    gw[j] += dh * a[j];
                    da[j] += dh * w[j];
                }
            }
        }
        for (half, active) in [&s.us, &s.them].into_iter().enumerate() {
            let mut dz = [0.0f32; HIDDEN];
            for j in 0..HIDDEN {
                dz[j] = da[half * HIDDEN + j] * slope[half * HIDDEN + j];
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
            king_buckets: self.king_buckets,
            w3: vec![0.0; self.w3.len()],
            b3: vec![0.0; self.b3.len()],
            w4: vec![0.0; self.w4.len()],
        }
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(self.b2.iter_mut())
            .chain(self.w3.iter_mut())
            .chain(self.b3.iter_mut())
            .chain(self.w4.iter_mut())
    }

    /// Keeps every weight within what its stored form can hold.
    fn clip(&mut self) {
        for w in self.w1.iter_mut().chain(self.b1.iter_mut()) {
            *w = w.clamp(-W1_LIMIT, W1_LIMIT);
        }
        for w in self.w2.iter_mut().chain(self.w4.iter_mut()) {
            *w = w.clamp(-W2_LIMIT, W2_LIMIT);
        }
        for w in self.w3.iter_mut() {
            *w = w.clamp(-W3_LIMIT, W3_LIMIT);
        }
        for b in self.b3.iter_mut() {
            *b = b.clamp(-B3_LIMIT, B3_LIMIT);
        }
    }
}

/// The active inputs of both views of a position: the side to move's and the opponent's,
/// the number of pieces and whether a king is on the board (which pick the output bucket).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inputs {
    pub us: Vec<u8>,
    pub them: Vec<u8>,
    pub pieces: u8,
    pub kings: bool,
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
        kings: pos.kings != 0,
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

/// How many parts each mini-batch is split into, each part's gradient computed on its own
/// thread. Fixed, so that a fit gives the same network on any machine.
const PARTS: usize = 2;

/// Adds the gradient of the mean loss over `part` (indices into `samples`, the mean taken
/// over `n` positions) to `g`; returns the part's summed loss.
fn gradient(
    net: &FloatNet,
    samples: &[NetSample],
    part: &[u32],
    k: f32,
    n: usize,
    g: &mut FloatNet,
) -> f64 {
    let mut total = 0.0f64;
    for &i in part {
        let s = &samples[i as usize];
        let (a, slope) = net.activations(&net.hidden(&s.inputs));
        let p = sigmoid((s.base + net.output(&s.inputs, &a)) / k);
        total += cross_entropy(p as f64, s.target as f64);
        net.backward_from(&s.inputs, &a, &slope, (p - s.target) / k / n as f32, g);
    }
    total
}

/// Mini-batch Adam over `samples` in a seeded order each epoch, the step falling linearly
/// to a tenth of `rate`; `report(epoch, training loss, net)` after each epoch. Each batch's
/// gradient is computed in [`PARTS`] parts on as many threads and summed in order.
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
    let mut parts: Vec<FloatNet> = (1..PARTS).map(|_| net.zeros()).collect();
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
            let n = chunk.len();
            let size = n.div_ceil(PARTS);
            let mut pieces = chunk.chunks(size);
            let first = pieces.next().unwrap_or(&[]);
            let shared: &FloatNet = net;
            let (head, rest) = std::thread::scope(|scope| {
                let handles: Vec<_> = parts
                    .iter_mut()
                    .zip(pieces)
                    .map(|(gp, piece)| {
                        scope.spawn(move || {
                            gp.params_mut().for_each(|x| *x = 0.0);
                            gradient(shared, samples, piece, k, n, gp)
                        })
                    })
                    .collect();
                g.params_mut().for_each(|x| *x = 0.0);
                let head = gradient(shared, samples, first, k, n, &mut g);
                let rest: Vec<f64> = handles
                    .into_iter()
                    .map(|h| h.join().expect("a gradient thread panicked"))
                    .collect();
                (head, rest)
            });
            total += head;
            for (t, gp) in rest.into_iter().zip(&mut parts) {
                total += t;
                for (x, y) in g.params_mut().zip(gp.params_mut()) {
                    *x += *y;
                }
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
        king_buckets: f.king_buckets,
        w3: (0..f.hidden2())
            .map(|k| {
                std::array::from_fn(|h| {
                    std::array::from_fn(|j| {
                        let w = f.w3[(2 * k + h) * HIDDEN + j] * QH as f32;
                        (w.round() as i32).clamp(-W3_MAX, W3_MAX) as i16
                    })
                })
            })
            .collect(),
        b3: f
            .b3
            .iter()
            .map(|b| {
                ((b * (QA * QH) as f32).round() as i64).clamp(-(B3_MAX as i64), B3_MAX as i64)
                    as i32
            })
            .collect(),
        w4: (0..f.buckets())
            .map(|b| {
                (0..f.hidden2())
                    .map(|k| q2(f.w4[b * f.hidden2() + k]))
                    .collect()
            })
            .collect(),
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
        king_buckets: net.king_buckets,
        w3: net
            .w3
            .iter()
            .flatten()
            .flatten()
            .map(|&x| x as f32 / QH as f32)
            .collect(),
        b3: net
            .b3
            .iter()
            .map(|&b| b as f32 / (QA * QH) as f32)
            .collect(),
        w4: net.w4.iter().flatten().map(|&x| out(x as i32)).collect(),
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
        let mut rng = Rng::new(seed);
        for w in f.w4.iter_mut() {
            *w = ((rng.next_u64() % 2001) as f32 - 1000.0) / 500.0;
        }
        for (i, b) in f.b2.iter_mut().enumerate() {
            *b = 0.3 - 0.1 * i as f32;
        }
        f
    }

    const SHAPES: [Shape; 4] = [
        Shape {
            buckets: 1,
            squared: false,
            hidden2: 0,
            king_buckets: false,
        },
        Shape {
            buckets: 6,
            squared: true,
            hidden2: 0,
            king_buckets: true,
        },
        Shape {
            buckets: 1,
            squared: false,
            hidden2: 8,
            king_buckets: false,
        },
        Shape {
            buckets: 4,
            squared: true,
            hidden2: 16,
            king_buckets: true,
        },
    ];

    #[test]
    fn network_files_round_trip_and_refuse_damage() {
        for shape in &SHAPES[1..] {
            let other = quantize(&loud_net(3, *shape));
            assert_eq!(
                Net::parse(&other.to_bytes(Variant::Russian), Variant::Russian).unwrap(),
                other
            );
        }
        let net = quantize(&loud_net(3, SHAPES[0]));
        let bytes = net.to_bytes(Variant::Russian);
        // Without a hidden layer the file is format 3, as before format 4.
        assert_eq!(bytes[4], 3);
        assert_eq!(Net::parse(&bytes, Variant::Russian).unwrap(), net);
        // Formats 2 (no bucket and activation fields: one clipped bucket) and 4 (with the
        // field of the hidden layer, here 0 units) are read as well.
        let mut two = bytes[..20].to_vec();
        two[4] = 2;
        let mut four = bytes[..28].to_vec();
        four[4] = 4;
        four.extend_from_slice(&0u32.to_le_bytes());
        for mut old in [two, four] {
            old.extend_from_slice(&bytes[28..bytes.len() - 8]);
            let sum = crate::ai::shared::fnv1a(&old);
            old.extend_from_slice(&sum.to_le_bytes());
            assert_eq!(Net::parse(&old, Variant::Russian).unwrap(), net);
        }
        let hidden = quantize(&loud_net(3, SHAPES[2])).to_bytes(Variant::Russian);
        assert_eq!(hidden[4], 4);
        // Buckets split by kings need format 5 and an even number of buckets.
        let kings = quantize(&loud_net(3, SHAPES[1])).to_bytes(Variant::Russian);
        assert_eq!((kings[4], kings[32]), (5, 1));
        // Each file, with one byte changed, is refused for the reason named.
        let refusals: [(&[u8], usize, u8, Variant, &str); 6] = [
            (&kings, 20, 5, Variant::Russian, "even"),
            (&kings, 32, 2, Variant::Russian, "scheme"),
            (&hidden, 28, 65, Variant::Russian, "hidden units"),
            (&bytes, 20, 99, Variant::Russian, "buckets"),
            (&bytes, 300, bytes[300] ^ 4, Variant::Russian, "damaged"),
            (&bytes, 4, 3, Variant::Giveaway, "variant"),
        ];
        for (file, at, byte, variant, why) in refusals {
            let mut changed = file.to_vec();
            changed[at] = byte;
            let err = Net::parse(&changed, variant).unwrap_err();
            assert!(err.contains(why), "{err}");
        }
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
            // Squared units are summed in steps of 1/256 of a product, rounded; the hidden
            // layer reads every activation, and its units, rounded to 1/255.
            let slack = if shape.squared || shape.hidden2 > 0 {
                3.0
            } else {
                1.0
            };
            assert!((exact - int).abs() <= slack, "{exact} against {int}");
            // The first layer's weights of these networks are rounded by up to 2%, and a
            // hidden layer carries that on to its loud output weights.
            let drift = if shape.hidden2 > 0 { 40.0 } else { 20.0 };
            assert!((float - int).abs() <= drift, "{float} against {int}");
        }
        assert!(spread > 100.0, "the test network says something");
    }

    #[test]
    fn gradients_match_finite_differences() {
        // d score / d weight from `backward`, against the score's change when the weight
        // moves a little, for weights of every layer of a network with a hidden layer.
        let shape = SHAPES[3];
        let net = loud_net(13, shape);
        let mut moved = [0; 6];
        for p in sample_positions().iter().step_by(3) {
            let s = active_inputs(p);
            let mut g = net.zeros();
            net.backward(&s, 1.0 / OUT, &mut g);
            let b = net.bucket(&s);
            type Field = fn(&mut FloatNet) -> &mut Vec<f32>;
            let probes: [(Field, usize); 6] = [
                (|n| &mut n.w1, s.us[0] as usize * HIDDEN + 3),
                (|n| &mut n.b1, 5),
                (|n| &mut n.w2, b * 2 * HIDDEN + 7),
                (|n| &mut n.w3, 2 * 2 * HIDDEN + 11),
                (|n| &mut n.b3, 4),
                (|n| &mut n.w4, b * shape.hidden2 + 9),
            ];
            for (n, (field, i)) in probes.into_iter().enumerate() {
                let eps = 1e-3f32;
                let (mut up, mut down) = (net.clone(), net.clone());
                field(&mut up)[i] += eps;
                field(&mut down)[i] -= eps;
                let numeric = (up.score(&s) - down.score(&s)) / (2.0 * eps) / OUT;
                let analytic = field(&mut g.clone())[i];
                assert!(
                    (numeric - analytic).abs() <= 0.02 * (1.0 + analytic.abs()),
                    "weight {i}: {analytic} by backward, {numeric} by differences"
                );
                moved[n] += (analytic.abs() > 1e-3) as usize;
            }
        }
        assert!(
            moved.iter().all(|&m| m > 0),
            "every layer's probe moves: {moved:?}"
        );
    }

    #[test]
    fn a_batch_split_in_parts_has_the_whole_batch_gradient() {
        let net = loud_net(17, SHAPES[3]);
        let samples: Vec<NetSample> = sample_positions()
            .iter()
            .enumerate()
            .map(|(i, p)| NetSample {
                inputs: active_inputs(p),
                base: (i as f32 * 37.0) % 200.0 - 100.0,
                target: (i % 3) as f32 / 2.0,
            })
            .collect();
        let all: Vec<u32> = (0..samples.len() as u32).collect();
        let n = all.len();
        let mut whole = net.zeros();
        let whole_loss = gradient(&net, &samples, &all, 80.0, n, &mut whole);
        let (mut left, mut right) = (net.zeros(), net.zeros());
        let half = n / 2;
        let parts_loss = gradient(&net, &samples, &all[..half], 80.0, n, &mut left)
            + gradient(&net, &samples, &all[half..], 80.0, n, &mut right);
        assert!((whole_loss - parts_loss).abs() < 1e-9 * whole_loss.abs().max(1.0));
        let mut moved = 0;
        for ((w, l), r) in whole
            .params_mut()
            .zip(left.params_mut())
            .zip(right.params_mut())
        {
            assert!((*w - (*l + *r)).abs() <= 1e-4 * (1.0 + w.abs()));
            moved += (w.abs() > 1e-6) as usize;
        }
        assert!(moved > 100, "the gradient moves weights: {moved}");
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
