//! The watcher on a real temporary directory: each test changes files the
//! way an editor or a script would and waits (with a generous timeout, never
//! a fixed sleep) for the batches that must follow.

use std::{
    collections::BTreeMap,
    sync::mpsc::Receiver,
    time::{Duration, Instant},
};

use camino::Utf8PathBuf;
use vfs::{Change, ChangeBatch, Scope, Watcher};

/// Long enough for a loaded machine; a passing test waits far less.
const TIMEOUT: Duration = Duration::from_secs(20);

struct Fixture {
    _dir: tempfile::TempDir,
    root: Utf8PathBuf,
}

impl Fixture {
    fn new(files: &[(&str, &str)]) -> Fixture {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let root = Utf8PathBuf::from_path_buf(dir.path().to_owned()).expect("a UTF-8 temporary path");
        let fixture = Fixture { _dir: dir, root };
        for (name, text) in files {
            fixture.write(name, text);
        }
        fixture
    }

    fn path(&self, name: &str) -> Utf8PathBuf {
        self.root.join(name)
    }

    fn write(&self, name: &str, text: &str) {
        let path = self.path(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("a directory");
        }
        std::fs::write(path, text).expect("a written file");
    }

    fn watch(&self, scope: Scope) -> (Watcher, Receiver<ChangeBatch>) {
        let loaded = vfs::load(&self.root, scope).expect("a loaded directory");
        Watcher::start_with_channel(&self.root, scope, &loaded).expect("a watcher")
    }

    /// The change as the test names it: `+name text`, `~name text`, `-name`.
    fn describe(&self, change: &Change) -> String {
        let name = change.path().strip_prefix(&self.root).unwrap_or(change.path());
        match change {
            Change::Created(_, bytes) => format!("+{name} {}", String::from_utf8_lossy(bytes)),
            Change::Modified(_, bytes) => format!("~{name} {}", String::from_utf8_lossy(bytes)),
            Change::Deleted(_) => format!("-{name}"),
        }
    }
}

/// Receives batches until `done` says the changes so far (described, each
/// batch a list) are complete; fails after [`TIMEOUT`].
fn batches_until(
    fixture: &Fixture,
    batches: &Receiver<ChangeBatch>,
    done: impl Fn(&[Vec<String>]) -> bool,
) -> Vec<Vec<String>> {
    let deadline = Instant::now() + TIMEOUT;
    let mut received = Vec::new();
    while !done(&received) {
        let left = deadline.saturating_duration_since(Instant::now());
        match batches.recv_timeout(left) {
            Ok(batch) => received.push(batch.changes.iter().map(|change| fixture.describe(change)).collect()),
            Err(_) => panic!("timed out; batches so far: {received:?}"),
        }
    }
    received
}

/// The next batch, which must come.
fn next_batch(fixture: &Fixture, batches: &Receiver<ChangeBatch>) -> Vec<String> {
    batches_until(fixture, batches, |received| !received.is_empty()).remove(0)
}

/// Asserts that nothing more arrives for a while. (Only ever used after the
/// expected batches came, to show that nothing spurious follows: waiting
/// here cannot make a correct watcher fail.)
fn assert_quiet(fixture: &Fixture, batches: &Receiver<ChangeBatch>) {
    if let Ok(batch) = batches.recv_timeout(Duration::from_millis(500)) {
        let described: Vec<String> = batch.changes.iter().map(|change| fixture.describe(change)).collect();
        panic!("unexpected batch: {described:?}");
    }
}

#[test]
fn loading_takes_module_files_only() {
    let fixture = Fixture::new(&[
        ("main.tf", "a = 1"),
        ("vars.tf.json", "{}"),
        ("build.pkr.hcl", ""),
        ("terraform.tfvars", "x = 1"),
        ("README.md", ""),
        (".main.tf.swp", ""),
        ("sub/child.hcl", ""),
        ("sub/.hidden/no.hcl", ""),
        (".terraform/modules/no.tf", ""),
        (".git/no.hcl", ""),
    ]);
    let names = |scope| -> Vec<String> {
        vfs::load(&fixture.root, scope)
            .expect("a loaded directory")
            .into_iter()
            .map(|file| file.path.strip_prefix(&fixture.root).expect("a path under the root").to_string())
            .collect()
    };
    assert_eq!(names(Scope::Directory), ["build.pkr.hcl", "main.tf", "vars.tf.json"]);
    assert_eq!(names(Scope::Tree), ["build.pkr.hcl", "main.tf", "sub/child.hcl", "vars.tf.json"]);
    let loaded = vfs::load(&fixture.root, Scope::Directory).expect("a loaded directory");
    assert_eq!(loaded[1].bytes, b"a = 1");
}

#[test]
fn loading_a_missing_directory_is_an_error() {
    let fixture = Fixture::new(&[]);
    let missing = fixture.path("missing");
    let error = vfs::load(&missing, Scope::Directory).expect_err("no such directory");
    assert_eq!(error.path, missing);
}

