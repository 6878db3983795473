//! `snbt`: any text parses to `Ok` or `Err` without a panic or hang, what
//! parses prints and reads back as itself, and generated documents print and
//! read back as themselves (up to what SNBT cannot say).

use simdnbt::Mutf8String;
use simdnbt::owned::{NbtCompound, NbtList, NbtTag};
use simdnbt::snbt::{self, PrintError};

use crate::generate;
use crate::roundtrip::STRUCTURED_SELECTOR;

/// The `snbt` target: the input as text through the parser (and, when it
/// parses, print → parse in both forms); inputs whose first byte is
/// [`STRUCTURED_SELECTOR`] or more also drive the document generator, whose
/// documents go print → parse.
pub fn snbt(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    text_round_trip(&text);
    if data.first().is_some_and(|&b| b >= STRUCTURED_SELECTOR) {
        structured(&data[1..]);
    }
}

/// Parses `text`; if it parses, the value prints (compact and pretty) and
/// reads back as the same value, and printing that again gives the same text.
pub fn text_round_trip(text: &str) {
    let Ok(tag) = snbt::from_str(text) else {
        return;
    };
    far_exponent_reads_the_same(&tag);
    for pretty in [false, true] {
        let printed = print(&tag, pretty)
            .unwrap_or_else(|e| panic!("a parsed value does not print: {e}: {tag:?}"));
        let back = snbt::from_str(&printed)
            .unwrap_or_else(|e| panic!("printed text does not parse: {e}: {printed:?}"));
        assert!(back == tag, "print → parse changed the value: {printed:?}");
        let again = print(&back, pretty).expect("printed once");
        assert_eq!(again, printed, "printing is not stable");
    }
}

/// A float read back from its digits written with 20 000 leading zeros and
/// an exponent of 5 digits that makes up for them (the literals the parser
/// rewrites before std reads them, see `snbt::number`) is the same float.
fn far_exponent_reads_the_same(tag: &NbtTag) {
    let (text, suffix) = match tag {
        NbtTag::Float(v) if v.is_finite() => (format!("{v:e}"), "f"),
        NbtTag::Double(v) if v.is_finite() => (format!("{v:e}"), "d"),
        _ => return,
    };
    let (mantissa, exp) = text.split_once('e').expect("`{:e}` has an exponent");
    let exp: i64 = exp.parse().expect("an exponent");
    let (sign, mantissa) = mantissa
        .strip_prefix('-')
        .map_or(("", mantissa), |m| ("-", m));
    let digits = mantissa.replace('.', "");
    let pad = 20_000;
    let far = format!(
        "{sign}0.{}{digits}e{}{suffix}",
        "0".repeat(pad),
        exp + pad as i64 + 1
    );
    let back =
        snbt::from_str(&far).unwrap_or_else(|e| panic!("{text}{suffix} written far out: {e}"));
    assert!(
        back == *tag,
        "{text}{suffix} written far out reads as {back:?}"
    );
}

fn print(tag: &NbtTag, pretty: bool) -> Result<String, PrintError> {
    if pretty {
        snbt::to_string_pretty(tag)
    } else {
        snbt::to_string(tag)
    }
}

/// A generated document prints, unless it holds a NaN or infinity or a string
/// that is not valid MUTF-8, and reads back as the document as SNBT has it
/// ([`as_snbt_reads_it`]).
pub fn structured(data: &[u8]) {
    let mut u = arbitrary::Unstructured::new(data);
    let Ok(doc) = generate::document(&mut u) else {
        return;
    };
    let Some(root) = doc.nbt.as_ref_compound() else {
        return;
    };
    check_compound(root);
}

/// The structured check for one compound.
pub fn check_compound(root: &NbtCompound) {
    let mut expected = NbtTag::Compound(root.clone());
    let found = as_snbt_reads_it(&mut expected);
    for pretty in [false, true] {
        let printed = match print(&NbtTag::Compound(root.clone()), pretty) {
            Ok(p) => p,
            Err(PrintError::NonFiniteNumber) => {
                assert!(
                    found.non_finite,
                    "NonFiniteNumber without a NaN or infinity"
                );
                return;
            }
            Err(PrintError::InvalidString) => {
                assert!(
                    found.invalid_string,
                    "InvalidString without an invalid string"
                );
                return;
            }
            Err(PrintError::MaxDepthExceeded) => {
                assert!(
                    found.depth > 512,
                    "MaxDepthExceeded at depth {}",
                    found.depth
                );
                return;
            }
            Err(e) => panic!("unexpected print error {e}"),
        };
        let back = snbt::from_str(&printed)
            .unwrap_or_else(|e| panic!("printed document does not parse: {e}: {printed:?}"));
        // A repeated key (never in vanilla data) reads back once, which can
        // turn a compound into a wrapper-shaped one; then only the fixpoint
        // below is claimed.
        if !found.duplicate_keys {
            assert!(
                back == expected,
                "print → parse changed the document: {printed:?}"
            );
        }
        text_round_trip(&printed);
    }
}

