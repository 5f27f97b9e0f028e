//! Lowering the typed AST to HIR.
//!
//! Every accessor of the AST may return `None` after a syntax error, and
//! every such hole becomes [`Expr::Missing`] or an empty name, so lowering
//! is total. It is also bounded in stack: the parser lets chains of binary
//! operators and of accessors grow to thousands of links (each a level of the
//! tree), so both are walked with loops; everything else nests only as deep
//! as the parser's nesting limit allows.

use smol_str::SmolStr;
use syntax::{
    AstNode, SyntaxKind, SyntaxNode, SyntaxToken, T, TextSize,
    ast::{self, LiteralKind},
};

use crate::{
    Attribute, AttributeId, Block, BlockId, Body, CallExpr, Expr, ExprId, FileHir, ForObjectExpr,
    ForTupleExpr, Literal, Name, ObjectItem, ObjectKey, SourceMap, SplatKind, Strip, SyntaxNodePtr,
    TemplateFor, TemplateIf, TemplateKind, TemplatePart,
    escape::{decode_heredoc_text, decode_quoted_text, normalise_number},
};

/// Lowers a parsed file to its HIR and the source map beside it.
///
/// An attribute whose text holds a syntax error has a value of
/// [`Expr::Missing`], whatever the parser's recovery made of the rest of
/// it: `[1 2]` recovers as a tuple of one element, and a value computed
/// from a guess is a wrong value. Its error is the syntax error's.
pub fn lower_file(parse: &syntax::Parse<ast::SourceFile>) -> (FileHir, SourceMap) {
    let mut syntax_errors: Vec<TextSize> = parse.errors().iter().map(|error| error.range.start()).collect();
    syntax_errors.sort_unstable();
    let mut ctx = Ctx { syntax_errors, ..Ctx::default() };
    let file = parse.tree();
    let body = ctx.body(file.body());
    ctx.hir.body = body;
    (ctx.hir, ctx.map)
}

/// Lowers a text parsed as one expression ([`syntax::parse_expression`]):
/// a HIR with an empty body whose arena holds the expression, and its root.
pub fn lower_expression_file(file: &ast::ExpressionFile) -> (FileHir, ExprId, SourceMap) {
    let mut ctx = Ctx::default();
    let root = ctx.expr_opt(file.expr(), file.syntax());
    (ctx.hir, root, ctx.map)
}

/// Lowers a text parsed as a bare template ([`syntax::parse_template`]) to
/// a [`TemplateKind::Bare`] template, the root of the returned arena. Its
/// literal text is decoded as a heredoc's: only `$${` and `%%{`.
pub fn lower_template_file(file: &ast::TemplateFile) -> (FileHir, ExprId, SourceMap) {
    let mut ctx = Ctx::default();
    let root = ctx.template_file(file);
    (ctx.hir, root, ctx.map)
}

#[derive(Default)]
pub(crate) struct Ctx {
    pub(crate) hir: FileHir,
    pub(crate) map: SourceMap,
    /// While set, every expression allocated points at this node and no
    /// node points back: what is being lowered comes from another tree (a
    /// JSON string's template), which the source map cannot hold pointers
    /// into.
    detached_from: Option<SyntaxNode>,
    /// Where the file's syntax errors start, in order (see [`lower_file`]).
    syntax_errors: Vec<TextSize>,
}

/// One link of an accessor chain, innermost first once collected.
enum Access {
    Attr(Name),
    Legacy(Name),
    Index(Option<ast::Expr>),
    AttrSplat,
    FullSplat,
}

struct Link {
    access: Access,
    node: SyntaxNode,
}

/// A splat whose `each` is being built: the accessors up to (not including)
/// `end` are its.
struct OpenSplat {
    kind: SplatKind,
    source: ExprId,
    end: usize,
}

fn name_of(token: Option<SyntaxToken>) -> SmolStr {
    token.map(|it| SmolStr::new(it.text())).unwrap_or_default()
}

/// [`name_of`] for an expression, interned.
fn interned_name_of(token: Option<SyntaxToken>) -> Name {
    token.map_or_else(Name::default, |it| Name::new(it.text()))
}

fn strip_of(strip_left: bool, strip_right: bool) -> Strip {
    Strip { left: strip_left, right: strip_right }
}

