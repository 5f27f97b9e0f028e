//! `halite fmt`, run as a user runs it, on copies of the fixture folders of
//! `test-data/cli-fmt/` in a temporary directory (the command rewrites what
//! it is given, and the fixtures must stay unformatted).
//!
//! Each case records the command, its exit code, its standard output and its
//! standard error in one file under `test-data/cli-fmt/`, compared with
//! `expect_file!`; `UPDATE_EXPECT=1 cargo test -p halite` refreshes them. Around
//! that, the tests compare the files' bytes, modification times and inodes
//! before and after, which is how "wrote nothing" and "left it byte for byte"
//! are checked.
//!
//! The fixtures that must change hold text the reference formatter is sure
//! to change (`a=1` becomes `a = 1`, blocks are indented, `=` aligned), and
//! the expected outputs of formatted files were made with the reference
//! formatter (`hclfmt`), so these tests check the command, not the rules.

use crate::support;

use std::{
    collections::BTreeMap,
    fs,
    os::unix::fs::{MetadataExt, PermissionsExt},
    path::{Path, PathBuf},
    time::{Duration, SystemTime},
};

use expect_test::expect_file;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test-data/cli-fmt")
}

/// A temporary directory holding copies of the named fixture folders, every
/// file's modification time set to one moment in the past, so that a file
/// written by the run, however quickly, shows a different time.
fn workspace(folders: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for folder in folders {
        copy_dir(&fixtures().join(folder), &dir.path().join(folder));
    }
    dir
}

const PAST: Duration = Duration::from_secs(1_000_000_000);

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("the copy's directory is created");
    for entry in fs::read_dir(from).expect("the fixture folder is readable") {
        let entry = entry.expect("the fixture folder is readable");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a fixture's type is known").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).expect("a fixture file is copied");
            let file = fs::File::options().write(true).open(&target).expect("the copy opens");
            file.set_modified(SystemTime::UNIX_EPOCH + PAST).expect("the copy's time is set");
        }
    }
}

/// What a file is on disk, as far as "left alone" is concerned: its bytes,
/// its modification time, its inode (a rename puts a new one in place) and
/// its permission bits.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stat {
    bytes: Vec<u8>,
    modified: SystemTime,
    inode: u64,
    mode: u32,
}

/// Every file under `root`, hidden and ignored ones included, by path
/// relative to `root`.
fn snapshot(root: &Path) -> BTreeMap<String, Stat> {
    fn walk(root: &Path, dir: &Path, files: &mut BTreeMap<String, Stat>) {
        for entry in fs::read_dir(dir).expect("the directory is readable") {
            let path = entry.expect("the directory is readable").path();
            let metadata = fs::symlink_metadata(&path).expect("the file has metadata");
            if metadata.is_dir() {
                walk(root, &path, files);
                continue;
            }
            let relative = path.strip_prefix(root).expect("under the root").to_string_lossy().into_owned();
            let stat = Stat {
                bytes: fs::read(&path).expect("the file is readable"),
                modified: metadata.modified().expect("the file has a modification time"),
                inode: metadata.ino(),
                mode: metadata.mode() & 0o7777,
            };
            files.insert(relative, stat);
        }
    }
    let mut files = BTreeMap::new();
    walk(root, root, &mut files);
    files
}

/// The paths whose bytes, time, inode or mode differ between two snapshots,
/// or that are in only one of them.
fn changed(before: &BTreeMap<String, Stat>, after: &BTreeMap<String, Stat>) -> Vec<String> {
    let mut paths: Vec<String> = before.keys().chain(after.keys()).cloned().collect();
    paths.sort();
    paths.dedup();
    paths.into_iter().filter(|path| before.get(path) != after.get(path)).collect()
}

/// The text of every file under `root`, one after another under its path,
/// for comparing a whole folder with an expected file.
fn contents(root: &Path) -> String {
    snapshot(root)
        .into_iter()
        .map(|(path, stat)| format!("=== {path}\n{}", String::from_utf8_lossy(&stat.bytes)))
        .collect()
}

/// Runs `halite` in `dir` and returns the exit code and a transcript.
fn halite(dir: &Path, args: &[&str], stdin: &[u8]) -> (i32, String) {
    support::run_halite(dir, args, stdin)
}

