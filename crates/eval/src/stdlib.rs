//! go-cty's standard library, under the names the conformance README lists,
//! and HCL's `try` and `can`. Each function follows its go-cty counterpart's
//! parameters (types, null and unknown handling) and behaviour.

use std::collections::BTreeMap;
use std::sync::Arc;

use bigdecimal::num_bigint::{BigInt, BigUint, Sign};
use bigdecimal::{BigDecimal, RoundingMode};
use unicode_segmentation::UnicodeSegmentation;
use value::{Number, Size, Type, Value};

use crate::expr::make_list;
use crate::{Function, FunctionError, Param};

type R = Result<Value, FunctionError>;

fn err<T>(msg: impl Into<String>) -> Result<T, FunctionError> {
    Err(FunctionError::new(msg))
}

/// Refuses to build a result of `size` past the limits of the evaluation
/// that called (a function that could build far more than it is given
/// asks before it builds; the evaluator checks every result after).
fn within_limits(size: Size) -> Result<(), FunctionError> {
    crate::limits::current().check_size(size).map_err(FunctionError::exceeded)
}

/// [`within_limits`] for a string of `bytes`.
fn text_within_limits(bytes: usize) -> Result<(), FunctionError> {
    within_limits(Size::scalar(bytes as u64))
}

/// The total size of values, as one collection of them.
fn total_size<'v>(values: impl IntoIterator<Item = &'v Value>) -> Size {
    values.into_iter().fold(Size::scalar(0), |total, v| total.plus(v.size()))
}

fn p(name: &str, ty: Type) -> Param {
    Param::new(name, ty)
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

fn num(v: &Value) -> Number {
    v.as_number().cloned().unwrap_or_else(Number::zero)
}

fn str_fn(f: fn(&str) -> String) -> Function {
    Function::simple(vec![p("str", Type::String)], None, Type::String, move |a, _| {
        Ok(Value::string(&f(s(&a[0]))))
    })
}

/// A string function whose argument may be of no type yet (go-cty's
/// `upper`, `lower` and `strrev`): the result is then an unknown string
/// rather than an unknown of no type.
fn str_fn_dynamic(f: fn(&str) -> String) -> Function {
    Function::simple(vec![p("str", Type::String).allow_dynamic()], None, Type::String, move |a, _| {
        Ok(Value::string(&f(s(&a[0]))))
    })
}

/// A Go `int` from a number argument, as `gocty.FromCtyValue` does: whole
/// numbers only.
fn int_arg(v: &Value) -> Result<i64, FunctionError> {
    let n = num(v);
    if !n.is_integer() {
        return err("value must be a whole number");
    }
    n.to_i64().map_or_else(|| err("value must be a whole number in range"), Ok)
}

fn go_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{85}' | '\u{a0}')
        || (c > '\u{ff}' && c.is_whitespace())
}

/// Go's `unicode.ToUpper`: the simple (one character) case mapping, so
/// `ß` stays `ß` where Rust's full mapping gives `SS`.
fn go_upper(c: char) -> char {
    let mut it = c.to_uppercase();
    match (it.next(), it.next()) {
        (Some(u), None) => u,
        _ => c,
    }
}

/// Go's `unicode.ToTitle`: the upper-case mapping but for the four
/// digraphs with a title case of their own.
fn go_title(c: char) -> char {
    match c {
        '\u{1c4}'..='\u{1c6}' => '\u{1c5}',
        '\u{1c7}'..='\u{1c9}' => '\u{1c8}',
        '\u{1ca}'..='\u{1cc}' => '\u{1cb}',
        '\u{1f1}'..='\u{1f3}' => '\u{1f2}',
        _ => go_upper(c),
    }
}

