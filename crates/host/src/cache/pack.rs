//! The pack: the cache's entries, all in one file (`check-v6-BUILD.pack`
//! in the cache's directory, one per build: see [`path_of`]), so that a run reads one file rather than one per
//! unit, and a cold run writes one rather than thousands (creating that
//! many files in one directory was most of what a cold run paid for the
//! cache, in the kernel).
//!
//! The pack is a table of rows, sorted by key, each with where its
//! entry's bytes lie and when the entry was last used (stored, or read by
//! a run when older than [`super::TOUCH_AFTER`]); then the entries (header
//! and payload, see [`super::ResultCache`]). A lookup finds its key's row
//! by a binary search of the table as read, without decoding the rest,
//! and checks the entry whole (magic, format, its key, the checksum of its
//! payload), so a pack cut short or changed is only entries missed: a row
//! pointing outside the file, or rows out of order, are keys not found.
//!
//! A pack is written whole (a temporary file renamed over it), by a run
//! that stored an entry (or used one not used for a while). There are
//! two: the main pack, and the recent one (`check-v6-BUILD-recent.pack`), the
//! entries stored since the main one was written, which a lookup tries
//! first. A run that stored a few entries writes the recent pack again,
//! with them and the entries it had (so a warm run after an edit writes a
//! few kilobytes, not every entry); when the recent pack would pass an
//! eighth of the main one ([`RECENT_SHARE`]), or both the cache's cap, or
//! an entry's time of last use is to be refreshed, the run writes the
//! main pack instead, with every entry of both (those of the packs on
//! disk then, another run's if one wrote them meanwhile), dropping the
//! least recently used past the cap, and removes the recent pack. Two
//! runs at once each write whole packs; the later rename wins, so at
//! worst one's new entries are lost (its units are checked again next
//! time). A recent pack left beside a newer main pack holds entries that
//! each stand on their own, so it is never wrong, only in the way.

use camino::{Utf8Path, Utf8PathBuf};

use super::{HEADER_SIZE, KEY_SIZE, MAX_ENTRY_SIZE};

/// The first bytes of the pack.
const MAGIC: &[u8; 8] = b"HALITE\x00P";

/// How the packs' names start, in the cache's directory: the format is in
/// it, so that no build reads another format's pack (see
/// [`super::OLDER_FORMATS`]), and the build follows (see [`path_of`]).
pub(crate) const NAME_PREFIX: &str = "check-v6-";

/// How the names of every format's packs start (`check-v4-` was the
/// first with a pack per build): another format's pack is as another
/// build's, removed when the packs pass the cap or it is old (see
/// [`super::ResultCache`]'s pruning).
const ANY_FORMAT_PREFIX: &str = "check-v";

/// How the packs' names end; the recent pack's, the entries stored since
/// the main pack was last written, with `-recent` before it.
pub(crate) const NAME_SUFFIX: &str = ".pack";
const RECENT: &str = "-recent";

/// The recent pack is kept to at most this fraction of the main pack:
/// past it, both are written as one main pack.
pub(crate) const RECENT_SHARE: u64 = 8;

/// A pack larger than this is not read.
const MAX_PACK_SIZE: u64 = 1 << 30;

/// A table row: the key, where the entry starts, how long it is, and when
/// it was last used (nanoseconds since the Unix epoch).
const ROW_SIZE: usize = KEY_SIZE + 8 + 8 + 8;

/// Magic, format, count.
const TABLE_START: usize = MAGIC.len() + 4 + 4;

/// The pack as read: its bytes, and how many rows its table has.
#[derive(Debug, Default)]
pub(crate) struct Pack {
    bytes: super::FileBytes,
    rows: usize,
}

/// One entry of a pack, as a row gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Packed<'a> {
    pub(crate) key: &'a [u8; KEY_SIZE],
    /// The entry's bytes, not checked: the caller decodes them.
    pub(crate) bytes: &'a [u8],
    /// When the entry was last used, in nanoseconds since the Unix epoch.
    pub(crate) used: u64,
}

