//! Numbers: exact decimals extended with the two infinities.
//!
//! go-cty computes with 512-bit binary floats; Halite computes with exact
//! decimals (the project's one deliberate difference, see the eval
//! conformance README). Sums, differences, products and truncating remainders
//! of decimals are exact. A quotient is exact when it terminates; otherwise it
//! is rounded to [`DIVISION_DIGITS`] significant digits, half away from zero
//! on the digit after the last kept one (a non-terminating quotient never
//! sits exactly half-way, so no tie rule is needed).
//!
//! Negative zero exists because the reference prints `-0` (`-0`, `0 * -1`):
//! it compares equal to zero and follows IEEE sign rules in arithmetic.

use std::cmp::Ordering;
use std::fmt;

use bigdecimal::BigDecimal;
use bigdecimal::num_bigint::{BigInt, Sign};
use bigdecimal::num_traits::{Signed, ToPrimitive, Zero};

/// Significant digits kept by a division whose exact result does not
/// terminate. 512 binary digits are about 154 decimal ones; 160 keeps every
/// digit the reference can tell apart.
pub const DIVISION_DIGITS: u64 = 160;

/// The largest decimal exponent a finite number may have. go-cty's
/// `big.Float` has a 32-bit binary exponent (about 10^646456993); beyond it a
/// value overflows to infinity. Capping the exponent also keeps every number
/// printable in bounded memory, which an exact decimal like `1e999999999999`
/// would not be.
pub const MAX_EXPONENT: i64 = 646_456_993;

/// The most significant digits [`Number::parse`] reads. Reading decimal
/// digits into a big integer takes time quadratic in their count (a
/// ten-million-digit literal took minutes), and so does writing one out;
/// 512-bit floats, what the reference computes with, hold about 155
/// digits, so numbers of hundreds of digits stay exact and only absurd
/// ones are refused. [`Number::parse_limited`] takes another bound.
pub const MAX_DIGITS: u64 = 10_000;

/// Why a text is not a number [`Number::parse_limited`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseNumberError {
    /// Not a number's syntax.
    Invalid,
    /// More significant digits than the bound (`digits` of them).
    TooManyDigits { digits: u64, limit: u64 },
}

impl fmt::Display for ParseNumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseNumberError::Invalid => f.write_str("not a number"),
            ParseNumberError::TooManyDigits { digits, limit } => {
                write!(f, "a number of {digits} digits has more than {limit}")
            }
        }
    }
}

impl std::error::Error for ParseNumberError {}

#[derive(Clone, Debug)]
enum Repr {
    Finite(BigDecimal),
    /// Zero with a negative sign; `Finite` zeros are positive.
    NegZero,
    PosInf,
    NegInf,
}

/// A cty number: an exact decimal, negative zero, or an infinity.
#[derive(Clone, Debug)]
pub struct Number(Repr);

