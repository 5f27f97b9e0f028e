//! go-cty's `format` and `formatlist`: Go's `fmt` verbs over cty values.

use std::sync::Arc;

use bigdecimal::RoundingMode;
use value::{Number, Type, Value};

use crate::{Function, FunctionError, Param};

#[derive(Default)]
struct Spec {
    minus: bool,
    plus: bool,
    zero: bool,
    sharp: bool,
    space: bool,
    width: Option<usize>,
    prec: Option<usize>,
}

/// Refuses formatted text of `bytes` past the limit of the evaluation.
fn within_limits(bytes: usize) -> Result<(), FunctionError> {
    crate::limits::current().check_size(value::Size::scalar(bytes as u64)).map_err(FunctionError::exceeded)
}

fn ferr<T>(msg: impl Into<String>) -> Result<T, FunctionError> {
    Err(FunctionError::new(msg))
}

fn read_num(chars: &[char], i: &mut usize) -> Option<usize> {
    let start = *i;
    let mut n: usize = 0;
    while *i < chars.len() && chars[*i].is_ascii_digit() {
        n = n.saturating_mul(10).saturating_add(chars[*i] as usize - '0' as usize);
        *i += 1;
    }
    (*i > start).then_some(n.min(10_000))
}

fn read_index(chars: &[char], i: &mut usize) -> Result<Option<usize>, FunctionError> {
    if *i < chars.len() && chars[*i] == '[' {
        *i += 1;
        let n = read_num(chars, i);
        if *i >= chars.len() || chars[*i] != ']' {
            return ferr("unterminated explicit argument index");
        }
        *i += 1;
        return match n {
            Some(n) if n >= 1 => Ok(Some(n - 1)),
            _ => ferr("invalid explicit argument index"),
        };
    }
    Ok(None)
}

/// Formats `fmt` with `args` (known values), as go-cty's `format`.
pub(crate) fn format(fmt: &str, args: &[Value]) -> Result<String, FunctionError> {
    let chars: Vec<char> = fmt.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut next_arg = 0;
    let mut max_used = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != '%' {
            out.push(c);
            continue;
        }
        if i < chars.len() && chars[i] == '%' {
            out.push('%');
            i += 1;
            continue;
        }
        let verb_start = i - 1;
        let mut spec = Spec::default();
        while i < chars.len() {
            match chars[i] {
                '-' => spec.minus = true,
                '+' => spec.plus = true,
                '0' => spec.zero = true,
                '#' => spec.sharp = true,
                ' ' => spec.space = true,
                _ => break,
            }
            i += 1;
        }
        if let Some(idx) = read_index(&chars, &mut i)? {
            next_arg = idx;
        }
        spec.width = read_num(&chars, &mut i);
        if i < chars.len() && chars[i] == '.' {
            i += 1;
            spec.prec = Some(read_num(&chars, &mut i).unwrap_or(0));
        }
        if let Some(idx) = read_index(&chars, &mut i)? {
            next_arg = idx;
        }
        let Some(&verb) = chars.get(i) else {
            return ferr("invalid format string: unterminated format verb");
        };
        i += 1;
        let Some(arg) = args.get(next_arg) else {
            return ferr(format!("not enough arguments for %{verb} at {}", next_arg + 1));
        };
        next_arg += 1;
        max_used = max_used.max(next_arg);
        // go-cty names a verb that rejects its value by the verb's text as
        // written and the byte offset of its `%` in the format string.
        let text = format_one(verb, &spec, arg).map_err(|e| {
            let raw: String = chars[verb_start..i].iter().collect();
            let offset: usize = chars[..verb_start].iter().map(|c| c.len_utf8()).sum();
            let short = format!("unsupported value for \"%{verb}\": ");
            match e.message.strip_prefix(&short) {
                Some(rest) => {
                    FunctionError::new(format!("unsupported value for {raw:?} at {offset}: {rest}"))
                }
                None => e,
            }
        })?;
        out.push_str(&match verb {
            // go-cty writes a bool without any padding.
            't' => text,
            'd' | 'b' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G' => pad(text, &spec, true),
            _ => pad_width(text, &spec),
        });
        // A verb may repeat an argument (`%[1]s%[1]s…`): stop as soon as
        // the text is past the limit.
        within_limits(out.len())?;
    }
    if max_used < args.len() {
        return ferr(format!("too many arguments; only {max_used} used by format string"));
    }
    Ok(out)
}

