//! SNBT: every grammar rule with accepted and rejected inputs, the printer's
//! round trip, peers' known bugs as regressions, the corpus through SNBT and
//! back, and the depth limit.
#![cfg(feature = "snbt")]

use std::io::Cursor;

use simdnbt::Mutf8String;
use simdnbt::owned::{self, NbtCompound, NbtList, NbtTag};
use simdnbt::snbt::{self, ErrorKind, PrintError};

fn parse(s: &str) -> NbtTag {
    snbt::from_str(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

fn kind(s: &str) -> ErrorKind {
    match snbt::from_str(s) {
        Ok(v) => panic!("{s:?} parsed as {v:?}"),
        Err(e) => e.kind(),
    }
}

fn rejects(s: &str) {
    assert!(snbt::from_str(s).is_err(), "{s:?} should be rejected");
}

fn compound(entries: Vec<(&str, NbtTag)>) -> NbtTag {
    NbtTag::Compound(NbtCompound::from_values(
        entries.into_iter().map(|(k, v)| (k.into(), v)).collect(),
    ))
}

fn wrapper(tag: NbtTag) -> NbtCompound {
    NbtCompound::from_values(vec![(Mutf8String::new(), tag)])
}

/// print -> parse gives the same tag (bits compared), compact and pretty.
fn round_trips(tag: &NbtTag) {
    for pretty in [false, true] {
        let text = if pretty {
            snbt::to_string_pretty(tag)
        } else {
            snbt::to_string(tag)
        }
        .unwrap_or_else(|e| panic!("{tag:?}: {e}"));
        let back = snbt::from_str(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(&back, tag, "through {text:?}");
    }
}

#[test]
fn booleans() {
    assert_eq!(parse("true"), NbtTag::Byte(1));
    assert_eq!(parse("false"), NbtTag::Byte(0));
    assert_eq!(parse("TRUE"), NbtTag::Byte(1));
    assert_eq!(parse("False"), NbtTag::Byte(0));
    // Longer words are strings; as a key, `true` is a string.
    assert_eq!(parse("truex"), NbtTag::String("truex".into()));
    assert_eq!(
        parse("{true:false}"),
        compound(vec![("true", NbtTag::Byte(0))])
    );
    rejects("tru e");
}

#[test]
fn integer_suffixes() {
    assert_eq!(parse("12"), NbtTag::Int(12));
    assert_eq!(parse("12i"), NbtTag::Int(12));
    assert_eq!(parse("12I"), NbtTag::Int(12));
    assert_eq!(parse("-3b"), NbtTag::Byte(-3));
    assert_eq!(parse("3B"), NbtTag::Byte(3));
    assert_eq!(parse("300s"), NbtTag::Short(300));
    assert_eq!(parse("300S"), NbtTag::Short(300));
    assert_eq!(parse("5l"), NbtTag::Long(5));
    assert_eq!(parse("5L"), NbtTag::Long(5));
    assert_eq!(parse("+7"), NbtTag::Int(7));
    assert_eq!(parse("200ub"), NbtTag::Byte(-56));
    assert_eq!(parse("100sb"), NbtTag::Byte(100));
    assert_eq!(parse("65535us"), NbtTag::Short(-1));
    assert_eq!(parse("-5ss"), NbtTag::Short(-5));
    assert_eq!(parse("4294967295ui"), NbtTag::Int(-1));
    assert_eq!(parse("-5si"), NbtTag::Int(-5));
    assert_eq!(parse("18446744073709551615ul"), NbtTag::Long(-1));
    assert_eq!(parse("-9223372036854775808sl"), NbtTag::Long(i64::MIN));
    assert_eq!(parse("1UB"), NbtTag::Byte(1));
    for bad in ["1x", "1bb", "1ux", "1us2", "1ubb", "1u", "5 b"] {
        rejects(bad);
    }
}

#[test]
fn integer_ranges_are_errors_not_wraps() {
    assert_eq!(parse("127b"), NbtTag::Byte(127));
    assert_eq!(parse("-128b"), NbtTag::Byte(-128));
    assert_eq!(kind("128b"), ErrorKind::NumberOutOfRange);
    assert_eq!(kind("-129b"), ErrorKind::NumberOutOfRange);
    assert_eq!(kind("256ub"), ErrorKind::NumberOutOfRange);
    assert_eq!(kind("32768s"), ErrorKind::NumberOutOfRange);
    assert_eq!(kind("2147483648"), ErrorKind::NumberOutOfRange);
    assert_eq!(parse("-2147483648"), NbtTag::Int(i32::MIN));
    assert_eq!(kind("9223372036854775808L"), ErrorKind::NumberOutOfRange);
    assert_eq!(
        kind("99999999999999999999999L"),
        ErrorKind::NumberOutOfRange
    );
    assert_eq!(kind("-1ub"), ErrorKind::NegativeUnsigned);
    assert_eq!(kind("-1ul"), ErrorKind::NegativeUnsigned);
}

#[test]
fn hex_and_binary() {
    assert_eq!(parse("0x1F"), NbtTag::Int(31));
    assert_eq!(parse("0X1f"), NbtTag::Int(31));
    assert_eq!(parse("0xFFFFFFFF"), NbtTag::Int(-1));
    assert_eq!(parse("0xFFub"), NbtTag::Byte(-1));
    assert_eq!(parse("0x80ub"), NbtTag::Byte(-128));
    assert_eq!(parse("-0x80sb"), NbtTag::Byte(-128));
    // Hex digits run on: `b` is a digit here.
    assert_eq!(parse("0x1b"), NbtTag::Int(0x1b));
    assert_eq!(parse("0x1s"), NbtTag::Short(1));
    assert_eq!(parse("0b101"), NbtTag::Int(5));
    assert_eq!(parse("0B11b"), NbtTag::Byte(3));
    assert_eq!(parse("0b11111111b"), NbtTag::Byte(-1));
    assert_eq!(parse("0b"), NbtTag::Byte(0));
    assert_eq!(parse("0"), NbtTag::Int(0));
    assert_eq!(kind("-0x1"), ErrorKind::NegativeUnsigned);
    assert_eq!(kind("-0b1"), ErrorKind::NegativeUnsigned);
    assert_eq!(kind("0x80000000si"), ErrorKind::NumberOutOfRange);
    assert_eq!(kind("0x100000000"), ErrorKind::NumberOutOfRange);
    assert_eq!(kind("0x1FFub"), ErrorKind::NumberOutOfRange);
    for bad in ["0x", "0xg", "0b2", "0b12", "0x1.5", "-0x"] {
        rejects(bad);
    }
}

#[test]
fn underscores_and_octal() {
    assert_eq!(parse("1_000"), NbtTag::Int(1000));
    assert_eq!(parse("1__0"), NbtTag::Int(10));
    assert_eq!(parse("0xFF_FF"), NbtTag::Int(0xFFFF));
    assert_eq!(parse("0b1_0"), NbtTag::Int(2));
    assert_eq!(parse("1_0.2_5e1_0f"), NbtTag::Float(10.25e10));
    // `_1` starts with a letter-like `_`: an unquoted string.
    assert_eq!(parse("_1"), NbtTag::String("_1".into()));
    for bad in [
        "1_", "-_1", "0x_1", "0x1_", "0b_1", "1._5", "1_.5", "1e_5", "0_1",
    ] {
        rejects(bad);
    }
    assert!(matches!(kind("1_"), ErrorKind::InvalidNumber(_)));
    assert!(matches!(kind("01"), ErrorKind::InvalidNumber(_)));
    assert!(matches!(kind("-007"), ErrorKind::InvalidNumber(_)));
    // A leading zero is fine in floats.
    assert_eq!(parse("01.5"), NbtTag::Double(1.5));
    assert_eq!(parse("01f"), NbtTag::Float(1.0));
}

#[test]
fn floats() {
    assert_eq!(parse("1.5"), NbtTag::Double(1.5));
    assert_eq!(parse("1.5d"), NbtTag::Double(1.5));
    assert_eq!(parse("1.5D"), NbtTag::Double(1.5));
    assert_eq!(parse("1.5f"), NbtTag::Float(1.5));
    assert_eq!(parse("1.5F"), NbtTag::Float(1.5));
    assert_eq!(parse("1."), NbtTag::Double(1.0));
    assert_eq!(parse(".5"), NbtTag::Double(0.5));
    assert_eq!(parse("-.5f"), NbtTag::Float(-0.5));
    assert_eq!(parse("1e3"), NbtTag::Double(1000.0));
    assert_eq!(parse("1E+3f"), NbtTag::Float(1000.0));
    assert_eq!(parse("2.5e-3"), NbtTag::Double(2.5e-3));
    assert_eq!(parse("1.e2"), NbtTag::Double(100.0));
    assert_eq!(parse("3f"), NbtTag::Float(3.0));
    assert_eq!(parse("3d"), NbtTag::Double(3.0));
    assert_eq!(parse("-0.0"), NbtTag::Double(-0.0));
    assert_eq!(parse("1e-400"), NbtTag::Double(0.0));
    assert_eq!(parse("0.1f"), NbtTag::Float(0.1));
    assert_eq!(kind("1e39f"), ErrorKind::NonFiniteNumber);
    assert_eq!(kind("1e309"), ErrorKind::NonFiniteNumber);
    for bad in [
        ".", "-.", "1.5b", "1.5.5", "1e", "1e+", "1.5e", "1.5fd", ".e5", "1.5L", "- 1",
    ] {
        rejects(bad);
    }
}

/// `text` (a plain decimal, `I.F`, no exponent) written as the same value with
/// `pad` more leading zeros in the fraction and an exponent of 5+ digits that
/// makes up for them: `0.000…0IF e(pad + len(I))`.
fn far(text: &str, pad: usize) -> String {
    let (sign, text) = text.strip_prefix('-').map_or(("", text), |t| ("-", t));
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    format!(
        "{sign}0.{}{whole}{frac}e{}",
        "0".repeat(pad),
        pad + whole.len()
    )
}

/// Floats with exponents of 5 digits or more read as what they are (std's
/// parser saturates such exponents; the literal is cut to 800 significant
/// digits with a sticky digit and given a small exponent first). Issue 26:
/// `"3" × 10^6` then `e-999990f` is 3.3333332E9 in vanilla, and was refused
/// as infinite.
#[test]
fn floats_with_huge_exponents_round_correctly() {
    let threes = "3".repeat(1_000_000);
    let issue = format!("{threes}e-999990f");
    assert_eq!(parse(&issue), NbtTag::Float(3.333_333_2e9));
    assert_eq!(
        parse(&issue),
        NbtTag::Float("3333333333.3333".parse().unwrap())
    );
    let double = format!("{threes}e-999990");
    assert_eq!(
        parse(&double),
        NbtTag::Double("3333333333.333333333333".parse().unwrap())
    );
    // The same values written far out, every boundary of both widths.
    let f64_cases = [
        "1.7976931348623157e308",  // max finite
        "2.2250738585072014e-308", // min normal
        "2.2250738585072011e-308", // max subnormal
        "4.9406564584124654e-324", // min subnormal
        "2.4703282292062328e-324", // just over half the min subnormal: rounds up
        "0.1",
        "-123.456",
    ];
    let plain = |t: &str| -> String {
        // `far` wants no exponent: spell the value out.
        let v: f64 = t.parse().unwrap();
        format!("{v:.1100}").trim_end_matches('0').to_owned()
    };
    for case in f64_cases {
        let want: f64 = case.parse().unwrap();
        let spelled = plain(case);
        for pad in [100_000, 1_000_000] {
            assert_eq!(
                parse(&far(&spelled, pad)),
                NbtTag::Double(want),
                "{case}, pad {pad}"
            );
        }
    }
    let f32_cases = ["3.4028235e38", "1.17549435e-38", "1.4e-45", "0.1", "-7.5"];
    for case in f32_cases {
        let want: f32 = case.parse().unwrap();
        let spelled = format!("{:.200}", want as f64)
            .trim_end_matches('0')
            .to_owned();
        assert_eq!(
            parse(&format!("{}f", far(&spelled, 100_000))),
            NbtTag::Float(want),
            "{case}f"
        );
    }
    // Exactly halfway between 1 and the next double rounds to even (1.0);
    // a non-zero digit 2000 places later, past the 800 kept, tips it up.
    let halfway = "1.00000000000000011102230246251565404236316680908203125";
    assert_eq!(parse(&far(halfway, 100_000)), NbtTag::Double(1.0));
    let tipped = format!("{halfway}{}1", "0".repeat(2000));
    assert_eq!(
        parse(&far(&tipped, 100_000)),
        NbtTag::Double(1.0000000000000002)
    );
    let zeros = format!("{halfway}{}", "0".repeat(2000));
    assert_eq!(parse(&far(&zeros, 100_000)), NbtTag::Double(1.0));
    // Past either end of the range; zero stays zero (with its sign).
    assert_eq!(kind("1e99999"), ErrorKind::NonFiniteNumber);
    assert_eq!(kind("1e99999f"), ErrorKind::NonFiniteNumber);
    assert_eq!(
        kind(&format!("0.{}1e99999", "0".repeat(99_000))),
        ErrorKind::NonFiniteNumber
    );
    assert_eq!(parse("1e-99999"), NbtTag::Double(0.0));
    assert_eq!(parse("-1e-99999f"), NbtTag::Float(-0.0));
    assert_eq!(parse("0e99999"), NbtTag::Double(0.0));
    assert_eq!(parse("-0.000e-123456"), NbtTag::Double(-0.0));
    assert_eq!(parse("1e00000000003"), NbtTag::Double(1000.0));
    assert_eq!(parse("1_000e-0_0003"), NbtTag::Double(1.0));
}

#[test]
fn nan_and_infinity_read_as_vanilla_reads_them() {
    assert_eq!(parse("NaNd"), NbtTag::String("NaNd".into()));
    assert_eq!(parse("Infinityd"), NbtTag::String("Infinityd".into()));
    assert_eq!(parse("Infinityf"), NbtTag::String("Infinityf".into()));
    rejects("-Infinityd");
    rejects("+NaN");
    // And the printer refuses them rather than write what reads as a string.
    for t in [
        NbtTag::Float(f32::NAN),
        NbtTag::Double(f64::INFINITY),
        NbtTag::Double(f64::NEG_INFINITY),
        NbtTag::List(NbtList::Float(vec![1.0, f32::NAN])),
    ] {
        assert_eq!(snbt::to_string(&t), Err(PrintError::NonFiniteNumber));
    }
}

#[test]
fn quoted_strings_and_escapes() {
    let s = |x: &str| NbtTag::String(x.into());
    assert_eq!(parse(r#""hello world""#), s("hello world"));
    assert_eq!(parse("'hello'"), s("hello"));
    assert_eq!(parse(r#""it's""#), s("it's"));
    assert_eq!(parse(r#"'say "hi"'"#), s("say \"hi\""));
    assert_eq!(parse(r#""a\"b\'c\\d""#), s("a\"b'c\\d"));
    assert_eq!(parse(r#"'a\"b\'c'"#), s("a\"b'c"));
    assert_eq!(parse(r#""\b\s\t\n\f\r""#), s("\u{8} \t\n\u{c}\r"));
    assert_eq!(parse(r#""\x41\x7a""#), s("Az"));
    assert_eq!(parse(r#""\u00e9\u00E9""#), s("éé"));
    assert_eq!(parse(r#""\U0001F600""#), s("😀"));
    assert_eq!(parse(r#""\uD83D\uDE00""#), s("😀"));
    assert_eq!(parse(r#""\x00""#), s("\0"));
    assert_eq!(parse("\"line\nbreak\""), s("line\nbreak"));
    assert_eq!(parse("\"ünïcödé 😀\""), s("ünïcödé 😀"));
    assert_eq!(parse("\"\""), s(""));
    // An unpaired surrogate is kept as Java would store it.
    assert_eq!(
        parse(r#""\uD800""#),
        NbtTag::String(Mutf8String::from_vec(vec![0xED, 0xA0, 0x80]))
    );
    for bad in [
        r#""\q""#,
        r#""\x4""#,
        r#""\xZZ""#,
        r#""\u12""#,
        r#""\U00110000""#,
        r#""\N""#,
        r#""\N{""#,
        "\"abc",
        "'abc\"",
        "\"\\",
        "\"a\\",
    ] {
        rejects(bad);
    }
    assert_eq!(kind(r#""\q""#), ErrorKind::InvalidEscape);
}

#[test]
#[cfg(feature = "snbt-unicode-names")]
fn named_escapes() {
    assert_eq!(parse(r#""\N{SNOWMAN}""#), NbtTag::String("☃".into()));
    assert_eq!(
        parse(r#""\N{latin small letter e with acute}""#),
        NbtTag::String("é".into())
    );
    assert_eq!(
        parse(r#""\N{GRINNING FACE}!""#),
        NbtTag::String("😀!".into())
    );
    assert_eq!(
        kind(r#""\N{NO SUCH CHARACTER NAME}""#),
        ErrorKind::UnknownCharacterName
    );
    assert_eq!(kind(r#""\N{}""#), ErrorKind::UnknownCharacterName);
    // Java matches the exact name (any case, outer spaces trimmed), not loosely.
    assert_eq!(parse(r#""\N{ snowman }""#), NbtTag::String("☃".into()));
    assert_eq!(kind(r#""\N{SNOW MAN}""#), ErrorKind::UnknownCharacterName);
    assert_eq!(kind(r#""\N{-SNOWMAN}""#), ErrorKind::UnknownCharacterName);
}

/// Without the name tables, `\N{…}` is an error that says which feature has
/// them, even for a real name.
#[test]
#[cfg(not(feature = "snbt-unicode-names"))]
fn named_escapes_without_the_feature_name_it() {
    assert_eq!(
        kind(r#""\N{SNOWMAN}""#),
        ErrorKind::CharacterNamesNotEnabled
    );
    let e = simdnbt::snbt::from_str(r#"{a: "x\N{SNOWMAN}"}"#).unwrap_err();
    let message = e.to_string();
    assert!(message.contains("snbt-unicode-names"), "{message}");
    assert_eq!(e.column(), 7, "{message}");
    // The other escapes need no tables.
    assert_eq!(parse(r#""\u2603""#), NbtTag::String("☃".into()));
}

#[test]
fn unquoted_strings() {
    let s = |x: &str| NbtTag::String(x.into());
    assert_eq!(parse("minecraft_stone"), s("minecraft_stone"));
    assert_eq!(parse("a-b.c+d_E9"), s("a-b.c+d_E9"));
    assert_eq!(parse("e5"), s("e5"));
    assert_eq!(parse("_x"), s("_x"));
    // Values starting with a digit, sign or dot are numbers, never strings.
    for bad in [
        "1abc",
        "+x",
        "-x",
        ".x",
        "5minecraft",
        "minecraft:stone",
        "a b",
        "é",
        "",
    ] {
        rejects(bad);
    }
    // Keys may start with anything an unquoted string holds.
    assert_eq!(parse("{1:a}"), compound(vec![("1", s("a"))]));
    assert_eq!(
        parse("{-x.y+:1b}"),
        compound(vec![("-x.y+", NbtTag::Byte(1))])
    );
}

#[test]
fn compounds() {
    let c = parse(r#"{ a : 1 , "b c" : 'x' , 'd' : {} }"#);
    assert_eq!(
        c,
        compound(vec![
            ("a", NbtTag::Int(1)),
            ("b c", NbtTag::String("x".into())),
            ("d", compound(vec![])),
        ])
    );
    assert_eq!(parse("{a:1,}"), compound(vec![("a", NbtTag::Int(1))]));
    assert_eq!(parse("{}"), compound(vec![]));
    assert_eq!(parse("{ }"), compound(vec![]));
    // A repeated key keeps the last value, at the first key's place.
    assert_eq!(
        parse("{a:1,b:2,a:3}"),
        compound(vec![("a", NbtTag::Int(3)), ("b", NbtTag::Int(2))])
    );
    let many: String = (0..40).map(|i| format!("k{}:{i},", i % 20)).collect();
    let c = parse(&format!("{{{many}}}"));
    let c = c.compound().unwrap();
    assert_eq!(c.len(), 20);
    assert_eq!(c.int("k3"), Some(23));
    // The empty key: accepted here (vanilla rejects it), printed quoted.
    assert_eq!(parse(r#"{"":1}"#), compound(vec![("", NbtTag::Int(1))]));
    assert_eq!(snbt::to_string(&parse(r#"{"":1}"#)).unwrap(), r#"{"":1}"#);
    for bad in [
        "{,}",
        "{a:1,,}",
        "{a}",
        "{a:}",
        "{:1}",
        "{a:1",
        "{a 1}",
        "{a:1 b:2}",
        "{a:1]",
    ] {
        rejects(bad);
    }
    assert_eq!(
        snbt::compound_from_str("{a:1}").unwrap(),
        NbtCompound::from_values(vec![("a".into(), NbtTag::Int(1))])
    );
    assert_eq!(
        snbt::compound_from_str(" [1]").unwrap_err().kind(),
        ErrorKind::NotACompound
    );
}

#[test]
fn lists() {
    assert_eq!(parse("[]"), NbtTag::List(NbtList::Empty));
    assert_eq!(parse("[ ]"), NbtTag::List(NbtList::Empty));
    assert_eq!(parse("[1,2,3]"), NbtTag::List(NbtList::Int(vec![1, 2, 3])));
    assert_eq!(parse("[1b, 2b,]"), NbtTag::List(NbtList::Byte(vec![1, 2])));
    assert_eq!(
        parse("[true,false]"),
        NbtTag::List(NbtList::Byte(vec![1, 0]))
    );
    assert_eq!(
        parse("[[1],[a]]"),
        NbtTag::List(NbtList::List(vec![
            NbtList::Int(vec![1]),
            NbtList::String(vec!["a".into()])
        ]))
    );
    assert_eq!(
        parse("[{a:1},{}]"),
        NbtTag::List(NbtList::Compound(vec![
            NbtCompound::from_values(vec![("a".into(), NbtTag::Int(1))]),
            NbtCompound::new()
        ]))
    );
    for bad in ["[,]", "[1,,2]", "[1 2]", "[1", "[1}", "]"] {
        rejects(bad);
    }
}

#[test]
fn heterogeneous_lists_use_wrappers() {
    let plain_compound = NbtCompound::from_values(vec![("x".into(), NbtTag::Int(1))]);
    let expected = NbtTag::List(NbtList::Compound(vec![
        wrapper(NbtTag::Byte(1)),
        wrapper(NbtTag::String("a".into())),
        plain_compound.clone(),
        // A compound that looks like a wrapper is wrapped again.
        wrapper(NbtTag::Compound(wrapper(NbtTag::Int(2)))),
        wrapper(NbtTag::List(NbtList::Empty)),
    ]));
    let parsed = parse(r#"[1b, "a", {x:1}, {"":2}, []]"#);
    assert_eq!(parsed, expected);
    // Printed back as the plain list.
    assert_eq!(
        snbt::to_string(&parsed).unwrap(),
        r#"[1b,"a",{x:1},{"":2},[]]"#
    );
    round_trips(&parsed);
    assert_eq!(
        parse("[1, 1b]"),
        NbtTag::List(NbtList::Compound(vec![
            wrapper(NbtTag::Int(1)),
            wrapper(NbtTag::Byte(1))
        ]))
    );

    // Wrapper lists that would not read back as themselves print literally.
    let same_type = NbtTag::List(NbtList::Compound(vec![
        wrapper(NbtTag::Byte(1)),
        wrapper(NbtTag::Byte(2)),
    ]));
    assert_eq!(snbt::to_string(&same_type).unwrap(), r#"[{"":1b},{"":2b}]"#);
    round_trips(&same_type);
    let wrapped_plain = NbtTag::List(NbtList::Compound(vec![
        wrapper(NbtTag::Compound(plain_compound.clone())),
        wrapper(NbtTag::Byte(2)),
    ]));
    assert_eq!(
        snbt::to_string(&wrapped_plain).unwrap(),
        r#"[{"":{x:1}},{"":2b}]"#
    );
    round_trips(&wrapped_plain);
}

#[test]
fn typed_arrays() {
    assert_eq!(parse("[B;1b,2B,3]"), NbtTag::ByteArray(vec![1, 2, 3]));
    assert_eq!(parse("[B;]"), NbtTag::ByteArray(vec![]));
    assert_eq!(
        parse("[B; -128, 127b, 255ub, 0xFFub,]"),
        NbtTag::ByteArray(vec![0x80, 0x7F, 0xFF, 0xFF])
    );
    assert_eq!(
        parse("[I; 1, 2s, 3b, -4i, 0xFFFFFFFF, 255ub]"),
        NbtTag::IntArray(vec![1, 2, 3, -4, -1, -1])
    );
    assert_eq!(parse("[I;]"), NbtTag::IntArray(vec![]));
    assert_eq!(
        parse("[L; 1, 2L, 3b, 4s, 5i, 18446744073709551615ul]"),
        NbtTag::LongArray(vec![1, 2, 3, 4, 5, -1])
    );
    assert_eq!(parse("[L;]"), NbtTag::LongArray(vec![]));
    assert_eq!(kind("[B;300]"), ErrorKind::NumberOutOfRange);
    assert_eq!(kind("[B;128]"), ErrorKind::NumberOutOfRange);
    assert_eq!(kind("[B;1s]"), ErrorKind::InvalidArrayElement);
    assert_eq!(kind("[B;1L]"), ErrorKind::InvalidArrayElement);
    assert_eq!(kind("[I;1L]"), ErrorKind::InvalidArrayElement);
    assert_eq!(kind("[I;2147483648]"), ErrorKind::NumberOutOfRange);
    assert_eq!(kind("[I;128b]"), ErrorKind::NumberOutOfRange);
    for bad in [
        "[B;1.5]",
        "[I;1f]",
        "[I;a]",
        "[I;\"1\"]",
        "[I;[1]]",
        "[I;,]",
        "[I;1,,2]",
        "[I;1",
        "[I;1 2]",
        "[b;1]",
        "[D;1]",
    ] {
        rejects(bad);
    }
    // Not an array prefix: a list whose first element is the string B.
    assert_eq!(
        parse("[B]"),
        NbtTag::List(NbtList::String(vec!["B".into()]))
    );
    rejects("[ B;1]");
}

#[test]
fn functions() {
    assert_eq!(parse("bool(1)"), NbtTag::Byte(1));
    assert_eq!(parse("bool(0)"), NbtTag::Byte(0));
    assert_eq!(parse("bool(true)"), NbtTag::Byte(1));
    assert_eq!(parse("bool( 0.0d )"), NbtTag::Byte(0));
    assert_eq!(parse("bool(-2L)"), NbtTag::Byte(1));
    assert_eq!(parse("bool(bool(5))"), NbtTag::Byte(1));
    assert_eq!(
        parse(r#"uuid("f81d4fae-7dec-11d0-a765-00a0c91e4bf6")"#),
        NbtTag::IntArray(vec![
            0xf81d4faeu32 as i32,
            0x7dec11d0,
            0xa76500a0u32 as i32,
            0xc91e4bf6u32 as i32
        ])
    );
    assert_eq!(
        parse("uuid(f81d4fae-7dec-11d0-a765-00a0c91e4bf6)"),
        parse(r#"uuid('F81D4FAE-7DEC-11D0-A765-00A0C91E4BF6')"#)
    );
    // Java's lenient form: short groups are fine.
    assert_eq!(
        parse("uuid('1-2-3-4-5')"),
        NbtTag::IntArray(vec![1, 0x0002_0003, 0x0004_0000, 5])
    );
    assert_eq!(
        parse("{id:uuid('0-0-0-0-0'),}"),
        compound(vec![("id", NbtTag::IntArray(vec![0; 4]))])
    );
    assert_eq!(
        kind("bool('x')"),
        ErrorKind::InvalidArgument("bool() takes a number or boolean")
    );
    assert_eq!(kind("bool(1,2)"), ErrorKind::UnknownFunction);
    assert_eq!(kind("bool()"), ErrorKind::UnknownFunction);
    assert_eq!(kind("nope(1)"), ErrorKind::UnknownFunction);
    assert_eq!(kind("BOOL(1)"), ErrorKind::UnknownFunction);
    for bad in [
        "uuid(1)",
        "uuid('x')",
        "uuid('1-2-3-4')",
        "uuid('1-2-3-4-5-6')",
        "uuid('1-2-3--5')",
        "uuid('00000000-0000-0000-0000-0000000000000')",
        "uuid('+1-2-3-4-5')",
        "bool (1)",
        "bool(1",
        "bool(1]",
    ] {
        rejects(bad);
    }
}

#[test]
fn whitespace() {
    assert_eq!(parse(" \t\n{ a :\r\n[ 1 , 2 ] }\n "), parse("{a:[1,2]}"));
    // Unicode space separators count, no-break space does not.
    assert_eq!(parse("\u{3000}{a:1}\u{2003}"), parse("{a:1}"));
    rejects("\u{a0}1");
    assert_eq!(parse("[I;\n1,\n2\n]"), NbtTag::IntArray(vec![1, 2]));
}

#[test]
fn errors_say_where_and_what() {
    let e = snbt::from_str("{a:1,\n  b:[1,2 3]}").unwrap_err();
    assert_eq!((e.line(), e.column(), e.offset()), (2, 10, 15));
    assert_eq!(e.kind(), ErrorKind::Expected("`,` or `]`"));
    assert_eq!(e.to_string(), "line 2, column 10: expected `,` or `]`");
    let e = snbt::from_str("{é:1}").unwrap_err();
    assert_eq!((e.line(), e.column()), (1, 2));
    assert_eq!(e.kind(), ErrorKind::Expected("a key"));
    let e = snbt::from_str("\"abc").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Expected("a closing quote"));
    let e = snbt::from_str("{a:1} x").unwrap_err();
    assert_eq!(
        (e.column(), e.kind()),
        (7, ErrorKind::Expected("the end of the input"))
    );
    let e = snbt::from_str("[1,2,999999999999]").unwrap_err();
    assert_eq!((e.column(), e.kind()), (6, ErrorKind::NumberOutOfRange));
    let e = snbt::from_str("").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Expected("a value"));
}

fn nested(levels: usize, open: &str, close: &str, inner: &str) -> String {
    let mut s = open.repeat(levels);
    s.push_str(inner);
    s.push_str(&close.repeat(levels));
    s
}

/// Runs `f` on a thread with a small stack: proves nothing recurses per level.
fn small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(128 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn depth_512_reads_and_513_does_not() {
    small_stack(|| {
        for (open, close, inner) in [("[", "]", "1"), ("{a:", "}", "1"), ("bool(", ")", "1")] {
            let ok = nested(512, open, close, inner);
            let tag = snbt::from_str(&ok).unwrap_or_else(|e| panic!("{open}: {e}"));
            // And it prints back, compact and pretty, on the same small stack.
            if open != "bool(" {
                assert_eq!(
                    snbt::from_str(&snbt::to_string(&tag).unwrap()).unwrap(),
                    tag
                );
                assert_eq!(
                    snbt::from_str(&snbt::to_string_pretty(&tag).unwrap()).unwrap(),
                    tag
                );
            }
            let deep = nested(513, open, close, inner);
            assert_eq!(
                snbt::from_str(&deep).unwrap_err().kind(),
                ErrorKind::MaxDepthExceeded
            );
        }
        // `{a:` inside 511 lists: 512 levels with the compound.
        let mixed = nested(511, "[", "]", "{a:[I;1]}");
        assert!(snbt::from_str(&mixed).is_ok());
        let mixed = nested(512, "[", "]", "{a:1}");
        assert_eq!(
            snbt::from_str(&mixed).unwrap_err().kind(),
            ErrorKind::MaxDepthExceeded
        );
        // Far deeper input is rejected just as cheaply, without a stack overflow.
        let hostile = "[".repeat(1_000_000);
        assert_eq!(
            snbt::from_str(&hostile).unwrap_err().kind(),
            ErrorKind::MaxDepthExceeded
        );
    });
}

#[test]
fn nested_lists_turning_mixed_are_not_copied_per_level() {
    // Each level's list turns heterogeneous after its first element; moving
    // (not cloning) the elements keeps this linear.
    let big: String = format!("[{}1]", "1,".repeat(200_000));
    let text = nested(500, "[", ",1b]", &big);
    let started = std::time::Instant::now();
    let tag = parse(&text);
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    let mut depth = 0;
    let mut t = &tag;
    while let NbtTag::List(NbtList::Compound(v)) = t {
        t = v[0].values().next().unwrap();
        depth += 1;
    }
    assert_eq!(depth, 500);
}

#[test]
fn printing_deep_owned_trees_stops_at_the_limit() {
    small_stack(|| {
        let mut tag = NbtTag::Int(1);
        for _ in 0..100_000 {
            tag = NbtTag::List(NbtList::List(vec![match tag {
                NbtTag::List(l) => l,
                other => NbtList::from(vec![other]),
            }]));
        }
        assert_eq!(snbt::to_string(&tag), Err(PrintError::MaxDepthExceeded));
        // Dropped inside a compound, as a document holds it.
        drop(compound(vec![("deep", tag)]));
        for (levels, ok) in [(512, true), (513, false)] {
            let mut tag = NbtTag::Compound(NbtCompound::new());
            for _ in 1..levels {
                tag = compound(vec![("a", tag)]);
            }
            assert_eq!(snbt::to_string(&tag).is_ok(), ok, "{levels}");
            let mut list = NbtTag::List(NbtList::Int(vec![1]));
            for _ in 1..levels {
                list = NbtTag::List(NbtList::List(vec![list.into_list().unwrap()]));
            }
            assert_eq!(snbt::to_string_pretty(&list).is_ok(), ok, "{levels}");
        }
    });
}

#[test]
fn printer_quotes_what_would_read_as_something_else() {
    for s in [
        "true", "false", "TRUE", "1b", "+x", "-x", ".5", "", "1", "0x1F", "NaNd", "a b", "bool",
        "uuid(1)", "[B;1]", "{}", "é", "\"", "'", "\"'", "\\", "B;",
    ] {
        let tag = NbtTag::String(s.into());
        let text = snbt::to_string(&tag).unwrap();
        assert!(
            text.starts_with('"') || text.starts_with('\''),
            "{s:?} printed as {text}"
        );
        round_trips(&tag);
        // The same string as a key.
        round_trips(&compound(vec![(s, NbtTag::Byte(0))]));
    }
    assert_eq!(
        snbt::to_string(&NbtTag::String("say \"hi\"".into())).unwrap(),
        r#"'say "hi"'"#
    );
    assert_eq!(
        snbt::to_string(&NbtTag::String("a\"'b".into())).unwrap(),
        r#""a\"'b""#
    );
    assert_eq!(
        snbt::to_string(&compound(vec![("true", NbtTag::Byte(0))])).unwrap(),
        r#"{"true":0b}"#
    );
    assert_eq!(
        snbt::to_string(&compound(vec![("1a", NbtTag::Byte(0))])).unwrap(),
        r#"{"1a":0b}"#
    );
    assert_eq!(
        snbt::to_string(&compound(vec![("a.b-c+d_1", NbtTag::Byte(0))])).unwrap(),
        "{a.b-c+d_1:0b}"
    );
}

#[test]
fn printer_escapes_control_characters() {
    let tag = NbtTag::String("a\n\t\r\u{8}\u{c}\0\u{1f}\u{7f}\u{85}é😀".into());
    assert_eq!(
        snbt::to_string(&tag).unwrap(),
        "\"a\\n\\t\\r\\b\\f\\x00\\x1F\\x7F\\x85é😀\""
    );
    round_trips(&tag);
    // Unpaired surrogates survive as \u escapes.
    let lone = NbtTag::String(Mutf8String::from_vec(vec![
        b'a', 0xED, 0xBF, 0xBF, 0xED, 0xA0, 0x80,
    ]));
    assert_eq!(snbt::to_string(&lone).unwrap(), r#""a\uDFFF\uD800""#);
    round_trips(&lone);
    // 4-byte UTF-8 (not MUTF-8) prints as its character and reads back as MUTF-8.
    let utf8 = NbtTag::String(Mutf8String::from_vec(vec![0xF0, 0x9F, 0x98, 0x80]));
    assert_eq!(snbt::to_string(&utf8).unwrap(), "\"😀\"");
    assert_eq!(parse("\"😀\""), NbtTag::String("😀".into()));
    // Bytes Java could not hold are an error, never a silent change.
    for bad in [
        vec![0xFF],
        vec![0xC1, 0x81],
        vec![0xF0, 0x9F, 0x98],
        vec![0xE2, 0x82],
        vec![0x80],
    ] {
        let tag = NbtTag::String(Mutf8String::from_vec(bad));
        assert_eq!(snbt::to_string(&tag), Err(PrintError::InvalidString));
    }
}

#[test]
fn floats_print_to_the_same_bits() {
    let floats = [
        0.0f32,
        -0.0,
        0.1,
        1.0 / 3.0,
        f32::MAX,
        f32::MIN,
        f32::MIN_POSITIVE,
        1e-45,
        123456.79,
        1e20,
        3e-8,
    ];
    for f in floats {
        let tag = NbtTag::Float(f);
        let back = snbt::from_str(&snbt::to_string(&tag).unwrap()).unwrap();
        assert_eq!(back.float().unwrap().to_bits(), f.to_bits(), "{f:e}");
    }
    let doubles = [
        0.0f64,
        -0.0,
        0.1,
        1.0 / 3.0,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        5e-324,
        1e300,
        2.5e-10,
        0.30000000000000004,
    ];
    for d in doubles {
        let tag = NbtTag::Double(d);
        let back = snbt::from_str(&snbt::to_string(&tag).unwrap()).unwrap();
        assert_eq!(back.double().unwrap().to_bits(), d.to_bits(), "{d:e}");
    }
    // A pseudo-random sweep of bit patterns.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let d = f64::from_bits(x);
        let f = f32::from_bits(x as u32);
        if d.is_finite() {
            round_trips(&NbtTag::Double(d));
        }
        if f.is_finite() {
            round_trips(&NbtTag::Float(f));
        }
    }
    assert_eq!(snbt::to_string(&NbtTag::Double(1.0)).unwrap(), "1.0d");
    assert_eq!(snbt::to_string(&NbtTag::Float(1e20)).unwrap(), "1e20f");
}

#[test]
fn pretty_form() {
    let tag = parse(r#"{a:1b,b:[1,2],c:[{d:"x"},{}],e:[I;1,2],f:{},g:[],h:[[1s],[]]}"#);
    let pretty = snbt::to_string_pretty(&tag).unwrap();
    assert_eq!(
        pretty,
        "{
    a: 1b,
    b: [1, 2],
    c: [
        {
            d: \"x\"
        },
        {}
    ],
    e: [I; 1, 2],
    f: {},
    g: [],
    h: [
        [1s],
        []
    ]
}"
    );
    assert_eq!(parse(&pretty), tag);
    assert_eq!(
        snbt::to_string(&tag).unwrap(),
        r#"{a:1b,b:[1,2],c:[{d:"x"},{}],e:[I;1,2],f:{},g:[],h:[[1s],[]]}"#
    );
}

#[test]
fn borrowed_documents_print() {
    let tag = parse(r#"{name:"Steve",pos:[1.0d,64.0d],inv:[{id:"a",n:1b}]}"#);
    let mut bytes = Vec::new();
    owned::BaseNbt::new("", tag.compound().unwrap().clone())
        .write(&mut bytes)
        .unwrap();
    let doc = simdnbt::borrow::read(&mut Cursor::new(&bytes[..]))
        .unwrap()
        .unwrap();
    assert_eq!(
        snbt::to_string(&doc).unwrap(),
        snbt::to_string(&tag).unwrap()
    );
    assert_eq!(
        snbt::to_string(&doc.as_compound()).unwrap(),
        snbt::to_string(&tag).unwrap()
    );
    assert_eq!(
        snbt::to_string(&doc.get("pos").unwrap()).unwrap(),
        "[1.0d,64.0d]"
    );
    assert_eq!(
        snbt::to_string_pretty(&doc.list("inv").unwrap()).unwrap(),
        "[\n    {\n        id: \"a\",\n        n: 1b\n    }\n]"
    );
}

/// The bugs peers have (issue 12), as regressions.
#[test]
fn peer_bugs() {
    // valence and quartz print {s:"true"} as {s:true}, which reads as byte 1.
    let tag = compound(vec![("s", NbtTag::String("true".into()))]);
    assert_eq!(snbt::to_string(&tag).unwrap(), r#"{s:"true"}"#);
    round_trips(&tag);
    // quartz reads `true` as a string.
    assert_eq!(parse("{a:true}"), compound(vec![("a", NbtTag::Byte(1))]));
    // quartz wraps [B;300] to 44.
    assert_eq!(kind("[B;300]"), ErrorKind::NumberOutOfRange);
    // valence reads 0x1F, 1_000, 200ub as strings; quartz rejects them.
    assert_eq!(parse("0x1F"), NbtTag::Int(31));
    assert_eq!(parse("1_000"), NbtTag::Int(1000));
    assert_eq!(parse("200ub"), NbtTag::Byte(-56));
    // They disagree on trailing commas: 1.21.5 allows them.
    assert_eq!(parse("{a:[1,],b:[I;1,],}"), parse("{a:[1],b:[I;1]}"));
    // Other parsers hang on {"a":{}} and crash on {"list":[[B;54b]]}.
    assert_eq!(
        parse(r#"{"a":{}}"#),
        compound(vec![("a", compound(vec![]))])
    );
    assert_eq!(
        parse(r#"{"list":[[B;54b]]}"#),
        compound(vec![(
            "list",
            NbtTag::List(NbtList::ByteArray(vec![vec![54]]))
        )])
    );
}

#[test]
fn no_panic_on_truncations_and_mutations() {
    let samples = [
        r#"{a:[1b,2s,3L,4.5f,6.5d,"x",'y',z,true,[B;1b],[I;1],[L;1L]],b:{"":1},c:bool(1),d:uuid("1-2-3-4-5"),e:"\u00e9\N{SNOWMAN}\x41\U0001F600"}"#,
        "[0x1Fub,0b101s,1_000,1e5,.5,-0.0,01,0x,1_,NaNd]",
    ];
    let junk = [
        "", "{", "}", "[", "]", ",", ":", "\"", "'", "\\", "(", ")", ";", "é", "0", "-", "_",
        "\u{3000}",
    ];
    for s in samples {
        for (i, _) in s.char_indices() {
            let _ = snbt::from_str(&s[..i]);
            let _ = snbt::from_str(&s[i..]);
            for j in junk {
                let _ = snbt::from_str(&format!("{}{}{}", &s[..i], j, &s[i..]));
            }
        }
    }
}

/// SNBT cannot say an empty list's element type: `[]` is a list of End, as
/// vanilla 1.21.5 writes every empty list. And 4-byte UTF-8 (stringtest.nbt
/// has it; not MUTF-8) reads back as the MUTF-8 of the same characters. The
/// expected value, then, has its empty lists as End lists and such strings
/// in MUTF-8.
fn as_snbt_reads_it(tag: &mut NbtTag) {
    fn string(s: &mut Mutf8String) {
        if s.as_bytes().iter().any(|&b| b >= 0xF0) {
            *s = Mutf8String::from(std::str::from_utf8(s.as_bytes()).unwrap());
        }
    }
    fn list(l: &mut NbtList) {
        if l.is_empty() {
            *l = NbtList::Empty;
        }
        match l {
            NbtList::String(v) => v.iter_mut().for_each(string),
            NbtList::List(v) => v.iter_mut().for_each(list),
            NbtList::Compound(v) => v.iter_mut().for_each(compound),
            _ => {}
        }
    }
    fn compound(c: &mut NbtCompound) {
        c.keys_mut().for_each(string);
        c.values_mut().for_each(as_snbt_reads_it);
    }
    match tag {
        NbtTag::String(s) => string(s),
        NbtTag::List(l) => list(l),
        NbtTag::Compound(c) => compound(c),
        _ => {}
    }
}

fn corpus_tags() -> Vec<(&'static str, NbtTag)> {
    corpus::all_names()
        .map(|name| {
            let bytes = corpus::load(name).unwrap_or_else(|e| panic!("{e}"));
            // Disk form: id, u16 name length, name, payload; read it unnamed.
            let name_len = u16::from_be_bytes([bytes[1], bytes[2]]) as usize;
            let mut unnamed = vec![bytes[0]];
            unnamed.extend_from_slice(&bytes[3 + name_len..]);
            let tag = owned::read_tag(&mut Cursor::new(&unnamed[..]))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, tag)
        })
        .collect()
}

#[test]
fn corpus_binary_to_snbt_to_binary() {
    for (name, mut tag) in corpus_tags() {
        as_snbt_reads_it(&mut tag);
        let mut binary = Vec::new();
        tag.write(&mut binary).unwrap();
        for pretty in [false, true] {
            let text = if pretty {
                snbt::to_string_pretty(&tag)
            } else {
                snbt::to_string(&tag)
            }
            .unwrap_or_else(|e| panic!("{name}: {e}"));
            let back =
                snbt::from_str(&text).unwrap_or_else(|e| panic!("{name} (pretty {pretty}): {e}"));
            assert!(back == tag, "{name} (pretty {pretty}): value differs");
            let mut again = Vec::new();
            back.write(&mut again).unwrap();
            assert!(again == binary, "{name} (pretty {pretty}): bytes differ");
        }
    }
}
