//! Transposition table: buckets of four 16-byte entries, replaced by depth and age.

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i16,
    depth: i8,
    /// 0 = empty, 1 exact, 2 lower, 3 upper.
    bound: u8,
    /// Identity of the best move (see `search::move_id`), or `NO_MOVE`.
    mv: u16,
    age: u8,
}

/// A hit: the stored search result of a position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    pub mv: Option<u16>,
}

const NO_MOVE: u16 = u16::MAX;

pub(crate) struct Tt {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

const BUCKET: usize = 4;

impl Tt {
    /// A table of `2^log2` entries (at least one bucket).
    pub fn new(log2: u32) -> Tt {
        let n = 1usize << log2.max(2);
        Tt {
            entries: vec![Entry::default(); n],
            mask: (n - 1) & !(BUCKET - 1),
            age: 0,
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.age = 0;
    }

    /// Marks the start of a new search so that old entries are replaced first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    /// Starts loading the bucket of `key` into the cache, so that the probe of the child
    /// position does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.entries[self.bucket(key)..].as_ptr() as *const i8;
            // SAFETY: a prefetch is only a hint and never faults; the pointer is in the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let i = self.bucket(key);
        self.entries[i..i + BUCKET]
            .iter()
            .find(|e| e.key == key && e.bound != 0)
            .map(|e| Hit {
                score: e.score as i32,
                depth: e.depth as i32,
                bound: match e.bound {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                },
                mv: (e.mv != NO_MOVE).then_some(e.mv),
            })
    }

    pub fn store(&mut self, key: u64, score: i32, depth: i32, bound: Bound, mv: Option<u16>) {
        let i = self.bucket(key);
        let age = self.age;
        let bucket = &mut self.entries[i..i + BUCKET];
        // Same position first, then the shallowest entry of an older search, then the shallowest.
        let slot = match bucket.iter().position(|e| e.key == key) {
            Some(s) => s,
            None => {
                let mut best = 0;
                let mut best_value = i32::MAX;
                for (s, e) in bucket.iter().enumerate() {
                    let stale = if e.age != age { 256 } else { 0 };
                    let value = if e.bound == 0 {
                        i32::MIN
                    } else {
                        e.depth as i32 - stale
                    };
                    if value < best_value {
                        best_value = value;
                        best = s;
                    }
                }
                best
            }
        };
        let e = &mut bucket[slot];
        // Keep a known best move when a shallower result without one overwrites the entry.
        let mv = match mv {
            Some(m) => m,
            None if e.key == key => e.mv,
            None => NO_MOVE,
        };
        *e = Entry {
            key,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-100, 127) as i8,
            bound: match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
            mv,
            age,
        };
    }
}
