//! `halite dec`: decode HCL files with an `hcldec` spec file and print the
//! value as JSON, compatible with the reference `hcldec` command (its
//! flags, its output byte for byte, its `--diags=json` and `--var-refs`
//! formats and its exit codes), so that the official spec suite runs
//! against it.
//!
//! Exit codes are the reference's, not the rest of `halite`'s: 2 when there
//! are error diagnostics (or `--diags` names an unknown format), 1 for any
//! other failure (no `--spec`, a value that cannot be written as JSON, an
//! output file that cannot be opened).

use std::{
    collections::BTreeMap,
    io::{self, IsTerminal, Write},
    process::ExitCode,
    sync::Arc,
};

use camino::{Utf8Path, Utf8PathBuf};
use decode::{Body, Diagnostic, Diagnostics, Range, Severity, SourceFile, Traversal, TraversalStep};
use value::{Type, Value, json::Json, set::go_quoted as go_quote};

/// The arguments of `halite dec`, spelled as the reference's.
#[derive(Debug, clap::Args)]
pub(crate) struct DecArgs {
    /// The spec file (required).
    #[arg(short = 's', long, value_name = "SPEC")]
    spec: Option<Utf8PathBuf>,
    /// Variables for the input files: a JSON object, or the path of a file
    /// of attributes (JSON syntax if its name ends in `.json`, native HCL
    /// otherwise). Repeatable; later ones win.
    #[arg(short = 'V', long = "vars", value_name = "JSON-OR-FILE")]
    vars: Vec<String>,
    /// Print diagnostics in this format; only `json` is accepted.
    #[arg(long, value_name = "FORMAT")]
    diags: Option<String>,
    /// Print the variables the input references, as JSON, instead of its
    /// value.
    #[arg(long)]
    var_refs: bool,
    /// Wrap the value as `{"value": …, "type": …}`, with its cty type.
    #[arg(long)]
    with_type: bool,
    /// Keep object properties whose value is null (they are removed by
    /// default).
    #[arg(long)]
    keep_nulls: bool,
    /// Write to this file instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    out: Option<Utf8PathBuf>,
    /// Print the version and exit.
    #[arg(short = 'v', long)]
    version: bool,
    /// The input files, read as one body; standard input when there are
    /// none. A name ending in `.json` is read as HCL's JSON syntax.
    files: Vec<Utf8PathBuf>,
}

/// How diagnostics are written: the reference's text, or its JSON document.
enum DiagsFormat {
    Text { color: bool },
    Json,
}

/// Everything loaded so far, by file name, for rendering source lines.
#[derive(Default)]
struct Loaded {
    files: BTreeMap<String, Arc<SourceFile>>,
}

/// A reason to stop that is not a diagnostic: "Error: …" and exit 1.
struct Failure(String);

pub(crate) fn run(args: DecArgs) -> ExitCode {
    if args.version {
        println!("{}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    let format = match args.diags.as_deref() {
        None | Some("") => {
            DiagsFormat::Text { color: io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() }
        }
        Some("json") => DiagsFormat::Json,
        Some(other) => {
            eprintln!("Invalid diagnostics format {}: only \"json\" is supported.", go_quote(other));
            return ExitCode::from(2);
        }
    };
    let mut loaded = Loaded::default();
    match decode_files(&args, &mut loaded) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(diags)) => {
            let text = match format {
                DiagsFormat::Json => diagnostics_json(&diags),
                DiagsFormat::Text { color } => diagnostics_text(&diags, &loaded, color),
            };
            let _ = io::stderr().lock().write_all(text.as_bytes());
            ExitCode::from(2)
        }
        Err(Failure(message)) => {
            eprint!("Error: {message}\n\n");
            ExitCode::from(1)
        }
    }
}

