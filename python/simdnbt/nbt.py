"""Files and paths, with nbtlib's names (SNBT: ``tag.py``, with the tags)."""

from __future__ import annotations

import os

from . import _native
from .tag import Base, Compound

__all__ = ["File", "load", "Path"]


class File(Compound):
    """A compound read from (or to be written to) a file, with how it is stored.

    ``compression`` is "gzip", "zlib" or "raw" (``gzipped`` is nbtlib's
    spelling of "gzip"); ``byteorder`` "big" (Java), "little" (Bedrock) or
    "network"; ``root_name`` the root's name (usually ``""``).
    """

    def __init__(self, *args, gzipped=False, byteorder="big", filename=None, root_name="",
                 compression=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.filename = filename
        self.byteorder = byteorder
        self.root_name = root_name
        self.compression = compression or ("gzip" if gzipped else "raw")

    @property
    def gzipped(self):
        return self.compression == "gzip"

    @gzipped.setter
    def gzipped(self, value):
        self.compression = "gzip" if value else "raw"

    @classmethod
    def load(cls, filename, gzipped=None, byteorder="big", *, max_inflated=None):
        """Reads a file: gzip, zlib or raw are detected (``gzipped`` is
        accepted for nbtlib's sake and not needed). ``max_inflated``: as in
        ``from_bytes``."""
        return _native.load_file(filename, byteorder, cls, max_inflated)

    @classmethod
    def from_bytes(cls, data, byteorder="big", *, max_inflated=None):
        """Reads NBT bytes (gzip, zlib or raw). ``max_inflated``: the most
        bytes compressed data may inflate to (256 MiB by default); more is
        an NbtError, so a small input cannot take much memory."""
        name, compression, root = _native.read_bytes(bytes(data), byteorder, cls, max_inflated)
        return cls._finish(root, name, compression, byteorder, None)

    @classmethod
    def _finish(cls, root, name, compression, byteorder, filename):
        if not isinstance(root, cls):
            raise _native.NbtError("the root of the file is not a compound")
        root.filename = None if filename is None else os.fspath(filename)
        root.byteorder = byteorder
        root.root_name = name
        root.compression = compression
        return root

    def to_bytes(self, *, gzipped=None, byteorder=None, compression=None):
        """The file's bytes, stored as it was read unless told otherwise."""
        return _native.write_bytes(self, self.root_name, self._compression(gzipped, compression),
                                   byteorder or self.byteorder)

    def save(self, filename=None, *, gzipped=None, byteorder=None, compression=None):
        """Writes the file (to ``filename``, by default where it was read
        from), through a temporary file renamed over it."""
        filename = filename if filename is not None else self.filename
        if filename is None:
            raise ValueError("no filename: pass one to save()")
        _native.write_file(os.fspath(filename), self, self.root_name,
                           self._compression(gzipped, compression), byteorder or self.byteorder)
        self.filename = os.fspath(filename)

    def _compression(self, gzipped, compression):
        if compression is not None:
            return compression
        if gzipped is not None:
            return "gzip" if gzipped else "raw"
        return self.compression

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if exc[0] is None:
            self.save()

    def __repr__(self):
        return f"<File {self.root_name!r}: {dict.__repr__(self)}>"


def load(filename, *, gzipped=None, byteorder="big", max_inflated=None):
    """Reads an NBT file into tags (nbtlib's ``load``): gzip, zlib or raw.
    ``max_inflated``: the most bytes a compressed file may inflate to (256
    MiB by default); more is an NbtError."""
    return _native.load_file(filename, byteorder, File, max_inflated)


class Path(str):
    """An NBT path (``Inventory[{Slot:0b}].id``), as a str.

    ``path.get(tag)`` and ``path.get_all(tag)`` evaluate it on a compound;
    a lazy :class:`simdnbt.Document` takes it too (``doc.get(path)``).
    """

    __slots__ = ()

    def __new__(cls, text=""):
        self = str.__new__(cls, text)
        # Parsing now reports a malformed path where it is written.
        _native.Document.from_snbt("{}").get_all(str(self) or "{}")
        return self

    def __truediv__(self, other):
        other = str(other)
        if not self:
            return Path(other)
        return Path(f"{self}{other}" if other.startswith("[") else f"{self}.{other}")

    def get_all(self, tag):
        """Every value the path selects in the compound ``tag``."""
        return _native.Document.from_python(tag).get_all(str(self))

    def get(self, tag, default=None):
        """The first value the path selects in ``tag``, or ``default``."""
        return _native.Document.from_python(tag).get(str(self), default)

    def __repr__(self):
        return f"Path({str(self)!r})"
