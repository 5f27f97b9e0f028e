//! `cargo xtask conformance`: the whole of `../shared/corpus` against Halite.
//!
//! The reference is HCL v2.24.0 with go-cty v1.16: the corpus's verdicts and
//! formatted texts were made with v2.14.1, so
//! `../shared/conformance/hcl-v2.24/corpus-verdicts.tsv` overrides the
//! verdicts of the files whose verdict changed, and `corpus-expected/` beside
//! it holds their formatted texts.
//!
//! For each of the corpus's native-syntax files it checks what
//! `crates/syntax/tests/corpus.rs` checks on the vendored subset: the tree's
//! text equals the input, the file has errors exactly when the reference
//! rejects it, and on a file both reject our first error starts at the
//! reference's first error line and column (`test-data/corpus/reference-errors.tsv`).
//! On every file the reference parses, it also checks that the formatter's
//! output, in the style the file's name gives it (`vfs::is_terraform_fmt_file`),
//! equals that style's reference: for Terraform's files (`*.tf`, `*.tfvars`,
//! `*.tftest.hcl`, `*.tfmock.hcl`, `*.tfquery.hcl`) `terraform fmt`'s output
//! (`../shared/conformance/terraform-fmt/expected/<path>` where it differs
//! from `hclwrite.Format`'s), for every other file `hclwrite.Format`'s
//! (`expected/<path>` where the reference changes the file, the input itself
//! where it does not). The Terraform files the table of file kinds finds
//! must be the ones `terraform-fmt/manifest.tsv` lists. A formatting
//! disagreement argued to be right is listed in the same known-differences
//! file with `format` in its `what` column.
//! Disagreements argued to be right live in
//! `test-data/corpus/known-differences.tsv`; any other disagreement, and any
//! listed one that no longer happens, fails the run, so the list stays true.
//!
//! It then runs the evaluation cases of `../shared/conformance/hcl-v2.24/eval`
//! (a superset of `../shared/conformance/eval`, made with v2.24) by the
//! eval crate's comparison rules ([`eval::conformance`]); a disagreement not
//! in [`eval::conformance::KNOWN_DIFFERENCES`] (decimal versus binary
//! numbers) fails the run. Last, it evaluates every attribute of every file
//! both the reference and Halite parse, as `halite eval FILE` does without
//! `--context` (the standard library, no variables), and fails on a panic or a file that takes longer
//! than [`EVAL_TIME_LIMIT`]; it prints the attributes evaluated, how many
//! succeeded, and the throughput (a few seconds in a debug build).
//!
//! `../shared` is optional: a fresh clone without it prints that and succeeds.

