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

/// Where a value of a `..key` walk is: a step already in the trails, or one
/// of the walk's own steps, made into a trail only when a match needs it.
#[derive(Clone, Copy)]
enum At {
    Trail(usize),
    Walk(usize),
}

/// A step of a `..key` walk: its parent, the key or index it takes, and its
/// trail once a match needed it.
struct WalkStep<K> {
    parent: At,
    segment: Result<K, usize>,
    trail: Option<usize>,
}

/// The trail of `at`, made (with those of its parents not yet made) from
/// the walk's steps: keys are decoded into path segments only for the
/// matches, not for every value the walk passes.
fn trail_of<K: AsRef<[u8]>>(at: At, walk: &mut [WalkStep<K>], trails: &mut Trails) -> usize {
    let mut chain = Vec::new();
    let mut at = at;
    let mut trail = loop {
        match at {
            At::Trail(t) => break t,
            At::Walk(i) => match walk[i].trail {
                Some(t) => break t,
                None => {
                    chain.push(i);
                    at = walk[i].parent;
                }
            },
        }
    };
    for &i in chain.iter().rev() {
        let step = &walk[i];
        trail = trails.step(trail, || match &step.segment {
            Ok(k) => key_segment(k),
            Err(index) => PathSegment::Index(*index),
        });
        walk[i].trail = Some(trail);
    }
    trail
}

/// `..key` from each of `current`: the entry `key` of each value and of
/// every compound below it, through lists, in document order below each
/// value.
///
/// One walk on a heap stack (no recursion, so any depth). With several
/// values in `current` a visited set is shared over them: a compound or list
/// is entered at most once per step even when the values lie inside one
/// another (after an earlier `..`), so the step costs `O(N)` for a document
/// of `N` nodes whatever `current` holds, and a path with `k` descendant
/// steps (`a..b..c`: 2) costs `O(k × N)`; a match reached from two values
/// of `current` counts once. From one value the walk is a tree walk, which
/// reaches each node once without the set. Only containers and matches are
/// put on the stack, and the concrete path of a value is made only when it
/// is a match (or holds one).
fn descend<V: View>(current: &[(V, usize)], key: &str, trails: &mut Trails) -> Vec<Found<V>> {
    let wanted = mutf8::encode(key);
    let mut found = Vec::new();
    let mut visited = (current.len() > 1).then(HashSet::new);
    let mut walk: Vec<WalkStep<V::Key>> = Vec::new();
    let paths = trails.on;
    // A value to enter, where it is, and the compound it is the entry `key` of.
    type Pending<V> = (V, At, Option<(V, At)>);
    let mut stack: Vec<Pending<V>> = Vec::new();
    let mut entries = Vec::new();
    let mut elements = Vec::new();
    for &(v, trail) in current {
        stack.push((v, At::Trail(trail), None));
        while let Some((node, at, holder)) = stack.pop() {
            if let Some((holder, holder_at)) = holder {
                let holder_trail = trail_of(holder_at, &mut walk, trails);
                found.push(Found {
                    holder: (holder, holder_trail),
                    child: (node, trail_of(at, &mut walk, trails)),
                });
            }
            let Some(id) = node.node_id() else { continue };
            if let Some(visited) = &mut visited {
                if !visited.insert(id) {
                    continue;
                }
            }
            #[cfg(test)]
            tests::ENTERED.with(|n| n.set(n.get() + 1));
            let base = stack.len();
            let mut step = |parent: At, segment: Result<V::Key, usize>| match paths {
                true => {
                    walk.push(WalkStep {
                        parent,
                        segment,
                        trail: None,
                    });
                    At::Walk(walk.len() - 1)
                }
                false => At::Trail(ROOT),
            };
            named_entries(node, &mut entries);
            for &(k, child) in &entries {
                let holds = k.as_ref() == &*wanted;
                // A value that is no match and holds nothing has nothing to give.
                if holds || child.node_id().is_some() {
                    let child_at = step(at, Ok(k));
                    stack.push((child, child_at, holds.then_some((node, at))));
                }
            }
            // Only lists of compounds and lists hold anything to look into
            // (a list has one element type, so the first element tells).
            if node.element(0).is_some_and(|e| e.node_id().is_some()) {
                elements.clear();
                node.elements(&mut elements);
                for (i, &e) in elements.iter().enumerate() {
                    let element_at = step(at, Err(i));
                    stack.push((e, element_at, None));
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
    fn descendant_paths_are_made_for_matches_only() {
        // Wide and nested, with two matches: `deep.x` and `list[1].x`.
        let mut c = NbtCompound::new();
        for i in 0..100 {
            c.insert(format!("k{i}"), i);
        }
        let mut deep = NbtCompound::new();
        deep.insert("x", 2i32);
        deep.insert("y", vec![1i32, 2, 3]);
        c.insert("deep", NbtTag::Compound(deep.clone()));
        let mut other = NbtCompound::new();
        other.insert("z", 0i8);
        let list = NbtList::Compound(vec![other, deep]);
        c.insert("list", NbtTag::List(list));
        let path: NbtPath = "..x".parse().unwrap();
        let mut trails = Trails {
            steps: Vec::new(),
            on: true,
        };
        let found = run(path.segments(), Value::Compound(&c), &mut trails);
        let paths: Vec<String> = found.iter().map(|f| trails.path(f.1).to_string()).collect();
        assert_eq!(paths, ["deep.x", "list[1].x"]);
        // A step per segment of the two paths (deep, x; list, [1], x), not
        // one for every value the walk passed (over 100).
        assert_eq!(trails.steps.len(), 5);
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
