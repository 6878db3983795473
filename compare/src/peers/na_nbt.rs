//! na_nbt 0.2: a borrowed reader that builds an index ("marks") over the input and
//! reads values lazily, and an owned mutable tree.

use ::na_nbt::{
    BE, CompoundMut, CompoundRef, F32, F64, I16, I32, I64, ListBase, ListMut, ListRef, MapMut,
    NativeEndian, ValueMut, ValueOwn, ValueRef, VisitRef, Writable, read_borrowed, read_owned,
};

use crate::adapter::{Adapter, Bench, Info, sink};
use crate::edit_workload::{EditScript, Step};
use testkit::mutf8::lossy as mutf8_lossy;
use testkit::{Doc, List, Order, Value};

/// na_nbt's borrowed document. Its type is not nameable outside na_nbt, so the
/// tree is the document behind a small trait object ([`Held`]); the `read` and
/// `decode_all` benches call na_nbt directly and never build it.
pub struct Borrow;

impl Adapter for Borrow {
    type Tree<'a> = Box<dyn BorrowedDoc + 'a>;
    const INFO: Info = Info {
        name: "na_nbt_borrow",
        krate: "na_nbt",
        version: "0.2.1",
        nightly: false,
        order: Order::Exact,
        notes: "Borrowed: one pass records an index of container offsets; scalars, strings and \
                arrays are read from the input on access. Strings stay raw MUTF-8 (decoded on \
                request, lossy or checked); arrays stay big-endian slices. Keeps order, duplicates \
                and empty-list element types. Does not expose the root name, and its writer \
                writes an empty root name. Trailing bytes after the root are accepted.",
    };

    fn parse(input: &[u8]) -> Result<Self::Tree<'_>, String> {
        let doc = read_borrowed::<BE>(input).map_err(|e| format!("{e:?}"))?;
        Ok(held(
            doc,
            |d| d.root().write_to_vec::<BE>(),
            |d| visit::<_, true>(&d.root()),
            |d| canonical(&d.root()),
        ))
    }

    fn write(doc: &Self::Tree<'_>) -> Result<Vec<u8>, String> {
        Ok(doc.write())
    }

    fn visit(doc: &Self::Tree<'_>) {
        doc.visit();
    }

    fn to_canonical(doc: &Self::Tree<'_>) -> Result<Doc, String> {
        Ok(Doc::unnamed(doc.canonical()?))
    }

    fn read_bench(input: &[u8]) -> Bench<'_> {
        Box::new(move || {
            sink(read_borrowed::<BE>(std::hint::black_box(input)));
        })
    }

    fn decode_all_bench(input: &[u8]) -> Bench<'_> {
        Box::new(move || {
            if let Ok(doc) = read_borrowed::<BE>(std::hint::black_box(input)) {
                visit::<_, true>(&doc.root());
            }
        })
    }
}

/// What the adapter does with a borrowed document (see [`Borrow`]).
pub trait BorrowedDoc {
    /// `root().write_to_vec::<BE>()`
    fn write(&self) -> Vec<u8>;
    /// Visits every tag.
    fn visit(&self);
    /// The canonical root value.
    fn canonical(&self) -> Result<Value, String>;
}

/// A document and the three things done with it, as closures over its unnameable type.
struct Held<D, W, V, C> {
    doc: D,
    write: W,
    visit: V,
    canonical: C,
}

/// Boxes a [`Held`]; a function, so the closures' argument type is inferred from `doc`.
fn held<'a, D: 'a, W, V, C>(doc: D, write: W, visit: V, canonical: C) -> Box<dyn BorrowedDoc + 'a>
where
    W: Fn(&D) -> Vec<u8> + 'a,
    V: Fn(&D) + 'a,
    C: Fn(&D) -> Result<Value, String> + 'a,
{
    Box::new(Held {
        doc,
        write,
        visit,
        canonical,
    })
}

impl<D, W, V, C> BorrowedDoc for Held<D, W, V, C>
where
    W: Fn(&D) -> Vec<u8>,
    V: Fn(&D),
    C: Fn(&D) -> Result<Value, String>,
{
    fn write(&self) -> Vec<u8> {
        (self.write)(&self.doc)
    }
    fn visit(&self) {
        (self.visit)(&self.doc)
    }
    fn canonical(&self) -> Result<Value, String> {
        (self.canonical)(&self.doc)
    }
}

/// na_nbt's owned tree, arrays stored native-endian.
pub struct Owned;

impl Adapter for Owned {
    type Tree<'a> = ValueOwn<NativeEndian>;
    const EDITS: bool = true;
    const INFO: Info = Info {
        name: "na_nbt_owned",
        krate: "na_nbt",
        version: "0.2.1",
        nightly: false,
        order: Order::Exact,
        notes: "Owned mutable tree read with `read_owned::<BE, NativeEndian>`: arrays and \
                primitive lists are converted to native byte order while parsing; strings are \
                copied as raw MUTF-8 (not decoded). Keeps order, duplicates and empty-list element \
                types. Rejects trailing bytes after the root. No root name (writes an empty one).",
    };