/// Go's `unicode.ToLower`, the simple mapping (`İ` becomes `i`).
fn go_lower(c: char) -> char {
    if c == '\u{130}' {
        return 'i';
    }
    let mut it = c.to_lowercase();
    match (it.next(), it.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

fn round(v: &Value, mode: RoundingMode) -> R {
    let n = num(v);
    match n.as_decimal() {
        Some(d) => Ok(Value::number(Number::from_decimal(d.with_scale_round(0, mode)))),
        None => Ok(Value::number(n)),
    }
}

fn list_of_strings(items: Vec<String>) -> Value {
    let vals: Vec<Value> = items.iter().map(|x| Value::string(x)).collect();
    Value::list(Type::String, vals).unwrap_or_else(|_| Value::empty_tuple())
}

/// Go's `strings.Title`: the first letter of each word upper-cased, a word
/// starting after a separator (anything but a letter, digit, `_` or mark).
fn title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev_sep = true;
    for c in s.chars() {
        if prev_sep {
            out.push(go_title(c));
        } else {
            out.push(c);
        }
        prev_sep = if c.is_ascii() {
            !(c.is_ascii_alphanumeric() || c == '_')
        } else if c.is_alphanumeric() {
            false
        } else {
            c.is_whitespace()
        };
    }
    out
}

fn substr(a: &[Value]) -> R {
    let text = s(&a[0]);
    let mut offset = int_arg(&a[1])?;
    let length = int_arg(&a[2])?;
    let g: Vec<&str> = text.graphemes(true).collect();
    if offset < 0 {
        offset += g.len() as i64;
        if offset < 0 {
            offset = 0;
        }
    } else if length == 0 {
        return Ok(Value::string(""));
    }
    let start = (offset as usize).min(g.len());
    let rest = &g[start..];
    let take = if length < 0 { rest.len() } else { (length as usize).min(rest.len()) };
    Ok(Value::string(&rest[..take].concat()))
}

fn seq_elems(v: &Value) -> Vec<Value> {
    v.elements().map(<[Value]>::to_vec).unwrap_or_default()
}

fn length_fn() -> Function {
    Function::new(
        vec![p("collection", Type::Dynamic).allow_dynamic().allow_unknown()],
        None,
        Arc::new(|a| match a[0].ty() {
            Type::List(_) | Type::Set(_) | Type::Map(_) | Type::Tuple(_) | Type::Dynamic => Ok(Type::Number),
            _ => Err(FunctionError::arg(0, "collection must be a list, a map or a tuple")),
        }),
        // go-cty's `Value.Length`: an unknown collection's length is an
        // unknown number in the range its refinements allow.
        Arc::new(|a, _| Ok(a[0].length_value())),
    )
}

fn to_fn(want: Type) -> Function {
    let w1 = want.clone();
    Function::new(
        // Of no type yet is allowed too (go-cty v1.14.4 and later), so that
        // a null of no type converts to a null of the type asked for. A
        // known value with unknowns inside is converted, as go-cty does
        // (`toset(["a", var.x])` is a known set); an unknown one is not.
        vec![p("v", Type::Dynamic).allow_null().allow_dynamic().allow_unknown()],
        None,
        Arc::new(move |a| {
            let have = a[0].ty();
            // go-cty's type for an unknown is the one asked for, with its
            // dynamic parts; a known value (whose elements may be unknown)
            // is converted.
            if !have.is_dynamic() && have != w1 && !a[0].is_known() {
                return match value::get_conversion(&have, &w1, true) {
                    Some(_) => Ok(w1.clone()),
                    None if have.has_dynamic_types() => Ok(w1.clone()),
                    None => Err(to_type_error(&have, &w1)),
                };
            }
            if have.is_dynamic() || have == w1 {
                return Ok(if have.is_dynamic() { w1.clone() } else { have });
            }
            match value::get_conversion(&have, &w1, true) {
                Some(_) => match value::convert(&a[0], &w1) {
                    Ok(v) => Ok(v.ty()),
                    Err(_) if !a[0].is_wholly_known() => Ok(w1.clone()),
                    Err(_) => Err(to_value_error(&a[0], &w1)),
                },
                // Parts of no type yet may convert once they have one (see
                // the call's own conversion of arguments).
                None if have.has_dynamic_types() && !a[0].is_wholly_known() => Ok(w1.clone()),
                None => Err(to_type_error(&have, &w1)),
            }
        }),
        Arc::new(move |a, ret| {
            if !a[0].is_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let target =
                if want.has_dynamic_types() || ret.is_dynamic() { ret.clone() } else { want.clone() };
            match value::convert(&a[0], &target) {
                Ok(v) => Ok(v),
                // Unknowns inside that conversion cannot place yet (parts
                // of no type) leave the whole unknown.
                Err(_) if !a[0].is_wholly_known() => Ok(Value::unknown(ret.clone())),
                Err(_) => Err(to_value_error(&a[0], &want)),
            }
        }),
    )
}

/// A `to…` function's error for a type that cannot convert, in go-cty's
/// words for an explicit conversion.
fn to_type_error(have: &Type, want: &Type) -> FunctionError {
    let message = match (have, want) {
        (Type::Tuple(_), Type::Tuple(_)) => {
            format!(
                "incompatible tuple type for conversion: {}",
                value::convert::mismatch_message(have, want)
            )
        }
        (Type::Object(_), Type::Object(_)) => {
            format!(
                "incompatible object type for conversion: {}",
                value::convert::mismatch_message(have, want)
            )
        }
        _ => format!("cannot convert {} to {}", have.friendly_name(), want.friendly_name_for_constraint()),
    };
    FunctionError::arg(0, message)
}

/// A `to…` function's error for a value that cannot convert though its type
/// can (`tonumber("x")`), in go-cty's words.
fn to_value_error(v: &Value, want: &Type) -> FunctionError {
    let have = v.ty();
    let what = || v.as_str().map_or_else(|| "string".to_owned(), |s| format!("{s:?}"));
    let message = match (&have, want) {
        (Type::String, Type::Bool) => {
            format!("cannot convert {} to bool; only the strings \"true\" or \"false\" are allowed", what())
        }
        (Type::String, Type::Number) => format!(
            "cannot convert {} to number; given string must be a decimal representation of a number",
            what()
        ),
        _ => format!("cannot convert {} to {}", have.friendly_name(), want.friendly_name_for_constraint()),
    };
    FunctionError::arg(0, message)
}

fn concat_fn() -> Function {
    Function::new(
        vec![],
        Some(p("seqs", Type::Dynamic)),
        // go-cty's: lists alone unify into a list; otherwise the arguments
        // are read in order, and an unknown list (whose length the tuple's
        // type would need) makes the type unknown before the arguments
        // after it are checked.
        Arc::new(|a| {
            if a.is_empty() {
                return Err(FunctionError::new("at least one argument is required"));
            }
            let types: Vec<Type> = a.iter().map(Value::ty).collect();
            if types.iter().all(Type::is_list)
                && let Some(common) = value::unify_unsafe(&types)
            {
                return Ok(common);
            }
            let mut etys = Vec::new();
            for (i, v) in a.iter().enumerate() {
                match v.ty() {
                    Type::Tuple(t) => etys.extend(t),
                    Type::List(e) => {
                        if !v.is_known() {
                            return Ok(Type::Dynamic);
                        }
                        etys.extend(std::iter::repeat_n(Arc::unwrap_or_clone(e), v.length().unwrap_or(0)));
                    }
                    other => {
                        return Err(FunctionError::arg(
                            i,
                            format!("all arguments must be lists or tuples; got {}", other.friendly_name()),
                        ));
                    }
                }
            }
            Ok(Type::Tuple(etys))
        }),
        Arc::new(|a, ret| {
            within_limits(total_size(a))?;
            let mut out = Vec::new();
            for v in a {
                out.extend(seq_elems(v));
            }
            if let Type::List(e) = ret {
                let conv: Result<Vec<Value>, _> = out.iter().map(|v| value::convert(v, e)).collect();
                let conv = conv.map_err(|e| FunctionError::new(e.to_string()))?;
                return Value::list((**e).clone(), conv).map_err(|e| FunctionError::new(e.to_string()));
            }
            Ok(Value::tuple(out))
        }),
    )
}

fn minmax(is_max: bool) -> Function {
    Function::simple(vec![], Some(p("numbers", Type::Number).allow_dynamic()), Type::Number, move |a, _| {
        if a.is_empty() {
            return err("must pass at least one number");
        }
        let mut best = if is_max { Number::neg_inf() } else { Number::pos_inf() };
        for v in a {
            let n = num(v);
            if (is_max && n > best) || (!is_max && n < best) {
                best = n;
            }
        }
        Ok(Value::number(best))
    })
}

fn join_fn() -> Function {
    Function::simple(
        vec![p("separator", Type::String)],
        Some(p("lists", Type::list(Type::String))),
        Type::String,
        |a, _| {
            let sep = s(&a[0]);
            if a.len() < 2 {
                return err("at least one list is required");
            }
            // Every separator is a copy: measure before building.
            let count: usize = a[1..].iter().map(|l| l.elements().map_or(0, <[Value]>::len)).sum();
            let items: usize = a[1..].iter().map(|l| l.size().bytes as usize).sum();
            text_within_limits(items.saturating_add(sep.len().saturating_mul(count.saturating_sub(1))))?;
            let mut items = Vec::new();
            for l in &a[1..] {
                for (i, v) in seq_elems(l).iter().enumerate() {
                    if v.is_null() {
                        return err(format!("element {i} is null"));
                    }
                    items.push(s(v).to_string());
                }
            }
            Ok(Value::string(&items.join(sep)))
        },
    )
}

fn keys_values(keys: bool) -> Function {
    Function::new(
        vec![if keys { p("inputMap", Type::Dynamic).allow_unknown() } else { p("mapping", Type::Dynamic) }],
        None,
        Arc::new(move |a| match a[0].ty() {
            Type::Map(e) => {
                Ok(if keys { Type::list(Type::String) } else { Type::list(Arc::unwrap_or_clone(e)) })
            }
            Type::Object(o) => Ok(if keys {
                Type::Tuple(vec![Type::String; o.attrs().len()])
            } else {
                Type::Tuple(o.attrs().values().cloned().collect())
            }),
            Type::Dynamic => Ok(Type::Dynamic),
            _ => Err(FunctionError::arg(0, "must have map or object type")),
        }),
        Arc::new(move |a, ret| {
            if !a[0].is_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let Some(entries) = a[0].entries() else { return list_or_tuple(ret, Vec::new()) };
            let vals: Vec<Value> = if keys {
                entries.keys().map(|k| Value::string(k)).collect()
            } else {
                entries.values().cloned().collect()
            };
            list_or_tuple(ret, vals)
        }),
    )
}

fn reverse_fn() -> Function {
    Function::new(
        vec![p("list", Type::Dynamic)],
        None,
        Arc::new(|a| match a[0].ty() {
            Type::List(e) => Ok(Type::list(Arc::unwrap_or_clone(e))),
            Type::Tuple(mut t) => {
                t.reverse();
                Ok(Type::Tuple(t))
            }
            Type::Set(e) => Ok(Type::list(Arc::unwrap_or_clone(e))),
            _ => Err(FunctionError::arg(0, "can only reverse list or tuple values")),
        }),
        Arc::new(|a, ret| {
            let mut e = seq_elems(&a[0]);
            e.reverse();
            list_or_tuple(ret, e)
        }),
    )
}

fn contains_fn() -> Function {
    Function::simple(vec![p("list", Type::Dynamic), p("value", Type::Dynamic)], None, Type::Bool, |a, _| {
        let Some(elems) = a[0].elements() else {
            return err("argument must be list, tuple, or set");
        };
        let mut unknown = false;
        for e in elems {
            match e.equals(&a[1]) {
                Some(true) => return Ok(Value::bool(true)),
                None => unknown = true,
                _ => {}
            }
        }
        Ok(if unknown { Value::unknown(Type::Bool) } else { Value::bool(false) })
    })
}

fn split_fn() -> Function {
    Function::simple(
        vec![p("separator", Type::String), p("str", Type::String)],
        None,
        Type::list(Type::String),
        |a, _| {
            let sep = s(&a[0]);
            let text = s(&a[1]);
            let count = if sep.is_empty() { text.chars().count() } else { text.matches(sep).count() + 1 };
            within_limits(Size { elements: count as u64 + 1, bytes: text.len() as u64 })?;
            let parts: Vec<String> = if sep.is_empty() {
                text.chars().map(String::from).collect()
            } else {
                text.split(sep).map(String::from).collect()
            };
            Ok(list_of_strings(parts))
        },
    )
}

fn replace_fn() -> Function {
    Function::simple(
        vec![p("str", Type::String), p("substr", Type::String), p("replace", Type::String)],
        None,
        Type::String,
        |a, _| {
            let (text, from, to) = (s(&a[0]), s(&a[1]), s(&a[2]));
            // Every replacement is a copy: measure before building. An
            // empty `from` matches between every two characters.
            let count = if from.is_empty() { text.chars().count() + 1 } else { text.matches(from).count() };
            text_within_limits(
                (text.len() - count.saturating_mul(from.len()).min(text.len()))
                    .saturating_add(count.saturating_mul(to.len())),
            )?;
            Ok(Value::string(&text.replace(from, to)))
        },
    )
}

fn regex_replace_fn() -> Function {
    Function::simple(
        vec![p("str", Type::String), p("pattern", Type::String), p("replace", Type::String)],
        None,
        Type::String,
        |a, _| {
            let re = regex::Regex::new(s(&a[1]))
                .map_err(|e| FunctionError::arg(1, format!("invalid regexp: {e}")))?;
            let (text, replacement) = (s(&a[0]), s(&a[2]));
            // A replacement may copy what was matched (`$0`, `${1}`) many
            // times: each `$` copies at most the match, so measure that
            // before building it.
            let copies = replacement.matches('$').count();
            let mut out = String::new();
            let mut last = 0;
            for caps in re.captures_iter(text) {
                let Some(whole) = caps.get(0) else { continue };
                let most = replacement.len().saturating_add(copies.saturating_mul(whole.len()));
                text_within_limits(out.len().saturating_add(whole.start() - last).saturating_add(most))?;
                out.push_str(&text[last..whole.start()]);
                caps.expand(replacement, &mut out);
                last = whole.end();
            }
            out.push_str(&text[last..]);
            Ok(Value::string(&out))
        },
    )
}

fn parseint_fn() -> Function {
    Function::simple(vec![p("number", Type::Dynamic), p("base", Type::Number)], None, Type::Number, |a, _| {
        let base = int_arg(&a[1])?;
        if !(2..=62).contains(&base) {
            return Err(FunctionError::arg(1, "base must be a whole number between 2 and 62 inclusive"));
        }
        let Some(text) = a[0].as_str() else {
            return Err(FunctionError::arg(0, "first argument must be a string, not a number"));
        };
        let (neg, digits) = match text.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        if digits.is_empty() {
            return err(format!("cannot parse {text:?} as a base {base} integer"));
        }
        let mut values = Vec::with_capacity(digits.len());
        for c in digits.chars() {
            let d = match c {
                '0'..='9' => c as i64 - '0' as i64,
                'a'..='z' => c as i64 - 'a' as i64 + 10,
                'A'..='Z' => c as i64 - 'A' as i64 + if base <= 36 { 10 } else { 36 },
                _ => 99,
            };
            if d >= base {
                return err(format!("cannot parse {text:?} as a base {base} integer"));
            }
            values.push(d as u8);
        }
        // Reading digits is quadratic in their count: bound the decimal
        // digits of the result (leading zeros aside) before reading them.
        let significant = values.iter().position(|&d| d != 0).map_or(0, |first| values.len() - first);
        let decimal = (significant as f64 * (base as f64).log10()).ceil() as u64;
        let max = crate::limits::current().max_number_digits;
        if decimal > max {
            return Err(FunctionError::exceeded(crate::limits::Exceeded {
                limit: crate::limits::Limit::NumberDigits,
                amount: decimal,
                max,
            }));
        }
        let magnitude = BigUint::from_radix_be(&values, base as u32).unwrap_or_default();
        let int = BigInt::from_biguint(if neg { Sign::Minus } else { Sign::Plus }, magnitude);
        Ok(Value::number(Number::from_decimal(BigDecimal::from(int))))
    })
}

fn pow_log(is_pow: bool) -> Function {
    let names = if is_pow { ("num", "power") } else { ("num", "base") };
    Function::simple(
        vec![p(names.0, Type::Number), p(names.1, Type::Number)],
        None,
        Type::Number,
        move |a, _| {
            let (x, y) = (num(&a[0]), num(&a[1]));
            let r = if is_pow { x.to_f64().powf(y.to_f64()) } else { x.to_f64().ln() / y.to_f64().ln() };
            float_value(r)
        },
    )
}

fn float_value(r: f64) -> R {
    if r.is_nan() {
        return err("the result is not a number");
    }
    if r.is_infinite() {
        return Ok(Value::number(if r > 0.0 { Number::pos_inf() } else { Number::neg_inf() }));
    }
    Number::parse(&format!("{r:e}")).map(Value::number).map_or_else(|| err("bad float"), Ok)
}

fn lookup_fn() -> Function {
    Function::new(
        vec![p("inputMap", Type::Dynamic), p("key", Type::String), p("default", Type::Dynamic)],
        None,
        Arc::new(|a| match a[0].ty() {
            Type::Object(o) => {
                if !a[1].is_known() {
                    return Ok(Type::Dynamic);
                }
                Ok(o.attrs().get(s(&a[1])).cloned().unwrap_or_else(|| a[2].ty()))
            }
            Type::Map(e) => {
                if value::convert(&a[2], &e).is_err() {
                    return Err(FunctionError::arg(
                        2,
                        "the default value must have the same type as the map elements",
                    ));
                }
                Ok(Arc::unwrap_or_clone(e))
            }
            _ => Err(FunctionError::arg(0, "lookup() requires a map as the first argument")),
        }),
        Arc::new(|a, ret| {
            let key = s(&a[1]);
            if let Some(found) = a[0].entries().and_then(|m| m.get(key)) {
                return Ok(found.clone());
            }
            if ret.is_dynamic() {
                return Ok(a[2].clone());
            }
            value::convert(&a[2], ret).map_err(|e| FunctionError::new(e.to_string()))
        }),
    )
}

fn element_fn() -> Function {
    Function::new(
        vec![p("list", Type::Dynamic), p("index", Type::Number)],
        None,
        Arc::new(|a| match a[0].ty() {
            Type::List(e) => Ok(Arc::unwrap_or_clone(e)),
            Type::Tuple(t) => {
                if !a[1].is_known() {
                    return Ok(Type::Dynamic);
                }
                if t.is_empty() {
                    return Err(FunctionError::new("cannot use element function with an empty list"));
                }
                let i = int_arg(&a[1])?;
                Ok(t[wrap_index(i, t.len())].clone())
            }
            _ => Err(FunctionError::arg(0, "cannot read elements from this type")),
        }),
        Arc::new(|a, _| {
            let e = seq_elems(&a[0]);
            if e.is_empty() {
                return err("cannot use element function with an empty list");
            }
            let i = int_arg(&a[1])?;
            Ok(e[wrap_index(i, e.len())].clone())
        }),
    )
}

/// `element`'s index into a sequence of `len` elements (not zero): it wraps
/// around, and since go-cty v1.15 a negative index counts from the end, as
/// if the sequence repeated in both directions.
fn wrap_index(i: i64, len: usize) -> usize {
    i.rem_euclid(len as i64) as usize
}

fn merge_fn() -> Function {
    Function::new(
        vec![],
        Some(p("maps", Type::Dynamic).allow_null().allow_dynamic()),
        Arc::new(|a| {
            if a.is_empty() {
                return Ok(Type::empty_object());
            }
            let mut attrs = BTreeMap::new();
            let mut attrs_known = true;
            let mut matching = true;
            let first = a[0].ty();
            for (i, v) in a.iter().enumerate() {
                let ty = v.ty();
                match &ty {
                    Type::Dynamic => return Ok(Type::Dynamic),
                    Type::Object(o) => {
                        if !v.is_null() {
                            for (k, t) in o.attrs() {
                                attrs.insert(k.clone(), t.clone());
                            }
                        }
                    }
                    Type::Map(e) => {
                        if v.is_known() && !v.is_null() {
                            for k in v.entries().into_iter().flatten().map(|(k, _)| k) {
                                attrs.insert(k.clone(), (**e).clone());
                            }
                        } else if !v.is_known() {
                            attrs_known = false;
                        }
                    }
                    _ => return Err(FunctionError::arg(i, "arguments must be maps or objects")),
                }
                if ty != first {
                    matching = false;
                }
            }
            if matching {
                return Ok(first);
            }
            if !attrs_known {
                return Ok(Type::Dynamic);
            }
            Ok(Type::object(attrs))
        }),
        Arc::new(|a, ret| {
            within_limits(total_size(a))?;
            let mut out = BTreeMap::new();
            for v in a {
                if v.is_null() {
                    continue;
                }
                for (k, x) in v.entries().into_iter().flatten() {
                    out.insert(k.clone(), x.clone());
                }
            }
            match ret {
                Type::Map(e) => Value::map((**e).clone(), out).map_err(|e| FunctionError::new(e.to_string())),
                _ => Ok(Value::object(out)),
            }
        }),
    )
}

fn coalesce_fn() -> Function {
    Function::new(
        vec![],
        Some(p("vals", Type::Dynamic).allow_null().allow_unknown().allow_dynamic()),
        Arc::new(|a| {
            let tys: Vec<Type> = a.iter().map(Value::ty).collect();
            value::unify_unsafe(&tys)
                .ok_or_else(|| FunctionError::new("all arguments must have the same type"))
        }),
        Arc::new(|a, ret| {
            for v in a {
                if !v.is_known() {
                    return Ok(Value::unknown(ret.clone()));
                }
                if v.is_null() {
                    continue;
                }
                return value::convert(v, ret).map_err(|e| FunctionError::new(e.to_string()));
            }
            err("no non-null arguments")
        }),
    )
}

fn distinct_fn() -> Function {
    Function::new(
        vec![p("list", Type::list(Type::Dynamic))],
        None,
        Arc::new(|a| Ok(a[0].ty())),
        Arc::new(|a, ret| {
            // The list is wholly known (the parameter takes no unknowns),
            // where cty's equality is the values' own: a hash set finds
            // the duplicates in linear time (comparing each element with
            // those kept took hours for a million).
            let mut seen = std::collections::HashSet::new();
            let mut out: Vec<Value> = Vec::new();
            for e in seq_elems(&a[0]) {
                if seen.insert(e.clone()) {
                    out.push(e);
                }
            }
            let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            Value::list(ety, out).map_err(|e| FunctionError::new(e.to_string()))
        }),
    )
}

fn compact_fn() -> Function {
    Function::simple(vec![p("list", Type::list(Type::String))], None, Type::list(Type::String), |a, _| {
        let items: Vec<String> = seq_elems(&a[0])
            .iter()
            .filter(|v| !v.is_null() && !s(v).is_empty())
            .map(|v| s(v).to_string())
            .collect();
        Ok(list_of_strings(items))
    })
}

fn range_fn() -> Function {
    Function::simple(vec![], Some(p("params", Type::Number)), Type::list(Type::Number), |a, _| {
        let (start, end, step) = match a.len() {
            1 => {
                let e0 = num(&a[0]);
                let step = if e0 < Number::zero() { Number::from_i64(-1) } else { Number::from_i64(1) };
                (Number::zero(), e0, step)
            }
            2 => {
                let (s0, e0) = (num(&a[0]), num(&a[1]));
                let step = if e0 < s0 { Number::from_i64(-1) } else { Number::from_i64(1) };
                (s0, e0, step)
            }
            3 => (num(&a[0]), num(&a[1]), num(&a[2])),
            _ => return err("must have one, two, or three arguments"),
        };
        if step.is_zero() {
            return err("step must not be zero");
        }
        let down = step < Number::zero();
        if down && start < end {
            return err("for negative step, start must be greater than end");
        }
        if !down && start > end {
            return err("for positive step, start must be less than end");
        }
        let mut out = Vec::new();
        let mut x = start;
        while if down { x > end } else { x < end } {
            if out.len() >= 1024 {
                return err(
                    "more than 1024 values were generated; either decrease the difference between start and end or use a smaller step",
                );
            }
            out.push(Value::number(x.clone()));
            x = x.add(&step).map_err(|e| FunctionError::new(e.to_string()))?;
        }
        Value::list(Type::Number, out).map_err(|e| FunctionError::new(e.to_string()))
    })
}

fn sort_fn() -> Function {
    Function::simple(
        vec![p("list", Type::list(Type::String)).allow_unknown()],
        None,
        Type::list(Type::String),
        |a, ret| {
            if !a[0].is_wholly_known() {
                // The order is not known yet, but the length is the list's.
                let range = a[0].range();
                return Ok(Value::unknown(ret.clone())
                    .refine()
                    .length_lower(range.length_lower())
                    .length_upper(range.length_upper())
                    .build());
            }
            let mut items = Vec::new();
            for v in seq_elems(&a[0]) {
                if v.is_null() {
                    return err("given list element is null; a null string cannot be sorted");
                }
                items.push(s(&v).to_string());
            }
            items.sort();
            Ok(list_of_strings(items))
        },
    )
}

fn zipmap_fn() -> Function {
    Function::new(
        vec![p("keys", Type::list(Type::String)), p("values", Type::Dynamic)],
        None,
        Arc::new(|a| match a[1].ty() {
            Type::List(e) => Ok(Type::map(Arc::unwrap_or_clone(e))),
            Type::Tuple(t) => {
                if !a[0].is_wholly_known() {
                    return Ok(Type::Dynamic);
                }
                let keys = seq_elems(&a[0]);
                if keys.len() != t.len() {
                    return Err(FunctionError::new("number of keys must match number of values"));
                }
                Ok(Type::object(keys.iter().map(|k| s(k).to_string()).zip(t).collect()))
            }
            _ => Err(FunctionError::arg(1, "values must be a list or tuple")),
        }),
        Arc::new(|a, ret| {
            let keys = seq_elems(&a[0]);
            let vals = seq_elems(&a[1]);
            if keys.len() != vals.len() {
                return err("number of keys must match number of values");
            }
            let m: BTreeMap<String, Value> = keys.iter().map(|k| s(k).to_string()).zip(vals).collect();
            match ret {
                Type::Map(e) => Value::map((**e).clone(), m).map_err(|e| FunctionError::new(e.to_string())),
                _ => Ok(Value::object(m)),
            }
        }),
    )
}

fn jsonencode_fn() -> Function {
    Function::simple(
        vec![p("val", Type::Dynamic).allow_dynamic().allow_null().allow_unknown()],
        None,
        Type::String,
        |a, _| {
            let v = &a[0];
            if !v.is_wholly_known() {
                // The first character tells a value that cannot be null
                // apart: a string, an object or map, a sequence.
                let range = v.range();
                let unknown = Value::unknown(Type::String);
                if range.could_be_null() {
                    return Ok(unknown);
                }
                return Ok(match range.ty() {
                    Type::String => unknown.refine().string_prefix_full("\"").build(),
                    Type::Object(_) | Type::Map(_) => unknown.refine().string_prefix_full("{").build(),
                    Type::Tuple(_) | Type::List(_) | Type::Set(_) => {
                        unknown.refine().string_prefix_full("[").build()
                    }
                    _ => unknown,
                });
            }
            v.to_json_string(&v.ty()).map(|j| Value::string(&j)).map_err(|e| FunctionError::new(e.0))
        },
    )
}

fn jsondecode_fn() -> Function {
    Function::new(
        vec![p("str", Type::String)],
        None,
        Arc::new(|a| {
            if !a[0].is_known() {
                // A known prefix may already tell the type, or that the
                // text cannot be JSON (go-cty v1.13 and later).
                let range = a[0].range();
                return match range.string_prefix().trim().chars().next() {
                    None | Some('{' | '[' | 'n') => Ok(Type::Dynamic),
                    Some('"') => Ok(Type::String),
                    Some('t' | 'f') => Ok(Type::Bool),
                    Some('-' | '0'..='9' | '.') => Ok(Type::Number),
                    Some(c) => Err(FunctionError::arg(
                        0,
                        format!(
                            "a JSON document cannot begin with the character {}",
                            value::set::go_quoted_rune(c)
                        ),
                    )),
                };
            }
            json_within_limits(s(&a[0]))?;
            Value::from_json_implied(s(&a[0])).map(|v| v.ty()).map_err(|e| FunctionError::new(e.0))
        }),
        Arc::new(|a, _| {
            json_within_limits(s(&a[0]))?;
            Value::from_json_implied(s(&a[0])).map_err(|e| FunctionError::new(e.0))
        }),
    )
}

/// Refuses JSON text that could decode to more values than the limit (a
/// value takes some eighty bytes, the text of one as few as two): each
/// value but the first follows a `,` or a `[` or `{`, or is an object's
/// key, outside strings.
fn json_within_limits(text: &str) -> Result<(), FunctionError> {
    let (mut count, mut in_string, mut escaped) = (1u64, false, false);
    for b in text.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b',' | b'[' | b'{' | b':' => count += 1,
            _ => {}
        }
    }
    within_limits(Size { elements: count, bytes: text.len() as u64 })
}

