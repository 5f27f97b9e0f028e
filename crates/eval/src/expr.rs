//! The evaluator proper: one method per expression form, each following the
//! reference's `Value` method of the matching `hclsyntax` expression.

use std::collections::BTreeMap;

use hir::{BinaryOp, Expr, ExprId, Exprs, Literal, ObjectItem, ObjectKey, SplatKind, TemplatePart, UnaryOp};
use smol_str::SmolStr;
use value::{Number, Type, Value};

use crate::function::Kind;
use crate::limits::{self, Exceeded, Limit, Limits};
use crate::{Context, EvalError, EvalErrorKind as ErrorKind, MAX_DEPTH, Operand};

/// Evaluates the expression `id` of `exprs` in `ctx`.
///
/// Evaluation recurses over the expression tree. The parser bounds nesting
/// but lets operator chains grow long (a left-deep tree of thousands of
/// `+`), so an expression deeper than a caller's stack can be assumed to
/// hold is evaluated on a thread of its own whose stack is sized to the
/// tree's depth.
///
/// It spends at most what [`Context::limits`] allows: no value it builds
/// is larger, no number longer, and it stops after as many steps, with an
/// [`ErrorKind::LimitExceeded`] error about the expression that went past.
pub fn eval_expr<'a>(exprs: impl Into<Exprs<'a>>, id: ExprId, ctx: &Context) -> Result<Value, EvalError> {
    let mut steps_left = ctx.limits.max_steps;
    eval_expr_metered(exprs, id, ctx, &mut steps_left)
}

/// [`eval_expr`] with at most `steps_left` steps (and at most
/// [`Limits::max_steps`]), less the steps it took when it returns: how a
/// caller that evaluates parts of one expression again (to find every
/// error of a failed one) spends one budget on all of them.
pub fn eval_expr_metered<'a>(
    exprs: impl Into<Exprs<'a>>,
    id: ExprId,
    ctx: &Context,
    steps_left: &mut u64,
) -> Result<Value, EvalError> {
    let exprs = exprs.into();
    let limits = Limits { max_steps: ctx.limits.max_steps.min(*steps_left), ..ctx.limits };
    let run = || {
        let _installed = limits::install(limits);
        let mut evaluator =
            Evaluator { exprs, ctx, locals: Vec::new(), splat_items: Vec::new(), depth: 0, steps: 0, limits };
        let result = evaluator.eval(id);
        (result, evaluator.steps)
    };
    let depth = tree_depth(exprs, id);
    let (result, steps) = if depth <= SHALLOW {
        run()
    } else {
        let stack = depth.min(MAX_DEPTH).saturating_mul(FRAME_BYTES).saturating_add(1 << 20);
        std::thread::scope(|scope| {
            match std::thread::Builder::new().stack_size(stack).spawn_scoped(scope, run) {
                Ok(handle) => handle.join().unwrap_or_else(|_| {
                    (Err(EvalError::new(id, ErrorKind::Internal, "The evaluator stopped unexpectedly.")), 0)
                }),
                Err(_) => (
                    Err(EvalError::new(
                        id,
                        ErrorKind::TooDeeplyNested,
                        "No thread could be started to evaluate it.",
                    )),
                    0,
                ),
            }
        })
    };
    *steps_left = steps_left.saturating_sub(steps);
    result
}

/// Whether evaluating `expr` builds its value, which the limits then
/// measure, rather than passing on one built elsewhere: a variable, a
/// part of a value, or one of a conditional's results (a variable given
/// by the application is not this evaluation's to refuse).
fn builds(expr: &Expr) -> bool {
    !matches!(
        expr,
        Expr::Variable(_)
            | Expr::GetAttr { .. }
            | Expr::Index { .. }
            | Expr::LegacyIndex { .. }
            | Expr::SplatItem
            | Expr::Conditional { .. }
            | Expr::Missing
    )
}

/// Depths up to this are evaluated on the caller's stack.
const SHALLOW: usize = 48;
/// A generous bound on the stack one level of evaluation takes (debug
/// builds use far more than release ones).
const FRAME_BYTES: usize = 48 * 1024;

/// The depth of the expression tree under `id`, found without recursion.
fn tree_depth(exprs: Exprs<'_>, id: ExprId) -> usize {
    let mut max = 0;
    let mut stack = vec![(id, 1usize)];
    let mut kids = Vec::new();
    while let Some((e, d)) = stack.pop() {
        max = max.max(d);
        kids.clear();
        exprs[e].children(&mut kids);
        stack.extend(kids.iter().map(|&k| (k, d + 1)));
    }
    max
}

pub(crate) struct Evaluator<'a> {
    exprs: Exprs<'a>,
    ctx: &'a Context,
    /// Names bound by enclosing `for` expressions, innermost last.
    pub(crate) locals: Vec<(SmolStr, Value)>,
    /// The elements bound by enclosing splats, innermost last.
    splat_items: Vec<Value>,
    depth: usize,
    /// Steps taken so far, against [`Limits::max_steps`].
    steps: u64,
    limits: Limits,
}

impl<'a> Evaluator<'a> {
    pub(crate) fn err(&self, id: ExprId, kind: ErrorKind, detail: &str) -> EvalError {
        EvalError::new(id, kind, detail)
    }

