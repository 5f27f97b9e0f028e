//! The comparison rules of the evaluation conformance cases (the format of
//! `../shared/conformance/eval/README.md` and, for the current reference,
//! `../shared/conformance/hcl-v2.24/README.md`): every attribute of a
//! `NAME.hcl` is evaluated with the standard library (and the README's two
//! namespaced names), the variables of `NAME.vars.json` and the refined
//! unknown variables of `NAME.unknowns.json`, and compared with
//! `NAME.expected.json` (success or error, type, value with the README's
//! number rules, and for an unknown result what is known of it).
//!
//! Shared by this crate's conformance test (the vendored `test-data/eval`)
//! and `cargo xtask conformance` (the shared set), so that both judge a case
//! alike.

use std::collections::BTreeMap;
use std::path::Path;

use bigdecimal::BigDecimal;
use hir::{Body, ExprId, FileHir};
use serde_json::value::RawValue;

use crate::{Context, Type, Value};

/// Cases that differ from the reference because it computes with 512-bit
/// binary floats and Halite with exact decimals (the README's one deliberate
/// difference), keyed `NAME.PATH`. They are reported apart, never counted as
/// agreeing.
pub const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    (
        "cmp_equality.one_third_round_trip",
        "1 / 3 * 3 == 1: the reference's binary rounding gives exactly 1; 160 decimal digits of 1/3 times 3 is 0.999…9",
    ),
    (
        "format_verbs.g",
        "format(\"%5.1f\", -0.05): the reference rounds its binary -0.05000…0277 away to -0.1, the exact decimal half rounds to even, -0.0",
    ),
    (
        "tmpl_interpolation.number_fraction",
        "the string of 1/3 shows the reference's 157 binary-derived digits ending in 5, Halite's 160 decimal threes",
    ),
];

/// The reason a case is a listed known difference, if it is one.
pub fn known_difference(name: &str) -> Option<&'static str> {
    KNOWN_DIFFERENCES.iter().find(|(known, _)| *known == name).map(|(_, why)| *why)
}

/// One case of a case file and whether we agree with the reference on it.
#[derive(Debug)]
pub struct Case {
    /// `NAME.PATH`, or `NAME` alone for a file the reference does not parse.
    pub name: String,
    pub agrees: bool,
    /// Our result, for a report: a value with its type, an error, or
    /// `missing`.
    pub got: String,
    /// The reference's expectation as its JSON fields.
    pub want: String,
}

/// One unknown variable of `NAME.unknowns.json`: its type and refinements.
#[derive(serde::Deserialize)]
struct UnknownSpec {
    #[serde(rename = "type")]
    ty: Box<RawValue>,
    #[serde(default)]
    not_null: bool,
    #[serde(default)]
    prefix: String,
    #[serde(default)]
    length: Option<(u64, u64)>,
    #[serde(default)]
    number: Option<(Box<RawValue>, bool, Box<RawValue>, bool)>,
}

/// A number of the unknowns' and expectations' JSON: a number, or the
/// strings `"+Inf"` and `"-Inf"`.
fn json_number(raw: &RawValue) -> Option<value::Number> {
    match serde_json::from_str::<serde_json::Value>(raw.get()).ok()? {
        serde_json::Value::String(s) if s == "+Inf" => Some(value::Number::pos_inf()),
        serde_json::Value::String(s) if s == "-Inf" => Some(value::Number::neg_inf()),
        serde_json::Value::Number(_) => value::Number::parse(raw.get()),
        _ => None,
    }
}

/// The unknown variables of `NAME.unknowns.json`, refined as the
/// reference's `hcleval` refines them (the prefix by `StringPrefix`, which
/// drops what could combine with what follows).
pub fn read_unknowns(text: &str) -> Result<BTreeMap<String, Value>, String> {
    let specs: BTreeMap<String, UnknownSpec> = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut out = BTreeMap::new();
    for (name, spec) in specs {
        let ty = Type::from_json_str(spec.ty.get()).map_err(|e| format!("{name}: {e:?}"))?;
        let mut b = Value::unknown(ty).refine();
        if spec.not_null {
            b = b.not_null();
        }
        if !spec.prefix.is_empty() {
            b = b.string_prefix(&spec.prefix);
        }
        if let Some((lo, hi)) = spec.length {
            b = b.length_lower(lo).length_upper(hi);
        }
        if let Some((lo, lo_inc, hi, hi_inc)) = &spec.number {
            let (Some(lo), Some(hi)) = (json_number(lo), json_number(hi)) else {
                return Err(format!("{name}: bad number bounds"));
            };
            b = b.number_lower(lo, *lo_inc).number_upper(hi, *hi_inc);
        }
        out.insert(name, b.build());
    }
    Ok(out)
}

