//! `nbt diff`: the differences between two documents, by path.
//!
//! Compounds are compared key by key, lists index by index; everything else
//! (numbers, strings, arrays) as whole values. The walk keeps its own stack,
//! so documents of any depth compare.

use simdnbt::owned::{NbtCompound, NbtList, NbtTag};
use simdnbt::path::NbtPath;

/// Longest value text shown in a difference line.
const MAX_VALUE_CHARS: usize = 100;

/// A value being compared: borrowed from a document, or an element of a
/// number, string or array list taken out as a tag.
enum Val<'a> {
    Tag(&'a NbtTag),
    Compound(&'a NbtCompound),
    List(&'a NbtList),
    Owned(NbtTag),
}

impl<'a> Val<'a> {
    /// The compound, borrowed from the document (element tags taken out of
    /// lists are never compounds).
    fn compound(&self) -> Option<&'a NbtCompound> {
        match *self {
            Val::Compound(c) => Some(c),
            Val::Tag(NbtTag::Compound(c)) => Some(c),
            _ => None,
        }
    }

    fn list(&self) -> Option<&'a NbtList> {
        match *self {
            Val::List(l) => Some(l),
            Val::Tag(NbtTag::List(l)) => Some(l),
            _ => None,
        }
    }

    fn tag(&self) -> Option<&NbtTag> {
        match self {
            Val::Tag(t) => Some(t),
            Val::Owned(t) => Some(t),
            _ => None,
        }
    }

    fn type_name(&self) -> &'static str {
        if self.compound().is_some() {
            "Compound"
        } else if self.list().is_some() {
            "List"
        } else {
            self.tag().map_or("?", |t| simdnbt::tag_id::name(t.id()))
        }
    }

    /// Compact SNBT, cut to [`MAX_VALUE_CHARS`].
    fn text(&self) -> String {
        let printed = match self {
            Val::Tag(t) => simdnbt::snbt::to_string(*t),
            Val::Owned(t) => simdnbt::snbt::to_string(t),
            Val::Compound(c) => simdnbt::snbt::to_string(*c),
            Val::List(l) => simdnbt::snbt::to_string(*l),
        };
        let text = printed.unwrap_or_else(|e| format!("<{e}>"));
        match text.char_indices().nth(MAX_VALUE_CHARS) {
            Some((cut, _)) => format!("{}…", &text[..cut]),
            None => text,
        }
    }

    fn same(&self, other: &Val<'_>) -> bool {
        match (self.compound(), other.compound(), self.list(), other.list()) {
            (Some(a), Some(b), _, _) => a == b,
            (_, _, Some(a), Some(b)) => a == b,
            _ => match (self.tag(), other.tag()) {
                (Some(a), Some(b)) => a == b,
                _ => false,
            },
        }
    }
}

enum Work<'a> {
    Compare(NbtPath, Val<'a>, Val<'a>),
    Added(NbtPath, Val<'a>),
    Removed(NbtPath, Val<'a>),
}

/// The elements of a list as values (compounds and lists borrowed).
fn elements(list: &NbtList) -> Vec<Val<'_>> {
    match list {
        NbtList::Compound(v) => v.iter().map(Val::Compound).collect(),
        NbtList::List(v) => v.iter().map(Val::List).collect(),
        other => other.as_nbt_tags().into_iter().map(Val::Owned).collect(),
    }
}

/// The path as `diff` prints it: `(root)` for the empty path.
fn path_text(path: &NbtPath) -> String {
    if path.is_empty() {
        "(root)".into()
    } else {
        path.to_string()
    }
}

/// The difference lines between `a` and `b` in document order: `- path: old`
/// (only in A), `+ path: new` (only in B), `~ path: old -> new` (changed,
/// with the types when they differ).
pub fn diff(a: &NbtCompound, b: &NbtCompound) -> Vec<String> {
    let mut lines = Vec::new();
    let mut stack = vec![Work::Compare(
        NbtPath::new(),
        Val::Compound(a),
        Val::Compound(b),
    )];
    while let Some(work) = stack.pop() {
        let (steps, a, b) = match work {
            Work::Added(steps, v) => {
                lines.push(format!("+ {}: {}", path_text(&steps), v.text()));
                continue;
            }
            Work::Removed(steps, v) => {
                lines.push(format!("- {}: {}", path_text(&steps), v.text()));
                continue;
            }
            Work::Compare(steps, a, b) => (steps, a, b),
        };
        if a.same(&b) {
            continue;
        }
        // Children go on the stack in reverse, so they come off in document order.
        let mut children = Vec::new();
        if let (Some(ca), Some(cb)) = (a.compound(), b.compound()) {
            for (key, va) in ca.iter() {
                let key_text = key.to_str().into_owned();
                let path = steps.clone().with_key(key_text);
                match cb.get(&key.to_str()) {
                    Some(vb) => children.push(Work::Compare(path, Val::Tag(va), Val::Tag(vb))),
                    None => children.push(Work::Removed(path, Val::Tag(va))),
                }
            }
            for (key, vb) in cb.iter() {
                if !ca.contains(&key.to_str()) {
                    let path = steps.clone().with_key(key.to_str());
                    children.push(Work::Added(path, Val::Tag(vb)));
                }
            }
        } else if let (Some(la), Some(lb)) = (a.list(), b.list()) {
            let ea = elements(la);
            let eb = elements(lb);
            let mut eb = eb.into_iter();
            for (i, va) in ea.into_iter().enumerate() {
                let path = steps.clone().with_index(i);
                match eb.next() {
                    Some(vb) => children.push(Work::Compare(path, va, vb)),
                    None => children.push(Work::Removed(path, va)),
                }
            }
            let start = la.len();
            for (j, vb) in eb.enumerate() {
                children.push(Work::Added(steps.clone().with_index(start + j), vb));
            }
        } else {
            let (ta, tb) = (a.type_name(), b.type_name());
            let types = if ta == tb {
                String::new()
            } else {
                format!(" ({ta} -> {tb})")
            };
            lines.push(format!(
                "~ {}: {} -> {}{types}",
                path_text(&steps),
                a.text(),
                b.text()
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

    fn c(text: &str) -> NbtCompound {
        simdnbt::snbt::compound_from_str(text).unwrap()
    }

    #[test]
    fn paths_and_kinds() {
        let a = c("{a: 1, b: {c: 'x', d: [1, 2, 3]}, gone: 1b, l: [{s: 1b}, {s: 2b}]}");
        let b = c("{a: 1L, b: {c: 'y', d: [1, 5]}, l: [{s: 1b}, {s: 3b}, {s: 4b}], new: []}");
        assert_eq!(
            diff(&a, &b),
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
        assert!(diff(&a, &a).is_empty());
    }

    #[test]
    fn deep_documents_do_not_recurse() {
        let mut a = NbtCompound::new();
        let mut b = NbtCompound::new();
        b.insert("x", 1);
        for _ in 0..2000 {
            let mut wa = NbtCompound::new();
            wa.insert("k", NbtTag::Compound(a));
            a = wa;
            let mut wb = NbtCompound::new();
            wb.insert("k", NbtTag::Compound(b));
            b = wb;
        }
        let lines = diff(&a, &b);
        assert_eq!(lines.len(), 1);
        assert!(lines[0].starts_with("+ k.k.k."), "{}", &lines[0][..20]);
        assert!(lines[0].ends_with(".x: 1"));
    }
}
