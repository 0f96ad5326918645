//! The network added to the pattern evaluation ([`super::pattern`]), updated move by move
//! (NNUE-style): it sees every piece at once, where a pattern sees one 4x4 window of men,
//! so it can weigh what the windows miss (where the kings stand, the balance of the
//! flanks, kings against men).
//!
//! **Inputs.** Each side's view of the board (the board turned for Black, as in the
//! patterns): own men, own kings, the opponent's men, the opponent's kings, 36 slots each
//! (the internal layout's bit numbers; the four unused bits never fire), 144 in all.
//! **First layer.** [`HIDDEN`] units a view, the same weights for both views, kept as an
//! [`Accumulator`]: the sums of the rows of the pieces on the board. A move changes two
//! squares plus one per piece taken, so the search updates the parent's sums by adding
//! and subtracting those rows only ([`Net::update`]) instead of summing every piece again.
//! **Output.** The side to move's units and then the opponent's, each clipped to
//! `[0, 1]` (and squared, where the file says so), weighted into one output in centi-men
//! that is added to the pattern score. The output weights may come in buckets by the
//! number of pieces on the board (a file of `n` buckets uses bucket `(pieces - 1) * n /
//! 24`), so that the opening, the middle game and the ending each weigh the same units
//! their own way; a file may also split its buckets by kings (format 5): the first half
//! for positions without a king, the second half for those with one, each half by the
//! number of pieces as above. A file may add a **hidden layer** (format 4): a few units
//! that each weigh all the clipped (or squared) units of both views, are clipped to
//! `[0, 1]` in turn and weighed into the output by the bucket's own weights, beside the
//! first layer's direct terms. Each variant has its own network.
//!
//! **Integers.** A unit is fully on at [`QA`]: first-layer weights and biases are i16 in
//! 1/[`QA`] (at most [`W1_MAX`], so that 24 rows and the bias never overflow); output
//! weights are i16 in 1/[`QB`] centi-men for a unit fully on (at most [`W2_MAX`], so that
//! the 512 products never overflow an i32), the bias i32 in 1/[`QB`] centi-men. The hidden
//! layer reads each activation in steps of 1/[`QA`]; its weights are i16 in 1/[`QH`] (at
//! most [`W3_MAX`]), its biases i32 in 1/([`QA`] * [`QH`]), and its units, rounded to
//! 1/[`QA`], are weighed like the first layer's. The row
//! additions and the output's products run with AVX2 where the processor has it (detected
//! at run time; `SHASHKI_SIMD=portable` forces the portable code, which the compiler
//! vectorises for the baseline instruction set), with identical results.
//!
//! **File** (`assets/eval/*.net`, embedded in the binary), little-endian: magic `SHPN`,
//! format version (u32), variant (u32: 0 Russian, 1 поддавки), inputs (u32), hidden units a
//! view (u32), output buckets (u32, 1 to [`MAX_BUCKETS`]), activation (u32: 0 clipped, 1
//! clipped and squared), units of the hidden layer (u32, 0 to [`MAX_HIDDEN2`]), the
//! bucket scheme (u32: 0 by pieces, 1 by pieces and kings, with an even number of
//! buckets), then the first layer's weights (input by input, [`HIDDEN`] i16 each), its
//! biases ([`HIDDEN`] i16), each bucket's output weights (the side to move's [`HIDDEN`]
//! i16, then the opponent's), each hidden unit's weights (laid out the same way), each
//! bucket's weights of the hidden units (i16 each), each bucket's output bias (i32), each
//! hidden unit's bias (i32), and an FNV-1a 64 checksum of everything before it (u64).
//! Format 4, the same without the bucket scheme (by pieces), format 3, also without the
//! hidden layer's field and weights, and format 2, also without the bucket and activation
//! fields (one bucket, clipped), are read as well; a network is written in the oldest
//! format that holds it.
//! A file that does not match is refused with the reason.