/// Decodes as `args` say and writes the result; the inner error is the
/// diagnostics to report when any is an error.
fn decode_files(args: &DecArgs, loaded: &mut Loaded) -> Result<Result<(), Diagnostics>, Failure> {
    let Some(spec_path) = &args.spec else {
        return Err(Failure("the --spec=... argument is required".into()));
    };
    let mut diags = Diagnostics::new();

    let spec_file = match read_source(spec_path.as_str(), false, loaded) {
        Ok(file) => file,
        Err(diag) => return Ok(Err(vec![*diag])),
    };
    let (spec, spec_diags) = hcldec::load_spec_file(&spec_file);
    diags.extend(spec_diags);
    if decode::diagnostic::has_errors(&diags) {
        return Ok(Err(diags));
    }

    let mut ctx = eval::Context::new();
    ctx.variables = spec.variables.clone();
    ctx.functions = spec.functions.clone();
    for (index, vars) in args.vars.iter().enumerate() {
        let (values, vars_diags) = read_vars(vars, index, loaded);
        diags.extend(vars_diags);
        ctx.variables.extend(values);
    }
    // Without variables (or functions) a reference is "not allowed" rather
    // than unknown, as the reference's nil maps make it.
    ctx.variables_allowed = !ctx.variables.is_empty();
    ctx.functions_allowed = !ctx.functions.is_empty();

    let mut bodies = Vec::new();
    if args.files.is_empty() {
        let limit = crate::limits().max_file_size;
        let bytes = match vfs::read_stream(io::stdin().lock(), limit) {
            Ok(bytes) => bytes,
            Err(err) => return Err(Failure(format!("failed to read stdin: {err}"))),
        };
        let file = parse_source("<stdin>", &bytes, false, loaded);
        let file_diags = file.syntax_diagnostics();
        let failed = decode::diagnostic::has_errors(&file_diags);
        diags.extend(file_diags);
        if !failed {
            bodies.push(file.body());
        }
    } else {
        for path in &args.files {
            let file = match read_source(
                path.as_str(),
                vfs::SourceSyntax::of_path(path) == vfs::SourceSyntax::Json,
                loaded,
            ) {
                Ok(file) => file,
                Err(diag) => {
                    diags.push(*diag);
                    continue;
                }
            };
            let file_diags = file.syntax_diagnostics();
            let failed = decode::diagnostic::has_errors(&file_diags);
            diags.extend(file_diags);
            if !failed {
                bodies.push(file.body());
            }
        }
    }
    if decode::diagnostic::has_errors(&diags) {
        return Ok(Err(diags));
    }
    let body = match bodies.len() {
        0 => Body::empty(),
        1 => bodies.remove(0),
        _ => Body::merge(bodies),
    };

    if args.var_refs {
        let traversals = hcldec::variables(&body, &spec.root);
        let mut out = var_refs_json(&traversals, &ctx);
        out.push('\n');
        return write_output(args, &out).map(Ok);
    }

    let (value, decode_diags) = hcldec::decode(&body, &spec.root, &ctx);
    diags.extend(decode_diags);
    // Warnings alone are not printed, as the reference does not print them.
    if decode::diagnostic::has_errors(&diags) {
        return Ok(Err(diags));
    }
    let ty = if args.with_type { Type::Dynamic } else { value.ty() };
    let json = value.to_json_string(&ty).map_err(|err| Failure(err.0))?;
    let mut out = if args.keep_nulls {
        json
    } else {
        // The reference strips null properties by reading its output back
        // into Go maps and writing it again, which also sorts every
        // object's keys.
        let doc = value::json::parse(&json).map_err(|err| Failure(err.0))?;
        let mut out = String::new();
        write_compact(&strip_nulls(doc), &mut out);
        out
    };
    out.push('\n');
    write_output(args, &out).map(Ok)
}

fn write_output(args: &DecArgs, text: &str) -> Result<(), Failure> {
    match &args.out {
        Some(path) => std::fs::write(path, text).map_err(|err| {
            Failure(format!("can't open {path} for writing: open {path}: {}", os_error_text(&err)))
        }),
        None => {
            let mut stdout = io::stdout().lock();
            stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
                .map_err(|err| Failure(err.to_string()))
        }
    }
}

