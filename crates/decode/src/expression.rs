//! Expressions of either syntax: evaluation and the static analyses of
//! `spec/information-model.md` ("Static Analysis").
//!
//! A native expression is an expression of its file's HIR, evaluated by
//! `eval` and analysed here, with ranges from the file's source map; a JSON
//! expression is answered by `crate::json`.

use std::sync::Arc;

use smol_str::SmolStr;
use syntax::{AstNode, SyntaxKind, SyntaxNode, TextRange, ast};
use value::Value;

use crate::{
    Diagnostic, Diagnostics, Range, SourceFile, Traversal, TraversalStep, failure::Failure,
    source::trimmed_range, traversal,
};

/// An expression of a body.
#[derive(Debug, Clone)]
pub struct Expression {
    pub(crate) kind: ExpressionKind,
}

#[derive(Debug, Clone)]
pub(crate) enum ExpressionKind {
    /// A native syntax expression of a file's HIR.
    Native { file: Arc<SourceFile>, expr: hir::ExprId },
    /// A JSON value, interpreted by the JSON syntax's rules.
    Json { file: Arc<SourceFile>, value: hir::SyntaxNodePtr },
    /// A value known already, with the range it stands for (dynamic blocks'
    /// iterator values, `hcldec` literals).
    Literal { value: Value, range: Range },
    /// A bare name standing for itself: an object constructor's key written
    /// as an identifier. It evaluates to the name as a string, and as a
    /// keyword or a traversal it is the name (the reference's
    /// `ObjectConsKeyExpr`, which type constraints read with
    /// `ExprAsKeyword`).
    Name { name: SmolStr, range: Range },
    /// An expression inside a `dynamic` block's `content`, evaluated with
    /// the iterator variables of its iteration (`crate::dynblock`).
    Iterated { expr: Arc<Expression>, iteration: Arc<crate::dynblock::Iteration> },
    /// An object constructor's key that starts with a parenthesis (the
    /// reference's `ForceNonLiteral`): the expression inside in every way
    /// but that it is never a keyword or a static traversal.
    NonLiteralKey(Arc<Expression>),
}

/// A function call found by static analysis: `name(args…)`.
#[derive(Debug, Clone)]
pub struct StaticCall {
    pub name: SmolStr,
    pub arguments: Vec<Expression>,
    /// The call's own expression, whose node its ranges are read from when
    /// asked for: only a diagnostic needs them, and finding the node (a
    /// walk down from the file's root) cost most of reading a file's type
    /// constraints.
    file: Arc<SourceFile>,
    expr: hir::ExprId,
}

impl StaticCall {
    /// The function's name.
    pub fn name_range(&self) -> Range {
        self.file.range(self.ranges().0)
    }

    /// The arguments between the parentheses (empty after the name when
    /// there is no argument list).
    pub fn arguments_range(&self) -> Range {
        self.file.range(self.ranges().1)
    }

    fn ranges(&self) -> (TextRange, TextRange) {
        match native_own_node(&self.file, self.expr).and_then(ast::FunctionCall::cast) {
            Some(call) => {
                let name_range = call.name_range().unwrap_or_else(|| trimmed_range(call.syntax()));
                let arguments_range = call
                    .syntax()
                    .children()
                    .find(|it| it.kind() == SyntaxKind::ARG_LIST)
                    .map_or(TextRange::empty(name_range.end()), |args| trimmed_range(&args));
                (name_range, arguments_range)
            }
            None => (TextRange::default(), TextRange::default()),
        }
    }
}

/// The reference's message when an expression is not a static traversal.
fn invalid_traversal(range: Range) -> Diagnostics {
    vec![Diagnostic::error(
        "Invalid expression",
        "A single static variable reference is required: only attribute access and indexing with constant keys. \
         No calculations, function calls, template expressions, etc are allowed here.",
        Some(range),
    )]
}

impl Expression {
    /// A value with the range it stands for.
    pub fn literal(value: Value, range: Range) -> Expression {
        Expression { kind: ExpressionKind::Literal { value, range } }
    }

