//! Unknown values never make an expression fail that succeeds on known
//! ones: an error found with unknowns must hold whatever they turn out to
//! be (go-cty's and HCL's contract, which `halite check` relies on to
//! report errors in attributes that read a module's inputs).
//!
//! The test is metamorphic over every expression of the evaluation cases
//! (`test-data/eval`, this crate's reference-made cases and the calls of
//! [`CALLS`]): for each attribute that evaluates without error, each of its
//! sub-expressions in turn is replaced by a variable holding an unknown
//! stand-in for it, of three kinds: an unknown of any type, an unknown of
//! the sub-expression's own type, and its value with every leaf unknown.
//! The attribute must still evaluate without error, and an unknown result
//! must have a type the known result conforms to.

use std::path::{Path, PathBuf};

use eval::{Context, ExprId, Type, Value};
use hir::Expr;
use la_arena::Arena;

/// Calls of every standard function with valid arguments, so that each
/// function's handling of unknowns is exercised even where the shared
/// cases call it only with errors.
const CALLS: &str = r#"
upper = upper("abc")
lower = lower("ABC")
title = title("a b")
trimspace = trimspace(" a ")
strrev = strrev("ab")
chomp = chomp("a\n")
strlen = strlen("abc")
substr = substr("hello", 1, 3)
trim = trim("xax", "x")
trimprefix = trimprefix("xa", "x")
trimsuffix = trimsuffix("ax", "x")
indent = indent(2, "a\nb")
join = join(",", ["a", "b"], ["c"])
split = split(",", "a,b")
replace = replace("abc", "b", "x")
regex_replace = regex_replace("abc", "[b]", "x")
length_list = length(["a", "b"])
length_map = length({ a = 1 })
length_string_list = length(tolist(["a"]))
concat_tuples = concat(["a"], [1, 2])
concat_lists = concat(tolist(["a"]), tolist(["b"]))
concat_mixed = concat(tolist(["a"]), [true])
max = max(1, 2, 3)
min = min(1, 2)
abs = abs(-1)
ceil = ceil(1.5)
floor = floor(1.5)
int = int(1.5)
signum = signum(-3)
pow = pow(2, 3)
log = log(8, 2)
parseint = parseint("ff", 16)
keys_obj = keys({ a = 1, b = "x" })
keys_map = keys(tomap({ a = 1 }))
values_obj = values({ a = 1, b = "x" })
values_map = values(tomap({ a = 1 }))
lookup_obj = lookup({ a = 1 }, "a", 2)
lookup_obj_default = lookup({ a = 1 }, "b", "x")
lookup_map = lookup(tomap({ a = "x" }), "b", "y")
element_tuple = element(["a", 1], 3)
element_list = element(tolist(["a", "b"]), 1)
merge_objs = merge({ a = 1 }, { b = "x" })
merge_maps = merge(tomap({ a = 1 }), tomap({ b = 2 }))
merge_mixed = merge(tomap({ a = 1 }), { b = "x" }, null)
coalesce = coalesce(null, "a", "b")
coalesce_mixed = coalesce(null, 1, "b")
coalescelist = coalescelist([], ["a"])
contains = contains(["a", "b"], "b")
distinct = distinct(tolist(["a", "a", "b"]))
compact = compact(["a", "", "b"])
reverse_tuple = reverse(["a", 1])
reverse_list = reverse(tolist(["a", "b"]))
range1 = range(3)
range2 = range(1, 4)
range3 = range(1, 10, 3)
sort = sort(["b", "a"])
zipmap_tuple = zipmap(["a", "b"], [1, "x"])
zipmap_list = zipmap(["a", "b"], tolist([1, 2]))
flatten = flatten([["a"], [["b"]], "c"])
chunklist = chunklist(["a", "b", "c"], 2)
slice_tuple = slice(["a", 1, true], 1, 3)
slice_list = slice(tolist(["a", "b", "c"]), 0, 2)
jsonencode = jsonencode({ a = [1, "x"] })
jsondecode = jsondecode("{\"a\": [1, \"x\"]}")
setunion = setunion(["a"], ["b"])
setintersection = setintersection(["a", "b"], ["b"])
setsubtract = setsubtract(["a", "b"], ["b"])
tostring = tostring(1)
tonumber = tonumber("1")
tobool = tobool("true")
tolist = tolist(["a", 1])
toset = toset(["a", "b"])
tomap = tomap({ a = 1, b = "x" })
regex = regex("(a)(b)", "xab")
regex_named = regex("(?P<x>a)", "xab")
regexall = regexall("a", "aba")
setproduct = setproduct(["a", "b"], [1, 2])
setproduct_sets = setproduct(toset(["a"]), toset(["b"]))
csvdecode = csvdecode("a,b\n1,2\n")
format = format("%s-%d-%v", "a", 1, true)
formatlist = formatlist("%s-%s", ["a", "b"], "c")
formatdate = formatdate("YYYY-MM-DD", "2020-01-02T03:04:05Z")
timeadd = timeadd("2020-01-02T03:04:05Z", "1h")
try = try(local.missing, "x")
can = can(upper("a"))
expand = concat(["a"], [["b"]]...)
cond = true ? ["a"] : ["b", "c"]
cond_null = false ? null : { a = 1 }
splat_list = [{ a = 1 }, { a = 2 }][*].a
splat_single = { a = 1 }[*].a
for_tuple = [for i, x in ["a", "b"] : "${i}${x}" if x != "c"]
for_object = { for k, v in { a = 1, b = 2 } : k => v * 2 }
for_group = { for x in ["a", "b", "a"] : x => x... }
template = "a${1 + 2}b%{if true}c%{else}d%{endif}%{for x in ["e"]}${x}%{endfor}"
index_tuple = ["a", "b"][1]
index_map = { a = { b = [1] } }["a"].b[0]
ops = !(1 < 2) || (3 >= 2 && 4 / 2 == 2) && -1 + 5 % 3 * 2 - 1 > 0
"#;

