//! The canonical value every library's parse result is converted into, and the
//! comparison ([`diff`]) with its ordering modes ([`Order`]).
//!
//! Conversions happen outside timed loops, so this module favours clarity over speed.
//! [`Value`]'s derived traits and [`diff`] recurse; they are meant for documents a
//! reader accepted (at most 512 levels), on a thread with a test-sized stack.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One NBT value in a library-neutral form.
///
/// Floats are kept as their IEEE bit patterns so that NaN payloads and `-0.0`
/// compare exactly (docs/format.md §3: float bits are kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Byte(i8),
    Short(i16),
    Int(i32),
    Long(i64),
    /// `f32::to_bits`
    Float(u32),
    /// `f64::to_bits`
    Double(u64),
    ByteArray(Vec<u8>),
    /// Decoded text. Adapters whose library keeps raw MUTF-8 decode it lossily
    /// (U+FFFD) here; libraries that decode while parsing use whatever they produced.
    String(String),
    List(List),
    /// Entries in the order the library exposes them (duplicates kept if the library keeps them).
    Compound(Vec<(String, Value)>),
    IntArray(Vec<i32>),
    LongArray(Vec<i64>),
}

/// A list: its element type (when the library reports it) and its elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct List {
    /// The element tag id, or `None` when the library does not keep it
    /// (it only knows the elements, so an empty list has no type).
    pub elem: Option<u8>,
    pub items: Vec<Value>,
}

impl List {
    /// A list whose library reports the element type.
    pub fn typed(elem: u8, items: Vec<Value>) -> Self {
        List {
            elem: Some(elem),
            items,
        }
    }

    /// A list from a library that only keeps the elements: the type is taken from
    /// the first element, and an empty list has none.
    pub fn untyped(items: Vec<Value>) -> Self {
        List {
            elem: items.first().map(Value::tag_id),
            items,
        }
    }
}

impl Value {
    pub fn float(v: f32) -> Self {
        Value::Float(v.to_bits())
    }

    pub fn double(v: f64) -> Self {
        Value::Double(v.to_bits())
    }

    pub fn byte_array_i8(v: &[i8]) -> Self {
        Value::ByteArray(v.iter().map(|b| *b as u8).collect())
    }

    /// The NBT tag id of this value.
    pub fn tag_id(&self) -> u8 {
        match self {
            Value::Byte(_) => 1,
            Value::Short(_) => 2,
            Value::Int(_) => 3,
            Value::Long(_) => 4,
            Value::Float(_) => 5,
            Value::Double(_) => 6,
            Value::ByteArray(_) => 7,
            Value::String(_) => 8,
            Value::List(_) => 9,
            Value::Compound(_) => 10,
            Value::IntArray(_) => 11,
            Value::LongArray(_) => 12,
        }
    }

    /// Number of tags in this value, itself included (used for sanity checks and messages).
    pub fn count(&self) -> usize {
        1 + match self {
            Value::List(l) => l.items.iter().map(Value::count).sum(),
            Value::Compound(c) => c.iter().map(|(_, v)| v.count()).sum(),
            _ => 0,
        }
    }
}

/// A whole document: the root name (if the library exposes it) and the root value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doc {
    /// `None` when the library drops or hides the root name.
    pub name: Option<String>,
    pub root: Value,
}

impl Doc {
    /// A document whose root name the library reports.
    pub fn named(name: impl Into<String>, root: Value) -> Self {
        Doc {
            name: Some(name.into()),
            root,
        }
    }

    /// A document from a library that drops or hides the root name.
    pub fn unnamed(root: Value) -> Self {
        Doc { name: None, root }
    }
}

/// How compound entries are compared: what a library keeps of input order and duplicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Vec-backed: input order and duplicate keys are visible; compared exactly.
    Exact,
    /// HashMap/BTreeMap/sorted-Vec backed: compared as a set of keys.
    /// (Such a library also collapses duplicate keys, which then shows up as a length mismatch.)
    Unordered,
    /// A map with the *last* duplicate winning on both sides, compared by key: what
    /// inserting every entry into a map gives (fastnbt, valence_nbt). Unlike
    /// [`Order::Unordered`], a side that keeps duplicates compares equal to one that
    /// collapsed them, as long as the last values agree.
    LastWins,
}