/// go-cty's `formatPadWidth`: the width counted in grapheme clusters, the
/// padding `0` with the `0` flag (even for strings), on the right with `-`.
fn pad_width(text: String, spec: &Spec) -> String {
    use unicode_segmentation::UnicodeSegmentation;
    let Some(width) = spec.width else { return text };
    let len = text.graphemes(true).count();
    if len >= width {
        return text;
    }
    let fill = if spec.zero { "0" } else { " " }.repeat(width - len);
    if spec.minus { format!("{text}{fill}") } else { format!("{fill}{text}") }
}

/// Go's `fmt` padding of a number: spaces, or zeros after the sign.
fn pad(text: String, spec: &Spec, numeric: bool) -> String {
    let Some(width) = spec.width else { return text };
    let len = text.chars().count();
    if len >= width {
        return text;
    }
    let fill = width - len;
    if spec.minus {
        return format!("{text}{}", " ".repeat(fill));
    }
    if spec.zero && numeric {
        let (sign, digits) = match text.strip_prefix(['-', '+']) {
            Some(rest) => (&text[..1], rest),
            None => ("", text.as_str()),
        };
        return format!("{sign}{}{digits}", "0".repeat(fill));
    }
    format!("{}{text}", " ".repeat(fill))
}

fn to(v: &Value, ty: &Type, verb: char) -> Result<Value, FunctionError> {
    if v.is_null() {
        return ferr(format!("unsupported value for \"%{verb}\": null value cannot be formatted"));
    }
    value::convert(v, ty).map_err(|e| FunctionError::new(format!("unsupported value for \"%{verb}\": {e}")))
}

fn sign(spec: &Spec, negative: bool, body: String) -> String {
    if negative {
        format!("-{body}")
    } else if spec.plus {
        format!("+{body}")
    } else if spec.space {
        format!(" {body}")
    } else {
        body
    }
}

fn format_one(verb: char, spec: &Spec, arg: &Value) -> Result<String, FunctionError> {
    match verb {
        'v' => {
            if arg.is_null() {
                return Ok("null".to_string());
            }
            let ty = arg.ty();
            if spec.sharp || !ty.is_primitive() {
                return arg.to_json_string(&ty).map_err(|e| FunctionError::new(e.0));
            }
            if let Some(n) = arg.as_number() {
                return Ok(go_g(n, None));
            }
            let s = value::convert(arg, &Type::String).map_err(|e| FunctionError::new(e.to_string()))?;
            Ok(s.as_str().unwrap_or_default().to_string())
        }
        't' => {
            let b = to(arg, &Type::Bool, verb)?;
            Ok(b.as_bool().unwrap_or(false).to_string())
        }
        's' | 'q' => {
            let s = to(arg, &Type::String, verb)?;
            let mut s = s.as_str().unwrap_or_default().to_string();
            if let Some(p) = spec.prec.filter(|p| *p > 0) {
                use unicode_segmentation::UnicodeSegmentation;
                s = s.graphemes(true).take(p).collect();
            }
            if verb == 'q' {
                // go-cty quotes with its JSON encoding, not Go's `%q`.
                let mut q = String::new();
                value::json::write_string(&mut q, &s);
                return Ok(q);
            }
            Ok(s)
        }
        'd' | 'b' | 'o' | 'x' | 'X' => {
            let n = to(arg, &Type::Number, verb)?;
            let n = n.as_number().cloned().unwrap_or_else(Number::zero);
            if !n.is_integer() {
                return ferr(format!("unsupported value for \"%{verb}\": an integer is required"));
            }
            let d = n.as_decimal().unwrap_or_default();
            let negative = n.sign_bit();
            let (int, _) = d.abs().with_scale(0).into_bigint_and_exponent();
            let body = match verb {
                'd' => int.to_str_radix(10),
                'b' => int.to_str_radix(2),
                'o' => int.to_str_radix(8),
                'x' => int.to_str_radix(16),
                _ => int.to_str_radix(16).to_uppercase(),
            };
            Ok(sign(spec, negative, body))
        }
        'e' | 'E' | 'f' | 'g' | 'G' => {
            let n = to(arg, &Type::Number, verb)?;
            let n = n.as_number().cloned().unwrap_or_else(Number::zero);
            if n.is_infinite() {
                return Ok(sign(spec, n.sign_bit(), "Inf".to_string()));
            }
            let negative = n.sign_bit() && !n.is_zero();
            let d = n.as_decimal().unwrap_or_default().abs();
            let body = match verb {
                'f' => {
                    let prec = spec.prec.unwrap_or(6);
                    d.with_scale_round(prec as i64, RoundingMode::HalfEven).to_plain_string()
                }
                'e' | 'E' => {
                    let f = n.to_f64().abs();
                    let s = go_exp(&format!("{:.*e}", spec.prec.unwrap_or(6), f));
                    if verb == 'E' { s.to_uppercase() } else { s }
                }
                _ => {
                    let out = go_g(&n.abs(), spec.prec);
                    if verb == 'G' { out.to_uppercase() } else { out }
                }
            };
            Ok(sign(spec, negative, body))
        }
        _ => ferr(format!("unsupported format verb %{verb}")),
    }
}

