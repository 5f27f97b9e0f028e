//! go-cty's `formatdate` and `timeadd`, over RFC 3339 timestamps.

use value::{Type, Value};

use crate::{Function, FunctionError, Param};

/// A timestamp: seconds since the Unix epoch (UTC), nanoseconds, and the
/// zone offset in seconds it was written with.
#[derive(Clone, Copy)]
struct Time {
    unix: i64,
    nanos: i64,
    offset: i64,
}

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn bad_ts(s: &str) -> FunctionError {
    FunctionError::new(format!("not a valid RFC3339 timestamp{}", explain_timestamp(s)))
}

/// Why a text is not an RFC 3339 timestamp, in go-cty's words: it reports
/// the first element Go's `time.Parse` with the RFC 3339 layout fails at
/// (the text left there, or what it expected), and for a text that parser
/// accepts but the strict one does not, go-cty's own reasons.
fn explain_timestamp(text: &str) -> String {
    /// go-cty's rewording of a Go parse error: the layout element at
    /// fault and the text left at it.
    fn word(layout: &str, value: &str) -> String {
        let what = match layout {
            "T" => return ": missing required time introducer 'T'".to_owned(),
            ":" | "-" if value.is_empty() => return format!(": end of string where {layout:?} is expected"),
            ":" | "-" => return format!(": found {value:?} where {layout:?} is expected"),
            "2006" => "year",
            "01" => "month",
            "02" => "day of month",
            "15" => "hour",
            "04" => "minute",
            "05" => "second",
            "Z07:00" => "UTC offset",
            _ => "timestamp segment",
        };
        if value.is_empty() {
            return format!(": end of string before {what}");
        }
        match what {
            "hour" if value.contains(':') => ": hour must be between 0 and 23 inclusive".to_owned(),
            "hour" if value.len() != 2 => ": hour must have exactly two digits".to_owned(),
            "minute" if value.len() != 2 => ": minute must have exactly two digits".to_owned(),
            _ => format!(": cannot use {value:?} as {what}"),
        }
    }
    let digit = |v: &str, i: usize| v.as_bytes().get(i).is_some_and(u8::is_ascii_digit);
    // Go's `getnum`: one or two digits, exactly two when `fixed`.
    let getnum = |v: &str, fixed: bool| -> Option<(i64, usize)> {
        let b = v.as_bytes();
        if !digit(v, 0) {
            return None;
        }
        if !digit(v, 1) {
            return (!fixed).then(|| (i64::from(b[0] - b'0'), 1));
        }
        Some((i64::from(b[0] - b'0') * 10 + i64::from(b[1] - b'0'), 2))
    };
    let mut v = text;
    let skip = |v: &mut &str, literal: &str| -> Result<(), String> {
        match v.strip_prefix(literal) {
            Some(rest) => {
                *v = rest;
                Ok(())
            }
            None => Err(word(literal, v)),
        }
    };
    let result = (|| -> Result<(i64, i64), String> {
        if v.len() < 4 || !v.as_bytes()[..4].iter().all(u8::is_ascii_digit) {
            return Err(word("2006", v));
        }
        let year: i64 = v[..4].parse().map_err(|_| word("2006", v))?;
        v = &v[4..];
        let mut fields = [0i64; 5];
        for (i, (sep, layout, fixed, limit, name)) in [
            ("-", "01", true, 13, "month"),
            ("-", "02", true, 32, ""),
            ("T", "15", false, 24, "hour"),
            (":", "04", true, 60, "minute"),
            (":", "05", true, 60, "second"),
        ]
        .into_iter()
        .enumerate()
        {
            skip(&mut v, sep)?;
            let hold = v;
            let (n, used) = getnum(v, fixed).ok_or_else(|| word(layout, hold))?;
            v = &v[used..];
            if !name.is_empty() && (n >= limit || (name == "month" && n == 0)) {
                return Err(word(layout, v));
            }
            fields[i] = n;
        }
        if v.len() >= 2 && matches!(v.as_bytes()[0], b'.' | b',') && digit(v, 1) {
            let end = v[1..].bytes().position(|b| !b.is_ascii_digit()).map_or(v.len(), |i| i + 1);
            v = &v[end..];
        }
        if let Some(rest) = v.strip_prefix('Z') {
            v = rest;
        } else {
            let b = v.as_bytes();
            if b.len() < 6
                || b[3] != b':'
                || !matches!(b[0], b'+' | b'-')
                || getnum(&v[1..3], true).is_none()
                || getnum(&v[4..6], true).is_none()
            {
                return Err(word("Z07:00", v));
            }
            v = &v[6..];
        }
        if !v.is_empty() {
            return Err(word("", v));
        }
        Ok((year, fields[0] * 100 + fields[1]))
    })();
    match result {
        Err(message) => message,
        Ok((year, month_day)) => {
            let (month, day) = (month_day / 100, month_day % 100);
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
            let days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
            if day < 1 || day > days[(month - 1).clamp(0, 11) as usize] {
                return ": day out of range".to_owned();
            }
            // Go's parser took it; the strict one did not.
            let b = text.as_bytes();
            if b.get(12) == Some(&b':') {
                return word("15", &text[11..12]);
            }
            if b.get(19) == Some(&b',') {
                return word(".", ",");
            }
            if b.last() != Some(&b'Z') && text.len() >= 6 {
                return word("Z07:00", &text[text.len() - 6..]);
            }
            word(text, text)
        }
    }
}

