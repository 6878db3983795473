//! Between NBT and Python objects: a document's values become instances of
//! the tag classes of `simdnbt/tag.py` in one pass; Python values (tags or
//! plain builtins) become owned NBT tags.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Mutex;

use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType,
};
use simdnbt::Mutf8String;
use simdnbt::document::{DocValue, ListElement, NbtCompound, NbtList, NbtTag};
use simdnbt::owned;
use simdnbt::tag_id;

use crate::error::nbt_error;

/// The deepest Python value [`to_tag`] converts: the readers' default depth
/// limit, so whatever is written reads back; it also stops a list that
/// contains itself.
const MAX_DEPTH: usize = 512;

/// The tag classes and the builtin constructors that make instances of them
/// without running a subclass's Python `__new__`.
pub struct Classes {
    /// By tag id: `End`, `Byte`, … `LongArray` (index 9 is the generic `List`).
    tags: Vec<Py<PyType>>,
    /// By element tag id: `List[End]` … `List[LongArray]`.
    lists: Vec<Py<PyType>>,
    int_new: Py<PyAny>,
    float_new: Py<PyAny>,
    str_new: Py<PyAny>,
    dict_new: Py<PyAny>,
    list_new: Py<PyAny>,
    /// `(cls, bytearray of big-endian elements) -> array`.
    array: Py<PyAny>,
    /// By tag id (Byte … Long): the instances of the values in
    /// `SMALL_INTS`, made once; tags are immutable, so they are shared as
    /// CPython shares its small ints. Most numbers in game data are small.
    small_ints: Vec<Vec<Py<PyAny>>>,
    /// Compound keys, interned (see [`Interned`]).
    keys: Mutex<Interned>,
    /// Short `String` values (ids such as "minecraft:stone" repeat).
    strings: Mutex<Interned>,
}

const SMALL_INTS: std::ops::RangeInclusive<i64> = -128..=1023;

/// Python strings by their MUTF-8 bytes, shared between reads: at most
/// `MAX_INTERNED` of at most `MAX_INTERNED_LEN` bytes each (about 1 MB),
/// after which new ones are made each time.
#[derive(Default)]
struct Interned(HashMap<Box<[u8]>, Py<PyAny>, BuildHasherDefault<Fnv>>);

const MAX_INTERNED: usize = 16 * 1024;
const MAX_INTERNED_LEN: usize = 48;

/// FNV-1a: the keys are short, and SipHash's setup costs more than the lookup.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

impl Interned {
    /// The object for `bytes`, from the table or made by `make` (and kept
    /// while there is room).
    fn get<'py>(
        &mut self,
        py: Python<'py>,
        bytes: &[u8],
        make: impl FnOnce() -> PyResult<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if bytes.len() > MAX_INTERNED_LEN {
            return make();
        }
        if let Some(o) = self.0.get(bytes) {
            return Ok(o.bind(py).clone());
        }
        let o = make()?;
        if self.0.len() < MAX_INTERNED {
            self.0.insert(bytes.into(), o.clone().unbind());
        }
        Ok(o)
    }
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

/// Called once by `simdnbt/tag.py`: the tag classes by id, the list class of
/// each element id, and the array factory.
#[pyfunction]
pub fn register(
    py: Python<'_>,
    tags: Vec<Py<PyType>>,
    lists: Vec<Py<PyType>>,
    array: Py<PyAny>,
) -> PyResult<()> {
    if tags.len() != 13 || lists.len() != 13 {
        return Err(PyTypeError::new_err("register: 13 tag and 13 list classes"));
    }
    let builtins = py.import("builtins")?;
    let new_of = |name: &str| -> PyResult<Py<PyAny>> {
        Ok(builtins.getattr(name)?.getattr("__new__")?.unbind())
    };
    let int_new = new_of("int")?;
    let mut small_ints: Vec<Vec<Py<PyAny>>> = (0..=tag_id::LONG).map(|_| Vec::new()).collect();
    for id in [tag_id::BYTE, tag_id::SHORT, tag_id::INT, tag_id::LONG] {
        let cls = tags[id as usize].bind(py);
        for v in SMALL_INTS {
            small_ints[id as usize].push(int_new.bind(py).call1((cls, v))?.unbind());
        }
    }
    let classes = Classes {
        tags,
        lists,
        int_new,
        float_new: new_of("float")?,
        str_new: new_of("str")?,
        dict_new: new_of("dict")?,
        list_new: new_of("list")?,
        array,
        small_ints,
        keys: Mutex::default(),
        strings: Mutex::default(),
    };
    // A second import of the package (importlib.reload) keeps the first set.
    let _ = CLASSES.set(py, classes);
    Ok(())
}

