//! Unit tests of the parts of typeexpr that work on types and values alone:
//! `Defaults::apply` (the kinds of case of the reference's
//! `defaults_test.go`) and `type_string`.

use std::fmt::Write as _;

use expect_test::expect_file;
use value::{Type, Value};

use super::{Defaults, TypeConstraint, convert_with_defaults, type_string};

/// A type from its cty JSON encoding; a bare primitive name needs no quotes.
fn ty(json: &str) -> Type {
    let quoted;
    let json = if json.starts_with('[') {
        json
    } else {
        quoted = format!("{json:?}");
        &quoted
    };
    Type::from_json_str(json).unwrap_or_else(|error| panic!("bad type {json}: {error}"))
}

fn val(ty_json: &str, json: &str) -> Value {
    Value::from_json_str(json, &ty(ty_json)).unwrap_or_else(|error| panic!("bad value {json}: {error}"))
}

fn leaf(ty_json: &str, defaults: &[(&str, Value)]) -> Defaults {
    Defaults {
        ty: ty(ty_json),
        defaults: defaults.iter().map(|(name, value)| (name.to_string(), value.clone())).collect(),
        children: Vec::new(),
    }
}

fn node(ty_json: &str, children: Vec<(Option<&str>, Defaults)>) -> Defaults {
    Defaults {
        ty: ty(ty_json),
        defaults: Vec::new(),
        children: children.into_iter().map(|(key, defaults)| (key.map(str::to_string), defaults)).collect(),
    }
}

const SIMPLE: &str = r#"["object",{"a":"string","b":"bool"},["b"]]"#;
const NESTED: &str = r#"["object",{"c":["object",{"a":"string","b":"bool"},["b"]],"d":"number"},["c"]]"#;

fn simple_defaults() -> Defaults {
    leaf(SIMPLE, &[("b", Value::bool(true))])
}