    /// Parses `text` as one native syntax expression, the reference's
    /// `hclsyntax.ParseExpression` (command-line variables, expressions
    /// given as strings). The syntax errors come back as diagnostics; the
    /// expression is whatever could be read.
    pub fn parse(name: impl Into<Arc<str>>, text: impl Into<Arc<str>>) -> (Expression, Diagnostics) {
        let text = text.into();
        let parse = syntax::parse_expression(&text);
        let (hir, root, source_map) = hir::lower_expression_file(&parse.tree());
        Expression::standalone(
            name.into(),
            text,
            parse.green().clone(),
            Arc::from(parse.errors()),
            hir,
            root,
            source_map,
        )
    }

    /// Parses `text` as a bare template (no quotes; only `$${` and `%%{`
    /// escaped), the reference's `hclsyntax.ParseTemplate`.
    pub fn parse_template(name: impl Into<Arc<str>>, text: impl Into<Arc<str>>) -> (Expression, Diagnostics) {
        let text = text.into();
        let parse = syntax::parse_template(&text);
        let (hir, root, source_map) = hir::lower_template_file(&parse.tree());
        Expression::standalone(
            name.into(),
            text,
            parse.green().clone(),
            Arc::from(parse.errors()),
            hir,
            root,
            source_map,
        )
    }

    fn standalone(
        name: Arc<str>,
        text: Arc<str>,
        root: syntax::GreenNode,
        errors: Arc<[syntax::SyntaxError]>,
        hir: hir::FileHir,
        expr: hir::ExprId,
        source_map: hir::SourceMap,
    ) -> (Expression, Diagnostics) {
        let base = crate::Pos { line: 1, column: 1, byte: 0 };
        let syntax = crate::source::FileSyntax::Fragment {
            root,
            errors,
            hir: Arc::new(hir),
            source_map: Arc::new(source_map),
            base,
        };
        let file = SourceFile::fragment(name, text, syntax);
        let diagnostics = file.syntax_diagnostics();
        (Expression::native(file, expr), diagnostics)
    }

    /// An expression of a native file's HIR.
    pub(crate) fn native(file: Arc<SourceFile>, expr: hir::ExprId) -> Expression {
        Expression { kind: ExpressionKind::Native { file, expr } }
    }

    /// A bare name standing for itself (see [`ExpressionKind::Name`]).
    pub(crate) fn name(name: SmolStr, range: Range) -> Expression {
        Expression { kind: ExpressionKind::Name { name, range } }
    }

    /// This expression, evaluated in `iteration` (a part of an iterated
    /// expression found by static analysis).
    fn iterated(self, iteration: &Arc<crate::dynblock::Iteration>) -> Expression {
        Expression { kind: ExpressionKind::Iterated { expr: Arc::new(self), iteration: iteration.clone() } }
    }

    /// The expression's value in `ctx`, and what went wrong. On error the
    /// value is unknown of the dynamic type, as the reference's
    /// `cty.DynamicVal`.
    pub fn value(&self, ctx: &eval::Context) -> (Value, Diagnostics) {
        match &self.kind {
            ExpressionKind::Native { file, expr } => {
                let Some((hir, _)) = file.native_parts() else {
                    return (Value::dynamic(), Diagnostics::new());
                };
                match eval::eval_expr(&hir.exprs, *expr, ctx) {
                    Ok(value) => (value, Diagnostics::new()),
                    Err(error) => {
                        // The evaluator stops at the first error; the
                        // reference's errors and partial value are searched
                        // for apart (see `crate::failure`).
                        let failure = Failure::new(hir, ctx);
                        let diagnostics = failure
                            .errors(*expr, error, ctx)
                            .into_iter()
                            .map(|error| {
                                let subject = native_error_subject(file, &error);
                                Diagnostic::error(error.summary(), error.detail, Some(subject))
                            })
                            .collect();
                        (failure.partial_value(*expr, ctx), diagnostics)
                    }
                }
            }
            ExpressionKind::Json { file, value } => crate::json::value(file, *value, ctx),
            ExpressionKind::Literal { value, .. } => (value.clone(), Diagnostics::new()),
            ExpressionKind::Name { name, .. } => (Value::string(name), Diagnostics::new()),
            ExpressionKind::Iterated { expr, iteration } => expr.value(&iteration.eval_context(ctx)),
            ExpressionKind::NonLiteralKey(expr) => expr.value(ctx),
        }
    }