fn set_op(kind: u8) -> Function {
    // `setsubtract` takes exactly two sets; the others any number.
    let (params, var_param) = if kind == 2 {
        (
            vec![
                p("a", Type::set(Type::Dynamic)).allow_dynamic(),
                p("b", Type::set(Type::Dynamic)).allow_dynamic(),
            ],
            None,
        )
    } else {
        (
            vec![p("first_set", Type::set(Type::Dynamic)).allow_dynamic()],
            Some(p("other_sets", Type::set(Type::Dynamic)).allow_dynamic()),
        )
    };
    Function::new(
        params,
        var_param,
        Arc::new(|a| {
            // Empty collections of dynamic elements convert to any set, so
            // they do not take part in unification.
            let etys: Vec<Type> = a
                .iter()
                .map(|v| (v, v.ty().element_type().cloned().unwrap_or(Type::Dynamic)))
                .filter(|(v, t)| !(v.is_known() && v.length() == Some(0) && t.is_dynamic()))
                .map(|(_, t)| t)
                .collect();
            if etys.is_empty() {
                return Ok(Type::set(Type::Dynamic));
            }
            match value::unify_unsafe(&etys) {
                Some(t) => Ok(Type::set(t)),
                None => Err(FunctionError::new("given sets must all have compatible element types")),
            }
        }),
        Arc::new(move |a, ret| {
            let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            let sets: Vec<Vec<Value>> = a
                .iter()
                .map(|v| seq_elems(v).iter().filter_map(|e| value::convert(e, &ety).ok()).collect())
                .collect();
            let mut out: Vec<Value> = sets.first().cloned().unwrap_or_default();
            for other in &sets[1..] {
                let has: std::collections::HashSet<&Value> = other.iter().collect();
                out = match kind {
                    0 => {
                        let mut o = out;
                        o.extend(other.iter().cloned());
                        o
                    }
                    1 => out.into_iter().filter(|v| has.contains(v)).collect(),
                    _ => out.into_iter().filter(|v| !has.contains(v)).collect(),
                };
            }
            Value::set(ety, out).map_err(|e| FunctionError::new(e.to_string()))
        }),
    )
}

