//! Functions of the spec file language: the spec definition functions
//! (usable in `literal`, `transform` and `variables`), and the custom
//! functions a spec's `function` blocks define for input files
//! (`ext/userfunc`).

use std::{collections::BTreeMap, sync::Arc};

use decode::{Diagnostic, Expression, diagnostic::has_errors};
use eval::{Function, FunctionError, Param};
use value::{Type, Value};

/// The spec definition functions (`cmd/hcldec/spec_funcs.go`), from the
/// evaluator's standard library. `reverse` reverses a string here, as
/// go-cty's `ReverseFunc` does (the standard library's `reverse` is the
/// list function), and `hasindex` is not in the standard library.
pub fn spec_functions() -> BTreeMap<String, Function> {
    let stdlib = eval::stdlib::functions();
    let mut functions = BTreeMap::new();
    for (name, stdlib_name) in [
        ("abs", "abs"),
        ("coalesce", "coalesce"),
        ("concat", "concat"),
        ("int", "int"),
        ("jsondecode", "jsondecode"),
        ("jsonencode", "jsonencode"),
        ("length", "length"),
        ("lower", "lower"),
        ("max", "max"),
        ("min", "min"),
        ("reverse", "strrev"),
        ("strlen", "strlen"),
        ("substr", "substr"),
        ("upper", "upper"),
    ] {
        if let Some(function) = stdlib.get(stdlib_name) {
            functions.insert(name.to_string(), function.clone());
        }
    }
    functions.insert("hasindex".to_string(), has_index());
    functions
}

/// go-cty's `HasIndexFunc`: whether `collection[key]` would succeed.
fn has_index() -> Function {
    Function::new(
        vec![
            Param::new("collection", Type::Dynamic).allow_unknown(),
            Param::new("key", Type::Dynamic).allow_unknown(),
        ],
        None,
        Arc::new(|args: &[Value]| {
            let ty = args.first().map(Value::ty).unwrap_or(Type::Dynamic);
            if ty.is_tuple() || ty.is_list() || ty.is_map() || ty.is_dynamic() {
                Ok(Type::Bool)
            } else {
                Err(FunctionError::arg(0, "collection must be a list, a map or a tuple"))
            }
        }),
        Arc::new(|args: &[Value], _ty: &Type| {
            let [collection, key] = args else {
                return Err(FunctionError::new("hasindex takes two arguments"));
            };
            if !collection.is_known() || !key.is_known() {
                return Ok(Value::unknown(Type::Bool));
            }
            if collection.is_null() || key.is_null() {
                return Ok(Value::bool(false));
            }
            let ty = collection.ty();
            let found = if ty.is_map() {
                match (key.as_str(), collection.entries()) {
                    (Some(key), Some(entries)) => entries.contains_key(key),
                    _ => false,
                }
            } else {
                let index = key.as_number().filter(|n| n.is_integer()).and_then(|n| n.to_i64());
                match (index, collection.length()) {
                    (Some(index), Some(len)) => index >= 0 && (index as u64) < len as u64,
                    _ => false,
                }
            };
            Ok(Value::bool(found))
        }),
    )
}

/// A function defined by a spec's `function` block: `result` evaluated
/// with the parameters as variables and the spec definition functions.
pub(crate) fn user_function(
    params: Vec<String>,
    variadic: Option<String>,
    result: Expression,
    spec_functions: Arc<BTreeMap<String, Function>>,
) -> Function {
    let declared_params = params.iter().map(|name| Param::new(name, Type::Dynamic)).collect();
    let declared_variadic = variadic.as_ref().map(|name| Param::new(name, Type::Dynamic));
    let param_count = params.len();
    let call = Arc::new(move |args: &[Value]| -> Result<Value, FunctionError> {
        let mut ctx = eval::Context::new();
        ctx.functions = (*spec_functions).clone();
        for (name, value) in params.iter().zip(args) {
            ctx.variables.insert(name.clone(), value.clone());
        }
        if let Some(variadic) = &variadic {
            let rest = args.get(param_count..).unwrap_or_default().to_vec();
            ctx.variables.insert(variadic.clone(), Value::tuple(rest));
        }
        let (value, diags) = result.value(&ctx);
        if has_errors(&diags) {
            return Err(FunctionError::new(diagnostics_error(&diags)));
        }
        Ok(value)
    });
    let type_call = call.clone();
    Function::new(
        declared_params,
        declared_variadic,
        // The return type is the result's, so the result is computed twice;
        // the reference does the same.
        Arc::new(move |args: &[Value]| type_call(args).map(|value| value.ty())),
        Arc::new(move |args: &[Value], _ty: &Type| call(args)),
    )
}

/// `hcl.Diagnostics.Error`: the first diagnostic, and how many more.
fn diagnostics_error(diags: &[Diagnostic]) -> String {
    let one = |diag: &Diagnostic| {
        let subject = diag.subject.as_ref().map(ToString::to_string).unwrap_or_else(|| "<nil>".to_string());
        format!("{subject}: {}; {}", diag.summary, diag.detail)
    };
    match diags {
        [] => "no diagnostics".to_string(),
        [diag] => one(diag),
        [first, rest @ ..] => format!("{}, and {} other diagnostic(s)", one(first), rest.len()),
    }
}
