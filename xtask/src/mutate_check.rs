//! `cargo xtask mutate-check`: plants the mistakes `terraform validate`
//! reports without providers into real, valid Terraform modules of
//! `../shared/corpus/input`, one at a time, and counts how many of them
//! `halite check` finds.
//!
//! The modules are the corpus's directories of at least [`MIN_FILES`] `*.tf`
//! files on which `halite check` reports no error (checked on the copy, so
//! that what the copy lacks cannot count as a finding). Each repository is
//! copied once under a temporary directory; each mistake is written into
//! one file of the copy, `halite check --format json` runs on the module's
//! files and those of the local modules it calls (as `terraform validate`
//! loads them), and the file is put back. A mistake is found when the check
//! reports an error with one of the rule codes that mistake calls for in
//! the file it was planted in. A kind of mistake that has no place in a
//! module (no `lifecycle` block to repeat, no `for_each` to set `count`
//! beside) is skipped there, not counted. Then the same is done file by
//! file for the JSON syntax's, test, mock, query and Stack files
//! (`mutate_files.rs`), and one table reports both.
//!
//! The release binary is the one checked, built first as `bench-check`
//! does. The run prints a table of planted and found per kind and fails if
//! any planted mistake is missed, listing each miss with what the check
//! said instead.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, bail, ensure};
use syntax::{
    AstNode, SyntaxKind, SyntaxToken, TextRange,
    ast::{self, Expr},
};

use crate::project_root;

/// The fewest `*.tf` files a directory needs to be taken as a module: a
/// real configuration, not a one-file snippet.
const MIN_FILES: usize = 4;

/// A kind of mistake: what is planted, and the rule codes that report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Mistake {
    /// `default` (or `description`) of a `variable` block misspelled.
    VariableArgument,
    /// `description` (or `sensitive`) of an `output` block misspelled.
    OutputArgument,
    /// `source` of a `module` block misspelled.
    ModuleArgument,
    /// `required_version` of the `terraform` block misspelled.
    TerraformArgument,
    /// `count = 1` added beside a `for_each`.
    CountBesideForEach,
    /// The required `value` of an `output` block dropped.
    OutputWithoutValue,
    /// A `lifecycle` block repeated in its resource.
    DuplicateLifecycle,
    /// `depends_on` naming a resource the module does not declare.
    UndeclaredDependsOn,
    /// A `local.NAME` reference misspelled.
    MisspelledLocal,
    /// A `var.NAME` reference misspelled.
    MisspelledVariable,
    /// A function call's name misspelled.
    MisspelledFunction,
    /// A variable's `default` replaced by a value its `type` does not take.
    DefaultNotOfType,
    /// A read of a local child module's output misspelled.
    MisspelledModuleOutput,
    /// A `moved` block from a module to a resource.
    MovedModuleToResource,
    /// An `import` block whose `to` is a data source.
    ImportDataSource,
    /// A second `backend` block in the module.
    DuplicateBackend,
    /// A second `required_providers` block in the module.
    DuplicateRequiredProviders,
    /// `replace_triggered_by` naming a resource the module does not declare.
    UndeclaredReplaceTriggeredBy,
    /// `count.index` read in a resource without `count`.
    CountIndexWithoutCount,
    /// `each.key` read in a resource without `for_each`.
    EachKeyWithoutForEach,
    /// `self` read in a resource's own arguments, outside its provisioners.
    SelfOutsideProvisioner,
}

const MISTAKES: [Mistake; 21] = [
    Mistake::VariableArgument,
    Mistake::OutputArgument,
    Mistake::ModuleArgument,
    Mistake::TerraformArgument,
    Mistake::CountBesideForEach,
    Mistake::OutputWithoutValue,
    Mistake::DuplicateLifecycle,
    Mistake::UndeclaredDependsOn,
    Mistake::MisspelledLocal,
    Mistake::MisspelledVariable,
    Mistake::MisspelledFunction,
    Mistake::DefaultNotOfType,
    Mistake::MisspelledModuleOutput,
    Mistake::MovedModuleToResource,
    Mistake::ImportDataSource,
    Mistake::DuplicateBackend,
    Mistake::DuplicateRequiredProviders,
    Mistake::UndeclaredReplaceTriggeredBy,
    Mistake::CountIndexWithoutCount,
    Mistake::EachKeyWithoutForEach,
    Mistake::SelfOutsideProvisioner,
];