impl Pack {
    /// The pack at `path`; empty when there is none, or it is not one of
    /// this format.
    pub(crate) fn read(path: &Utf8Path, format: u32) -> Pack {
        crate::cache::read_bounded(path, MAX_PACK_SIZE)
            .and_then(|bytes| Pack::from_bytes(bytes, format))
            .unwrap_or_default()
    }

    /// The pack in `bytes`, if they start as one of this format whose
    /// table fits in them.
    fn from_bytes(bytes: super::FileBytes, format: u32) -> Option<Pack> {
        let mut input = super::Reader(&bytes);
        if input.take(MAGIC.len())? != MAGIC || input.u32()? != format {
            return None;
        }
        let rows = input.u32()? as usize;
        if rows > input.0.len() / ROW_SIZE {
            return None;
        }
        Some(Pack { bytes, rows })
    }

    /// The entry of `key`, if the pack has a row for it that points inside
    /// the file.
    ///
    /// Keys are hashes, spread evenly over the table: the search starts at
    /// the row where `key` would be if they were spread exactly so, and
    /// widens from there in steps that double until it has passed the key,
    /// then halves the range left. A binary search of the whole table went
    /// through a dozen rows far apart, each a miss of the processor's
    /// caches; these rows lie close together.
    pub(crate) fn get(&self, key: &[u8; KEY_SIZE]) -> Option<Packed<'_>> {
        let order = |row: usize| {
            let at = TABLE_START + row * ROW_SIZE;
            self.bytes[at..at + KEY_SIZE].cmp(key)
        };
        if self.rows == 0 {
            return None;
        }
        let leading = u64::from_be_bytes(key[..8].try_into().expect("8 bytes"));
        let guess = ((u128::from(leading) * self.rows as u128) >> 64) as usize;
        let (mut low, mut high) = match order(guess) {
            std::cmp::Ordering::Equal => return self.row(guess),
            std::cmp::Ordering::Less => {
                let (mut low, mut step) = (guess + 1, 1);
                loop {
                    let probe = guess + step;
                    if probe >= self.rows {
                        break (low, self.rows);
                    }
                    match order(probe) {
                        std::cmp::Ordering::Equal => return self.row(probe),
                        std::cmp::Ordering::Less => low = probe + 1,
                        std::cmp::Ordering::Greater => break (low, probe),
                    }
                    step *= 2;
                }
            }
            std::cmp::Ordering::Greater => {
                let (mut high, mut step) = (guess, 1);
                loop {
                    let Some(probe) = guess.checked_sub(step) else { break (0, high) };
                    match order(probe) {
                        std::cmp::Ordering::Equal => return self.row(probe),
                        std::cmp::Ordering::Greater => high = probe,
                        std::cmp::Ordering::Less => break (probe + 1, high),
                    }
                    step *= 2;
                }
            }
        };
        while low < high {
            let middle = low + (high - low) / 2;
            match order(middle) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return self.row(middle),
            }
        }
        None
    }

    /// Where `packed`, one of this pack's entries, lies in its bytes (for
    /// tests that spoil them).
    #[cfg(test)]
    pub(crate) fn range_of(&self, packed: &Packed<'_>) -> std::ops::Range<usize> {
        let start = self.offset_of(packed);
        start..start + packed.bytes.len()
    }

    /// Where `packed`, one of this pack's entries, starts in its bytes:
    /// the order of its entries as written, which a pack written again
    /// keeps.
    pub(crate) fn offset_of(&self, packed: &Packed<'_>) -> usize {
        (packed.bytes.as_ptr() as usize).wrapping_sub(self.bytes.as_ptr() as usize)
    }

    /// The pack's size in bytes (0 for none).
    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Every entry whose row points inside the file.
    pub(crate) fn entries(&self) -> impl Iterator<Item = Packed<'_>> + Clone {
        (0..self.rows).filter_map(|row| self.row(row))
    }

    /// The entry of row `row` (less than `self.rows`), if it points inside
    /// the file.
    fn row(&self, row: usize) -> Option<Packed<'_>> {
        let at = TABLE_START + row * ROW_SIZE;
        let mut input = super::Reader(&self.bytes[at..at + ROW_SIZE]);
        let key: &[u8; KEY_SIZE] = input.take(KEY_SIZE)?.try_into().ok()?;
        let start = usize::try_from(input.u64()?).ok()?;
        let len = usize::try_from(input.u64()?).ok()?;
        let used = input.u64()?;
        if len < HEADER_SIZE || len as u64 > MAX_ENTRY_SIZE {
            return None;
        }
        let bytes = self.bytes.get(start..start.checked_add(len)?)?;
        Some(Packed { key, bytes, used })
    }
}

