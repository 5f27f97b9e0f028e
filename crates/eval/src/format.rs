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
        let text = format_one(verb, &spec, arg)?;
        out.push_str(&pad(
            text,
            &spec,
            matches!(verb, 'd' | 'b' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'g' | 'G'),
        ));
    }
    if max_used < args.len() {
        return ferr(format!("too many arguments; only {max_used} used by format string"));
    }
    Ok(out)
}

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
            if let Some(p) = spec.prec {
                s = s.chars().take(p).collect();
            }
            if verb == 'q' {
                let mut q = String::new();
                value::set::go_quote(&mut q, &s);
                return Ok(q);
            }
            Ok(s)
        }
        'd' | 'b' | 'o' | 'x' | 'X' => {
            let n = to(arg, &Type::Number, verb)?;
            let n = n.as_number().cloned().unwrap_or_else(Number::zero);
            if !n.is_integer() {
                return ferr(format!("unsupported value for \"%{verb}\": number must be an integer"));
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
                    let f = n.to_f64().abs();
                    let s = match spec.prec {
                        Some(p) => format!("{:.*e}", p.saturating_sub(1), f),
                        None => format!("{f:e}"),
                    };
                    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
                    let exp: i64 = exp.parse().unwrap_or(0);
                    let limit = spec.prec.map_or(21, |p| p.max(1) as i64);
                    let out = if exp < -4 || exp >= limit {
                        go_exp(&format!("{mant}e{exp}"))
                    } else {
                        format!("{f}")
                    };
                    if verb == 'G' { out.to_uppercase() } else { out }
                }
            };
            Ok(sign(spec, negative, body))
        }
        _ => ferr(format!("unsupported format verb %{verb}")),
    }
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
        Some(Param::new("args", Type::Dynamic).allow_null().allow_unknown().allow_dynamic()),
        Type::String,
        |a, _| {
            if a[1..].iter().any(|v| !v.is_wholly_known()) {
                return Ok(Value::unknown(Type::String));
            }
            format(a[0].as_str().unwrap_or_default(), &a[1..]).map(|s| Value::string(&s))
        },
    )
}

pub(crate) fn formatlist_fn() -> Function {
    Function::new(
        vec![Param::new("format", Type::String)],
        Some(Param::new("args", Type::Dynamic).allow_null().allow_unknown().allow_dynamic()),
        Arc::new(|_| Ok(Type::list(Type::String))),
        Arc::new(|a, _| {
            let mut len: Option<usize> = None;
            for (i, v) in a[1..].iter().enumerate() {
                if !v.is_known() {
                    return Ok(Value::unknown(Type::list(Type::String)));
                }
                if matches!(v.ty(), Type::List(_) | Type::Set(_) | Type::Tuple(_)) && !v.is_null() {
                    let n = v.length().unwrap_or(0);
                    match len {
                        None => len = Some(n),
                        Some(l) if l != n => {
                            return Err(FunctionError::arg(
                                i + 1,
                                format!(
                                    "argument {} has length {n}, which is inconsistent with argument 1 of length {l}",
                                    i + 1
                                ),
                            ));
                        }
                        _ => {}
                    }
                }
            }
            let n = len.unwrap_or(1);
            let mut out = Vec::with_capacity(n);
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
                    out.push(Value::unknown(Type::String));
                    continue;
                }
                out.push(Value::string(&format(a[0].as_str().unwrap_or_default(), &args)?));
            }
            Value::list(Type::String, out).map_err(|e| FunctionError::new(e.to_string()))
        }),
    )
}
