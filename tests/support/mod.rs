//! What the integration tests share: running the built `halite` binary.

use std::{
    io::Write,
    path::Path,
    process::{Command, Stdio},
};

/// Runs `halite` in `dir` with `stdin` as its input (colour left to its own
/// rules: the output is not a terminal) and returns the exit code and a
/// transcript of the command line, the exit code and both outputs.
pub fn run_halite(dir: &Path, args: &[&str], stdin: &[u8]) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_halite"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the halite binary runs");
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
    (code, transcript)
}