fn digits(s: &[u8], at: usize, n: usize) -> Option<i64> {
    let part = s.get(at..at + n)?;
    if !part.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(part).ok()?.parse().ok()
}

fn parse_timestamp(s: &str) -> Result<Time, FunctionError> {
    let b = s.as_bytes();
    let e = || bad_ts(s);
    let y = digits(b, 0, 4).ok_or_else(e)?;
    let sep = |i: usize, c: u8| b.get(i) == Some(&c);
    // RFC 3339 as go-cty v1.13 and later read it, strictly: an upper-case
    // `T` and `Z`, two-digit fields, a period before fractional seconds and
    // an offset within a day.
    if !sep(4, b'-') || !sep(7, b'-') || !sep(10, b'T') || !sep(13, b':') || !sep(16, b':') {
        return Err(e());
    }
    let mo = digits(b, 5, 2).ok_or_else(e)?;
    let d = digits(b, 8, 2).ok_or_else(e)?;
    let h = digits(b, 11, 2).ok_or_else(e)?;
    let mi = digits(b, 14, 2).ok_or_else(e)?;
    let se = digits(b, 17, 2).ok_or_else(e)?;
    let mut i = 19;
    let mut nanos = 0;
    if sep(i, b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return Err(e());
        }
        let frac = &s[start..i.min(start + 9)];
        nanos = format!("{frac:0<9}").parse().map_err(|_| e())?;
    }
    let offset = match b.get(i) {
        Some(b'Z') if i + 1 == b.len() => 0,
        Some(c @ (b'+' | b'-')) if i + 6 == b.len() && sep(i + 3, b':') => {
            let oh = digits(b, i + 1, 2).filter(|h| *h < 24).ok_or_else(e)?;
            let om = digits(b, i + 4, 2).filter(|m| *m < 60).ok_or_else(e)?;
            let o = oh * 3600 + om * 60;
            if *c == b'-' { -o } else { o }
        }
        _ => return Err(e()),
    };
    let days_in = [
        31,
        if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&mo) || d < 1 || d > days_in[(mo - 1) as usize] || h > 23 || mi > 59 || se > 59 {
        return Err(e());
    }
    let local = days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + se;
    Ok(Time { unix: local - offset, nanos, offset })
}

struct Fields {
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    minute: i64,
    second: i64,
    weekday: i64,
}

fn fields(t: Time) -> Fields {
    let local = t.unix + t.offset;
    let days = local.div_euclid(86_400);
    let secs = local.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    Fields {
        year,
        month,
        day,
        hour: secs / 3600,
        minute: secs / 60 % 60,
        second: secs % 60,
        weekday: (days + 4).rem_euclid(7),
    }
}

fn zone(offset: i64, colon: bool, z_for_utc: bool) -> String {
    if z_for_utc && offset == 0 {
        return "Z".into();
    }
    let sign = if offset < 0 { '-' } else { '+' };
    let o = offset.abs();
    if colon {
        format!("{sign}{:02}:{:02}", o / 3600, o / 60 % 60)
    } else {
        format!("{sign}{:02}{:02}", o / 3600, o / 60 % 60)
    }
}