use std::{
    collections::{BTreeSet, HashMap},
    fmt, fs,
    panic::{self, AssertUnwindSafe},
    path::{Path, PathBuf},
    sync::{
        Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use rayon::prelude::*;

use ::fmt::Style;

use crate::project_root;

pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let shared = match args {
        [] => project_root().join("../shared"),
        [flag, dir] if flag == "--shared" => PathBuf::from(dir),
        _ => bail!("usage: cargo xtask conformance [--shared DIR]"),
    };
    // Canonical, so that the path printed with the results is readable.
    let corpus = shared.join("corpus");
    let corpus = corpus.canonicalize().unwrap_or(corpus);
    if !corpus.join("manifest.tsv").is_file() {
        println!("conformance: no corpus at {}, nothing to compare", corpus.display());
        return Ok(());
    }
    let data = project_root().join("test-data/corpus");
    let current = shared.join("conformance/hcl-v2.24");
    let mut manifest = read_manifest(&corpus.join("manifest.tsv"))?;
    let overrides = read_verdict_overrides(&current.join("corpus-verdicts.tsv"))?;
    for (path, reference_parses) in &mut manifest {
        if let Some(&parses) = overrides.get(path.as_str()) {
            *reference_parses = parses;
        }
    }
    let reference_errors = read_reference_errors(&data.join("reference-errors.tsv"))?;
    let terraform_fmt = read_terraform_fmt_manifest(&shared.join("conformance/terraform-fmt"))?;
    let known = read_known_differences(&data.join("known-differences.tsv"))?;

    let started = Instant::now();
    // The formatted text of a file whose verdict v2.24 changed is in
    // `corpus-expected/`, made with v2.24; every other file's is the
    // corpus's own.
    // A Terraform file's is `terraform fmt`'s where that differs.
    let expected_dir = |path: &str, style: Style| match &terraform_fmt {
        Some(terraform) if style == Style::Terraform && terraform.differs.contains(path) => {
            terraform.dir.join("expected")
        }
        _ if overrides.contains_key(path) => current.join("corpus-expected"),
        _ => corpus.join("expected"),
    };
    // Without `terraform fmt`'s data, every file is checked in hclwrite's
    // style, against hclwrite's output.
    let style_of = |path: &str| match &terraform_fmt {
        Some(_) => style_by_name(path),
        None => Style::Hcl,
    };
    let outcomes = check_all(&corpus.join("input"), &expected_dir, &style_of, &manifest)?;
    let elapsed = started.elapsed();

    let mut differences = Vec::new();
    for outcome in &outcomes {
        differences.extend(outcome.differences(&reference_errors));
    }
    match &terraform_fmt {
        Some(terraform) => differences.extend(terraform_file_set_differences(&outcomes, terraform)),
        None => println!(
            "conformance: no terraform-fmt data in {}; every file checked as hclwrite formats it",
            shared.display()
        ),
    }
    let report = Report::new(&outcomes, &differences);
    println!(
        "conformance: {} files of {} in {:.1} s",
        outcomes.len(),
        corpus.display(),
        elapsed.as_secs_f64()
    );
    print!("{report}");

    let mut unexplained = Vec::new();
    let mut explained = 0;
    for difference in &differences {
        let key = (difference.path.clone(), difference.kind);
        if difference.kind.can_be_known() && known.contains(&key) {
            explained += 1;
        } else {
            unexplained.push(difference);
        }
    }
    let found: BTreeSet<(String, Kind)> = differences.iter().map(|d| (d.path.clone(), d.kind)).collect();
    let stale: Vec<&(String, Kind)> = known.iter().filter(|entry| !found.contains(entry)).collect();

    if explained > 0 {
        println!("{explained} disagreements listed in known-differences.tsv");
    }
    if !unexplained.is_empty() {
        println!("{} disagreements:", unexplained.len());
        for difference in &unexplained {
            println!("  {difference}");
        }
    }
    if !stale.is_empty() {
        println!("{} entries of known-differences.tsv no longer differ; remove them:", stale.len());
        for (path, kind) in &stale {
            println!("  {kind} {path}");
        }
    }

    let eval_disagreements = check_eval_cases(&current.join("eval"))?;
    let corpus_failures = evaluate_corpus(&corpus.join("input"), &manifest)?;

    if !unexplained.is_empty() || !stale.is_empty() || eval_disagreements > 0 || corpus_failures > 0 {
        // Exiting directly rather than returning an error keeps the output to
        // the lists above: an error would add a backtrace when RUST_BACKTRACE
        // is set.
        println!(
            "conformance: FAILED ({} unexplained disagreements, {} stale known differences, \
             {eval_disagreements} evaluation disagreements, {corpus_failures} corpus files panicking or hanging in evaluation)",
            unexplained.len(),
            stale.len()
        );
        std::process::exit(1);
    }
    println!("conformance: ok");
    Ok(())
}

/// What a disagreement is about; the names are the `what` column of
/// `known-differences.tsv`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Kind {
    /// Parsing panicked. Never acceptable.
    Panic,
    /// The tree's text differs from the input. Never acceptable.
    Lossless,
    /// We report errors where the reference reports none, or the reverse.
    Verdict,
    /// Both reject the file, but our first error starts elsewhere.
    Position,
    /// Both parse the file, but our formatting differs from the reference's.
    Format,
    /// The table of file kinds and `terraform-fmt/manifest.tsv` disagree on
    /// whether `terraform fmt` formats a file that parses. Never acceptable:
    /// the style a file gets would be wrong.
    FormatStyle,
}