/// The case files to run, with their variables.
fn case_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [root.join("../../test-data/eval"), root.join("tests/reference-cases")] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "hcl"))
            .collect();
        files.sort();
        out.extend(files);
    }
    out
}

/// `value` with every leaf (and every set, whose elements identify
/// themselves) unknown of its type.
fn leaves_unknown(value: &Value) -> Value {
    let ty = value.ty();
    if value.is_null() || !value.is_known() || ty.is_set() {
        return Value::unknown(ty);
    }
    match &ty {
        Type::List(ety) => Value::list(
            (**ety).clone(),
            value.elements().unwrap_or_default().iter().map(leaves_unknown).collect(),
        )
        .unwrap_or_else(|_| Value::unknown(ty.clone())),
        Type::Tuple(_) => {
            Value::tuple(value.elements().unwrap_or_default().iter().map(leaves_unknown).collect())
        }
        Type::Map(ety) => Value::map(
            (**ety).clone(),
            value.entries().into_iter().flatten().map(|(k, v)| (k.clone(), leaves_unknown(v))).collect(),
        )
        .unwrap_or_else(|_| Value::unknown(ty.clone())),
        Type::Object(_) => Value::object(
            value.entries().into_iter().flatten().map(|(k, v)| (k.clone(), leaves_unknown(v))).collect(),
        ),
        _ => Value::unknown(ty),
    }
}

fn subexpressions(exprs: &Arena<Expr>, root: ExprId) -> Vec<ExprId> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    let mut kids = Vec::new();
    while let Some(e) = stack.pop() {
        out.push(e);
        kids.clear();
        exprs[e].children(&mut kids);
        stack.extend(kids.iter().copied());
    }
    out
}

/// Whether `known` could be a value of the unknown result `unknown` stands
/// for: its type conforms, or converts (for a dynamic part).
fn conforms(known: &Value, unknown: &Value) -> bool {
    let ty = unknown.ty();
    ty.is_dynamic() || known.ty() == ty || value::convert(known, &ty).is_ok()
}

const ANY: &str = "unknown of any type";

/// Attributes whose unknown result has a type the known one does not
/// conform to in go-cty too: `tolist` and `toset` of an unknown give a
/// collection of any element, which a unification with numbers then makes
/// numbers (`concat(tolist(t), tolist([1]))` is a list of numbers in the
/// reference, checked with its `hcleval`-like oracle, `unknown-oracle`).
const REFERENCE_TYPE_LOSSES: &[&str] = &["function_edges.bb", "function_library.o"];

struct Failure {
    place: String,
    stand_in: &'static str,
    message: String,
}