impl Ctx {
    fn body(&mut self, body: Option<ast::Body>) -> Body {
        let mut out = Body::default();
        for item in body.iter().flat_map(ast::Body::items) {
            match item {
                ast::BodyItem::Attribute(attr) => out.attributes.push(self.attribute(&attr)),
                ast::BodyItem::Block(block) => out.blocks.push(self.block(&block)),
            }
        }
        out
    }

    fn attribute(&mut self, attr: &ast::Attribute) -> AttributeId {
        let value = if self.holds_syntax_error(attr.syntax()) {
            self.alloc_detached(Expr::Missing, attr.syntax())
        } else {
            self.expr_opt(attr.value(), attr.syntax())
        };
        let id = self.hir.attributes.alloc(Attribute { name: name_of(attr.name()), value });
        self.map.attributes.insert(id, SyntaxNodePtr::new(attr.syntax()));
        id
    }

    /// Whether a syntax error starts inside `node`'s text, from its first
    /// token to the end of its last one (trailing trivia and the newline
    /// left out, since the next line's error starts there), or right after
    /// it (a missing closing bracket is reported where it should be).
    fn holds_syntax_error(&self, node: &SyntaxNode) -> bool {
        if self.syntax_errors.is_empty() {
            return false;
        }
        let last = std::iter::successors(node.last_token(), |token| token.prev_token())
            .take_while(|token| node.text_range().contains_range(token.text_range()))
            .find(|token| !token.kind().is_trivia() && token.kind() != SyntaxKind::NEWLINE);
        let Some(last) = last else { return false };
        let (start, end) = (node.text_range().start(), last.text_range().end());
        let first = self.syntax_errors.partition_point(|&error| error < start);
        self.syntax_errors.get(first).is_some_and(|&error| error <= end)
    }

    fn block(&mut self, block: &ast::Block) -> BlockId {
        let labels = block
            .labels()
            .map(|label| match (label.ident(), label.quoted()) {
                (Some(ident), _) => SmolStr::new(ident.text()),
                (None, Some(quoted)) => label_text(&quoted),
                (None, None) => SmolStr::default(),
            })
            .collect();
        // The block is allocated before its body so that block ids, like
        // attribute ids, grow in source order.
        let id = self.hir.blocks.alloc(Block {
            type_name: name_of(block.type_name()),
            labels,
            body: Body::default(),
        });
        self.map.blocks.insert(id, SyntaxNodePtr::new(block.syntax()));
        let body = self.body(block.body());
        self.hir.blocks[id].body = body;
        id
    }

    pub(crate) fn template_file(&mut self, file: &ast::TemplateFile) -> ExprId {
        let parts = self.template_parts(file.template_parts(), false);
        self.alloc(Expr::Template { kind: TemplateKind::Bare, parts }, file.syntax())
    }

    /// Runs `lower` with every expression it allocates mapped to `node`
    /// (see `detached_from`).
    pub(crate) fn lower_detached_from(
        &mut self,
        node: &SyntaxNode,
        lower: impl FnOnce(&mut Ctx) -> ExprId,
    ) -> ExprId {
        let outer = self.detached_from.replace(node.clone());
        let id = lower(self);
        self.detached_from = outer;
        id
    }

    pub(crate) fn alloc(&mut self, expr: Expr, node: &SyntaxNode) -> ExprId {
        if let Some(detached) = self.detached_from.clone() {
            return self.alloc_detached(expr, &detached);
        }
        let id = self.hir.exprs.alloc(expr);
        self.map.push_expr(id, node, false);
        id
    }

    /// An expression with no node of its own (a hole, a splat's item): it
    /// points back at `node`, but `node` does not point at it.
    pub(crate) fn alloc_detached(&mut self, expr: Expr, node: &SyntaxNode) -> ExprId {
        let node = self.detached_from.clone().unwrap_or_else(|| node.clone());
        let id = self.hir.exprs.alloc(expr);
        self.map.push_expr(id, &node, true);
        id
    }

    fn expr_opt(&mut self, expr: Option<ast::Expr>, parent: &SyntaxNode) -> ExprId {
        match expr {
            Some(expr) => self.expr(expr),
            None => self.alloc_detached(Expr::Missing, parent),
        }
    }

