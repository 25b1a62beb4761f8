"""A memo keyed by an object's identity, for immutable values that are costly to hash.

Hot paths meet the same few large immutable values again and again (a deck's tuple of trucks,
a chance node's outcome tuple, a card): hashing them each time costs more than the work saved,
so they are looked up by ``id()``. An id is only unique while its object lives, so every entry
holds its object: while an entry is cached, its id cannot be reused by another object. The memo
is bounded (cleared when full), so holding the objects never grows without limit.

>>> memo = IdentityMemo[tuple[int, ...], int](limit=2)
>>> key = (1, 2, 3)
>>> memo.get(key) is None
True
>>> memo.lookup(key, sum)
6
>>> memo.get(key), memo.get((1, 2, 3)) is None   # an equal but distinct tuple is another key
(6, True)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class IdentityMemo(Generic[K, V]):
    """Values computed from objects, found again by the object's identity (``is``, not ``==``).

    Only immutable objects belong here: a value cached for an object that later changes in place
    would be stale.
    """

    __slots__ = ("_entries", "limit")

    def __init__(self, *, limit: int = 256) -> None:
        if limit < 1:
            raise ValueError(f"a memo's limit must be at least 1, not {limit!r}")
        self.limit = limit
        self._entries: dict[int, tuple[K, V]] = {}

    def get(self, key: K) -> V | None:
        """The value cached for this very object, or None."""
        entry = self._entries.get(id(key))
        if entry is not None and entry[0] is key:
            return entry[1]
        return None

    def put(self, key: K, value: V) -> V:
        """Cache ``value`` for ``key`` (clearing the memo first when it is full); returns ``value``."""
        if len(self._entries) >= self.limit:
            self._entries.clear()
        self._entries[id(key)] = (key, value)
        return value

    def lookup(self, key: K, compute: Callable[[K], V]) -> V:
        """The cached value for ``key``, computed by ``compute(key)`` and cached on a miss."""
        entry = self._entries.get(id(key))
        if entry is not None and entry[0] is key:
            return entry[1]
        return self.put(key, compute(key))

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()


class HashedOnce:
    """A base for frozen dataclasses whose hash is worked out once, when the value is made.

    A frozen dataclass's own ``__hash__`` builds and hashes the tuple of its fields at every
    lookup, through every nested value; for small values that key the hot tables of a search
    (cards, plays) that is most of a lookup's cost. A subclass ends its ``__post_init__`` with
    ``self._remember_hash(key)`` — ``key`` made of ints, bools and other ``HashedOnce`` values,
    whose hashes are the same in every process — and sets ``__hash__ = HashedOnce.__hash__`` in
    its body (``@dataclass`` would replace an inherited one). The remembered hash is not
    pickled: a pickle holds the fields alone, as a plain dataclass's does, and unpickling runs
    ``__post_init__`` again.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Point(HashedOnce):
    ...     x: int
    ...     y: int
    ...     __hash__ = HashedOnce.__hash__
    ...     def __post_init__(self) -> None:
    ...         self._remember_hash((self.x, self.y))
    >>> hash(Point(1, 2)) == hash((1, 2)), Point(1, 2) == Point(1, 2)
    (True, True)
    """

    _hash: int

    def _remember_hash(self, key: Hashable) -> None:
        object.__setattr__(self, "_hash", hash(key))

    def __post_init__(self) -> None:  # overridden: each subclass remembers its own key
        raise TypeError(f"{type(self).__name__} must define __post_init__ (see HashedOnce)")

    def __hash__(self) -> int:
        return self._hash

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self.__post_init__()
