//! The [`Workspace`]: one module in a salsa database, and the changes an
//! application makes to it.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;
use std::ops::ControlFlow;
use std::sync::mpsc;

use camino::{Utf8Path, Utf8PathBuf};
use db::module::{self, Address, Attr, AttrError, Module};
use db::{File, RootDatabase};
use salsa::Setter as _;
use serde::de::DeserializeOwned;
use value::Value;

/// A module of HCL files and what an application adds to it: variables,
/// functions and root names.
///
/// ```
/// use halite::{Value, Workspace};
///
/// let mut workspace = Workspace::new("/project");
/// workspace.add_file("/project/a.hcl", "locals { x = 1 }");
/// workspace.add_file("/project/b.hcl", "locals { y = local.x + 1 }");
/// assert_eq!(workspace.value("local.y")?, Value::int(2));
/// # Ok::<(), halite::Error>(())
/// ```
pub struct Workspace {
    db: RootDatabase,
    module: Module,
    /// The module's files, by path; the module input holds them sorted.
    files: BTreeMap<Utf8PathBuf, File>,
    variables: BTreeMap<String, Value>,
    /// Who reads each attribute: the reverse of every attribute's
    /// resolution, built on the first [`Workspace::apply`] and kept up to
    /// date by it, so that an edit finds the attributes it can change
    /// without looking at the others.
    readers: Option<Readers>,
    /// The functions and root names the application added, which the
    /// module's dialect input holds (see [`crate::dialect`]).
    functions: BTreeMap<String, eval::Function>,
    roots: BTreeMap<String, Value>,
    /// The files edited since they were loaded: their inputs have low
    /// durability, the others' medium (see [`Workspace::make_stable`]).
    volatile: HashSet<Utf8PathBuf>,
    /// Where [`Workspace::apply`] reads what an edited file would declare
    /// before it changes the module.
    scratch: RootDatabase,
}

/// One change to a workspace's inputs, for [`Workspace::apply`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A file's new text; the file is added to the module if it was not in
    /// it.
    SetFile { path: Utf8PathBuf, text: String },
    /// A file's new bytes, as read from disk: bytes that are not UTF-8
    /// make the file's diagnostics say where.
    SetFileBytes { path: Utf8PathBuf, bytes: Vec<u8> },
    /// The file leaves the module.
    RemoveFile { path: Utf8PathBuf },
    /// The value of `var.NAME`.
    SetVariable { name: String, value: Value },
}

impl From<vfs::Change> for Change {
    fn from(change: vfs::Change) -> Change {
        match change {
            vfs::Change::Created(path, bytes) | vfs::Change::Modified(path, bytes) => {
                Change::SetFileBytes { path, bytes }
            }
            vfs::Change::Deleted(path) => Change::RemoveFile { path },
        }
    }
}

/// Why a value could not be given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Nothing is declared at the address.
    NoSuchAddress(String),
    /// The attribute's expression could not be evaluated: the summary and
    /// detail of the error (its diagnostic has the position).
    Evaluation { address: String, message: String },
    /// The value does not fit the Rust type it was decoded into.
    Decode { address: String, error: crate::DecodeError },
    /// A text that should be one expression is not (for
    /// [`Workspace::set_variable_expr`]).
    InvalidExpression { text: String, message: String },
    /// A directory or file could not be read.
    Io { path: Utf8PathBuf, message: String },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoSuchAddress(address) => write!(f, "nothing is declared at `{address}`"),
            Error::Evaluation { address, message } => write!(f, "`{address}`: {message}"),
            Error::Decode { address, error } => write!(f, "`{address}`: {error}"),
            Error::InvalidExpression { text, message } => {
                write!(f, "`{text}` is not an expression: {message}")
            }
            Error::Io { path, message } => write!(f, "cannot read `{path}`: {message}"),
        }
    }
}

impl std::error::Error for Error {}

/// How serious a [`Diagnostic`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
}

/// A problem found in the module's files, with where it is. Its `Display`
/// is the one-line form editors jump to.
///
/// ```
/// let mut workspace = halite::Workspace::new("m");
/// workspace.add_file("m/a.hcl", "locals {\n  a = \n}\n");
/// let diagnostic = &workspace.diagnostics()[0];
/// assert_eq!((diagnostic.severity, diagnostic.line), (halite::Severity::Error, 2));
/// assert!(diagnostic.to_string().starts_with("m/a.hcl:2:"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable identifier of the kind of problem, like `syntax-error`.
    pub code: String,
    pub message: String,
    pub path: Utf8PathBuf,
    /// Byte offsets into the file's text.
    pub range: std::ops::Range<usize>,
    /// The 1-based line and column (in characters) where the range starts.
    pub line: usize,
    pub column: usize,
    pub notes: Vec<String>,
}

