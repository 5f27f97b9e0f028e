//! `halite parse`: the tree and the syntax errors of one file, for
//! debugging the parser and for bug reports.

use std::io::{self, Write};

use anyhow::{Context, Result};
use camino::Utf8Path;
use db::RootDatabase;

use crate::Outcome;

pub(crate) fn run(path: &Utf8Path) -> Result<Outcome> {
    let bytes = crate::read_file_or_stdin(path)?;
    let mut db = RootDatabase::new();
    let file = db.set_file_bytes(if path == "-" { "<stdin>" } else { path.as_str() }, &bytes);

    let mut out = io::stdout().lock();
    // A file that is not UTF-8 has no tree: only the reason is printed.
    let errors = match file.encoding_error(&db) {
        Some(error) => vec![error.clone()],
        None => {
            let parse = db::parse(&db, file);
            write!(out, "{:#?}", parse.syntax_node()).context("cannot write to standard output")?;
            parse.errors().to_vec()
        }
    };
    for error in &errors {
        writeln!(out, "error {:?}: {}", error.range, error.message)
            .context("cannot write to standard output")?;
    }
    Ok(if errors.is_empty() { Outcome::Clean } else { Outcome::FoundErrors })
}
