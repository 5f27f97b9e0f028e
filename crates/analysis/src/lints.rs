//! The per-file style lints of the native syntax.
//!
//! Each lint finds a form that HCL (or Terraform, its largest user) still
//! accepts for compatibility with HCL 1 and HIL but that is deprecated, and
//! offers the modern form as a suggestion that means the same thing. The
//! registry in `rules.rs` says why each form is deprecated.
//!
//! They run on the lossless tree only (no HIR, no values), so they cost one
//! walk of the tree and need nothing but the file. They run only on a file
//! without syntax errors: the tree of a broken file is a guess, and a
//! suggestion built on a guess may not mean what the user wrote.

use db::{Db, File};
use syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange};

use crate::{
    Diagnostic, Edit, Suggestion,
    rules::{ATTRIBUTE_SPLAT, INTERPOLATION_ONLY, LEGACY_INDEX, QUOTED_TYPE_CONSTRAINT},
};

/// Every style lint's diagnostics for a native-syntax file, in tree order.
pub(crate) fn native_lints(db: &dyn Db, file: File) -> Vec<Diagnostic> {
    let parse = db::parse(db, file);
    let root = parse.syntax_node();
    let mut diagnostics = Vec::new();
    let nomad = is_nomad_job(file.path(db).as_str(), &root);
    let terraform =
        vfs::FileKind::of(file.path(db)).is_some_and(|kind| kind.language == vfs::Language::Terraform);
    // The kinds the lints look at are rare, and `variable` blocks are at
    // the top level (the file, its body, the block): a walk of the green
    // tree finds them without a cursor for every other node.
    let wanted = |node: &syntax::GreenNodeData, depth: usize| match SyntaxKind::from(node.kind().0) {
        // What `interpolation_only` asks first: one child node, an
        // interpolation, between two quotes.
        SyntaxKind::QUOTED_TEMPLATE => {
            let kind_of = |child: syntax::GreenElementRef<'_>| SyntaxKind::from(child.kind().0);
            let mut nodes = node.children().filter(|child| child.as_node().is_some());
            !nomad
                && nodes.next().is_some_and(|child| kind_of(child) == SyntaxKind::TEMPLATE_INTERPOLATION)
                && nodes.next().is_none()
                && node.children().filter(|&child| kind_of(child) == SyntaxKind::QUOTE).count() == 2
        }
        SyntaxKind::LEGACY_INDEX_EXPR | SyntaxKind::ATTR_SPLAT_EXPR => true,
        SyntaxKind::BLOCK => depth == 2,
        _ => false,
    };
    for node in syntax::descendants_where(&root, wanted) {
        match node.kind() {
            SyntaxKind::QUOTED_TEMPLATE if !nomad => interpolation_only(file, &node, &mut diagnostics),
            SyntaxKind::LEGACY_INDEX_EXPR => legacy_index(file, &node, &mut diagnostics),
            SyntaxKind::ATTR_SPLAT_EXPR => attribute_splat(file, &node, &mut diagnostics),
            SyntaxKind::BLOCK => quoted_type_constraint(file, terraform, &node, &mut diagnostics),
            _ => {}
        }
    }
    diagnostics
}

/// Whether the file is a Nomad job specification: by its name, or by a
/// top-level `job` block, as Nomad's own `.hcl` job files have.
///
/// Nomad leaves interpolations of its runtime variables (`${attr.kernel.name}`,
/// `${node.unique.id}`, `${NOMAD_ALLOC_ID}`) in strings for its client to
/// replace when a task is placed; without the quotes they would be
/// references the job parser cannot resolve. So `"${attr.kernel.name}"` is
/// the idiomatic and only correct form there, and `interpolation-only` must
/// not fire.
fn is_nomad_job(path: &str, root: &SyntaxNode) -> bool {
    if vfs::FileKind::of(camino::Utf8Path::new(path))
        .is_some_and(|kind| kind.language == vfs::Language::Nomad)
    {
        return true;
    }
    root.children()
        .filter(|body| body.kind() == SyntaxKind::BODY)
        .flat_map(|body| body.children())
        .filter(|item| item.kind() == SyntaxKind::BLOCK)
        .any(|block| first_ident_text(&block).as_deref() == Some("job"))
}

// ---------------------------------------------------------------------------
// interpolation-only