impl fmt::Display for Diagnostic {
    /// `path:line:column: error: message`, the form editors jump to.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{}:{}:{}: {severity}: {}", self.path, self.line, self.column, self.message)
    }
}

impl Workspace {
    /// An empty module for the directory `dir`; files are added with
    /// [`Workspace::add_file`]. Nothing is read from disk.
    ///
    /// ```
    /// let workspace = halite::Workspace::new("config");
    /// assert!(workspace.addresses().is_empty());
    /// ```
    pub fn new(dir: impl Into<Utf8PathBuf>) -> Workspace {
        let mut db = RootDatabase::new();
        let module = db.set_module_files(dir.into(), Vec::new());
        Workspace {
            db,
            module,
            files: BTreeMap::new(),
            variables: BTreeMap::new(),
            readers: None,
            functions: BTreeMap::new(),
            roots: BTreeMap::new(),
            volatile: HashSet::new(),
            scratch: RootDatabase::new(),
        }
    }

    /// The module of the directory `dir`: its `*.hcl`, `*.tf`, `*.tofu`,
    /// `*.nomad` and `*.pkr.hcl` files and their `.json` twins (not those of
    /// subdirectories), read from disk.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let dir = halite::Utf8Path::from_path(dir.path()).unwrap();
    /// std::fs::write(dir.join("main.hcl"), "locals { answer = 6 * 7 }").unwrap();
    /// let workspace = halite::Workspace::open(dir)?;
    /// assert_eq!(workspace.value("local.answer")?, halite::Value::int(42));
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn open(dir: impl AsRef<Utf8Path>) -> Result<Workspace, Error> {
        let dir = dir.as_ref();
        let loaded = vfs::load(dir, vfs::Scope::Directory)
            .map_err(|error| Error::Io { path: error.path, message: error.source.to_string() })?;
        let mut workspace = Workspace::new(dir);
        for file in loaded {
            let file = workspace.db.set_file_bytes(file.path.clone(), &file.bytes);
            workspace.make_stable(file);
            workspace.files.insert(file.path(&workspace.db).clone(), file);
        }
        workspace.sync_files();
        Ok(workspace)
    }

    /// The module's directory.
    ///
    /// ```
    /// assert_eq!(halite::Workspace::new("config").dir(), "config");
    /// ```
    pub fn dir(&self) -> &Utf8Path {
        self.module.dir(&self.db)
    }

