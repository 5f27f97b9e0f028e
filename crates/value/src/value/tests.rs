use super::*;
use crate::ty::Type;

fn table(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).map(|l| l.split('\t').collect())
}

fn ty(s: &str) -> Type {
    Type::from_json_str(s).unwrap_or_else(|e| panic!("type {s}: {e}"))
}

fn val(t: &Type, s: &str) -> Value {
    Value::from_json_str(s, t).unwrap_or_else(|e| panic!("value {s} as {t}: {e}"))
}

#[test]
fn set_order_matches_go_cty() {
    let mut checked = 0;
    for row in table(include_str!("../../test-data/set-order.tsv")) {
        let [ety, elems, want] = row[..] else {
            panic!("bad row {row:?}");
        };
        let ety = ty(ety);
        let list = val(&Type::list(ety.clone()), elems);
        let set = Value::set(ety.clone(), list.elements().unwrap().to_vec()).unwrap();
        assert_eq!(set.to_json_string(&Type::set(ety)).unwrap(), want, "{elems}");
        checked += 1;
    }
    assert_eq!(checked, 11);
}

#[test]
fn equals_matches_go_cty() {
    for row in table(include_str!("../../test-data/equals.tsv")) {
        let [ta, a, tb, b, want] = row[..] else {
            panic!("bad row {row:?}");
        };
        let (a, b) = (val(&ty(ta), a), val(&ty(tb), b));
        let got = match a.equals(&b) {
            Some(b) => b.to_string(),
            None => "unknown".to_string(),
        };
        assert_eq!(got, want, "{a:?} == {b:?}");
    }
}

#[test]
fn equals_with_unknowns() {
    let s = Value::string("a");
    let cases = [
        (Value::unknown(Type::String), s.clone(), None),
        (s.clone(), Value::unknown(Type::String), None),
        (s.clone(), Value::unknown(Type::Number), Some(false)),
        (s.clone(), Value::dynamic(), None),
        (Value::null(Type::String), Value::unknown(Type::Number), None),
        (Value::dynamic(), Value::dynamic(), None),
        (
            Value::tuple(vec![Value::int(1), Value::unknown(Type::Number)]),
            Value::tuple(vec![Value::int(2), Value::int(3)]),
            Some(false),
        ),
        (
            Value::tuple(vec![Value::unknown(Type::Number), Value::int(1)]),
            Value::tuple(vec![Value::int(2), Value::int(3)]),
            None,
        ),
        (
            Value::set(Type::Number, vec![Value::unknown(Type::Number)]).unwrap(),
            Value::set(Type::Number, vec![Value::int(1)]).unwrap(),
            None,
        ),
        (Value::tuple(vec![Value::dynamic()]), Value::tuple(vec![Value::int(1)]), None),
        (Value::tuple(vec![Value::dynamic()]), Value::tuple(vec![Value::int(1), Value::int(2)]), Some(false)),
    ];
    for (a, b, want) in cases {
        assert_eq!(a.equals(&b), want, "{a:?} == {b:?}");
    }
}

#[test]
fn set_with_unknowns_and_nulls() {
    let set = Value::set(
        Type::String,
        vec![
            Value::null(Type::String),
            Value::unknown(Type::String),
            Value::string("b"),
            Value::unknown(Type::String),
            Value::null(Type::String),
            Value::string("a"),
        ],
    )
    .unwrap();
    // Known first, then unknowns (which never merge), then one null.
    let want = [
        Value::string("a"),
        Value::string("b"),
        Value::unknown(Type::String),
        Value::unknown(Type::String),
        Value::null(Type::String),
    ];
    assert_eq!(set.elements().unwrap(), &want[..]);
    let numbers = Value::set(
        Type::Number,
        ["+Inf", "1", "0", "1.0", "-Inf", "-0"]
            .iter()
            .map(|s| Value::number(crate::Number::parse(s).unwrap()))
            .collect(),
    )
    .unwrap();
    // -0 and 0 are equal but hash apart, so go-cty keeps both, -0 first
    // (its bucket's CRC is lower) whatever the insertion order.
    assert_eq!(format!("{numbers:?}"), "set<\"number\">[-Inf, -0, 0, 1, +Inf]");
}

