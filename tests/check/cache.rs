//! The result cache (`--cache-dir`, `--no-cache`): a warm run prints what
//! a run without the cache prints, byte for byte, in every format; what a
//! unit reads beyond its own files (a called module), a variables file and
//! `halite.toml` invalidate it; a corrupt entry is ignored and rewritten;
//! two runs at once both succeed. The file index (what `stat` said of each
//! file hashed) trusts no file rewritten with its size and modification
//! time kept, nor one replaced by a rename, and a corrupt index is ignored.
//!
//! Which units a run checked again is seen in the cache's pack: a checked
//! unit's entry is stored anew (with the time it was stored), a unit
//! reported from its entry leaves it as it was.

use std::{
    collections::BTreeMap,
    os::unix::fs::MetadataExt,
    path::{Path, PathBuf},
    process::Output,
};

use super::support;

/// A root module calling a local child with an argument the child
/// declares, a variables file, and a lint in each.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let files = [
        (
            "main.tf",
            "module \"net\" {\n  source = \"./modules/net\"\n  name   = \"${var.region}\"\n}\n\nvariable \"region\" {\n  type = string\n}\n",
        ),
        ("terraform.tfvars", "region = \"eu\"\n"),
        (
            "modules/net/variables.tf",
            "variable \"name\" {\n  type = string\n}\n\nlocals {\n  upper = upper(var.name)\n}\n",
        ),
        ("modules/net/outputs.tf", "output \"upper\" {\n  value = local.upper\n}\n"),
    ];
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
        std::fs::write(path, text).expect("a file");
    }
    dir
}

fn run(dir: &Path, args: &[&str]) -> Output {
    support::halite_command().arg("check").args(args).current_dir(dir).output().expect("halite check runs")
}

/// Standard output, standard error and the exit code, as one text.
fn shown(output: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The run with the cache in `cache`, checked against the run without.
fn cached_run(dir: &Path, cache: &Path, args: &[&str]) -> String {
    let cache_args = ["--cache-dir", cache.to_str().expect("a UTF-8 path")];
    let cached = run(dir, &[&cache_args[..], args].concat());
    let uncached = run(dir, &[&["--no-cache"][..], args].concat());
    assert_eq!(cached.stdout, uncached.stdout, "{}\n{}", shown(&cached), shown(&uncached));
    assert_eq!(shown(&cached), shown(&uncached));
    shown(&cached)
}

/// The cache's file index.
const FILE_INDEX: &str = "files-v2";

/// The paths of the cache's packs of entries, where there are: the main
/// one (`check-v6-BUILD.pack`), and the recent one (`check-v6-BUILD-
/// recent.pack`, those stored since the main one was written), which a
/// lookup tries first. One build runs here.
fn packs(cache: &Path) -> (Option<PathBuf>, Option<PathBuf>) {
    let (mut main, mut recent) = (None, None);
    for item in std::fs::read_dir(cache).into_iter().flatten() {
        let path = item.expect("an item").path();
        let name = path.file_name().expect("a name").to_string_lossy().into_owned();
        if name.starts_with("check-v6-") && name.ends_with("-recent.pack") {
            assert!(recent.replace(path).is_none(), "one build's");
        } else if name.starts_with("check-v6-") && name.ends_with(".pack") {
            assert!(main.replace(path).is_none(), "one build's");
        }
    }
    (main, recent)
}

/// The size of an entry's key (see `crates/host/src/cache.rs`).
const KEY_SIZE: usize = 16;

/// Each row of a pack's table: the key, where its entry lies in the
/// pack's bytes, and the time of its last use (see
/// `crates/host/src/cache/pack.rs`).
fn pack_rows(pack: &[u8]) -> Vec<([u8; KEY_SIZE], std::ops::Range<usize>, u64)> {
    let u64_at = |at: usize| u64::from_le_bytes(pack[at..at + 8].try_into().expect("8 bytes"));
    assert_eq!(&pack[..8], b"HALITE\x00P", "a pack");
    let count = u32::from_le_bytes(pack[12..16].try_into().expect("4 bytes")) as usize;
    (0..count)
        .map(|row| {
            let at = 16 + row * (KEY_SIZE + 8 + 8 + 8);
            let key = pack[at..at + KEY_SIZE].try_into().expect("a key");
            let start = u64_at(at + KEY_SIZE) as usize;
            (key, start..start + u64_at(at + KEY_SIZE + 8) as usize, u64_at(at + KEY_SIZE + 16))
        })
        .collect()
}

/// Each entry of the cache by key, with what it holds and when it was
/// last stored: a run that checks a unit stores its entry anew, and a run
/// that reports a unit from its entry leaves it as it was.
fn entries(cache: &Path) -> BTreeMap<[u8; KEY_SIZE], (Vec<u8>, u64)> {
    let mut entries = BTreeMap::new();
    let (main, recent) = packs(cache);
    for path in [main, recent].into_iter().flatten() {
        let pack = std::fs::read(path).expect("a pack");
        entries.extend(
            pack_rows(&pack).into_iter().map(|(key, range, used)| (key, (pack[range].to_vec(), used))),
        );
    }
    entries
}

/// How many entries a run wrote (new, or stored again) since `before`.
fn written_since(before: &BTreeMap<[u8; KEY_SIZE], (Vec<u8>, u64)>, cache: &Path) -> usize {
    entries(cache).iter().filter(|(key, entry)| before.get(*key) != Some(entry)).count()
}

fn cache_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cache = dir.path().join("cache");
    (dir, cache)
}

