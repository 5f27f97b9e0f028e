//! The pack: the entries a run used, in one file (`check-v3.pack` beside
//! the entries' directory), so that the next run reads one file rather
//! than opening one per unit (which was most of what a warm run did in
//! the kernel once files were no longer read).
//!
//! The pack is a table of keys with where each entry's bytes lie, then the
//! entries as their own files hold them (header and payload): each is
//! checked as a loose entry is (magic, format, its key, the hash of its
//! payload), so a pack cut short or changed is only entries missed. The
//! loose entries stay the store of record (what pruning bounds); the pack
//! is written whole (a temporary file renamed over it) at the end of a run
//! that stored an entry or read one the pack did not have, with every
//! entry that run used, so it holds one working set and no more.

use std::ops::Range;

use camino::{Utf8Path, Utf8PathBuf};
use rustc_hash::FxHashMap;

use super::{HEADER_SIZE, MAX_ENTRY_SIZE};

/// The first bytes of the pack.
const MAGIC: &[u8; 8] = b"HALITE\x00P";

/// A pack larger than this is not read.
const MAX_PACK_SIZE: u64 = 1 << 30;

/// A table row: the key, then where the entry starts and how long it is.
const ROW_SIZE: usize = 32 + 8 + 8;

/// The pack as read: its bytes and where each key's entry lies in them.
#[derive(Debug, Default)]
pub(crate) struct Pack {
    bytes: Vec<u8>,
    entries: FxHashMap<[u8; 32], Range<usize>>,
}

impl Pack {
    /// The pack at `path`; empty when there is none, or it is not one of
    /// this format.
    pub(crate) fn read(path: &Utf8Path, format: u32) -> Pack {
        let Some(bytes) = crate::cache::read_bounded(path, MAX_PACK_SIZE) else { return Pack::default() };
        let Some(entries) = table(&bytes, format) else { return Pack::default() };
        Pack { bytes, entries }
    }

    /// The bytes of the entry of `key`, if the pack has it (not checked:
    /// the caller decodes them as it does a loose entry's).
    pub(crate) fn get(&self, key: &[u8; 32]) -> Option<&[u8]> {
        self.entries.get(key).and_then(|range| self.bytes.get(range.clone()))
    }
}

/// Where each entry lies, if `bytes` start as a pack of this format and
/// every row points inside them.
fn table(bytes: &[u8], format: u32) -> Option<FxHashMap<[u8; 32], Range<usize>>> {
    let mut input = super::Reader(bytes);
    if input.take(MAGIC.len())? != MAGIC || input.u32()? != format {
        return None;
    }
    let count = input.u32()? as usize;
    if count > input.0.len() / ROW_SIZE {
        return None;
    }
    let mut entries = FxHashMap::with_capacity_and_hasher(count, Default::default());
    for _ in 0..count {
        let key: [u8; 32] = input.array()?;
        let start = usize::try_from(input.u64()?).ok()?;
        let len = usize::try_from(input.u64()?).ok()?;
        let end = start.checked_add(len)?;
        if end > bytes.len() || len < HEADER_SIZE || len as u64 > MAX_ENTRY_SIZE {
            return None;
        }
        entries.insert(key, start..end);
    }
    Some(entries)
}

/// The pack of `entries` (each key with its entry's whole bytes), in the
/// order of their keys.
pub(crate) fn encode(format: u32, entries: &mut [(&[u8; 32], &[u8])]) -> Vec<u8> {
    entries.sort_unstable_by_key(|(key, _)| **key);
    let table_end = MAGIC.len() + 4 + 4 + entries.len() * ROW_SIZE;
    let total = table_end + entries.iter().map(|(_, bytes)| bytes.len()).sum::<usize>();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&format.to_le_bytes());
    out.extend_from_slice(&u32::try_from(entries.len()).unwrap_or(u32::MAX).to_le_bytes());
    let mut start = table_end;
    for (key, bytes) in entries.iter() {
        out.extend_from_slice(*key);
        out.extend_from_slice(&(start as u64).to_le_bytes());
        out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        start += bytes.len();
    }
    for (_, bytes) in entries.iter() {
        out.extend_from_slice(bytes);
    }
    out
}

/// The pack's path for the entries' directory `entries` (`DIR/check-v3`).
pub(crate) fn path_of(entries: &Utf8Path) -> Utf8PathBuf {
    entries.with_extension("pack")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pack_reads_back_and_a_spoilt_table_is_an_empty_pack() {
        let (one, two) = ([1u8; 32], [2u8; 32]);
        let (first, second) = (vec![7u8; HEADER_SIZE + 3], vec![9u8; HEADER_SIZE]);
        let bytes = encode(1, &mut [(&two, &second[..]), (&one, &first[..])]);
        let entries = table(&bytes, 1).expect("a pack");
        let pack = Pack { bytes: bytes.clone(), entries };
        assert_eq!(pack.get(&one), Some(&first[..]));
        assert_eq!(pack.get(&two), Some(&second[..]));
        assert_eq!(pack.get(&[3; 32]), None);
        assert!(table(&bytes, 2).is_none(), "another format's");
        // Cut inside the table, or inside an entry a row points to.
        for len in 0..bytes.len() {
            assert!(table(&bytes[..len], 1).is_none(), "cut at {len}");
        }
    }
}
