//! What a path is evaluated in: [`PathRoot`] (queries) and [`PathRootMut`]
//! (edits), sealed traits every document model implements, so
//! [`NbtPath::get_all`], [`NbtPath::set`] and the rest are one API for
//! owned, borrowed and document trees. The document model's impls are in
//! `document/path.rs`, next to its value type.

use super::value::{BorrowValue, Value};
use super::{NbtPath, PathError, edit, eval};
use crate::{borrow, owned};

/// Keeps the traits closed (only this crate's models implement them) and
/// their evaluation methods uncallable from outside.
pub(crate) mod sealed {
    pub trait Sealed {}

    /// Passed to the traits' hidden methods: outside the crate it cannot be
    /// named, so they cannot be called.
    #[derive(Clone, Copy)]
    pub struct Token;
}

use sealed::{Sealed, Token};

/// A document root that an [`NbtPath`] can be evaluated in: the argument of
/// [`NbtPath::get_all`], [`get`](NbtPath::get) and
/// [`resolve_all`](NbtPath::resolve_all).
///
/// Every model implements it, each with its own view of the selected values
/// ([`Value`](PathRoot::Value)); the same path selects the same values, in
/// the same order, in each of them. The trait is sealed: its method is this
/// crate's evaluator.
///
/// | root | [`Value`](PathRoot::Value) |
/// |---|---|
/// | `&`[`owned::NbtCompound`], `&`[`owned::BaseNbt`], `&`[`owned::Nbt`] | [`Value`](super::Value) |
/// | [`borrow::NbtCompound`], `&`[`borrow::BaseNbt`] | [`BorrowValue`] |
/// | [`document::NbtCompound`](crate::document::NbtCompound), `&`[`Document`](crate::document::Document) | [`DocValue`](crate::document::DocValue) |
///
/// A `Document` (or `owned::Nbt::None`) whose root is not a compound
/// selects nothing.
///
/// Owned:
///
/// ```
/// use simdnbt::owned::{NbtCompound, NbtList, NbtTag};
/// use simdnbt::path::NbtPath;
///
/// let mut root = NbtCompound::new();
/// root.insert("a", NbtTag::List(NbtList::from(vec![1i32, 2, 3])));
/// let found = NbtPath::parse("a[-1]").unwrap().get_all(&root);
/// assert_eq!(found[0].to_tag().int(), Some(3));
/// ```
///
/// Borrowed (no owned tree is built):
///
/// ```
/// use simdnbt::path::NbtPath;
///
/// // {a: {b: 7}} as binary NBT
/// let bytes = [10, 0, 0, 10, 0, 1, b'a', 3, 0, 1, b'b', 0, 0, 0, 7, 0, 0];
/// let nbt = simdnbt::borrow::read(&mut std::io::Cursor::new(&bytes[..])).unwrap().unwrap();
/// let found = NbtPath::parse("a.b").unwrap().get_all(nbt.as_compound());
/// assert_eq!(found[0].to_owned().int(), Some(7));
/// // The root itself works as well.
/// assert_eq!(NbtPath::parse("a.b").unwrap().get_all(&nbt).len(), 1);
/// ```
///
/// Document:
///
/// ```
/// use simdnbt::document::Document;
/// use simdnbt::path::NbtPath;
///
/// // {a: [{b: 1}, {b: 2}]} as binary NBT
/// let bytes = [10, 0, 0, 9, 0, 1, b'a', 10, 0, 0, 0, 2,
///     3, 0, 1, b'b', 0, 0, 0, 1, 0, 3, 0, 1, b'b', 0, 0, 0, 2, 0, 0];
/// let doc = Document::from_vec(bytes.to_vec()).unwrap().unwrap();
/// let path = NbtPath::parse("a[].b").unwrap();
/// let found = path.resolve_all(&doc);
/// assert_eq!(found[1].0.to_string(), "a[1].b");
/// assert_eq!(found[1].1.to_owned().int(), Some(2));
/// // The same through the root compound's handle.
/// assert_eq!(path.get_all(doc.as_compound().unwrap()).len(), 2);
/// ```
pub trait PathRoot: Copy + Sealed {
    /// A selected value: a view into the document, living as long as it.
    type Value: Copy;

    /// Evaluates `path`, with the concrete path of each value when
    /// `with_paths`.
    #[doc(hidden)]
    fn select_path(
        self,
        path: &NbtPath,
        with_paths: bool,
        _: Token,
    ) -> Vec<(Self::Value, Option<NbtPath>)>;
}

