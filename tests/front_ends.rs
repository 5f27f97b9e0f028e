//! The four front ends over the analysis host (`halite check`, `halite
//! eval DIR`, `halite watch DIR` and the library's `Workspace`) give the
//! same diagnostics for the same module: the same files, codes, severities
//! and byte ranges, with a `halite.toml`'s rule levels and `# halite-ignore`
//! comments applied by all four.
//!
//! The modules are the module cases of `test-data/` (each rule's cases, the
//! command line's projects, the evaluation modules), each copied to a
//! temporary directory with a `halite.toml` that changes two rules' levels,
//! and, when `../shared` is there, a sample of the shared corpus's module
//! directories. A module is a directory's module files, so `check`'s
//! report is cut to those (it also checks the directory's other HCL files
//! and its subdirectories).

use crate::support;

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
    process::Stdio,
    time::Duration,
};

use camino::Utf8Path;
use serde_json::Value;

/// One diagnostic as the comparison sees it: file (by name), code,
/// severity, byte range.
type Seen = (String, String, String, u64, u64);

/// The `halite.toml` every test-data module gets: one rule made an error,
/// one switched off.
const CONFIG: &str = "[rules]\nunused-declaration = \"error\"\ninterpolation-only = \"off\"\n";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directories under `dir` (itself included) holding module files.
fn module_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut has_module_file = false;
    let mut children: Vec<PathBuf> = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            children.push(path);
        } else if Utf8Path::from_path(&path).is_some_and(vfs::is_module_file) {
            has_module_file = true;
        }
    }
    if has_module_file {
        out.push(dir.to_owned());
    }
    children.sort();
    for child in children {
        module_dirs(&child, out);
    }
}

/// A module's files (not its subdirectories) copied into a new directory,
/// with `config` as its `halite.toml` (unless it has one) and a `.git`
/// marker so that no configuration from above applies.
fn copy_module(dir: &Path, config: Option<&str>) -> tempfile::TempDir {
    let temp = tempfile::tempdir().expect("a temporary directory");
    std::fs::create_dir(temp.path().join(".git")).expect("a repository marker");
    for entry in std::fs::read_dir(dir).expect("a readable module").flatten() {
        let path = entry.path();
        if path.is_file() {
            std::fs::copy(&path, temp.path().join(entry.file_name())).expect("a copied file");
        }
    }
    if let Some(config) = config
        && !temp.path().join("halite.toml").exists()
    {
        std::fs::write(temp.path().join("halite.toml"), config).expect("a configuration");
    }
    temp
}

/// A diagnostic in the JSON form of `check --format json` (and of `eval
/// --diagnostic-format json` and `watch`).
fn from_json(diagnostic: &Value) -> Seen {
    let file = diagnostic["file"].as_str().expect("a file");
    let name = Path::new(file).file_name().and_then(|it| it.to_str()).expect("a name").to_string();
    (
        name,
        diagnostic["code"].as_str().expect("a code").to_string(),
        diagnostic["severity"].as_str().expect("a severity").to_string(),
        diagnostic["start"]["byte"].as_u64().expect("a start"),
        diagnostic["end"]["byte"].as_u64().expect("an end"),
    )
}

/// `check`'s diagnostics, or `None` when it could not run (exit 2: a bad
/// `halite.toml`).
fn check(dir: &Path) -> Option<BTreeSet<Seen>> {
    let output = support::halite_command()
        .args(["check", "--format", "json", "."])
        .current_dir(dir)
        .output()
        .expect("halite check runs");
    if output.status.code() == Some(2) {
        return None;
    }
    let module_files: BTreeSet<String> = std::fs::read_dir(dir)
        .expect("a module")
        .flatten()
        .filter(|entry| entry.path().is_file())
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| vfs::is_module_file(Utf8Path::new(name)))
        .collect();
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("a JSON line"))
        .filter(|diagnostic| {
            let file = diagnostic["file"].as_str().expect("a file");
            !file.contains('/') && module_files.contains(file)
        })
        .map(|diagnostic| from_json(&diagnostic))
        .collect::<BTreeSet<Seen>>()
        .into()
}

fn eval(dir: &Path) -> BTreeSet<Seen> {
    let output = support::halite_command()
        .args(["eval", ".", "--diagnostic-format", "json"])
        .current_dir(dir)
        .output()
        .expect("halite eval runs");
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|line| line.starts_with('{'))
        .map(|line| from_json(&serde_json::from_str(line).expect("a JSON line")))
        .collect()
}

