//! Every native file of the vendored corpus (`test-data/corpus/input`) read
//! every way the API allows, without a panic: each body's blocks found by
//! asking for the types the diagnostics name (with zero to three labels),
//! each attribute evaluated with the standard library and no variables,
//! its traversals in both forms, its ranges and its static analyses, down
//! through lists, maps and call arguments. The reference form of every
//! traversal must be a prefix of a fixed one where no dynamic index
//! intervenes, so the two analyses agree on the roots they find.

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};

use decode::{BlockHeaderSchema, Body, BodySchema, Expression, SourceFile, TraversalStep};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else if path
            .extension()
            .is_some_and(|ext| ["hcl", "tf", "nomad", "tfvars"].iter().any(|it| ext == *it))
        {
            out.push(path);
        }
    }
}

/// The block types `content` calls unsupported, from its diagnostics.
fn block_types(body: &Body) -> Vec<String> {
    let (_, diagnostics) = body.content(&BodySchema::default());
    let mut types: Vec<String> = diagnostics
        .iter()
        .filter(|it| it.summary == "Unsupported block type")
        .filter_map(|it| it.detail.split('"').nth(1).map(str::to_owned))
        .collect();
    types.sort();
    types.dedup();
    types
}

struct Counts {
    /// The standard library's context, built once.
    stdlib: eval::Context,
    attributes: usize,
    blocks: usize,
    expressions: usize,
}

fn walk_body(body: &Body, counts: &mut Counts, depth: usize) {
    let (attributes, _) = body.just_attributes();
    for attribute in &attributes {
        counts.attributes += 1;
        walk_expression(&attribute.expr, counts, 0);
    }
    let _ = body.missing_item_range();
    if depth > 32 {
        return;
    }
    let types = block_types(body);
    for labels in 0..4 {
        let schema = BodySchema {
            attributes: Vec::new(),
            blocks: types
                .iter()
                .map(|it| BlockHeaderSchema {
                    type_name: it.as_str().into(),
                    label_names: (0..labels).map(|i| format!("l{i}").into()).collect(),
                })
                .collect(),
        };
        let (content, rest, _) = body.partial_content(&schema);
        let _ = rest.just_attributes();
        for block in &content.blocks {
            counts.blocks += 1;
            assert_eq!(block.labels.len(), block.label_ranges.len());
            walk_body(&block.body, counts, depth + 1);
        }
    }
}

fn walk_expression(expr: &Expression, counts: &mut Counts, depth: usize) {
    counts.expressions += 1;
    // Parts are evaluated as part of their whole; evaluating each again
    // would cost quadratic time in the nesting.
    if depth == 0 {
        let _ = expr.value(&counts.stdlib);
    }
    let range = expr.range();
    let start = expr.start_range();
    assert!(range.start.byte <= range.end.byte && start.start.byte <= start.end.byte);
    let fixed = expr.variables();
    for reference in expr.reference_variables() {
        let prefix_of_fixed = fixed.iter().any(|it| {
            it.steps.len() >= reference.steps.len()
                && it.steps.iter().zip(&reference.steps).all(|(a, b)| a == b)
        });
        let fixed_folds_more = fixed.iter().any(|it| {
            it.root_name() == reference.root_name()
                && it.steps.first().map(TraversalStep::range)
                    == reference.steps.first().map(TraversalStep::range)
        });
        assert!(
            prefix_of_fixed || fixed_folds_more,
            "{}: the reference's {} is not among the fixed traversals",
            support::range(&range),
            support::traversal(&reference)
        );
    }
    let _ = expr.as_traversal();
    let _ = expr.as_keyword();
    if depth > 16 {
        return;
    }
    for item in expr.as_list().unwrap_or_default() {
        walk_expression(&item, counts, depth + 1);
    }
    for (key, value) in expr.as_map().unwrap_or_default() {
        walk_expression(&key, counts, depth + 1);
        walk_expression(&value, counts, depth + 1);
    }
    if let Some(call) = expr.as_call() {
        for argument in &call.arguments {
            walk_expression(argument, counts, depth + 1);
        }
    }
}

#[test]
fn native_corpus_read_every_way() {
    let mut paths = Vec::new();
    files(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/corpus/input"), &mut paths);
    paths.sort();
    assert!(paths.len() > 500, "the corpus is there");
    let mut counts =
        Counts { stdlib: eval::Context::with_stdlib(), attributes: 0, blocks: 0, expressions: 0 };
    for path in &paths {
        let Ok(text) = fs::read_to_string(path) else { continue };
        let file = SourceFile::native(path.display().to_string(), text);
        let _ = file.syntax_diagnostics();
        walk_body(&file.body(), &mut counts, 0);
    }
    assert!(counts.attributes > 10_000, "{} attributes", counts.attributes);
    assert!(counts.blocks > 1_000, "{} blocks", counts.blocks);
    assert!(counts.expressions > counts.attributes);
    eprintln!(
        "{} attributes, {} blocks, {} expressions",
        counts.attributes, counts.blocks, counts.expressions
    );
}

/// Broken files read every way without a panic: every tenth corpus file,
/// cut short, with a span deleted, or with a bracket, quote or operator put
/// in, at places chosen by a fixed pseudo-random sequence.
#[test]
fn broken_native_files_read_every_way() {
    let mut paths = Vec::new();
    files(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/corpus/input"), &mut paths);
    paths.sort();
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |bound: usize| {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(state >> 33).unwrap_or(0) % bound.max(1)
    };
    let mut counts =
        Counts { stdlib: eval::Context::with_stdlib(), attributes: 0, blocks: 0, expressions: 0 };
    let inserts = ["{", "}", "[", "]", "(", ")", "\"", "${", "%{", "=", ".", "\n", "<<EOT\n", "*", "?", ","];
    for path in paths.iter().step_by(10) {
        let Ok(text) = fs::read_to_string(path) else { continue };
        for round in 0..4 {
            let mut at = next(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let broken = match round {
                0 => text[..at].to_owned(),
                1 => {
                    let mut end = (at + next(40)).min(text.len());
                    while !text.is_char_boundary(end) {
                        end -= 1;
                    }
                    format!("{}{}", &text[..at], &text[end..])
                }
                _ => format!("{}{}{}", &text[..at], inserts[next(inserts.len())], &text[at..]),
            };
            let file = SourceFile::native(path.display().to_string(), broken);
            let _ = file.syntax_diagnostics();
            walk_body(&file.body(), &mut counts, 0);
        }
    }
    assert!(counts.attributes > 1_000, "{} attributes", counts.attributes);
}
