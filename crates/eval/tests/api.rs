//! The evaluator's public face: a custom function, unknown values, and
//! inputs that must not panic or overflow the stack.

use std::sync::Arc;

use eval::{Context, Function, FunctionError, Param, Type, Value};

fn eval_src(src: &str, ctx: &Context) -> Vec<Result<Value, eval::EvalError>> {
    let parse = syntax::parse(src);
    let (hir, _) = hir::lower_file(&parse);
    hir.body.attributes.iter().map(|&a| eval::eval_expr(&hir.exprs, hir[a].value, ctx)).collect()
}

#[test]
fn a_custom_function_gives_a_typed_unknown_for_an_unknown_argument() {
    let mut ctx = Context::with_stdlib();
    ctx.functions.insert(
        "twice".into(),
        Function::new(
            vec![Param::new("s", Type::String)],
            None,
            Arc::new(|_| Ok(Type::list(Type::String))),
            Arc::new(|a, _| {
                let s = a[0].as_str().ok_or_else(|| FunctionError::new("not a string"))?;
                Value::list(Type::String, vec![Value::string(s), Value::string(s)])
                    .map_err(|e| FunctionError::new(e.to_string()))
            }),
        ),
    );
    ctx.variables.insert("u".into(), Value::unknown(Type::String));
    let got = eval_src("a = twice(\"x\")\nb = twice(u)\nc = twice(1)\nd = \"${u}!\"\n", &ctx);
    assert_eq!(got[0].as_ref().ok().and_then(Value::length), Some(2));
    assert_eq!(got[1], Ok(Value::unknown(Type::list(Type::String))));
    assert!(matches!(&got[2], Ok(v) if v.length() == Some(2)), "1 converts to \"1\"");
    // A template is never null (HCL v2.17 and later).
    assert_eq!(got[3], Ok(Value::unknown(Type::String).refine_not_null()));
}

#[test]
fn errors_name_their_subject_and_suggest_a_close_name() {
    let mut ctx = Context::with_stdlib();
    ctx.variables.insert("count".into(), Value::int(1));
    let got = eval_src("a = cuont + 1\n", &ctx);
    let err = got[0].as_ref().expect_err("unknown variable");
    assert_eq!(err.summary(), "Unknown variable");
    assert!(err.detail.contains("Did you mean \"count\"?"), "{}", err.detail);
}

#[test]
fn long_chains_and_deep_nesting_do_not_overflow() {
    let ctx = Context::with_stdlib();
    let chain = format!("a = {}1\n", "1 + ".repeat(4000));
    let nested = format!("b = {}1{}\n", "[".repeat(200), "]".repeat(200));
    let calls = format!("c = {}\"x\"{}\n", "upper(".repeat(200), ")".repeat(200));
    let src = format!("{chain}{nested}{calls}");
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || eval_src(&src, &ctx).len())
        .expect("thread");
    assert_eq!(handle.join().expect("no panic"), 3);
}

#[test]
fn odd_inputs_are_errors_not_panics() {
    let ctx = Context::with_stdlib();
    let src = r#"
a = indent(99999999999999, "a\nb")
b = range(1e300)
c = substr("abc", -100, 99999999999)
d = format("%99999999999d", 1)
e = [1, 2][1e300]
f = setproduct([1, 2], [3, 4], [5, 6])
g = timeadd("2017-11-22T00:00:00Z", "99999999999999h")
h = element([], 0)
i = chunklist([1, 2], 0)
j = parseint("zz", 99)
k = formatdate("''''", "2017-11-22T00:00:00Z")
l = 1 % 0
m = -(-0)
"#;
    let got = eval_src(src, &ctx);
    assert_eq!(got.len(), 13);
}

#[test]
fn evaluation_modes_say_what_is_not_allowed() {
    let got = eval_src("a = x\nb = upper(\"a\")\nc = [for v in [1] : v]\nd = 1 + 2\n", &Context::none());
    let summary = |i: usize| got[i].as_ref().err().map(|e| e.summary().to_string());
    assert_eq!(summary(0).as_deref(), Some("Variables not allowed"));
    assert_eq!(summary(1).as_deref(), Some("Function calls not allowed"));
    assert!(got[2].is_ok(), "a for expression's own variables are allowed");
    assert_eq!(got[3], Ok(Value::int(3)));
    let full = eval_src("a = x\nb = nosuch(1)\n", &Context::with_stdlib());
    assert_eq!(full[0].as_ref().err().map(|e| e.summary()), Some("Unknown variable"));
    assert_eq!(full[1].as_ref().err().map(|e| e.summary()), Some("Call to unknown function"));
}