    fn expr(&mut self, expr: ast::Expr) -> ExprId {
        let lowered = match &expr {
            ast::Expr::Literal(lit) => match (lit.kind(), lit.token()) {
                (Some(LiteralKind::Number), Some(token)) => {
                    Expr::Literal(Literal::Number(Name::new(&normalise_number(token.text()))))
                }
                (Some(LiteralKind::True), _) => Expr::Literal(Literal::Bool(true)),
                (Some(LiteralKind::False), _) => Expr::Literal(Literal::Bool(false)),
                (Some(LiteralKind::Null), _) => Expr::Literal(Literal::Null),
                _ => Expr::Missing,
            },
            ast::Expr::Variable(var) => Expr::Variable(interned_name_of(var.name())),
            ast::Expr::QuotedTemplate(tpl) => Expr::Template {
                kind: TemplateKind::Quoted,
                parts: self.template_parts(tpl.template_parts(), true),
            },
            ast::Expr::Heredoc(doc) => {
                let flush = doc.heredoc_start_token().is_some_and(|it| it.text().starts_with("<<-"));
                Expr::Template {
                    kind: TemplateKind::Heredoc { flush },
                    parts: self.template_parts(doc.template_parts(), false),
                }
            }
            ast::Expr::FunctionCall(call) => Expr::Call(Box::new(CallExpr {
                name: call.name().map_or_else(Name::default, |name| Name::new(&name)),
                args: call.args().map(|arg| self.expr(arg)).collect(),
                expand_final: call.has_expansion(),
            })),
            ast::Expr::ParenExpr(paren) => {
                // Parentheses leave no node of their own: the expression
                // inside answers for them in the source map too.
                let inner = self.expr_opt(paren.expr(), paren.syntax());
                self.map.push_paren(paren.syntax(), inner);
                return inner;
            }
            ast::Expr::TupleExpr(tuple) => Expr::Tuple(tuple.exprs().map(|it| self.expr(it)).collect()),
            ast::Expr::ObjectExpr(object) => Expr::Object(
                object
                    .object_items()
                    .map(|item| {
                        let key = self.object_key(item.key(), item.syntax());
                        let value = self.expr_opt(item.value(), item.syntax());
                        ObjectItem { key, value }
                    })
                    .collect(),
            ),
            ast::Expr::ForTupleExpr(for_expr) => {
                let intro = for_expr.for_intro();
                let (key_var, value_var, collection) = self.for_intro(intro.as_ref(), for_expr.syntax());
                let value = self.expr_opt(for_expr.value_expr(), for_expr.syntax());
                let cond = self.for_cond(for_expr.for_cond());
                Expr::ForTuple(Box::new(ForTupleExpr { key_var, value_var, collection, value, cond }))
            }
            ast::Expr::ForObjectExpr(for_expr) => {
                let intro = for_expr.for_intro();
                let (key_var, value_var, collection) = self.for_intro(intro.as_ref(), for_expr.syntax());
                let key = self.expr_opt(for_expr.key_expr(), for_expr.syntax());
                let value = self.expr_opt(for_expr.value_expr(), for_expr.syntax());
                let cond = self.for_cond(for_expr.for_cond());
                Expr::ForObject(Box::new(ForObjectExpr {
                    key_var,
                    value_var,
                    collection,
                    key,
                    value,
                    grouping: for_expr.grouping_token().is_some(),
                    cond,
                }))
            }
            ast::Expr::UnaryExpr(unary) => {
                let operand = self.expr_opt(unary.operand(), unary.syntax());
                match unary.op_kind() {
                    Some(op) => Expr::Unary { op, operand },
                    None => Expr::Missing,
                }
            }
            ast::Expr::BinaryExpr(binary) => return self.binary(binary.clone()),
            ast::Expr::ConditionalExpr(cond) => Expr::Conditional {
                cond: self.expr_opt(cond.condition(), cond.syntax()),
                then_expr: self.expr_opt(cond.true_expr(), cond.syntax()),
                else_expr: self.expr_opt(cond.false_expr(), cond.syntax()),
            },
            ast::Expr::GetAttrExpr(_)
            | ast::Expr::LegacyIndexExpr(_)
            | ast::Expr::IndexExpr(_)
            | ast::Expr::AttrSplatExpr(_)
            | ast::Expr::FullSplatExpr(_) => return self.accessor_chain(expr),
        };
        self.alloc(lowered, expr.syntax())
    }