fn rfc3339(t: Time) -> String {
    let f = fields(t);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{}",
        f.year,
        f.month,
        f.day,
        f.hour,
        f.minute,
        f.second,
        zone(t.offset, true, true)
    )
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

fn format_date(fmt: &str, t: Time) -> Result<String, FunctionError> {
    let f = fields(t);
    let chars: Vec<char> = fmt.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let bad = |tok: &str| FunctionError::arg(0, format!("invalid date format verb {tok:?}"));
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            let mut j = i + 1;
            let mut lit = String::new();
            let mut closed = false;
            while j < chars.len() {
                if chars[j] == '\'' {
                    if chars.get(j + 1) == Some(&'\'') && j + 1 != i + 1 {
                        lit.push('\'');
                        j += 2;
                        continue;
                    }
                    closed = true;
                    j += 1;
                    break;
                }
                lit.push(chars[j]);
                j += 1;
            }
            if !closed {
                return Err(FunctionError::arg(0, "unterminated literal '"));
            }
            if lit.is_empty() {
                out.push('\'');
            } else {
                out.push_str(&lit);
            }
            i = j;
            continue;
        }
        if !c.is_ascii_alphabetic() {
            out.push(c);
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len() && chars[j] == c {
            j += 1;
        }
        let n = j - i;
        let tok: String = chars[i..j].iter().collect();
        i = j;
        let piece = match (c, n) {
            ('Y', 2) => format!("{:02}", f.year % 100),
            ('Y', 4) => format!("{:04}", f.year),
            ('Y', _) => {
                return Err(FunctionError::arg(
                    0,
                    format!("invalid date format verb {tok:?}: year must either be \"YY\" or \"YYYY\""),
                ));
            }
            ('M', 1) => f.month.to_string(),
            ('M', 2) => format!("{:02}", f.month),
            ('M', 3) => MONTHS[(f.month - 1) as usize][..3].to_string(),
            ('M', 4) => MONTHS[(f.month - 1) as usize].to_string(),
            ('D', 1) => f.day.to_string(),
            ('D', 2) => format!("{:02}", f.day),
            ('E', 3) => DAYS[f.weekday as usize][..3].to_string(),
            ('E', 4) => DAYS[f.weekday as usize].to_string(),
            ('h', 1) => f.hour.to_string(),
            ('h', 2) => format!("{:02}", f.hour),
            ('H', 1 | 2) => {
                let h = if f.hour % 12 == 0 { 12 } else { f.hour % 12 };
                if n == 1 { h.to_string() } else { format!("{h:02}") }
            }
            ('A' | 'a', 2) => {
                let s = if f.hour < 12 { "am" } else { "pm" };
                if c == 'A' { s.to_uppercase() } else { s.to_string() }
            }
            ('A' | 'a', _) => {
                return Err(FunctionError::arg(
                    0,
                    format!("invalid date format verb {tok:?}: must be \"{c}{c}\""),
                ));
            }
            ('m', 1) => f.minute.to_string(),
            ('m', 2) => format!("{:02}", f.minute),
            ('s', 1) => f.second.to_string(),
            ('s', 2) => format!("{:02}", f.second),
            ('Z', 1) => zone(t.offset, true, true),
            ('Z', 3) => {
                if t.offset == 0 {
                    "UTC".into()
                } else {
                    zone(t.offset, false, false)
                }
            }
            ('Z', 4) => zone(t.offset, false, false),
            ('Z', 5) => zone(t.offset, true, false),
            _ => return Err(bad(&tok)),
        };
        out.push_str(&piece);
    }
    Ok(out)
}

