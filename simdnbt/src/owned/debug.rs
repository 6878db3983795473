//! `Debug` for the owned tree without recursion.
//!
//! A derived `Debug` recurses once per nesting level and, in the `{:#?}` form,
//! wraps every level's output in another indenting adapter, so a 512-level
//! document (about 2 KB, which the readers accept) overflowed a 256 KiB stack
//! and took over a minute to print pretty. This formatter walks the tree with a
//! heap stack and writes indentation itself: stack use is constant and time is
//! linear in the output.
//!
//! The output keeps the shape of a derived `Debug` for leaves (`Int(3)`,
//! `String("a")`, `IntArray([1, 2])`); compounds print as maps
//! (`{"key": Int(3)}`). `{:#?}` puts each child of a container on its own
//! line and keeps leaves on one line.

use std::fmt::{self, Write};
use std::slice::Iter;

use super::{NbtCompound, NbtList, NbtTag};
use crate::mutf8::Mutf8String;

/// A container being printed: its remaining children and how it closes.
struct Frame<'a> {
    children: Children<'a>,
    /// `}` or `]`.
    bracket: char,
    /// How many `)` follow the bracket (`List(Compound([` closes with `]))`).
    parens: u8,
    /// Whether a child has been printed yet.
    any: bool,
}

enum Children<'a> {
    Compound(Iter<'a, (Mutf8String, NbtTag)>),
    Compounds(Iter<'a, NbtCompound>),
    Lists(Iter<'a, NbtList>),
}

/// Something to print: a tag, a list or a compound.
#[derive(Clone, Copy)]
enum Node<'a> {
    Tag(&'a NbtTag),
    List(&'a NbtList),
    Compound(&'a NbtCompound),
}

/// Prints `root` into `f`, honouring `{:#?}`.
fn print(f: &mut fmt::Formatter<'_>, root: Node<'_>) -> fmt::Result {
    let pretty = f.alternate();
    let mut stack: Vec<Frame<'_>> = Vec::new();
    if let Some(frame) = open(f, root, 0)? {
        stack.push(frame);
    }
    loop {
        let depth = stack.len();
        let Some(top) = stack.last_mut() else {
            break;
        };
        let next = match &mut top.children {
            Children::Compound(it) => it.next().map(|(k, v)| (Some(k), Node::Tag(v))),
            Children::Compounds(it) => it.next().map(|c| (None, Node::Compound(c))),
            Children::Lists(it) => it.next().map(|l| (None, Node::List(l))),
        };
        match next {
            Some((key, node)) => {
                if pretty {
                    newline(f, depth)?;
                } else if top.any {
                    f.write_str(", ")?;
                }
                top.any = true;
                if let Some(key) = key {
                    write!(f, "{:?}: ", key.to_string_lossy())?;
                }
                match open(f, node, 0)? {
                    Some(frame) => stack.push(frame),
                    None if pretty => f.write_char(',')?,
                    None => {}
                }
            }
            None => {
                let done = stack.pop().expect("checked above");
                if pretty && done.any {
                    newline(f, depth - 1)?;
                }
                f.write_char(done.bracket)?;
                for _ in 0..done.parens {
                    f.write_char(')')?;
                }
                if pretty && !stack.is_empty() {
                    f.write_char(',')?;
                }
            }
        }
    }
    Ok(())
}

fn newline(f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
    f.write_char('\n')?;
    for _ in 0..depth {
        f.write_str("    ")?;
    }
    Ok(())
}

/// Prints a leaf whole, or a container's opening and returns its frame.
/// `parens` counts the `)` its caller opened around it.
fn open<'a>(
    f: &mut fmt::Formatter<'_>,
    node: Node<'a>,
    parens: u8,
) -> Result<Option<Frame<'a>>, fmt::Error> {
    let frame = |children, bracket, parens| {
        Some(Frame {
            children,
            bracket,
            parens,
            any: false,
        })
    };
    Ok(match node {
        Node::Compound(c) => {
            f.write_char('{')?;
            frame(Children::Compound(c.values.iter()), '}', parens)
        }
        Node::Tag(tag) => match tag {
            NbtTag::Compound(c) => {
                f.write_str("Compound(")?;
                return open(f, Node::Compound(c), parens + 1);
            }
            NbtTag::List(l) => {
                f.write_str("List(")?;
                return open(f, Node::List(l), parens + 1);
            }
            leaf => {
                leaf_tag(f, leaf)?;
                None
            }
        },
        Node::List(list) => match list {
            NbtList::Compound(v) => {
                f.write_str("Compound([")?;
                frame(Children::Compounds(v.iter()), ']', parens + 1)
            }
            NbtList::List(v) => {
                f.write_str("List([")?;
                frame(Children::Lists(v.iter()), ']', parens + 1)
            }
            leaf => {
                leaf_list(f, leaf)?;
                None
            }
        },
    })
}

/// Prints a tag that holds no compound or list. `{:?}` (not `{:#?}`) on
/// purpose: leaves stay on one line.
fn leaf_tag(f: &mut fmt::Formatter<'_>, tag: &NbtTag) -> fmt::Result {
    match tag {
        NbtTag::Byte(v) => write!(f, "Byte({v:?})"),
        NbtTag::Short(v) => write!(f, "Short({v:?})"),
        NbtTag::Int(v) => write!(f, "Int({v:?})"),
        NbtTag::Long(v) => write!(f, "Long({v:?})"),
        NbtTag::Float(v) => write!(f, "Float({v:?})"),
        NbtTag::Double(v) => write!(f, "Double({v:?})"),
        NbtTag::ByteArray(v) => write!(f, "ByteArray({v:?})"),
        NbtTag::String(v) => write!(f, "String({v:?})"),
        NbtTag::IntArray(v) => write!(f, "IntArray({v:?})"),
        NbtTag::LongArray(v) => write!(f, "LongArray({v:?})"),
        NbtTag::List(_) | NbtTag::Compound(_) => unreachable!("containers are walked"),
    }
}

/// Prints a list whose elements are no compounds or lists, on one line.
fn leaf_list(f: &mut fmt::Formatter<'_>, list: &NbtList) -> fmt::Result {
    match list {
        NbtList::Empty => f.write_str("Empty"),
        NbtList::Byte(v) => write!(f, "Byte({v:?})"),
        NbtList::Short(v) => write!(f, "Short({v:?})"),
        NbtList::Int(v) => write!(f, "Int({v:?})"),
        NbtList::Long(v) => write!(f, "Long({v:?})"),
        NbtList::Float(v) => write!(f, "Float({v:?})"),
        NbtList::Double(v) => write!(f, "Double({v:?})"),
        NbtList::ByteArray(v) => write!(f, "ByteArray({v:?})"),
        NbtList::String(v) => write!(f, "String({v:?})"),
        NbtList::IntArray(v) => write!(f, "IntArray({v:?})"),
        NbtList::LongArray(v) => write!(f, "LongArray({v:?})"),
        NbtList::List(_) | NbtList::Compound(_) => unreachable!("containers are walked"),
    }
}

impl fmt::Debug for NbtTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print(f, Node::Tag(self))
    }
}