use super::shared::{fnv1a, turn, variant_code};
use crate::rules::bitboard::Bits;
use crate::rules::{Color, Position, Variant};
use arrayvec::ArrayVec;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

/// Input slots a view: four kinds of piece, 36 bit numbers each.
pub const INPUTS: usize = 144;
/// First-layer units a view.
pub const HIDDEN: usize = 256;
/// A first-layer unit is fully on at QA.
pub const QA: i32 = 255;
/// Output weights are stored in 1/QB centi-men.
pub const QB: i32 = 16;
/// Version of the network file format (1: the 32-unit network of the side to move alone,
/// computed afresh at every position; 2: one bucket, clipped units, no fields for them; 3:
/// buckets and activation, no hidden layer; 4: no bucket scheme field).
pub const FORMAT: u32 = 5;
/// Most output buckets a file may have.
pub const MAX_BUCKETS: usize = 12;
/// Most units the hidden layer may have.
pub const MAX_HIDDEN2: usize = 64;
/// Hidden-layer weights are stored in 1/QH of a unit.
pub const QH: i32 = 1024;
/// Largest stored hidden-layer weight: the 2 * HIDDEN products of an activation (at most
/// QA) never overflow an i32.
pub(crate) const W3_MAX: i32 = 8191;
/// Largest stored hidden-layer bias (16 units fully on), so that a unit's sum stays in an
/// i32.
pub(crate) const B3_MAX: u32 = 16 * (QA * QH) as u32;

/// The output bucket of a position with `pieces` pieces, of `buckets`; with `by_kings`
/// the first half of the buckets are for positions without a king and the second half for
/// those with one, each half by the number of pieces.
#[inline(always)]
pub fn bucket_of(pieces: u32, kings: bool, buckets: usize, by_kings: bool) -> usize {
    let n = if by_kings { buckets / 2 } else { buckets };
    let b = ((pieces.saturating_sub(1) as usize * n) / 24).min(n - 1);
    if by_kings && kings { b + n } else { b }
}
/// Largest stored first-layer weight: 24 rows and the bias never overflow an i16 sum.
pub(crate) const W1_MAX: i32 = i16::MAX as i32 / 25;
/// Largest stored output weight: 2 * HIDDEN products of QA (squared: of QA * QA / 256) never
/// overflow an i32.
pub(crate) const W2_MAX: i32 = 8191;

/// The first layer's sums for both views (White's, then Black's), before clipping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub(crate) v: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            v: [[0; HIDDEN]; 2],
        }
    }
}

/// The four planes of a view: own men, own kings, the opponent's men and kings, turned
/// for Black.
#[inline(always)]
fn view_planes(pos: &Position, view: Color) -> [u64; 4] {
    let them = view.opposite();
    let planes = [
        pos.men(view),
        pos.kings(view),
        pos.men(them),
        pos.kings(them),
    ];
    if view == Color::Black {
        planes.map(turn)
    } else {
        planes
    }
}

/// The active inputs of `view` (slots 0-143).
pub fn inputs(pos: &Position, view: Color) -> impl Iterator<Item = usize> {
    view_planes(pos, view)
        .into_iter()
        .enumerate()
        .flat_map(|(k, b)| Bits(b).map(move |bit| k * 36 + bit as usize))
}

/// Absolute planes: White's men, White's kings, Black's men, Black's kings.
#[inline(always)]
fn absolute_planes(pos: &Position) -> [u64; 4] {
    [
        pos.men(Color::White),
        pos.kings(Color::White),
        pos.men(Color::Black),
        pos.kings(Color::Black),
    ]
}

/// Which code runs the layers: 0 not yet chosen, 1 AVX2, 2 portable.
static KERNEL: AtomicU8 = AtomicU8::new(0);