fn check_text(name: &str, text: &str, ctx: &Context, failures: &mut Vec<Failure>, checked: &mut usize) {
    let parse = syntax::parse(text);
    if !parse.errors().is_empty() {
        return;
    }
    let (hir, _) = hir::lower_file(&parse);
    for (path, root) in eval::conformance::attribute_paths(&hir) {
        let Ok(original) = eval::eval_expr(&hir.exprs, root, ctx) else { continue };
        for sub in subexpressions(&hir.exprs, root) {
            if matches!(hir.exprs[sub], Expr::SplatItem | Expr::Missing) {
                continue;
            }
            let own = eval::eval_expr(&hir.exprs, sub, ctx).ok();
            let mut stand_ins = vec![(ANY, Value::dynamic())];
            if let Some(own) = &own {
                stand_ins.push(("unknown of its type", Value::unknown(own.ty())));
                stand_ins.push(("unknown leaves", leaves_unknown(own)));
            }
            for (kind, stand_in) in stand_ins {
                let mut exprs = hir.exprs.clone();
                exprs[sub] = Expr::Variable("__unknown".into());
                let mut ctx = ctx.clone();
                ctx.variables.insert("__unknown".into(), stand_in);
                *checked += 1;
                let place = format!("{name}.{path} at {:?}", hir.exprs[sub]);
                match eval::eval_expr(&exprs, root, &ctx) {
                    Err(e) => failures.push(Failure { place, stand_in: kind, message: e.to_string() }),
                    // An unknown of any type may be of another type than
                    // the known value it replaced, and so may the result
                    // (`tolist([var.a, 1])` is a list of numbers).
                    Ok(v)
                        if kind != ANY
                            && !v.is_wholly_known()
                            && !conforms(&original, &v)
                            && !REFERENCE_TYPE_LOSSES.contains(&format!("{name}.{path}").as_str()) =>
                    {
                        failures.push(Failure {
                            place,
                            stand_in: kind,
                            message: format!("unknown result of type {} for {}", v.ty(), original.ty()),
                        })
                    }
                    Ok(_) => {}
                }
            }
        }
    }
}

#[test]
fn unknowns_never_make_a_valid_expression_fail() {
    let mut failures = Vec::new();
    let mut checked = 0;
    check_text("calls", CALLS, &Context::with_stdlib(), &mut failures, &mut checked);
    for path in case_files() {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let mut ctx = Context::with_stdlib();
        let vars = path.with_extension("vars.json");
        if let Ok(json) = std::fs::read_to_string(&vars)
            && let Ok(vars) = Value::from_json_implied(&json)
        {
            for (k, v) in vars.entries().into_iter().flatten() {
                ctx.variables.insert(k.clone(), v.clone());
            }
        }
        // The refined unknown inputs of the refinement cases: without them
        // `b || true` succeeds only because `true` decides, and an unknown
        // in its place rightly brings back the missing `b`.
        if let Ok(json) = std::fs::read_to_string(path.with_extension("unknowns.json")) {
            ctx.variables.extend(eval::conformance::read_unknowns(&json).expect("valid unknowns"));
        }
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        check_text(&name, &text, &ctx, &mut failures, &mut checked);
    }
    let report: Vec<String> =
        failures.iter().map(|f| format!("{} ({}): {}", f.place, f.stand_in, f.message)).collect();
    assert!(checked > 10_000, "only {checked} substitutions were checked");
    assert!(report.is_empty(), "{} of {checked} substitutions failed:\n{}", report.len(), report.join("\n"));
}

