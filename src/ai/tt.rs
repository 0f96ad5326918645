//! Transposition table: buckets of four 16-byte entries, replaced by depth and age,
//! shared without locks by the threads of a search.

use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// One entry as stored: `check` is the position's key XOR `data`, so that an entry
/// torn by two threads writing at once is seen as a miss instead of a wrong hit.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The unpacked contents of a slot.
#[derive(Clone, Copy, Default)]
struct Entry {
    score: i16,
    depth: i8,
    /// 0 = empty, 1 exact, 2 lower, 3 upper.
    bound: u8,
    /// Identity of the best move (see `search::move_id`), or `NO_MOVE`.
    mv: u16,
    age: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        (self.score as u16 as u64)
            | ((self.depth as u8 as u64) << 16)
            | ((self.bound as u64) << 24)
            | ((self.mv as u64) << 32)
            | ((self.age as u64) << 48)
    }

    fn unpack(d: u64) -> Entry {
        Entry {
            score: d as u16 as i16,
            depth: (d >> 16) as u8 as i8,
            bound: (d >> 24) as u8,
            mv: (d >> 32) as u16,
            age: (d >> 48) as u8,
        }
    }
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

/// The slots that a key may use, on one cache line of their own (a bucket across two
/// lines would cost two memory reads a probe).
#[repr(align(64))]
#[derive(Default)]
struct Bucket([Slot; BUCKET]);

/// Alignment of the buckets' memory: one huge page of the x86-64 and ARM64 processors.
const HUGE_PAGE: usize = 2 << 20;

/// The buckets' memory, aligned to [`HUGE_PAGE`] and, on Linux, marked for transparent
/// huge pages before it is first written (as Stockfish does). A probe lands on a random
/// bucket, so with small pages nearly every probe of a table of several MiB also misses
/// the processor's page-translation cache; a few huge pages cover the whole table.
struct Buckets {
    ptr: NonNull<Bucket>,
    len: usize,
}

// SAFETY: the buckets are atomics, shared exactly as a `Box<[Bucket]>` would be.
unsafe impl Send for Buckets {}
// SAFETY: as above.
unsafe impl Sync for Buckets {}

impl Buckets {
    fn layout(len: usize) -> Layout {
        let align = if len * size_of::<Bucket>() >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            align_of::<Bucket>()
        };
        Layout::array::<Bucket>(len.max(1))
            .and_then(|l| l.align_to(align))
            .expect("a table that fits in memory")
    }

    fn new(len: usize) -> Buckets {
        let layout = Buckets::layout(len);
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc(layout) };
        let Some(ptr) = NonNull::new(raw as *mut Bucket) else {
            handle_alloc_error(layout)
        };
        #[cfg(target_os = "linux")]
        // SAFETY: the range is the allocation just made; the call only advises the kernel.
        unsafe {
            libc::madvise(raw as *mut libc::c_void, layout.size(), libc::MADV_HUGEPAGE);
        }
        // An empty bucket is all zeros (see `Slot`).
        // SAFETY: the allocation holds `len` buckets (at least one).
        unsafe { std::ptr::write_bytes(raw, 0, layout.size()) };
        Buckets { ptr, len }
    }
}

impl Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: `len` zeroed (that is, empty) buckets live at `ptr` until `drop`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with the same layout.
        unsafe { dealloc(self.ptr.as_ptr() as *mut u8, Buckets::layout(self.len)) };
    }
}

/// The table, shared by the threads of a search (lock-free: each slot is two atomic
/// words, see [`Slot`]).
pub(crate) struct Tt {
    buckets: Buckets,
    mask: usize,
    age: AtomicU8,
    /// Keys of the positions some thread is searching now (see [`Tt::enter`]).
    busy: Box<[AtomicU64]>,
}

/// Entries of the table of positions being searched.
const BUSY: usize = 1 << 14;

const BUCKET: usize = 4;

