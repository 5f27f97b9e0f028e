//! [`Change`]: the one way to change what the host knows.

use std::{collections::BTreeMap, sync::Arc};

use analysis::RuleLevels;
use camino::Utf8PathBuf;
use smol_str::SmolStr;
use value::Value;

/// A set of changes to the host's inputs, applied together by
/// [`crate::AnalysisHost::apply_change`].
#[derive(Default, Clone)]
pub struct Change {
    pub(crate) files: Vec<FileChange>,
    pub(crate) variables: Vec<(Utf8PathBuf, BTreeMap<String, Value>)>,
    pub(crate) variable_updates: Vec<(Utf8PathBuf, String, Option<Value>)>,
    pub(crate) dialects: Vec<(Utf8PathBuf, DialectChange)>,
    pub(crate) levels: Vec<(Utf8PathBuf, Arc<RuleLevels>)>,
    pub(crate) reported: Vec<(Utf8PathBuf, bool)>,
    pub(crate) roles: Vec<(Utf8PathBuf, db::module::ModuleRole)>,
}

/// What becomes of one file.
#[derive(Debug, Clone)]
pub enum FileChange {
    /// The file's contents, and which module it belongs to.
    Set { path: Utf8PathBuf, contents: Contents, membership: Membership },
    /// The file is gone.
    Remove { path: Utf8PathBuf },
}

/// A file's contents as given.
#[derive(Debug, Clone)]
pub enum Contents {
    Text(Arc<str>),
    /// Bytes as read from disk: bytes that are not UTF-8 make the file's
    /// diagnostics say where.
    Bytes(Vec<u8>),
}

/// Which module a file belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Membership {
    /// By its name (the one table of file kinds, `vfs::is_module_file`):
    /// the module of its directory, or none (a variables file, a hidden
    /// file), checked on its own.
    ByName,
    /// The module of this directory, whatever its name: an application's
    /// files given in memory.
    Module(Utf8PathBuf),
    /// No module: checked on its own.
    Standalone,
    /// A file the modules read by path and that is none of theirs (a
    /// Terragrunt unit's included `root.hcl`, as `AnalysisHost::load_reads`
    /// reads it): its text is set and its readers report again; it is not
    /// reported itself. A file the host holds as a module's stays its.
    Read,
}

/// What an application adds to a module's language.
#[derive(Clone, Default)]
pub struct DialectChange {
    /// Functions the configuration can call, winning over the standard
    /// library's.
    pub functions: BTreeMap<String, eval::Function>,
    /// Root names with their values (`project.name`).
    pub roots: BTreeMap<SmolStr, Value>,
    /// The language's rules (Terraform's, or HCL's generic ones), kept
    /// whatever the module's files are called; `None` leaves them as they
    /// are (chosen by the files' names, unless set before).
    pub rules: Option<db::module::DialectRules>,
}

impl Change {
    pub fn new() -> Change {
        Change::default()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
            && self.variables.is_empty()
            && self.variable_updates.is_empty()
            && self.dialects.is_empty()
            && self.levels.is_empty()
            && self.reported.is_empty()
            && self.roles.is_empty()
    }

    /// Sets a file's text; it joins the module its name says.
    pub fn set_file_text(&mut self, path: impl Into<Utf8PathBuf>, text: impl Into<Arc<str>>) {
        self.set_file(path, Contents::Text(text.into()), Membership::ByName);
    }

    /// Sets a file's bytes as read from disk; it joins the module its name
    /// says.
    pub fn set_file_bytes(&mut self, path: impl Into<Utf8PathBuf>, bytes: Vec<u8>) {
        self.set_file(path, Contents::Bytes(bytes), Membership::ByName);
    }

    /// Sets a file's contents and which module it belongs to.
    pub fn set_file(&mut self, path: impl Into<Utf8PathBuf>, contents: Contents, membership: Membership) {
        self.files.push(FileChange::Set { path: path.into(), contents, membership });
    }

