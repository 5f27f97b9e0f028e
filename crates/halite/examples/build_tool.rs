//! A small build tool configured in HCL, driven by the `halite` library.
//!
//! ```sh
//! cargo run -p halite-lib --example build_tool                                # the plan for examples/build-tool
//! cargo run -p halite-lib --example build_tool -- --var 'profile="release"'   # with a variable set
//! cargo run -p halite-lib --example build_tool -- --watch                     # re-plan as the files change
//! cargo run -p halite-lib --example build_tool -- DIR                         # another configuration
//! ```
//!
//! The configuration (`examples/build-tool/` at the root of the repository)
//! declares `target` blocks across several files, each with its sources,
//! its output, the outputs it depends on and the `step` blocks that build
//! it (a label may hold dots: `target "test.unit"`). The tool adds a
//! dialect to HCL: a `project` root (the project's name and directory) and
//! a `shell_words` function, and its language's schema
//! (`examples/build-tool/schema/build.hcl`, the file its `halite.toml`
//! names, so that `halite check examples/build-tool` checks the same):
//! the workspace's diagnostics hold the schema's findings. It decodes the
//! whole configuration into its
//! Rust types with serde ([`BuildConfig`]: targets by label, steps in
//! order with their labels as fields, unknown attributes rejected), orders
//! the targets so that each comes after what it depends on, and prints the
//! plan. With `--watch` it keeps the module loaded, and after each change
//! on disk prints which values changed (by address,
//! `target["test.unit"].step.self-test.run`) and the new plan.
//!
//! The integration test `tests/build_tool.rs` runs the same functions.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use halite::dialects::{Dialects, SchemaDialect, SchemaFile};
use halite::{Function, FunctionError, Param, Type, Utf8Path, Utf8PathBuf, Value, Workspace};
use serde::Deserialize;

/// The whole configuration, as the tool reads it: every `target` block by
/// its label. Anything else at the top level (`variable` and `locals`
/// blocks aside, which are HCL's own) is an error, as is an attribute a
/// target or step does not have.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildConfig {
    #[serde(default)]
    pub target: BTreeMap<String, Target>,
}

/// One target: what it reads and writes, and its steps in order.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    pub sources: Vec<String>,
    pub output: String,
    pub deps: Vec<String>,
    #[serde(default)]
    pub step: Vec<Step>,
}

/// One `step "NAME" { run = … }` of a target.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The block's label.
    #[serde(rename = "@name")]
    pub name: String,
    pub run: String,
    /// Seconds the step may take, if it is limited.
    pub timeout: Option<u32>,
}

/// Opens the configuration in `dir` with the tool's dialect and the
/// variables given as `NAME=EXPR`.
pub fn load(dir: &Utf8Path, variables: &[(String, String)]) -> Result<Workspace, halite::Error> {
    let mut workspace = Workspace::open_with_dialects(dir, language(dir)?)?;
    let name = dir.file_name().unwrap_or("project");
    workspace.add_root(
        "project",
        Value::object_from([("name", Value::string(name)), ("dir", Value::string(dir.as_str()))]),
    );
    workspace.register_function("shell_words", shell_words());
    for (name, text) in variables {
        workspace.set_variable_expr(name.as_str(), text)?;
    }
    Ok(workspace)
}

/// The tool's language: its schema (`schema/build.hcl`, the file its
/// `halite.toml` names for `halite check`) claiming the directory's `.hcl`
/// files, registered after Halite's own languages, so that the workspace's
/// diagnostics are the schema's findings too.
pub fn language(dir: &Utf8Path) -> Result<Dialects, halite::Error> {
    let path = dir.join("schema/build.hcl");
    let io = |message: String| halite::Error::Io { path: path.clone(), message };
    let text = std::fs::read_to_string(&path).map_err(|error| io(error.to_string()))?;
    let schema = SchemaFile::parse(path.as_str(), &text).map_err(|diagnostics| {
        let messages: Vec<String> =
            diagnostics.iter().map(|it| format!("{}: {}", it.summary, it.detail)).collect();
        halite::Error::Config { path: path.clone(), message: messages.join("; ") }
    })?;
    let claims = Arc::new(|path: &Utf8Path| path.extension() == Some("hcl"));
    let mut dialects = halite::dialects::standard();
    dialects.register(SchemaDialect::new("build", &schema, claims));
    Ok(dialects)
}

