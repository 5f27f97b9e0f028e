//! The module's index kept in parts (`db::module::index`, patched per
//! changed file) answers what the index built whole answers, after every
//! kind of change: files added, removed, renamed and edited, duplicates
//! across files, blocks declared again, repeated blocks, Terraform's
//! dialect and file choice, and the JSON syntax.

use std::{collections::BTreeSet, fmt::Write as _};

use db::{
    Db as _, File, RootDatabase, Utf8Path,
    module::{self, Address, Module},
};

/// Two databases given the same changes: one builds the index whole, the
/// other keeps it in parts, as the host does (declarations snapshotted,
/// then the parts patched with the changed files).
struct Pair {
    whole: RootDatabase,
    parts: RootDatabase,
}

impl Pair {
    fn new() -> Pair {
        let mut parts = RootDatabase::new();
        parts.keep_module_index_parts();
        Pair { whole: RootDatabase::new(), parts }
    }

    /// Sets (`Some`) or removes (`None`) files of the module `m`.
    fn change(&mut self, files: &[(&str, Option<&str>)]) {
        for db in [&mut self.whole, &mut self.parts] {
            let mut changed: Vec<File> = Vec::new();
            for (path, text) in files {
                let path = format!("m/{path}");
                match text {
                    Some(text) => changed.push(db.set_file_text(path, *text)),
                    None => changed.extend(db.delete_file(Utf8Path::new(&path))),
                }
            }
            let members: Vec<File> = db
                .files()
                .iter()
                .filter(|file| {
                    file.status(db) == db::FileStatus::Exists && !file.path(db).as_str().is_empty()
                })
                .collect();
            let module = db.set_module_files("m", members);
            if db.keeps_index_parts() {
                for &file in &changed {
                    if file.status(db) == db::FileStatus::Exists {
                        let declarations = module::file_declarations(db, file).clone();
                        db.set_file_declarations(file, declarations);
                    }
                }
                db.update_module_index(module, &changed);
            }
        }
    }

    fn check(&self, when: &str) {
        let whole = describe(&self.whole, self.whole.module(Utf8Path::new("m")).unwrap());
        let parts = describe(&self.parts, self.parts.module(Utf8Path::new("m")).unwrap());
        assert_eq!(whole, parts, "{when}");
    }
}

/// Everything the readers of the index answer about `module`, and its
/// values and diagnostics, as text.
fn describe(db: &RootDatabase, module: Module) -> String {
    let mut out = String::new();
    let order: Vec<&Address> = module::module_order(db, module).collect();
    let mut addresses: BTreeSet<Address> = order.iter().map(|it| (*it).clone()).collect();
    for &file in module::module_files(db, module) {
        let index = module::file_index(db, module, file);
        let _ = writeln!(out, "file {}: {:?}", file.path(db), index.addresses);
        for duplicate in &index.duplicates {
            let _ = writeln!(
                out,
                "  duplicate {} {:?} first {} {:?} again {:?}",
                duplicate.address,
                duplicate.kind,
                duplicate.first.0.path(db),
                duplicate.first.1,
                duplicate.duplicate.1
            );
            addresses.insert(duplicate.address.clone());
        }
    }
    let _ = writeln!(out, "order: {order:?}");
    for address in &addresses {
        match module::definition(db, module, address) {
            Some(def) => {
                let _ = writeln!(
                    out,
                    "{address}: {} #{} {:?} {:?}",
                    def.file.path(db),
                    def.declaration,
                    def.kind,
                    def.location(db)
                );
            }
            None => {
                let _ = writeln!(out, "{address}: none");
            }
        }
        let _ = writeln!(out, "  again: {}", module::duplicates_of(db, module, address).len());
    }
    for root in ["var", "local"] {
        let _ = writeln!(out, "{root}: {:?}", module::names_under(db, module, root));
    }
    let types = module::block_types(db, module);
    let _ = writeln!(out, "types: {types:?}");
    for block_type in types.keys() {
        for labels in module::block_labels(db, module, block_type) {
            let entry = module::block(db, module, block_type, labels);
            let _ = writeln!(out, "block {block_type} {labels:?}: {entry:?}");
        }
    }
    for &attr in module::module_attributes(db, module) {
        let _ = writeln!(out, "{} = {:?}", attr.address(db), module::attribute_value(db, attr));
    }
    for diagnostic in module::module_diagnostics(db, module) {
        let _ = writeln!(
            out,
            "{} {:?} {:?} {}",
            diagnostic.file.path(db),
            diagnostic.range,
            diagnostic.kind,
            diagnostic.detail
        );
    }
    out
}