/// The files of `walk/` that must never be touched when the folder is
/// walked: ignored by `.gitignore`, in a hidden directory, in `.terraform/`,
/// or not named like HCL. Each holds `a=1`, which the formatter would change.
const SKIPPED: &[&str] = &[
    "walk/.hidden/main.tf",
    "walk/.terraform/modules/vpc/main.tf",
    "walk/generated/main.tf",
    "walk/ignored.tf",
    "walk/main.tf.json",
    "walk/notes.txt",
];

/// The files of `walk/` the formatter changes when the folder is walked.
const REFORMATTED: &[&str] = &[
    "walk/.tflint.hcl",
    "walk/image.pkr.hcl",
    "walk/main.tf",
    "walk/prod.tfvars",
    "walk/tests/main.tftest.hcl",
    "walk/web.nomad",
];

#[test]
fn files_with_syntax_errors_or_invalid_utf8_are_refused_and_left_byte_for_byte() {
    let dir = workspace(&["refused"]);
    let before = snapshot(dir.path());
    for args in [&["fmt", "refused"][..], &["fmt", "--check", "refused"], &["fmt", "--diff", "refused"]] {
        let (code, transcript) = halite(dir.path(), args, b"");
        let expected = match args.len() {
            2 => expect_file!["../test-data/cli-fmt/refused.txt"],
            _ if args[1] == "--check" => expect_file!["../test-data/cli-fmt/refused.check.txt"],
            _ => expect_file!["../test-data/cli-fmt/refused.diff.txt"],
        };
        expected.assert_eq(&transcript);
        assert_eq!(code, 2, "{transcript}");
        assert_eq!(changed(&before, &snapshot(dir.path())), Vec::<String>::new(), "{transcript}");
    }
}

#[test]
fn a_refused_file_does_not_stop_the_others() {
    let dir = workspace(&["refused", "walk"]);
    let before = snapshot(dir.path());
    let (code, transcript) = halite(dir.path(), &["fmt", "refused", "walk/main.tf"], b"");
    expect_file!["../test-data/cli-fmt/refused-and-walk.txt"].assert_eq(&transcript);
    assert_eq!(code, 2, "{transcript}");
    assert_eq!(changed(&before, &snapshot(dir.path())), ["walk/main.tf"], "{transcript}");
}

#[test]
fn already_formatted_files_are_not_rewritten() {
    let dir = workspace(&["formatted"]);
    let before = snapshot(dir.path());
    for args in [&["fmt", "formatted"][..], &["fmt", "--check", "formatted"], &["fmt", "--diff", "formatted"]]
    {
        let (code, transcript) = halite(dir.path(), args, b"");
        // Nothing to say: no file changed, so no name, no diff, no summary.
        assert_eq!(
            transcript,
            format!("$ halite {}\nexit: 0\n--- stdout\n--- stderr\n", args.join(" ")),
            "{transcript}"
        );
        assert_eq!(code, 0, "{transcript}");
        assert_eq!(changed(&before, &snapshot(dir.path())), Vec::<String>::new(), "{transcript}");
    }
}

#[test]
fn fmt_rewrites_the_hcl_files_a_walk_finds_and_lists_them() {
    let dir = workspace(&["walk"]);
    let before = snapshot(dir.path());
    let (code, transcript) = halite(dir.path(), &["fmt", "walk"], b"");
    expect_file!["../test-data/cli-fmt/walk.txt"].assert_eq(&transcript);
    assert_eq!(code, 0, "{transcript}");
    assert_eq!(changed(&before, &snapshot(dir.path())), REFORMATTED, "{transcript}");
    expect_file!["../test-data/cli-fmt/walk.after.txt"].assert_eq(&contents(dir.path()));

    // Formatting is a fixed point: a second run finds nothing to do.
    let before = snapshot(dir.path());
    let (code, transcript) = halite(dir.path(), &["fmt", "walk"], b"");
    assert_eq!(code, 0, "{transcript}");
    assert!(transcript.ends_with("--- stdout\n--- stderr\n"), "{transcript}");
    assert_eq!(changed(&before, &snapshot(dir.path())), Vec::<String>::new(), "{transcript}");
}

