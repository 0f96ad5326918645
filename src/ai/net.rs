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
pub(crate) const W1_MAX: i32 = i16::MAX as i32 / 25;

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
    pub(crate) w1: Box<[[[i16; HIDDEN]; 64]; 4]>,
    pub(crate) b1: [i16; HIDDEN],
    pub(crate) w2: [i32; HIDDEN],
    pub(crate) b2: i32,
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
}