/// Why an arithmetic operation has no result; the reference's wording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// `0/0`, `Inf/Inf`: the reference's `big.ErrNaN`.
    NaN(&'static str),
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumberError::NaN(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for NumberError {}

impl Number {
    pub fn zero() -> Number {
        Number(Repr::Finite(BigDecimal::zero()))
    }

    pub fn pos_inf() -> Number {
        Number(Repr::PosInf)
    }

    pub fn neg_inf() -> Number {
        Number(Repr::NegInf)
    }

    pub fn neg_zero() -> Number {
        Number(Repr::NegZero)
    }

    pub fn from_i64(v: i64) -> Number {
        Number(Repr::Finite(BigDecimal::from(v)))
    }

    pub fn from_u64(v: u64) -> Number {
        Number(Repr::Finite(BigDecimal::from(v)))
    }

    /// Wraps a decimal, applying the exponent range of [`MAX_EXPONENT`].
    pub fn from_decimal(d: BigDecimal) -> Number {
        Number::finite(d)
    }

    /// The decimal value of a finite number (negative zero gives zero).
    pub fn as_decimal(&self) -> Option<BigDecimal> {
        match &self.0 {
            Repr::Finite(d) => Some(d.clone()),
            Repr::NegZero => Some(BigDecimal::zero()),
            _ => None,
        }
    }

    fn finite(d: BigDecimal) -> Number {
        if d.is_zero() {
            return Number(Repr::Finite(BigDecimal::zero()));
        }
        let exp = decimal_exponent(&d);
        if exp > MAX_EXPONENT {
            return if d.is_negative() { Number::neg_inf() } else { Number::pos_inf() };
        }
        if exp < -MAX_EXPONENT {
            return if d.is_negative() { Number::neg_zero() } else { Number::zero() };
        }
        Number(Repr::Finite(normalize(d)))
    }

    /// A zero with the given sign.
    fn signed_zero(negative: bool) -> Number {
        if negative { Number::neg_zero() } else { Number::zero() }
    }

    fn inf(negative: bool) -> Number {
        if negative { Number::neg_inf() } else { Number::pos_inf() }
    }

    pub fn is_infinite(&self) -> bool {
        matches!(self.0, Repr::PosInf | Repr::NegInf)
    }

    pub fn is_zero(&self) -> bool {
        match &self.0 {
            Repr::Finite(d) => d.is_zero(),
            Repr::NegZero => true,
            _ => false,
        }
    }

    /// The sign bit, as `big.Float.Signbit`: true for negatives, -0 and -Inf.
    pub fn sign_bit(&self) -> bool {
        match &self.0 {
            Repr::Finite(d) => d.is_negative(),
            Repr::NegZero | Repr::NegInf => true,
            Repr::PosInf => false,
        }
    }

    /// True for a finite number without a fractional part.
    pub fn is_integer(&self) -> bool {
        match &self.0 {
            // Finite values are normalised (no trailing zeros in the digits),
            // so they are integers exactly when the scale is not positive.
            // (bigdecimal's own `is_integer` would compute 10^scale.)
            Repr::Finite(d) => d.as_bigint_and_exponent().1 <= 0,
            Repr::NegZero => true,
            _ => false,
        }
    }

    /// The value as an `i64` when it is an integer in range.
    pub fn to_i64(&self) -> Option<i64> {
        if !self.is_integer() {
            return None;
        }
        if self.is_zero() {
            return Some(0);
        }
        // Guard the range first: bigdecimal would expand 1e600000000.
        let d = self.as_decimal()?;
        if decimal_exponent(&d) > 19 {
            return None;
        }
        d.to_i64()
    }

    /// The nearest `f64` (infinities included).
    pub fn to_f64(&self) -> f64 {
        match &self.0 {
            Repr::Finite(d) if d.is_zero() => 0.0,
            Repr::Finite(d) => {
                // Through text, keeping 40 significant digits: enough for
                // correct rounding but in rare ties, and no expansion of a
                // huge exponent.
                let (digits, exp) = digits_and_exponent(d);
                let kept = &digits[..digits.len().min(40)];
                let sign = if d.is_negative() { "-" } else { "" };
                format!("{sign}0.{kept}e{exp}").parse().unwrap_or(f64::NAN)
            }
            Repr::NegZero => -0.0,
            Repr::PosInf => f64::INFINITY,
            Repr::NegInf => f64::NEG_INFINITY,
        }
    }

    /// How many characters [`Number::to_plain_string`] writes, found
    /// without writing them. `1e500000000` is 500,000,001 characters,
    /// though the number itself is small.
    pub fn text_len(&self) -> u64 {
        let d = match &self.0 {
            Repr::Finite(d) => d,
            Repr::NegZero => return 2,
            Repr::PosInf | Repr::NegInf => return 4,
        };
        let (int, scale) = d.as_bigint_and_exponent();
        let digits = i128::from(decimal_digits(int.magnitude()));
        let scale = i128::from(scale);
        // 0.DIGITS × 10^point, written without an exponent.
        let point = digits - scale;
        let len = if point <= 0 {
            2 - point + digits
        } else if point >= digits {
            point
        } else {
            digits + 1
        };
        let sign = i128::from(d.is_negative());
        u64::try_from(len + sign).unwrap_or(u64::MAX)
    }

    /// Parses a number as `big.ParseFloat(s, 10, …)` (what
    /// `cty.ParseNumberVal` uses) accepts: an optional sign, then `Inf` /
    /// `inf`, or decimal digits with an optional `.` fraction and an optional
    /// `e`/`E` exponent. No surrounding spaces, no underscores, no hex.
    /// More than [`MAX_DIGITS`] significant digits are refused as well.
    pub fn parse(s: &str) -> Option<Number> {
        Number::parse_limited(s, MAX_DIGITS).ok()
    }

    /// [`Number::parse`] with another bound on the significant digits
    /// (leading zeros and trailing zeros of the digits do not count: they
    /// only move the exponent). Time is linear in the text below the
    /// bound's quadratic cost.
    pub fn parse_limited(s: &str, max_digits: u64) -> Result<Number, ParseNumberError> {
        Number::parse_digits(s, max_digits).ok_or(ParseNumberError::Invalid)?
    }

    fn parse_digits(s: &str, max_digits: u64) -> Option<Result<Number, ParseNumberError>> {
        let (negative, rest) = match s.as_bytes().first() {
            Some(b'-') => (true, &s[1..]),
            Some(b'+') => (false, &s[1..]),
            _ => (false, s),
        };
        if rest == "Inf" || rest == "inf" {
            return Some(Ok(Number::inf(negative)));
        }
        let bytes = rest.as_bytes();
        let mut i = 0;
        let mut digits = String::new();
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            digits.push(bytes[i] as char);
            i += 1;
        }
        let mut frac_len: i64 = 0;
        if i < bytes.len() && bytes[i] == b'.' {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                digits.push(bytes[i] as char);
                frac_len += 1;
                i += 1;
            }
        }
        if digits.is_empty() {
            return None;
        }
        let mut exp: i64 = 0;
        let mut binary_exp = false;
        if i < bytes.len() && matches!(bytes[i], b'e' | b'E' | b'p' | b'P') {
            // big.ParseFloat also takes a binary exponent: `1p3` is 8.
            binary_exp = matches!(bytes[i], b'p' | b'P');
            i += 1;
            let mut exp_negative = false;
            if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
                exp_negative = bytes[i] == b'-';
                i += 1;
            }
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                // Saturate: an exponent this large overflows or underflows
                // whatever the mantissa is.
                exp = exp.saturating_mul(10).saturating_add(i64::from(bytes[i] - b'0'));
                i += 1;
            }
            if i == start {
                return None;
            }
            if exp_negative {
                exp = -exp;
            }
        }
        if i != bytes.len() {
            return None;
        }
        // Zeros at either end of the digits only move the exponent; what
        // is left is read into a big integer, in time quadratic in its
        // length, so it is bounded first.
        let significant = digits.trim_start_matches('0');
        let trimmed = significant.trim_end_matches('0');
        if significant.is_empty() {
            return Some(Ok(Number::signed_zero(negative)));
        }
        let zeros = (significant.len() - trimmed.len()) as i64;
        if trimmed.len() as u64 > max_digits {
            return Some(Err(ParseNumberError::TooManyDigits {
                digits: trimmed.len() as u64,
                limit: max_digits,
            }));
        }
        let mantissa: BigInt = trimmed.parse().ok()?;
        let mantissa = if negative { -mantissa } else { mantissa };
        if binary_exp {
            let scale = frac_len - zeros;
            return Some(Ok(scale_by_power_of_two(BigDecimal::new(mantissa, scale), exp, negative)));
        }
        // value = mantissa * 10^(exp + zeros - frac_len); BigDecimal's scale
        // is the negated exponent. Check the range before building the
        // decimal so that a huge exponent cannot overflow the scale.
        let exp = exp.saturating_add(zeros);
        let adjusted = exp.saturating_sub(frac_len).saturating_add(trimmed.len() as i64 - 1);
        if adjusted > MAX_EXPONENT {
            return Some(Ok(Number::inf(negative)));
        }
        if adjusted < -MAX_EXPONENT {
            return Some(Ok(Number::signed_zero(negative)));
        }
        let scale = frac_len - exp;
        Some(Ok(Number::finite(BigDecimal::new(mantissa, scale))))
    }

    pub fn neg(&self) -> Number {
        match &self.0 {
            Repr::Finite(d) if d.is_zero() => Number::neg_zero(),
            Repr::Finite(d) => Number(Repr::Finite(-d)),
            Repr::NegZero => Number::zero(),
            Repr::PosInf => Number::neg_inf(),
            Repr::NegInf => Number::pos_inf(),
        }
    }

    pub fn abs(&self) -> Number {
        if self.sign_bit() { self.neg() } else { self.clone() }
    }

    /// Sum; `Inf + -Inf` has no result.
    pub fn add(&self, other: &Number) -> Result<Number, NumberError> {
        match (&self.0, &other.0) {
            (Repr::PosInf, Repr::NegInf) | (Repr::NegInf, Repr::PosInf) => {
                Err(NumberError::NaN("addition of infinities with opposite signs"))
            }
            (Repr::PosInf, _) | (_, Repr::PosInf) => Ok(Number::pos_inf()),
            (Repr::NegInf, _) | (_, Repr::NegInf) => Ok(Number::neg_inf()),
            // IEEE: the sum of two zeros is negative only when both are.
            (Repr::NegZero, Repr::NegZero) => Ok(Number::neg_zero()),
            _ => {
                let a = self.as_decimal().unwrap_or_default();
                let b = other.as_decimal().unwrap_or_default();
                Ok(Number::finite(add_decimals(a, b)))
            }
        }
    }

    /// Difference; `Inf - Inf` has no result.
    pub fn sub(&self, other: &Number) -> Result<Number, NumberError> {
        match (&self.0, &other.0) {
            (Repr::PosInf, Repr::PosInf) | (Repr::NegInf, Repr::NegInf) => {
                Err(NumberError::NaN("subtraction of infinities with equal signs"))
            }
            _ => self.add(&other.neg()),
        }
    }

    /// Product; `Inf * 0` has no result.
    pub fn mul(&self, other: &Number) -> Result<Number, NumberError> {
        let negative = self.sign_bit() != other.sign_bit();
        if self.is_infinite() || other.is_infinite() {
            if self.is_zero() || other.is_zero() {
                return Err(NumberError::NaN("multiplication of zero with infinity"));
            }
            return Ok(Number::inf(negative));
        }
        let a = self.as_decimal().unwrap_or_default();
        let b = other.as_decimal().unwrap_or_default();
        let product = a * b;
        if product.is_zero() {
            return Ok(Number::signed_zero(negative));
        }
        Ok(Number::finite(product))
    }

    /// Quotient: `x/0` is an infinity signed as IEEE says, `0/0` and
    /// `Inf/Inf` have no result, `x/Inf` is a signed zero.
    pub fn div(&self, other: &Number) -> Result<Number, NumberError> {
        let negative = self.sign_bit() != other.sign_bit();
        match (self.is_infinite(), other.is_infinite()) {
            (true, true) => {
                return Err(NumberError::NaN("division of infinity by infinity"));
            }
            (true, false) => return Ok(Number::inf(negative)),
            (false, true) => return Ok(Number::signed_zero(negative)),
            (false, false) => {}
        }
        if other.is_zero() {
            if self.is_zero() {
                return Err(NumberError::NaN("division of zero by zero"));
            }
            return Ok(Number::inf(negative));
        }
        if self.is_zero() {
            return Ok(Number::signed_zero(negative));
        }
        let a = self.as_decimal().unwrap_or_default();
        let b = other.as_decimal().unwrap_or_default();
        Ok(Number::finite(divide(&a, &b)))
    }

    /// Truncating remainder, as go-cty's `Modulo`: the sign follows the
    /// dividend (`-7 % 3` is `-1`) and `x % 0` is `x`. With an infinite
    /// operand (and a non-zero divisor) go-cty ends up multiplying zero by
    /// infinity or truncating an infinity, and fails; so does this.
    pub fn rem(&self, other: &Number) -> Result<Number, NumberError> {
        if other.is_zero() {
            return Ok(self.clone());
        }
        if self.is_infinite() || other.is_infinite() {
            return Err(NumberError::NaN("modulo with an infinite operand"));
        }
        let a = self.as_decimal().unwrap_or_default();
        let b = other.as_decimal().unwrap_or_default();
        if self.is_zero() || a.abs() < b.abs() {
            return Ok(self.clone());
        }
        if decimal_exponent(&a) - decimal_exponent(&b) > ALIGN_LIMIT {
            // The quotient has more than ALIGN_LIMIT integer digits. go-cty's
            // 512-bit floats have no remainder digits left at that size (its
            // answer is rounding noise); an exact one would cost time and
            // memory in proportion to the gap. Zero is the honest bound.
            return Ok(Number::zero());
        }
        let quotient = truncate_quotient(&a, &b);
        let r = add_decimals(a, -(b * BigDecimal::from(quotient)));
        if r.is_zero() {
            // `x - y·q` with equal terms is +0 by IEEE rules; only -0 itself
            // keeps its sign.
            return Ok(Number::signed_zero(matches!(self.0, Repr::NegZero)));
        }
        Ok(Number::finite(r))
    }

    /// The decimal text go-cty prints (`big.Float.Text('f', -1)`): no
    /// exponent, no trailing fractional zeros, `-0`, `+Inf`, `-Inf`.
    pub fn to_plain_string(&self) -> String {
        match &self.0 {
            Repr::PosInf => "+Inf".to_string(),
            Repr::NegInf => "-Inf".to_string(),
            Repr::NegZero => "-0".to_string(),
            Repr::Finite(d) => {
                let (digits, exp) = digits_and_exponent(d);
                let mut out = String::new();
                if d.is_negative() {
                    out.push('-');
                }
                write_fixed(&mut out, &digits, exp);
                out
            }
        }
    }

    /// The text go-cty hashes a number by in a set (`big.Float.String()`,
    /// that is `Text('g', 10)`): ten significant digits, `%e` form for large
    /// and small exponents. Computed from the exact decimal digits, so it can
    /// differ from the reference where a binary float's decimal expansion
    /// rounds differently at the tenth digit (a tie like `0.00000000005`).
    pub fn to_hash_string(&self) -> String {
        match &self.0 {
            Repr::PosInf => "+Inf".to_string(),
            Repr::NegInf => "-Inf".to_string(),
            Repr::NegZero => "-0".to_string(),
            Repr::Finite(d) if d.is_zero() => "0".to_string(),
            Repr::Finite(d) => {
                let (digits, exp) = digits_and_exponent(d);
                // `digits` has no trailing zeros; `exp` is the position of
                // the decimal point as Go's `decimal.exp` counts it.
                let (mant, dexp) = round_digits(&digits, exp, 10);
                let mut out = String::new();
                if d.is_negative() {
                    out.push('-');
                }
                let n = mant.len() as i64;
                let mut eprec: i64 = 10;
                if eprec > n && n >= dexp {
                    eprec = n;
                }
                let x = dexp - 1;
                if x < -4 || x >= eprec {
                    out.push_str(&mant[..1]);
                    if n > 1 {
                        out.push('.');
                        out.push_str(&mant[1..]);
                    }
                    out.push('e');
                    out.push(if x < 0 { '-' } else { '+' });
                    let ax = x.unsigned_abs();
                    if ax < 10 {
                        out.push('0');
                    }
                    out.push_str(&ax.to_string());
                } else {
                    write_fixed(&mut out, &mant, dexp);
                }
                out
            }
        }
    }
}