impl Mistake {
    fn describe(self) -> &'static str {
        match self {
            Mistake::VariableArgument => "variable: `default` misspelled",
            Mistake::OutputArgument => "output: `description` misspelled",
            Mistake::ModuleArgument => "module: `source` misspelled",
            Mistake::TerraformArgument => "terraform: `required_version` misspelled",
            Mistake::CountBesideForEach => "`count` beside `for_each`",
            Mistake::OutputWithoutValue => "output without `value`",
            Mistake::DuplicateLifecycle => "`lifecycle` repeated",
            Mistake::UndeclaredDependsOn => "`depends_on` an undeclared resource",
            Mistake::MisspelledLocal => "`local.NAME` misspelled",
            Mistake::MisspelledVariable => "`var.NAME` misspelled",
            Mistake::MisspelledFunction => "function name misspelled",
            Mistake::DefaultNotOfType => "variable: `default` not of its `type`",
            Mistake::MisspelledModuleOutput => "`module.NAME.OUTPUT` of a local module misspelled",
            Mistake::MovedModuleToResource => "`moved` from a module to a resource",
            Mistake::ImportDataSource => "`import` to a data source",
            Mistake::DuplicateBackend => "`backend` repeated",
            Mistake::DuplicateRequiredProviders => "`required_providers` repeated",
            Mistake::UndeclaredReplaceTriggeredBy => "`replace_triggered_by` an undeclared resource",
            Mistake::CountIndexWithoutCount => "`count.index` in a resource without `count`",
            Mistake::EachKeyWithoutForEach => "`each.key` in a resource without `for_each`",
            Mistake::SelfOutsideProvisioner => "`self` outside a provisioner",
        }
    }

    /// The rule codes, any of which reports the mistake.
    fn codes(self) -> &'static [&'static str] {
        match self {
            Mistake::VariableArgument | Mistake::OutputArgument | Mistake::TerraformArgument => {
                &["unsupported-argument"]
            }
            // Terraform says the required `source` is missing; the
            // misspelled name is an input of the child module to it.
            Mistake::ModuleArgument => &["missing-argument", "unsupported-argument"],
            Mistake::CountBesideForEach => &["conflicting-arguments"],
            Mistake::OutputWithoutValue => &["missing-argument"],
            Mistake::DuplicateLifecycle => &["duplicate-block"],
            Mistake::UndeclaredDependsOn
            | Mistake::UndeclaredReplaceTriggeredBy
            | Mistake::MisspelledLocal
            | Mistake::MisspelledVariable => &["undeclared-reference"],
            Mistake::CountIndexWithoutCount
            | Mistake::EachKeyWithoutForEach
            | Mistake::SelfOutsideProvisioner => &["out-of-context-reference"],
            Mistake::MisspelledFunction => &["unknown-function"],
            Mistake::DefaultNotOfType => &["invalid-variable-value"],
            Mistake::MisspelledModuleOutput => &["unknown-attribute"],
            Mistake::MovedModuleToResource | Mistake::ImportDataSource => &["invalid-address"],
            Mistake::DuplicateBackend | Mistake::DuplicateRequiredProviders => &["duplicate-block"],
        }
    }

    /// The first place of `text` where the mistake can be planted, as the
    /// edit that plants it. `taken` says whether a name is used anywhere in
    /// the module already, so that a misspelling never lands on a real name.
    fn plant(self, text: &str, taken: &dyn Fn(&str) -> bool, local_calls: &[LocalCall]) -> Option<Plant> {
        let parse = syntax::parse(text);
        if !parse.ok() {
            return None;
        }
        let body = parse.tree().body()?;
        let top: Vec<ast::Block> = body.blocks().collect();
        let of_type = |ty: &'static str| top.iter().filter(move |block| block_type(block) == ty);
        match self {
            Mistake::VariableArgument => of_type("variable").find_map(|block| {
                rename_argument(block, "default", "defualt")
                    .or_else(|| rename_argument(block, "description", "descripton"))
            }),
            Mistake::OutputArgument => of_type("output").find_map(|block| {
                rename_argument(block, "description", "descripton")
                    .or_else(|| rename_argument(block, "sensitive", "sensitiv"))
            }),
            Mistake::ModuleArgument => {
                of_type("module").find_map(|block| rename_argument(block, "source", "sorce"))
            }
            Mistake::TerraformArgument => of_type("terraform")
                .find_map(|block| rename_argument(block, "required_version", "required_verison")),
            Mistake::CountBesideForEach => top
                .iter()
                .filter(|block| matches!(block_type(block).as_str(), "resource" | "data" | "module"))
                .find_map(|block| {
                    let for_each = argument(block, "for_each")?;
                    let at = for_each.syntax().text_range().start();
                    Some(Plant::insert(at, format!("count = 1\n{}", indentation(text, at))))
                }),
            Mistake::OutputWithoutValue => of_type("output").find_map(|block| {
                let value = argument(block, "value")?;
                Some(Plant { range: value.syntax().text_range(), replacement: String::new() })
            }),
            Mistake::DuplicateLifecycle => of_type("resource").find_map(|block| {
                let lifecycle = block.body()?.blocks().find(|inner| block_type(inner) == "lifecycle")?;
                let range = lifecycle.syntax().text_range();
                let mut copy = lifecycle.syntax().to_string();
                if !copy.ends_with('\n') {
                    copy.push('\n');
                }
                Some(Plant::insert(range.start(), format!("{copy}{}", indentation(text, range.start()))))
            }),
            Mistake::UndeclaredDependsOn => top
                .iter()
                .filter(|block| matches!(block_type(block).as_str(), "resource" | "data" | "module"))
                .filter(|block| argument(block, "depends_on").is_none())
                .find_map(|block| {
                    let first = block.body()?.syntax().children().next()?;
                    let at = first.text_range().start();
                    Some(Plant::insert(
                        at,
                        format!("depends_on = [null_resource.not_declared]\n{}", indentation(text, at)),
                    ))
                }),
            Mistake::MisspelledLocal => misspell_reference(&parse.syntax_node(), "local", taken),
            Mistake::MisspelledVariable => misspell_reference(&parse.syntax_node(), "var", taken),
            Mistake::MisspelledFunction => parse
                .syntax_node()
                .descendants()
                .filter_map(ast::FunctionCall::cast)
                .filter(|call| call.colon2_token().is_none() && !in_variable_type(call.syntax()))
                .find_map(|call| misspell_token(&call.ident_token()?, taken)),
            Mistake::DefaultNotOfType => of_type("variable").find_map(|block| {
                let type_text = argument(block, "type")?.expr()?.syntax().text().to_string();
                let default = argument(block, "default")?.expr()?;
                let head = type_text.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or_default();
                // A value no conversion turns into the type.
                let value = match head {
                    "string" | "number" | "bool" => "[]",
                    "list" | "set" | "tuple" => "{ planted = true }",
                    "map" | "object" => "[true]",
                    _ => return None,
                };
                Some(Plant { range: default.syntax().text_range(), replacement: value.to_owned() })
            }),
            Mistake::MisspelledModuleOutput => {
                parse.syntax_node().descendants().filter_map(ast::GetAttrExpr::cast).find_map(|get| {
                    let Some(Expr::GetAttrExpr(call)) = get.expr() else { return None };
                    let Some(Expr::Variable(root)) = call.expr() else { return None };
                    let call_name = call.ident_token()?;
                    if root.ident_token()?.text() != "module"
                        || !local_calls.iter().any(|call| !call.repeated && call.name == call_name.text())
                        || in_address_block(get.syntax())
                    {
                        return None;
                    }
                    misspell_token(&get.ident_token()?, taken)
                })
            }
            Mistake::MovedModuleToResource => of_type("resource").find_map(|block| {
                let labels: Vec<String> = block.block_labels().map(|label| label_text(&label)).collect();
                let [resource_type, name] = labels.as_slice() else { return None };
                Some(append(
                    text,
                    format!("moved {{\n  from = module.planted_move\n  to   = {resource_type}.{name}\n}}\n"),
                ))
            }),
            Mistake::ImportDataSource => of_type("data").find_map(|block| {
                let labels: Vec<String> = block.block_labels().map(|label| label_text(&label)).collect();
                let [data_type, name] = labels.as_slice() else { return None };
                Some(append(
                    text,
                    format!("import {{\n  to = data.{data_type}.{name}\n  id = \"planted\"\n}}\n"),
                ))
            }),
            Mistake::DuplicateBackend => of_type("terraform")
                .find(|block| {
                    block
                        .body()
                        .is_some_and(|body| body.blocks().any(|inner| block_type(&inner) == "backend"))
                })
                .map(|_| append(text, "terraform {\n  backend \"local\" {}\n}\n".to_owned())),
            Mistake::UndeclaredReplaceTriggeredBy => of_type("resource")
                .filter(|block| {
                    block.body().is_some_and(|body| body.blocks().all(|inner| block_type(&inner) != "lifecycle"))
                })
                .find_map(|block| {
                    let first = block.body()?.syntax().children().next()?;
                    let at = first.text_range().start();
                    let indent = indentation(text, at);
                    Some(Plant::insert(
                        at,
                        format!(
                            "lifecycle {{\n{indent}  replace_triggered_by = [null_resource.not_declared]\n{indent}}}\n{indent}"
                        ),
                    ))
                }),
            Mistake::CountIndexWithoutCount | Mistake::EachKeyWithoutForEach | Mistake::SelfOutsideProvisioner => {
                let read = match self {
                    Mistake::CountIndexWithoutCount => "count.index",
                    Mistake::EachKeyWithoutForEach => "each.key",
                    _ => "self.id",
                };
                of_type("resource")
                    .filter(|block| argument(block, "count").is_none() && argument(block, "for_each").is_none())
                    .find_map(|block| {
                        let first = block.body()?.syntax().children().next()?;
                        let at = first.text_range().start();
                        Some(Plant::insert(at, format!("planted = {read}\n{}", indentation(text, at))))
                    })
            }
            Mistake::DuplicateRequiredProviders => of_type("terraform")
                .find(|block| {
                    block.body().is_some_and(|body| {
                        body.blocks().any(|inner| block_type(&inner) == "required_providers")
                    })
                })
                .map(|_| append(text, "terraform {\n  required_providers {}\n}\n".to_owned())),
        }
    }
}

