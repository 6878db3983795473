"""NBT tags as subclasses of Python's builtins, as nbtlib has them.

``Byte``, ``Short``, ``Int``, ``Long`` are ``int``; ``Float``, ``Double`` are
``float``; ``String`` is ``str``; ``List[T]`` is ``list``; ``Compound`` is
``dict``; ``ByteArray``, ``IntArray``, ``LongArray`` are numpy arrays (of
big-endian ``i1``/``i4``/``i8``, as nbtlib's) when numpy is installed, lists of
``int`` otherwise. The readers in Rust make instances without calling these
constructors; the constructors check ranges, as nbtlib's do.
"""

from __future__ import annotations

from . import _native

try:
    import numpy as _np
except ImportError:  # arrays are lists of int without numpy
    _np = None

__all__ = [
    "Base", "End", "Numeric", "NumericInteger", "Byte", "Short", "Int", "Long",
    "Float", "Double", "String", "List", "Compound", "Array", "ByteArray",
    "IntArray", "LongArray", "OutOfRange", "CastError", "IncompatibleItemType",
    "parse_nbt", "serialize_tag",
]


class OutOfRange(ValueError):
    """A number outside its tag's range: ``Byte(300)``."""

    def __init__(self, value):
        super().__init__(f"{value!r} is out of range")
        self.value = value


class CastError(ValueError):
    """A value that cannot become the tag asked for."""


class IncompatibleItemType(TypeError):
    """A list element of another type than the list's."""

    def __init__(self, item, subtype):
        super().__init__(f"{item!r} should be a {subtype.__name__} tag")
        self.item = item
        self.subtype = subtype


class Base:
    """What every tag has: ``tag_id``, ``snbt()``, ``unpack()``."""

    __slots__ = ()
    all_tags: dict = {}
    tag_id: int | None = None

    def __init_subclass__(cls):
        super().__init_subclass__()
        if cls.__dict__.get("tag_id") is not None and cls.tag_id not in Base.all_tags:
            Base.all_tags[cls.tag_id] = cls

    @classmethod
    def get_tag(cls, tag_id):
        return cls.all_tags[tag_id]

    def snbt(self, indent=None, compact=False, quote=None):
        """This tag as SNBT (see :func:`simdnbt.serialize_tag`)."""
        return serialize_tag(self, indent=indent, compact=compact, quote=quote)

    def unpack(self, json=False):
        """The value as plain Python types."""
        raise NotImplementedError

    def __repr__(self):
        return f"{self.__class__.__name__}({super().__repr__()})"


class End(Base):
    """The End tag: the element type of an empty list only."""

    __slots__ = ()
    tag_id = 0

    def __new__(cls, *args, **kwargs):
        raise TypeError("End tags cannot be instantiated")


class Numeric(Base):
    __slots__ = ()

    def __repr__(self):
        return f"{self.__class__.__name__}({self.unpack()!r})"


class NumericInteger(Numeric, int):
    __slots__ = ()
    range: range = range(0)

    def __new__(cls, *args, **kwargs):
        self = int.__new__(cls, *args, **kwargs)
        if int(self) not in cls.range:
            raise OutOfRange(self)
        return self

    def unpack(self, json=False):
        return int(self)

    def as_unsigned(self):
        """The value as an unsigned integer of the tag's width."""
        return int(self) % (self.range.stop * 2)

    @classmethod
    def from_unsigned(cls, value):
        return cls(value - (value >= cls.range.stop) * cls.range.stop * 2)


class Byte(NumericInteger):
    __slots__ = ()
    tag_id = 1
    range = range(-(1 << 7), 1 << 7)


class Short(NumericInteger):
    __slots__ = ()
    tag_id = 2
    range = range(-(1 << 15), 1 << 15)


class Int(NumericInteger):
    __slots__ = ()
    tag_id = 3
    range = range(-(1 << 31), 1 << 31)


class Long(NumericInteger):
    __slots__ = ()
    tag_id = 4
    range = range(-(1 << 63), 1 << 63)


class Float(Numeric, float):
    """A 32-bit float, held as a Python float (every f32 is exact in one)."""

    __slots__ = ()
    tag_id = 5

    def unpack(self, json=False):
        return float(self)


class Double(Numeric, float):
    __slots__ = ()
    tag_id = 6

    def unpack(self, json=False):
        return float(self)


class String(Base, str):
    __slots__ = ()
    tag_id = 8

    def unpack(self, json=False):
        return str(self)


def _cast(item, subtype):
    if isinstance(item, subtype):
        return item
    if isinstance(item, Base):
        raise IncompatibleItemType(item, subtype)
    try:
        return subtype(item)
    except Exception as exc:
        raise CastError(f"{item!r} cannot be cast to {subtype.__name__}") from exc


