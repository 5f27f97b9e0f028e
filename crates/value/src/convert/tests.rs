use super::*;

fn table(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).map(|l| l.split('\t').collect())
}

fn ty(s: &str) -> Type {
    Type::from_json_str(s).unwrap_or_else(|e| panic!("type {s}: {e}"))
}

fn show(v: &Value) -> String {
    let t = v.ty();
    format!("{}\t{}", t.to_json_string(), v.to_json_string(&t).unwrap())
}

#[test]
fn conversions_match_go_cty() {
    let mut checked = 0;
    for row in table(include_str!("../../test-data/convert.tsv")) {
        let (mode, in_ty, in_val, out_ty) = (row[0], ty(row[1]), row[2], ty(row[3]));
        let want = row[4..].join("\t");
        let v = Value::from_json_str(in_val, &in_ty).unwrap();
        let got = match get_conversion(&in_ty, &out_ty, mode == "unsafe") {
            None => "none".to_string(),
            Some(c) => match c.apply(&v) {
                Ok(r) => show(&r),
                Err(_) => "error".to_string(),
            },
        };
        assert_eq!(got, want, "{mode} {in_val} as {in_ty} to {out_ty}");
        checked += 1;
    }
    assert_eq!(checked, 124);
}

#[test]
fn unification_matches_go_cty() {
    let mut checked = 0;
    for row in table(include_str!("../../test-data/unify.tsv")) {
        let [types, safe, unsafe_] = row[..] else {
            panic!("bad row {row:?}");
        };
        let crate::json::Json::Array(items) = crate::json::parse(types).unwrap() else {
            panic!("bad types {types}");
        };
        let types: Vec<Type> = items.iter().map(|t| Type::from_json(t).unwrap()).collect();
        let text = |t: Option<Type>| t.map_or("none".to_string(), |t| t.to_json_string());
        assert_eq!(text(unify(&types)), safe, "Unify {types:?}");
        assert_eq!(text(unify_unsafe(&types)), unsafe_, "UnifyUnsafe {types:?}");
        checked += 1;
    }
    assert_eq!(checked, 32);
}

#[test]
fn unknown_and_null_conversions() {
    let cases = [
        // An unknown takes the target type, dynamic parts from the input.
        (Value::unknown(Type::Number), Type::String, Ok(Value::unknown(Type::String))),
        (Value::dynamic(), Type::String, Ok(Value::unknown(Type::String))),
        (
            Value::unknown(Type::list(Type::Number)),
            Type::set(Type::Dynamic),
            Ok(Value::unknown(Type::set(Type::Number))),
        ),
        (Value::null(Type::Dynamic), Type::list(Type::String), Ok(Value::null(Type::list(Type::String)))),
        (
            Value::unknown(Type::tuple(vec![Type::Number, Type::String])),
            Type::list(Type::Dynamic),
            // go-cty v1.13 and later: a list from a tuple has the tuple's
            // length.
            Ok(Value::unknown(Type::list(Type::String)).refine().length(2).build()),
        ),
        (
            Value::unknown(Type::tuple(vec![Type::Number, Type::String])).refine_not_null(),
            Type::list(Type::Dynamic),
            // Known not null too: a known list of two unknown elements.
            Ok(Value::list(Type::String, vec![Value::unknown(Type::String), Value::unknown(Type::String)])
                .unwrap()),
        ),
        (
            Value::unknown(Type::Number).refine().not_null().number_lower(Number::from_i64(1), true).build(),
            Type::String,
            Ok(Value::unknown(Type::String).refine_not_null()),
        ),
        // A set with unknowns has an unknown length, and so does its list.
        (
            Value::set(Type::String, vec![Value::string("a"), Value::unknown(Type::String)]).unwrap(),
            Type::list(Type::String),
            Ok(Value::unknown(Type::list(Type::String))),
        ),
        (
            Value::tuple(vec![Value::string("a"), Value::unknown(Type::Number)]),
            Type::list(Type::String),
            Ok(Value::list(Type::String, vec![Value::string("a"), Value::unknown(Type::String)]).unwrap()),
        ),
        (Value::int(1), Type::Bool, Err(())),
        (Value::string("x"), Type::Number, Err(())),
    ];
    for (v, want_ty, want) in cases {
        let got = convert(&v, &want_ty).map_err(|_| ());
        assert_eq!(got, want, "{v:?} to {want_ty}");
    }
}

#[test]
fn convert_is_identity_on_equal_types() {
    let v = Value::map(Type::String, [("a".to_string(), Value::string("x"))].into()).unwrap();
    assert_eq!(convert(&v, &Type::map(Type::String)), Ok(v.clone()));
    // get_conversion has no map(string) → map(string) conversion, as in
    // go-cty: string → string is not a conversion.
    assert!(get_conversion(&Type::map(Type::String), &Type::map(Type::String), true).is_none());
}

#[test]
fn mismatch_messages() {
    for row in table(include_str!("../../test-data/mismatch.tsv")) {
        let (have, want) = (ty(row[0]), ty(row[1]));
        assert_eq!(mismatch_message(&have, &want), row[2], "{} to {}", row[0], row[1]);
    }
    let err = convert(&Value::int(1), &Type::list(Type::String)).unwrap_err();
    assert_eq!(err.to_string(), "list of string required, but have number");
}
