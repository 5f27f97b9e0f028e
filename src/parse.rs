//! `halite parse`: the tree and the syntax errors of one file, for
//! debugging the parser and for bug reports. A `.json` file is read in the
//! JSON syntax; standard input is native.

use std::io::{self, Write};

use anyhow::{Context, Result};
use camino::Utf8Path;
use db::{RootDatabase, SourceSyntax};

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
            let tree = match file.syntax(&db) {
                SourceSyntax::Native => db::parse(&db, file).syntax_node(),
                SourceSyntax::Json => db::parse_json(&db, file).syntax_node(),
            };
            write!(out, "{tree:#?}").context("cannot write to standard output")?;
            db::syntax_errors(&db, file).to_vec()
        }
    };
    for error in &errors {
        writeln!(out, "error {:?}: {}", error.range, error.message)
            .context("cannot write to standard output")?;
    }
    Ok(if errors.is_empty() { Outcome::Clean } else { Outcome::FoundErrors })
}