#[test]
fn a_warm_run_prints_what_a_cold_run_prints_in_every_format() {
    let dir = tree();
    std::fs::write(dir.path().join("broken.hcl"), "a = = 1\n").expect("a file");
    let (_keep, cache) = cache_dir();
    let formats = ["human", "concise", "json", "sarif", "github", "gitlab", "checkstyle", "junit"];
    for format in formats {
        cached_run(dir.path(), &cache, &["--format", format, "--color", "always"]);
    }
    let written = entries(&cache);
    assert_eq!(
        written.len(),
        3,
        "a module each (the broken file joins the root's) and the variables file: {written:?}"
    );
    for format in formats {
        let cold = run(dir.path(), &["--no-cache", "--format", format, "--color", "always"]);
        let warm = run(
            dir.path(),
            &["--cache-dir", cache.to_str().expect("UTF-8"), "--format", format, "--color", "always"],
        );
        assert_eq!(shown(&warm), shown(&cold), "{format}");
    }
    let statistics = cached_run(dir.path(), &cache, &["--statistics"]);
    assert!(statistics.contains("interpolation-only"), "{statistics}");
    assert_eq!(written_since(&written, &cache), 0, "every unit was reported from its entry");
}

#[test]
fn an_edit_in_a_called_module_invalidates_its_caller() {
    let dir = tree();
    let (_keep, cache) = cache_dir();
    let before = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(!before.contains("error["), "{before}");
    let written = entries(&cache);

    // The child's variable renamed: the caller's argument is now wrong,
    // though the caller's own files did not change.
    let variables = dir.path().join("modules/net/variables.tf");
    let text = std::fs::read_to_string(&variables).expect("the file");
    std::fs::write(&variables, text.replace("\"name\"", "\"title\"").replace("var.name", "var.title"))
        .expect("the edit");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(after.contains("main.tf:3:3: error[unsupported-module-argument]"), "{after}");
    // The child (a new key) and its caller (its entry's record of the
    // child no longer holds) are checked again; the variables file is not.
    assert_eq!(written_since(&written, &cache), 2);

    // A file added to the child's directory is read by the caller too.
    let written = entries(&cache);
    std::fs::write(dir.path().join("modules/net/name.tf"), "variable \"name\" {\n  type = string\n}\n")
        .expect("a new file");
    let again = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(!again.contains("unsupported-module-argument"), "{again}");
    assert_eq!(written_since(&written, &cache), 2);
}

/// A check of one directory reads the local module its module calls
/// though that module is outside the paths checked (as `eval` and a
/// check of the whole tree do), and its entry depends on that module's
/// files as read from disk: a Terragrunt unit on the module it deploys
/// likewise.
#[test]
fn a_called_module_outside_the_paths_checked_is_read_and_invalidates() {
    let dir = tree();
    let live = dir.path().join("live/app");
    std::fs::create_dir_all(&live).expect("a directory");
    std::fs::write(
        live.join("terragrunt.hcl"),
        "terraform {\n  source = \"../../modules/net\"\n}\n\ninputs = {\n  name = \"app\"\n}\n",
    )
    .expect("a unit");
    let (_keep, cache) = cache_dir();
    // The root module alone, as a file and as its directory's only
    // file: the child under `modules/net` is none of the paths checked.
    for args in [&["--format", "concise", "main.tf"][..], &["--format", "concise", "live/app"]] {
        let before = cached_run(dir.path(), &cache, args);
        assert!(before.contains("exit Some(0)"), "{before}");
    }
    let written = entries(&cache);
    let again = cached_run(dir.path(), &cache, &["--format", "concise", "main.tf"]);
    assert!(again.contains("exit Some(0)"), "{again}");
    assert_eq!(written_since(&written, &cache), 0, "reported from its entry");

    let variables = dir.path().join("modules/net/variables.tf");
    let text = std::fs::read_to_string(&variables).expect("the file");
    std::fs::write(&variables, text.replace("\"name\"", "\"title\"").replace("var.name", "var.title"))
        .expect("the edit");
    let after = cached_run(dir.path(), &cache, &["--format", "concise", "main.tf"]);
    assert!(after.contains("main.tf:3:3: error[unsupported-module-argument]"), "{after}");
    assert!(after.contains("main.tf:1:1: error[missing-module-argument]"), "{after}");
    let unit = cached_run(dir.path(), &cache, &["--format", "concise", "live/app"]);
    assert!(unit.contains("live/app/terragrunt.hcl:6:3: warning[unused-input]"), "{unit}");
}

#[test]
fn an_edit_in_a_variables_file_invalidates_it() {
    let dir = tree();
    let (_keep, cache) = cache_dir();
    cached_run(dir.path(), &cache, &["--format", "json"]);
    let written = entries(&cache);
    std::fs::write(dir.path().join("terraform.tfvars"), "region = = \"eu\"\n").expect("the edit");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(after.contains("terraform.tfvars:1:10: error["), "{after}");
    assert_eq!(written_since(&written, &cache), 1, "only the variables file was checked again");
}

