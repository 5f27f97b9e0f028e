//! `cargo xtask fix-check [--halite PATH] [--corpus DIR]`: `halite check
//! --fix` over a copy of `../shared/corpus/input`, and three checks of
//! what it did.
//!
//! 1. It changed only what the fixes say: every file it changed had safe
//!    fixes in the check before, and every difference (by characters)
//!    between the file before and after lies within the range of one of
//!    those fixes' edits (an insertion at its edge included).
//! 2. A second check reports none of the fixed diagnostics: no diagnostic
//!    with a safe fix is left, but in the files `--fix` refused (whose
//!    fixes would have broken their syntax).
//! 3. The meaning is unchanged: each changed native file lowers to HIR of
//!    the same blocks, labels and attribute names in the same order, and
//!    every attribute whose value differs (once a template of one
//!    interpolation is taken for its expression, as evaluation takes it)
//!    holds a fix.
//!
//! The release binary is the one run, built first as `bench-check` does.
//! The copy is in a temporary directory, removed at the end.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, bail, ensure};
use hir::{Expr, ExprId, FileHir, SourceMap, TemplateKind, TemplatePart};
use similar::{DiffOp, TextDiff};

use crate::project_root;

/// A range of bytes a fix edits, before the fixes.
type Site = (usize, usize);

pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut halite = None;
    let mut corpus = project_root().join("../shared/corpus/input");
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--halite", Some(path)) => {
                halite =
                    Some(Path::new(path).canonicalize().with_context(|| format!("no halite at {path}"))?);
            }
            ("--corpus", Some(dir)) => corpus = PathBuf::from(dir),
            _ => bail!("usage: cargo xtask fix-check [--halite PATH] [--corpus DIR]"),
        }
    }
    let halite = match halite {
        Some(halite) => halite,
        None => crate::bench::build_release_halite(&project_root())?,
    };
    ensure!(corpus.is_dir(), "no corpus at {}", corpus.display());
    let temp = tempfile::tempdir().context("a temporary directory")?;
    let copy = temp.path().join("input");
    crate::copy_tree(&corpus, &copy)?;
    let before = read_tree(&copy)?;

    let sites = safe_sites(&check_json(&halite, &copy)?);
    let fixed = Command::new(&halite)
        .args(["check", "--no-cache", "--fix", "--quiet", "--format", "json"])
        .current_dir(&copy)
        .output()
        .context("running halite check --fix")?;
    ensure!(fixed.status.code().is_some_and(|code| code <= 1), "{}", String::from_utf8_lossy(&fixed.stderr));
    let stderr = String::from_utf8_lossy(&fixed.stderr);
    let refused: Vec<&str> = stderr
        .lines()
        .filter_map(|line| line.strip_prefix("halite: `")?.split_once("` is left as it was").map(|it| it.0))
        .collect();
    let after = read_tree(&copy)?;

    let mut problems = Vec::new();
    // 1. Only what the fixes say.
    let mut changed = Vec::new();
    for (path, old) in &before {
        let new = after.get(path).with_context(|| format!("{path} is gone"))?;
        if old == new {
            continue;
        }
        changed.push(path.as_str());
        let Some(sites) = sites.get(path) else {
            problems.push(format!("{path}: changed, but no safe fix was offered"));
            continue;
        };
        let (old, new) = (String::from_utf8_lossy(old), String::from_utf8_lossy(new));
        if let Some(outside) = change_outside(&old, &new, sites) {
            problems.push(format!("{path}: a change at byte {outside} is not a fix's"));
        }
        // 3. The meaning is unchanged.
        if is_native(path) {
            match compare_meaning(&old, &new, sites) {
                Ok(()) => {}
                Err(problem) => problems.push(format!("{path}: {problem}")),
            }
        }
    }
    // 2. A second check reports none of the fixed diagnostics.
    let left = safe_sites(&check_json(&halite, &copy)?);
    for (path, sites) in &left {
        if !refused.contains(&path.as_str()) {
            problems.push(format!("{path}: {} safe fixes left after --fix", sites.len()));
        }
    }

    let fixes: usize = changed.iter().map(|path| sites.get(*path).map_or(0, Vec::len)).sum();
    println!(
        "fix-check: {} files changed, {fixes} fix edits offered in them, {} refused, {} problems",
        changed.len(),
        refused.len(),
        problems.len()
    );
    for problem in &problems {
        println!("  {problem}");
    }
    ensure!(problems.is_empty(), "--fix changed more than its fixes, or left some");
    Ok(())
}

