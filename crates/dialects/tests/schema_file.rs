//! A language declared in a schema file: what it reads, and its mistakes
//! with their places.

use dialects::schema_file::SchemaFile;
use expect_test::expect;

#[test]
fn a_schema_file_declares_blocks_attributes_types_roots_and_functions() {
    let schema = SchemaFile::parse(
        "build.hcl",
        r#"
root "project" {}
function "shell_words" {}
block "target" {
  labels = ["name"]
  attribute "output" {
    type     = string
    required = true
  }
  attribute "env" {
    type = map(string)
  }
  block "step" {
    labels = []
    attribute "run" {}
  }
}
"#,
    )
    .expect("a schema");
    expect![[r#"
        SchemaFile {
            blocks: {
                "target": BlockSchema {
                    labels: 1,
                    attributes: [
                        (
                            "output",
                            true,
                        ),
                        (
                            "env",
                            false,
                        ),
                    ],
                    blocks: [
                        "step",
                    ],
                    types: {
                        "env": ["map","string"],
                        "output": "string",
                    },
                    nested: {
                        "step": BlockSchema {
                            labels: 0,
                            attributes: [
                                (
                                    "run",
                                    false,
                                ),
                            ],
                            blocks: [],
                            types: {},
                            nested: {},
                        },
                    },
                },
            },
            roots: {
                "project",
            },
            functions: {
                "shell_words",
            },
        }
    "#]]
    .assert_debug_eq(&schema);
    let rules = schema.rules("build");
    assert!(rules.closed_block_types);
    assert!(rules.unknown_roots.contains("project"));
}

#[test]
fn a_schema_files_mistakes_are_diagnostics_with_places() {
    let errors = SchemaFile::parse(
        "build.hcl",
        "block \"target\" {\n  labels = \"name\"\n  attribute \"output\" {\n    type = strin\n    requried = true\n  }\n}\nblok \"x\" {}\nblock \"target\" {}\n",
    )
    .expect_err("mistakes");
    let shown: Vec<String> = errors
        .iter()
        .map(|it| {
            let at = it
                .subject
                .as_ref()
                .map(|it| format!("{}:{}", it.start.line, it.start.column))
                .unwrap_or_default();
            format!("{at} {}: {}", it.summary, it.detail)
        })
        .collect();
    expect![[r#"
        [
            "2:12 Invalid labels: The labels are a list of their names, as strings: `labels = [\"name\"]`.",
            "4:12 Invalid type specification: The keyword \"strin\" is not a valid type specification.",
            "5:5 Unsupported argument: An argument named \"requried\" is not expected here. Did you mean \"required\"?",
            "8:1 Unsupported block type: Blocks of type \"blok\" are not expected here. Did you mean \"block\"?",
            "9:1 Duplicate block: The block \"target\" is declared twice; each name is declared once.",
        ]
    "#]].assert_debug_eq(&shown);
}