/// Every standard function called with unknown arguments of each kind:
/// all of any type, then each parameter's own type in turn, then an
/// unknown list, map, object, tuple, string and number for each parameter
/// that takes any type. A call either fails whatever the unknowns are
/// (an argument of a type the parameter never takes) or gives an unknown;
/// `tests/expected/unknown-calls.txt` holds the outcome of each, refreshed
/// with `UPDATE_EXPECT=1`.
#[test]
fn every_function_gives_a_typed_unknown_for_unknown_arguments() {
    let ctx = Context::with_stdlib();
    let any_kinds: Vec<(&str, Value)> = vec![
        ("list(string)", Value::unknown(Type::list(Type::String))),
        ("map(number)", Value::unknown(Type::map(Type::Number))),
        ("object({a=string})", Value::unknown(Type::object([("a".to_string(), Type::String)].into()))),
        ("tuple([string])", Value::unknown(Type::Tuple(vec![Type::String]))),
        ("string", Value::unknown(Type::String)),
        ("number", Value::unknown(Type::Number)),
    ];
    let mut out = String::new();
    for (name, function) in &ctx.functions {
        if matches!(name.as_str(), "try" | "can") {
            continue;
        }
        let mut params: Vec<eval::Param> = function.params.clone();
        // Variadic functions get two of their variadic arguments (`setproduct`
        // needs two).
        if let Some(var) = &function.var_param {
            params.push(var.clone());
            params.push(var.clone());
        }
        let mut calls: Vec<(String, Vec<Value>)> =
            vec![("any".into(), params.iter().map(|_| Value::dynamic()).collect())];
        for (i, param) in params.iter().enumerate() {
            if param.ty.is_dynamic() {
                for (kind, value) in &any_kinds {
                    let mut args: Vec<Value> = params.iter().map(|_| Value::dynamic()).collect();
                    args[i] = value.clone();
                    calls.push((format!("#{i} {kind}"), args));
                }
            } else {
                let mut args: Vec<Value> = params.iter().map(|_| Value::dynamic()).collect();
                args[i] = Value::unknown(param.ty.clone());
                calls.push((format!("#{i} {}", param.ty), args));
            }
        }
        for (label, args) in calls {
            let names: Vec<String> = (0..args.len()).map(|i| format!("a{i}")).collect();
            let text = format!("{name}({})", names.join(", "));
            let parse = syntax::parse_expression(&text);
            let (hir, root, _) = hir::lower_expression_file(&parse.tree());
            let mut ctx = ctx.clone();
            for (n, v) in names.iter().zip(args) {
                ctx.variables.insert(n.clone(), v);
            }
            let outcome = match eval::eval_expr(&hir.exprs, root, &ctx) {
                Ok(v) if v.is_known() => format!("known {v:?}"),
                Ok(v) => format!("unknown {}", v.ty()),
                Err(e) => format!("error {e}"),
            };
            out.push_str(&format!("{name} {label}: {outcome}\n"));
        }
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected/unknown-calls.txt");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a writable directory");
        std::fs::write(&path, &out).expect("a writable file");
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(expected == out, "{} differs; run with UPDATE_EXPECT=1 and review the diff", path.display());
}

/// The unknowns of `unknown-oracle/oracle.go.txt`, by name: one of any
/// type, unknowns of each kind of type, and known collections with unknown
/// elements.
fn oracle_variables() -> Vec<(&'static str, Value)> {
    let object = |attrs: &[(&str, Type)]| {
        Type::object(attrs.iter().map(|(k, t)| (k.to_string(), t.clone())).collect())
    };
    vec![
        ("d", Value::dynamic()),
        ("s", Value::unknown(Type::String)),
        ("n", Value::unknown(Type::Number)),
        ("b", Value::unknown(Type::Bool)),
        ("ls", Value::unknown(Type::list(Type::String))),
        ("ld", Value::unknown(Type::list(Type::Dynamic))),
        ("ms", Value::unknown(Type::map(Type::String))),
        ("md", Value::unknown(Type::map(Type::Dynamic))),
        ("ss", Value::unknown(Type::set(Type::String))),
        ("o", Value::unknown(object(&[("a", Type::String), ("l", Type::list(Type::String))]))),
        ("t", Value::unknown(Type::Tuple(vec![Type::String, Type::Number]))),
        ("lo", Value::unknown(Type::list(object(&[("id", Type::String)])))),
        (
            "kl",
            Value::list(Type::String, vec![Value::unknown(Type::String), Value::string("x")])
                .expect("a list of strings"),
        ),
        (
            "ko",
            Value::object(
                [("a".to_string(), Value::unknown(Type::String)), ("n".to_string(), Value::dynamic())].into(),
            ),
        ),
    ]
}

