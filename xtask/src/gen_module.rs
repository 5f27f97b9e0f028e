//! `cargo xtask gen-module --files N --out DIR [--seed S]`: a synthetic
//! module for the incremental-evaluation benchmark, and the dependency graph
//! it wrote.
//!
//! Each file declares two variables, a `locals` block, a `service` block and
//! a `target` block whose attributes reference each other within the file
//! and reach into lower-numbered files only, so the graph is a DAG. The
//! expressions are the kinds real configurations use: string templates,
//! `format`, `join`, `concat`, `merge`, `lookup`, `upper`/`lower`,
//! conditionals, `for` expressions and arithmetic.
//!
//! Cross-file references are layered so that every chain of references is
//! at most four attributes long: an attribute of one layer references other
//! files' attributes of lower layers only. Without that, a chain through
//! every file would make one edit re-evaluate most of the module, which is
//! neither realistic nor what the benchmark measures.
//!
//! Besides the files, the generator writes `manifest.json`: every attribute
//! with the addresses it references (the graph, known here by construction,
//! not by analysing the text), and two edits for the benchmark: a
//! one-attribute edit with the exact set of attributes it must re-evaluate
//! (the attribute and its transitive dependents), and a whitespace edit
//! that must re-evaluate nothing. Every expression on a path from the edited
//! attribute carries the changed string into its result, so each dependent's
//! value really changes and salsa cannot cut the propagation short.
//!
//! This file uses the standard library only: the module benchmark and the
//! `halite` crate's tests include it with `#[path]` to generate the same
//! modules in memory.

// Each includer uses a different part of this file (the benchmark never
// writes a manifest, xtask never applies an edit).
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

/// One attribute of the generated module and the addresses its expression
/// references (`var.NAME`, `local.NAME`, `TYPE.LABEL….attr`).
#[derive(Debug, Clone)]
pub struct GeneratedAttribute {
    pub address: String,
    /// Index into [`GeneratedModule::files`].
    pub file: usize,
    pub refs: Vec<String>,
}

/// A text edit of one file: replace the first occurrence of `old` by `new`.
#[derive(Debug, Clone)]
pub struct GeneratedEdit {
    /// The file's name (relative to the module directory).
    pub file: String,
    /// The attribute the edit changes; empty for a whitespace edit.
    pub address: String,
    pub old: String,
    pub new: String,
    /// The attributes the edit must re-evaluate, sorted: the edited
    /// attribute and everything that transitively references it.
    pub expected: Vec<String>,
}

impl GeneratedEdit {
    /// The file's text after the edit.
    pub fn apply(&self, text: &str) -> String {
        text.replacen(&self.old, &self.new, 1)
    }
}

/// A generated module: files (name, text) in order, its graph, two edits.
#[derive(Debug, Clone)]
pub struct GeneratedModule {
    pub files: Vec<(String, String)>,
    pub attributes: Vec<GeneratedAttribute>,
    pub edit: GeneratedEdit,
    pub whitespace_edit: GeneratedEdit,
}

/// splitmix64: a tiny deterministic generator, so that a seed gives the
/// same module on every machine without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A lower-numbered file than `i`, most often a near one (files refer
    /// to their neighbours more than to distant ones), or `i` itself for
    /// file 0, which has no lower file.
    fn lower_file(&mut self, i: usize) -> usize {
        if i == 0 {
            return 0;
        }
        if self.below(4) == 0 { self.below(i) } else { i - 1 - self.below(i.min(16)) }
    }
}

const REGIONS: &[&str] = &["eu-west-1", "us-east-1", "ap-south-1", "eu-central-1"];

/// Blank lines and spaces between tokens in file `m`: the HIR is unchanged,
/// so nothing is evaluated.
fn whitespace_edit(m: usize) -> GeneratedEdit {
    GeneratedEdit {
        file: file_name(m),
        address: String::new(),
        old: "\nlocals {".to_string(),
        new: "\n\n\nlocals  {".to_string(),
        expected: Vec::new(),
    }
}

/// The name of file `i`.
pub fn file_name(i: usize) -> String {
    format!("f{i:05}.hcl")
}

