//! The function model: what an application registers to add a function.

use std::fmt;
use std::sync::Arc;

use value::{Refine, Type, Value};

use crate::limits::Exceeded;

/// Computes a call's return type from its (converted) arguments, which may
/// be unknown: only their types are certain.
pub type TypeFn = Arc<dyn Fn(&[Value]) -> Result<Type, FunctionError> + Send + Sync>;
/// Computes a call's result from known arguments and the return type the
/// [`TypeFn`] gave.
pub type ImplFn = Arc<dyn Fn(&[Value], &Type) -> Result<Value, FunctionError> + Send + Sync>;
/// Says what is known of every result of a function beyond its type (go-cty's
/// `RefineResult`), applied to known and unknown results alike.
pub type RefineFn = Arc<dyn Fn(Refine) -> Refine + Send + Sync>;

/// One parameter, as go-cty's `function.Parameter`.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    /// Arguments are converted to this type before the call.
    pub ty: Type,
    /// Without it, a null argument is an error.
    pub allow_null: bool,
    /// Without it, a call with a not wholly known argument returns an
    /// unknown of the return type without running the implementation.
    pub allow_unknown: bool,
    /// Without it, an argument of the dynamic pseudo-type makes the result
    /// an unknown of the dynamic type.
    pub allow_dynamic: bool,
}

impl Param {
    pub fn new(name: &str, ty: Type) -> Param {
        Param { name: name.to_string(), ty, allow_null: false, allow_unknown: false, allow_dynamic: false }
    }

    pub fn allow_null(mut self) -> Param {
        self.allow_null = true;
        self
    }

    pub fn allow_unknown(mut self) -> Param {
        self.allow_unknown = true;
        self
    }

    pub fn allow_dynamic(mut self) -> Param {
        self.allow_dynamic = true;
        self
    }
}

/// Why a call failed; `arg` is the index of the argument at fault, if one is.
/// A call refused because its result would go past a limit of the
/// evaluation ([`crate::limits::current`]) says which in `exceeded`, and is
/// reported as that limit's error, which `try` and `can` do not catch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionError {
    pub arg: Option<usize>,
    pub message: String,
    pub exceeded: Option<Exceeded>,
}

impl FunctionError {
    pub fn new(message: impl Into<String>) -> FunctionError {
        FunctionError { arg: None, message: message.into(), exceeded: None }
    }

    pub fn arg(arg: usize, message: impl Into<String>) -> FunctionError {
        FunctionError { arg: Some(arg), message: message.into(), exceeded: None }
    }

    /// The result would go past a limit.
    pub fn exceeded(exceeded: Exceeded) -> FunctionError {
        FunctionError { arg: None, message: exceeded.to_string(), exceeded: Some(exceeded) }
    }
}

impl fmt::Display for FunctionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[derive(Clone)]
pub(crate) enum Kind {
    Normal {
        ret: TypeFn,
        imp: ImplFn,
    },
    /// HCL's `try`: its arguments are expressions, evaluated in turn.
    Try,
    /// HCL's `can`.
    Can,
}

/// A function: parameters, an optional variadic parameter, a return-type
/// function and an implementation (go-cty's `function.Spec`).
#[derive(Clone)]
pub struct Function {
    pub params: Vec<Param>,
    pub var_param: Option<Param>,
    pub(crate) kind: Kind,
    /// What holds of every result; see [`Function::refine_result`].
    refine: Option<RefineFn>,
}

impl fmt::Debug for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Function").field("params", &self.params).field("var_param", &self.var_param).finish()
    }
}

impl Function {
    pub fn new(params: Vec<Param>, var_param: Option<Param>, ret: TypeFn, imp: ImplFn) -> Function {
        Function { params, var_param, kind: Kind::Normal { ret, imp }, refine: None }
    }

    /// Says what is known of every result (go-cty's `RefineResult`): an
    /// unknown result of a call that short-circuits on unknown arguments
    /// carries it too, so `upper(var.x) != null` is known.
    pub fn refine_result(mut self, refine: impl Fn(Refine) -> Refine + Send + Sync + 'static) -> Function {
        self.refine = Some(Arc::new(refine));
        self
    }

    /// The result is never null: the refinement nearly every function of
    /// go-cty's standard library declares.
    pub fn never_null(self) -> Function {
        self.refine_result(Refine::not_null)
    }

    /// A function whose return type does not depend on its arguments.
    pub fn simple(
        params: Vec<Param>,
        var_param: Option<Param>,
        ret: Type,
        imp: impl Fn(&[Value], &Type) -> Result<Value, FunctionError> + Send + Sync + 'static,
    ) -> Function {
        Function::new(params, var_param, Arc::new(move |_| Ok(ret.clone())), Arc::new(imp))
    }

    pub(crate) fn try_fn() -> Function {
        Function { params: Vec::new(), var_param: None, kind: Kind::Try, refine: None }
    }

    pub(crate) fn can_fn() -> Function {
        Function { params: Vec::new(), var_param: None, kind: Kind::Can, refine: None }
    }

    /// go-cty's `Function.Call` on arguments already converted to the
    /// parameters' types by the caller (HCL's call expression does that).
    pub fn call(&self, args: &[Value]) -> Result<Value, FunctionError> {
        let Kind::Normal { ret, imp } = &self.kind else {
            return Err(FunctionError::new("this function takes expressions, not values"));
        };
        if args.len() < self.params.len() {
            return Err(FunctionError::new("not enough arguments"));
        }
        if args.len() > self.params.len() && self.var_param.is_none() {
            return Err(FunctionError::new("too many arguments"));
        }
        let param_of = |i: usize| self.params.get(i).or(self.var_param.as_ref());
        // go-cty's `ReturnTypeForValues`: arguments are checked in order, and
        // the first one of the dynamic pseudo-type where the parameter does
        // not allow it makes the result an unknown of the dynamic type,
        // without asking the type function or running the implementation
        // (go-cty v1.13.1 and later; arguments after it are not checked for
        // null), and without the function's refinements.
        for (i, v) in args.iter().enumerate() {
            let Some(p) = param_of(i) else { continue };
            if v.is_null() && !p.allow_null {
                return Err(FunctionError::arg(i, "argument must not be null"));
            }
            if v.ty().is_dynamic() && !p.allow_dynamic {
                return Ok(Value::dynamic());
            }
        }
        let ty = ret(args)?;
        // An argument not wholly known where the parameter does not take
        // unknowns makes the result an unknown of the return type. go-cty
        // looks only at the argument itself; an implementation here is not
        // written for unknowns inside its arguments either, and gives the
        // same unknown for them that go-cty's gives.
        let unknown = args
            .iter()
            .enumerate()
            .any(|(i, v)| param_of(i).is_some_and(|p| !p.allow_unknown) && !v.is_wholly_known());
        let result = if unknown { Value::unknown(ty) } else { imp(args, &ty)? };
        Ok(match &self.refine {
            Some(refine) if result.is_known() || !result.ty().is_dynamic() => refine(result.refine()).build(),
            _ => result,
        })
    }
}
