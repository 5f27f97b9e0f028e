//! Terraform's built-in functions, as the Terraform dialect's function table.
//!
//! The list and every signature (parameters with their types and their
//! null, unknown and dynamic-type allowances, the variadic parameter, the
//! return type) follow `internal/lang/functions.go` and
//! `internal/lang/funcs/*.go` in hashicorp/terraform (commit 883c7221, with
//! go-cty v1.18.1), read through the mirror of that repository. Each
//! function is one of three kinds:
//! - go-cty's standard library function unchanged (`upper`, `join`, ...):
//!   the one of `eval::stdlib`;
//! - Terraform's own function, implemented here with Terraform's rules
//!   (`length` of a string, `lookup` with two arguments, `coalesce`
//!   skipping empty strings, `element` with a negative index, ...);
//! - Terraform's own function that reads the file system, the clock, a
//!   random source, or does cryptography or network arithmetic (`file`,
//!   `timestamp`, `uuid`, `bcrypt`, `cidrsubnet`, ...): its signature is
//!   exact, so a wrong number of arguments or an argument of the wrong type
//!   is reported as Terraform reports it, and its result is an unknown value
//!   of its return type.
//!
//! Functions of the standard library that Terraform does not have
//! (`strlen`, `int`, `regex_replace`) are not in the table, so calling one
//! in a Terraform file is a call to an unknown function, as in Terraform.

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::Arc,
};

use eval::{Function, FunctionError, Param, Type, Value};
use rustc_hash::FxHashMap;
use smol_str::SmolStr;

use db::module::{ModuleDiagnostic, ModuleDiagnosticKind};

/// Terraform's functions that are go-cty's standard library functions
/// (and HCL's `try` and `can`), by `functions.go`'s table, and that behave
/// in go-cty v1.18.1 as `eval::stdlib`'s do (which follows the reference's
/// older go-cty): `element` and `contains`, which changed since, are in
/// [`own_functions`]. `pow` and `log` are Terraform's own now but compute
/// the same.
const FROM_STDLIB: &[&str] = &[
    "abs",
    "can",
    "ceil",
    "chomp",
    "chunklist",
    "coalescelist",
    "compact",
    "concat",
    "csvdecode",
    "distinct",
    "flatten",
    "floor",
    "format",
    "formatdate",
    "formatlist",
    "indent",
    "join",
    "jsondecode",
    "jsonencode",
    "keys",
    "log",
    "lower",
    "max",
    "merge",
    "min",
    "parseint",
    "pow",
    "range",
    "regex",
    "regexall",
    "reverse",
    "setintersection",
    "setproduct",
    "setsubtract",
    "setunion",
    "signum",
    "slice",
    "sort",
    "split",
    "strrev",
    "substr",
    "timeadd",
    "title",
    "trim",
    "trimprefix",
    "trimspace",
    "trimsuffix",
    "try",
    "upper",
    "values",
    "zipmap",
];

/// Every Terraform function by name: the standard library's where Terraform
/// uses it unchanged, the others from [`own_functions`].
pub fn functions() -> BTreeMap<String, Function> {
    let mut table: BTreeMap<String, Function> = FROM_STDLIB
        .iter()
        .filter_map(|name| stdlib_function(name).map(|function| (name.to_string(), function)))
        .collect();
    table.extend(own_functions());
    table
}

/// The names whose function in a Terraform module is not the standard
/// library's: Terraform's own functions, and the standard library's
/// functions Terraform does not have. These are the names for which an
/// attribute must read the dialect's table rather than the standard library.
pub fn names_differing_from_stdlib() -> BTreeSet<SmolStr> {
    let own = own_functions();
    let removed = STDLIB
        .with(|stdlib| stdlib.keys().cloned().collect::<Vec<_>>())
        .into_iter()
        .filter(|name| !FROM_STDLIB.contains(&name.as_str()) && !own.contains_key(name));
    let core = functions().into_keys().map(|name| format!("{CORE}{name}"));
    let builtin = builtin_provider_functions().into_keys();
    // The empty name stands for every namespaced name (see
    // [`namespaces`]): an attribute calling one reads the table too.
    let every_namespaced = std::iter::once(String::new());
    own.keys()
        .cloned()
        .chain(removed)
        .chain(core)
        .chain(builtin)
        .chain(every_namespaced)
        .map(SmolStr::from)
        .collect()
}

/// The namespace of Terraform's built-in functions' second names
/// (`core::upper`): `internal/lang/functions.go` makes every built-in
/// function callable under it too, so that a module can tell it from a
/// provider's function of the same name. OpenTofu does the same.
const CORE: &str = "core::";

/// The functions of Terraform's built-in provider
/// (`terraform.io/builtin/terraform`, `internal/builtin/providers/terraform`),
/// which a module calls as `provider::terraform::NAME` once it requires that
/// provider under the local name `terraform`: their signatures, and an
/// unknown result of their return types (they are evaluated by the
/// provider, at plan time).
fn builtin_provider_functions() -> BTreeMap<String, Function> {
    let mut table = BTreeMap::new();
    let value = || p("value", Type::Dynamic).allow_unknown().allow_dynamic();
    let unknown = |ty: Type| move |_: &[Value], _: &Type| Ok(Value::unknown(ty.clone()));
    table.insert(
        format!("{BUILTIN_PROVIDER}encode_tfvars"),
        Function::simple(vec![value()], None, Type::String, unknown(Type::String)),
    );
    table.insert(
        format!("{BUILTIN_PROVIDER}decode_tfvars"),
        Function::simple(vec![p("src", Type::String)], None, Type::Dynamic, unknown(Type::Dynamic)),
    );
    table.insert(
        format!("{BUILTIN_PROVIDER}encode_expr"),
        Function::simple(vec![value()], None, Type::String, unknown(Type::String)),
    );
    table
}

/// The namespace of the built-in provider's functions, under the local
/// name Terraform's documentation gives it.
const BUILTIN_PROVIDER: &str = "provider::terraform::";

