//! Selecting values: one loop over the path's nodes, each turning the values
//! selected so far into the next ones (breadth first, no recursion), over
//! the [`View`](super::view::View) that owned, borrowed and document values
//! implement (and, for filter nodes, `filter::FilterView`).

use super::{NbtPath, Node, PathSegment};

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
struct Trails {
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
    let mut scratch = Vec::new();
    let mut current = vec![(root, ROOT)];
    for segment in segments {
        if current.is_empty() {
            break;
        }
        current = apply(segment, &current, &mut trails, &mut scratch);
    }
    current
        .into_iter()
        .map(|(v, t)| (v, with_paths.then(|| trails.path(t))))
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