#[test]
fn a_walk_never_touches_ignored_hidden_terraform_or_non_hcl_files() {
    let dir = workspace(&["walk"]);
    let before = snapshot(dir.path());
    let (code, transcript) = halite(dir.path(), &["fmt", "walk"], b"");
    assert_eq!(code, 0, "{transcript}");
    let after = snapshot(dir.path());
    for path in SKIPPED {
        assert!(before.contains_key(*path), "the fixture has {path}");
        assert_eq!(before.get(*path), after.get(*path), "{path} was touched\n{transcript}");
    }
}

#[test]
fn check_lists_the_files_that_would_change_writes_nothing_and_exits_1() {
    let dir = workspace(&["walk"]);
    let before = snapshot(dir.path());
    let (code, transcript) = halite(dir.path(), &["fmt", "--check", "walk"], b"");
    expect_file!["../test-data/cli-fmt/walk.check.txt"].assert_eq(&transcript);
    assert_eq!(code, 1, "{transcript}");
    assert_eq!(changed(&before, &snapshot(dir.path())), Vec::<String>::new(), "{transcript}");
}

#[test]
fn diff_prints_a_patch_of_each_change_and_with_check_writes_nothing() {
    let dir = workspace(&["walk"]);
    let before = snapshot(dir.path());
    let (code, transcript) = halite(dir.path(), &["fmt", "--check", "--diff", "walk"], b"");
    expect_file!["../test-data/cli-fmt/walk.diff.txt"].assert_eq(&transcript);
    assert_eq!(code, 1, "{transcript}");
    assert_eq!(changed(&before, &snapshot(dir.path())), Vec::<String>::new(), "{transcript}");

    // Without `--check` the same patch is printed and the files are written.
    let (code, written) = halite(dir.path(), &["fmt", "--diff", "walk"], b"");
    assert_eq!(code, 0, "{written}");
    assert_eq!(
        written.split_once('\n').map(|(_, rest)| rest),
        transcript.split_once('\n').map(|(_, rest)| rest.replacen("exit: 1", "exit: 0", 1)).as_deref(),
        "{written}"
    );
    assert_eq!(changed(&before, &snapshot(dir.path())), REFORMATTED, "{written}");
}

#[test]
fn a_file_named_on_the_command_line_is_formatted_whatever_its_name() {
    let dir = workspace(&["walk"]);
    let before = snapshot(dir.path());
    let (code, transcript) = halite(dir.path(), &["fmt", "walk/terragrunt.hcl.example"], b"");
    assert_eq!(
        transcript,
        "$ halite fmt walk/terragrunt.hcl.example\nexit: 0\n--- stdout\nwalk/terragrunt.hcl.example\n--- stderr\n"
    );
    assert_eq!(code, 0, "{transcript}");
    assert_eq!(changed(&before, &snapshot(dir.path())), ["walk/terragrunt.hcl.example"], "{transcript}");
    let text =
        fs::read_to_string(dir.path().join("walk/terragrunt.hcl.example")).expect("the file is readable");
    assert_eq!(text, "inputs = {}\n");
}

#[test]
fn a_json_file_named_on_the_command_line_is_left_alone_with_a_note() {
    let dir = workspace(&["walk"]);
    let before = snapshot(dir.path());
    let (code, transcript) = halite(dir.path(), &["fmt", "walk/main.tf.json", "walk/formatted.tf"], b"");
    assert_eq!(
        transcript,
        "$ halite fmt walk/main.tf.json walk/formatted.tf\nexit: 0\n--- stdout\n--- stderr\n\
         note: `walk/main.tf.json` is in the JSON syntax, which `halite fmt` does not format; left as it is\n"
    );
    assert_eq!(code, 0, "{transcript}");
    assert_eq!(changed(&before, &snapshot(dir.path())), Vec::<String>::new(), "{transcript}");
}

/// The files of `styles/` that get Terraform's style by their names, and
/// are not in it; the others (Packer, Nomad, a Stacks file) are already as
/// `hclwrite.Format` writes them, though each holds what Terraform's style
/// would rewrite.
const TERRAFORM_STYLED: &[&str] = &["styles/main.tf", "styles/tests/main.tftest.hcl"];

#[test]
fn each_file_gets_the_style_its_name_gives_it() {
    let dir = workspace(&["styles"]);
    let before = snapshot(dir.path());
    let (code, transcript) = halite(dir.path(), &["fmt", "styles"], b"");
    assert_eq!(code, 0, "{transcript}");
    assert_eq!(changed(&before, &snapshot(dir.path())), TERRAFORM_STYLED, "{transcript}");
    expect_file!["../test-data/cli-fmt/styles.after.txt"].assert_eq(&contents(dir.path()));
}

