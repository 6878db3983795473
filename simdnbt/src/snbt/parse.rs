//! The SNBT parser: one pass over the text with an explicit stack of open
//! compounds, lists and calls (no recursion, so no input can overflow the
//! stack), building the owned tree as it goes.

use std::collections::HashMap;

use super::builtin::Builtin;
use super::error::{Error, ErrorKind};
use super::number::{self, IntType};
use super::string;
use crate::Mutf8String;
use crate::owned::{NbtCompound, NbtList, NbtTag};

/// Vanilla's nesting limit, counting the root: compounds, lists and calls
/// (the binary readers' default, [`crate::DEFAULT_MAX_DEPTH`]).
pub(super) const MAX_DEPTH: usize = crate::DEFAULT_MAX_DEPTH as usize;

/// An open container waiting for its next element.
enum Frame {
    Compound {
        /// Where this compound's entries start in the shared entry stack
        /// (one scratch vector for all open compounds: each compound then
        /// gets one exact-size allocation when it closes).
        start: usize,
        /// The key of the value being parsed.
        key: Mutf8String,
    },
    List(ListBuilder),
    Call {
        function: Builtin,
        args: Vec<NbtTag>,
        /// Where the call starts, for its error.
        at: usize,
    },
}

/// A list being filled: typed while every element has one type, then the
/// elements as tags (stored as `{"": value}` wrappers when finished).
enum ListBuilder {
    Typed(NbtList),
    Mixed(Vec<NbtTag>),
}

impl ListBuilder {
    fn push(&mut self, tag: NbtTag) {
        match self {
            ListBuilder::Typed(list) => {
                if let Err(tag) = push_typed(list, tag) {
                    let mut tags = into_tags(std::mem::take(list));
                    tags.push(tag);
                    *self = ListBuilder::Mixed(tags);
                }
            }
            ListBuilder::Mixed(tags) => tags.push(tag),
        }
    }

    fn finish(self) -> NbtList {
        match self {
            ListBuilder::Typed(list) => list,
            ListBuilder::Mixed(tags) => NbtList::Compound(tags.into_iter().map(wrap).collect()),
        }
    }
}

/// A compound that looks like a heterogeneous-list wrapper: one entry, key `""`.
pub(super) fn is_wrapper(c: &NbtCompound) -> bool {
    c.len() == 1 && c.keys().all(|k| k.is_empty())
}

/// Vanilla's rule for an element of a list whose elements differ in type: a
/// compound stays as is unless it looks like a wrapper; anything else becomes
/// `{"": value}`.
fn wrap(tag: NbtTag) -> NbtCompound {
    match tag {
        NbtTag::Compound(c) if !is_wrapper(&c) => c,
        other => NbtCompound::from_values(vec![(Mutf8String::new(), other)]),
    }
}

/// The elements as tags, moved (not cloned: a list turns mixed at most once,
/// but cloning there would copy its subtree again at every level above).
fn into_tags(list: NbtList) -> Vec<NbtTag> {
    macro_rules! tags {
        ($($v:ident => $into:ident),*) => {
            match list.id() {
                $( crate::tag_id::$v => list.$into().unwrap_or_default().into_iter().map(NbtTag::from).collect(), )*
                _ => Vec::new(),
            }
        };
    }
    tags!(BYTE => into_bytes, SHORT => into_shorts, INT => into_ints, LONG => into_longs,
        FLOAT => into_floats, DOUBLE => into_doubles, BYTE_ARRAY => into_byte_arrays,
        STRING => into_strings, LIST => into_lists, COMPOUND => into_compounds,
        INT_ARRAY => into_int_arrays, LONG_ARRAY => into_long_arrays)
}