/// An I/O error as Go's `syscall.Errno` prints it: the C library's text,
/// lower-cased at the start, without Rust's "(os error N)".
fn os_error_text(err: &io::Error) -> String {
    let text = err.to_string();
    let text = match text.rfind(" (os error ") {
        Some(at) => &text[..at],
        None => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Reads and parses a file, or the reference's diagnostic when it cannot
/// be read.
fn read_source(path: &str, json: bool, loaded: &mut Loaded) -> Result<Arc<SourceFile>, Box<Diagnostic>> {
    // Only a regular file, no larger than the limit: a FIFO would block
    // and a device never end (see `vfs::read_file`).
    match vfs::read_file(Utf8Path::new(path), crate::limits().max_file_size) {
        Ok(read) => Ok(parse_source(path, &read.bytes, json, loaded)),
        Err(_) if json => Err(Box::new(Diagnostic::error(
            "Failed to open file",
            format!("The file {} could not be opened.", go_quote(path)),
            None,
        ))),
        Err(_) => Err(Box::new(Diagnostic::error(
            "Failed to read file",
            format!("The configuration file {} could not be read.", go_quote(path)),
            None,
        ))),
    }
}

fn parse_source(name: &str, bytes: &[u8], json: bool, loaded: &mut Loaded) -> Arc<SourceFile> {
    // Bytes that are not UTF-8 become replacement characters, which the
    // parser then reports where they stand.
    let text: Arc<str> = String::from_utf8_lossy(bytes).into();
    let file = if json { SourceFile::json(name, text) } else { SourceFile::native(name, text) };
    loaded.files.insert(name.to_string(), file.clone());
    file
}

/// One `--vars` argument: a JSON object given inline (it starts with `{`),
/// or a file of attributes.
fn read_vars(arg: &str, index: usize, loaded: &mut Loaded) -> (BTreeMap<String, Value>, Diagnostics) {
    let file = if arg.trim_start().starts_with('{') {
        parse_source(&format!("<vars argument {index}>"), arg.as_bytes(), true, loaded)
    } else {
        match read_source(
            arg,
            vfs::SourceSyntax::of_path(Utf8Path::new(arg)) == vfs::SourceSyntax::Json,
            loaded,
        ) {
            Ok(file) => file,
            Err(diag) => return (BTreeMap::new(), vec![*diag]),
        }
    };
    let mut diags = file.syntax_diagnostics();
    let (attrs, more) = file.body().just_attributes();
    diags.extend(more);
    let mut values = BTreeMap::new();
    for attr in attrs {
        let (value, more) = attr.expr.value(&eval::Context::none());
        diags.extend(more);
        values.insert(attr.name.to_string(), value);
    }
    (values, diags)
}

/// Removes null object properties, recursively, and sorts object keys (a
/// repeated key keeps its last value), as a round trip through Go maps does.
fn strip_nulls(doc: Json) -> Json {
    match doc {
        Json::Object(members) => {
            let mut sorted: BTreeMap<String, Json> = BTreeMap::new();
            for (key, value) in members {
                sorted.insert(key, value);
            }
            Json::Object(
                sorted
                    .into_iter()
                    .filter(|(_, value)| *value != Json::Null)
                    .map(|(k, v)| (k, strip_nulls(v)))
                    .collect(),
            )
        }
        Json::Array(elems) => Json::Array(elems.into_iter().map(strip_nulls).collect()),
        other => other,
    }
}

/// JSON without whitespace, strings escaped as Go's `encoding/json` escapes
/// them, numbers as their text.
fn write_compact(doc: &Json, out: &mut String) {
    match doc {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(text) => out.push_str(text),
        Json::String(s) => value::json::write_string(out, s),
        Json::Array(elems) => {
            out.push('[');
            for (i, elem) in elems.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(elem, out);
            }
            out.push(']');
        }
        Json::Object(members) => {
            out.push('{');
            for (i, (key, value)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                value::json::write_string(out, key);
                out.push(':');
                write_compact(value, out);
            }
            out.push('}');
        }
    }
}

/// JSON indented as Go's `json.MarshalIndent(v, "", "  ")` indents it: one
/// member per line, `": "` after keys, empty arrays and objects kept as
/// `[]` and `{}`.
fn write_indented(doc: &Json, depth: usize, out: &mut String) {
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    match doc {
        Json::Array(elems) if !elems.is_empty() => {
            out.push('[');
            for (i, elem) in elems.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_indented(elem, depth + 1, out);
            }
            newline(out, depth);
            out.push(']');
        }
        Json::Object(members) if !members.is_empty() => {
            out.push('{');
            for (i, (key, value)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                value::json::write_string(out, key);
                out.push_str(": ");
                write_indented(value, depth + 1, out);
            }
            newline(out, depth);
            out.push('}');
        }
        other => write_compact(other, out),
    }
}