/// The decimal digits of a finite non-zero number and the position of its
/// decimal point: the value is `0.DIGITS × 10^dp`.
fn digits_dp(n: &Number) -> Option<(String, i64)> {
    let d = n.as_decimal()?.abs().normalized();
    let (int, scale) = d.as_bigint_and_exponent();
    let digits = int.to_string();
    if digits == "0" {
        return None;
    }
    let dp = digits.len() as i64 - scale;
    Some((digits.trim_end_matches('0').to_string(), dp))
}

/// Go's `%g` (big.Float's `Text('g', prec)`, shortest when `prec` is
/// `None`): `%e` form when the exponent is below -4 or at least the
/// precision (6 for the shortest form), else plain decimals.
fn go_g(n: &Number, prec: Option<usize>) -> String {
    if n.is_infinite() {
        return if n.sign_bit() { "-Inf".into() } else { "+Inf".into() };
    }
    let negative = n.sign_bit();
    let Some((mut digits, mut dp)) = digits_dp(n) else {
        return if negative { "-0".into() } else { "0".into() };
    };
    if let Some(p) = prec {
        let p = p.max(1);
        if digits.len() > p {
            let rounded = n.as_decimal().unwrap_or_default().abs().with_prec(p as u64);
            if let Some((d2, dp2)) = digits_dp(&Number::from_decimal(rounded)) {
                digits = d2;
                dp = dp2;
            }
        }
    }
    let nd = digits.len() as i64;
    let eprec = match prec {
        None => 6,
        Some(p) => {
            let p = p.max(1) as i64;
            if p > nd && nd >= dp { nd } else { p }
        }
    };
    let x = dp - 1;
    let body = if x < -4 || x >= eprec {
        let mut m = digits[..1].to_string();
        if nd > 1 {
            m.push('.');
            m.push_str(&digits[1..]);
        }
        let (sign, e) = if x < 0 { ('-', -x) } else { ('+', x) };
        format!("{m}e{sign}{e:02}")
    } else if dp <= 0 {
        format!("0.{}{digits}", "0".repeat((-dp) as usize))
    } else if nd <= dp {
        format!("{digits}{}", "0".repeat((dp - nd) as usize))
    } else {
        format!("{}.{}", &digits[..dp as usize], &digits[dp as usize..])
    };
    if negative { format!("-{body}") } else { body }
}

/// Rust's `1.5e3` exponent as Go writes it: `1.5e+03`.
fn go_exp(s: &str) -> String {
    let Some((mant, exp)) = s.split_once('e') else { return s.to_string() };
    let (sign, digits) = match exp.strip_prefix('-') {
        Some(d) => ('-', d),
        None => ('+', exp),
    };
    format!("{mant}e{sign}{digits:0>2}")
}

