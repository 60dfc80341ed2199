"""FORMFINITY turn flow: what each variant allows, what a placement does, and when turns and games end.

A turn: (areas goal: choose the area if none is open) -> a chance node draws the card -> the elements
are placed one by one (each a separate action). An element with no legal placement is unused, and so
are all the card's remaining elements (nothing changed, so they cannot be placed either): the turn ends
automatically. Lines are claimed right after the element that completes them.

End of a blocked game (the rulebook never says what happens when nobody can draw any more): when a turn
ends with nothing placed, we check whether *any* card the generator or deck can produce has a legal
placement for any player; if none has, the game ends and the variant's score decides (ties shared).
The goal-specific ends are exact too: variant 3 ends as soon as neither player can still connect, and
variant 4 when the next number can no longer be reached (see :func:`can_connect` and
:func:`number_reachable`: the squares a player may still use only ever shrink). In variant 3 no element
may take the opponent's last way (:func:`keeps_a_way`), so a game usually ends with a connection; one
that stops without (every placement left would take the other's last way) goes to the player with
fewer squares still to draw (:func:`squares_needed`).
"""

from __future__ import annotations

from collections.abc import Iterator

from polytable.core import below, seed_state
from polytable.geometry import Memo, bits

from ._board import Setup, element_anchors
from ._cards import Card
from ._state import CHOOSE, CLAIM, DRAW, OVER, PLACE, FormfinityState
from ._state import evolve as replace

__all__ = [
    "apply_card",
    "apply_choose",
    "apply_claim",
    "apply_place",
    "can_connect",
    "claimable",
    "connects",
    "constraints",
    "deal",
    "draw_card",
    "forbidden",
    "keeps_a_way",
    "number_reachable",
    "placements",
    "scores",
    "squares_needed",
    "start_state",
    "way",
    "window",
]

State = FormfinityState


def constraints(setup: Setup, st: State, player: int) -> tuple[int, int, int | None]:
    """(blocked, allowed, touch) for ``player``'s next element: see :func:`element_anchors`."""
    drawn = st.drawn
    blocked = setup.wall | drawn
    free = setup.playable & ~drawn
    rules = setup.rules
    goal = rules.goal
    if goal == "lines":
        return blocked, free, None
    if goal == "areas":
        return blocked, (free & setup.areas[st.area]) if st.area >= 0 else 0, None
    if goal == "connection":
        opp = st.owners[1 - player]
        ring = (opp | setup.n4(opp)) if rules.corner_touch else setup.n8(opp)
        own = st.owners[player] | setup.stars[player]
        return blocked, free & ~ring, setup.n4(own)
    # numbers
    k = len(st.numbers)
    target = setup.numbers[k] if k < len(setup.numbers) else 0
    allowed = free & ~(setup.numbers_all & ~target)
    touch = setup.n4(drawn) if rules.connect and drawn else None
    return blocked, allowed, touch


_CACHE: Memo[tuple[object, ...], list[tuple[int, int]]] = Memo(512)


def clear_caches() -> None:
    """Forget the cached placements (a benchmark measures a fresh generation with it)."""
    _CACHE.clear()


def placements(setup: Setup, st: State, player: int, card: Card | None = None) -> list[tuple[int, int]]:
    """(shape id, anchors) of the next element of the current card (or ``card``) for ``player``.

    A small memo (keyed by everything the answer depends on) saves recomputing the same list for
    sampling, checking and applying one action: pure, bounded, and invisible to callers.
    """
    c = card if card is not None else Card.from_id(st.card)
    key = (setup, st.owners, c.id, st.area, len(st.numbers), player)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    out = _anchors(setup, st, player, setup.rotation(c), setup.edges(c))
    return _CACHE.put(key, out)


def _anchors(setup: Setup, st: State, player: int, orients: tuple[int, ...], edges: int) -> list[tuple[int, int]]:
    """:func:`element_anchors` under the variant's constraints; for the connection goal without the
    placements that would take the opponent's last way to their goal (:func:`keeps_a_way`)."""
    blocked, allowed, touch = constraints(setup, st, player)
    out = element_anchors(setup, orients, edges, blocked, allowed, touch)
    if out and setup.rules.goal == "connection":
        out = keeps_a_way(setup, st, player, out)
    return out