/// `halite check --format json` in `dir`: one value per diagnostic.
fn check_json(halite: &Path, dir: &Path) -> anyhow::Result<Vec<serde_json::Value>> {
    let output = Command::new(halite)
        .args(["check", "--no-cache", "--quiet", "--format", "json"])
        .current_dir(dir)
        .output()
        .context("running halite check")?;
    ensure!(
        output.status.code().is_some_and(|code| code <= 1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .context("JSON lines are UTF-8")?
        .lines()
        .map(|line| serde_json::from_str(line).context("a JSON line"))
        .collect()
}

/// The byte ranges each file's safe fixes edit, by path.
fn safe_sites(diagnostics: &[serde_json::Value]) -> BTreeMap<String, Vec<Site>> {
    let mut sites: BTreeMap<String, Vec<Site>> = BTreeMap::new();
    for diagnostic in diagnostics {
        let Some(file) = diagnostic["file"].as_str() else { continue };
        let suggestions = diagnostic["suggestions"].as_array().into_iter().flatten();
        for suggestion in suggestions.filter(|it| it["applicability"] == "safe").take(1) {
            for edit in suggestion["edits"].as_array().into_iter().flatten() {
                let byte = |at: &str| edit[at]["byte"].as_u64().map(|byte| byte as usize);
                if let (Some(start), Some(end)) = (byte("start"), byte("end")) {
                    sites.entry(file.trim_start_matches("./").to_owned()).or_default().push((start, end));
                }
            }
        }
    }
    sites
}

/// The byte offset (in `old`) of a difference between `old` and `new` that
/// no site covers, if any.
fn change_outside(old: &str, new: &str, sites: &[Site]) -> Option<usize> {
    let offsets: Vec<usize> = old.char_indices().map(|(at, _)| at).chain([old.len()]).collect();
    let diff = TextDiff::from_chars(old, new);
    for op in diff.ops() {
        let range = match *op {
            DiffOp::Equal { .. } => continue,
            DiffOp::Delete { old_index, old_len, .. } | DiffOp::Replace { old_index, old_len, .. } => {
                (offsets[old_index], offsets[old_index + old_len])
            }
            DiffOp::Insert { old_index, .. } => (offsets[old_index], offsets[old_index]),
        };
        if !sites.iter().any(|&(start, end)| start <= range.0 && range.1 <= end) {
            return Some(range.0);
        }
    }
    None
}

/// Whether the path is a file of the native syntax (not JSON).
fn is_native(path: &str) -> bool {
    vfs::FileKind::of(camino::Utf8Path::new(path)).is_none_or(|kind| kind.syntax == vfs::SourceSyntax::Native)
}

/// The two texts' HIR have the same blocks and attributes, and an
/// attribute whose value means something else holds a fix.
fn compare_meaning(old: &str, new: &str, sites: &[Site]) -> Result<(), String> {
    let (old_parse, new_parse) = (syntax::parse(old), syntax::parse(new));
    if !new_parse.errors().is_empty() {
        return Err("has syntax errors after the fixes".to_owned());
    }
    let (old_hir, old_map) = hir::lower_file(&old_parse);
    let (new_hir, _) = hir::lower_file(&new_parse);
    let old_items = items(&old_hir, Some(&old_map));
    let new_items = items(&new_hir, None);
    if old_items.len() != new_items.len() {
        return Err(format!("{} items before, {} after", old_items.len(), new_items.len()));
    }
    for (before, after) in old_items.iter().zip(&new_items) {
        if before.shape != after.shape {
            return Err(format!("`{}` became `{}`", before.shape, after.shape));
        }
        if before.value != after.value {
            let (start, end) = before.range;
            if !sites.iter().any(|&(site_start, site_end)| start <= site_start && site_end <= end) {
                return Err(format!("`{}` changed its value where no fix is", before.shape));
            }
        }
    }
    Ok(())
}

/// A block or an attribute, in order: its depth and name (with a block's
/// labels), an attribute's value, and where it is.
struct Item {
    shape: String,
    value: String,
    range: (usize, usize),
}

fn items(hir: &FileHir, map: Option<&SourceMap>) -> Vec<Item> {
    let ids: Vec<ExprId> = hir.exprs.iter().map(|(id, _)| id).collect();
    let mut out = Vec::new();
    let mut bodies = vec![(&hir.body, 0usize)];
    while let Some((body, depth)) = bodies.pop() {
        for &id in &body.attributes {
            let attribute = &hir.attributes[id];
            let range = map.and_then(|map| map.attribute_syntax(id)).map_or((0, 0), |ptr| {
                let range = ptr.text_range();
                (usize::from(range.start()), usize::from(range.end()))
            });
            out.push(Item {
                shape: format!("{depth} {}", attribute.name),
                value: meaning(hir, &ids, attribute.value),
                range,
            });
        }
        for &id in body.blocks.iter().rev() {
            let block = &hir.blocks[id];
            out.push(Item {
                shape: format!("{depth} {} {:?}", block.type_name, block.labels),
                value: String::new(),
                range: (0, 0),
            });
            bodies.push((&block.body, depth + 1));
        }
    }
    out
}

/// An expression as text, a template of one interpolation taken for its
/// expression (evaluation yields the inner value unchanged).
fn meaning(hir: &FileHir, ids: &[ExprId], id: ExprId) -> String {
    if let Expr::Template { kind: TemplateKind::Quoted, parts } = &hir[id]
        && let [TemplatePart::Interpolation { expr, .. }] = parts.as_slice()
    {
        return meaning(hir, ids, *expr);
    }
    let debug = format!("{:?}", hir[id]);
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug.as_str();
    while let Some(at) = rest.find("Idx::<Expr>(") {
        out.push_str(&rest[..at]);
        rest = &rest[at + "Idx::<Expr>(".len()..];
        let Some(end) = rest.find(')') else { break };
        match rest[..end].parse::<usize>() {
            Ok(raw) if raw < ids.len() => out.push_str(&meaning(hir, ids, ids[raw])),
            _ => out.push_str(&rest[..end]),
        }
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// Every file under `dir`, by `/`-separated path relative to it.
fn read_tree(dir: &Path) -> anyhow::Result<BTreeMap<String, Vec<u8>>> {
    let mut out = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() {
                let path = entry.path();
                let relative = path.strip_prefix(dir)?.to_string_lossy().replace('\\', "/");
                out.insert(relative, std::fs::read(&path)?);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_outside_every_fix_is_found() {
        let old = "a = \"${b}\"\nc = d.0\n";
        let new = "a = b\nc = d[0]\n";
        // The two fixes' edits: the template, and `.0`.
        assert_eq!(change_outside(old, new, &[(4, 10), (16, 18)]), None);
        assert_eq!(change_outside(old, new, &[(4, 10)]), Some(16));
        assert_eq!(change_outside(old, "a = \"${b}\"\nc = e.0\n", &[(4, 10), (16, 18)]), Some(15));
    }

    #[test]
    fn a_value_changed_where_no_fix_is_a_problem() {
        let old = "a = \"${b}\"\nc = d.0\n";
        // Unwrapping the template keeps its meaning; `.0` to `[0]` changes
        // the HIR, at its fix.
        assert_eq!(compare_meaning(old, "a = b\nc = d[0]\n", &[(16, 18)]), Ok(()));
        assert!(compare_meaning(old, "a = b\nc = d[0]\n", &[]).is_err());
        assert!(compare_meaning(old, "a = b\nc = d.1\n", &[(4, 10)]).is_err());
        assert!(compare_meaning(old, "a = b\n", &[(4, 10)]).is_err());
    }
}
