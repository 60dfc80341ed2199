"""A compiled kernel's state buffer, described once: the fields, in order, that Python packs and C reads.

A kernel entry point that plays a whole game (a playout) takes the state as one writable buffer and writes
the end state back into it, instead of a long positional argument list and a long result tuple. The
buffer's layout is this description and nothing else: :class:`StateLayout` packs and unpacks it with
:mod:`struct`, and the C side declares the same fields as a struct whose offsets and sizes it reports
(its ``layout()`` function); tests/kernel/test_layouts.py compares the two, so they cannot drift.

A kernel whose entry points take and return the rules' own value objects (Foldris, Quadefy: a step is too
short to build a state in Python) names the buffer's fields after the value class's: the kernel binds the
class to its struct with :meth:`StateLayout.codec_spec` (``core/_codec.h``), reads each described field into
its member and makes new values from the struct, and checks at bind time that the description's offsets
and sizes are the struct's.

Every item is 8 bytes or a multiple of 8 (``q`` and ``Q`` in native byte order, ``Ns`` bytes), so the C
struct has no padding on any common ABI. Bitboards travel as little-endian bytes (``int.to_bytes``), from
which the C assembles its 64-bit words, so the buffer means the same on any byte order.
"""

from __future__ import annotations

import dataclasses
import struct
from collections.abc import Collection, Sequence

__all__ = ["StateLayout"]

Field = tuple[str, str, int]
"""(name, struct code of one item, item count): ``("pieces", "64s", 4)``, ``("turn", "q", 1)``."""


class StateLayout:
    """The fields of one state buffer: pack the values in field order, unpack them by field."""

    def __init__(self, fields: Sequence[Field]) -> None:
        self.fields: tuple[Field, ...] = tuple(fields)
        for name, code, count in self.fields:
            size = struct.calcsize("=" + code)
            if count < 1 or size % 8:
                raise ValueError(f"field {name}: items of a multiple of 8 bytes, at least one")
        self.struct = struct.Struct(
            "=" + "".join(code * count if code[-1] == "s" else f"{count}{code}" for _, code, count in self.fields)
        )
        """The buffer as a :class:`struct.Struct` of the fields' items, in order (a hot path packs the flat items
        itself: :meth:`pack` is the readable form)."""
        self.size = self.struct.size
        self.offsets: dict[str, int] = {}
        """Each field's offset in bytes (what C's ``offsetof`` of the member must be)."""
        self.index: dict[str, int] = {}
        """Each field's first item in the flat tuple of :attr:`struct` (``struct.unpack``'s answer)."""
        at = item = 0
        for name, code, count in self.fields:
            self.offsets[name], self.index[name] = at, item
            at += struct.calcsize("=" + code) * count
            item += count
        self._many = [count > 1 for _, _, count in self.fields]

    def skipping(self, names: Collection[str]) -> tuple[struct.Struct, dict[str, int]]:
        """The buffer as a :class:`struct.Struct` in which the fields ``names`` are padding (bytes the compiled
        kernel fills and reads itself, such as boards it converts from and to Python ints), and each other
        field's first item in that struct's flat tuple. Packing it leaves zeros in the skipped fields."""
        unknown = set(names) - {name for name, _, _ in self.fields}
        if unknown:
            raise ValueError(f"no fields {sorted(unknown)}")
        codes, index, item = [], {}, 0
        for name, code, count in self.fields:
            if name in names:
                codes.append(f"{struct.calcsize('=' + code) * count}x")
                continue
            codes.append(code * count if code[-1] == "s" else f"{count}{code}")
            index[name] = item
            item += count
        return struct.Struct("=" + "".join(codes)), index

    def sizes(self) -> dict[str, int]:
        """Each field's size in bytes (what C's ``sizeof`` of the member must be)."""
        return {name: struct.calcsize("=" + code) * count for name, code, count in self.fields}

    def pack(self, *values: object) -> bytearray:
        """A new buffer holding ``values``, one per field in order (a sequence of ``count`` for a repeated one)."""
        flat: list[object] = []
        for many, value in zip(self._many, values, strict=True):
            if many:
                flat.extend(value)  # type: ignore[arg-type]
            else:
                flat.append(value)
        return bytearray(self.struct.pack(*flat))

    def unpack(self, buf: bytes | bytearray) -> list[object]:
        """The values of a buffer, one per field in order (a tuple for a repeated field)."""
        flat = self.struct.unpack(buf)
        out: list[object] = []
        at = 0
        for (_, _, count), many in zip(self.fields, self._many, strict=True):
            out.append(flat[at : at + count] if many else flat[at])
            at += count
        return out

    def codec_spec(self, cls: type) -> tuple[tuple[str, ...], tuple[tuple[str, str, int, int, int], ...]]:
        """What a compiled kernel binds value class ``cls`` (a dataclass with slots) with: the names of all its
        fields, in order, and per field of this layout (named after one of them) ``(name, kind, count, offset,
        item size)``. Kinds: ``i`` a signed 64-bit int, ``u`` an unsigned one (code ``Q``), ``b`` a bool held
        as ``q`` (the field is annotated ``bool``), ``n`` a non-negative int held as ``N`` little-endian bytes
        (code ``Ns``); a field of more than one item is a tuple of that many."""
        types = {f.name: f.type for f in dataclasses.fields(cls)}
        spec = []
        for name, code, count in self.fields:
            if name not in types:
                raise ValueError(f"{cls.__name__} has no field {name}")
            if code[-1] == "s":
                kind = "n"
            elif code == "Q":
                kind = "u"
            elif code == "q":
                kind = "b" if types[name] in (bool, "bool") else "i"
            else:
                raise ValueError(f"field {name}: a codec holds q, Q or Ns items, not {code}")
            spec.append((name, kind, count, self.offsets[name], struct.calcsize("=" + code)))
        return tuple(types), tuple(spec)
