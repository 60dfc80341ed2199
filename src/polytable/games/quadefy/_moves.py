"""Move generation: every legal placement of a set of blocks in one position, as bit operations.

Per orientation (see :mod:`._tables` for the padded translation board):

1. ``blocked = OR_k (occupied_padded >> k)``: translations where some cube meets a placed cube.
2. ``candidates = inside & ~blocked``: inside the space, on empty cells.
3. Support: ``AND`` with ``OR_k (support_padded >> k)`` where ``support`` is the empty cells on the floor
   or directly on a placed cube. With the centre-of-mass option, instead ``OR`` over the orientation's
   minimal stable sets ``S`` of ``AND_{k in S} (support_padded >> k)``.
4. Reachability: flood fill over the free translations ``box & ~blocked`` starting from the ``seed``
   faces (one unit move from wholly outside). A straight drop from above is tried first (three shifts);
   the full six-direction flood runs only while some candidate is still unreached, and stops as soon as
   all are reached.

The result of a whole position is memoised (a pure function of the occupied cells, the blocks in hand
and the option flags), so the count, the listing and the search share one computation; the memo is
cleared when it grows large.

A second view works over placement ids instead of orientations: :func:`candidates` is the bit set (over
the 2,172 placement ids) of the placements of a hand on empty cells with a supported cube, built from
per-byte cover tables in sixteen lookups. Without reachability and stability it *is* the legal set, so
counting is one ``bit_count``; with them it is a small superset that random sampling draws from by
rejection (:func:`sample_placement`).
"""

from __future__ import annotations

from collections.abc import Callable

from polytable.core import phrase
from polytable.geometry import Memo, select_bit
from polytable.geometry import bits as set_bits

from ._tables import BLOCK_ORIENTS, FULL, LAYER0, ORIENTS, PLACE_AT, PLACEMENTS, Orient, embed

__all__ = [
    "REACH",
    "STABLE",
    "any_legal",
    "candidates",
    "clear_cache",
    "hand_counts",
    "legal_count",
    "legal_sets",
    "orient_legal",
    "placement_ids",
    "reason",
    "sample_placement",
]

REACH = 1
"""Flag: placements must be reachable from outside."""
STABLE = 2
"""Flag: placements must be stable (centre of mass over the support)."""

_CACHE_LIMIT = 20_000
"""Memoised positions kept (a few kB each); the memo is emptied when full. The solver's depth-first
search only needs the positions along its current path and their children."""
_CACHE: Memo[int, tuple[tuple[tuple[Orient, int], ...], int]] = Memo(_CACHE_LIMIT)
_PADDED_LIMIT = 100_000


_FLAT: tuple[tuple[tuple[Orient, int, int, int, int, int, int, int], ...], ...] = tuple(
    tuple((o, *o.offsets, o.inside, o.box, o.seed) for o in orients)  # type: ignore[misc]
    for orients in BLOCK_ORIENTS
)


def clear_cache() -> None:
    """Forget memoised positions (for benchmarks that must measure generation itself)."""
    _CACHE.clear()
    _PADDED.clear()


_PADDED: Memo[int, tuple[int, int]] = Memo(_PADDED_LIMIT)


def padded(occ: int) -> tuple[int, int]:
    """``(embed(occ), embed(support_cells(occ)))``, memoised: a step checks, applies and samples in the
    same position."""
    hit = _PADDED.get(occ)
    if hit is None:
        hit = _PADDED.put(occ, (embed(occ), embed(support_cells(occ))))
    return hit


def support_cells(occ: int) -> int:
    """Empty cells a cube may rest in: on the floor or directly on a placed cube."""
    return (LAYER0 | (occ << 16)) & FULL & ~occ


def orient_legal(o: Orient, occ_p: int, sup_p: int, flags: int) -> int:
    """The padded translations where orientation ``o`` may be placed (see the module docstring)."""
    k0, k1, k2, k3 = o.offsets
    blk = (occ_p >> k0) | (occ_p >> k1) | (occ_p >> k2) | (occ_p >> k3)
    cand = o.inside & ~blk
    if not cand:
        return 0
    if flags & STABLE:
        st = 0
        for subset in o.stable:
            m = cand
            for k in subset:
                m &= sup_p >> k
            st |= m
        cand = st
    else:
        cand &= (sup_p >> k0) | (sup_p >> k1) | (sup_p >> k2) | (sup_p >> k3)
    if not cand or not flags & REACH:
        return cand
    free = o.box & ~blk
    r = free & o.seed
    # Straight drops from above first: most placements are reached this way.
    r |= free & (r >> 64)
    r |= free & (r >> 64)
    r |= free & (r >> 64)
    if not cand & ~r:
        return cand
    while True:
        n = (r | (r << 1) | (r >> 1) | (r << 8) | (r >> 8) | (r << 64) | (r >> 64)) & free
        if n == r:
            return cand & r
        r = n
        if not cand & ~r:
            return cand