#[test]
fn a_configuration_change_invalidates() {
    let dir = tree();
    let (_keep, cache) = cache_dir();
    let before = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(before.contains("warning[interpolation-only]"), "{before}");
    let written = entries(&cache);
    std::fs::write(dir.path().join("halite.toml"), "[rules]\ninterpolation-only = \"error\"\n")
        .expect("a configuration");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(after.contains("error[interpolation-only]"), "{after}");
    // It covers every file below it, so every unit is checked again.
    assert_eq!(written_since(&written, &cache), 3);
    // Back as it was: the first entries hold again.
    std::fs::remove_file(dir.path().join("halite.toml")).expect("removed");
    let written = entries(&cache);
    assert_eq!(cached_run(dir.path(), &cache, &["--format", "concise"]), before);
    assert_eq!(written_since(&written, &cache), 0);
}

#[test]
fn a_corrupt_or_foreign_entry_is_ignored_and_rewritten() {
    let dir = tree();
    let (_keep, cache) = cache_dir();
    let expected = cached_run(dir.path(), &cache, &["--format", "json"]);
    assert_eq!(entries(&cache).len(), 3);
    // The pack, spoilt each way in turn, is only entries missed.
    let pack = packs(&cache).0.expect("the main pack");
    let packed = std::fs::read(&pack).expect("the pack");
    let spoil: [&dyn Fn(Vec<u8>) -> Vec<u8>; 3] = [
        // Cut short.
        &|bytes| bytes[..bytes.len() / 2].to_vec(),
        // One byte of the last entry's payload changed: its checksum no longer
        // matches.
        &|mut bytes| {
            let last = bytes.len() - 1;
            bytes[last] ^= 0x55;
            bytes
        },
        // Another program's file.
        &|_| b"not a cache pack".to_vec(),
    ];
    for spoil in spoil {
        std::fs::write(&pack, spoil(packed.clone())).expect("spoilt");
        assert_eq!(cached_run(dir.path(), &cache, &["--format", "json"]), expected);
    }
    // Each entry spoilt in the pack, another way each: its magic, the key
    // it says it is for, a byte of its payload.
    assert!(packs(&cache).1.is_none(), "a run that stored every entry wrote the main pack");
    let mut spoilt = std::fs::read(&pack).expect("the pack");
    let rows = pack_rows(&spoilt);
    assert_eq!(rows.len(), 3);
    for ((_, range, _), at) in rows.iter().zip([0, 12, 8 + 4 + KEY_SIZE + 8]) {
        spoilt[range.start + at] ^= 0x55;
    }
    std::fs::write(&pack, &spoilt).expect("spoilt");
    let written = entries(&cache);
    assert_eq!(cached_run(dir.path(), &cache, &["--format", "json"]), expected);
    assert_eq!(written_since(&written, &cache), 3, "each spoilt entry was written again");
    let written = entries(&cache);
    cached_run(dir.path(), &cache, &["--format", "json"]);
    assert_eq!(written_since(&written, &cache), 0, "and then trusted");
}

#[test]
fn two_runs_at_once_both_succeed() {
    let dir = tree();
    let expected = run(dir.path(), &["--no-cache", "--format", "json"]);
    for _ in 0..3 {
        let (_keep, cache) = cache_dir();
        let cache = cache.to_str().expect("UTF-8").to_owned();
        let spawn = || {
            support::halite_command()
                .args(["check", "--cache-dir", &cache, "--format", "json"])
                .current_dir(dir.path())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("halite check starts")
        };
        let (first, second) = (spawn(), spawn());
        for child in [first, second] {
            let output = child.wait_with_output().expect("halite check finishes");
            assert_eq!(shown(&output), shown(&expected));
        }
        let warm = run(dir.path(), &["--cache-dir", &cache, "--format", "json"]);
        assert_eq!(shown(&warm), shown(&expected));
    }
}

