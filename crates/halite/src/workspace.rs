//! The [`Workspace`]: one module held by an analysis host, and the changes
//! an application makes to it. It computes nothing of its own: values,
//! diagnostics and what a change changed are the host's.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::ControlFlow;
use std::sync::mpsc;

use camino::{Utf8Path, Utf8PathBuf};
use db::module::{self, Address};
use host::{AnalysisHost, Change, DialectChange, HostOptions, LocatedDiagnostic};
use serde::de::DeserializeOwned;
use smol_str::SmolStr;
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
    host: AnalysisHost,
    dir: Utf8PathBuf,
    /// The functions and root names the application added (see
    /// [`Workspace::register_function`]).
    functions: BTreeMap<String, eval::Function>,
    roots: BTreeMap<SmolStr, Value>,
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
        let dir = dir.into();
        let mut host = AnalysisHost::new(HostOptions::default());
        let mut change = Change::new();
        change.set_reported(dir.clone(), true);
        host.apply_change(change);
        host.report();
        Workspace { host, dir, functions: BTreeMap::new(), roots: BTreeMap::new() }
    }

    /// The module of the directory `dir`: its `*.hcl`, `*.tf`, `*.tofu`,
    /// `*.nomad` and `*.pkr.hcl` files and their `.json` twins (not those of
    /// subdirectories), read from disk, with the rule levels of their
    /// `halite.toml`, as every front end of the host loads a module.
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
        let io = |error: host::load::LoadError| match error {
            host::load::LoadError::Io(error) => {
                Error::Io { path: error.path, message: error.source.to_string() }
            }
            host::load::LoadError::Config(error) => {
                Error::Io { path: error.path.clone(), message: error.to_string() }
            }
        };
        let mut levels = host::config::RuleLevelsFinder::from_current_dir()
            .map_err(|error| Error::Io { path: error.path.clone(), message: error.to_string() })?;
        let options = HostOptions::default();
        let (change, _) = host::load::module(dir, &mut levels, options.limits.max_file_size).map_err(io)?;
        let mut host = AnalysisHost::new(options);
        host.apply_change(change);
        host::load::children(&mut host).map_err(io)?;
        host.report();
        Ok(Workspace { host, dir: dir.to_owned(), functions: BTreeMap::new(), roots: BTreeMap::new() })
    }

    /// The module's directory.
    ///
    /// ```
    /// assert_eq!(halite::Workspace::new("config").dir(), "config");
    /// ```
    pub fn dir(&self) -> &Utf8Path {
        &self.dir
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
        let mut change = Change::new();
        change.set_file_text(path, text.into());
        self.apply(change);
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
        let mut change = Change::new();
        change.remove_file(path.as_ref());
        self.apply(change);
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
        let mut change = Change::new();
        change.set_variable(self.dir.clone(), name, Some(value));
        self.apply(change);
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
        let db = self.host.db();
        let Some(module) = self.host.module(&self.dir) else {
            return Err(Error::NoSuchAddress(address.to_string()));
        };
        let parsed = Address::parse(address);
        let Some(definition) = module::definition(db, module, &parsed) else {
            return Err(Error::NoSuchAddress(address.to_string()));
        };
        if definition.kind == module::DeclarationKind::Block {
            return self.block_value(&parsed);
        }
        self.host.evaluate(&self.dir, std::slice::from_ref(&parsed));
        match self.host.value(&self.dir, &parsed) {
            Some(Ok(value)) => Ok(value.clone()),
            Some(Err(error)) => {
                let attr = module::Attr::new(db, module, parsed);
                Err(Error::Evaluation { address: address.to_string(), message: describe(db, attr, error) })
            }
            None => Err(Error::NoSuchAddress(address.to_string())),
        }
    }

    /// A block as an object of its attributes' values, failing with the
    /// first attribute that fails.
    fn block_value(&self, block: &Address) -> Result<Value, Error> {
        let mut attributes = BTreeMap::new();
        for address in self.host.attributes(&self.dir) {
            let segments = address.segments();
            if segments.len() == block.segments().len() + 1 && segments.starts_with(block.segments()) {
                let value = self.value(&address.to_string())?;
                attributes.insert(segments[segments.len() - 1].to_string(), value);
            }
        }
        Ok(Value::object(attributes))
    }

    /// Every address's value or error, in the order of
    /// [`Workspace::addresses`].
    ///
    /// ```
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "locals {\n  a = 1\n  b = local.a + local.nope\n}\n");
    /// let values = workspace.values();
    /// assert_eq!(values[0], ("local.a".to_string(), Ok(halite::Value::int(1))));
    /// assert!(values[1].1.is_err());
    /// ```
    pub fn values(&self) -> Vec<(String, Result<Value, Error>)> {
        self.addresses()
            .into_iter()
            .map(|address| {
                let value = self.value(&address);
                (address, value)
            })
            .collect()
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
        let Some(module) = self.host.module(&self.dir) else { return Vec::new() };
        let db = self.host.db();
        module::module_order(db, module)
            .filter(|address| {
                module::definition(db, module, address).is_some_and(|definition| {
                    definition.kind.is_attribute()
                        || matches!(definition.kind, module::DeclarationKind::Variable { .. })
                })
            })
            .map(Address::to_string)
            .collect()
    }

    /// Every diagnostic of the module, as every front end finds them:
    /// each file's syntax errors, or its style lints and the module's rules
    /// about it (undeclared names, duplicates, cycles, evaluation errors),
    /// with `# halite-ignore` comments and the rule levels of `halite.toml`
    /// (for a module opened from disk) applied, by file and position.
    ///
    /// ```
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.tf", "locals {\n  a = local.b\n}\noutput \"a\" {\n  value = local.a\n}\n");
    /// let diagnostics = workspace.diagnostics();
    /// assert_eq!(diagnostics.len(), 1);
    /// assert_eq!(diagnostics[0].to_string(), "m/a.tf:2:7: error: Reference to undeclared local value");
    /// assert_eq!(diagnostics[0].code, "undeclared-reference");
    /// ```
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.host.diagnostics().into_iter().map(Diagnostic::from_located).collect()
    }

    /// Applies a change, and returns the addresses whose values it changed
    /// (an attribute or variable that appeared or vanished counts), sorted.
    /// A file it sets belongs to the workspace's module, whatever its name.
    ///
    /// Only what the change can reach is looked at: the attributes of the
    /// edited files and the changed variables, and everything that reads
    /// them. Each is evaluated again only if something it reads changed,
    /// so an edit to one attribute evaluates that attribute and its
    /// dependents, and an edit to whitespace or comments evaluates nothing.
    ///
    /// ```
    /// use halite::{Change, Workspace};
    ///
    /// let mut workspace = Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "locals {\n  a = 1\n  b = local.a + 1\n  c = 3\n}\n");
    /// let mut change = Change::new();
    /// change.set_file_text("m/a.hcl", "locals {\n  a = 10\n  b = local.a + 1\n  c = 3\n}\n");
    /// assert_eq!(workspace.apply(change), ["local.a", "local.b"]);
    /// ```
    pub fn apply(&mut self, change: Change) -> Vec<String> {
        self.apply_inner(change, false).0
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
    /// let mut change = Change::new();
    /// change.set_file_text("m/a.hcl", "locals {\n  a = 10\n  b = local.a + 1\n  c = 3\n}\n");
    /// let (changed, executed) = workspace.apply_logged(change);
    /// assert_eq!(changed, ["local.a", "local.b"]);
    /// let evaluated: Vec<&String> = executed.iter().filter(|query| query.starts_with("attribute_value(")).collect();
    /// assert_eq!(evaluated, ["attribute_value(local.a)", "attribute_value(local.b)"]);
    /// ```
    pub fn apply_logged(&mut self, change: Change) -> (Vec<String>, Vec<String>) {
        self.apply_inner(change, true)
    }

    fn apply_inner(&mut self, change: Change, log: bool) -> (Vec<String>, Vec<String>) {
        let change = change.into_module(&self.dir);
        let mark = log.then(|| self.host.db().open_log());
        self.host.apply_change(change);
        let report = self.host.report();
        let executed = match mark {
            Some(mark) => {
                let db = self.host.db();
                db.describe_all(&db.close_log(mark))
            }
            None => Vec::new(),
        };
        let mut changed: Vec<String> = report
            .values
            .into_iter()
            .filter(|change| change.module == self.dir)
            .map(|change| change.address.to_string())
            .collect();
        changed.sort();
        changed.dedup();
        (changed, executed)
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
        self.roots.insert(SmolStr::new(name.into()), value);
        self.sync_dialect();
    }

    fn sync_dialect(&mut self) {
        let mut change = Change::new();
        change.set_dialect(
            self.dir.clone(),
            DialectChange { functions: self.functions.clone(), roots: self.roots.clone() },
        );
        self.apply(change);
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
        let db = self.host.db();
        let known: Vec<vfs::LoadedFile> = self
            .host
            .module_files(&self.dir)
            .into_iter()
            .map(|file| vfs::LoadedFile {
                path: file.path(db).clone(),
                bytes: file.text(db).as_bytes().to_vec(),
            })
            .collect();
        vfs::Watcher::start_with_channel(self.dir(), vfs::Scope::Directory, &known)
            .map_err(|error| Error::Io { path: error.path, message: error.source.to_string() })
    }

    /// Applies a batch of changes from the watcher (see
    /// [`Workspace::apply`]), and returns the addresses whose values
    /// changed.
    pub fn apply_batch(&mut self, batch: vfs::ChangeBatch) -> Vec<String> {
        self.apply(Change::from(batch))
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

    /// The analysis host, for what this API does not cover yet.
    pub fn host(&self) -> &AnalysisHost {
        &self.host
    }

    /// The database, for what this API does not cover yet.
    pub fn database(&self) -> &db::RootDatabase {
        self.host.db()
    }
}

/// An error in words: its summary and detail, or what it is about.
fn describe(db: &db::RootDatabase, attr: module::Attr<'_>, error: &module::AttrError) -> String {
    use module::AttrError;
    match error {
        AttrError::NotDeclared => "nothing is declared here".to_string(),
        AttrError::Unresolved { kind, detail, .. } => format!("{}: {detail}", kind.summary()),
        // A long cycle's steps are not listed: every member of a cycle of n
        // has this error, and each naming every step would be n² names.
        AttrError::Cycle(path) if path.is_empty() => {
            format!("Reference cycle: {}", module::long_cycle(db, attr))
        }
        AttrError::Cycle(path) => {
            let steps: Vec<String> = path.iter().map(Address::to_string).collect();
            format!("Reference cycle: {}", steps.join(" -> "))
        }
        AttrError::MissingVariable { variable, .. } => {
            format!("No value for required variable: {variable} is not set, and has no default value")
        }
        AttrError::Dependency(attr) => format!("{attr} has no value"),
        AttrError::Eval(error) => error.to_string(),
        AttrError::NoValue => "the variable is not set, and has no default value".to_string(),
        AttrError::InvalidType => "the variable's type constraint is invalid".to_string(),
        AttrError::InvalidValue { message, .. } => format!("Invalid value for variable: {message}"),
    }
}

impl Diagnostic {
    fn from_located(located: &LocatedDiagnostic) -> Diagnostic {
        let diagnostic = &located.diagnostic;
        Diagnostic {
            severity: if diagnostic.is_error() { Severity::Error } else { Severity::Warning },
            code: diagnostic.code.to_string(),
            message: diagnostic.message.clone(),
            path: located.path.clone(),
            range: usize::from(diagnostic.range.start())..usize::from(diagnostic.range.end()),
            line: located.start.line as usize,
            column: located.start.column as usize,
            notes: diagnostic.notes.clone(),
        }
    }
}