    /// Every traversal the expression reads from its context, in source
    /// order, with the steps after a dynamic index kept (see
    /// [`crate::traversal`]).
    pub fn variables(&self) -> Vec<Traversal> {
        match &self.kind {
            ExpressionKind::Native { file, expr } => traversal::native_variables(file, *expr, true),
            ExpressionKind::Json { file, value } => crate::json::variables(file, *value),
            ExpressionKind::Literal { .. } | ExpressionKind::Name { .. } => Vec::new(),
            ExpressionKind::Iterated { expr, iteration } => {
                expr.variables().into_iter().filter(|it| !iteration.binds(it.root_name())).collect()
            }
            ExpressionKind::NonLiteralKey(expr) => expr.variables(),
        }
    }

    /// The same, as the reference's `hcl.Expression.Variables` computes it:
    /// a traversal stops at the first index that is not a constant. What
    /// `hcldec --var-refs` prints.
    pub fn reference_variables(&self) -> Vec<Traversal> {
        match &self.kind {
            ExpressionKind::Native { file, expr } => traversal::native_variables(file, *expr, false),
            ExpressionKind::Json { file, value } => crate::json::reference_variables(file, *value),
            ExpressionKind::Literal { .. } | ExpressionKind::Name { .. } => Vec::new(),
            ExpressionKind::Iterated { expr, iteration } => {
                expr.reference_variables().into_iter().filter(|it| !iteration.binds(it.root_name())).collect()
            }
            ExpressionKind::NonLiteralKey(expr) => expr.reference_variables(),
        }
    }

    /// The whole expression, with the parentheses around it (the range a
    /// diagnostic about its value points at, like "Incorrect attribute
    /// value type").
    pub fn range(&self) -> Range {
        match &self.kind {
            ExpressionKind::Native { file, expr } => native_range(file, *expr),
            ExpressionKind::Json { file, value } => crate::json::range(file, *value),
            ExpressionKind::Iterated { expr, .. } | ExpressionKind::NonLiteralKey(expr) => expr.range(),
            ExpressionKind::Literal { range, .. } | ExpressionKind::Name { range, .. } => range.clone(),
        }
    }

    /// The part of the expression a diagnostic about its start points at,
    /// as the reference's `StartRange`: a call's name and opening
    /// parenthesis, a collection's opening bracket, an operator's left
    /// operand, and otherwise the whole expression.
    pub fn start_range(&self) -> Range {
        match &self.kind {
            ExpressionKind::Native { file, expr } => native_start_range(file, *expr),
            ExpressionKind::Json { file, value } => crate::json::start_range(file, *value),
            ExpressionKind::Iterated { expr, .. } | ExpressionKind::NonLiteralKey(expr) => expr.start_range(),
            ExpressionKind::Literal { range, .. } | ExpressionKind::Name { range, .. } => range.clone(),
        }
    }

    /// `hcl.ExprList`: the elements of a tuple constructor (a JSON array).
    pub fn as_list(&self) -> Option<Vec<Expression>> {
        match &self.kind {
            ExpressionKind::Native { file, expr } if parenthesised(file, *expr) => None,
            ExpressionKind::Native { file, expr } => match &file.native_parts()?.0[*expr] {
                hir::Expr::Tuple(items) => {
                    Some(items.iter().map(|&item| Expression::native(file.clone(), item)).collect())
                }
                _ => None,
            },
            ExpressionKind::Json { file, value } => crate::json::as_list(file, *value),
            ExpressionKind::Iterated { expr, iteration } => {
                Some(expr.as_list()?.into_iter().map(|item| item.iterated(iteration)).collect())
            }
            ExpressionKind::NonLiteralKey(expr) => expr.as_list(),
            ExpressionKind::Literal { .. } | ExpressionKind::Name { .. } => None,
        }
    }

    /// `hcl.ExprMap`: the key and value expressions of an object constructor.
    /// A key written as a bare name is an expression standing for the name.
    pub fn as_map(&self) -> Option<Vec<(Expression, Expression)>> {
        match &self.kind {
            ExpressionKind::Native { file, expr } if parenthesised(file, *expr) => None,
            ExpressionKind::Native { file, expr } => native_as_map(file, *expr),
            ExpressionKind::Json { file, value } => crate::json::as_map(file, *value),
            ExpressionKind::Iterated { expr, iteration } => Some(
                expr.as_map()?
                    .into_iter()
                    .map(|(key, value)| (key.iterated(iteration), value.iterated(iteration)))
                    .collect(),
            ),
            ExpressionKind::NonLiteralKey(expr) => expr.as_map(),
            ExpressionKind::Literal { .. } | ExpressionKind::Name { .. } => None,
        }
    }

