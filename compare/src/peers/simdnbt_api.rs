//! The adapters written against the simdnbt API, as one macro instantiated
//! for each crate that has it: this workspace's (`ours.rs`) and, behind
//! `nightly-peers`, crates.io simdnbt 0.10 (`upstream.rs`), whose API ours
//! follows. One source for both, so they measure exactly the same calls.

/// Defines `Borrow` and `Owned`, the [`Adapter`](crate::Adapter)s of the
/// borrowed reader and the owned tree of the simdnbt crate at path `crate`,
/// with the canonical-value converters at `convert` (the kit's
/// `from_simdnbt` functions, built for that crate) and the two [`Info`](crate::Info)s.
macro_rules! simdnbt_adapters {
    (crate: $nbt:path, convert: $convert:path, borrow: $borrow:expr, owned: $owned:expr $(,)?) => {
        use std::io::Cursor;

        use testkit::mutf8::{lossy, lossy_ok};
        use testkit::{Doc, Value};

        use nbt::{borrow, owned};
        use $convert as convert;
        use $crate::adapter::{Adapter, Info, sink};
        use $crate::edit_workload::{EditScript, Step};
        use $nbt as nbt;

        /// The borrowed reader: a tape over the input, views on request.
        pub struct Borrow;

        impl Adapter for Borrow {
            type Tree<'a> = borrow::Nbt<'a>;
            const INFO: Info = $borrow;

            fn parse(input: &[u8]) -> Result<borrow::Nbt<'_>, String> {
                borrow::read(&mut Cursor::new(input)).map_err(|e| e.to_string())
            }

            #[allow(clippy::let_unit_value)]
            fn write(n: &borrow::Nbt<'_>) -> Result<Vec<u8>, String> {
                let mut out = Vec::new();
                let _ = n.write(&mut out);
                Ok(out)
            }

            fn visit(n: &borrow::Nbt<'_>) {
                if let borrow::Nbt::Some(n) = n {
                    sink(n.name().to_str());
                    b_visit_compound(&n.as_compound());
                }
            }

            fn to_canonical(n: &borrow::Nbt<'_>) -> Result<Doc, String> {
                match n {
                    borrow::Nbt::Some(n) => {
                        let Ok(root) = convert::borrow_compound(&n.as_compound(), &lossy_ok);
                        Ok(Doc::named(
                            lossy(n.name().as_bytes()),
                            Value::Compound(root),
                        ))
                    }
                    borrow::Nbt::None => Err("End root: no document".into()),
                }
            }
        }

        /// The owned tree.
        pub struct Owned;

        impl Adapter for Owned {
            type Tree<'a> = owned::Nbt;
            const INFO: Info = $owned;
            const EDITS: bool = true;

            fn parse(input: &[u8]) -> Result<owned::Nbt, String> {
                owned::read(&mut Cursor::new(input)).map_err(|e| e.to_string())
            }

            fn write(n: &owned::Nbt) -> Result<Vec<u8>, String> {
                let mut out = Vec::new();
                #[allow(clippy::let_unit_value)]
                let r = n.write(&mut out);
                r.into_result()?;
                Ok(out)
            }

            fn visit(n: &owned::Nbt) {
                if let owned::Nbt::Some(n) = n {
                    sink(n.name().to_str());
                    o_visit_compound(n);
                }
            }

            fn to_canonical(n: &owned::Nbt) -> Result<Doc, String> {
                match n {
                    owned::Nbt::Some(n) => {
                        let Ok(root) = convert::owned_compound(n, &lossy_ok);
                        Ok(Doc::named(
                            lossy(n.name().as_bytes()),
                            Value::Compound(root),
                        ))
                    }
                    owned::Nbt::None => Err("End root: no document".into()),
                }
            }

            fn edit(n: &mut owned::Nbt, script: &EditScript) -> Result<(), String> {
                // Upstream's `BaseNbt` has no `DerefMut`: take the compound out and
                // put it back (two moves).
                let owned::Nbt::Some(base) = std::mem::take(n) else {
                    return Err("no document".into());
                };
                let name = base.name().to_owned();
                let mut root = base.as_compound();
                for (path, value) in &script.changes {
                    let (c, key) = o_parent(&mut root, path)?;
                    *c.get_mut(key).ok_or("no such key")? = owned_leaf(value)?;
                }
                for path in &script.removes {
                    let (c, key) = o_parent(&mut root, path)?;
                    c.remove(key);
                }
                for (key, value) in &script.inserts {
                    root.insert(key.as_str(), owned_leaf(value)?);
                }
                *n = owned::Nbt::Some(owned::BaseNbt::new(name, root));
                Ok(())
            }
        }

        /// The compound holding the value at `path`, and the value's key.
        fn o_parent<'c>(
            root: &'c mut owned::NbtCompound,
            path: &'c [Step],
        ) -> Result<(&'c mut owned::NbtCompound, &'c str), String> {
            let (last, mut steps) = path.split_last().ok_or("empty path")?;
            let mut c = root;
            while let [Step::Key(key), rest @ ..] = steps {
                c = match (c.get_mut(key).ok_or("no such key")?, rest) {
                    (owned::NbtTag::Compound(inner), _) => {
                        steps = rest;
                        inner
                    }
                    (
                        owned::NbtTag::List(owned::NbtList::Compound(v)),
                        [Step::Index(i), rest @ ..],
                    ) => {
                        steps = rest;
                        v.get_mut(*i).ok_or("no such element")?
                    }
                    _ => return Err("the path leads nowhere".into()),
                };
            }
            Ok((c, last.key()?))
        }

        /// An owned tag of an edit's value (numbers and strings).
        #[allow(dead_code)]
        pub(crate) fn owned_leaf(v: &Value) -> Result<owned::NbtTag, String> {
            Ok(match v {
                Value::Byte(x) => owned::NbtTag::Byte(*x),
                Value::Short(x) => owned::NbtTag::Short(*x),
                Value::Int(x) => owned::NbtTag::Int(*x),
                Value::Long(x) => owned::NbtTag::Long(*x),
                Value::Float(bits) => owned::NbtTag::Float(f32::from_bits(*bits)),
                Value::Double(bits) => owned::NbtTag::Double(f64::from_bits(*bits)),
                Value::String(s) => owned::NbtTag::String(s.as_str().into()),
                other => return Err(format!("not an edit value: {other:?}")),
            })
        }

        /// Our owned writer returns `Result<(), WriteError>`; upstream's returns `()`.
        trait WriteResult {
            fn into_result(self) -> Result<(), String>;
        }

        impl WriteResult for () {
            fn into_result(self) -> Result<(), String> {
                Ok(())
            }
        }

        impl<E: std::fmt::Display> WriteResult for Result<(), E> {
            fn into_result(self) -> Result<(), String> {
                self.map_err(|e| e.to_string())
            }
        }

        fn b_visit_compound(c: &borrow::NbtCompound<'_, '_>) {
            for (k, t) in c.iter() {
                sink(k.to_str());
                b_visit_tag(&t);
            }
        }

        fn b_visit_tag(t: &borrow::NbtTag<'_, '_>) {
            match t.id() {
                7 => sink(t.byte_array()),
                8 => sink(t.string().map(|s| s.to_str())),
                9 => {
                    if let Some(l) = t.list() {
                        b_visit_list(&l)
                    }
                }
                10 => {
                    if let Some(c) = t.compound() {
                        b_visit_compound(&c)
                    }
                }
                11 => sink(t.int_array()),
                12 => sink(t.long_array()),
                _ => sink(t),
            }
        }

        fn b_visit_list(l: &borrow::NbtList<'_, '_>) {
            match l.id() {
                1 => sink(l.bytes()),
                2 => sink(l.shorts()),
                3 => sink(l.ints()),
                4 => sink(l.longs()),
                5 => sink(l.floats()),
                6 => sink(l.doubles()),
                7 => sink(l.byte_arrays()),
                8 => l
                    .strings()
                    .into_iter()
                    .flatten()
                    .for_each(|s| sink(s.to_str())),
                9 => l
                    .lists()
                    .into_iter()
                    .flatten()
                    .for_each(|x| b_visit_list(&x)),
                10 => l
                    .compounds()
                    .into_iter()
                    .flatten()
                    .for_each(|c| b_visit_compound(&c)),
                11 => l
                    .int_arrays()
                    .into_iter()
                    .flatten()
                    .for_each(|a| sink(a.to_vec())),
                12 => l
                    .long_arrays()
                    .into_iter()
                    .flatten()
                    .for_each(|a| sink(a.to_vec())),
                _ => {}
            }
        }

        fn o_visit_compound(c: &owned::NbtCompound) {
            for (k, t) in c.iter() {
                sink(k.to_str());
                match t {
                    owned::NbtTag::String(s) => sink(s.to_str()),
                    owned::NbtTag::List(l) => o_visit_list(l),
                    owned::NbtTag::Compound(c) => o_visit_compound(c),
                    // arrays are already native Vecs
                    other => sink(other),
                }
            }
        }

        fn o_visit_list(l: &owned::NbtList) {
            match l {
                owned::NbtList::String(v) => v.iter().for_each(|s| sink(s.to_str())),
                owned::NbtList::List(v) => v.iter().for_each(o_visit_list),
                owned::NbtList::Compound(v) => v.iter().for_each(o_visit_compound),
                other => sink(other),
            }
        }
    };
}
