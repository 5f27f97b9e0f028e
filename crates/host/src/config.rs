//! The rule levels and exclusions of files on disk: the nearest
//! `halite.toml` in a file's directory or above, up to the repository's
//! root, with the files it extends above it (see [`analysis::Config`] and
//! [`analysis::ConfigChain`]). Every front end that reads files from disk
//! finds them here, so that `check`, `eval`, `watch` and the library apply
//! the same configuration to the same files.

use std::sync::Arc;

use analysis::{Config, ConfigChain, ConfigError, RuleLevels};

/// The name of the configuration file whose rule levels apply in its
/// directory and below it (up to a repository's root).
pub use analysis::config::CONFIG_FILE_NAME;
use camino::{Utf8Path, Utf8PathBuf};
use rustc_hash::{FxHashMap, FxHashSet};

/// Finds the rule levels of files, remembering each directory's answer and
/// each configuration file read: the directories of a repository share
/// their ancestors, and looking at every ancestor of every directory was a
/// twentieth of a check's time.
#[derive(Debug)]
pub struct RuleLevelsFinder {
    /// The directory relative paths are relative to.
    current_dir: Utf8PathBuf,
    /// The configuration file that applies in a directory (absolute), by
    /// the directory's text: a path's own hash goes through its components,
    /// which was most of a cached check's lookups.
    config_file_of_dir: FxHashMap<String, Option<Utf8PathBuf>>,
    configs: FxHashMap<Utf8PathBuf, Arc<Config>>,
    /// The chain each configuration file starts (it and those it extends).
    chains: FxHashMap<Utf8PathBuf, Arc<ConfigChain>>,
    /// The chain that applies in each directory of the paths asked about,
    /// by the directory's text as the path gives it: most files share
    /// their directory with the file asked about before them, and finding
    /// it again (joining, splitting the path into components) was most of
    /// what a lookup cost.
    chain_of_dir: FxHashMap<String, Option<Arc<ConfigChain>>>,
    /// The levels of a directory's files without a configuration, shared.
    unconfigured: Arc<RuleLevels>,
    /// Directories known to hold no configuration file, by their text as
    /// given (relative to `current_dir`, or absolute), which are not
    /// looked at: see [`RuleLevelsFinder::assume_no_config_file_in`].
    without_config_file: FxHashSet<String>,
    /// The directory text (as in `chain_of_dir`) of the last path asked
    /// about, and its chain: paths come sorted, most after one of their
    /// directory.
    last_dir: Option<(String, Option<Arc<ConfigChain>>)>,
    /// The levels of the files of each chain that gives every file the
    /// same ([`ConfigChain::levels_are_uniform`]), by the chain's address
    /// (the chain kept, so that the address stays its own).
    uniform_levels: FxHashMap<usize, (Arc<ConfigChain>, Arc<RuleLevels>)>,
    /// Taken as known that no configuration applies to any path asked
    /// about: see [`RuleLevelsFinder::assume_none_apply`].
    none_apply: bool,
}

impl RuleLevelsFinder {
    /// Forgets what it found of each directory (which configuration file
    /// applies there, and its chain), keeping the configurations read: for
    /// a finder that outlives a load of many directories, whose later
    /// lookups are few.
    pub fn forget_directories(&mut self) {
        self.config_file_of_dir = FxHashMap::default();
        self.chain_of_dir = FxHashMap::default();
        self.last_dir = None;
    }

    /// A finder for paths relative to `current_dir` (or absolute).
    pub fn new(current_dir: Utf8PathBuf) -> RuleLevelsFinder {
        RuleLevelsFinder {
            current_dir,
            config_file_of_dir: FxHashMap::default(),
            configs: FxHashMap::default(),
            chains: FxHashMap::default(),
            chain_of_dir: FxHashMap::default(),
            unconfigured: Arc::new(RuleLevels::default()),
            without_config_file: FxHashSet::default(),
            last_dir: None,
            uniform_levels: FxHashMap::default(),
            none_apply: false,
        }
    }

