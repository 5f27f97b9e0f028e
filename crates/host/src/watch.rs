//! What a watch of a root module's directory makes of what its watchers
//! see: the one place where a batch of changes on disk becomes changes of
//! the host, for `halite watch` and the library's `Workspace::watch` alike.
//!
//! A batch of the module's own directory sets its files (with the rule
//! levels of their `halite.toml`), reads what they now read by path or
//! call, and reads the module's variables again, as `halite eval DIR`
//! reads them (its variables files are watched with its files: see
//! [`crate::load::WATCHED_FILES`]). A batch of a directory outside it
//! that the modules read ([`crate::follow`]) sets those files. A
//! `halite.toml` that applies, or could, changing ([`configuration_watches`])
//! finds the rule levels again. What cannot be read is handed back for the
//! front end to say; the host keeps the last state that could.

use camino::{Utf8Path, Utf8PathBuf};
use vfs::{ChangeBatch, Scope, WatchOptions};

use crate::{
    AnalysisHost,
    config::RuleLevelsFinder,
    inputs::{self, RootVariables, VariableOption},
    load::{self, LoadError, VariablesError},
};

/// What a watcher saw.
#[derive(Debug)]
pub enum Seen {
    /// A batch of the module's own directory.
    Module(ChangeBatch),
    /// A batch of a directory outside it that the modules read.
    Outside(ChangeBatch),
    /// A `halite.toml` that applies to the module, or could, was written,
    /// added or removed.
    Configuration,
}

/// What applying a batch could not read, for the front end to say.
#[derive(Default)]
pub struct Applied {
    /// A `halite.toml` that cannot be read: the levels stay as they were.
    pub configuration: Option<LoadError>,
    /// A called module, or a file read by path, that cannot be read.
    pub children: Option<LoadError>,
    /// The module's variables, when they were read again: what was read,
    /// or why they could not be (then they keep their last values).
    pub variables: Option<Result<RootVariables, VariablesError>>,
}

/// The root module of a watch: its directory, the search for its rule
/// levels, and where its variables come from besides Terraform's own
/// sources (`--var` and `--var-file`, in the order given).
pub struct WatchedRoot {
    dir: Utf8PathBuf,
    levels: RuleLevelsFinder,
    variable_options: Vec<VariableOption>,
    environment: Vec<(String, String)>,
}

impl WatchedRoot {
    pub fn new(
        dir: impl Into<Utf8PathBuf>,
        levels: RuleLevelsFinder,
        variable_options: Vec<VariableOption>,
        environment: Vec<(String, String)>,
    ) -> WatchedRoot {
        WatchedRoot { dir: dir.into(), levels, variable_options, environment }
    }

    /// Applies what a watcher saw to `host`.
    pub fn apply(&mut self, host: &mut AnalysisHost, seen: Seen) -> Applied {
        let mut applied = Applied::default();
        match seen {
            Seen::Configuration => {
                // Found again from the files as they are now; a file that
                // is wrong now leaves the levels as they were.
                let mut found = self.levels.anew();
                match load::module_rule_levels(host, &self.dir, &mut found) {
                    Ok(change) => {
                        self.levels = found;
                        host.apply_change(change);
                    }
                    Err(error) => applied.configuration = Some(error),
                }
            }
            Seen::Outside(batch) => {
                let change = load::outside_change(host, batch);
                host.apply_change(change);
                applied.children = load::children(host).err();
            }
            Seen::Module(batch) => {
                let mut change = inputs::watched_change(batch);
                // A file whose levels cannot be found now takes the
                // defaults until its `halite.toml` reads again.
                applied.configuration = load::rule_levels(&mut change, &mut self.levels).err();
                // The write waits until a running report has let go of its
                // handle, which it does at its next query, unwinding.
                host.apply_change(change);
                // The files the batch made units read (an include added)
                // and the modules it made them call.
                applied.children = load::children(host).err();
                // Read again after every batch, not only one that changed
                // a variables file: a variable declared or retyped changes
                // which `TF_VAR_` counts and how its text reads. Values
                // that did not change change nothing.
                applied.variables = Some(inputs::apply_root_variables(
                    host,
                    &self.dir,
                    &self.variable_options,
                    self.environment.iter().cloned(),
                ));
            }
        }
        applied
    }
}

/// Watches for `halite.toml` each directory whose configuration file would
/// apply to the module of `dir`, calling `on_change` when one is written,
/// added or removed: its own, and inside a repository those above it up
/// to the repository's root, as the rule levels' search looks (outside
/// one, the directories above are not followed: a home directory's every
/// change would wake the watch). Returns the watches (dropping them stops
/// them) and the directories that cannot be watched, with why.
pub fn configuration_watches(
    dir: &Utf8Path,
    options: WatchOptions,
    on_change: impl Fn() + Clone + Send + 'static,
) -> (Vec<vfs::Watcher>, Vec<(Utf8PathBuf, vfs::Error)>) {
    let mut watches = Vec::new();
    let mut failed = Vec::new();
    let Ok(absolute) = std::path::absolute(dir) else { return (watches, failed) };
    let Ok(absolute) = Utf8PathBuf::from_path_buf(absolute) else { return (watches, failed) };
    let options = WatchOptions { files: vfs::FileSet::Named(crate::config::CONFIG_FILE_NAME), ..options };
    let followed: Vec<&Utf8Path> = match vfs::repository_root(&absolute) {
        Some(root) => absolute.ancestors().take_while(|it| it.starts_with(root)).collect(),
        None => vec![absolute.as_path()],
    };
    for ancestor in followed {
        let on_change = on_change.clone();
        let known = vfs::load_set(ancestor, Scope::Directory, options.files, options.max_file_size)
            .unwrap_or_default();
        // A batch of only the directory's own fate (it went, it came back)
        // changes no configuration; the module's watch says so.
        let sink = move |batch: ChangeBatch| {
            if !batch.changes.is_empty() {
                on_change();
            }
        };
        match vfs::Watcher::start(ancestor, Scope::Directory, &known, options, sink) {
            Ok(watch) => watches.push(watch),
            Err(error) => failed.push((ancestor.to_owned(), error)),
        }
    }
    (watches, failed)
}
