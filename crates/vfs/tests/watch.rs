//! The watcher on a real temporary directory: each test changes files the
//! way an editor or a script would and waits (with a generous timeout, never
//! a fixed sleep) for the batches that must follow.

use std::{
    collections::BTreeMap,
    sync::mpsc::Receiver,
    time::{Duration, Instant},
};

use camino::{Utf8Path, Utf8PathBuf};
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
        watch(&self.root, scope)
    }

    /// The batch as the test names it: `!Vanished`, `!Returned` or
    /// `!Replaced` first when the root changed, then its changes.
    fn describe_batch(&self, batch: &ChangeBatch) -> Vec<String> {
        let root = batch.root.map(|root| format!("!{root:?}"));
        root.into_iter().chain(batch.changes.iter().map(|change| self.describe(change))).collect()
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
/// Loads `dir` and starts watching it from what was loaded.
fn watch(dir: &Utf8Path, scope: Scope) -> (Watcher, Receiver<ChangeBatch>) {
    let loaded = vfs::load(dir, scope, vfs::DEFAULT_MAX_FILE_SIZE).expect("a loaded directory");
    Watcher::start_with_channel(dir, scope, &loaded).expect("a watcher")
}

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
            Ok(batch) => received.push(fixture.describe_batch(&batch)),
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
        panic!("unexpected batch: {:?}", fixture.describe_batch(&batch));
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
        vfs::load(&fixture.root, scope, vfs::DEFAULT_MAX_FILE_SIZE)
            .expect("a loaded directory")
            .into_iter()
            .map(|file| file.path.strip_prefix(&fixture.root).expect("a path under the root").to_string())
            .collect()
    };
    assert_eq!(names(Scope::Directory), ["build.pkr.hcl", "main.tf", "vars.tf.json"]);
    assert_eq!(names(Scope::Tree), ["build.pkr.hcl", "main.tf", "sub/child.hcl", "vars.tf.json"]);
    let loaded =
        vfs::load(&fixture.root, Scope::Directory, vfs::DEFAULT_MAX_FILE_SIZE).expect("a loaded directory");
    assert_eq!(loaded[1].bytes, b"a = 1");
}

/// A FIFO named like a module file is passed over, as a walk passes over
/// it (reading it would wait for a writer forever); a file past the size
/// limit is an error naming it, since the module would be missing it.
#[test]
fn loading_passes_over_a_fifo_and_refuses_a_file_past_the_limit() {
    let fixture = Fixture::new(&[("main.tf", "a = 1"), ("big.tf", "b = 12345")]);
    let made = std::process::Command::new("mkfifo")
        .arg(fixture.path("pipe.tf").as_str())
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let error = vfs::load(&fixture.root, Scope::Directory, 8).expect_err("big.tf is past the limit");
    assert_eq!(error.path, fixture.path("big.tf"));
    assert_eq!(error.to_string(), format!("cannot read `{}`: larger than the limit of 8 bytes", error.path));
    let loaded = vfs::load(&fixture.root, Scope::Directory, 9).expect("a loaded directory");
    let names: Vec<&str> = loaded.iter().map(|file| file.path.file_name().unwrap_or_default()).collect();
    assert_eq!(names, ["big.tf", "main.tf"]);
}

#[test]
fn loading_a_missing_directory_is_an_error() {
    let fixture = Fixture::new(&[]);
    let missing = fixture.path("missing");
    let error =
        vfs::load(&missing, Scope::Directory, vfs::DEFAULT_MAX_FILE_SIZE).expect_err("no such directory");
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
    let loaded =
        vfs::load(&roundabout, Scope::Directory, vfs::DEFAULT_MAX_FILE_SIZE).expect("a loaded directory");
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
    let (_watcher, batches) = watch(&watched, Scope::Directory);

    std::fs::remove_dir_all(&watched).expect("a removed directory");
    let received = batches_until(&fixture, &batches, |received| received.concat().len() >= 3);
    assert_eq!(received.concat(), ["!Vanished", "-module/a.tf", "-module/b.hcl"]);
}