#[test]
fn no_cache_writes_nothing_and_an_unusable_cache_is_said_once() {
    let dir = tree();
    let (keep, cache) = cache_dir();
    run(dir.path(), &["--no-cache"]);
    assert!(!cache.exists());
    // A file where the directory would be: the run goes on without it.
    let blocked = keep.path().join("blocked");
    std::fs::write(&blocked, "").expect("a file");
    let output = run(dir.path(), &["--cache-dir", blocked.to_str().expect("UTF-8"), "--format", "concise"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("halite: warning: cannot use the cache in `"), "{stderr}");
    assert_eq!(output.stdout, run(dir.path(), &["--no-cache", "--format", "concise"]).stdout);
}

/// `text` in place of the file at `path`, of the same size and with the
/// modification time the file had: only the change time and the bytes
/// tell the two apart.
fn rewrite_keeping_size_and_time(path: &Path, text: &str) {
    let before = std::fs::metadata(path).expect("the file");
    assert_eq!(before.len(), text.len() as u64, "the same size: {text:?}");
    std::fs::write(path, text).expect("rewritten");
    let file = std::fs::File::options().append(true).open(path).expect("opened");
    file.set_times(
        std::fs::FileTimes::new()
            .set_modified(before.modified().expect("a modification time"))
            .set_accessed(before.accessed().expect("an access time")),
    )
    .expect("dated back");
    let after = std::fs::metadata(path).expect("the file");
    assert_eq!(
        (after.len(), after.mtime(), after.mtime_nsec()),
        (before.len(), before.mtime(), before.mtime_nsec())
    );
    assert_eq!(after.ino(), before.ino());
}

/// The variables file with a syntax error, as long as the one `tree`
/// writes.
const BROKEN_VARIABLES: &str = "region = = 1 \n";

#[test]
fn a_rewrite_of_the_same_size_and_time_is_seen() {
    let dir = tree();
    let (_keep, cache) = cache_dir();
    let variables = dir.path().join("terraform.tfvars");
    // At once, within a second of the file's writing (its entry is racy)
    // and after it.
    let before = cached_run(dir.path(), &cache, &["--format", "concise"]);
    rewrite_keeping_size_and_time(&variables, BROKEN_VARIABLES);
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(after.contains("terraform.tfvars:1:10: error["), "{after}");

    // Older than the racy margin: the entry is trusted by its stamp.
    rewrite_keeping_size_and_time(&variables, "region = \"eu\"\n");
    std::thread::sleep(std::time::Duration::from_millis(1100));
    assert_eq!(cached_run(dir.path(), &cache, &["--format", "concise"]), before);
    let index = std::fs::metadata(cache.join(FILE_INDEX)).expect("the file index").ino();
    assert_eq!(cached_run(dir.path(), &cache, &["--format", "concise"]), before);
    assert_eq!(
        std::fs::metadata(cache.join(FILE_INDEX)).expect("the file index").ino(),
        index,
        "a run that hashed no file leaves the index as it was"
    );
    rewrite_keeping_size_and_time(&variables, BROKEN_VARIABLES);
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(after.contains("terraform.tfvars:1:10: error["), "{after}");
}

#[test]
fn a_file_replaced_by_a_rename_is_seen() {
    let dir = tree();
    let (_keep, cache) = cache_dir();
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let before = cached_run(dir.path(), &cache, &["--format", "json"]);
    let variables = dir.path().join("terraform.tfvars");
    let old = std::fs::metadata(&variables).expect("the file");
    let replacement = dir.path().join("terraform.tfvars.new");
    std::fs::write(&replacement, BROKEN_VARIABLES).expect("written");
    std::fs::File::options()
        .append(true)
        .open(&replacement)
        .expect("opened")
        .set_modified(old.modified().expect("a modification time"))
        .expect("dated");
    std::fs::rename(&replacement, &variables).expect("renamed over");
    let after = cached_run(dir.path(), &cache, &["--format", "json"]);
    assert_ne!(after, before);
    assert!(after.contains("terraform.tfvars"), "{after}");
}

#[test]
fn a_corrupt_file_index_is_ignored_and_rewritten() {
    let dir = tree();
    let (_keep, cache) = cache_dir();
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let expected = cached_run(dir.path(), &cache, &["--format", "json"]);
    let index = cache.join(FILE_INDEX);
    let bytes = std::fs::read(&index).expect("the file index");
    let spoilt: [Vec<u8>; 3] = [
        bytes[..bytes.len() / 2].to_vec(),
        {
            let mut changed = bytes.clone();
            changed[bytes.len() / 2] ^= 0x55;
            changed
        },
        b"not a file index".to_vec(),
    ];
    for spoilt in spoilt {
        std::fs::write(&index, spoilt).expect("spoilt");
        // A file changed meanwhile is seen all the same.
        rewrite_keeping_size_and_time(&dir.path().join("terraform.tfvars"), BROKEN_VARIABLES);
        let broken = cached_run(dir.path(), &cache, &["--format", "json"]);
        assert!(broken.contains("terraform.tfvars"), "{broken}");
        rewrite_keeping_size_and_time(&dir.path().join("terraform.tfvars"), "region = \"eu\"\n");
        assert_eq!(cached_run(dir.path(), &cache, &["--format", "json"]), expected);
        assert_ne!(std::fs::read(&index).expect("the file index"), b"not a file index", "written again");
    }
}

#[test]
fn an_edit_in_a_called_module_that_keeps_its_interface_keeps_its_callers_results() {
    let dir = tree();
    let (_keep, cache) = cache_dir();
    let before = cached_run(dir.path(), &cache, &["--format", "concise"]);
    let variables = dir.path().join("modules/net/variables.tf");
    let text = std::fs::read_to_string(&variables).expect("the file");

    // Its variables as they were: the caller's entry holds, and is
    // written again with the child's files as they are now.
    std::fs::write(&variables, text.replace("upper(var.name)", "lower(var.name)")).expect("the edit");
    let written = entries(&cache);
    assert_eq!(cached_run(dir.path(), &cache, &["--format", "concise"]), before);
    assert_eq!(written_since(&written, &cache), 2, "the child checked, the caller's record of it renewed");
    let written = entries(&cache);
    assert_eq!(cached_run(dir.path(), &cache, &["--format", "concise"]), before);
    assert_eq!(written_since(&written, &cache), 0, "the renewed record holds by the child's files");

    // A variable more, that the caller does not set: what the child
    // declares changed, and the caller is checked again.
    std::fs::write(&variables, format!("{text}\nvariable \"zone\" {{\n  type = string\n}}\n"))
        .expect("the edit");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(after.contains("error[missing-module-argument]"), "{after}");
    // Its type changed, the caller's argument the same: what the child
    // declares changed again.
    std::fs::write(
        &variables,
        format!("{text}\nvariable \"zone\" {{\n  type    = number\n  default = 1\n}}\n"),
    )
    .expect("the edit");
    let written = entries(&cache);
    let again = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(!again.contains("missing-module-argument"), "{again}");
    assert_eq!(written_since(&written, &cache), 2);
}

#[test]
fn an_edit_in_a_module_and_in_its_caller_at_once_is_seen() {
    let dir = tree();
    let (_keep, cache) = cache_dir();
    cached_run(dir.path(), &cache, &["--format", "concise"]);
    let variables = dir.path().join("modules/net/variables.tf");
    let text = std::fs::read_to_string(&variables).expect("the file");
    std::fs::write(&variables, text.replace("\"name\"", "\"title\"").replace("var.name", "var.title"))
        .expect("the edit");
    let main = dir.path().join("main.tf");
    let caller = std::fs::read_to_string(&main).expect("the file");
    std::fs::write(&main, caller.replace("name   =", "title  =")).expect("the edit");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(!after.contains("module-argument"), "{after}");
}

#[test]
fn files_added_removed_and_renamed_and_a_nested_configuration_are_seen() {
    let dir = tree();
    let (_keep, cache) = cache_dir();
    let before = cached_run(dir.path(), &cache, &["--format", "concise"]);
    let lint = "locals {\n  b = \"${var.region}\"\n}\n";

    // Added to a directory that has files.
    let added = dir.path().join("modules/net/extra.tf");
    std::fs::write(&added, lint).expect("a new file");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(after.contains("modules/net/extra.tf:2:7: warning[interpolation-only]"), "{after}");
    // Renamed.
    let renamed = dir.path().join("modules/net/renamed.tf");
    std::fs::rename(&added, &renamed).expect("renamed");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(!after.contains("extra.tf"), "{after}");
    assert!(after.contains("modules/net/renamed.tf:2:7: warning[interpolation-only]"), "{after}");
    // Moved to a new directory.
    let moved = dir.path().join("modules/new/main.tf");
    std::fs::create_dir_all(moved.parent().expect("a parent")).expect("a directory");
    std::fs::rename(&renamed, &moved).expect("moved");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(after.contains("modules/new/main.tf:2:7: warning[interpolation-only]"), "{after}");
    // Removed.
    std::fs::remove_file(&moved).expect("removed");
    assert_eq!(cached_run(dir.path(), &cache, &["--format", "concise"]), before);

    // A configuration added in a subdirectory covers it and what is below.
    std::fs::write(dir.path().join("modules/net/lint.tf"), "locals {\n  c = \"${var.name}\"\n}\n")
        .expect("a file");
    let with_lint = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(with_lint.contains("modules/net/lint.tf:2:7: warning[interpolation-only]"), "{with_lint}");
    std::fs::write(dir.path().join("modules/halite.toml"), "[rules]\ninterpolation-only = \"error\"\n")
        .expect("a configuration");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(after.contains("modules/net/lint.tf:2:7: error[interpolation-only]"), "{after}");
    assert!(after.contains("main.tf:3:12: warning[interpolation-only]"), "the root is not under it: {after}");
    // Within a repository below it, it does not apply.
    std::fs::create_dir(dir.path().join("modules/net/.git")).expect("a repository");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert_eq!(after, with_lint);
    std::fs::remove_dir(dir.path().join("modules/net/.git")).expect("removed");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(after.contains("modules/net/lint.tf:2:7: error[interpolation-only]"), "{after}");
    std::fs::remove_file(dir.path().join("modules/halite.toml")).expect("removed");
    assert_eq!(cached_run(dir.path(), &cache, &["--format", "concise"]), with_lint);
}

/// A Terragrunt unit's result depends on the file it includes, read from
/// above the checked directory: an edit of that file, or a nearer file of
/// the name `find_in_parent_folders` looks for, checks the unit again.
#[test]
fn an_edit_of_an_included_file_invalidates_the_unit() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let root = "dependency \"vpc\" {\n  config_path = \"../vpc\"\n}\n";
    let unit = "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n\nlocals {\n  vpc = dependency.vpc.outputs.id\n}\n";
    std::fs::create_dir_all(dir.path().join("live/app")).expect("a directory");
    std::fs::create_dir_all(dir.path().join("live/vpc")).expect("a directory");
    std::fs::write(dir.path().join("root.hcl"), root).expect("a file");
    std::fs::write(dir.path().join("live/app/terragrunt.hcl"), unit).expect("a file");
    // The unit the dependency names (from the including unit's directory).
    std::fs::write(dir.path().join("live/vpc/terragrunt.hcl"), "inputs = {}\n").expect("a file");
    let (_keep, cache) = cache_dir();
    let before = cached_run(dir.path(), &cache, &["--format", "concise", "live"]);
    assert!(!before.contains("error["), "{before}");

    // The included file, outside the checked directory, no longer
    // declares the dependency.
    std::fs::write(dir.path().join("root.hcl"), root.replace("vpc", "net")).expect("the edit");
    let after = cached_run(dir.path(), &cache, &["--format", "concise", "live"]);
    assert!(after.contains("error[undeclared-reference]"), "{after}");

    // A nearer `root.hcl` is the one found now.
    std::fs::write(dir.path().join("live/root.hcl"), root).expect("a nearer file");
    let nearer = cached_run(dir.path(), &cache, &["--format", "concise", "live/app"]);
    assert!(!nearer.contains("error["), "{nearer}");
}

