//! Between NBT and Python objects: a document's values become instances of
//! the tag classes of `simdnbt/tag.py` in one pass; Python values (tags or
//! plain builtins) become owned NBT tags.

use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::hash::{BuildHasherDefault, Hasher};
use std::ptr;
use std::sync::Mutex;

use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::ffi;
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
    int_new: NewFn,
    float_new: NewFn,
    str_new: NewFn,
    dict_new: NewFn,
    list_new: NewFn,
    /// `()`, the arguments of the dict and list constructors.
    no_args: Py<PyTuple>,
    /// `(cls, bytearray of big-endian elements) -> array`: without numpy.
    array: Py<PyAny>,
    /// With numpy: arrays made by its C API, without a Python call.
    numpy: Option<Numpy>,
    /// By tag id (Byte … Long): the instances of the values in
    /// `SMALL_INTS`, made once; tags are immutable, so they are shared as
    /// CPython shares its small ints. Most numbers in game data are small.
    small_ints: Vec<Vec<Py<PyAny>>>,
    /// Compound keys, interned (see [`Interned`]).
    keys: Mutex<Interned>,
    /// Short `String` values (ids such as "minecraft:stone" repeat).
    strings: Mutex<Interned>,
    /// The module `gc` (see [`Classes::pause_gc`]).
    gc: Py<PyAny>,
}

/// Inputs from this many bytes on are converted with the cyclic garbage
/// collector paused: a tree of thousands of dicts and lists set off
/// collections that traverse it again and again (a sixth of the CPU time of
/// a 1 MB file), and a new tree holds no cycles to collect. Below it, the
/// calls to pause and resume cost more than they save.
const GC_PAUSE_MIN: usize = 32 * 1024;

/// The collector paused until this is dropped (when it was running).
pub struct GcPause<'py>(Option<Bound<'py, PyAny>>);

impl Drop for GcPause<'_> {
    fn drop(&mut self) {
        if let Some(gc) = &self.0 {
            // Nothing to report to: `gc.enable()` does not fail.
            let _ = gc.call_method0("enable");
        }
    }
}

const SMALL_INTS: std::ops::RangeInclusive<i64> = -128..=1023;

/// Python strings by their MUTF-8 bytes, shared between reads: at most
/// `MAX_INTERNED` of at most `MAX_INTERNED_LEN` bytes each (about 1 MB),
/// after which new ones are made each time.
#[derive(Default)]
struct Interned(HashMap<Box<[u8]>, Py<PyAny>, BuildHasherDefault<Fx>>);

const MAX_INTERNED: usize = 16 * 1024;
const MAX_INTERNED_LEN: usize = 48;

/// A multiply-rotate hash of 8 bytes at a time (as rustc's FxHasher):
/// the keys are short, and SipHash's setup costs more than the lookup.
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = self.0;
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let w = u64::from_le_bytes(w.try_into().unwrap_or_default());
            h = (h.rotate_left(5) ^ w).wrapping_mul(K);
        }
        let mut last = [0u8; 8];
        let rest = words.remainder();
        last[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(last)).wrapping_mul(K);
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

/// A builtin type's `tp_new` (int's, float's, ...), called directly on a
/// subclass: what `int.__new__(Byte, v)` ends in, without the method
/// wrapper, the argument tuple it slices and the vectorcall around it.
#[derive(Clone, Copy)]
struct NewFn(ffi::newfunc);

impl NewFn {
    /// The `tp_new` of `base`, read from a heap subclass that inherits it:
    /// `PyType_GetSlot` takes static types only from CPython 3.10 on.
    fn of(py: Python<'_>, base: &Bound<'_, PyType>) -> PyResult<NewFn> {
        let sub = py
            .import("builtins")?
            .getattr("type")?
            .call1(("_simdnbt_new", (base,), PyDict::new(py)))?
            .cast_into::<PyType>()?;
        // SAFETY: `sub` is a live type object (a heap type, made by `type()`),
        // which `PyType_GetSlot` accepts on every CPython of the stable ABI.
        let slot = unsafe { ffi::PyType_GetSlot(sub.as_type_ptr(), ffi::Py_tp_new) };
        if slot.is_null() {
            return Err(PyRuntimeError::new_err("a builtin type without tp_new"));
        }
        // SAFETY: the `Py_tp_new` slot holds a `newfunc`; it points into the
        // interpreter (the builtin's constructor), not into `sub`.
        Ok(NewFn(unsafe {
            std::mem::transmute::<*mut c_void, ffi::newfunc>(slot)
        }))
    }

