//! Selecting values: one loop over the path's nodes, each turning the values
//! selected so far into the next ones (breadth first, no recursion), over
//! the [`View`](super::view::View) that owned, borrowed and document values
//! implement (and, for filter nodes, `filter::FilterView`).

use std::collections::HashSet;

use super::view::View;
use super::{NbtPath, Node, PathSegment};
use crate::mutf8;

/// Whether a segment moves from a value to a child (a filter stays put).
pub(super) fn moves(segment: &PathSegment) -> bool {
    match segment {
        #[cfg(feature = "snbt")]
        PathSegment::Filter(_) => false,
        _ => true,
    }
}

/// No parent: the root's trail.
const ROOT: usize = usize::MAX;

/// The concrete paths of selected values, as a tree of steps shared by
/// values with a common prefix: `(parent step, segment)`.
#[derive(Default)]
pub(super) struct Trails {
    steps: Vec<(usize, PathSegment)>,
    on: bool,
}

impl Trails {
    fn step(&mut self, parent: usize, segment: impl FnOnce() -> PathSegment) -> usize {
        if !self.on {
            return ROOT;
        }
        self.steps.push((parent, segment()));
        self.steps.len() - 1
    }

    fn path(&self, mut at: usize) -> NbtPath {
        let mut path = NbtPath::new();
        while at != ROOT {
            let (parent, segment) = &self.steps[at];
            path.segments.push_front(segment.clone());
            at = *parent;
        }
        path
    }
}

/// Applies one segment to the values selected so far.
fn apply<V: Node>(
    segment: &PathSegment,
    current: &[(V, usize)],
    trails: &mut Trails,
    scratch: &mut Vec<V>,
) -> Vec<(V, usize)> {
    let mut next = Vec::new();
    match segment {
        PathSegment::Key(key) => {
            for &(v, trail) in current {
                if let Some(c) = v.child(key) {
                    next.push((c, trails.step(trail, || PathSegment::Key(key.clone()))));
                }
            }
        }
        PathSegment::Index(i) => {
            for &(v, trail) in current {
                if let Some(e) = v.element(*i) {
                    next.push((e, trails.step(trail, || PathSegment::Index(*i))));
                }
            }
        }
        PathSegment::IndexFromEnd(n) => {
            for &(v, trail) in current {
                let len = v.len().unwrap_or(0);
                if let Some(e) = len.checked_sub(*n).and_then(|i| Some((i, v.element(i)?))) {
                    next.push((e.1, trails.step(trail, || PathSegment::Index(e.0))));
                }
            }
        }
        PathSegment::AllEntries => {
            let mut entries = Vec::new();
            for &(v, trail) in current {
                named_entries(v, &mut entries);
                for &(k, e) in &entries {
                    next.push((e, trails.step(trail, || key_segment(k))));
                }
                scratch.clear();
                v.elements(scratch);
                for (i, &e) in scratch.iter().enumerate() {
                    next.push((e, trails.step(trail, || PathSegment::Index(i))));
                }
            }
        }
        PathSegment::Descendant(key) => {
            next.extend(descend(current, key, trails).into_iter().map(|f| f.child));
        }
        PathSegment::AllElements => {
            for &(v, trail) in current {
                scratch.clear();
                v.elements(scratch);
                for (i, &e) in scratch.iter().enumerate() {
                    next.push((e, trails.step(trail, || PathSegment::Index(i))));
                }
            }
        }
        #[cfg(feature = "snbt")]
        PathSegment::ElementFilter(_) | PathSegment::Filter(_) => {
            let values = current.iter().map(|&(v, _)| v);
            super::filter::keep(segment, values, scratch, |v, from, index| {
                let trail = current[from].1;
                let trail = match index {
                    Some(i) => trails.step(trail, || PathSegment::Index(i)),
                    None => trail,
                };
                next.push((v, trail));
            });
        }
    }
    next
}

