//! MUTF-8 codec workloads, shared by the `mutf8` criterion bench and the
//! instruction-count driver (`compare/icount`, mode `mutf8`): simdnbt's `simdnbt::mutf8` against
//! `simd_cesu8::mutf8` on the same sets of strings.
//!
//! Cases (each a list of MUTF-8 byte strings and the `str`s they decode to):
//!
//! - `short_ascii`: NBT-style names of 2–16 bytes (`id`, `Count`, …);
//! - `long_ascii`: ASCII of 100 B, 1 KB and 10 KB;
//! - `bmp`: non-ASCII BMP text (Cyrillic, CJK, accents) of 100 B–10 KB, and
//!   every string of `generated_unicode_1m` whose bytes are UTF-8 too (no
//!   `C0 80`, no surrogate pairs);
//! - `mutf8_only`: strings holding `C0 80` or surrogate pairs (emoji): made
//!   here and every such string of `generated_unicode_1m`.
//!
//! What differs between the two codecs on these inputs: nothing in the
//! output (every input is valid MUTF-8, without raw `00`, which both accept
//! alike). `simd_cesu8::mutf8::decode` borrows any valid UTF-8 without
//! checking for 4-byte sequences (which are not MUTF-8; simdnbt rejects
//! them), so on UTF-8 input it does a little less work than simdnbt.

use simdnbt::mutf8::{Mutf8Str, Mutf8String};
use simdnbt::owned::{NbtCompound, NbtList, NbtTag};

/// One workload: the raw MUTF-8 strings and their decoded forms.
pub struct Case {
    /// The case's name (a criterion group suffix / icount argument).
    pub name: &'static str,
    /// The MUTF-8 bytes, as read from a file.
    pub encoded: Vec<Vec<u8>>,
    /// The same strings decoded, the input of the encoders.
    pub decoded: Vec<String>,
}

impl Case {
    fn new(name: &'static str, decoded: Vec<String>) -> Case {
        let encoded = decoded
            .iter()
            .map(|s| simdnbt::mutf8::encode(s).into_owned())
            .collect();
        Case {
            name,
            encoded,
            decoded,
        }
    }

    /// Total MUTF-8 bytes of the case (criterion's throughput).
    pub fn bytes(&self) -> u64 {
        self.encoded.iter().map(|b| b.len() as u64).sum()
    }
}

/// `s` repeated up to about `len` bytes (whole characters).
fn sized(s: &str, len: usize) -> String {
    s.chars()
        .cycle()
        .scan(0, |n, c| {
            *n += c.len_utf8();
            (*n <= len).then_some(c)
        })
        .collect()
}

/// Every string (keys, values, list elements) of `generated_unicode_1m`.
fn corpus_strings() -> Vec<String> {
    let bytes = crate::inputs::load("generated_unicode_1m").expect("corpus file");
    let nbt = simdnbt::owned::read(&mut std::io::Cursor::new(bytes))
        .expect("corpus file reads")
        .unwrap();
    let mut out = Vec::new();
    let mut stack: Vec<&NbtCompound> = vec![&nbt];
    let push = |s: &Mutf8Str, out: &mut Vec<String>| {
        out.push(
            s.try_to_str()
                .expect("corpus strings are valid")
                .into_owned(),
        )
    };
    while let Some(c) = stack.pop() {
        for (k, v) in c.iter() {
            push(k, &mut out);
            let mut tags = vec![v];
            while let Some(tag) = tags.pop() {
                match tag {
                    NbtTag::String(s) => push(s, &mut out),
                    NbtTag::Compound(c) => stack.push(c),
                    NbtTag::List(NbtList::String(l)) => {
                        l.iter().for_each(|s: &Mutf8String| push(s, &mut out))
                    }
                    NbtTag::List(NbtList::Compound(l)) => stack.extend(l.iter()),
                    _ => {}
                }
            }
        }
    }
    out
}

/// The name of every case [`cases`] builds, in its order, known without
/// building them (the benches filter by name first).
pub const CASE_NAMES: [&str; 6] = [
    "short_ascii",
    "long_ascii",
    "bmp",
    "corpus_bmp",
    "mutf8_only",
    "corpus_mutf8_only",
];