    /// Takes it as known that the directories `dirs` (relative to the
    /// finder's directory, or absolute) hold no `halite.toml`, so that
    /// the search does not look there: a walk that has just listed them,
    /// or whose record says their entries are as they were when it did,
    /// knows it (see [`crate::cache::RecordedWalk`]).
    pub fn assume_no_config_file_in(&mut self, dirs: impl IntoIterator<Item = Utf8PathBuf>) {
        self.without_config_file.extend(dirs.into_iter().map(Utf8PathBuf::into_string));
    }

    /// Whether a configuration applies in the directory `dir` (relative
    /// to the finder's directory, or absolute): one of its own, or one
    /// above it that reaches it (see [`Config::find_file`]).
    pub fn applies_in(&mut self, dir: &Utf8Path) -> bool {
        let absolute = if dir == "." || dir.as_str().is_empty() {
            self.current_dir.clone()
        } else {
            self.current_dir.join(dir)
        };
        self.config_file(&absolute).is_some()
    }

    /// Takes it as known that no configuration applies to any path it is
    /// asked about, so that it looks nowhere: a check of walks that
    /// listed every directory of its files and found no `halite.toml` in
    /// any ([`crate::cache::RecordedWalk::config_in_listed_dirs`]), each
    /// of whose roots has none that applies ([`RuleLevelsFinder::applies_in`]),
    /// knows it (a directory without a configuration file takes what
    /// applies in its parent, or none). Looking at each directory of a
    /// tree of thousands, twice (for the excluded files and for the rule
    /// levels), was a fifth of the first thread's work in a warm run.
    pub fn assume_none_apply(&mut self) {
        self.none_apply = true;
    }

    /// Whether `dir` (absolute) is known to hold no configuration file,
    /// named either way [`RuleLevelsFinder::assume_no_config_file_in`]
    /// takes it.
    fn known_without_config_file(&self, dir: &Utf8Path) -> bool {
        if self.without_config_file.is_empty() {
            return false;
        }
        if self.without_config_file.contains(dir.as_str()) {
            return true;
        }
        // Relative to the current directory, by text: `dir` is one of its
        // ancestors' or descendants' joined to it.
        match dir.as_str().strip_prefix(self.current_dir.as_str()) {
            Some("") => self.without_config_file.contains(".") || self.without_config_file.contains(""),
            Some(rest) => rest.strip_prefix('/').is_some_and(|rest| self.without_config_file.contains(rest)),
            None => false,
        }
    }

    /// A finder for paths relative to the same directory as this one's,
    /// that knows nothing yet: what it finds is read from the files as
    /// they are now (a front end that follows them, after one changed).
    pub fn anew(&self) -> RuleLevelsFinder {
        RuleLevelsFinder::new(self.current_dir.clone())
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
        let Some(chain) = self.chain_of(path)? else { return Ok(self.unconfigured.clone()) };
        if !chain.levels_are_uniform() {
            return Ok(Arc::new(chain.levels_for(&self.current_dir.join(path))));
        }
        // Shared by the chain's files: a cached check digests each
        // distinct `Arc` of levels once.
        let key = Arc::as_ptr(&chain) as usize;
        if let Some((_, levels)) = self.uniform_levels.get(&key) {
            return Ok(levels.clone());
        }
        let levels = Arc::new(chain.levels_for(&self.current_dir.join(path)));
        self.uniform_levels.insert(key, (chain, levels.clone()));
        Ok(levels)
    }

    /// Whether a configuration's `exclude` leaves the file at `path` out;
    /// an error when its configuration is bad.
    pub fn is_excluded(&mut self, path: &Utf8Path) -> Result<bool, ConfigError> {
        let Some(chain) = self.chain_of(path)? else { return Ok(false) };
        Ok(chain.excludes(&self.current_dir.join(path)))
    }

    /// The configurations that apply to the file at `path`, if any.
    fn chain_of(&mut self, path: &Utf8Path) -> Result<Option<Arc<ConfigChain>>, ConfigError> {
        if self.none_apply {
            return Ok(None);
        }
        // By the directory's text as the path gives it (see [`dir_text`]).
        let dir_text = dir_text(path.as_str());
        if let Some((last, chain)) = &self.last_dir
            && last == dir_text
        {
            return Ok(chain.clone());
        }
        let chain = match self.chain_of_dir.get(dir_text) {
            Some(chain) => chain.clone(),
            None => self.chain_of_dir_text(dir_text, Some(path))?,
        };
        match &mut self.last_dir {
            Some((last, last_chain)) => {
                last.clear();
                last.push_str(dir_text);
                *last_chain = chain.clone();
            }
            None => self.last_dir = Some((dir_text.to_owned(), chain.clone())),
        }
        Ok(chain)
    }

