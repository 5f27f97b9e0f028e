//! What the integration tests share: running the built `halite` binary.
//! Each test binary uses a part of it.
#![allow(dead_code)]

use std::{
    io::{BufRead as _, BufReader, Write},
    path::Path,
    process::{Child, Command, Stdio},
    sync::mpsc,
};

/// Runs `halite` in `dir` with `stdin` as its input (colour left to its own
/// rules: the output is not a terminal) and returns the exit code and a
/// transcript of the command line, the exit code and both outputs.
pub fn run_halite(dir: &Path, args: &[&str], stdin: &[u8]) -> (i32, String) {
    run(Command::new(env!("CARGO_BIN_EXE_halite")), dir, args, stdin)
        .unwrap_or_else(|error| panic!("the halite binary runs: {error}"))
}

/// [`run_halite`] with these environment variables set (Terraform's
/// `TF_VAR_NAME`), shown first in the transcript.
pub fn run_halite_with_env(dir: &Path, args: &[&str], environment: &[(&str, &str)]) -> (i32, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_halite"));
    command.envs(environment.iter().copied());
    let (code, transcript) =
        run(command, dir, args, b"").unwrap_or_else(|error| panic!("the halite binary runs: {error}"));
    let shown: Vec<String> = environment.iter().map(|(key, value)| format!("{key}={value:?}")).collect();
    (code, format!("env {}\n{transcript}", shown.join(" ")))
}

/// Runs `halite` in `dir` as a user without privileges, for what only
/// such a user is refused (`access(2)` and directory permissions let root
/// do anything): as `nobody` (uid and gid 65534) when the tests run as
/// root, after making `dir` writable by anyone, or else as the user who
/// runs them. `None`, with the reason printed, when `nobody` may not run
/// the binary (a target directory inside a private home): the caller
/// skips the test rather than pass it without trying.
pub fn run_halite_unprivileged(dir: &Path, args: &[&str]) -> Option<(i32, String)> {
    use std::os::unix::{
        fs::{MetadataExt, PermissionsExt},
        process::CommandExt,
    };
    let mut command = Command::new(env!("CARGO_BIN_EXE_halite"));
    // A cache of its own that it may write: the tests' shared one is not
    // its to create, and a cache it cannot use is said on standard error.
    let cache = tempfile::tempdir().expect("a temporary directory");
    std::fs::set_permissions(cache.path(), std::fs::Permissions::from_mode(0o777))
        .expect("the cache's permissions are set");
    command.env("HALITE_CACHE_DIR", cache.path());
    let as_root = std::fs::metadata(dir).expect("the directory has metadata").uid() == 0;
    if as_root {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777))
            .expect("the directory's permissions are set");
        command.uid(65534).gid(65534);
    }
    match run(command, dir, args, b"") {
        Ok(result) => Some(result),
        Err(error) if as_root && error.kind() == std::io::ErrorKind::PermissionDenied => {
            eprintln!("skipped: `nobody` may not run {} ({error})", env!("CARGO_BIN_EXE_halite"));
            None
        }
        Err(error) => panic!("the halite binary runs: {error}"),
    }
}

/// The result cache the tests' runs of `check` use (`HALITE_CACHE_DIR`),
/// in the target directory: never the user's own.
pub fn test_cache_dir() -> &'static str {
    concat!(env!("CARGO_TARGET_TMPDIR"), "/halite-cache")
}

/// A command running the built `halite`, with the tests' cache.
pub fn halite_command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_halite"));
    command.env("HALITE_CACHE_DIR", test_cache_dir());
    command
}

fn run(mut command: Command, dir: &Path, args: &[&str], stdin: &[u8]) -> std::io::Result<(i32, String)> {
    if !command.get_envs().any(|(key, _)| key == "HALITE_CACHE_DIR") {
        command.env("HALITE_CACHE_DIR", test_cache_dir());
    }
    // Terraform's variables in the environment of whoever runs the tests
    // would change what a Terraform module's `eval` reads.
    for (key, _) in std::env::vars_os() {
        if key.to_str().is_some_and(|key| key.starts_with("TF_VAR_")) {
            command.env_remove(key);
        }
    }
    let mut child = command
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut pipe = child.stdin.take().expect("stdin is piped");
    // A run that stops before reading its input (a bad argument) closes
    // the pipe first; that is its business, not a failure of the test.
    match pipe.write_all(stdin) {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
        result => result.expect("stdin takes the input"),
    }
    drop(pipe);
    let output = child.wait_with_output().expect("halite finishes");
    let code = output.status.code().expect("halite exits rather than being killed");
    let transcript = format!(
        "$ halite {}\nexit: {code}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    Ok((code, transcript))
}

/// Starts `halite watch --stats . ARGS…` in `dir`, its standard error going
/// to `stderr`, and returns the process and its standard output's lines as
/// they come (read on a thread of their own, so a test can wait for a line
/// with a timeout).
pub fn spawn_watch(dir: &Path, args: &[&str], stderr: Stdio) -> (Child, mpsc::Receiver<String>) {
    spawn_watch_with_env(dir, args, &[], stderr)
}

/// [`spawn_watch`] with `environment` added to the child's environment.
pub fn spawn_watch_with_env(
    dir: &Path,
    args: &[&str],
    environment: &[(&str, &str)],
    stderr: Stdio,
) -> (Child, mpsc::Receiver<String>) {
    let mut child = halite_command()
        .args(["watch", "--stats", "."])
        .args(args)
        .envs(environment.iter().copied())
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("halite watch runs");
    let stdout = child.stdout.take().expect("a piped standard output");
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    (child, lines)
}
