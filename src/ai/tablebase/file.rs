//! The table file: a checked header, then the entries in compressed blocks.
//!
//! Layout (little-endian): `SHTB`, format version (u16), variant (u8: 0 Russian,
//! 1 поддавки), white men, white kings, black men, black kings, the 7.2.7 flag (u8 each),
//! entries (u64), entries per block (u32), blocks (u32), FNV-1a checksum of the entries
//! (u64), then each block's compressed length (u32), then the LZ4 blocks. Numbers that
//! name no position take the value before them, so they cost almost nothing compressed.

use super::index::{Layout, Material};
use super::{Table, TableKey};
use crate::ai::shared::fnv1a;
use crate::rules::Variant;
use std::io::Write;
use std::path::Path;

const MAGIC: &[u8; 4] = b"SHTB";
/// Bumped whenever the meaning of an entry changes: older files are then rebuilt.
pub const FORMAT_VERSION: u16 = 1;
const BLOCK: usize = 1 << 16;
const HEADER: usize = 4 + 2 + 1 + 4 + 1 + 8 + 4 + 4 + 8;

/// Why a table file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TableFileError {
    #[error("missing")]
    Missing,
    #[error("cannot be read: {0}")]
    Io(#[from] std::io::Error),
    #[error("not a Shashki table file")]
    NotATable,
    #[error("format version {found}, this program reads version {FORMAT_VERSION}")]
    Version { found: u16 },
    #[error("holds {found}, expected {expected}")]
    WrongTable { found: String, expected: String },
    #[error("damaged: {0}")]
    Damaged(String),
}

fn variant_code(v: Variant) -> u8 {
    crate::ai::shared::variant_code(v) as u8
}