    /// Adds a file to the module, or replaces its text. The path is the
    /// file's name in diagnostics; nothing is read from or written to it.
    ///
    /// ```
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "locals { a = 1 }");
    /// workspace.add_file("m/a.hcl", "locals { a = 2 }");
    /// assert_eq!(workspace.value("local.a")?, halite::Value::int(2));
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn add_file(&mut self, path: impl Into<Utf8PathBuf>, text: impl Into<String>) {
        self.apply([Change::SetFile { path: path.into(), text: text.into() }]);
    }

    /// Removes a file from the module; nothing happens if it is not in it.
    ///
    /// ```
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "locals { a = 1 }");
    /// workspace.remove_file("m/a.hcl");
    /// assert!(workspace.value("local.a").is_err());
    /// ```
    pub fn remove_file(&mut self, path: impl AsRef<Utf8Path>) {
        self.apply([Change::RemoveFile { path: path.as_ref().to_owned() }]);
    }

    /// Sets the value of `var.NAME`. It is converted to the variable's
    /// declared type where it is used.
    ///
    /// ```
    /// use halite::{Value, Workspace};
    ///
    /// let mut workspace = Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "variable \"port\" { type = number }\nlocals { url = \"http://localhost:${var.port}\" }");
    /// workspace.set_variable("port", Value::string("8080"));
    /// assert_eq!(workspace.value("var.port")?, Value::int(8080));
    /// assert_eq!(workspace.value_as::<String>("local.url")?, "http://localhost:8080");
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn set_variable(&mut self, name: impl Into<String>, value: Value) {
        self.apply([Change::SetVariable { name: name.into(), value }]);
    }

    /// Sets the value of `var.NAME` from the text of an HCL expression, as
    /// `--var NAME=EXPR` does on the command line. The expression is
    /// evaluated with the standard library and no variables.
    ///
    /// ```
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "variable \"n\" { type = number }\nlocals { twice = var.n * 2 }");
    /// workspace.set_variable_expr("n", "20 + 1")?;
    /// assert_eq!(workspace.value_as::<u32>("local.twice")?, 42);
    /// assert!(workspace.set_variable_expr("n", "20 +").is_err());
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn set_variable_expr(&mut self, name: impl Into<String>, text: &str) -> Result<(), Error> {
        let value = module::evaluate_variable_expr(text).map_err(|error| {
            let message = match error {
                module::VariableExprError::Syntax(error) => error.to_string(),
                module::VariableExprError::Eval(error) => error.to_string(),
            };
            Error::InvalidExpression { text: text.to_string(), message }
        })?;
        self.set_variable(name, value);
        Ok(())
    }

    /// The value at `address`: an attribute (`local.NAME`,
    /// `TYPE.LABEL.ATTR`), a variable (`var.NAME`), or a whole block
    /// (`TYPE.LABEL`) as an object of its attributes.
    ///
    /// ```
    /// use halite::{Value, Workspace};
    ///
    /// let mut workspace = Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "target \"app\" {\n  output = \"bin/app\"\n  jobs = 2\n}");
    /// assert_eq!(workspace.value("target.app.jobs")?, Value::int(2));
    /// let app = workspace.value("target.app")?;
    /// assert_eq!(app.entries().map(|attrs| attrs.len()), Some(2));
    /// assert!(matches!(workspace.value("target.lib"), Err(halite::Error::NoSuchAddress(_))));
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn value(&self, address: &str) -> Result<Value, Error> {
        let index = module::module_index(&self.db, self.module);
        let parsed = module::Address::parse(address);
        let Some(definition) = index.definitions.get(&parsed) else {
            return Err(Error::NoSuchAddress(address.to_string()));
        };
        if definition.kind == module::DeclarationKind::Block {
            return self.block_value(&parsed);
        }
        let attr = Attr::new(&self.db, self.module, parsed);
        match self.evaluate(attr) {
            Ok(value) => Ok(value.clone()),
            Err(error) => {
                Err(Error::Evaluation { address: address.to_string(), message: self.describe(error) })
            }
        }
    }

    /// A block as an object of its attributes' values, failing with the
    /// first attribute that fails.
    fn block_value(&self, block: &module::Address) -> Result<Value, Error> {
        let mut attributes = BTreeMap::new();
        for attr in module::module_attributes(&self.db, self.module) {
            let address = attr.address(&self.db);
            let segments = address.segments();
            if segments.len() == block.segments().len() + 1 && segments.starts_with(block.segments()) {
                let value = self.value(&address.to_string())?;
                attributes.insert(segments[segments.len() - 1].to_string(), value);
            }
        }
        Ok(Value::object(attributes))
    }

    /// Every address's value or error, in the order of
    /// [`Workspace::addresses`]. Besides evaluating the whole module, it
    /// records who reads what, so that the next [`Workspace::apply`] does
    /// not have to: a watch loop calls it once after loading.
    ///
    /// ```
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "locals {\n  a = 1\n  b = local.a + local.nope\n}\n");
    /// let values = workspace.values();
    /// assert_eq!(values[0], ("local.a".to_string(), Ok(halite::Value::int(1))));
    /// assert!(values[1].1.is_err());
    /// ```
    pub fn values(&mut self) -> Vec<(String, Result<Value, Error>)> {
        let values = self.addresses().into_iter().map(|address| {
            let value = self.value(&address);
            (address, value)
        });
        let values = values.collect();
        self.readers();
        values
    }

    /// The value at `address` decoded into a `T` (see [`crate::de`]).
    ///
    /// ```
    /// #[derive(serde::Deserialize)]
    /// struct Target { output: String, jobs: u8 }
    ///
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "target \"app\" {\n  output = \"bin/app\"\n  jobs = 2\n}");
    /// let app: Target = workspace.value_as("target.app")?;
    /// assert_eq!((app.output.as_str(), app.jobs), ("bin/app", 2));
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn value_as<T: DeserializeOwned>(&self, address: &str) -> Result<T, Error> {
        let value = self.value(address)?;
        crate::de::from_value(&value).map_err(|error| Error::Decode { address: address.to_string(), error })
    }

    /// Every attribute's address, variables included: files in path order,
    /// then source order.
    ///
    /// ```
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "variable \"v\" {}\nlocals { l = 1 }\nb \"x\" { c = 2 }");
    /// assert_eq!(workspace.addresses(), ["var.v", "local.l", "b.x.c"]);
    /// ```
    pub fn addresses(&self) -> Vec<String> {
        self.all_addresses().iter().map(Address::to_string).collect()
    }

    /// Every diagnostic of the module: each file's syntax errors, then the
    /// module's (undeclared names, duplicates, cycles, evaluation errors),
    /// by file and position.
    ///
    /// ```
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "locals {\n  a = local.b\n}\n");
    /// let diagnostics = workspace.diagnostics();
    /// assert_eq!(diagnostics.len(), 1);
    /// assert_eq!(diagnostics[0].to_string(), "m/a.hcl:2:7: error: Reference to undeclared local value");
    /// ```
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for &file in self.files.values() {
            for diagnostic in analysis::diagnostics(&self.db, file) {
                out.push(self.located(
                    diagnostic.is_error(),
                    diagnostic.code,
                    diagnostic.message.clone(),
                    file,
                    diagnostic.range,
                    diagnostic.notes.clone(),
                ));
            }
        }
        // The module's problems under the rule codes (and severities) that
        // `halite check` reports and users configure, not the model's own
        // names for them.
        for diagnostic in module::module_diagnostics(&self.db, self.module) {
            let diagnostic = analysis::module::convert(&self.db, diagnostic);
            out.push(self.located(
                diagnostic.is_error(),
                diagnostic.code,
                diagnostic.message,
                diagnostic.file,
                diagnostic.range,
                diagnostic.notes,
            ));
        }
        out.sort_by(|a, b| (&a.path, a.range.start).cmp(&(&b.path, b.range.start)));
        out
    }

    fn located(
        &self,
        is_error: bool,
        code: &str,
        message: String,
        file: File,
        range: syntax::TextRange,
        notes: Vec<String>,
    ) -> Diagnostic {
        let start = range.start();
        let line_col = analysis::line_index(&self.db, file).line_col(start);
        Diagnostic {
            severity: if is_error { Severity::Error } else { Severity::Warning },
            code: code.to_string(),
            message,
            path: file.path(&self.db).clone(),
            range: usize::from(range.start())..usize::from(range.end()),
            line: line_col.line as usize,
            column: line_col.column as usize,
            notes,
        }
    }

    /// Applies changes, and returns the addresses whose values they
    /// changed (an attribute that appeared or vanished counts), sorted.
    ///
    /// Only what the changes can reach is looked at: the attributes of the
    /// edited files and the changed variables, and everything that reads
    /// them. Each is evaluated again only if something it reads changed,
    /// so an edit to one attribute evaluates that attribute and its
    /// dependents, and an edit to whitespace or comments evaluates nothing.
    /// Adding or removing a file, or a declaration, compares every value of
    /// the module instead.
    ///
    /// ```
    /// use halite::{Change, Workspace};
    ///
    /// let mut workspace = Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "locals {\n  a = 1\n  b = local.a + 1\n  c = 3\n}\n");
    /// let changed = workspace.apply([Change::SetFile {
    ///     path: "m/a.hcl".into(),
    ///     text: "locals {\n  a = 10\n  b = local.a + 1\n  c = 3\n}\n".into(),
    /// }]);
    /// assert_eq!(changed, ["local.a", "local.b"]);
    /// ```
    pub fn apply(&mut self, changes: impl IntoIterator<Item = Change>) -> Vec<String> {
        self.apply_inner(changes.into_iter().collect(), false).0
    }

    /// [`Workspace::apply`], also returning the queries the database ran to
    /// bring the values up to date (`attribute_value(local.b)` and the
    /// like), in order: what tests of incremental behaviour and the module
    /// benchmark count.
    ///
    /// ```
    /// use halite::{Change, Workspace};
    ///
    /// let mut workspace = Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "locals {\n  a = 1\n  b = local.a + 1\n  c = 3\n}\n");
    /// workspace.addresses().iter().for_each(|address| drop(workspace.value(address)));
    /// let (changed, executed) = workspace.apply_logged([Change::SetFile {
    ///     path: "m/a.hcl".into(),
    ///     text: "locals {\n  a = 10\n  b = local.a + 1\n  c = 3\n}\n".into(),
    /// }]);
    /// assert_eq!(changed, ["local.a", "local.b"]);
    /// let evaluated: Vec<&String> = executed.iter().filter(|query| query.starts_with("attribute_value(")).collect();
    /// assert_eq!(evaluated, ["attribute_value(local.a)", "attribute_value(local.b)"]);
    /// ```
    pub fn apply_logged(&mut self, changes: impl IntoIterator<Item = Change>) -> (Vec<String>, Vec<String>) {
        self.apply_inner(changes.into_iter().collect(), true)
    }

    fn apply_inner(&mut self, changes: Vec<Change>, log: bool) -> (Vec<String>, Vec<String>) {
        if changes.is_empty() {
            return (Vec::new(), Vec::new());
        }
        match self.seeds(&changes) {
            Some(seeds) => self.apply_local(changes, seeds, log),
            None => self.apply_structural(changes, log),
        }
    }

    /// Runs `f`, recording the queries it executes if `log` is set.
    fn run_logged<R>(&self, log: bool, f: impl FnOnce(&Workspace) -> R) -> (R, Vec<String>) {
        if !log {
            return (f(self), Vec::new());
        }
        let mut result = None;
        let executed = self.db.log_executed(|| result = Some(f(self)));
        match result {
            Some(result) => (result, executed),
            // `log_executed` always runs its closure, so this cannot be;
            // without a result there is nothing to return but a panic.
            None => unreachable!("log_executed runs its closure"),
        }
    }

    /// The addresses the changes can change directly, when they change no
    /// declaration: each edited file's declarations and the set variables.
    /// `None` when they may add, remove or move a declaration (a new or
    /// removed file, or a file whose declarations differ), which can change
    /// what any attribute resolves to.
    fn seeds(&mut self, changes: &[Change]) -> Option<Vec<Address>> {
        let mut seeds = Vec::new();
        for change in changes {
            let (path, new_declarations) = match change {
                Change::SetVariable { name, .. } => {
                    seeds.push(Address::new(["var", name.as_str()]));
                    continue;
                }
                Change::SetFile { path, text } => {
                    (path, self.scratch_declarations(path, |db, path| db.set_file_text(path, text.as_str())))
                }
                Change::SetFileBytes { path, bytes } => {
                    (path, self.scratch_declarations(path, |db, path| db.set_file_bytes(path, bytes)))
                }
                Change::RemoveFile { .. } => return None,
            };
            let file = *self.files.get(path)?;
            let declarations = module::file_declarations(&self.db, file);
            if **declarations != new_declarations {
                return None;
            }
            seeds.extend(declarations.declarations.iter().map(|declaration| declaration.address.clone()));
        }
        Some(seeds)
    }

    /// What a file would declare with new contents, found in a scratch
    /// database so that the module's own is not changed before the values
    /// the change may affect have been read.
    fn scratch_declarations(
        &mut self,
        path: &Utf8Path,
        set: impl FnOnce(&mut RootDatabase, Utf8PathBuf) -> File,
    ) -> module::FileDeclarations {
        let file = set(&mut self.scratch, path.to_owned());
        let declarations = module::file_declarations(&self.scratch, file).as_ref().clone();
        // Emptied at once, so that the scratch database does not keep a
        // second tree of every file edited.
        self.scratch.set_file_text(path.to_owned(), "");
        declarations
    }

    /// Sets the inputs the changes name.
    fn set_inputs(&mut self, changes: Vec<Change>) {
        let mut files_changed = false;
        let mut variables_changed = false;
        for change in changes {
            match change {
                Change::SetFile { path, text } => {
                    self.make_volatile(&path);
                    let file = self.db.set_file_text(path.clone(), text);
                    files_changed |= self.insert_file(path, file);
                }
                Change::SetFileBytes { path, bytes } => {
                    self.make_volatile(&path);
                    let file = self.db.set_file_bytes(path.clone(), &bytes);
                    files_changed |= self.insert_file(path, file);
                }
                Change::RemoveFile { path } => {
                    if self.files.remove(&path).is_some() {
                        self.db.delete_file(&path);
                        files_changed = true;
                    }
                }
                Change::SetVariable { name, value } => {
                    if self.variables.get(&name) != Some(&value) {
                        self.variables.insert(name, value);
                        variables_changed = true;
                    }
                }
            }
        }
        if files_changed {
            self.sync_files();
        }
        if variables_changed {
            self.db.set_module_variables(self.module, self.variables.clone());
        }
    }

    /// Records a file of the module; true if it is new to it. A new file
    /// is stable until it is edited (see [`Workspace::make_stable`]).
    fn insert_file(&mut self, path: Utf8PathBuf, file: File) -> bool {
        let new = self.files.insert(path, file).is_none();
        if new && !self.volatile.contains(file.path(&self.db)) {
            self.make_stable(file);
        }
        new
    }

    /// Gives a file's inputs medium durability: most files of a module are
    /// never edited while it is loaded, and salsa checks a query that reads
    /// only inputs of some durability without walking its dependencies when
    /// no input of that durability changed. The module's index reads every
    /// file, so without this each edit would walk the whole module's
    /// declarations (and their trees' queries) to find them unchanged.
    fn make_stable(&mut self, file: File) {
        let medium = salsa::Durability::MEDIUM;
        let text = file.text(&self.db).clone();
        file.set_text(&mut self.db).with_durability(medium).to(text);
        let status = file.status(&self.db);
        file.set_status(&mut self.db).with_durability(medium).to(status);
        let error = file.encoding_error(&self.db).clone();
        file.set_encoding_error(&mut self.db).with_durability(medium).to(error);
        let path = file.path(&self.db).clone();
        file.set_path(&mut self.db).with_durability(medium).to(path);
    }

    /// Gives a file that is being edited low durability, once: from then on
    /// its edits leave the other files' queries verified at a glance (see
    /// [`Workspace::make_stable`]). The first edit of a file still costs a
    /// walk of everything that reads medium-durability inputs.
    fn make_volatile(&mut self, path: &Utf8Path) {
        let Some(&file) = self.files.get(path) else { return };
        if !self.volatile.insert(path.to_owned()) {
            return;
        }
        // Only the text: setting a field marks it changed even to the same
        // value, and the status and encoding error are read by queries
        // (the module's index among them) that an edit of the text alone
        // leaves alone. They keep medium durability; a deletion is rare.
        let text = file.text(&self.db).clone();
        file.set_text(&mut self.db).with_durability(salsa::Durability::LOW).to(text);
    }

    fn sync_files(&mut self) {
        let files: Vec<File> = self.files.values().copied().collect();
        let dir = self.module.dir(&self.db).clone();
        self.module = self.db.set_module_files(dir, files);
    }

    /// [`Workspace::apply`] for changes that keep every declaration: only
    /// the seeds and their transitive readers can change.
    fn apply_local(
        &mut self,
        changes: Vec<Change>,
        seeds: Vec<Address>,
        log: bool,
    ) -> (Vec<String>, Vec<String>) {
        let readers = self.readers();
        let mut candidates: Vec<Address> = Vec::new();
        let mut seen: HashSet<&Address> = HashSet::new();
        let mut queue: Vec<&Address> = seeds.iter().collect();
        while let Some(address) = queue.pop() {
            if !seen.insert(address) {
                continue;
            }
            candidates.push(address.clone());
            queue.extend(readers.of(address));
        }
        let before: Vec<AttrResult> = candidates.iter().map(|address| self.result_at(address)).collect();
        self.set_inputs(changes);
        let (changed, executed) = self.run_logged(log, |workspace| {
            let mut changed: Vec<String> = candidates
                .iter()
                .zip(&before)
                .filter(|(address, before)| workspace.result_at(address) != **before)
                .map(|(address, _)| address.to_string())
                .collect();
            changed.sort();
            changed
        });
        // The seeds' own references may have changed (the values above
        // resolved them again, so this only reads the results).
        let mut readers = self.readers.take().unwrap_or_default();
        for seed in &seeds {
            readers.update(&self.db, self.module, seed);
        }
        self.readers = Some(readers);
        (changed, executed)
    }

    /// [`Workspace::apply`] for changes that may add or remove
    /// declarations: every value before and after.
    fn apply_structural(&mut self, changes: Vec<Change>, log: bool) -> (Vec<String>, Vec<String>) {
        let before: HashMap<Address, AttrResult> = self
            .all_addresses()
            .into_iter()
            .map(|address| (address.clone(), self.result_at(&address)))
            .collect();
        self.set_inputs(changes);
        self.readers = None;
        self.run_logged(log, |workspace| {
            let mut before = before;
            let mut changed = BTreeSet::new();
            for address in workspace.all_addresses() {
                let now = workspace.result_at(&address);
                match before.remove(&address) {
                    Some(old) if old == now => {}
                    _ => {
                        changed.insert(address.to_string());
                    }
                }
            }
            // What is left was declared before and is not now.
            changed.extend(before.into_keys().map(|address| address.to_string()));
            changed.into_iter().collect()
        })
    }

    /// Every address with a value: the attributes and the variables.
    fn all_addresses(&self) -> Vec<Address> {
        let index = module::module_index(&self.db, self.module);
        index
            .order
            .iter()
            .filter(|address| {
                index.definitions.get(*address).is_some_and(|definition| {
                    definition.kind.is_attribute()
                        || matches!(definition.kind, module::DeclarationKind::Variable { .. })
                })
            })
            .cloned()
            .collect()
    }

    /// The value or error at an address, as `apply` compares them (errors
    /// by their text, since they name attributes of one revision).
    fn result_at(&self, address: &Address) -> AttrResult {
        let attr = Attr::new(&self.db, self.module, address.clone());
        match self.evaluate(attr) {
            Ok(value) => Ok(value.clone()),
            Err(error) => Err(self.describe(error)),
        }
    }

    /// The readers index, built now if it is not there.
    fn readers(&mut self) -> &Readers {
        if self.readers.is_none() {
            let mut readers = Readers::default();
            for address in self.all_addresses() {
                readers.update(&self.db, self.module, &address);
            }
            self.readers = Some(readers);
        }
        self.readers.get_or_insert_with(Readers::default)
    }

    /// An attribute's value or error (the module's dialect included).
    fn evaluate<'db>(&'db self, attr: Attr<'db>) -> &'db Result<Value, AttrError> {
        module::attribute_value(&self.db, attr)
    }

    /// An error in words: its summary and detail, or what it is about.
    fn describe(&self, error: &AttrError) -> String {
        let address = |address: &Address| address.to_string();
        match error {
            AttrError::NotDeclared => "nothing is declared here".to_string(),
            AttrError::Unresolved { kind, detail, .. } => format!("{}: {detail}", kind.summary()),
            AttrError::Cycle(path) => {
                let steps: Vec<String> = path.iter().map(address).collect();
                format!("Reference cycle: {}", steps.join(" -> "))
            }
            AttrError::MissingVariable { variable, .. } => {
                format!(
                    "No value for required variable: {} is not set, and has no default value",
                    address(variable)
                )
            }
            AttrError::Dependency(attr) => format!("{} has no value", address(attr)),
            AttrError::Eval(error) => error.to_string(),
            AttrError::NoValue => "the variable is not set, and has no default value".to_string(),
            AttrError::InvalidType => "the variable's type constraint is invalid".to_string(),
            AttrError::InvalidValue { message, .. } => format!("Invalid value for variable: {message}"),
        }
    }

    /// Adds a function the configuration can call, or replaces one of the
    /// standard library's. Values computed before are computed again when
    /// next asked for.
    ///
    /// ```
    /// use halite::{Function, Param, Type, Value, Workspace};
    ///
    /// let mut workspace = Workspace::new("m");
    /// workspace.register_function(
    ///     "double",
    ///     Function::simple(vec![Param::new("n", Type::Number)], None, Type::Number, |args, _| {
    ///         let n = args[0].as_number().and_then(|n| n.to_i64()).unwrap_or_default();
    ///         Ok(Value::int(n * 2))
    ///     }),
    /// );
    /// workspace.add_file("m/a.hcl", "locals { four = double(2) }");
    /// assert_eq!(workspace.value("local.four")?, Value::int(4));
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn register_function(&mut self, name: impl Into<String>, function: eval::Function) {
        self.functions.insert(name.into(), function);
        self.sync_dialect();
    }

    /// Adds a root name the configuration can refer to, with its value: an
    /// application's own namespace (`project.name`, `env.HOME`). The
    /// module's own names (`var`, `local`, its block types) come first.
    ///
    /// ```
    /// use halite::{Value, Workspace};
    ///
    /// let mut workspace = Workspace::new("m");
    /// workspace.add_root("project", Value::object_from([("name", Value::string("calc"))]));
    /// workspace.add_file("m/a.hcl", "locals { title = upper(project.name) }");
    /// assert_eq!(workspace.value("local.title")?, Value::string("CALC"));
    /// assert!(workspace.diagnostics().is_empty());
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn add_root(&mut self, name: impl Into<String>, value: Value) {
        self.roots.insert(name.into(), value);
        self.sync_dialect();
    }

    fn sync_dialect(&mut self) {
        crate::dialect::sync(&mut self.db, self.module, &self.functions, &self.roots);
    }

    /// Starts watching the module's directory: the watcher hands over a
    /// batch of changes after each burst of filesystem activity, for
    /// [`Workspace::apply_batch`]. Dropping the watcher stops it. For a
    /// program that has nothing else to do meanwhile, [`Workspace::watch`]
    /// runs the loop.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let dir = halite::Utf8Path::from_path(dir.path()).unwrap();
    /// std::fs::write(dir.join("main.hcl"), "locals {\n  n = 1\n  m = local.n * 2\n}\n").unwrap();
    /// let mut workspace = halite::Workspace::open(dir)?;
    /// let (_watcher, batches) = workspace.watch_channel()?;
    /// std::fs::write(dir.join("main.hcl"), "locals {\n  n = 5\n  m = local.n * 2\n}\n").unwrap();
    /// let batch = batches.recv_timeout(Duration::from_secs(10)).expect("a batch");
    /// assert_eq!(workspace.apply_batch(batch), ["local.m", "local.n"]);
    /// assert_eq!(workspace.value("local.m")?, halite::Value::int(10));
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn watch_channel(&self) -> Result<(vfs::Watcher, mpsc::Receiver<vfs::ChangeBatch>), Error> {
        let known: Vec<vfs::LoadedFile> = self
            .files
            .iter()
            .map(|(path, file)| vfs::LoadedFile {
                path: path.clone(),
                bytes: file.text(&self.db).as_bytes().to_vec(),
            })
            .collect();
        vfs::Watcher::start_with_channel(self.dir(), vfs::Scope::Directory, &known)
            .map_err(|error| Error::Io { path: error.path, message: error.source.to_string() })
    }

    /// Applies a batch of changes from the watcher (see
    /// [`Workspace::apply`]), and returns the addresses whose values
    /// changed.
    pub fn apply_batch(&mut self, batch: vfs::ChangeBatch) -> Vec<String> {
        self.apply(batch.changes.into_iter().map(Change::from))
    }

    /// Watches the module's directory and applies each batch of changes as
    /// it comes, calling `on_change` with the workspace and the addresses
    /// whose values changed, until `on_change` breaks. Returns an error if
    /// the directory cannot be watched.
    pub fn watch(
        &mut self,
        mut on_change: impl FnMut(&Workspace, &[String]) -> ControlFlow<()>,
    ) -> Result<(), Error> {
        let (watcher, batches) = self.watch_channel()?;
        for batch in batches {
            let changed = self.apply_batch(batch);
            if on_change(self, &changed).is_break() {
                break;
            }
        }
        drop(watcher);
        Ok(())
    }

    /// The database, for what this API does not cover yet.
    pub fn database(&self) -> &RootDatabase {
        &self.db
    }
}