fn watch(dir: &Path) -> BTreeSet<Seen> {
    let (mut child, lines) = support::spawn_watch(dir, &[], Stdio::piped());
    let mut seen = BTreeSet::new();
    loop {
        let Ok(line) = lines.recv_timeout(Duration::from_secs(60)) else {
            let output = child.wait_with_output().expect("halite watch ends");
            panic!("{}: no first report: {}", dir.display(), String::from_utf8_lossy(&output.stderr));
        };
        let value: Value = serde_json::from_str(&line).expect("a JSON line");
        if value.get("batch").is_some() {
            break;
        }
        if let Some(diagnostic) = value.get("diagnostic") {
            assert!(value.get("resolved").is_none(), "nothing is resolved in a first report: {line}");
            seen.insert(from_json(diagnostic));
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    seen
}

fn workspace(dir: &Path) -> BTreeSet<Seen> {
    let dir = Utf8Path::from_path(dir).expect("a UTF-8 path");
    let workspace = halite::Workspace::open(dir).expect("the module opens");
    workspace
        .diagnostics()
        .into_iter()
        .map(|diagnostic| {
            let name = diagnostic.path.file_name().expect("a name").to_string();
            let severity = match diagnostic.severity {
                halite::Severity::Error => "error",
                halite::Severity::Warning => "warning",
            };
            (
                name,
                diagnostic.code,
                severity.to_string(),
                diagnostic.range.start as u64,
                diagnostic.range.end as u64,
            )
        })
        .collect()
}

/// Asserts that the four front ends agree on `dir`, and returns what they
/// found.
fn agree(dir: &Path, name: &str) -> BTreeSet<Seen> {
    let Some(from_check) = check(dir) else {
        // A configuration that cannot be read stops every front end.
        let code = |args: &[&str]| support::run_halite(dir, args, b"").0;
        assert_eq!(code(&["eval", "."]), 2, "{name}: eval DIR ran with a bad configuration");
        assert_eq!(code(&["watch", "."]), 2, "{name}: watch ran with a bad configuration");
        let dir = Utf8Path::from_path(dir).expect("a UTF-8 path");
        assert!(halite::Workspace::open(dir).is_err(), "{name}: the library opened a bad configuration");
        return BTreeSet::new();
    };
    assert_eq!(eval(dir), from_check, "{name}: eval DIR and check differ");
    assert_eq!(watch(dir), from_check, "{name}: watch and check differ");
    // The library reads `halite.toml` relative to the current directory's
    // view of the path: an absolute path reads the same file.
    assert_eq!(workspace(dir), from_check, "{name}: Workspace and check differ");
    from_check
}

#[test]
fn check_eval_watch_and_the_library_report_the_same_diagnostics() {
    let mut dirs = Vec::new();
    module_dirs(&root().join("test-data/check"), &mut dirs);
    module_dirs(&root().join("test-data/modules"), &mut dirs);
    assert!(dirs.len() > 20, "{} modules", dirs.len());
    let (mut codes, mut levels_applied, mut ignored) = (BTreeSet::new(), false, false);
    for dir in &dirs {
        let name = dir.strip_prefix(root()).unwrap_or(dir).display().to_string();
        let has_own_config = dir.join("halite.toml").exists();
        let copy = copy_module(dir, Some(CONFIG));
        let seen = agree(copy.path(), &name);
        codes.extend(seen.iter().map(|(_, code, _, _, _)| code.clone()));
        levels_applied |=
            seen.iter().any(|(_, code, severity, _, _)| code == "unused-declaration" && severity == "error");
        if !has_own_config {
            assert!(
                seen.iter().all(|(_, code, _, _, _)| code != "interpolation-only"),
                "{name}: a rule switched off"
            );
        }
        let text: String = std::fs::read_dir(copy.path())
            .expect("a module")
            .flatten()
            .filter_map(|entry| std::fs::read_to_string(entry.path()).ok())
            .collect();
        ignored |= text.contains("halite-ignore: ");
    }
    // The sample is not vacuous: module rules, a level the configuration
    // raised, and ignore comments are all in it.
    for code in ["undeclared-reference", "reference-cycle", "duplicate-declaration", "type-mismatch"] {
        assert!(codes.contains(code), "no {code} among {codes:?}");
    }
    assert!(levels_applied, "no unused declaration was made an error");
    assert!(ignored, "no module had an ignore comment");
}

#[test]
fn the_four_front_ends_agree_on_a_sample_of_the_corpus() {
    let corpus = root().join("../shared/corpus/input");
    if !corpus.is_dir() {
        eprintln!("../shared is absent: the corpus sample is skipped");
        return;
    }
    let mut dirs = Vec::new();
    module_dirs(&corpus, &mut dirs);
    // Every 60th module directory: about seventy, of every tool.
    let sample: Vec<&PathBuf> = dirs.iter().step_by(60).collect();
    assert!(sample.len() > 30, "{} modules", sample.len());
    let mut found = 0;
    for dir in sample {
        let name = dir.strip_prefix(&corpus).unwrap_or(dir).display().to_string();
        let copy = copy_module(dir, None);
        found += agree(copy.path(), &name).len();
    }
    assert!(found > 0, "the sample found no diagnostic at all");
}