fn flatten_value(v: &Value, out: &mut Vec<Value>) -> bool {
    for e in seq_elems(v) {
        if !e.is_known() {
            return false;
        }
        if matches!(e.ty(), Type::List(_) | Type::Set(_) | Type::Tuple(_)) && !e.is_null() {
            if !flatten_value(&e, out) {
                return false;
            }
        } else {
            out.push(e);
        }
    }
    true
}

fn flatten_fn() -> Function {
    Function::new(
        vec![p("list", Type::Dynamic)],
        None,
        Arc::new(|a| {
            // As go-cty: a value not wholly known has an unknown type before
            // its own type is checked.
            if !a[0].is_wholly_known() {
                return Ok(Type::Dynamic);
            }
            if !matches!(a[0].ty(), Type::List(_) | Type::Set(_) | Type::Tuple(_)) {
                return Err(FunctionError::arg(0, "can only flatten lists, sets and tuples"));
            }
            let mut out = Vec::new();
            flatten_value(&a[0], &mut out);
            Ok(Type::Tuple(out.iter().map(Value::ty).collect()))
        }),
        Arc::new(|a, _| {
            let mut out = Vec::new();
            flatten_value(&a[0], &mut out);
            Ok(Value::tuple(out))
        }),
    )
}

fn chunklist_fn() -> Function {
    Function::new(
        vec![p("list", Type::list(Type::Dynamic)), p("size", Type::Number)],
        None,
        Arc::new(|a| Ok(Type::list(a[0].ty()))),
        Arc::new(|a, ret| {
            let size = int_arg(&a[1])?;
            if size < 0 {
                return Err(FunctionError::arg(1, "the size argument must be positive"));
            }
            let lty = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            let ety = lty.element_type().cloned().unwrap_or(Type::Dynamic);
            let e = seq_elems(&a[0]);
            let chunks: Vec<Value> = if size == 0 {
                vec![a[0].clone()]
            } else {
                e.chunks(size as usize)
                    .map(|c| Value::list(ety.clone(), c.to_vec()).unwrap_or_else(|_| Value::empty_tuple()))
                    .collect()
            };
            Value::list(lty, chunks).map_err(|e| FunctionError::new(e.to_string()))
        }),
    )
}