pub fn classes(py: Python<'_>) -> PyResult<&Classes> {
    CLASSES
        .get(py)
        .ok_or_else(|| PyRuntimeError::new_err("simdnbt._native used before simdnbt was imported"))
}

impl Classes {
    fn int<'py>(&self, py: Python<'py>, id: u8, v: i64) -> PyResult<Bound<'py, PyAny>> {
        if SMALL_INTS.contains(&v) {
            let i = (v - SMALL_INTS.start()) as usize;
            if let Some(o) = self.small_ints.get(id as usize).and_then(|c| c.get(i)) {
                return Ok(o.bind(py).clone());
            }
        }
        self.int_new
            .bind(py)
            .call1((self.tags[id as usize].bind(py), v))
    }

    fn float<'py>(&self, py: Python<'py>, id: u8, v: f64) -> PyResult<Bound<'py, PyAny>> {
        self.float_new
            .bind(py)
            .call1((self.tags[id as usize].bind(py), v))
    }

    fn string<'py>(&self, py: Python<'py>, s: &simdnbt::Mutf8Str) -> PyResult<Bound<'py, PyAny>> {
        let make = || {
            let text = PyString::new(py, &s.to_str());
            self.str_new
                .bind(py)
                .call1((self.tags[tag_id::STRING as usize].bind(py), text))
        };
        lock(&self.strings).get(py, s.as_bytes(), make)
    }

    /// A compound key: a plain `str`, interned.
    fn key<'py>(&self, py: Python<'py>, s: &simdnbt::Mutf8Str) -> PyResult<Bound<'py, PyAny>> {
        let make = || Ok(PyString::new(py, &s.to_str()).into_any());
        lock(&self.keys).get(py, s.as_bytes(), make)
    }

    fn array<'py>(&self, py: Python<'py>, id: u8, be: &[u8]) -> PyResult<Bound<'py, PyAny>> {
        let data = PyByteArray::new(py, be);
        self.array
            .bind(py)
            .call1((self.tags[id as usize].bind(py), data))
    }

    /// An empty instance of `cls` (a `Compound` or `File` subclass of dict).
    pub fn new_dict<'py>(
        &self,
        py: Python<'py>,
        cls: &Bound<'py, PyType>,
    ) -> PyResult<Bound<'py, PyDict>> {
        Ok(self
            .dict_new
            .bind(py)
            .call1((cls,))?
            .cast_into::<PyDict>()?)
    }

    pub fn compound_class<'py>(&self, py: Python<'py>) -> &Bound<'py, PyType> {
        self.tags[tag_id::COMPOUND as usize].bind(py)
    }

    fn number<'py>(&self, py: Python<'py>, n: simdnbt::Number) -> PyResult<Bound<'py, PyAny>> {
        use simdnbt::Number as N;
        match n {
            N::Byte(v) => self.int(py, tag_id::BYTE, v.into()),
            N::Short(v) => self.int(py, tag_id::SHORT, v.into()),
            N::Int(v) => self.int(py, tag_id::INT, v.into()),
            N::Long(v) => self.int(py, tag_id::LONG, v),
            N::Float(v) => self.float(py, tag_id::FLOAT, v.into()),
            N::Double(v) => self.float(py, tag_id::DOUBLE, v),
        }
    }

    /// A document's tag as a Python tag.
    pub fn tag<'py>(&self, py: Python<'py>, tag: NbtTag<'_>) -> PyResult<Bound<'py, PyAny>> {
        let id = tag.id();
        let missing = || nbt_error("internal: tag of unexpected type", None);
        match id {
            tag_id::BYTE => self.int(py, id, tag.byte().ok_or_else(missing)?.into()),
            tag_id::SHORT => self.int(py, id, tag.short().ok_or_else(missing)?.into()),
            tag_id::INT => self.int(py, id, tag.int().ok_or_else(missing)?.into()),
            tag_id::LONG => self.int(py, id, tag.long().ok_or_else(missing)?),
            tag_id::FLOAT => self.float(py, id, tag.float().ok_or_else(missing)?.into()),
            tag_id::DOUBLE => self.float(py, id, tag.double().ok_or_else(missing)?),
            tag_id::BYTE_ARRAY => self.array(py, id, tag.byte_array().ok_or_else(missing)?),
            tag_id::STRING => self.string(py, tag.string().ok_or_else(missing)?),
            tag_id::LIST => self.list(py, tag.list().ok_or_else(missing)?),
            tag_id::COMPOUND => {
                let c = tag.compound().ok_or_else(missing)?;
                Ok(self.compound(py, c, self.compound_class(py))?.into_any())
            }
            tag_id::INT_ARRAY => match tag.int_array_raw() {
                Some(raw) => self.array(py, id, raw.as_big_endian()),
                None => {
                    let v = tag.int_array().ok_or_else(missing)?;
                    self.array(py, id, &be_bytes(&v, |x| x.to_be_bytes()))
                }
            },
            tag_id::LONG_ARRAY => match tag.long_array_raw() {
                Some(raw) => self.array(py, id, raw.as_big_endian()),
                None => {
                    let v = tag.long_array().ok_or_else(missing)?;
                    self.array(py, id, &be_bytes(&v, |x| x.to_be_bytes()))
                }
            },
            _ => Err(missing()),
        }
    }

    /// A compound as an instance of `cls` (`Compound`, or `File` for a root).
    pub fn compound<'py>(
        &self,
        py: Python<'py>,
        c: NbtCompound<'_>,
        cls: &Bound<'py, PyType>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let dict = self.new_dict(py, cls)?;
        for (name, value) in c.iter() {
            dict.set_item(self.key(py, name)?, self.tag(py, value)?)?;
        }
        Ok(dict)
    }

    fn list<'py>(&self, py: Python<'py>, l: NbtList<'_>) -> PyResult<Bound<'py, PyAny>> {
        let id = l.id();
        let cls = self
            .lists
            .get(id as usize)
            .ok_or_else(|| nbt_error("internal: list type", None))?;
        let out = self
            .list_new
            .bind(py)
            .call1((cls.bind(py),))?
            .cast_into::<PyList>()?;
        macro_rules! numbers {
            ($get:ident, $make:ident) => {
                for v in l.$get().into_iter().flatten() {
                    out.append(self.$make(py, id, v.into())?)?;
                }
            };
        }
        match id {
            tag_id::END => {}
            tag_id::BYTE => {
                for &v in l.bytes().into_iter().flatten() {
                    out.append(self.int(py, id, v.into())?)?;
                }
            }
            tag_id::SHORT => numbers!(shorts, int),
            tag_id::INT => numbers!(ints, int),
            tag_id::LONG => numbers!(longs, int),
            tag_id::FLOAT => numbers!(floats, float),
            tag_id::DOUBLE => numbers!(doubles, float),
            _ => {
                for i in 0..l.len() {
                    match l.get(i) {
                        Some(ListElement::Tag(t)) => out.append(self.tag(py, t)?)?,
                        Some(ListElement::Number(n)) => out.append(self.number(py, n)?)?,
                        None => return Err(nbt_error("internal: list element", None)),
                    }
                }
            }
        }
        Ok(out.into_any())
    }

    /// A value a path selected.
    pub fn value<'py>(&self, py: Python<'py>, v: DocValue<'_>) -> PyResult<Bound<'py, PyAny>> {
        match v {
            DocValue::Tag(t) => self.tag(py, t),
            DocValue::Compound(c) => Ok(self.compound(py, c, self.compound_class(py))?.into_any()),
            DocValue::List(l) => self.list(py, l),
            DocValue::Number(n) => self.number(py, n),
            DocValue::ByteArray(b) => self.array(py, tag_id::BYTE_ARRAY, b),
            DocValue::String(s) => self.string(py, s),
            DocValue::IntArray(raw) => self.array(py, tag_id::INT_ARRAY, raw.as_big_endian()),
            DocValue::LongArray(raw) => self.array(py, tag_id::LONG_ARRAY, raw.as_big_endian()),
        }
    }

    /// The tag id of one of the tag classes `obj` is an instance of.
    fn tag_class_of(&self, obj: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
        let py = obj.py();
        let ty = obj.get_type();
        // The common case first: an instance of exactly a tag class.
        for (id, cls) in self.tags.iter().enumerate().skip(1) {
            if ty.is(cls.bind(py)) {
                return Ok(Some(id as u8));
            }
        }
        for (id, cls) in self.lists.iter().enumerate() {
            if ty.is(cls.bind(py)) {
                let _ = id;
                return Ok(Some(tag_id::LIST));
            }
        }
        for (id, cls) in self.tags.iter().enumerate().skip(1) {
            if obj.is_instance(cls.bind(py))? {
                return Ok(Some(id as u8));
            }
        }
        Ok(None)
    }

    /// A Python value as an owned tag: a tag class's instance as its type;
    /// `bool` as Byte, `int` as Int (Long when it does not fit), `float` as
    /// Double, `str` as String, `dict` as Compound, `list`/`tuple` as List,
    /// `bytes`/`bytearray` as ByteArray.
    pub fn to_tag(&self, obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<owned::NbtTag> {
        use owned::NbtTag as T;
        if depth > MAX_DEPTH {
            return Err(nbt_error(
                format!("value nested deeper than {MAX_DEPTH} levels (or containing itself)"),
                None,
            ));
        }
        let range = |what: &'static str| {
            move |_| nbt_error(format!("{} out of range for {what}", obj_repr(obj)), None)
        };
        if let Some(id) = self.tag_class_of(obj)? {
            return Ok(match id {
                tag_id::BYTE => T::Byte(obj.extract::<i8>().map_err(range("Byte"))?),
                tag_id::SHORT => T::Short(obj.extract::<i16>().map_err(range("Short"))?),
                tag_id::INT => T::Int(obj.extract::<i32>().map_err(range("Int"))?),
                tag_id::LONG => T::Long(obj.extract::<i64>().map_err(range("Long"))?),
                tag_id::FLOAT => T::Float(obj.extract::<f64>()? as f32),
                tag_id::DOUBLE => T::Double(obj.extract::<f64>()?),
                tag_id::STRING => T::String(Mutf8String::from(obj.extract::<String>()?)),
                tag_id::LIST => {
                    let sub: u8 = obj
                        .get_type()
                        .getattr("subtype")?
                        .getattr("tag_id")?
                        .extract()?;
                    T::List(self.to_list(obj, Some(sub), depth)?)
                }
                tag_id::COMPOUND => T::Compound(self.to_compound(obj.cast::<PyDict>()?, depth)?),
                tag_id::BYTE_ARRAY | tag_id::INT_ARRAY | tag_id::LONG_ARRAY => {
                    let be: Vec<u8> = obj.call_method0("_nbt_bytes")?.extract()?;
                    match id {
                        tag_id::BYTE_ARRAY => T::ByteArray(be),
                        tag_id::INT_ARRAY => T::IntArray(
                            be.chunks_exact(4)
                                .map(|c| i32::from_be_bytes(c.try_into().unwrap_or_default()))
                                .collect(),
                        ),
                        _ => T::LongArray(
                            be.chunks_exact(8)
                                .map(|c| i64::from_be_bytes(c.try_into().unwrap_or_default()))
                                .collect(),
                        ),
                    }
                }
                _ => return Err(PyTypeError::new_err("End is not a value")),
            });
        }
        if obj.is_instance_of::<PyBool>() {
            return Ok(T::Byte(obj.extract::<bool>()? as i8));
        }
        if obj.is_instance_of::<PyInt>() {
            if let Ok(v) = obj.extract::<i32>() {
                return Ok(T::Int(v));
            }
            return Ok(T::Long(obj.extract::<i64>().map_err(range("Long"))?));
        }
        if obj.is_instance_of::<PyFloat>() {
            return Ok(T::Double(obj.extract::<f64>()?));
        }
        if obj.is_instance_of::<PyString>() {
            return Ok(T::String(Mutf8String::from(obj.extract::<String>()?)));
        }
        if let Ok(d) = obj.cast::<PyDict>() {
            return Ok(T::Compound(self.to_compound(d, depth)?));
        }
        if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
            return Ok(T::List(self.to_list(obj, None, depth)?));
        }
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(T::ByteArray(b.as_bytes().to_vec()));
        }
        if let Ok(b) = obj.cast::<PyByteArray>() {
            return Ok(T::ByteArray(b.to_vec()));
        }
        Err(PyTypeError::new_err(format!(
            "{} has no NBT type (tags, bool, int, float, str, dict, list, tuple, bytes are written)",
            obj_repr(obj)
        )))
    }

    pub fn to_compound(&self, d: &Bound<'_, PyDict>, depth: usize) -> PyResult<owned::NbtCompound> {
        let mut values = Vec::with_capacity(d.len());
        for (k, v) in d.iter() {
            let key: String = k.extract().map_err(|_| {
                PyTypeError::new_err(format!("compound key {} is not a str", obj_repr(&k)))
            })?;
            values.push((Mutf8String::from(key), self.to_tag(&v, depth + 1)?));
        }
        Ok(owned::NbtCompound::from_values(values))
    }

    /// A list, of element type `subtype` when the list's class says (`None`
    /// or End: the type of the first element).
    fn to_list(
        &self,
        obj: &Bound<'_, PyAny>,
        subtype: Option<u8>,
        depth: usize,
    ) -> PyResult<owned::NbtList> {
        let mut tags = Vec::new();
        for item in obj.try_iter()? {
            tags.push(self.to_tag(&item?, depth + 1)?);
        }
        let id = match (subtype, tags.first()) {
            (Some(id), _) if id != tag_id::END => id,
            (_, Some(first)) => first.id(),
            (_, None) => tag_id::END,
        };
        list_of(id, tags)
    }
}