def legal_sets(occ: int, rem: int, flags: int) -> tuple[tuple[tuple[Orient, int], ...], int]:
    """For blocks ``rem`` (a bit set over BLOCKS) in position ``occ``: the (orientation, padded legal
    translations) pairs with at least one placement, and the total number of placements.

    The body is :func:`orient_legal` inlined over flat tuples (this is the hot loop of every playout)."""
    key = occ | rem << 64 | flags << 72
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    occ_p, sup_p = padded(occ)
    out: list[tuple[Orient, int]] = []
    total = 0
    reach = flags & REACH
    b = 0
    r = rem
    while r:
        if r & 1:
            if flags & STABLE:
                for o in BLOCK_ORIENTS[b]:
                    bits = orient_legal(o, occ_p, sup_p, flags)
                    if bits:
                        out.append((o, bits))
                        total += bits.bit_count()
            else:
                for o, k0, k1, k2, k3, inside, box, seed in _FLAT[b]:
                    blk = (occ_p >> k0) | (occ_p >> k1) | (occ_p >> k2) | (occ_p >> k3)
                    cand = inside & ~blk & ((sup_p >> k0) | (sup_p >> k1) | (sup_p >> k2) | (sup_p >> k3))
                    if not cand:
                        continue
                    if reach:
                        free = box & ~blk
                        q = free & seed
                        q |= free & (q >> 64)
                        q |= free & (q >> 64)
                        q |= free & (q >> 64)
                        if cand & ~q:
                            while True:
                                n = (q | (q << 1) | (q >> 1) | (q << 8) | (q >> 8) | (q << 64) | (q >> 64)) & free
                                if n == q:
                                    cand &= q
                                    break
                                q = n
                                if not cand & ~q:
                                    break
                            if not cand:
                                continue
                    out.append((o, cand))
                    total += cand.bit_count()
        r >>= 1
        b += 1
    return _CACHE.put(key, (tuple(out), total))


def legal_count(occ: int, rem: int, flags: int) -> int:
    """How many legal placements hand ``rem`` has on cells ``occ`` under ``flags`` (REACH, STABLE): the
    mobility a player has, without building the actions."""
    if not flags:
        return candidates(occ, rem).bit_count()
    return legal_sets(occ, rem, flags)[1]


def hand_counts(occ: int, a: int, b: int, flags: int) -> tuple[int, int]:
    """The placement counts of two hands in one position with a single generation over their union
    (the players mostly hold the same kinds of block, so this halves the work of a mobility evaluation)."""
    sets, total = legal_sets(occ, a | b, flags)
    if a == b:
        return total, total
    ca = cb = 0
    for o, bits in sets:
        bit = 1 << o.block
        if a & bit:
            ca += bits.bit_count()
        if b & bit:
            cb += bits.bit_count()
    return ca, cb


def any_legal(occ: int, rem: int, flags: int) -> bool:
    """Whether some block of ``rem`` can be placed (stops at the first orientation that fits)."""
    if not flags:
        return bool(candidates(occ, rem))
    key = occ | rem << 64 | flags << 72
    hit = _CACHE.get(key)
    if hit is not None:
        return hit[1] > 0
    occ_p, sup_p = padded(occ)
    b = 0
    r = rem
    while r:
        if r & 1:
            for o in BLOCK_ORIENTS[b]:
                if orient_legal(o, occ_p, sup_p, flags):
                    return True
        r >>= 1
        b += 1
    return False


def placement_ids(occ: int, rem: int, flags: int) -> list[int]:
    """Every legal placement id, in id order within each orientation."""
    out: list[int] = []
    for o, bits in legal_sets(occ, rem, flags)[0]:
        at = PLACE_AT[o.index]
        out += [at[i] for i in set_bits(bits)]
    return out


def reason(occ: int, o: Orient, pbit: int, mask: int, flags: int) -> dict[str, object] | None:
    """Why the placement of orientation ``o`` at padded translation ``pbit`` (cells ``mask``) is illegal,
    as a sentence fragment with its stable code (a :func:`~polytable.core.phrase`); None when it is legal."""
    if mask & occ:
        return phrase("quadefy.overlap", "it would overlap blocks already placed")
    sup = support_cells(occ)
    if not mask & sup:
        return phrase(
            "quadefy.float", "it would float (none of its cubes rests on the floor or directly on a placed block)"
        )
    occ_p, sup_p = padded(occ)
    if flags & STABLE and not orient_legal(o, occ_p, sup_p, STABLE) >> pbit & 1:
        return phrase("quadefy.topple", "it would topple (its centre of mass is not over the cubes it rests on)")
    if flags & REACH and not orient_legal(o, occ_p, sup_p, flags) >> pbit & 1:
        return phrase(
            "quadefy.unreachable",
            "it cannot be moved into that spot from outside the cube without lifting or sliding blocks already placed",
        )
    return None