/// What [`as_snbt_reads_it`] saw.
#[derive(Debug, Default, Clone, Copy)]
pub struct Found {
    /// A float or double that is NaN or infinite.
    pub non_finite: bool,
    /// A string or key the checked MUTF-8 decoder rejects.
    pub invalid_string: bool,
    /// A compound with a repeated key (seen by the normalizing pass only).
    pub duplicate_keys: bool,
    /// The nesting depth of compounds and lists, counting the root.
    pub depth: usize,
}

/// Turns `tag` into what printing and reading it back gives: empty lists
/// become lists of End (SNBT cannot say an empty list's type), strings holding
/// 4-byte UTF-8 become the MUTF-8 of their text, a raw NUL byte becomes
/// `C0 80`, and a repeated key keeps its
/// last value at its first place. Walks with an explicit stack.
pub fn as_snbt_reads_it(tag: &mut NbtTag) -> Found {
    // First every value, repeated keys' included, for what it holds; then
    // the normal form.
    let mut found = walk(&mut tag.clone(), false);
    let normal = walk(tag, true);
    found.duplicate_keys = normal.duplicate_keys;
    found
}

/// The bytes Java writes for the text of `bytes`: a raw NUL (which Java reads
/// as U+0000) as `C0 80`, a 4-byte UTF-8 character as its 6-byte surrogate
/// pair; everything else unchanged.
fn java_form(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 8);
    let mut i = 0;
    while i < bytes.len() {
        let four = bytes
            .get(i..i + 4)
            .filter(|_| bytes[i] >= 0xF0)
            .and_then(|q| std::str::from_utf8(q).ok());
        if let Some(c) = four {
            out.extend_from_slice(&simdnbt::mutf8::encode(c));
            i += 4;
        } else {
            match bytes[i] {
                0 => out.extend_from_slice(&[0xC0, 0x80]),
                b => out.push(b),
            }
            i += 1;
        }
    }
    out
}

fn walk(tag: &mut NbtTag, dedup: bool) -> Found {
    let mut found = Found::default();
    let string = |s: &mut Mutf8String, found: &mut Found| {
        if s.as_str().try_to_str().is_err() {
            found.invalid_string = true;
        }
        if s.as_bytes().iter().any(|&b| b == 0 || b >= 0xF0) {
            *s = Mutf8String::from_vec(java_form(s.as_bytes()));
        }
    };
    // Each with the levels of compounds and lists around it.
    let mut tags: Vec<(&mut NbtTag, usize)> = vec![(tag, 0)];
    let mut lists: Vec<(&mut NbtList, usize)> = Vec::new();
    let mut compounds: Vec<(&mut NbtCompound, usize)> = Vec::new();
    loop {
        if let Some((t, d)) = tags.pop() {
            match t {
                NbtTag::Float(f) => found.non_finite |= !f.is_finite(),
                NbtTag::Double(d) => found.non_finite |= !d.is_finite(),
                NbtTag::String(s) => string(s, &mut found),
                NbtTag::List(l) => lists.push((l, d + 1)),
                NbtTag::Compound(c) => compounds.push((c, d + 1)),
                _ => {}
            }
        } else if let Some((l, d)) = lists.pop() {
            found.depth = found.depth.max(d);
            if l.is_empty() {
                *l = NbtList::Empty;
            }
            match l {
                NbtList::Float(v) => found.non_finite |= v.iter().any(|f| !f.is_finite()),
                NbtList::Double(v) => found.non_finite |= v.iter().any(|d| !d.is_finite()),
                NbtList::String(v) => v.iter_mut().for_each(|s| string(s, &mut found)),
                NbtList::List(v) => lists.extend(v.iter_mut().map(|l| (l, d + 1))),
                NbtList::Compound(v) => compounds.extend(v.iter_mut().map(|c| (c, d + 1))),
                _ => {}
            }
        } else if let Some((c, d)) = compounds.pop() {
            found.depth = found.depth.max(d);
            for k in c.keys_mut() {
                string(k, &mut found);
            }
            if dedup {
                found.duplicate_keys |= keep_last_of_each_key(c);
            }
            tags.extend(c.values_mut().map(|t| (t, d)));
        } else {
            return found;
        }
    }
}