/// `d × 2^exp`, exactly (2^-n is 5^n / 10^n). Binary exponents beyond
/// ±100000 are taken as overflow or underflow rather than computed: such a
/// number has tens of thousands of digits, and go-cty's own range ends at
/// 2^±2147483647 anyway, so only absurd inputs are affected.
fn scale_by_power_of_two(d: BigDecimal, exp: i64, negative: bool) -> Number {
    const LIMIT: i64 = 100_000;
    if exp > LIMIT {
        return Number::inf(negative);
    }
    if exp < -LIMIT {
        return Number::signed_zero(negative);
    }
    let (int, scale) = d.as_bigint_and_exponent();
    if exp >= 0 {
        let factor = BigInt::from(2u32).pow(exp as u32);
        Number::finite(BigDecimal::new(int * factor, scale))
    } else {
        let n = (-exp) as u32;
        let factor = BigInt::from(5u32).pow(n);
        Number::finite(BigDecimal::new(int * factor, scale + i64::from(n)))
    }
}

/// Strips trailing zeros from the digits. bigdecimal's `normalized` first
/// compares with zero through `==`, which aligns scales and so expands a
/// huge exponent.
fn normalize(d: BigDecimal) -> BigDecimal {
    let (int, scale) = d.into_bigint_and_exponent();
    let text = int.magnitude().to_string();
    let trimmed = text.trim_end_matches('0');
    let zeros = (text.len() - trimmed.len()) as i64;
    if zeros == 0 || trimmed.is_empty() {
        return BigDecimal::new(int, scale);
    }
    let mag: BigInt = trimmed.parse().unwrap_or_default();
    let int = if int.sign() == Sign::Minus { -mag } else { mag };
    BigDecimal::new(int, scale - zeros)
}