    /// `hcl.ExprCall`: a function call by name.
    pub fn as_call(&self) -> Option<StaticCall> {
        match &self.kind {
            ExpressionKind::Native { file, expr } if parenthesised(file, *expr) => None,
            ExpressionKind::Native { file, expr } => native_as_call(file, *expr),
            ExpressionKind::Json { file, value } => crate::json::as_call(file, *value),
            ExpressionKind::Iterated { expr, iteration } => {
                let call = expr.as_call()?;
                Some(StaticCall {
                    arguments: call.arguments.into_iter().map(|arg| arg.iterated(iteration)).collect(),
                    ..call
                })
            }
            ExpressionKind::NonLiteralKey(expr) => expr.as_call(),
            ExpressionKind::Literal { .. } | ExpressionKind::Name { .. } => None,
        }
    }

    /// `hcl.AbsTraversalForExpr`: the expression as a traversal from a root
    /// name (a JSON string is parsed as one).
    pub fn as_traversal(&self) -> Result<Traversal, Diagnostics> {
        match &self.kind {
            ExpressionKind::Native { file, expr } => {
                traversal::native_static_traversal(file, *expr).ok_or_else(|| invalid_traversal(self.range()))
            }
            ExpressionKind::Json { file, value } => crate::json::as_traversal(file, *value),
            ExpressionKind::Iterated { expr, .. } => expr.as_traversal(),
            ExpressionKind::NonLiteralKey(expr) => Err(invalid_traversal(expr.range())),
            ExpressionKind::Name { name, range } => Ok(Traversal {
                steps: vec![TraversalStep::Root { name: name.clone(), range: range.clone() }],
            }),
            ExpressionKind::Literal { range, .. } => Err(invalid_traversal(range.clone())),
        }
    }

    /// Whether the expression is a quoted string of the native syntax
    /// (`"string"`), as opposed to a keyword or a JSON string, whose text is
    /// read as an expression.
    pub fn is_quoted_string(&self) -> bool {
        match &self.kind {
            ExpressionKind::Native { file, expr } => file.native_parts().is_some_and(|(hir, _)| {
                matches!(hir[*expr], hir::Expr::Template { kind: hir::TemplateKind::Quoted, .. })
            }),
            ExpressionKind::Iterated { expr, .. } => expr.is_quoted_string(),
            _ => false,
        }
    }

    /// `hcl.ExprAsKeyword`: a bare single name, like `string` in a type
    /// constraint.
    pub fn as_keyword(&self) -> Option<SmolStr> {
        match &self.kind {
            ExpressionKind::Json { file, value } => crate::json::as_keyword(file, *value),
            ExpressionKind::Iterated { expr, .. } => expr.as_keyword(),
            ExpressionKind::NonLiteralKey(_) => None,
            ExpressionKind::Name { name, .. } => Some(name.clone()),
            ExpressionKind::Literal { .. } => None,
            ExpressionKind::Native { file, expr } => {
                // A traversal of one root step, as the static traversal
                // reads it: a name, or `true`, `false` or `null`. Found in
                // the HIR and its source map, without the syntax: looking
                // the syntax up for every expression a schema asks about
                // was most of reading a module's type constraints.
                let (hir, _) = file.native_parts()?;
                let name = match &hir[*expr] {
                    hir::Expr::Variable(name) => SmolStr::from(*name),
                    hir::Expr::Literal(hir::Literal::Bool(true)) => SmolStr::new_static("true"),
                    hir::Expr::Literal(hir::Literal::Bool(false)) => SmolStr::new_static("false"),
                    hir::Expr::Literal(hir::Literal::Null) => SmolStr::new_static("null"),
                    _ => return None,
                };
                (!parenthesised(file, *expr)).then_some(name)
            }
        }
    }
}

