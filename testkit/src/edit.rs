//! Edit scripts: the same edits applied to a `simdnbt::document::Document` and
//! to an owned tree, whose plain-`Vec` edits are the reference.
//!
//! [`Edit`] names a container by its path from the root ([`Step`]s) and an
//! [`Op`] on it. [`apply_document`] performs it through the document's
//! handles; [`apply_owned`] performs it on an owned tree with the rules the
//! document promises (a list keeps its element type, an untyped empty list
//! takes any; nothing nests deeper than 512 levels; strings stay within 65535
//! encoded bytes), checking before it changes anything. [`random_edit`] draws
//! an edit from a byte [`Source`] (fuzzer input, or a seeded generator's
//! bytes), and [`check_random_edits`] runs a script of them on both and
//! asserts after every step that they agree byte for byte, that a failed edit
//! changed nothing and that the document's bytes read back.

use std::io::Cursor;

use simdnbt::document::{self, Document, Framing, NbtCompoundMut, NbtListMut};
use simdnbt::owned::{NbtCompound, NbtList, NbtTag};
use simdnbt::tag_id::*;
use simdnbt::{Mutf8Str, Mutf8String};

/// The depth limit edits keep to (the readers' default).
const MAX_DEPTH: usize = 512;

/// One step from a container to a child container.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// The child called this in a compound.
    Key(String),
    /// Element `i` of a list.
    Index(usize),
}

/// What to do to the container an [`Edit`] names.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// Compound: replace the tag of this name (the last, if repeated), or append one.
    Set(String, NbtTag),
    /// Compound: append without a lookup (a duplicate key is kept; the new
    /// entry is the one lookups see).
    Insert(String, NbtTag),
    /// Compound: remove the tag of this name (every entry, if repeated).
    Remove(String),
    /// List: append.
    Push(NbtTag),
    /// List: insert at an index.
    InsertAt(usize, NbtTag),
    /// List: replace the element at an index.
    SetAt(usize, NbtTag),
    /// List: remove the element at an index.
    RemoveAt(usize),
    /// Compound or list: remove everything.
    Clear,
    /// The array at this child: set element `i` (the value cast to its type).
    ArraySet(Step, usize, i64),
    /// The array at this child: append (cast to its type).
    ArrayPush(Step, i64),
    /// The array at this child: shorten.
    ArrayTruncate(Step, usize),
}

/// An edit: a container (by its path from the root) and what to do to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Edit {
    /// From the root to the container.
    pub path: Vec<Step>,
    /// What to do there.
    pub op: Op,
}

/// An edit was refused (and changed nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused;

/// What an edit did: `Ok(true)` changed (or, for a removal, found)
/// something, `Ok(false)` a removal that found nothing.
pub type Outcome = Result<bool, Refused>;

/// A container of the owned tree, mutably.
enum Place<'t> {
    Compound(&'t mut NbtCompound),
    List(&'t mut NbtList),
}

fn place_of(tag: &mut NbtTag) -> Option<Place<'_>> {
    match tag {
        NbtTag::Compound(c) => Some(Place::Compound(c)),
        NbtTag::List(l) => Some(Place::List(l)),
        _ => None,
    }
}

/// The container `path` names in an owned tree.
fn find<'t>(root: &'t mut NbtTag, path: &[Step]) -> Option<Place<'t>> {
    let mut place = place_of(root)?;
    for step in path {
        place = match (place, step) {
            (Place::Compound(c), Step::Key(k)) => place_of(c.get_mut(k)?)?,
            (Place::List(l), Step::Index(i)) => match l {
                NbtList::Compound(v) => Place::Compound(v.get_mut(*i)?),
                NbtList::List(v) => Place::List(v.get_mut(*i)?),
                _ => return None,
            },
            _ => return None,
        };
    }
    Some(place)
}