/// Whether a key can be named in a path: valid MUTF-8 in its canonical form
/// (the encoding of the name it decodes to, which a lookup by that name
/// compares).
fn nameable(key: &[u8]) -> bool {
    (key.is_ascii() && !key.contains(&0))
        || mutf8::decode(key).is_ok_and(|name| *mutf8::encode(&name) == *key)
}

/// The name of a [`nameable`] key.
pub(super) fn key_name(key: impl AsRef<[u8]>) -> String {
    mutf8::decode_lossy(key.as_ref()).into_owned()
}

fn key_segment(key: impl AsRef<[u8]>) -> PathSegment {
    PathSegment::Key(key_name(key))
}

/// The entries of a compound that a path reaches, in order, into `out`
/// (emptied first; nothing for other values): the last entry of each key,
/// the one a lookup by name finds, and only [`nameable`] keys, so that the
/// concrete path of each leads back to it. Linear in the entries (a hash set
/// finds repeated keys in a large compound).
pub(super) fn named_entries<V: View>(v: V, out: &mut Vec<(V::Key, V)>) {
    out.clear();
    v.for_each_entry(|k, e| out.push((k, e)));
    out.retain(|(k, _)| nameable(k.as_ref()));
    let mut shadowed = Vec::new();
    if out.len() <= 16 {
        for (i, (k, _)) in out.iter().enumerate() {
            if out[i + 1..].iter().any(|(l, _)| l.as_ref() == k.as_ref()) {
                shadowed.push(i);
            }
        }
    } else {
        let mut seen = HashSet::with_capacity(out.len());
        for (i, (k, _)) in out.iter().enumerate().rev() {
            if !seen.insert(k.as_ref()) {
                shadowed.push(i);
            }
        }
        shadowed.reverse();
    }
    if !shadowed.is_empty() {
        let mut i = 0;
        let mut next = shadowed.iter().peekable();
        out.retain(|_| {
            let keep = next.peek() != Some(&&i);
            if !keep {
                next.next();
            }
            i += 1;
            keep
        });
    }
}

/// A match of `..key`: the compound holding the entry and the entry's value,
/// each with its trail.
struct Found<V> {
    holder: (V, usize),
    child: (V, usize),
}

/// `..key` from each of `current`: the entry `key` of each value and of
/// every compound below it, through lists, in document order below each
/// value.
///
/// One walk on a heap stack (no recursion, so any depth), sharing a visited
/// set over `current`: a compound or list is entered at most once per step
/// even when the values of `current` lie inside one another (after an
/// earlier `..`), so the step costs `O(N)` for a document of `N` nodes
/// whatever `current` holds, and a path with `k` descendant steps
/// (`a..b..c`: 2) costs `O(k × N)`. A match reached from two values of
/// `current` counts once.
fn descend<V: View>(current: &[(V, usize)], key: &str, trails: &mut Trails) -> Vec<Found<V>> {
    let wanted = mutf8::encode(key);
    let mut found = Vec::new();
    let mut visited = HashSet::new();
    // A value to enter, its trail, and the compound it is the entry `key` of.
    type Pending<V> = (V, usize, Option<(V, usize)>);
    let mut stack: Vec<Pending<V>> = Vec::new();
    let mut entries = Vec::new();
    let mut elements = Vec::new();
    for &(v, trail) in current {
        stack.push((v, trail, None));
        while let Some((node, trail, holder)) = stack.pop() {
            if let Some(holder) = holder {
                found.push(Found {
                    holder,
                    child: (node, trail),
                });
            }
            let Some(id) = node.node_id() else { continue };
            if !visited.insert(id) {
                continue;
            }
            #[cfg(test)]
            tests::ENTERED.with(|n| n.set(n.get() + 1));
            let base = stack.len();
            named_entries(node, &mut entries);
            for &(k, child) in &entries {
                let at = trails.step(trail, || key_segment(k));
                let holds = k.as_ref() == &*wanted;
                stack.push((child, at, holds.then_some((node, trail))));
            }
            // Only lists of compounds and lists hold anything to look into
            // (a list has one element type, so the first element tells).
            if node.element(0).is_some_and(|e| e.node_id().is_some()) {
                elements.clear();
                node.elements(&mut elements);
                for (i, &e) in elements.iter().enumerate() {
                    stack.push((e, trails.step(trail, || PathSegment::Index(i)), None));
                }
            }
            stack[base..].reverse();
        }
    }
    found
}