def _cover_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """``COVER8[i][v]``: the placement ids (as a bit set over ids) with a cube in the cells of byte ``i``
    of the space given by the bits of ``v``; ``HAND[r]``: the placement ids of the blocks in hand ``r``."""
    cell = [0] * 64
    for p in PLACEMENTS:
        m = p.mask
        for i in set_bits(m):
            cell[i] |= 1 << p.id
    cover = []
    for i in range(8):
        t = [0] * 256
        for v in range(1, 256):
            low = v & -v
            t[v] = t[v ^ low] | cell[8 * i + low.bit_length() - 1]
        cover.append(tuple(t))
    by_block = [0] * 8
    for p in PLACEMENTS:
        by_block[p.block] |= 1 << p.id
    hand = tuple(sum(by_block[b] for b in range(8) if r >> b & 1) for r in range(256))
    return tuple(cover), hand


COVER8, HAND = _cover_tables()


def cover(cells: int) -> int:
    """The placement ids (a bit set over ids) with at least one cube in ``cells``: eight lookups."""
    c = COVER8
    return (
        c[0][cells & 255]
        | c[1][cells >> 8 & 255]
        | c[2][cells >> 16 & 255]
        | c[3][cells >> 24 & 255]
        | c[4][cells >> 32 & 255]
        | c[5][cells >> 40 & 255]
        | c[6][cells >> 48 & 255]
        | c[7][cells >> 56]
    )


def candidates(occ: int, rem: int) -> int:
    """Placement ids of hand ``rem`` on empty cells with a supported cube (a bit set over ids): exactly
    the legal placements when neither reachability nor stability applies, a superset otherwise."""
    return HAND[rem] & cover(support_cells(occ)) & ~cover(occ)


def _select(x: int, k: int) -> int:
    """The index of the ``k``-th (0-based) set bit of ``x``, by binary search on prefix bit counts."""
    lo, hi = 0, x.bit_length()
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if (x & ((1 << mid) - 1)).bit_count() <= k:
            lo = mid
        else:
            hi = mid
    return lo


_MAX_TRIES = 24


def sample_placement(occ: int, rem: int, flags: int, u64: Callable[[], int]) -> int | None:
    """A uniformly random legal placement id for hand ``rem``, or None when there is none.

    The candidates (empty cells, supported: :func:`candidates`, sixteen table lookups) are exactly the
    legal placements without reachability and stability. With either rule on, a uniform candidate is
    kept if that one orientation's rule holds (computed once per orientation per call): accepted draws are
    uniform over the legal placements. After ``_MAX_TRIES`` rejections (an almost closed position) it
    generates every legal placement and picks one, uniform too. The draw never depends on what is
    memoised, so a seeded sample is reproducible. ``u64()`` gives 64 random bits (see :func:`_below`).
    """
    cand = candidates(occ, rem)
    n = cand.bit_count()
    if not n:
        return None
    if not flags:
        return _select(cand, _below(u64, n))
    occ_p, sup_p = padded(occ)
    seen: dict[int, int] = {}
    for _ in range(_MAX_TRIES):
        p = PLACEMENTS[_select(cand, _below(u64, n))]
        bits = seen.get(p.orient)
        if bits is None:
            bits = seen[p.orient] = orient_legal(ORIENTS[p.orient], occ_p, sup_p, flags)
        if bits >> p.pbit & 1:
            return p.id
    sets, count = legal_sets(occ, rem, flags)
    if not count:
        return None
    k = _below(u64, count)
    for o, bits in sets:
        c = bits.bit_count()
        if k < c:
            return PLACE_AT[o.index][select_bit(bits, k)]
        k -= c
    raise AssertionError("legal placement count and sets disagree")


def _below(u64: Callable[[], int], n: int) -> int:
    """Uniform in ``range(n)`` from 32-bit halves (Lemire), as in :func:`sample_placement`."""
    thresh = ((1 << 32) - n) % n
    while True:
        v = u64()
        for _ in range(2):
            m = (v & 0xFFFFFFFF) * n
            if (m & 0xFFFFFFFF) >= thresh:
                return m >> 32
            v >>= 32