    /// An instance of `cls`, a subclass of the builtin whose `tp_new` this
    /// is (`register` checks that of every class it is called on).
    fn call<'py>(
        &self,
        cls: &Bound<'py, PyType>,
        args: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyAny>> {
        // SAFETY: the builtin's `tp_new` with a subtype of the builtin, an
        // argument tuple and no keywords, as `type.__call__` and
        // `int.__new__(cls, ...)` call it; it returns a new reference or
        // NULL with an exception set.
        unsafe {
            Bound::from_owned_ptr_or_err(
                cls.py(),
                (self.0)(cls.as_type_ptr(), args.as_ptr(), ptr::null_mut()),
            )
        }
    }

    fn call1<'py>(
        &self,
        cls: &Bound<'py, PyType>,
        arg: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.call(cls, &PyTuple::new(cls.py(), [arg])?)
    }
}

/// `PyArray_NewFromDescr(subtype, descr, nd, dims, strides, data, flags, obj)`.
type NewFromDescr = unsafe extern "C" fn(
    *mut ffi::PyTypeObject,
    *mut ffi::PyObject,
    c_int,
    *const ffi::Py_ssize_t,
    *const ffi::Py_ssize_t,
    *mut c_void,
    c_int,
    *mut ffi::PyObject,
) -> *mut ffi::PyObject;
/// `PyArray_GetPtr(array, index)`: the address of an element.
type GetPtr = unsafe extern "C" fn(*mut ffi::PyObject, *const ffi::Py_ssize_t) -> *mut c_void;

/// numpy's C API, as far as arrays of tags need it: an instance of an array
/// tag class (a subclass of `ndarray`) made and filled without a Python
/// call. `np.frombuffer(...).view(cls)` cost about 2 µs an array, the most
/// of a read of an old chunk (its blocks are byte arrays).
struct Numpy {
    new_from_descr: NewFromDescr,
    get_ptr: GetPtr,
    /// By tag id (ByteArray, IntArray, LongArray; else unused): the dtype.
    dtypes: Vec<Option<Py<PyAny>>>,
    /// The capsule of the function table, kept while it is used.
    _api: Py<PyAny>,
}

impl Numpy {
    fn load(py: Python<'_>, tags: &[Py<PyType>], dtypes: Vec<Py<PyAny>>) -> PyResult<Numpy> {
        let ids = [tag_id::BYTE_ARRAY, tag_id::INT_ARRAY, tag_id::LONG_ARRAY];
        if dtypes.len() != ids.len() {
            return Err(PyTypeError::new_err("register: 3 array dtypes"));
        }
        let np = py.import("numpy")?;
        let (ndarray, dtype) = (
            np.getattr("ndarray")?.cast_into::<PyType>()?,
            np.getattr("dtype")?.cast_into::<PyType>()?,
        );
        let mut by_id: Vec<Option<Py<PyAny>>> = (0..=tag_id::LONG_ARRAY).map(|_| None).collect();
        for (&id, d) in ids.iter().zip(dtypes) {
            if !tags[id as usize].bind(py).is_subclass(&ndarray)?
                || !d.bind(py).is_instance(&dtype)?
            {
                return Err(PyTypeError::new_err(
                    "register: array classes of numpy.ndarray, numpy dtypes",
                ));
            }
            by_id[id as usize] = Some(d);
        }
        // Where numpy's own headers (`import_array`) find the table.
        let module = py
            .import("numpy._core._multiarray_umath")
            .or_else(|_| py.import("numpy.core._multiarray_umath"))?;
        let api = module.getattr("_ARRAY_API")?;
        // SAFETY: `api` is a live object; a capsule is checked for before
        // its pointer is read. numpy's capsule has no name (NULL).
        let table = unsafe {
            if ffi::PyCapsule_CheckExact(api.as_ptr()) == 0 {
                return Err(PyRuntimeError::new_err(
                    "numpy's _ARRAY_API is not a capsule",
                ));
            }
            ffi::PyCapsule_GetPointer(api.as_ptr(), ptr::null()) as *const *const c_void
        };
        if table.is_null() {
            return Err(PyErr::fetch(py));
        }
        // SAFETY: numpy's function table: entries 94 (PyArray_NewFromDescr)
        // and 160 (PyArray_GetPtr) have had these places and signatures
        // since numpy 1.0, numpy 2 included (its `__multiarray_api.h`).
        let (new_from_descr, get_ptr) = unsafe {
            (
                std::mem::transmute::<*const c_void, NewFromDescr>(*table.add(94)),
                std::mem::transmute::<*const c_void, GetPtr>(*table.add(160)),
            )
        };
        Ok(Numpy {
            new_from_descr,
            get_ptr,
            dtypes: by_id,
            _api: api.unbind(),
        })
    }