/// Largest scale difference two decimals are aligned across exactly.
/// Aligning multiplies by 10^difference, so `1e600000000 + 1e-600000000`
/// would need a 1.2-billion-digit integer; past this limit sums are rounded.
const ALIGN_LIMIT: i64 = 100_000;

/// `a + b`: exact unless the exact sum would need more than about
/// [`ALIGN_LIMIT`] digits; then both operands are first rounded at 400
/// digits below the larger one's leading digit, far below the 160 digits
/// any result is compared at.
fn add_decimals(a: BigDecimal, b: BigDecimal) -> BigDecimal {
    // bigdecimal aligns even a zero operand's scale; skip that.
    if a.is_zero() {
        return b;
    }
    if b.is_zero() {
        return a;
    }
    let sa = a.as_bigint_and_exponent().1;
    let sb = b.as_bigint_and_exponent().1;
    if (sa - sb).abs() <= ALIGN_LIMIT {
        return a + b;
    }
    let top = decimal_exponent(&a).max(decimal_exponent(&b));
    let cut = top - 400;
    let (a, b) = (round_at_position(&a, cut), round_at_position(&b, cut));
    if a.is_zero() {
        return b;
    }
    if b.is_zero() {
        return a;
    }
    a + b
}

/// `d` rounded (half away from zero) to a multiple of 10^`pos`.
fn round_at_position(d: &BigDecimal, pos: i64) -> BigDecimal {
    let (int, scale) = d.as_bigint_and_exponent();
    let lowest = -scale;
    if lowest >= pos {
        return d.clone();
    }
    let drop = pos - lowest;
    let len = int.magnitude().to_string().len() as i64;
    if drop > len {
        return BigDecimal::zero();
    }
    let divisor = pow10(drop as u64);
    let negative = int.sign() == Sign::Minus;
    let mag = BigInt::from(int.magnitude().clone());
    let mut q = &mag / &divisor;
    let r = &mag % &divisor;
    if r * 2 >= divisor {
        q += 1;
    }
    BigDecimal::new(if negative { -q } else { q }, -pos)
}