/// A Terragrunt unit, a module of its own though its directory is one
/// unit of the run, depends on the module it deploys: renaming that
/// module's variable checks the unit again (its entry recorded no
/// module before).
#[test]
fn an_edit_in_the_module_a_terragrunt_unit_deploys_invalidates_the_unit() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let files = [
        (
            "live/app/terragrunt.hcl",
            "terraform {\n  source = \"../../modules/app\"\n}\n\ninputs = {\n  name = \"app\"\n}\n",
        ),
        (
            "modules/app/main.tf",
            "variable \"name\" {\n  type = string\n}\n\noutput \"name\" {\n  value = var.name\n}\n",
        ),
    ];
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
        std::fs::write(path, text).expect("a file");
    }
    let (_keep, cache) = cache_dir();
    let before = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(!before.contains("unused-input"), "{before}");
    let main = dir.path().join("modules/app/main.tf");
    std::fs::write(&main, files[1].1.replace("name", "title")).expect("the edit");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(after.contains("warning[unused-input]"), "{after}");
}

/// The cache's records of directory walks, by name, with their inodes: a
/// record rewritten is a new file renamed into place.
fn walk_records(cache: &Path) -> BTreeMap<String, u64> {
    let Ok(dir) = std::fs::read_dir(cache.join("walks-v3")) else { return BTreeMap::new() };
    dir.map(|entry| entry.expect("an entry"))
        .map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, entry.metadata().expect("metadata").ino())
        })
        .collect()
}