/// Generates a module of `files` files (at least one) from `seed`.
pub fn generate(files: usize, seed: u64) -> GeneratedModule {
    let files = files.max(1);
    let mut rng = Rng(seed);
    let mut texts = Vec::with_capacity(files);
    let mut attributes = Vec::new();
    for i in 0..files {
        let (text, attrs) = generate_file(i, &mut rng);
        texts.push((file_name(i), text));
        attributes.extend(attrs);
    }
    // The edited attribute: a string local in a file three fifths of the
    // way in, which typical files reference and whose dependents are a
    // small part of the module.
    let m = files * 3 / 5;
    let address = format!("local.l{m}_name");
    let old = format!("l{m}_name   = \"svc-{m}\"");
    let new = format!("l{m}_name   = \"svc-{m}-edited\"");
    let expected = dependents(&attributes, &address).into_iter().collect();
    let edit = GeneratedEdit { file: file_name(m), address, old, new, expected };
    GeneratedModule { files: texts, attributes, edit, whitespace_edit: whitespace_edit(m) }
}

/// The shapes of module the generator writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// References layered so that every chain is at most four attributes
    /// long, most of them to near files (see the module's documentation).
    Layered,
    /// Chains of references across files ([`CHAIN_FILES`] files long) and
    /// wide fan-in both ways: a hub attribute that every file of its group
    /// ([`GROUP_FILES`] files) reads, and an aggregate that reads an
    /// attribute of each of them.
    Chains,
    /// The build configuration of `examples/build-tool` scaled up: each
    /// file is a module with a variable, locals, a library target with
    /// nested `step` blocks whose libraries depend on lower files' outputs,
    /// and a test target whose label holds dots (`target "test.mN"`).
    BuildTool,
}

/// Files per chain of the [`Shape::Chains`] module.
pub const CHAIN_FILES: usize = 40;

/// Files per group (one hub, one aggregate) of the [`Shape::Chains`] module.
pub const GROUP_FILES: usize = 100;

/// Generates a module of `files` files of the given shape from `seed`.
pub fn generate_shape(shape: Shape, files: usize, seed: u64) -> GeneratedModule {
    match shape {
        Shape::Layered => generate(files, seed),
        Shape::Chains => generate_chains(files),
        Shape::BuildTool => generate_build_tool(files, seed),
    }
}

/// A [`Shape::BuildTool`] module (see [`build_tool_file`]). Its edit
/// changes the `run` of a nested `step` block three fifths of the way in.
fn generate_build_tool(files: usize, seed: u64) -> GeneratedModule {
    let files = files.max(1);
    let mut rng = Rng(seed);
    let mut texts = Vec::with_capacity(files);
    let mut attributes = Vec::new();
    for i in 0..files {
        let (text, attrs) = build_tool_file(i, &mut rng);
        texts.push((file_name(i), text));
        attributes.extend(attrs);
    }
    let m = files * 3 / 5;
    let module = GeneratedModule {
        files: texts,
        attributes,
        edit: whitespace_edit(m),
        whitespace_edit: whitespace_edit(m),
    };
    let edit = build_tool_step_edit(&module, m, 0);
    GeneratedModule { edit, ..module }
}