/// Every attribute of every file of `../shared/corpus/input` (when present),
/// evaluated without a context and with the standard library: no panic, no
/// hang. Run with `cargo test -p eval --release -- --ignored corpus`.
#[test]
#[ignore = "needs ../shared/corpus; slow in debug builds"]
fn corpus_evaluates_without_panicking() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/input");
    let mut stack = vec![root];
    let (mut files, mut attrs, mut ok) = (0, 0, 0);
    let start = std::time::Instant::now();
    let mut bytes = 0;
    let ctx = Context::with_stdlib();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            let parse = syntax::parse(&text);
            if !parse.errors().is_empty() {
                continue;
            }
            files += 1;
            bytes += text.len();
            let (hir, _) = hir::lower_file(&parse);
            for (id, attr) in hir.attributes.iter() {
                let _ = id;
                attrs += 1;
                if eval::eval_expr(&hir.exprs, attr.value, &ctx).is_ok() {
                    ok += 1;
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{files} files, {attrs} attributes, {ok} evaluated without error, {:.1} MB/s",
        bytes as f64 / 1e6 / secs.max(1e-9)
    );
}

#[test]
fn try_and_can_wait_for_unknown_references() {
    let mut ctx = Context::with_stdlib();
    ctx.variables.insert("u".into(), Value::unknown(Type::String));
    ctx.variables.insert(
        "obj".into(),
        Value::object_from([("k", Value::string("v")), ("u", Value::unknown(Type::Number))]),
    );
    let got = eval_src(
        "a = try(u, \"x\")\nb = can(u)\nc = try(obj.k, 1)\nd = can(nosuch)\ne = try(obj.u, 1)\n",
        &ctx,
    );
    assert_eq!(got[0], Ok(Value::dynamic()));
    assert_eq!(got[1], Ok(Value::unknown(Type::Bool)));
    assert_eq!(got[2], Ok(Value::string("v")));
    assert_eq!(got[3], Ok(Value::bool(false)));
    assert_eq!(got[4], Ok(Value::dynamic()));
}

#[test]
fn unknown_values_flow_through_every_form() {
    let mut ctx = Context::with_stdlib();
    let objs = Type::list(Type::object_from([("n", Type::Number)]));
    ctx.variables.insert("n".into(), Value::unknown(Type::Number));
    ctx.variables.insert("b".into(), Value::unknown(Type::Bool));
    ctx.variables.insert("l".into(), Value::unknown(objs));
    ctx.variables.insert("d".into(), Value::dynamic());
    let src = "\
a = n + 1
b = b ? 1 : \"x\"
c = [for x in l : x]
d = l[*].n
e = l[0]
f = upper(d)
g = \"x${n}\"
h = max(l[*].n...)
i = n == 1
j = d.x
k = !b
";
    let got: Vec<Value> = eval_src(src, &ctx).into_iter().map(|r| r.expect("no error")).collect();
    // Operators, templates, the standard library's functions and splats
    // give results known not to be null (go-cty v1.13 and HCL v2.17 and
    // later); a `for` over an unknown, an index and an attribute of no type
    // say nothing.
    let want = [
        Value::unknown(Type::Number).refine_not_null(),
        Value::unknown(Type::String).refine_not_null(),
        Value::dynamic(),
        Value::unknown(Type::list(Type::Number)).refine_not_null(),
        Value::unknown(Type::object_from([("n", Type::Number)])),
        Value::unknown(Type::String).refine_not_null(),
        Value::unknown(Type::String).refine_not_null(),
        Value::dynamic(),
        Value::unknown(Type::Bool).refine_not_null(),
        Value::dynamic(),
        Value::unknown(Type::Bool).refine_not_null(),
    ];
    assert_eq!(got, want);
}

/// A bare template (the JSON syntax's strings) evaluates as the reference's
/// `ParseTemplate` result: one interpolation alone passes its value through,
/// and strip markers reach only the adjacent line, as in a heredoc.
#[test]
fn bare_templates_evaluate_as_the_reference_does() {
    let mut ctx = Context::with_stdlib();
    ctx.variables.insert("n".into(), Value::int(3));
    let eval_template = |text: &str| {
        let parse = syntax::parse_template(text);
        assert!(parse.ok(), "{text:?}: {:?}", parse.errors());
        let (hir, root, _) = hir::lower_template_file(&parse.tree());
        eval::eval_expr(&hir.exprs, root, &ctx)
    };
    assert_eq!(eval_template("${n}"), Ok(Value::int(3)));
    assert_eq!(eval_template("n is ${n + 1}, \"quoted\" \\n"), Ok(Value::string("n is 4, \"quoted\" \\n")));
    assert_eq!(eval_template("a\n  ${n ~}\n  b\n"), Ok(Value::string("a\n  3  b\n")));
    assert_eq!(eval_template("100%"), Ok(Value::string("100%")));
}

