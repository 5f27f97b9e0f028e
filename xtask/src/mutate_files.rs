//! The second part of `cargo xtask mutate-check`: mistakes planted into the
//! corpus's real files of the formats Terraform checks file by file, one
//! at a time: the JSON syntax's configuration files (`*.tf.json`, from
//! `json/`), test, mock and query files (`*.tftest.hcl`, `*.tfmock.hcl`,
//! `*.tfquery.hcl`) and a Stack's files (`*.tfcomponent.hcl`,
//! `*.tfdeploy.hcl`).
//!
//! A file is taken when a check of it (with the other files of its Stack,
//! for a Stack's file, whose references they declare) reports no error in
//! it. Each file's directory is copied under a temporary directory first
//! (the corpus is never written), the mistake is written into the copy, and
//! the check runs again; it is found when the check reports an error in
//! the file with one of the rule codes the mistake calls for. A kind of
//! mistake with no place in a file (a test file without a `run` block to
//! repeat) is skipped there, not counted.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use anyhow::Context;
use syntax::{
    AstNode, TextRange, TextSize,
    ast::{self},
};

use crate::mutate_check::{
    Plant, Tally, argument, block_type, check, contains_word, files_below, misspell_reference, score,
};

/// A kind of mistake planted into one file of a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum FileMistake {
    /// `*.tf.json`: the first argument of a `variable` or `output` block
    /// misspelled.
    JsonArgument,
    /// `*.tf.json`: a top-level block type's labels and body replaced by a
    /// string.
    JsonBodyShape,
    /// `*.tftest.hcl`: a `run` block's `command` misspelled.
    TestRunArgument,
    /// `*.tftest.hcl`: a `run` block repeated under its name.
    TestDuplicateRun,
    /// `*.tftest.hcl`: an `assert` block's `error_message` dropped.
    TestAssertWithoutMessage,
    /// `*.tfmock.hcl`: a mock's `defaults` or an override's `values`
    /// misspelled.
    MockArgument,
    /// `*.tfquery.hcl`: a `list` block's `provider` misspelled.
    QueryArgument,
    /// `*.tfcomponent.hcl`: a `component` block's `source` misspelled.
    StackComponentSource,
    /// `*.tfcomponent.hcl`: a `component.NAME` or `var.NAME` reference
    /// misspelled.
    StackReference,
    /// `*.tfcomponent.hcl`: a `component` block repeated under its name.
    StackDuplicateComponent,
    /// `*.tfdeploy.hcl`: a `deployment` block's `inputs` misspelled.
    DeploymentArgument,
}

const FILE_MISTAKES: [FileMistake; 11] = [
    FileMistake::JsonArgument,
    FileMistake::JsonBodyShape,
    FileMistake::TestRunArgument,
    FileMistake::TestDuplicateRun,
    FileMistake::TestAssertWithoutMessage,
    FileMistake::MockArgument,
    FileMistake::QueryArgument,
    FileMistake::StackComponentSource,
    FileMistake::StackReference,
    FileMistake::StackDuplicateComponent,
    FileMistake::DeploymentArgument,
];

/// The formats whose files are taken, by the ending of their names.
const ENDINGS: [&str; 6] =
    [".tf.json", ".tftest.hcl", ".tfmock.hcl", ".tfquery.hcl", ".tfcomponent.hcl", ".tfdeploy.hcl"];