/// The adjusted exponent of a non-zero decimal: `d = m × 10^e` with
/// `1 ≤ |m| < 10`.
fn decimal_exponent(d: &BigDecimal) -> i64 {
    let (int, scale) = d.as_bigint_and_exponent();
    let len = decimal_digits(int.magnitude()) as i64;
    len - 1 - scale
}

/// How many decimal digits `m` has (1 for zero), without writing them
/// (which takes time quadratic in their count): from the bit length, then
/// one comparison with a power of ten where that leaves two answers.
fn decimal_digits(m: &bigdecimal::num_bigint::BigUint) -> u64 {
    if let Some(small) = m.to_u64() {
        return u64::from(small.checked_ilog10().unwrap_or(0)) + 1;
    }
    // 2^(bits-1) ≤ m < 2^bits: the digits are those of one of the two ends.
    let bits = m.bits();
    let most = (bits as f64 * std::f64::consts::LOG10_2) as u64 + 1;
    let least = ((bits - 1) as f64 * std::f64::consts::LOG10_2) as u64 + 1;
    if least == most {
        return most;
    }
    let ten = bigdecimal::num_bigint::BigUint::from(10u32);
    if *m >= ten.pow((most - 1) as u32) { most } else { least }
}

/// The significant digits of `|d|` without trailing zeros, and the exponent
/// `exp` such that `|d| = 0.DIGITS × 10^exp` (Go's `decimal` form).
fn digits_and_exponent(d: &BigDecimal) -> (String, i64) {
    let (int, scale) = d.as_bigint_and_exponent();
    // Most numbers fit a machine word, whose digits are much cheaper to
    // write than a big integer's.
    let mut digits = match int.magnitude().to_u64() {
        Some(small) => small.to_string(),
        None => int.magnitude().to_string(),
    };
    let mut trailing = 0i64;
    while digits.len() > 1 && digits.ends_with('0') {
        digits.pop();
        trailing += 1;
    }
    let exp = digits.len() as i64 + trailing - scale;
    (digits, exp)
}

