//! NBT-path evaluation written plainly: each node maps the values selected
//! so far to the next ones, `..key` by recursion over owned values. The
//! reference `simdnbt::path`'s evaluator (breadth first over three models,
//! one heap-stack walk per `..` step) is checked against, by the `nbt_path`
//! fuzz target; the rules are in `simdnbt::path`'s module docs. Small
//! documents only (it recurses once per level).

use std::collections::HashSet;

use simdnbt::owned::{NbtCompound, NbtList, NbtTag};
use simdnbt::path::{NbtPath, PathSegment};

/// A value selected so far: a container by reference (its address is its
/// identity for `..`), or a leaf by reference or (an element) by value.
#[derive(Clone)]
enum At<'a> {
    Compound(&'a NbtCompound),
    List(&'a NbtList),
    Tag(&'a NbtTag),
    Leaf(NbtTag),
}

impl<'a> At<'a> {
    fn of(tag: &'a NbtTag) -> At<'a> {
        match tag {
            NbtTag::Compound(c) => At::Compound(c),
            NbtTag::List(l) => At::List(l),
            other => At::Tag(other),
        }
    }

    fn into_tag(self) -> NbtTag {
        match self {
            At::Compound(c) => NbtTag::Compound(c.clone()),
            At::List(l) => NbtTag::List(l.clone()),
            At::Tag(t) => t.clone(),
            At::Leaf(t) => t,
        }
    }

    /// The entries a path reaches: each the entry a lookup by its name
    /// finds (so the last of a repeated key, and no key that does not name
    /// itself).
    fn entries(&self) -> Vec<(String, At<'a>)> {
        let At::Compound(c) = *self else {
            return Vec::new();
        };
        c.iter()
            .filter_map(|(k, v)| {
                let name = k.to_str().into_owned();
                let found = c.get(&name)?;
                std::ptr::eq(found, v).then(|| (name, At::of(v)))
            })
            .collect()
    }

    /// The elements of a list or array (array and number elements by value).
    fn elements(&self) -> Vec<At<'a>> {
        match *self {
            At::List(NbtList::Compound(v)) => v.iter().map(At::Compound).collect(),
            At::List(NbtList::List(v)) => v.iter().map(At::List).collect(),
            At::List(l) => l.as_nbt_tags().into_iter().map(At::Leaf).collect(),
            At::Tag(NbtTag::ByteArray(a)) => {
                a.iter().map(|&b| At::Leaf(NbtTag::Byte(b as i8))).collect()
            }
            At::Tag(NbtTag::IntArray(a)) => a.iter().map(|&i| At::Leaf(NbtTag::Int(i))).collect(),
            At::Tag(NbtTag::LongArray(a)) => a.iter().map(|&i| At::Leaf(NbtTag::Long(i))).collect(),
            _ => Vec::new(),
        }
    }

    /// A container's address (`None` for a leaf).
    fn address(&self) -> Option<usize> {
        match *self {
            At::Compound(c) => Some(std::ptr::from_ref(c) as usize),
            At::List(l) => Some(std::ptr::from_ref(l) as usize),
            _ => None,
        }
    }
}

/// `..key` below `at`: the entry `key` of each compound, then what lies
/// inside it, entry by entry (document order); containers already entered
/// (from an earlier value of the same step) are not entered again.
fn descend<'a>(at: &At<'a>, key: &str, entered: &mut HashSet<usize>, out: &mut Vec<At<'a>>) {
    if !at.address().is_some_and(|a| entered.insert(a)) {
        return;
    }
    for (name, child) in at.entries() {
        if name == key {
            out.push(child.clone());
        }
        descend(&child, key, entered, out);
    }
    if matches!(at, At::List(_)) {
        for e in at.elements() {
            descend(&e, key, entered, out);
        }
    }
}

fn filter_matches(filter: &NbtCompound, at: &At<'_>) -> bool {
    matches!(*at, At::Compound(c) if crate::filter::compound_matches(filter, c))
}

/// Every value `path` selects in `root`, in order.
pub fn select(path: &NbtPath, root: &NbtCompound) -> Vec<NbtTag> {
    let mut current = vec![At::Compound(root)];
    for segment in path.segments() {
        let mut next = Vec::new();
        let mut entered = HashSet::new();
        for at in &current {
            match segment {
                PathSegment::Key(k) => next.extend(
                    at.entries()
                        .into_iter()
                        .filter(|(n, _)| n == k)
                        .map(|(_, v)| v),
                ),
                PathSegment::Index(i) => next.extend(at.elements().get(*i).cloned()),
                PathSegment::IndexFromEnd(n) => {
                    let elements = at.elements();
                    next.extend(elements.len().checked_sub(*n).map(|i| elements[i].clone()));
                }
                PathSegment::AllElements => next.extend(at.elements()),
                PathSegment::AllEntries => {
                    next.extend(at.entries().into_iter().map(|(_, v)| v));
                    next.extend(at.elements());
                }
                PathSegment::Descendant(key) => descend(at, key, &mut entered, &mut next),
                PathSegment::Filter(f) => {
                    if filter_matches(f.compound(), at) {
                        next.push(at.clone());
                    }
                }
                PathSegment::ElementFilter(f) => {
                    if matches!(at, At::List(_)) {
                        next.extend(
                            at.elements()
                                .into_iter()
                                .filter(|e| filter_matches(f.compound(), e)),
                        );
                    }
                }
                other => panic!("the reference does not know {other:?}"),
            }
        }
        current = next;
    }
    current.into_iter().map(At::into_tag).collect()
}