#[test]
fn creation_modification_and_deletion() {
    let fixture = Fixture::new(&[("a.tf", "a = 1"), ("b.tf", "b = 1")]);
    let (_watcher, batches) = fixture.watch(Scope::Directory);

    fixture.write("c.tf", "c = 1");
    assert_eq!(next_batch(&fixture, &batches), ["+c.tf c = 1"]);

    fixture.write("a.tf", "a = 2");
    assert_eq!(next_batch(&fixture, &batches), ["~a.tf a = 2"]);

    std::fs::remove_file(fixture.path("b.tf")).expect("a removed file");
    assert_eq!(next_batch(&fixture, &batches), ["-b.tf"]);

    // Writing the same bytes again (or touching a file) changes nothing.
    fixture.write("a.tf", "a = 2");
    assert_quiet(&fixture, &batches);
}

#[test]
fn a_rename_is_a_deletion_and_a_creation() {
    let fixture = Fixture::new(&[("old.tf", "x = 1")]);
    let (_watcher, batches) = fixture.watch(Scope::Directory);

    std::fs::rename(fixture.path("old.tf"), fixture.path("new.tf")).expect("a renamed file");
    let received = batches_until(&fixture, &batches, |received| received.concat().len() >= 2);
    assert_eq!(received.concat(), ["+new.tf x = 1", "-old.tf"]);

    // Renamed to a name that is not a module file's, it is gone.
    std::fs::rename(fixture.path("new.tf"), fixture.path("new.tf.bak")).expect("a renamed file");
    assert_eq!(next_batch(&fixture, &batches), ["-new.tf"]);
}

#[test]
fn an_atomic_save_is_one_modification() {
    let fixture = Fixture::new(&[("main.tf", "x = 1")]);
    let (_watcher, batches) = fixture.watch(Scope::Directory);

    // As editors and `halite fmt` save: a temporary file beside the
    // target, renamed over it.
    for temporary in [".main.tf.tmp1234", "main.tf.tmp", "main.tf~", "4913"] {
        let text = format!("x = \"{temporary}\"");
        fixture.write(temporary, &text);
        std::fs::rename(fixture.path(temporary), fixture.path("main.tf")).expect("a renamed file");
        assert_eq!(next_batch(&fixture, &batches), [format!("~main.tf {text}")]);
    }
    assert_quiet(&fixture, &batches);
}

#[test]
fn temporary_and_other_files_are_ignored() {
    let fixture = Fixture::new(&[("main.tf", "")]);
    let (_watcher, batches) = fixture.watch(Scope::Directory);

    for name in [".main.tf.swp", "#main.tf#", "main.tf~", "notes.txt", "terraform.tfvars"] {
        fixture.write(name, "ignored");
    }
    std::fs::create_dir(fixture.path("sub")).expect("a directory");
    fixture.write("sub/nested.tf", "not in this module");
    // A module file after them: when its batch has come, so would theirs.
    fixture.write("last.tf", "last");
    let received = batches_until(&fixture, &batches, |received| {
        received.concat().iter().any(|change| change.starts_with("+last.tf"))
    });
    assert_eq!(received.concat(), ["+last.tf last"]);
}

#[test]
fn a_burst_of_hundreds_of_changes_is_coalesced() {
    let fixture = Fixture::new(&[("keep.tf", "0")]);
    let (_watcher, batches) = fixture.watch(Scope::Directory);

    // Each file is written twice and then some are deleted: the batch holds
    // the last state of each path.
    for i in 0..300 {
        fixture.write(&format!("f{i:03}.tf"), "first");
        fixture.write(&format!("f{i:03}.tf"), &format!("v = {i}"));
    }
    for i in (0..300).step_by(3) {
        std::fs::remove_file(fixture.path(&format!("f{i:03}.tf"))).expect("a removed file");
    }
    fixture.write("keep.tf", "1");

    let expected: BTreeMap<String, String> = (0..300)
        .filter(|i| i % 3 != 0)
        .map(|i| (format!("f{i:03}.tf"), format!("v = {i}")))
        .chain([("keep.tf".to_owned(), "1".to_owned())])
        .collect();
    // A batch is not a snapshot (its files are read one after another while
    // the writer goes on), so the test waits for the end state itself.
    let state_after = |received: &[Vec<String>]| {
        let mut state: BTreeMap<String, String> = BTreeMap::from([("keep.tf".to_owned(), "0".to_owned())]);
        for change in received.concat() {
            let (name, text) = change[1..].split_once(' ').unwrap_or((&change[1..], ""));
            match &change[..1] {
                "-" => state.remove(name),
                _ => state.insert(name.to_owned(), text.to_owned()),
            };
        }
        state
    };
    let received = batches_until(&fixture, &batches, |received| state_after(received) == expected);
    // The writes take milliseconds, so they settle into one batch; a
    // machine too busy to run the writer for a tenth of a second between
    // two of them could split it, but never into many.
    assert!(received.len() <= 2, "{} batches: {received:?}", received.len());
    assert_quiet(&fixture, &batches);
}