/// An attribute's result as `apply` compares it.
type AttrResult = Result<Value, String>;

/// Which attributes read each attribute (the reverse of resolution), and
/// what each attribute was last seen to read, so that an update can remove
/// its old edges. Addresses are numbered once, since the database's
/// interned ids live only as long as a borrow of it and a copy of an
/// address per edge would cost a hundred bytes each.
#[derive(Default)]
struct Readers {
    ids: HashMap<Address, u32>,
    addresses: Vec<Address>,
    readers: Vec<Vec<u32>>,
    reads: Vec<Vec<u32>>,
}

impl Readers {
    fn id(&mut self, address: &Address) -> u32 {
        if let Some(&id) = self.ids.get(address) {
            return id;
        }
        let id = u32::try_from(self.addresses.len()).unwrap_or(u32::MAX);
        self.ids.insert(address.clone(), id);
        self.addresses.push(address.clone());
        self.readers.push(Vec::new());
        self.reads.push(Vec::new());
        id
    }

    fn of<'a>(&'a self, address: &Address) -> impl Iterator<Item = &'a Address> + 'a {
        let readers = self.ids.get(address).and_then(|&id| self.readers.get(id as usize));
        readers.into_iter().flatten().filter_map(|&reader| self.addresses.get(reader as usize))
    }

    /// Records what the attribute at `address` reads now.
    fn update(&mut self, db: &RootDatabase, module: Module, address: &Address) {
        let attr = Attr::new(db, module, address.clone());
        let id = self.id(address);
        let reads: Vec<u32> = module::attribute_resolution(db, attr)
            .dependencies()
            .into_iter()
            .map(|target| self.id(target))
            .collect();
        // Ids index both vectors (`id` pushes to each), so the lookups
        // below find their entries.
        let old = self.reads.get_mut(id as usize).map(std::mem::take).unwrap_or_default();
        for target in old {
            if let Some(readers) = self.readers.get_mut(target as usize) {
                readers.retain(|&reader| reader != id);
            }
        }
        for &target in &reads {
            if let Some(readers) = self.readers.get_mut(target as usize) {
                readers.push(id);
            }
        }
        if let Some(slot) = self.reads.get_mut(id as usize) {
            *slot = reads;
        }
    }
}