/// The compound/list nesting of a tag (0 for a leaf), without recursion.
pub fn nesting(tag: &NbtTag) -> usize {
    enum Item<'a> {
        Compound(&'a NbtCompound),
        List(&'a NbtList),
    }
    let mut stack: Vec<(Item<'_>, usize)> = Vec::new();
    match tag {
        NbtTag::Compound(c) => stack.push((Item::Compound(c), 1)),
        NbtTag::List(l) => stack.push((Item::List(l), 1)),
        _ => return 0,
    }
    let mut deepest = 0;
    while let Some((item, level)) = stack.pop() {
        deepest = deepest.max(level);
        match item {
            Item::Compound(c) => {
                for (_, v) in c.iter() {
                    match v {
                        NbtTag::Compound(c) => stack.push((Item::Compound(c), level + 1)),
                        NbtTag::List(l) => stack.push((Item::List(l), level + 1)),
                        _ => {}
                    }
                }
            }
            Item::List(NbtList::Compound(v)) => {
                stack.extend(v.iter().map(|c| (Item::Compound(c), level + 1)))
            }
            Item::List(NbtList::List(v)) => {
                stack.extend(v.iter().map(|l| (Item::List(l), level + 1)))
            }
            Item::List(_) => {}
        }
    }
    deepest
}

/// Whether `tag` may go into a container at nesting `level` (the root is 1):
/// it writes (strings, lengths) and fits under the depth limit.
fn fits(tag: &NbtTag, level: usize) -> bool {
    tag.write_payload(&mut Vec::new()).is_ok() && nesting(tag) + level <= MAX_DEPTH
}

/// Whether a compound key is short enough.
fn key_fits(key: &str) -> bool {
    Mutf8Str::from_str(key).len() <= u16::MAX as usize
}

/// A list of element type `elem` made of `tags` (all of that type).
fn list_of(elem: u8, tags: Vec<NbtTag>) -> NbtList {
    macro_rules! collect {
        ($variant:ident, $into:ident) => {
            NbtList::$variant(tags.into_iter().filter_map(NbtTag::$into).collect())
        };
    }
    match elem {
        END => NbtList::Empty,
        BYTE => collect!(Byte, into_byte),
        SHORT => collect!(Short, into_short),
        INT => collect!(Int, into_int),
        LONG => collect!(Long, into_long),
        FLOAT => collect!(Float, into_float),
        DOUBLE => collect!(Double, into_double),
        BYTE_ARRAY => collect!(ByteArray, into_byte_array),
        STRING => collect!(String, into_string),
        LIST => collect!(List, into_list),
        COMPOUND => collect!(Compound, into_compound),
        INT_ARRAY => collect!(IntArray, into_int_array),
        _ => collect!(LongArray, into_long_array),
    }
}

/// Applies `edit` to an owned tree with the document's rules.
pub fn apply_owned(root: &mut NbtTag, edit: &Edit) -> Outcome {
    let level = edit.path.len() + 1;
    let place = find(root, &edit.path).ok_or(Refused)?;
    match (place, &edit.op) {
        (Place::Compound(c), Op::Set(key, value)) => match c.get_mut(key) {
            Some(old) => {
                // The document overwrites a same-sized value in place
                // without checking it again; such a value is valid anyway.
                if !fits(value, level) {
                    return Err(Refused);
                }
                *old = value.clone();
                Ok(true)
            }
            None => {
                if !key_fits(key) || !fits(value, level) {
                    return Err(Refused);
                }
                c.insert(key.as_str(), value.clone());
                Ok(true)
            }
        },
        (Place::Compound(c), Op::Insert(key, value)) => {
            if !key_fits(key) || !fits(value, level) {
                return Err(Refused);
            }
            c.push(key.as_str(), value.clone());
            Ok(true)
        }
        (Place::Compound(c), Op::Remove(key)) => Ok(c.remove(key).is_some()),
        (Place::Compound(c), Op::Clear) => {
            c.clear();
            Ok(true)
        }
        (Place::List(l), Op::Push(value)) => {
            let len = l.len();
            list_insert(l, len, value, level)
        }
        (Place::List(l), Op::InsertAt(i, value)) => list_insert(l, *i, value, level),
        (Place::List(l), Op::SetAt(i, value)) => {
            if *i >= l.len() || (l.id() != value.id()) || !fits(value, level) {
                return Err(Refused);
            }
            let mut tags = l.as_nbt_tags();
            tags[*i] = value.clone();
            *l = list_of(l.id(), tags);
            Ok(true)
        }
        (Place::List(l), Op::RemoveAt(i)) => {
            if *i >= l.len() {
                return Ok(false);
            }
            let mut tags = l.as_nbt_tags();
            tags.remove(*i);
            *l = list_of(l.id(), tags);
            Ok(true)
        }
        (Place::List(l), Op::Clear) => {
            *l = list_of(l.id(), Vec::new());
            Ok(true)
        }
        (place, Op::ArraySet(at, i, v)) => array_edit(place, at, |a| {
            if *i >= a.len() {
                return Err(Refused);
            }
            a[*i] = *v;
            Ok(true)
        }),
        (place, Op::ArrayPush(at, v)) => array_edit(place, at, |a| {
            a.push(*v);
            Ok(true)
        }),
        (place, Op::ArrayTruncate(at, n)) => array_edit(place, at, |a| {
            a.truncate(*n);
            Ok(true)
        }),
        _ => Err(Refused),
    }
}

fn list_insert(l: &mut NbtList, i: usize, value: &NbtTag, level: usize) -> Outcome {
    let untyped = matches!(l, NbtList::Empty);
    if i > l.len() || (!untyped && l.id() != value.id()) || !fits(value, level) {
        return Err(Refused);
    }
    let mut tags = l.as_nbt_tags();
    tags.insert(i, value.clone());
    *l = list_of(value.id(), tags);
    Ok(true)
}

/// Runs `f` on the array at `at` (as i64s) and stores the result back.
fn array_edit(place: Place<'_>, at: &Step, f: impl FnOnce(&mut Vec<i64>) -> Outcome) -> Outcome {
    enum Arr<'a> {
        Bytes(&'a mut Vec<u8>),
        Ints(&'a mut Vec<i32>),
        Longs(&'a mut Vec<i64>),
    }
    let arr = match (place, at) {
        (Place::Compound(c), Step::Key(k)) => match c.get_mut(k).ok_or(Refused)? {
            NbtTag::ByteArray(v) => Arr::Bytes(v),
            NbtTag::IntArray(v) => Arr::Ints(v),
            NbtTag::LongArray(v) => Arr::Longs(v),
            _ => return Err(Refused),
        },
        (Place::List(l), Step::Index(i)) => match l {
            NbtList::ByteArray(v) => Arr::Bytes(v.get_mut(*i).ok_or(Refused)?),
            NbtList::IntArray(v) => Arr::Ints(v.get_mut(*i).ok_or(Refused)?),
            NbtList::LongArray(v) => Arr::Longs(v.get_mut(*i).ok_or(Refused)?),
            _ => return Err(Refused),
        },
        _ => return Err(Refused),
    };
    match arr {
        Arr::Bytes(v) => {
            let mut w: Vec<i64> = v.iter().map(|&x| x as i64).collect();
            let r = f(&mut w)?;
            *v = w.into_iter().map(|x| x as u8).collect();
            Ok(r)
        }
        Arr::Ints(v) => {
            let mut w: Vec<i64> = v.iter().map(|&x| x as i64).collect();
            let r = f(&mut w)?;
            *v = w.into_iter().map(|x| x as i32).collect();
            Ok(r)
        }
        Arr::Longs(v) => f(v),
    }
}

/// A handle on a document's container.
enum Handle<'d> {
    Compound(NbtCompoundMut<'d>),
    List(NbtListMut<'d>),
}

/// Applies `edit` to a document through its handles.
pub fn apply_document(doc: &mut Document, edit: &Edit) -> Outcome {
    let root = match doc.root().id() {
        COMPOUND => Handle::Compound(doc.as_compound_mut().ok_or(Refused)?),
        LIST => Handle::List(doc.as_list_mut().ok_or(Refused)?),
        _ => return Err(Refused),
    };
    walk(root, &edit.path, &edit.op)
}

fn walk(mut h: Handle<'_>, steps: &[Step], op: &Op) -> Outcome {
    let Some((step, rest)) = steps.split_first() else {
        return apply_here(h, op);
    };
    let next = match (&mut h, step) {
        (Handle::Compound(c), Step::Key(k)) => {
            match c.as_compound().get(k).map(|t| t.id()).ok_or(Refused)? {
                COMPOUND => Handle::Compound(c.compound_mut(k.as_str()).ok_or(Refused)?),
                LIST => Handle::List(c.list_mut(k.as_str()).ok_or(Refused)?),
                _ => return Err(Refused),
            }
        }
        (Handle::List(l), Step::Index(i)) => match l.id() {
            COMPOUND => Handle::Compound(l.compound_mut(*i).ok_or(Refused)?),
            LIST => Handle::List(l.list_mut(*i).ok_or(Refused)?),
            _ => return Err(Refused),
        },
        _ => return Err(Refused),
    };
    walk(next, rest, op)
}

fn apply_here(h: Handle<'_>, op: &Op) -> Outcome {
    let done = |r: Result<(), document::EditError>| r.map(|()| true).map_err(|_| Refused);
    match (h, op) {
        (Handle::Compound(mut c), Op::Set(k, v)) => done(c.set(k, v.clone())),
        (Handle::Compound(mut c), Op::Insert(k, v)) => done(c.push(k, v.clone())),
        (Handle::Compound(mut c), Op::Remove(k)) => Ok(c.remove(k)),
        (Handle::Compound(mut c), Op::Clear) => {
            c.clear();
            Ok(true)
        }
        (Handle::List(mut l), Op::Push(v)) => done(l.push(v.clone())),
        (Handle::List(mut l), Op::InsertAt(i, v)) => done(l.insert(*i, v.clone())),
        (Handle::List(mut l), Op::SetAt(i, v)) => done(l.set(*i, v.clone())),
        (Handle::List(mut l), Op::RemoveAt(i)) => Ok(l.remove(*i)),
        (Handle::List(mut l), Op::Clear) => {
            l.clear();
            Ok(true)
        }
        (h, Op::ArraySet(at, i, v)) => with_array(h, at, |a| a.set(*i, *v)),
        (h, Op::ArrayPush(at, v)) => with_array(h, at, |a| a.push(*v)),
        (h, Op::ArrayTruncate(at, n)) => with_array(h, at, |a| {
            a.truncate(*n);
            Ok(())
        }),
        _ => Err(Refused),
    }
}

/// An array handle of any element type, with i64 values (cast).
trait AnyArray {
    fn set(&mut self, i: usize, v: i64) -> Result<(), document::EditError>;
    fn push(&mut self, v: i64) -> Result<(), document::EditError>;
    fn truncate(&mut self, n: usize);
}

macro_rules! any_array {
    ($t:ty) => {
        impl AnyArray for document::ArrayMut<'_, $t> {
            fn set(&mut self, i: usize, v: i64) -> Result<(), document::EditError> {
                document::ArrayMut::set(self, i, v as $t)
            }
            fn push(&mut self, v: i64) -> Result<(), document::EditError> {
                document::ArrayMut::push(self, v as $t)
            }
            fn truncate(&mut self, n: usize) {
                document::ArrayMut::truncate(self, n)
            }
        }
    };
}
any_array!(u8);
any_array!(i32);
any_array!(i64);

fn with_array(
    h: Handle<'_>,
    at: &Step,
    f: impl FnOnce(&mut dyn AnyArray) -> Result<(), document::EditError>,
) -> Outcome {
    let r = match (h, at) {
        (Handle::Compound(mut c), Step::Key(k)) => {
            let id = c.as_compound().get(k).map(|t| t.id());
            match id.ok_or(Refused)? {
                BYTE_ARRAY => f(&mut c.byte_array_mut(k.as_str()).ok_or(Refused)?),
                INT_ARRAY => f(&mut c.int_array_mut(k.as_str()).ok_or(Refused)?),
                LONG_ARRAY => f(&mut c.long_array_mut(k.as_str()).ok_or(Refused)?),
                _ => return Err(Refused),
            }
        }
        (Handle::List(mut l), Step::Index(i)) => match l.id() {
            BYTE_ARRAY => f(&mut l.byte_array_mut(*i).ok_or(Refused)?),
            INT_ARRAY => f(&mut l.int_array_mut(*i).ok_or(Refused)?),
            LONG_ARRAY => f(&mut l.long_array_mut(*i).ok_or(Refused)?),
            _ => return Err(Refused),
        },
        _ => return Err(Refused),
    };
    r.map(|()| true).map_err(|_| Refused)
}

/// Bytes to draw choices from; zeros once they run out.
pub struct Source<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Source<'a> {
    /// Choices drawn from `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Source { data, pos: 0 }
    }

    /// The next byte (0 once the bytes run out).
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// A number below `n` (0 for `n` ≤ 1).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let v = u16::from_le_bytes([self.byte(), self.byte()]) as usize;
        v % n
    }

    /// Whether bytes are left.
    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }
}

