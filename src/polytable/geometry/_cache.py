"""The cache toolkit: a bounded memo keyed by values, and one hook for data derived from an immutable object.

Why one toolkit: the games and the AIs memoise pure functions (column heights, legal placements, sheet
values, transposition tables) and the data a config implies. A :class:`Memo` is a plain dict (so the hot
path is a dict lookup) that forgets everything when full. :func:`derived` caches per object by identity,
since hashing a config's options on every step costs more than the lookup; an entry holds only a weak
reference to its object and goes when the object does, so a reused ``id()`` never answers for another.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import Generic, Protocol, TypeVar, cast

__all__ = ["Derived", "Memo", "derived"]

K = TypeVar("K")
V = TypeVar("V")
K_contra = TypeVar("K_contra", contravariant=True)
V_co = TypeVar("V_co", covariant=True)


class Memo(dict[K, V]):
    """A memo of a pure function, keyed by value: read it as a dict (``memo.get(key)``), fill it with
    :meth:`put`, which empties it first when it holds ``limit`` entries (the simplest bound; a miss after
    that only recomputes)."""

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"a memo holds at least one entry, not {limit}")
        super().__init__()
        self.limit = limit

    def put(self, key: K, value: V) -> V:
        """Remember ``value`` for ``key`` (emptying the memo first when it is full) and return it."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


class Derived(Protocol, Generic[K_contra, V_co]):
    """A function of one object, cached per object; ``cache_clear()`` forgets every entry."""

    def __call__(self, key: K_contra, /) -> V_co: ...

    def cache_clear(self) -> None: ...


def derived(maxsize: int = 256, *, by_value: bool = False) -> Callable[[Callable[[K], V]], Derived[K, V]]:
    """Decorate ``fn(obj) -> data`` so that it runs once per live object (found by identity; the object must
    accept weak references); with ``by_value`` once per equal object (a config read back from a saved state
    is a new object with the same options; the key must then be hashable). At most ``maxsize`` entries of
    each kind, emptied when full."""

    def wrap(fn: Callable[[K], V]) -> Derived[K, V]:
        cache: dict[int, tuple[weakref.ref[K], V]] = {}
        values: Memo[Hashable, V] = Memo(maxsize)

        def clear() -> None:
            cache.clear()
            values.clear()

        def get(key: K, /) -> V:  # a plain closure: called every step, so no method dispatch
            ident = id(key)
            hit = cache.get(ident)
            if hit is not None and hit[0]() is key:
                return hit[1]

            def gone(ref: weakref.ref[K]) -> None:
                entry = cache.get(ident)
                if entry is not None and entry[0] is ref:  # not a newer object that took the same id
                    del cache[ident]

            ref = weakref.ref(key, gone)  # first: a key that takes no weak reference fails before the work
            if by_value:
                value = values.get(cast("Hashable", key))
                if value is None:
                    value = values.put(cast("Hashable", key), fn(key))
            else:
                value = fn(key)
            if len(cache) >= maxsize:
                cache.clear()
            cache[ident] = (ref, value)
            return value

        get.__doc__ = fn.__doc__
        get.__name__ = getattr(fn, "__name__", "derived")
        get.cache_clear = clear  # type: ignore[attr-defined]
        return cast("Derived[K, V]", get)

    return wrap