/// What stands for the functions a module's providers offer: any name in
/// the `provider::` namespace (or any other namespaced name, which
/// Terraform rejects, see [`provider_function_diagnostics`]) is a call whose
/// arguments are evaluated, and whose result is unknown: only the provider,
/// when Terraform runs, knows the function. Whether the module requires
/// that provider is checked apart, from its declarations, so that an
/// attribute's value does not depend on them.
pub fn namespaces() -> BTreeMap<String, Function> {
    let mut table = BTreeMap::new();
    table.insert(String::new(), db::module::unknown_function());
    table
}

/// Makes `table` (the standard library with the dialect's stubs) Terraform's:
/// Terraform's own functions replace the standard library's or the stubs of
/// the same names, and the standard library's functions Terraform lacks are
/// removed. Names that are neither (a caller's own unknown functions) stay.
pub fn apply(table: &mut BTreeMap<String, Function>) {
    let own = own_functions();
    table.retain(|name, _| {
        FROM_STDLIB.contains(&name.as_str()) || !is_stdlib_name(name) || own.contains_key(name)
    });
    table.extend(own);
    // Every built-in function under its `core::` name too; the stubs of
    // those names (they are among the dialect's unknown functions) give
    // way to them.
    table.extend(functions().into_iter().map(|(name, function)| (format!("{CORE}{name}"), function)));
    table.extend(builtin_provider_functions());
    table.remove("");
}

thread_local! {
    /// The standard library's functions, made once: the dialect's table
    /// takes several of them, and made for each, the standard library was
    /// most of the instructions of making the table (once per process, but
    /// a warm check that checks one module again pays for it).
    static STDLIB: BTreeMap<String, Function> = eval::stdlib::functions();
}

/// The standard library's function `name`.
fn stdlib_function(name: &str) -> Option<Function> {
    STDLIB.with(|stdlib| stdlib.get(name).cloned())
}

fn is_stdlib_name(name: &str) -> bool {
    STDLIB.with(|stdlib| stdlib.contains_key(name))
}

fn p(name: &str, ty: Type) -> Param {
    Param::new(name, ty)
}

/// A parameter that takes anything: null, unknown, of any type.
fn any(name: &str) -> Param {
    Param::new(name, Type::Dynamic).allow_null().allow_unknown().allow_dynamic()
}