#[test]
fn the_style_flag_chooses_one_style_for_every_file() {
    // In hclwrite's style, nothing in the folder changes.
    let dir = workspace(&["styles"]);
    let before = snapshot(dir.path());
    let (code, transcript) = halite(dir.path(), &["fmt", "--style", "hcl", "styles"], b"");
    assert_eq!(code, 0, "{transcript}");
    assert_eq!(changed(&before, &snapshot(dir.path())), Vec::<String>::new(), "{transcript}");

    // In Terraform's, every file changes, whatever its name.
    let (code, transcript) = halite(dir.path(), &["fmt", "--style", "terraform", "styles"], b"");
    assert_eq!(code, 0, "{transcript}");
    assert_eq!(changed(&before, &snapshot(dir.path())).len(), 5, "{transcript}");
    let text = fs::read_to_string(dir.path().join("styles/job.nomad")).expect("the file is readable");
    assert_eq!(text, "job \"example\" {\n  region = var.region\n}\n");
}

#[test]
fn stdin_filename_chooses_the_style_and_names_the_input() {
    let dir = workspace(&[]);
    let input = b"resource a b {\n  x = \"${var.x}\"\n}\n";
    let terraform = "resource \"a\" \"b\" {\n  x = var.x\n}\n";
    let (code, transcript) = halite(dir.path(), &["fmt", "--stdin-filename", "main.tf"], input);
    assert_eq!(
        transcript,
        format!("$ halite fmt --stdin-filename main.tf\nexit: 0\n--- stdout\n{terraform}--- stderr\n")
    );
    assert_eq!(code, 0);
    let (code, transcript) = halite(dir.path(), &["fmt", "--stdin-filename", "main.tf", "-"], input);
    assert!(transcript.contains(terraform), "{transcript}");
    assert_eq!(code, 0);

    // Without a name, or with a name of another tool, or with `--style
    // hcl`, standard input is formatted as hclwrite formats it.
    for args in [
        &["fmt", "-"][..],
        &["fmt", "--stdin-filename", "build.pkr.hcl"],
        &["fmt", "--stdin-filename", "main.tf", "--style", "hcl"],
    ] {
        let (code, transcript) = halite(dir.path(), args, input);
        assert!(
            transcript.contains("--- stdout\nresource a b {\n  x = \"${var.x}\"\n}\n--- stderr"),
            "{transcript}"
        );
        assert_eq!(code, 0);
    }

    // The name is what `--check` lists and what diagnostics name.
    let (code, transcript) =
        halite(dir.path(), &["fmt", "--check", "--stdin-filename", "dir/main.tf"], input);
    assert_eq!(
        transcript,
        "$ halite fmt --check --stdin-filename dir/main.tf\nexit: 1\n--- stdout\ndir/main.tf\n--- stderr\n"
    );
    assert_eq!(code, 1);
    let (code, transcript) =
        halite(dir.path(), &["fmt", "--stdin-filename", "dir/main.tf"], b"a=1\nb = [1 2]\n");
    expect_file!["../test-data/cli-fmt/stdin-filename-syntax-error.txt"].assert_eq(&transcript);
    assert_eq!(code, 2);
}

#[test]
fn stdin_named_as_json_comes_back_unchanged_with_a_note() {
    let dir = workspace(&[]);
    let input = b"{\"a\":1}\n";
    let (code, transcript) = halite(dir.path(), &["fmt", "--stdin-filename", "main.tf.json"], input);
    assert_eq!(
        transcript,
        "$ halite fmt --stdin-filename main.tf.json\nexit: 0\n--- stdout\n{\"a\":1}\n--- stderr\n\
         note: `main.tf.json` is in the JSON syntax, which `halite fmt` does not format; left as it is\n"
    );
    assert_eq!(code, 0);
}

#[test]
fn stdin_filename_takes_no_paths() {
    let dir = workspace(&["styles"]);
    let before = snapshot(dir.path());
    let (code, transcript) = halite(dir.path(), &["fmt", "--stdin-filename", "main.tf", "styles"], b"a=1\n");
    assert_eq!(
        transcript,
        "$ halite fmt --stdin-filename main.tf styles\nexit: 2\n--- stdout\n--- stderr\n\
         halite: `--stdin-filename` names standard input, which cannot be formatted together with paths\n"
    );
    assert_eq!(code, 2);
    assert_eq!(changed(&before, &snapshot(dir.path())), Vec::<String>::new(), "{transcript}");
}

