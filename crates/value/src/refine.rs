//! Refinements of unknown values, as go-cty (v1.13 and later) defines them
//! (`spec/cty/refinements.md` of the shared specifications).
//!
//! An unknown value may be known to be non-null, a string to start with a
//! prefix, a number to lie between two bounds, a collection to have a length
//! in a range. Operations read that through [`Value::range`] and can then
//! return known results from unknown operands (`s != null` is `true` for a
//! string known not to be null). Refinements only ever narrow what an
//! unknown stands for, so ignoring them is always safe; an operation that
//! does not know about them gives an unrefined unknown.
//!
//! A refinement is added with [`Value::refine`], a builder that ends in
//! [`Refine::build`]. go-cty panics when a caller contradicts an earlier
//! refinement or refines a type that cannot carry one; here such a request
//! is ignored, since values can come from a library caller and nothing may
//! panic on input. Refining a known value changes nothing, and the unknown
//! of the dynamic pseudo-type cannot be refined at all (`cty.DynamicVal`).

use unicode_normalization::char::{canonical_combining_class, compose};
use unicode_normalization::{IsNormalized, is_nfc_quick};
use unicode_segmentation::UnicodeSegmentation;

use crate::number::Number;
use crate::ty::Type;
use crate::value::{Value, nfc};

/// The largest collection length go-cty tracks (`math.MaxInt` on a 64-bit
/// platform): an unrefined collection's length is at most this.
pub const MAX_LENGTH: u64 = i64::MAX as u64;

/// A known list no longer than this is built when a refinement fixes an
/// unknown list's length (go-cty builds one of any length; a bound keeps a
/// refinement from making an enormous value).
const MAX_COLLAPSED_LIST: u64 = 1024;

/// One bound of a number's range.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bound {
    pub value: Number,
    pub inclusive: bool,
}

impl Bound {
    pub fn new(value: Number, inclusive: bool) -> Bound {
        Bound { value, inclusive }
    }
}

/// What is known of an unknown value besides its type. Which fields mean
/// anything depends on the type: `prefix` for strings, the bounds for
/// numbers, the lengths for lists, sets and maps; `not_null` for every type
/// but the dynamic pseudo-type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Refinement {
    pub(crate) not_null: bool,
    pub(crate) prefix: String,
    pub(crate) lower: Option<Bound>,
    pub(crate) upper: Option<Bound>,
    pub(crate) min_length: u64,
    pub(crate) max_length: u64,
}

impl Default for Refinement {
    fn default() -> Refinement {
        Refinement {
            not_null: false,
            prefix: String::new(),
            lower: None,
            upper: None,
            min_length: 0,
            max_length: MAX_LENGTH,
        }
    }
}

impl Refinement {
    fn is_empty(&self) -> bool {
        *self == Refinement::default()
    }
}

/// What kinds of refinement a type takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Refinable {
    /// The dynamic pseudo-type: none at all.
    Nothing,
    /// Bool, objects and tuples: only non-nullness.
    Nullness,
    String,
    Number,
    Collection,
}

fn refinable(ty: &Type) -> Refinable {
    match ty {
        Type::Dynamic => Refinable::Nothing,
        Type::String => Refinable::String,
        Type::Number => Refinable::Number,
        Type::List(_) | Type::Set(_) | Type::Map(_) => Refinable::Collection,
        Type::Bool | Type::Object(_) | Type::Tuple(_) => Refinable::Nullness,
    }
}

/// A builder of a more refined value: see [`Value::refine`].
#[must_use]
pub struct Refine {
    orig: Value,
    /// The refinement being built, for an unknown value of a refinable type.
    wip: Option<(Refinable, Refinement)>,
}

impl Value {
    /// Starts refining this value: the methods of [`Refine`] add what is
    /// known, [`Refine::build`] makes the new value. Only unknown values
    /// carry refinements; for a known value the builder checks nothing and
    /// gives the value back.
    pub fn refine(self) -> Refine {
        let wip = match self.unknown_parts() {
            Some((ty, r)) => match refinable(ty) {
                Refinable::Nothing => None,
                kind => Some((kind, r.cloned().unwrap_or_default())),
            },
            None => None,
        };
        Refine { orig: self, wip }
    }