/// Whether a native expression is written in parentheses. The HIR drops
/// them, but the reference keeps them as an expression of their own
/// (`ParenthesesExpr`), which is no keyword, call, tuple or object for the
/// static analyses: `(string)` is not a type constraint.
fn parenthesised(file: &SourceFile, expr: hir::ExprId) -> bool {
    file.native_parts().is_some_and(|(_, map)| map.is_parenthesised(expr))
}

/// The syntax node of a native expression, widened to the parentheses
/// around it: the HIR drops parentheses, but the reference's range of a
/// parenthesised expression includes them.
pub(crate) fn native_node(file: &SourceFile, expr: hir::ExprId) -> Option<SyntaxNode> {
    let (_, map) = file.native_parts()?;
    let mut node = map.expr_syntax(expr)?.try_to_node(&file.syntax_root())?;
    while let Some(parent) = node.parent().filter(|it| it.kind() == SyntaxKind::PAREN_EXPR) {
        node = parent;
    }
    Some(node)
}

/// The syntax node an expression was lowered from, without widening.
pub(crate) fn native_own_node(file: &SourceFile, expr: hir::ExprId) -> Option<SyntaxNode> {
    let (_, map) = file.native_parts()?;
    map.expr_syntax(expr)?.try_to_node(&file.syntax_root())
}

pub(crate) fn native_range(file: &SourceFile, expr: hir::ExprId) -> Range {
    match native_node(file, expr) {
        Some(node) => file.range(trimmed_range(&node)),
        None => file.range(TextRange::default()),
    }
}

/// The subject of an evaluation error: the range of the expression it
/// names, but where the reference points elsewhere for the same error.
fn native_error_subject(file: &SourceFile, error: &eval::EvalError) -> Range {
    let Some((hir, _)) = file.native_parts() else { return file.range(TextRange::default()) };
    match (&hir[error.expr], &error.kind) {
        // The reference points at both results, from the first to the last.
        (
            hir::Expr::Conditional { then_expr, else_expr, .. },
            eval::EvalErrorKind::InconsistentConditionalTypes { .. },
        ) => Range::between(&native_range(file, *then_expr), &native_range(file, *else_expr)),
        // The reference points a null key's error at the item's value.
        (_, eval::EvalErrorKind::NullKey) => {
            let value = hir.exprs.iter().find_map(|(_, expr)| match expr {
                hir::Expr::Object(items) => items.iter().find_map(|item| match item.key {
                    hir::ObjectKey::Expr { expr, .. } if expr == error.expr => Some(item.value),
                    _ => None,
                }),
                _ => None,
            });
            native_subject_range(file, value.unwrap_or(error.expr))
        }
        _ => native_subject_range(file, error.expr),
    }
}

/// The range the reference's diagnostics about an expression point at:
/// for an accessor, the step alone (`.name`, `[key]`), as the reference's
/// traversal and index errors do; otherwise the expression's own node,
/// without the parentheses around it.
pub(crate) fn native_subject_range(file: &SourceFile, expr: hir::ExprId) -> Range {
    let Some((hir, _)) = file.native_parts() else { return file.range(TextRange::default()) };
    match &hir[expr] {
        hir::Expr::GetAttr { .. } | hir::Expr::LegacyIndex { .. } => step_range(file, expr, SyntaxKind::DOT),
        hir::Expr::Index { .. } => step_range(file, expr, SyntaxKind::L_BRACK),
        _ => match native_own_node(file, expr) {
            Some(node) => file.range(trimmed_range(&node)),
            None => file.range(TextRange::default()),
        },
    }
}

/// The range of an accessor step: from its `.` or `[` to the end of the
/// accessor's node.
pub(crate) fn step_range(file: &SourceFile, expr: hir::ExprId, opener: SyntaxKind) -> Range {
    let Some(node) = native_own_node(file, expr) else { return file.range(TextRange::default()) };
    let whole = trimmed_range(&node);
    let start = token_range(&node, opener).map_or(whole.start(), TextRange::start);
    file.range(TextRange::new(start.min(whole.end()), whole.end()))
}

fn token_range(node: &SyntaxNode, kind: SyntaxKind) -> Option<TextRange> {
    node.children_with_tokens()
        .filter_map(|it| it.into_token())
        .find(|it| it.kind() == kind)
        .map(|it| it.text_range())
}