impl fmt::Debug for NbtList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print(f, Node::List(self))
    }
}

impl fmt::Debug for NbtCompound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        print(f, Node::Compound(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> NbtCompound {
        let inner = NbtCompound::from_values(vec![("x".into(), NbtTag::Byte(1))]);
        NbtCompound::from_values(vec![
            ("i".into(), NbtTag::Int(3)),
            ("s".into(), NbtTag::String("a\"b".into())),
            ("c".into(), NbtTag::Compound(inner.clone())),
            ("e".into(), NbtTag::Compound(NbtCompound::new())),
            ("l".into(), NbtTag::List(NbtList::Compound(vec![inner]))),
            (
                "ll".into(),
                NbtTag::List(NbtList::List(vec![
                    NbtList::Int(vec![1, 2]),
                    NbtList::Empty,
                ])),
            ),
            ("a".into(), NbtTag::IntArray(vec![7, 8])),
        ])
    }

    #[test]
    fn compact() {
        assert_eq!(
            format!("{:?}", sample()),
            r#"{"i": Int(3), "s": String("a\"b"), "c": Compound({"x": Byte(1)}), "e": Compound({}), "l": List(Compound([{"x": Byte(1)}])), "ll": List(List([Int([1, 2]), Empty])), "a": IntArray([7, 8])}"#
        );
        assert_eq!(format!("{:?}", NbtTag::Long(-1)), "Long(-1)");
        assert_eq!(format!("{:?}", NbtList::Empty), "Empty");
        assert_eq!(format!("{:?}", NbtList::Compound(vec![])), "Compound([])");
    }

    #[test]
    fn pretty() {
        let expected = r#"{
    "i": Int(3),
    "s": String("a\"b"),
    "c": Compound({
        "x": Byte(1),
    }),
    "e": Compound({}),
    "l": List(Compound([
        {
            "x": Byte(1),
        },
    ])),
    "ll": List(List([
        Int([1, 2]),
        Empty,
    ])),
    "a": IntArray([7, 8]),
}"#;
        assert_eq!(format!("{:#?}", sample()), expected);
    }
}
