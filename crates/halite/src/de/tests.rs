//! Decoding values of every kind into Rust types, and the errors of values
//! that do not fit.

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;
use value::{Number, Type, Value};

use super::{DecodeError, from_value};

fn list(elements: Vec<Value>) -> Value {
    Value::list_of(elements).expect("elements of one type")
}

fn error<T: for<'de> Deserialize<'de> + std::fmt::Debug>(value: &Value) -> String {
    let result: Result<T, DecodeError> = from_value(value);
    match result {
        Ok(decoded) => panic!("decoded {decoded:?}, expected an error"),
        Err(error) => error.to_string(),
    }
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Mode {
    Debug,
    Release,
}

#[derive(Debug, PartialEq, Deserialize)]
struct Target {
    command: String,
    mode: Mode,
    jobs: Option<u32>,
    deps: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
}

#[test]
fn structs_with_enums_options_vectors_and_maps() {
    let value = Value::object_from([
        ("command", Value::string("cargo build")),
        ("mode", Value::string("release")),
        ("jobs", Value::null(Type::Number)),
        ("deps", list(vec![Value::string("fmt"), Value::string("lint")])),
        (
            "env",
            Value::map(
                Type::String,
                BTreeMap::from([("RUSTFLAGS".to_string(), Value::string("-Dwarnings"))]),
            )
            .expect("a map of strings"),
        ),
        ("unused", Value::bool(true)),
    ]);
    let target: Target = from_value(&value).expect("decodes");
    assert_eq!(
        target,
        Target {
            command: "cargo build".into(),
            mode: Mode::Release,
            jobs: None,
            deps: vec!["fmt".into(), "lint".into()],
            env: BTreeMap::from([("RUSTFLAGS".into(), "-Dwarnings".into())]),
        }
    );
}

#[test]
fn sequences_from_lists_sets_and_tuples() {
    let numbers = [Value::int(3), Value::int(1), Value::int(2)];
    assert_eq!(from_value::<Vec<i64>>(&list(numbers.to_vec())).unwrap(), vec![3, 1, 2]);
    // A set decodes in go-cty's canonical order: numbers ascending.
    let set = Value::set_of(numbers.to_vec()).unwrap();
    assert_eq!(from_value::<Vec<i64>>(&set).unwrap(), vec![1, 2, 3]);
    let tuple = Value::tuple(vec![Value::string("a"), Value::int(1), Value::bool(true)]);
    assert_eq!(from_value::<(String, u8, bool)>(&tuple).unwrap(), ("a".to_string(), 1, true));
    assert_eq!(from_value::<Vec<String>>(&Value::empty_tuple()).unwrap(), Vec::<String>::new());
}

#[test]
fn maps_from_maps_and_objects() {
    let object = Value::object_from([("a", Value::int(1)), ("b", Value::int(2))]);
    let hash: HashMap<String, u16> = from_value(&object).unwrap();
    assert_eq!(hash, HashMap::from([("a".to_string(), 1), ("b".to_string(), 2)]));
    let map = Value::map(Type::Number, BTreeMap::from([("x".to_string(), Value::int(-4))])).unwrap();
    let btree: BTreeMap<String, i8> = from_value(&map).unwrap();
    assert_eq!(btree, BTreeMap::from([("x".to_string(), -4)]));
}

#[test]
fn enums_from_strings_and_one_attribute_objects() {
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Step {
        Clean,
        Run(String),
        Copy { from: String, to: String },
    }
    assert_eq!(from_value::<Step>(&Value::string("clean")).unwrap(), Step::Clean);
    let run = Value::object_from([("run", Value::string("make"))]);
    assert_eq!(from_value::<Step>(&run).unwrap(), Step::Run("make".into()));
    let copy = Value::object_from([(
        "copy",
        Value::object_from([("from", Value::string("a")), ("to", Value::string("b"))]),
    )]);
    assert_eq!(from_value::<Step>(&copy).unwrap(), Step::Copy { from: "a".into(), to: "b".into() });
    assert_eq!(
        error::<Step>(&Value::string("build")),
        "unknown variant `build`, expected one of `clean`, `run`, `copy`"
    );
    assert_eq!(
        error::<Step>(&Value::int(1)),
        "expected a string naming a variant, or an object with one attribute, found number"
    );
}

#[test]
fn numbers_to_integer_and_float_types() {
    assert_eq!(from_value::<u8>(&Value::int(255)).unwrap(), 255);
    assert_eq!(from_value::<i64>(&Value::int(i64::MIN)).unwrap(), i64::MIN);
    let big = Value::number(Number::parse("18446744073709551615").unwrap());
    assert_eq!(from_value::<u64>(&big).unwrap(), u64::MAX);
    let huge = Value::number(Number::parse("170141183460469231731687303715884105727").unwrap());
    assert_eq!(from_value::<i128>(&huge).unwrap(), i128::MAX);
    assert_eq!(from_value::<f64>(&Value::number(Number::parse("1.5").unwrap())).unwrap(), 1.5);
    assert_eq!(from_value::<f64>(&Value::number(Number::pos_inf())).unwrap(), f64::INFINITY);
    assert_eq!(error::<u8>(&Value::int(256)), "the number 256 is out of range for u8");
    assert_eq!(error::<u32>(&Value::int(-1)), "the number -1 is out of range for u32");
    assert_eq!(error::<i64>(&big), "the number 1.844674407e+19 is out of range for i64");
    // A vast exponent is refused without expanding its digits.
    let vast = Value::number(Number::parse("1e100000").unwrap());
    assert_eq!(error::<u128>(&vast), "the number 1e+100000 is out of range for u128");
    assert_eq!(
        error::<i32>(&Value::number(Number::parse("2.5").unwrap())),
        "the number 2.5 is not a whole number, as i32 requires"
    );
    assert_eq!(
        error::<i32>(&Value::number(Number::pos_inf())),
        "the number +Inf is not a whole number, as i32 requires"
    );
}

#[test]
fn primitive_conversions_as_go_cty_makes_them() {
    assert_eq!(from_value::<String>(&Value::int(8080)).unwrap(), "8080");
    assert_eq!(from_value::<String>(&Value::bool(false)).unwrap(), "false");
    assert_eq!(from_value::<u16>(&Value::string("8080")).unwrap(), 8080);
    assert!(from_value::<bool>(&Value::string("true")).unwrap());
    assert_eq!(
        error::<u16>(&Value::string("eighty")),
        "expected a number (u16), found the string \"eighty\""
    );
    assert_eq!(error::<bool>(&Value::string("yes")), "expected a bool, found string");
    assert_eq!(error::<String>(&Value::empty_tuple()), "expected a string, found tuple");
}

#[test]
fn nulls() {
    assert_eq!(from_value::<Option<String>>(&Value::null(Type::String)).unwrap(), None);
    assert_eq!(from_value::<Option<String>>(&Value::string("x")).unwrap(), Some("x".into()));
    from_value::<()>(&Value::null(Type::Dynamic)).unwrap();
    assert_eq!(error::<String>(&Value::null(Type::String)), "expected a string, found null");
}

#[test]
fn unknown_values_are_errors() {
    assert_eq!(
        error::<String>(&Value::unknown(Type::String)),
        "the value is not known from the configuration (an unknown string)"
    );
    assert_eq!(
        error::<Option<String>>(&Value::dynamic()),
        "the value is not known from the configuration (an unknown dynamic)"
    );
    let value = Value::object_from([("deps", list(vec![Value::string("a"), Value::unknown(Type::String)]))]);
    #[derive(Debug, Deserialize)]
    #[allow(dead_code, reason = "only the error is looked at")]
    struct Deps {
        deps: Vec<String>,
    }
    assert_eq!(
        error::<Deps>(&value),
        "at .deps[1]: the value is not known from the configuration (an unknown string)"
    );
    // A field nobody reads may be unknown.
    #[derive(Debug, Deserialize)]
    struct Nothing {}
    from_value::<Nothing>(&value).unwrap();
}

#[test]
fn errors_say_where() {
    let value = Value::object_from([(
        "targets",
        Value::tuple(vec![Value::object_from([(
            "with space",
            Value::object_from([("jobs", Value::string("many"))]),
        )])]),
    )]);
    #[derive(Debug, Deserialize)]
    #[allow(dead_code, reason = "only the error is looked at")]
    struct Jobs {
        jobs: u8,
    }
    let result: Result<BTreeMap<String, Vec<BTreeMap<String, Jobs>>>, _> = from_value(&value);
    let error = result.unwrap_err();
    assert_eq!(error.path(), ".targets[0][\"with space\"].jobs");
    assert_eq!(error.message(), "expected a number (u8), found the string \"many\"");
}

#[test]
fn missing_fields_and_any() {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code, reason = "only the error is looked at")]
    struct Needs {
        name: String,
    }
    assert_eq!(error::<Needs>(&Value::empty_object()), "missing field `name`");
    // Self-describing decoding, as an untagged enum uses it.
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(untagged)]
    enum Loose {
        Number(i64),
        Text(String),
        List(Vec<Loose>),
    }
    let value = Value::tuple(vec![Value::int(1), Value::string("two")]);
    assert_eq!(
        from_value::<Loose>(&value).unwrap(),
        Loose::List(vec![Loose::Number(1), Loose::Text("two".into())])
    );
}