    /// A left-nested chain `a + b - c …`: the parser folds thousands of links
    /// into as many levels, so the left spine is walked with a loop.
    fn binary(&mut self, outer: ast::BinaryExpr) -> ExprId {
        let outer_node = outer.syntax().clone();
        let mut spine = vec![outer];
        let mut innermost = loop {
            let lhs = spine.last().and_then(ast::BinaryExpr::lhs);
            match lhs {
                Some(ast::Expr::BinaryExpr(inner)) => spine.push(inner),
                other => break other,
            }
        };
        let mut acc = None;
        while let Some(node) = spine.pop() {
            let lhs = match acc {
                Some(lhs) => lhs,
                None => self.expr_opt(innermost.take(), node.syntax()),
            };
            let rhs = self.expr_opt(node.rhs(), node.syntax());
            let expr = match node.op_kind() {
                Some(op) => Expr::Binary { op, lhs, rhs },
                None => Expr::Missing,
            };
            acc = Some(self.alloc(expr, node.syntax()));
        }
        // The spine started with one node, so the loop ran at least once.
        acc.unwrap_or_else(|| self.alloc_detached(Expr::Missing, &outer_node))
    }

    /// A chain of accessors over a base expression, restructured around its
    /// splats.
    ///
    /// The tree nests accessors left to right (`a.*.b.c` is
    /// `GetAttr(GetAttr(AttrSplat(a), b), c)`), but a splat applies the
    /// accessors after it to each element, so the HIR moves them into the
    /// splat's `each`, following the reference parser: an attribute-only
    /// splat (`.*`) absorbs the `.name` and `.N` accessors right after it
    /// and stops at anything else (`a.*.b[0]` indexes the splat's result); a
    /// full splat (`[*]`) absorbs every accessor after it (`a[*].b[0]`
    /// indexes each element's `b`).
    fn accessor_chain(&mut self, outer: ast::Expr) -> ExprId {
        let outer_node = outer.syntax().clone();
        // A dot with no name after it (`var.`) ends the chain with a syntax
        // error, and since HCL v2.22 the reference makes the whole chain an
        // expression that is nothing but that error: no traversal, no
        // references, no partial value.
        if let ast::Expr::GetAttrExpr(it) = &outer
            && it.name().is_none()
        {
            return self.alloc(Expr::Missing, &outer_node);
        }
        let mut links = Vec::new();
        let mut current = Some(outer);
        let base = loop {
            let (access, node, base) = match current.take() {
                Some(ast::Expr::GetAttrExpr(it)) => {
                    (Access::Attr(interned_name_of(it.name())), it.syntax().clone(), it.base())
                }
                Some(ast::Expr::LegacyIndexExpr(it)) => (
                    Access::Legacy(Name::new(
                        &it.index_token().map(|t| normalise_number(t.text())).unwrap_or_default(),
                    )),
                    it.syntax().clone(),
                    it.base(),
                ),
                Some(ast::Expr::IndexExpr(it)) => (Access::Index(it.index()), it.syntax().clone(), it.base()),
                Some(ast::Expr::AttrSplatExpr(it)) => (Access::AttrSplat, it.syntax().clone(), it.base()),
                Some(ast::Expr::FullSplatExpr(it)) => (Access::FullSplat, it.syntax().clone(), it.base()),
                other => break other,
            };
            links.push(Link { access, node });
            current = base;
        };
        links.reverse();
        // The chain has at least the outer link; a missing base belongs to
        // the innermost one.
        let base_parent = links.first().map_or(outer_node, |it| it.node.clone());
        let mut cur = self.expr_opt(base, &base_parent);

        // Splats being built, innermost last. An attribute-only splat inside
        // a full splat ends no later than it, so they close in stack order.
        let mut open: Vec<OpenSplat> = Vec::new();
        for (i, link) in links.iter().enumerate() {
            self.close_splats(&mut open, &mut cur, &links, i);
            let expr = match &link.access {
                Access::Attr(name) => Expr::GetAttr { base: cur, name: *name },
                Access::Legacy(index) => Expr::LegacyIndex { base: cur, index: *index },
                Access::Index(index) => {
                    let index = self.expr_opt(index.clone(), &link.node);
                    Expr::Index { base: cur, index }
                }
                Access::AttrSplat | Access::FullSplat => {
                    let (kind, end) = if matches!(link.access, Access::AttrSplat) {
                        let absorbed = links[i + 1..]
                            .iter()
                            .take_while(|it| matches!(it.access, Access::Attr(_) | Access::Legacy(_)))
                            .count();
                        (SplatKind::Attr, i + 1 + absorbed)
                    } else {
                        (SplatKind::Full, links.len())
                    };
                    open.push(OpenSplat { kind, source: cur, end });
                    cur = self.alloc_detached(Expr::SplatItem, &link.node);
                    continue;
                }
            };
            cur = self.alloc(expr, &link.node);
        }
        self.close_splats(&mut open, &mut cur, &links, links.len());
        cur
    }