/// Compares two documents. Returns a description of the first difference.
///
/// Relaxations, applied symmetrically:
/// - root names are compared only when both sides expose one;
/// - a list's element type is compared only when both sides report one
///   (libraries that model a list as `Vec<Tag>` cannot know the type of an empty list);
/// - with [`Order::Unordered`], compound entries are compared after a stable sort by key;
/// - with [`Order::LastWins`], only the last entry of each key counts, compared by key.
pub fn diff(a: &Doc, b: &Doc, order: Order) -> Result<(), String> {
    match diff_all(a, b, order, 1).into_iter().next() {
        None => Ok(()),
        Some(e) => Err(e),
    }
}

/// Like [`diff`], but lists up to `limit` differences (a container whose length or key set
/// differs counts once and is not descended into).
pub fn diff_all(a: &Doc, b: &Doc, order: Order, limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    if let (Some(x), Some(y)) = (&a.name, &b.name) {
        if x != y {
            out.push(format!("root name: {x:?} != {y:?}"));
        }
    }
    let mut path = String::new();
    diff_value(&a.root, &b.root, order, &mut path, &mut out, limit);
    out.truncate(limit);
    out
}

fn diff_value(
    a: &Value,
    b: &Value,
    order: Order,
    path: &mut String,
    out: &mut Vec<String>,
    limit: usize,
) {
    if out.len() >= limit {
        return;
    }
    match (a, b) {
        (Value::List(x), Value::List(y)) => {
            if let (Some(ex), Some(ey)) = (x.elem, y.elem) {
                if ex != ey {
                    out.push(format!("{path}: list element type {ex} != {ey}"));
                    return;
                }
            }
            if x.items.len() != y.items.len() {
                out.push(format!(
                    "{path}: list length {} != {}",
                    x.items.len(),
                    y.items.len()
                ));
                return;
            }
            for (i, (p, q)) in x.items.iter().zip(&y.items).enumerate() {
                let len = path.len();
                let _ = write!(path, "[{i}]");
                diff_value(p, q, order, path, out, limit);
                path.truncate(len);
            }
        }
        (Value::Compound(x), Value::Compound(y)) => {
            let (xs, ys): (Vec<_>, Vec<_>) = match order {
                Order::Exact => (x.iter().collect(), y.iter().collect()),
                Order::Unordered => (sorted(x), sorted(y)),
                Order::LastWins => (last_wins(x), last_wins(y)),
            };
            if xs.len() != ys.len() {
                // Keys in the library's own order (for Exact and Unordered: as given).
                let (kx, ky) = match order {
                    Order::LastWins => (keys(xs.iter().copied()), keys(ys.iter().copied())),
                    _ => (keys(x.iter()), keys(y.iter())),
                };
                out.push(format!(
                    "{path}: compound has {} entries != {} (keys {kx:?} vs {ky:?})",
                    xs.len(),
                    ys.len(),
                ));
                return;
            }
            for ((kx, vx), (ky, vy)) in xs.into_iter().zip(ys) {
                if kx != ky {
                    out.push(format!("{path}: key {kx:?} != {ky:?}"));
                    return;
                }
                let len = path.len();
                let _ = write!(path, ".{kx}");
                diff_value(vx, vy, order, path, out, limit);
                path.truncate(len);
            }
        }
        (x, y) if x == y => {}
        (x, y) if x.tag_id() != y.tag_id() => {
            out.push(format!("{path}: tag type {} != {}", x.tag_id(), y.tag_id()))
        }
        (x, y) => out.push(format!("{path}: {} != {}", short(x), short(y))),
    }
}

fn keys<'a>(c: impl IntoIterator<Item = &'a (String, Value)>) -> Vec<&'a str> {
    c.into_iter().map(|(k, _)| k.as_str()).take(8).collect()
}

/// The last entry of each key, sorted by key.
fn last_wins(c: &[(String, Value)]) -> Vec<&(String, Value)> {
    let mut last = BTreeMap::new();
    for e in c {
        last.insert(e.0.as_str(), e);
    }
    last.into_values().collect()
}