    /// The configurations that apply in the directory written `dir_text`
    /// (as in `chain_of_dir`), the directory of `file` when one is given.
    /// A directory known to hold no configuration file (one a walk
    /// listed) takes its parent's, found by text too, unless it is a
    /// repository's root: the answer of [`RuleLevelsFinder::config_file`]
    /// without joining, splitting or hashing the absolute path of each
    /// directory of a tree.
    fn chain_of_dir_text(
        &mut self,
        dir_text: &str,
        file: Option<&Utf8Path>,
    ) -> Result<Option<Arc<ConfigChain>>, ConfigError> {
        if let Some(chain) = self.chain_of_dir.get(dir_text) {
            return Ok(chain.clone());
        }
        // `a/b/` is `a/b`, whose parent is `a/`; only for a last component
        // that is a name (`..` has no parent by its text).
        let dir = dir_text.strip_suffix('/').filter(|dir| !dir.is_empty());
        let parent_text = dir
            .filter(|dir| self.without_config_file.contains(*dir))
            .map(|dir| (dir, dir_text_of_dir(dir)))
            .filter(|(dir, parent_text)| !matches!(&dir[parent_text.len()..], "." | ".."));
        let chain = match parent_text {
            Some((dir, parent_text)) => {
                let above = self.chain_of_dir_text(parent_text, None)?;
                // Asked of the directory as this finder's paths name it,
                // which need not be the process's current directory.
                if above.is_some() && vfs::is_repository_root(&self.current_dir.join(dir)) {
                    None
                } else {
                    above
                }
            }
            None => {
                let absolute = match file {
                    Some(file) => {
                        let absolute = self.current_dir.join(file);
                        vfs::parent(&absolute).unwrap_or(&absolute).to_owned()
                    }
                    // A parent named by cutting a listed directory's text.
                    None if dir_text.is_empty() => self.current_dir.clone(),
                    None => self.current_dir.join(dir.unwrap_or(dir_text)),
                };
                match self.config_file(&absolute) {
                    Some(config_path) => Some(self.chain(config_path)?),
                    None => None,
                }
            }
        };
        self.chain_of_dir.insert(dir_text.to_owned(), chain.clone());
        Ok(chain)
    }

    /// The chain `config_path` starts: the configurations it extends (the
    /// next file above its directory, unless it says `root = true`), then
    /// itself.
    fn chain(&mut self, config_path: Utf8PathBuf) -> Result<Arc<ConfigChain>, ConfigError> {
        if let Some(chain) = self.chains.get(&config_path) {
            return Ok(chain.clone());
        }
        let config = self.config(&config_path)?;
        let mut configs = Vec::new();
        if !config.is_root() {
            let above = config_path.parent().and_then(Utf8Path::parent).map(Utf8Path::to_owned);
            // The directory holding a repository's `.git` ends the search.
            let parent = above.filter(|_| !config_path.parent().is_some_and(vfs::is_repository_root));
            if let Some(parent_file) = parent.and_then(|dir| self.config_file(&dir)) {
                configs.extend(self.chain(parent_file)?.configs().iter().cloned());
            }
        }
        configs.push(config);
        let chain = Arc::new(ConfigChain::new(configs));
        self.chains.insert(config_path, chain.clone());
        Ok(chain)
    }

    /// The configuration file at `config_path`, read once.
    fn config(&mut self, config_path: &Utf8Path) -> Result<Arc<Config>, ConfigError> {
        if let Some(config) = self.configs.get(config_path) {
            return Ok(config.clone());
        }
        let config = Arc::new(Config::load(config_path).map_err(|mut error| {
            if let Ok(relative) = error.path.strip_prefix(&self.current_dir) {
                error.path = relative.to_owned();
            }
            error
        })?);
        self.configs.insert(config_path.to_owned(), config.clone());
        Ok(config)
    }