/// The pack of `entries` (each key at most once): their rows in the
/// order of their keys, their bytes in the order given. The writers give
/// them in the order a run used them (see [`Pack::offset_of`]), which is
/// the order the next run looks them up in: laid out by key, a warm run's
/// lookups jumped about the pack and missed the processor's caches.
pub(crate) fn encode(format: u32, entries: &[Packed<'_>]) -> Vec<u8> {
    let table_end = TABLE_START + entries.len() * ROW_SIZE;
    let total = table_end + entries.iter().map(|entry| entry.bytes.len()).sum::<usize>();
    let mut rows: Vec<(usize, usize)> = Vec::with_capacity(entries.len());
    let mut start = table_end;
    for (at, entry) in entries.iter().enumerate() {
        rows.push((at, start));
        start += entry.bytes.len();
    }
    rows.sort_unstable_by_key(|&(at, _)| entries[at].key);
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&format.to_le_bytes());
    out.extend_from_slice(&u32::try_from(entries.len()).unwrap_or(u32::MAX).to_le_bytes());
    for (at, start) in rows {
        let entry = &entries[at];
        out.extend_from_slice(entry.key);
        out.extend_from_slice(&(start as u64).to_le_bytes());
        out.extend_from_slice(&(entry.bytes.len() as u64).to_le_bytes());
        out.extend_from_slice(&entry.used.to_le_bytes());
    }
    for entry in entries {
        out.extend_from_slice(entry.bytes);
    }
    out
}

/// The bytes a pack spends on `entry`: its row and its bytes.
pub(crate) fn size_of(entry: &Packed<'_>) -> u64 {
    (ROW_SIZE + entry.bytes.len()) as u64
}

/// The path of the main pack of `build`'s entries in the cache's
/// directory `dir`. Each build has packs of its own: a key holds the
/// build, so no entry of one is ever another's, and a run reads only its
/// own build's (an upgraded `halite` does not read every entry the last
/// one left).
pub(crate) fn path_of(dir: &Utf8Path, build: &blake3::Hash) -> Utf8PathBuf {
    dir.join(format!("{NAME_PREFIX}{}{NAME_SUFFIX}", build_name(build)))
}

/// The path of `build`'s recent pack in the cache's directory `dir`.
pub(crate) fn recent_path_of(dir: &Utf8Path, build: &blake3::Hash) -> Utf8PathBuf {
    dir.join(format!("{NAME_PREFIX}{}{RECENT}{NAME_SUFFIX}", build_name(build)))
}

/// Whether `name` is that of a pack (of any build).
pub(crate) fn is_pack_name(name: &str) -> bool {
    name.starts_with(ANY_FORMAT_PREFIX) && name.ends_with(NAME_SUFFIX)
}

