//! Peak memory of the SNBT parser on inputs built to amplify: the tree costs
//! a bounded multiple of the text (the bound is in the `snbt` module docs).
#![cfg(feature = "snbt")]

use crate::measure;

/// Peak bytes allocated while parsing `text`, over its length.
fn ratio(text: &str) -> f64 {
    let (tag, peak) = measure(|| simdnbt::snbt::from_str(text));
    assert!(tag.is_ok());
    peak.moving as f64 / text.len() as f64
}

#[test]
fn snbt_amplification_is_bounded() {
    let n = 200_000;
    let cases = [
        (
            "mixed list of 1-digit ints and empty strings",
            format!("[{}1]", "1,'',".repeat(n)),
        ),
        ("list of empty lists", format!("[{}[]]", "[],".repeat(n))),
        (
            "list of empty compounds",
            format!("[{}{{}}]", "{},".repeat(n)),
        ),
        (
            "mixed list of empty compounds and lists",
            format!("[{}[]]", "{},[],".repeat(n)),
        ),
        (
            "compound of one-letter keys",
            format!(
                "{{{}}}",
                (0..n).map(|i| format!("k{i}:{{}},")).collect::<String>()
            ),
        ),
        ("list of 1-digit ints", format!("[{}1]", "1,".repeat(n))),
        ("byte array", format!("[B;{}1]", "1,".repeat(n))),
    ];
    let mut worst = 0.0f64;
    for (what, text) in &cases {
        let r = ratio(text);
        eprintln!("{what}: peak {r:.1}× the text");
        worst = worst.max(r);
    }
    // The bound the module docs state.
    assert!(worst <= 64.0, "worst case {worst:.1}×");
}