    /// The configuration file that applies in `dir` (absolute), as
    /// [`Config::find_file`] finds it, with each directory's answer
    /// remembered. Whether a directory is a repository's root matters only
    /// where the search would go on to a configuration above it, so it is
    /// asked only then: in a tree with no configuration file, a directory
    /// costs one look, not two.
    fn config_file(&mut self, dir: &Utf8Path) -> Option<Utf8PathBuf> {
        // The directories looked at so far, nearest first, with none of a
        // configuration file of their own.
        let mut pending: Vec<&Utf8Path> = Vec::new();
        let mut found = None;
        // `dir.ancestors()`, each found from the text (`vfs::parent`).
        let ancestors = std::iter::successors(Some(dir), |dir| vfs::parent(dir));
        for ancestor in ancestors {
            if let Some(answer) = self.config_file_of_dir.get(ancestor.as_str()) {
                found = answer.clone();
                break;
            }
            if !self.known_without_config_file(ancestor) {
                let candidate = ancestor.join(analysis::config::CONFIG_FILE_NAME);
                if candidate.is_file() {
                    found = Some(candidate);
                    self.config_file_of_dir.insert(ancestor.as_str().to_owned(), found.clone());
                    break;
                }
            }
            pending.push(ancestor);
        }
        // From the top down: a directory without a file of its own takes
        // the answer above it, unless it is a repository's root.
        for ancestor in pending.into_iter().rev() {
            if found.is_some() && vfs::is_repository_root(ancestor) {
                found = None;
            }
            self.config_file_of_dir.insert(ancestor.as_str().to_owned(), found.clone());
        }
        found
    }
}

/// The text of the directory of the file written `path`, with its
/// separator (`a/b/` of `a/b/c.tf`), empty for `c.tf`. Searched byte by
/// byte (separators are ASCII): a search by `char` decodes the whole path
/// backwards, and `Path::parent` splits it into components.
fn dir_text(path: &str) -> &str {
    let end = path.as_bytes().iter().rposition(|&byte| std::path::is_separator(char::from(byte)));
    end.map_or("", |end| &path[..=end])
}

/// The text of the parent of the directory written `dir` (no separator at
/// its end), as [`dir_text`] writes a directory.
fn dir_text_of_dir(dir: &str) -> &str {
    dir_text(dir)
}

/// The languages the `[[dialect]]` tables of the configurations a check
/// read declare (see [`RuleLevelsFinder::dialects`]): the standard registry
/// with a plug-in per table, each reading its schema file, and a digest of
/// what they declare (the tables and the schema files' texts), which a
/// cached result's key includes.
#[derive(Debug, Clone)]
pub struct ConfigDialects {
    pub registry: db::module::Dialects,
    pub digest: blake3::Hash,
}

impl RuleLevelsFinder {
    /// The languages declared by the configurations read so far (those of
    /// the files asked about), or `None` when none declares one. Tables are
    /// registered outermost configuration first, so that a nested one's
    /// wins where both claim a file. A schema file that cannot be read or
    /// has mistakes is an error naming its place.
    pub fn dialects(&self) -> Result<Option<ConfigDialects>, ConfigError> {
        let mut declared: Vec<&analysis::DialectDeclaration> =
            self.configs.values().flat_map(|config| config.dialects()).collect();
        if declared.is_empty() {
            return Ok(None);
        }
        // Outer directories first (by path where as deep), then as
        // written: a stable order, for the digest.
        declared.sort_by(|a, b| {
            (a.config.components().count(), &a.config).cmp(&(b.config.components().count(), &b.config))
        });
        let mut registry = dialects::standard();
        let mut hasher = blake3::Hasher::new();
        for declaration in declared {
            let text = std::fs::read_to_string(&declaration.schema).map_err(|error| ConfigError {
                path: self.shown(&declaration.config),
                position: Some(declaration.schema_position),
                message: format!(
                    "cannot read the schema file `{}`: {error}",
                    self.shown(&declaration.schema)
                ),
            })?;
            let name = self.shown(&declaration.schema);
            let schema =
                dialects::schema_file::SchemaFile::parse(name.as_str(), &text).map_err(|diagnostics| {
                    let first = diagnostics.first();
                    ConfigError {
                        path: name.clone(),
                        position: first
                            .and_then(|it| it.subject.as_ref())
                            .map(|it| (it.start.line, it.start.column)),
                        message: first
                            .map_or_else(String::new, |it| format!("{}: {}", it.summary, it.detail)),
                    }
                })?;
            for part in [declaration.name.as_str(), declaration.config.as_str(), text.as_str()]
                .into_iter()
                .chain(declaration.patterns.iter().map(String::as_str))
            {
                hasher.update(&(part.len() as u64).to_le_bytes());
                hasher.update(part.as_bytes());
            }
            let current_dir = self.current_dir.clone();
            let claimed = declaration.clone();
            let claims = std::sync::Arc::new(move |path: &Utf8Path| claimed.claims(&current_dir.join(path)));
            registry.register(dialects::schema_file::SchemaDialect::new(&declaration.name, &schema, claims));
        }
        Ok(Some(ConfigDialects { registry, digest: hasher.finalize() }))
    }