#[test]
fn help_says_which_flags_write_files() {
    let dir = workspace(&[]);
    let (code, transcript) = halite(dir.path(), &["fmt", "--help"], b"");
    assert_eq!(code, 0, "{transcript}");
    let help = transcript.split_whitespace().collect::<Vec<_>>().join(" ");
    for sentence in [
        "every file whose formatting changes, in place, unless --check is given; --diff writes them too",
        "--check never writes",
        "Standard input (`-`) is never written anywhere but standard output",
        "The files are still written unless --check is given",
    ] {
        assert!(help.contains(sentence), "`fmt --help` does not say {sentence:?}:\n{transcript}");
    }
}

#[test]
fn writing_keeps_the_permissions_and_follows_symbolic_links() {
    let dir = workspace(&["walk"]);
    let main = dir.path().join("walk/main.tf");
    fs::set_permissions(&main, fs::Permissions::from_mode(0o640)).expect("permissions are set");
    std::os::unix::fs::symlink("main.tf", dir.path().join("walk/link.tf")).expect("a symbolic link");

    let (code, transcript) = halite(dir.path(), &["fmt", "walk/link.tf"], b"");
    assert_eq!(code, 0, "{transcript}");
    let metadata = fs::metadata(&main).expect("main.tf is still there");
    assert_eq!(metadata.permissions().mode() & 0o7777, 0o640);
    let link = fs::symlink_metadata(dir.path().join("walk/link.tf")).expect("the link is still there");
    assert!(link.file_type().is_symlink(), "the link was replaced by a file");
    let text = fs::read_to_string(&main).expect("main.tf is readable");
    assert!(text.contains("\n  ami           = \"ami-123\"\n"), "{text}");
    // No temporary file is left behind.
    let names: Vec<String> = fs::read_dir(dir.path().join("walk"))
        .expect("the folder is readable")
        .map(|entry| entry.expect("the folder is readable").file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".halite"))
        .collect();
    assert_eq!(names, Vec::<String>::new());
}

#[test]
fn stdin_already_formatted_comes_back_unchanged() {
    let dir = workspace(&[]);
    let input = b"resource \"a\" \"b\" {\n  name  = \"x\"\n  count = 2\n}\n";
    let (code, transcript) = halite(dir.path(), &["fmt", "-"], input);
    let expected =
        format!("$ halite fmt -\nexit: 0\n--- stdout\n{}--- stderr\n", String::from_utf8_lossy(input));
    assert_eq!(transcript, expected);
    assert_eq!(code, 0);
    // With `--check` or `--diff` there is nothing to print.
    for flag in ["--check", "--diff"] {
        let (code, transcript) = halite(dir.path(), &["fmt", flag, "-"], input);
        assert_eq!(transcript, format!("$ halite fmt {flag} -\nexit: 0\n--- stdout\n--- stderr\n"));
        assert_eq!(code, 0);
    }
}

#[test]
fn stdin_is_formatted_to_stdout() {
    let dir = workspace(&[]);
    let (code, transcript) = halite(dir.path(), &["fmt", "-"], b"a=1\nblock {\nb=2\n}\n");
    assert_eq!(transcript, "$ halite fmt -\nexit: 0\n--- stdout\na = 1\nblock {\n  b = 2\n}\n--- stderr\n");
    assert_eq!(code, 0);
    let (code, transcript) = halite(dir.path(), &["fmt", "--check", "-"], b"a=1\n");
    assert_eq!(transcript, "$ halite fmt --check -\nexit: 1\n--- stdout\n<stdin>\n--- stderr\n");
    assert_eq!(code, 1);
    let (code, transcript) = halite(dir.path(), &["fmt", "--diff", "-"], b"a=1\n");
    expect_file!["../test-data/cli-fmt/stdin.diff.txt"].assert_eq(&transcript);
    assert_eq!(code, 0);
}

#[test]
fn stdin_with_a_syntax_error_prints_its_diagnostics_and_exits_2() {
    let dir = workspace(&[]);
    let (code, transcript) = halite(dir.path(), &["fmt", "-"], b"a=1\nb = [1 2]\n");
    expect_file!["../test-data/cli-fmt/stdin-syntax-error.txt"].assert_eq(&transcript);
    assert_eq!(code, 2);
}