impl FileMistake {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            FileMistake::JsonArgument => "`.tf.json`: a variable's or output's argument misspelled",
            FileMistake::JsonBodyShape => "`.tf.json`: a block type's body not an object",
            FileMistake::TestRunArgument => "`.tftest.hcl`: `run`'s `command` misspelled",
            FileMistake::TestDuplicateRun => "`.tftest.hcl`: a `run` name repeated",
            FileMistake::TestAssertWithoutMessage => "`.tftest.hcl`: `assert` without `error_message`",
            FileMistake::MockArgument => "`.tfmock.hcl`: `defaults`/`values` misspelled",
            FileMistake::QueryArgument => "`.tfquery.hcl`: `list`'s `provider` misspelled",
            FileMistake::StackComponentSource => "`.tfcomponent.hcl`: `component`'s `source` misspelled",
            FileMistake::StackReference => "`.tfcomponent.hcl`: `component.NAME`/`var.NAME` misspelled",
            FileMistake::StackDuplicateComponent => "`.tfcomponent.hcl`: a `component` name repeated",
            FileMistake::DeploymentArgument => "`.tfdeploy.hcl`: `deployment`'s `inputs` misspelled",
        }
    }

    pub(crate) fn codes(self) -> &'static [&'static str] {
        match self {
            FileMistake::JsonArgument | FileMistake::JsonBodyShape => &["invalid-json-body"],
            FileMistake::TestRunArgument
            | FileMistake::MockArgument
            | FileMistake::QueryArgument
            | FileMistake::DeploymentArgument => &["unsupported-argument"],
            FileMistake::TestDuplicateRun => &["duplicate-block"],
            FileMistake::TestAssertWithoutMessage => &["missing-argument"],
            FileMistake::StackComponentSource => &["missing-argument", "unsupported-argument"],
            FileMistake::StackReference => &["undeclared-reference"],
            FileMistake::StackDuplicateComponent => &["duplicate-declaration"],
        }
    }

    fn ending(self) -> &'static str {
        match self {
            FileMistake::JsonArgument | FileMistake::JsonBodyShape => ".tf.json",
            FileMistake::TestRunArgument
            | FileMistake::TestDuplicateRun
            | FileMistake::TestAssertWithoutMessage => ".tftest.hcl",
            FileMistake::MockArgument => ".tfmock.hcl",
            FileMistake::QueryArgument => ".tfquery.hcl",
            FileMistake::StackComponentSource
            | FileMistake::StackReference
            | FileMistake::StackDuplicateComponent => ".tfcomponent.hcl",
            FileMistake::DeploymentArgument => ".tfdeploy.hcl",
        }
    }

    /// The first place of `text` where the mistake can be planted.
    /// `taken` says whether a name is used in the file's Stack already.
    fn plant(self, text: &str, taken: &dyn Fn(&str) -> bool) -> Option<Plant> {
        match self {
            FileMistake::JsonArgument => json_argument(text),
            FileMistake::JsonBodyShape => json_body_shape(text),
            _ => self.plant_native(text, taken),
        }
    }

    fn plant_native(self, text: &str, taken: &dyn Fn(&str) -> bool) -> Option<Plant> {
        let parse = syntax::parse(text);
        if !parse.ok() {
            return None;
        }
        let body = parse.tree().body()?;
        let top: Vec<ast::Block> = body.blocks().collect();
        let of_type = |ty: &'static str| top.iter().filter(move |block| block_type(block) == ty);
        let rename = |block: &ast::Block, name: &str| -> Option<Plant> {
            let ident = argument(block, name)?.ident_token()?;
            Some(Plant { range: ident.text_range(), replacement: swap_letters(name, taken)? })
        };
        match self {
            FileMistake::TestRunArgument => of_type("run").find_map(|block| rename(block, "command")),
            FileMistake::TestDuplicateRun => repeat_first(text, of_type("run")),
            FileMistake::StackDuplicateComponent => repeat_first(text, of_type("component")),
            FileMistake::TestAssertWithoutMessage => of_type("run").find_map(|run| {
                let assert = run.body()?.blocks().find(|inner| block_type(inner) == "assert")?;
                let message = argument(&assert, "error_message")?;
                Some(Plant { range: message.syntax().text_range(), replacement: String::new() })
            }),
            FileMistake::MockArgument => {
                top.iter().chain(mock_provider_blocks(&top).iter()).find_map(|block| {
                    match block_type(block).as_str() {
                        "mock_resource" | "mock_data" => rename(block, "defaults"),
                        "override_resource" | "override_data" => rename(block, "values"),
                        _ => None,
                    }
                })
            }
            FileMistake::QueryArgument => of_type("list").find_map(|block| rename(block, "provider")),
            FileMistake::StackComponentSource => {
                of_type("component").find_map(|block| rename(block, "source"))
            }
            FileMistake::StackReference => ["component", "var"].into_iter().find_map(|root| {
                // Not in a `removed` block's `from`, which names what is gone.
                parse
                    .syntax_node()
                    .children()
                    .flat_map(|node| node.descendants())
                    .filter(|node| ast::Attribute::cast(node.clone()).is_some_and(|it| !is_removed_from(&it)))
                    .find_map(|attribute| misspell_reference(&attribute, root, taken))
            }),
            FileMistake::DeploymentArgument => {
                of_type("deployment").find_map(|block| rename(block, "inputs"))
            }
            FileMistake::JsonArgument | FileMistake::JsonBodyShape => None,
        }
    }
}

/// The first of `blocks` with one label, written again at the end of
/// `text`.
fn repeat_first<'b>(text: &str, mut blocks: impl Iterator<Item = &'b ast::Block>) -> Option<Plant> {
    let block = blocks.find(|block| block.block_labels().count() == 1)?;
    let at = TextSize::try_from(text.len()).unwrap_or_default();
    let separator = if text.ends_with('\n') { "\n" } else { "\n\n" };
    Some(Plant::insert(at, format!("{separator}{}\n", block.syntax())))
}

/// Whether `attribute` is a `removed` block's `from`.
fn is_removed_from(attribute: &ast::Attribute) -> bool {
    attribute.ident_token().is_some_and(|name| name.text() == "from")
        && attribute
            .syntax()
            .ancestors()
            .find_map(ast::Block::cast)
            .is_some_and(|block| block_type(&block) == "removed")
}