/// `addition` appended to `text`, after a line break.
fn append(text: &str, addition: String) -> Plant {
    let at = syntax::TextSize::try_from(text.len()).unwrap_or_default();
    let separator = if text.ends_with('\n') { "\n" } else { "\n\n" };
    Plant::insert(at, format!("{separator}{addition}"))
}

/// A block label's text without its quotes.
fn label_text(label: &ast::BlockLabel) -> String {
    let text = label.syntax().text().to_string();
    text.trim_matches('"').to_owned()
}

/// Whether `node` is in a `moved`, `import` or `removed` block, whose
/// addresses name resources inside a module call, not its outputs.
fn in_address_block(node: &syntax::SyntaxNode) -> bool {
    node.ancestors()
        .filter_map(ast::Block::cast)
        .any(|block| matches!(block_type(&block).as_str(), "moved" | "import" | "removed"))
}

/// A `module` block whose source is a local directory.
struct LocalCall {
    name: String,
    /// The source as written, without quotes (`./modules/network`).
    source: String,
    /// Whether it has `count` or `for_each`.
    repeated: bool,
}

/// The module calls of `texts` whose source is a local directory.
fn local_module_calls(texts: &[String]) -> Vec<LocalCall> {
    let mut out = Vec::new();
    for text in texts {
        let parse = syntax::parse(text);
        let Some(body) = parse.tree().body() else { continue };
        for block in body.blocks().filter(|block| block_type(block) == "module") {
            let Some(source) = argument(&block, "source").and_then(|it| it.expr()) else { continue };
            let source = source.syntax().text().to_string();
            let Some(source) = source.strip_prefix('"').and_then(|it| it.strip_suffix('"')) else { continue };
            if !(source.starts_with("./") || source.starts_with("../")) || source.contains("${") {
                continue;
            }
            let repeated = argument(&block, "count").is_some() || argument(&block, "for_each").is_some();
            if let Some(label) = block.block_labels().next() {
                out.push(LocalCall { name: label_text(&label), source: source.to_owned(), repeated });
            }
        }
    }
    out
}