/// File `i` of a [`Shape::BuildTool`] module: a variable, locals, the
/// library target `mI` with a `compile` and an `archive` step, and the test
/// target `test.mI` with a `self-test` step. A library depends on two lower
/// files' libraries and a test writes its log where a lower file's output
/// goes, so an edit of a file's directory reaches a few other files.
///
/// The test's step also reads the library's `compile` step and its own
/// target by a quoted label (`target["test.m3"].output`), so an edit of a
/// step reaches the steps that read it, and a label indexed by its key
/// names its block alone.
///
/// The addresses are the ones `halite watch` prints, the library's
/// `Address`'s printed form: a label that is not an identifier quoted
/// (`target["test.m3"].step.self-test.run`).
fn build_tool_file(i: usize, rng: &mut Rng) -> (String, Vec<GeneratedAttribute>) {
    let (a, b) = (rng.lower_file(i), rng.lower_file(i));
    let profile = if i.is_multiple_of(4) { "release" } else { "debug" };
    let mut attrs = Vec::new();
    let mut attr = |address: String, refs: &[String]| {
        attrs.push(GeneratedAttribute { address, file: i, refs: refs.to_vec() });
    };
    let var = format!("var.b{i}_profile");
    let local = |j: usize, name: &str| format!("local.b{j}_{name}");
    let lib = |j: usize, name: &str| format!("target.m{j}.{name}");
    let test = |name: &str| format!("target[\"test.m{i}\"].{name}");

    let mut text = String::new();
    let _ = writeln!(text, "# Module {i}, generated by `cargo xtask gen-module --shape build-tool`.");
    let _ = write!(
        text,
        r#"
variable "b{i}_profile" {{
  type    = string
  default = "{profile}"
}}

locals {{
  b{i}_dir    = "m{i}"
  b{i}_out    = "out/${{var.b{i}_profile}}/${{local.b{i}_dir}}"
  b{i}_cflags = var.b{i}_profile == "release" ? ["-O2", "-DNDEBUG"] : ["-g", "-O{opt}"]
}}
"#,
        opt = i % 3,
    );
    attr(var.clone(), &[]);
    attr(local(i, "dir"), &[]);
    attr(local(i, "out"), &[var.clone(), local(i, "dir")]);
    attr(local(i, "cflags"), std::slice::from_ref(&var));

    let deps = if i == 0 { String::new() } else { format!("target.m{a}.output, target.m{b}.output") };
    let _ = write!(
        text,
        r#"
target "m{i}" {{
  sources = ["src/m{i}/parse.c", "src/m{i}/eval.c"]
  output  = "${{local.b{i}_out}}/libm{i}.a"
  deps    = [{deps}]

  step "compile" {{
    run     = "cc ${{join(" ", local.b{i}_cflags)}} -c ${{join(" ", target.m{i}.sources)}}"
    timeout = {timeout}
  }}
  step "archive" {{
    run = "ar rcs ${{target.m{i}.output}} *.o"
  }}
}}
"#,
        timeout = 60 + i % 7,
    );
    attr(lib(i, "sources"), &[]);
    attr(lib(i, "output"), &[local(i, "out")]);
    attr(lib(i, "deps"), &if i == 0 { Vec::new() } else { vec![lib(a, "output"), lib(b, "output")] });
    attr(lib(i, "step.compile.run"), &[local(i, "cflags"), lib(i, "sources")]);
    attr(lib(i, "step.compile.timeout"), &[]);
    attr(lib(i, "step.archive.run"), &[lib(i, "output")]);

    let _ = write!(
        text,
        r#"
target "test.m{i}" {{
  output = "${{local.b{i}_out}}/test.log"
  deps   = [target.m{i}.output]

  step "self-test" {{
    run     = "${{target.m{i}.output}} --self-test > ${{local.b{a}_out}}/test-m{i}.log"
    needs   = [target.m{i}.step.compile.run, target["test.m{i}"].output]
    timeout = {timeout}
  }}
}}
"#,
        timeout = 30 + i % 5,
    );
    attr(test("output"), &[local(i, "out")]);
    attr(test("deps"), &[lib(i, "output")]);
    attr(test("step.self-test.run"), &[lib(i, "output"), local(a, "out")]);
    attr(test("step.self-test.needs"), &[lib(i, "step.compile.run"), test("output")]);
    attr(test("step.self-test.timeout"), &[]);
    (text, attrs)
}

/// An edit of the `run` of file `i`'s nested `compile` step: it must
/// re-evaluate that attribute and the test step that reads it.
fn build_tool_step_edit(module: &GeneratedModule, i: usize, round: usize) -> GeneratedEdit {
    let address = format!("target.m{i}.step.compile.run");
    let old = format!("-c ${{join(\" \", target.m{i}.sources)}}");
    let new = format!("-c -Wall{round} ${{join(\" \", target.m{i}.sources)}}");
    let expected = dependents(&module.attributes, &address).into_iter().collect();
    GeneratedEdit { file: file_name(i), address, old, new, expected }
}

