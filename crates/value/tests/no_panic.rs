//! Arbitrary input never makes the crate panic: numbers, JSON texts, types
//! and values read from JSON, and conversions between what they give.

use proptest::prelude::*;
use value::{Number, Type, Value, convert, unify_unsafe};

fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[-+]?[0-9]{0,30}(\\.[0-9]{0,30})?([eEpP][-+]?[0-9]{1,12})?",
        Just("+Inf".to_string()),
        Just("-Inf".to_string()),
        Just("-0".to_string()),
        any::<String>(),
    ]
}

fn type_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("\"string\"".to_string()),
        Just("\"number\"".to_string()),
        Just("\"bool\"".to_string()),
        Just("\"dynamic\"".to_string()),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| format!("[\"list\",{t}]")),
            inner.clone().prop_map(|t| format!("[\"set\",{t}]")),
            inner.clone().prop_map(|t| format!("[\"map\",{t}]")),
            prop::collection::vec(inner.clone(), 0..3)
                .prop_map(|ts| format!("[\"tuple\",[{}]]", ts.join(","))),
            prop::collection::vec(("[a-c]", inner), 0..3).prop_map(|attrs| {
                let body: Vec<String> = attrs.iter().map(|(k, t)| format!("\"{k}\":{t}")).collect();
                format!("[\"object\",{{{}}}]", body.join(","))
            }),
        ]
    })
}

fn json_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_string()),
        Just("true".to_string()),
        Just("\"1\"".to_string()),
        Just("\"x\"".to_string()),
        Just("\"+Inf\"".to_string()),
        "-?[0-9]{1,5}(\\.[0-9]{1,5})?".prop_map(|s| s),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(","))),
            prop::collection::vec(("[a-c]", inner), 0..4).prop_map(|m| {
                let body: Vec<String> = m.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
                format!("{{{}}}", body.join(","))
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn number_operations(a in number_text(), b in number_text()) {
        if let (Some(x), Some(y)) = (Number::parse(&a), Number::parse(&b)) {
            let _ = x.add(&y);
            let _ = x.sub(&y);
            let _ = x.mul(&y);
            let _ = x.div(&y);
            let _ = x.rem(&y);
            let _ = x.cmp(&y);
            let _ = x.to_hash_string();
            let _ = x.to_f64();
            let _ = x.to_i64();
            let text = x.to_plain_string();
            if text.len() < 10_000 {
                prop_assert_eq!(Number::parse(&text), Some(x));
            }
        }
    }

    #[test]
    fn types_round_trip(t in type_text()) {
        let ty = Type::from_json_str(&t).unwrap();
        prop_assert_eq!(Type::from_json_str(&ty.to_json_string()), Ok(ty));
    }

    #[test]
    fn values_from_json_and_conversions(t in type_text(), j in json_text(), u in type_text()) {
        let _ = Type::from_json_str(&j);
        let _ = Value::from_json_str(&t, &Type::Dynamic);
        let ty = Type::from_json_str(&t).unwrap();
        let target = Type::from_json_str(&u).unwrap();
        let _ = unify_unsafe(&[ty.clone(), target.clone()]);
        if let Ok(v) = Value::from_json_str(&j, &ty) {
            let text = v.to_json_string(&ty);
            if let Ok(text) = text {
                let again = Value::from_json_str(&text, &ty);
                prop_assert!(again.is_ok(), "{} as {}", text, ty);
            }
            if let Ok(c) = convert(&v, &target) {
                let _ = c.to_json_string(&c.ty());
                let _ = c.equals(&v);
            }
        }
        if let Ok(v) = Value::from_json_implied(&j) {
            let _ = convert(&v, &target);
            let _ = v.equals(&v);
        }
    }
}