/// The `*.tf` files of the local child modules `calls` name, as paths from
/// the calling module's directory `dir`: checked with it, as `terraform
/// validate` loads them, so that a call's arguments and outputs are read
/// against its child.
fn child_files(dir: &Path, calls: &[LocalCall]) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for call in calls {
        let source = call.source.trim_end_matches('/');
        if !seen.insert(source.to_owned()) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(dir.join(source)) else { continue };
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tf") && !name.starts_with('.'))
            .collect();
        names.sort();
        out.extend(names.into_iter().map(|name| format!("{source}/{name}")));
    }
    out
}

/// One planted mistake: `range` of the file's text replaced.
#[derive(Debug)]
pub(crate) struct Plant {
    pub(crate) range: TextRange,
    pub(crate) replacement: String,
}

impl Plant {
    pub(crate) fn insert(at: syntax::TextSize, text: String) -> Plant {
        Plant { range: TextRange::empty(at), replacement: text }
    }

    pub(crate) fn apply(&self, text: &str) -> String {
        let (start, end) = (usize::from(self.range.start()), usize::from(self.range.end()));
        format!("{}{}{}", &text[..start], self.replacement, &text[end..])
    }
}

pub(crate) fn block_type(block: &ast::Block) -> String {
    block.ident_token().map(|token| token.text().to_owned()).unwrap_or_default()
}