impl Kind {
    /// Losing bytes and panicking break the parser's invariants, so no
    /// argument can make them right and the known list may not excuse them.
    fn can_be_known(self) -> bool {
        matches!(self, Kind::Verdict | Kind::Position | Kind::Format)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad` rather than `write_str`, so that the list of disagreements
        // can align the kinds in a column.
        f.pad(match self {
            Kind::Panic => "panic",
            Kind::Lossless => "lossless",
            Kind::Verdict => "verdict",
            Kind::Position => "position",
            Kind::Format => "format",
            Kind::FormatStyle => "style",
        })
    }
}

struct Difference {
    path: String,
    kind: Kind,
    detail: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:<8} {}: {}", self.kind, self.path, self.detail)
    }
}

/// One file's result, kept small so all 8,000 fit comfortably.
struct Outcome {
    path: String,
    reference_parses: bool,
    utf8: bool,
    panic: Option<String>,
    lossless: bool,
    error_count: usize,
    /// The first error's 1-based line and column and its message.
    first_error: Option<(usize, usize, String)>,
    /// For a file both parse: `None` if our formatting equals the
    /// reference's, else where the two first differ.
    format_difference: Option<Option<String>>,
    /// The style the file is formatted in, by its name.
    style: Style,
}

impl Outcome {
    fn differences(&self, reference_errors: &HashMap<String, ReferenceError>) -> Vec<Difference> {
        let difference = |kind, detail: String| Difference { path: self.path.clone(), kind, detail };
        if let Some(message) = &self.panic {
            return vec![difference(Kind::Panic, message.clone())];
        }
        let mut differences = Vec::new();
        if !self.lossless {
            differences.push(difference(Kind::Lossless, "the tree's text differs from the input".to_owned()));
        }
        if let Some(Some(detail)) = &self.format_difference {
            differences.push(difference(Kind::Format, detail.clone()));
        }
        let reference = reference_errors.get(&self.path);
        match (self.reference_parses, &self.first_error) {
            (true, None) => {}
            (true, Some((line, column, message))) => differences.push(difference(
                Kind::Verdict,
                format!(
                    "the reference parses it; we report {} errors, first {line}:{column} {message}",
                    self.error_count
                ),
            )),
            (false, None) => {
                let theirs = reference.map_or_else(|| "?".to_owned(), ReferenceError::to_string);
                differences.push(difference(
                    Kind::Verdict,
                    format!("the reference rejects it ({theirs}); we report no error"),
                ));
            }
            (false, Some((line, column, message))) => match reference {
                None => differences.push(difference(
                    Kind::Position,
                    "rejected by the reference but missing from reference-errors.tsv".to_owned(),
                )),
                Some(theirs) if (theirs.line, theirs.column) != (*line, *column) => differences.push(
                    difference(Kind::Position, format!("reference {theirs}; ours {line}:{column} {message}")),
                ),
                Some(_) => {}
            },
        }
        differences
    }
}

struct ReferenceError {
    line: usize,
    column: usize,
    summary: String,
}

impl fmt::Display for ReferenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{} {}", self.line, self.column, self.summary)
    }
}

/// The counts printed before the list of disagreements.
struct Report {
    files: usize,
    reference_parses: usize,
    parses_agree: usize,
    reference_rejects: usize,
    rejects_agree: usize,
    lossless: usize,
    not_utf8: usize,
    panics: usize,
    positions_agree: usize,
    formatted: usize,
    formatted_alike: usize,
    /// Of `formatted` and `formatted_alike`, the files in Terraform's style.
    terraform_formatted: usize,
    terraform_formatted_alike: usize,
}

impl Report {
    fn new(outcomes: &[Outcome], differences: &[Difference]) -> Report {
        let has = |path: &str, kind: Kind| differences.iter().any(|d| d.path == path && d.kind == kind);
        let both_reject = |o: &&Outcome| !o.reference_parses && o.error_count > 0;
        Report {
            files: outcomes.len(),
            reference_parses: outcomes.iter().filter(|o| o.reference_parses).count(),
            parses_agree: outcomes.iter().filter(|o| o.reference_parses && o.error_count == 0).count(),
            reference_rejects: outcomes.iter().filter(|o| !o.reference_parses).count(),
            rejects_agree: outcomes.iter().filter(both_reject).count(),
            lossless: outcomes.iter().filter(|o| o.lossless && o.panic.is_none()).count(),
            not_utf8: outcomes.iter().filter(|o| !o.utf8).count(),
            panics: outcomes.iter().filter(|o| o.panic.is_some()).count(),
            positions_agree: outcomes
                .iter()
                .filter(both_reject)
                .filter(|o| !has(&o.path, Kind::Position))
                .count(),
            formatted: outcomes.iter().filter(|o| o.format_difference.is_some()).count(),
            formatted_alike: outcomes.iter().filter(|o| o.format_difference == Some(None)).count(),
            terraform_formatted: outcomes
                .iter()
                .filter(|o| o.style == Style::Terraform && o.format_difference.is_some())
                .count(),
            terraform_formatted_alike: outcomes
                .iter()
                .filter(|o| o.style == Style::Terraform && o.format_difference == Some(None))
                .count(),
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "  verdict agrees:  {} / {} (parses {} / {}, rejects {} / {})",
            self.parses_agree + self.rejects_agree,
            self.files,
            self.parses_agree,
            self.reference_parses,
            self.rejects_agree,
            self.reference_rejects
        )?;
        writeln!(
            f,
            "  lossless:        {} / {} ({} not UTF-8, {} panics)",
            self.lossless, self.files, self.not_utf8, self.panics
        )?;
        writeln!(
            f,
            "  first error at the reference's line and column: {} / {} rejected by both ({} rejected by the reference)",
            self.positions_agree, self.rejects_agree, self.reference_rejects
        )?;
        writeln!(
            f,
            "  formatting byte-identical to the reference: {} / {} parsed by both",
            self.formatted_alike, self.formatted
        )?;
        writeln!(
            f,
            "    as terraform fmt (Terraform's files): {} / {}",
            self.terraform_formatted_alike, self.terraform_formatted
        )?;
        writeln!(
            f,
            "    as hclwrite.Format (every other file): {} / {}",
            self.formatted_alike - self.terraform_formatted_alike,
            self.formatted - self.terraform_formatted
        )
    }
}

/// Reads, parses and (where both parse) formats every file of the manifest
/// in parallel.
fn check_all(
    input: &Path,
    expected: &(dyn Fn(&str, Style) -> PathBuf + Sync),
    style_of: &(dyn Fn(&str) -> Style + Sync),
    manifest: &[(String, bool)],
) -> anyhow::Result<Vec<Outcome>> {
    // A panicking parser would otherwise print a message and backtrace per
    // file; the panic is reported as a disagreement instead.
    let previous_hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let outcomes = manifest
        .par_iter()
        .map(|(path, reference_parses)| {
            let bytes = fs::read(input.join(path)).with_context(|| format!("reading {path}"))?;
            let style = style_of(path);
            // The reference's output where it changes the file; a file
            // without one must come back unchanged.
            let formatted =
                if *reference_parses { fs::read(expected(path, style).join(path)).ok() } else { None };
            Ok(check_file(path.clone(), *reference_parses, &bytes, formatted.as_deref(), style))
        })
        .collect();
    panic::set_hook(previous_hook);
    outcomes
}

fn check_file(
    path: String,
    reference_parses: bool,
    bytes: &[u8],
    formatted: Option<&[u8]>,
    style: Style,
) -> Outcome {
    let mut outcome = Outcome {
        path,
        reference_parses,
        utf8: true,
        panic: None,
        lossless: true,
        error_count: 0,
        first_error: None,
        format_difference: None,
        style,
    };
    let errors = match syntax::decode_source(bytes) {
        // Bytes that are not UTF-8 have no tree, so nothing can be lost; the
        // decoding error is the file's one error.
        Err(error) => {
            outcome.utf8 = false;
            vec![error]
        }
        Ok(text) => match panic::catch_unwind(AssertUnwindSafe(|| syntax::parse(text))) {
            Ok(parse) => {
                outcome.lossless = parse.syntax_node().to_string() == text;
                if reference_parses && parse.errors().is_empty() {
                    outcome.format_difference =
                        Some(format_difference(&parse, formatted.unwrap_or(bytes), style));
                }
                parse.errors().to_vec()
            }
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic without a message".to_owned());
                outcome.panic = Some(message);
                outcome.lossless = false;
                return outcome;
            }
        },
    };
    outcome.error_count = errors.len();
    outcome.first_error = errors.first().map(|error| {
        let (line, column) = line_column(bytes, usize::from(error.range.start()));
        (line, column, error.message.clone())
    });
    outcome
}

/// Formats a parsed file and compares the result with the reference's:
/// `None` when they are equal, else the first differing line of each.
fn format_difference(
    parse: &syntax::Parse<syntax::ast::SourceFile>,
    expected: &[u8],
    style: Style,
) -> Option<String> {
    let actual =
        match panic::catch_unwind(AssertUnwindSafe(|| ::fmt::format_tree_in(&parse.syntax_node(), style))) {
            Ok(actual) => actual,
            Err(_) => return Some("the formatter panicked".to_owned()),
        };
    if actual.as_bytes() == expected {
        return None;
    }
    let expected = String::from_utf8_lossy(expected);
    let mut ours = actual.split_inclusive('\n');
    let mut theirs = expected.split_inclusive('\n');
    let mut line = 1;
    loop {
        match (ours.next(), theirs.next()) {
            (a, e) if a != e => return Some(format!("line {line}: ours {a:?}, reference {e:?}")),
            (None, None) => return Some("the texts differ but no line does".to_owned()),
            _ => line += 1,
        }
    }
}

/// Converts a byte offset into a 1-based line and column as the reference
/// counts them: columns in characters (the reference counts grapheme
/// clusters, which is the same on every rejected file of the corpus).
fn line_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
    (line, column)
}

/// Reads a tab-separated file with a header line into its rows, checking
/// that the header starts with the expected columns.
fn read_tsv(path: &Path, columns: &[&str]) -> anyhow::Result<Vec<Vec<String>>> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    if !header.starts_with(columns) {
        bail!("{}: expected the columns {columns:?}, found {header:?}", path.display());
    }
    let mut rows = Vec::new();
    for (number, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let row: Vec<String> = line.split('\t').map(str::to_owned).collect();
        if row.len() < columns.len() {
            bail!("{}:{}: expected {} columns", path.display(), number + 2, columns.len());
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The style the file of a corpus path gets by its name, as `halite fmt`
/// gives it.
fn style_by_name(path: &str) -> Style {
    if vfs::is_terraform_fmt_file(camino::Utf8Path::new(path)) { Style::Terraform } else { Style::Hcl }
}

/// `terraform fmt`'s output on the corpus (`../shared/conformance/terraform-fmt`).
struct TerraformFmt {
    dir: PathBuf,
    /// Every file `terraform fmt` formatted: the parsing files of its kinds.
    files: BTreeSet<String>,
    /// Those whose output differs from `hclwrite.Format`'s, which are in
    /// `expected/`.
    differs: BTreeSet<String>,
}

/// Reads `terraform-fmt/manifest.tsv` (`path`, `terraform_fmt_changes`,
/// `differs_from_hclwrite_format`); `None` when the directory is absent.
fn read_terraform_fmt_manifest(dir: &Path) -> anyhow::Result<Option<TerraformFmt>> {
    let manifest = dir.join("manifest.tsv");
    if !manifest.is_file() {
        return Ok(None);
    }
    let mut data = TerraformFmt { dir: dir.to_owned(), files: BTreeSet::new(), differs: BTreeSet::new() };
    for row in read_tsv(&manifest, &["path", "terraform_fmt_changes", "differs_from_hclwrite_format"])? {
        match row[2].as_str() {
            "yes" => {
                data.differs.insert(row[0].clone());
            }
            "no" => {}
            other => bail!("{}: {}: differs_from_hclwrite_format is {other:?}", manifest.display(), row[0]),
        }
        data.files.insert(row[0].clone());
    }
    Ok(Some(data))
}

/// Where the table of file kinds and `terraform fmt`'s list of files
/// disagree: a file both parse that only one of them takes for one of
/// `terraform fmt`'s.
fn terraform_file_set_differences(outcomes: &[Outcome], terraform: &TerraformFmt) -> Vec<Difference> {
    let ours: BTreeSet<&str> = outcomes
        .iter()
        .filter(|o| o.style == Style::Terraform && o.format_difference.is_some())
        .map(|o| o.path.as_str())
        .collect();
    let parsed: BTreeSet<&str> =
        outcomes.iter().filter(|o| o.format_difference.is_some()).map(|o| o.path.as_str()).collect();
    let mut differences = Vec::new();
    for path in &ours {
        if !terraform.files.contains(*path) {
            differences.push(Difference {
                path: (*path).to_owned(),
                kind: Kind::FormatStyle,
                detail: "formatted as terraform fmt, which the terraform-fmt manifest does not list"
                    .to_owned(),
            });
        }
    }
    for path in &terraform.files {
        if parsed.contains(path.as_str()) && !ours.contains(path.as_str()) {
            differences.push(Difference {
                path: path.clone(),
                kind: Kind::FormatStyle,
                detail: "terraform fmt formats it, but its name gives it hclwrite's style".to_owned(),
            });
        }
    }
    differences
}

fn read_manifest(path: &Path) -> anyhow::Result<Vec<(String, bool)>> {
    read_tsv(path, &["path", "bytes", "reference_parses"])?
        .into_iter()
        .map(|row| match row[2].as_str() {
            "yes" => Ok((row[0].clone(), true)),
            "no" => Ok((row[0].clone(), false)),
            other => bail!("{}: {}: reference_parses is {other:?}", path.display(), row[0]),
        })
        .collect()
}

/// The verdicts HCL v2.24 changed (`corpus-verdicts.tsv`: `path`,
/// `reference_parses`, `reference_fmt_changes`), by path; none when the file
/// is absent.
fn read_verdict_overrides(path: &Path) -> anyhow::Result<HashMap<String, bool>> {
    if !path.is_file() {
        return Ok(HashMap::new());
    }
    read_tsv(path, &["path", "reference_parses", "reference_fmt_changes"])?
        .into_iter()
        .map(|row| match row[1].as_str() {
            "yes" => Ok((row[0].clone(), true)),
            "no" => Ok((row[0].clone(), false)),
            other => bail!("{}: {}: reference_parses is {other:?}", path.display(), row[0]),
        })
        .collect()
}

fn read_reference_errors(path: &Path) -> anyhow::Result<HashMap<String, ReferenceError>> {
    read_tsv(path, &["path", "line", "column", "byte", "summary"])?
        .into_iter()
        .map(|row| {
            let number =
                |i: usize| row[i].parse::<usize>().with_context(|| format!("{}: {}", path.display(), row[0]));
            Ok((
                row[0].clone(),
                ReferenceError { line: number(1)?, column: number(2)?, summary: row[4].clone() },
            ))
        })
        .collect()
}

fn read_known_differences(path: &Path) -> anyhow::Result<BTreeSet<(String, Kind)>> {
    read_tsv(path, &["path", "what", "why"])?
        .into_iter()
        .map(|row| {
            let kind = match row[1].as_str() {
                "verdict" => Kind::Verdict,
                "position" => Kind::Position,
                "format" => Kind::Format,
                other => {
                    bail!(
                        "{}: {}: `what` is {other:?}, not verdict, position or format",
                        path.display(),
                        row[0]
                    )
                }
            };
            if row[2].trim().is_empty() {
                bail!("{}: {}: a known difference needs a reason", path.display(), row[0]);
            }
            Ok((row[0].clone(), kind))
        })
        .collect()
}

/// Runs the evaluation cases of `../shared/conformance/eval` (when present)
/// by the rules of the eval crate's conformance test
/// ([`eval::conformance`]), prints the agreement and every disagreement,
/// and returns the number of disagreements that are not listed known
/// differences (decimal versus binary numbers).
fn check_eval_cases(dir: &Path) -> anyhow::Result<usize> {
    let dir = &dir.canonicalize().unwrap_or_else(|_| dir.to_owned());
    if !dir.is_dir() {
        println!("evaluation: no cases at {}, nothing to compare", dir.display());
        return Ok(0);
    }
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "hcl"))
        .collect();
    files.sort();
    let started = Instant::now();
    let previous_hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let results: Vec<_> = files
        .par_iter()
        .map(|path| {
            let name = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
            match panic::catch_unwind(|| eval::conformance::check_case_file(path)) {
                Ok(Ok(cases)) => Ok(cases),
                Ok(Err(message)) => Err(anyhow::anyhow!(message)),
                Err(payload) => Ok(vec![eval::conformance::Case {
                    name,
                    agrees: false,
                    got: format!("a panic: {}", panic_message(payload.as_ref())),
                    want: "no panic".to_owned(),
                }]),
            }
        })
        .collect();
    panic::set_hook(previous_hook);
    let (mut total, mut agree) = (0, 0);
    let (mut known, mut unexplained) = (Vec::new(), Vec::new());
    for cases in results {
        for case in cases? {
            total += 1;
            if case.agrees {
                agree += 1;
            } else if let Some(why) = eval::conformance::known_difference(&case.name) {
                known.push(format!("  {}: {why}", case.name));
            } else {
                unexplained.push(format!("  {}: got {}; want {}", case.name, case.got, case.want));
            }
        }
    }
    println!(
        "evaluation cases agreeing with the reference: {agree} / {total} ({} files of {} in {:.1} s)",
        files.len(),
        dir.display(),
        started.elapsed().as_secs_f64()
    );
    if !known.is_empty() {
        println!("{} known differences (decimal versus binary numbers):", known.len());
        for line in &known {
            println!("{line}");
        }
    }
    if !unexplained.is_empty() {
        println!("{} evaluation disagreements:", unexplained.len());
        for line in &unexplained {
            println!("{line}");
        }
    }
    Ok(unexplained.len())
}

/// How long one file's parsing, lowering and evaluation may take before the
/// run calls it a hang.
const EVAL_TIME_LIMIT: Duration = Duration::from_secs(20);

/// Evaluates every attribute of every corpus file that both
/// the reference and Halite parse as `halite eval FILE` does without
/// `--context` (the standard library, no variables), checking that none panics and no file takes longer than
/// [`EVAL_TIME_LIMIT`]. Prints the attributes evaluated, how many succeeded,
/// and the throughput; returns the number of files that panicked (a hang
/// ends the run at once).
fn evaluate_corpus(input: &Path, manifest: &[(String, bool)]) -> anyhow::Result<usize> {
    let files: Vec<(&str, String)> = manifest
        .par_iter()
        .filter(|(_, reference_parses)| *reference_parses)
        .map(|(path, _)| {
            let bytes = fs::read(input.join(path)).with_context(|| format!("reading {path}"))?;
            Ok(syntax::decode_source(&bytes).ok().map(|text| (path.as_str(), text.to_owned())))
        })
        .filter_map(Result::transpose)
        .collect::<anyhow::Result<_>>()?;

    // A watchdog over the file each worker is on: a hang cannot be
    // interrupted, so it is reported and the run ends.
    let threads = rayon::current_num_threads();
    let working: Mutex<Vec<Option<(&str, Instant)>>> = Mutex::new(vec![None; threads + 1]);
    let done = AtomicBool::new(false);
    // `halite eval FILE`'s context: the standard library, no variables.
    let context = eval::Context::with_stdlib();
    let previous_hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let started = Instant::now();
    let outcomes: Vec<_> = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
                let working = working.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                if let Some((path, since)) =
                    working.iter().flatten().find(|(_, since)| since.elapsed() > EVAL_TIME_LIMIT)
                {
                    println!(
                        "evaluation: {path} has run for {:.0} s (the limit is {} s): a hang",
                        since.elapsed().as_secs_f64(),
                        EVAL_TIME_LIMIT.as_secs()
                    );
                    println!("conformance: FAILED (an evaluation hang)");
                    std::process::exit(1);
                }
            }
        });
        let outcomes = files
            .par_iter()
            .filter_map(|(path, text)| {
                let slot = rayon::current_thread_index().unwrap_or(threads);
                let set =
                    |value| working.lock().unwrap_or_else(|poisoned| poisoned.into_inner())[slot] = value;
                set(Some((*path, Instant::now())));
                let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
                    let parse = syntax::parse(text);
                    if !parse.errors().is_empty() {
                        return None;
                    }
                    let (hir, _map) = hir::lower_file(&parse);
                    let evaluated = hir.attributes.iter().count();
                    let succeeded = hir
                        .attributes
                        .iter()
                        .filter(|(_, attribute)| {
                            eval::eval_expr(&hir.exprs, attribute.value, &context).is_ok()
                        })
                        .count();
                    Some((evaluated, succeeded))
                }));
                set(None);
                match outcome {
                    Ok(counts) => counts.map(|counts| Ok((text.len(), counts))),
                    Err(payload) => Some(Err(format!("{path}: {}", panic_message(payload.as_ref())))),
                }
            })
            .collect();
        done.store(true, Ordering::Relaxed);
        outcomes
    });
    let elapsed = started.elapsed().as_secs_f64();
    panic::set_hook(previous_hook);

    let (mut evaluated_files, mut bytes, mut attributes, mut succeeded) = (0, 0, 0, 0);
    let mut panics = Vec::new();
    for outcome in outcomes {
        match outcome {
            Ok((size, (evaluated, ok))) => {
                evaluated_files += 1;
                bytes += size;
                attributes += evaluated;
                succeeded += ok;
            }
            Err(message) => panics.push(message),
        }
    }
    println!(
        "corpus evaluation (stdlib, no variables): {evaluated_files} files, {attributes} attributes evaluated, \
         {succeeded} without error, {} panics; {:.1} MB in {elapsed:.2} s on {threads} thread{}, {:.1} MB/s \
         (parse, lower and evaluate)",
        panics.len(),
        bytes as f64 / 1e6,
        if threads == 1 { "" } else { "s" },
        bytes as f64 / 1e6 / elapsed.max(1e-9)
    );
    for message in &panics {
        println!("  panic {message}");
    }
    Ok(panics.len())
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}