    /// Removes a file.
    pub fn remove_file(&mut self, path: impl Into<Utf8PathBuf>) {
        self.files.push(FileChange::Remove { path: path.into() });
    }

    /// Sets the values of the variables of the module of `dir` (all of
    /// them: a name left out has no value).
    pub fn set_variables(&mut self, dir: impl Into<Utf8PathBuf>, variables: BTreeMap<String, Value>) {
        self.variables.push((dir.into(), variables));
    }

    /// Sets the value of one variable of the module of `dir` (`None`: no
    /// value), after any [`Change::set_variables`] of the same change.
    pub fn set_variable(
        &mut self,
        dir: impl Into<Utf8PathBuf>,
        name: impl Into<String>,
        value: Option<Value>,
    ) {
        self.variable_updates.push((dir.into(), name.into(), value));
    }

    /// Puts every file this change sets by name into the module of `dir`,
    /// whatever its name: an application's own files, given in memory.
    /// Each file is named in one spelling ([`vfs::tidy`]), so that
    /// `./main.hcl`, the obvious join of a module opened as `.`, is the
    /// `main.hcl` it loaded rather than a second copy of it.
    pub fn into_module(mut self, dir: &camino::Utf8Path) -> Change {
        for file in &mut self.files {
            match file {
                FileChange::Set { path, membership, .. } => {
                    *path = vfs::tidy(path);
                    if *membership == Membership::ByName {
                        *membership = Membership::Module(dir.to_owned());
                    }
                }
                FileChange::Remove { path } => *path = vfs::tidy(path),
            }
        }
        self
    }

    /// Sets what an application adds to the language of the module of
    /// `dir`.
    pub fn set_dialect(&mut self, dir: impl Into<Utf8PathBuf>, dialect: DialectChange) {
        self.dialects.push((dir.into(), dialect));
    }

    /// Sets the rule levels of a file (from its `halite.toml`); a file
    /// without any has every rule at its default level.
    pub fn set_rule_levels(&mut self, path: impl Into<Utf8PathBuf>, levels: Arc<RuleLevels>) {
        self.levels.push((path.into(), levels));
    }

    /// Whether the module of `dir` is reported on (its values and its files'
    /// diagnostics), or only read for what its callers need of it (the
    /// variables of a module that a reported one calls). Modules are
    /// reported unless said otherwise.
    pub fn set_reported(&mut self, dir: impl Into<Utf8PathBuf>, reported: bool) {
        self.reported.push((dir.into(), reported));
    }

    /// Whether the module of `dir` is the root of a run, whose variables
    /// are all the change gives (their defaults otherwise), or a module any
    /// caller may call (see [`db::module::ModuleRole`]). Modules are called
    /// unless said otherwise.
    pub fn set_role(&mut self, dir: impl Into<Utf8PathBuf>, role: db::module::ModuleRole) {
        self.roles.push((dir.into(), role));
    }

    /// The files this change sets or removes.
    pub fn files(&self) -> &[FileChange] {
        &self.files
    }

    /// Folds a later change into this one.
    pub fn extend(&mut self, later: Change) {
        self.files.extend(later.files);
        self.variables.extend(later.variables);
        self.variable_updates.extend(later.variable_updates);
        self.dialects.extend(later.dialects);
        self.levels.extend(later.levels);
        self.reported.extend(later.reported);
        self.roles.extend(later.roles);
    }
}

impl From<vfs::ChangeBatch> for Change {
    /// A watcher's batch: each file's state on disk now.
    fn from(batch: vfs::ChangeBatch) -> Change {
        let mut change = Change::new();
        for file in batch.changes {
            match file {
                vfs::Change::Created(path, bytes) | vfs::Change::Modified(path, bytes) => {
                    change.set_file_bytes(path, bytes)
                }
                vfs::Change::Deleted(path) => change.remove_file(path),
            }
        }
        change
    }
}