/// Rounds digit string `digits` (decimal point at `exp`) to `n` significant
/// digits, half to even as Go's `decimal.round` does on exact ties; trailing
/// zeros are trimmed.
fn round_digits(digits: &str, exp: i64, n: usize) -> (String, i64) {
    if digits.len() <= n {
        return (digits.to_string(), exp);
    }
    let bytes = digits.as_bytes();
    let next = bytes[n];
    let round_up = match next.cmp(&b'5') {
        Ordering::Greater => true,
        Ordering::Less => false,
        Ordering::Equal => {
            if bytes[n + 1..].iter().any(|&b| b != b'0') {
                true
            } else {
                n > 0 && (bytes[n - 1] - b'0') % 2 == 1
            }
        }
    };
    let mut kept: Vec<u8> = bytes[..n].to_vec();
    let mut exp = exp;
    if round_up {
        let mut i = kept.len();
        loop {
            if i == 0 {
                kept.insert(0, b'1');
                exp += 1;
                break;
            }
            i -= 1;
            if kept[i] == b'9' {
                kept[i] = b'0';
            } else {
                kept[i] += 1;
                break;
            }
        }
    }
    while kept.len() > 1 && kept.last() == Some(&b'0') {
        kept.pop();
    }
    (String::from_utf8(kept).unwrap_or_default(), exp)
}