/// Waits out the racy margin, so that what was written before is trusted
/// by its stamps (the file index's and the walk record's).
fn settle() {
    std::thread::sleep(std::time::Duration::from_millis(1100));
}

/// A warm run over a tree whose directories are as they were reads the
/// walk's record rather than listing them; a file added to a recorded
/// directory, a directory added, and a file removed are each seen.
#[test]
fn a_recorded_walk_holds_until_a_directory_changes() {
    let dir = tree();
    let (_keep, cache) = cache_dir();
    settle();
    let before = cached_run(dir.path(), &cache, &["--format", "concise"]);
    let records = walk_records(&cache);
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(cached_run(dir.path(), &cache, &["--format", "concise"]), before);
    assert_eq!(walk_records(&cache), records, "the record held and was not written again");

    let lint = "locals {\n  b = \"${var.region}\"\n}\n";
    // Added to a recorded directory, well after the record was written.
    std::fs::write(dir.path().join("modules/net/extra.tf"), lint).expect("a new file");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(after.contains("modules/net/extra.tf:2:7: warning[interpolation-only]"), "{after}");
    assert_ne!(walk_records(&cache), records, "walked again and recorded");
    // That record is racy (the directory changed within a second of the
    // walk's start): the next run walks again, and the one after trusts it.
    settle();
    cached_run(dir.path(), &cache, &["--format", "concise"]);
    let records = walk_records(&cache);
    cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert_eq!(walk_records(&cache), records);
    // A new directory below a recorded one.
    std::fs::create_dir(dir.path().join("modules/net/deeper")).expect("a directory");
    std::fs::write(dir.path().join("modules/net/deeper/main.tf"), lint).expect("a new file");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(after.contains("modules/net/deeper/main.tf:2:7: warning[interpolation-only]"), "{after}");
    settle();
    cached_run(dir.path(), &cache, &["--format", "concise"]);
    // Removed again.
    std::fs::remove_file(dir.path().join("modules/net/deeper/main.tf")).expect("removed");
    std::fs::remove_file(dir.path().join("modules/net/extra.tf")).expect("removed");
    assert_eq!(cached_run(dir.path(), &cache, &["--format", "concise"]), before);
}

/// A configuration above the directory checked applies to the files a
/// recorded walk found there, though no directory the walk listed holds
/// one (so that none is looked for below it); one removed or added there
/// later, the record holding, is seen, as is one added in the tree.
#[test]
fn a_configuration_above_a_recorded_walk_s_root_applies() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let deep = dir.path().join("sub/deep");
    std::fs::create_dir_all(&deep).expect("a directory");
    std::fs::write(deep.join("main.tf"), "variable \"x\" {}\n\nlocals {\n  a = \"${var.x}\"\n}\n")
        .expect("a file");
    let (_keep, cache) = cache_dir();
    let args = ["--format", "concise", "sub"];
    let config = "[rules]\ninterpolation-only = \"error\"\n";
    std::fs::write(dir.path().join("halite.toml"), config).expect("a configuration");
    settle();
    let first = cached_run(dir.path(), &cache, &args);
    assert!(first.contains("sub/deep/main.tf:4:7: error[interpolation-only]"), "{first}");
    let records = walk_records(&cache);
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(cached_run(dir.path(), &cache, &args), first);
    assert_eq!(walk_records(&cache), records, "the record held");
    // Removed, then written again, above the walk's root.
    std::fs::remove_file(dir.path().join("halite.toml")).expect("removed");
    let without = cached_run(dir.path(), &cache, &args);
    assert!(without.contains("sub/deep/main.tf:4:7: warning[interpolation-only]"), "{without}");
    assert_eq!(walk_records(&cache), records, "the record held");
    std::fs::write(dir.path().join("halite.toml"), config).expect("a configuration");
    assert_eq!(cached_run(dir.path(), &cache, &args), first);
    assert_eq!(walk_records(&cache), records, "the record held");
    // One in the walked tree, which extends the one above.
    std::fs::write(dir.path().join("sub/halite.toml"), "[rules]\ninterpolation-only = \"off\"\n")
        .expect("a configuration");
    let off = cached_run(dir.path(), &cache, &args);
    assert!(!off.contains("interpolation-only"), "{off}");
}