fn string_arg(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

fn list_of_strings() -> Type {
    Type::list(Type::String)
}

/// A function Terraform has but that is not computed here: exact
/// parameters, an unknown result of `ret`.
pub(crate) fn unknown_result(params: Vec<Param>, var_param: Option<Param>, ret: Type) -> Function {
    Function::simple(params, var_param, ret, |_, ret| Ok(Value::unknown(ret.clone())))
}

/// A function with a fixed return type computed by `imp`.
fn simple(
    params: Vec<Param>,
    ret: Type,
    imp: impl Fn(&[Value]) -> Result<Value, FunctionError> + Send + Sync + 'static,
) -> Function {
    Function::simple(params, None, ret, move |args, _| imp(args))
}

/// A function whose result has the type of its only argument and is that
/// argument: Terraform's functions that only change marks, which values
/// here do not carry.
fn identity() -> Function {
    Function::new(
        vec![any("value")],
        None,
        Arc::new(|args| Ok(args[0].ty())),
        Arc::new(|args, _| Ok(args[0].clone())),
    )
}

/// Terraform's own functions (`internal/lang/funcs`), by name.
fn own_functions() -> BTreeMap<String, Function> {
    let mut table = BTreeMap::new();
    let mut add = |name: &str, function: Function| {
        table.insert(name.to_string(), function);
    };
    let path = || p("path", Type::String).allow_unknown();
    let string = |name: &str| p(name, Type::String);

    // Collections.
    add("length", length());
    add("lookup", lookup());
    add("element", element());
    add("coalesce", coalesce());
    add("index", index());
    if let Some(contains) = contains() {
        add("contains", contains);
    }
    add("one", one());
    add("sum", sum());
    add("alltrue", all_any_true(true));
    add("anytrue", all_any_true(false));
    add("matchkeys", matchkeys());
    add("transpose", transpose());
    add("list", removed("list", "tolist([ ... ])", "a literal list"));
    add("map", removed("map", "tomap({ ... })", "a literal map"));

    // Type conversion.
    add("tostring", to_type(Type::String));
    add("tonumber", to_type(Type::Number));
    add("tobool", to_type(Type::Bool));
    add("tolist", to_type(Type::list(Type::Dynamic)));
    add("toset", to_type(Type::set(Type::Dynamic)));
    add("tomap", to_type(Type::map(Type::Dynamic)));
    // `convert(value, type)` reads its second argument as a type
    // expression, which is not evaluated here: any arguments, unknown.
    add("convert", unknown_result(vec![any("value"), any("type")], None, Type::Dynamic));
    add("type", unknown_result(vec![any("value")], None, Type::Dynamic));
    add("sensitive", identity());
    add("nonsensitive", identity());
    add("ephemeralasnull", identity());
    // Whether a value is sensitive depends on marks this model does not
    // carry (a sensitive variable's value, a provider's attribute).
    add("issensitive", unknown_result(vec![any("value")], None, Type::Bool));

    // Strings.
    add("startswith", starts_with());
    add(
        "endswith",
        simple(vec![string("str"), string("suffix")], Type::Bool, |args| {
            Ok(Value::bool(string_arg(&args[0]).ends_with(string_arg(&args[1]))))
        }),
    );
    add(
        "strcontains",
        simple(vec![string("str"), string("substr")], Type::Bool, |args| {
            Ok(Value::bool(string_arg(&args[0]).contains(string_arg(&args[1]))))
        }),
    );
    add("replace", replace());
    add(
        "templatestring",
        unknown_result(vec![any("template"), p("vars", Type::Dynamic)], None, Type::String),
    );

    // Encodings.
    add(
        "base64encode",
        simple(vec![string("str")], Type::String, |args| {
            Ok(Value::string(&base64_encode(string_arg(&args[0]).as_bytes())))
        }),
    );
    add("base64decode", base64_decode());
    add(
        "urlencode",
        simple(vec![string("str")], Type::String, |args| {
            Ok(Value::string(&url_query_escape(string_arg(&args[0]))))
        }),
    );
    add("base64gzip", unknown_result(vec![string("str")], None, Type::String));
    add("textencodebase64", unknown_result(vec![string("string"), string("encoding")], None, Type::String));
    add("textdecodebase64", unknown_result(vec![string("source"), string("encoding")], None, Type::String));
    // go-cty-yaml's functions: any value to encode, a string to decode.
    add("yamlencode", unknown_result(vec![any("value")], None, Type::String));
    add("yamldecode", unknown_result(vec![string("src")], None, Type::Dynamic));

    // Hashes and cryptography.
    for name in ["md5", "sha1", "sha256", "sha512", "base64sha256", "base64sha512"] {
        add(name, unknown_result(vec![string("str")], None, Type::String));
    }
    add("bcrypt", unknown_result(vec![string("str")], Some(p("cost", Type::Number)), Type::String));
    add("rsadecrypt", unknown_result(vec![string("ciphertext"), string("privatekey")], None, Type::String));
    add("uuid", unknown_result(Vec::new(), None, Type::String));
    add("uuidv5", unknown_result(vec![string("namespace"), string("name")], None, Type::String));

    // Network addresses.
    add(
        "cidrhost",
        cidr_function(vec![string("prefix"), p("hostnum", Type::Number)], None, Type::String, cidrhost),
    );
    add("cidrnetmask", cidr_function(vec![string("prefix")], None, Type::String, cidrnetmask));
    add(
        "cidrsubnet",
        cidr_function(
            vec![string("prefix"), p("newbits", Type::Number), p("netnum", Type::Number)],
            None,
            Type::String,
            cidrsubnet,
        ),
    );
    add(
        "cidrsubnets",
        cidr_function(
            vec![string("prefix")],
            Some(p("newbits", Type::Number)),
            list_of_strings(),
            cidrsubnets,
        ),
    );

    // Time.
    add("timestamp", unknown_result(Vec::new(), None, Type::String));
    add("plantimestamp", unknown_result(Vec::new(), None, Type::String));
    add("timecmp", unknown_result(vec![string("timestamp_a"), string("timestamp_b")], None, Type::Number));

    // The file system.
    for name in [
        "file",
        "filebase64",
        "filebase64sha256",
        "filebase64sha512",
        "filemd5",
        "filesha1",
        "filesha256",
        "filesha512",
    ] {
        add(name, unknown_result(vec![path()], None, Type::String));
    }
    add("fileexists", unknown_result(vec![path()], None, Type::Bool));
    add(
        "fileset",
        unknown_result(
            vec![path(), p("pattern", Type::String).allow_unknown()],
            None,
            Type::set(Type::String),
        ),
    );
    // A template made of one interpolation can produce a value of any type.
    add(
        "templatefile",
        unknown_result(vec![path(), p("vars", Type::Dynamic).allow_unknown()], None, Type::Dynamic),
    );
    for name in ["abspath", "basename", "dirname", "pathexpand"] {
        add(name, unknown_result(vec![string("path")], None, Type::String));
    }
    // Terraform's own functions declare that their results are never null
    // (`RefineResult: refineNotNull`), but for these.
    const NULLABLE: &[&str] = &[
        "lookup",
        "one",
        "list",
        "map",
        "type",
        "sensitive",
        "nonsensitive",
        "ephemeralasnull",
        "issensitive",
        "strcontains",
        "tostring",
        "tonumber",
        "tobool",
        "tolist",
        "toset",
        "tomap",
        "timestamp",
        "plantimestamp",
        "templatefile",
        "element",
        "length",
    ];
    table
        .into_iter()
        .map(|(name, f)| if NULLABLE.contains(&name.as_str()) { (name, f) } else { (name, f.never_null()) })
        .collect()
}

/// `length`: of a string (its grapheme clusters, as `strlen`), a
/// collection, or a structural value.
fn length() -> Function {
    let strlen = stdlib_function("strlen");
    Function::new(
        vec![Param::new("value", Type::Dynamic).allow_dynamic().allow_unknown()],
        None,
        Arc::new(|args| match args[0].ty() {
            Type::String
            | Type::List(_)
            | Type::Set(_)
            | Type::Map(_)
            | Type::Tuple(_)
            | Type::Object(_)
            | Type::Dynamic => Ok(Type::Number),
            _ => {
                Err(FunctionError::new("argument must be a string, a collection type, or a structural type"))
            }
        }),
        // An unknown collection's length is what its refinements allow, an
        // unknown string's at least its known prefix's (go-cty's
        // `Value.Length` and `strlen`, which Terraform's `length` calls).
        Arc::new(move |args, _| {
            let value = &args[0];
            match value.ty() {
                Type::Tuple(elements) => Ok(Value::int(elements.len() as i64)),
                Type::Object(object) => Ok(Value::int(object.attrs().len() as i64)),
                Type::Dynamic => Ok(Value::unknown(Type::Number)),
                Type::String => match &strlen {
                    Some(strlen) => strlen.call(std::slice::from_ref(value)),
                    None => Ok(Value::unknown(Type::Number)),
                },
                _ => Ok(value.length_value()),
            }
        }),
    )
    .never_null()
}

/// `lookup(map, key)` or `lookup(map, key, default)`: the default is a
/// variadic parameter, so that two arguments are enough.
fn lookup() -> Function {
    Function::new(
        vec![
            Param::new("inputMap", Type::Dynamic).allow_unknown(),
            Param::new("key", Type::String).allow_unknown(),
        ],
        Some(any("default")),
        Arc::new(|args| {
            if args.len() > 3 {
                return Err(FunctionError::new(format!(
                    "lookup() takes two or three arguments, got {}",
                    args.len()
                )));
            }
            match args[0].ty() {
                Type::Object(object) => {
                    if !args[1].is_known() {
                        return Ok(Type::Dynamic);
                    }
                    let key = string_arg(&args[1]);
                    if let Some(ty) = object.attrs().get(key) {
                        Ok(ty.clone())
                    } else if let Some(default) = args.get(2) {
                        Ok(default.ty())
                    } else {
                        Err(FunctionError::arg(
                            0,
                            format!("the given object has no attribute {}", value::set::go_quoted(key)),
                        ))
                    }
                }
                Type::Map(element) => {
                    if let Some(default) = args.get(2)
                        && value::convert(default, &element).is_err()
                    {
                        return Err(FunctionError::arg(
                            2,
                            "the default value must have the same type as the map elements",
                        ));
                    }
                    Ok(std::sync::Arc::unwrap_or_clone(element))
                }
                _ => Err(FunctionError::arg(0, "lookup() requires a map as the first argument")),
            }
        }),
        Arc::new(|args, ret| {
            let (collection, key) = (&args[0], &args[1]);
            if !collection.is_known() || !key.is_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let key = string_arg(key);
            if let Some(found) = collection.entries().and_then(|entries| entries.get(key)) {
                return Ok(found.clone());
            }
            match args.get(2) {
                Some(default) if ret.is_dynamic() => Ok(default.clone()),
                Some(default) => value::convert(default, ret).map_err(|e| FunctionError::new(e.to_string())),
                None => Err(FunctionError::new(format!(
                    "lookup failed to find key {}",
                    value::set::go_quoted(key)
                ))),
            }
        }),
    )
}

/// The index `index` names in a sequence of `len` elements: wrapped around
/// in both directions (go-cty 1.15 and later count a negative index from the
/// end).
fn wrapped_index(index: &Value, len: usize) -> Result<usize, FunctionError> {
    let index = index
        .as_number()
        .filter(|n| n.is_integer())
        .and_then(|n| n.to_i64())
        .ok_or_else(|| FunctionError::new("invalid index: a number is required to be a whole number"))?;
    Ok(index.rem_euclid(len as i64) as usize)
}

/// `element`: the standard library's, with a negative index counting from
/// the end (go-cty 1.15, Terraform 1.10).
fn element() -> Function {
    Function::new(
        vec![Param::new("list", Type::Dynamic), Param::new("index", Type::Number)],
        None,
        Arc::new(|args| match args[0].ty() {
            Type::List(element) => Ok(std::sync::Arc::unwrap_or_clone(element)),
            Type::Tuple(elements) => {
                if !args[1].is_known() {
                    return Ok(Type::Dynamic);
                }
                if elements.is_empty() {
                    return Err(FunctionError::new("cannot use element function with an empty list"));
                }
                Ok(elements[wrapped_index(&args[1], elements.len())?].clone())
            }
            other => Err(FunctionError::new(format!("cannot read elements from {}", other.friendly_name()))),
        }),
        Arc::new(|args, _| {
            let elements = args[0].elements().unwrap_or_default();
            if elements.is_empty() {
                return Err(FunctionError::new("cannot use element function with an empty list"));
            }
            Ok(elements[wrapped_index(&args[1], elements.len())?].clone())
        }),
    )
}

/// `coalesce`: the first argument neither null nor, when the arguments
/// unify to strings, empty.
fn coalesce() -> Function {
    Function::new(
        Vec::new(),
        Some(any("vals")),
        Arc::new(|args| {
            let types: Vec<Type> = args.iter().map(Value::ty).collect();
            value::unify_unsafe(&types)
                .ok_or_else(|| FunctionError::new("all arguments must have the same type"))
        }),
        Arc::new(|args, ret| {
            for arg in args {
                let arg = value::convert(arg, ret).map_err(|e| FunctionError::new(e.to_string()))?;
                if !arg.is_known() {
                    return Ok(Value::unknown(ret.clone()));
                }
                if arg.is_null() || (*ret == Type::String && arg.as_str() == Some("")) {
                    continue;
                }
                return Ok(arg);
            }
            Err(FunctionError::new("no non-null, non-empty-string arguments"))
        }),
    )
}

/// `contains`: the standard library's, but its value may be null (go-cty
/// 1.18.1, which Terraform uses: whether the collection has a null element).
fn contains() -> Option<Function> {
    let mut contains = stdlib_function("contains")?;
    let value = contains.params.get_mut(1)?;
    value.allow_null = true;
    Some(contains)
}

/// `index(list, value)`: the position of the first element equal to value.
fn index() -> Function {
    simple(vec![p("list", Type::Dynamic), p("value", Type::Dynamic)], Type::Number, |args| {
        if !(args[0].ty().is_list() || args[0].ty().is_tuple()) {
            return Err(FunctionError::new("argument must be a list or tuple"));
        }
        let elements = args[0].elements().unwrap_or_default();
        if elements.is_empty() {
            return Err(FunctionError::new("cannot search an empty list"));
        }
        for (i, element) in elements.iter().enumerate() {
            match element.equals(&args[1]) {
                None => return Ok(Value::unknown(Type::Number)),
                Some(true) => return Ok(Value::int(i as i64)),
                Some(false) => {}
            }
        }
        Err(FunctionError::new("item not found"))
    })
}

/// `matchkeys(values, keys, searchset)`: the values whose key (at the same
/// position) is in the search set.
fn matchkeys() -> Function {
    Function::new(
        vec![
            p("values", Type::list(Type::Dynamic)),
            p("keys", Type::list(Type::Dynamic)),
            p("searchset", Type::list(Type::Dynamic)),
        ],
        None,
        Arc::new(|args| {
            if value::unify_unsafe(&[args[1].ty(), args[2].ty()]).is_none() {
                return Err(FunctionError::new("keys and searchset must be of the same type"));
            }
            Ok(args[0].ty())
        }),
        Arc::new(|args, ret| {
            let element_type = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            let empty = || {
                Value::list(element_type.clone(), Vec::new()).map_err(|e| FunctionError::new(e.to_string()))
            };
            let values = args[0].elements().unwrap_or_default();
            if values.len() != args[1].length().unwrap_or(0) {
                return Err(FunctionError::new("length of keys and values should be equal"));
            }
            // The keys and the search set are compared as their common type
            // (`[1, 2]` against `["1"]` compares strings).
            let common = value::unify_unsafe(&[args[1].ty(), args[2].ty()]).unwrap_or(Type::Dynamic);
            let as_common =
                |v: &Value| value::convert(v, &common).map_err(|e| FunctionError::new(e.to_string()));
            let (keys, searchset) = (as_common(&args[1])?, as_common(&args[2])?);
            let (keys, searchset) =
                (keys.elements().unwrap_or_default(), searchset.elements().unwrap_or_default());
            let mut matched = Vec::new();
            for (value, key) in values.iter().zip(keys) {
                for search in searchset {
                    match key.equals(search) {
                        None => return empty(),
                        Some(true) => {
                            matched.push(value.clone());
                            break;
                        }
                        Some(false) => {}
                    }
                }
            }
            if matched.is_empty() {
                return empty();
            }
            Value::list(element_type.clone(), matched).map_err(|e| FunctionError::new(e.to_string()))
        }),
    )
}

/// `transpose`: a map of lists of strings with keys and values swapped,
/// each list sorted.
fn transpose() -> Function {
    let ret = Type::map(list_of_strings());
    simple(vec![p("values", ret.clone())], ret, |args| {
        let mut swapped: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (key, list) in args[0].entries().into_iter().flatten() {
            if list.is_null() {
                return Err(FunctionError::new("input must not contain null list"));
            }
            for item in list.elements().unwrap_or_default() {
                let Some(item) = item.as_str() else {
                    return Err(FunctionError::new("input list must not contain null string"));
                };
                swapped.entry(item.to_string()).or_default().push(key.clone());
            }
        }
        let entries = swapped
            .into_iter()
            .map(|(key, mut keys)| {
                keys.sort();
                let list = Value::list(Type::String, keys.iter().map(|k| Value::string(k)).collect());
                list.map(|list| (key, list))
            })
            .collect::<Result<BTreeMap<_, _>, _>>()
            .map_err(|e| FunctionError::new(e.to_string()))?;
        Value::map(list_of_strings(), entries).map_err(|e| FunctionError::new(e.to_string()))
    })
}

const ONE_MESSAGE: &str = "must be a list, set, or tuple value with either zero or one elements";

/// `one`: the only element of a sequence of at most one, null if empty.
fn one() -> Function {
    Function::new(
        vec![p("list", Type::Dynamic)],
        None,
        Arc::new(|args| match args[0].ty() {
            Type::List(element) | Type::Set(element) => Ok(std::sync::Arc::unwrap_or_clone(element)),
            Type::Tuple(elements) if elements.is_empty() => Ok(Type::Dynamic),
            Type::Tuple(elements) if elements.len() == 1 => Ok(elements[0].clone()),
            _ => Err(FunctionError::arg(0, ONE_MESSAGE)),
        }),
        Arc::new(|args, ret| {
            let elements = args[0].elements().unwrap_or_default();
            match elements {
                [] => Ok(Value::null(ret.clone())),
                [only] => Ok(only.clone()),
                _ => Err(FunctionError::arg(0, ONE_MESSAGE)),
            }
        }),
    )
}

/// `sum`: the sum of a non-empty sequence of numbers.
fn sum() -> Function {
    simple(vec![p("list", Type::Dynamic)], Type::Number, |args| {
        let ty = args[0].ty();
        let Some(elements) = args[0].elements().or_else(|| args[0].entries().map(|_| &[][..])) else {
            return Err(FunctionError::arg(0, "cannot sum noniterable"));
        };
        if args[0].length() == Some(0) {
            return Err(FunctionError::arg(0, "cannot sum an empty list"));
        }
        if !(ty.is_list() || ty.is_set() || ty.is_tuple()) {
            return Err(FunctionError::arg(
                0,
                format!("argument must be list, set, or tuple. Received {}", ty.friendly_name()),
            ));
        }
        let not_numbers = || FunctionError::arg(0, "argument must be list, set, or tuple of number values");
        let mut total: Option<value::Number> = None;
        for element in elements {
            if element.is_null() {
                return Err(not_numbers());
            }
            let number = value::convert(element, &Type::Number).map_err(|_| not_numbers())?;
            let number = number.as_number().cloned().ok_or_else(not_numbers)?;
            total = Some(match total {
                None => number,
                Some(total) => total
                    .add(&number)
                    .map_err(|_| FunctionError::new("can't compute sum of opposing infinities"))?,
            });
        }
        Ok(total.map_or_else(|| Value::unknown(Type::Number), Value::number))
    })
}

/// `alltrue` (`all`) and `anytrue`: over a list of bools, a null element
/// counting as false.
fn all_any_true(all: bool) -> Function {
    simple(vec![p("list", Type::list(Type::Bool))], Type::Bool, move |args| {
        let mut flags = args[0].elements().unwrap_or_default().iter().map(|v| v.as_bool() == Some(true));
        Ok(Value::bool(if all { flags.all(|flag| flag) } else { flags.any(|flag| flag) }))
    })
}

/// `tostring`, `tonumber`, ...: conversion to `want`, with Terraform's
/// messages.
fn to_type(want: Type) -> Function {
    let wanted = want.clone();
    Function::new(
        vec![any("v")],
        None,
        Arc::new(move |args| {
            let have = args[0].ty();
            if have == wanted {
                return Ok(wanted.clone());
            }
            if value::get_conversion(&have, &wanted, true).is_none() {
                let message = match (&have, &wanted) {
                    (Type::Tuple(_), Type::Tuple(_)) => format!(
                        "incompatible tuple type for conversion: {}",
                        value::convert::mismatch_message(&have, &wanted)
                    ),
                    (Type::Object(_), Type::Object(_)) => format!(
                        "incompatible object type for conversion: {}",
                        value::convert::mismatch_message(&have, &wanted)
                    ),
                    _ => format!("cannot convert {} to {}", have.friendly_name(), constraint_name(&wanted)),
                };
                return Err(FunctionError::arg(0, message));
            }
            Ok(wanted.clone())
        }),
        Arc::new(move |args, ret| {
            let arg = &args[0];
            if !arg.is_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            value::convert(arg, ret).map_err(|_| {
                let have = arg.ty();
                let quoted = || arg.as_str().map_or_else(|| "string".to_string(), value::set::go_quoted);
                let message = match (&have, &want) {
                    (Type::String, Type::Bool) => format!(
                        "cannot convert {} to bool; only the strings \"true\" or \"false\" are allowed",
                        quoted()
                    ),
                    (Type::String, Type::Number) => format!(
                        "cannot convert {} to number; given string must be a decimal representation of a number",
                        quoted()
                    ),
                    _ => format!("cannot convert {} to {}", have.friendly_name(), constraint_name(&want)),
                };
                FunctionError::arg(0, message)
            })
        }),
    )
}

/// go-cty's `FriendlyNameForConstraint`: `list of any single type` rather
/// than `list of dynamic`.
fn constraint_name(ty: &Type) -> String {
    match ty {
        Type::Dynamic => "any type".to_string(),
        Type::List(element) if element.is_dynamic() => "list of any single type".to_string(),
        Type::Set(element) if element.is_dynamic() => "set of any single type".to_string(),
        Type::Map(element) if element.is_dynamic() => "map of any single type".to_string(),
        _ => ty.friendly_name(),
    }
}

/// Terraform 0.12's `list` and `map`, removed in 0.15: every call fails.
fn removed(name: &'static str, instead: &'static str, what: &'static str) -> Function {
    let message = format!(
        "the \"{name}\" function was deprecated in Terraform v0.12 and is no longer available; use {instead} syntax to write {what}"
    );
    Function::new(
        Vec::new(),
        Some(any("vals")),
        Arc::new(move |_| Err(FunctionError::new(message.clone()))),
        Arc::new(|_, _| Ok(Value::dynamic())),
    )
}

/// `startswith`: the string may be unknown (a known prefix of an unknown
/// string is not modelled, so only the empty prefix decides then).
fn starts_with() -> Function {
    simple(vec![p("str", Type::String).allow_unknown(), p("prefix", Type::String)], Type::Bool, |args| {
        let prefix = string_arg(&args[1]);
        if !args[0].is_known() {
            return Ok(if prefix.is_empty() { Value::bool(true) } else { Value::unknown(Type::Bool) });
        }
        Ok(Value::bool(string_arg(&args[0]).starts_with(prefix)))
    })
}

/// `replace`: a substring between slashes (`/a+/`) is a regular expression,
/// replaced as the standard library's `regex_replace` does.
fn replace() -> Function {
    let regex_replace = stdlib_function("regex_replace");
    simple(
        vec![p("str", Type::String), p("substr", Type::String), p("replace", Type::String)],
        Type::String,
        {
            move |args| {
                let (text, search, replacement) =
                    (string_arg(&args[0]), string_arg(&args[1]), string_arg(&args[2]));
                if search.len() > 1 && search.starts_with('/') && search.ends_with('/') {
                    let Some(regex_replace) = &regex_replace else { return Ok(Value::unknown(Type::String)) };
                    let pattern = Value::string(&search[1..search.len() - 1]);
                    return regex_replace
                        .call(&[args[0].clone(), pattern, args[2].clone()])
                        .map_err(|e| FunctionError::new(e.message));
                }
                Ok(Value::string(&text.replace(search, replacement)))
            }
        },
    )
}

/// An IPv4 network: its first address (host bits cleared) and prefix length.
#[derive(Clone, Copy)]
struct Ipv4Network {
    address: u32,
    prefix: u32,
}

impl Ipv4Network {
    fn mask(prefix: u32) -> u32 {
        if prefix == 0 { 0 } else { u32::MAX << (32 - prefix) }
    }

    fn new(address: u32, prefix: u32) -> Ipv4Network {
        Ipv4Network { address: address & Ipv4Network::mask(prefix), prefix }
    }

    fn last(self) -> u32 {
        self.address | !Ipv4Network::mask(self.prefix)
    }

    fn contains(self, address: u32) -> bool {
        address & Ipv4Network::mask(self.prefix) == self.address
    }
}

impl std::fmt::Display for Ipv4Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", std::net::Ipv4Addr::from(self.address), self.prefix)
    }
}