fn slice_fn() -> Function {
    Function::new(
        vec![p("list", Type::Dynamic), p("start_index", Type::Number), p("end_index", Type::Number)],
        None,
        Arc::new(|a| match a[0].ty() {
            Type::List(e) => Ok(Type::list(Arc::unwrap_or_clone(e))),
            Type::Tuple(t) => {
                if !a[1].is_known() || !a[2].is_known() {
                    return Ok(Type::Dynamic);
                }
                let (st, en) = (int_arg(&a[1])?, int_arg(&a[2])?);
                if st < 0 || en < st || en as usize > t.len() {
                    return Err(FunctionError::new("invalid slice indices"));
                }
                Ok(Type::Tuple(t[st as usize..en as usize].to_vec()))
            }
            _ => Err(FunctionError::arg(0, "must be a list or tuple type")),
        }),
        Arc::new(|a, ret| {
            let e = seq_elems(&a[0]);
            let (st, en) = (int_arg(&a[1])?, int_arg(&a[2])?);
            if st < 0 {
                return Err(FunctionError::arg(1, "start index must not be less than zero"));
            }
            if en as usize > e.len() {
                return Err(FunctionError::arg(
                    2,
                    "end index must not be greater than the length of the list",
                ));
            }
            if st > en {
                return Err(FunctionError::arg(1, "start index must not be greater than end index"));
            }
            let part = e[st as usize..en as usize].to_vec();
            list_or_tuple(ret, part)
        }),
    )
}