/// The blocks of the `mock_provider` blocks among `top` (a test file's
/// mocks), for a mock file's mistakes planted in a test file's mocks too.
fn mock_provider_blocks(top: &[ast::Block]) -> Vec<ast::Block> {
    top.iter()
        .filter(|block| block_type(block) == "mock_provider")
        .filter_map(|block| block.body())
        .flat_map(|body| body.blocks().collect::<Vec<_>>())
        .collect()
}

/// `name` with two neighbouring letters swapped, the first swap that makes
/// a name not used already.
fn swap_letters(name: &str, taken: &dyn Fn(&str) -> bool) -> Option<String> {
    let chars: Vec<char> = name.chars().collect();
    (1..chars.len().saturating_sub(1)).find_map(|i| {
        if chars[i] == chars[i + 1] || !chars[i].is_ascii_alphabetic() || !chars[i + 1].is_ascii_alphabetic()
        {
            return None;
        }
        let mut typo = chars.clone();
        typo.swap(i, i + 1);
        let typo: String = typo.into_iter().collect();
        (!taken(&typo)).then_some(typo)
    })
}

// ---------------------------------------------------------------------------
// Where things are in a JSON text

/// A JSON value with where it is: an object's properties with their keys'
/// ranges, or anything else.
enum JsonNode {
    Object(Vec<(String, TextRange, JsonNode, TextRange)>),
    Other,
}

/// Reads the JSON value at `at` (after white space): the value and where
/// it ends.
fn json_value(text: &[u8], at: usize) -> Option<(JsonNode, usize)> {
    let at = skip_space(text, at);
    match text.get(at)? {
        b'{' => {
            let mut properties = Vec::new();
            let mut at = skip_space(text, at + 1);
            if text.get(at) == Some(&b'}') {
                return Some((JsonNode::Object(properties), at + 1));
            }
            loop {
                at = skip_space(text, at);
                let key_end = json_string_end(text, at)?;
                let key = String::from_utf8_lossy(&text[at + 1..key_end - 1]).into_owned();
                let key_range = range(at, key_end);
                at = skip_space(text, key_end);
                if text.get(at) != Some(&b':') {
                    return None;
                }
                let value_start = skip_space(text, at + 1);
                let (value, end) = json_value(text, value_start)?;
                properties.push((key, key_range, value, range(value_start, end)));
                at = skip_space(text, end);
                match text.get(at)? {
                    b',' => at += 1,
                    b'}' => return Some((JsonNode::Object(properties), at + 1)),
                    _ => return None,
                }
            }
        }
        b'[' => {
            let mut at = skip_space(text, at + 1);
            if text.get(at) == Some(&b']') {
                return Some((JsonNode::Other, at + 1));
            }
            loop {
                let (_, end) = json_value(text, at)?;
                at = skip_space(text, end);
                match text.get(at)? {
                    b',' => at += 1,
                    b']' => return Some((JsonNode::Other, at + 1)),
                    _ => return None,
                }
            }
        }
        b'"' => Some((JsonNode::Other, json_string_end(text, at)?)),
        _ => {
            let end = at
                + text[at..]
                    .iter()
                    .position(|&byte| matches!(byte, b',' | b'}' | b']') || byte.is_ascii_whitespace())?;
            Some((JsonNode::Other, end))
        }
    }
}

