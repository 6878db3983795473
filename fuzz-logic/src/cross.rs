//! `cross_library`: simdnbt against fastnbt 2.6.3 and valence_nbt 0.8.
//!
//! Each library reads the same bytes (disk form: named root). They must agree
//! on accept/reject, and on accept their values must be equal once converted to
//! the kit's canonical [`Value`] and compared with [`Order::LastWins`]: both
//! others insert into a map, so the last duplicate key wins (simdnbt keeps every
//! entry), and a list's element type counts only where both sides know it
//! (fastnbt's `Value::List` is a `Vec<Value>`). simdnbt's raw strings are decoded
//! with [`java_decode`], the decoder both others use, so that values compare
//! structure; the decoders themselves are compared by [`compare_strings`]. Known, intentional differences are allowed only where a rule of
//! docs/format.md says we behave differently; each is a [`Divergence`] below.

use std::io::Cursor;

use simdnbt::{ErrorKind, owned};

use testkit::from_simdnbt::owned_compound;
use testkit::peers::{from_fastnbt, from_valence};
use testkit::{Doc, Order, Value, diff};

/// simdnbt holds a string that Java's MUTF-8 decoder (the `cesu8` crate, which
/// fastnbt and valence_nbt both use) rejects.
#[derive(Debug, Clone, PartialEq)]
pub struct InvalidString(pub Vec<u8>);

/// Decodes raw MUTF-8 bytes as fastnbt and valence_nbt do (Java CESU-8, strict).
pub fn java_decode(bytes: &[u8]) -> Result<String, InvalidString> {
    cesu8::from_java_cesu8(bytes)
        .map(|s| s.into_owned())
        .map_err(|_| InvalidString(bytes.to_vec()))
}

/// simdnbt's document as the other libraries would decode its strings.
fn java_value(c: &owned::NbtCompound) -> Result<Value, InvalidString> {
    owned_compound(c, &java_decode).map(Value::Compound)
}

/// The library simdnbt is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Other {
    Fastnbt,
    Valence,
}

/// A documented, intentional difference between simdnbt and another library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Divergence {
    /// docs/format.md §3 *Depth*: at most 512 levels counting the root. valence_nbt does
    /// not count the root (accepts 513 levels); fastnbt has no limit at all.
    DepthLimit,
    /// docs/format.md §3 *Strings keep their raw bytes* and §4 *invalid MUTF-8 parses*:
    /// both others decode every string eagerly and reject the whole document
    /// when one is not valid Java MUTF-8 (fastnbt ignores the root name only).
    InvalidMutf8,
    /// docs/format.md §1 network form / §4 *End root → Nbt::None*: a lone End root is
    /// "no value" for us, an error for both others.
    EndRoot,
    /// docs/format.md §2 *never as 4-byte UTF-8*: a string holding a 4-byte UTF-8
    /// sequence. The `cesu8` decoder both others use accepts it (it tries plain
    /// UTF-8 first); our checked decoder (`try_to_str`) reports it as invalid
    /// (the document itself is accepted by everyone). Only a string decode differs.
    FourByteUtf8,
    /// A raw `00` byte in a string that is not also plain UTF-8 (e.g.
    /// `C0 80 62 00`): Java's `DataInputStream.readUTF` decodes the raw `00` as
    /// U+0000, and so does our checked decoder (simdnbt's `mutf8` docs: "accepts
    /// what Java's readUTF accepts"); `cesu8`'s Java mode rejects it, so both
    /// others reject such a document. docs/format.md §2 (Java's reader is the reference;
    /// writers emit `C0 80`) and §3 (raw bytes kept).
    RawNul,
    /// fastnbt only: a compound key equal to one of its serde-internal array
    /// tokens (`__fastnbt_byte_array` …) is refused. docs/format.md §3 *hostile input*:
    /// any key is data to us.
    FastnbtArrayToken,
}

/// All divergences, for reports and tests.
pub const DIVERGENCES: &[Divergence] = &[
    Divergence::DepthLimit,
    Divergence::InvalidMutf8,
    Divergence::EndRoot,
    Divergence::FourByteUtf8,
    Divergence::RawNul,
    Divergence::FastnbtArrayToken,
];

/// Beyond this nesting, fastnbt (recursive, no limit) is not called: it would
/// overflow the stack, which is fastnbt's bug, not a finding about us.
pub const FASTNBT_MAX_SCAN_DEPTH: usize = 600;

/// What happened for one input and library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Both accept with equal values, or both reject.
    Agree,
    /// They differ in a documented way.
    Allowed(Divergence),
    /// The other library was not run (fastnbt on too-deep input).
    Skipped,
}

/// The `cross_library` target. Panics on any undocumented disagreement.
pub fn cross_library(data: &[u8]) {
    let _ = compare(data);
    let _ = compare_strings(data);
}

