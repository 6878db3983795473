//! Selecting values: one loop over the path's nodes, each turning the values
//! selected so far into the next ones (breadth first, no recursion), over a
//! small view trait that owned and borrowed documents both implement.

#[cfg(feature = "snbt")]
use super::filter::Matcher;
use super::value::{BorrowValue, Value};
use super::{NbtPath, PathSegment};
#[cfg(feature = "snbt")]
use crate::mutf8::key_matches;
#[cfg(feature = "snbt")]
use crate::raw_list::RawList;
use crate::{Number, tag_id};

#[cfg(feature = "snbt")]
/// A leaf value as filters compare it: the type and the value (numbers as
/// Java's `equals` does, see [`Number::java_equals`]).
#[derive(Clone, Copy)]
pub(crate) enum Leaf<'x> {
    Number(Number),
    ByteArray(&'x [u8]),
    String(&'x [u8]),
    IntArray(Array<'x, i32>),
    LongArray(Array<'x, i64>),
    /// A compound or list: not a leaf.
    Container,
}

#[cfg(feature = "snbt")]
/// Array elements, native or big-endian.
#[derive(Clone, Copy)]
pub(crate) enum Array<'x, T> {
    Native(&'x [T]),
    BigEndian(RawList<'x, T>),
}

#[cfg(feature = "snbt")]
impl<T: crate::simd::BeNumber + Copy + PartialEq> Array<'_, T> {
    pub(super) fn len(&self) -> usize {
        match self {
            Array::Native(v) => v.len(),
            Array::BigEndian(v) => v.len(),
        }
    }

    pub(super) fn get(&self, i: usize) -> Option<T> {
        match self {
            Array::Native(v) => v.get(i).copied(),
            Array::BigEndian(v) => v.get(i),
        }
    }

    fn same(&self, other: &Self) -> bool {
        self.len() == other.len() && (0..self.len()).all(|i| self.get(i) == other.get(i))
    }
}

#[cfg(feature = "snbt")]
impl Leaf<'_> {
    /// Whether a document leaf equals this filter leaf.
    pub(crate) fn matched_by(&self, filter: &Leaf<'_>) -> bool {
        match (filter, self) {
            (Leaf::Number(a), Leaf::Number(b)) => a.java_equals(*b),
            (Leaf::ByteArray(a), Leaf::ByteArray(b)) => a == b,
            (Leaf::String(a), Leaf::String(b)) => crate::mutf8::key_matches(b, a),
            (Leaf::IntArray(a), Leaf::IntArray(b)) => a.same(b),
            (Leaf::LongArray(a), Leaf::LongArray(b)) => a.same(b),
            _ => false,
        }
    }
}

/// What evaluation needs of a value in a document.
pub(crate) trait View: Copy {
    /// The tag type.
    #[cfg(feature = "snbt")]
    fn id(self) -> u8;
    /// The value under `key`, if this is a compound that has it.
    fn child(self, key: &str) -> Option<Self>;
    /// How a compound's keys are borrowed from the document.
    #[cfg(feature = "snbt")]
    type Key: Copy + AsRef<[u8]>;
    /// The value under `key`, the MUTF-8 encoding of a name (what
    /// [`Mutf8Str::from_str`](crate::Mutf8Str::from_str) gives), if this is a
    /// compound that has it: the last entry whose key matches, as in
    /// [`NbtCompound::get`](crate::owned::NbtCompound::get).
    #[cfg(feature = "snbt")]
    fn child_bytes(self, key: &[u8]) -> Option<Self>;
    /// Calls `f` with every entry of a compound, in order (nothing for other values).
    #[cfg(feature = "snbt")]
    fn for_each_entry(self, f: impl FnMut(Self::Key, Self));
    /// The number of elements of a list or array.
    fn len(self) -> Option<usize>;
    /// Element `i` of a list or array.
    fn element(self, i: usize) -> Option<Self>;
    /// Every element of a list or array, appended to `out`.
    fn elements(self, out: &mut Vec<Self>);
    /// The value inside a `{"": value}` compound (the form a list of mixed
    /// types is stored in), else the value itself.
    #[cfg(feature = "snbt")]
    fn unwrapped(self) -> Self;
    /// The value as a leaf.
    #[cfg(feature = "snbt")]
    fn leaf(&self) -> Leaf<'_>;
}

impl<'t> View for Value<'t> {
    #[cfg(feature = "snbt")]
    fn id(self) -> u8 {
        Value::id(&self)
    }

    fn child(self, key: &str) -> Option<Self> {
        self.compound()?.get(key).map(Value::Tag)
    }

    #[cfg(feature = "snbt")]
    type Key = &'t [u8];

    #[cfg(feature = "snbt")]
    fn child_bytes(self, key: &[u8]) -> Option<Self> {
        let c = self.compound()?;
        let (_, v) = c
            .values
            .iter()
            .rfind(|(k, _)| key_matches(k.as_bytes(), key))?;
        Some(Value::Tag(v))
    }

    #[cfg(feature = "snbt")]
    fn for_each_entry(self, mut f: impl FnMut(Self::Key, Self)) {
        if let Some(c) = self.compound() {
            for (k, v) in &c.values {
                f(k.as_bytes(), Value::Tag(v));
            }
        }
    }

    fn len(self) -> Option<usize> {
        match self.typed() {
            Value::List(l) => Some(l.len()),
            Value::ByteArray(a) => Some(a.len()),
            Value::IntArray(a) => Some(a.len()),
            Value::LongArray(a) => Some(a.len()),
            _ => None,
        }
    }

    fn element(self, i: usize) -> Option<Self> {
        use crate::owned::NbtList as L;
        Some(match self.typed() {
            Value::ByteArray(a) => Value::Number(Number::Byte(*a.get(i)? as i8)),
            Value::IntArray(a) => Value::Number(Number::Int(*a.get(i)?)),
            Value::LongArray(a) => Value::Number(Number::Long(*a.get(i)?)),
            Value::List(l) => match l {
                L::Empty => return None,
                L::Byte(v) => Value::Number(Number::Byte(*v.get(i)?)),
                L::Short(v) => Value::Number(Number::Short(*v.get(i)?)),
                L::Int(v) => Value::Number(Number::Int(*v.get(i)?)),
                L::Long(v) => Value::Number(Number::Long(*v.get(i)?)),
                L::Float(v) => Value::Number(Number::Float(*v.get(i)?)),
                L::Double(v) => Value::Number(Number::Double(*v.get(i)?)),
                L::ByteArray(v) => Value::ByteArray(v.get(i)?),
                L::String(v) => Value::String(v.get(i)?),
                L::List(v) => Value::List(v.get(i)?),
                L::Compound(v) => Value::Compound(v.get(i)?),
                L::IntArray(v) => Value::IntArray(v.get(i)?),
                L::LongArray(v) => Value::LongArray(v.get(i)?),
            },
            _ => return None,
        })
    }

    fn elements(self, out: &mut Vec<Self>) {
        let n = self.len().unwrap_or(0);
        out.extend((0..n).filter_map(|i| self.element(i)));
    }

    #[cfg(feature = "snbt")]
    fn unwrapped(self) -> Self {
        match self.compound().map(|c| c.values.as_slice()) {
            Some([(key, value)]) if key.as_bytes().is_empty() => Value::Tag(value),
            _ => self,
        }
    }

    #[cfg(feature = "snbt")]
    fn leaf(&self) -> Leaf<'_> {
        match self.typed() {
            Value::Number(n) => Leaf::Number(n),
            Value::ByteArray(v) => Leaf::ByteArray(v),
            Value::String(v) => Leaf::String(v.as_bytes()),
            Value::IntArray(v) => Leaf::IntArray(Array::Native(v)),
            Value::LongArray(v) => Leaf::LongArray(Array::Native(v)),
            _ => Leaf::Container,
        }
    }
}

impl<'a: 'tape, 'tape> View for BorrowValue<'a, 'tape> {
    #[cfg(feature = "snbt")]
    fn id(self) -> u8 {
        BorrowValue::id(&self)
    }

    fn child(self, key: &str) -> Option<Self> {
        match self.typed() {
            BorrowValue::Compound(c) => c.get(key).map(BorrowValue::Tag),
            _ => None,
        }
    }

    #[cfg(feature = "snbt")]
    type Key = &'a [u8];

    #[cfg(feature = "snbt")]
    fn child_bytes(self, key: &[u8]) -> Option<Self> {
        let BorrowValue::Compound(c) = self.typed() else {
            return None;
        };
        // Forward links only: the last match is found by a full scan.
        let (_, v) = c
            .iter()
            .filter(|(k, _)| key_matches(k.as_bytes(), key))
            .last()?;
        Some(BorrowValue::Tag(v))
    }

    #[cfg(feature = "snbt")]
    fn for_each_entry(self, mut f: impl FnMut(Self::Key, Self)) {
        if let BorrowValue::Compound(c) = self.typed() {
            for (k, v) in c.iter() {
                f(k.as_bytes(), BorrowValue::Tag(v));
            }
        }
    }

    fn len(self) -> Option<usize> {
        match self.typed() {
            BorrowValue::List(l) => Some(l.len()),
            BorrowValue::ByteArray(a) => Some(a.len()),
            BorrowValue::IntArray(a) => Some(a.len()),
            BorrowValue::LongArray(a) => Some(a.len()),
            _ => None,
        }
    }

    fn element(self, i: usize) -> Option<Self> {
        Some(match self.typed() {
            BorrowValue::ByteArray(a) => BorrowValue::Number(Number::Byte(*a.get(i)? as i8)),
            BorrowValue::IntArray(a) => BorrowValue::Number(Number::Int(a.get(i)?)),
            BorrowValue::LongArray(a) => BorrowValue::Number(Number::Long(a.get(i)?)),
            BorrowValue::List(l) => match l.id() {
                tag_id::BYTE => BorrowValue::Number(Number::Byte(*l.bytes()?.get(i)?)),
                tag_id::SHORT => BorrowValue::Number(Number::Short(l.shorts_raw()?.get(i)?)),
                tag_id::INT => BorrowValue::Number(Number::Int(l.ints_raw()?.get(i)?)),
                tag_id::LONG => BorrowValue::Number(Number::Long(l.longs_raw()?.get(i)?)),
                tag_id::FLOAT => BorrowValue::Number(Number::Float(l.floats_raw()?.get(i)?)),
                tag_id::DOUBLE => BorrowValue::Number(Number::Double(l.doubles_raw()?.get(i)?)),
                tag_id::BYTE_ARRAY => BorrowValue::ByteArray(l.byte_arrays()?.get(i)?),
                tag_id::STRING => BorrowValue::String(l.strings()?.get(i)?),
                tag_id::LIST => BorrowValue::List(l.lists()?.get(i)?),
                tag_id::COMPOUND => BorrowValue::Compound(l.compounds()?.get(i)?),
                tag_id::INT_ARRAY => BorrowValue::IntArray(*l.int_arrays()?.get(i)?),
                tag_id::LONG_ARRAY => BorrowValue::LongArray(*l.long_arrays()?.get(i)?),
                _ => return None,
            },
            _ => return None,
        })
    }

    fn elements(self, out: &mut Vec<Self>) {
        // Lists of lists and compounds are walked once (indexing each would
        // scan from the start every time).
        if let BorrowValue::List(l) = self.typed() {
            if let Some(c) = l.compounds() {
                out.extend(c.iter().map(BorrowValue::Compound));
                return;
            }
            if let Some(ls) = l.lists() {
                out.extend(ls.iter().map(BorrowValue::List));
                return;
            }
        }
        let n = self.len().unwrap_or(0);
        out.extend((0..n).filter_map(|i| self.element(i)));
    }

    #[cfg(feature = "snbt")]
    fn unwrapped(self) -> Self {
        if let BorrowValue::Compound(c) = self.typed() {
            let mut entries = c.iter();
            if let (Some((key, value)), None) = (entries.next(), entries.next()) {
                if key.is_empty() {
                    return BorrowValue::Tag(value);
                }
            }
        }
        self
    }

    #[cfg(feature = "snbt")]
    fn leaf(&self) -> Leaf<'_> {
        match self.typed() {
            BorrowValue::Number(n) => Leaf::Number(n),
            BorrowValue::ByteArray(v) => Leaf::ByteArray(v),
            BorrowValue::String(v) => Leaf::String(v.as_bytes()),
            BorrowValue::IntArray(v) => Leaf::IntArray(Array::BigEndian(v)),
            BorrowValue::LongArray(v) => Leaf::LongArray(Array::BigEndian(v)),
            _ => Leaf::Container,
        }
    }
}