/// Why a prefix is not read here: not IPv4 notation this parser is sure of
/// (IPv6, whose text forms are not reproduced here, is left unknown), or
/// IPv4 that Terraform's parser rejects too.
enum CidrError {
    NotHandled,
    Invalid(String),
}

/// Terraform's `ipaddr.ParseCIDR` (Go 1.16's, which takes leading zeros in
/// IPv4 octets as decimal) for IPv4 prefixes.
fn parse_ipv4_cidr(text: &str) -> Result<Ipv4Network, CidrError> {
    if text.contains(':') {
        return Err(CidrError::NotHandled);
    }
    let invalid = || CidrError::Invalid(format!("invalid CIDR address: {text}"));
    let (address, prefix) = text.split_once('/').ok_or_else(invalid)?;
    let decimal = |field: &str, max: u32| {
        if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let digits = field.trim_start_matches('0');
        if digits.len() > 3 {
            return None;
        }
        let value = if digits.is_empty() { 0 } else { digits.parse::<u32>().ok()? };
        (value <= max).then_some(value)
    };
    let octets: Vec<&str> = address.split('.').collect();
    if octets.len() != 4 {
        return Err(invalid());
    }
    let mut value = 0u32;
    for octet in octets {
        value = value << 8 | decimal(octet, 255).ok_or_else(invalid)?;
    }
    let prefix = decimal(prefix, 32).ok_or_else(invalid)?;
    Ok(Ipv4Network::new(value, prefix))
}

