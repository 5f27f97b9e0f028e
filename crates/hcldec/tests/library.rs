//! The crate's API on its own, without the command line: what a spec
//! implies, spec files, type expressions, the spec definition functions,
//! decoding and variables. The reference pairs in `test-data/dec/` cover
//! the same ground through `halite dec` against the reference's output.

use std::sync::Arc;

use decode::{SourceFile, diagnostic::has_errors};
use hcldec::{Spec, SpecFile, implied_schema, load_spec_file, spec_functions, type_expr, variables};
use value::{Type, Value};

fn spec(text: &str) -> SpecFile {
    let file = SourceFile::native("spec.hcldec", text);
    let (spec, diags) = load_spec_file(&file);
    assert!(!has_errors(&diags), "{diags:?}");
    spec
}

fn spec_errors(text: &str) -> Vec<String> {
    let file = SourceFile::native("spec.hcldec", text);
    let (_, diags) = load_spec_file(&file);
    diags.iter().map(|diag| format!("{}: {}", diag.summary, diag.detail)).collect()
}

fn input(text: &str) -> Arc<SourceFile> {
    SourceFile::native("input.hcl", text)
}

#[test]
fn implied_schema_and_type() {
    let spec = spec(
        r#"
object {
  attr "name" {
    type     = string
    required = true
  }
  default "port" {
    attr {
      name = "port"
      type = number
    }
    literal {
      value = 80
    }
  }
  block_list "rule" {
    attr {
      name = "cidr"
      type = list(string)
    }
  }
  block_map "service" {
    labels = ["kind", "name"]
    literal {
      value = true
    }
  }
}
"#,
    );
    let schema = implied_schema(&spec.root);
    let attrs: Vec<(String, bool)> =
        schema.attributes.iter().map(|a| (a.name.to_string(), a.required)).collect();
    // Object properties in name order; the default spec names its
    // attribute once itself and once through its primary, as the
    // reference's does.
    assert_eq!(attrs, [("name".into(), true), ("port".into(), false), ("port".into(), false)]);
    let blocks: Vec<(String, usize)> =
        schema.blocks.iter().map(|b| (b.type_name.to_string(), b.label_names.len())).collect();
    assert_eq!(blocks, [("rule".into(), 0), ("service".into(), 2)]);

    assert_eq!(
        spec.root.implied_type(),
        Type::object_from([
            ("name", Type::String),
            ("port", Type::Number),
            ("rule", Type::list(Type::list(Type::String))),
            ("service", Type::map(Type::map(Type::Bool))),
        ])
    );
}

#[test]
fn decoding_through_the_library() {
    let spec = spec(
        r#"
object {
  attr "name" {
    type = string
  }
  block_set "tag" {
    attr {
      name = "v"
      type = string
    }
  }
  transform "count" {
    attr {
      name = "items"
      type = list(number)
    }
    result = length(nested)
  }
}
"#,
    );
    let file = input("name = 1\ntag {\n  v = \"b\"\n}\ntag {\n  v = \"a\"\n}\nitems = [1, 2, \"3\"]\n");
    let (value, diags) = hcldec::decode(&file.body(), &spec.root, &eval::Context::none());
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        value,
        Value::object_from([
            ("name", Value::string("1")),
            ("tag", Value::set(Type::String, vec![Value::string("a"), Value::string("b")]).unwrap()),
            ("count", Value::int(3)),
        ])
    );

    let file = input("name = {}\nitems = []\n");
    let (value, diags) = hcldec::decode(&file.body(), &spec.root, &eval::Context::none());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].summary, "Incorrect attribute value type");
    assert_eq!(
        diags[0].detail,
        "Inappropriate value for attribute \"name\": string required, but have object."
    );
    let subject = diags[0].subject.as_ref().unwrap();
    assert_eq!((subject.start.byte, subject.end.byte), (7, 9));
    assert_eq!(value.entries().unwrap()["name"], Value::unknown(Type::String));
}

#[test]
fn block_count_checks() {
    let spec = spec(
        r#"
block_list {
  block_type = "item"
  min_items  = 2
  max_items = 3
  literal {
    value = 1
  }
}
"#,
    );
    let count = |n: usize| {
        let file = input(&"item {}\n".repeat(n));
        let (_, diags) = hcldec::decode(&file.body(), &spec.root, &eval::Context::none());
        diags.iter().map(|diag| format!("{}: {}", diag.summary, diag.detail)).collect::<Vec<_>>()
    };
    assert_eq!(count(1), ["Insufficient item blocks: At least 2 \"item\" blocks are required."]);
    assert!(count(2).is_empty());
    assert_eq!(count(4), ["Too many item blocks: No more than 3 \"item\" blocks are allowed"]);
}