/// A build as packs' names give it: enough of its hash to tell builds
/// apart.
fn build_name(build: &blake3::Hash) -> String {
    build.to_hex()[..16].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_older_format_s_packs_are_pruned_as_another_build_s() {
        assert!(is_pack_name("check-v4-0123456789abcdef.pack"));
        assert!(is_pack_name("check-v4-0123456789abcdef-recent.pack"));
        assert!(is_pack_name(&format!("{NAME_PREFIX}0123456789abcdef.pack")));
        assert!(!is_pack_name("files-v2"));
        assert!(!is_pack_name("check-v4-0123456789abcdef.pack.tmp"));
    }

    /// The packs' names carry the entries' format ([`NAME_PREFIX`] beside
    /// `FORMAT`): a format changed without the name would find the older
    /// format's pack under its own name, refuse it by its header and write
    /// over it, rather than leave it to be pruned as another format's.
    #[test]
    fn the_packs_names_say_the_entries_format() {
        assert_eq!(NAME_PREFIX, format!("check-v{}-", super::super::FORMAT));
    }

    /// Every key is found wherever its row lies from where the search
    /// starts: keys spread evenly (hashes), and keys bunched at either
    /// end of the table, which hashes are not but a foreign pack may be.
    #[test]
    fn every_key_is_found_and_no_other() {
        let hashed: Vec<[u8; KEY_SIZE]> = (0..1000u32)
            .map(|n| blake3::hash(&n.to_le_bytes()).as_bytes()[..KEY_SIZE].try_into().expect("16 bytes"))
            .collect();
        let low: Vec<[u8; KEY_SIZE]> = (0..300u32)
            .map(|n| {
                std::array::from_fn(|at| {
                    if at == KEY_SIZE - 1 { n as u8 } else { (n >> 8) as u8 * u8::from(at == KEY_SIZE - 2) }
                })
            })
            .collect();
        let high: Vec<[u8; KEY_SIZE]> = low.iter().map(|key| key.map(|byte| 255 - byte)).collect();
        let bunched: Vec<[u8; KEY_SIZE]> = low.iter().chain(&high).copied().collect();
        for keys in [&hashed, &low, &high, &bunched] {
            let body = vec![0u8; HEADER_SIZE];
            let entries: Vec<Packed<'_>> =
                keys.iter().map(|key| Packed { key, bytes: &body, used: 1 }).collect();
            let pack = Pack::from_bytes(encode(1, &entries).into(), 1).expect("a pack");
            for key in keys {
                assert_eq!(pack.get(key).map(|packed| *packed.key), Some(*key));
                let mut other = *key;
                other[KEY_SIZE - 1] ^= 0x80;
                if !keys.contains(&other) {
                    assert_eq!(pack.get(&other), None);
                }
            }
            assert_eq!(pack.get(&[0; KEY_SIZE]).is_some(), keys.contains(&[0; KEY_SIZE]));
            assert_eq!(pack.get(&[255; KEY_SIZE]).is_some(), keys.contains(&[255; KEY_SIZE]));
        }
    }

    #[test]
    fn a_pack_reads_back_and_a_spoilt_table_is_only_keys_missed() {
        let (one, two) = ([1u8; KEY_SIZE], [2u8; KEY_SIZE]);
        let (first, second) = (vec![7u8; HEADER_SIZE + 3], vec![9u8; HEADER_SIZE]);
        let bytes = encode(
            1,
            &[Packed { key: &two, bytes: &second, used: 20 }, Packed { key: &one, bytes: &first, used: 10 }],
        );
        let pack = Pack::from_bytes(bytes.clone().into(), 1).expect("a pack");
        assert_eq!(pack.get(&one), Some(Packed { key: &one, bytes: &first, used: 10 }));
        assert_eq!(pack.get(&two), Some(Packed { key: &two, bytes: &second, used: 20 }));
        assert_eq!(pack.get(&[3; KEY_SIZE]), None);
        assert_eq!(pack.entries().count(), 2);
        let range = pack.range_of(&pack.get(&two).expect("an entry"));
        assert_eq!(&bytes[range], &second[..]);
        assert!(Pack::from_bytes(bytes.clone().into(), 2).is_none(), "another format's");
        // Cut anywhere: no more than the entries wholly before the cut,
        // and never a wrong one.
        for len in 0..bytes.len() {
            let Some(cut) = Pack::from_bytes(bytes[..len].to_vec().into(), 1) else { continue };
            for entry in cut.entries() {
                let whole = if *entry.key == one { &first } else { &second };
                assert_eq!(entry.bytes, &whole[..], "cut at {len}");
            }
            // Laid out in the order given: `one` last.
            assert!(cut.get(&one).is_none(), "cut at {len}: the last entry is cut");
        }
    }
}