pub(crate) fn format_fn() -> Function {
    Function::simple(
        vec![Param::new("format", Type::String)],
        // As go-cty's (v1.16.1 and later): any argument, even one of no type
        // yet or a null of no type, reaches the implementation.
        Some(Param::new("args", Type::Dynamic).allow_null().allow_unknown().allow_dynamic()),
        Type::String,
        |a, ret| {
            let fmt = a[0].as_str().unwrap_or_default();
            if a[1..].iter().any(|v| !v.is_wholly_known()) {
                // The literal text before the first verb is known.
                return Ok(match fmt.find('%') {
                    Some(i) if i > 0 => Value::unknown(ret.clone()).refine().string_prefix(&fmt[..i]).build(),
                    _ => Value::unknown(ret.clone()),
                });
            }
            format(fmt, &a[1..]).map(|s| Value::string(&s))
        },
    )
}

pub(crate) fn formatlist_fn() -> Function {
    Function::new(
        vec![Param::new("format", Type::String)],
        Some(Param::new("args", Type::Dynamic).allow_null().allow_unknown().allow_dynamic()),
        Arc::new(|_| Ok(Type::list(Type::String))),
        Arc::new(|a, ret| {
            let fmt = a[0].as_str().unwrap_or_default();
            if a.len() == 1 {
                let one = format(fmt, &[]).map(|s| Value::string(&s))?;
                return Value::list(Type::String, vec![one]).map_err(|e| FunctionError::new(e.to_string()));
            }
            // Sequences are iterated in step and must have one length (a
            // tuple's is known even while it is unknown); anything else is
            // the same argument on every row. A sequence whose length is not
            // known, or an argument of no type yet, makes the whole result
            // unknown once the lengths have been checked.
            let mut len: Option<(usize, usize)> = None;
            let mut unknown = false;
            for (i, v) in a[1..].iter().enumerate() {
                let ty = v.ty();
                if matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_)) && !v.is_null() {
                    let n = match (&ty, v.length_value().as_number().and_then(value::Number::to_i64)) {
                        (Type::Tuple(t), _) => t.len(),
                        (_, Some(n)) if v.is_known() => n.max(0) as usize,
                        _ => {
                            unknown = true;
                            continue;
                        }
                    };
                    match len {
                        None => len = Some((n, i)),
                        Some((l, first)) if l != n => {
                            return Err(FunctionError::arg(
                                i + 1,
                                format!(
                                    "argument {} has length {n}, which is inconsistent with argument {} of length {l}",
                                    i + 1,
                                    first + 1
                                ),
                            ));
                        }
                        _ => {}
                    }
                    if !v.is_known() {
                        unknown = true;
                    }
                } else if v == &Value::dynamic() {
                    unknown = true;
                }
            }
            if unknown {
                return Ok(Value::unknown(ret.clone()));
            }
            let n = len.map_or(1, |(n, _)| n);
            let mut out = Vec::with_capacity(n);
            let mut bytes = 0usize;
            for row in 0..n {
                let args: Vec<Value> = a[1..]
                    .iter()
                    .map(|v| match v.elements() {
                        Some(e) if !v.is_null() => {
                            e.get(row).cloned().unwrap_or_else(|| Value::null(Type::Dynamic))
                        }
                        _ => v.clone(),
                    })
                    .collect();
                if args.iter().any(|v| !v.is_wholly_known()) {
                    out.push(Value::unknown(Type::String).refine_not_null());
                    continue;
                }
                // go-cty wraps the error in one of its own, which is about
                // the call as a whole rather than an argument.
                let text = format(fmt, &args).map_err(|e| match e.exceeded {
                    Some(_) => e,
                    None => FunctionError::new(format!("error on format iteration {row}: {}", e.message)),
                })?;
                bytes = bytes.saturating_add(text.len());
                within_limits(bytes)?;
                out.push(Value::string(&text));
            }
            Value::list(Type::String, out).map_err(|e| FunctionError::new(e.to_string()))
        }),
    )
}
