//! `nbt diff`: the differences between two documents, by path.
//!
//! Compounds are compared key by key, lists index by index; everything else
//! (numbers, strings, arrays) as whole values. The walk runs over the
//! documents' own views (`simdnbt::document`) and keeps its own stack, so
//! documents of any depth compare; a value is built as an owned tag only to
//! compare a leaf or print a line.

use simdnbt::document::{DocValue, Document, ListElement, NbtCompound, NbtList};
use simdnbt::owned::NbtTag;
use simdnbt::path::NbtPath;

/// Longest value text shown in a difference line.
const MAX_VALUE_CHARS: usize = 100;

/// Which documents are compared, for [`same`]: subtrees of documents in one
/// encoding are equal when their bytes are.
#[derive(Clone, Copy)]
struct Sides {
    one_encoding: bool,
}

fn compound(v: DocValue<'_>) -> Option<NbtCompound<'_>> {
    match v {
        DocValue::Compound(c) => Some(c),
        DocValue::Tag(t) => t.compound(),
        _ => None,
    }
}

fn list(v: DocValue<'_>) -> Option<NbtList<'_>> {
    match v {
        DocValue::List(l) => Some(l),
        DocValue::Tag(t) => t.list(),
        _ => None,
    }
}

/// Compact SNBT, cut to [`MAX_VALUE_CHARS`].
fn text(v: DocValue<'_>) -> String {
    let text = simdnbt::snbt::to_string(&v.to_owned()).unwrap_or_else(|e| format!("<{e}>"));
    match text.char_indices().nth(MAX_VALUE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// Whether two values are the same, without looking inside when that is
/// cheap to answer: two containers of documents in one encoding compare as
/// bytes (a compound whose keys only moved is looked into, and shows no
/// line); leaves compare as values, floats by their bits (as their bytes
/// would).
fn same(a: DocValue<'_>, b: DocValue<'_>, sides: Sides) -> bool {
    if a.id() != b.id() {
        return false;
    }
    if let (Some(ca), Some(cb)) = (compound(a), compound(b)) {
        return sides.one_encoding && ca == cb;
    }
    if let (Some(la), Some(lb)) = (list(a), list(b)) {
        return sides.one_encoding && la == lb;
    }
    match (a.to_owned(), b.to_owned()) {
        (NbtTag::Float(x), NbtTag::Float(y)) => x.to_bits() == y.to_bits(),
        (NbtTag::Double(x), NbtTag::Double(y)) => x.to_bits() == y.to_bits(),
        (x, y) => x == y,
    }
}

enum Work<'a> {
    Compare(NbtPath, DocValue<'a>, DocValue<'a>),
    Added(NbtPath, DocValue<'a>),
    Removed(NbtPath, DocValue<'a>),
}

/// Element `i` of `list` as a value.
fn element(list: NbtList<'_>, i: usize) -> Option<DocValue<'_>> {
    Some(match list.get(i)? {
        ListElement::Number(n) => DocValue::Number(n),
        ListElement::Tag(t) => DocValue::Tag(t),
    })
}

/// The path as `diff` prints it: `(root)` for the empty path.
fn path_text(path: &NbtPath) -> String {
    if path.is_empty() {
        "(root)".into()
    } else {
        path.to_string()
    }
}

/// The difference lines between two documents' roots (a single End byte is
/// the empty compound); see [`diff`].
pub fn documents(a: Option<&Document>, b: Option<&Document>) -> Vec<String> {
    let empty = Document::from_owned(&simdnbt::owned::BaseNbt::default())
        .expect("an empty compound is a document");
    let (a, b) = (a.unwrap_or(&empty), b.unwrap_or(&empty));
    let sides = Sides {
        one_encoding: a.encoding() == b.encoding(),
    };
    diff(DocValue::Tag(a.root()), DocValue::Tag(b.root()), sides)
}

/// The difference lines between `a` and `b` in document order: `- path: old`
/// (only in A), `+ path: new` (only in B), `~ path: old -> new` (changed,
/// with the types when they differ).
fn diff<'d>(a: DocValue<'d>, b: DocValue<'d>, sides: Sides) -> Vec<String> {
    let mut lines = Vec::new();
    let mut stack = vec![Work::Compare(NbtPath::new(), a, b)];
    while let Some(work) = stack.pop() {
        let (steps, a, b) = match work {
            Work::Added(steps, v) => {
                lines.push(format!("+ {}: {}", path_text(&steps), text(v)));
                continue;
            }
            Work::Removed(steps, v) => {
                lines.push(format!("- {}: {}", path_text(&steps), text(v)));
                continue;
            }
            Work::Compare(steps, a, b) => (steps, a, b),
        };
        if same(a, b, sides) {
            continue;
        }
        // Children go on the stack in reverse, so they come off in document order.
        let mut children = Vec::new();
        if let (Some(ca), Some(cb)) = (compound(a), compound(b)) {
            for (key, va) in ca.iter() {
                let key = key.to_str();
                let path = steps.clone().with_key(key.as_ref());
                match cb.get(&key) {
                    Some(vb) => {
                        children.push(Work::Compare(path, DocValue::Tag(va), DocValue::Tag(vb)))
                    }
                    None => children.push(Work::Removed(path, DocValue::Tag(va))),
                }
            }
            for (key, vb) in cb.iter() {
                let key = key.to_str();
                if !ca.contains(&key) {
                    let path = steps.clone().with_key(key.as_ref());
                    children.push(Work::Added(path, DocValue::Tag(vb)));
                }
            }
        } else if let (Some(la), Some(lb)) = (list(a), list(b)) {
            for i in 0..la.len().max(lb.len()) {
                let path = steps.clone().with_index(i);
                children.push(match (element(la, i), element(lb, i)) {
                    (Some(va), Some(vb)) => Work::Compare(path, va, vb),
                    (Some(va), None) => Work::Removed(path, va),
                    (None, Some(vb)) => Work::Added(path, vb),
                    (None, None) => continue,
                });
            }
        } else {
            let name = |v: DocValue<'_>| simdnbt::tag_id::name(v.id());
            let types = if a.id() == b.id() {
                String::new()
            } else {
                format!(" ({} -> {})", name(a), name(b))
            };
            lines.push(format!(
                "~ {}: {} -> {}{types}",
                path_text(&steps),
                text(a),
                text(b)
            ));
            continue;
        }
        stack.extend(children.into_iter().rev());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        let root = simdnbt::snbt::compound_from_str(text).unwrap();
        Document::from_owned(&simdnbt::owned::BaseNbt::new("", root)).unwrap()
    }

    #[test]
    fn paths_and_kinds() {
        let a = doc("{a: 1, b: {c: 'x', d: [1, 2, 3]}, gone: 1b, l: [{s: 1b}, {s: 2b}]}");
        let b = doc("{a: 1L, b: {c: 'y', d: [1, 5]}, l: [{s: 1b}, {s: 3b}, {s: 4b}], new: []}");
        assert_eq!(
            documents(Some(&a), Some(&b)),
            [
                "~ a: 1 -> 1L (Int -> Long)",
                "~ b.c: \"x\" -> \"y\"",
                "~ b.d[1]: 2 -> 5",
                "- b.d[2]: 3",
                "- gone: 1b",
                "~ l[1].s: 2b -> 3b",
                "+ l[2]: {s:4b}",
                "+ new: []",
            ]
        );
        assert!(documents(Some(&a), Some(&a)).is_empty());
        assert_eq!(documents(None, Some(&doc("{x: 1}"))), ["+ x: 1"]);
        assert!(documents(None, Some(&doc("{}"))).is_empty());
    }

    #[test]
    fn moved_keys_and_nan_bits_are_not_differences() {
        let a = doc("{k: {x: 1, y: 2}, f: [1.0f]}");
        let b = doc("{k: {y: 2, x: 1}, f: [1.0f]}");
        assert!(documents(Some(&a), Some(&b)).is_empty());
        let zeros = documents(Some(&doc("{z: 0.0d}")), Some(&doc("{z: -0.0d}")));
        assert_eq!(zeros, ["~ z: 0.0d -> -0.0d"]);
        let nan = |bits: u32| {
            let mut root = simdnbt::owned::NbtCompound::new();
            root.insert("n", f32::from_bits(bits));
            root.insert("other", bits as i32);
            Document::from_owned(&simdnbt::owned::BaseNbt::new("", root)).unwrap()
        };
        // The same NaN is no difference; another NaN payload is one.
        let (n1, n2) = (nan(0x7fc0_0000), nan(0x7fc0_0001));
        assert_eq!(documents(Some(&n1), Some(&n2)).len(), 2);
        let lines = documents(Some(&n1), Some(&nan(0x7fc0_0000)));
        assert!(lines.is_empty(), "{lines:?}");
    }

    #[test]
    fn documents_in_two_encodings_compare_by_value() {
        let java = doc("{a: 1, l: [{s: 'x'}], d: [1.5d]}");
        let mut le = Vec::new();
        java.write_in(
            simdnbt::document::Framing::Named,
            simdnbt::Encoding::LittleEndian,
            &mut le,
        );
        let bedrock = simdnbt::document::bedrock::read_le(&mut std::io::Cursor::new(&le[..]))
            .unwrap()
            .unwrap();
        assert_eq!(bedrock.encoding(), simdnbt::Encoding::LittleEndian);
        assert!(documents(Some(&java), Some(&bedrock)).is_empty());
        let changed = doc("{a: 2, l: [{s: 'x'}], d: [1.5d]}");
        assert_eq!(documents(Some(&changed), Some(&bedrock)), ["~ a: 2 -> 1"]);
    }

    #[test]
    fn deep_documents_do_not_recurse() {
        use simdnbt::owned::NbtCompound as C;
        let mut a = C::new();
        let mut b = C::new();
        b.insert("x", 1);
        for _ in 0..500 {
            let mut wa = C::new();
            wa.insert("k", NbtTag::Compound(a));
            a = wa;
            let mut wb = C::new();
            wb.insert("k", NbtTag::Compound(b));
            b = wb;
        }
        let as_doc = |c: C| Document::from_owned(&simdnbt::owned::BaseNbt::new("", c)).unwrap();
        let lines = documents(Some(&as_doc(a)), Some(&as_doc(b)));
        assert_eq!(lines.len(), 1);
        assert!(lines[0].starts_with("+ k.k.k."), "{}", &lines[0][..20]);
        assert!(lines[0].ends_with(".x: 1"));
    }
}