/// A document root that an [`NbtPath`] can edit: the argument of
/// [`NbtPath::set`] and [`NbtPath::remove`], by `&mut`.
///
/// Implemented by [`owned::NbtCompound`], [`owned::BaseNbt`] and
/// [`Document`](crate::document::Document). The same path edits the same
/// places in each, with the same counts and errors; a `Document` edit also
/// keeps the document valid (see [`NbtPath::set`]). The trait is sealed.
///
/// Owned:
///
/// ```
/// use simdnbt::owned::{NbtCompound, NbtTag};
/// use simdnbt::path::NbtPath;
///
/// let mut root = NbtCompound::new();
/// root.insert("b", NbtCompound::new());
/// assert_eq!(NbtPath::parse("b.c").unwrap().set(&mut root, NbtTag::Int(1)).unwrap(), 1);
/// assert_eq!(NbtPath::parse("b.c").unwrap().remove(&mut root), 1);
/// ```
///
/// Document:
///
/// ```
/// use simdnbt::document::Document;
/// use simdnbt::owned::{NbtCompound, NbtTag};
/// use simdnbt::path::NbtPath;
///
/// let mut root = NbtCompound::new();
/// root.insert("b", NbtCompound::new());
/// let mut doc = Document::from_owned(&root.into()).unwrap();
/// assert_eq!(NbtPath::parse("b.c").unwrap().set(&mut doc, NbtTag::Int(1)).unwrap(), 1);
/// assert_eq!(NbtPath::parse("b.c").unwrap().get_all(&doc)[0].to_owned(), NbtTag::Int(1));
/// assert_eq!(NbtPath::parse("b.c").unwrap().remove(&mut doc), 1);
/// ```
pub trait PathRootMut: Sealed {
    /// [`NbtPath::set`].
    #[doc(hidden)]
    fn set_path(
        &mut self,
        path: &NbtPath,
        value: owned::NbtTag,
        _: Token,
    ) -> Result<usize, PathError>;

    /// [`NbtPath::remove`].
    #[doc(hidden)]
    fn remove_path(&mut self, path: &NbtPath, _: Token) -> usize;
}

impl Sealed for &owned::NbtCompound {}
impl<'t> PathRoot for &'t owned::NbtCompound {
    type Value = Value<'t>;

    fn select_path(
        self,
        path: &NbtPath,
        with_paths: bool,
        _: Token,
    ) -> Vec<(Value<'t>, Option<NbtPath>)> {
        eval::select(path, Value::Compound(self), with_paths)
    }
}

/// The owned roots that are a compound underneath (`owned::Nbt::None` is an
/// empty one, as its `Deref` says): evaluated as that compound.
macro_rules! owned_root_as_compound {
    ($($root:ty),*) => {$(
        impl Sealed for &$root {}
        impl<'t> PathRoot for &'t $root {
            type Value = Value<'t>;

            fn select_path(
                self,
                path: &NbtPath,
                with_paths: bool,
                t: Token,
            ) -> Vec<(Value<'t>, Option<NbtPath>)> {
                <&owned::NbtCompound>::select_path(self, path, with_paths, t)
            }
        }
    )*};
}
owned_root_as_compound!(owned::BaseNbt, owned::Nbt);

impl<'a: 'tape, 'tape> Sealed for borrow::NbtCompound<'a, 'tape> {}
impl<'a: 'tape, 'tape> PathRoot for borrow::NbtCompound<'a, 'tape> {
    type Value = BorrowValue<'a, 'tape>;

    fn select_path(
        self,
        path: &NbtPath,
        with_paths: bool,
        _: Token,
    ) -> Vec<(BorrowValue<'a, 'tape>, Option<NbtPath>)> {
        eval::select(path, BorrowValue::Compound(self), with_paths)
    }
}

impl Sealed for &borrow::BaseNbt<'_> {}
impl<'a: 'tape, 'tape> PathRoot for &'tape borrow::BaseNbt<'a> {
    type Value = BorrowValue<'a, 'tape>;

    fn select_path(
        self,
        path: &NbtPath,
        with_paths: bool,
        t: Token,
    ) -> Vec<(BorrowValue<'a, 'tape>, Option<NbtPath>)> {
        self.as_compound().select_path(path, with_paths, t)
    }
}

/// The owned trees: edited in place (`BaseNbt` through its compound).
macro_rules! owned_root_mut {
    ($($root:ty),*) => {$(
        impl Sealed for $root {}
        impl PathRootMut for $root {
            fn set_path(
                &mut self,
                path: &NbtPath,
                value: owned::NbtTag,
                _: Token,
            ) -> Result<usize, PathError> {
                edit::set(path, self, value)
            }

            fn remove_path(&mut self, path: &NbtPath, _: Token) -> usize {
                edit::remove(path, self)
            }
        }
    )*};
}
owned_root_mut!(owned::NbtCompound, owned::BaseNbt);