/// Appends `tag` if the list has its type (or is empty), else gives it back.
fn push_typed(list: &mut NbtList, tag: NbtTag) -> Result<(), NbtTag> {
    macro_rules! typed {
        ($($v:ident),*) => {{
            if list.empty() {
                *list = match tag {
                    $( NbtTag::$v(x) => NbtList::$v(vec![x]), )*
                };
                return Ok(());
            }
            match (list, tag) {
                $( (NbtList::$v(v), NbtTag::$v(x)) => { v.push(x); Ok(()) } )*
                (_, tag) => Err(tag),
            }
        }};
    }
    typed!(
        Byte, Short, Int, Long, Float, Double, ByteArray, String, List, Compound, IntArray,
        LongArray
    )
}

/// Last value wins for a repeated key (as in vanilla, whose compound is a map),
/// kept at the place of the key's first appearance.
fn finish_compound(scratch: &mut Vec<(Mutf8String, NbtTag)>, start: usize) -> NbtCompound {
    let mut entries: Vec<(Mutf8String, NbtTag)> = scratch.drain(start..).collect();
    if has_duplicates(&entries) {
        let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut unique: Vec<(Mutf8String, NbtTag)> = Vec::with_capacity(entries.len());
        for (k, v) in entries.drain(..) {
            match index.get(k.as_bytes()) {
                Some(&i) => unique[i].1 = v,
                None => {
                    index.insert(k.as_bytes().to_vec(), unique.len());
                    unique.push((k, v));
                }
            }
        }
        entries = unique;
    }
    NbtCompound::from_values(entries)
}

/// Whether two entries share a key. Most compounds have none, so keys are
/// first sorted into 64 buckets by a cheap hash; only a key whose bucket is
/// taken is compared with the keys before it. Large compounds use a hash set.
fn has_duplicates(entries: &[(Mutf8String, NbtTag)]) -> bool {
    if entries.len() < 2 {
        return false;
    }
    if entries.len() <= 64 {
        let mut buckets = 0u64;
        for (i, (k, _)) in entries.iter().enumerate() {
            let k = k.as_bytes();
            let h = k.len()
                ^ k.first().map_or(0, |&b| b as usize * 7)
                ^ k.last().map_or(0, |&b| b as usize * 13);
            let bit = 1u64 << (h & 63);
            if buckets & bit != 0 && entries[..i].iter().any(|(k2, _)| k2.as_bytes() == k) {
                return true;
            }
            buckets |= bit;
        }
        false
    } else {
        let mut seen = std::collections::HashSet::with_capacity(entries.len());
        !entries.iter().all(|(k, _)| seen.insert(k.as_bytes()))
    }
}

struct Parser<'t> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
}