fn sorted(c: &[(String, Value)]) -> Vec<&(String, Value)> {
    let mut v: Vec<_> = c.iter().collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

fn short(v: &Value) -> String {
    let s = format!("{v:?}");
    if s.len() > 120 {
        let mut end = 120;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}…", &s[..end])
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(root: Value) -> Doc {
        Doc {
            name: Some("r".into()),
            root,
        }
    }

    #[test]
    fn float_bits_are_compared_exactly() {
        let a = doc(Value::float(0.0));
        let b = doc(Value::float(-0.0));
        assert!(diff(&a, &b, Order::Exact).is_err());
        let nan1 = doc(Value::Float(0x7fc0_0000));
        let nan2 = doc(Value::Float(0x7fc0_0001));
        assert!(diff(&nan1, &nan2, Order::Exact).is_err());
        assert!(diff(&nan1, &nan1.clone(), Order::Exact).is_ok());
    }

    #[test]
    fn order_matters_only_when_exact() {
        let a = doc(Value::Compound(vec![
            ("a".into(), Value::Int(1)),
            ("b".into(), Value::Int(2)),
        ]));
        let b = doc(Value::Compound(vec![
            ("b".into(), Value::Int(2)),
            ("a".into(), Value::Int(1)),
        ]));
        assert!(diff(&a, &b, Order::Exact).is_err());
        assert!(diff(&a, &b, Order::Unordered).is_ok());
        let dup = doc(Value::Compound(vec![
            ("a".into(), Value::Int(1)),
            ("a".into(), Value::Int(1)),
        ]));
        let one = doc(Value::Compound(vec![("a".into(), Value::Int(1))]));
        assert!(diff(&dup, &one, Order::Unordered).is_err());
        // LastWins: duplicates collapse to the last value on both sides.
        let dup2 = doc(Value::Compound(vec![
            ("b".into(), Value::Int(0)),
            ("a".into(), Value::Int(9)),
            ("a".into(), Value::Int(1)),
        ]));
        let map = doc(Value::Compound(vec![
            ("a".into(), Value::Int(1)),
            ("b".into(), Value::Int(0)),
        ]));
        assert!(diff(&dup2, &map, Order::LastWins).is_ok());
        let first = doc(Value::Compound(vec![
            ("a".into(), Value::Int(9)),
            ("b".into(), Value::Int(0)),
        ]));
        assert!(diff(&dup2, &first, Order::LastWins).is_err());
        assert!(diff(&dup2, &map, Order::Unordered).is_err());
    }

    #[test]
    fn empty_list_type_relaxed_only_when_unknown() {
        let typed_int = doc(Value::List(List::typed(3, vec![])));
        let typed_end = doc(Value::List(List::typed(0, vec![])));
        let untyped = doc(Value::List(List::untyped(vec![])));
        assert!(diff(&typed_int, &typed_end, Order::Exact).is_err());
        assert!(diff(&typed_int, &untyped, Order::Exact).is_ok());
        let nested_diff = doc(Value::List(List::typed(3, vec![Value::Int(1)])));
        let nested_diff2 = doc(Value::List(List::typed(3, vec![Value::Int(2)])));
        let e = diff(&nested_diff, &nested_diff2, Order::Exact).unwrap_err();
        assert!(e.contains("[0]"), "{e}");
        let two = doc(Value::List(List::typed(
            3,
            vec![Value::Int(1), Value::Int(5)],
        )));
        let two2 = doc(Value::List(List::typed(
            3,
            vec![Value::Int(2), Value::Int(6)],
        )));
        assert_eq!(diff_all(&two, &two2, Order::Exact, 10).len(), 2);
        assert_eq!(diff_all(&two, &two2, Order::Exact, 1).len(), 1);
    }

    #[test]
    fn root_name_compared_when_both_known() {
        let a = doc(Value::Int(1));
        let mut b = a.clone();
        b.name = Some("other".into());
        assert!(diff(&a, &b, Order::Exact).is_err());
        b.name = None;
        assert!(diff(&a, &b, Order::Exact).is_ok());
    }
}