fn skip_space(text: &[u8], mut at: usize) -> usize {
    while text.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// Where the string starting at `at` ends (after its closing quote).
fn json_string_end(text: &[u8], at: usize) -> Option<usize> {
    if text.get(at) != Some(&b'"') {
        return None;
    }
    let mut i = at + 1;
    while let Some(&byte) = text.get(i) {
        match byte {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

fn range(start: usize, end: usize) -> TextRange {
    let size = |at: usize| TextSize::try_from(at).unwrap_or_default();
    TextRange::new(size(start), size(end))
}

fn json_root(text: &str) -> Option<Vec<(String, TextRange, JsonNode, TextRange)>> {
    match json_value(text.as_bytes(), 0)? {
        (JsonNode::Object(properties), _) => Some(properties),
        (JsonNode::Other, _) => None,
    }
}

/// The first argument of the first `variable` or `output` block written as
/// an object of names, misspelled.
fn json_argument(text: &str) -> Option<Plant> {
    let root = json_root(text)?;
    root.iter().filter(|(key, ..)| key == "variable" || key == "output").find_map(|(_, _, blocks, _)| {
        let JsonNode::Object(blocks) = blocks else { return None };
        blocks.iter().find_map(|(_, _, body, _)| {
            let JsonNode::Object(arguments) = body else { return None };
            let (name, key_range, ..) = arguments.iter().find(|(name, ..)| !name.starts_with("//"))?;
            let typo = swap_letters(name, &|typo| text.contains(&format!("\"{typo}\"")))?;
            Some(Plant { range: *key_range, replacement: format!("\"{typo}\"") })
        })
    })
}

/// The first block type of the top level whose blocks are written as an
/// object, with a string in its place.
fn json_body_shape(text: &str) -> Option<Plant> {
    const TYPES: &[&str] =
        &["variable", "output", "resource", "data", "module", "provider", "locals", "terraform"];
    let root = json_root(text)?;
    root.iter()
        .find(|(key, _, value, _)| TYPES.contains(&key.as_str()) && matches!(value, JsonNode::Object(_)))
        .map(|(_, _, _, value_range)| Plant { range: *value_range, replacement: "\"planted\"".to_owned() })
}

// ---------------------------------------------------------------------------
// The run

/// One file to plant mistakes into: its directory in the scratch copy and
/// its name, with the files checked with it.
struct Target {
    name: PathBuf,
    dir: PathBuf,
    file: String,
    checked: Vec<String>,
}

/// Plants each kind of mistake into each valid file of its format under
/// `inputs`, copied below `scratch`; the tallies by kind and the misses.
pub(crate) fn run(
    halite: &Path,
    inputs: &[PathBuf],
    scratch: &Path,
) -> anyhow::Result<(BTreeMap<FileMistake, Tally>, Vec<String>, usize)> {
    let mut tallies: BTreeMap<FileMistake, Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut taken_files = 0;
    let mut copies: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    for (index, input) in inputs.iter().enumerate() {
        let mut found = files_below(input, |name| ENDINGS.iter().any(|ending| name.ends_with(ending)))?;
        found.sort();
        for (source_dir, file) in found {
            let dir = match copies.get(&source_dir) {
                Some(dir) => dir.clone(),
                None => {
                    let dir = scratch.join(format!("files-{index}-{}", copies.len()));
                    copy_files(&source_dir, &dir)?;
                    copies.insert(source_dir.clone(), dir.clone());
                    dir
                }
            };
            let name = source_dir.strip_prefix(input).unwrap_or(&source_dir).join(&file);
            let checked = if file.ends_with(".tfcomponent.hcl") || file.ends_with(".tfdeploy.hcl") {
                // The Stack's other files of the same kind declare what it reads.
                let ending =
                    if file.ends_with(".tfcomponent.hcl") { ".tfcomponent.hcl" } else { ".tfdeploy.hcl" };
                let mut names: Vec<String> = std::fs::read_dir(&dir)?
                    .filter_map(Result::ok)
                    .map(|entry| entry.file_name().to_string_lossy().into_owned())
                    .filter(|name| name.ends_with(ending) && !name.starts_with('.'))
                    .collect();
                names.sort();
                names
            } else {
                vec![file.clone()]
            };
            let target = Target { name, dir, file, checked };
            if plant_all(halite, &target, &mut tallies, &mut misses)? {
                taken_files += 1;
            }
        }
    }
    Ok((tallies, misses, taken_files))
}

/// The regular files of `from` (not its directories) copied into `to`.
fn copy_files(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

/// Plants each kind of mistake of the target's format into it, if a check
/// finds no error in it first; whether it was taken.
fn plant_all(
    halite: &Path,
    target: &Target,
    tallies: &mut BTreeMap<FileMistake, Tally>,
    misses: &mut Vec<String>,
) -> anyhow::Result<bool> {
    let kinds: Vec<FileMistake> =
        FILE_MISTAKES.into_iter().filter(|mistake| target.file.ends_with(mistake.ending())).collect();
    let path = target.dir.join(&target.file);
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(false) };
    let baseline = check(halite, &target.dir, &target.checked)?;
    if baseline.iter().any(|finding| finding.severity == "error" && finding.file == target.file) {
        return Ok(false);
    }
    let others: Vec<String> = target
        .checked
        .iter()
        .filter(|name| **name != target.file)
        .filter_map(|name| std::fs::read_to_string(target.dir.join(name)).ok())
        .collect();
    let taken =
        |word: &str| contains_word(&text, word) || others.iter().any(|other| contains_word(other, word));
    for mistake in kinds {
        let tally = tallies.entry(mistake).or_default();
        let Some(plant) = mistake.plant(&text, &taken) else {
            tally.without_place += 1;
            continue;
        };
        std::fs::write(&path, plant.apply(&text))?;
        let findings = check(halite, &target.dir, &target.checked);
        std::fs::write(&path, &text)?;
        let findings = findings?;
        let plant_site = || {
            format!(
                "{}: {} at {:?} ({:?})",
                mistake.describe(),
                target.name.display(),
                plant.range,
                plant.replacement
            )
        };
        score(tally, misses, &findings, &target.file, mistake.codes(), plant_site);
    }
    Ok(true)
}