/// Loads `files`, then removes, adds back, renames (to a name that sorts
/// first) and edits each one, comparing after every step.
fn exercise(files: &[(&str, &str)]) {
    let mut pair = Pair::new();
    let all: Vec<(&str, Option<&str>)> = files.iter().map(|(path, text)| (*path, Some(*text))).collect();
    pair.change(&all);
    pair.check("loaded");
    for (path, text) in files {
        pair.change(&[(path, None)]);
        pair.check(&format!("{path} removed"));
        pair.change(&[(path, Some(text))]);
        pair.check(&format!("{path} added back"));
        let renamed = format!("0-{path}");
        pair.change(&[(path, None), (&renamed, Some(text))]);
        pair.check(&format!("{path} renamed"));
        pair.change(&[(&renamed, None), (path, Some(text))]);
        pair.check(&format!("{path} renamed back"));
        let edited = format!("{text}\nlocals {{\n  added_in_{} = 1\n}}\n", path.replace(['.', '-'], "_"));
        pair.change(&[(path, Some(&edited))]);
        pair.check(&format!("{path} edited"));
        pair.change(&[(path, Some(text))]);
        pair.check(&format!("{path} edited back"));
    }
}

#[test]
fn duplicates_across_files() {
    exercise(&[
        ("a.hcl", "locals {\n  x = 1\n  y = local.x\n}\nservice \"s\" {\n  a = local.x\n}\n"),
        (
            "b.hcl",
            "locals {\n  x = 2\n}\nservice \"s\" {\n  b = 2\n}\nservice \"t\" {\n  c = service.s.a\n  d = local.x\n}\n",
        ),
        ("c.hcl", "variable \"v\" {\n  default = 1\n}\nvariable \"v\" {}\nz = var.v\nz = 2\n"),
    ]);
}

#[test]
fn a_block_and_an_attribute_at_one_address() {
    exercise(&[
        ("a.hcl", "thing \"b\" {\n  c = 1\n  d = thing.b.c\n}\n"),
        ("b.hcl", "thing \"b\" \"c\" {\n  e = 2\n}\nother \"o\" {\n  f = thing.b\n}\n"),
        ("c.hcl", "thing \"b\" {\n  g = 3\n}\nthing \"b\" \"c\" {\n  h = 4\n}\n"),
    ]);
}

#[test]
fn repeated_blocks_take_ordinals_across_files() {
    exercise(&[
        ("a.hcl", "moved {\n  from = 1\n}\nlocals {\n  m = moved\n}\n"),
        ("b.hcl", "moved {\n  from = 2\n}\nsettings {\n  on = true\n}\n"),
        ("c.hcl", "moved {\n  from = 3\n}\n"),
    ]);
}

#[test]
fn terraform_modules() {
    exercise(&[
        (
            "main.tf",
            "resource \"aws_instance\" \"web\" {\n  ami = var.ami\n  tags = { name = local.name }\n}\ndata \"aws_ami\" \"ubuntu\" {\n  most_recent = true\n}\nmodule \"child\" {\n  source = \"./child\"\n  x = aws_instance.web.id\n}\n",
        ),
        (
            "vars.tf",
            "variable \"ami\" {\n  type = string\n  default = \"ami-1\"\n}\nlocals {\n  name = \"web-${var.ami}\"\n  ids = [aws_instance.web.id, data.aws_ami.ubuntu.id, aws_instanc.web.id]\n}\n",
        ),
        (
            "providers.tf",
            "provider \"aws\" {\n  region = \"eu\"\n}\nprovider \"aws\" {\n  alias = \"us\"\n}\n",
        ),
        ("main.tofu", "resource \"aws_instance\" \"web\" {\n  ami = \"tofu\"\n}\n"),
        ("override.tf", "locals {\n  name = \"overridden\"\n}\n"),
        ("extra.hcl", "locals {\n  ignored = 1\n}\n"),
    ]);
}

#[test]
fn json_files() {
    exercise(&[
        (
            "a.tf.json",
            r#"{"resource": {"aws_instance": {"a": {"ami": "x"}, "b": {"ami": "${aws_instance.a.ami}"}}}, "locals": {"l": 1}}"#,
        ),
        (
            "b.tf",
            "resource \"aws_instance\" \"a\" {\n  ami = \"first\"\n}\nlocals {\n  k = aws_instance.b.ami\n}\n",
        ),
    ]);
}

#[test]
fn nested_blocks_attributes_across_files() {
    // A block lists its nested blocks' attributes: added, removed and
    // declared again with the files, and repeated nested blocks by position.
    exercise(&[
        (
            "a.hcl",
            "target \"m0\" {\n  output = \"out\"\n  step \"compile\" {\n    flags = [\"-g\"]\n  }\n  step {\n    n = 1\n  }\n  step {\n    n = 2\n  }\n}\n",
        ),
        (
            "b.hcl",
            "target \"test.m0\" {\n  flags = target.m0.step.compile.flags\n  n = target.m0.step[1].n\n  all = target[\"m0\"]\n}\n",
        ),
        ("c.hcl", "target \"m0\" {\n  step \"link\" {\n    run = 1\n  }\n}\n"),
    ]);
}