/// Writes a table (to a temporary file renamed over the target, so that an interrupted
/// write never leaves a half file under the real name).
pub(crate) fn write(path: &Path, variant: Variant, table: &Table) -> std::io::Result<()> {
    let layout = &table.layout;
    let mut values = table.values.clone();
    // Numbers that name no position copy their neighbour.
    let mut last = 0u8;
    for side in 0..2 {
        for p in 0..layout.placements {
            let a = (side * layout.per_side + p * layout.per_placement) as usize;
            let b = a + layout.per_placement as usize;
            if layout.placement_men(p).is_none() {
                values[a..b].fill(last);
            } else if b > a {
                last = values[b - 1];
            }
        }
    }
    let blocks: Vec<Vec<u8>> = values
        .chunks(BLOCK)
        .map(lz4_flex::block::compress)
        .collect();
    let m = table.key.material;
    let mut out = Vec::with_capacity(HEADER + blocks.iter().map(|b| b.len() + 4).sum::<usize>());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(variant_code(variant));
    out.extend_from_slice(&[m.white_men, m.white_kings, m.black_men, m.black_kings]);
    out.push(table.key.diagonal as u8);
    out.extend_from_slice(&(values.len() as u64).to_le_bytes());
    out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    out.extend_from_slice(&fnv1a(&values).to_le_bytes());
    for b in &blocks {
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(b);
    }
    // A name of this process's own: two engines solving the same table at once each
    // write their own file, and either rename leaves a whole table.
    let tmp = path.with_extension(format!("part{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&out)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// Reads and checks a table file.
pub(crate) fn read(path: &Path, variant: Variant, key: TableKey) -> Result<Table, TableFileError> {
    let data = match std::fs::read(path) {
        Ok(d) => d,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(TableFileError::Missing),
        Err(e) => return Err(e.into()),
    };
    let table = parse(&data, variant)?;
    if table.key != key {
        return Err(TableFileError::WrongTable {
            found: table.key.file_name(variant),
            expected: key.file_name(variant),
        });
    }
    Ok(table)
}

fn parse(data: &[u8], variant: Variant) -> Result<Table, TableFileError> {
    let damaged = |what: &str| TableFileError::Damaged(what.to_string());
    if data.len() < HEADER || &data[..4] != MAGIC {
        return Err(TableFileError::NotATable);
    }
    let u16_at = |i: usize| u16::from_le_bytes([data[i], data[i + 1]]);
    let u32_at = |i: usize| u32::from_le_bytes(data[i..i + 4].try_into().unwrap_or([0; 4]));
    let u64_at = |i: usize| u64::from_le_bytes(data[i..i + 8].try_into().unwrap_or([0; 8]));
    let version = u16_at(4);
    if version != FORMAT_VERSION {
        return Err(TableFileError::Version { found: version });
    }
    if data[6] != variant_code(variant) {
        return Err(TableFileError::WrongTable {
            found: format!("a table of the other variant (code {})", data[6]),
            expected: format!("{variant}"),
        });
    }
    let material = Material {
        white_men: data[7],
        white_kings: data[8],
        black_men: data[9],
        black_kings: data[10],
    };
    if material.pieces() > 12 || material.pieces() < 2 || !material.is_canonical() {
        return Err(damaged("impossible material in the header"));
    }
    let key = TableKey {
        material,
        diagonal: data[11] != 0,
    };
    let layout = Layout::new(material);
    let entries = u64_at(12);
    if entries != layout.len() {
        return Err(damaged("wrong number of entries for its material"));
    }
    let block = u32_at(20) as usize;
    let blocks = u32_at(24) as usize;
    let checksum = u64_at(28);
    if block == 0 || blocks != (entries as usize).div_ceil(block) {
        return Err(damaged("wrong block count"));
    }
    let mut at = HEADER + 4 * blocks;
    if data.len() < at {
        return Err(damaged("cut short"));
    }
    let mut values = Vec::with_capacity(entries as usize);
    for b in 0..blocks {
        let len = u32_at(HEADER + 4 * b) as usize;
        let chunk = data.get(at..at + len).ok_or_else(|| damaged("cut short"))?;
        let want = block.min(entries as usize - values.len());
        let out = lz4_flex::block::decompress(chunk, want)
            .map_err(|e| damaged(&format!("block {b}: {e}")))?;
        if out.len() != want {
            return Err(damaged(&format!("block {b} has the wrong length")));
        }
        values.extend_from_slice(&out);
        at += len;
    }
    if at != data.len() {
        return Err(damaged("trailing bytes"));
    }
    if fnv1a(&values) != checksum {
        return Err(damaged("checksum mismatch"));
    }
    Ok(Table {
        key,
        layout,
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let dir = std::env::temp_dir().join(format!("shashki-tb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let tb =
            super::super::build(Variant::Russian, 2, 1, Some(&dir), &stop, &mut |_| {}).unwrap();
        let key = tb.tables()[0].key;
        let path = dir.join(key.file_name(Variant::Russian));
        let good = std::fs::read(&path).unwrap();
        assert!(read(&path, Variant::Russian, key).is_ok());
        let mut bad = good.clone();
        let n = bad.len();
        bad[n - 3] ^= 0x55;
        std::fs::write(&path, &bad).unwrap();
        assert!(matches!(
            read(&path, Variant::Russian, key),
            Err(TableFileError::Damaged(_))
        ));
        std::fs::write(&path, &good[..good.len() / 2]).unwrap();
        assert!(matches!(
            read(&path, Variant::Russian, key),
            Err(TableFileError::Damaged(_))
        ));
        std::fs::write(&path, b"hello").unwrap();
        assert!(matches!(
            read(&path, Variant::Russian, key),
            Err(TableFileError::NotATable)
        ));
        assert!(matches!(
            read(&path, Variant::Giveaway, key),
            Err(TableFileError::NotATable)
        ));
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(
            read(&path, Variant::Russian, key),
            Err(TableFileError::Missing)
        ));
        std::fs::remove_dir_all(&dir).ok();
    }
}
