use super::*;

fn unknown_string() -> Value {
    Value::unknown(Type::String)
}

#[test]
fn not_null_changes_how_nulls_compare() {
    let plain = unknown_string();
    let refined = unknown_string().refine_not_null();
    let null = Value::null(Type::String);
    assert_eq!(plain.equals(&null), None);
    assert_eq!(refined.equals(&null), Some(false));
    assert_eq!(null.equals(&refined), Some(false));
    assert!(refined.range().definitely_not_null());
    assert!(plain.range().could_be_null());
}

#[test]
fn the_dynamic_unknown_takes_no_refinement() {
    let v = Value::dynamic().refine_not_null();
    assert_eq!(v, Value::dynamic());
    assert!(v.range().could_be_null());
}

#[test]
fn a_known_value_is_unchanged_by_refining() {
    let v = Value::string("abc").refine().string_prefix_full("zzz").not_null().build();
    assert_eq!(v, Value::string("abc"));
}

#[test]
fn prefixes_rule_out_other_strings() {
    let v = unknown_string().refine().not_null().string_prefix_full("arn:aws").build();
    assert_eq!(v.equals(&Value::string("x")), Some(false));
    assert_eq!(v.equals(&Value::string("arn:aws:s3")), None);
    // A longer prefix that agrees replaces the known one; one that does not
    // agree is ignored.
    let longer = v.clone().refine().string_prefix_full("arn:aws:iam").build();
    assert_eq!(longer.range().string_prefix(), "arn:aws:iam");
    let contradicting = v.refine().string_prefix_full("xyz").build();
    assert_eq!(contradicting.range().string_prefix(), "arn:aws");
}

#[test]
fn safe_prefixes_drop_what_could_combine() {
    // A letter may take a combining mark after it; punctuation ends a
    // cluster and is kept.
    assert_eq!(safe_known_prefix("arn:aws", false), "arn:aw");
    assert_eq!(safe_known_prefix("prefix-", false), "prefix-");
    assert_eq!(safe_known_prefix("https://", false), "https://");
    assert_eq!(safe_known_prefix("", false), "");
    // `e` may compose with an accent that follows: cut before it.
    assert_eq!(safe_known_prefix("cafe", false), "caf");
    // A digit composes with nothing but could start a longer cluster.
    assert_eq!(safe_known_prefix("v1", false), "v");
}

#[test]
fn number_bounds_collapse_when_equal() {
    let five = Number::from_i64(5);
    let v = Value::unknown(Type::Number)
        .refine()
        .not_null()
        .number_range_inclusive(Some(five.clone()), Some(five.clone()))
        .build();
    assert_eq!(v, Value::number(five));
    // Without non-nullness the value could still be null: no collapse.
    let v = Value::unknown(Type::Number)
        .refine()
        .number_range_inclusive(Some(Number::from_i64(1)), Some(Number::from_i64(1)))
        .build();
    assert!(!v.is_known());
}

#[test]
fn bounds_only_tighten() {
    let v = Value::unknown(Type::Number)
        .refine()
        .number_lower(Number::from_i64(0), true)
        .number_upper(Number::from_i64(10), false)
        .build();
    let v =
        v.refine().number_lower(Number::from_i64(-5), true).number_upper(Number::from_i64(20), true).build();
    let range = v.range();
    assert_eq!(range.number_lower(), Some(Bound::new(Number::from_i64(0), true)));
    assert_eq!(range.number_upper(), Some(Bound::new(Number::from_i64(10), false)));
    assert_eq!(v.equals(&Value::int(10)), Some(false));
    assert_eq!(v.equals(&Value::int(5)), None);
    // A lower bound above the upper one contradicts it and is ignored.
    let v = v.refine().number_lower(Number::from_i64(50), true).build();
    assert_eq!(v.range().number_lower(), Some(Bound::new(Number::from_i64(0), true)));
}

#[test]
fn lengths_collapse_into_known_collections() {
    let list = Type::list(Type::String);
    let v = Value::unknown(list.clone()).refine().not_null().length(2).build();
    assert_eq!(v, Value::list(Type::String, vec![unknown_string(), unknown_string()]).unwrap());
    let v = Value::unknown(Type::map(Type::Number)).refine().not_null().length(0).build();
    assert_eq!(v.length(), Some(0));
    let v = Value::unknown(Type::set(Type::Bool)).refine().not_null().length(1).build();
    assert_eq!(v.length(), Some(1));
    let v = Value::unknown(Type::set(Type::Bool)).refine().not_null().length(2).build();
    assert!(!v.is_known());
    let v = Value::unknown(list).refine().not_null().length_lower(2).length_upper(5).build();
    let length = v.length_value();
    let range = length.range();
    assert_eq!(range.number_lower(), Some(Bound::new(Number::from_i64(2), true)));
    assert_eq!(range.number_upper(), Some(Bound::new(Number::from_i64(5), true)));
    assert!(range.definitely_not_null());
}

#[test]
fn an_unrefined_collection_has_the_largest_length() {
    let length = Value::unknown(Type::list(Type::String)).length_value();
    assert_eq!(length.range().number_upper(), Some(Bound::new(Number::from_u64(MAX_LENGTH), true)));
    assert_eq!(length.range().number_lower(), Some(Bound::new(Number::from_i64(0), true)));
}

#[test]
fn refinements_take_part_in_raw_equality() {
    let a = unknown_string();
    let b = unknown_string().refine_not_null();
    assert_ne!(a, b);
    // An empty refinement is no refinement.
    assert_eq!(a.clone().refine().build(), a);
}

#[test]
fn safe_prefixes_agree_with_the_reference() {
    // Each pair was computed with go-cty v1.16.3's `ctystrings.SafeKnownPrefix`.
    let cases = [
        ("a\u{301}", ""),
        ("한", ""),
        ("\u{1100}", ""),
        ("x ", "x "),
        ("é", ""),
        ("👍", ""),
        ("abc\u{308}", "ab"),
        ("ab1.", "ab1."),
        ("日本", "日"),
    ];
    for (input, want) in cases {
        assert_eq!(safe_known_prefix(input, false), want, "{input:?}");
    }
}

#[test]
fn the_second_characters_of_compositions_are_those_listed() {
    use unicode_normalization::{IsNormalized, is_nfc_quick};
    let everywhere: Vec<char> = (0..=0x10ffffu32)
        .filter_map(char::from_u32)
        .filter(|&b| matches!(is_nfc_quick(std::iter::once(b)), IsNormalized::Maybe))
        .collect();
    assert!(everywhere.len() > 100, "{}", everywhere.len());
    assert_eq!(super::COMPOSITION_SECONDS.as_slice(), everywhere.as_slice());
}