fn coalescelist_fn() -> Function {
    Function::new(
        vec![],
        Some(p("vals", Type::Dynamic).allow_null().allow_unknown().allow_dynamic()),
        // go-cty's: an unknown argument before any that is not a sequence
        // makes the type unknown, and sequences of different types give
        // the dynamic type (the chosen argument is returned as it is).
        Arc::new(|a| {
            if a.is_empty() {
                return Err(FunctionError::new("at least one argument is required"));
            }
            for v in a {
                if !v.is_known() {
                    return Ok(Type::Dynamic);
                }
                if !matches!(v.ty(), Type::List(_) | Type::Tuple(_)) {
                    return Err(FunctionError::new("coalescelist arguments must be lists or tuples"));
                }
            }
            let first = a[0].ty();
            Ok(if a.iter().all(|v| v.ty() == first) { first } else { Type::Dynamic })
        }),
        Arc::new(|a, ret| {
            for v in a {
                if !v.is_known() {
                    return Ok(Value::unknown(ret.clone()));
                }
                if v.is_null() {
                    continue;
                }
                if v.length().unwrap_or(0) > 0 {
                    return Ok(v.clone());
                }
            }
            err("no non-null arguments")
        }),
    )
}

fn indent_fn() -> Function {
    Function::simple(vec![p("spaces", Type::Number), p("str", Type::String)], None, Type::String, |a, _| {
        // Go would try to allocate any width; a bound keeps a typo from
        // exhausting memory.
        let n = int_arg(&a[0])?.max(0);
        if n > 1_000_000 {
            return Err(FunctionError::arg(0, "too many spaces"));
        }
        let n = n as usize;
        let text = s(&a[1]);
        text_within_limits(text.len().saturating_add(text.matches('\n').count().saturating_mul(n)))?;
        let pad = " ".repeat(n);
        Ok(Value::string(&s(&a[1]).replace('\n', &format!("\n{pad}"))))
    })
}

fn trim2(second: &str, f: fn(&str, &str) -> String) -> Function {
    Function::simple(
        vec![p("str", Type::String), p(second, Type::String)],
        None,
        Type::String,
        move |a, _| Ok(Value::string(&f(s(&a[0]), s(&a[1])))),
    )
}

/// The result type of a `regex` match for a pattern (go-cty's
/// `regexPatternResultType`), and the compiled pattern.
fn regex_result_type(pattern: &str) -> Result<(regex::Regex, Type), FunctionError> {
    let re = regex::Regex::new(pattern)
        .map_err(|e| FunctionError::arg(0, format!("invalid regexp pattern: {e}")))?;
    let names: Vec<Option<&str>> = re.capture_names().skip(1).collect();
    let named = names.iter().filter(|n| n.is_some()).count();
    let unnamed = names.len() - named;
    let ty = match (unnamed, named) {
        (0, 0) => Type::String,
        (n, 0) => Type::Tuple(vec![Type::String; n]),
        (0, _) => Type::object(names.iter().flatten().map(|n| (n.to_string(), Type::String)).collect()),
        _ => {
            return Err(FunctionError::arg(
                0,
                "invalid regexp pattern: cannot mix both named and unnamed capture groups",
            ));
        }
    };
    Ok((re, ty))
}

fn regex_match_value(re: &regex::Regex, ty: &Type, caps: &regex::Captures<'_>) -> Value {
    // An optional group that did not take part in the match is a null.
    let group =
        |i: usize| caps.get(i).map_or_else(|| Value::null(Type::String), |m| Value::string(m.as_str()));
    match ty {
        Type::String => group(0),
        Type::Tuple(_) => Value::tuple((1..caps.len()).map(group).collect()),
        _ => Value::object(
            re.capture_names()
                .enumerate()
                .filter_map(|(i, n)| n.map(|n| (n.to_string(), group(i))))
                .collect(),
        ),
    }
}

