use super::*;

fn obj(attrs: &[(&str, Type)]) -> Type {
    Type::object_from(attrs.iter().cloned())
}

#[test]
fn json_encoding_table() {
    // Texts as go-cty's Type.MarshalJSON writes them.
    let cases = [
        (Type::String, r#""string""#),
        (Type::Number, r#""number""#),
        (Type::Bool, r#""bool""#),
        (Type::Dynamic, r#""dynamic""#),
        (Type::list(Type::Number), r#"["list","number"]"#),
        (Type::set(Type::list(Type::Bool)), r#"["set",["list","bool"]]"#),
        (Type::map(Type::Dynamic), r#"["map","dynamic"]"#),
        (Type::empty_tuple(), r#"["tuple",[]]"#),
        (Type::tuple(vec![Type::String, Type::Number]), r#"["tuple",["string","number"]]"#),
        (Type::empty_object(), r#"["object",{}]"#),
        (
            obj(&[("b", Type::String), ("a", Type::list(Type::Number)), ("<", Type::Bool)]),
            r#"["object",{"\u003c":"bool","a":["list","number"],"b":"string"}]"#,
        ),
        (
            Type::object_with_optional(
                [("x".to_string(), Type::String), ("y".to_string(), Type::Number)].into(),
                ["y".to_string()].into(),
            ),
            r#"["object",{"x":"string","y":"number"},["y"]]"#,
        ),
    ];
    for (ty, text) in cases {
        assert_eq!(ty.to_json_string(), text);
        assert_eq!(Type::from_json_str(text).as_ref(), Ok(&ty), "{text}");
    }
}

#[test]
fn json_decoding_errors() {
    let bad = [
        r#""str""#,
        r#"["list"]"#,
        r#"["list","number","x"]"#,
        r#"["object",{"a":"string"},["b"]]"#,
        r#"["tuple","string"]"#,
        r#"["vector","number"]"#,
        r#"[]"#,
        r#"42"#,
        r#""string" "number""#,
    ];
    for text in bad {
        assert!(Type::from_json_str(text).is_err(), "{text}");
    }
    // Whitespace is fine, as for Go's decoder.
    assert_eq!(Type::from_json_str(" [ \"list\" , \"string\" ] "), Ok(Type::list(Type::String)));
}

#[test]
fn queries() {
    let t = obj(&[("a", Type::list(Type::Dynamic))]);
    assert!(t.has_dynamic_types());
    assert!(!Type::list(Type::String).has_dynamic_types());
    assert_eq!(t.attribute_type("a"), Some(&Type::list(Type::Dynamic)));
    assert_eq!(Type::map(Type::Number).friendly_name(), "map of number");
    let opt = Type::object_with_optional(
        [("x".to_string(), Type::String)].into(),
        ["x".to_string(), "nope".to_string()].into(),
    );
    assert_eq!(opt.to_json_string(), r#"["object",{"x":"string"},["x"]]"#);
    assert_eq!(Type::list(opt).without_optional_attrs_deep(), Type::list(obj(&[("x", Type::String)])));
    // Equality sees optional annotations, as go-cty's Type.Equals does.
    assert_ne!(
        Type::object_with_optional([("x".to_string(), Type::String)].into(), ["x".to_string()].into()),
        obj(&[("x", Type::String)])
    );
}

#[test]
fn attribute_names_are_nfc() {
    let t = obj(&[("e\u{301}", Type::String)]);
    assert_eq!(t, obj(&[("é", Type::String)]));
    let v = crate::Value::object_from([("e\u{301}", crate::Value::string("x"))]);
    assert_eq!(v.ty(), t);
}