fn native_start_range(file: &SourceFile, expr: hir::ExprId) -> Range {
    let Some((hir, _)) = file.native_parts() else { return file.range(TextRange::default()) };
    // An operator chain starts where its leftmost operand starts; the
    // chain may be thousands of links long, so it is walked with a loop.
    let mut expr = expr;
    while let hir::Expr::Binary { lhs: first, .. } | hir::Expr::Conditional { cond: first, .. } = &hir[expr] {
        expr = *first;
    }
    let whole = || native_range(file, expr);
    let Some(node) = native_own_node(file, expr) else { return whole() };
    match &hir[expr] {
        hir::Expr::Call(_) => {
            let Some(call) = ast::FunctionCall::cast(node.clone()) else { return whole() };
            let start = call.name_range().map_or(trimmed_range(&node).start(), |it| it.start());
            let open = call
                .syntax()
                .children()
                .find(|it| it.kind() == SyntaxKind::ARG_LIST)
                .and_then(|args| token_range(&args, SyntaxKind::L_PAREN));
            match open {
                Some(open) => file.range(TextRange::new(start, open.end())),
                None => whole(),
            }
        }
        // An index with a literal key is a step of the reference's
        // traversal expression, which starts where it starts.
        hir::Expr::Index { index, .. } if traversal::native_literal_index_key(file, *index).is_some() => {
            whole()
        }
        hir::Expr::Index { .. } => match token_range(&node, SyntaxKind::L_BRACK) {
            Some(open) => file.range(open),
            None => whole(),
        },
        // A template starts with its first part, unless it is a single
        // interpolation, which the reference unwraps.
        hir::Expr::Template { parts, .. } => match parts.as_slice() {
            [hir::TemplatePart::Interpolation { .. }] | [] => whole(),
            _ => match node.children().find(|it| ast::TemplatePart::can_cast(it.kind())) {
                Some(first) => file.range(trimmed_range(&first)),
                None => whole(),
            },
        },
        hir::Expr::Tuple(_)
        | hir::Expr::Object(_)
        | hir::Expr::ForTuple(_)
        | hir::Expr::ForObject(_)
        | hir::Expr::Unary { .. } => {
            let trimmed = trimmed_range(&node);
            match node.first_token().filter(|it| trimmed.contains_range(it.text_range())) {
                Some(token) => file.range(token.text_range()),
                None => whole(),
            }
        }
        _ => whole(),
    }
}

fn native_as_map(file: &Arc<SourceFile>, expr: hir::ExprId) -> Option<Vec<(Expression, Expression)>> {
    let hir::Expr::Object(items) = &file.native_parts()?.0[expr] else { return None };
    // Lowering keeps every item of the object's node, in order, so the
    // node's items give the ranges of keys written as bare names.
    let item_nodes: Vec<ast::ObjectItem> = native_own_node(file, expr)
        .and_then(ast::ObjectExpr::cast)
        .map(|object| object.object_items().collect())
        .unwrap_or_default();
    let pairs = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let key = match &item.key {
                hir::ObjectKey::Name(name) => {
                    let range = item_nodes
                        .get(i)
                        .and_then(ast::ObjectItem::key)
                        .map_or_else(TextRange::default, |key| trimmed_range(key.syntax()));
                    Expression::name(name.clone(), file.range(range))
                }
                hir::ObjectKey::Expr { expr, parenthesised: true } => Expression {
                    kind: ExpressionKind::NonLiteralKey(Arc::new(Expression::native(file.clone(), *expr))),
                },
                hir::ObjectKey::Expr { expr, .. } => Expression::native(file.clone(), *expr),
            };
            (key, Expression::native(file.clone(), item.value))
        })
        .collect();
    Some(pairs)
}

fn native_as_call(file: &Arc<SourceFile>, expr: hir::ExprId) -> Option<StaticCall> {
    let hir::Expr::Call(call) = &file.native_parts()?.0[expr] else { return None };
    let hir::CallExpr { name, args, .. } = &**call;
    Some(StaticCall {
        name: SmolStr::from(*name),
        arguments: args.iter().map(|&arg| Expression::native(file.clone(), arg)).collect(),
        file: file.clone(),
        expr,
    })
}