pub(crate) fn argument(block: &ast::Block, name: &str) -> Option<ast::Attribute> {
    block.body()?.attributes().find(|attribute| attribute.ident_token().is_some_and(|t| t.text() == name))
}

fn rename_argument(block: &ast::Block, name: &str, to: &str) -> Option<Plant> {
    let ident = argument(block, name)?.ident_token()?;
    Some(Plant { range: ident.text_range(), replacement: to.to_owned() })
}

/// The spaces and tabs that begin the line `at` is on, up to `at`.
pub(crate) fn indentation(text: &str, at: syntax::TextSize) -> &str {
    let at = usize::from(at);
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let prefix = &text[line_start..at];
    if prefix.chars().all(|c| c == ' ' || c == '\t') { prefix } else { "" }
}

/// Whether `node` is inside the `type` argument of a `variable` block: a
/// type constraint, whose `list(string)` is no function call.
fn in_variable_type(node: &syntax::SyntaxNode) -> bool {
    node.ancestors().filter_map(ast::Attribute::cast).any(|attribute| {
        attribute.ident_token().is_some_and(|name| name.text() == "type")
            && attribute
                .syntax()
                .ancestors()
                .find_map(ast::Block::cast)
                .is_some_and(|block| block_type(&block) == "variable")
    })
}

/// The first `ROOT.NAME` traversal's `NAME`, misspelled.
pub(crate) fn misspell_reference(
    node: &syntax::SyntaxNode,
    root: &str,
    taken: &dyn Fn(&str) -> bool,
) -> Option<Plant> {
    node.descendants().filter_map(ast::GetAttrExpr::cast).find_map(|get| {
        let Some(Expr::Variable(variable)) = get.expr() else { return None };
        if variable.ident_token()?.text() != root {
            return None;
        }
        misspell_token(&get.ident_token()?, taken)
    })
}

/// The token's name with two neighbouring letters swapped, the first such
/// swap that makes a name the module does not use.
pub(crate) fn misspell_token(token: &SyntaxToken, taken: &dyn Fn(&str) -> bool) -> Option<Plant> {
    debug_assert_eq!(token.kind(), SyntaxKind::IDENT);
    let name: Vec<char> = token.text().chars().collect();
    (1..name.len().saturating_sub(1)).find_map(|i| {
        if name[i] == name[i + 1] || !name[i].is_ascii_alphabetic() || !name[i + 1].is_ascii_alphabetic() {
            return None;
        }
        let mut typo = name.clone();
        typo.swap(i, i + 1);
        let typo: String = typo.into_iter().collect();
        (!taken(&typo)).then(|| Plant { range: token.text_range(), replacement: typo })
    })
}

/// A module of the corpus: its repository's folder and its path inside it.
struct Module {
    repository: String,
    path: PathBuf,
    files: Vec<String>,
}

/// One diagnostic line of `halite check --format json`.
pub(crate) struct Finding {
    pub(crate) file: String,
    pub(crate) severity: String,
    pub(crate) code: String,
}