/// Runs the comparison and returns what happened for (fastnbt, valence_nbt).
pub fn compare(data: &[u8]) -> (Outcome, Outcome) {
    let ours = owned::read(&mut Cursor::new(data));
    let fast = if nesting_depth(data) <= FASTNBT_MAX_SCAN_DEPTH {
        let v = fastnbt::from_bytes::<fastnbt::Value>(data);
        Some(check(
            Other::Fastnbt,
            &ours,
            v.map(|v| (from_fastnbt(&v), None))
                .map_err(|e| e.to_string()),
        ))
    } else {
        assert!(
            ours.is_err(),
            "simdnbt accepted input nested {} deep",
            nesting_depth(data)
        );
        None
    };
    let mut slice = data;
    let val = valence_nbt::from_binary::<String>(&mut slice)
        .map(|(c, name)| (Value::Compound(from_valence(&c)), Some(name)))
        .map_err(|e| e.to_string());
    let val = check(Other::Valence, &ours, val);
    (fast.unwrap_or(Outcome::Skipped), val)
}

/// Every string and key (and the root name) of what simdnbt reads, decoded by
/// simdnbt's checked MUTF-8 decoder and by `cesu8::from_java_cesu8` (the
/// decoder of fastnbt and valence_nbt): equal when both decode, and where only
/// one does, only as [`Divergence::FourByteUtf8`] allows.
pub fn compare_strings(data: &[u8]) -> Outcome {
    let Ok(owned::Nbt::Some(doc)) = owned::read(&mut Cursor::new(data)) else {
        return Outcome::Agree;
    };
    let mut outcome = Outcome::Agree;
    let mut check = |raw: &simdnbt::Mutf8Str| {
        let bytes = raw.as_bytes();
        match (raw.try_to_str(), cesu8::from_java_cesu8(bytes)) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "simdnbt and cesu8 decode {bytes:?} differently"),
            (Err(_), Err(_)) => {}
            (Err(e), Ok(_)) if bytes.iter().any(|&b| b >= 0xf0) => {
                assert!(e.valid_up_to() < bytes.len());
                outcome = Outcome::Allowed(Divergence::FourByteUtf8);
            }
            (Ok(_), Err(_)) if bytes.contains(&0) => {
                outcome = Outcome::Allowed(Divergence::RawNul);
            }
            (a, b) => panic!(
                "MUTF-8 validity differs for {bytes:?}: simdnbt {:?}, cesu8 {:?}",
                a.map(|_| ()),
                b.map(|_| ())
            ),
        }
    };
    check(doc.name());
    for_each_str(&doc, |s, _| check(s));
    outcome
}

/// Calls `f(string, is_key)` on every key and string value (in compounds and
/// lists, at any depth) under `c`, iteratively.
pub fn for_each_str(c: &owned::NbtCompound, mut f: impl FnMut(&simdnbt::Mutf8Str, bool)) {
    let mut stack = vec![c];
    let mut lists: Vec<&owned::NbtList> = Vec::new();
    loop {
        if let Some(c) = stack.pop() {
            for (k, v) in c.iter() {
                f(k, true);
                match v {
                    owned::NbtTag::String(s) => f(s, false),
                    owned::NbtTag::Compound(c) => stack.push(c),
                    owned::NbtTag::List(l) => lists.push(l),
                    _ => {}
                }
            }
        } else if let Some(l) = lists.pop() {
            match l {
                owned::NbtList::Compound(cs) => stack.extend(cs.iter()),
                owned::NbtList::List(ls) => lists.extend(ls.iter()),
                owned::NbtList::String(ss) => ss.iter().for_each(|s| f(s, false)),
                _ => {}
            }
        } else {
            return;
        }
    }
}

fn has_fastnbt_token(c: &owned::NbtCompound) -> bool {
    const TOKENS: [&[u8]; 3] = [
        b"__fastnbt_byte_array",
        b"__fastnbt_int_array",
        b"__fastnbt_long_array",
    ];
    let mut found = false;
    for_each_str(c, |s, is_key| {
        found |= is_key && TOKENS.contains(&s.as_bytes())
    });
    found
}