fn regex_fn(all: bool) -> Function {
    Function::new(
        vec![p("pattern", Type::String), p("string", Type::String)],
        None,
        Arc::new(move |a| {
            if !a[0].is_known() {
                return Ok(if all { Type::list(Type::Dynamic) } else { Type::Dynamic });
            }
            let (_, ty) = regex_result_type(s(&a[0]))?;
            Ok(if all { Type::list(ty) } else { ty })
        }),
        Arc::new(move |a, _| {
            let (re, ty) = regex_result_type(s(&a[0]))?;
            let text = s(&a[1]);
            if all {
                let mut vals = Vec::new();
                let mut built = Size::scalar(0);
                for c in re.captures_iter(text) {
                    let v = regex_match_value(&re, &ty, &c);
                    built = built.plus(v.size());
                    within_limits(built)?;
                    vals.push(v);
                }
                return Value::list(ty, vals).map_err(|e| FunctionError::new(e.to_string()));
            }
            match re.captures(text) {
                Some(c) => Ok(regex_match_value(&re, &ty, &c)),
                None => err("pattern did not match any part of the given string"),
            }
        }),
    )
}

fn setproduct_fn() -> Function {
    Function::new(
        vec![],
        Some(p("sets", Type::Dynamic).allow_unknown()),
        Arc::new(|a| {
            if a.len() < 2 {
                return Err(FunctionError::new("at least two arguments are required"));
            }
            let mut lists = 0;
            let mut etys = Vec::new();
            for (i, v) in a.iter().enumerate() {
                match v.ty() {
                    Type::Set(e) => etys.push(Arc::unwrap_or_clone(e)),
                    Type::List(e) => {
                        lists += 1;
                        etys.push(Arc::unwrap_or_clone(e));
                    }
                    Type::Tuple(t) => {
                        lists += 1;
                        if t.is_empty() {
                            etys.push(Type::Dynamic);
                        } else {
                            match value::unify_unsafe(&t) {
                                Some(e) => etys.push(e),
                                None => {
                                    return Err(FunctionError::arg(
                                        i,
                                        "all elements must be of the same type",
                                    ));
                                }
                            }
                        }
                    }
                    _ => return Err(FunctionError::arg(i, "a set or a list is required")),
                }
            }
            let ety = Type::Tuple(etys);
            Ok(if lists == a.len() { Type::list(ety) } else { Type::set(ety) })
        }),
        Arc::new(|a, ret| {
            if a.iter().any(|v| !v.is_known() || !v.length_value().is_known()) {
                return Ok(setproduct_unknown(a, ret));
            }
            let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            let sub = ety.tuple_element_types().map(<[Type]>::to_vec).unwrap_or_default();
            let args: Vec<Vec<Value>> = a.iter().map(seq_elems).collect();
            let total: usize = args.iter().map(Vec::len).product();
            if total > 100_000 {
                return err("the product has too many elements");
            }
            let mut out = Vec::with_capacity(total);
            let mut idx = vec![0usize; args.len()];
            for _ in 0..total {
                let mut tuple = Vec::with_capacity(args.len());
                for (j, &n) in idx.iter().enumerate() {
                    let v = &args[j][n];
                    let t = sub.get(j).cloned().unwrap_or(Type::Dynamic);
                    tuple.push(if v.ty() == t {
                        v.clone()
                    } else {
                        value::convert(v, &t).map_err(|e| FunctionError::new(e.to_string()))?
                    });
                }
                out.push(Value::tuple(tuple));
                for j in (0..idx.len()).rev() {
                    idx[j] += 1;
                    if idx[j] < args[j].len() {
                        break;
                    }
                    idx[j] = 0;
                }
            }
            if ret.is_list() {
                Value::list(ety, out).map_err(|e| FunctionError::new(e.to_string()))
            } else {
                Value::set(ety, out).map_err(|e| FunctionError::new(e.to_string()))
            }
        }),
    )
}

/// `setproduct` of arguments some of whose lengths are not known: an
/// unknown, whose length is at most the product of the arguments' greatest
/// lengths and, unless that is zero, at least one. As go-cty, it says
/// nothing of lengths past its small limits.
fn setproduct_unknown(args: &[Value], ret: &Type) -> Value {
    let unknown = Value::unknown(ret.clone());
    let mut most: u64 = 1;
    for v in args {
        let range = v.range();
        let arg_most = match range.ty() {
            Type::Tuple(t) => t.len() as u64,
            ty if ty.is_collection() => range.length_upper(),
            _ => return unknown,
        };
        if arg_most > 1024 {
            return unknown;
        }
        most *= arg_most;
        if most > 2048 {
            return unknown;
        }
    }
    if most == 0 {
        unknown.refine().length(0).build()
    } else {
        unknown.refine().length_lower(1).length_upper(most).build()
    }
}

/// Go's `encoding/csv` reader, in the mode go-cty uses (every record must
/// have the header's number of fields).
fn parse_csv(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut records = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line = 1;
    while chars.peek().is_some() {
        let mut record = Vec::new();
        loop {
            let mut field = String::new();
            if chars.peek() == Some(&'"') {
                chars.next();
                loop {
                    match chars.next() {
                        None => {
                            return Err(format!(
                                "parse error on line {line}: extraneous or missing \" in quoted-field"
                            ));
                        }
                        Some('"') => {
                            if chars.peek() == Some(&'"') {
                                chars.next();
                                field.push('"');
                            } else {
                                break;
                            }
                        }
                        Some('\n') => {
                            line += 1;
                            field.push('\n');
                        }
                        Some(c) => field.push(c),
                    }
                }
                if !matches!(chars.peek(), None | Some(',') | Some('\n') | Some('\r')) {
                    return Err(format!(
                        "parse error on line {line}: extraneous or missing \" in quoted-field"
                    ));
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c == ',' || c == '\n' || c == '\r' {
                        break;
                    }
                    if c == '"' {
                        return Err(format!("parse error on line {line}: bare \" in non-quoted-field"));
                    }
                    field.push(c);
                    chars.next();
                }
            }
            record.push(field);
            match chars.next() {
                Some(',') => continue,
                Some('\r') => {
                    if chars.peek() == Some(&'\n') {
                        chars.next();
                    }
                    break;
                }
                _ => break,
            }
        }
        line += 1;
        if !(record.len() == 1 && record[0].is_empty()) {
            records.push(record);
        }
    }
    Ok(records)
}

/// Refuses CSV text that could decode to more values than the limit: a
/// field ends at a `,` or a line's end, and each record is an object
/// holding a copy of the header's names.
fn csv_within_limits(text: &str) -> Result<(), FunctionError> {
    let fields = text.bytes().filter(|&b| b == b',' || b == b'\n').count() as u64 + 1;
    let lines = text.bytes().filter(|&b| b == b'\n').count() as u64 + 1;
    let header = text.lines().next().map_or(0, str::len) as u64;
    within_limits(Size {
        elements: fields.saturating_add(lines),
        bytes: (text.len() as u64).saturating_add(header.saturating_mul(lines)),
    })
}

