//! What a native expression that failed to evaluate reports and yields, as
//! the reference's would.
//!
//! The evaluator (`eval`) stops at the first error. The reference goes on:
//! it evaluates every element, item, argument, operand and template part, a
//! conditional's condition and the branch it selects, a `for` expression's
//! body once per element, and reports the errors of each; and it returns a
//! partial value built around the failures (an object whose member failed
//! is still an object), which matters when the value is converted
//! afterwards. [`Failure`] recovers both by evaluating the parts of a failed
//! expression that stand on their own, in source order, looking further
//! down each part that fails. When no part fails alone, the error belongs
//! to the expression itself.
//!
//! The search is bounded in depth and in the number of evaluations, and
//! all of them share the evaluation steps of one evaluation
//! ([`eval::Limits::max_steps`]), so a failing expression with nested
//! `for` expressions over large collections costs at most a fixed amount
//! of extra work; past the budget, what was found so far is reported. An
//! expression that went past a limit is not searched: its parts did not
//! fail.

use std::cell::Cell;
use std::collections::BTreeMap;

use value::{Type, Value};

/// How deep the search looks for the errors of an expression's parts
/// before it settles for the first error of the whole.
const MAX_DEPTH: usize = 64;

/// How many evaluations one search may make.
const MAX_EVALUATIONS: usize = 2_000;

/// A search for the errors and the partial value of one failed expression.
pub(crate) struct Failure<'a> {
    hir: &'a hir::FileHir,
    evaluations_left: Cell<usize>,
    steps_left: Cell<u64>,
}

/// The iteration of a `for` expression.
struct ForIteration<'a> {
    key_var: Option<&'a str>,
    value_var: &'a str,
    collection: hir::ExprId,
    cond: Option<hir::ExprId>,
}

