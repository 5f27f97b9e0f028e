//! The [`Workspace`]: one module held by an analysis host, and the changes
//! an application makes to it. It computes nothing of its own: values,
//! diagnostics and what a change changed are the host's.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::ControlFlow;
use std::sync::mpsc;

use camino::{Utf8Path, Utf8PathBuf};
use db::module::{self, Dialects, ModuleBlock, ModuleBlocks};
use host::{
    AnalysisHost, Change, DialectChange, HostOptions, LocatedDiagnostic,
    config::RuleLevelsFinder,
    watch::{Seen, WatchedRoot},
};
use serde::de::DeserializeOwned;
use smol_str::SmolStr;
use value::Value;

use crate::address::{Address, BlockStep, Segment};
use crate::de::{DecodeError, Origin};

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
    dialect: Dialect,
    /// The variables the application set (see [`Workspace::set_variable`]):
    /// they win over those a watch reads from disk again.
    variables: BTreeMap<String, Value>,
    /// What the batches of a watch of the directory are applied through,
    /// once one is (see [`host::watch`]).
    watched: Option<WatchedRoot>,
}

/// Why a value could not be given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Nothing is declared at the address.
    NoSuchAddress(String),
    /// A text is not an address's printed form (see [`Address`]).
    InvalidAddress { text: String, message: String },
    /// The attribute's expression could not be evaluated: the summary and
    /// detail of the error (its diagnostic has the position).
    Evaluation { address: String, message: String },
    /// The value does not fit the Rust type it was decoded into: where in
    /// the files, and where in the value (see [`DecodeError`]).
    Decode(DecodeError),
    /// A text that should be one expression is not (for
    /// [`Workspace::set_variable_expr`]).
    InvalidExpression { text: String, message: String },
    /// A directory or file could not be read.
    Io { path: Utf8PathBuf, message: String },
    /// A file was read but says something wrong: a `halite.toml`, a
    /// variables file, an application's schema file. `message` says what
    /// and where.
    Config { path: Utf8PathBuf, message: String },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoSuchAddress(address) => write!(f, "nothing is declared at `{address}`"),
            Error::InvalidAddress { text, message } => write!(f, "`{text}` is not an address: {message}"),
            Error::Evaluation { address, message } => write!(f, "`{address}`: {message}"),
            Error::Decode(error) => write!(f, "{error}"),
            Error::InvalidExpression { text, message } => {
                write!(f, "`{text}` is not an expression: {message}")
            }
            Error::Io { path, message } => write!(f, "cannot read `{path}`: {message}"),
            Error::Config { path, message } => write!(f, "`{path}` cannot be used: {message}"),
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
    /// A stable identifier of the kind of problem, like `unclosed-block`
    /// or `undeclared-reference` (`halite rule CODE` explains each).
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

/// What a change changed ([`Workspace::apply`]): the values and the
/// diagnostics, each found from the change's reach, not by comparing the
/// whole module before and after.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// The addresses whose values changed (an attribute or variable that
    /// appeared or vanished counts), sorted.
    pub values: Vec<Address>,
    /// Those of `values` that are no longer declared, sorted: the others
    /// have a value, or an error, to read.
    pub removed: Vec<Address>,
    /// What a watcher's batch could not read ([`Workspace::apply_batch`],
    /// [`Workspace::watch`]): a file it named, a called module, a
    /// `halite.toml` or variables file that says something wrong. Each
    /// keeps its last state that could be read.
    pub unread: Vec<Error>,
    /// The diagnostics that went away, then those that appeared, each in
    /// order of file and position. A diagnostic that moved went away at its
    /// old place and appeared at its new one.
    pub diagnostics: Vec<DiagnosticChange>,
}

/// A diagnostic that appeared or went away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiagnosticChange {
    pub diagnostic: Diagnostic,
    /// Whether it went away.
    pub resolved: bool,
}