#[test]
fn strings_are_nfc() {
    assert_eq!(Value::string("e\u{301}"), Value::string("é"));
    assert_eq!(Value::string("e\u{301}").as_str(), Some("é"));
    let m = Value::object_from([("e\u{301}", Value::int(1))]);
    assert!(m.entries().unwrap().contains_key("é"));
}

#[test]
fn constructors_check_element_types() {
    assert!(Value::list(Type::String, vec![Value::int(1)]).is_err());
    assert!(Value::list_of(vec![Value::int(1), Value::string("a")]).is_err());
    assert!(Value::list_of(vec![]).is_err());
    assert!(Value::set(Type::Number, vec![Value::dynamic()]).is_err());
    assert!(Value::list(Type::Dynamic, vec![Value::dynamic()]).is_ok());
    assert_eq!(Value::list(Type::Number, vec![]).unwrap().ty(), Type::list(Type::Number));
    let o = Value::object_from([("a", Value::null(Type::String)), ("b", Value::tuple(vec![]))]);
    assert_eq!(o.ty().to_json_string(), r#"["object",{"a":"string","b":["tuple",[]]}]"#);
}

#[test]
fn json_round_trips() {
    // (type, JSON): marshalling what unmarshalling gives returns the text.
    let cases = [
        (r#""number""#, "1.5"),
        (r#""number""#, r#""+Inf""#),
        (r#""number""#, "-0"),
        (r#""string""#, r#""a\u003cb\n""#),
        (r#""bool""#, "false"),
        (r#"["list","number"]"#, "[1,2,3]"),
        (r#"["set","string"]"#, r#"["a","b"]"#),
        (r#"["map","bool"]"#, r#"{"x":true,"y":null}"#),
        (r#"["tuple",["string","number"]]"#, r#"["a",1]"#),
        (r#"["object",{"a":"string","b":["list","dynamic"]}]"#, r#"{"a":null,"b":[]}"#),
        (r#""dynamic""#, r#"{"value":[1,"x"],"type":["tuple",["number","string"]]}"#),
        (r#""dynamic""#, "null"),
        (r#"["list","dynamic"]"#, r#"[{"value":"x","type":"string"}]"#),
    ];
    for (t, text) in cases {
        let t = ty(t);
        let v = val(&t, text);
        assert_eq!(v.to_json_string(&t).unwrap(), text, "{t}");
    }
}

#[test]
fn json_decoding_rules() {
    let cases: &[(&str, &str, Result<&str, ()>)] = &[
        // go-cty reads numbers from strings and strings from numbers/bools.
        (r#""number""#, r#""12.5""#, Ok("12.5")),
        (r#""number""#, r#""x""#, Err(())),
        (r#""string""#, "12.50", Ok(r#""12.50""#)),
        (r#""string""#, "true", Ok(r#""true""#)),
        (r#""bool""#, r#""1""#, Ok("true")),
        (r#""bool""#, "1", Err(())),
        // Missing attributes are nulls; unknown ones are errors.
        (r#"["object",{"a":"string","b":"number"}]"#, r#"{"a":"x"}"#, Ok(r#"{"a":"x","b":null}"#)),
        (r#"["object",{"a":"string"}]"#, r#"{"c":1}"#, Err(())),
        (r#"["tuple",["string"]]"#, r#"["a","b"]"#, Err(())),
        (r#"["tuple",["string"]]"#, "[]", Err(())),
        (r#""dynamic""#, r#"{"value":1}"#, Err(())),
        (r#""dynamic""#, r#"{"type":"number","value":"2"}"#, Ok(r#"{"value":2,"type":"number"}"#)),
        (r#"["list","string"]"#, r#"{"a":1}"#, Err(())),
        (r#"["list","dynamic"]"#, r#"[{"value":1,"type":"number"},{"value":"a","type":"string"}]"#, Err(())),
    ];
    for (t, text, want) in cases {
        let t = ty(t);
        let got = Value::from_json_str(text, &t).map(|v| v.to_json_string(&t).unwrap());
        match (got, want) {
            (Ok(g), Ok(w)) => assert_eq!(&g, w, "{text}"),
            (Err(_), Err(())) => {}
            (g, w) => panic!("{text} as {t}: got {g:?}, want {w:?}"),
        }
    }
}

#[test]
fn marshal_errors() {
    assert!(Value::unknown(Type::String).to_json_string(&Type::String).is_err());
    assert!(Value::int(1).to_json_string(&Type::String).is_err());
    assert!(Value::tuple(vec![Value::dynamic()]).to_json_string(&Type::Dynamic).is_err());
}

#[test]
fn implied_types() {
    let v = Value::from_json_implied(r#"{"a":[1,"x",null],"b":{"c":true}}"#).unwrap();
    assert_eq!(
        v.ty().to_json_string(),
        r#"["object",{"a":["tuple",["number","string","dynamic"]],"b":["object",{"c":"bool"}]}]"#
    );
}

#[test]
fn equals_with_dynamic_nulls() {
    // Nulls of the dynamic type count as known (HasWhollyKnownType), so they
    // compare like any value.
    let cases = [
        (vec![Value::null(Type::Dynamic)], vec![Value::null(Type::Dynamic)], Some(true)),
        (vec![Value::null(Type::Dynamic)], vec![Value::null(Type::String)], Some(false)),
        (vec![Value::unknown(Type::list(Type::Dynamic))], vec![Value::int(1)], Some(false)),
    ];
    for (a, b, want) in cases {
        let (a, b) = (Value::tuple(a), Value::tuple(b));
        assert_eq!(a.equals(&b), want, "{a:?} == {b:?}");
    }
}

#[test]
fn large_sets_build_quickly() {
    let elems: Vec<Value> = (0..20_000).map(|i| Value::int(i % 5_000)).collect();
    let set = Value::set(Type::Number, elems).unwrap();
    assert_eq!(set.length(), Some(5_000));
    assert_eq!(set.elements().unwrap()[4_999], Value::int(4_999));
}

/// Strings are NFC with Unicode 15.0's tables and split into grapheme
/// clusters with Unicode 15.0's rules, as go-cty v1.16 does (HCL v2.24):
/// characters of Unicode 14 and 15 compose and cluster as there, a
/// Devanagari conjunct is two clusters (Unicode 15.1 made it one), and
/// Unicode 16's new compositions are not made.
#[test]
fn strings_follow_unicode_15() {
    use unicode_segmentation::UnicodeSegmentation;
    let chars = |hex: &str| -> String {
        hex.split(' ').filter_map(|h| u32::from_str_radix(h, 16).ok()).filter_map(char::from_u32).collect()
    };
    for line in include_str!("../../test-data/unicode15.tsv").lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (input, nfc, clusters) = (chars(fields[0]), chars(fields[1]), fields[2]);
        let value = Value::string(&input);
        let got = value.as_str().unwrap_or_default();
        assert_eq!(got, nfc, "NFC of {}", fields[0]);
        assert_eq!(got.graphemes(true).count().to_string(), clusters, "clusters of {}", fields[0]);
    }
}

/// A value's size counts what writing it out costs: a part shared three
/// times counts three times, keys and numbers' digits count as text, and
/// asking costs nothing however much is shared.
#[test]
fn sizes_count_shared_parts_wherever_they_appear() {
    let s = Value::string("0123456789");
    let tuple = Value::tuple(vec![s.clone(), s.clone(), s]);
    assert_eq!(tuple.size(), Size { elements: 4, bytes: 30 });
    let object = Value::object_from([("ab", tuple.clone()), ("c", Value::int(-12))]);
    assert_eq!(object.size(), Size { elements: 6, bytes: 30 + 2 + 3 + 1 });
    let list = Value::list(Type::Number, vec![Value::int(1), Value::int(22)]).unwrap();
    assert_eq!(list.size(), Size { elements: 3, bytes: 3 });
    // Doubling a tuple 70 times: 2^70 elements saturate, at once.
    let mut doubled = Value::bool(true);
    for _ in 0..70 {
        doubled = Value::tuple(vec![doubled.clone(), doubled]);
    }
    assert_eq!(doubled.size().elements, u64::MAX);
    assert_eq!(Value::null(Type::String).size(), Size { elements: 1, bytes: 0 });
}