fn csvdecode_fn() -> Function {
    Function::new(
        vec![p("str", Type::String)],
        None,
        Arc::new(|a| {
            if !a[0].is_known() {
                return Ok(Type::Dynamic);
            }
            csv_within_limits(s(&a[0]))?;
            let recs = parse_csv(s(&a[0])).map_err(FunctionError::new)?;
            let Some(header) = recs.first() else {
                return Err(FunctionError::new("missing header line"));
            };
            let mut attrs = BTreeMap::new();
            for name in header {
                if attrs.insert(name.clone(), Type::String).is_some() {
                    return Err(FunctionError::new(format!("duplicate column name {name:?}")));
                }
            }
            Ok(Type::list(Type::object(attrs)))
        }),
        Arc::new(|a, ret| {
            csv_within_limits(s(&a[0]))?;
            let recs = parse_csv(s(&a[0])).map_err(FunctionError::new)?;
            let header = recs.first().cloned().unwrap_or_default();
            let mut rows = Vec::new();
            for (i, r) in recs.iter().enumerate().skip(1) {
                if r.len() != header.len() {
                    return err(format!("record on line {}: wrong number of fields", i + 1));
                }
                rows.push(Value::object(
                    header.iter().cloned().zip(r.iter().map(|f| Value::string(f))).collect(),
                ));
            }
            let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
            Value::list(ety, rows).map_err(|e| FunctionError::new(e.to_string()))
        }),
    )
}

/// The standard function table.
pub fn functions() -> BTreeMap<String, Function> {
    let mut t: BTreeMap<String, Function> = BTreeMap::new();
    let mut add = |name: &str, f: Function| {
        t.insert(name.to_string(), f);
    };
    add("try", Function::try_fn());
    add("can", Function::can_fn());
    add("upper", str_fn_dynamic(|x| x.chars().map(go_upper).collect()));
    add("lower", str_fn_dynamic(|x| x.chars().map(go_lower).collect()));
    add("title", str_fn(title));
    add("trimspace", str_fn(|x| x.trim_matches(go_space).to_string()));
    add("strrev", str_fn_dynamic(|x| x.graphemes(true).rev().collect()));
    add("chomp", str_fn(|x| x.trim_end_matches(['\n', '\r']).to_string()));
    add(
        "strlen",
        Function::simple(
            vec![p("str", Type::String).allow_unknown().allow_dynamic()],
            None,
            Type::Number,
            |a, ret| {
                if !a[0].is_known() {
                    // At least as long as the known prefix.
                    let range = a[0].range();
                    let least = range.string_prefix().graphemes(true).count();
                    return Ok(Value::unknown(ret.clone())
                        .refine()
                        .number_lower(Number::from_u64(least as u64), true)
                        .build());
                }
                Ok(Value::int(s(&a[0]).graphemes(true).count() as i64))
            },
        )
        .refine_result(|b| b.not_null().number_lower(Number::zero(), true)),
    );
    add(
        "substr",
        Function::simple(
            vec![
                p("str", Type::String).allow_dynamic(),
                p("offset", Type::Number).allow_dynamic(),
                p("length", Type::Number).allow_dynamic(),
            ],
            None,
            Type::String,
            |a, _| substr(a),
        ),
    );
    add("trim", trim2("cutset", |x, cut| x.trim_matches(|c| cut.contains(c)).to_string()));
    add("trimprefix", trim2("prefix", |x, pre| x.strip_prefix(pre).unwrap_or(x).to_string()));
    add("trimsuffix", trim2("suffix", |x, suf| x.strip_suffix(suf).unwrap_or(x).to_string()));
    add("indent", indent_fn());
    add("join", join_fn());
    add("split", split_fn());
    add("replace", replace_fn());
    add("regex_replace", regex_replace_fn());
    add("length", length_fn());
    add("concat", concat_fn());
    add("max", minmax(true));
    add("min", minmax(false));
    add(
        "abs",
        Function::simple(vec![p("num", Type::Number).allow_dynamic()], None, Type::Number, |a, _| {
            Ok(Value::number(num(&a[0]).abs()))
        }),
    );
    add(
        "ceil",
        Function::simple(vec![p("num", Type::Number)], None, Type::Number, |a, _| {
            round(&a[0], RoundingMode::Ceiling)
        }),
    );
    add(
        "floor",
        Function::simple(vec![p("num", Type::Number)], None, Type::Number, |a, _| {
            round(&a[0], RoundingMode::Floor)
        }),
    );
    add(
        "int",
        Function::simple(vec![p("num", Type::Number).allow_dynamic()], None, Type::Number, |a, _| {
            if num(&a[0]).is_infinite() {
                return err("can't truncate infinity to an integer");
            }
            round(&a[0], RoundingMode::Down)
        }),
    );
    add(
        "signum",
        Function::simple(vec![p("num", Type::Number)], None, Type::Number, |a, _| {
            let n = int_arg(&a[0])?;
            Ok(Value::int(n.signum()))
        }),
    );
    add("pow", pow_log(true));
    add("log", pow_log(false));
    add("parseint", parseint_fn());
    add("keys", keys_values(true));
    add("values", keys_values(false));
    add("lookup", lookup_fn());
    add("element", element_fn());
    add("merge", merge_fn());
    add("coalesce", coalesce_fn());
    add("coalescelist", coalescelist_fn());
    add("contains", contains_fn());
    add("distinct", distinct_fn());
    add("compact", compact_fn());
    add("reverse", reverse_fn());
    add("range", range_fn());
    add("sort", sort_fn());
    add("zipmap", zipmap_fn());
    add("flatten", flatten_fn());
    add("chunklist", chunklist_fn());
    add("slice", slice_fn());
    add("jsonencode", jsonencode_fn());
    add("jsondecode", jsondecode_fn());
    add("setunion", set_op(0));
    add("setintersection", set_op(1));
    add("setsubtract", set_op(2));
    add("tostring", to_fn(Type::String));
    add("tonumber", to_fn(Type::Number));
    add("tobool", to_fn(Type::Bool));
    add("tolist", to_fn(Type::list(Type::Dynamic)));
    add("toset", to_fn(Type::set(Type::Dynamic)));
    add("tomap", to_fn(Type::map(Type::Dynamic)));
    add("regex", regex_fn(false));
    add("regexall", regex_fn(true));
    add("setproduct", setproduct_fn());
    add("csvdecode", csvdecode_fn());
    add("format", crate::format::format_fn());
    add("formatlist", crate::format::formatlist_fn());
    add("formatdate", crate::datetime::formatdate_fn());
    add("timeadd", crate::datetime::timeadd_fn());
    let _ = make_list;
    // Every function of go-cty's standard library declares that its result
    // is never null, but these (and `strlen`, which says more).
    const NULLABLE: &[&str] = &[
        "element",
        "lookup",
        "timeadd",
        "jsondecode",
        "tostring",
        "tonumber",
        "tobool",
        "tolist",
        "toset",
        "tomap",
        "try",
        "can",
        "strlen",
    ];
    t.into_iter()
        .map(|(name, f)| if NULLABLE.contains(&name.as_str()) { (name, f) } else { (name, f.never_null()) })
        .collect()
}

/// `items` as the sequence a function's return type asks for: a list of its
/// element type when the return type is a list, a tuple otherwise (the
/// functions that keep a tuple a tuple).
fn list_or_tuple(ret: &Type, items: Vec<Value>) -> Result<Value, FunctionError> {
    match ret {
        Type::List(element) => {
            Value::list((**element).clone(), items).map_err(|e| FunctionError::new(e.to_string()))
        }
        _ => Ok(Value::tuple(items)),
    }
}