    /// Closes the splats whose absorbed accessors end before link `at`: the
    /// expression built so far becomes the splat's `each`.
    fn close_splats(&mut self, open: &mut Vec<OpenSplat>, cur: &mut ExprId, links: &[Link], at: usize) {
        while let Some(splat) = open.pop_if(|it| it.end <= at) {
            // The splat's extent ends at its last absorbed accessor, whose
            // node covers the source and everything absorbed.
            let node = &links[splat.end - 1].node;
            let expr = Expr::Splat { kind: splat.kind, source: splat.source, each: *cur };
            *cur = self.alloc(expr, node);
        }
    }

    fn object_key(&mut self, key: Option<ast::ObjectItemKey>, item: &SyntaxNode) -> ObjectKey {
        let Some(key) = key else {
            return ObjectKey::Expr { expr: self.alloc_detached(Expr::Missing, item), parenthesised: false };
        };
        // The reference forces a key to be an expression when its first
        // token is `(`, not only when the whole key is parenthesised:
        // `{ (a).b = 1 }` is an expression key too.
        let parenthesised = key
            .syntax()
            .descendants_with_tokens()
            .filter_map(|it| it.into_token())
            .find(|it| !it.kind().is_trivia() && it.kind() != SyntaxKind::NEWLINE)
            .is_some_and(|it| it.kind() == T!['(']);
        match key.expr() {
            // A bare name is the literal string of its name. The parser makes
            // `true`, `false` and `null` literals, but the reference reads
            // them too as names here (`{ null = 1 }` has the key "null").
            Some(ast::Expr::Variable(var)) => ObjectKey::Name(name_of(var.name())),
            Some(ast::Expr::Literal(lit))
                if matches!(lit.kind(), Some(LiteralKind::True | LiteralKind::False | LiteralKind::Null)) =>
            {
                ObjectKey::Name(name_of(lit.token()))
            }
            other => ObjectKey::Expr { expr: self.expr_opt(other, key.syntax()), parenthesised },
        }
    }

    fn for_intro(
        &mut self,
        intro: Option<&ast::ForIntro>,
        parent: &SyntaxNode,
    ) -> (Option<SmolStr>, SmolStr, ExprId) {
        match intro {
            Some(intro) => (
                intro.key_name().map(|it| SmolStr::new(it.text())),
                name_of(intro.value_name()),
                self.expr_opt(intro.collection(), intro.syntax()),
            ),
            None => (None, SmolStr::default(), self.alloc_detached(Expr::Missing, parent)),
        }
    }

    fn for_cond(&mut self, cond: Option<ast::ForCond>) -> Option<ExprId> {
        let cond = cond?;
        Some(self.expr_opt(cond.condition(), cond.syntax()))
    }

    fn template_parts<Parts: FromIterator<TemplatePart>>(
        &mut self,
        parts: impl Iterator<Item = ast::TemplatePart>,
        quoted: bool,
    ) -> Parts {
        parts.map(|part| self.template_part(part, quoted)).collect()
    }