/// A module file that is a symbolic link is one of the module's files, as
/// Terraform reads it; a recorded walk holds only while each link leads
/// where it led (to a regular file, or not), though the directory that
/// holds the link does not change when its target goes or comes back.
#[test]
fn a_linked_module_file_is_found_and_its_target_is_watched() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (module, shared) = (dir.path().join("module"), dir.path().join("shared"));
    std::fs::create_dir_all(&module).expect("a directory");
    std::fs::create_dir_all(&shared).expect("a directory");
    std::fs::write(module.join("outputs.tf"), "output \"name\" {\n  value = var.name\n}\n").expect("a file");
    std::fs::write(shared.join("variables.tf"), "variable \"name\" {\n  type = string\n}\n").expect("a file");
    std::os::unix::fs::symlink("../shared/variables.tf", module.join("variables.tf")).expect("a link");
    let (_keep, cache) = cache_dir();
    let run_module = || cached_run(dir.path(), &cache, &["--format", "concise", "module"]);
    settle();
    for _ in 0..2 {
        let found = run_module();
        assert!(found.contains("exit Some(0)") && found.contains("checked 2 files"), "{found}");
    }
    assert!(walk_records(&cache).len() == 1, "the walk is recorded");

    // The target gone: the dangling link is a file that cannot be read,
    // as Terraform says of it, and the variable is undeclared.
    std::fs::rename(shared.join("variables.tf"), shared.join("moved")).expect("moved away");
    settle();
    for _ in 0..2 {
        let dangling = run_module();
        assert!(dangling.contains("module/outputs.tf:2:11: error[undeclared-reference]"), "{dangling}");
        assert!(
            dangling.contains("cannot read `module/variables.tf`: it is a link to nothing"),
            "{dangling}"
        );
        assert!(dangling.contains("exit Some(2)"), "{dangling}");
    }
    // Back again.
    std::fs::rename(shared.join("moved"), shared.join("variables.tf")).expect("moved back");
    settle();
    let restored = run_module();
    assert!(restored.contains("exit Some(0)") && restored.contains("checked 2 files"), "{restored}");
}

/// What ignore files say decides which files a walk finds: a
/// `.gitignore` added, rewritten with its size kept, and one above the
/// checked directory or in a repository's exclude file, are each seen
/// though no recorded directory's entries changed for the last three.
#[test]
fn an_ignore_file_change_invalidates_a_recorded_walk() {
    let dir = tree();
    let (_keep, cache) = cache_dir();
    let checked = dir.path().join("checked");
    std::fs::create_dir(&checked).expect("a directory");
    for name in ["a.tf", "b.tf"] {
        std::fs::write(checked.join(name), "locals {\n  x = \"${1}\"\n}\n").expect("a file");
    }
    std::fs::write(checked.join(".gitignore"), "a.tf\n").expect("an ignore file");
    settle();
    let run_checked = || cached_run(&checked, &cache, &["--format", "concise"]);
    let first = run_checked();
    assert!(first.contains("b.tf:") && !first.contains("a.tf:"), "{first}");
    settle();
    run_checked();

    // Rewritten in place, the same size, the directory's entries as they were.
    rewrite_keeping_size_and_time(&checked.join(".gitignore"), "b.tf\n");
    let after = run_checked();
    assert!(after.contains("a.tf:") && !after.contains("b.tf:"), "{after}");
    settle();
    run_checked();

    // An ignore file above the checked directory.
    std::fs::write(dir.path().join(".ignore"), "checked/a.tf\n").expect("an ignore file");
    let after = run_checked();
    assert!(!after.contains("a.tf:") && !after.contains("b.tf:"), "{after}");
    settle();
    run_checked();
    std::fs::write(dir.path().join(".ignore"), "").expect("emptied");
    let after = run_checked();
    assert!(after.contains("a.tf:"), "{after}");
    settle();
    run_checked();

    // A repository above it, then its exclude file.
    std::fs::create_dir_all(dir.path().join(".git/info")).expect("a repository");
    let after = run_checked();
    assert!(after.contains("a.tf:"), "{after}");
    settle();
    run_checked();
    std::fs::write(dir.path().join(".git/info/exclude"), "checked/a.tf\n").expect("an exclude file");
    let after = run_checked();
    assert!(!after.contains("a.tf:"), "{after}");
}

/// The walk's record says which directories hold no `halite.toml`, and
/// the rule levels' search does not look there: a configuration added to
/// such a directory changes it, so it is found.
#[test]
fn a_configuration_added_to_a_recorded_directory_is_found() {
    let dir = tree();
    let (_keep, cache) = cache_dir();
    settle();
    cached_run(dir.path(), &cache, &["--format", "concise"]);
    settle();
    let before = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(before.contains("warning[interpolation-only]"), "{before}");
    std::fs::write(dir.path().join("halite.toml"), "[rules]\ninterpolation-only = \"error\"\n")
        .expect("a configuration");
    let after = cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(after.contains("error[interpolation-only]"), "{after}");
    assert!(!after.contains("warning[interpolation-only]"), "{after}");
}