/// A whole number argument that fits an `i64`; `None` for the others, which
/// are left unknown rather than reported with a message that might differ.
fn whole_number(value: &Value) -> Option<i64> {
    value.as_number().filter(|n| n.is_integer()).and_then(|n| n.to_i64())
}

/// A function over an IPv4 prefix (its first argument): `compute` gives
/// `Ok(None)` for a result left unknown.
fn cidr_function(
    params: Vec<Param>,
    var_param: Option<Param>,
    ret: Type,
    compute: fn(Ipv4Network, &[Value]) -> Result<Option<Value>, FunctionError>,
) -> Function {
    Function::simple(params, var_param, ret, move |args, ret| {
        let network = match parse_ipv4_cidr(string_arg(&args[0])) {
            Ok(network) => network,
            Err(CidrError::NotHandled) => return Ok(Value::unknown(ret.clone())),
            Err(CidrError::Invalid(message)) => {
                // `cidrsubnets` reports it against its prefix argument.
                let message = format!("invalid CIDR expression: {message}");
                return Err(if ret.is_list() {
                    FunctionError::arg(0, message)
                } else {
                    FunctionError::new(message)
                });
            }
        };
        Ok(compute(network, args)?.unwrap_or_else(|| Value::unknown(ret.clone())))
    })
}