    /// An array of `cls` (of dtype `id`'s) holding `be`, big-endian elements.
    fn array<'py>(
        &self,
        cls: &Bound<'py, PyType>,
        id: u8,
        be: &[u8],
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = cls.py();
        let dtype = self.dtypes[id as usize]
            .as_ref()
            .ok_or_else(|| nbt_error("internal: array type", None))?;
        let width = match id {
            tag_id::BYTE_ARRAY => 1,
            tag_id::INT_ARRAY => 4,
            _ => 8,
        };
        let dims = [(be.len() / width) as ffi::Py_ssize_t];
        // SAFETY: `NewFromDescr` steals a reference to the dtype, given one
        // here; `cls` is a subclass of ndarray (checked in `load`); one
        // dimension, C order, numpy allocates the data (NULL). The result
        // is a new reference or NULL with an exception set.
        let array = unsafe {
            ffi::Py_IncRef(dtype.as_ptr());
            Bound::from_owned_ptr_or_err(
                py,
                (self.new_from_descr)(
                    cls.as_type_ptr(),
                    dtype.as_ptr(),
                    1,
                    dims.as_ptr(),
                    ptr::null(),
                    ptr::null_mut(),
                    0,
                    ptr::null_mut(),
                ),
            )?
        };
        if dims[0] > 0 {
            let at = [0 as ffi::Py_ssize_t];
            // SAFETY: the array was just made, contiguous, with `dims[0]`
            // elements of `width` bytes: `be.len()` bytes from its first
            // element's address (`be.len()` is a multiple of `width`, as the
            // reader gives it) are its own, and nothing else refers to them.
            unsafe {
                let data = (self.get_ptr)(array.as_ptr(), at.as_ptr()).cast::<u8>();
                ptr::copy_nonoverlapping(be.as_ptr(), data, dims[0] as usize * width);
            }
        }
        Ok(array)
    }
}