/// A run that writes removes what older formats of the cache left.
#[test]
fn a_run_that_writes_removes_older_formats() {
    let dir = tree();
    let (_keep, cache) = cache_dir();
    for name in ["check-v1", "check-v2", "check-v3"] {
        std::fs::create_dir_all(cache.join(name)).expect("an old directory");
        std::fs::write(cache.join(name).join("0123"), "an old entry").expect("an old entry");
    }
    std::fs::write(cache.join("check-v2.size"), [0u8; 8]).expect("an old ledger");
    std::fs::write(cache.join("check-v3.pack"), "an old pack").expect("an old pack");
    std::fs::write(cache.join("unrelated"), "kept").expect("another file");
    cached_run(dir.path(), &cache, &["--format", "concise"]);
    assert!(!cache.join("check-v1").exists());
    assert!(!cache.join("check-v2").exists());
    assert!(!cache.join("check-v3").exists());
    assert!(!cache.join("check-v2.size").exists());
    assert!(!cache.join("check-v3.pack").exists());
    assert!(cache.join("unrelated").exists(), "only what the cache's older formats named");
    assert!(packs(&cache).0.is_some());
}

/// With the walks recorded and trusted, the files of the first root are
/// looked up in the file index as soon as its record holds; with a second
/// root, they are not all the run's files, and the run looks its files up
/// itself. An edit under either root is seen, and an edited file of the
/// first root's record is checked again (its unit first).
#[test]
fn an_edit_under_either_of_two_recorded_roots_is_seen() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let lint = "locals {\n  b = \"${local.a}\"\n  a = \"x\"\n}\n";
    for root in ["a", "b"] {
        std::fs::create_dir_all(dir.path().join(root).join("m")).expect("a directory");
        std::fs::write(dir.path().join(root).join("main.tf"), lint).expect("a file");
        std::fs::write(dir.path().join(root).join("m/main.tf"), lint).expect("a file");
    }
    let (_keep, cache) = cache_dir();
    settle();
    for roots in [&["a", "b"][..], &["a"][..]] {
        let args = [&["--format", "concise"][..], roots].concat();
        cached_run(dir.path(), &cache, &args);
        let before = cached_run(dir.path(), &cache, &args);
        assert_eq!(walk_records(&cache).len(), 2, "{before}");
        for root in roots {
            let edited = dir.path().join(root).join("m/main.tf");
            std::fs::write(&edited, format!("{lint}output \"o\" {{\n  value = local.missing\n}}\n"))
                .expect("the edit");
            let after = cached_run(dir.path(), &cache, &args);
            assert!(after.contains(&format!("{root}/m/main.tf:6:11: error[")), "{after}");
            std::fs::write(&edited, lint).expect("the edit undone");
            assert_eq!(cached_run(dir.path(), &cache, &args), before);
        }
    }
}

/// A module called by enough others that the file index is looked up in
/// many blocks: a changed file's chunk is then checked while the lookups
/// go on (by a thread of its own), and its callers as soon as it is, by
/// whichever thread is free. Each run prints what a run without the
/// cache prints, and stores the entries it should: a chunk checked twice
/// or not at all, or a caller reported from an entry its child no longer
/// holds, would show.
#[test]
fn a_changed_module_checked_beside_the_lookups_gives_what_a_cold_run_gives() {
    const CALLERS: usize = 600;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
        std::fs::write(path, text).expect("a file");
    };
    let child = "variable \"name\" {\n  type = string\n}\n\nlocals {\n  upper = upper(var.name)\n}\n\noutput \"upper\" {\n  value = local.upper\n}\n";
    write("a/net/main.tf", child);
    for caller in 0..CALLERS {
        write(
            &format!("m{caller:04}/main.tf"),
            &format!(
                "module \"net\" {{\n  source = \"../a/net\"\n  name   = \"n{caller}\"\n}}\n\nlocals {{\n  unused_{caller} = 1\n}}\n"
            ),
        );
    }
    let (_keep, cache) = cache_dir();
    let args = ["--format", "concise"];
    let cold = cached_run(dir.path(), &cache, &args);
    settle();
    let written = entries(&cache);
    assert_eq!(cached_run(dir.path(), &cache, &args), cold);
    assert_eq!(written_since(&written, &cache), 0, "nothing changed, nothing checked");

    // What the callers read of it kept: the child checked, each caller's
    // record of it renewed, and every diagnostic as before.
    write("a/net/main.tf", &child.replace("upper(var.name)", "lower(var.name)"));
    settle();
    let written = entries(&cache);
    assert_eq!(cached_run(dir.path(), &cache, &args), cold);
    assert_eq!(written_since(&written, &cache), 1 + CALLERS);
    let written = entries(&cache);
    assert_eq!(cached_run(dir.path(), &cache, &args), cold);
    assert_eq!(written_since(&written, &cache), 0, "the renewed records hold");

    // A variable more that no caller sets: every caller checked again,
    // each with the error.
    write("a/net/main.tf", &format!("{child}\nvariable \"zone\" {{\n  type = string\n}}\n"));
    settle();
    let written = entries(&cache);
    let after = cached_run(dir.path(), &cache, &args);
    assert_eq!(after.matches("missing-module-argument").count(), CALLERS, "{after}");
    assert_eq!(written_since(&written, &cache), 1 + CALLERS);

    // Within the racy margin every file is looked up as changed, and the
    // chunks are checked as the lookups find them.
    write("a/net/main.tf", child);
    assert_eq!(cached_run(dir.path(), &cache, &args), cold);
}