    /// The registry a host over the files asked about so far is made
    /// with: the standard one, with the languages their configurations
    /// declare ([`RuleLevelsFinder::dialects`]).
    pub fn registry(&self) -> Result<db::module::Dialects, ConfigError> {
        Ok(self.dialects()?.map_or_else(dialects::standard, |it| it.registry))
    }

    /// `path` as the user would type it from the current directory.
    fn shown(&self, path: &Utf8Path) -> Utf8PathBuf {
        path.strip_prefix(&self.current_dir).map_or_else(|_| path.to_owned(), Utf8Path::to_owned)
    }
}

/// Which of `paths` (relative to `finder`'s directory, or absolute) the
/// `exclude` of their configuration leaves out of a check; `None` when it
/// leaves none out. The same finder then finds their rule levels without
/// looking at a directory again.
pub fn excluded(
    finder: &mut RuleLevelsFinder,
    paths: &[Utf8PathBuf],
) -> Result<Option<Vec<bool>>, ConfigError> {
    if finder.none_apply {
        return Ok(None);
    }
    let excluded = paths.iter().map(|path| finder.is_excluded(path)).collect::<Result<Vec<bool>, _>>()?;
    Ok(excluded.contains(&true).then_some(excluded))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The directories a walk listed that hold no `halite.toml`, taken as
    /// known, change no file's levels: a directory's chain is its
    /// parent's, but below a repository's root, where the search for a
    /// configuration above stops, and below a configuration of its own.
    #[test]
    fn directories_known_to_hold_no_configuration_keep_every_file_s_levels() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let root = Utf8Path::from_path(dir.path()).expect("a UTF-8 temporary directory").to_owned();
        let files = [
            "main.tf",
            "a/b/main.tf",
            "a/b/c/main.tf",
            "repo/x/main.tf",
            "app/main.tf",
            "app/d/e/main.tf",
            "a/../app/d/main.tf",
        ];
        for file in files {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
            std::fs::write(path, "").expect("a file");
        }
        std::fs::create_dir_all(root.join("repo/.git")).expect("a directory");
        std::fs::write(root.join("halite.toml"), "[rules]\nlegacy-index = \"error\"\n").expect("a file");
        std::fs::write(root.join("app/halite.toml"), "[rules]\ninterpolation-only = \"off\"\n")
            .expect("a file");
        let listed = ["a", "a/b", "a/b/c", "repo", "repo/x", "app/d", "app/d/e"];
        let levels = |finder: &mut RuleLevelsFinder| -> Vec<RuleLevels> {
            files
                .iter()
                .map(|file| (*finder.levels_for(Utf8Path::new(file)).expect("levels")).clone())
                .collect()
        };
        let expected = levels(&mut RuleLevelsFinder::new(root.clone()));
        let mut assuming = RuleLevelsFinder::new(root.clone());
        assuming.assume_no_config_file_in(listed.iter().map(Utf8PathBuf::from));
        assert_eq!(levels(&mut assuming), expected);
        let level = |file: usize, code: &str| expected[file].get(code);
        assert_eq!(level(2, "legacy-index"), Some(analysis::Level::Error));
        assert_eq!(level(3, "legacy-index"), None, "a repository's root ends the search");
        assert_eq!(level(5, "interpolation-only"), Some(analysis::Level::Off));
        assert_eq!(level(5, "legacy-index"), Some(analysis::Level::Error));
        assert_eq!(level(6, "interpolation-only"), Some(analysis::Level::Off));
    }
}
