//! Splitting a check across CI jobs: `halite check --shard K/N`.
//!
//! A check's units (a module per directory, and each file that belongs to
//! none; see [`check`](crate::check)) go to shards by a stable hash of
//! their repository-relative path: a module's directory, a lone file's
//! path. So every unit lands in exactly one of the N shards, whatever
//! else the run holds, and a unit keeps its shard as files are added or
//! removed elsewhere. A shard's run still reads the whole run's files for
//! what its modules read of others (a called module's variables), so the
//! shards' reports together are the unsharded run's.

use std::{borrow::Cow, fmt, num::NonZeroU32, str::FromStr};

use camino::{Utf8Component, Utf8Path, Utf8PathBuf};
use sha2::{Digest, Sha256};

/// One shard of N: K in 1..=N.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    index: NonZeroU32,
    count: NonZeroU32,
}

/// Why a `K/N` is not a shard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardError(String);

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ShardError {}

impl Shard {
    /// Shard `index` (from 1) of `count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        let (Some(index), Some(count)) = (NonZeroU32::new(index), NonZeroU32::new(count)) else {
            return Err(ShardError("K and N count from 1".to_owned()));
        };
        if index > count {
            return Err(ShardError(format!("shard {index} of {count} does not exist: K is at most N")));
        }
        Ok(Shard { index, count })
    }

    pub fn index(self) -> u32 {
        self.index.get()
    }

    pub fn count(self) -> u32 {
        self.count.get()
    }

    /// Whether the unit whose repository-relative path is `key` (a
    /// module's directory, or a lone file) is in this shard.
    pub fn contains(self, key: &Utf8Path) -> bool {
        shard_of(key, self.count) == self.index.get()
    }

    /// Which of `paths` (the run's files, sorted) this shard checks: the
    /// files of its units. `relative` gives a path relative to the
    /// repository's root.
    pub fn select<'a>(
        self,
        paths: &'a [Utf8PathBuf],
        relative: impl Fn(&'a Utf8Path) -> Cow<'a, Utf8Path>,
    ) -> Vec<bool> {
        paths
            .iter()
            .map(|path| {
                let unit = if vfs::is_module_file(path) { vfs::module_dir(path) } else { path.as_path() };
                self.contains(&relative(unit))
            })
            .collect()
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    /// `K/N`, such as `2/4`.
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let invalid = || ShardError(format!("`{text}` is not K/N, two whole numbers such as 2/4"));
        let (index, count) = text.split_once('/').ok_or_else(invalid)?;
        let number = |part: &str| part.parse::<u32>().map_err(|_| invalid());
        Shard::new(number(index)?, number(count)?)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The shard (from 1) of `key` among `count`: the first eight bytes of the
/// SHA-256 of its components joined by `/` (so a path names the same
/// shard on every system), modulo `count`. An empty key (the repository's
/// root directory) is `.`.
fn shard_of(key: &Utf8Path, count: NonZeroU32) -> u32 {
    let mut text = String::new();
    for component in key.components() {
        match component {
            Utf8Component::CurDir => continue,
            Utf8Component::RootDir => {}
            other => text.push_str(other.as_str()),
        }
        if !text.ends_with('/') {
            text.push('/');
        }
    }
    if text.is_empty() {
        text.push('.');
    }
    let digest = Sha256::digest(text.trim_end_matches('/').as_bytes());
    let mut first = [0; 8];
    first.copy_from_slice(&digest[..8]);
    (u64::from_be_bytes(first) % u64::from(count.get())) as u32 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_of_n_reads_and_rejects_what_is_not_a_shard() {
        assert_eq!("2/4".parse::<Shard>().map(|shard| (shard.index(), shard.count())), Ok((2, 4)));
        for bad in ["0/4", "5/4", "1/0", "2", "a/b", "-1/4", "1/4/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn every_unit_is_in_exactly_one_shard_named_alike_on_every_system() {
        for key in ["", "modules/vpc", "./modules/vpc", "a.tfvars", "envs/prod/terraform.tfvars"] {
            for count in 1..=8 {
                let shards: Vec<u32> = (1..=count)
                    .filter(|&index| Shard::new(index, count).unwrap().contains(Utf8Path::new(key)))
                    .collect();
                assert_eq!(shards.len(), 1, "{key} in {count}: {shards:?}");
            }
        }
        let count = NonZeroU32::new(7).unwrap();
        assert_eq!(shard_of("./modules/vpc".into(), count), shard_of("modules/vpc".into(), count));
        assert_eq!(shard_of("modules/vpc/".into(), count), shard_of("modules/vpc".into(), count));
        // The hash is part of the interface: CI caches and people rely on a
        // unit staying in its shard from release to release.
        let shards: Vec<u32> = ["modules/vpc", "modules/db", "envs/prod", "a.tfvars"]
            .map(|key| shard_of(key.into(), count))
            .into();
        assert_eq!(shards, [7, 4, 6, 6]);
    }
}