#[test]
fn variables_in_the_reference_form() {
    let spec = spec(
        r#"
object {
  attr "a" {
  }
  block "b" {
    attr {
      name = "c"
    }
  }
}
"#,
    );
    let file = input("a = foo.bar + x[0]\nb {\n  c = baz[count.index].y\n}\n");
    let names: Vec<String> = variables(&file.body(), &spec.root)
        .iter()
        .map(|traversal| format!("{}/{}", traversal.root_name(), traversal.steps.len()))
        .collect();
    // `baz[count.index].y` stops before its dynamic index.
    assert_eq!(names, ["foo/2", "x/2", "baz/1", "count/2"]);
}

#[test]
fn spec_file_errors() {
    assert_eq!(
        spec_errors("variables {\n  a = 1\n}\n"),
        [
            "Missing spec block: A spec file must have exactly one root block specifying how to map to a JSON value."
        ]
    );
    assert_eq!(
        spec_errors("block_list {\n  literal {\n    value = 1\n  }\n}\n"),
        [
            "Missing block_type in block_list spec: The block_type attribute is required, to specify the block type name that is expected in an input HCL file."
        ]
    );
    assert_eq!(
        spec_errors("transform {\n  result = nested\n}\n"),
        ["Invalid transform spec: A transform spec block must have exactly one nested spec block."]
    );
    // The reference crashes on a default with one nested spec; this warns.
    assert_eq!(
        spec_errors("default {\n  literal {\n    value = 1\n  }\n}\n"),
        ["Useless default block: A default block with only one spec is equivalent to using that spec alone."]
    );
}

#[test]
fn block_attrs_is_accepted() {
    let spec = spec("block_attrs {\n  block_type   = \"tags\"\n  element_type = number\n}\n");
    assert!(matches!(spec.root, Spec::BlockAttrs(_)));
    let file = input("tags {\n  a = 1\n  b = \"2\"\n}\n");
    let (value, diags) = hcldec::decode(&file.body(), &spec.root, &eval::Context::none());
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        value,
        Value::map(Type::Number, [("a".into(), Value::int(1)), ("b".into(), Value::int(2))].into()).unwrap()
    );
}

#[test]
fn type_expressions() {
    let ty = |text: &str| {
        let file = input(&format!("t = {text}\n"));
        let (content, _) = file.body().just_attributes();
        let (ty, diags) = type_expr(&content[0].expr);
        (ty, diags.iter().map(|diag| diag.summary.clone()).collect::<Vec<_>>())
    };
    assert_eq!(ty("set(map(bool))"), (Type::set(Type::map(Type::Bool)), vec![]));
    assert_eq!(ty("tuple([string, any])"), (Type::tuple(vec![Type::String, Type::Dynamic]), vec![]));
    assert_eq!(ty("object({a = number})"), (Type::object_from([("a", Type::Number)]), vec![]));
    assert_eq!(ty("null"), (Type::Dynamic, vec![]));
    assert_eq!(ty("\"string\""), (Type::Dynamic, vec!["Invalid type expression".to_string()]));
    assert_eq!(
        ty("lst(string)"),
        (Type::Dynamic, vec!["Call to unknown function".to_string(), "Invalid type expression".to_string()])
    );
}

#[test]
fn spec_definition_functions() {
    let functions = spec_functions();
    let names: Vec<&str> = functions.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "abs",
            "coalesce",
            "concat",
            "hasindex",
            "int",
            "jsondecode",
            "jsonencode",
            "length",
            "lower",
            "max",
            "min",
            "reverse",
            "strlen",
            "substr",
            "upper"
        ]
    );
    assert_eq!(functions["reverse"].call(&[Value::string("abc")]), Ok(Value::string("cba")));
    let list = Value::list(Type::String, vec![Value::string("a")]).unwrap();
    assert_eq!(functions["hasindex"].call(&[list.clone(), Value::int(0)]), Ok(Value::bool(true)));
    assert_eq!(functions["hasindex"].call(&[list, Value::int(1)]), Ok(Value::bool(false)));
}