/// Every case, in the order of the report (the names of [`CASE_NAMES`]).
pub fn cases() -> Vec<Case> {
    let corpus = corpus_strings();
    let (utf8, mutf8_only): (Vec<String>, Vec<String>) = corpus
        .into_iter()
        .filter(|s| !s.is_ascii())
        .partition(|s| is_plain_utf8(s));
    let names = [
        "id",
        "Count",
        "Slot",
        "tag",
        "Name",
        "Pos",
        "Motion",
        "Rotation",
        "UUID",
        "minecraft:stone",
        "Health",
        "foodLevel",
        "XpLevel",
        "Inventory",
        "DataVersion",
        "abilities",
    ];
    let ascii = "The quick brown fox jumps over the lazy dog; minecraft:oak_planks 0123456789. ";
    let cyrillic = "Съешь же ещё этих мягких французских булок, да выпей чаю. ";
    let cjk = "我能吞下玻璃而不伤身体。私はガラスを食べられます。나는 유리를 먹을 수 있어요. ";
    let accents = "Ünïcödé tëst — café crème brûlée, Ærøskøbing, Straße. ";
    let emoji = "ok 😀 grin 🎉 party a\0b 𝄞 clef 世界 ";
    let lengths = [100, 1_000, 10_000];
    let of = |text: &str| lengths.iter().map(|&n| sized(text, n)).collect::<Vec<_>>();
    let mut bmp = of(cyrillic);
    bmp.extend(of(cjk));
    bmp.extend(of(accents));
    let mut synthetic_mutf8 = of(emoji);
    synthetic_mutf8.push("\0".repeat(64));
    vec![
        Case::new("short_ascii", names.iter().map(|s| s.to_string()).collect()),
        Case::new("long_ascii", of(ascii)),
        Case::new("bmp", bmp),
        Case::new("corpus_bmp", utf8),
        Case::new("mutf8_only", synthetic_mutf8),
        Case::new("corpus_mutf8_only", mutf8_only),
    ]
}

/// Whether `s`'s UTF-8 bytes are also its MUTF-8 bytes (no U+0000, nothing
/// above U+FFFF).
fn is_plain_utf8(s: &str) -> bool {
    !s.chars().any(|c| c == '\0' || c > '\u{FFFF}')
}

/// A workload: runs one codec operation over every string of a case and
/// returns a checksum (total output bytes) so the work cannot be skipped.
pub type Workload = fn(&Case) -> usize;

/// `f` summed over `items`.
fn sum<T>(items: &[T], f: impl Fn(&T) -> usize) -> usize {
    items.iter().map(f).sum()
}

/// The codecs, `(library, operation, workload)`: operations `decode`
/// (checked), `decode_lossy` and `encode`, each library through its own API.
pub const WORKLOADS: &[(&str, &str, Workload)] = &[
    ("simdnbt", "decode", |c| {
        sum(&c.encoded, |b| {
            simdnbt::mutf8::decode(b).map_or(0, |s| s.len())
        })
    }),
    ("simd_cesu8", "decode", |c| {
        sum(&c.encoded, |b| {
            simd_cesu8::mutf8::decode(b).map_or(0, |s| s.len())
        })
    }),
    ("simdnbt", "decode_lossy", |c| {
        sum(&c.encoded, |b| simdnbt::mutf8::decode_lossy(b).len())
    }),
    ("simd_cesu8", "decode_lossy", |c| {
        sum(&c.encoded, |b| simd_cesu8::mutf8::decode_lossy(b).len())
    }),
    ("simdnbt", "encode", |c| {
        sum(&c.decoded, |s| simdnbt::mutf8::encode(s).len())
    }),
    ("simd_cesu8", "encode", |c| {
        sum(&c.decoded, |s| simd_cesu8::mutf8::encode(s).len())
    }),
];

#[cfg(test)]
mod tests {
    #[test]
    fn case_names_are_the_cases_built() {
        let built: Vec<&str> = super::cases().iter().map(|c| c.name).collect();
        assert_eq!(built, super::CASE_NAMES);
    }
}
