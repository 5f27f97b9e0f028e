//! A readable dump of a file's HIR, for expected-output tests.
//!
//! Attributes and blocks are one a line, indented by nesting, in source
//! order. An expression is written on one line in a notation close to HCL but
//! explicit about structure: every operator application is parenthesised, a
//! splat shows its source and the `each` built from what it absorbed (over
//! `@`, the element), templates list their parts, object keys show whether
//! they are literal names (`a`) or expressions (`[expr]`, `[(expr)]` when
//! parenthesised), and holes print as `<missing>`.

use std::fmt::Write;

use crate::{
    Body, CallExpr, Expr, ExprId, FileHir, ForObjectExpr, ForTupleExpr, Literal, ObjectKey, SplatKind, Strip,
    TemplateFor, TemplateIf, TemplateKind, TemplatePart,
};

pub(crate) fn dump(hir: &FileHir) -> String {
    let mut out = String::new();
    body(hir, &hir.body, 0, &mut out);
    out
}

fn body(hir: &FileHir, body: &Body, depth: usize, out: &mut String) {
    // A body keeps attributes and blocks apart, each in source order, and
    // so does the dump: attributes first, then blocks.
    for &attr in &body.attributes {
        let attr = &hir[attr];
        let _ = writeln!(
            out,
            "{:indent$}{} = {}",
            "",
            name(&attr.name),
            expr(hir, attr.value),
            indent = depth * 2
        );
    }
    for &block in &body.blocks {
        let block = &hir[block];
        let mut header = name(&block.type_name).to_owned();
        for label in &block.labels {
            let _ = write!(header, " {label:?}");
        }
        let _ = writeln!(out, "{:indent$}{header} {{", "", indent = depth * 2);
        self::body(hir, &block.body, depth + 1, out);
        let _ = writeln!(out, "{:indent$}}}", "", indent = depth * 2);
    }
}

fn name(name: &str) -> &str {
    if name.is_empty() { "<missing-name>" } else { name }
}

pub(crate) fn expr(hir: &FileHir, id: ExprId) -> String {
    let mut out = String::new();
    write_expr(hir, id, &mut out);
    out
}

fn list(hir: &FileHir, ids: &[ExprId], out: &mut String) {
    for (i, &id) in ids.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_expr(hir, id, out);
    }
}

fn for_header(key_var: &Option<smol_str::SmolStr>, value_var: &str, out: &mut String) {
    out.push_str("for ");
    if let Some(key) = key_var {
        let _ = write!(out, "{}, ", name(key));
    }
    let _ = write!(out, "{} in ", name(value_var));
}