/// go-cidr's `HostBig` for IPv4: a negative host number counts from the
/// end of the network.
fn cidrhost(network: Ipv4Network, args: &[Value]) -> Result<Option<Value>, FunctionError> {
    let Some(host) = whole_number(&args[1]) else { return Ok(None) };
    let max = i64::from(!Ipv4Network::mask(network.prefix));
    let offset = if host < 0 { max - (-host - 1) } else { host };
    if host >= 0 && host > max {
        return Err(FunctionError::new(format!(
            "prefix of {} does not accommodate a host numbered {host}",
            network.prefix
        )));
    }
    if !(0..=max).contains(&offset) {
        return Ok(None);
    }
    Ok(Some(Value::string(&std::net::Ipv4Addr::from(network.address | offset as u32).to_string())))
}

fn cidrnetmask(network: Ipv4Network, _: &[Value]) -> Result<Option<Value>, FunctionError> {
    Ok(Some(Value::string(&std::net::Ipv4Addr::from(Ipv4Network::mask(network.prefix)).to_string())))
}

/// go-cidr's `SubnetBig` for IPv4.
fn cidrsubnet(network: Ipv4Network, args: &[Value]) -> Result<Option<Value>, FunctionError> {
    let (Some(newbits), Some(netnum)) = (whole_number(&args[1]), whole_number(&args[2])) else {
        return Ok(None);
    };
    if newbits < 0 || netnum < 0 {
        return Ok(None);
    }
    let prefix = i64::from(network.prefix) + newbits;
    if prefix > 32 {
        return Err(FunctionError::new(format!(
            "insufficient address space to extend prefix of {} by {newbits}",
            network.prefix
        )));
    }
    if netnum > (1i64 << newbits) - 1 {
        return Err(FunctionError::new(format!(
            "prefix extension of {newbits} does not accommodate a subnet numbered {netnum}"
        )));
    }
    let prefix = prefix as u32;
    let shifted = if prefix == 32 { netnum as u32 } else { (netnum as u32) << (32 - prefix) };
    Ok(Some(Value::string(&Ipv4Network::new(network.address | shifted, prefix).to_string())))
}