/// Strings the generator uses: lengths 0 to 6 (so a new value often has the
/// old one's length and is written in place), non-ASCII, and a raw `00`.
const STRINGS: &[&str] = &["", "a", "b", "ab", "xyz", "héllo", "日本", "\0x", "stone!"];

/// A value of type `id` (or any type when `id` is `None`), nested at most
/// `levels` deep.
fn value(src: &mut Source<'_>, id: Option<u8>, levels: usize) -> NbtTag {
    let id = match id {
        Some(id) if src.below(5) != 0 => id,
        _ => 1 + src.below(12) as u8,
    };
    let small = |src: &mut Source<'_>| src.below(4);
    match id {
        BYTE => NbtTag::Byte(src.byte() as i8),
        SHORT => NbtTag::Short(src.below(65536) as i16),
        INT => NbtTag::Int(src.below(65536) as i32 - 30000),
        LONG => NbtTag::Long(-(src.below(65536) as i64) << 20),
        FLOAT => NbtTag::Float(f32::from_bits(src.below(65536) as u32 * 0x9e37)),
        DOUBLE => NbtTag::Double(src.below(65536) as f64 / 7.0),
        BYTE_ARRAY => NbtTag::ByteArray((0..small(src)).map(|_| src.byte()).collect()),
        STRING => {
            if src.byte() == 0xff && src.byte() == 0xff {
                // One past the longest string NBT can hold.
                return NbtTag::String(Mutf8String::from("s".repeat(65536)));
            }
            NbtTag::String(STRINGS[src.below(STRINGS.len())].into())
        }
        INT_ARRAY => NbtTag::IntArray((0..small(src)).map(|_| src.below(1000) as i32).collect()),
        LONG_ARRAY => NbtTag::LongArray(
            (0..small(src))
                .map(|_| src.below(1000) as i64 - 5)
                .collect(),
        ),
        LIST if levels > 0 => {
            if src.byte() == 0xfe {
                return deep_list(MAX_DEPTH - 2 + src.below(4));
            }
            let elem = src.below(13) as u8;
            let n = if elem == END { 0 } else { small(src) };
            let tags = (0..n)
                .map(|_| value(src, Some(elem), levels - 1))
                .filter(|t| t.id() == elem)
                .collect();
            NbtTag::List(list_of(elem, tags))
        }
        COMPOUND if levels > 0 => {
            let mut c = NbtCompound::new();
            for _ in 0..small(src) {
                let key = STRINGS[src.below(STRINGS.len())];
                c.insert(key, value(src, None, levels - 1));
            }
            NbtTag::Compound(c)
        }
        _ => NbtTag::Int(src.below(100) as i32),
    }
}