/// Java's `Character.isWhitespace` outside ASCII.
fn is_unicode_space(c: char) -> bool {
    matches!(c, '\u{1680}' | '\u{2000}'..='\u{2006}' | '\u{2008}'..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{205F}' | '\u{3000}')
}

impl<'t> Parser<'t> {
    fn err(&self, kind: ErrorKind, at: usize) -> Error {
        Error::at(kind, self.text, at)
    }

    fn expected(&self, what: &'static str) -> Error {
        self.err(ErrorKind::Expected(what), self.pos)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Skips Java whitespace (`Character.isWhitespace`).
    #[inline(always)]
    fn skip_ws(&mut self) {
        // Compact text has none: leave at once on a printable ASCII byte.
        if matches!(self.bytes.get(self.pos), Some(&(0x21..=0x7E))) {
            return;
        }
        self.skip_ws_slow();
    }

    #[inline(never)]
    fn skip_ws_slow(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            if matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C | 0x1C..=0x1F) {
                self.pos += 1;
            } else if b >= 0x80 {
                match self.text[self.pos..].chars().next() {
                    Some(c) if is_unicode_space(c) => self.pos += c.len_utf8(),
                    _ => return,
                }
            } else {
                return;
            }
        }
    }

    fn check_depth(&self, stack: &[Frame]) -> Result<(), Error> {
        if stack.len() >= MAX_DEPTH {
            return Err(self.err(ErrorKind::MaxDepthExceeded, self.pos));
        }
        Ok(())
    }

    fn quoted(&mut self) -> Result<Mutf8String, Error> {
        let (s, end) =
            string::parse_quoted(self.text, self.pos).map_err(|(k, at)| self.err(k, at))?;
        self.pos = end;
        Ok(s)
    }

    /// A compound key (quoted, or unquoted characters of any kind, digits
    /// first included), then `:`.
    fn key(&mut self) -> Result<Mutf8String, Error> {
        let key = match self.peek() {
            Some(b'"' | b'\'') => self.quoted()?,
            _ => {
                let end = string::unquoted_end(self.bytes, self.pos);
                if end == self.pos {
                    return Err(self.expected("a key"));
                }
                let key = Mutf8String::from_slice(&self.bytes[self.pos..end]);
                self.pos = end;
                key
            }
        };
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.expected("`:`"));
        }
        self.pos += 1;
        Ok(key)
    }

    fn number(&mut self) -> Result<NbtTag, Error> {
        let start = self.pos;
        let end = self.token_end();
        let n =
            number::parse(&self.bytes[start..end]).map_err(|(k, at)| self.err(k, start + at))?;
        self.pos = end;
        Ok(NbtTag::from(n))
    }

    fn token_end(&self) -> usize {
        let mut end = self.pos;
        while end < self.bytes.len() && number::is_token_byte(self.bytes[end]) {
            end += 1;
        }
        end
    }

    /// After `[`: a typed array if the text goes on with `B;`, `I;` or `L;`.
    fn typed_array(&mut self) -> Result<Option<NbtTag>, Error> {
        let (ty, allowed): (IntType, &[IntType]) = match (self.peek(), self.bytes.get(self.pos + 1))
        {
            (Some(b'B'), Some(b';')) => (IntType::Byte, &[IntType::Byte]),
            (Some(b'I'), Some(b';')) => {
                (IntType::Int, &[IntType::Byte, IntType::Short, IntType::Int])
            }
            (Some(b'L'), Some(b';')) => (
                IntType::Long,
                &[IntType::Byte, IntType::Short, IntType::Int, IntType::Long],
            ),
            _ => return Ok(None),
        };
        self.pos += 2;
        let mut values: Vec<i64> = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b']') => break,
                Some(b) if number::starts_number(b) && b != b'.' => {}
                _ => return Err(self.expected("an integer or `]`")),
            }
            let start = self.pos;
            let end = self.token_end();
            let lit = number::parse_int(&self.bytes[start..end])
                .map_err(|(k, at)| self.err(k, start + at))?;
            let elem_ty = lit.ty.unwrap_or(ty);
            if !allowed.contains(&elem_ty) {
                return Err(self.err(ErrorKind::InvalidArrayElement, start));
            }
            values.push(lit.value(elem_ty).map_err(|k| self.err(k, start))?);
            self.pos = end;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => break,
                _ => return Err(self.expected("`,` or `]`")),
            }
        }
        self.pos += 1;
        // Every value was range-checked for its own type, and each allowed type
        // is no wider than the array's: these casts keep the value.
        Ok(Some(match ty {
            IntType::Byte => NbtTag::ByteArray(values.into_iter().map(|v| v as u8).collect()),
            IntType::Int => NbtTag::IntArray(values.into_iter().map(|v| v as i32).collect()),
            _ => NbtTag::LongArray(values),
        }))
    }
}

/// Parses SNBT text into a tag.
pub(super) fn parse(text: &str) -> Result<NbtTag, Error> {
    parse_value(text, 0, true).map(|(tag, _)| tag)
}