impl Tt {
    /// A table of `2^log2` entries (at least one bucket).
    pub fn new(log2: u32) -> Tt {
        let n = 1usize << log2.max(2);
        Tt {
            buckets: Buckets::new(n / BUCKET),
            mask: (n - 1) & !(BUCKET - 1),
            age: AtomicU8::new(0),
            busy: (0..BUSY).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Whether another thread of the search is searching the position `key` now: a
    /// parallel search then looks at the position's siblings first and comes back to it
    /// later, when the other thread's result is likely in the table (as in ABDADA).
    #[inline(always)]
    pub fn is_busy(&self, key: u64) -> bool {
        self.busy[key as usize % BUSY].load(Ordering::Relaxed) == key
    }

    /// Marks `key` as being searched; returns whether this call marked it (and so must
    /// [`Tt::leave`] it).
    #[inline(always)]
    pub fn enter(&self, key: u64) -> bool {
        let slot = &self.busy[key as usize % BUSY];
        slot.load(Ordering::Relaxed) != key && {
            slot.store(key, Ordering::Relaxed);
            true
        }
    }

    /// Ends the mark of [`Tt::enter`] (unless another position has taken the entry).
    #[inline(always)]
    pub fn leave(&self, key: u64) {
        let _ = self.busy[key as usize % BUSY].compare_exchange(
            key,
            0,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.buckets.len() * BUCKET
    }

    #[inline(always)]
    fn slot(&self, i: usize) -> &Slot {
        &self.buckets[i / BUCKET].0[i % BUCKET]
    }

    pub fn clear(&self) {
        for s in self.buckets.iter().flat_map(|b| b.0.iter()) {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search so that old entries are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    /// Starts loading the bucket of `key` into the cache, so that the probe of the child
    /// position does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        super::shared::prefetch(&self.buckets[self.bucket(key) / BUCKET]);
    }

    #[inline(always)]
    fn read(&self, i: usize, key: u64) -> Option<Entry> {
        let s = self.slot(i);
        let data = s.data.load(Ordering::Relaxed);
        let check = s.check.load(Ordering::Relaxed);
        (check ^ data == key && data != 0).then(|| Entry::unpack(data))
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let i = self.bucket(key);
        (i..i + BUCKET)
            .find_map(|j| self.read(j, key).filter(|e| e.bound != 0))
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

    pub fn store(&self, key: u64, score: i32, depth: i32, bound: Bound, mv: Option<u16>) {
        let i = self.bucket(key);
        let age = self.age.load(Ordering::Relaxed);
        // Same position first, then the shallowest entry of an older search, then the shallowest.
        let mut same = None;
        let mut best = i;
        let mut best_value = i32::MAX;
        for j in i..i + BUCKET {
            if let Some(e) = self.read(j, key) {
                same = Some((j, e));
                break;
            }
            let data = self.slot(j).data.load(Ordering::Relaxed);
            let e = Entry::unpack(data);
            let value = if data == 0 || e.bound == 0 {
                i32::MIN
            } else {
                e.depth as i32 - if e.age != age { 256 } else { 0 }
            };
            if value < best_value {
                best_value = value;
                best = j;
            }
        }
        let slot = same.map_or(best, |(j, _)| j);
        // Keep a known best move when a shallower result without one overwrites the entry.
        let mv = match (mv, same) {
            (Some(m), _) => m,
            (None, Some((_, e))) => e.mv,
            (None, None) => NO_MOVE,
        };
        let e = Entry {
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
        let data = e.pack();
        let s = self.slot(slot);
        s.data.store(data, Ordering::Relaxed);
        s.check.store(key ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bucket_sits_on_one_cache_line() {
        let tt = Tt::new(10);
        assert_eq!(tt.len(), 1 << 10);
        for b in tt.buckets.iter() {
            assert_eq!(b as *const Bucket as usize % 64, 0);
        }
    }

    #[test]
    fn a_stored_entry_is_found_and_the_deeper_one_kept_in_a_full_bucket() {
        let tt = Tt::new(4);
        // Keys of one bucket: the low bits pick the bucket.
        let keys: Vec<u64> = (1..=5).map(|i| (i << 32) | 4).collect();
        for (d, &k) in keys.iter().enumerate() {
            tt.store(
                k,
                10 * d as i32,
                10 - d as i32,
                Bound::Exact,
                Some(d as u16),
            );
        }
        // Five keys for four slots: the shallowest of the first four made room.
        let found: Vec<bool> = keys.iter().map(|&k| tt.probe(k).is_some()).collect();
        assert_eq!(found, [true, true, true, false, true]);
        let h = tt.probe(keys[0]).unwrap();
        assert_eq!(
            (h.score, h.depth, h.bound, h.mv),
            (0, 10, Bound::Exact, Some(0))
        );
        tt.clear();
        assert!(tt.probe(keys[0]).is_none());
    }

    #[test]
    fn a_position_is_busy_from_enter_to_leave_and_a_second_enter_does_not_own_it() {
        let tt = Tt::new(4);
        let (a, b) = (0x1234_5678_9abc_def1, 0x1234_5678_9abc_def1 + BUSY as u64);
        assert!(!tt.is_busy(a));
        assert!(tt.enter(a));
        assert!(tt.is_busy(a));
        // Another thread arriving at the same position does not take over the mark.
        assert!(!tt.enter(a));
        // A position sharing the entry replaces the mark; leaving `a` then keeps it.
        assert!(tt.enter(b));
        tt.leave(a);
        assert!(tt.is_busy(b) && !tt.is_busy(a));
        tt.leave(b);
        assert!(!tt.is_busy(b));
    }
}