/// `"${expr}"`: a quoted template that is one interpolation and nothing else.
///
/// The reference's parser gives such a template its own node
/// (`TemplateWrapExpr`), which yields the inner value unchanged rather than
/// converting it to a string, so the unquoted expression means the same.
fn interpolation_only(file: File, template: &SyntaxNode, diagnostics: &mut Vec<Diagnostic>) {
    // Exactly `"`, one interpolation, `"`: no literal text (not even empty),
    // no directive.
    let mut nodes = template.children();
    let (Some(interpolation), None) = (nodes.next(), nodes.next()) else { return };
    if interpolation.kind() != SyntaxKind::TEMPLATE_INTERPOLATION {
        return;
    }
    let quotes = template.children_with_tokens().filter(|it| it.kind() == SyntaxKind::QUOTE).count();
    if quotes != 2 {
        return;
    }
    let mut exprs = interpolation.children();
    let (Some(inner), None) = (exprs.next(), exprs.next()) else { return };
    // A block label cannot hold an interpolation (that is a syntax error),
    // but should the grammar ever allow one, a label must stay a string.
    if template.parent().is_some_and(|parent| parent.kind() == SyntaxKind::BLOCK_LABEL) {
        return;
    }
    if is_placeholder(&inner) {
        return;
    }

    let inner_text = inner_source(&interpolation);
    let replacement =
        if needs_parentheses(template, &inner, &inner_text) { format!("({inner_text})") } else { inner_text };
    let diagnostic = Diagnostic::warning(
        INTERPOLATION_ONLY,
        "Interpolation-only expressions are deprecated",
        file,
        template.text_range(),
    )
    .with_note(
        "A string made of one interpolation is the inner expression itself; HCL 2 does not need \
         the \"${…}\" wrapping that HCL 1 and Terraform 0.11 required.",
    )
    .with_suggestion(Suggestion {
        message: "write the expression without the quotes and `${ }`".to_owned(),
        edits: vec![Edit { range: template.text_range(), replacement }],
    });
    diagnostics.push(diagnostic);
}

/// Whether the interpolated expression is a bare name that no enclosing
/// `for` binds: `"${token}"`.
///
/// No configuration language on HCL has bare root names of its own but the
/// variables of `for` expressions, so such a name is a placeholder: the file
/// is a template for another tool (Terraform's `templatefile` writing a
/// Consul or Boundary configuration, Nomad's runtime variables such as
/// `${NOMAD_ALLOC_ID}`), and the quotes are part of what it writes out.
/// Removing them would break that output, so the lint stays quiet.
fn is_placeholder(inner: &SyntaxNode) -> bool {
    if inner.kind() != SyntaxKind::VARIABLE {
        return false;
    }
    let Some(name) = child_token(inner, SyntaxKind::IDENT) else { return false };
    let bound = inner.ancestors().any(|ancestor| {
        let intro = match ancestor.kind() {
            SyntaxKind::FOR_TUPLE_EXPR | SyntaxKind::FOR_OBJECT_EXPR => {
                ancestor.children().find(|child| child.kind() == SyntaxKind::FOR_INTRO)
            }
            SyntaxKind::TEMPLATE_FOR => {
                ancestor.children().find(|child| child.kind() == SyntaxKind::FOR_DIRECTIVE)
            }
            _ => None,
        };
        // The intro's own identifiers are `for`, the one or two names and
        // `in`; a name spelt `for` or `in` is not worth telling apart.
        intro.is_some_and(|intro| {
            intro
                .children_with_tokens()
                .filter_map(|it| it.into_token())
                .any(|token| token.kind() == SyntaxKind::IDENT && token.text() == name.text())
        })
    });
    !bound
}

/// The text between `${` (and its `~`) and `}` (and its `~`), without the
/// whitespace around it.
fn inner_source(interpolation: &SyntaxNode) -> String {
    let mut text = String::new();
    let mut started = false;
    for element in interpolation.children_with_tokens() {
        match element.kind() {
            SyntaxKind::DOLLAR_L_CURLY => started = true,
            SyntaxKind::R_CURLY => break,
            SyntaxKind::TILDE => {}
            _ if started => text.push_str(&element.to_string()),
            _ => {}
        }
    }
    text.trim().to_owned()
}