pub(crate) fn check(halite: &Path, dir: &Path, files: &[String]) -> anyhow::Result<Vec<Finding>> {
    let output = Command::new(halite)
        .args(["check", "--no-cache", "--format", "json"])
        .args(files)
        .current_dir(dir)
        .output()
        .with_context(|| format!("running halite check in {}", dir.display()))?;
    ensure!(
        matches!(output.status.code(), Some(0 | 1)),
        "halite check in {} exited {}: {}",
        dir.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).context("halite check printed something not UTF-8")?;
    stdout
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).context("a line of halite's JSON")?;
            let field = |name: &str| value[name].as_str().unwrap_or_default().to_owned();
            Ok(Finding { file: field("file"), severity: field("severity"), code: field("code") })
        })
        .collect()
}

/// The files below `input` whose names `wanted` accepts, outside hidden
/// directories, each as its directory and its name (in no set order).
pub(crate) fn files_below(
    input: &Path,
    wanted: impl Fn(&str) -> bool,
) -> anyhow::Result<Vec<(PathBuf, String)>> {
    let mut out = Vec::new();
    let mut stack = vec![input.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let kind = entry.file_type()?;
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() && wanted(&name) {
                out.push((dir.clone(), name));
            }
        }
    }
    Ok(out)
}

/// The corpus's directories of at least [`MIN_FILES`] `*.tf` files, outside
/// hidden directories, by repository.
fn candidate_modules(input: &Path) -> anyhow::Result<Vec<Module>> {
    let mut by_dir: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
    for (dir, name) in files_below(input, |name| name.ends_with(".tf"))? {
        by_dir.entry(dir).or_default().push(name);
    }
    let mut modules = Vec::new();
    for (dir, mut files) in by_dir {
        if files.len() < MIN_FILES {
            continue;
        }
        files.sort();
        let relative = dir.strip_prefix(input).expect("walked below the input");
        let mut components = relative.components();
        let repository = components.next().context("a module directly in the input")?;
        modules.push(Module {
            repository: repository.as_os_str().to_string_lossy().into_owned(),
            path: components.as_path().to_path_buf(),
            files,
        });
    }
    Ok(modules)
}

/// What became of one kind of mistake: how many were planted and found,
/// and in how many units (modules, Terragrunt units) it had no place.
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) planted: usize,
    pub(crate) found: usize,
    pub(crate) without_place: usize,
}

/// Counts a planted mistake: found when `check` reported one of `codes`
/// as an error in `file`; otherwise a miss, described by `plant_site`
/// and what `check` reported instead.
pub(crate) fn score(
    tally: &mut Tally,
    misses: &mut Vec<String>,
    findings: &[Finding],
    file: &str,
    codes: &[&str],
    plant_site: impl FnOnce() -> String,
) {
    tally.planted += 1;
    let found = findings.iter().any(|finding| {
        finding.severity == "error" && finding.file == file && codes.contains(&finding.code.as_str())
    });
    if found {
        tally.found += 1;
        return;
    }
    let said: Vec<String> = findings
        .iter()
        .filter(|finding| finding.severity == "error")
        .map(|finding| format!("{} in {}", finding.code, finding.file))
        .collect();
    let said = if said.is_empty() { "no error".to_owned() } else { said.join(", ") };
    misses.push(format!("{}: {said}", plant_site()));
}

/// Prints the table of `tallies` (each mistake's description, rule codes
/// and tally) over `units` (what a unit is called, plural), then the
/// misses, and fails if any mistake was missed.
pub(crate) fn report_tallies<'t>(
    units: &str,
    tallies: impl IntoIterator<Item = (&'t str, String, &'t Tally)>,
    misses: &[String],
) -> anyhow::Result<()> {
    println!("| mistake | rule | planted | found | {units} without a place |");
    println!("|---|---|---|---|---|");
    let (mut planted, mut found) = (0, 0);
    for (mistake, rules, tally) in tallies {
        println!("| {mistake} | {rules} | {} | {} | {} |", tally.planted, tally.found, tally.without_place);
        planted += tally.planted;
        found += tally.found;
    }
    println!("| all | | {planted} | {found} | |");
    for miss in misses {
        println!("missed: {miss}");
    }
    ensure!(misses.is_empty(), "{} of {planted} planted mistakes missed", misses.len());
    Ok(())
}

pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let halite = match args {
        [] => crate::bench::build_release_halite(&project_root())?,
        // Absolute, since each check runs in its module's directory.
        [flag, path] | [_, flag, path] if flag == "--halite" => {
            Path::new(path).canonicalize().with_context(|| format!("no halite at {path}"))?
        }
        [flag] if flag == "--terragrunt" => crate::bench::build_release_halite(&project_root())?,
        _ => bail!("usage: cargo xtask mutate-check [--terragrunt] [--halite PATH]"),
    };
    if args.first().is_some_and(|it| it == "--terragrunt") {
        return crate::mutate_terragrunt::run(&halite);
    }
    let input = project_root().join("../shared/corpus/input");
    let input = input.canonicalize().with_context(|| format!("no corpus at {}", input.display()))?;
    let scratch = tempfile::tempdir().context("creating a scratch directory")?;

    let mut copied = BTreeSet::new();
    let mut tallies: BTreeMap<Mistake, Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut modules_used = 0;
    for module in candidate_modules(&input)? {
        if copied.insert(module.repository.clone()) {
            crate::copy_tree(&input.join(&module.repository), &scratch.path().join(&module.repository))
                .with_context(|| format!("copying {}", module.repository))?;
        }
        let dir = scratch.path().join(&module.repository).join(&module.path);
        let name = Path::new(&module.repository).join(&module.path);
        let texts: Vec<String> = module
            .files
            .iter()
            .map(|file| std::fs::read_to_string(dir.join(file)))
            .collect::<Result<_, _>>()
            .with_context(|| format!("reading {}", name.display()))?;
        let local_calls = local_module_calls(&texts);
        let mut checked = module.files.clone();
        checked.extend(child_files(&dir, &local_calls));
        let baseline = check(&halite, &dir, &checked)?;
        if baseline.iter().any(|finding| finding.severity == "error") {
            continue;
        }
        modules_used += 1;
        let taken = |word: &str| texts.iter().any(|text| contains_word(text, word));
        for mistake in MISTAKES {
            let tally = tallies.entry(mistake).or_default();
            // Not into an override file, whose blocks Terraform merges
            // into others' (where `count.index` may have a value).
            let planted = module
                .files
                .iter()
                .zip(&texts)
                .filter(|(file, _)| !is_override_name(file))
                .find_map(|(file, text)| Some((file, text, mistake.plant(text, &taken, &local_calls)?)));
            let Some((file, text, plant)) = planted else {
                tally.without_place += 1;
                continue;
            };
            let path = dir.join(file);
            std::fs::write(&path, plant.apply(text))?;
            let findings = check(&halite, &dir, &checked);
            std::fs::write(&path, text)?;
            let findings = findings?;
            let plant_site = || {
                format!(
                    "{}: {}/{} at {:?} ({:?})",
                    mistake.describe(),
                    name.display(),
                    file,
                    plant.range,
                    plant.replacement
                )
            };
            score(tally, &mut misses, &findings, file, mistake.codes(), plant_site);
        }
    }

    let json = input.with_file_name("json");
    let (file_tallies, file_misses, files_used) =
        crate::mutate_files::run(&halite, &[input.clone(), json], scratch.path())?;
    misses.extend(file_misses);

    println!(
        "{modules_used} modules of {} without errors and {files_used} files of Terraform's other formats \
         and the JSON syntax without errors, each mistake planted alone\n",
        input.display()
    );
    ensure!(modules_used > 0, "no module of the corpus is free of errors");
    let rows = tallies
        .iter()
        .map(|(mistake, tally)| (mistake.describe(), mistake.codes().join(" or "), tally))
        .chain(
            file_tallies
                .iter()
                .map(|(mistake, tally)| (mistake.describe(), mistake.codes().join(" or "), tally)),
        );
    report_tallies("modules or files", rows, &misses)
}

/// Whether `name` is a Terraform override file's (`override.tf`,
/// `*_override.tf`).
fn is_override_name(name: &str) -> bool {
    name.strip_suffix(".tf").is_some_and(|stem| stem == "override" || stem.ends_with("_override"))
}

/// Whether `word` occurs in `text` as a whole name.
pub(crate) fn contains_word(text: &str, word: &str) -> bool {
    let is_name = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    text.match_indices(word).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(is_name)
            && !text[at + word.len()..].chars().next().is_some_and(is_name)
    })
}