fn object(members: Vec<(&str, Json)>) -> Json {
    Json::Object(members.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn number(n: u32) -> Json {
    Json::Number(n.to_string())
}

fn range_json(range: &Range) -> Json {
    let pos = |pos: &decode::Pos| {
        object(vec![("line", number(pos.line)), ("column", number(pos.column)), ("byte", number(pos.byte))])
    };
    object(vec![
        ("filename", Json::String(range.filename.to_string())),
        ("start", pos(&range.start)),
        ("end", pos(&range.end)),
    ])
}

/// `--diags=json`: `{"diagnostics": [{severity, summary, detail?, subject?}]}`,
/// indented, then a newline.
fn diagnostics_json(diags: &[Diagnostic]) -> String {
    if diags.is_empty() {
        return String::new();
    }
    let entries = diags
        .iter()
        .map(|diag| {
            let severity = match diag.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let mut members = vec![
                ("severity", Json::String(severity.into())),
                ("summary", Json::String(diag.summary.clone())),
            ];
            if !diag.detail.is_empty() {
                members.push(("detail", Json::String(diag.detail.clone())));
            }
            if let Some(subject) = &diag.subject {
                members.push(("subject", range_json(subject)));
            }
            object(members)
        })
        .collect();
    let mut out = String::new();
    write_indented(&object(vec![("diagnostics", Json::Array(entries))]), 0, &mut out);
    out.push('\n');
    out
}

/// `--var-refs`: each traversal's root name, current value if the context
/// gives one, steps and range, indented.
fn var_refs_json(traversals: &[Traversal], ctx: &eval::Context) -> String {
    let entries = traversals
        .iter()
        .map(|traversal| {
            let mut steps = Vec::new();
            for step in &traversal.steps {
                let (kind, name, key, range) = match step {
                    TraversalStep::Root { name, range } => ("root", Some(name), None, range),
                    TraversalStep::Attr { name, range } => ("attr", Some(name), None, range),
                    TraversalStep::Index { key, range } => ("index", None, Some(key), range),
                    // The reference's form has no dynamic steps; a
                    // traversal in it ends before one.
                    TraversalStep::DynamicIndex { .. } => break,
                };
                let mut members = vec![("kind", Json::String(kind.into()))];
                if let Some(name) = name.filter(|name| !name.is_empty()) {
                    members.push(("name", Json::String(name.to_string())));
                }
                if let Some(key) = key.and_then(|key| key.to_json_string(&key.ty()).ok())
                    && let Ok(key) = value::json::parse(&key)
                {
                    members.push(("key", key));
                }
                members.push(("range", range_json(range)));
                steps.push(object(members));
            }
            let mut members = vec![("root_name", Json::String(traversal.root_name().to_string()))];
            if let Some(value) = traversal_value(traversal, ctx)
                && let Ok(json) = value.to_json_string(&value.ty())
                && let Ok(json) = value::json::parse(&json)
            {
                members.push(("value", json));
            }
            members.push(("steps", Json::Array(steps)));
            members.push(("range", range_json(&traversal.range())));
            object(members)
        })
        .collect();
    let mut out = String::new();
    write_indented(&Json::Array(entries), 0, &mut out);
    out
}

/// The traversal's value in `ctx` (`hcl.Traversal.TraverseAbs`), or `None`
/// where that would be an error.
fn traversal_value(traversal: &Traversal, ctx: &eval::Context) -> Option<Value> {
    if !ctx.variables_allowed {
        return None;
    }
    let mut steps = traversal.steps.iter();
    let Some(TraversalStep::Root { name, .. }) = steps.next() else { return None };
    let mut current = ctx.variables.get(name.as_str())?.clone();
    for step in steps {
        current = match step {
            TraversalStep::Attr { name, .. } => get_attr(&current, name)?,
            TraversalStep::Index { key, .. } => index(&current, key)?,
            _ => return None,
        };
    }
    Some(current)
}

fn get_attr(value: &Value, name: &str) -> Option<Value> {
    let ty = value.ty();
    if value.is_null() {
        return None;
    }
    if ty.is_dynamic() {
        return Some(Value::dynamic());
    }
    if ty.is_object() {
        let attr_ty = ty.attribute_type(name)?.clone();
        if !value.is_known() {
            return Some(Value::unknown(attr_ty));
        }
        return value.entries()?.get(name).cloned();
    }
    if ty.is_map() {
        return index(value, &Value::string(name));
    }
    None
}

fn index(value: &Value, key: &Value) -> Option<Value> {
    let ty = value.ty();
    if value.is_null() || key.is_null() {
        return None;
    }
    if ty.is_dynamic() {
        return Some(Value::dynamic());
    }
    if ty.is_map() || ty.is_object() {
        let key = value::convert(key, &Type::String).ok()?;
        let key = key.as_str()?;
        if !value.is_known() {
            let ety = ty.element_type().or_else(|| ty.attribute_type(key))?.clone();
            return Some(Value::unknown(ety));
        }
        return value.entries()?.get(key).cloned();
    }
    if ty.is_list() || ty.is_tuple() {
        let key = value::convert(key, &Type::Number).ok()?;
        let index = key.as_number().filter(|n| n.is_integer())?.to_i64()?;
        let index = usize::try_from(index).ok()?;
        if !value.is_known() {
            let ety = match ty.tuple_element_types() {
                Some(types) => types.get(index)?.clone(),
                None => ty.element_type()?.clone(),
            };
            return Some(Value::unknown(ety));
        }
        return value.elements()?.get(index).cloned();
    }
    None
}

/// Diagnostics as the reference's text writer writes them: the severity and
/// summary, the file and line, the source lines of the subject (and its
/// context), then the detail wrapped at 80 columns.
fn diagnostics_text(diags: &[Diagnostic], loaded: &Loaded, color: bool) -> String {
    let mut out = String::new();
    for diag in diags {
        let (color_code, highlight, reset) = match (color, diag.severity) {
            (false, _) => ("", "", ""),
            (true, Severity::Error) => ("\x1b[31m", "\x1b[1;4m", "\x1b[0m"),
            (true, Severity::Warning) => ("\x1b[33m", "\x1b[1;4m", "\x1b[0m"),
        };
        let severity = match diag.severity {
            Severity::Error => "Error",
            Severity::Warning => "Warning",
        };
        out.push_str(&format!("{color_code}{severity}{reset}: {}\n\n", diag.summary));
        if let Some(subject) = &diag.subject {
            match loaded.files.get(&*subject.filename) {
                None => out.push_str(&format!(
                    "  on {} line {}:\n  (source code not available)\n\n",
                    subject.filename, subject.start.line
                )),
                Some(file) => {
                    let text = &file.text;
                    let context = match context_string(file, subject.start.byte) {
                        Some(context) => format!(", in {context}"),
                        None => String::new(),
                    };
                    out.push_str(&format!(
                        "  on {} line {}{context}:\n",
                        subject.filename, subject.start.line
                    ));
                    let mut snippet = (subject.start.byte as usize, subject.end.byte as usize);
                    if let Some(context) = &diag.context {
                        snippet = (
                            snippet.0.min(context.start.byte as usize),
                            snippet.1.max(context.end.byte as usize),
                        );
                    }
                    // An empty range is shown as the character after it.
                    let widen = |(start, end): (usize, usize)| {
                        if start == end { (start, end + 1) } else { (start, end) }
                    };
                    let snippet = widen(snippet);
                    let highlighted = widen((subject.start.byte as usize, subject.end.byte as usize));
                    let mut line_start = 0;
                    for (number, line) in text.split_inclusive('\n').enumerate() {
                        let content = line.strip_suffix('\n').unwrap_or(line);
                        let content = content.strip_suffix('\r').unwrap_or(content);
                        let line_range = (line_start, line_start + content.len());
                        if overlaps(line_range, snippet) {
                            let marked = overlap(line_range, highlighted);
                            if marked.0 < marked.1 {
                                let (before, rest) =
                                    content.split_at(floor_char(content, marked.0 - line_start));
                                let (marked, after) = rest.split_at(floor_char(rest, marked.1 - marked.0));
                                out.push_str(&format!(
                                    "{:4}: {before}{highlight}{marked}{reset}{after}\n",
                                    number + 1
                                ));
                            } else {
                                out.push_str(&format!("{:4}: {content}\n", number + 1));
                            }
                        }
                        line_start += line.len();
                    }
                    out.push('\n');
                }
            }
        }
        if !diag.detail.is_empty() {
            out.push_str(&word_wrap(&diag.detail, 80));
            out.push_str("\n\n");
        }
    }
    out
}

/// What the reference's text writer names as the place of `offset`: in a
/// native file the header of the top-level block containing it (the type,
/// then each label quoted), in a JSON file the path of the objects and
/// arrays containing it (`a.b[0]`).
fn context_string(file: &SourceFile, offset: u32) -> Option<String> {
    let offset = syntax::TextSize::from(offset);
    let contains = |range: syntax::TextRange| range.start() <= offset && offset < range.end();
    match &file.syntax {
        decode::source::FileSyntax::Native { hir, source_map, .. } => {
            hir.body.blocks.iter().find_map(|&id| {
                if !contains(source_map.block_syntax(id)?.text_range()) {
                    return None;
                }
                let block = &hir.blocks[id];
                Some(block.labels.iter().fold(block.type_name.to_string(), |header, label| {
                    format!("{header} {}", go_quote(label))
                }))
            })
        }
        decode::source::FileSyntax::Json { parse } => {
            use syntax::ast::{AstNode as _, JsonValue};
            let is_container =
                |value: &JsonValue| matches!(value, JsonValue::JsonObject(_) | JsonValue::JsonArray(_));
            let mut path = String::new();
            let mut current = parse.tree().value()?;
            loop {
                let next = match &current {
                    JsonValue::JsonObject(object) => object.members().find_map(|member| {
                        let value = member.value()?;
                        (is_container(&value) && contains(value.syntax().text_range())).then(|| {
                            let name = member.name().and_then(|name| name.value()).unwrap_or_default();
                            (format!(".{name}"), value)
                        })
                    }),
                    JsonValue::JsonArray(array) => array.values().enumerate().find_map(|(i, value)| {
                        (is_container(&value) && contains(value.syntax().text_range()))
                            .then(|| (format!("[{i}]"), value))
                    }),
                    _ => None,
                };
                let Some((step, value)) = next else { break };
                path.push_str(&step);
                current = value;
            }
            let path = path.strip_prefix('.').unwrap_or(&path);
            (!path.is_empty()).then(|| path.to_string())
        }
        _ => None,
    }
}

/// `hcl.Range.Overlaps` over byte ranges: empty ranges overlap nothing, and
/// an end counts as inside the other range, as the reference's check has it.
fn overlaps(a: (usize, usize), b: (usize, usize)) -> bool {
    let contains = |r: (usize, usize), offset: usize| r.0 <= offset && offset < r.1;
    a.0 < a.1 && b.0 < b.1 && (contains(a, b.0) || contains(a, b.1) || contains(b, a.0) || contains(b, a.1))
}

/// `hcl.Range.Overlap`: the part of both, empty at `a`'s start if none.
fn overlap(a: (usize, usize), b: (usize, usize)) -> (usize, usize) {
    if !overlaps(a, b) {
        return (a.0, a.0);
    }
    (a.0.max(b.0), a.1.min(b.1))
}

/// The largest char boundary of `s` at or before `at`.
fn floor_char(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// `wordwrap.WrapString`: breaks lines at white space so that they fit in
/// `limit` characters where words allow.
fn word_wrap(s: &str, limit: usize) -> String {
    let mut out = String::new();
    let mut current = 0;
    let (mut word, mut space) = (String::new(), String::new());
    let (mut word_len, mut space_len) = (0, 0);
    for c in s.chars() {
        if c == '\n' {
            if word.is_empty() {
                if current + space_len <= limit {
                    out.push_str(&space);
                }
            } else {
                out.push_str(&space);
                out.push_str(&word);
                word.clear();
                word_len = 0;
            }
            space.clear();
            space_len = 0;
            out.push(c);
            current = 0;
        } else if c.is_whitespace() && c != '\u{a0}' {
            if space.is_empty() || !word.is_empty() {
                current += space_len + word_len;
                out.push_str(&space);
                out.push_str(&word);
                space.clear();
                space_len = 0;
                word.clear();
                word_len = 0;
            }
            space.push(c);
            space_len += 1;
        } else {
            word.push(c);
            word_len += 1;
            if current + word_len + space_len > limit && word_len < limit {
                out.push('\n');
                current = 0;
                space.clear();
                space_len = 0;
            }
        }
    }
    if word.is_empty() {
        if current + space_len <= limit {
            out.push_str(&space);
        }
    } else {
        out.push_str(&space);
        out.push_str(&word);
    }
    out
}