/// Whether the unwrapped expression needs parentheses to keep its meaning
/// where the template stood.
///
/// An object key does always: a bare name there is a literal key, and
/// `(var.name) = …` is how HCL spells a computed key. An expression on
/// several lines does, since only brackets let an expression span lines in
/// an attribute. An operator expression does unless the template filled a
/// whole slot (an attribute's value, an element, an argument, an object
/// value, parentheses), since the operators around it may bind tighter.
fn needs_parentheses(template: &SyntaxNode, inner: &SyntaxNode, inner_text: &str) -> bool {
    let Some(parent) = template.parent() else { return true };
    if parent.kind() == SyntaxKind::OBJECT_ITEM_KEY || inner_text.contains('\n') {
        return true;
    }
    let operator = matches!(
        inner.kind(),
        SyntaxKind::BINARY_EXPR | SyntaxKind::UNARY_EXPR | SyntaxKind::CONDITIONAL_EXPR
    );
    let whole_slot = matches!(
        parent.kind(),
        SyntaxKind::ATTRIBUTE
            | SyntaxKind::TUPLE_EXPR
            | SyntaxKind::ARG_LIST
            | SyntaxKind::OBJECT_ITEM
            | SyntaxKind::PAREN_EXPR
            | SyntaxKind::TEMPLATE_INTERPOLATION
    );
    operator && !whole_slot
}

// ---------------------------------------------------------------------------
// quoted-type-constraint

/// `type = "string"` in a top-level `variable` block: the type keywords
/// Terraform 0.11 accepted in quotes, with the type expression each meant.
///
/// An error in a Terraform file (`*.tf`, `*.tofu`), as `terraform validate`
/// reports it since Terraform 0.15 ("Invalid quoted type constraints"); a
/// warning elsewhere, where the module model reports what the tool's type
/// reader says of it (HCL's type expressions reject it:
/// `invalid-type-constraint`), and this lint gives the fix.
fn quoted_type_constraint(
    file: File,
    terraform: bool,
    block: &SyntaxNode,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let top_level = block
        .parent()
        .and_then(|body| body.parent())
        .is_some_and(|parent| parent.kind() == SyntaxKind::SOURCE_FILE);
    if !top_level || first_ident_text(block).as_deref() != Some("variable") {
        return;
    }
    let Some(body) = block.children().find(|child| child.kind() == SyntaxKind::BODY) else { return };
    for attribute in body.children().filter(|child| child.kind() == SyntaxKind::ATTRIBUTE) {
        if first_ident_text(&attribute).as_deref() != Some("type") {
            continue;
        }
        let Some(value) = attribute.children().next() else { continue };
        let Some(keyword) = plain_string(&value) else { continue };
        let (replacement, note) = match keyword.as_str() {
            "string" => ("string", None),
            "list" => ("list(string)", Some("A quoted \"list\" meant a list of strings.")),
            "map" => ("map(string)", Some("A quoted \"map\" meant a map of strings.")),
            _ => continue,
        };
        let severity = if terraform { crate::Severity::Error } else { crate::Severity::Warning };
        let mut diagnostic = Diagnostic::new(
            severity,
            QUOTED_TYPE_CONSTRAINT,
            "Quoted type constraints are deprecated",
            file,
            value.text_range(),
        )
        .with_note(
            "Terraform 0.11 and earlier required type constraints to be given in quotes; \
             Terraform 0.15 and later reject them.",
        );
        if let Some(note) = note {
            diagnostic = diagnostic.with_note(note);
        }
        diagnostics.push(diagnostic.with_suggestion(Suggestion {
            message: format!("write the type as `{replacement}`"),
            edits: vec![Edit { range: value.text_range(), replacement: replacement.to_owned() }],
        }));
    }
}

/// The text of a quoted template that is plain literal text without escapes,
/// such as `"string"`.
fn plain_string(node: &SyntaxNode) -> Option<String> {
    if node.kind() != SyntaxKind::QUOTED_TEMPLATE {
        return None;
    }
    let mut parts = node.children();
    let (Some(literal), None) = (parts.next(), parts.next()) else { return None };
    if literal.kind() != SyntaxKind::TEMPLATE_LITERAL {
        return None;
    }
    let text = literal.text().to_string();
    text.bytes().all(|byte| byte.is_ascii_alphabetic()).then_some(text)
}

// ---------------------------------------------------------------------------
// legacy-index