#[test]
fn stdin_not_utf8_is_refused() {
    let dir = workspace(&[]);
    let (code, transcript) = halite(dir.path(), &["fmt", "-"], b"a=\"caf\xe9\"\n");
    expect_file!["../test-data/cli-fmt/stdin-invalid-utf8.txt"].assert_eq(&transcript);
    assert_eq!(code, 2);
}

#[test]
fn a_missing_path_stops_the_run_before_anything_is_written() {
    let dir = workspace(&["walk"]);
    let before = snapshot(dir.path());
    let (code, transcript) = halite(dir.path(), &["fmt", "walk", "no-such-dir"], b"");
    expect_file!["../test-data/cli-fmt/missing-path.txt"].assert_eq(&transcript);
    assert_eq!(code, 2);
    assert_eq!(changed(&before, &snapshot(dir.path())), Vec::<String>::new(), "{transcript}");
}

#[test]
fn stdin_cannot_be_mixed_with_paths() {
    let dir = workspace(&["walk"]);
    let before = snapshot(dir.path());
    let (code, transcript) = halite(dir.path(), &["fmt", "walk", "-"], b"a=1\n");
    expect_file!["../test-data/cli-fmt/stdin-and-paths.txt"].assert_eq(&transcript);
    assert_eq!(code, 2);
    assert_eq!(changed(&before, &snapshot(dir.path())), Vec::<String>::new(), "{transcript}");
}

#[test]
fn a_long_run_in_a_pipe_prints_no_progress() {
    // More files than the progress bar's threshold, all formatted already:
    // in a pipe the run must print nothing at all.
    let dir = workspace(&[]);
    let many = dir.path().join("many");
    fs::create_dir(&many).expect("a folder");
    for index in 0..150 {
        fs::write(many.join(format!("f{index:03}.tf")), format!("a = {index}\n")).expect("a file");
    }
    let (code, transcript) = halite(dir.path(), &["fmt", "many"], b"");
    assert_eq!(transcript, "$ halite fmt many\nexit: 0\n--- stdout\n--- stderr\n");
    assert_eq!(code, 0);
}

/// The names in `dir` that look like `halite fmt`'s temporary files.
fn temporary_files(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .expect("the folder is readable")
        .map(|entry| entry.expect("the folder is readable").file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".halite"))
        .collect()
}

/// A file the user may not write is refused, as `terraform fmt` is: a
/// rename needs only the directory's permission, so without the check a
/// user who may write the directory would replace a read-only file (and
/// own it). As root, the command runs as `nobody` on a root-owned file in a
/// directory anyone may write; as any other user, on the user's own
/// read-only file in the user's own directory.
#[test]
fn a_file_the_user_may_not_write_is_refused_and_left_intact() {
    let dir = workspace(&["walk"]);
    let main = dir.path().join("walk/main.tf");
    fs::set_permissions(&main, fs::Permissions::from_mode(0o444)).expect("permissions are set");
    fs::set_permissions(dir.path().join("walk"), fs::Permissions::from_mode(0o777))
        .expect("permissions are set");
    let before = snapshot(dir.path());
    let Some((code, transcript)) = support::run_halite_unprivileged(dir.path(), &["fmt", "walk/main.tf"])
    else {
        return;
    };
    assert_eq!(
        transcript,
        "$ halite fmt walk/main.tf\nexit: 2\n--- stdout\n--- stderr\n\
         halite: cannot write `walk/main.tf` (left as it was): you may not write it (permission denied)\n"
    );
    assert_eq!(code, 2);
    assert_eq!(changed(&before, &snapshot(dir.path())), Vec::<String>::new());
    let after = fs::metadata(&main).expect("the file has metadata");
    assert_eq!(after.uid(), fs::metadata(dir.path()).expect("the folder has metadata").uid());
    assert_eq!(temporary_files(&dir.path().join("walk")), Vec::<String>::new());

    // Reading is allowed: `--check` still says it would change.
    let (code, transcript) = halite(dir.path(), &["fmt", "--check", "walk/main.tf"], b"");
    assert_eq!(code, 1, "{transcript}");
    assert!(transcript.contains("--- stdout\nwalk/main.tf\n"), "{transcript}");
}