/// Go's `time.ParseDuration`, in nanoseconds.
fn parse_duration(s: &str) -> Result<i128, FunctionError> {
    let bad = || FunctionError::new(format!("time: invalid duration {s:?}"));
    let (neg, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(bad());
    }
    let mut total: f64 = 0.0;
    while !rest.is_empty() {
        let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        let numtext = &rest[..end];
        if numtext.is_empty() || numtext == "." {
            return Err(bad());
        }
        let n: f64 = numtext.parse().map_err(|_| bad())?;
        rest = &rest[end..];
        let uend = rest.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(rest.len());
        let unit = match &rest[..uend] {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            "" => return Err(FunctionError::new(format!("time: missing unit in duration {s:?}"))),
            u => return Err(FunctionError::new(format!("time: unknown unit {u:?} in duration {s:?}"))),
        };
        rest = &rest[uend..];
        total += n * unit;
    }
    if total > 9.3e18 {
        return Err(bad());
    }
    let ns = total.round() as i128;
    Ok(if neg { -ns } else { ns })
}

pub(crate) fn formatdate_fn() -> Function {
    Function::simple(
        vec![Param::new("format", Type::String), Param::new("time", Type::String)],
        None,
        Type::String,
        |a, _| {
            let t = parse_timestamp(a[1].as_str().unwrap_or_default())
                .map_err(|e| FunctionError::arg(1, e.message))?;
            format_date(a[0].as_str().unwrap_or_default(), t).map(|s| Value::string(&s))
        },
    )
}

pub(crate) fn timeadd_fn() -> Function {
    Function::simple(
        vec![Param::new("timestamp", Type::String), Param::new("duration", Type::String)],
        None,
        Type::String,
        |a, _| {
            let t = parse_timestamp(a[0].as_str().unwrap_or_default())?;
            let d = parse_duration(a[1].as_str().unwrap_or_default())?;
            let total = i128::from(t.unix) * 1_000_000_000 + i128::from(t.nanos) + d;
            let unix = total.div_euclid(1_000_000_000);
            let nanos = total.rem_euclid(1_000_000_000);
            let unix = i64::try_from(unix).map_err(|_| FunctionError::new("timestamp out of range"))?;
            Ok(Value::string(&rfc3339(Time { unix, nanos: nanos as i64, offset: t.offset })))
        },
    )
}

#[cfg(test)]
mod tests {
    /// Each message was given by go-cty v1.16.3 (with Go's time package)
    /// for the same text.
    #[test]
    fn rejected_timestamps_are_explained_as_the_reference_does() {
        let cases = [
            ("2017-11-22t00:00:00Z", "not a valid RFC3339 timestamp: missing required time introducer 'T'"),
            ("2017-11-22T00:00:00z", "not a valid RFC3339 timestamp: cannot use \"z\" as UTC offset"),
            (
                "2017-11-22T00:00:00+24:00",
                "not a valid RFC3339 timestamp: cannot use \"+24:00\" as UTC offset",
            ),
            (
                "2017-11-22T00:00:00+01:60",
                "not a valid RFC3339 timestamp: cannot use \"+01:60\" as UTC offset",
            ),
            (
                "2017-11-22T00:00:00,5Z",
                "not a valid RFC3339 timestamp: cannot use \",\" as timestamp segment",
            ),
            ("2017-11-22T1:00:00Z", "not a valid RFC3339 timestamp: hour must have exactly two digits"),
            (
                "2017-11-22T25:00:00Z",
                "not a valid RFC3339 timestamp: hour must be between 0 and 23 inclusive",
            ),
            ("2017-13-22T00:00:00Z", "not a valid RFC3339 timestamp: cannot use \"-22T00:00:00Z\" as month"),
            ("2017-11-22T00:00:00", "not a valid RFC3339 timestamp: end of string before UTC offset"),
            (
                "2017-11-22T00:00:00Zabc",
                "not a valid RFC3339 timestamp: cannot use \"abc\" as timestamp segment",
            ),
            ("2017-02-29T00:00:00Z", "not a valid RFC3339 timestamp: day out of range"),
            (
                "12017-02-20T00:00:00Z",
                "not a valid RFC3339 timestamp: found \"7-02-20T00:00:00Z\" where \"-\" is expected",
            ),
            ("2017", "not a valid RFC3339 timestamp: end of string where \"-\" is expected"),
            ("", "not a valid RFC3339 timestamp: end of string before year"),
        ];
        for (text, want) in cases {
            assert!(super::parse_timestamp(text).is_err(), "{text:?} parses");
            assert_eq!(
                format!("not a valid RFC3339 timestamp{}", super::explain_timestamp(text)),
                want,
                "{text:?}"
            );
        }
    }
}