/// Each attribute's limit error, if it has one: which limit, and the kind
/// of expression it names.
fn limits_reached(src: &str, ctx: &Context) -> Vec<Option<(eval::Limit, &'static str)>> {
    let parse = syntax::parse(src);
    let (hir, _) = hir::lower_file(&parse);
    hir.body
        .attributes
        .iter()
        .map(|&a| match eval::eval_expr(&hir.exprs, hir[a].value, ctx) {
            Err(eval::EvalError { kind: eval::EvalErrorKind::LimitExceeded(e), expr, .. }) => {
                let form = match &hir.exprs[expr] {
                    hir::Expr::ForTuple(_) | hir::Expr::ForObject(_) => "for",
                    hir::Expr::Template { .. } => "template",
                    hir::Expr::Call(_) => "call",
                    hir::Expr::Literal(_) => "literal",
                    hir::Expr::Binary { .. } => "operator",
                    hir::Expr::Splat { .. } => "splat",
                    hir::Expr::Tuple(_) => "tuple",
                    _ => "other",
                };
                Some((e.limit, form))
            }
            _ => None,
        })
        .collect()
}

/// Values past the size limits are errors about the expression that
/// builds them, before it builds them: a `for` as it iterates, a template
/// as it joins its parts (a value doubling from one attribute to the next
/// goes past in the template), a function that would copy one argument
/// many times before it copies.
#[test]
fn values_past_the_size_limits_are_errors_about_their_expression() {
    let mut ctx = Context::with_stdlib();
    ctx.limits = eval::Limits { max_elements: 1_000, max_bytes: 10_000, ..eval::Limits::DEFAULT };
    ctx.variables.insert("s".into(), Value::string(&"x".repeat(3_000)));
    let src = r#"
a = [for i in range(30): [for j in range(30): [for k in range(30): k]]]
b = [for x in range(4): s]
c = "${s}${s}${s}${s}"
d = join(s, range(5))
e = format("%[1]s%[1]s%[1]s%[1]s", s)
f = replace("aaaa", "a", s)
g = split("", "${s}${s}")
h = concat(range(600), range(600))
i = [for x in range(10): s][*]
j = jsondecode("[${join(",", range(1000))}]")
k = "${s}${s}${s}"
l = [for x in range(3): s]
m = {for i in range(600): i => i}
n = range(1024)
"#;
    use eval::Limit::{Bytes, Elements};
    let want = vec![
        Some((Elements, "for")),
        Some((Bytes, "for")),
        Some((Bytes, "template")),
        Some((Bytes, "call")),
        Some((Bytes, "call")),
        Some((Bytes, "call")),
        Some((Elements, "call")),
        Some((Elements, "call")),
        Some((Bytes, "for")),
        Some((Elements, "call")),
        None,
        None,
        Some((Elements, "for")),
        Some((Elements, "call")),
    ];
    assert_eq!(limits_reached(src, &ctx), want);
}

/// A number too long to write out is an error, whether written
/// (`1e500000000` is 15 bytes of source and 500,000,001 digits), read
/// (`parseint` of many digits, refused before it reads them) or computed;
/// numbers of hundreds of digits are fine.
#[test]
fn numbers_past_the_digit_limit_are_errors() {
    let mut ctx = Context::with_stdlib();
    ctx.limits = eval::Limits { max_number_digits: 100, ..eval::Limits::DEFAULT };
    let src = format!(
        "a = 1e500000000\nb = {}\nc = 1e60 * 1e60\nd = parseint(\"{}\", 36)\ne = 1e99\nf = tonumber(\"1e200\")\ng = 1e-90 + 1\n",
        "7".repeat(101),
        "z".repeat(1_000),
    );
    use eval::Limit::NumberDigits;
    let want = vec![
        Some((NumberDigits, "literal")),
        Some((NumberDigits, "literal")),
        Some((NumberDigits, "operator")),
        Some((NumberDigits, "call")),
        None,
        Some((NumberDigits, "call")),
        None,
    ];
    assert_eq!(limits_reached(&src, &ctx), want);
    // The default bound reads a ten-thousand-digit literal, not more.
    let ctx = Context::with_stdlib();
    let src = format!("a = {}\nb = {}\n", "9".repeat(10_000), "9".repeat(10_001));
    assert_eq!(limits_reached(&src, &ctx), vec![None, Some((NumberDigits, "literal"))]);
}