/// A [`Shape::Chains`] module. Each file `i` has a literal base, a link
/// that adds it to the previous file's link (a chain starts every
/// [`CHAIN_FILES`] files), a name made from the link, a value made from its
/// group's hub, and a block reading all of them; the first file of each
/// group declares the hub, and the last the aggregate of the group's links.
fn generate_chains(files: usize) -> GeneratedModule {
    let files = files.max(1);
    let mut texts = Vec::with_capacity(files);
    let mut attributes = Vec::new();
    for i in 0..files {
        let mut attr = |address: String, refs: Vec<String>| {
            attributes.push(GeneratedAttribute { address, file: i, refs });
        };
        let local = |j: usize, name: &str| format!("local.c{j}_{name}");
        let group = i / GROUP_FILES;
        let mut text =
            format!("# Chain link {i}, generated by `cargo xtask gen-module --shape chains`.\n\nlocals {{\n");
        let _ = writeln!(text, "  c{i}_base = {i}");
        attr(local(i, "base"), Vec::new());
        if i % CHAIN_FILES == 0 {
            let _ = writeln!(text, "  c{i}_link = local.c{i}_base * 2");
            attr(local(i, "link"), vec![local(i, "base")]);
        } else {
            let _ = writeln!(text, "  c{i}_link = local.c{}_link + local.c{i}_base", i - 1);
            attr(local(i, "link"), vec![local(i - 1, "link"), local(i, "base")]);
        }
        let _ = writeln!(text, "  c{i}_name = \"link-${{local.c{i}_link}}\"");
        attr(local(i, "name"), vec![local(i, "link")]);
        let hub = format!("local.h{group}_value");
        let _ = writeln!(text, "  c{i}_hub  = \"${{{hub}}}-{i}\"");
        attr(local(i, "hub"), vec![hub.clone()]);
        if i % GROUP_FILES == 0 {
            let _ = writeln!(text, "  h{group}_value = \"hub-{group}\"");
            attr(hub.clone(), Vec::new());
        }
        let last = (i % GROUP_FILES == GROUP_FILES - 1) || i + 1 == files;
        if last {
            let members: Vec<usize> = (group * GROUP_FILES..=i).collect();
            let refs: Vec<String> = members.iter().map(|&j| local(j, "link")).collect();
            let _ = writeln!(text, "  g{group}_total = sum([{}])", refs.join(", "));
            attr(format!("local.g{group}_total"), refs);
        }
        text.push_str("}\n");
        let _ = write!(
            text,
            "\nconfig \"c{i}\" {{\n  name  = local.c{i}_name\n  hub   = local.c{i}_hub\n  parts = [local.c{i}_base, local.c{i}_link]\n}}\n"
        );
        attr(format!("config.c{i}.name"), vec![local(i, "name")]);
        attr(format!("config.c{i}.hub"), vec![local(i, "hub")]);
        attr(format!("config.c{i}.parts"), vec![local(i, "base"), local(i, "link")]);
        texts.push((file_name(i), text));
    }
    // The edited attribute: the base of a file in the middle of a chain,
    // three fifths of the way in.
    let m = files * 3 / 5;
    let address = format!("local.c{m}_base");
    let old = format!("c{m}_base = {m}");
    let new = format!("c{m}_base = {}", m + 1_000_000);
    let expected = dependents(&attributes, &address).into_iter().collect();
    let edit = GeneratedEdit { file: file_name(m), address, old, new, expected };
    GeneratedModule { files: texts, attributes, edit, whitespace_edit: whitespace_edit(m) }
}

