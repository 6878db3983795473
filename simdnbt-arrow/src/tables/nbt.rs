//! `nbt`: one row per tag of every document (chunks, entity chunks, POI
//! chunks, player files, `level.dat`, any NBT file), with its concrete path.

use arrow_schema::{DataType, Field};
use simdnbt::Number;
use simdnbt::borrow::{
    NbtCompound, NbtCompoundIter, NbtCompoundListIter, NbtList, NbtListListIter, NbtTag,
};
use simdnbt::path::{BorrowValue, NbtPath};
use simdnbt::tag_id;

use super::{Doc, field};
use crate::cols::Cols;

const DIMENSION: usize = 0;
const FILE: usize = 1;
const CHUNK_X: usize = 2;
const CHUNK_Z: usize = 3;
const PATH: usize = 4;
const TYPE: usize = 5;
const VALUE: usize = 6;

pub(crate) fn fields() -> Vec<Field> {
    vec![
        field("dimension", DataType::Utf8),
        field("file", DataType::Utf8),
        field("chunk_x", DataType::Int32),
        field("chunk_z", DataType::Int32),
        field("path", DataType::Utf8),
        field("type", DataType::Utf8),
        field("value", DataType::Utf8),
    ]
}

/// A container being walked; its path segment is on the path while it is.
enum Frame<'a, 't> {
    Compound(NbtCompoundIter<'a, 't>),
    Compounds(NbtCompoundListIter<'a, 't>, usize),
    Lists(NbtListListIter<'a, 't>, usize),
}

struct Walk<'c, 'd> {
    doc: &'d Doc<'d>,
    cols: &'c mut Cols,
    snbt: Option<usize>,
    path: NbtPath,
}

impl Walk<'_, '_> {
    /// One row: `value` is the leaf (or any value, for the `snbt` column).
    fn row(&mut self, id: u8, value: BorrowValue<'_, '_>) {
        self.cols.str(DIMENSION, Some(&self.doc.part.dimension));
        self.cols.str(FILE, Some(self.doc.file));
        self.cols.i32(CHUNK_X, self.doc.chunk_x());
        self.cols.i32(CHUNK_Z, self.doc.chunk_z());
        if self.cols.want(PATH) {
            self.cols.str(PATH, Some(&self.path.to_string()));
        }
        self.cols.str(TYPE, Some(tag_id::name(id)));
        let leaf = !matches!(id, tag_id::COMPOUND | tag_id::LIST);
        if leaf && self.cols.want(VALUE) {
            let text = simdnbt::snbt::to_string(&value.to_owned()).ok();
            self.cols.str(VALUE, text.as_deref());
        }
        if let Some(s) = self.snbt.filter(|&s| self.cols.want(s)) {
            let text = simdnbt::snbt::to_string(&value.to_owned()).ok();
            self.cols.str(s, text.as_deref());
        }
        self.cols.end_row();
    }

    /// The rows of a list's number, string and array elements; the frame
    /// that walks its compounds or lists.
    fn list<'a, 't>(&mut self, list: NbtList<'a, 't>) -> Option<Frame<'a, 't>> {
        if let Some(c) = list.compounds() {
            return Some(Frame::Compounds(c.iter(), 0));
        }
        if let Some(l) = list.lists() {
            return Some(Frame::Lists(l.iter(), 0));
        }
        let id = list.id();
        let element = |walk: &mut Self, i: usize, v: BorrowValue<'_, '_>| {
            walk.path.push_index(i);
            walk.row(id, v);
            walk.path.pop();
        };
        macro_rules! numbers {
            ($raw:ident, $variant:ident) => {
                if let Some(v) = list.$raw() {
                    for (i, n) in v.iter().enumerate() {
                        element(self, i, BorrowValue::Number(Number::$variant(n)));
                    }
                    return None;
                }
            };
        }
        if let Some(v) = list.bytes() {
            for (i, &n) in v.iter().enumerate() {
                element(self, i, BorrowValue::Number(Number::Byte(n)));
            }
            return None;
        }
        numbers!(shorts_raw, Short);
        numbers!(ints_raw, Int);
        numbers!(longs_raw, Long);
        numbers!(floats_raw, Float);
        numbers!(doubles_raw, Double);
        if let Some(v) = list.strings() {
            for (i, &s) in v.iter().enumerate() {
                element(self, i, BorrowValue::String(s));
            }
        } else if let Some(v) = list.byte_arrays() {
            for (i, &a) in v.iter().enumerate() {
                element(self, i, BorrowValue::ByteArray(a));
            }
        } else if let Some(v) = list.int_arrays() {
            for (i, &a) in v.iter().enumerate() {
                element(self, i, BorrowValue::IntArray(a));
            }
        } else if let Some(v) = list.long_arrays() {
            for (i, &a) in v.iter().enumerate() {
                element(self, i, BorrowValue::LongArray(a));
            }
        }
        None
    }

    /// The row of a tag; the frame that walks it, if it is a container.
    fn tag<'a, 't>(&mut self, tag: NbtTag<'a, 't>) -> Option<Frame<'a, 't>> {
        self.row(tag.id(), BorrowValue::Tag(tag));
        if let Some(c) = tag.compound() {
            return Some(Frame::Compound(c.iter()));
        }
        self.list(tag.list()?)
    }
}

pub(crate) fn rows(doc: &Doc<'_>, root: NbtCompound<'_, '_>, cols: &mut Cols, snbt: Option<usize>) {
    let mut walk = Walk {
        doc,
        cols,
        snbt,
        path: NbtPath::new(),
    };
    // The reader's depth limit bounds this stack (no recursion).
    let mut stack = vec![Frame::Compound(root.iter())];
    while let Some(frame) = stack.last_mut() {
        let next = match frame {
            Frame::Compound(iter) => iter.next().map(|(key, tag)| {
                walk.path.push_key(key.to_str().into_owned());
                walk.tag(tag)
            }),
            Frame::Compounds(iter, i) => iter.next().map(|c| {
                walk.path.push_index(*i);
                *i += 1;
                walk.row(tag_id::COMPOUND, BorrowValue::Compound(c));
                Some(Frame::Compound(c.iter()))
            }),
            Frame::Lists(iter, i) => iter.next().map(|l| {
                walk.path.push_index(*i);
                *i += 1;
                walk.row(tag_id::LIST, BorrowValue::List(l));
                walk.list(l)
            }),
        };
        match next {
            // A container: walk it; its segment stays on the path.
            Some(Some(frame)) => stack.push(frame),
            // A leaf (or a list of leaves, already walked).
            Some(None) => {
                walk.path.pop();
            }
            // The container is done.
            None => {
                stack.pop();
                if !stack.is_empty() {
                    walk.path.pop();
                }
            }
        }
    }
}