/// Writes `0.DIGITS × 10^exp` in fixed notation.
fn write_fixed(out: &mut String, digits: &str, exp: i64) {
    let n = digits.len() as i64;
    if exp <= 0 {
        out.push_str("0.");
        for _ in 0..(-exp) {
            out.push('0');
        }
        out.push_str(digits);
    } else if exp >= n {
        out.push_str(digits);
        for _ in 0..(exp - n) {
            out.push('0');
        }
    } else {
        let (int, frac) = digits.split_at(exp as usize);
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    }
}

/// The integer part of `a / b`, rounded toward zero.
fn truncate_quotient(a: &BigDecimal, b: &BigDecimal) -> BigInt {
    let (ai, ascale) = a.as_bigint_and_exponent();
    let (bi, bscale) = b.as_bigint_and_exponent();
    // a/b = (ai / bi) × 10^(bscale - ascale); bring both to one scale.
    let (num, den) = align(ai, ascale, bi, bscale);
    num / den // BigInt division truncates toward zero
}

/// Returns integers `(n, d)` with `n/d = (ai × 10^-as) / (bi × 10^-bs)`.
fn align(ai: BigInt, ascale: i64, bi: BigInt, bscale: i64) -> (BigInt, BigInt) {
    if ascale >= bscale {
        let shift = pow10((ascale - bscale) as u64);
        (ai, bi * shift)
    } else {
        let shift = pow10((bscale - ascale) as u64);
        (ai * shift, bi)
    }
}

fn pow10(n: u64) -> BigInt {
    BigInt::from(10u32).pow(n as u32)
}

