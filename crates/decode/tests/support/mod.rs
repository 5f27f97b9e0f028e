//! Helpers shared by the decode crate's tests: schemas written compactly,
//! and diagnostics, ranges, content and traversals rendered one item a line
//! for expected-output files.

#![allow(dead_code)]

use std::fmt::Write;
use std::path::PathBuf;

use decode::{
    AttributeSchema, BlockHeaderSchema, BodyContent, BodySchema, Diagnostic, Range, Traversal, TraversalStep,
};

/// The directory of this crate's test data.
pub fn test_data(sub: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/decode").join(sub)
}

/// A schema from a compact description: `a!` a required attribute, `a` an
/// optional one, `svc[name,kind]` a block type with labels, `svc[]` one
/// without.
pub fn schema(items: &[&str]) -> BodySchema {
    let mut schema = BodySchema::default();
    for item in items {
        if let Some((type_name, labels)) = item.split_once('[') {
            let labels = labels.trim_end_matches(']');
            schema.blocks.push(BlockHeaderSchema {
                type_name: type_name.into(),
                label_names: labels.split(',').filter(|it| !it.is_empty()).map(Into::into).collect(),
            });
        } else if let Some(name) = item.strip_suffix('!') {
            schema.attributes.push(AttributeSchema { name: name.into(), required: true });
        } else {
            schema.attributes.push(AttributeSchema { name: (*item).into(), required: false });
        }
    }
    schema
}

/// `line:column-line:column (byte-byte)`, and the file name when it is not
/// `expected_file`.
pub fn range(range: &Range) -> String {
    format!(
        "{}:{}:{}-{}:{}({}-{})",
        range.filename,
        range.start.line,
        range.start.column,
        range.end.line,
        range.end.column,
        range.start.byte,
        range.end.byte
    )
}

pub fn diagnostics(out: &mut String, diagnostics: &[Diagnostic]) {
    for diagnostic in diagnostics {
        let severity = if diagnostic.is_error() { "error" } else { "warning" };
        let _ = write!(out, "{severity}: {} | {}", diagnostic.summary, diagnostic.detail);
        match &diagnostic.subject {
            Some(subject) => {
                let _ = write!(out, " | {}", range(subject));
            }
            None => out.push_str(" | -"),
        }
        if let Some(context) = &diagnostic.context {
            let _ = write!(out, " | context {}", range(context));
        }
        out.push('\n');
    }
}

/// The content's attributes (name, ranges, value in an empty context) and
/// blocks (header and ranges).
pub fn content(out: &mut String, content: &BodyContent) {
    for attribute in &content.attributes {
        let (value, _) = attribute.expr.value(&eval::Context::new());
        let _ = writeln!(
            out,
            "attribute {} = {} range {} name {}",
            attribute.name,
            value_text(&value),
            range(&attribute.range),
            range(&attribute.name_range)
        );
    }
    for block in &content.blocks {
        let labels: Vec<String> = block.labels.iter().map(|it| format!("{it:?}")).collect();
        let label_ranges: Vec<String> = block.label_ranges.iter().map(range).collect();
        let _ = writeln!(
            out,
            "block {} [{}] def {} type {} labels [{}] missing-item {}",
            block.type_name,
            labels.join(", "),
            range(&block.def_range),
            range(&block.type_range),
            label_ranges.join(", "),
            range(&block.body.missing_item_range()),
        );
    }
    let _ = writeln!(out, "missing-item {}", range(&content.missing_item_range));
}

/// A value as cty JSON with its type, or `unknown` / `null` of its type.
pub fn value_text(value: &value::Value) -> String {
    let ty = value.ty();
    if !value.is_wholly_known() {
        return format!("unknown({})", ty.to_json_string());
    }
    match value.to_json_string(&ty) {
        Ok(json) => format!("{json} : {}", ty.to_json_string()),
        Err(error) => format!("<{error:?}>"),
    }
}

/// A traversal as one line: `root.attr[key][…]` with each step's range.
pub fn traversal(traversal: &Traversal) -> String {
    let mut out = String::new();
    for step in &traversal.steps {
        match step {
            TraversalStep::Root { name, range: r } => {
                let _ = write!(out, "{name}@{}", short_range(r));
            }
            TraversalStep::Attr { name, range: r } => {
                let _ = write!(out, " .{name}@{}", short_range(r));
            }
            TraversalStep::Index { key, range: r } => {
                let key = key.to_json_string(&key.ty()).unwrap_or_else(|_| "?".into());
                let _ = write!(out, " [{key}]@{}", short_range(r));
            }
            TraversalStep::DynamicIndex { range: r } => {
                let _ = write!(out, " […]@{}", short_range(r));
            }
        }
    }
    let _ = write!(out, " ({})", short_range(&traversal.range()));
    out
}

/// `line:column-line:column`, for the many ranges of a traversal.
pub fn short_range(range: &Range) -> String {
    format!("{}:{}-{}:{}", range.start.line, range.start.column, range.end.line, range.end.column)
}