/// `list.0`: suggest `list[0]`.
///
/// Not inside the body of an attribute-only splat (`list.*.0`): there the
/// `.0` applies to each element, and `list.*[0]` would index the result
/// instead. `attribute-splat` rewrites that chain first; after it, `[*].0`
/// is absorbed by the full splat and `[0]` means the same.
fn legacy_index(file: File, node: &SyntaxNode, diagnostics: &mut Vec<Diagnostic>) {
    let Some(number) = child_token(node, SyntaxKind::NUMBER) else { return };
    // `a.0.1` lexes as the number `0.1`, which the parser already reports.
    if !number.text().bytes().all(|byte| byte.is_ascii_digit()) {
        return;
    }
    if in_attribute_splat_body(node) {
        return;
    }
    let Some(dot) = child_token(node, SyntaxKind::DOT) else { return };
    let range = TextRange::new(dot.text_range().start(), number.text_range().end());
    let index = number.text();
    diagnostics.push(
        Diagnostic::warning(LEGACY_INDEX, format!("Legacy index syntax `.{index}`"), file, range)
            .with_note(
                "The `.N` index exists for compatibility with HIL (Terraform 0.11); HCL 2 \
                 writes an index in brackets.",
            )
            .with_suggestion(Suggestion {
                message: format!("write the index as `[{index}]`"),
                edits: vec![Edit { range, replacement: format!("[{index}]") }],
            }),
    );
}

/// Whether a `.name` or `.N` accessor belongs to the body of a `.*` splat:
/// the chain of such accessors below it reaches an attribute-only splat.
fn in_attribute_splat_body(node: &SyntaxNode) -> bool {
    let mut base = node.first_child();
    while let Some(current) = base {
        match current.kind() {
            SyntaxKind::GET_ATTR_EXPR | SyntaxKind::LEGACY_INDEX_EXPR => base = current.first_child(),
            SyntaxKind::ATTR_SPLAT_EXPR => return true,
            _ => return false,
        }
    }
    false
}

// ---------------------------------------------------------------------------
// attribute-splat

/// `list.*.id`: suggest `list[*].id`.
///
/// The attribute-only splat applies the `.name` and `.N` accessors after it
/// to each element, and stops there; the full splat applies every accessor
/// after it. So where a bracket follows the splat's accessors
/// (`list.*.id[0]`, the first id), the rewrite keeps the meaning with
/// parentheses, which end a splat: `(list[*].id)[0]`.
fn attribute_splat(file: File, splat: &SyntaxNode, diagnostics: &mut Vec<Diagnostic>) {
    let (Some(dot), Some(star)) = (child_token(splat, SyntaxKind::DOT), child_token(splat, SyntaxKind::STAR))
    else {
        return;
    };
    let operator = TextRange::new(dot.text_range().start(), star.text_range().end());

    // The splat's body: the `.name` / `.N` accessors of which it is the base.
    let mut end = splat.clone();
    while let Some(parent) = end.parent() {
        let is_body_accessor =
            matches!(parent.kind(), SyntaxKind::GET_ATTR_EXPR | SyntaxKind::LEGACY_INDEX_EXPR)
                && parent.first_child().as_ref() == Some(&end);
        if !is_body_accessor {
            break;
        }
        end = parent;
    }
    let bracket_follows = end.parent().is_some_and(|parent| {
        matches!(
            parent.kind(),
            SyntaxKind::INDEX_EXPR | SyntaxKind::FULL_SPLAT_EXPR | SyntaxKind::ATTR_SPLAT_EXPR
        ) && parent.first_child().as_ref() == Some(&end)
    });

    let mut edits = Vec::new();
    if bracket_follows {
        edits.push(Edit { range: TextRange::empty(splat.text_range().start()), replacement: "(".to_owned() });
    }
    edits.push(Edit { range: operator, replacement: "[*]".to_owned() });
    if bracket_follows {
        edits.push(Edit { range: TextRange::empty(end.text_range().end()), replacement: ")".to_owned() });
    }
    let mut diagnostic =
        Diagnostic::warning(ATTRIBUTE_SPLAT, "Attribute-only splat `.*` is a legacy form", file, operator)
            .with_note(
                "The attribute-only splat exists for compatibility with HIL (Terraform 0.11); the full \
         splat `[*]` applies every accessor after it to each element.",
            );
    if bracket_follows {
        diagnostic = diagnostic.with_note(
            "Here an index follows the splat's attributes and applies to the whole result; the \
             parentheses keep it so.",
        );
    }
    diagnostics.push(
        diagnostic.with_suggestion(Suggestion { message: "use the full splat `[*]`".to_owned(), edits }),
    );
}

// ---------------------------------------------------------------------------
// Tree helpers

fn child_token(node: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    node.children_with_tokens().filter_map(|it| it.into_token()).find(|token| token.kind() == kind)
}

/// The text of the first identifier directly in `node`: an attribute's name
/// or a block's type.
fn first_ident_text(node: &SyntaxNode) -> Option<String> {
    child_token(node, SyntaxKind::IDENT).map(|token| token.text().to_owned())
}