/// An edit of one literal of file `i` of a module of `shape` (a file
/// number less than the module's files), and the attributes it must
/// re-evaluate: for the benchmark of edits across a module's files.
pub fn literal_edit(module: &GeneratedModule, shape: Shape, i: usize, round: usize) -> GeneratedEdit {
    let (address, old, new) = match shape {
        Shape::Layered => (
            format!("local.l{i}_name"),
            format!("l{i}_name   = \"svc-{i}\""),
            format!("l{i}_name   = \"svc-{i}-edit{round}\""),
        ),
        Shape::Chains => (
            format!("local.c{i}_base"),
            format!("c{i}_base = {i}"),
            format!("c{i}_base = {}", i + 1_000_000 * (round + 1)),
        ),
        // Two edits in three change a nested step's `run`; the third
        // changes the file's output directory, which reaches both targets,
        // their steps and the files that depend on the library.
        Shape::BuildTool if i % 3 != 1 => return build_tool_step_edit(module, i, round),
        Shape::BuildTool => (
            format!("local.b{i}_dir"),
            format!("b{i}_dir    = \"m{i}\""),
            format!("b{i}_dir    = \"m{i}-edit{round}\""),
        ),
    };
    let expected = dependents(&module.attributes, &address).into_iter().collect();
    GeneratedEdit { file: file_name(i), address, old, new, expected }
}

/// One file's text and attributes.
fn generate_file(i: usize, rng: &mut Rng) -> (String, Vec<GeneratedAttribute>) {
    let region = REGIONS[rng.below(REGIONS.len())];
    let replicas = 1 + rng.below(5);
    let (a, b, c) = (rng.lower_file(i), rng.lower_file(i), rng.lower_file(i));
    let step = i % 10 + 1;
    let tier = i % 3;
    let mut attrs = Vec::new();
    let mut attr = |address: String, refs: &[String]| {
        attrs.push(GeneratedAttribute { address, file: i, refs: refs.to_vec() });
    };
    let var = |name: &str| format!("var.v{i}_{name}");
    let local = |j: usize, name: &str| format!("local.l{j}_{name}");
    let service = |j: usize, name: &str| format!("service.s{j}.{name}");

    let mut text = String::new();
    let _ = writeln!(text, "# Service {i}, generated by `cargo xtask gen-module`.");
    let _ = write!(
        text,
        r#"
variable "v{i}_region" {{
  type    = string
  default = "{region}"
}}

variable "v{i}_replicas" {{
  type    = number
  default = {replicas}
}}
"#
    );
    attr(var("region"), &[]);
    attr(var("replicas"), &[]);

    // Layer 0: the file's own variables and locals only.
    let _ = write!(
        text,
        r#"
locals {{
  l{i}_name   = "svc-{i}"
  l{i}_prefix = "${{local.l{i}_name}}-${{var.v{i}_region}}"
  l{i}_size   = var.v{i}_replicas * 2 + {rem}
  l{i}_ports  = [for p in range(3) : 8000 + p * {step}]
  l{i}_tags   = merge({{ tier = "t{tier}", region = var.v{i}_region }}, {{ owner = upper(local.l{a}_name) }})
}}
"#,
        rem = i % 5,
    );
    attr(local(i, "name"), &[]);
    attr(local(i, "prefix"), &[local(i, "name"), var("region")]);
    attr(local(i, "size"), &[var("replicas")]);
    attr(local(i, "ports"), &[]);
    // Layer 1: another file's name.
    attr(local(i, "tags"), &[var("region"), local(a, "name")]);

    let _ = write!(
        text,
        r#"
service "s{i}" {{
  name     = format("%s-%s", local.l{i}_prefix, local.l{b}_prefix)
  replicas = local.l{i}_size > 4 ? local.l{i}_size : 4
  protocol = var.v{i}_region == "eu-west-1" ? "https" : "http"
  image    = "registry.example.com/${{lower(local.l{i}_name)}}:${{var.v{i}_replicas}}"
  ports    = [for p in local.l{i}_ports : p + local.l{c}_size]
  depends  = concat([service.s{a}.name], [service.s{b}.image])
  env      = {{ for k, v in local.l{i}_tags : upper(k) => "${{v}}-${{local.l{i}_name}}" }}
  endpoint = lookup({{ primary = service.s{c}.image }}, "primary", "none")
}}
"#
    );
    // Layer 1: other files' layer-0 attributes.
    attr(service(i, "name"), &[local(i, "prefix"), local(b, "prefix")]);
    attr(service(i, "replicas"), &[local(i, "size")]);
    attr(service(i, "protocol"), &[var("region")]);
    attr(service(i, "image"), &[local(i, "name"), var("replicas")]);
    attr(service(i, "ports"), &[local(i, "ports"), local(c, "size")]);
    // Layer 2: other files' layer-1 and layer-0 attributes.
    attr(service(i, "depends"), &[service(a, "name"), service(b, "image")]);
    attr(service(i, "env"), &[local(i, "tags"), local(i, "name")]);
    attr(service(i, "endpoint"), &[service(c, "image")]);

    let _ = write!(
        text,
        r#"
target "t{i}" "build" {{
  command = join(" ", ["make", service.s{i}.name, local.l{a}_name])
  after   = service.s{b}.depends
  workers = local.l{i}_size * 2 - 1
}}
"#
    );
    // Layer 3: nothing references it.
    let target = |name: &str| format!("target.t{i}.build.{name}");
    attr(target("command"), &[service(i, "name"), local(a, "name")]);
    attr(target("after"), &[service(b, "depends")]);
    attr(target("workers"), &[local(i, "size")]);
    (text, attrs)
}

