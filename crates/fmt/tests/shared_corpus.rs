//! The whole shared corpus (`../shared/corpus`, outside the repository)
//! against the reference's formatting, for quick iteration while working on
//! the rules: `cargo test -p fmt --release --test shared_corpus -- --ignored
//! --nocapture`. The authoritative run over it is `cargo xtask conformance`;
//! this one prints the first mismatches as line diffs.

use std::{fs, path::Path};

#[test]
#[ignore = "needs ../shared/corpus; run by hand"]
fn shared_corpus_formats_like_the_reference() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let Ok(manifest) = fs::read_to_string(corpus.join("manifest.tsv")) else {
        eprintln!("no shared corpus");
        return;
    };
    let (mut total, mut same, mut shown) = (0, 0, 0);
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 4 || cols[2] != "yes" {
            continue;
        }
        let Ok(input) = fs::read_to_string(corpus.join("input").join(cols[0])) else { continue };
        let expected =
            fs::read_to_string(corpus.join("expected").join(cols[0])).unwrap_or_else(|_| input.clone());
        total += 1;
        let actual = match fmt::format_text(&input) {
            Ok(text) => text,
            Err(errors) => format!("syntax errors: {errors:?}"),
        };
        if actual == expected {
            same += 1;
        } else if shown < 8 {
            shown += 1;
            eprintln!("=== {}", cols[0]);
            for (i, (a, e)) in actual.split_inclusive('\n').zip(expected.split_inclusive('\n')).enumerate() {
                if a != e {
                    eprintln!("line {}:\n  ours: {a:?}\n  ref:  {e:?}", i + 1);
                    break;
                }
            }
        }
    }
    eprintln!("{same} of {total} formatted like the reference");
    assert_eq!(same, total);
}
