use super::*;

fn n(s: &str) -> Number {
    Number::parse(s).unwrap_or_else(|| panic!("test input {s:?} does not parse"))
}

/// The README's comparison: equal texts, or a relative difference below
/// 1e-60 (the reference's binary floats show artifacts past that).
fn agrees(got: &Number, want: &str) -> bool {
    if got.to_plain_string() == want {
        return true;
    }
    let Some(w) = Number::parse(want) else {
        return false;
    };
    if got.is_infinite() || w.is_infinite() || got.sign_bit() != w.sign_bit() {
        return false;
    }
    let (Some(g), Some(w)) = (got.as_decimal(), w.as_decimal()) else {
        return false;
    };
    let diff = (g - w.clone()).abs();
    let bound = w.abs() * BigDecimal::new(1.into(), 60);
    diff < bound
}

fn table(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).map(|l| l.split('\t').collect())
}

#[test]
fn arithmetic_matches_go_cty() {
    let mut checked = 0;
    for row in table(include_str!("../../test-data/number-arith.tsv")) {
        let [op, a, b, want] = row[..] else {
            panic!("bad row {row:?}");
        };
        let (a, b) = (n(a), n(b));
        let got = match op {
            "add" => a.add(&b),
            "sub" => a.sub(&b),
            "mul" => a.mul(&b),
            "div" => a.div(&b),
            "rem" => a.rem(&b),
            _ => panic!("unknown op {op}"),
        };
        match (&got, want) {
            (Err(_), "error") => {}
            (Ok(v), w) if w != "error" && agrees(v, w) => {}
            _ => panic!("{op} {a} {b}: got {got:?}, go-cty says {want}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 605);
}

#[test]
fn hash_text_matches_go_cty() {
    for row in table(include_str!("../../test-data/number-hash.tsv")) {
        let [input, want] = row[..] else {
            panic!("bad row {row:?}");
        };
        assert_eq!(n(input).to_hash_string(), want, "{input}");
    }
}

#[test]
fn parse_matches_go_cty() {
    for row in table(include_str!("../../test-data/number-parse.tsv")) {
        let [quoted, want] = row[..] else {
            panic!("bad row {row:?}");
        };
        let input = &quoted[1..quoted.len() - 1];
        let got = Number::parse(input).map(|v| v.to_plain_string());
        let want = (want != "error").then(|| want.to_string());
        assert_eq!(got, want, "{quoted}");
    }
}

#[test]
fn non_terminating_division_rounds_to_160_digits() {
    let cases = [
        ("1", "3", format!("0.{}", "3".repeat(160))),
        ("2", "3", format!("0.{}7", "6".repeat(159))),
        ("-1", "3", format!("-0.{}", "3".repeat(160))),
        ("1", "7", {
            let digits: String = "142857".repeat(27).chars().take(161).collect();
            // The 160th digit is the 8 of "142857" and the 161st a 5
            // followed by more digits: round up.
            format!("0.{}9", &digits[..159])
        }),
        ("10", "3", format!("3.{}", "3".repeat(159))),
        ("1", "8", "0.125".to_string()),
        ("1", "1024", "0.0009765625".to_string()),
    ];
    for (a, b, want) in cases {
        assert_eq!(n(a).div(&n(b)).unwrap().to_plain_string(), want, "{a}/{b}");
    }
}

#[test]
fn plain_text_table() {
    let cases = [
        ("1e3", "1000"),
        ("1.500", "1.5"),
        ("-0.000", "-0"),
        ("1e-5", "0.00001"),
        ("123456789012345678901234567890", "123456789012345678901234567890"),
        ("-Inf", "-Inf"),
        ("1e646456994", "+Inf"),
        ("-1e-646456994", "-0"),
        ("1e99999999999999999999999", "+Inf"),
        ("1p-2", "0.25"),
    ];
    for (input, want) in cases {
        assert_eq!(n(input).to_plain_string(), want, "{input}");
    }
}

#[test]
fn ordering_and_equality() {
    let ordered = ["-Inf", "-1e100", "-1", "-0.5", "0", "0.5", "1", "1e100", "+Inf"];
    for (i, a) in ordered.iter().enumerate() {
        for (j, b) in ordered.iter().enumerate() {
            assert_eq!(n(a).cmp(&n(b)), i.cmp(&j), "{a} vs {b}");
        }
    }
    assert_eq!(n("-0"), n("0"));
    assert_eq!(n("1.0"), n("1"));
    assert_eq!(n("-2.5").neg(), n("2.5"));
    assert_eq!(n("-2.5").abs(), n("2.5"));
}

#[test]
fn integer_queries() {
    assert_eq!(n("42").to_i64(), Some(42));
    assert_eq!(n("4.2").to_i64(), None);
    assert_eq!(n("1e30").to_i64(), None);
    assert_eq!(n("+Inf").to_i64(), None);
    assert!(n("-0").is_integer());
    assert_eq!(n("0.5").to_f64(), 0.5);
}

#[test]
fn extreme_exponents_stay_cheap() {
    // Each of these would need a billion-digit integer if computed naively.
    let big = n("1e600000000");
    let tiny = n("1e-600000000");
    assert_eq!(big.add(&tiny).unwrap(), big);
    assert_eq!(tiny.sub(&big).unwrap(), big.neg());
    assert_eq!(big.add(&Number::zero()).unwrap(), big);
    assert_eq!(big.rem(&tiny).unwrap(), Number::zero());
    assert_eq!(tiny.rem(&big).unwrap(), tiny);
    assert_eq!(big.mul(&big).unwrap(), Number::pos_inf());
    assert_eq!(tiny.mul(&tiny).unwrap(), Number::zero());
    assert_eq!(big.div(&tiny).unwrap(), Number::pos_inf());
    assert_eq!(big.to_i64(), None);
    assert!(big.is_integer());
    assert!(!tiny.is_integer());
    assert_eq!(big.to_f64(), f64::INFINITY);
    assert_eq!(tiny.to_f64(), 0.0);
    assert_eq!(big.to_hash_string(), "1e+600000000");
    assert!(big > tiny);
    // Close operands with far-apart scales round, keeping 400 digits.
    let sum = n("1").add(&n("1e-200000")).unwrap();
    assert_eq!(sum, n("1"));
}

#[test]
fn hash_agrees_with_equality() {
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    let h = |x: &Number| {
        let mut s = DefaultHasher::new();
        x.hash(&mut s);
        s.finish()
    };
    assert_eq!(h(&n("1.50")), h(&n("1.5")));
    assert_eq!(h(&n("-0")), h(&n("0")));
    assert_eq!(h(&n("1e3")), h(&n("1000")));
}

/// `text_len` is how much `to_plain_string` writes, without writing it:
/// `1e500000000` is 500,000,001 digits.
#[test]
fn text_len_measures_the_plain_text_without_writing_it() {
    for text in [
        "0",
        "-0",
        "1",
        "-7",
        "9",
        "10",
        "99",
        "12345678901234567890",
        "0.5",
        "-0.001",
        "1.25e-30",
        "123.456",
        "1e1000",
        "-1e-1000",
        "+Inf",
    ] {
        let x = n(text);
        assert_eq!(x.text_len(), x.to_plain_string().len() as u64, "{text}");
    }
    // Around powers of ten, where the bit length leaves two answers.
    for digits in [19, 20, 21, 100, 1000] {
        for text in [
            "9".repeat(digits),
            format!("1{}", "0".repeat(digits - 1)),
            format!("1{}1", "0".repeat(digits - 2)),
        ] {
            assert_eq!(n(&text).text_len(), digits as u64, "{text}");
        }
    }
    assert_eq!(n("1e500000000").text_len(), 500_000_001);
}

/// Parsing refuses more significant digits than its bound before reading
/// them (reading is quadratic: ten million digits took minutes); zeros at
/// either end only move the exponent and do not count.
#[test]
fn parsing_bounds_the_significant_digits() {
    let many = "7".repeat(1_000_000);
    let started = std::time::Instant::now();
    assert_eq!(
        Number::parse_limited(&many, 10_000),
        Err(ParseNumberError::TooManyDigits { digits: 1_000_000, limit: 10_000 })
    );
    assert_eq!(Number::parse(&many), None);
    assert!(started.elapsed().as_secs() < 5, "refused in {:?}", started.elapsed());
    let padded = format!("000{}.{}", "1".to_owned() + &"0".repeat(50_000), "0".repeat(50_000));
    assert_eq!(Number::parse(&padded), Some(n("1e50000")));
    assert_eq!(Number::parse_limited("12.5x", 10), Err(ParseNumberError::Invalid));
    assert_eq!(Number::parse_limited("-0.000", 1), Ok(Number::neg_zero()));
    assert_eq!(
        Number::parse_limited("1234", 3).map(|_| ()),
        Err(ParseNumberError::TooManyDigits { digits: 4, limit: 3 })
    );
}