/// `theirs`: the other library's canonical value (and root name, if it decodes
/// one) or its error message.
fn check(
    other: Other,
    ours: &Result<owned::Nbt, simdnbt::Error>,
    theirs: Result<(Value, Option<String>), String>,
) -> Outcome {
    let lib = match other {
        Other::Fastnbt => "fastnbt",
        Other::Valence => "valence_nbt",
    };
    match (ours, theirs) {
        (Ok(owned::Nbt::Some(doc)), Ok((value, name))) => {
            let mine = java_value(doc).unwrap_or_else(|bad| {
                panic!("{lib} accepted a string that its own MUTF-8 decoder rejects: {bad:?}")
            });
            if let Err(e) = diff(&Doc::unnamed(mine), &Doc::unnamed(value), Order::LastWins) {
                panic!("simdnbt and {lib} read different values: {e}");
            }
            if let Some(name) = name {
                assert_eq!(
                    java_decode(doc.name().as_bytes()).ok().as_deref(),
                    Some(name.as_str()),
                    "simdnbt and {lib} read different root names"
                );
            }
            Outcome::Agree
        }
        (Ok(owned::Nbt::Some(doc)), Err(e)) => {
            // fastnbt ignores the root name; valence_nbt decodes it.
            let name_bad = other == Other::Valence && java_decode(doc.name().as_bytes()).is_err();
            if name_bad || java_value(doc).is_err() {
                Outcome::Allowed(Divergence::InvalidMutf8)
            } else if other == Other::Fastnbt && has_fastnbt_token(doc) {
                Outcome::Allowed(Divergence::FastnbtArrayToken)
            } else {
                panic!("simdnbt accepts, {lib} rejects with an undocumented reason: {e}\n{doc:?}")
            }
        }
        (Ok(owned::Nbt::None), Ok(_)) => panic!("{lib} read a document from an End root"),
        (Ok(owned::Nbt::None), Err(_)) => Outcome::Allowed(Divergence::EndRoot),
        (Err(e), Ok(_)) if e.kind() == ErrorKind::MaxDepthExceeded => {
            Outcome::Allowed(Divergence::DepthLimit)
        }
        (Err(e), Ok((value, _))) => {
            panic!("simdnbt rejects ({e}), {lib} accepts: {value:?}")
        }
        (Err(_), Err(_)) => Outcome::Agree,
    }
}

/// How deep the named-root document in `data` nests (compounds and lists,
/// counting the root), following the format leniently up to the first
/// inconsistency. Iterative, so any input is safe.
pub fn nesting_depth(data: &[u8]) -> usize {
    struct R<'a> {
        d: &'a [u8],
        p: usize,
    }
    impl R<'_> {
        fn take(&mut self, n: usize) -> Option<&[u8]> {
            let end = self.p.checked_add(n)?;
            let s = self.d.get(self.p..end)?;
            self.p = end;
            Some(s)
        }
        fn u8(&mut self) -> Option<u8> {
            self.take(1).map(|b| b[0])
        }
        fn u16(&mut self) -> Option<usize> {
            self.take(2)
                .map(|b| u16::from_be_bytes([b[0], b[1]]) as usize)
        }
        fn len(&mut self) -> Option<usize> {
            let b = self.take(4)?;
            usize::try_from(i32::from_be_bytes([b[0], b[1], b[2], b[3]])).ok()
        }
        /// Skips a non-container payload of type `id`; `None` on error.
        fn skip(&mut self, id: u8) -> Option<()> {
            let n = match id {
                1 => 1,
                2 => 2,
                3 | 5 => 4,
                4 | 6 => 8,
                7 => self.len()?,
                8 => self.u16()?,
                11 => self.len()?.checked_mul(4)?,
                12 => self.len()?.checked_mul(8)?,
                _ => return None,
            };
            self.take(n).map(|_| ())
        }
    }
    enum F {
        Compound,
        List(u8, usize),
    }
    let mut r = R { d: data, p: 0 };
    if r.u8() != Some(10) {
        return 0;
    }
    let Some(n) = r.u16() else { return 1 };
    if r.take(n).is_none() {
        return 1;
    }
    let mut stack = vec![F::Compound];
    let mut max = 1;
    loop {
        max = max.max(stack.len());
        let id = match stack.last_mut() {
            None => return max,
            Some(F::Compound) => match r.u8() {
                None => return max,
                Some(0) => {
                    stack.pop();
                    continue;
                }
                Some(id) => {
                    let Some(n) = r.u16() else { return max };
                    if r.take(n).is_none() {
                        return max;
                    }
                    id
                }
            },
            Some(F::List(_, 0)) => {
                stack.pop();
                continue;
            }
            Some(F::List(id, left)) => {
                *left -= 1;
                *id
            }
        };
        match id {
            10 => stack.push(F::Compound),
            9 => {
                let (Some(elem), Some(len)) = (r.u8(), r.len()) else {
                    return max;
                };
                match elem {
                    0 => {}
                    1..=6 => {
                        for _ in 0..len {
                            if r.skip(elem).is_none() {
                                return max;
                            }
                        }
                    }
                    _ => {
                        stack.push(F::List(elem, len));
                        continue;
                    }
                }
                // A list of End or of numbers is one level too.
                max = max.max(stack.len() + 1);
            }
            _ => {
                if r.skip(id).is_none() {
                    return max;
                }
            }
        }
    }
}