fn write_expr(hir: &FileHir, id: ExprId, out: &mut String) {
    match &hir[id] {
        Expr::Missing => out.push_str("<missing>"),
        Expr::Literal(Literal::Number(n)) => out.push_str(n),
        Expr::Literal(Literal::Bool(b)) => {
            let _ = write!(out, "{b}");
        }
        Expr::Literal(Literal::Null) => out.push_str("null"),
        Expr::Template { kind, parts } => {
            out.push_str(match kind {
                TemplateKind::Quoted => "quoted",
                TemplateKind::Heredoc { flush: false } => "heredoc",
                TemplateKind::Heredoc { flush: true } => "heredoc-flush",
                TemplateKind::Bare => "bare",
            });
            template(hir, parts, out);
        }
        Expr::Variable(v) => out.push_str(name(v)),
        Expr::GetAttr { base, name: attr } => {
            write_expr(hir, *base, out);
            let _ = write!(out, ".{}", name(attr));
        }
        Expr::Index { base, index } => {
            write_expr(hir, *base, out);
            out.push('[');
            write_expr(hir, *index, out);
            out.push(']');
        }
        Expr::LegacyIndex { base, index } => {
            write_expr(hir, *base, out);
            let _ = write!(out, ".{}", name(index));
        }
        Expr::Splat { kind, source, each } => {
            out.push_str(match kind {
                SplatKind::Attr => "splat.*(",
                SplatKind::Full => "splat[*](",
            });
            write_expr(hir, *source, out);
            out.push_str("; each: ");
            write_expr(hir, *each, out);
            out.push(')');
        }
        Expr::SplatItem => out.push('@'),
        Expr::Call(call) => {
            let CallExpr { name: function, args, expand_final } = &**call;
            let _ = write!(out, "{}(", name(function));
            list(hir, args, out);
            if *expand_final {
                out.push_str("...");
            }
            out.push(')');
        }
        Expr::Tuple(items) => {
            out.push('[');
            list(hir, items, out);
            out.push(']');
        }
        Expr::Object(items) => {
            out.push('{');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                match &item.key {
                    ObjectKey::Name(key) => out.push_str(name(key)),
                    ObjectKey::Expr { expr, parenthesised } => {
                        out.push_str(if *parenthesised { "[(" } else { "[" });
                        write_expr(hir, *expr, out);
                        out.push_str(if *parenthesised { ")]" } else { "]" });
                    }
                }
                out.push_str(" = ");
                write_expr(hir, item.value, out);
            }
            out.push('}');
        }
        Expr::ForTuple(for_expr) => {
            let ForTupleExpr { key_var, value_var, collection, value, cond } = &**for_expr;
            out.push('[');
            for_header(key_var, value_var, out);
            write_expr(hir, *collection, out);
            out.push_str(": ");
            write_expr(hir, *value, out);
            if let Some(cond) = cond {
                out.push_str(" if ");
                write_expr(hir, *cond, out);
            }
            out.push(']');
        }
        Expr::ForObject(for_expr) => {
            let ForObjectExpr { key_var, value_var, collection, key, value, grouping, cond } = &**for_expr;
            out.push('{');
            for_header(key_var, value_var, out);
            write_expr(hir, *collection, out);
            out.push_str(": ");
            write_expr(hir, *key, out);
            out.push_str(" => ");
            write_expr(hir, *value, out);
            if *grouping {
                out.push_str("...");
            }
            if let Some(cond) = cond {
                out.push_str(" if ");
                write_expr(hir, *cond, out);
            }
            out.push('}');
        }
        Expr::Unary { op, operand } => {
            let _ = write!(out, "({op}");
            write_expr(hir, *operand, out);
            out.push(')');
        }
        Expr::Binary { op, lhs, rhs } => {
            out.push('(');
            write_expr(hir, *lhs, out);
            let _ = write!(out, " {op} ");
            write_expr(hir, *rhs, out);
            out.push(')');
        }
        Expr::Conditional { cond, then_expr, else_expr } => {
            out.push('(');
            write_expr(hir, *cond, out);
            out.push_str(" ? ");
            write_expr(hir, *then_expr, out);
            out.push_str(" : ");
            write_expr(hir, *else_expr, out);
            out.push(')');
        }
    }
}

/// `opener~ … ~}` with the strip markers a directive or interpolation had.
fn delimited(opener: &str, strip: Strip, inner: impl FnOnce(&mut String), out: &mut String) {
    out.push_str(opener);
    if strip.left {
        out.push('~');
    }
    inner(out);
    if strip.right {
        out.push('~');
    }
    out.push('}');
}

fn template(hir: &FileHir, parts: &[TemplatePart], out: &mut String) {
    out.push('[');
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        match part {
            TemplatePart::Literal(text) => {
                let _ = write!(out, "{text:?}");
            }
            TemplatePart::Interpolation { expr, strip } => {
                delimited("${", *strip, |out| write_expr(hir, *expr, out), out);
            }
            TemplatePart::If(directive) => {
                let TemplateIf { cond, then_parts, else_parts, if_strip, else_strip, endif_strip } =
                    &**directive;
                delimited(
                    "%{",
                    *if_strip,
                    |out| {
                        out.push_str("if ");
                        write_expr(hir, *cond, out);
                    },
                    out,
                );
                template(hir, then_parts, out);
                if let Some(else_parts) = else_parts {
                    delimited("%{", *else_strip, |out| out.push_str("else"), out);
                    template(hir, else_parts, out);
                }
                delimited("%{", *endif_strip, |out| out.push_str("endif"), out);
            }
            TemplatePart::For(directive) => {
                let TemplateFor { key_var, value_var, collection, body, for_strip, endfor_strip } =
                    &**directive;
                delimited(
                    "%{",
                    *for_strip,
                    |out| {
                        for_header(key_var, value_var, out);
                        write_expr(hir, *collection, out);
                    },
                    out,
                );
                template(hir, body, out);
                delimited("%{", *endfor_strip, |out| out.push_str("endfor"), out);
            }
        }
    }
    out.push(']');
}
