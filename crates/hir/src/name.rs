//! [`Name`]: the interned text of a name or number in an expression.
//!
//! An expression is kept for every expression node of every file, and
//! twice over in a module (the file's HIR while it is lowered, and the
//! module's copy of each attribute's expression, `db::module::expr`). A
//! name held as a `SmolStr` (24 bytes) made every expression 32 bytes;
//! a `Name` is a number (4 bytes), which lets an expression fit in 16.
//!
//! Names are interned for the life of the process: each distinct text is
//! stored once and never freed. The texts are the identifiers and number
//! literals written in the files a process reads (the generated modules of
//! 10,000 files that the benchmarks use have 50,000 to 100,000 distinct
//! ones; real modules far fewer), so what is kept is bounded by the
//! vocabulary of the input, not by how often it is read. An editor's
//! language server lowers each state a file passes through while a name
//! is typed, so each new name typed keeps its prefixes too: about forty
//! bytes for each keystroke that makes a name never seen before, a few
//! megabytes in a day of continuous typing, never freed.
//! (rust-analyzer's interner counts references and frees unused names;
//! that costs a pointer per name and a count on every copy, which is what
//! an expression of 16 bytes could not carry.)

use std::{
    borrow::Borrow,
    fmt,
    hash::{BuildHasher, Hash, Hasher},
    sync::{Mutex, OnceLock},
};

use rustc_hash::FxBuildHasher;
use smol_str::SmolStr;

/// An interned name: equal names have the same number, so comparing two
/// is one comparison; hashing and ordering go by the text, so that maps
/// and sorts keyed by names do not depend on the order names were first
/// seen in (threads lowering files side by side make that vary).
///
/// A number rather than a pointer: 4 bytes, so that a number literal
/// ([`crate::Literal`]) is 8 and an expression 16.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Name(u32);

/// Every name's text, by number. Read without a lock: the texts are only
/// ever appended, and a slot is never moved once written.
static TEXTS: boxcar::Vec<&'static str> = boxcar::Vec::new();

/// Interning takes a lock: the names are split by hash so that threads
/// lowering files side by side seldom wait on each other.
const SHARDS: usize = 16;

/// Names' texts are copied into blocks of this size, each kept for the
/// life of the process: an allocation per name cost more than most names'
/// text.
const BLOCK: usize = 16 * 1024;

/// One part of the interner: its names, by the hash of their text, and the
/// unused end of the block its new names' texts are copied into.
#[derive(Default)]
struct Shard {
    names: hashbrown::HashTable<Name>,
    spare: &'static mut [u8],
}

impl Shard {
    /// A copy of `text` that lives as long as the process.
    fn store(&mut self, text: &str) -> &'static str {
        if text.len() > self.spare.len() {
            if text.len() > BLOCK / 4 {
                return Box::leak(Box::from(text));
            }
            self.spare = Box::leak(vec![0u8; BLOCK].into_boxed_slice());
        }
        let (copy, spare) = std::mem::take(&mut self.spare).split_at_mut(text.len());
        self.spare = spare;
        copy.copy_from_slice(text.as_bytes());
        // The bytes of a `str`: always text.
        std::str::from_utf8(copy).unwrap_or_default()
    }
}

fn shards() -> &'static [Mutex<Shard>; SHARDS] {
    static SHARDS_: OnceLock<[Mutex<Shard>; SHARDS]> = OnceLock::new();
    SHARDS_.get_or_init(|| std::array::from_fn(|_| Mutex::new(Shard::default())))
}

fn hash_of(text: &str) -> u64 {
    FxBuildHasher.hash_one(text)
}

impl Name {
    /// The name with this text, stored the first time it is seen.
    pub fn new(text: &str) -> Name {
        let hash = hash_of(text);
        // Bits the shard's table reads neither for a slot (the low ones)
        // nor for its tags (the top seven).
        let shard = &shards()[(hash >> 32) as usize % SHARDS];
        // A panic while the lock is held cannot leave the shard half
        // changed (a name is numbered before the table holds it), so a
        // poisoned lock is still sound to use.
        let mut shard = shard.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(&name) = shard.names.find(hash, |name| name.as_str() == text) {
            return name;
        }
        let at = TEXTS.push(shard.store(text));
        // Four billion distinct names would hold more text than any
        // machine this runs on has memory.
        let name = Name(u32::try_from(at).expect("fewer than 2^32 distinct names"));
        shard.names.insert_unique(hash, name, |name| hash_of(name.as_str()));
        name
    }

    pub fn as_str(self) -> &'static str {
        // Written before its number was handed out (under the shard's
        // lock), and never removed.
        TEXTS[self.0 as usize]
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // As `str` hashes, which `Borrow<str>` requires.
        self.as_str().hash(state)
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Name) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<SmolStr> for Name {
    fn eq(&self, other: &SmolStr) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Name> for SmolStr {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&str> for Name {
    fn from(text: &str) -> Name {
        Name::new(text)
    }
}

impl From<&SmolStr> for Name {
    fn from(text: &SmolStr) -> Name {
        Name::new(text)
    }
}

impl From<SmolStr> for Name {
    fn from(text: SmolStr) -> Name {
        Name::new(&text)
    }
}

impl From<Name> for SmolStr {
    fn from(name: Name) -> SmolStr {
        SmolStr::new(name.as_str())
    }
}

impl From<Name> for String {
    fn from(name: Name) -> String {
        name.as_str().to_string()
    }
}

impl Default for Name {
    fn default() -> Name {
        Name::new("")
    }
}

#[cfg(test)]
mod tests {
    use super::Name;

    #[test]
    fn equal_texts_are_one_name_and_order_by_text() {
        let a = Name::new("instance_type");
        let b = Name::new(&String::from("instance_type"));
        assert!(std::ptr::eq(a.as_str(), b.as_str()));
        assert_eq!(std::mem::size_of::<Name>(), 4);
        assert_eq!(a, b);
        assert_ne!(a, Name::new("instance"));
        assert!(Name::new("b") > Name::new("a"));
        assert_eq!(format!("{:?}", Name::new("x")), "\"x\"");
        let set: std::collections::HashSet<Name> = [a, b].into_iter().collect();
        assert!(set.contains("instance_type"));
    }
}