/// `a / b` exactly when the quotient terminates, else to
/// [`DIVISION_DIGITS`] significant digits.
fn divide(a: &BigDecimal, b: &BigDecimal) -> BigDecimal {
    let (ai, ascale) = a.as_bigint_and_exponent();
    let (bi, bscale) = b.as_bigint_and_exponent();
    let negative = (ai.sign() == Sign::Minus) != (bi.sign() == Sign::Minus);
    let num = ai.magnitude().clone();
    let den = bi.magnitude().clone();
    // q = num/den × 10^(bscale - ascale). The quotient terminates when the
    // reduced denominator has no prime factors but 2 and 5; then
    // 2^k·5^k = 10^k with k the larger multiplicity makes it exact.
    let g = gcd(&num, &den);
    let rnum = &num / &g;
    let mut rden = &den / &g;
    let mut twos = 0u64;
    let mut fives = 0u64;
    let two = bigdecimal::num_bigint::BigUint::from(2u32);
    let five = bigdecimal::num_bigint::BigUint::from(5u32);
    while (&rden % &two).is_zero() {
        rden /= &two;
        twos += 1;
    }
    while (&rden % &five).is_zero() {
        rden /= &five;
        fives += 1;
    }
    let base_scale = ascale - bscale;
    let (int, extra_scale) = if rden == bigdecimal::num_bigint::BigUint::from(1u32) {
        // Exact: multiply through by 10^k, then divide evenly.
        let k = twos.max(fives);
        let n = rnum * bigdecimal::num_bigint::BigUint::from(10u32).pow(k as u32);
        (n / (&den / &g), k as i64)
    } else {
        // Choose a shift that leaves at least DIVISION_DIGITS + 1 digits in
        // the integer quotient, then round the last one away.
        let num_len = num.to_string().len() as i64;
        let den_len = den.to_string().len() as i64;
        let shift = (DIVISION_DIGITS as i64 + 2 + den_len - num_len).max(0);
        let n = &num * bigdecimal::num_bigint::BigUint::from(10u32).pow(shift as u32);
        let q = &n / &den;
        let q_len = q.to_string().len() as i64;
        let drop = (q_len - DIVISION_DIGITS as i64).max(0);
        let divisor = bigdecimal::num_bigint::BigUint::from(10u32).pow(drop as u32);
        let kept = &q / &divisor;
        let rest = &q % &divisor;
        // The exact quotient is strictly above `q` (it does not terminate),
        // so "rest ≥ half" means strictly above half: round up.
        let half = &divisor / &two;
        let kept = if drop > 0 && rest >= half { kept + 1u32 } else { kept };
        (kept, shift - drop)
    };
    let int = BigInt::from_biguint(if negative { Sign::Minus } else { Sign::Plus }, int);
    BigDecimal::new(int, base_scale + extra_scale)
}

fn gcd(
    a: &bigdecimal::num_bigint::BigUint,
    b: &bigdecimal::num_bigint::BigUint,
) -> bigdecimal::num_bigint::BigUint {
    let mut a = a.clone();
    let mut b = b.clone();
    while !b.is_zero() {
        let r = &a % &b;
        a = b;
        b = r;
    }
    a
}

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Number {}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Number) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Numeric order, `-Inf` least and `+Inf` greatest; `-0` equals `0`.
impl Ord for Number {
    fn cmp(&self, other: &Number) -> Ordering {
        fn rank(n: &Number) -> i8 {
            match n.0 {
                Repr::NegInf => -1,
                Repr::PosInf => 1,
                _ => 0,
            }
        }
        match rank(self).cmp(&rank(other)) {
            Ordering::Equal if rank(self) == 0 => {
                let a = self.as_decimal().unwrap_or_default();
                let b = other.as_decimal().unwrap_or_default();
                a.cmp(&b)
            }
            ord => ord,
        }
    }
}

impl std::hash::Hash for Number {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // Equal numbers must hash alike. Finite values are normalised, so
        // equal ones have equal digits and scale; -0 is folded into 0.
        match &self.0 {
            Repr::PosInf => 1u8.hash(state),
            Repr::NegInf => 2u8.hash(state),
            Repr::NegZero => 0u8.hash(state),
            Repr::Finite(d) if d.is_zero() => 0u8.hash(state),
            Repr::Finite(d) => {
                3u8.hash(state);
                d.as_bigint_and_exponent().hash(state);
            }
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_plain_string())
    }
}

impl From<i64> for Number {
    fn from(v: i64) -> Number {
        Number::from_i64(v)
    }
}

#[cfg(test)]
mod tests;