/// `cidrsubnets`: consecutive subnets of the given extensions, each aligned
/// after the previous one (go-cidr's `PreviousSubnet` and `NextSubnet`).
fn cidrsubnets(network: Ipv4Network, args: &[Value]) -> Result<Option<Value>, FunctionError> {
    let extensions = &args[1..];
    if extensions.is_empty() {
        return Ok(Some(
            Value::list(Type::String, Vec::new()).map_err(|e| FunctionError::new(e.to_string()))?,
        ));
    }
    let Some(first) = whole_number(&extensions[0]) else { return Ok(None) };
    // The subnet just before the network, of the first length: the first
    // `NextSubnet` is then the network's first subnet of that length. Each
    // extension is checked when its turn comes, as Terraform does.
    let first = (first + i64::from(network.prefix)).clamp(0, 32) as u32;
    let mut current = Ipv4Network::new(network.address.wrapping_sub(1), first);
    let mut subnets = Vec::with_capacity(extensions.len());
    for (i, extension) in extensions.iter().enumerate() {
        let Some(length) = whole_number(extension) else { return Ok(None) };
        if length < 1 {
            return Err(FunctionError::arg(i + 1, "must extend prefix by at least one bit"));
        }
        if length > 32 {
            return Err(FunctionError::arg(i + 1, "may not extend prefix by more than 32 bits"));
        }
        let length = length + i64::from(network.prefix);
        if length > 32 {
            return Err(FunctionError::arg(
                i + 1,
                format!("would extend prefix to {length} bits, which is too long for an IPv4 address"),
            ));
        }
        let length = length as u32;
        let last = Ipv4Network::new(current.last(), length).last();
        let (start, rollover) = last.overflowing_add(1);
        let next = Ipv4Network::new(start, length);
        if rollover || !network.contains(next.address) {
            return Err(FunctionError::arg(
                i + 1,
                format!(
                    "not enough remaining address space for a subnet with a prefix of {length} bits after {current}"
                ),
            ));
        }
        current = next;
        subnets.push(Value::string(&current.to_string()));
    }
    Ok(Some(Value::list(Type::String, subnets).map_err(|e| FunctionError::new(e.to_string()))?))
}