    /// The value refined as not null (`RefineNotNull`).
    pub fn refine_not_null(self) -> Value {
        self.refine().not_null().build()
    }
}

impl Refine {
    /// The value is not null.
    pub fn not_null(mut self) -> Refine {
        if let Some((_, r)) = &mut self.wip {
            r.not_null = true;
        }
        self
    }

    /// A number's lower bound; ignored when the current one is tighter,
    /// and an infinite bound says nothing.
    pub fn number_lower(mut self, value: Number, inclusive: bool) -> Refine {
        if let Some((Refinable::Number, r)) = &mut self.wip {
            if value.is_infinite() && value.sign_bit() {
                return self;
            }
            let tighter = match &r.lower {
                None => true,
                Some(old) if inclusive && !old.inclusive => value > old.value,
                Some(old) => value >= old.value,
            };
            if tighter && bounds_consistent(Some(&Bound::new(value.clone(), inclusive)), r.upper.as_ref()) {
                r.lower = Some(Bound::new(value, inclusive));
            }
        }
        self
    }

    /// A number's upper bound; ignored when the current one is tighter.
    pub fn number_upper(mut self, value: Number, inclusive: bool) -> Refine {
        if let Some((Refinable::Number, r)) = &mut self.wip {
            if value.is_infinite() && !value.sign_bit() {
                return self;
            }
            let tighter = match &r.upper {
                None => true,
                Some(old) if inclusive && !old.inclusive => value < old.value,
                Some(old) => value <= old.value,
            };
            if tighter && bounds_consistent(r.lower.as_ref(), Some(&Bound::new(value.clone(), inclusive))) {
                r.upper = Some(Bound::new(value, inclusive));
            }
        }
        self
    }

    /// Both bounds of a number, inclusive; a bound not given (go-cty's
    /// unknown bound) leaves that side as it was.
    pub fn number_range_inclusive(self, lower: Option<Number>, upper: Option<Number>) -> Refine {
        let this = match lower {
            Some(lower) => self.number_lower(lower, true),
            None => self,
        };
        match upper {
            Some(upper) => this.number_upper(upper, true),
            None => this,
        }
    }

    /// The least length of a collection.
    pub fn length_lower(mut self, min: u64) -> Refine {
        if let Some((Refinable::Collection, r)) = &mut self.wip
            && min > r.min_length
            && min <= r.max_length
        {
            r.min_length = min;
        }
        self
    }

    /// The greatest length of a collection.
    pub fn length_upper(mut self, max: u64) -> Refine {
        if let Some((Refinable::Collection, r)) = &mut self.wip
            && max < r.max_length
            && max >= r.min_length
        {
            r.max_length = max;
        }
        self
    }

    /// A collection's exact length.
    pub fn length(self, length: u64) -> Refine {
        self.length_lower(length).length_upper(length)
    }

    /// A string's prefix, less any characters at its end that what follows
    /// could combine with (go-cty's `StringPrefix`, by way of
    /// `ctystrings.SafeKnownPrefix`).
    pub fn string_prefix(self, prefix: &str) -> Refine {
        let safe = safe_known_prefix(prefix, false);
        self.string_prefix_full(&safe)
    }

    /// A string's prefix, all of it (`StringPrefixFull`): for callers that
    /// know nothing after it can combine with its end.
    pub fn string_prefix_full(mut self, prefix: &str) -> Refine {
        if let Some((Refinable::String, r)) = &mut self.wip {
            let prefix = nfc(prefix);
            // A prefix that contradicts the one known is ignored; a longer
            // one that agrees replaces it.
            let common = prefix.len().min(r.prefix.len());
            if prefix.as_bytes()[..common] == r.prefix.as_bytes()[..common] && prefix.len() > r.prefix.len() {
                r.prefix = prefix;
            }
        }
        self
    }