/// Expressions over unknowns (`unknown-oracle/cases.tsv`, made by
/// `gen.py` beside it), each with the outcome of the reference (HCL v2 and
/// go-cty's standard library, `oracle.go.txt` built against the Go sources
/// of `/usr/share/gocode`): where the reference evaluates one without error,
/// so must Halite. Where the reference fails and Halite does not, Halite is
/// only more lenient, which is never a false alarm; those are counted.
#[test]
fn no_error_where_the_reference_has_none_on_unknowns() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/unknown-oracle/cases.tsv");
    let text = std::fs::read_to_string(&path).expect("the oracle's cases");
    let mut ctx = Context::with_stdlib();
    for (name, value) in oracle_variables() {
        ctx.variables.insert(name.to_string(), value);
    }
    let (mut total, mut lenient) = (0, 0);
    let mut false_alarms = Vec::new();
    for line in text.lines() {
        let Some((expr, want)) = line.split_once('\t') else { continue };
        if want == "PARSE" {
            continue;
        }
        total += 1;
        let parse = syntax::parse_expression(expr);
        let (hir, root, _) = hir::lower_expression_file(&parse.tree());
        let ours = eval::eval_expr(&hir.exprs, root, &ctx);
        match (ours, want.starts_with("OK")) {
            (Err(e), true) => false_alarms.push(format!("{expr}: {e} (reference: {want})")),
            // A result more precise than the reference's may fail where the
            // reference's would not: the types must agree, or ours be any.
            (Ok(v), true) => {
                let ty = v.ty();
                let reference_ty = want.trim_start_matches("OK ").rsplit_once(' ').map_or("", |(ty, _)| ty);
                if !ty.has_dynamic_types() && ty.friendly_name() != reference_ty {
                    false_alarms.push(format!("{expr}: of type {} (reference: {want})", ty.friendly_name()));
                }
            }
            (Ok(_), false) => lenient += 1,
            _ => {}
        }
    }
    eprintln!("{total} expressions, {lenient} where only the reference fails");
    assert!(total > 30_000, "only {total} cases were read");
    assert!(false_alarms.is_empty(), "{} false alarms:\n{}", false_alarms.len(), false_alarms.join("\n"));
}

/// The calls this crate once failed or typed differently from the
/// reference with unknown arguments, each with the reference's outcome
/// (its oracle's, see `unknown-oracle`): `d` is an unknown of any type,
/// `s` of a string, `ls` of a list of strings, `t` of a tuple, `ms` of a
/// map of strings. The reference rejects `tolist`, `distinct` and `toset`
/// of `[d, { a = 1 }]` (its unification gives up on parts of no type)
/// though a value would convert once `d` has one; Halite gives an unknown,
/// never a false alarm. Indexes of an unknown tuple are checked against its
/// type's length, as the reference's.
#[test]
fn fixed_calls_give_the_references_unknowns() {
    let mut ctx = Context::with_stdlib();
    for (name, value) in oracle_variables() {
        ctx.variables.insert(name.to_string(), value);
    }
    let cases = [
        (r#"coalescelist(d, "x")"#, "unknown dynamic"),
        ("coalescelist(ls, 1)", "unknown dynamic"),
        ("flatten(s)", "unknown dynamic"),
        ("flatten(d)", "unknown dynamic"),
        (r#"concat(ls, "a")"#, "unknown dynamic"),
        (r#"concat(ls, tolist(["a"]))"#, "unknown list of string"),
        // go-cty v1.16.1 and later: an argument of no type reaches
        // `format`, whose result is a string whatever it is.
        (r#"format("%d", d)"#, "unknown string"),
        (r#"formatlist("%s", d)"#, "unknown list of string"),
        ("tolist(ls)", "unknown list of dynamic"),
        ("toset(t)", "unknown set of dynamic"),
        ("tomap(ms)", "unknown map of dynamic"),
        ("tolist([d, { a = 1 }])", "unknown list of dynamic"),
        ("distinct([d, { a = 1 }])", "unknown list of dynamic"),
        ("toset([d, { a = 1 }])", "unknown set of dynamic"),
        // A tuple's length is in its type.
        ("t[1]", "unknown number"),
        (
            "t[2]",
            "error Invalid index: The given key does not identify an element in this collection value: the given index is greater than or equal to the length of the collection.",
        ),
    ];
    let mut out = Vec::new();
    for (expr, want) in cases {
        let parse = syntax::parse_expression(expr);
        let (hir, root, _) = hir::lower_expression_file(&parse.tree());
        let got = match eval::eval_expr(&hir.exprs, root, &ctx) {
            Ok(v) if v.is_known() => format!("known {}", v.ty().friendly_name()),
            Ok(v) => format!("unknown {}", v.ty().friendly_name()),
            Err(e) => format!("error {e}"),
        };
        if got != want {
            out.push(format!("{expr}: {got}, want {want}"));
        }
    }
    assert!(out.is_empty(), "{}", out.join("\n"));
}