#[test]
fn a_tree_watch_sees_new_directories_and_skips_hidden_ones() {
    let fixture = Fixture::new(&[("main.tf", ""), ("sub/a.tf", "a")]);
    let (_watcher, batches) = fixture.watch(Scope::Tree);

    fixture.write(".terraform/modules/x.tf", "skipped");
    fixture.write("new/deep/b.tf", "b");
    let received = batches_until(&fixture, &batches, |received| !received.concat().is_empty());
    assert_eq!(received.concat(), ["+new/deep/b.tf b"]);

    // A directory moved away takes its files with it.
    std::fs::rename(fixture.path("sub"), fixture.path(".sub-hidden")).expect("a renamed directory");
    assert_eq!(next_batch(&fixture, &batches), ["-sub/a.tf"]);

    // A directory moved in whole brings its files, though no event came
    // from inside it.
    std::fs::rename(fixture.path(".sub-hidden"), fixture.path("back")).expect("a renamed directory");
    assert_eq!(next_batch(&fixture, &batches), ["+back/a.tf a"]);
}

#[test]
fn paths_are_reported_under_the_root_as_given() {
    let fixture = Fixture::new(&[("main.tf", "")]);
    // A relative root is resolved against the current directory, which a
    // test cannot change without disturbing the others; a root with `..`
    // in it shows the same thing: paths keep the caller's spelling.
    let roundabout = fixture.root.join("sub").join("..");
    std::fs::create_dir(fixture.path("sub")).expect("a directory");
    let loaded = vfs::load(&roundabout, Scope::Directory).expect("a loaded directory");
    assert_eq!(loaded[0].path, roundabout.join("main.tf"));
    let (_watcher, batches) =
        Watcher::start_with_channel(&roundabout, Scope::Directory, &loaded).expect("a watcher");
    std::fs::write(fixture.path("main.tf"), "x = 1").expect("a written file");
    let batch = batches.recv_timeout(TIMEOUT).expect("a batch");
    assert_eq!(batch.changes, [Change::Modified(roundabout.join("main.tf"), b"x = 1".to_vec())]);
}

#[test]
fn removing_the_root_deletes_every_file() {
    let fixture = Fixture::new(&[]);
    let watched = fixture.path("module");
    std::fs::create_dir(&watched).expect("a directory");
    std::fs::write(watched.join("a.tf"), "a").expect("a written file");
    std::fs::write(watched.join("b.hcl"), "b").expect("a written file");
    let loaded = vfs::load(&watched, Scope::Directory).expect("a loaded directory");
    let (_watcher, batches) =
        Watcher::start_with_channel(&watched, Scope::Directory, &loaded).expect("a watcher");

    std::fs::remove_dir_all(&watched).expect("a removed directory");
    let received = batches_until(&fixture, &batches, |received| received.concat().len() >= 2);
    assert_eq!(received.concat(), ["-module/a.tf", "-module/b.hcl"]);
}

#[test]
fn changes_between_loading_and_watching_come_first() {
    let fixture = Fixture::new(&[("a.tf", "a = 1"), ("b.tf", "b = 1")]);
    let loaded = vfs::load(&fixture.root, Scope::Directory).expect("a loaded directory");
    fixture.write("a.tf", "a = 2");
    std::fs::remove_file(fixture.path("b.tf")).expect("a removed file");
    fixture.write("c.tf", "c = 1");
    let (_watcher, batches) =
        Watcher::start_with_channel(&fixture.root, Scope::Directory, &loaded).expect("a watcher");
    assert_eq!(next_batch(&fixture, &batches), ["~a.tf a = 2", "-b.tf", "+c.tf c = 1"]);
    assert_quiet(&fixture, &batches);
}

#[test]
fn a_chain_of_renames_leaves_only_the_last_name() {
    let fixture = Fixture::new(&[("a.tf", "x = 1")]);
    let (_watcher, batches) = fixture.watch(Scope::Directory);

    // However the renames fall into batches, the files reported at the end
    // are the files on disk: `c.tf` alone.
    std::fs::rename(fixture.path("a.tf"), fixture.path("b.tf")).expect("a renamed file");
    std::fs::rename(fixture.path("b.tf"), fixture.path("c.tf")).expect("a renamed file");
    let names_after = |received: &[Vec<String>]| {
        let mut names = std::collections::BTreeSet::from(["a.tf".to_owned()]);
        for change in received.concat() {
            let name = change[1..].split(' ').next().unwrap_or_default().to_owned();
            if change.starts_with('-') {
                names.remove(&name);
            } else {
                names.insert(name);
            }
        }
        names
    };
    batches_until(&fixture, &batches, |received| names_after(received) == ["c.tf".to_owned()].into());
    assert_quiet(&fixture, &batches);
}
