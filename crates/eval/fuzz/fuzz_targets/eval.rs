//! Arbitrary bytes through the path `halite eval` takes: decoding, parsing,
//! lowering to HIR, then evaluating every attribute of the file with the
//! standard library and a small fixed set of variables. Evaluation must
//! never panic, loop or overflow the stack, whatever the input; errors are
//! values. Files with syntax errors are evaluated too: their HIR is
//! well-formed, only partial. Evaluation runs under the default resource
//! limits but a tenth of the steps (the sanitizer slows evaluation about
//! tenfold, and the default step budget is sized to seconds without it), so
//! that any input ends within libFuzzer's time and memory limits, as
//! `halite` must on any file.

#![no_main]

use std::sync::LazyLock;

use eval::{Context, Limits, Type, Value};
use libfuzzer_sys::fuzz_target;

/// The stdlib and variables of each kind, including null and unknown
/// values, so that references, traversals, splats and calls reach past the
/// "unknown variable" error.
static CONTEXT: LazyLock<Context> = LazyLock::new(|| {
    let mut ctx = Context::with_stdlib();
    ctx.limits = Limits { max_steps: Limits::DEFAULT.max_steps / 10, ..Limits::DEFAULT };
    let json = r#"{
        "s": "héllo",
        "n": 42,
        "f": 1.5,
        "b": true,
        "l": ["a", "b", "c"],
        "t": [1, "two", false],
        "o": {"k": "v", "n": 1, "nested": {"deep": [1, 2]}},
        "objs": [{"id": 1, "name": "x"}, {"id": 2, "name": "y"}],
        "empty": []
    }"#;
    let vars = Value::from_json_implied(json).expect("the fixed variables are valid JSON");
    for (name, value) in vars.entries().into_iter().flatten() {
        ctx.variables.insert(name.clone(), value.clone());
    }
    ctx.variables.insert("nul".to_owned(), Value::null(Type::Dynamic));
    ctx.variables.insert("u".to_owned(), Value::unknown(Type::Dynamic));
    ctx.variables.insert("us".to_owned(), Value::unknown(Type::String));
    ctx
});

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = syntax::decode_source(bytes) else { return };
    let parse = syntax::parse(text);
    let (hir, _map) = hir::lower_file(&parse);
    for (_, attr) in hir.attributes.iter() {
        let _ = eval::eval_expr(&hir.exprs, attr.value, &CONTEXT);
    }
});