/// Called once by `simdnbt/tag.py`: the tag classes by id, the list class of
/// each element id, and the array factory.
///
/// `dtypes`: with numpy, the dtypes of `ByteArray`, `IntArray` and
/// `LongArray` (the tag classes are then subclasses of `numpy.ndarray`).
#[pyfunction]
#[pyo3(signature = (tags, lists, array, dtypes = None))]
pub fn register(
    py: Python<'_>,
    tags: Vec<Py<PyType>>,
    lists: Vec<Py<PyType>>,
    array: Py<PyAny>,
    dtypes: Option<Vec<Py<PyAny>>>,
) -> PyResult<()> {
    if tags.len() != 13 || lists.len() != 13 {
        return Err(PyTypeError::new_err("register: 13 tag and 13 list classes"));
    }
    let builtins = py.import("builtins")?;
    let base = |name: &str| -> PyResult<Bound<'_, PyType>> {
        Ok(builtins.getattr(name)?.cast_into::<PyType>()?)
    };
    let (int, float, string, dict, list) = (
        base("int")?,
        base("float")?,
        base("str")?,
        base("dict")?,
        base("list")?,
    );
    // The builtin constructors are called on these classes only (see NewFn::call).
    for (ids, b) in [
        (
            &[tag_id::BYTE, tag_id::SHORT, tag_id::INT, tag_id::LONG][..],
            &int,
        ),
        (&[tag_id::FLOAT, tag_id::DOUBLE], &float),
        (&[tag_id::STRING], &string),
        (&[tag_id::COMPOUND], &dict),
    ] {
        for &id in ids {
            if !tags[id as usize].bind(py).is_subclass(b)? {
                return Err(PyTypeError::new_err(
                    "register: a tag class of the wrong base",
                ));
            }
        }
    }
    for l in &lists {
        if !l.bind(py).is_subclass(&list)? {
            return Err(PyTypeError::new_err("register: a list class not a list"));
        }
    }
    let int_new = NewFn::of(py, &int)?;
    let no_args = PyTuple::empty(py).unbind();
    let mut small_ints: Vec<Vec<Py<PyAny>>> = (0..=tag_id::LONG).map(|_| Vec::new()).collect();
    for id in [tag_id::BYTE, tag_id::SHORT, tag_id::INT, tag_id::LONG] {
        let cls = tags[id as usize].bind(py);
        for v in SMALL_INTS {
            let v = v.into_pyobject(py)?.into_any();
            small_ints[id as usize].push(int_new.call(cls, &PyTuple::new(py, [v])?)?.unbind());
        }
    }
    let numpy = match dtypes {
        Some(d) => Some(Numpy::load(py, &tags, d)?),
        None => None,
    };
    let classes = Classes {
        tags,
        lists,
        int_new,
        float_new: NewFn::of(py, &float)?,
        str_new: NewFn::of(py, &string)?,
        dict_new: NewFn::of(py, &dict)?,
        list_new: NewFn::of(py, &list)?,
        no_args,
        array,
        numpy,
        small_ints,
        keys: Mutex::default(),
        strings: Mutex::default(),
        gc: py.import("gc")?.into_any().unbind(),
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
        let v = v.into_pyobject(py)?.into_any();
        self.int_new.call1(self.tags[id as usize].bind(py), v)
    }

    fn float<'py>(&self, py: Python<'py>, id: u8, v: f64) -> PyResult<Bound<'py, PyAny>> {
        let v = PyFloat::new(py, v).into_any();
        self.float_new.call1(self.tags[id as usize].bind(py), v)
    }

    fn string<'py>(&self, py: Python<'py>, s: &simdnbt::Mutf8Str) -> PyResult<Bound<'py, PyAny>> {
        let make = || {
            let text = py_str(py, s)?.into_any();
            self.str_new
                .call1(self.tags[tag_id::STRING as usize].bind(py), text)
        };
        lock(&self.strings).get(py, s.as_bytes(), make)
    }

    /// A compound key: a plain `str`, interned.
    fn key<'py>(&self, py: Python<'py>, s: &simdnbt::Mutf8Str) -> PyResult<Bound<'py, PyAny>> {
        let make = || Ok(py_str(py, s)?.into_any());
        lock(&self.keys).get(py, s.as_bytes(), make)
    }

    fn array<'py>(&self, py: Python<'py>, id: u8, be: &[u8]) -> PyResult<Bound<'py, PyAny>> {
        if let Some(np) = &self.numpy {
            return np.array(self.tags[id as usize].bind(py), id, be);
        }
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
            .call(cls, self.no_args.bind(py))?
            .cast_into::<PyDict>()?)
    }

    /// Pauses the garbage collector while a tree converted from `size`
    /// bytes is built, if that is large (see [`GC_PAUSE_MIN`]).
    pub fn pause_gc<'py>(&self, py: Python<'py>, size: usize) -> GcPause<'py> {
        let gc = self.gc.bind(py);
        let running = || gc.call_method0("isenabled")?.is_truthy();
        if size >= GC_PAUSE_MIN && running().unwrap_or(false) && gc.call_method0("disable").is_ok()
        {
            return GcPause(Some(gc.clone()));
        }
        GcPause(None)
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
            N::Float(v) => self.float(py, tag_id::FLOAT, widen(v)),
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
            tag_id::FLOAT => self.float(py, id, widen(tag.float().ok_or_else(missing)?)),
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
            .call(cls.bind(py), self.no_args.bind(py))?
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
            tag_id::FLOAT => {
                for v in l.floats().into_iter().flatten() {
                    out.append(self.float(py, id, widen(v))?)?;
                }
            }
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
                tag_id::FLOAT => T::Float(narrow(obj.extract::<f64>()?)),
                tag_id::DOUBLE => T::Double(obj.extract::<f64>()?),
                tag_id::STRING => T::String(mutf8_of(obj.cast::<PyString>()?)?),
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
            return Ok(T::String(mutf8_of(obj.cast::<PyString>()?)?));
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
            let key = k.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!("compound key {} is not a str", obj_repr(&k)))
            })?;
            values.push((mutf8_of(key)?, self.to_tag(&v, depth + 1)?));
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

