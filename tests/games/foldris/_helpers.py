"""Build Foldris positions from drawings, for scenario and golden tests."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from polytable.games.foldris import GAME, WIDTH, FoldrisState, Sheet, Variant, deck_of, fold, rest_row

__all__ = ["GAME", "drop", "make_sheet", "make_state", "picture", "rules_drop", "solo_positions"]


def make_sheet(
    drawing: str = "", height: int = 12, bonus: int = 2, lines: int | None = None, out: int = 0, full: int = 12
) -> Sheet:
    """Rows top to bottom (the last given row is row 1): ``#`` ink, ``=`` barrier, ``.`` empty."""
    rows = [r.strip() for r in drawing.strip().splitlines() if r.strip()]
    ink = barrier = 0
    for r, row in enumerate(reversed(rows)):
        assert len(row) == 8, row
        for c, ch in enumerate(row):
            if ch == "#":
                ink |= 1 << (8 * r + c)
            elif ch == "=":
                barrier |= 1 << (8 * r + c)
    return Sheet(ink, barrier, height, full - height if lines is None else lines, bonus, out)


def make_state(
    sheets: Sequence[Sheet],
    card: tuple[str, int] | None = ("T", 3),
    options: Mapping[str, object] | None = None,
    deck_left: Sequence[tuple[str, int]] | None = None,
    round_: int = 1,
) -> FoldrisState:
    """A state in a round where ``card`` is face up (None: between rounds, a reveal is next)."""
    config = GAME.spec.config(options or {}, len(sheets))
    cards = deck_of(config).cards
    taken: set[int] = set()
    index = -1
    if card is not None:
        index = cards.index(card)
        taken.add(index)
    if deck_left is None:
        deck = tuple(i for i in range(len(cards)) if i not in taken)
    else:
        chosen = []
        for c in deck_left:
            chosen.append(next(i for i in range(len(cards)) if cards[i] == c and i not in taken and i not in chosen))
        deck = tuple(sorted(chosen))
    return FoldrisState(config, tuple(sheets), deck, 1, round_, index, (None,) * len(sheets), 12345)


def picture(sheet: Sheet) -> str:
    """The sheet as rows top to bottom (the inverse of make_sheet), for readable assertions."""
    out = []
    for r in range(sheet.height - 1, -1, -1):
        row = ""
        for c in range(8):
            bit = 1 << (8 * r + c)
            row += "#" if sheet.ink & bit else "=" if sheet.barrier & bit else "."
        out.append(row)
    return "\n".join(out)


def drop(state: FoldrisState, text: str, player: int = 0) -> FoldrisState:
    return GAME.apply(state, GAME.parse_action(text, state), player)


def solo_positions(
    bot: str,
    seeds: Iterable[int],
    keep: Callable[[FoldrisState], bool],
    count: int | None = None,
    last_round: int = 99,
) -> list[FoldrisState]:
    """The positions (a card revealed) of solo games played by AI ``bot`` on ``seeds`` that ``keep`` accepts,
    in order of play: at most ``count`` (the seeds are played until there are that many), up to ``last_round``."""
    from polytable.ai import make_bot
    from polytable.core import CHANCE, Rng

    player = make_bot(bot, "foldris")
    out: list[FoldrisState] = []
    for seed in seeds:
        rng = Rng(seed, 1)
        state = GAME.new_game(seed=seed, players=1)
        while not GAME.is_terminal(state) and state.round <= last_round:
            if GAME.current_player(state) == CHANCE:
                state = GAME.apply_chance(state)
                continue
            if keep(state):
                out.append(state)
            state = GAME.apply(state, player.choose(GAME, state, 0, rng), 0)
        if count is not None and len(out) >= count:
            return out[:count]
    return out


def rules_drop(v: Variant, ink: int, hts: tuple[int, ...], col: int) -> tuple[int, int, int]:
    """A drop resolved step by step as the rules put it (a reference for the searches' inlined loops):
    (resting row, ink after folding every completed row, rows folded)."""
    y = rest_row(v, hts, col)
    new = ink | (v.bits << (WIDTH * y + col))
    n = 0
    for r in range(y + v.height - 1, y - 1, -1):
        if (new >> (WIDTH * r)) & 0xFF == 0xFF:
            new, n = fold(new, r), n + 1
    return y, new, n