    /// The refined value (`NewValue`). When what is known leaves one value,
    /// that value is returned known: a number whose inclusive bounds are
    /// equal, an empty collection, a list of known length (of unknown
    /// elements), a set of one unknown element. Only a value known not to
    /// be null collapses so.
    pub fn build(self) -> Value {
        let Some((kind, r)) = self.wip else { return self.orig };
        let ty = self.orig.ty();
        if r.not_null {
            match kind {
                Refinable::Number => {
                    if let (Some(lo), Some(hi)) = (&r.lower, &r.upper)
                        && lo.inclusive
                        && hi.inclusive
                        && lo.value == hi.value
                    {
                        return Value::number(lo.value.clone());
                    }
                }
                Refinable::Collection if r.min_length == r.max_length => {
                    let n = r.min_length;
                    let ety = ty.element_type().cloned().unwrap_or(Type::Dynamic);
                    let collapsed = match (&ty, n) {
                        (Type::List(_), 0) => Value::list(ety, Vec::new()).ok(),
                        (Type::Set(_), 0) => Value::set(ety, Vec::new()).ok(),
                        (Type::Map(_), 0) => Value::map(ety, Default::default()).ok(),
                        (Type::List(_), n) if n <= MAX_COLLAPSED_LIST => {
                            let elems = (0..n).map(|_| Value::unknown(ety.clone())).collect();
                            Value::list(ety, elems).ok()
                        }
                        (Type::Set(_), 1) => Value::set(ety.clone(), vec![Value::unknown(ety)]).ok(),
                        _ => None,
                    };
                    if let Some(v) = collapsed {
                        return v;
                    }
                }
                _ => {}
            }
        }
        if r.is_empty() {
            return Value::unknown(ty);
        }
        Value::unknown_refined(ty, r)
    }
}

/// Whether a lower and an upper bound leave any number between them.
fn bounds_consistent(lower: Option<&Bound>, upper: Option<&Bound>) -> bool {
    match (lower, upper) {
        (Some(lo), Some(hi)) if lo.inclusive && hi.inclusive => lo.value <= hi.value,
        (Some(lo), Some(hi)) => lo.value < hi.value || (lo.inclusive == hi.inclusive && lo.value <= hi.value),
        _ => true,
    }
}

/// What a value can be, known or not (`cty.ValueRange`): for an unknown
/// value its refinements, for a known one the narrowest description of
/// itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueRange {
    ty: Type,
    /// `Some(true)`: certainly null; `Some(false)`: certainly not; `None`:
    /// either.
    null: Option<bool>,
    prefix: String,
    lower: Option<Bound>,
    upper: Option<Bound>,
    min_length: u64,
    max_length: u64,
}

impl Value {
    /// What this value can be (`Value.Range`).
    pub fn range(&self) -> ValueRange {
        let ty = self.ty();
        let mut range = ValueRange {
            ty: ty.clone(),
            null: None,
            prefix: String::new(),
            lower: None,
            upper: None,
            min_length: 0,
            max_length: MAX_LENGTH,
        };
        if let Some((_, r)) = self.unknown_parts() {
            if let Some(r) = r {
                range.null = r.not_null.then_some(false);
                range.prefix = r.prefix.clone();
                range.lower = r.lower.clone();
                range.upper = r.upper.clone();
                range.min_length = r.min_length;
                range.max_length = r.max_length;
            }
            return range;
        }
        if self.is_null() {
            range.null = Some(true);
            return range;
        }
        range.null = Some(false);
        if let Some(s) = self.as_str() {
            range.prefix = s.to_string();
        } else if let Some(n) = self.as_number() {
            range.lower = Some(Bound::new(n.clone(), true));
            range.upper = Some(Bound::new(n.clone(), true));
        } else if ty.is_collection()
            && let Some(length) = self.length_value().as_number().and_then(Number::to_i64)
        {
            range.min_length = length.max(0) as u64;
            range.max_length = length.max(0) as u64;
        }
        range
    }
}

impl ValueRange {
    /// The type of every value in the range.
    pub fn ty(&self) -> &Type {
        &self.ty
    }

    pub fn definitely_not_null(&self) -> bool {
        self.null == Some(false)
    }

    pub fn could_be_null(&self) -> bool {
        self.null != Some(false)
    }

    pub fn definitely_null(&self) -> bool {
        self.null == Some(true)
    }

    /// A number's least value: `None` when not even the type is known to
    /// be number; an unbounded range is `-Inf`, exclusive.
    pub fn number_lower(&self) -> Option<Bound> {
        match self.ty {
            Type::Dynamic => None,
            _ => Some(self.lower.clone().unwrap_or(Bound::new(Number::neg_inf(), false))),
        }
    }