    fn template_part(&mut self, part: ast::TemplatePart, quoted: bool) -> TemplatePart {
        match part {
            ast::TemplatePart::TemplateLiteral(lit) => TemplatePart::Literal(literal_text(&lit, quoted)),
            ast::TemplatePart::TemplateInterpolation(interp) => TemplatePart::Interpolation {
                expr: self.expr_opt(interp.expr(), interp.syntax()),
                strip: strip_of(interp.strip_left(), interp.strip_right()),
            },
            ast::TemplatePart::TemplateIf(tpl_if) => {
                let if_dir = tpl_if.if_directive();
                let cond =
                    self.expr_opt(if_dir.as_ref().and_then(ast::IfDirective::condition), tpl_if.syntax());
                let then_parts = match tpl_if.then_template() {
                    Some(t) => self.template_parts(t.template_parts(), quoted),
                    None => Vec::new(),
                };
                let else_parts =
                    tpl_if.else_template().map(|t| self.template_parts(t.template_parts(), quoted));
                let else_dir = tpl_if.else_directive();
                let endif_dir = tpl_if.endif_directive();
                TemplatePart::If(Box::new(TemplateIf {
                    cond,
                    then_parts,
                    else_parts,
                    if_strip: if_dir.map(|d| strip_of(d.strip_left(), d.strip_right())).unwrap_or_default(),
                    else_strip: else_dir
                        .map(|d| strip_of(d.strip_left(), d.strip_right()))
                        .unwrap_or_default(),
                    endif_strip: endif_dir
                        .map(|d| strip_of(d.strip_left(), d.strip_right()))
                        .unwrap_or_default(),
                }))
            }
            ast::TemplatePart::TemplateFor(tpl_for) => {
                let for_dir = tpl_for.for_directive();
                let (key_var, value_var, collection) = match &for_dir {
                    Some(d) => (
                        d.key_name().map(|it| SmolStr::new(it.text())),
                        name_of(d.value_name()),
                        self.expr_opt(d.collection(), d.syntax()),
                    ),
                    None => (None, SmolStr::default(), self.alloc_detached(Expr::Missing, tpl_for.syntax())),
                };
                let body = match tpl_for.template() {
                    Some(t) => self.template_parts(t.template_parts(), quoted),
                    None => Vec::new(),
                };
                let endfor_dir = tpl_for.endfor_directive();
                TemplatePart::For(Box::new(TemplateFor {
                    key_var,
                    value_var,
                    collection,
                    body,
                    for_strip: for_dir.map(|d| strip_of(d.strip_left(), d.strip_right())).unwrap_or_default(),
                    endfor_strip: endfor_dir
                        .map(|d| strip_of(d.strip_left(), d.strip_right()))
                        .unwrap_or_default(),
                }))
            }
        }
    }
}

/// The decoded text of a literal part: a quoted string's tokens take
/// backslash escapes, a heredoc's (one token a line) only `$${` and `%%{`.
fn literal_text(lit: &ast::TemplateLiteral, quoted: bool) -> SmolStr {
    // Most literals are one token with nothing to decode: taken as they
    // are, without the two strings the general case builds.
    let mut tokens = lit.text_tokens();
    if let (Some(only), None) = (tokens.next(), tokens.next()) {
        let text = only.text();
        // By bytes: every escape starts with an ASCII byte, and a pattern
        // of chars is matched a char at a time.
        let escaped = |byte: u8| byte == b'$' || byte == b'%' || (quoted && byte == b'\\');
        if !text.bytes().any(escaped) {
            return SmolStr::new(text);
        }
    }
    let mut raw = String::new();
    for token in lit.text_tokens() {
        raw.push_str(token.text());
    }
    SmolStr::from(if quoted { decode_quoted_text(&raw) } else { decode_heredoc_text(&raw) })
}

/// A quoted block label's text. The parser rejects template sequences in
/// labels, so only the literal parts are taken.
fn label_text(quoted: &ast::QuotedTemplate) -> SmolStr {
    // Most labels are one literal: its text as it is.
    let mut parts = quoted.template_parts();
    if let (Some(ast::TemplatePart::TemplateLiteral(only)), None) = (parts.next(), parts.next()) {
        return literal_text(&only, true);
    }
    let mut out = String::new();
    for part in quoted.template_parts() {
        if let ast::TemplatePart::TemplateLiteral(lit) = part {
            out.push_str(&literal_text(&lit, true));
        }
    }
    SmolStr::from(out)
}