#[test]
fn changes_between_loading_and_watching_come_first() {
    let fixture = Fixture::new(&[("a.tf", "a = 1"), ("b.tf", "b = 1")]);
    let loaded =
        vfs::load(&fixture.root, Scope::Directory, vfs::DEFAULT_MAX_FILE_SIZE).expect("a loaded directory");
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

#[cfg(unix)]
fn symlink(target: &str, link: &Utf8PathBuf) {
    std::os::unix::fs::symlink(target, link).expect("a symbolic link");
}

/// The common Terraform layout: a module file that is a link to a file
/// shared by several modules. An edit to the shared file, however it is
/// saved, changes the module.
#[cfg(unix)]
#[test]
fn an_edit_to_a_linked_files_target_is_a_modification_of_the_link() {
    let fixture = Fixture::new(&[("shared/common.tf", "x = 1"), ("module/own.tf", "")]);
    symlink("../shared/common.tf", &fixture.path("module/main.tf"));
    let module = fixture.path("module");
    let loaded =
        vfs::load(&module, Scope::Directory, vfs::DEFAULT_MAX_FILE_SIZE).expect("a loaded directory");
    assert_eq!(loaded.len(), 2, "{loaded:?}");
    let (_watcher, batches) =
        Watcher::start_with_channel(&module, Scope::Directory, &loaded).expect("a watcher");

    // In place.
    fixture.write("shared/common.tf", "x = 2");
    assert_eq!(next_batch(&fixture, &batches), ["~module/main.tf x = 2"]);
    // Atomically: a new file renamed over the target.
    fixture.write("shared/.common.tf.tmp", "x = 3");
    std::fs::rename(fixture.path("shared/.common.tf.tmp"), fixture.path("shared/common.tf"))
        .expect("a rename");
    assert_eq!(next_batch(&fixture, &batches), ["~module/main.tf x = 3"]);
    // Deleted, the link dangles: the module has no such file. Created again,
    // it is back.
    std::fs::remove_file(fixture.path("shared/common.tf")).expect("a removed file");
    assert_eq!(next_batch(&fixture, &batches), ["-module/main.tf"]);
    fixture.write("shared/common.tf", "x = 4");
    assert_eq!(next_batch(&fixture, &batches), ["+module/main.tf x = 4"]);
    // The shared directory itself deleted and made again.
    std::fs::remove_dir_all(fixture.path("shared")).expect("a removed directory");
    assert_eq!(next_batch(&fixture, &batches), ["-module/main.tf"]);
    fixture.write("shared/common.tf", "x = 5");
    assert_eq!(next_batch(&fixture, &batches), ["+module/main.tf x = 5"]);
    // The link pointed elsewhere.
    fixture.write("shared/other.tf", "x = 6");
    std::fs::remove_file(fixture.path("module/main.tf")).expect("a removed link");
    symlink("../shared/other.tf", &fixture.path("module/main.tf"));
    let received = batches_until(&fixture, &batches, |received| {
        received.concat().last().is_some_and(|change| change == "~module/main.tf x = 6")
    });
    assert!(received.concat().iter().all(|change| change.contains("main.tf")), "{received:?}");
    // The old target is no longer the module's.
    fixture.write("shared/common.tf", "x = 7");
    fixture.write("module/own.tf", "own = 1");
    assert_eq!(next_batch(&fixture, &batches), ["~module/own.tf own = 1"]);
}

/// A link to a file in the same directory that does not exist yet: the
/// directory is the root's, so the root's watch is what sees the target
/// appear (a second watch on it would take over the root's).
#[cfg(unix)]
#[test]
fn a_dangling_link_within_the_root_is_a_file_when_its_target_appears() {
    let fixture = Fixture::new(&[("own.tf", "")]);
    symlink("target.tf", &fixture.path("link.tf"));
    let (_watcher, batches) = fixture.watch(Scope::Directory);

    fixture.write("target.tf", "t = 1");
    let received = batches_until(&fixture, &batches, |received| received.concat().len() >= 2);
    assert_eq!(received.concat(), ["+link.tf t = 1", "+target.tf t = 1"]);
    // The root is still watched as before, with the target there and not.
    fixture.write("own.tf", "own = 1");
    assert_eq!(next_batch(&fixture, &batches), ["~own.tf own = 1"]);
    std::fs::remove_file(fixture.path("target.tf")).expect("a removed file");
    let received = batches_until(&fixture, &batches, |received| received.concat().len() >= 2);
    assert_eq!(received.concat(), ["-link.tf", "-target.tf"]);
    fixture.write("own.tf", "own = 2");
    assert_eq!(next_batch(&fixture, &batches), ["~own.tf own = 2"]);
    fixture.write("target.tf", "t = 2");
    let received = batches_until(&fixture, &batches, |received| received.concat().len() >= 2);
    assert_eq!(received.concat(), ["+link.tf t = 2", "+target.tf t = 2"]);
}

/// A link to a link: an edit at the end of the chain is seen, and so is a
/// change to the middle link.
#[cfg(unix)]
#[test]
fn a_chain_of_links_is_followed_to_its_end() {
    let fixture = Fixture::new(&[("a/one.tf", "x = 1"), ("a/two.tf", "x = 2"), ("module/own.tf", "")]);
    std::fs::create_dir(fixture.path("b")).expect("a directory");
    symlink("../a/one.tf", &fixture.path("b/middle.tf"));
    symlink("../b/middle.tf", &fixture.path("module/main.tf"));
    let module = fixture.path("module");
    let (_watcher, batches) = watch(&module, Scope::Directory);

    fixture.write("a/one.tf", "x = 10");
    assert_eq!(next_batch(&fixture, &batches), ["~module/main.tf x = 10"]);
    std::fs::remove_file(fixture.path("b/middle.tf")).expect("a removed link");
    symlink("../a/two.tf", &fixture.path("b/middle.tf"));
    let received = batches_until(&fixture, &batches, |received| {
        received.concat().last().is_some_and(|change| change == "~module/main.tf x = 2")
    });
    assert!(received.concat().iter().all(|change| change.contains("main.tf")), "{received:?}");
    fixture.write("a/two.tf", "x = 20");
    assert_eq!(next_batch(&fixture, &batches), ["~module/main.tf x = 20"]);
}

/// A module file with another name elsewhere (a hard link): an edit
/// through that name changes the module's file, though nothing happened in
/// the module's directory.
#[cfg(unix)]
#[test]
fn an_edit_through_a_hard_link_elsewhere_is_seen() {
    let fixture = Fixture::new(&[("elsewhere/copy.tf", "x = 1"), ("module/own.tf", "")]);
    std::fs::hard_link(fixture.path("elsewhere/copy.tf"), fixture.path("module/main.tf"))
        .expect("a hard link");
    let module = fixture.path("module");
    let (_watcher, batches) = watch(&module, Scope::Directory);

    fixture.write("elsewhere/copy.tf", "x = 2");
    assert_eq!(next_batch(&fixture, &batches), ["~module/main.tf x = 2"]);
    fixture.write("elsewhere/copy.tf", "x = 3");
    assert_eq!(next_batch(&fixture, &batches), ["~module/main.tf x = 3"]);
    // Saved atomically under the other name, that name is a new file: the
    // module's file keeps its content.
    fixture.write("elsewhere/.copy.tf.tmp", "x = 4");
    std::fs::rename(fixture.path("elsewhere/.copy.tf.tmp"), fixture.path("elsewhere/copy.tf"))
        .expect("a rename");
    fixture.write("module/own.tf", "own = 1");
    assert_eq!(next_batch(&fixture, &batches), ["~module/own.tf own = 1"]);
}

/// The directory deleted and made again (a fresh checkout, say): its files
/// are deleted, then created, and the new directory is watched.
#[test]
fn a_root_deleted_and_made_again_is_watched_again() {
    let fixture = Fixture::new(&[("module/a.tf", "a = 1")]);
    let module = fixture.path("module");
    let (_watcher, batches) = watch(&module, Scope::Directory);

    std::fs::remove_dir_all(&module).expect("a removed directory");
    assert_eq!(next_batch(&fixture, &batches), ["!Vanished", "-module/a.tf"]);
    fixture.write("module/a.tf", "a = 2");
    fixture.write("module/b.tf", "b = 2");
    let received = batches_until(&fixture, &batches, |received| received.concat().len() >= 3);
    assert_eq!(received.concat(), ["!Returned", "+module/a.tf a = 2", "+module/b.tf b = 2"]);
    fixture.write("module/a.tf", "a = 3");
    assert_eq!(next_batch(&fixture, &batches), ["~module/a.tf a = 3"]);
}

/// Deleted and made again at once, within one batch, the directory was
/// replaced, and its file modified; a slower machine may see the two steps.
#[test]
fn a_root_replaced_at_once_is_watched_again() {
    let fixture = Fixture::new(&[("module/a.tf", "a = 1")]);
    let module = fixture.path("module");
    let (_watcher, batches) = watch(&module, Scope::Directory);

    std::fs::remove_dir_all(&module).expect("a removed directory");
    fixture.write("module/a.tf", "a = 2");
    let received = batches_until(&fixture, &batches, |received| {
        received.concat().last().is_some_and(|change| change.ends_with("a.tf a = 2"))
    });
    let received = received.concat();
    assert!(
        received == ["!Replaced", "~module/a.tf a = 2"]
            || received == ["!Vanished", "-module/a.tf", "!Returned", "+module/a.tf a = 2"],
        "{received:?}"
    );
    fixture.write("module/a.tf", "a = 3");
    assert_eq!(next_batch(&fixture, &batches), ["~module/a.tf a = 3"]);
}

/// Its parent too: the watcher waits at the nearest directory that exists.
#[test]
fn a_root_whose_parent_is_deleted_is_watched_again() {
    let fixture = Fixture::new(&[("project/module/a.tf", "a = 1")]);
    let module = fixture.path("project/module");
    let (_watcher, batches) = watch(&module, Scope::Tree);

    std::fs::remove_dir_all(fixture.path("project")).expect("a removed directory");
    assert_eq!(next_batch(&fixture, &batches), ["!Vanished", "-project/module/a.tf"]);
    std::fs::create_dir(fixture.path("project")).expect("a directory");
    fixture.write("project/module/sub/a.tf", "a = 2");
    let received = batches_until(&fixture, &batches, |received| received.concat().len() >= 2);
    assert_eq!(received.concat(), ["!Returned", "+project/module/sub/a.tf a = 2"]);
    fixture.write("project/module/sub/a.tf", "a = 3");
    assert_eq!(next_batch(&fixture, &batches), ["~project/module/sub/a.tf a = 3"]);
}

/// Loading a tree does not enter a linked directory, and neither does the
/// watch: a file in it is not the tree's.
#[cfg(unix)]
#[test]
fn a_tree_watch_does_not_enter_linked_directories() {
    let fixture = Fixture::new(&[("outside/a.tf", "a = 1"), ("tree/main.tf", "")]);
    symlink("../outside", &fixture.path("tree/linked"));
    let tree = fixture.path("tree");
    let loaded = vfs::load(&tree, Scope::Tree, vfs::DEFAULT_MAX_FILE_SIZE).expect("a loaded directory");
    assert_eq!(loaded.len(), 1, "{loaded:?}");
    let (_watcher, batches) = Watcher::start_with_channel(&tree, Scope::Tree, &loaded).expect("a watcher");

    fixture.write("outside/a.tf", "a = 2");
    fixture.write("outside/b.tf", "b = 2");
    fixture.write("tree/last.tf", "last");
    let received = batches_until(&fixture, &batches, |received| {
        received.concat().iter().any(|change| change.starts_with("+tree/last.tf"))
    });
    assert_eq!(received.concat(), ["+tree/last.tf last"]);
}

/// A file that cannot be read now (here, grown past the size limit) keeps
/// its last state, and the batch says so, with why, so that a front end
/// can tell its user; once it can be read again, its change comes.
#[test]
fn a_file_that_cannot_be_read_keeps_its_state_and_is_said() {
    let fixture = Fixture::new(&[("main.tf", "a = 1\n")]);
    let loaded = vfs::load(&fixture.root, Scope::Directory, 64).expect("a loaded directory");
    let (sender, batches) = std::sync::mpsc::channel();
    let options = vfs::WatchOptions { max_file_size: 64, ..vfs::WatchOptions::default() };
    let _watcher = Watcher::start(&fixture.root, Scope::Directory, &loaded, options, move |batch| {
        let _ = sender.send(batch);
    })
    .expect("a watcher");
    fixture.write("main.tf", &format!("a = \"{}\"\n", "x".repeat(100)));
    let deadline = Instant::now() + TIMEOUT;
    let batch = batches.recv_timeout(deadline.saturating_duration_since(Instant::now())).expect("a batch");
    assert!(batch.changes.is_empty(), "{batch:?}");
    assert_eq!(batch.unreadable.len(), 1, "{batch:?}");
    assert_eq!(batch.unreadable[0].0, fixture.root.join("main.tf"));
    fixture.write("main.tf", "a = 2\n");
    let mut seen = Vec::new();
    while !seen.iter().any(|it: &String| it.starts_with('~')) {
        let batch =
            batches.recv_timeout(deadline.saturating_duration_since(Instant::now())).expect("a batch");
        seen.extend(fixture.describe_batch(&batch));
    }
    assert_eq!(seen, ["~main.tf a = 2\n"]);
}
