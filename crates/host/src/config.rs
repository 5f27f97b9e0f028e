//! The rule levels of files on disk: the nearest `halite.toml` in a file's
//! directory or above, up to the repository's root (see
//! [`analysis::Config`]). Every front end that reads files from disk finds
//! them here, so that `check`, `eval`, `watch` and the library apply the
//! same configuration to the same files.

use std::sync::Arc;

use analysis::{Config, ConfigError, RuleLevels};
use camino::{Utf8Path, Utf8PathBuf};
use rustc_hash::FxHashMap;

/// Finds the rule levels of files, remembering each directory's answer and
/// each configuration file read: the directories of a repository share
/// their ancestors, and looking at every ancestor of every directory was a
/// twentieth of a check's time.
#[derive(Debug)]
pub struct RuleLevelsFinder {
    /// The directory relative paths are relative to.
    current_dir: Utf8PathBuf,
    /// The configuration file that applies in a directory (absolute).
    config_file_of_dir: FxHashMap<Utf8PathBuf, Option<Utf8PathBuf>>,
    configs: FxHashMap<Utf8PathBuf, Arc<Config>>,
    /// The levels of a directory's files without a configuration, shared.
    unconfigured: Arc<RuleLevels>,
}

impl RuleLevelsFinder {
    /// A finder for paths relative to `current_dir` (or absolute).
    pub fn new(current_dir: Utf8PathBuf) -> RuleLevelsFinder {
        RuleLevelsFinder {
            current_dir,
            config_file_of_dir: FxHashMap::default(),
            configs: FxHashMap::default(),
            unconfigured: Arc::new(RuleLevels::default()),
        }
    }

    /// A finder for paths relative to the process's current directory.
    pub fn from_current_dir() -> Result<RuleLevelsFinder, ConfigError> {
        let error = |message: String| ConfigError { path: Utf8PathBuf::from("."), position: None, message };
        let dir = std::env::current_dir()
            .map_err(|err| error(format!("cannot read the current directory: {err}")))?;
        let dir = Utf8PathBuf::from_path_buf(dir)
            .map_err(|dir| error(format!("the current directory `{}` is not UTF-8", dir.display())))?;
        Ok(RuleLevelsFinder::new(dir))
    }

    /// The rule levels of the file at `path`; an error when its
    /// configuration is bad (named as the user would type it from the
    /// current directory).
    pub fn levels_for(&mut self, path: &Utf8Path) -> Result<Arc<RuleLevels>, ConfigError> {
        let absolute = self.current_dir.join(path);
        let dir = absolute.parent().unwrap_or(&absolute).to_owned();
        let Some(config_path) = self.config_file(&dir) else { return Ok(self.unconfigured.clone()) };
        let config = match self.configs.get(&config_path) {
            Some(config) => config.clone(),
            None => {
                let config = Arc::new(Config::load(&config_path).map_err(|mut error| {
                    if let Ok(relative) = error.path.strip_prefix(&self.current_dir) {
                        error.path = relative.to_owned();
                    }
                    error
                })?);
                self.configs.insert(config_path, config.clone());
                config
            }
        };
        Ok(Arc::new(config.levels_for(&absolute)))
    }

    /// The configuration file that applies in `dir` (absolute), as
    /// [`Config::find_file`] finds it, with each directory's answer
    /// remembered.
    fn config_file(&mut self, dir: &Utf8Path) -> Option<Utf8PathBuf> {
        // The directories looked at so far, nearest first, that take the
        // answer found further up.
        let mut pending: Vec<&Utf8Path> = Vec::new();
        let mut found = None;
        for ancestor in dir.ancestors() {
            if let Some(answer) = self.config_file_of_dir.get(ancestor) {
                found = answer.clone();
                break;
            }
            pending.push(ancestor);
            let candidate = ancestor.join(analysis::config::CONFIG_FILE_NAME);
            if candidate.is_file() {
                found = Some(candidate);
                break;
            }
            if ancestor.join(".git").exists() {
                break;
            }
        }
        for ancestor in pending {
            self.config_file_of_dir.insert(ancestor.to_owned(), found.clone());
        }
        found
    }
}