    pub(crate) fn eval(&mut self, id: ExprId) -> Result<Value, EvalError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.err(id, ErrorKind::TooDeeplyNested, "Evaluation gave up at the nesting limit."));
        }
        self.charge(id, 1)?;
        self.depth += 1;
        let r = self.eval_inner(id);
        self.depth -= 1;
        let v = r?;
        if builds(&self.exprs[id]) {
            self.check_built(id, &v)?;
        }
        Ok(v)
    }

    /// An error about `id` for a limit gone past.
    pub(crate) fn exceeded(&self, id: ExprId, exceeded: Exceeded) -> EvalError {
        EvalError::new(id, ErrorKind::LimitExceeded(exceeded), exceeded.to_string())
    }

    /// Counts `steps` more, failing at `id` past [`Limits::max_steps`]
    /// (and at every step after, so that nothing catches it and goes on).
    pub(crate) fn charge(&mut self, id: ExprId, steps: u64) -> Result<(), EvalError> {
        self.steps = self.steps.saturating_add(steps);
        if self.steps > self.limits.max_steps {
            let max = self.limits.max_steps;
            return Err(self.exceeded(id, Exceeded { limit: Limit::Steps, amount: self.steps, max }));
        }
        Ok(())
    }

    /// Checks a value `id` built against the limits, and counts the work
    /// of building it.
    fn check_built(&mut self, id: ExprId, v: &Value) -> Result<(), EvalError> {
        if let Some(n) = v.as_number() {
            self.check_number(id, n)?;
        }
        let size = v.size();
        self.limits.check_size(size).map_err(|e| self.exceeded(id, e))?;
        self.charge(id, Limits::work(size))
    }

    fn check_number(&self, id: ExprId, n: &Number) -> Result<(), EvalError> {
        let digits = n.text_len();
        let max = self.limits.max_number_digits;
        if digits > max {
            return Err(self.exceeded(id, Exceeded { limit: Limit::NumberDigits, amount: digits, max }));
        }
        Ok(())
    }

    /// Checks that `total`, the size of a value `id` is building, is
    /// within the limits, before it is built any further.
    pub(crate) fn check_growth(&self, id: ExprId, total: value::Size) -> Result<(), EvalError> {
        self.limits.check_size(total).map_err(|e| self.exceeded(id, e))
    }

    fn eval_inner(&mut self, id: ExprId) -> Result<Value, EvalError> {
        match self.exprs.get(id) {
            Expr::Missing => {
                Err(self.err(id, ErrorKind::MissingExpression, "The expression could not be parsed."))
            }
            Expr::Literal(lit) => match lit {
                Literal::Number(text) => match Number::parse_limited(text, self.limits.max_number_digits) {
                    Ok(n) => Ok(Value::number(n)),
                    Err(value::ParseNumberError::TooManyDigits { digits, limit }) => Err(self
                        .exceeded(id, Exceeded { limit: Limit::NumberDigits, amount: digits, max: limit })),
                    Err(value::ParseNumberError::Invalid) => Err(self.err(
                        id,
                        ErrorKind::InvalidNumberLiteral,
                        &format!("{text:?} is not a number."),
                    )),
                },
                Literal::Bool(b) => Ok(Value::bool(*b)),
                Literal::Null => Ok(Value::null(Type::Dynamic)),
            },
            Expr::Template { kind, parts } => self.eval_template(id, *kind, parts),
            Expr::Variable(name) => self.variable(id, name),
            Expr::GetAttr { base, name } => {
                let b = self.eval(*base)?;
                get_attr(&b, name).map_err(|(kind, d)| self.err(id, kind, &d))
            }
            Expr::Index { base, index } => {
                let b = self.eval(*base)?;
                let k = self.eval(*index)?;
                index_value(&b, &k).map_err(|(kind, d)| self.err(id, kind, &d))
            }
            Expr::LegacyIndex { base, index } => {
                let b = self.eval(*base)?;
                let k = match Number::parse(index) {
                    Some(n) => Value::number(n),
                    None => Value::string(index),
                };
                index_value(&b, &k).map_err(|(kind, d)| self.err(id, kind, &d))
            }
            Expr::Splat { kind, source, each } => self.splat(id, *kind, *source, *each),
            Expr::SplatItem => Ok(self.splat_items.last().cloned().unwrap_or_else(Value::dynamic)),
            Expr::Call(call) => self.call(id, &call.name, &call.args, call.expand_final),
            Expr::Tuple(items) => {
                // A tuple counts at least an element per item: one written
                // with too many fails before any is evaluated.
                self.check_growth(id, value::Size { elements: items.len() as u64, bytes: 0 })?;
                let mut vals = Vec::with_capacity(items.len());
                for e in items {
                    vals.push(self.eval(*e)?);
                }
                Ok(Value::tuple(vals))
            }
            Expr::Object(items) => self.object(items),
            Expr::ForTuple(f) => self.for_expr(
                id,
                f.key_var.as_ref(),
                &f.value_var,
                f.collection,
                None,
                f.value,
                false,
                f.cond,
            ),
            Expr::ForObject(f) => self.for_expr(
                id,
                f.key_var.as_ref(),
                &f.value_var,
                f.collection,
                Some(f.key),
                f.value,
                f.grouping,
                f.cond,
            ),
            Expr::Unary { op, operand } => self.unary(id, *op, *operand),
            Expr::Binary { op, lhs, rhs } => self.binary(id, *op, *lhs, *rhs),
            Expr::Conditional { cond, then_expr, else_expr } => {
                self.conditional(id, *cond, *then_expr, *else_expr)
            }
        }
    }

    fn variable(&self, id: ExprId, name: &str) -> Result<Value, EvalError> {
        if let Some((_, v)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return Ok(v.clone());
        }
        if let Some(v) = self.ctx.variables.get(name) {
            return Ok(v.clone());
        }
        if !self.ctx.variables_allowed && self.locals.is_empty() {
            return Err(self.err(id, ErrorKind::VariablesNotAllowed, "Variables may not be used here."));
        }
        let mut detail = format!("There is no variable named {name:?}.");
        let names =
            self.locals.iter().map(|(n, _)| n.as_str()).chain(self.ctx.variables.keys().map(String::as_str));
        let suggestion = suggest(name, names);
        if let Some(s) = &suggestion {
            detail = format!("There is no variable named {name:?}. Did you mean {s:?}?");
        }
        let kind =
            ErrorKind::UnknownVariable { name: name.into(), suggestion: suggestion.map(SmolStr::from) };
        Err(self.err(id, kind, &detail))
    }

    fn object(&mut self, items: &[ObjectItem]) -> Result<Value, EvalError> {
        let mut vals = BTreeMap::new();
        let mut known = true;
        for item in items {
            let key = match &item.key {
                ObjectKey::Name(n) => Value::string(n),
                ObjectKey::Expr { expr, parenthesised } => {
                    if !parenthesised && self.is_multi_step_traversal(*expr) {
                        return Err(self.err(
                            *expr,
                            ErrorKind::AmbiguousAttributeKey,
                            "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.",
                        ));
                    }
                    self.eval(*expr)?
                }
            };
            let val = self.eval(item.value)?;
            let key_id = match &item.key {
                ObjectKey::Expr { expr, .. } => *expr,
                ObjectKey::Name(_) => item.value,
            };
            if key.is_null() {
                return Err(self.err(key_id, ErrorKind::NullKey, "Can't use a null value as a key."));
            }
            let key = value::convert(&key, &Type::String).map_err(|e| {
                let kind = ErrorKind::IncorrectKeyType { found: Box::new(key.ty()) };
                self.err(key_id, kind, &format!("Can't use this value as a key: {e}."))
            })?;
            match key.as_str() {
                Some(k) => {
                    vals.insert(k.to_string(), val);
                }
                None => known = false,
            }
        }
        Ok(if known { Value::object(vals) } else { Value::dynamic() })
    }

    /// A traversal the reference would parse as a `ScopeTraversalExpr` of
    /// more than one step: a variable followed by attribute and constant
    /// index steps.
    fn is_multi_step_traversal(&self, mut id: ExprId) -> bool {
        let mut steps = 0;
        loop {
            match &self.exprs[id] {
                Expr::Variable(_) => return steps > 0,
                Expr::GetAttr { base, .. } | Expr::LegacyIndex { base, .. } => {
                    steps += 1;
                    id = *base;
                }
                Expr::Index { base, index } => {
                    let constant = match &self.exprs[*index] {
                        Expr::Literal(_) => true,
                        Expr::Template { parts, .. } => {
                            parts.iter().all(|p| matches!(p, TemplatePart::Literal(_)))
                        }
                        _ => false,
                    };
                    if !constant {
                        return false;
                    }
                    steps += 1;
                    id = *base;
                }
                _ => return false,
            }
        }
    }

    fn unary(&mut self, id: ExprId, op: UnaryOp, operand: ExprId) -> Result<Value, EvalError> {
        let v = self.eval(operand)?;
        let want = match op {
            UnaryOp::Neg => Type::Number,
            UnaryOp::Not => Type::Bool,
        };
        let v = value::convert(&v, &want).map_err(|e| {
            let kind = ErrorKind::InvalidOperand {
                operand: Operand::Unary,
                expected: Box::new(want.clone()),
                found: Box::new(v.ty()),
            };
            self.err(operand, kind, &format!("Unsuitable value for unary operand: {e}."))
        })?;
        if v.is_null() {
            return Err(self.err(
                id,
                ErrorKind::OperationFailed,
                "Error during operation: argument must not be null.",
            ));
        }
        if !v.is_known() {
            return Ok(Value::unknown(want).refine_not_null());
        }
        Ok(match op {
            UnaryOp::Neg => Value::number(v.as_number().map(Number::neg).unwrap_or_else(Number::zero)),
            UnaryOp::Not => Value::bool(!v.as_bool().unwrap_or(false)),
        })
    }

    fn binary(&mut self, id: ExprId, op: BinaryOp, lhs: ExprId, rhs: ExprId) -> Result<Value, EvalError> {
        if matches!(op, BinaryOp::Or | BinaryOp::And) {
            return self.logic(id, op, lhs, rhs);
        }
        let l = self.eval(lhs)?;
        let r = self.eval(rhs)?;
        let (param, result) = match op {
            BinaryOp::Eq | BinaryOp::NotEq => (Type::Dynamic, Type::Bool),
            BinaryOp::Lt | BinaryOp::LtEq | BinaryOp::Gt | BinaryOp::GtEq => (Type::Number, Type::Bool),
            _ => (Type::Number, Type::Number),
        };
        let invalid = |operand, found| ErrorKind::InvalidOperand {
            operand,
            expected: Box::new(param.clone()),
            found: Box::new(found),
        };
        let l = value::convert(&l, &param).map_err(|e| {
            self.err(lhs, invalid(Operand::Left, l.ty()), &format!("Unsuitable value for left operand: {e}."))
        })?;
        let r = value::convert(&r, &param).map_err(|e| {
            self.err(
                rhs,
                invalid(Operand::Right, r.ty()),
                &format!("Unsuitable value for right operand: {e}."),
            )
        })?;
        // The operators are go-cty's functions: every result is known not
        // to be null, and equality and comparisons look at what is known of
        // unknown operands.
        let unknown = || Value::unknown(result.clone()).refine_not_null();
        if matches!(op, BinaryOp::Eq | BinaryOp::NotEq) {
            return Ok(match l.equals(&r) {
                Some(b) => Value::bool(if op == BinaryOp::Eq { b } else { !b }),
                None => unknown(),
            });
        }
        let fail = |this: &Self, msg: &str| {
            this.err(id, ErrorKind::OperationFailed, &format!("Error during operation: {msg}."))
        };
        if l.is_null() || r.is_null() {
            return Err(fail(self, "argument must not be null"));
        }
        let compare = |greater: bool| match (l.as_number(), r.as_number()) {
            (Some(a), Some(b)) => Some(if greater { a > b } else { a < b }),
            _ => compare_ranges(&l, &r, greater),
        };
        let cmp = match op {
            BinaryOp::Lt => Some(compare(false)),
            BinaryOp::Gt => Some(compare(true)),
            // go-cty's `a <= b` is `a < b || a == b`, whose `||` is unknown
            // if either side is.
            BinaryOp::LtEq | BinaryOp::GtEq => {
                let strict = compare(op == BinaryOp::GtEq);
                Some(match (strict, l.equals(&r)) {
                    (Some(x), Some(y)) => Some(x || y),
                    _ => None,
                })
            }
            _ => None,
        };
        if let Some(cmp) = cmp {
            return Ok(cmp.map_or_else(unknown, Value::bool));
        }
        if !l.is_known() || !r.is_known() {
            return Ok(unknown());
        }
        let (Some(a), Some(b)) = (l.as_number(), r.as_number()) else {
            return Ok(unknown());
        };
        let n = match op {
            BinaryOp::Add => a.add(b),
            BinaryOp::Sub => a.sub(b),
            BinaryOp::Mul => a.mul(b),
            BinaryOp::Div => a.div(b),
            _ => a.rem(b),
        };
        n.map(Value::number).map_err(|e| fail(self, &e.to_string()))
    }

    /// `||` and `&&` as HCL v2.24 evaluates them: both operands are
    /// evaluated, and when one decides the result (a `true` for `||`, a
    /// `false` for `&&`, null counting as `false`) the other's errors and
    /// nulls do not matter. An operand that failed stands in as what the
    /// reference's failed expression yields, an unknown of
    /// [`Evaluator::failed_type`]; it must still convert to bool.
    fn logic(&mut self, id: ExprId, op: BinaryOp, lhs: ExprId, rhs: ExprId) -> Result<Value, EvalError> {
        let l_res = self.eval(lhs);
        let r_res = self.eval(rhs);
        let as_value = |this: &mut Self, res: &Result<Value, EvalError>, e: ExprId| match res {
            Ok(v) => v.clone(),
            Err(_) => Value::unknown(this.failed_type(e)),
        };
        let (l_given, r_given) = (as_value(self, &l_res, lhs), as_value(self, &r_res, rhs));
        let invalid = |operand, found| ErrorKind::InvalidOperand {
            operand,
            expected: Box::new(Type::Bool),
            found: Box::new(found),
        };
        // Conversion errors come first, and they end it.
        let l = value::convert(&l_given, &Type::Bool).map_err(|e| {
            self.err(
                lhs,
                invalid(Operand::Left, l_given.ty()),
                &format!("Unsuitable value for left operand: {e}."),
            )
        });
        let r = value::convert(&r_given, &Type::Bool).map_err(|e| {
            self.err(
                rhs,
                invalid(Operand::Right, r_given.ty()),
                &format!("Unsuitable value for right operand: {e}."),
            )
        });
        let (l, r) = (l?, r?);
        let unknown = || Value::unknown(Type::Bool).refine_not_null();
        // go-cty's `True()` of a null bool is false.
        let truth = |v: &Value| v.as_bool().unwrap_or(false);
        let decisive = op == BinaryOp::Or;
        let forced: Option<(Value, Option<&Result<Value, EvalError>>)> = match (l.is_known(), r.is_known()) {
            // Both unknown: the left decides unless it failed.
            (false, false) => l_res.is_ok().then(|| (unknown(), Some(&l_res))),
            (true, _) if truth(&l) == decisive => Some((Value::bool(decisive), Some(&l_res))),
            (_, true) if truth(&r) == decisive => Some((Value::bool(decisive), Some(&r_res))),
            // The known side cannot decide: the unknown one does.
            (false, true) => Some((unknown(), Some(&l_res))),
            (true, false) => Some((unknown(), Some(&r_res))),
            _ => None,
        };
        if let Some((v, side)) = forced {
            if let Some(Err(e)) = side {
                return Err(e.clone());
            }
            return Ok(v);
        }
        l_res?;
        r_res?;
        if l.is_null() || r.is_null() {
            return Err(self.err(
                id,
                ErrorKind::OperationFailed,
                "Error during operation: argument must not be null.",
            ));
        }
        let (a, b) = (truth(&l), truth(&r));
        Ok(Value::bool(if op == BinaryOp::And { a && b } else { a || b }))
    }

    /// The type of the value the reference's expression yields when it
    /// fails, which `||` and `&&` convert to bool as if it had succeeded:
    /// an operator's result type, a string for a template, a tuple or an
    /// object for a constructor, a conditional's result type, and otherwise
    /// no type at all.
    fn failed_type(&mut self, id: ExprId) -> Type {
        match &self.exprs[id] {
            Expr::Binary { op, .. } => match op {
                BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => Type::Number,
                _ => Type::Bool,
            },
            Expr::Unary { op: UnaryOp::Neg, .. } => Type::Number,
            Expr::Unary { op: UnaryOp::Not, .. } => Type::Bool,
            Expr::Template { parts, .. } => match parts.as_slice() {
                [TemplatePart::Interpolation { expr, .. }] => self.failed_type(*expr),
                _ => Type::String,
            },
            Expr::Tuple(_) => Type::empty_tuple(),
            Expr::Object(_) => Type::empty_object(),
            Expr::Conditional { then_expr, else_expr, .. } => {
                let mut probe = Evaluator {
                    exprs: self.exprs,
                    ctx: self.ctx,
                    locals: self.locals.clone(),
                    splat_items: self.splat_items.clone(),
                    depth: self.depth,
                    steps: self.steps,
                    limits: self.limits,
                };
                let ty_of = |this: &mut Evaluator<'_>, e: ExprId| match this.eval(e) {
                    Ok(v) => v.ty(),
                    Err(_) => this.failed_type(e),
                };
                let (t, f) = (ty_of(&mut probe, *then_expr), ty_of(&mut probe, *else_expr));
                self.steps = probe.steps;
                if t.is_dynamic() || f.is_dynamic() {
                    Type::Dynamic
                } else {
                    value::unify_unsafe(&[t, f]).unwrap_or(Type::Dynamic)
                }
            }
            _ => Type::Dynamic,
        }
    }

    fn conditional(
        &mut self,
        id: ExprId,
        cond: ExprId,
        then_expr: ExprId,
        else_expr: ExprId,
    ) -> Result<Value, EvalError> {
        let t = self.eval(then_expr);
        let f = self.eval(else_expr);
        let ty_of = |r: &Result<Value, EvalError>| r.as_ref().map(Value::ty).unwrap_or(Type::Dynamic);
        let dyn_null = Value::null(Type::Dynamic);
        let (tt, ft) = (ty_of(&t), ty_of(&f));
        let result_ty = if t.as_ref().is_ok_and(|v| *v == dyn_null) {
            Some(ft.clone())
        } else if f.as_ref().is_ok_and(|v| *v == dyn_null) {
            Some(tt.clone())
        } else if tt.is_dynamic() || ft.is_dynamic() {
            Some(Type::Dynamic)
        } else {
            value::unify_unsafe(&[tt.clone(), ft.clone()])
        };
        let Some(result_ty) = result_ty else {
            return Err(self.err(
                id,
                ErrorKind::InconsistentConditionalTypes { found: vec![tt.clone(), ft.clone()] },
                &format!(
                    "The true and false result expressions must have consistent types. The 'true' value is {}, but the 'false' value is {}.",
                    tt.friendly_name(),
                    ft.friendly_name()
                ),
            ));
        };
        let Some(truth) = self.eval_condition(cond)? else {
            return Ok(unknown_conditional(result_ty, t.ok(), f.ok()));
        };
        let (chosen, which) = if truth { (t?, then_expr) } else { (f?, else_expr) };
        if result_ty.is_dynamic() {
            return Ok(chosen);
        }
        value::convert(&chosen, &result_ty).map_err(|e| {
            self.err(
                which,
                ErrorKind::InconsistentConditionalTypes { found: Vec::new() },
                &format!("The result value could not be converted to the conditional's type: {e}."),
            )
        })
    }

    /// The truth of a condition, of `? :` or of a template's `if`: `None`
    /// when it is unknown. A null condition, or one that is not a bool, is an
    /// error, with the reference's words for both.
    pub(crate) fn eval_condition(&mut self, cond: ExprId) -> Result<Option<bool>, EvalError> {
        let c = self.eval(cond)?;
        if c.is_null() {
            return Err(self.err(
                cond,
                ErrorKind::NullCondition,
                "The condition value is null. Conditions must either be true or false.",
            ));
        }
        if !c.is_known() {
            return Ok(None);
        }
        let c = value::convert(&c, &Type::Bool).map_err(|e| {
            self.err(
                cond,
                ErrorKind::IncorrectConditionType { found: Box::new(c.ty()) },
                &format!("The condition expression must be of type bool: {e}."),
            )
        })?;
        Ok(c.as_bool())
    }

    /// The elements of a `for` collection as (key, value) pairs, or `None`
    /// when the result can only be unknown.
    pub(crate) fn for_elements(
        &self,
        id: ExprId,
        c: &Value,
    ) -> Result<Option<Vec<(Value, Value)>>, EvalError> {
        if c.is_null() {
            return Err(self.err(
                id,
                ErrorKind::IterationOverNull,
                "A null value cannot be used as the collection in a 'for' expression.",
            ));
        }
        let ty = c.ty();
        if ty.is_dynamic() {
            return Ok(None);
        }
        if !matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_) | Type::Map(_) | Type::Object(_)) {
            return Err(self.err(
                id,
                ErrorKind::IterationOverNonIterable { found: Box::new(ty.clone()) },
                &format!(
                    "A value of type {} cannot be used as the collection in a 'for' expression.",
                    ty.friendly_name()
                ),
            ));
        }
        if !c.is_known() {
            return Ok(None);
        }
        Ok(Some(element_pairs(c)))
    }

    #[allow(clippy::too_many_arguments)]
    fn for_expr(
        &mut self,
        id: ExprId,
        key_var: Option<&SmolStr>,
        value_var: &SmolStr,
        collection: ExprId,
        key: Option<ExprId>,
        value: ExprId,
        grouping: bool,
        cond: Option<ExprId>,
    ) -> Result<Value, EvalError> {
        let c = self.eval(collection)?;
        let elems = self.for_elements(collection, &c)?;
        if c.ty().is_dynamic() {
            return Ok(Value::dynamic());
        }
        // The condition is checked even when the collection is unknown
        // (HCL v2.24); only then is an unknown collection's result unknown.
        if let Some(cond) = cond {
            // The condition is type-checked once before iterating, with the
            // iteration variables unknown.
            let mark = self.locals.len();
            if let Some(k) = key_var {
                self.locals.push((k.clone(), Value::dynamic()));
            }
            self.locals.push((value_var.clone(), Value::dynamic()));
            let r = self.eval(cond);
            self.locals.truncate(mark);
            let r = r?;
            if r.is_null() {
                return Err(self.err(
                    cond,
                    ErrorKind::NullForCondition,
                    "The value of the 'if' clause must not be null.",
                ));
            }
            value::convert(&r, &Type::Bool).map_err(|e| {
                self.err(
                    cond,
                    ErrorKind::InvalidForCondition,
                    &format!("The 'if' clause value is invalid: {e}."),
                )
            })?;
        }
        let Some(elems) = elems else {
            return Ok(Value::dynamic());
        };
        let mut known = true;
        let mut tuple = Vec::new();
        let mut object: BTreeMap<String, Value> = BTreeMap::new();
        let mut groups: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        let mut built = value::Size::scalar(0);
        for (k, v) in elems {
            self.charge(id, 1)?;
            let mark = self.locals.len();
            if let Some(kv) = key_var {
                self.locals.push((kv.clone(), k));
            }
            self.locals.push((value_var.clone(), v));
            let r = self.for_item(
                id,
                cond,
                key,
                value,
                grouping,
                &mut known,
                &mut built,
                &mut tuple,
                &mut object,
                &mut groups,
            );
            self.locals.truncate(mark);
            r?;
        }
        if !known {
            return Ok(Value::dynamic());
        }
        Ok(match key {
            None => Value::tuple(tuple),
            Some(_) if grouping => {
                Value::object(groups.into_iter().map(|(k, vs)| (k, Value::tuple(vs))).collect())
            }
            Some(_) => Value::object(object),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn for_item(
        &mut self,
        id: ExprId,
        cond: Option<ExprId>,
        key: Option<ExprId>,
        value: ExprId,
        grouping: bool,
        known: &mut bool,
        built: &mut value::Size,
        tuple: &mut Vec<Value>,
        object: &mut BTreeMap<String, Value>,
        groups: &mut BTreeMap<String, Vec<Value>>,
    ) -> Result<(), EvalError> {
        if let Some(cond) = cond {
            let r = self.eval(cond)?;
            if r.is_null() {
                return Err(self.err(
                    cond,
                    ErrorKind::InvalidForCondition,
                    "The value of the 'if' clause must not be null.",
                ));
            }
            if !r.is_known() {
                *known = false;
                return Ok(());
            }
            let r = value::convert(&r, &Type::Bool).map_err(|e| {
                self.err(
                    cond,
                    ErrorKind::InvalidForCondition,
                    &format!("The 'if' clause value is invalid: {e}."),
                )
            })?;
            match r.as_bool() {
                Some(true) => {}
                Some(false) => return Ok(()),
                None => {
                    *known = false;
                    return Ok(());
                }
            }
        }
        let Some(key) = key else {
            let v = self.eval(value)?;
            *built = built.plus(v.size());
            self.check_growth(id, *built)?;
            tuple.push(v);
            return Ok(());
        };
        let k = self.eval(key)?;
        if k.is_null() {
            return Err(self.err(
                key,
                ErrorKind::InvalidForKey,
                "Key expression in 'for' expression must not produce a null value.",
            ));
        }
        if !k.is_known() {
            *known = false;
            return Ok(());
        }
        let k = value::convert(&k, &Type::String).map_err(|e| {
            self.err(
                key,
                ErrorKind::InvalidForKey,
                &format!("The key expression produced an invalid result: {e}."),
            )
        })?;
        let k = k.as_str().unwrap_or_default().to_string();
        let v = self.eval(value)?;
        *built = built.plus(v.size()).plus(value::Size { elements: 1, bytes: k.len() as u64 });
        self.check_growth(id, *built)?;
        if grouping {
            groups.entry(k).or_default().push(v);
            return Ok(());
        }
        match object.entry(k) {
            std::collections::btree_map::Entry::Occupied(e) => Err(self.err(
                id,
                ErrorKind::DuplicateForKey { key: e.key().into() },
                &format!(
                    "Two different items produced the key {:?} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.",
                    e.key()
                ),
            )),
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(v);
                Ok(())
            }
        }
    }

    fn with_item<T>(&mut self, item: Value, f: impl FnOnce(&mut Self) -> T) -> T {
        self.splat_items.push(item);
        let r = f(self);
        self.splat_items.pop();
        r
    }

    fn splat(
        &mut self,
        id: ExprId,
        _kind: SplatKind,
        source: ExprId,
        each: ExprId,
    ) -> Result<Value, EvalError> {
        let src = self.eval(source)?;
        let sty = src.ty();
        let auto_upgrade = !matches!(sty, Type::Tuple(_) | Type::List(_) | Type::Set(_));
        if src.is_null() {
            if auto_upgrade {
                return Ok(Value::empty_tuple());
            }
            return Err(self.err(
                source,
                ErrorKind::SplatOfNull,
                "Splat expressions (with the * symbol) cannot be applied to null sequences.",
            ));
        }
        if sty.is_dynamic() {
            return Ok(Value::dynamic());
        }
        let mut upgraded_unknown = false;
        let src = if auto_upgrade {
            // An unknown that may be null may become an empty tuple or a
            // tuple of one: the result is not known. One that cannot be null
            // is a tuple of one unknown element (HCL v2.17 and later).
            upgraded_unknown = !src.is_known() && src.range().could_be_null();
            Value::tuple(vec![src])
        } else {
            src
        };
        let sty = src.ty();
        if !src.is_known() {
            let ty = self.splat_result_type(&sty, each)?;
            if ty.is_dynamic() {
                return Ok(Value::unknown(ty));
            }
            // Not null, and a list has as many elements as the collection.
            let range = src.range();
            let mut b = Value::unknown(ty.clone()).refine().not_null();
            if ty.is_list() && sty.is_collection() {
                b = b.length_lower(range.length_lower()).length_upper(range.length_upper());
            }
            return Ok(b.build());
        }
        let elems: Vec<Value> = src.elements().map(<[Value]>::to_vec).unwrap_or_default();
        let mut vals = Vec::with_capacity(elems.len());
        let mut built = value::Size::scalar(0);
        for e in elems {
            self.charge(id, 1)?;
            let v = self.with_item(e, |this| this.eval(each))?;
            built = built.plus(v.size());
            self.check_growth(id, built)?;
            vals.push(v);
        }
        if upgraded_unknown {
            return Ok(Value::dynamic());
        }
        match sty {
            Type::List(_) | Type::Set(_) => {
                if vals.is_empty() {
                    let ty = self.splat_result_type(&sty, each)?;
                    let ety = ty.element_type().cloned().unwrap_or(Type::Dynamic);
                    return Ok(Value::list(ety, Vec::new()).unwrap_or_else(|_| Value::empty_tuple()));
                }
                // A splat inside a splat over values of different types
                // cannot make a list (HCL v2.24 reports it rather than fail
                // to build one): elements of no type yet aside, they must
                // agree.
                let mut first: Option<Type> = None;
                for v in &vals {
                    let t = v.ty();
                    if t.is_dynamic() {
                        continue;
                    }
                    match &first {
                        None => first = Some(t),
                        Some(f) if *f != t => {
                            return Err(self.err(
                                each,
                                ErrorKind::InvalidNestedSplat,
                                "The second level of splat expression produced elements of different types, so it isn't possible to construct a valid list to represent the top-level result.\n\nConsider using a for expression instead, to produce a tuple-typed result which can therefore have non-homogenous element types.",
                            ));
                        }
                        Some(_) => {}
                    }
                }
                // As `cty.ListVal`: the list's element type is that of its
                // elements, and an element of no type yet (an unknown or a
                // null of the dynamic type) stands in as one of it.
                let Some(ety) = first else { return Ok(make_list(vals)) };
                let vals: Vec<Value> = vals
                    .into_iter()
                    .map(|v| if v.ty().is_dynamic() { value::convert(&v, &ety).unwrap_or(v) } else { v })
                    .collect();
                Ok(Value::list(ety, vals.clone()).unwrap_or_else(|_| make_list(vals)))
            }
            _ => Ok(Value::tuple(vals)),
        }
    }

    fn splat_result_type(&mut self, sty: &Type, each: ExprId) -> Result<Type, EvalError> {
        Ok(match sty {
            Type::List(ety) | Type::Set(ety) => {
                let v = self.with_item(Value::unknown((**ety).clone()), |this| this.eval(each))?;
                Type::list(v.ty())
            }
            Type::Tuple(etys) => {
                let mut out = Vec::with_capacity(etys.len());
                for ety in etys {
                    let v = self.with_item(Value::unknown(ety.clone()), |this| this.eval(each))?;
                    out.push(v.ty());
                }
                Type::Tuple(out)
            }
            _ => Type::Dynamic,
        })
    }

    fn call(
        &mut self,
        id: ExprId,
        name: &str,
        args: &[ExprId],
        expand_final: bool,
    ) -> Result<Value, EvalError> {
        if !self.ctx.functions_allowed {
            return Err(self.err(
                id,
                ErrorKind::FunctionCallsNotAllowed,
                "Functions may not be called here.",
            ));
        }
        let Some(f) = self.ctx.functions.get(name).or_else(|| self.namespace_function(name)) else {
            if let Some(sep) = name.rfind("::") {
                return Err(self.unknown_namespaced_function(id, name, sep));
            }
            let mut detail = format!("There is no function named {name:?}.");
            let suggestion = suggest(name, self.ctx.functions.keys().map(String::as_str));
            if let Some(s) = &suggestion {
                detail = format!("There is no function named {name:?}. Did you mean {s:?}?");
            }
            let kind =
                ErrorKind::UnknownFunction { name: name.into(), suggestion: suggestion.map(SmolStr::from) };
            return Err(self.err(id, kind, &detail));
        };
        match &f.kind {
            Kind::Try => return self.call_try(id, args),
            Kind::Can => return self.call_can(id, args),
            Kind::Normal { .. } => {}
        }
        let mut vals = Vec::with_capacity(args.len());
        let mut arg_ids = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let v = self.eval(*a)?;
            if expand_final && i + 1 == args.len() {
                if v.is_null() {
                    return Err(self.err(
                        *a,
                        ErrorKind::InvalidExpandingArgument,
                        "The expanding argument (indicated by ...) must not be null.",
                    ));
                }
                if !v.is_known() {
                    return Ok(Value::dynamic());
                }
                match v.ty() {
                    Type::List(_) | Type::Set(_) | Type::Tuple(_) => {
                        for e in v.elements().unwrap_or_default() {
                            vals.push(e.clone());
                            arg_ids.push(*a);
                        }
                    }
                    _ => {
                        return Err(self.err(
                            *a,
                            ErrorKind::InvalidExpandingArgument,
                            "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                        ));
                    }
                }
            } else {
                vals.push(v);
                arg_ids.push(*a);
            }
        }
        if vals.len() < f.params.len() {
            let missing = &f.params[vals.len()].name;
            return Err(self.err(
                id,
                ErrorKind::NotEnoughArguments { function: name.into() },
                &format!(
                    "Function {name:?} expects {} argument(s). Missing value for {missing:?}.",
                    f.params.len()
                ),
            ));
        }
        if f.var_param.is_none() && vals.len() > f.params.len() {
            let extra = arg_ids.get(f.params.len()).copied().unwrap_or(id);
            return Err(self.err(
                extra,
                ErrorKind::TooManyArguments { function: name.into() },
                &format!("Function {name:?} expects only {} argument(s).", f.params.len()),
            ));
        }
        for (i, v) in vals.iter_mut().enumerate() {
            let Some(p) = f.params.get(i).or(f.var_param.as_ref()) else { continue };
            match value::convert(v, &p.ty) {
                Ok(c) => *v = c,
                // A value with parts of no type yet (`[var.a, { b = 1 }]`,
                // `var.a` unknown of any type) may convert once they have
                // one, though go-cty's unification gives up on them: the
                // argument is an unknown of the parameter's type.
                Err(_) if v.ty().has_dynamic_types() && !v.is_wholly_known() => {
                    *v = Value::unknown(p.ty.clone());
                }
                Err(e) => {
                    return Err(self.err(
                        arg_ids[i],
                        ErrorKind::InvalidFunctionArgument {
                            function: name.into(),
                            parameter: p.name.as_str().into(),
                        },
                        &format!("Invalid value for {:?} parameter: {e}.", p.name),
                    ));
                }
            }
        }
        // A function's work is about its arguments' size.
        let work = vals.iter().map(|v| Limits::work(v.size())).fold(0u64, u64::saturating_add);
        self.charge(id, work)?;
        // HCL decides the diagnostic from the kind of go-cty's error: an
        // argument error names the parameter and points at the argument,
        // any other error is a failure of the call as a whole.
        f.call(&vals).map_err(|e| {
            if let Some(exceeded) = e.exceeded {
                return self.exceeded(id, exceeded);
            }
            let param = e.arg.and_then(|i| f.params.get(i).or(f.var_param.as_ref()).map(|p| (i, p)));
            match param {
                Some((i, p)) => self.err(
                    arg_ids.get(i).copied().unwrap_or(id),
                    ErrorKind::InvalidFunctionArgument {
                        function: name.into(),
                        parameter: p.name.as_str().into(),
                    },
                    &format!("Invalid value for {:?} parameter: {}.", p.name, e.message),
                ),
                None => self.err(
                    id,
                    ErrorKind::FunctionCallFailed { function: name.into() },
                    &format!("Call to function {name:?} failed: {}.", e.message),
                ),
            }
        })
    }

    /// The function of [`crate::Context::namespaces`] that stands for a
    /// namespaced `name`: the longest namespace it starts with.
    fn namespace_function(&self, name: &str) -> Option<&'a crate::Function> {
        if !name.contains("::") {
            return None;
        }
        self.ctx
            .namespaces
            .iter()
            .filter(|(namespace, _)| name.starts_with(namespace.as_str()))
            .max_by_key(|(namespace, _)| namespace.len())
            .map(|(_, f)| f)
    }

    /// A namespaced name not in the table, in the reference's words: the
    /// namespace has no functions at all, or not this one (with a
    /// did-you-mean among those it has).
    fn unknown_namespaced_function(&self, id: ExprId, full: &str, sep: usize) -> EvalError {
        let (namespace, name) = (&full[..sep + 2], &full[sep + 2..]);
        let available: Vec<&str> =
            self.ctx.functions.keys().filter_map(|k| k.strip_prefix(namespace)).collect();
        let namespace_known = !available.is_empty();
        let suggestion = suggest(name, available.iter().copied());
        let detail = if !namespace_known {
            format!("There are no functions in namespace {namespace:?}.")
        } else {
            match &suggestion {
                Some(s) => format!(
                    "There is no function named {name:?} in namespace {namespace}. Did you mean {namespace}{s}?"
                ),
                None => format!("There is no function named {name:?} in namespace {namespace}."),
            }
        };
        let kind = ErrorKind::UnknownNamespacedFunction {
            namespace: namespace.into(),
            name: name.into(),
            namespace_known,
            suggestion: suggestion.map(|s| SmolStr::from(format!("{namespace}{s}"))),
        };
        self.err(id, kind, &detail)
    }

    /// HCL's `try` (v2.17 and later): the first argument that evaluates
    /// without error; one that evaluates to a value not wholly known could
    /// still fail once known, or give a value of another type, so the
    /// result is then unknown of any type.
    fn call_try(&mut self, id: ExprId, args: &[ExprId]) -> Result<Value, EvalError> {
        if args.is_empty() {
            return Err(self.err(
                id,
                ErrorKind::InvalidFunctionCall { function: "try".into() },
                "At least one argument is required.",
            ));
        }
        for a in args {
            let v = match self.eval(*a) {
                Ok(v) => v,
                // A limit is no failure of the expression: the reference
                // would have its value.
                Err(e) if matches!(e.kind, ErrorKind::LimitExceeded(_)) => return Err(e),
                Err(_) => continue,
            };
            if !v.is_wholly_known() {
                return Ok(Value::dynamic());
            }
            return Ok(v);
        }
        Err(self.err(
            id,
            ErrorKind::FunctionCallFailed { function: "try".into() },
            "Call to function \"try\" failed: no expression succeeded.",
        ))
    }

    /// HCL's `can` (v2.17 and later): false when the argument fails, and
    /// unknown when its value is not wholly known, since it may fail once
    /// it is.
    fn call_can(&mut self, id: ExprId, args: &[ExprId]) -> Result<Value, EvalError> {
        if args.len() != 1 {
            return Err(self.err(
                id,
                ErrorKind::InvalidFunctionCall { function: "can".into() },
                "Function \"can\" expects exactly one argument.",
            ));
        }
        Ok(match self.eval(args[0]) {
            Err(e) if matches!(e.kind, ErrorKind::LimitExceeded(_)) => return Err(e),
            Err(_) => Value::bool(false),
            Ok(v) if !v.is_wholly_known() => Value::unknown(Type::Bool),
            Ok(_) => Value::bool(true),
        })
    }
}

/// The result of a conditional whose condition is unknown (HCL v2.19):
/// null if both results are; otherwise what both results' ranges allow, a
/// number between their bounds or a collection between their lengths, and
/// not null if neither can be. A result that failed says nothing.
fn unknown_conditional(ty: Type, t: Option<Value>, f: Option<Value>) -> Value {
    let (Some(t), Some(f)) = (t, f) else { return Value::unknown(ty) };
    if t.is_null() && f.is_null() {
        return Value::null(ty);
    }
    let (tr, fr) = (t.range(), f.range());
    let mut b = Value::unknown(ty.clone()).refine();
    if tr.definitely_not_null() && fr.definitely_not_null() {
        b = b.not_null();
    }
    let (tt, ft) = (t.ty(), f.ty());
    if tt == Type::Number && ft == Type::Number {
        let (tlo, thi, flo, fhi) =
            (tr.number_lower(), tr.number_upper(), fr.number_lower(), fr.number_upper());
        if let (Some(tlo), Some(flo)) = (tlo, flo) {
            let lo = match tlo.value.cmp(&flo.value) {
                std::cmp::Ordering::Less => tlo,
                std::cmp::Ordering::Equal => value::Bound::new(flo.value, tlo.inclusive || flo.inclusive),
                std::cmp::Ordering::Greater => flo,
            };
            b = b.number_lower(lo.value, lo.inclusive);
        }
        if let (Some(thi), Some(fhi)) = (thi, fhi) {
            let hi = match thi.value.cmp(&fhi.value) {
                std::cmp::Ordering::Greater => thi,
                std::cmp::Ordering::Equal => value::Bound::new(fhi.value, thi.inclusive || fhi.inclusive),
                std::cmp::Ordering::Less => fhi,
            };
            b = b.number_upper(hi.value, hi.inclusive);
        }
        return b.build();
    }
    if tt.is_collection() && ft.is_collection() && tt == ft {
        return b
            .length_lower(tr.length_lower().min(fr.length_lower()))
            .length_upper(tr.length_upper().max(fr.length_upper()))
            .build();
    }
    b.build()
}

/// Whether `a > b` (`greater`) or `a < b`, of two numbers at least one of
/// which is unknown, as go-cty decides it from their ranges: certain only
/// when the ranges do not overlap (it treats every bound as exclusive).
fn compare_ranges(a: &Value, b: &Value, greater: bool) -> Option<bool> {
    let (ra, rb) = (a.range(), b.range());
    let (a_lo, a_hi) = (ra.number_lower()?.value, ra.number_upper()?.value);
    let (b_lo, b_hi) = (rb.number_lower()?.value, rb.number_upper()?.value);
    if greater {
        if a_lo > b_hi {
            return Some(true);
        }
        if a_hi < b_lo {
            return Some(false);
        }
    } else {
        if a_hi < b_lo {
            return Some(true);
        }
        if a_lo > b_hi {
            return Some(false);
        }
    }
    None
}

/// A list of `vals`, which should share one type; if they do not, they are
/// unified (a tuple if even that fails).
pub(crate) fn make_list(vals: Vec<Value>) -> Value {
    let types: Vec<Type> = vals.iter().map(Value::ty).collect();
    if let Some(first) = types.first()
        && types.iter().all(|t| t == first)
    {
        return Value::list(first.clone(), vals).unwrap_or_else(|_| Value::empty_tuple());
    }
    if let Some(ty) = value::unify(&types) {
        let conv: Result<Vec<Value>, _> = vals.iter().map(|v| value::convert(v, &ty)).collect();
        if let Ok(conv) = conv
            && let Ok(l) = Value::list(ty, conv)
        {
            return l;
        }
    }
    Value::tuple(vals)
}

/// The (key, value) pairs of a known collection or structure, as go-cty's
/// `ElementIterator`: index numbers for sequences, the element itself for a
/// set, names in order for maps and objects.
pub(crate) fn element_pairs(c: &Value) -> Vec<(Value, Value)> {
    if let Some(elems) = c.elements() {
        let set = c.ty().is_set();
        return elems
            .iter()
            .enumerate()
            .map(|(i, v)| (if set { v.clone() } else { Value::int(i as i64) }, v.clone()))
            .collect();
    }
    c.entries().map(|m| m.iter().map(|(k, v)| (Value::string(k), v.clone())).collect()).unwrap_or_default()
}

type StepError = (ErrorKind, String);

/// `hcl.GetAttr`.
pub(crate) fn get_attr(obj: &Value, name: &str) -> Result<Value, StepError> {
    if obj.is_null() {
        return Err((
            ErrorKind::AttributeOfNull,
            "This value is null, so it does not have any attributes.".into(),
        ));
    }
    // The common case without the whole value's type, which is built by
    // walking the value.
    if let Some(found) = obj.entries().and_then(|entries| entries.get(name)) {
        return Ok(found.clone());
    }
    let ty = obj.ty();
    match &ty {
        Type::Object(o) => {
            let Some(aty) = o.attrs().get(name) else {
                let suggestion = suggest(name, o.attrs().keys().map(String::as_str));
                let detail = match &suggestion {
                    Some(s) => {
                        format!("This object does not have an attribute named {name:?}. Did you mean {s:?}?")
                    }
                    None => format!("This object does not have an attribute named {name:?}."),
                };
                let kind = ErrorKind::UnsupportedAttribute {
                    name: name.into(),
                    suggestion: suggestion.map(SmolStr::from),
                };
                return Err((kind, detail));
            };
            if !obj.is_known() {
                return Ok(Value::unknown(aty.clone()));
            }
            Ok(obj
                .entries()
                .and_then(|m| m.get(name))
                .cloned()
                .unwrap_or_else(|| Value::unknown(aty.clone())))
        }
        Type::Map(ety) => {
            if !obj.is_known() {
                return Ok(Value::unknown((**ety).clone()));
            }
            obj.entries().and_then(|m| m.get(name)).cloned().ok_or_else(|| {
                (
                    ErrorKind::MissingMapElement { key: name.into() },
                    format!("This map does not have an element with the key {name:?}."),
                )
            })
        }
        Type::Dynamic => Ok(Value::dynamic()),
        _ => Err((
            ErrorKind::UnsupportedAttribute { name: name.into(), suggestion: None },
            format!("Can't access attributes on a value of type {}.", ty.friendly_name()),
        )),
    }
}

/// `hcl.Index`.
pub(crate) fn index_value(coll: &Value, key: &Value) -> Result<Value, StepError> {
    if coll.is_null() {
        return Err((ErrorKind::IndexOfNull, "This value is null, so it does not have any indices.".into()));
    }
    if key.is_null() {
        return Err((ErrorKind::InvalidIndex, "Can't use a null value as an indexing key.".into()));
    }
    let ty = coll.ty();
    if ty.is_dynamic() || key.ty().is_dynamic() {
        return Ok(Value::dynamic());
    }
    let bad = |why: &str| {
        (
            ErrorKind::InvalidIndex,
            format!("The given key does not identify an element in this collection value{why}"),
        )
    };
    match &ty {
        Type::List(_) | Type::Tuple(_) => {
            let k = value::convert(key, &Type::Number).map_err(|e| bad(&format!(": {e}.")))?;
            // A tuple's length is in its type, so an index outside it is an
            // error even while the tuple is unknown (as go-cty's `HasIndex`);
            // an unknown list's length is unknown.
            let length = match &ty {
                Type::Tuple(types) => Some(types.len()),
                _ => coll.is_known().then(|| coll.elements().map_or(0, <[Value]>::len)),
            };
            let (Some(length), true) = (length, k.is_known()) else {
                return Ok(match &ty {
                    Type::List(ety) => Value::unknown((**ety).clone()),
                    _ => Value::dynamic(),
                });
            };
            let n = k.as_number().cloned().unwrap_or_else(Number::zero);
            if !n.is_integer() {
                return Err(bad(
                    ": indexing a sequence requires a whole number, but the given index has a fractional part.",
                ));
            }
            let index = match n.to_i64() {
                Some(i) if i < 0 => {
                    return Err(bad(": a negative number is not a valid index for a sequence."));
                }
                Some(i) if (i as u64) < length as u64 => i as usize,
                _ if length == 0 => return Err(bad(": the collection has no elements.")),
                _ => {
                    return Err(bad(": the given index is greater than or equal to the length of the collection."));
                }
            };
            if !coll.is_known() {
                let element = ty.tuple_element_types().and_then(|types| types.get(index));
                return Ok(Value::unknown(element.cloned().unwrap_or(Type::Dynamic)));
            }
            Ok(coll.elements().and_then(|elems| elems.get(index)).cloned().unwrap_or_else(Value::dynamic))
        }
        Type::Map(ety) => {
            let k = value::convert(key, &Type::String).map_err(|e| bad(&format!(": {e}.")))?;
            if !coll.is_known() || !k.is_known() {
                return Ok(Value::unknown((**ety).clone()));
            }
            let k = k.as_str().unwrap_or_default();
            coll.entries().and_then(|m| m.get(k)).cloned().ok_or_else(|| bad("."))
        }
        Type::Object(o) => {
            let k = value::convert(key, &Type::String).map_err(|e| bad(&format!(": {e}.")))?;
            if !k.is_known() {
                return Ok(Value::dynamic());
            }
            let k = k.as_str().unwrap_or_default();
            // An unknown object's attributes are in its type: a missing one
            // is an error and a present one has its type (HCL v2.24).
            let Some(aty) = o.attrs().get(k) else {
                return Err(bad("."));
            };
            if !coll.is_known() {
                return Ok(Value::unknown(aty.clone()));
            }
            Ok(coll.entries().and_then(|m| m.get(k)).cloned().unwrap_or_else(Value::dynamic))
        }
        Type::Set(_) => Err((
            ErrorKind::InvalidIndex,
            "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.".into(),
        )),
        _ => Err((ErrorKind::InvalidIndex, "This value does not have any indices.".into())),
    }
}

/// A did-you-mean suggestion: the closest of `names` to `name`, if it is
/// fewer than three edits away (the evaluator's rule for unknown variables
/// and attributes, which the module model's unresolved references share).
pub fn suggest<'n>(name: &str, names: impl Iterator<Item = &'n str>) -> Option<String> {
    let mut best: Option<(usize, &str)> = None;
    let length = name.chars().count();
    for n in names {
        // At least as many edits as the lengths differ by: most names are
        // ruled out without the distance (a call of an unknown function is
        // compared with every function's name).
        if n.chars().count().abs_diff(length) >= 3 {
            continue;
        }
        let d = strsim::levenshtein(name, n);
        if d < 3 && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, n));
        }
    }
    best.map(|(_, n)| n.to_string())
}