    fn parse(input: &[u8]) -> Result<ValueOwn<NativeEndian>, String> {
        read_owned::<BE, NativeEndian>(input).map_err(|e| format!("{e:?}"))
    }

    fn write(v: &ValueOwn<NativeEndian>) -> Result<Vec<u8>, String> {
        Ok(v.write_to_vec::<BE>())
    }

    fn visit(v: &ValueOwn<NativeEndian>) {
        visit::<_, false>(&v.to_ref());
    }

    fn edit(v: &mut ValueOwn<NativeEndian>, script: &EditScript) -> Result<(), String> {
        edit_native(v, script)
    }

    fn to_canonical(v: &ValueOwn<NativeEndian>) -> Result<Doc, String> {
        Ok(Doc::unnamed(canonical(&v.to_ref())?))
    }
}

/// na_nbt's owned tree in its other storage order: `read_owned::<BE, BE>` keeps
/// arrays and primitive lists big-endian (no conversion while parsing, so
/// reading is cheaper and writing is a copy; values are swapped on access).
pub struct OwnedBe;

impl Adapter for OwnedBe {
    type Tree<'a> = ValueOwn<BE>;
    const EDITS: bool = true;
    const INFO: Info = Info {
        name: "na_nbt_owned_be",
        krate: "na_nbt",
        version: "0.2.1",
        nightly: false,
        order: Order::Exact,
        notes: "Owned mutable tree read with `read_owned::<BE, BE>`: arrays and primitive lists \
                stay big-endian in memory (converted on access, not while parsing); otherwise as \
                na_nbt_owned.",
    };

    fn parse(input: &[u8]) -> Result<ValueOwn<BE>, String> {
        read_owned::<BE, BE>(input).map_err(|e| format!("{e:?}"))
    }

    fn write(v: &ValueOwn<BE>) -> Result<Vec<u8>, String> {
        Ok(v.write_to_vec::<BE>())
    }

    fn visit(v: &ValueOwn<BE>) {
        visit::<_, true>(&v.to_ref());
    }

    fn edit(v: &mut ValueOwn<BE>, script: &EditScript) -> Result<(), String> {
        edit_be(v, script)
    }

    fn to_canonical(v: &ValueOwn<BE>) -> Result<Doc, String> {
        Ok(Doc::unnamed(canonical(&v.to_ref())?))
    }
}

/// The edit workload on na_nbt's owned tree: numbers set through their
/// `&mut` (in place), strings through `StringMut` (in place), keys inserted and
/// removed through the root compound's own `insert` and `remove`. A macro: the
/// tree's byte-order parameter is bounded by a trait na_nbt does not export.
macro_rules! na_edit {
    ($name:ident, $order:ty) => {
        fn $name(v: &mut ValueOwn<$order>, script: &EditScript) -> Result<(), String> {
            for (path, value) in &script.changes {
                in_root(v.to_mut(), path, Edit::Set(value))?;
            }
            for path in &script.removes {
                in_root(v.to_mut(), path, Edit::Remove)?;
            }
            let ValueOwn::Compound(root) = v else {
                return Err("the root is not a compound".into());
            };
            for (key, value) in &script.inserts {
                match value {
                    Value::Byte(x) => drop(root.insert(key, *x)),
                    Value::Short(x) => drop(root.insert(key, *x)),
                    Value::Int(x) => drop(root.insert(key, *x)),
                    Value::Long(x) => drop(root.insert(key, *x)),
                    Value::Float(b) => drop(root.insert(key, f32::from_bits(*b))),
                    Value::Double(b) => drop(root.insert(key, f64::from_bits(*b))),
                    Value::String(s) => drop(root.insert(key, s.clone())),
                    other => return Err(format!("not an edit value: {other:?}")),
                }
            }
            Ok(())
        }
    };
}
na_edit!(edit_native, NativeEndian);
na_edit!(edit_be, BE);

/// Sets a number in place through its `&mut`, or a string through
/// `StringMut` (a macro: `MapMut`'s parameter is bounded by a trait na_nbt
/// does not export).
macro_rules! set {
    ($slot:expr, $value:expr) => {
        match ($slot, $value) {
            (MapMut::Byte(r), Value::Byte(x)) => Ok(*r = *x),
            (MapMut::Short(r), Value::Short(x)) => Ok(*r = I16::new(*x)),
            (MapMut::Int(r), Value::Int(x)) => Ok(*r = I32::new(*x)),
            (MapMut::Long(r), Value::Long(x)) => Ok(*r = I64::new(*x)),
            (MapMut::Float(r), Value::Float(b)) => Ok(*r = F32::new(f32::from_bits(*b))),
            (MapMut::Double(r), Value::Double(b)) => Ok(*r = F64::new(f64::from_bits(*b))),
            (MapMut::String(mut s), Value::String(x)) => {
                s.clear();
                s.push_str(x);
                Ok(())
            }
            _ => Err("the value has another type".to_string()),
        }
    };
}