#[test]
fn apply_cases() {
    let mut cases: Vec<(&str, Defaults, Value)> = vec![
        (
            "no defaults: a map stays a map",
            leaf(r#"["map","string"]"#, &[]),
            val(r#"["map","string"]"#, r#"{"a":"foo","b":"bar"}"#),
        ),
        (
            "missing attribute of a map: an object with the default",
            simple_defaults(),
            val(r#"["map","string"]"#, r#"{"a":"foo"}"#),
        ),
        ("unknown value untouched", simple_defaults(), Value::unknown(ty(r#"["map","string"]"#))),
        (
            "attribute given is kept",
            simple_defaults(),
            val(r#"["object",{"a":"string","b":"bool"}]"#, r#"{"a":"foo","b":false}"#),
        ),
        (
            "explicit null replaced",
            simple_defaults(),
            val(r#"["object",{"a":"string","b":"bool"}]"#, r#"{"a":"foo","b":null}"#),
        ),
        (
            "null object left null (HCL v2.24; v2.14 filled it)",
            simple_defaults(),
            Value::null(ty(r#"["object",{"a":"string"}]"#)),
        ),
        ("not an object: left for conversion", simple_defaults(), val("string", r#""x""#)),
    ];

    let nested = || {
        let mut defaults = leaf(NESTED, &[("c", val(r#"["object",{"a":"string"}]"#, r#"{"a":"deflt"}"#))]);
        defaults.children.push((Some("c".into()), simple_defaults()));
        defaults
    };
    cases.push((
        "nested: the default object receives its own defaults",
        nested(),
        val(r#"["object",{"d":"number"}]"#, r#"{"d":7}"#),
    ));
    cases.push((
        "nested: a given sub-object receives defaults",
        nested(),
        val(r#"["object",{"c":["object",{"a":"string"}],"d":"number"}]"#, r#"{"c":{"a":"x"},"d":7}"#),
    ));
    // `c = optional(object({a = string, b = optional(bool, true)}), null)`,
    // absent: null, not an object of `b` alone (which would lack `a`).
    let null_default = || {
        let mut defaults = leaf(NESTED, &[("c", Value::null(ty(r#"["object",{"a":"string"}]"#)))]);
        defaults.children.push((Some("c".into()), simple_defaults()));
        defaults
    };
    cases.push((
        "nested: a null default stays null, its own defaults not applied",
        null_default(),
        val(r#"["object",{"d":"number"}]"#, r#"{"d":7}"#),
    ));

    let elements_of =
        |collection: &str| node(&format!(r#"["{collection}",{SIMPLE}]"#), vec![(None, simple_defaults())]);
    cases.push((
        "map of objects",
        elements_of("map"),
        val(r#"["map",["object",{"a":"string"}]]"#, r#"{"x":{"a":"1"},"y":{"a":"2"}}"#),
    ));
    cases.push((
        "map of objects, given an object",
        elements_of("map"),
        val(
            r#"["object",{"x":["object",{"a":"string"}],"y":["object",{"a":"string","b":"bool"}]}]"#,
            r#"{"x":{"a":"1"},"y":{"a":"2","b":false}}"#,
        ),
    ));
    cases.push((
        "list of objects",
        elements_of("list"),
        val(r#"["list",["object",{"a":"string"}]]"#, r#"[{"a":"1"},{"a":"2"}]"#),
    ));
    cases.push((
        "list whose elements end up of different types becomes a tuple",
        elements_of("list"),
        val(r#"["list",["map","string"]]"#, r#"[{"a":"1"},{"a":"2","b":"true"}]"#),
    ));
    cases.push((
        "set of objects",
        elements_of("set"),
        val(r#"["set",["object",{"a":"string"}]]"#, r#"[{"a":"1"},{"a":"2"}]"#),
    ));
    cases.push((
        "empty list untouched",
        elements_of("list"),
        val(r#"["list",["object",{"a":"string"}]]"#, r#"[]"#),
    ));
    let tuple_type = format!(r#"["tuple",[{SIMPLE},"string",{SIMPLE}]]"#);
    cases.push((
        "tuple: defaults by index",
        node(&tuple_type, vec![(Some("0"), simple_defaults())]),
        val(
            r#"["tuple",[["object",{"a":"string"}],"string",["object",{"a":"string"}]]]"#,
            r#"[{"a":"1"},"x",{"a":"2"}]"#,
        ),
    ));
    cases.push((
        "defaults of an object reached through a map value are not applied",
        node(&format!(r#"["object",{{"m":{SIMPLE}}}]"#), vec![(Some("m"), simple_defaults())]),
        val(r#"["map",["map","string"]]"#, r#"{"m":{"a":"1"}}"#),
    ));

    let mut out = String::new();
    for (name, defaults, value) in cases {
        let applied = defaults.apply(value.clone());
        writeln!(out, "# {name}\n  in:  {value:?}\n  out: {applied:?}").unwrap();
    }
    expect_file!["../../../../test-data/decode/typeexpr/apply.txt"].assert_eq(&out);
}

#[test]
fn convert_after_defaults() {
    let constraint = TypeConstraint { ty: ty(SIMPLE), defaults: Some(Box::new(simple_defaults())) };
    let converted = convert_with_defaults(&val(r#"["object",{"a":"string"}]"#, r#"{"a":"x"}"#), &constraint);
    assert_eq!(converted, Ok(val(r#"["object",{"a":"string","b":"bool"}]"#, r#"{"a":"x","b":true}"#)));

    // Without defaults an optional attribute that is missing becomes null.
    let plain = TypeConstraint { ty: ty(SIMPLE), defaults: None };
    let converted = convert_with_defaults(&val(r#"["object",{"a":"string"}]"#, r#"{"a":"x"}"#), &plain);
    assert_eq!(converted, Ok(val(r#"["object",{"a":"string","b":"bool"}]"#, r#"{"a":"x","b":null}"#)));

    let missing_required =
        convert_with_defaults(&val(r#"["object",{"b":"bool"}]"#, r#"{"b":true}"#), &constraint);
    assert!(missing_required.is_err(), "{missing_required:?}");

    // The list that Apply turned into a tuple converts back to the list.
    let list = TypeConstraint {
        ty: ty(&format!(r#"["list",{SIMPLE}]"#)),
        defaults: Some(Box::new(node(&format!(r#"["list",{SIMPLE}]"#), vec![(None, simple_defaults())]))),
    };
    let converted = convert_with_defaults(
        &val(r#"["list",["map","string"]]"#, r#"[{"a":"1"},{"a":"2","b":"false"}]"#),
        &list,
    )
    .expect("converts");
    assert_eq!(
        converted,
        val(
            r#"["list",["object",{"a":"string","b":"bool"}]]"#,
            r#"[{"a":"1","b":true},{"a":"2","b":false}]"#
        )
    );
}

#[test]
fn type_strings() {
    let cases = [
        ("dynamic", "any"),
        ("string", "string"),
        ("number", "number"),
        ("bool", "bool"),
        (r#"["list","number"]"#, "list(number)"),
        (r#"["set","bool"]"#, "set(bool)"),
        (r#"["map","string"]"#, "map(string)"),
        (r#"["object",{}]"#, "object({})"),
        (r#"["object",{"foo":"bool"}]"#, "object({foo=bool})"),
        (r#"["object",{"foo":"bool","bar":"string"}]"#, "object({bar=string,foo=bool})"),
        (r#"["tuple",[]]"#, "tuple([])"),
        (r#"["tuple",["bool"]]"#, "tuple([bool])"),
        (r#"["tuple",["bool","string"]]"#, "tuple([bool,string])"),
        (r#"["list","dynamic"]"#, "list(any)"),
        (r#"["tuple",["dynamic"]]"#, "tuple([any])"),
        (r#"["object",{"foo":"dynamic"}]"#, "object({foo=any})"),
        (r#"["list",["list","dynamic"]]"#, "list(list(any))"),
        (r#"["object",{"foo bar baz":"string"}]"#, r#"object({"foo bar baz"=string})"#),
        (r#"["object",{"a-b":"string","_c":"number"}]"#, "object({_c=number,a-b=string})"),
        (r#"["object",{"a":"string","b":"bool"},["b"]]"#, "object({a=string,b=bool})"),
    ];
    for (json, want) in cases {
        assert_eq!(type_string(&ty(json)), want, "type {json}");
    }
}