/// A workspace's host: its values are read by structured address, which
/// reads each file's block structure.
fn host_options() -> HostOptions {
    HostOptions { block_structure: true, ..HostOptions::default() }
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
        Workspace::with_dialects(dir, dialects::standard())
    }

    /// [`Workspace::new`], its module's language chosen from `dialects` by
    /// its files' names: the standard ones with an embedder's own
    /// registered through the same [`Dialects::register`] Halite uses for
    /// its own (Terraform, Terragrunt, Packer, Nomad).
    ///
    /// An embedder's dialect claims its files, adds roots (here `env.`,
    /// whose every reference is unknown), functions with their signatures,
    /// and the schemas of its blocks, checked as `halite check` checks a
    /// file:
    ///
    /// ```
    /// use std::collections::BTreeMap;
    ///
    /// use halite::dialects::{BlockSchema, DialectPlugin, DialectRules, Dialects};
    /// use halite::{Function, Param, Type, Utf8Path, Value, Workspace};
    ///
    /// struct Deploy;
    ///
    /// impl DialectPlugin for Deploy {
    ///     fn name(&self) -> &str {
    ///         "deploy"
    ///     }
    ///     fn claims(&self, path: &Utf8Path) -> bool {
    ///         path.as_str().ends_with(".deploy.hcl")
    ///     }
    ///     fn rules(&self) -> DialectRules {
    ///         let service = BlockSchema {
    ///             labels: 1,
    ///             attributes: vec![("image".into(), true), ("port".into(), false)],
    ///             blocks: vec!["health".into()],
    ///             types: [("port".into(), Type::Number)].into(),
    ///             ..BlockSchema::default()
    ///         };
    ///         DialectRules {
    ///             name: "deploy".into(),
    ///             unknown_roots: ["env".into()].into(),
    ///             own_functions: ["shout".into()].into(),
    ///             block_schemas: [("service".into(), service)].into(),
    ///             ..DialectRules::generic()
    ///         }
    ///     }
    ///     fn functions(&self, table: &mut BTreeMap<String, Function>) {
    ///         let shout = |args: &[Value], _: &Type| {
    ///             Ok(Value::string(&args[0].as_str().unwrap_or_default().to_uppercase()))
    ///         };
    ///         table.insert("shout".into(), Function::simple(vec![Param::new("s", Type::String)], None, Type::String, shout));
    ///     }
    /// }
    ///
    /// let mut dialects = halite::dialects::standard();
    /// dialects.register(Deploy);
    /// let mut workspace = Workspace::with_dialects("m", dialects);
    /// workspace.add_file(
    ///     "m/app.deploy.hcl",
    ///     "service \"web\" {\n  image = shout(\"nginx\")\n  prot  = 80\n}\nservice \"db\" {\n  image = \"pg\"\n  port  = \"fifty\"\n}\nlocals { region = env.region }\n",
    /// );
    /// assert_eq!(workspace.value("service.web.image")?, Value::string("NGINX"));
    /// assert!(!workspace.value("local.region")?.is_known());
    /// let messages: Vec<String> = workspace.diagnostics().iter().map(|it| it.to_string()).collect();
    /// assert_eq!(messages, [
    ///     "m/app.deploy.hcl:3:3: error: Unsupported argument",
    ///     "m/app.deploy.hcl:7:11: error: Incorrect attribute value type",
    /// ]);
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn with_dialects(dir: impl Into<Utf8PathBuf>, dialects: Dialects) -> Workspace {
        let dir = dir.into();
        let mut host = AnalysisHost::with_dialects(host_options(), dialects);
        let mut change = Change::new();
        change.set_reported(dir.clone(), true);
        host.apply_change(change);
        host.report();
        Workspace::with_host(host, dir)
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
    ///
    /// The module is the root of a run, as `halite eval DIR` evaluates it,
    /// and its variables are read by the same code (`host::inputs`): a
    /// Terraform module's from `TF_VAR_NAME` in the process's environment,
    /// then `terraform.tfvars`, `terraform.tfvars.json` and
    /// `*.auto.tfvars(.json)` in its directory, as Terraform reads them; a
    /// variable given none of them takes its default, and one without a
    /// default is unknown.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let dir = halite::Utf8Path::from_path(dir.path()).unwrap();
    /// std::fs::write(
    ///     dir.join("main.tf"),
    ///     "variable \"env\" {\n  default = \"staging\"\n}\nlocals {\n  name = \"web-${var.env}\"\n}\n",
    /// )
    /// .unwrap();
    /// let workspace = halite::Workspace::open(dir)?;
    /// assert_eq!(workspace.value("local.name")?, halite::Value::string("web-staging"));
    /// std::fs::write(dir.join("terraform.tfvars"), "env = \"prod\"\n").unwrap();
    /// let workspace = halite::Workspace::open(dir)?;
    /// assert_eq!(workspace.value("local.name")?, halite::Value::string("web-prod"));
    /// # Ok::<(), halite::Error>(())
    /// ```
    ///
    /// Its language is chosen from the standard registry and the languages
    /// its `halite.toml` declares (`[[dialect]]` tables naming schema
    /// files, as `halite check` reads them).
    pub fn open(dir: impl AsRef<Utf8Path>) -> Result<Workspace, Error> {
        Workspace::open_in(dir.as_ref(), None)
    }

    /// [`Workspace::open`], the module's language chosen from `dialects`
    /// (see [`Workspace::with_dialects`]).
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let dir = halite::Utf8Path::from_path(dir.path()).unwrap();
    /// std::fs::write(dir.join("main.hcl"), "locals { answer = 6 * 7 }").unwrap();
    /// let workspace = halite::Workspace::open_with_dialects(dir, halite::dialects::standard())?;
    /// assert_eq!(workspace.value("local.answer")?, halite::Value::int(42));
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn open_with_dialects(dir: impl AsRef<Utf8Path>, dialects: Dialects) -> Result<Workspace, Error> {
        Workspace::open_in(dir.as_ref(), Some(dialects))
    }

    /// The module of `dir`, with `dialects`, or those its configuration
    /// gives.
    fn open_in(dir: &Utf8Path, dialects: Option<Dialects>) -> Result<Workspace, Error> {
        let io = load_error;
        let mut levels = host::config::RuleLevelsFinder::from_current_dir()
            .map_err(|error| Error::Config { path: error.path.clone(), message: error.to_string() })?;
        let options = host_options();
        let (change, _) = host::load::module(dir, &mut levels, options.limits.max_file_size).map_err(io)?;
        let dialects = match dialects {
            Some(dialects) => dialects,
            None => levels
                .registry()
                .map_err(|error| Error::Config { path: error.path.clone(), message: error.to_string() })?,
        };
        let mut host = AnalysisHost::with_dialects(options, dialects);
        host.apply_change(change);
        host::load::children(&mut host).map_err(io)?;
        let environment = host::inputs::process_environment();
        host::inputs::apply_root_variables(&mut host, dir, &[], environment).map_err(variables_error)?;
        host.report();
        Ok(Workspace::with_host(host, dir.to_owned()))
    }

    fn with_host(host: AnalysisHost, dir: Utf8PathBuf) -> Workspace {
        Workspace {
            host,
            dir,
            functions: BTreeMap::new(),
            roots: BTreeMap::new(),
            dialect: Dialect::ByFileNames,
            variables: BTreeMap::new(),
            watched: None,
        }
    }

    /// The module's directory.
    ///
    /// ```
    /// assert_eq!(halite::Workspace::new("config").dir(), "config");
    /// ```
    pub fn dir(&self) -> &Utf8Path {
        &self.dir
    }

    /// The host's key of the module: its directory, or the one Terragrunt
    /// unit in it, which is keyed by its file (a unit's dialect evaluates
    /// each alone, see [`AnalysisHost::module_of_dir`]); found on each use,
    /// since an edit may add or remove the unit.
    fn module_key(&self) -> Utf8PathBuf {
        self.host.module_of_dir(&self.dir).unwrap_or_else(|_| self.dir.clone())
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
        let name = name.into();
        self.variables.insert(name.clone(), value.clone());
        let mut change = Change::new();
        change.set_variable(self.module_key(), name, Some(value));
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

    /// The [`Address`] a printed form names in this module (see
    /// [`Address`]): labels are told from nested block types and
    /// attributes by the blocks the module has, so every address the
    /// workspace gives reads back as itself.
    ///
    /// ```
    /// use halite::{Address, Workspace};
    ///
    /// let mut workspace = Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "service \"api.v2\" {\n  image = \"api:2\"\n  health {\n    path = \"/up\"\n  }\n}\n");
    /// let image = workspace.address(r#"service["api.v2"].image"#)?;
    /// assert_eq!(image, Address::block("service", ["api.v2"]).attribute("image"));
    /// let health = workspace.address(r#"service["api.v2"].health"#)?;
    /// assert!(health.is_block());
    /// assert_eq!(workspace.address(&health.to_string())?, health);
    /// assert!(workspace.address("service.api").is_err());
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn address(&self, text: &str) -> Result<Address, Error> {
        let segments = crate::address::segments(text).map_err(|error| Error::InvalidAddress {
            text: text.to_string(),
            message: format!("{} at offset {}", error.message, error.offset),
        })?;
        let found = self.model().and_then(|model| model.resolve(&segments));
        // `rule["0"]` and `rule[0]` name the same database address: the
        // printed form decides.
        match found {
            Some(address) if crate::address::segments(&address.to_string()).as_ref() == Ok(&segments) => {
                Ok(address)
            }
            _ => Err(Error::NoSuchAddress(text.to_string())),
        }
    }

    /// The module's index and rules, through which addresses are found.
    fn model(&self) -> Option<Model<'_>> {
        let db = self.host.db();
        let module = self.host.module(&self.module_key())?;
        Some(Model { db, index: module::IndexView::of(db, module), rules: module.dialect(db).rules(db) })
    }

    /// The value at `address` (an [`Address`] or its printed form, see
    /// [`Workspace::address`]): an attribute, a variable, or a whole block
    /// as an object.
    ///
    /// A block's object holds its attributes and its nested blocks, by
    /// type. Without a schema, blocks of a type that have labels are an
    /// object keyed by their first label (then by the next, as deep as
    /// they go); blocks with no labels left are one object when there is
    /// one of them, and a tuple of objects in source order when the type
    /// and labels repeat. (References in expressions see nested blocks by
    /// their addresses' steps: a repeated block's position is a key,
    /// `target.app.step[1].run`, and a nested block with no attributes is
    /// not there.)
    ///
    /// ```
    /// use halite::{Address, Value, Workspace};
    ///
    /// let mut workspace = Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "target \"app\" {\n  jobs = 2\n  step { run = \"cc\" }\n  step { run = \"ld\" }\n  env \"ci\" { CI = true }\n}");
    /// assert_eq!(workspace.value("target.app.jobs")?, Value::int(2));
    /// assert_eq!(workspace.value("target.app.step[1].run")?, Value::string("ld"));
    /// let app = workspace.value(&Address::block("target", ["app"]))?;
    /// let steps = app.entries().unwrap()["step"].clone();
    /// assert_eq!(steps.elements().map(<[Value]>::len), Some(2));
    /// assert_eq!(app.entries().unwrap()["env"], Value::object_from([("ci", Value::object_from([("CI", Value::bool(true))]))]));
    /// assert!(matches!(workspace.value("target.lib"), Err(halite::Error::NoSuchAddress(_))));
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn value(&self, address: impl ToAddress) -> Result<Value, Error> {
        let address = address.to_address(self)?;
        match self.target(&address)? {
            Target::Attribute(db_address) => {
                self.host.evaluate(&self.module_key(), std::slice::from_ref(&db_address));
                self.attribute_value(&address, &db_address)
            }
            Target::Block(block) => {
                let mut attributes = Vec::new();
                collect_attributes(std::slice::from_ref(&block), &mut attributes);
                self.host.evaluate(&self.module_key(), &attributes);
                self.block_value(&address, &block)
            }
        }
    }

    /// What an address names: an attribute's address in the database, or
    /// a block of the structure.
    fn target(&self, address: &Address) -> Result<Target, Error> {
        let missing = || Error::NoSuchAddress(address.to_string());
        let model = self.model().ok_or_else(missing)?;
        if address.is_block() {
            return model.module_block(address).map(Target::Block).ok_or_else(missing);
        }
        let db_address = match (address.is_variable(), address.is_local(), address.attribute_name()) {
            (true, _, Some(name)) => db::module::Address::new(["var", name]),
            (_, true, Some(name)) => db::module::Address::new(["local", name]),
            _ => model.db_address(address.blocks(), address.attribute_name()),
        };
        match model.index.definition(&db_address) {
            Some(definition) if definition.kind.has_value() => Ok(Target::Attribute(db_address)),
            _ => Err(missing()),
        }
    }

    /// An evaluated attribute's value or error.
    fn attribute_value(&self, address: &Address, db_address: &db::module::Address) -> Result<Value, Error> {
        let db = self.host.db();
        match self.host.value(&self.module_key(), db_address) {
            Some(Ok(value)) => Ok(value.clone()),
            Some(Err(module::AttrError::NotDeclared)) | None => {
                Err(Error::NoSuchAddress(address.to_string()))
            }
            Some(Err(error)) => {
                let module = self
                    .host
                    .module(&self.module_key())
                    .ok_or_else(|| Error::NoSuchAddress(address.to_string()))?;
                let attr = module::Attr::new(db, module, db_address.clone());
                Err(Error::Evaluation { address: address.to_string(), message: describe(db, attr, error) })
            }
        }
    }

    /// A block as an object of its attributes' values and its nested
    /// blocks (see [`Workspace::value`]), failing with the first attribute
    /// that fails. Its attributes were evaluated.
    fn block_value(&self, address: &Address, block: &ModuleBlock) -> Result<Value, Error> {
        let mut entries = BTreeMap::new();
        for attribute in &block.attributes {
            let value = self
                .attribute_value(&address.clone().attribute(attribute.name.as_str()), &attribute.address)?;
            entries.insert(attribute.name.to_string(), value);
        }
        for (type_name, blocks) in group_by_type(&block.blocks) {
            if entries.contains_key(type_name.as_str()) {
                return Err(Error::Evaluation {
                    address: address.to_string(),
                    message: format!("`{type_name}` is both an attribute and a block type in this block"),
                });
            }
            let nested = |block: &ModuleBlock| {
                let labels: Vec<&str> = block.labels.iter().map(SmolStr::as_str).collect();
                let mut nested = address.clone().nested(type_name.as_str(), labels);
                if let Some(index) = block.index {
                    nested = nested.at(index as usize);
                }
                self.block_value(&nested, block)
            };
            let value = labelled_value(address, &type_name, &blocks, 0, &nested)?;
            entries.insert(type_name.to_string(), value);
        }
        Ok(Value::object(entries))
    }

    /// Every address's value or error, in the order of
    /// [`Workspace::addresses`].
    ///
    /// ```
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "locals {\n  a = 1\n  b = local.a + local.nope\n}\n");
    /// let values = workspace.values();
    /// assert_eq!(values[0].0, "local.a");
    /// assert_eq!(values[0].1, Ok(halite::Value::int(1)));
    /// assert!(values[1].1.is_err());
    /// ```
    pub fn values(&self) -> Vec<(Address, Result<Value, Error>)> {
        self.addresses()
            .into_iter()
            .map(|address| {
                let value = self.value(&address);
                (address, value)
            })
            .collect()
    }

    /// The value at `address` decoded into a `T` with serde (see
    /// [`crate::de`]). A block is decoded from its structure, as
    /// [`Workspace::decode`] decodes the whole configuration, except that
    /// its labels, already in the address, need no field. An error says
    /// where it is in the files and in the value.
    ///
    /// ```
    /// #[derive(serde::Deserialize, Debug)]
    /// struct Target { output: String, jobs: u8, step: Vec<Step> }
    /// #[derive(serde::Deserialize, Debug)]
    /// struct Step { run: String }
    ///
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "target \"app\" {\n  output = \"bin/app\"\n  jobs = 2\n  step { run = \"cc\" }\n}");
    /// let app: Target = workspace.value_as("target.app")?;
    /// assert_eq!((app.output.as_str(), app.jobs, app.step[0].run.as_str()), ("bin/app", 2, "cc"));
    ///
    /// workspace.add_file("m/a.hcl", "target \"app\" {\n  output = \"bin/app\"\n  jobs = 300\n}");
    /// let error = workspace.value_as::<Target>("target.app").unwrap_err();
    /// assert_eq!(error.to_string(), "m/a.hcl:3:10: at target.app.jobs: the number 300 is out of range for u8");
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn value_as<T: DeserializeOwned>(&self, address: impl ToAddress) -> Result<T, Error> {
        let address = address.to_address(self)?;
        let db = self.host.db();
        let located = |error: DecodeError| Error::Decode(error.prefixed(&address.to_string()).located(db));
        match self.target(&address)? {
            Target::Block(block) => {
                let values = self.evaluated(std::slice::from_ref(&block), &[]);
                crate::de::body::decode_block(&values, &block).map_err(located)
            }
            Target::Attribute(db_address) => {
                self.host.evaluate(&self.module_key(), std::slice::from_ref(&db_address));
                let value = self.attribute_value(&address, &db_address)?;
                let origin = self.origin_of(&db_address);
                crate::de::from_value(&value).map_err(|error| located(error.at(origin)))
            }
        }
    }

    /// The whole configuration decoded into a `T` with serde: the
    /// top-level attributes and block types of every file of the module
    /// are its fields (`variable` and `locals` blocks are the module's
    /// own, not the configuration's). See [`crate::de`] for how blocks,
    /// labels and attributes map to Rust types. An error says where it is
    /// in the files (its [`DecodeError::render`] shows the lines) and in
    /// the configuration.
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// use serde::Deserialize;
    ///
    /// #[derive(Deserialize, Debug, PartialEq)]
    /// #[serde(deny_unknown_fields)]
    /// struct Config { service: BTreeMap<String, Service> }
    /// #[derive(Deserialize, Debug, PartialEq)]
    /// struct Service { image: String, port: Vec<Port> }
    /// #[derive(Deserialize, Debug, PartialEq)]
    /// struct Port { #[serde(rename = "@name")] name: String, number: u16 }
    ///
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", r#"
    /// service "api.v2" {
    ///   image = "api:2"
    ///   port "http" { number = 80 }
    ///   port "admin" { number = "9090" }
    /// }
    /// "#);
    /// let config: Config = workspace.decode()?;
    /// let api = &config.service["api.v2"];
    /// assert_eq!((api.port[1].name.as_str(), api.port[1].number), ("admin", 9090));
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T, Error> {
        let structure = self.structure();
        let structure = structure.as_ref();
        let values = self.evaluated(&structure.blocks, &structure.attributes);
        crate::de::body::decode_body(&values, structure)
            .map_err(|error| Error::Decode(error.located(self.host.db())))
    }

    /// Evaluates the attributes of `blocks` (nested ones included) and
    /// `attributes`, and gives their values or errors by address.
    fn evaluated(
        &self,
        blocks: &[ModuleBlock],
        attributes: &[db::module::ModuleAttribute],
    ) -> crate::de::body::Values {
        let mut addresses: Vec<db::module::Address> =
            attributes.iter().map(|it| it.address.clone()).collect();
        collect_attributes(blocks, &mut addresses);
        let module_key = self.module_key();
        self.host.evaluate(&module_key, &addresses);
        let db = self.host.db();
        let module = self.host.module(&module_key);
        addresses
            .into_iter()
            .filter_map(|address| {
                let result = match self.host.value(&module_key, &address)? {
                    Ok(value) => Ok(value.clone()),
                    Err(error) => {
                        let attr = module::Attr::new(db, module?, address.clone());
                        Err(describe(db, attr, error))
                    }
                };
                Some((address, result))
            })
            .collect()
    }

    /// Where a value of the database is written: its expression.
    fn origin_of(&self, db_address: &db::module::Address) -> Option<Origin> {
        let module = self.host.module(&self.module_key())?;
        let definition = module::definition(self.host.db(), module, db_address)?;
        definition.kind.is_attribute().then(|| Origin {
            file: definition.file,
            location: definition.location(self.host.db()).clone(),
            part: module::RangeOf::Value,
        })
    }

    /// Every attribute's address, variables included: files in path order;
    /// in a file, its top-level attributes, then its blocks' in source
    /// order.
    ///
    /// ```
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "variable \"v\" {}\nlocals { l = 1 }\nb \"x.y\" {\n  c = 2\n  d { e = 3 }\n}");
    /// assert_eq!(workspace.addresses(), ["var.v", "local.l", r#"b["x.y"].c"#, r#"b["x.y"].d.e"#]);
    /// ```
    pub fn addresses(&self) -> Vec<Address> {
        let Some(module) = self.host.module(&self.module_key()) else { return Vec::new() };
        let db = self.host.db();
        module::module_order(db, module)
            .filter(|address| {
                module::definition(db, module, address).is_some_and(|definition| {
                    definition.kind.is_attribute()
                        || matches!(definition.kind, module::DeclarationKind::Variable { .. })
                })
            })
            .filter_map(|address| self.model()?.structured(address))
            .collect()
    }

    /// Every block's address, nested blocks included, each before what is
    /// nested in it: files in path order, then source order.
    ///
    /// ```
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "job \"build\" {\n  step { run = \"make\" }\n  step { run = \"test\" }\n}\nlocals { x = 1 }");
    /// assert_eq!(workspace.block_addresses(), ["job.build", "job.build.step[0]", "job.build.step[1]"]);
    /// ```
    pub fn block_addresses(&self) -> Vec<Address> {
        let mut out = Vec::new();
        let structure = self.structure();
        let model = self.model();
        let given = |address| match &model {
            Some(model) => model.given(address),
            None => address,
        };
        let mut stack: Vec<(Vec<BlockStep>, &ModuleBlock)> =
            structure.blocks.iter().rev().map(|block| (Vec::new(), block)).collect();
        while let Some((mut steps, block)) = stack.pop() {
            steps.push(step_of(block));
            out.push(given(Address::from_parts(steps.clone(), None)));
            stack.extend(block.blocks.iter().rev().map(|nested| (steps.clone(), nested)));
        }
        out
    }

    /// The module's whole structure (every file's blocks), for what reads
    /// all of it.
    fn structure(&self) -> std::sync::Arc<ModuleBlocks> {
        match self.host.module(&self.module_key()) {
            Some(module) => std::sync::Arc::clone(module::module_blocks(self.host.db(), module)),
            None => std::sync::Arc::default(),
        }
    }

    /// The top-level blocks of a type whose labels start with `labels`, in
    /// order: `blocks("service", &[])` lists every `service` block.
    ///
    /// ```
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "resource \"aws_instance\" \"web\" {}\nresource \"aws_instance\" \"db\" {}\nresource \"aws_s3_bucket\" \"logs\" {}");
    /// assert_eq!(workspace.blocks("resource", &[]).len(), 3);
    /// assert_eq!(workspace.blocks("resource", &["aws_instance"]), ["resource.aws_instance.web", "resource.aws_instance.db"]);
    /// assert_eq!(workspace.blocks("resource", &["aws_instance"])[1].labels(), ["aws_instance", "db"]);
    /// ```
    pub fn blocks(&self, type_name: &str, labels: &[&str]) -> Vec<Address> {
        self.structure()
            .blocks
            .iter()
            .filter(|block| {
                block.type_name == type_name
                    && block.labels.len() >= labels.len()
                    && block.labels.iter().zip(labels).all(|(label, wanted)| label == wanted)
            })
            .map(|block| {
                let address = Address::from_parts(vec![step_of(block)], None);
                match self.model() {
                    Some(model) => model.given(address),
                    None => address,
                }
            })
            .collect()
    }

    /// What a block holds: its attributes' addresses, then its nested
    /// blocks', in source order.
    ///
    /// ```
    /// use halite::Address;
    ///
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "service \"api\" {\n  image = \"api\"\n  health { path = \"/\" }\n}");
    /// let service = Address::block("service", ["api"]);
    /// assert_eq!(workspace.contents(&service)?, ["service.api.image", "service.api.health"]);
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn contents(&self, block: impl ToAddress) -> Result<Vec<Address>, Error> {
        let address = block.to_address(self)?;
        let Target::Block(node) = self.target(&address)? else {
            return Err(Error::NoSuchAddress(format!("{address} (not a block)")));
        };
        let attributes = node.attributes.iter().map(|it| address.clone().attribute(it.name.as_str()));
        let blocks = node.blocks.iter().map(|nested| {
            let mut steps = address.blocks().to_vec();
            steps.push(step_of(nested));
            Address::from_parts(steps, None)
        });
        Ok(attributes.chain(blocks).collect())
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

    /// Applies a change, and returns what it changed: the addresses whose
    /// values changed, and the diagnostics that appeared or went away. A
    /// file it sets belongs to the workspace's module, whatever its name.
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
    /// assert_eq!(workspace.apply(change).values, ["local.a", "local.b"]);
    ///
    /// let mut change = Change::new();
    /// change.set_file_text("m/a.hcl", "locals {\n  a = 10\n  b = local.x + 1\n  c = 3\n}\n");
    /// let changes = workspace.apply(change);
    /// assert_eq!(changes.values, ["local.b"]);
    /// assert_eq!(changes.diagnostics.len(), 1);
    /// assert!(!changes.diagnostics[0].resolved);
    /// assert_eq!(changes.diagnostics[0].diagnostic.code, "undeclared-reference");
    ///
    /// let mut change = Change::new();
    /// change.set_file_text("m/a.hcl", "locals {\n  a = 10\n  b = local.a + 1\n  c = 3\n}\n");
    /// let changes = workspace.apply(change);
    /// assert!(changes.diagnostics[0].resolved);
    /// ```
    pub fn apply(&mut self, change: Change) -> Changes {
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
    /// let (changes, executed) = workspace.apply_logged(change);
    /// assert_eq!(changes.values, ["local.a", "local.b"]);
    /// let evaluated: Vec<&String> = executed.iter().filter(|query| query.starts_with("attribute_value(")).collect();
    /// assert_eq!(evaluated, ["attribute_value(local.a)", "attribute_value(local.b)"]);
    /// ```
    pub fn apply_logged(&mut self, change: Change) -> (Changes, Vec<String>) {
        self.apply_inner(change, true)
    }

    /// Applies an application's own change (its files are the module's,
    /// whatever their names; nothing is read from disk), and reports it.
    fn apply_inner(&mut self, change: Change, log: bool) -> (Changes, Vec<String>) {
        let change = change.into_module(&self.dir);
        let mark = log.then(|| self.host.db().open_log());
        self.host.apply_change(change);
        self.reported(mark)
    }

    /// Applies what a watcher saw, as `halite watch` applies it (see
    /// [`host::watch`]): files, what they read, rule levels and the
    /// variables read from disk, then the variables the application set.
    /// What cannot be read keeps its last state, as a module that cannot
    /// be read stays out of [`Workspace::apply`].
    fn apply_seen(&mut self, seen: Seen) -> Changes {
        let dir = self.dir.clone();
        let root = self.watched.get_or_insert_with(|| {
            let levels = RuleLevelsFinder::from_current_dir()
                .unwrap_or_else(|_| RuleLevelsFinder::new(Utf8PathBuf::from(".")));
            WatchedRoot::new(dir, levels, Vec::new(), host::inputs::process_environment())
        });
        let mut unread: Vec<Error> = match &seen {
            Seen::Module(batch) | Seen::Outside(batch) => batch
                .unreadable
                .iter()
                .map(|(path, message)| Error::Io { path: path.clone(), message: message.clone() })
                .collect(),
            Seen::Configuration => Vec::new(),
        };
        let applied = root.apply(&mut self.host, seen);
        unread.extend(applied.configuration.map(load_error));
        unread.extend(applied.children.map(load_error));
        let variables_read = applied.variables.is_some();
        if let Some(Err(error)) = applied.variables {
            unread.push(variables_error(error));
        }
        if variables_read && !self.variables.is_empty() {
            let mut change = Change::new();
            for (name, value) in &self.variables {
                change.set_variable(self.module_key(), name.clone(), Some(value.clone()));
            }
            self.host.apply_change(change);
        }
        Changes { unread, ..self.reported(None).0 }
    }

    /// The host's report since the last, as [`Changes`], and the queries
    /// run since `mark`, if given.
    fn reported(&mut self, mark: Option<db::LogMark>) -> (Changes, Vec<String>) {
        let report = self.host.report();
        let executed = match mark {
            Some(mark) => {
                let db = self.host.db();
                db.describe_all(&db.close_log(mark))
            }
            None => Vec::new(),
        };
        // Each found through its declaration, one file's structure: the
        // work is the change's, not the module's. An address the change
        // removed is read from its segments.
        let model = self.model();
        let module_key = self.module_key();
        let mut changed: Vec<(Address, bool)> = report
            .values
            .into_iter()
            .filter(|change| *change.module == module_key)
            .map(|change| {
                let removed = matches!(change.state, host::ValueState::Removed);
                (Address::of_model(model.as_ref(), &change.address), removed)
            })
            .collect();
        changed.sort_by_cached_key(|(address, _)| address.to_string());
        changed.dedup_by(|a, b| a.0 == b.0);
        let removed =
            changed.iter().filter(|(_, removed)| *removed).map(|(address, _)| address.clone()).collect();
        let changed = changed.into_iter().map(|(address, _)| address).collect();
        let diagnostics = report
            .diagnostics
            .into_iter()
            .map(|change| DiagnosticChange {
                diagnostic: Diagnostic::from_located(&change.diagnostic),
                resolved: change.resolved,
            })
            .collect();
        (Changes { values: changed, removed, diagnostics, unread: Vec::new() }, executed)
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

    /// Chooses the language the module is read in: its rules for names,
    /// functions and blocks (see [`Dialect`]). The default chooses by the
    /// files' names.
    ///
    /// ```
    /// use halite::{Dialect, Workspace};
    ///
    /// let mut workspace = Workspace::new("m");
    /// workspace.add_file("m/main.tf", "resource \"aws_instance\" \"web\" { ami = \"ami-1\" }\nlocals { id = aws_instance.web.id }");
    /// // Terraform's, by the file's name: a resource is named without
    /// // `resource`, and has attributes a run computes.
    /// assert!(!workspace.value("local.id")?.is_known());
    /// // Generic HCL: `aws_instance` is no name of the module.
    /// workspace.set_dialect(Dialect::Generic);
    /// assert!(workspace.value("local.id").is_err());
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn set_dialect(&mut self, dialect: Dialect) {
        self.dialect = dialect;
        self.sync_dialect();
    }

    fn sync_dialect(&mut self) {
        let rules = match self.dialect {
            Dialect::ByFileNames => None,
            Dialect::Generic => {
                Some(module::DialectRules { chosen_by_files: false, ..module::DialectRules::generic() })
            }
            Dialect::Terraform => {
                Some(module::DialectRules { chosen_by_files: false, ..dialects::terraform::plugin_rules() })
            }
        };
        let mut change = Change::new();
        change.set_dialect(
            self.module_key(),
            DialectChange { functions: self.functions.clone(), roots: self.roots.clone(), rules },
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
    /// assert_eq!(workspace.apply_batch(batch).values, ["local.m", "local.n"]);
    /// assert_eq!(workspace.value("local.m")?, halite::Value::int(10));
    /// # Ok::<(), halite::Error>(())
    /// ```
    pub fn watch_channel(&self) -> Result<(crate::Watcher, mpsc::Receiver<crate::ChangeBatch>), Error> {
        let (sender, batches) = mpsc::channel();
        let options = watch_options();
        let watcher = vfs::Watcher::start(
            self.dir(),
            vfs::Scope::Directory,
            &self.host.known_in(&self.dir, options.files),
            options,
            move |batch| {
                let _ = sender.send(batch);
            },
        )
        .map_err(watch_error)?;
        Ok((watcher, batches))
    }

    /// Applies a batch of changes from the watcher of
    /// [`Workspace::watch_channel`] as `halite watch` applies one: the
    /// module's files with the rule levels of their `halite.toml`, what
    /// they read, and its variables read again from disk (its variables
    /// files are watched with it), those the application set winning.
    /// Returns what it changed.
    pub fn apply_batch(&mut self, batch: crate::ChangeBatch) -> Changes {
        self.apply_seen(Seen::Module(batch))
    }

    /// Watches the module's directory and applies each batch of changes as
    /// it comes, calling `on_change` with the workspace and what the batch
    /// changed, until `on_change` breaks. Returns an error if the directory
    /// cannot be watched.
    ///
    /// It follows what `halite watch` follows, through the same code
    /// ([`host::watch`]): the module's files and its variables files
    /// (`terraform.tfvars`, `*.auto.tfvars`), what the module reads outside
    /// its directory (the local modules it calls, a Terraform unit's
    /// include and the units it depends on, including those an edit adds),
    /// and the `halite.toml` files whose rule levels apply to it. A
    /// directory of those that cannot be watched is not followed.
    pub fn watch(
        &mut self,
        mut on_change: impl FnMut(&Workspace, &Changes) -> ControlFlow<()>,
    ) -> Result<(), Error> {
        let (sender, seen) = mpsc::channel();
        let options = watch_options();
        let watcher = {
            let sender = sender.clone();
            vfs::Watcher::start(
                self.dir(),
                vfs::Scope::Directory,
                &self.host.known_in(&self.dir, options.files),
                options,
                move |batch| {
                    let _ = sender.send(Seen::Module(batch));
                },
            )
            .map_err(watch_error)?
        };
        let mut outside = {
            let sender = sender.clone();
            host::follow::OutsideWatches::new(options, move |batch| {
                let _ = sender.send(Seen::Outside(batch));
            })
        };
        let _ = outside.follow(&self.host, &self.dir);
        let (configuration, _) = host::watch::configuration_watches(&self.dir, options, move || {
            let _ = sender.send(Seen::Configuration);
        });
        for seen in seen {
            let changed = self.apply_seen(seen);
            let _ = outside.follow(&self.host, &self.dir);
            if on_change(self, &changed).is_break() {
                break;
            }
        }
        drop(configuration);
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

/// A watcher that could not start, as the library's error.
/// What a workspace's watch follows in the module's directory: its files
/// and the variables files Terraform reads by itself.
fn watch_options() -> vfs::WatchOptions {
    vfs::WatchOptions { files: host::load::WATCHED_FILES, ..vfs::WatchOptions::default() }
}

fn watch_error(error: vfs::Error) -> Error {
    Error::Io { path: error.path, message: error.source.to_string() }
}

/// The language a module is read in: which names, functions and blocks
/// its references mean (see [`Workspace::set_dialect`]).
///
/// ```
/// assert_eq!(halite::Dialect::default(), halite::Dialect::ByFileNames);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialect {
    /// Terraform's for a module of `*.tf` or `*.tofu` files, HCL's generic
    /// rules otherwise.
    #[default]
    ByFileNames,
    /// HCL's generic rules: `var.NAME`, `local.NAME`, and blocks by type
    /// and labels, with the standard library's functions.
    Generic,
    /// Terraform's language: resources without their `resource`, data
    /// sources, module calls, its functions, and what a run computes
    /// unknown.
    Terraform,
}

/// What can name a place in a module: an [`Address`], or its printed form,
/// read by [`Workspace::address`].
pub trait ToAddress {
    /// The address this names in `workspace`'s module.
    ///
    /// ```
    /// use halite::{Address, ToAddress, Workspace};
    ///
    /// let mut workspace = Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "locals { a = 1 }");
    /// assert_eq!("local.a".to_address(&workspace)?, Address::local("a"));
    /// # Ok::<(), halite::Error>(())
    /// ```
    fn to_address(&self, workspace: &Workspace) -> Result<Address, Error>;
}

impl ToAddress for str {
    fn to_address(&self, workspace: &Workspace) -> Result<Address, Error> {
        workspace.address(self)
    }
}

impl ToAddress for String {
    fn to_address(&self, workspace: &Workspace) -> Result<Address, Error> {
        workspace.address(self)
    }
}

impl ToAddress for Address {
    fn to_address(&self, _: &Workspace) -> Result<Address, Error> {
        Ok(self.clone())
    }
}

impl<T: ToAddress + ?Sized> ToAddress for &T {
    fn to_address(&self, workspace: &Workspace) -> Result<Address, Error> {
        (**self).to_address(workspace)
    }
}

impl Address {
    /// The address of what the host's database calls `address` in the
    /// module of the directory `dir`: how a front end over the host
    /// ([`AnalysisHost`], whose reports name values by the database's
    /// flat addresses) prints a value's address as the library does, so
    /// that `halite watch`, `halite eval` and [`Workspace::apply`] print one
    /// address one way. Found through the address's declaration and its
    /// file's structure; an address no longer declared (a value a change
    /// removed) is read from its segments, a number after a block's labels
    /// as its position.
    ///
    /// ```
    /// use halite::{Address, Workspace, host};
    ///
    /// let mut workspace = Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "target \"test.unit\" {\n  step \"self-test\" { run = \"t\" }\n}");
    /// let flat = host::Address::new(["target", "test.unit", "step", "self-test", "run"]);
    /// let address = Address::of_host(workspace.host(), workspace.dir(), &flat);
    /// assert_eq!(address.to_string(), r#"target["test.unit"].step.self-test.run"#);
    /// ```
    pub fn of_host(host: &AnalysisHost, dir: &Utf8Path, address: &host::Address) -> Address {
        let key = host.module_of_dir(dir).unwrap_or_else(|_| dir.to_owned());
        match host.module(&key) {
            Some(module) => Address::of_module(host.db(), module, address),
            None => guess_address(address),
        }
    }

    /// [`Address::of_host`] for the host's `module`, through a handle on
    /// its database: for a front end that prints values on several
    /// threads ([`AnalysisHost::map_on_threads`]).
    pub fn of_module(db: &db::RootDatabase, module: module::Module, address: &host::Address) -> Address {
        Address::of_module_index(db, module, module::IndexView::of(db, module), address)
    }

    /// [`Address::of_module`] through a view of the module's index the
    /// caller already holds (one per value printed, not one per lookup).
    pub fn of_module_index(
        db: &db::RootDatabase,
        module: module::Module,
        index: module::IndexView<'_>,
        address: &host::Address,
    ) -> Address {
        let model = Model { db, index, rules: module.dialect(db).rules(db) };
        Address::of_model(Some(&model), address)
    }

    fn of_model(model: Option<&Model<'_>>, address: &db::module::Address) -> Address {
        model.and_then(|model| model.structured(address)).unwrap_or_else(|| guess_address(address))
    }
}

/// What an [`Address`] names in the module's structure.
enum Target {
    /// An attribute or a variable, by the address the database evaluates.
    Attribute(db::module::Address),
    /// A block, with the database's addresses of its attributes.
    Block(ModuleBlock),
}

/// The module's index and rules: what turns the database's addresses into
/// [`Address`]es and back, one declaration and one file's structure at a
/// time.
struct Model<'a> {
    db: &'a db::RootDatabase,
    index: module::IndexView<'a>,
    rules: &'a module::DialectRules,
}

impl Model<'_> {
    /// The database's address of an attribute of `blocks` (or of the
    /// block itself), as the module index builds it: the segments in order,
    /// positions as numbers, without the type of the dialect's unprefixed
    /// block types (Terraform's `resource`).
    fn db_address(&self, blocks: &[BlockStep], attribute: Option<&str>) -> db::module::Address {
        let mut segments: Vec<SmolStr> = Vec::new();
        for block in blocks {
            segments.push(block.type_name().into());
            segments.extend(block.labels().iter().map(SmolStr::from));
            if let Some(index) = block.index() {
                segments.push(SmolStr::new(index.to_string()));
            }
        }
        segments.extend(attribute.map(SmolStr::from));
        if segments.len() > 1 && blocks.first().is_some_and(|it| self.unprefixed(it.type_name())) {
            segments.remove(0);
        }
        db::module::Address::new(segments)
    }

    fn unprefixed(&self, type_name: &str) -> bool {
        self.rules.unprefixed_block_types.contains(type_name)
    }

    /// The top-level block a declaration is in, from its file's structure.
    fn top_block(&self, definition: &module::Definition) -> Option<&module::FileBlock> {
        let blocks = module::file_blocks(self.db, definition.file);
        blocks.blocks.iter().find(|block| {
            block.location.block == definition.location(self.db).block
                && block.location.labels == definition.location(self.db).labels
        })
    }

    /// The step of a top-level block whose declaration's address is
    /// `db_address`: its position among repeats is the segment the index
    /// put after its labels.
    fn top_step(&self, block: &module::FileBlock, db_address: &db::module::Address) -> BlockStep {
        let at =
            block.labels.len() + usize::from(!self.unprefixed(&block.type_name) || block.labels.is_empty());
        let index = db_address.segment(at).and_then(|it| it.parse().ok());
        BlockStep::new(&block.type_name, &block.labels, index)
    }

    /// An address the module gives, its top-level block's type left
    /// unprinted where the dialect's addresses leave it out.
    fn given(&self, address: Address) -> Address {
        match address.block_type() {
            Some(type_name) if self.unprefixed(type_name) => address.with_implied_type(),
            _ => address,
        }
    }

    /// The [`Address`] of a value the database knows by `db_address`.
    fn structured(&self, db_address: &db::module::Address) -> Option<Address> {
        self.structured_as_written(db_address).map(|address| self.given(address))
    }

    fn structured_as_written(&self, db_address: &db::module::Address) -> Option<Address> {
        let definition = self.index.definition(db_address)?;
        let segments = db_address.segments();
        let last = segments.last()?.to_string();
        match definition.kind {
            module::DeclarationKind::Variable { .. } => return Some(Address::variable(last)),
            module::DeclarationKind::Local => return Some(Address::local(last)),
            module::DeclarationKind::TopLevelAttribute => return Some(Address::top_level(last)),
            _ => {}
        }
        // The top-level block from its declaration, which comes before its
        // attributes' among its file's: no file is read again for it.
        let declarations = &module::declarations_of(self.db, definition.file).declarations;
        let block = declarations
            [..=(definition.declaration as usize).min(declarations.len().saturating_sub(1))]
            .iter()
            .rev()
            .find(|it| {
                it.kind == module::DeclarationKind::Block
                    && it.location.block == definition.location(self.db).block
                    && it.location.labels == definition.location(self.db).labels
            })?;
        let block_segments = block.address.smol_segments();
        let (type_name, labels) = block_segments.split_first()?;
        // A repeated top-level block's position is the segment the index
        // put after its labels; its declaration is then not at the
        // address without it.
        let plain = self.db_address(&[BlockStep::new(type_name, labels, None)], None);
        let unrepeated = self.index.definition(&plain).is_some_and(|it| {
            it.file == definition.file && it.location(self.db).block == definition.location(self.db).block
        });
        let index = if unrepeated { None } else { segments.get(plain.len()).and_then(|it| it.parse().ok()) };
        let mut steps = vec![BlockStep::new(type_name, labels, index)];
        match definition.kind {
            module::DeclarationKind::Block => return Some(Address::from_parts(steps, None)),
            module::DeclarationKind::BlockAttribute => return Some(Address::from_parts(steps, Some(last))),
            _ => {}
        }
        // A nested block's type and labels are told apart by its file's
        // structure only.
        let top = self.top_block(definition)?;
        let mut node = top;
        for &position in &definition.location(self.db).nested {
            node = node.blocks.iter().find(|block| block.location.nested.last() == Some(&position))?;
            steps.push(BlockStep::new(&node.type_name, &node.labels, node.index.map(|it| it as usize)));
        }
        Some(Address::from_parts(steps, Some(last)))
    }

    /// The block `address` names, with its attributes' database addresses
    /// and what is nested in it.
    fn module_block(&self, address: &Address) -> Option<ModuleBlock> {
        let (top_step, nested) = address.blocks().split_first()?;
        let definition = self.index.definition(&self.db_address(std::slice::from_ref(top_step), None))?;
        if definition.kind != module::DeclarationKind::Block {
            return None;
        }
        let mut node = self.top_block(definition)?;
        for step in nested {
            node = node.blocks.iter().find(|block| {
                block.type_name == step.type_name()
                    && block.labels.len() == step.labels().len()
                    && block.labels.iter().zip(step.labels()).all(|(a, b)| a == b)
                    && block.index.map(|it| it as usize) == step.index()
            })?;
        }
        Some(self.with_addresses(address.blocks().to_vec(), definition.file, node))
    }

    /// A block of a file's structure as the module's: each attribute with
    /// its database address.
    fn with_addresses(
        &self,
        steps: Vec<BlockStep>,
        file: db::File,
        block: &module::FileBlock,
    ) -> ModuleBlock {
        let attributes = block
            .attributes
            .iter()
            .map(|(name, location)| module::ModuleAttribute {
                name: name.clone(),
                address: self.db_address(&steps, Some(name)),
                file,
                location: location.clone(),
            })
            .collect();
        let blocks = block
            .blocks
            .iter()
            .map(|nested| {
                let mut steps = steps.clone();
                steps.push(BlockStep::new(
                    &nested.type_name,
                    &nested.labels,
                    nested.index.map(|it| it as usize),
                ));
                self.with_addresses(steps, file, nested)
            })
            .collect();
        let last = steps.last();
        ModuleBlock {
            type_name: block.type_name.clone(),
            labels: block.labels.clone(),
            index: last.and_then(BlockStep::index).map(|it| u32::try_from(it).unwrap_or(u32::MAX)),
            file,
            location: block.location.clone(),
            attributes,
            blocks,
        }
    }

    /// The address a printed form's segments spell: a variable, a local, a
    /// top-level attribute, or a top-level block found by its declaration
    /// (the longest prefix that is one), then what is in it, found in its
    /// file's structure.
    fn resolve(&self, segments: &[Segment]) -> Option<Address> {
        self.resolve_as_written(segments).map(|address| self.given(address))
    }

    fn resolve_as_written(&self, segments: &[Segment]) -> Option<Address> {
        let text = |segment: &Segment| match segment {
            Segment::Name(name) => SmolStr::new(name),
            Segment::Index(index) => SmolStr::new(index.to_string()),
        };
        let mut whole: Vec<SmolStr> = segments.iter().map(text).collect();
        if whole.len() > 1 && matches!(segments.first(), Some(Segment::Name(it)) if self.unprefixed(it)) {
            whole.remove(0);
        }
        // What the index declares, an attribute or a top-level block.
        if let Some(found) = self.structured(&db::module::Address::new(whole)) {
            return Some(found);
        }
        for length in (1..=segments.len()).rev() {
            let Some(Segment::Name(type_name)) = segments.first() else { return None };
            let mut prefix: Vec<SmolStr> = segments[..length].iter().map(text).collect();
            if prefix.len() > 1 && self.unprefixed(type_name) {
                prefix.remove(0);
            }
            let prefix = db::module::Address::new(prefix);
            let Some(definition) = self.index.definition(&prefix) else { continue };
            if definition.kind != module::DeclarationKind::Block {
                continue;
            }
            let Some(top) = self.top_block(definition) else { continue };
            let step = self.top_step(top, &prefix);
            let mut steps = vec![step];
            if let Some(found) = resolve_in(top, &segments[length..], &mut steps) {
                return Some(found);
            }
        }
        None
    }
}

/// The step of an address a block of the structure is.
fn step_of(block: &ModuleBlock) -> BlockStep {
    BlockStep::new(&block.type_name, &block.labels, block.index.map(|it| it as usize))
}

/// The address `segments` spell in `block` (whose steps are `steps`): the
/// block itself, one of its attributes, or what is in a nested block (its
/// type, its labels, its position if it repeats, then the same again). The
/// first reading that names something wins.
fn resolve_in(
    block: &module::FileBlock,
    segments: &[Segment],
    steps: &mut Vec<BlockStep>,
) -> Option<Address> {
    match segments {
        [] => return Some(Address::from_parts(steps.clone(), None)),
        [Segment::Name(name)] if block.attributes.iter().any(|(it, _)| it == name.as_str()) => {
            return Some(Address::from_parts(steps.clone(), Some(name.clone())));
        }
        _ => {}
    }
    let Some(Segment::Name(type_name)) = segments.first() else { return None };
    for nested in block.blocks.iter().filter(|nested| nested.type_name == type_name.as_str()) {
        let labels = nested.labels.len();
        let Some(written) = segments.get(1..=labels) else { continue };
        let matches = written
            .iter()
            .zip(nested.labels.iter())
            .all(|(segment, label)| matches!(segment, Segment::Name(name) if name == label.as_str()));
        if !matches {
            continue;
        }
        let mut rest = &segments[1 + labels..];
        match (nested.index, rest.first()) {
            (Some(index), Some(Segment::Index(written))) if index as usize == *written => rest = &rest[1..],
            (None, Some(Segment::Index(_))) | (Some(_), _) => continue,
            (None, _) => {}
        }
        steps.push(BlockStep::new(&nested.type_name, &nested.labels, nested.index.map(|it| it as usize)));
        if let Some(found) = resolve_in(nested, rest, steps) {
            return Some(found);
        }
        steps.pop();
    }
    None
}

/// The database's addresses of the attributes of `blocks` and of the
/// blocks nested in them.
fn collect_attributes(blocks: &[ModuleBlock], out: &mut Vec<db::module::Address>) {
    let mut stack: Vec<&ModuleBlock> = blocks.iter().collect();
    while let Some(block) = stack.pop() {
        out.extend(block.attributes.iter().map(|it| it.address.clone()));
        stack.extend(block.blocks.iter());
    }
}

/// Blocks grouped by type, types in the order they first appear.
pub(crate) fn group_by_type<'a>(
    blocks: impl IntoIterator<Item = &'a ModuleBlock>,
) -> Vec<(SmolStr, Vec<&'a ModuleBlock>)> {
    let mut groups: Vec<(SmolStr, Vec<&'a ModuleBlock>)> = Vec::new();
    for block in blocks {
        match groups.iter_mut().find(|(type_name, _)| *type_name == block.type_name) {
            Some((_, group)) => group.push(block),
            None => groups.push((block.type_name.clone(), vec![block])),
        }
    }
    groups
}

/// The value of the blocks of one type in a body, their first `consumed`
/// labels taken: an object by the next label while they have one, else
/// one object or, when they repeat, a tuple of them.
fn labelled_value(
    address: &Address,
    type_name: &str,
    blocks: &[&ModuleBlock],
    consumed: usize,
    value: &impl Fn(&ModuleBlock) -> Result<Value, Error>,
) -> Result<Value, Error> {
    let labelled = blocks.iter().filter(|block| block.labels.len() > consumed).count();
    if labelled == 0 {
        return match blocks {
            [block] => value(block),
            _ => Ok(Value::tuple(blocks.iter().map(|block| value(block)).collect::<Result<_, _>>()?)),
        };
    }
    if labelled < blocks.len() {
        return Err(Error::Evaluation {
            address: address.to_string(),
            message: format!("the `{type_name}` blocks in this block have different numbers of labels"),
        });
    }
    let mut by_label: Vec<(&str, Vec<&ModuleBlock>)> = Vec::new();
    for &block in blocks {
        let label = block.labels[consumed].as_str();
        match by_label.iter_mut().find(|(it, _)| *it == label) {
            Some((_, group)) => group.push(block),
            None => by_label.push((label, vec![block])),
        }
    }
    let mut entries = BTreeMap::new();
    for (label, group) in by_label {
        entries.insert(label.to_string(), labelled_value(address, type_name, &group, consumed + 1, value)?);
    }
    Ok(Value::object(entries))
}

/// The address of a value the structure no longer has (nor had): its
/// segments read as a block's type, labels and attribute.
fn guess_address(address: &db::module::Address) -> Address {
    match &address.smol_segments()[..] {
        [root, name] if root == "var" => Address::variable(name.as_str()),
        [root, name] if root == "local" => Address::local(name.as_str()),
        [name] => Address::top_level(name.as_str()),
        [type_name, labels @ .., name] => {
            // A number after the labels is a repeated block's position.
            let (labels, index) = match labels.split_last() {
                Some((last, rest)) if last.parse::<usize>().is_ok() => (rest, last.parse().ok()),
                _ => (labels, None),
            };
            Address::from_parts(vec![BlockStep::new(type_name, labels, index)], Some(name.to_string()))
        }
        [] => Address::top_level(""),
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
            let steps: Vec<String> = path.iter().map(db::module::Address::to_string).collect();
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

/// Why a module's variables could not be read, as the library's error: a
/// variables file's diagnostics rendered, as `eval DIR` shows them.
/// A module, or a file of its configuration, that could not be loaded.
fn load_error(error: host::load::LoadError) -> Error {
    match error {
        host::load::LoadError::Io(error) => Error::Io { path: error.path, message: error.source.to_string() },
        host::load::LoadError::Config(error) => {
            Error::Config { path: error.path.clone(), message: error.to_string() }
        }
    }
}

fn variables_error(error: host::load::VariablesError) -> Error {
    match error {
        host::load::VariablesError::Read { path, error } => Error::Io { path, message: error.to_string() },
        host::load::VariablesError::Invalid { path, db, diagnostics } => {
            let renderer = host::render::Human::new(false);
            let message =
                diagnostics.iter().map(|it| renderer.render(&db, it)).collect::<Vec<_>>().join("\n\n");
            Error::Config { path, message }
        }
        host::load::VariablesError::Argument(message) => {
            Error::InvalidExpression { text: String::new(), message }
        }
    }
}
