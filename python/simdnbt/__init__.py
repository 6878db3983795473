"""simdnbt: Minecraft's NBT at native speed.

- nbtlib's model (``load``, ``File.save``, ``parse_nbt``, ``serialize_tag``,
  tags as subclasses of Python's builtins): scripts port by changing an import.
- :class:`Document`: a lazy document kept in Rust; values by NBT path, edits,
  writes that copy what was not edited.
- :class:`Region` for region files, :func:`scan` for a world as a
  ``pyarrow.Table``, ``simdnbt.dask.read_world`` for a Dask DataFrame.
"""

from . import _native
from ._native import Document, DocumentView, NbtError, Region
from .tag import (
    Array, Base, Byte, ByteArray, CastError, Compound, Double, End, Float,
    IncompatibleItemType, Int, IntArray, List, Long, LongArray, Numeric,
    NumericInteger, OutOfRange, Short, String, parse_nbt, serialize_tag,
)
from .nbt import File, Path, load
from .arrow import scan, tables

__version__ = _native.__version__

__all__ = [
    "Array", "Base", "Byte", "ByteArray", "CastError", "Compound", "Document",
    "DocumentView", "Double", "End", "File", "Float", "IncompatibleItemType",
    "Int", "IntArray", "List", "Long", "LongArray", "NbtError", "Numeric",
    "NumericInteger", "OutOfRange", "Path", "Region", "Short", "String",
    "load", "parse_nbt", "scan", "serialize_tag", "tables",
]