/// A FIFO named on the command line is neither read (which would wait for
/// a writer) nor replaced by a regular file; the other files are formatted,
/// and a walk passes over FIFOs as over anything that is not a file.
#[test]
fn a_fifo_is_refused_not_read_and_not_replaced() {
    let dir = workspace(&["walk"]);
    let status = std::process::Command::new("mkfifo")
        .arg(dir.path().join("walk/pipe.tf"))
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    let (code, transcript) = halite(dir.path(), &["fmt", "walk/pipe.tf", "walk/main.tf"], b"");
    assert_eq!(
        transcript,
        "$ halite fmt walk/pipe.tf walk/main.tf\nexit: 2\n--- stdout\nwalk/main.tf\n--- stderr\n\
         halite: `walk/pipe.tf` is not a regular file but a FIFO; left as it is\n"
    );
    assert_eq!(code, 2);
    let pipe = fs::symlink_metadata(dir.path().join("walk/pipe.tf")).expect("the FIFO is still there");
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&pipe.file_type()), "the FIFO was replaced");

    let (code, transcript) = halite(dir.path(), &["fmt", "--check", "walk/pipe.tf"], b"");
    assert_eq!(code, 2, "{transcript}");
    assert!(transcript.contains("is not a regular file but a FIFO"), "{transcript}");

    let (code, transcript) = halite(dir.path(), &["fmt", "--check", "walk"], b"");
    assert_eq!(code, 1, "{transcript}");
    assert!(!transcript.contains("pipe.tf"), "{transcript}");
}

/// A file with other hard links is refused (README.md, "Formatting"): the
/// rename would give this name the new text and leave the others with the
/// old, and writing in place could leave half a file if interrupted.
#[test]
fn a_file_with_other_hard_links_is_refused_and_both_names_kept() {
    let dir = workspace(&["walk"]);
    fs::hard_link(dir.path().join("walk/main.tf"), dir.path().join("walk/main.tf.orig"))
        .expect("a hard link");
    let before = snapshot(dir.path());
    let (code, transcript) = halite(dir.path(), &["fmt", "walk/main.tf", "walk/prod.tfvars"], b"");
    assert_eq!(
        transcript,
        "$ halite fmt walk/main.tf walk/prod.tfvars\nexit: 2\n--- stdout\nwalk/prod.tfvars\n--- stderr\n\
         halite: cannot write `walk/main.tf` (left as it was): it has 2 hard links, and replacing it would \
         leave the other names with the old text\n"
    );
    assert_eq!(code, 2);
    assert_eq!(changed(&before, &snapshot(dir.path())), ["walk/prod.tfvars"]);
    let links = fs::metadata(dir.path().join("walk/main.tf")).expect("main.tf is there").nlink();
    assert_eq!(links, 2);
    assert_eq!(temporary_files(&dir.path().join("walk")), Vec::<String>::new());
}

/// A walk that meets an unreadable directory or a non-UTF-8 name says so,
/// naming it, and formats everything else (exit 2).
#[test]
fn a_walk_reports_what_it_cannot_read_and_formats_the_rest() {
    use std::{ffi::OsStr, os::unix::ffi::OsStrExt};
    let dir = workspace(&["walk"]);
    let root = dir.path().join("walk");
    let latin1 = root.join(OsStr::from_bytes(b"caf\xe9"));
    fs::create_dir(&latin1).expect("a directory");
    fs::write(latin1.join("main.tf"), "c=1\n").expect("a file");
    fs::create_dir(root.join("secret")).expect("a directory");
    fs::write(root.join("secret/main.tf"), "e=1\n").expect("a file");
    fs::set_permissions(root.join("secret"), fs::Permissions::from_mode(0o000)).expect("permissions are set");
    // The files the run rewrites, for `nobody` when run as root.
    fs::set_permissions(&root, fs::Permissions::from_mode(0o777)).expect("permissions are set");
    for name in REFORMATTED {
        let parent = dir.path().join(name).parent().expect("a parent").to_owned();
        fs::set_permissions(&parent, fs::Permissions::from_mode(0o777)).expect("permissions are set");
        fs::set_permissions(dir.path().join(name), fs::Permissions::from_mode(0o666))
            .expect("permissions are set");
    }
    let run = support::run_halite_unprivileged(dir.path(), &["fmt", "walk"]);
    // Listable again, so that the temporary directory can be removed.
    fs::set_permissions(root.join("secret"), fs::Permissions::from_mode(0o755)).expect("permissions are set");
    let Some((code, transcript)) = run else { return };
    assert_eq!(code, 2, "{transcript}");
    let (stdout, stderr) = transcript
        .split_once("--- stdout\n")
        .and_then(|(_, rest)| rest.split_once("--- stderr\n"))
        .expect("a transcript");
    assert_eq!(stdout, REFORMATTED.iter().map(|name| format!("{name}\n")).collect::<String>());
    assert_eq!(
        stderr,
        "halite: cannot read `walk/caf\\xE9/main.tf`: its path is not UTF-8\n\
         halite: cannot read `walk/secret`: Permission denied (os error 13)\n"
    );
    assert_eq!(fs::read(latin1.join("main.tf")).expect("readable"), b"c=1\n");
    assert_eq!(fs::read(root.join("secret/main.tf")).expect("readable"), b"e=1\n");
}

