"""One cache hook for data derived from an immutable object (a game config, a variant table).

Why: every step of a game asks for the tables its config implies; hashing a config's options each time
costs more than the lookup, so the cache is keyed by the object's identity. The entry holds the object, so
its id cannot be reused by another while the entry lives; the cache is bounded (cleared when full).
With ``by_value=True`` an identity miss then looks for an equal object (a config read back from a saved
state is a new object with the same options), so expensive derived data is built once per value.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, Protocol, TypeVar, cast

__all__ = ["Derived", "derived"]

K = TypeVar("K")
V = TypeVar("V")
K_contra = TypeVar("K_contra", contravariant=True)
V_co = TypeVar("V_co", covariant=True)


class Derived(Protocol, Generic[K_contra, V_co]):
    """A function of one object, cached per object; ``cache_clear()`` forgets every entry."""

    def __call__(self, key: K_contra, /) -> V_co: ...

    def cache_clear(self) -> None: ...


def derived(maxsize: int = 256, *, by_value: bool = False) -> Callable[[Callable[[K], V]], Derived[K, V]]:
    """Decorate ``fn(obj) -> data`` so that it runs once per object (by identity) while the entry lives;
    with ``by_value`` once per equal object (the key must then be hashable)."""

    def wrap(fn: Callable[[K], V]) -> Derived[K, V]:
        cache: dict[int, tuple[K, V]] = {}
        values: dict[Hashable, V] = {}

        def clear() -> None:
            cache.clear()
            values.clear()

        def get(key: K, /) -> V:  # a plain closure: called every step, so no method dispatch
            hit = cache.get(id(key))
            if hit is not None and hit[0] is key:
                return hit[1]
            if len(cache) >= maxsize:
                cache.clear()
            if by_value:
                value = values.get(cast("Hashable", key))
                if value is None:
                    if len(values) >= maxsize:
                        values.clear()
                    value = values[cast("Hashable", key)] = fn(key)
            else:
                value = fn(key)
            cache[id(key)] = (key, value)
            return value

        get.__doc__ = fn.__doc__
        get.__name__ = getattr(fn, "__name__", "derived")
        get.cache_clear = clear  # type: ignore[attr-defined]
        return cast("Derived[K, V]", get)

    return wrap