/// Whether a segment moves from a value to a child (a filter stays put).
pub(super) fn moves(segment: &PathSegment) -> bool {
    #[cfg(feature = "snbt")]
    if let PathSegment::Filter(_) = segment {
        return false;
    }
    let _ = segment;
    true
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
fn apply<V: View>(
    segment: &PathSegment,
    current: &[(V, usize)],
    trails: &mut Trails,
    scratch: &mut Vec<V>,
) -> Vec<(V, usize)> {
    let mut next = Vec::new();
    // One matcher for the segment's filter, shared by every value: what it
    // works out about the filter's lists is worked out once.
    #[cfg(feature = "snbt")]
    let mut matcher: Option<Matcher<'_>> = None;
    for &(v, trail) in current {
        match segment {
            PathSegment::Key(key) => {
                if let Some(c) = v.child(key) {
                    next.push((c, trails.step(trail, || PathSegment::Key(key.clone()))));
                }
            }
            PathSegment::Index(i) => {
                if let Some(e) = v.element(*i) {
                    next.push((e, trails.step(trail, || PathSegment::Index(*i))));
                }
            }
            PathSegment::IndexFromEnd(n) => {
                let len = v.len().unwrap_or(0);
                if let Some(i) = len.checked_sub(*n) {
                    if let Some(e) = v.element(i) {
                        next.push((e, trails.step(trail, || PathSegment::Index(i))));
                    }
                }
            }
            PathSegment::AllElements => {
                scratch.clear();
                v.elements(scratch);
                for (i, &e) in scratch.iter().enumerate() {
                    next.push((e, trails.step(trail, || PathSegment::Index(i))));
                }
            }
            #[cfg(feature = "snbt")]
            PathSegment::ElementFilter(filter) => {
                if v.id() != tag_id::LIST {
                    continue;
                }
                scratch.clear();
                v.elements(scratch);
                let matcher = matcher.get_or_insert_with(|| Matcher::new(filter.compound()));
                for (i, &e) in scratch.iter().enumerate() {
                    if matcher.matches(e) {
                        next.push((e, trails.step(trail, || PathSegment::Index(i))));
                    }
                }
            }
            #[cfg(feature = "snbt")]
            PathSegment::Filter(filter) => {
                let matcher = matcher.get_or_insert_with(|| Matcher::new(filter.compound()));
                if matcher.matches(v) {
                    next.push((v, trail));
                }
            }
        }
    }
    next
}

/// Every value `segments` select from `root`, with its concrete path when
/// `with_paths`.
pub(super) fn select_from<'s, V: View>(
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
pub(crate) fn select<V: View>(
    path: &NbtPath,
    root: V,
    with_paths: bool,
) -> Vec<(V, Option<NbtPath>)> {
    select_from(path.segments(), root, with_paths)
}