/// Whether an unknown result matches the reference's description of one
/// (`{"type", "partial", "not_null", "prefix", "length", "number"}`, each
/// field but the type absent when nothing is known).
fn unknown_agrees(v: &Value, want: &serde_json::Value) -> bool {
    let Some(want) = want.as_object() else { return false };
    let Some(ty) = want.get("type").and_then(|t| Type::from_json_str(&t.to_string()).ok()) else {
        return false;
    };
    if v.is_wholly_known() || v.ty() != ty {
        return false;
    }
    let flag = |name: &str| want.get(name).and_then(serde_json::Value::as_bool).unwrap_or(false);
    if v.is_known() {
        return flag("partial");
    }
    let range = v.range();
    let prefix = want.get("prefix").and_then(serde_json::Value::as_str).unwrap_or("");
    if flag("partial") || flag("not_null") != range.definitely_not_null() || prefix != range.string_prefix() {
        return false;
    }
    let length = if ty.is_collection()
        && (range.length_lower() != 0 || range.length_upper() != value::refine::MAX_LENGTH)
    {
        Some(serde_json::json!([range.length_lower(), range.length_upper()]))
    } else {
        None
    };
    if length.as_ref() != want.get("length") {
        return false;
    }
    let ours = match (ty == Type::Number, range.number_lower(), range.number_upper()) {
        (true, Some(lo), Some(hi)) if !(lo.value.is_infinite() && hi.value.is_infinite()) => {
            Some((lo.value, lo.inclusive, hi.value, hi.inclusive))
        }
        _ => None,
    };
    let theirs = want.get("number").and_then(|n| {
        let n = n.as_array()?;
        let bound = |i: usize| json_number(&serde_json::value::to_raw_value(n.get(i)?).ok()?);
        Some((bound(0)?, n.get(1)?.as_bool()?, bound(2)?, n.get(3)?.as_bool()?))
    });
    match (ours, theirs) {
        (None, None) => true,
        (Some((a, ai, b, bi)), Some((c, ci, d, di))) => {
            ai == ci && bi == di && numbers_agree(&a, &c) && numbers_agree(&b, &d)
        }
        _ => false,
    }
}

#[derive(serde::Deserialize)]
struct Expected {
    results: Vec<BTreeMap<String, Box<RawValue>>>,
    parse_error: Option<serde_json::Value>,
}

/// Every attribute of a file with its path (block types and labels joined
/// by `.`), in the README's order: a body's attributes, then its blocks.
pub fn attribute_paths(hir: &FileHir) -> Vec<(String, ExprId)> {
    fn collect(hir: &FileHir, body: &Body, prefix: &str, out: &mut Vec<(String, ExprId)>) {
        for &a in &body.attributes {
            let attr = &hir[a];
            out.push((format!("{prefix}{}", attr.name), attr.value));
        }
        for &b in &body.blocks {
            let block = &hir[b];
            let mut p = format!("{prefix}{}.", block.type_name);
            for l in &block.labels {
                p.push_str(l);
                p.push('.');
            }
            collect(hir, &block.body, &p, out);
        }
    }
    let mut out = Vec::new();
    collect(hir, &hir.body, "", &mut out);
    out
}

/// The README's number rule: equal, or within a relative 1e-15 of a
/// reference number of at most 17 digits (a float64's), else 1e-60.
pub fn numbers_agree(ours: &value::Number, want: &value::Number) -> bool {
    if ours == want {
        return true;
    }
    let (Some(a), Some(b)) = (ours.as_decimal(), want.as_decimal()) else {
        return false;
    };
    let diff = (a.clone() - b.clone()).abs();
    let scale = a.abs().max(b.abs());
    let digits = b.normalized().digits();
    let tol: BigDecimal =
        if digits <= 17 { "1e-15".parse().unwrap_or_default() } else { "1e-60".parse().unwrap_or_default() };
    diff < scale * tol
}