    /// A number's greatest value, as [`ValueRange::number_lower`].
    pub fn number_upper(&self) -> Option<Bound> {
        match self.ty {
            Type::Dynamic => None,
            _ => Some(self.upper.clone().unwrap_or(Bound::new(Number::pos_inf(), false))),
        }
    }

    /// The known prefix of a string: empty when nothing is known.
    pub fn string_prefix(&self) -> &str {
        &self.prefix
    }

    /// A collection's least length.
    pub fn length_lower(&self) -> u64 {
        self.min_length
    }

    /// A collection's greatest length ([`MAX_LENGTH`] when unbounded).
    pub fn length_upper(&self) -> u64 {
        self.max_length
    }

    /// Whether `v` is in the range (`ValueRange.Includes`): `Some(false)`
    /// when it certainly is not, `Some(true)` when it certainly is, `None`
    /// when it cannot be told. Like go-cty's, it mostly answers `false`.
    pub fn includes(&self, v: &Value) -> Option<bool> {
        match self.null {
            Some(true) => return Some(v.is_null()),
            Some(false) if v.is_null() => return Some(false),
            _ => {}
        }
        if v.is_null() {
            return Some(true);
        }
        if !crate::value::conforms(&v.ty(), &self.ty) {
            return Some(false);
        }
        if v.ty().is_dynamic() {
            return None;
        }
        match refinable(&self.ty) {
            Refinable::String => {
                if let Some(s) = v.as_str()
                    && !s.starts_with(self.prefix.as_str())
                {
                    return Some(false);
                }
            }
            Refinable::Collection => {
                if let Some(length) = v.length_value().as_number().and_then(Number::to_i64) {
                    let length = length.max(0) as u64;
                    if length < self.min_length || length > self.max_length {
                        return Some(false);
                    }
                }
            }
            Refinable::Number => {
                if let Some(n) = v.as_number() {
                    let lower = self.lower.as_ref();
                    let upper = self.upper.as_ref();
                    let above = lower.is_none_or(|b| if b.inclusive { *n >= b.value } else { *n > b.value });
                    let below = upper.is_none_or(|b| if b.inclusive { *n <= b.value } else { *n < b.value });
                    if !above || !below {
                        return Some(false);
                    }
                }
            }
            _ => {}
        }
        None
    }
}

/// go-cty's `ctystrings.SafeKnownPrefix`: the prefix, normalised, less what
/// at its end a following character could still change: the characters
/// after the last place Unicode normalisation cannot join across, or else
/// the last grapheme cluster, unless that is a single punctuation character
/// that always ends a cluster. `cut` says the text was cut inside a
/// character, whose bytes were dropped: the reference then keeps what
/// normalisation allows and no more.
pub fn safe_known_prefix(prefix: &str, cut: bool) -> String {
    let prefix = nfc(prefix);
    let boundary = last_nfc_boundary(&prefix, cut);
    if boundary != prefix.len() || cut {
        return prefix[..boundary].to_string();
    }
    let Some((start, last)) = prefix.grapheme_indices(true).next_back() else {
        return prefix;
    };
    let mut chars = last.chars();
    let ends_cluster = matches!(
        (chars.next(), chars.next()),
        (
            Some(
                '-' | '_'
                    | ':'
                    | ';'
                    | '/'
                    | '\\'
                    | ','
                    | '.'
                    | '('
                    | ')'
                    | '{'
                    | '}'
                    | '['
                    | ']'
                    | '|'
                    | '?'
                    | '!'
                    | '~'
                    | ' '
                    | '\t'
                    | '@'
                    | '#'
                    | '$'
                    | '%'
                    | '^'
                    | '&'
                    | '*'
                    | '+'
                    | '"'
                    | '\''
            ),
            None
        )
    );
    if ends_cluster { prefix } else { prefix[..start].to_string() }
}