/// What to do to the value a path names.
#[derive(Clone, Copy)]
enum Edit<'v> {
    Set(&'v Value),
    Remove,
}

/// Runs `edit` at `path` from the root value.
fn in_root<'s, V: ValueMut<'s>>(v: V, path: &[Step], edit: Edit<'_>) -> Result<(), String> {
    v.map(|m| match m {
        MapMut::Compound(c) => in_compound(c, path, edit),
        _ => Err("the root is not a compound".to_string()),
    })
}

/// Runs `edit` at `path` below compound `c`.
fn in_compound<'s, C: CompoundMut<'s>>(
    mut c: C,
    path: &[Step],
    edit: Edit<'_>,
) -> Result<(), String> {
    let (key, rest) = match path.split_first().ok_or("empty path")? {
        (Step::Key(key), rest) => (key, rest),
        _ => return Err("the path leads nowhere".into()),
    };
    if rest.is_empty() {
        return match edit {
            Edit::Remove => c
                .remove(key)
                .map(drop)
                .ok_or_else(|| "no such key".to_string()),
            Edit::Set(value) => c.get_mut(key).ok_or("no such key")?.map(|m| set!(m, value)),
        };
    }
    c.get_mut(key)
        .ok_or("no such key")?
        .map(|m| match (m, rest) {
            (MapMut::Compound(inner), _) => in_compound(inner, rest, edit),
            (MapMut::List(mut l), [Step::Index(i), rest @ ..]) => {
                l.get_mut(*i).ok_or("no such element")?.map(|m| match m {
                    MapMut::Compound(inner) => in_compound(inner, rest, edit),
                    _ => Err("not a compound".to_string()),
                })
            }
            _ => Err("the path leads nowhere".to_string()),
        })
}

/// Visits every tag. `CONVERT`: arrays are stored big-endian and must be converted
/// (borrowed mode); otherwise they are already native and only touched.
fn visit<'s, V: ValueRef<'s>, const CONVERT: bool>(v: &V) {
    v.visit(|x| match x {
        VisitRef::String(s) => sink(s.decode_lossy()),
        VisitRef::ByteArray(a) => sink(&a[..]),
        VisitRef::IntArray(a) => {
            if CONVERT {
                sink(a.iter().map(|x| x.get()).collect::<Vec<i32>>())
            } else {
                sink(&a[..])
            }
        }
        VisitRef::LongArray(a) => {
            if CONVERT {
                sink(a.iter().map(|x| x.get()).collect::<Vec<i64>>())
            } else {
                sink(&a[..])
            }
        }
        VisitRef::List(l) => {
            for e in l.iter() {
                visit::<_, CONVERT>(&e);
            }
        }
        VisitRef::Compound(c) => {
            for (k, e) in c.iter() {
                sink(k.decode_lossy());
                visit::<_, CONVERT>(&e);
            }
        }
        other => sink(other),
    })
}

fn canonical<'s, V: ValueRef<'s>>(v: &V) -> Result<Value, String> {
    v.visit(|x| {
        Ok(match x {
            VisitRef::End(_) => return Err("End tag as a value".into()),
            VisitRef::Byte(b) => Value::Byte(*b),
            VisitRef::Short(b) => Value::Short(*b),
            VisitRef::Int(b) => Value::Int(*b),
            VisitRef::Long(b) => Value::Long(*b),
            VisitRef::Float(b) => Value::float(*b),
            VisitRef::Double(b) => Value::double(*b),
            VisitRef::ByteArray(a) => Value::byte_array_i8(a),
            VisitRef::String(s) => Value::String(mutf8_lossy(s.as_bytes())),
            VisitRef::IntArray(a) => Value::IntArray(a.iter().map(|x| x.get()).collect()),
            VisitRef::LongArray(a) => Value::LongArray(a.iter().map(|x| x.get()).collect()),
            VisitRef::List(l) => Value::List(List::typed(
                l.element_tag_id() as u8,
                l.iter().map(|e| canonical(&e)).collect::<Result<_, _>>()?,
            )),
            VisitRef::Compound(c) => Value::Compound(
                c.iter()
                    .map(|(k, e)| Ok((mutf8_lossy(k.as_bytes()), canonical(&e)?)))
                    .collect::<Result<_, String>>()?,
            ),
        })
    })
}