/// The table, also after a panic elsewhere poisoned its lock (it holds
/// only finished entries).
fn lock(m: &Mutex<Interned>) -> std::sync::MutexGuard<'_, Interned> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn obj_repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "value".into())
}

fn be_bytes<T: Copy, const N: usize>(v: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    v.iter().flat_map(|&x| f(x)).collect()
}

/// Owned tags, all of type `id`, as a list.
fn list_of(id: u8, tags: Vec<owned::NbtTag>) -> PyResult<owned::NbtList> {
    use owned::NbtList as L;
    use owned::NbtTag as T;
    macro_rules! collect {
        ($variant:ident) => {{
            let mut out = Vec::with_capacity(tags.len());
            for (i, t) in tags.into_iter().enumerate() {
                match t {
                    T::$variant(v) => out.push(v),
                    other => {
                        return Err(nbt_error(
                            format!(
                                "list element {i} is a {}, the list's elements are {}",
                                tag_id::name(other.id()),
                                tag_id::name(id)
                            ),
                            None,
                        ));
                    }
                }
            }
            L::$variant(out)
        }};
    }
    Ok(match id {
        tag_id::END => L::Empty,
        tag_id::BYTE => collect!(Byte),
        tag_id::SHORT => collect!(Short),
        tag_id::INT => collect!(Int),
        tag_id::LONG => collect!(Long),
        tag_id::FLOAT => collect!(Float),
        tag_id::DOUBLE => collect!(Double),
        tag_id::BYTE_ARRAY => collect!(ByteArray),
        tag_id::STRING => collect!(String),
        tag_id::LIST => collect!(List),
        tag_id::COMPOUND => collect!(Compound),
        tag_id::INT_ARRAY => collect!(IntArray),
        tag_id::LONG_ARRAY => collect!(LongArray),
        _ => return Err(nbt_error(format!("no tag type {id}"), None)),
    })
}