/// Whether the AVX2 code runs (the processor has it and `SHASHKI_SIMD` is not `portable`).
pub fn uses_avx2() -> bool {
    match KERNEL.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => {
            let avx2 =
                std::env::var("SHASHKI_SIMD").map_or(true, |v| v != "portable") && cpu_has_avx2();
            KERNEL.store(if avx2 { 1 } else { 2 }, Ordering::Relaxed);
            avx2
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn cpu_has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

#[cfg(not(target_arch = "x86_64"))]
fn cpu_has_avx2() -> bool {
    false
}

#[inline(always)]
fn add_row(dst: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (d, r) in dst.iter_mut().zip(row) {
        *d = d.wrapping_add(*r);
    }
}

#[inline(always)]
fn sub_row(dst: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (d, r) in dst.iter_mut().zip(row) {
        *d = d.wrapping_sub(*r);
    }
}

#[inline(always)]
fn dot_clipped(units: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (u, w) in units.iter().zip(weights) {
        sum += (*u).clamp(0, QA as i16) as i32 * *w as i32;
    }
    sum
}

/// The same with each clipped unit squared, in units of `256 / (QA * QA)`: `c * w` fits
/// an i32, and so does the sum of its products with `c` once it is divided by 256
/// (rounded), which keeps the sum in i32 lanes.
#[inline(always)]
fn dot_squared(units: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (u, w) in units.iter().zip(weights) {
        let c = (*u).clamp(0, QA as i16) as i32;
        sum = sum.wrapping_add(((c * *w as i32 + 128) >> 8) * c);
    }
    sum
}

/// [`dot_squared`] sixteen units at a time, with the same result: `(c * w + 128) >> 8` is
/// the rounded high half of `(c << 7) * w` (`c << 7` fits an i16 since `c <= 255`, and
/// the result fits one since `|c * w| / 256 < 2^15`), and each pair of its products with
/// `c` is summed into an i32 lane (at most 2 * 32640 * 255). The lanes' sums wrap as the
/// scalar sum does, so the order of the additions does not change the result.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dot_squared_avx2(units: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    use std::arch::x86_64::*;
    const { assert!(HIDDEN.is_multiple_of(16)) };
    let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
    let mut sum = _mm256_setzero_si256();
    for (u, w) in units.chunks_exact(16).zip(weights.chunks_exact(16)) {
        // SAFETY: each chunk is 16 i16 (32 bytes); the loads need no alignment.
        let (u, w) = unsafe {
            (
                _mm256_loadu_si256(u.as_ptr() as *const __m256i),
                _mm256_loadu_si256(w.as_ptr() as *const __m256i),
            )
        };
        let c = _mm256_min_epi16(_mm256_max_epi16(u, zero), top);
        let t = _mm256_mulhrs_epi16(_mm256_slli_epi16::<7>(c), w);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(t, c));
    }
    let s = _mm_add_epi32(
        _mm256_castsi256_si128(sum),
        _mm256_extracti128_si256::<1>(sum),
    );
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s)
}

/// A network in its stored, integer form.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// Rows by kind of piece and bit number (64 a kind, so that a bit number indexes
    /// without a bounds check).
    pub(crate) w1: Box<[[[i16; HIDDEN]; 64]; 4]>,
    pub(crate) b1: [i16; HIDDEN],
    /// Each bucket's output weights: the side to move's units, then the opponent's.
    pub(crate) w2: Vec<[[i16; HIDDEN]; 2]>,
    /// Each bucket's output bias.
    pub(crate) b2: Vec<i32>,
    /// Whether the clipped units are squared.
    pub(crate) squared: bool,
    /// Whether the buckets also split positions with a king from those without (format 5).
    pub(crate) king_buckets: bool,
    /// The hidden layer (format 4; empty without one): each unit's weights over the side to
    /// move's activations and then the opponent's, in 1/[`QH`].
    pub(crate) w3: Vec<[[i16; HIDDEN]; 2]>,
    /// Each hidden unit's bias, in 1/([`QA`] * [`QH`]).
    pub(crate) b3: Vec<i32>,
    /// Each bucket's weights of the hidden units (clipped to `[0, 1]`), in 1/[`QB`]
    /// centi-men for a unit fully on.
    pub(crate) w4: Vec<Vec<i16>>,
}

