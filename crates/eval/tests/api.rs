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