/// Parses one value starting at byte `start` of `text` and returns it with the
/// byte offset just past it. With `whole`, only whitespace may follow it;
/// without, the text after the value is left for the caller (NBT paths embed
/// compounds in their own syntax). Error offsets are into all of `text`.
pub(crate) fn parse_value(text: &str, start: usize, whole: bool) -> Result<(NbtTag, usize), Error> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        pos: start,
    };
    let mut stack: Vec<Frame> = Vec::new();
    let mut entries: Vec<(Mutf8String, NbtTag)> = Vec::new();
    'value: loop {
        p.skip_ws();
        let mut value = match p.peek() {
            Some(b'{') => {
                p.check_depth(&stack)?;
                p.pos += 1;
                p.skip_ws();
                if p.peek() == Some(b'}') {
                    p.pos += 1;
                    NbtTag::Compound(NbtCompound::new())
                } else {
                    let key = p.key()?;
                    stack.push(Frame::Compound {
                        start: entries.len(),
                        key,
                    });
                    continue 'value;
                }
            }
            Some(b'[') => {
                p.pos += 1;
                if let Some(array) = p.typed_array()? {
                    array
                } else {
                    p.pos -= 1;
                    p.check_depth(&stack)?;
                    p.pos += 1;
                    p.skip_ws();
                    if p.peek() == Some(b']') {
                        p.pos += 1;
                        NbtTag::List(NbtList::Empty)
                    } else {
                        stack.push(Frame::List(ListBuilder::Typed(NbtList::Empty)));
                        continue 'value;
                    }
                }
            }
            Some(b'"' | b'\'') => NbtTag::String(p.quoted()?),
            Some(b) if number::starts_number(b) => p.number()?,
            Some(_) => {
                let start = p.pos;
                let end = string::unquoted_end(p.bytes, start);
                if end == start {
                    return Err(p.expected("a value"));
                }
                let word = &text[start..end];
                p.pos = end;
                if p.peek() == Some(b'(') {
                    let function = Builtin::named(word)
                        .ok_or_else(|| p.err(ErrorKind::UnknownFunction, start))?;
                    p.check_depth(&stack)?;
                    p.pos += 1;
                    p.skip_ws();
                    if p.peek() == Some(b')') {
                        return Err(p.err(ErrorKind::UnknownFunction, start));
                    }
                    stack.push(Frame::Call {
                        function,
                        args: Vec::new(),
                        at: start,
                    });
                    continue 'value;
                } else if word.eq_ignore_ascii_case("true") {
                    NbtTag::Byte(1)
                } else if word.eq_ignore_ascii_case("false") {
                    NbtTag::Byte(0)
                } else {
                    NbtTag::String(Mutf8String::from_slice(word.as_bytes()))
                }
            }
            None => return Err(p.expected("a value")),
        };
        // Hand the value to the open container; close containers as they end.
        loop {
            let (close, expected): (u8, &'static str) = match stack.last_mut() {
                None => {
                    if !whole {
                        return Ok((value, p.pos));
                    }
                    p.skip_ws();
                    if p.pos != p.bytes.len() {
                        return Err(p.expected("the end of the input"));
                    }
                    return Ok((value, p.pos));
                }
                Some(Frame::Compound { key, .. }) => {
                    entries.push((std::mem::take(key), value));
                    (b'}', "`,` or `}`")
                }
                Some(Frame::List(list)) => {
                    list.push(value);
                    (b']', "`,` or `]`")
                }
                Some(Frame::Call { args, .. }) => {
                    args.push(value);
                    (b')', "`,` or `)`")
                }
            };
            p.skip_ws();
            match p.peek() {
                Some(b',') => {
                    p.pos += 1;
                    p.skip_ws();
                    if p.peek() != Some(close) {
                        if let Some(Frame::Compound { key, .. }) = stack.last_mut() {
                            *key = p.key()?;
                        }
                        continue 'value;
                    }
                }
                Some(b) if b == close => {}
                _ => return Err(p.expected(expected)),
            }
            p.pos += 1;
            // `stack.last_mut()` was `Some` above, so this pops that frame.
            let Some(frame) = stack.pop() else {
                return Err(p.expected("a value"));
            };
            value = match frame {
                Frame::Compound { start, .. } => {
                    NbtTag::Compound(finish_compound(&mut entries, start))
                }
                Frame::List(list) => NbtTag::List(list.finish()),
                Frame::Call { function, args, at } => {
                    function.call(args).map_err(|k| p.err(k, at))?
                }
            };
        }
    }
}