/// An interrupted `fmt` (SIGTERM, as a CI runner's timeout sends it, or
/// Ctrl-C) leaves no temporary file behind, and every file is either as it
/// was or formatted whole. Interrupted at several moments: whether a given
/// one falls mid-run depends on the machine, and a run that finished first
/// must leave the same.
#[test]
fn an_interrupted_fmt_leaves_no_temporary_file() {
    let unformatted = "locals {\na=1\nbb = 2\n}\n";
    let formatted = "locals {\n  a  = 1\n  bb = 2\n}\n";
    for delay in [20, 40, 80] {
        let dir = tempfile::tempdir().expect("a temporary directory");
        for module in 0..25 {
            let module = dir.path().join(format!("m{module:02}"));
            std::fs::create_dir(&module).expect("a directory");
            for file in 0..40 {
                std::fs::write(module.join(format!("f{file:02}.tf")), unformatted).expect("a file");
            }
        }
        let mut child = support::halite_command()
            .current_dir(dir.path())
            .args(["fmt", "."])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("halite starts");
        std::thread::sleep(std::time::Duration::from_millis(delay));
        let killed = std::process::Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(killed.success());
        let status = child.wait().expect("halite ends");
        // Finished, interrupted while writing (130), or ended by the
        // signal before its first write, when no handler is needed yet.
        assert!(matches!(status.code(), Some(0 | 130) | None), "{status:?}");
        let mut left = Vec::new();
        let mut half = Vec::new();
        for module in std::fs::read_dir(dir.path()).expect("a listing") {
            for entry in std::fs::read_dir(module.expect("an entry").path()).expect("a listing") {
                let path = entry.expect("an entry").path();
                let name = path.file_name().and_then(|it| it.to_str()).unwrap_or_default().to_owned();
                if name.starts_with(".halite-fmt-") {
                    left.push(name);
                    continue;
                }
                let text = std::fs::read_to_string(&path).expect("a file");
                if text != unformatted && text != formatted {
                    half.push(name);
                }
            }
        }
        assert!(left.is_empty(), "left behind after {delay} ms: {left:?}");
        assert!(half.is_empty(), "half-written after {delay} ms: {half:?}");
    }
}

/// What a `halite.toml` excludes is not formatted, found by a walk or
/// named (as a pre-commit hook names staged files), as `check` leaves it
/// out.
#[test]
fn fmt_leaves_excluded_files_alone() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::create_dir_all(dir.path().join("vendor/x")).expect("a directory");
    std::fs::write(dir.path().join("halite.toml"), "exclude = [\"vendor\"]\n").expect("a file");
    std::fs::write(dir.path().join("vendor/x/main.tf"), "a=1\n").expect("a file");
    std::fs::write(dir.path().join("main.tf"), "b=1\n").expect("a file");
    for args in [&["fmt", "."][..], &["fmt", "vendor/x/main.tf", "main.tf"]] {
        let (code, transcript) = halite(dir.path(), args, b"");
        assert_eq!(code, 0, "{transcript}");
        assert_eq!(std::fs::read_to_string(dir.path().join("vendor/x/main.tf")).expect("a file"), "a=1\n");
        assert_eq!(std::fs::read_to_string(dir.path().join("main.tf")).expect("a file"), "b = 1\n");
    }
}