/// Evaluation stops after its steps, even inside `try` and `can`, which
/// do not catch a limit: the reference would have the value, so the
/// fallback would be a wrong one.
#[test]
fn evaluation_stops_after_its_steps_and_try_does_not_hide_a_limit() {
    let mut ctx = Context::with_stdlib();
    ctx.limits = eval::Limits { max_steps: 10_000, max_elements: 5_000, ..eval::Limits::DEFAULT };
    let src = r#"
a = length([for i in range(1024): length([for j in range(1024): j])])
b = try([for i in range(1024): [for j in range(1024): j]], "fallback")
c = can(concat(range(1000), range(1000), range(1000), range(1000), range(1000), range(1000)))
d = length([for i in range(50): [for j in range(50): j]])
e = try(nosuch, "fallback")
f = "%{ for i in range(1024) }%{ for j in range(1024) }x%{ endfor }%{ endfor }"
"#;
    use eval::Limit::{Elements, Steps};
    let want = vec![
        Some((Steps, "for")),
        Some((Steps, "for")),
        Some((Elements, "call")),
        None,
        None,
        // Where the steps ran out: the inner `range(1024)`.
        Some((Steps, "call")),
    ];
    assert_eq!(limits_reached(src, &ctx), want);
    let got =
        eval_src("d = length([for i in range(50): [for j in range(50): j]])\ne = try(nosuch, \"x\")\n", &ctx);
    assert_eq!(got, vec![Ok(Value::int(50)), Ok(Value::string("x"))]);
}

/// `distinct`, `setintersection` and `setsubtract` find equal elements by
/// hashing, as cty's equality has them: the first of equal elements is
/// kept, `-0` equals `0`, nulls equal nulls.
#[test]
fn duplicates_are_found_as_cty_equality_has_them() {
    let ctx = Context::with_stdlib();
    let src = r#"
a = distinct([3, 1, 3, -0, 0, 1, 2])
b = distinct([null, "a", null, "b", "a"])
c = distinct([{ x = 1 }, { x = 1 }, { x = 2 }])
d = setintersection([1, 2, 3, 4], [4, 2, 9])
e = setsubtract([1, 2, 3, 4], [4, 2, 9])
"#;
    let got = eval_src(src, &ctx);
    let list = |items: Vec<Value>| Value::list_of(items).expect("a list");
    let set = |items: Vec<Value>| Value::set_of(items).expect("a set");
    let s = |x: &str| Value::string(x);
    let object = |x: i64| Value::object_from([("x", Value::int(x))]);
    assert_eq!(
        got[0],
        Ok(list(vec![Value::int(3), Value::int(1), Value::number(value::Number::neg_zero()), Value::int(2)]))
    );
    assert_eq!(got[1], Ok(list(vec![Value::null(Type::String), s("a"), s("b")])));
    assert_eq!(got[2], Ok(list(vec![object(1), object(2)])));
    assert_eq!(got[3], Ok(set(vec![Value::int(2), Value::int(4)])));
    assert_eq!(got[4], Ok(set(vec![Value::int(1), Value::int(3)])));
}

/// The same for the two hundred thousand elements the limits allow, in
/// seconds: comparing each element with every other took hours. A stress
/// test: `cargo test -p eval --release --test suite api::duplicates_are_found_in_linear_time -- --ignored`.
#[test]
#[ignore = "a stress test, slow in debug builds"]
fn duplicates_are_found_in_linear_time() {
    let ctx = Context::with_stdlib();
    let n = "flatten([for i in range(200) : [for j in range(1000) : i * 1000 + j]])";
    let src = format!(
        "a = length(distinct(concat({n}, {n})))\nb = length(setintersection({n}, [for x in {n} : x + 100000]))\nc = length(setsubtract({n}, [for x in {n} : x + 100000]))\n"
    );
    let started = std::time::Instant::now();
    let got = eval_src(&src, &ctx);
    assert_eq!(got, [Ok(Value::int(200_000)), Ok(Value::int(100_000)), Ok(Value::int(100_000))]);
    assert!(started.elapsed().as_secs() < 30, "took {:?}", started.elapsed());
}