/// The attribute at `address` and every attribute that transitively
/// references it, by a breadth-first walk of the reversed graph.
pub fn dependents(attributes: &[GeneratedAttribute], address: &str) -> BTreeSet<String> {
    let mut referrers: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for attribute in attributes {
        for target in &attribute.refs {
            referrers.entry(target.as_str()).or_default().push(attribute.address.as_str());
        }
    }
    let mut seen = BTreeSet::from([address.to_string()]);
    let mut queue = vec![address];
    while let Some(next) = queue.pop() {
        for &referrer in referrers.get(next).map(Vec::as_slice).unwrap_or_default() {
            if seen.insert(referrer.to_string()) {
                queue.push(referrer);
            }
        }
    }
    seen
}

impl GeneratedModule {
    /// The manifest as JSON: the files, every attribute with its references,
    /// and the two edits with the attributes each must re-evaluate.
    pub fn manifest_json(&self) -> String {
        let mut out = String::from("{\n");
        let _ = writeln!(out, "  \"files\": {},", self.files.len());
        out.push_str("  \"attributes\": [\n");
        for (n, attribute) in self.attributes.iter().enumerate() {
            let refs: Vec<String> = attribute.refs.iter().map(|r| json_string(r)).collect();
            let _ = write!(
                out,
                "    {{\"address\": {}, \"file\": {}, \"refs\": [{}]}}",
                json_string(&attribute.address),
                json_string(&self.files[attribute.file].0),
                refs.join(", ")
            );
            out.push_str(if n + 1 < self.attributes.len() { ",\n" } else { "\n" });
        }
        out.push_str("  ],\n");
        for (key, edit, last) in
            [("edit", &self.edit, false), ("whitespace_edit", &self.whitespace_edit, true)]
        {
            let expected: Vec<String> = edit.expected.iter().map(|r| json_string(r)).collect();
            let _ = writeln!(
                out,
                "  {}: {{\"file\": {}, \"address\": {}, \"old\": {}, \"new\": {}, \"expected_count\": {}, \"expected\": [{}]}}{}",
                json_string(key),
                json_string(&edit.file),
                json_string(&edit.address),
                json_string(&edit.old),
                json_string(&edit.new),
                edit.expected.len(),
                expected.join(", "),
                if last { "" } else { "," }
            );
        }
        out.push_str("}\n");
        out
    }

    /// Writes the files and `manifest.json` into `dir`, creating it.
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        for (name, text) in &self.files {
            std::fs::write(dir.join(name), text)?;
        }
        std::fs::write(dir.join("manifest.json"), self.manifest_json())
    }
}