/// The values `segments` select from `root`, each with its trail.
fn run<'s, V: Node>(
    segments: impl Iterator<Item = &'s PathSegment>,
    root: V,
    trails: &mut Trails,
) -> Vec<(V, usize)> {
    let mut scratch = Vec::new();
    let mut current = vec![(root, ROOT)];
    for segment in segments {
        if current.is_empty() {
            break;
        }
        current = apply(segment, &current, trails, &mut scratch);
    }
    current
}

/// Every value `segments` select from `root`, with its concrete path when
/// `with_paths`.
pub(super) fn select_from<'s, V: Node>(
    segments: impl Iterator<Item = &'s PathSegment>,
    root: V,
    with_paths: bool,
) -> Vec<(V, Option<NbtPath>)> {
    let mut trails = Trails {
        steps: Vec::new(),
        on: with_paths,
    };
    let current = run(segments, root, &mut trails);
    current
        .into_iter()
        .map(|(v, t)| (v, with_paths.then(|| trails.path(t))))
        .collect()
}

/// The compounds that hold the entries `..key` selects after `segments`,
/// each once, with its concrete path (what editing `…..key` changes).
pub(super) fn holders_from<'s, V: Node>(
    segments: impl Iterator<Item = &'s PathSegment>,
    root: V,
    key: &str,
) -> Vec<(V, NbtPath)> {
    let mut trails = Trails {
        steps: Vec::new(),
        on: true,
    };
    let current = run(segments, root, &mut trails);
    descend(&current, key, &mut trails)
        .into_iter()
        .map(|f| (f.holder.0, trails.path(f.holder.1)))
        .collect()
}

/// [`select_from`] over the whole path.
pub(crate) fn select<V: Node>(
    path: &NbtPath,
    root: V,
    with_paths: bool,
) -> Vec<(V, Option<NbtPath>)> {
    select_from(path.segments(), root, with_paths)
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::owned::{NbtCompound, NbtList, NbtTag};
    use crate::path::Value;

    thread_local! {
        /// Compounds and lists entered by `descend` on this thread.
        pub(super) static ENTERED: Cell<usize> = const { Cell::new(0) };
    }

    /// `depth` levels of `{a: [{a: …}], b: {a: …}}`-like nesting, `width`
    /// wide at each level: many nested matches of `..a`.
    fn nested(depth: usize, width: usize) -> (NbtCompound, usize) {
        let mut c = NbtCompound::new();
        c.insert("leaf", 1i32);
        let mut containers = 1;
        for _ in 0..depth {
            let mut next = NbtCompound::new();
            let copies = vec![c.clone(); width];
            // each copy and the list itself are containers
            containers = containers * width + 1 + 1;
            next.insert("a", NbtTag::List(NbtList::Compound(copies)));
            c = next;
        }
        (c, containers)
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "safe code, minutes under Miri; the views it walks run in tests/miri.rs"
    )]
    fn each_descendant_step_enters_each_container_once() {
        let (root, containers) = nested(6, 3);
        for steps in [1, 2, 5, 10] {
            let path: NbtPath = "..a".repeat(steps).parse().unwrap();
            ENTERED.with(|n| n.set(0));
            let found = select(&path, Value::Compound(&root), true);
            let entered = ENTERED.with(Cell::get);
            // `a..b..c`-style paths: at most (descendant steps) × (containers).
            assert!(
                entered <= steps * containers,
                "{steps} steps: {entered} > {steps} × {containers}"
            );
            assert_eq!(found.is_empty(), steps > 6);
        }
    }
}
