//! Reading modules from disk into changes: the one way every front end
//! loads a module (its files by the one table of file kinds, their rule
//! levels from `halite.toml`, and the children its calls of local modules
//! need).

use std::sync::Arc;

use analysis::ConfigError;
use camino::{Utf8Path, Utf8PathBuf};
use db::module;

use crate::{AnalysisHost, Change, Contents, Membership, config::RuleLevelsFinder};

/// Why files could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// A directory or file could not be read.
    Io(vfs::Error),
    /// A `halite.toml` is wrong.
    Config(ConfigError),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Io(error) => error.fmt(f),
            LoadError::Config(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {}

impl From<vfs::Error> for LoadError {
    fn from(error: vfs::Error) -> LoadError {
        LoadError::Io(error)
    }
}

impl From<ConfigError> for LoadError {
    fn from(error: ConfigError) -> LoadError {
        LoadError::Config(error)
    }
}

/// The module of `dir` as read from disk now: its module files (see
/// `vfs::load`), with the rule levels of each, and the files themselves
/// (for a watcher to compare the directory with).
pub fn module(
    dir: &Utf8Path,
    levels: &mut RuleLevelsFinder,
) -> Result<(Change, Vec<vfs::LoadedFile>), LoadError> {
    let loaded = vfs::load(dir, vfs::Scope::Directory)?;
    let mut change = Change::new();
    for file in &loaded {
        change.set_rule_levels(file.path.clone(), levels.levels_for(&file.path)?);
        change.set_file(
            file.path.clone(),
            Contents::Bytes(file.bytes.clone()),
            Membership::Module(dir.to_owned()),
        );
    }
    // A directory without files is still the module being asked about.
    change.set_reported(dir, true);
    Ok((change, loaded))
}

/// Loads, as modules read only for their callers, the children of the
/// host's modules' calls of local modules that the host does not hold and
/// that exist on disk. Children are read once; their own calls are not
/// followed, since only their variables are needed.
pub fn children(host: &mut AnalysisHost) -> Result<(), LoadError> {
    let mut missing: Vec<Utf8PathBuf> = Vec::new();
    for dir in host.module_dirs() {
        let Some(module) = host.module(dir) else { continue };
        for call in module::module_calls(host.db(), module) {
            if host.module(&call.dir).is_none() && call.dir.is_dir() && !missing.contains(&call.dir) {
                missing.push(call.dir.clone());
            }
        }
    }
    for dir in missing {
        let loaded = vfs::load(&dir, vfs::Scope::Directory)?;
        let mut change = Change::new();
        change.set_reported(dir.clone(), false);
        for file in loaded {
            change.set_file(file.path, Contents::Bytes(file.bytes), Membership::Module(dir.clone()));
        }
        host.apply_change(change);
    }
    Ok(())
}

/// The rule levels of a file read from disk, for a change that does not
/// come from [`module`] (a watcher's batch).
pub fn rule_levels(change: &mut Change, levels: &mut RuleLevelsFinder) -> Result<(), LoadError> {
    let paths: Vec<Utf8PathBuf> = change
        .files()
        .iter()
        .filter_map(|file| match file {
            crate::FileChange::Set { path, .. } => Some(path.clone()),
            crate::FileChange::Remove { .. } => None,
        })
        .collect();
    for path in paths {
        let found: Arc<analysis::RuleLevels> = levels.levels_for(&path)?;
        change.set_rule_levels(path, found);
    }
    Ok(())
}