/// A first-layer unit's activation as the hidden layer reads it: clipped (and squared,
/// where the file says so) to `0..=QA`.
#[inline(always)]
fn activation(z: i16, squared: bool) -> i16 {
    let c = z.clamp(0, QA as i16) as i32;
    if squared {
        ((c * c + QA / 2) / QA) as i16
    } else {
        c as i16
    }
}

#[inline(always)]
fn dot16(a: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (x, y) in a.iter().zip(w) {
        sum += *x as i32 * *y as i32;
    }
    sum
}

impl Net {
    /// The network's term for `pos`, in centi-men from the side to move's view, with the
    /// sums computed afresh.
    pub fn score(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(pos), pos)
    }

    /// The output bucket of `pos`.
    #[inline(always)]
    pub fn bucket(&self, pos: &Position) -> usize {
        let pieces = (pos.white | pos.black).count_ones();
        // Each call with its scheme fixed, so that the scheme by pieces alone compiles to
        // the plain count on this hot path.
        if self.king_buckets {
            bucket_of(pieces, pos.kings != 0, self.w2.len(), true)
        } else {
            bucket_of(pieces, false, self.w2.len(), false)
        }
    }

    /// The first layer's sums of `pos`, from every piece.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            v: [self.b1, self.b1],
        };
        for view in [Color::White, Color::Black] {
            for (rows, b) in self.w1.iter().zip(view_planes(pos, view)) {
                for bit in Bits(b) {
                    add_row(&mut acc.v[view.index()], &rows[bit as usize & 63]);
                }
            }
        }
        acc
    }

    /// Writes into `dst` the sums of `child` from those of `parent` (`src`): only the rows
    /// of the squares whose piece changed are added or subtracted.
    #[inline]
    pub fn update(
        &self,
        dst: &mut Accumulator,
        src: &Accumulator,
        parent: &Position,
        child: &Position,
    ) {
        #[cfg(target_arch = "x86_64")]
        if uses_avx2() {
            // SAFETY: the processor has AVX2 (checked above).
            return unsafe { self.update_avx2(dst, src, parent, child) };
        }
        self.update_portable(dst, src, parent, child)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn update_avx2(
        &self,
        dst: &mut Accumulator,
        src: &Accumulator,
        parent: &Position,
        child: &Position,
    ) {
        self.update_body(dst, src, parent, child)
    }

    fn update_portable(
        &self,
        dst: &mut Accumulator,
        src: &Accumulator,
        parent: &Position,
        child: &Position,
    ) {
        self.update_body(dst, src, parent, child)
    }

    #[inline(always)]
    fn update_body(
        &self,
        dst: &mut Accumulator,
        src: &Accumulator,
        parent: &Position,
        child: &Position,
    ) {
        static ZERO: [i16; HIDDEN] = [0; HIDDEN];
        let (old, new) = (absolute_planes(parent), absolute_planes(child));
        for view in 0..2 {
            // White's view sees the planes as they are; Black's view swaps the colours
            // and turns the board (bit b becomes bit 35 - b).
            let row = |k: usize, bit: u32| {
                if view == 0 {
                    &self.w1[k][bit as usize & 63]
                } else {
                    &self.w1[k ^ 2][(35 - bit) as usize & 63]
                }
            };
            let mut subs = ArrayVec::<&[i16; HIDDEN], 32>::new();
            let mut adds = ArrayVec::<&[i16; HIDDEN], 4>::new();
            for k in 0..4 {
                for bit in Bits(old[k] & !new[k]) {
                    subs.push(row(k, bit));
                }
                for bit in Bits(new[k] & !old[k]) {
                    adds.push(row(k, bit));
                }
            }
            // One pass copies the parent's sums with the first row added and the first
            // subtracted (a quiet move needs no more); the rest follow in place.
            let (a0, s0) = (adds.first().copied(), subs.first().copied());
            let (a0, s0) = (a0.unwrap_or(&ZERO), s0.unwrap_or(&ZERO));
            let out = &mut dst.v[view];
            for (((d, s), a), r) in out.iter_mut().zip(&src.v[view]).zip(a0).zip(s0) {
                *d = s.wrapping_add(*a).wrapping_sub(*r);
            }
            for r in adds.iter().skip(1) {
                add_row(out, r);
            }
            for r in subs.iter().skip(1) {
                sub_row(out, r);
            }
        }
    }

    /// The output for `pos`, in centi-men from its side to move's view, from its first
    /// layer's sums.
    #[inline]
    pub fn output(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let (side, bucket) = (pos.side_to_move(), self.bucket(pos));
        #[cfg(target_arch = "x86_64")]
        if uses_avx2() {
            // SAFETY: the processor has AVX2 (checked above).
            return unsafe { self.output_avx2(acc, side, bucket) };
        }
        self.output_portable(acc, side, bucket)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn output_avx2(&self, acc: &Accumulator, side: Color, bucket: usize) -> i32 {
        // The closure has this function's AVX2 too.
        self.output_body(acc, side, bucket, |u, w| dot_squared_avx2(u, w))
    }

    fn output_portable(&self, acc: &Accumulator, side: Color, bucket: usize) -> i32 {
        self.output_body(acc, side, bucket, dot_squared)
    }

    #[inline(always)]
    fn output_body(
        &self,
        acc: &Accumulator,
        side: Color,
        bucket: usize,
        dot_squared: impl Fn(&[i16; HIDDEN], &[i16; HIDDEN]) -> i32,
    ) -> i32 {
        let us = side.index();
        let w = &self.w2[bucket];
        let hidden = self.hidden_sum(acc, us, bucket);
        if self.squared {
            let sum =
                dot_squared(&acc.v[us], &w[0]).wrapping_add(dot_squared(&acc.v[1 - us], &w[1]));
            let qa = QA as i64;
            let exact = sum as i64 * 256 + (self.b2[bucket] as i64 * qa + hidden) * qa;
            return exact.div_euclid(qa * qa * QB as i64) as i32;
        }
        let sum = dot_clipped(&acc.v[us], &w[0]) + dot_clipped(&acc.v[1 - us], &w[1]);
        (sum as i64 + self.b2[bucket] as i64 * QA as i64 + hidden).div_euclid((QA * QB) as i64)
            as i32
    }

    /// The hidden layer's part of the output, in 1/([`QA`] * [`QB`]) centi-men (0 without
    /// one): each unit sums the activations of both views, is clipped to `[0, 1]` (in
    /// steps of 1/[`QA`]) and weighed by the bucket's weight.
    #[inline(always)]
    fn hidden_sum(&self, acc: &Accumulator, us: usize, bucket: usize) -> i64 {
        if self.w3.is_empty() {
            return 0;
        }
        let sq = self.squared;
        let a: [[i16; HIDDEN]; 2] = [
            acc.v[us].map(|z| activation(z, sq)),
            acc.v[1 - us].map(|z| activation(z, sq)),
        ];
        let mut out = 0i64;
        for ((w, b), w4) in self.w3.iter().zip(&self.b3).zip(&self.w4[bucket]) {
            let h = dot16(&a[0], &w[0]) + dot16(&a[1], &w[1]) + b;
            let c = (h.clamp(0, QA * QH) + QH / 2) / QH;
            out += c as i64 * *w4 as i64;
        }
        out
    }

    /// The file form of this network (see the module documentation): format 3 without a
    /// hidden layer, so that such a network's file is the same as before format 4.
    pub fn to_bytes(&self, variant: Variant) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(b"SHPN");
        let format = match (self.king_buckets, self.w3.is_empty()) {
            (true, _) => 5,
            (false, true) => 3,
            (false, false) => 4,
        };
        let mut header = vec![
            format,
            variant_code(variant),
            INPUTS as u32,
            HIDDEN as u32,
            self.w2.len() as u32,
            self.squared as u32,
        ];
        if format >= 4 {
            header.push(self.w3.len() as u32);
        }
        if format >= 5 {
            header.push(self.king_buckets as u32);
        }
        for x in header {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let rows = (0..INPUTS).map(|i| &self.w1[i / 36][i % 36]);
        for x in rows
            .flatten()
            .chain(&self.b1)
            .chain(self.w2.iter().flatten().flatten())
            .chain(self.w3.iter().flatten().flatten())
            .chain(self.w4.iter().flatten())
        {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for b in self.b2.iter().chain(&self.b3) {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a network file, checking its magic, version, variant, shape and checksum.
    pub fn parse(bytes: &[u8], variant: Variant) -> Result<Net, String> {
        if bytes.len() < 20 || &bytes[..4] != b"SHPN" {
            return Err("the network file does not start with SHPN".into());
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let format = u32_at(4);
        if !(2..=FORMAT).contains(&format) {
            return Err(format!(
                "the network file is format {format}, this program reads formats 2 to {FORMAT}"
            ));
        }
        let header = match format {
            2 => 20,
            3 => 28,
            4 => 32,
            _ => 36,
        };
        if bytes.len() < header {
            return Err("the network file ends within its header".into());
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
        let (buckets, activation) = if format == 2 {
            (1, 0)
        } else {
            (u32_at(20) as usize, u32_at(24))
        };
        let hidden2 = if format >= 4 { u32_at(28) as usize } else { 0 };
        let scheme = if format >= 5 { u32_at(32) } else { 0 };
        if scheme > 1 {
            return Err(format!(
                "the network file's bucket scheme {scheme} is unknown (0 by pieces, 1 by pieces and kings)"
            ));
        }
        if scheme == 1 && (buckets < 2 || !buckets.is_multiple_of(2)) {
            return Err(format!(
                "the network file splits {buckets} output buckets by kings; that needs an even number"
            ));
        }
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(format!(
                "the network file has {buckets} output buckets, at most {MAX_BUCKETS} are read"
            ));
        }
        if activation > 1 {
            return Err(format!(
                "the network file's activation {activation} is unknown (0 clipped, 1 squared)"
            ));
        }
        if hidden2 > MAX_HIDDEN2 {
            return Err(format!(
                "the network file has {hidden2} hidden units, at most {MAX_HIDDEN2} are read"
            ));
        }
        let i16s = INPUTS * HIDDEN + HIDDEN + (buckets + hidden2) * 2 * HIDDEN + buckets * hidden2;
        let want = header + 2 * i16s + 4 * (buckets + hidden2) + 8;
        if bytes.len() != want {
            return Err(format!(
                "the network file has {} bytes; its header asks for {want}",
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
        let mut rows = |n: usize| -> Vec<[[i16; HIDDEN]; 2]> {
            (0..n)
                .map(|_| std::array::from_fn(|_| std::array::from_fn(|_| i16_next())))
                .collect()
        };
        let w2 = rows(buckets);
        let w3 = rows(hidden2);
        let w4: Vec<Vec<i16>> = (0..buckets)
            .map(|_| (0..hidden2).map(|_| i16_next()).collect())
            .collect();
        let i32s_at = header + 2 * i16s;
        let i32_at = |i: usize| {
            let i = i32s_at + 4 * i;
            i32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"))
        };
        let b2 = (0..buckets).map(i32_at).collect();
        let b3: Vec<i32> = (buckets..buckets + hidden2).map(i32_at).collect();
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
        if w2
            .iter()
            .flatten()
            .flatten()
            .chain(w4.iter().flatten())
            .any(|&w| w.unsigned_abs() as i32 > W2_MAX)
        {
            return Err(format!(
                "the network file has an output weight beyond ±{W2_MAX}"
            ));
        }
        if w3
            .iter()
            .flatten()
            .flatten()
            .any(|&w| w.unsigned_abs() as i32 > W3_MAX)
            || b3.iter().any(|b| b.unsigned_abs() > B3_MAX)
        {
            return Err(format!(
                "the network file has a hidden-layer weight beyond ±{W3_MAX} or a bias beyond ±{B3_MAX}"
            ));
        }
        Ok(Net {
            w1,
            b1,
            w2,
            b2,
            squared: activation == 1,
            king_buckets: scheme == 1,
            w3,
            b3,
            w4,
        })
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

    #[test]
    fn the_embedded_network_loads_and_has_something_to_say() {
        let mut positions = vec![Position::start()];
        positions.push(Position::from_fen("W:WKa1,c3,e3,Kh6:Bb8,Kd6,f8,g7").unwrap());
        for v in [Variant::Russian, Variant::Giveaway] {
            let net = embedded(v);
            assert!(positions.iter().any(|p| net.score(p) != 0));
        }
    }

    #[test]
    fn the_embedded_files_are_written_back_byte_for_byte() {
        // Both shipped files are format 3; writing what was read gives the same bytes.
        for (v, bytes) in [
            (Variant::Russian, RUSSIAN_FILE),
            (Variant::Giveaway, GIVEAWAY_FILE),
        ] {
            assert_eq!(embedded(v).to_bytes(v), bytes);
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx2_squared_dot_product_equals_the_portable_one() {
        if !cpu_has_avx2() {
            return;
        }
        let mut rng = crate::ai::shared::Rng::new(5);
        let mut any = |lo: i32, hi: i32| lo + (rng.next_u64() % (hi - lo + 1) as u64) as i32;
        for round in 0..2000 {
            let (mut u, mut w) = ([0i16; HIDDEN], [0i16; HIDDEN]);
            for i in 0..HIDDEN {
                // Units below, inside and above the clipped range; weights of every size,
                // the extremes included in some rounds.
                u[i] = any(-400, 400) as i16;
                w[i] = match round % 4 {
                    0 => any(-300, 300) as i16,
                    1 => any(i16::MIN as i32, i16::MAX as i32) as i16,
                    2 => [i16::MIN, i16::MAX, -1, 1][i % 4],
                    _ => any(-3000, 3000) as i16,
                };
            }
            if round % 4 == 2 {
                u = [QA as i16; HIDDEN];
            }
            // SAFETY: the processor has AVX2 (checked above).
            let fast = unsafe { dot_squared_avx2(&u, &w) };
            assert_eq!(fast, dot_squared(&u, &w), "round {round}");
        }
    }

    #[test]
    fn sums_updated_move_by_move_equal_sums_made_afresh() {
        // Through random games of both variants' networks: every kind of move (captures of
        // men and kings, promotions, king moves) keeps the updated sums exact, with the
        // AVX2 and the portable code alike.
        let mut rng = crate::ai::shared::Rng::new(77);
        for v in [Variant::Russian, Variant::Giveaway] {
            let net = embedded(v);
            for _ in 0..30 {
                let mut pos = Position::start();
                let mut acc = net.refresh(&pos);
                for _ in 0..120 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let mv = &moves[(rng.next_u64() % moves.len() as u64) as usize];
                    let child = pos.play(mv);
                    let (mut fast, mut portable) = (acc, acc);
                    net.update(&mut fast, &acc, &pos, &child);
                    net.update_portable(&mut portable, &acc, &pos, &child);
                    assert_eq!(fast, portable);
                    acc = fast;
                    assert_eq!(acc, net.refresh(&child));
                    let side = child.side_to_move();
                    let bucket = net.bucket(&child);
                    assert_eq!(
                        net.output(&acc, &child),
                        net.output_portable(&acc, side, bucket)
                    );
                    pos = child;
                }
            }
        }
    }
}