/// `shell_words(list)`: each word quoted for a POSIX shell where it needs
/// it, joined with spaces.
pub fn shell_words() -> Function {
    Function::simple(vec![Param::new("words", Type::list(Type::String))], None, Type::String, |args, _| {
        let words =
            args[0].elements().ok_or_else(|| FunctionError::arg(0, "a list of strings is required"))?;
        let quoted: Vec<String> = words
            .iter()
            .map(|word| {
                let word = word.as_str().unwrap_or_default();
                let plain = !word.is_empty()
                    && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
                if plain { word.to_string() } else { format!("'{}'", word.replace('\'', r"'\''")) }
            })
            .collect();
        Ok(Value::string(&quoted.join(" ")))
    })
}

/// Every target decoded, ordered so that each comes after the targets whose
/// outputs it depends on (ties by name). A configuration that cannot be
/// decoded, a dependency no target produces, or a dependency cycle is an
/// error, given as the tool prints it (a decoding error rendered with the
/// lines at fault).
pub fn plan(workspace: &Workspace) -> Result<Vec<(String, Target)>, String> {
    let config: BuildConfig = workspace.decode().map_err(|error| match error {
        halite::Error::Decode(error) => error.render(),
        error => format!("error: {error}"),
    })?;
    let targets = config.target;
    let producers: BTreeMap<&str, &str> =
        targets.iter().map(|(name, target)| (target.output.as_str(), name.as_str())).collect();
    let mut order: Vec<(String, Target)> = Vec::new();
    let mut done: BTreeSet<&str> = BTreeSet::new();
    while done.len() < targets.len() {
        let ready = targets.iter().find(|(name, target)| {
            !done.contains(name.as_str())
                && target.deps.iter().all(|dep| producers.get(dep.as_str()).is_some_and(|p| done.contains(p)))
        });
        let Some((name, target)) = ready else {
            let stuck: Vec<&str> =
                targets.keys().map(String::as_str).filter(|name| !done.contains(name)).collect();
            for name in &stuck {
                for dep in &targets[*name].deps {
                    if !producers.contains_key(dep.as_str()) {
                        return Err(format!(
                            "error: target {name} depends on {dep}, which no target produces"
                        ));
                    }
                }
            }
            return Err(format!("error: the targets {} depend on each other in a cycle", stuck.join(", ")));
        };
        done.insert(name);
        order.push((name.clone(), target.clone()));
    }
    Ok(order)
}

/// The plan as the tool prints it: one line per target, its steps below.
pub fn render(plan: &[(String, Target)]) -> String {
    let mut out = String::new();
    for (number, (name, target)) in plan.iter().enumerate() {
        out.push_str(&format!("{}. {name} -> {}\n", number + 1, target.output));
        for step in &target.step {
            let limit = step.timeout.map(|seconds| format!(" (at most {seconds} s)")).unwrap_or_default();
            out.push_str(&format!("   {}{limit}: $ {}\n", step.name, step.run));
        }
    }
    out
}

fn print_state(workspace: &Workspace) {
    let diagnostics = workspace.diagnostics();
    for diagnostic in &diagnostics {
        eprintln!("{diagnostic}");
        for note in &diagnostic.notes {
            eprintln!("  note: {note}");
        }
    }
    match plan(workspace) {
        Ok(plan) => print!("{}", render(&plan)),
        Err(error) => eprintln!("{error}"),
    }
}

#[allow(dead_code, reason = "the integration test includes this file and has its own main")]
fn main() {
    let mut dir: Option<Utf8PathBuf> = None;
    let mut variables = Vec::new();
    let mut watch = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--watch" => watch = true,
            "--var" => {
                let Some((name, text)) = args.next().and_then(|it| {
                    it.split_once('=').map(|(name, text)| (name.to_string(), text.to_string()))
                }) else {
                    eprintln!("--var takes NAME=EXPR");
                    std::process::exit(2);
                };
                variables.push((name, text));
            }
            _ => dir = Some(Utf8PathBuf::from(arg)),
        }
    }
    let dir = dir.unwrap_or_else(|| {
        Utf8PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/build-tool"))
    });
    let mut workspace = match load(&dir, &variables) {
        Ok(workspace) => workspace,
        Err(error) => {
            eprintln!("error: {error}");
            std::process::exit(2);
        }
    };
    print_state(&workspace);
    if !watch {
        return;
    }
    eprintln!("watching {dir} (Ctrl-C to stop)");
    let result = workspace.watch(|workspace, changes| {
        if changes.values.is_empty() {
            return std::ops::ControlFlow::Continue(());
        }
        let changed: Vec<String> = changes.values.iter().map(ToString::to_string).collect();
        println!("-- changed: {}", changed.join(", "));
        print_state(workspace);
        std::ops::ControlFlow::Continue(())
    });
    if let Err(error) = result {
        eprintln!("error: {error}");
        std::process::exit(2);
    }
}