/// A Float's value as a Python float, NaN bits kept: `f64::from` (the
/// CPU's conversion) sets the quiet bit of a signalling NaN, and the bits
/// would then not write back.
fn widen(v: f32) -> f64 {
    if !v.is_nan() {
        return v.into();
    }
    let b = v.to_bits();
    let sign = u64::from(b >> 31) << 63;
    f64::from_bits(sign | 0x7FF0_0000_0000_0000 | (u64::from(b & 0x007F_FFFF) << 29))
}

/// The inverse of [`widen`]: a NaN's top 23 payload bits (its quiet bit
/// among them) kept; a NaN whose payload is only in the low bits (made in
/// Python, not read) becomes the quiet NaN of its sign.
fn narrow(v: f64) -> f32 {
    if !v.is_nan() {
        return v as f32;
    }
    let b = v.to_bits();
    let sign = ((b >> 63) as u32) << 31;
    let mut payload = ((b >> 29) & 0x007F_FFFF) as u32;
    if payload == 0 {
        payload = 0x0040_0000;
    }
    f32::from_bits(sign | 0x7F80_0000 | payload)
}

/// A MUTF-8 string as a Python str, every UTF-16 code unit kept: a lone
/// surrogate (which Java writes, and UTF-8 cannot hold) becomes that
/// surrogate in the str, as Python's "surrogatepass" has it, so it writes
/// back to the same bytes ([`mutf8_of`]). Bytes that are no MUTF-8 at all
/// become U+FFFD.
pub fn py_str<'py>(py: Python<'py>, s: &simdnbt::Mutf8Str) -> PyResult<Bound<'py, PyString>> {
    let bytes = s.as_bytes();
    // Most strings are UTF-8 as they are (no NUL, which is C0 80, nothing
    // past U+FFFF and no lone surrogate, which start with ED): decoded in one
    // pass, as Python decodes UTF-8. (A failed decode costs an exception.)
    // (A long one is tried at once: an exception is cheap beside its
    // decoding, and the check a pass over it.)
    if bytes.len() > 256 || !needs_mending(bytes) {
        if let Some(text) = decode_utf8(py, bytes, None) {
            return Ok(text);
        }
    }
    let text = mutf8_to_wtf8(bytes).and_then(|w| decode_utf8(py, &w, Some(c"surrogatepass")));
    Ok(text.unwrap_or_else(|| PyString::new(py, &s.to_str())))
}

/// Whether MUTF-8 bytes hold a C0 or an ED byte (NUL, or a surrogate): 8
/// bytes at a time, by the "has a zero byte" test on the word XORed with
/// each (exact for whether there is one).
fn needs_mending(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has = |w: u64, b: u8| {
        let x = w ^ (ONES * u64::from(b));
        x.wrapping_sub(ONES) & !x & HIGH != 0
    };
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().unwrap_or_default());
        if has(w, 0xC0) || has(w, 0xED) {
            return true;
        }
    }
    words.remainder().iter().any(|&b| b == 0xC0 || b == 0xED)
}

/// `bytes` decoded as UTF-8 with the error handler `errors` (strict when
/// None); None (and no exception set) when they are not.
fn decode_utf8<'py>(
    py: Python<'py>,
    bytes: &[u8],
    errors: Option<&std::ffi::CStr>,
) -> Option<Bound<'py, PyString>> {
    let errors = errors.map_or(ptr::null(), |e| e.as_ptr());
    // SAFETY: a pointer and length of live bytes (a slice is never longer
    // than isize::MAX); the result is a new reference to a str, or NULL
    // with an exception set.
    let text = unsafe {
        Bound::from_owned_ptr_or_opt(
            py,
            ffi::PyUnicode_DecodeUTF8(bytes.as_ptr().cast(), bytes.len() as isize, errors),
        )
    };
    match text {
        // SAFETY: PyUnicode_DecodeUTF8 returns a str.
        Some(t) => Some(unsafe { t.cast_into_unchecked() }),
        None => {
            drop(PyErr::take(py));
            None
        }
    }
}