/// The last place in NFC text after which nothing appended can change what
/// comes before under normalisation (x/text's `norm.NFC.LastBoundary`): the
/// end, when the last character is inert (a starter that composes with
/// nothing after it), else the start of the last starter. `cut` makes the
/// end a boundary only after an inert character, as the reference treats
/// the incomplete character it finds there.
fn last_nfc_boundary(text: &str, cut: bool) -> usize {
    let Some((last_start, last)) = text.char_indices().next_back() else {
        return 0;
    };
    if is_inert(last) {
        return text.len();
    }
    if cut {
        // The reference looks for a starter from the character before the
        // cut, as it would from an incomplete one.
        return text
            .char_indices()
            .rev()
            .find(|(_, c)| canonical_combining_class(*c) == 0)
            .map_or(0, |(i, _)| i);
    }
    if canonical_combining_class(last) == 0 {
        return last_start;
    }
    text[..last_start]
        .char_indices()
        .rev()
        .find(|(_, c)| canonical_combining_class(*c) == 0)
        .map_or(0, |(i, _)| i)
}

/// A character after which NFC never changes anything: a starter that is
/// not the first of any composition and normalises to itself.
fn is_inert(c: char) -> bool {
    canonical_combining_class(c) == 0
        && !composes_forward(c)
        && matches!(is_nfc_quick(std::iter::once(c)), IsNormalized::Yes)
}

/// Whether `c` is the first character of a canonical composition pair:
/// whether some character after it would compose with it. The characters
/// that can be second in a pair are exactly those whose NFC quick check is
/// "maybe", about a hundred, so each is tried.
fn composes_forward(c: char) -> bool {
    COMPOSITION_SECONDS.iter().any(|&b| compose(c, b).is_some())
}

/// The characters that can be second in a canonical composition pair
/// (those whose NFC quick check is "maybe"), in code point order, in the
/// Unicode version `unicode-normalization` has (a test checks them against
/// all of Unicode). Listed rather than found at first use: searching even
/// the few blocks they lie in took 2.5M instructions at a process's first
/// template, a sixth of what a warm check spent checking one small module
/// again.
#[rustfmt::skip]
const COMPOSITION_SECONDS: [char; 111] = [
    '\u{300}', '\u{301}', '\u{302}', '\u{303}', '\u{304}', '\u{306}', '\u{307}', '\u{308}',
    '\u{309}', '\u{30a}', '\u{30b}', '\u{30c}', '\u{30f}', '\u{311}', '\u{313}', '\u{314}',
    '\u{31b}', '\u{323}', '\u{324}', '\u{325}', '\u{326}', '\u{327}', '\u{328}', '\u{32d}',
    '\u{32e}', '\u{330}', '\u{331}', '\u{338}', '\u{342}', '\u{345}', '\u{653}', '\u{654}',
    '\u{655}', '\u{93c}', '\u{9be}', '\u{9d7}', '\u{b3e}', '\u{b56}', '\u{b57}', '\u{bbe}',
    '\u{bd7}', '\u{c56}', '\u{cc2}', '\u{cd5}', '\u{cd6}', '\u{d3e}', '\u{d57}', '\u{dca}',
    '\u{dcf}', '\u{ddf}', '\u{102e}', '\u{1161}', '\u{1162}', '\u{1163}', '\u{1164}', '\u{1165}',
    '\u{1166}', '\u{1167}', '\u{1168}', '\u{1169}', '\u{116a}', '\u{116b}', '\u{116c}', '\u{116d}',
    '\u{116e}', '\u{116f}', '\u{1170}', '\u{1171}', '\u{1172}', '\u{1173}', '\u{1174}', '\u{1175}',
    '\u{11a8}', '\u{11a9}', '\u{11aa}', '\u{11ab}', '\u{11ac}', '\u{11ad}', '\u{11ae}', '\u{11af}',
    '\u{11b0}', '\u{11b1}', '\u{11b2}', '\u{11b3}', '\u{11b4}', '\u{11b5}', '\u{11b6}', '\u{11b7}',
    '\u{11b8}', '\u{11b9}', '\u{11ba}', '\u{11bb}', '\u{11bc}', '\u{11bd}', '\u{11be}', '\u{11bf}',
    '\u{11c0}', '\u{11c1}', '\u{11c2}', '\u{1b35}', '\u{3099}', '\u{309a}', '\u{110ba}',
    '\u{11127}', '\u{1133e}', '\u{11357}', '\u{114b0}', '\u{114ba}', '\u{114bd}', '\u{115af}',
    '\u{11930}',
];

#[cfg(test)]
mod tests;