const BASE64_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// RFC 4648's standard base64, padded.
fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let group =
            chunk.iter().enumerate().fold(0u32, |group, (i, byte)| group | u32::from(*byte) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(BASE64_ALPHABET[(group >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Go's `base64.StdEncoding.DecodeString`: padding required, line breaks
/// ignored.
fn base64_decode_bytes(text: &str) -> Option<Vec<u8>> {
    let symbols: Vec<u8> = text.bytes().filter(|b| *b != b'\r' && *b != b'\n').collect();
    if !symbols.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(symbols.len() / 4 * 3);
    let groups = symbols.len() / 4;
    for (index, group) in symbols.chunks(4).enumerate() {
        let padding = group.iter().rev().take_while(|b| **b == b'=').count();
        if padding > 2 || (padding > 0 && index + 1 != groups) {
            return None;
        }
        let mut bits = 0u32;
        for (i, symbol) in group[..4 - padding].iter().enumerate() {
            let value = BASE64_ALPHABET.iter().position(|b| b == symbol)? as u32;
            bits |= value << (18 - 6 * i);
        }
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..4 - padding]);
    }
    Some(out)
}

fn base64_decode() -> Function {
    simple(vec![p("str", Type::String).allow_unknown()], Type::String, |args| {
        let Some(text) = args[0].as_str().filter(|_| args[0].is_known()) else {
            return Ok(Value::unknown(Type::String));
        };
        let bytes = base64_decode_bytes(text).ok_or_else(|| {
            FunctionError::new(format!("failed to decode base64 data {}", value::set::go_quoted(text)))
        })?;
        let decoded = String::from_utf8(bytes).map_err(|_| {
            FunctionError::new("the result of decoding the provided string is not valid UTF-8")
        })?;
        Ok(Value::string(&decoded))
    })
}

/// Go's `url.QueryEscape`: unreserved bytes kept, a space as `+`, every
/// other byte as `%XX`.
fn url_query_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(char::from(byte)),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// The namespaced function calls of a native file (`provider::a::b`,
/// `core::upper`), by name, each once: what [`provider_function_diagnostics`]
/// checks, kept per file so that checking a file after an edit elsewhere
/// reads nothing of the others.
#[salsa::tracked(returns(ref))]
pub fn namespaced_calls(db: &dyn db::Db, file: db::File) -> Vec<SmolStr> {
    if file.syntax(db) != db::SourceSyntax::Native {
        return Vec::new();
    }
    let mut names: Vec<SmolStr> = db::lower(db, file)
        .exprs
        .iter()
        .filter_map(|(_, expr)| match expr {
            hir::Expr::Call(call) if call.name.contains("::") => Some(SmolStr::from(call.name)),
            _ => None,
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// Terraform's errors for the namespaced function calls of `file` that
/// cannot be resolved (`CheckForUnknownFunctionDiags` in
/// `internal/lang/eval.go`): a namespace other than `provider::` (`core::`
/// takes only the built-in functions' names), `provider::` with no provider
/// name, and a provider the module does not require in a
/// `required_providers` block (Terraform offers a provider's functions
/// under the local name the module gives it there, and no others). A
/// provider the module requires may offer any function, which only the
/// provider knows: such a call is not checked here, and evaluates to an
/// unknown value; the built-in `terraform` provider's functions are known.
/// Found from the declarations alone, so that no attribute's value depends
/// on them; the file is read for ranges only when one is wrong.
pub fn provider_function_diagnostics(
    db: &dyn db::Db,
    module: db::module::Module,
    file: db::File,
) -> Vec<ModuleDiagnostic> {
    let dialect = module.dialect(db);
    if !dialect.rules(db).knows_every_root || namespaced_calls(db, file).is_empty() {
        return Vec::new();
    }
    // An override file may add a provider (its `required_providers`
    // replaces the module's, provider by provider), and the model leaves
    // override files out: then the module's providers are not known here.
    if module.files(db).iter().any(|&file| vfs::is_terraform_override_file(file.path(db))) {
        return Vec::new();
    }
    let table = dialect.functions(db);
    let Some(declared) = required_provider_names(db::module::module_order(db, module)) else {
        return Vec::new();
    };
    let problem = |name: &SmolStr| -> Option<(String, SmolStr, SmolStr)> {
        let sep = name.rfind("::")?;
        let (namespace, function) = (&name[..sep + 2], &name[sep + 2..]);
        let parts: Vec<&str> = namespace.split("::").collect();
        let provider = parts.get(1).copied().unwrap_or_default();
        let detail = if parts[0] != "provider" {
            if table.functions().contains_key(name.as_str()) {
                return None;
            }
            format!(
                "The function namespace {:?} is not valid. Provider function calls must use the \"provider::\" namespace prefix.",
                parts[0]
            )
        } else if provider.is_empty() {
            "The function call must include the provider name after the \"provider::\" prefix.".to_owned()
        } else if parts.len() == 3 && declared.contains(provider) {
            if provider != "terraform" || table.functions().contains_key(name.as_str()) {
                return None;
            }
            format!("The function {function:?} is not available from the provider {provider:?}.")
        } else {
            format!(
                "There is no function named \"{namespace}{function}\". Ensure that provider name {provider:?} is declared in this module's required_providers block, and that this provider offers a function named {function:?}."
            )
        };
        Some((detail, namespace.into(), function.into()))
    };
    let wrong: FxHashMap<&str, (String, SmolStr, SmolStr)> =
        namespaced_calls(db, file).iter().filter_map(|name| Some((name.as_str(), problem(name)?))).collect();
    if wrong.is_empty() {
        return Vec::new();
    }
    let hir = db::lower(db, file);
    let source_map = db::source_map(db, file);
    let root = db::parse(db, file).syntax_node();
    let mut out = Vec::new();
    for (id, expr) in hir.exprs.iter() {
        let hir::Expr::Call(call) = expr else { continue };
        let Some((detail, namespace, function)) = wrong.get(call.name.as_str()) else { continue };
        let range = source_map
            .expr_syntax(id)
            .and_then(|pointer| pointer.try_to_node(&root))
            .and_then(|node| {
                use syntax::ast::AstNode;
                syntax::ast::FunctionCall::cast(node.clone())
                    .and_then(|call| call.name_range())
                    .or(Some(node.text_range()))
            })
            .unwrap_or_default();
        out.push(ModuleDiagnostic {
            file,
            range,
            kind: ModuleDiagnosticKind::UnknownProviderFunction {
                namespace: namespace.clone(),
                name: function.clone(),
            },
            detail: detail.clone(),
            related: Vec::new(),
        });
    }
    out.sort_by_key(|diagnostic| (diagnostic.range.start(), diagnostic.range.end()));
    out
}

/// The local names of the providers a module requires: the attributes of
/// the `required_providers` blocks of its `terraform` blocks
/// (`terraform.required_providers.aws`, or with the ordinals of repeated
/// blocks, `terraform.0.required_providers.aws`). `None` when a
/// `required_providers` is itself an attribute (a JSON file's, whose
/// properties the model cannot tell from blocks): its names are not known.
fn required_provider_names<'a>(
    defined: impl Iterator<Item = &'a db::module::Address>,
) -> Option<BTreeSet<SmolStr>> {
    let ordinal = |segment: &str| segment.bytes().all(|b| b.is_ascii_digit());
    let mut names = BTreeSet::new();
    for address in defined {
        let segments = address.segments();
        if segments.first().copied() != Some("terraform") {
            continue;
        }
        if segments.last().copied() == Some("required_providers") {
            return None;
        }
        let Some((name, before)) = segments.split_last() else { continue };
        let before = match before.split_last() {
            Some((last, rest)) if ordinal(last) && rest.last().copied() == Some("required_providers") => rest,
            _ => before,
        };
        if before.last().copied() == Some("required_providers") {
            names.insert(SmolStr::new(name));
        }
    }
    Some(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        for text in ["", "f", "fo", "foo", "foob", "fooba", "foobar", "héllo"] {
            let encoded = base64_encode(text.as_bytes());
            assert_eq!(base64_decode_bytes(&encoded).as_deref(), Some(text.as_bytes()), "{encoded}");
        }
        assert_eq!(base64_encode(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64_encode(b"fo"), "Zm8=");
        assert_eq!(base64_decode_bytes("Zm8"), None);
        assert_eq!(base64_decode_bytes("Zm8=Zm8="), None);
    }
}