/// MUTF-8 as "generalised UTF-8": NUL as one byte, a surrogate pair as the
/// 4-byte sequence of its character, a lone surrogate kept as its 3 bytes
/// (what "surrogatepass" decodes). None when nothing needed a change (the
/// bytes are then invalid in a way this does not mend).
fn mutf8_to_wtf8(b: &[u8]) -> Option<Vec<u8>> {
    let cont = |i: usize| b.get(i).is_some_and(|&c| c & 0xC0 == 0x80);
    let unit = |i: usize| 0xD000 | (u32::from(b[i + 1] & 0x3F) << 6) | u32::from(b[i + 2] & 0x3F);
    let mut out = Vec::with_capacity(b.len());
    let mut changed = false;
    // Runs of bytes that stay as they are are copied whole.
    let (mut run, mut i) = (0, 0);
    while let Some(p) = b[i..].iter().position(|&c| c == 0xC0 || c == 0xED) {
        let at = i + p;
        if b[at] == 0xC0 && b.get(at + 1) == Some(&0x80) {
            out.extend_from_slice(&b[run..at]);
            out.push(0);
            i = at + 2;
        } else if b[at] == 0xED
            && b.get(at + 1).is_some_and(|c| (0xA0..=0xAF).contains(c))
            && cont(at + 2)
            && b.get(at + 3) == Some(&0xED)
            && b.get(at + 4).is_some_and(|c| (0xB0..=0xBF).contains(c))
            && cont(at + 5)
        {
            let code = 0x10000 + ((unit(at) - 0xD800) << 10) + (unit(at + 3) - 0xDC00);
            out.extend_from_slice(&b[run..at]);
            out.extend_from_slice(char::from_u32(code)?.encode_utf8(&mut [0; 4]).as_bytes());
            i = at + 6;
        } else {
            // A lone surrogate (kept, for "surrogatepass"), or C0 not
            // followed by 80 (invalid, for the caller's fallback).
            changed |= b[at] == 0xED;
            i = at + 1;
            continue;
        }
        run = i;
        changed = true;
    }
    out.extend_from_slice(&b[run..]);
    changed.then_some(out)
}

/// A Python str as MUTF-8, the inverse of [`py_str`]: lone surrogates (a
/// str read from one, or made with one) are written as Java writes them.
pub fn mutf8_of(s: &Bound<'_, PyString>) -> PyResult<Mutf8String> {
    if let Ok(text) = s.to_cow() {
        return Ok(Mutf8String::from(text.as_ref()));
    }
    // Not UTF-8: it holds surrogates. Their UTF-8-like encoding, then each
    // 4-byte sequence as a surrogate pair and NUL as C0 80.
    let wtf8 = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
    let wtf8 = wtf8.cast::<PyBytes>()?.as_bytes();
    let mut out = Vec::with_capacity(wtf8.len() + 8);
    let mut i = 0;
    while i < wtf8.len() {
        let b = wtf8[i];
        if b == 0 {
            out.extend_from_slice(&[0xC0, 0x80]);
            i += 1;
        } else if b >= 0xF0 && i + 3 < wtf8.len() {
            let code = (u32::from(b & 0x07) << 18)
                | (u32::from(wtf8[i + 1] & 0x3F) << 12)
                | (u32::from(wtf8[i + 2] & 0x3F) << 6)
                | u32::from(wtf8[i + 3] & 0x3F);
            let mut units = [0u16; 2];
            let ch = char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
            for unit in ch.encode_utf16(&mut units) {
                let u = u32::from(*unit);
                out.extend_from_slice(&[
                    0xE0 | (u >> 12) as u8,
                    0x80 | ((u >> 6) & 0x3F) as u8,
                    0x80 | (u & 0x3F) as u8,
                ]);
            }
            i += 4;
        } else {
            out.push(b);
            i += 1;
        }
    }
    Ok(Mutf8String::from_vec(out))
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