class List(Base, list):
    """A list of one tag type: ``List[Int]([1, 2])``. ``List([...])`` infers
    the type from the elements; elements are cast to it."""

    __slots__ = ()
    tag_id = 9
    subtype: type = End
    _variants: dict = {}

    def __new__(cls, iterable=()):
        if cls.subtype is End:
            iterable = tuple(iterable)
            cls = cls[_infer(iterable)]
        return list.__new__(cls)

    def __init__(self, iterable=()):
        list.__init__(self, (self._cast(i) for i in iterable))

    def __class_getitem__(cls, item):
        if item is End:
            # As nbtlib: the list of End (always empty) is the plain List.
            return List
        variant = List._variants.get(item)
        if variant is None:
            variant = type(f"List[{item.__name__}]", (List,), {"__slots__": (), "subtype": item})
            List._variants[item] = variant
        return variant

    @classmethod
    def _cast(cls, item):
        if cls.subtype is End:
            raise IncompatibleItemType(item, End)
        return _cast(item, cls.subtype)

    def append(self, value):
        list.append(self, self._cast(value))

    def extend(self, iterable):
        list.extend(self, (self._cast(i) for i in iterable))

    def insert(self, index, value):
        list.insert(self, index, self._cast(value))

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            list.__setitem__(self, index, [self._cast(v) for v in value])
        else:
            list.__setitem__(self, index, self._cast(value))

    def get(self, index, default=None):
        try:
            return self[index]
        except (IndexError, TypeError):
            return default

    def unpack(self, json=False):
        return [item.unpack(json) for item in self]

    def __repr__(self):
        return f"{self.__class__.__name__}({list.__repr__(self)})"


def _infer(items):
    subtype = End
    for item in items:
        if not isinstance(item, Base):
            raise CastError(
                "List tags without an explicit subtype must contain tags: "
                f"{item!r} is a {type(item).__name__}"
            )
        kind = List if isinstance(item, List) else type(item)
        if subtype is End:
            subtype = kind
        elif subtype is not kind:
            raise IncompatibleItemType(item, subtype)
    return subtype


class Compound(Base, dict):
    """A compound: a dict of str to tags, in insertion (file) order."""

    __slots__ = ()
    tag_id = 10

    def unpack(self, json=False):
        return {k: v.unpack(json) for k, v in self.items()}

    def merge(self, other):
        """Merges `other` in, recursively for compounds."""
        for key, value in other.items():
            if key in self and isinstance(self[key], Compound) and isinstance(value, dict):
                self[key].merge(value)
            else:
                self[key] = value

    def __repr__(self):
        return f"{self.__class__.__name__}({dict.__repr__(self)})"


if _np is not None:

    class Array(Base, _np.ndarray):
        """A numpy array of big-endian elements, as nbtlib's."""

        __slots__ = ()
        item_type = None
        wrapper: type = Int

        def __new__(cls, value=None, *, length=0):
            if value is None:
                return _np.zeros((length,), cls.item_type).view(cls)
            return _np.asarray(value, cls.item_type).view(cls)

        def __getitem__(self, index):
            if isinstance(index, slice):
                return super().__getitem__(index)
            return int.__new__(self.wrapper, super().__getitem__(index))

        def __bool__(self):
            return bool(len(self)) and bool(all(self))

        def unpack(self, json=False):
            return self.tolist() if json else _np.copy(self)

        def _nbt_bytes(self):
            return _np.asarray(self, self.item_type).tobytes()

        def __repr__(self):
            return f'{self.__class__.__name__}([{", ".join(map(str, self.tolist()))}])'

    def _array(cls, data):
        return _np.frombuffer(data, cls.item_type).view(cls)

else:

    class Array(Base, list):
        """Without numpy: a list of int."""

        __slots__ = ()
        item_type = None
        wrapper: type = Int

        def __init__(self, value=None, *, length=0):
            list.__init__(self, [0] * length if value is None else [int(v) for v in value])

        def unpack(self, json=False):
            return list(self)

        def _nbt_bytes(self):
            import struct

            return struct.pack(f">{len(self)}{self._code}", *self)

        def __repr__(self):
            return f"{self.__class__.__name__}({list.__repr__(self)})"

    def _array(cls, data):
        import struct

        n = len(data) // struct.calcsize(cls._code)
        out = list.__new__(cls)
        list.extend(out, struct.unpack(f">{n}{cls._code}", data))
        return out


class ByteArray(Array):
    __slots__ = ()
    tag_id = 7
    item_type = ">i1"
    _code = "b"
    wrapper = Byte


class IntArray(Array):
    __slots__ = ()
    tag_id = 11
    item_type = ">i4"
    _code = "i"
    wrapper = Int


class LongArray(Array):
    __slots__ = ()
    tag_id = 12
    item_type = ">i8"
    _code = "q"
    wrapper = Long


_TAGS = [End, Byte, Short, Int, Long, Float, Double, ByteArray, String, List, Compound, IntArray, LongArray]
_native.register(
    _TAGS, [List[t] for t in _TAGS], _array,
    None if _np is None else [_np.dtype(c.item_type) for c in (ByteArray, IntArray, LongArray)],
)


def parse_nbt(literal):
    """An SNBT text as a tag: ``parse_nbt("{a: 1b}")``."""
    return _native.parse_snbt(literal)


def serialize_tag(tag, *, indent=None, compact=False, quote=None):
    """A tag as SNBT: compact (``{a:1b}``), or one value a line when
    ``indent`` is given. ``quote`` is accepted and ignored: strings are quoted
    as Minecraft quotes them."""
    return _native.to_snbt(tag, indent is not None)
