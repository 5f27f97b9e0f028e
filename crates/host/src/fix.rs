//! Fixing many files at once: `halite check --fix`.
//!
//! [`fix_paths`] checks the files as [`check`](crate::check) does, applies
//! to each file's text the fixes of its diagnostics that the mode allows
//! (`analysis::apply_fixes`: one fix per diagnostic, overlapping ones left
//! for later), and checks again with the fixed texts in place of the files,
//! until a pass applies nothing or [`MAX_FIX_PASSES`] have run. A fix is
//! only ever applied to a file without syntax errors, and a file whose
//! fixes would give it syntax errors is left as it was. Nothing is written:
//! the caller gets each file's text before and after, and writes (or shows)
//! them.

use analysis::{FixMode, syntax_diagnostics};
use camino::{Utf8Path, Utf8PathBuf};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::{
    Limits,
    check::{CheckError, Replaced, check_paths_replacing},
};

/// How many times the files are checked and fixed at most. A fix inside
/// another's range waits for the next pass; nested forms are rarely more
/// than a few deep, and a bound keeps two fixes that undo each other from
/// running forever.
pub const MAX_FIX_PASSES: usize = 8;

/// One file the fixes changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileFix {
    pub path: Utf8PathBuf,
    /// The text the fixes were applied to, as read.
    pub before: String,
    /// The text with every fix applied.
    pub after: String,
    /// The code of each diagnostic whose fix was applied, over all passes.
    pub codes: Vec<&'static str>,
}

/// What [`fix_paths`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fixes {
    /// The files changed, in path order.
    pub files: Vec<FileFix>,
    /// The files whose fixes would have given them syntax errors, left as
    /// they were.
    pub refused: Vec<Utf8PathBuf>,
    /// The files with syntax errors of their own, never fixed (a tree
    /// that does not parse is a guess), in path order.
    pub with_syntax_errors: Vec<Utf8PathBuf>,
    /// How many passes ran.
    pub passes: usize,
}

/// What a pass made of one file.
enum PassResult {
    /// Fixed: the text it had, and the fixes.
    Fixed(String, analysis::Fixed),
    /// The fixes of an earlier pass gave it syntax errors.
    Broken,
    /// It has syntax errors as it is on disk.
    SyntaxErrors,
}

/// Checks `paths` (sorted, each once) and applies the fixes `mode` allows
/// until none applies (see the module's documentation). A file that cannot
/// be read is left alone; the check that follows reports it.
/// With `selected` (a shard's files, as [`check_selected_paths`](crate::check::check_selected_paths)
/// takes them), only those files are fixed.
pub fn fix_paths(
    paths: &[Utf8PathBuf],
    selected: Option<&[bool]>,
    limits: Limits,
    mode: FixMode,
) -> Result<Fixes, CheckError> {
    fix_replacing(paths, Replaced::default(), selected, limits, mode)
}

/// [`fix_paths`] of one file given as `bytes` (standard input, named
/// `name`: its dialect is `name`'s, and its module's other files on disk
/// are read with it, so that a did-you-mean sees what they declare),
/// never read from disk nor written.
pub fn fix_contents(
    name: &Utf8Path,
    bytes: Vec<u8>,
    limits: Limits,
    mode: FixMode,
) -> Result<Fixes, CheckError> {
    let mut paths: Vec<Utf8PathBuf> =
        crate::check::module_files_beside(name).into_iter().filter(|path| path != name).collect();
    paths.push(name.to_owned());
    vfs::sort_paths(&mut paths);
    let selected: Vec<bool> = paths.iter().map(|path| path == name).collect();
    let replaced = Replaced::from_iter([(name.to_owned(), bytes)]);
    fix_replacing(&paths, replaced, Some(&selected), limits, mode)
}

/// [`fix_paths`], the files of `replaced` read from there rather than from
/// disk.
fn fix_replacing(
    paths: &[Utf8PathBuf],
    mut replaced: Replaced,
    selected: Option<&[bool]>,
    limits: Limits,
    mode: FixMode,
) -> Result<Fixes, CheckError> {
    let mut fixes: FxHashMap<usize, FileFix> = FxHashMap::default();
    let mut refused: FxHashSet<usize> = FxHashSet::default();
    let mut with_syntax_errors: Vec<Utf8PathBuf> = Vec::new();
    let mut passes = 0;
    // After the first pass, only the files the last pass changed can have
    // new fixes: the fixes kept every other file as it was, and a fix
    // changes no declaration another file's diagnostics could read.
    let mut to_check: Option<Vec<bool>> = selected.map(<[bool]>::to_vec);
    while passes < MAX_FIX_PASSES {
        passes += 1;
        let refused_now = &refused;
        let fixed_before = &fixes;
        let results = check_paths_replacing(
            paths,
            &replaced,
            to_check.as_deref(),
            None,
            None,
            limits,
            |db, index, outcome| {
                let diagnostics = outcome.ok()?;
                let file = diagnostics.first()?.diagnostic.file;
                if refused_now.contains(&index) {
                    return None;
                }
                if !syntax_diagnostics(db, file).is_empty() {
                    let result = if fixed_before.contains_key(&index) {
                        PassResult::Broken
                    } else {
                        PassResult::SyntaxErrors
                    };
                    return Some((index, result));
                }
                let text = file.text(db);
                let fixed = analysis::apply_fixes(text, diagnostics.iter().map(|it| &it.diagnostic), mode)?;
                Some((index, PassResult::Fixed(text.to_string(), fixed)))
            },
            |_| {},
        )?;
        let mut changed = vec![false; paths.len()];
        for (index, result) in results.reports.into_iter().flatten() {
            let path = &paths[index];
            match result {
                PassResult::Fixed(before, fixed) => {
                    let fix = fixes.entry(index).or_insert_with(|| FileFix {
                        path: path.clone(),
                        before,
                        after: String::new(),
                        codes: Vec::new(),
                    });
                    fix.codes.extend(fixed.codes);
                    fix.after.clone_from(&fixed.text);
                    replaced.insert(path.clone(), fixed.text.into_bytes());
                }
                PassResult::Broken => {
                    fixes.remove(&index);
                    replaced.remove(path);
                    refused.insert(index);
                }
                PassResult::SyntaxErrors => {
                    with_syntax_errors.push(path.clone());
                    continue;
                }
            }
            changed[index] = true;
        }
        if !changed.contains(&true) {
            break;
        }
        to_check = Some(changed);
    }
    // The last pass's fixes were not checked again when the passes ran out:
    // a file they broke is left as it was, as one found broken would be.
    let (mut files, broken): (Vec<FileFix>, Vec<FileFix>) = fixes
        .into_values()
        .filter(|fix| fix.before != fix.after)
        .partition(|fix| syntax::parse(&fix.after).errors().is_empty());
    refused.extend(broken.iter().filter_map(|fix| paths.iter().position(|path| *path == fix.path)));
    files.sort_by(|a, b| vfs::path_order(&a.path, &b.path));
    let mut refused: Vec<Utf8PathBuf> = refused.into_iter().map(|index| paths[index].clone()).collect();
    refused.sort_by(|a, b| vfs::path_order(a, b));
    with_syntax_errors.sort_by(|a, b| vfs::path_order(a, b));
    Ok(Fixes { files, refused, with_syntax_errors, passes })
}