/// The SNBT reading of a repeated key: its last value, at its first place.
/// Returns whether a key was repeated.
fn keep_last_of_each_key(c: &mut NbtCompound) -> bool {
    let mut out: Vec<(Mutf8String, NbtTag)> = Vec::new();
    let mut repeated = false;
    for (k, v) in std::mem::take(c) {
        if let Some(slot) = out.iter_mut().find(|(seen, _)| seen == &k) {
            slot.1 = v;
            repeated = true;
        } else {
            out.push((k, v));
        }
    }
    *c = NbtCompound::from_values(out);
    repeated
}

/// `Nbt` → its root compound, if it has one.
trait RootCompound {
    fn as_ref_compound(&self) -> Option<&NbtCompound>;
}

impl RootCompound for simdnbt::owned::Nbt {
    fn as_ref_compound(&self) -> Option<&NbtCompound> {
        match self {
            simdnbt::owned::Nbt::Some(base) => Some(base),
            simdnbt::owned::Nbt::None => None,
        }
    }
}

/// Seeds for the `snbt` target: a line of each grammar rule, and every shared
/// corpus file printed compact and pretty (those need the `seeds` feature).
pub fn text_seeds() -> Vec<(String, Vec<u8>)> {
    let rules = [
        "{a:1b,b:2s,c:3,d:4L,e:5.5f,f:6.5d,g:\"x\",h:'y',i:z,j:true,k:FALSE}",
        "[0x1Fub,0b101s,1_000,-2_147_483_648,255ub,65535us,4294967295ui,18446744073709551615ul,7sb,7ss,7si,7sl,1i]",
        "[1.,.5,1e5,1E-5f,-0.0d,1_0.2_5e1_0f,NaNd,Infinityd]",
        "[B;1b,2,255ub,][I;1,2s,3b,][L;1,2L,3i,4s,5b,]",
        "\"\\\\ \\' \\\" \\b \\s \\t \\n \\f \\r \\x41 \\u00e9 \\U0001F600 \\N{SNOWMAN} \\uD800\"",
        "[1b,\"a\",{x:1},{\"\":2},[],[I;1]]",
        "{id:uuid(\"f81d4fae-7dec-11d0-a765-00a0c91e4bf6\"),flag:bool(1),n:bool(bool(0.0))}",
        "{ \"a b\" : [ { } , { } , ] , 'c' : [ ] , 1 : - 5 }",
        // Floats: exponents of 5+ digits (rewritten before std reads them),
        // the ends of both ranges.
        "333333333333333333333333333333e-99990f",
        "0.0000000000000000000000000000001e100031",
        "-2.4703282292062328e-324",
        "3.4028235e38f",
        "1e-99999f",
    ];
    let mut seeds: Vec<(String, Vec<u8>)> = rules
        .iter()
        .enumerate()
        .map(|(i, r)| (format!("snbt-rule-{i}"), r.as_bytes().to_vec()))
        .collect();
    seeds.extend(corpus_text_seeds());
    seeds
}

/// The shared corpus files printed as SNBT, compact and pretty.
#[cfg(feature = "seeds")]
fn corpus_text_seeds() -> Vec<(String, Vec<u8>)> {
    let mut seeds = Vec::new();
    for file in corpus::SHARED {
        let Ok(bytes) = corpus::load(file.name) else {
            continue;
        };
        let Some(tag) = read_any_root(bytes) else {
            continue;
        };
        for pretty in [false, true] {
            if let Ok(text) = print(&tag, pretty) {
                seeds.push((format!("snbt-{}-{pretty}", file.name), text.into_bytes()));
            }
        }
    }
    seeds
}

#[cfg(not(feature = "seeds"))]
fn corpus_text_seeds() -> Vec<(String, Vec<u8>)> {
    Vec::new()
}

/// A disk-form file's root tag (any type), read without its name.
pub fn read_any_root(bytes: &[u8]) -> Option<NbtTag> {
    let name_len = u16::from_be_bytes([*bytes.get(1)?, *bytes.get(2)?]) as usize;
    let mut unnamed = vec![*bytes.first()?];
    unnamed.extend_from_slice(bytes.get(3 + name_len..)?);
    simdnbt::owned::read_tag(&mut std::io::Cursor::new(&unnamed[..])).ok()
}