impl<'a> ForIteration<'a> {
    /// The iteration of a `for` expression; `None` for any other.
    fn of(expr: &'a hir::Expr) -> Option<ForIteration<'a>> {
        let (key_var, value_var, collection, cond) = match expr {
            hir::Expr::ForTuple(it) => (&it.key_var, &it.value_var, it.collection, it.cond),
            hir::Expr::ForObject(it) => (&it.key_var, &it.value_var, it.collection, it.cond),
            _ => return None,
        };
        Some(ForIteration { key_var: key_var.as_deref(), value_var, collection, cond })
    }

    /// The context of one iteration: `ctx` with the iteration variables,
    /// which makes variables allowed, as the reference's child context does.
    fn context(&self, ctx: &eval::Context, key: Value, value: Value) -> eval::Context {
        let mut child = ctx.clone();
        if let Some(key_var) = self.key_var {
            child.variables.insert(key_var.to_owned(), key);
        }
        child.variables.insert(self.value_var.to_owned(), value);
        child.variables_allowed = true;
        child
    }
}

impl<'a> Failure<'a> {
    /// A search in `ctx`, whose limits bound it.
    pub(crate) fn new(hir: &'a hir::FileHir, ctx: &eval::Context) -> Failure<'a> {
        Failure {
            hir,
            evaluations_left: Cell::new(MAX_EVALUATIONS),
            steps_left: Cell::new(ctx.limits.max_steps),
        }
    }

    /// Evaluates `expr`, or `None` once the budget is spent.
    fn eval(&self, expr: hir::ExprId, ctx: &eval::Context) -> Option<Result<Value, eval::EvalError>> {
        let left = self.evaluations_left.get();
        if left == 0 || self.steps_left.get() == 0 {
            return None;
        }
        self.evaluations_left.set(left - 1);
        let mut steps = self.steps_left.get();
        let result = eval::eval_expr_metered(&self.hir.exprs, expr, ctx, &mut steps);
        self.steps_left.set(steps);
        Some(result)
    }

    /// Every error of `expr`, whose evaluation failed with `error`.
    pub(crate) fn errors(
        &self,
        expr: hir::ExprId,
        error: eval::EvalError,
        ctx: &eval::Context,
    ) -> Vec<eval::EvalError> {
        if matches!(error.kind, eval::EvalErrorKind::LimitExceeded(_)) {
            self.steps_left.set(0);
            return vec![error];
        }
        let mut errors = Vec::new();
        self.errors_into(expr, ctx, 0, &mut errors);
        if errors.is_empty() {
            errors.push(error);
        }
        errors
    }

    /// The errors of the parts of `expr`, which failed, into `errors`; none
    /// when no part fails on its own (the error is then `expr`'s own).
    fn errors_into(
        &self,
        expr: hir::ExprId,
        ctx: &eval::Context,
        depth: usize,
        errors: &mut Vec<eval::EvalError>,
    ) {
        if depth >= MAX_DEPTH {
            return;
        }
        match &self.hir[expr] {
            it @ (hir::Expr::ForTuple(_) | hir::Expr::ForObject(_)) => {
                if let Some(iteration) = ForIteration::of(it) {
                    self.for_errors(expr, &iteration, ctx, depth, errors);
                }
            }
            hir::Expr::Template { parts, .. }
                if !matches!(parts.as_slice(), [hir::TemplatePart::Interpolation { .. }]) =>
            {
                self.template_errors(parts, ctx, depth, errors);
            }
            _ => {
                let mut parts = Vec::new();
                self.independent_parts(expr, ctx, &mut parts);
                for part in parts {
                    self.part_errors(part, ctx, depth, errors);
                }
            }
        }
    }

    /// The errors of one part: none if it evaluates, else its parts' or
    /// its own.
    fn part_errors(
        &self,
        part: hir::ExprId,
        ctx: &eval::Context,
        depth: usize,
        errors: &mut Vec<eval::EvalError>,
    ) {
        if let Some(Err(error)) = self.eval(part, ctx) {
            let before = errors.len();
            self.errors_into(part, ctx, depth + 1, errors);
            if errors.len() == before {
                errors.push(error);
            }
        }
    }

    /// A part's value (partial when it fails) and its errors.
    fn part_outcome(
        &self,
        part: hir::ExprId,
        ctx: &eval::Context,
        depth: usize,
    ) -> (Value, Vec<eval::EvalError>) {
        match self.eval(part, ctx) {
            Some(Ok(value)) => (value, Vec::new()),
            Some(Err(error)) => {
                let mut errors = Vec::new();
                self.errors_into(part, ctx, depth + 1, &mut errors);
                if errors.is_empty() {
                    errors.push(error);
                }
                (self.partial_value_at(part, ctx, depth + 1), errors)
            }
            None => (Value::dynamic(), Vec::new()),
        }
    }

    /// The errors of a template's parts: it goes on past a failed part, and
    /// finds every interpolation whose value is null or not a string.
    fn template_errors(
        &self,
        parts: &[hir::TemplatePart],
        ctx: &eval::Context,
        depth: usize,
        errors: &mut Vec<eval::EvalError>,
    ) {
        for part in parts {
            match part {
                hir::TemplatePart::Literal(_) => {}
                hir::TemplatePart::Interpolation { expr, .. } => match self.eval(*expr, ctx) {
                    Some(Err(error)) => {
                        let before = errors.len();
                        self.errors_into(*expr, ctx, depth + 1, errors);
                        if errors.len() == before {
                            errors.push(error);
                        }
                    }
                    Some(Ok(value)) => {
                        let kind = eval::EvalErrorKind::InvalidTemplateInterpolation;
                        if value.is_null() {
                            errors.push(eval::EvalError::new(
                                *expr,
                                kind,
                                "The expression result is null. Cannot include a null value in a string template.",
                            ));
                        } else if value.is_known()
                            && let Err(error) = value::convert(&value, &Type::String)
                        {
                            errors.push(eval::EvalError::new(
                                *expr,
                                kind,
                                format!("Cannot include the given value in a string template: {error}."),
                            ));
                        }
                    }
                    None => return,
                },
                hir::TemplatePart::If(directive) => {
                    let hir::TemplateIf { cond, then_parts, else_parts, .. } = &**directive;
                    match self.eval(*cond, ctx) {
                        Some(Err(_)) => {
                            self.part_errors(*cond, ctx, depth, errors);
                            continue;
                        }
                        None => return,
                        Some(Ok(_)) => {}
                    }
                    match self.selected_branch(*cond, ctx) {
                        Some(true) => self.template_errors(then_parts, ctx, depth + 1, errors),
                        Some(false) => self.template_errors(
                            else_parts.as_deref().unwrap_or_default(),
                            ctx,
                            depth + 1,
                            errors,
                        ),
                        None => {}
                    }
                }
                hir::TemplatePart::For(directive) => {
                    let hir::TemplateFor { collection, .. } = &**directive;
                    self.part_errors(*collection, ctx, depth, errors)
                }
            }
        }
    }

    /// The errors of a failed `for` expression, as the reference reports
    /// them: the collection's; then, if the collection can still be
    /// iterated, the condition's with unknown iteration variables (the
    /// reference's early check, which ends there on error); then, element
    /// by element, the condition's and, for the elements it keeps, the
    /// key's and (for a good key) the value's. An error in the body is so
    /// reported once per element, as the reference does.
    fn for_errors(
        &self,
        expr: hir::ExprId,
        iteration: &ForIteration<'_>,
        ctx: &eval::Context,
        depth: usize,
        errors: &mut Vec<eval::EvalError>,
    ) {
        let (collection, collection_errors) = self.part_outcome(iteration.collection, ctx, depth);
        errors.extend(collection_errors);
        let elements: Vec<(Value, Value)> = if !collection.is_known() || collection.is_null() {
            return;
        } else if let Some(entries) = collection.entries() {
            entries.iter().map(|(key, value)| (Value::string(key), value.clone())).collect()
        } else if let Some(elements) = collection.elements() {
            let is_set = matches!(collection.ty(), Type::Set(_));
            elements
                .iter()
                .enumerate()
                .map(|(i, value)| {
                    let key =
                        if is_set { value.clone() } else { Value::int(i64::try_from(i).unwrap_or(i64::MAX)) };
                    (key, value.clone())
                })
                .collect()
        } else {
            return;
        };
        if let Some(cond) = iteration.cond {
            let unknown = iteration.context(ctx, Value::dynamic(), Value::dynamic());
            let (_, cond_errors) = self.part_outcome(cond, &unknown, depth);
            if !cond_errors.is_empty() {
                errors.extend(cond_errors);
                return;
            }
        }
        let (key_expr, value_expr) = match &self.hir[expr] {
            hir::Expr::ForTuple(for_expr) => (None, for_expr.value),
            hir::Expr::ForObject(for_expr) => (Some(for_expr.key), for_expr.value),
            _ => return,
        };
        for (key, value) in elements {
            if self.evaluations_left.get() == 0 {
                return;
            }
            let child = iteration.context(ctx, key, value);
            if let Some(cond) = iteration.cond {
                let (keep, cond_errors) = self.part_outcome(cond, &child, depth);
                errors.extend(cond_errors);
                if value::convert(&keep, &Type::Bool).ok().and_then(|it| it.as_bool()) != Some(true) {
                    continue;
                }
            }
            // A key that fails, or is not a known value, skips the element's
            // value, as in the reference.
            if let Some(key_expr) = key_expr {
                let (key, key_errors) = self.part_outcome(key_expr, &child, depth);
                let skip = !key_errors.is_empty() || !key.is_known() || key.is_null();
                errors.extend(key_errors);
                if skip {
                    continue;
                }
            }
            errors.extend(self.part_outcome(value_expr, &child, depth).1);
        }
    }

    /// The value the reference gives `expr`, which failed: what it could
    /// compute around the failure. A collection constructor keeps its good
    /// elements (a failed one is unknown); a template, an operator and a
    /// negation are unknown of their result type, a conditional of its
    /// results' unified type; anything else is unknown of the dynamic type.
    pub(crate) fn partial_value(&self, expr: hir::ExprId, ctx: &eval::Context) -> Value {
        self.partial_value_at(expr, ctx, 0)
    }

    fn partial_value_at(&self, expr: hir::ExprId, ctx: &eval::Context, depth: usize) -> Value {
        if depth >= MAX_DEPTH {
            return Value::dynamic();
        }
        let part = |id: hir::ExprId| match self.eval(id, ctx) {
            Some(Ok(value)) => value,
            Some(Err(_)) => self.partial_value_at(id, ctx, depth + 1),
            None => Value::dynamic(),
        };
        match &self.hir[expr] {
            hir::Expr::Tuple(items) => Value::tuple(items.iter().map(|&item| part(item)).collect()),
            hir::Expr::Object(items) => {
                let mut attributes = BTreeMap::new();
                for item in items {
                    let key = match &item.key {
                        hir::ObjectKey::Name(name) => name.to_string(),
                        hir::ObjectKey::Expr { expr, .. } => {
                            // A key that fails or is not known makes the
                            // whole object unknown, as the reference's does.
                            let key = match self.eval(*expr, ctx) {
                                Some(Ok(key)) => value::convert(&key, &Type::String).ok(),
                                _ => None,
                            };
                            match key.as_ref().and_then(Value::as_str) {
                                Some(key) => key.to_owned(),
                                None => return Value::dynamic(),
                            }
                        }
                    };
                    attributes.insert(key, part(item.value));
                }
                Value::object(attributes)
            }
            // A template of one interpolation is that interpolation's value.
            hir::Expr::Template { parts, .. } => match parts.as_slice() {
                [hir::TemplatePart::Interpolation { expr, .. }] => part(*expr),
                _ => Value::unknown(Type::String),
            },
            hir::Expr::Binary { op, .. } => Value::unknown(match op {
                hir::BinaryOp::Add
                | hir::BinaryOp::Sub
                | hir::BinaryOp::Mul
                | hir::BinaryOp::Div
                | hir::BinaryOp::Rem => Type::Number,
                _ => Type::Bool,
            }),
            // The reference unifies the two results' types first, and a
            // condition that fails gives an unknown of that type.
            hir::Expr::Conditional { cond, then_expr, else_expr } => {
                let (then_value, else_value) = (part(*then_expr), part(*else_expr));
                let is_null_literal = |value: &Value| value.is_null() && value.ty() == Type::Dynamic;
                let ty = if is_null_literal(&then_value) {
                    else_value.ty()
                } else if is_null_literal(&else_value) {
                    then_value.ty()
                } else {
                    // Results with no common type are the reference's
                    // "Inconsistent conditional result types", with no value.
                    match value::unify_unsafe(&[then_value.ty(), else_value.ty()]) {
                        Some(ty) => ty,
                        None => return Value::dynamic(),
                    }
                };
                let selected = match self.selected_branch(*cond, ctx) {
                    Some(true) => then_value,
                    Some(false) => else_value,
                    None => return Value::unknown(ty),
                };
                value::convert(&selected, &ty).unwrap_or_else(|_| Value::unknown(ty))
            }
            hir::Expr::Unary { op: hir::UnaryOp::Neg, .. } => Value::unknown(Type::Number),
            hir::Expr::Unary { op: hir::UnaryOp::Not, .. } => Value::unknown(Type::Bool),
            _ => Value::dynamic(),
        }
    }

    /// The parts of an expression that the reference evaluates whatever
    /// happens to the others, and that mean the same on their own. A
    /// conditional is evaluated as the reference does: its condition, then
    /// only the branch it selects; a call to a function that cannot be
    /// called fails before its arguments are looked at; a splat's body needs
    /// its elements, so only its source is a part.
    fn independent_parts(&self, expr: hir::ExprId, ctx: &eval::Context, out: &mut Vec<hir::ExprId>) {
        match &self.hir[expr] {
            hir::Expr::Missing | hir::Expr::Literal(_) | hir::Expr::Variable(_) | hir::Expr::SplatItem => {}
            // Templates and `for` expressions have searches of their own.
            hir::Expr::Template { parts, .. } => {
                if let [hir::TemplatePart::Interpolation { expr, .. }] = parts.as_slice() {
                    out.push(*expr);
                }
            }
            hir::Expr::ForTuple(for_expr) => out.push(for_expr.collection),
            hir::Expr::ForObject(for_expr) => out.push(for_expr.collection),
            hir::Expr::GetAttr { base, .. } | hir::Expr::LegacyIndex { base, .. } => out.push(*base),
            hir::Expr::Index { base, index } => out.extend([*base, *index]),
            hir::Expr::Splat { source, .. } => out.push(*source),
            hir::Expr::Call(call) => {
                if ctx.functions_allowed && ctx.functions.contains_key(call.name.as_str()) {
                    out.extend(&call.args);
                }
            }
            hir::Expr::Tuple(items) => out.extend(items),
            hir::Expr::Object(items) => {
                for item in items {
                    if let hir::ObjectKey::Expr { expr, .. } = &item.key {
                        out.push(*expr);
                    }
                    out.push(item.value);
                }
            }
            hir::Expr::Unary { operand, .. } => out.push(*operand),
            hir::Expr::Binary { lhs, rhs, .. } => out.extend([*lhs, *rhs]),
            hir::Expr::Conditional { cond, then_expr, else_expr } => {
                out.push(*cond);
                match self.selected_branch(*cond, ctx) {
                    Some(true) => out.push(*then_expr),
                    Some(false) => out.push(*else_expr),
                    None => {}
                }
            }
        }
    }

    /// Which branch a condition selects, when it evaluates to a known bool.
    fn selected_branch(&self, cond: hir::ExprId, ctx: &eval::Context) -> Option<bool> {
        let value = self.eval(cond, ctx)?.ok()?;
        value::convert(&value, &Type::Bool).ok()?.as_bool()
    }
}
