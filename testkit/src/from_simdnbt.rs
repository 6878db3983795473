//! simdnbt's two trees (the borrow views and the owned tree) as canonical
//! [`Value`]s, strings decoded by a decoder the caller picks (usually
//! [`lossy_ok`](crate::mutf8::lossy_ok); fuzz-logic passes Java's CESU-8 decoder to
//! see what the other libraries would accept).
//!
//! The functions are written once, in [`simdnbt_converters!`](crate::simdnbt_converters),
//! against the simdnbt API: this module is that macro for this workspace's
//! `simdnbt`, and `compare` instantiates it for crates.io simdnbt 0.10, whose
//! API ours follows (feature `nightly-peers`). The walk recurses: it is for
//! documents a reader accepted (at most 512 levels).

crate::simdnbt_converters!(::simdnbt);

/// Defines the converters of this module (`borrow_compound`, `owned_compound`,
/// …) for the simdnbt crate at `$nbt`, in the module it is invoked in.
#[macro_export]
macro_rules! simdnbt_converters {
    ($nbt:path) => {
        use nbt::{borrow, owned};
        use $crate::{List, Value};
        use $nbt as nbt;

        /// A string decoder: raw MUTF-8 bytes to text, or the caller's error.
        pub type Decode<'d, E> = &'d dyn Fn(&[u8]) -> Result<String, E>;

        type Entries = Vec<(String, Value)>;

        const TAG: &str = "tag id and getter disagree";
        const LIST: &str = "list id and getter disagree";

        /// The entries of a borrowed compound, in order, duplicates kept.
        pub fn borrow_compound<E>(
            c: &borrow::NbtCompound<'_, '_>,
            dec: Decode<'_, E>,
        ) -> Result<Entries, E> {
            c.iter()
                .map(|(k, t)| Ok((dec(k.as_bytes())?, borrow_tag(&t, dec)?)))
                .collect()
        }

        fn borrow_tag<E>(t: &borrow::NbtTag<'_, '_>, dec: Decode<'_, E>) -> Result<Value, E> {
            Ok(match t.id() {
                1 => Value::Byte(t.byte().expect(TAG)),
                2 => Value::Short(t.short().expect(TAG)),
                3 => Value::Int(t.int().expect(TAG)),
                4 => Value::Long(t.long().expect(TAG)),
                5 => Value::float(t.float().expect(TAG)),
                6 => Value::double(t.double().expect(TAG)),
                7 => Value::ByteArray(t.byte_array().expect(TAG).to_vec()),
                8 => Value::String(dec(t.string().expect(TAG).as_bytes())?),
                9 => Value::List(borrow_list(&t.list().expect(TAG), dec)?),
                10 => Value::Compound(borrow_compound(&t.compound().expect(TAG), dec)?),
                11 => Value::IntArray(t.int_array().expect(TAG)),
                12 => Value::LongArray(t.long_array().expect(TAG)),
                other => panic!("tag id {other}"),
            })
        }

        fn borrow_list<E>(l: &borrow::NbtList<'_, '_>, dec: Decode<'_, E>) -> Result<List, E> {
            let id = l.id();
            let items: Vec<Value> = match id {
                0 => vec![],
                1 => l
                    .bytes()
                    .expect(LIST)
                    .iter()
                    .map(|x| Value::Byte(*x))
                    .collect(),
                2 => l
                    .shorts()
                    .expect(LIST)
                    .into_iter()
                    .map(Value::Short)
                    .collect(),
                3 => l.ints().expect(LIST).into_iter().map(Value::Int).collect(),
                4 => l
                    .longs()
                    .expect(LIST)
                    .into_iter()
                    .map(Value::Long)
                    .collect(),
                5 => l
                    .floats()
                    .expect(LIST)
                    .into_iter()
                    .map(Value::float)
                    .collect(),
                6 => l
                    .doubles()
                    .expect(LIST)
                    .into_iter()
                    .map(Value::double)
                    .collect(),
                7 => l
                    .byte_arrays()
                    .expect(LIST)
                    .iter()
                    .map(|a| Value::ByteArray(a.to_vec()))
                    .collect(),
                8 => l
                    .strings()
                    .expect(LIST)
                    .iter()
                    .map(|s| Ok(Value::String(dec(s.as_bytes())?)))
                    .collect::<Result<_, E>>()?,
                9 => l
                    .lists()
                    .expect(LIST)
                    .into_iter()
                    .map(|x| Ok(Value::List(borrow_list(&x, dec)?)))
                    .collect::<Result<_, E>>()?,
                10 => l
                    .compounds()
                    .expect(LIST)
                    .into_iter()
                    .map(|c| Ok(Value::Compound(borrow_compound(&c, dec)?)))
                    .collect::<Result<_, E>>()?,
                11 => l
                    .int_arrays()
                    .expect(LIST)
                    .iter()
                    .map(|a| Value::IntArray(a.to_vec()))
                    .collect(),
                12 => l
                    .long_arrays()
                    .expect(LIST)
                    .iter()
                    .map(|a| Value::LongArray(a.to_vec()))
                    .collect(),
                other => panic!("list id {other}"),
            };
            Ok(List::typed(id, items))
        }

        /// The entries of an owned compound, in order, duplicates kept.
        pub fn owned_compound<E>(c: &owned::NbtCompound, dec: Decode<'_, E>) -> Result<Entries, E> {
            c.iter()
                .map(|(k, t)| Ok((dec(k.as_bytes())?, owned_tag(t, dec)?)))
                .collect()
        }

        fn owned_tag<E>(t: &owned::NbtTag, dec: Decode<'_, E>) -> Result<Value, E> {
            use owned::NbtTag as T;
            Ok(match t {
                T::Byte(x) => Value::Byte(*x),
                T::Short(x) => Value::Short(*x),
                T::Int(x) => Value::Int(*x),
                T::Long(x) => Value::Long(*x),
                T::Float(x) => Value::float(*x),
                T::Double(x) => Value::double(*x),
                T::ByteArray(a) => Value::ByteArray(a.clone()),
                T::String(s) => Value::String(dec(s.as_bytes())?),
                T::List(l) => Value::List(owned_list(l, dec)?),
                T::Compound(c) => Value::Compound(owned_compound(c, dec)?),
                T::IntArray(a) => Value::IntArray(a.clone()),
                T::LongArray(a) => Value::LongArray(a.clone()),
            })
        }

        fn owned_list<E>(l: &owned::NbtList, dec: Decode<'_, E>) -> Result<List, E> {
            use owned::NbtList as L;
            fn all<T, E>(v: &[T], f: impl Fn(&T) -> Result<Value, E>) -> Result<Vec<Value>, E> {
                v.iter().map(f).collect()
            }
            let t = List::typed;
            Ok(match l {
                L::Empty => t(0, vec![]),
                L::Byte(v) => t(1, v.iter().map(|x| Value::Byte(*x)).collect()),
                L::Short(v) => t(2, v.iter().map(|x| Value::Short(*x)).collect()),
                L::Int(v) => t(3, v.iter().map(|x| Value::Int(*x)).collect()),
                L::Long(v) => t(4, v.iter().map(|x| Value::Long(*x)).collect()),
                L::Float(v) => t(5, v.iter().map(|x| Value::float(*x)).collect()),
                L::Double(v) => t(6, v.iter().map(|x| Value::double(*x)).collect()),
                L::ByteArray(v) => t(7, v.iter().map(|a| Value::ByteArray(a.clone())).collect()),
                L::String(v) => t(8, all(v, |s| Ok(Value::String(dec(s.as_bytes())?)))?),
                L::List(v) => t(9, all(v, |x| Ok(Value::List(owned_list(x, dec)?)))?),
                L::Compound(v) => t(
                    10,
                    all(v, |c| Ok(Value::Compound(owned_compound(c, dec)?)))?,
                ),
                L::IntArray(v) => t(11, v.iter().map(|a| Value::IntArray(a.clone())).collect()),
                L::LongArray(v) => t(12, v.iter().map(|a| Value::LongArray(a.clone())).collect()),
            })
        }
    };
}