/// A list of lists `levels` deep, built without recursion.
fn deep_list(levels: usize) -> NbtTag {
    let mut l = NbtList::Empty;
    for _ in 1..levels {
        l = NbtList::List(vec![l]);
    }
    NbtTag::List(l)
}

/// A key of the compound that reads back as the same key through `&str`.
fn usable_key(k: &Mutf8Str) -> Option<String> {
    let s = k.try_to_str().ok()?.into_owned();
    (Mutf8Str::from_str(&s).as_bytes() == k.as_bytes()).then_some(s)
}

/// A container of the owned tree.
#[derive(Clone, Copy)]
enum Container<'t> {
    Compound(&'t NbtCompound),
    List(&'t NbtList),
}

impl<'t> Container<'t> {
    fn of(tag: &'t NbtTag) -> Option<Self> {
        match tag {
            NbtTag::Compound(c) => Some(Container::Compound(c)),
            NbtTag::List(l) => Some(Container::List(l)),
            _ => None,
        }
    }
}

/// Containers of the tree with their paths (at most `limit`), root first.
fn containers(root: &NbtTag, limit: usize) -> Vec<(Vec<Step>, Container<'_>)> {
    let mut out = Vec::new();
    let Some(root) = Container::of(root) else {
        return out;
    };
    let mut stack = vec![(Vec::new(), root)];
    while let Some((path, here)) = stack.pop() {
        if out.len() >= limit {
            break;
        }
        let child = |step: Step| {
            let mut p = path.clone();
            p.push(step);
            p
        };
        match here {
            Container::Compound(c) => {
                for (k, v) in c.iter() {
                    let (Some(inner), Some(k)) = (Container::of(v), usable_key(k)) else {
                        continue;
                    };
                    // Of duplicate keys, a lookup finds the last.
                    if c.get(&k).is_some_and(|last| std::ptr::eq(last, v)) {
                        stack.push((child(Step::Key(k)), inner));
                    }
                }
            }
            Container::List(NbtList::Compound(v)) => {
                for (i, c) in v.iter().enumerate().take(8) {
                    stack.push((child(Step::Index(i)), Container::Compound(c)));
                }
            }
            Container::List(NbtList::List(v)) => {
                for (i, l) in v.iter().enumerate().take(8) {
                    stack.push((child(Step::Index(i)), Container::List(l)));
                }
            }
            Container::List(_) => {}
        }
        out.push((path, here));
    }
    out
}

/// Draws an edit that applies to `root` (or, sometimes, one that must be
/// refused), or `None` when `root` has no container.
pub fn random_edit(root: &NbtTag, src: &mut Source<'_>) -> Option<Edit> {
    let places = containers(root, 64);
    let (path, here) = places.get(src.below(places.len()))?;
    let level = path.len() + 1;
    let levels = if src.below(8) == 0 { 8 } else { 3 }.min(MAX_DEPTH - level);
    let path = path.clone();
    let op = match *here {
        Container::Compound(c) => {
            let keys: Vec<(String, &NbtTag)> = c
                .iter()
                .filter_map(|(k, v)| Some((usable_key(k)?, v)))
                .collect();
            let existing = |src: &mut Source<'_>| keys.get(src.below(keys.len())).cloned();
            let fresh = |src: &mut Source<'_>| format!("k{}", src.below(6));
            match src.below(8) {
                0 | 1 => match existing(src) {
                    // Mostly a value of the same type: the in-place path.
                    Some((k, old)) => Op::Set(k, value(src, Some(old.id()), levels)),
                    None => Op::Set(fresh(src), value(src, None, levels)),
                },
                2 => Op::Set(fresh(src), value(src, None, levels)),
                3 => Op::Insert(fresh(src), value(src, None, levels)),
                4 => Op::Remove(existing(src).map_or_else(|| fresh(src), |(k, _)| k)),
                5 if src.below(4) == 0 => Op::Clear,
                _ => {
                    let arrays: Vec<&String> = keys
                        .iter()
                        .filter(|(_, v)| {
                            matches!(
                                v,
                                NbtTag::ByteArray(_) | NbtTag::IntArray(_) | NbtTag::LongArray(_)
                            )
                        })
                        .map(|(k, _)| k)
                        .collect();
                    match arrays.get(src.below(arrays.len().max(1))) {
                        Some(k) => array_op(src, Step::Key((*k).clone())),
                        None => Op::Set(fresh(src), value(src, None, levels)),
                    }
                }
            }
        }
        Container::List(l) => {
            let len = l.len();
            let elem = (l.id() != END).then_some(l.id());
            match src.below(7) {
                0 | 1 => Op::Push(value(src, elem, levels)),
                2 => Op::InsertAt(src.below(len + 2), value(src, elem, levels)),
                3 => Op::SetAt(src.below(len + 1), value(src, elem, levels)),
                4 => Op::RemoveAt(src.below(len + 1)),
                5 if src.below(4) == 0 => Op::Clear,
                _ if matches!(
                    l,
                    NbtList::ByteArray(_) | NbtList::IntArray(_) | NbtList::LongArray(_)
                ) =>
                {
                    let at = src.below(len + 1);
                    array_op(src, Step::Index(at))
                }
                _ => Op::Push(value(src, elem, levels)),
            }
        }
    };
    Some(Edit { path, op })
}

fn array_op(src: &mut Source<'_>, at: Step) -> Op {
    match src.below(3) {
        0 => Op::ArraySet(at, src.below(5), src.below(70000) as i64 - 300),
        1 => Op::ArrayPush(at, src.below(70000) as i64 - 300),
        _ => Op::ArrayTruncate(at, src.below(4)),
    }
}

/// The document's bytes, unnamed form (id, payload), as the owned tree
/// writes them.
fn doc_bytes(doc: &Document) -> Vec<u8> {
    let mut out = Vec::new();
    doc.write_as(Framing::Unnamed, &mut out);
    out
}

/// Reads `bytes` (unnamed form, id then payload) as a document and as an
/// owned tag, then applies edits drawn from `src` to both until it runs out
/// (at most `max_edits`), asserting after each that they agree byte for
/// byte, that a refused edit changed nothing, and that what the document
/// writes reads back. Every `compact_every` edits (0: never) the document is
/// compacted. Returns the number of edits applied.
pub fn check_random_edits(
    bytes: &[u8],
    src: &mut Source<'_>,
    max_edits: usize,
    compact_every: usize,
) -> usize {
    let Ok(mut doc) = document::read_tag(&mut Cursor::new(bytes)) else {
        return 0;
    };
    let Ok(mut tree) = simdnbt::owned::read_tag(&mut Cursor::new(bytes)) else {
        panic!("the document reader accepted what the owned reader refused");
    };
    let mut written = Vec::new();
    tree.write(&mut written).expect("a read tree writes");
    assert_eq!(
        doc_bytes(&doc),
        written,
        "document and owned tree differ after reading"
    );
    let mut n = 0;
    while n < max_edits && !src.is_empty() {
        let Some(edit) = random_edit(&tree, src) else {
            break;
        };
        let before = doc_bytes(&doc);
        let d = apply_document(&mut doc, &edit);
        let o = apply_owned(&mut tree, &edit);

        assert_eq!(
            d, o,
            "the document and the owned tree answer {edit:?} differently"
        );
        let after = doc_bytes(&doc);
        if d.is_err() {
            assert_eq!(after, before, "a refused {edit:?} changed the document");
        }
        let mut expected = Vec::new();
        tree.write(&mut expected)
            .expect("the reference tree writes");
        assert!(
            after == expected,
            "after {edit:?} the document writes other bytes than the owned tree"
        );
        let back = simdnbt::borrow::read_tag(&mut Cursor::new(&after[..]))
            .expect("what the document writes reads back");
        assert!(
            back.as_tag().to_owned() == tree,
            "after {edit:?} the bytes read back as another value"
        );
        n += 1;
        if compact_every > 0 && n % compact_every == 0 {
            doc.compact();
            assert_eq!(doc_bytes(&doc), after, "compaction changed the document");
        }
    }
    n
}