/// A JSON string literal; the generator's strings are ASCII, but quotes,
/// backslashes and control characters are escaped anyway.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The command: parses its flags, generates, writes, and says what it wrote.
pub fn run(args: &[String]) -> Result<(), String> {
    const USAGE: &str =
        "usage: cargo xtask gen-module --files N --out DIR [--seed S] [--shape layered|chains|build-tool]";
    let mut files = None;
    let mut out = None;
    let mut seed = 1;
    let mut shape = Shape::Layered;
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} takes a value\n{USAGE}"))?;
        match flag.as_str() {
            "--files" => {
                files = Some(
                    value
                        .parse::<usize>()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or("--files takes a positive number")?,
                )
            }
            "--out" => out = Some(value.clone()),
            "--seed" => seed = value.parse().map_err(|_| "--seed takes a number".to_string())?,
            "--shape" => {
                shape = match value.as_str() {
                    "layered" => Shape::Layered,
                    "chains" => Shape::Chains,
                    "build-tool" => Shape::BuildTool,
                    _ => return Err(format!("--shape is layered, chains or build-tool\n{USAGE}")),
                }
            }
            _ => return Err(format!("unknown flag {flag}\n{USAGE}")),
        }
    }
    let (Some(files), Some(out)) = (files, out) else {
        return Err(USAGE.to_string());
    };
    let module = generate_shape(shape, files, seed);
    let dir = Path::new(&out);
    module.write(dir).map_err(|err| format!("writing {}: {err}", dir.display()))?;
    let bytes: usize = module.files.iter().map(|(_, text)| text.len()).sum();
    println!(
        "wrote {} files ({:.2} MB, {} attributes) and manifest.json to {}; editing {} in {} re-evaluates {} attributes",
        files,
        bytes as f64 / 1e6,
        module.attributes.len(),
        dir.display(),
        module.edit.address,
        module.edit.file,
        module.edit.expected.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    // No imports: the module benchmark includes this file and builds it
    // with `cfg(test)` but without the test functions, where they would be
    // unused.

    #[test]
    fn same_seed_same_module() {
        let one = super::generate(50, 7);
        let two = super::generate(50, 7);
        assert_eq!(one.files, two.files);
        assert_ne!(one.files, super::generate(50, 8).files);
    }

    #[test]
    fn references_point_to_lower_or_same_files() {
        let module = super::generate(200, 1);
        let file_of: std::collections::BTreeMap<&str, usize> =
            module.attributes.iter().map(|a| (a.address.as_str(), a.file)).collect();
        for attribute in &module.attributes {
            for target in &attribute.refs {
                let file = file_of.get(target.as_str()).copied();
                assert!(file.is_some_and(|f| f <= attribute.file), "{} -> {target}", attribute.address);
            }
        }
    }

    #[test]
    fn edits_apply_once() {
        let module = super::generate(100, 1);
        for edit in [&module.edit, &module.whitespace_edit] {
            let (_, text) =
                module.files.iter().find(|(name, _)| *name == edit.file).expect("the edited file");
            assert_eq!(text.matches(&edit.old).count(), 1, "{}", edit.old);
            assert_ne!(edit.apply(text), *text);
        }
        // The edited attribute, its own file's dependents, and more.
        assert!(module.edit.expected.len() > 5, "{:?}", module.edit.expected);
        assert!(module.edit.expected.contains(&module.edit.address));
    }

    #[test]
    fn build_tool_edits_reach_their_dependents() {
        let module = super::generate_shape(super::Shape::BuildTool, 60, 1);
        let text = |name: &str| &module.files.iter().find(|(n, _)| n == name).expect("the edited file").1;
        // A nested step's attribute: the test's step that reads it.
        let step = super::literal_edit(&module, super::Shape::BuildTool, 30, 0);
        assert_eq!(step.address, "target.m30.step.compile.run");
        assert_eq!(
            step.expected,
            ["target.m30.step.compile.run", r#"target["test.m30"].step.self-test.needs"#]
        );
        // A file's output directory: both targets, their steps, and other
        // files' libraries and tests.
        let dir = super::literal_edit(&module, super::Shape::BuildTool, 31, 0);
        assert!(
            dir.expected.contains(&r#"target["test.m31"].step.self-test.run"#.to_string()),
            "{:?}",
            dir.expected
        );
        assert!(dir.expected.iter().any(|it| !it.contains("m31")), "{:?}", dir.expected);
        for edit in [&step, &dir, &module.edit, &module.whitespace_edit] {
            assert_eq!(text(&edit.file).matches(&edit.old).count(), 1, "{}", edit.old);
        }
    }
}