def way(setup: Setup, st: State, player: int) -> int:
    """One shortest way ``player`` could still draw to the other start square (a mask of squares), or 0
    when there is none: squares :func:`constraints` allows them (free, not touching the opponent), from
    a square next to their drawing to a square next to the goal."""
    _, allowed, touch = constraints(setup, st, player)
    assert touch is not None
    goal_side = setup.n4(setup.stars[1 - player])
    layers = [touch & allowed]
    seen = layers[0]
    while layers[-1] and not layers[-1] & goal_side:
        nxt = setup.n4(layers[-1]) & allowed & ~seen
        seen |= nxt
        layers.append(nxt)
    end = layers[-1] & goal_side
    if not end:
        return 0
    cell = end & -end
    path = cell
    for layer in reversed(layers[:-1]):
        step = setup.n4(cell) & layer
        cell = step & -step
        path |= cell
    return path


def keeps_a_way(setup: Setup, st: State, player: int, options: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The anchors of ``options`` that leave the opponent a way to their goal (if they have one now).

    Exact and cheap: a placement that neither covers nor touches one shortest way of the opponent
    (word-parallel over the anchors) leaves that way open; only the few that do are checked by a flood.
    A placement that completes the connection is always kept: it wins, so no way is needed any more.
    """
    fast = setup.kernel.keeps_a_way(setup, st, player, options)
    if fast is not None:
        return fast
    opp = 1 - player
    path = way(setup, st, opp)
    if not path:
        return options
    near = setup.n8(path)
    owners = list(st.owners)
    out = []
    for shape, anchors in options:
        hit = 0
        for off in setup.shape_offs[shape]:
            hit |= near >> off
        risky = anchors & hit
        ok = anchors & ~hit
        while risky:
            low = risky & -risky
            risky ^= low
            owners[player] = st.owners[player] | (setup.shape_masks[shape] << (low.bit_length() - 1))
            if connects(setup, owners[player], player) or can_connect(setup, replace(st, owners=tuple(owners)), opp):
                ok |= low  # a connecting element wins at once, whatever way it takes
        if ok:
            out.append((shape, ok))
    return out


def connects(setup: Setup, own: int, player: int) -> bool:
    """Whether the squares ``own`` of ``player`` join both black squares (edge to edge): the win."""
    return bool(setup.flood(setup.stars[player], own | setup.stars[0] | setup.stars[1]) & setup.stars[1 - player])


NO_WAY = 999
"""What :func:`squares_needed` says when there is no way at all (more than any template has squares)."""


def squares_needed(setup: Setup, st: State, player: int) -> int:
    """How many squares ``player`` still has to draw to connect (the length of :func:`way`); a large
    number when there is no way."""
    path = way(setup, st, player)
    return path.bit_count() if path else NO_WAY


# ---------------------------------------------------------------------------------------------- cards
def draw_card(setup: Setup, st: State) -> Card:
    """The card the state's own generator draws now (constant time)."""
    if setup.generator is not None:
        return setup.generator.draw(st.rng)[0]
    if setup.deck_shuffle:
        i, _ = below(st.rng, len(st.deck))
        return Card.from_id(st.deck[i])
    return Card.from_id(st.deck[0])


def apply_card(setup: Setup, st: State, card: Card) -> State:
    """Reveal ``card`` (drawn or forced): advance the generator, take it from the deck, start placing."""
    rng, deck = st.rng, st.deck
    if setup.generator is not None:
        rng = setup.generator.draw(rng)[1]
    else:
        if setup.deck_shuffle:
            rng = below(rng, len(deck))[1]
        i = deck.index(card.id)
        deck = deck[:i] + deck[i + 1 :] or setup.deck  # an empty deck is shuffled back in whole
    st = replace(
        st, rng=rng, deck=deck, card=card.id, left=card.count, placed=0, phase=PLACE, cards_drawn=st.cards_drawn + 1
    )
    return _continue(setup, st)


# ---------------------------------------------------------------------------------------------- lines
def window(setup: Setup, direction: int, start: int) -> int:
    """The squares of the line in ``direction`` from bit ``start`` (memoised in the setup)."""
    key = (direction, start)
    m = setup.windows.get(key)
    if m is None:
        off = (1, setup.S, setup.S + 1, setup.S - 1)[direction]
        m = 0
        for i in range(setup.rules.length):
            m |= 1 << (start + off * i)
        setup.windows[key] = m
    return m


def forbidden(setup: Setup, st: State) -> list[int]:
    """Per direction (0-3): the squares a new line in that direction may not share, those of the lines
    claimed in that direction (EASY) or in any direction (HARD)."""
    by_dir = [0, 0, 0, 0]
    every = 0
    for _, d, b in st.lines:
        m = window(setup, d, b)
        by_dir[d] |= m
        every |= m
    return [every] * 4 if setup.rules.difficulty == "hard" else by_dir


def claimable(setup: Setup, st: State) -> list[tuple[int, int, int]]:
    """(direction, start bit, mask) of every line that may be claimed now.

    A line is ``length`` drawn squares in a row; EASY: it shares no square with a claimed line in the
    same direction; HARD: with no claimed line at all.
    """
    drawn = st.drawn
    L = setup.rules.length
    avoid = forbidden(setup, st)
    out = []
    for d, off in setup.line_offsets:
        acc = drawn
        for i in range(1, L):
            acc &= drawn >> (off * i)
            if not acc:
                break
        forbid = avoid[d]
        for b in bits(acc):
            m = window(setup, d, b)
            if not m & forbid:
                out.append((d, b, m))
    return out


def _compatible(hard: bool, a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    if hard or a[0] == b[0]:
        return not a[2] & b[2]
    return True


def _claims(setup: Setup, st: State) -> State:
    """Claim every new line for the mover; stop for a choice when the candidates exclude each other."""
    cands = claimable(setup, st)
    if not cands:
        return st
    hard = setup.rules.difficulty == "hard"
    if all(_compatible(hard, a, b) for i, a in enumerate(cands) for b in cands[i + 1 :]):
        st = replace(st, lines=st.lines + tuple((st.turn, d, b) for d, b, _ in cands))
        return _check_lines_win(setup, st)
    return replace(st, phase=CLAIM)


def _check_lines_win(setup: Setup, st: State) -> State:
    mine = sum(1 for o, _, _ in st.lines if o == st.turn)
    if mine >= setup.rules.target:
        return replace(st, phase=OVER, winners=(st.turn,), left=0)
    return st


def apply_claim(setup: Setup, st: State, direction: int, start: int) -> State:
    st = replace(st, lines=(*st.lines, (st.turn, direction, start)), phase=PLACE)
    st = _check_lines_win(setup, st)
    if st.phase == OVER:
        return st
    st = _claims(setup, st)
    if st.phase != PLACE:
        return st
    return _continue(setup, st)


# ---------------------------------------------------------------------------------------------- placing
def apply_place(setup: Setup, st: State, mask: int) -> State:
    """The state after the mover draws the element covering squares ``mask``: claims, a finished area, a
    connection or a number, then the next element or the end of the turn."""
    p = st.turn
    owners = (*st.owners[:p], st.owners[p] | mask, *st.owners[p + 1 :])
    st = replace(st, owners=owners, left=st.left - 1, placed=st.placed + 1, last=mask, fails=0)
    goal = setup.rules.goal
    if goal == "lines":
        st = _claims(setup, st)
        if st.phase != PLACE:
            return st
    elif goal == "areas":
        area = setup.areas[st.area]
        if not area & ~st.drawn:
            st = _finish_area(setup, st)
            return _end_turn(setup, st)
    elif goal == "connection":
        if connects(setup, st.owners[p], p):
            return replace(st, phase=OVER, winners=(p,), left=0)
    else:
        k = len(st.numbers)
        if mask & setup.numbers[k]:
            st = replace(st, numbers=(*st.numbers, p))
            if len(st.numbers) == len(setup.numbers):
                return _game_over(setup, replace(st, left=0))
    return _continue(setup, st)


def _continue(setup: Setup, st: State) -> State:
    """Next element of the card, or the end of the turn if none is left or none can be placed."""
    if st.left > 0 and placements(setup, st, st.turn):
        return replace(st, phase=PLACE)
    return _end_turn(setup, st)


def _finish_area(setup: Setup, st: State) -> State:
    area = setup.areas[st.area]
    points = tuple(pt + (own & area).bit_count() for pt, own in zip(st.points, st.owners, strict=True))
    return replace(st, points=points, done_areas=st.done_areas | (1 << st.area), area=-1, fails=0)


def _end_turn(setup: Setup, st: State) -> State:
    n = setup.players
    goal = setup.rules.goal
    st = replace(st, unused=st.left, left=0, card=-1)
    if goal == "areas":
        if st.placed == 0 and st.area >= 0:
            st = replace(st, fails=st.fails + 1)
            if st.fails >= n:
                st = _finish_area(setup, st)
    elif (st.placed == 0 and _blocked(setup, st)) or _hopeless(setup, st):
        return _game_over(setup, st)
    st = replace(st, turn=(st.turn + 1) % n, placed=0)
    return _start_turn(setup, st)


def _start_turn(setup: Setup, st: State) -> State:
    if setup.rules.goal == "areas" and st.area < 0:
        remaining = [i for i in range(len(setup.areas)) if not st.done_areas >> i & 1]
        if not remaining:
            return _game_over(setup, st)
        if len(remaining) == 1:
            return replace(st, area=remaining[0], phase=DRAW)
        return replace(st, phase=CHOOSE)
    return replace(st, phase=DRAW)


def start_state(setup: Setup, st: State) -> State:
    return _start_turn(setup, st)


def apply_choose(setup: Setup, st: State, area: int) -> State:
    return replace(st, area=area, phase=DRAW, fails=0)


def _blocked(setup: Setup, st: State) -> bool:
    """True when no card that can ever be drawn has a legal placement for any player."""
    who = range(setup.players) if setup.rules.goal == "connection" else (st.turn,)
    for p in who:
        if not constraints(setup, st, p)[1]:
            continue
        for orients, edges_list in setup.possible:
            for e in edges_list:
                if _anchors(setup, st, p, orients, e):
                    return False
    return True


def can_connect(setup: Setup, st: State, player: int) -> bool:
    """Whether ``player`` could still ever connect: a path of squares they may use (free, not touching
    the opponent) leads from their drawing to the other start square. Those squares only shrink, so
    once there is no path there never will be one."""
    _, allowed, touch = constraints(setup, st, player)
    assert touch is not None
    region = setup.flood(touch & allowed, allowed) | st.owners[player] | setup.stars[player]
    return bool(setup.n4(region) & setup.stars[1 - player])


def number_reachable(setup: Setup, st: State) -> bool:
    """Whether the next number can still be covered: it is reachable from the drawing through squares
    an element may cover (free, no other number). Those only shrink until the number is claimed."""
    k = len(st.numbers)
    if k >= len(setup.numbers) or not setup.rules.connect or not st.drawn:
        return True
    _, allowed, touch = constraints(setup, st, st.turn)
    assert touch is not None
    return bool(setup.flood(touch & allowed, allowed) & setup.numbers[k])


def _hopeless(setup: Setup, st: State) -> bool:
    """The goal can no longer be reached by anyone: the game ends (connection: a draw; numbers: the
    numbers claimed so far decide)."""
    goal = setup.rules.goal
    if goal == "connection":
        return not (can_connect(setup, st, 0) or can_connect(setup, st, 1))
    if goal == "numbers":
        return not number_reachable(setup, st)
    return False


def scores(setup: Setup, st: State) -> tuple[int, ...]:
    n = setup.players
    goal = setup.rules.goal
    if goal == "lines":
        out = [0] * n
        for o, _, _ in st.lines:
            out[o] += 1
        return tuple(out)
    if goal == "areas":
        return st.points
    if goal == "connection":
        return tuple(1 if (p in st.winners and len(st.winners) == 1) else 0 for p in range(n))
    out = [0] * n
    for o in st.numbers:
        out[o] += 1
    return tuple(out)


def _game_over(setup: Setup, st: State) -> State:
    if setup.rules.goal == "connection":  # nobody connected: fewer squares still needed wins
        need = [squares_needed(setup, st, p) for p in (0, 1)]
        winners = (0, 1) if need[0] == need[1] else (need.index(min(need)),)
        return replace(st, phase=OVER, winners=winners, left=0, card=-1)
    sc = scores(setup, st)
    best = max(sc)
    return replace(st, phase=OVER, winners=tuple(p for p in range(setup.players) if sc[p] == best), left=0, card=-1)


def deal(setup: Setup, seed: int) -> Iterator[Card]:
    """The cards a game with this setup and seed deals, in order, forever (companion mode).

    Exactly the sequence :func:`draw_card` and :func:`apply_card` produce in a digital game with the
    same options and seed, so a paper game and a digital one can follow the same deal.
    """
    rng = seed_state(seed)
    deck = setup.deck
    while True:
        if setup.generator is not None:
            card, rng = setup.generator.draw(rng)
        else:
            i = 0
            if setup.deck_shuffle:
                i, rng = below(rng, len(deck))
            card = Card.from_id(deck[i])
            j = deck.index(card.id)
            deck = deck[:j] + deck[j + 1 :] or setup.deck
        yield card