/// Value equality with [`numbers_agree`] for the numbers within.
pub fn values_agree(ours: &Value, want: &Value) -> bool {
    if ours.is_null() || want.is_null() {
        return ours.is_null() && want.is_null();
    }
    if let (Some(a), Some(b)) = (ours.as_number(), want.as_number()) {
        return numbers_agree(a, b);
    }
    if let (Some(a), Some(b)) = (ours.elements(), want.elements()) {
        return a.len() == b.len() && a.iter().zip(b).all(|(x, y)| values_agree(x, y));
    }
    if let (Some(a), Some(b)) = (ours.entries(), want.entries()) {
        return a.len() == b.len() && a.iter().zip(b).all(|((k, x), (l, y))| k == l && values_agree(x, y));
    }
    ours == want
}

/// Evaluates the case file `NAME.hcl` (beside its `NAME.expected.json` and
/// optional `NAME.vars.json`) and compares each result with the reference's.
/// Results are matched by position, as both lists are in the README's
/// order; a path can repeat (two blocks of one type without labels).
pub fn check_case_file(hcl: &Path) -> Result<Vec<Case>, String> {
    let read = |path: &Path| std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()));
    let stem = hcl.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
    let text = read(hcl)?;
    let expected_path = hcl.with_extension("expected.json");
    let expected: Expected = serde_json::from_str(&read(&expected_path)?)
        .map_err(|e| format!("{}: {e}", expected_path.display()))?;
    let parse = syntax::parse(&text);
    if expected.parse_error.is_some() {
        let agrees = !parse.errors().is_empty();
        let got = if agrees { "a parse error" } else { "no parse error" };
        return Ok(vec![Case { name: stem, agrees, got: got.into(), want: "parse_error".into() }]);
    }
    let mut ctx = Context::with_stdlib();
    // The namespaced names of the current reference's cases.
    for (alias, name) in [("provider::test::upper", "upper"), ("core::lower", "lower")] {
        if let Some(f) = ctx.functions.get(name).cloned() {
            ctx.functions.insert(alias.to_string(), f);
        }
    }
    let vars_path = hcl.with_extension("vars.json");
    if vars_path.is_file() {
        let vars = Value::from_json_implied(&read(&vars_path)?)
            .map_err(|e| format!("{}: {e:?}", vars_path.display()))?;
        for (k, v) in vars.entries().into_iter().flatten() {
            ctx.variables.insert(k.clone(), v.clone());
        }
    }
    // Unknown variables go last, as the reference's `hcleval` adds them.
    let unknowns_path = hcl.with_extension("unknowns.json");
    if unknowns_path.is_file() {
        ctx.variables.extend(
            read_unknowns(&read(&unknowns_path)?).map_err(|e| format!("{}: {e}", unknowns_path.display()))?,
        );
    }
    let (hir, _map) = hir::lower_file(&parse);
    let ours: Vec<(String, _)> =
        attribute_paths(&hir).into_iter().map(|(p, e)| (p, crate::eval_expr(&hir.exprs, e, &ctx))).collect();
    let mut cases = Vec::new();
    for (i, case) in expected.results.iter().enumerate() {
        let path: String =
            case.get("path").and_then(|p| serde_json::from_str(p.get()).ok()).unwrap_or_default();
        let got = ours.get(i).filter(|(p, _)| *p == path).map(|(_, r)| r);
        let unknown =
            case.get("unknown").and_then(|u| serde_json::from_str::<serde_json::Value>(u.get()).ok());
        let agrees = match (got, case.get("error"), case.get("type"), case.get("value")) {
            (Some(Err(_)), Some(_), _, _) => true,
            (Some(Ok(v)), None, _, _) if unknown.is_some() => {
                unknown.as_ref().is_some_and(|u| unknown_agrees(v, u))
            }
            (Some(Ok(v)), None, Some(ty), Some(val)) => match Type::from_json_str(ty.get()) {
                Ok(ty) => {
                    v.ty() == ty
                        && Value::from_json_str(val.get(), &ty).is_ok_and(|want| values_agree(v, &want))
                }
                Err(_) => false,
            },
            _ => false,
        };
        let got = match got {
            Some(Ok(v)) => format!("{v:?} : {}", v.ty()),
            Some(Err(e)) => format!("error {e}"),
            None => "missing".into(),
        };
        let want: Vec<String> = case.iter().map(|(k, v)| format!("{k}={}", v.get())).collect();
        cases.push(Case { name: format!("{stem}.{path}"), agrees, got, want: want.join(" ") });
    }
    Ok(cases)
}
