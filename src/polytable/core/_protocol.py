"""The one protocol every game implements, and the thin wrapper that applies the rules shared by all.

The shape follows OpenSpiel's Game/State split and pgx's pure functions:

* A *state* is an immutable value (a frozen dataclass of ints, tuples and strings) that carries its
  :class:`~polytable.core.Config`. Nothing ever mutates a state; ``apply`` returns a new one, so search,
  undo and replay are trivial and a bug cannot corrupt a position held elsewhere.
* A *game* is a stateless object with the rules as methods taking a state. Subclasses implement the
  underscore hooks; the public methods add what every game shares (turn checks, terminal checks, error
  messages) exactly once.
* Whose move it is: :meth:`Game.current_player` returns a player index (0-based), :data:`CHANCE`,
  :data:`SIMULTANEOUS` (several players choose at once; :meth:`Game.acting_players` says who has not
  chosen yet, and a view never shows another player's pending choice) or :data:`TERMINAL`.
* Chance is explicit: at a chance node :meth:`Game.chance_outcome` draws the outcome from the generator
  state stored *inside* the game state (see :mod:`polytable.core._rng`) in constant time; applying any
  chance outcome advances that generator. A match records chance outcomes like moves, so a game replays
  exactly from (game, rules version, config, seed, action log), and tests or search may force outcomes.
* Actions are hashable values with a canonical text notation (:meth:`Game.format_action` /
  :meth:`Game.parse_action` round-trip) and a dense integer id in ``range(num_distinct_actions)``.
* Legal actions are a lazy view (:class:`LegalActions`): iterate, count, test membership or sample one
  uniformly without building a list unless the game has nothing better.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from ._companion import Companion
from ._engine import load_kernel
from ._errors import IllegalActionError, StateFormatError, phrase
from ._rng import Rng
from ._said import decided
from ._spec import Config, GameSpec

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "Game",
    "GameState",
    "LegalActions",
    "player_name",
    "turns_in_rotation",
]

CHANCE = -1
"""``current_player`` at a chance node (a card reveal, a roll, a draw)."""
SIMULTANEOUS = -2
"""``current_player`` while several players choose at once (see ``acting_players``)."""
TERMINAL = -4
"""``current_player`` once the game is over."""


class GameState(Protocol):
    """What the kernel needs from every state: its configuration."""

    @property
    def config(self) -> Config: ...


S = TypeVar("S", bound=GameState)
A = TypeVar("A")


def player_name(player: int) -> str:
    """How a player index is shown to people: ``Player 1`` for index 0; chance is ``chance``."""
    if player == CHANCE:
        return "chance"
    return f"Player {player + 1}"


def turns_in_rotation(begun: int, players: int, first: int = 0) -> tuple[int, ...]:
    """Each player's turns begun when ``begun`` turns have begun in seat order from ``first`` (the answer
    of :meth:`Game.turns_begun` for a game whose turns go round the table without skipping anyone)."""
    return tuple(max(0, (begun - (p - first) % players + players - 1) // players) for p in range(players))


class LegalActions(Generic[A]):
    """A lazy view of the legal actions of one player in one state (like python-chess's ``legal_moves``).

    ``len()`` and :meth:`count` count without building a list where the game can; ``in`` checks one action
    with the same test ``apply`` uses; :meth:`sample` draws one uniformly at random.
    """

    __slots__ = ("_game", "_player", "_state")

    def __init__(self, game: Game[Any, A], state: Any, player: int) -> None:
        self._game = game
        self._state = state
        self._player = player

    def __iter__(self) -> Iterator[A]:
        return iter(self._game._legal(self._state, self._player))

    def __len__(self) -> int:
        return self._game._count(self._state, self._player)

    def count(self) -> int:
        return self._game._count(self._state, self._player)

    def __bool__(self) -> bool:
        return self._game._any(self._state, self._player)

    def __contains__(self, action: object) -> bool:
        try:
            self._game._check(self._state, action, self._player)  # type: ignore[arg-type]
        except IllegalActionError:
            return False
        return True

    def sample(self, rng: Rng) -> A:
        """One legal action, uniformly at random."""
        return self._game._sample(self._state, self._player, rng)

    def notation(self, limit: int | None = None) -> list[str]:
        """The legal actions' notation (``format_action`` of each) in iteration order, at most ``limit``.

        What a client is shown after every change (the web app lists the acting seats' moves), so a game
        whose actions' text follows from a compact form (an index into a table) may answer without making
        the action values; this is the reference every such answer must equal."""
        game, state = self._game, self._state
        actions = iter(self) if limit is None else islice(self, limit)
        return [game.format_action(a, state) for a in actions]

    def ids(self) -> list[int]:
        """The dense integer ids of the legal actions, sorted."""
        game, state = self._game, self._state
        return sorted(game.action_id(a, state) for a in self)

    def mask(self) -> list[bool]:
        """An action mask of length ``num_distinct_actions`` (PettingZoo's ``action_mask``)."""
        out = [False] * self._game.num_distinct_actions(self._state.config)
        for i in self.ids():
            out[i] = True
        return out

    def __repr__(self) -> str:
        return f"<LegalActions of {player_name(self._player)}: {self.count()}>"


class Game(ABC, Generic[S, A]):
    """Base class of every game. Subclasses set ``spec`` and implement the hooks marked abstract."""

    spec: ClassVar[GameSpec]
    companion: ClassVar[Companion[Any] | None] = None
    """Set by a game whose cards the app can deal for people playing on paper (companion mode)."""
    compiled_kernel: ClassVar[str | None] = None
    """The dotted name of the game's compiled kernel (a C extension built with the package), if it has one."""

    def __init__(self, engine: str = "auto") -> None:
        """The game on ``engine``: "pure" (the Python rules, the reference), "compiled" (its kernel) or
        "auto" (the kernel when it is built and ``POLYTABLE_PURE`` is not set). Chosen once, here."""
        ext = load_kernel(engine, self.compiled_kernel, self.spec.id)
        self.engine = "pure" if ext is None else "compiled"
        """The engine this game object runs: "pure" or "compiled"."""
        self._use_kernel(ext)

    def _use_kernel(self, ext: Any) -> None:
        """Hook: a game with a compiled kernel binds its kernel object here (``ext`` None: the pure one)."""

    def with_engine(self, engine: str) -> Game[S, A]:
        """This game on ``engine`` (see ``__init__``): itself when it already runs that engine."""
        ext = load_kernel(engine, self.compiled_kernel, self.spec.id)
        return self if ("pure" if ext is None else "compiled") == self.engine else type(self)(engine)

    # ------------------------------------------------------------------ set-up
    def new_game(self, options: Mapping[str, object] | None = None, seed: int = 0, players: int | None = None) -> S:
        """A new game from options (validated by the spec), a player count and a seed."""
        config = self.spec.config(options, players)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise StateFormatError(
                f"the seed must be a whole number, not {seed!r}", "action.seed_type", {"seed": f"{seed!r}"}
            )
        return self._new(config, seed)

    @abstractmethod
    def _new(self, config: Config, seed: int) -> S:
        """The initial state for a validated config."""

    # ------------------------------------------------------------------ whose move
    @abstractmethod
    def current_player(self, state: S) -> int:
        """A player index, or CHANCE, SIMULTANEOUS or TERMINAL."""

    def acting_players(self, state: S) -> tuple[int, ...]:
        """The players who may act now: one player, or those who have not chosen yet in a simultaneous
        round; empty at chance nodes and at the end."""
        cp = self.current_player(state)
        if cp >= 0:
            return (cp,)
        if cp == SIMULTANEOUS:
            raise NotImplementedError(f"{type(self).__name__} must implement acting_players")
        return ()

    def is_terminal(self, state: S) -> bool:
        return self.current_player(state) == TERMINAL

    def is_chance(self, state: S) -> bool:
        return self.current_player(state) == CHANCE

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, state: S, player: int | None = None) -> LegalActions[A]:
        """The legal actions of ``player`` (default: the one player to act, or chance)."""
        return LegalActions(self, state, self._resolve_player(state, player))

    @abstractmethod
    def _legal(self, state: S, player: int) -> Iterable[A]:
        """Every legal action of ``player``, each once (a generator is best)."""

    def _count(self, state: S, player: int) -> int:
        return sum(1 for _ in self._legal(state, player))

    def _any(self, state: S, player: int) -> bool:
        return any(True for _ in self._legal(state, player))

    def _sample(self, state: S, player: int, rng: Rng) -> A:
        """Uniform choice: count, pick an index, walk to it. Games override with something faster."""
        n = self._count(state, player)
        if n == 0:
            raise IllegalActionError(f"{player_name(player)} has no legal action", "no_action", {"player": player + 1})
        k = rng.below(n)
        for i, action in enumerate(self._legal(state, player)):
            if i == k:
                return action
        raise AssertionError("legal action count and iteration disagree")

    def sample_and_apply(self, state: S, player: int, rng: Rng) -> tuple[A, S]:
        """A uniformly random legal action of ``player`` and the state after it, in one step.

        Playouts use it: a game that knows its drawn action is legal (and what it covers) overrides it to
        skip the check and the re-derivation; the answer is the same as ``sample`` then ``apply``.
        """
        action = self._sample(state, player, rng)
        return action, self.apply(state, action, player)

    # ------------------------------------------------------------------ applying
    def apply(self, state: S, action: A, player: int | None = None) -> S:
        """The state after ``player`` (default: the one player to act) takes ``action``.

        Raises :class:`IllegalActionError` with a message for a person if the action is malformed or
        illegal, or if it is not that player's turn; the input state is never changed.
        """
        who = self._resolve_player(state, player)
        self._check(state, action, who)
        return self._apply(state, action, who)

    def playout(self, state: S, rngs: Sequence[Rng], max_actions: int | None = None) -> tuple[S, int]:
        """Uniformly random legal actions from ``state`` until the game ends (or ``max_actions`` player
        actions): the player ``p`` to act draws with ``rngs[p]`` (one generator in ``rngs``: it serves
        every seat), chance outcomes come from the state. Returns the final state and the number of
        player actions taken.

        Exactly what a match of ``random`` bots does step by step (``legal_actions(s, p).sample(rng)``,
        then ``apply``); games with a compiled kernel override it with the same results, faster."""
        taken = 0
        while True:
            cp = self.current_player(state)
            if cp == CHANCE:
                state = self.apply(state, self.chance_outcome(state), CHANCE)
                continue
            if cp == TERMINAL or (max_actions is not None and taken >= max_actions):
                return state, taken
            for p in self.acting_players(state) if cp == SIMULTANEOUS else (cp,):
                rng = rngs[p] if len(rngs) > 1 else rngs[0]
                state = self.apply(state, self.legal_actions(state, p).sample(rng), p)
                taken += 1
                if self.current_player(state) != SIMULTANEOUS:
                    break

    def apply_text(self, state: S, text: str, player: int | None = None) -> S:
        """Parse ``text`` in the game's notation and apply it."""
        return self.apply(state, self.parse_action(text, state), player)

    def apply_chance(self, state: S) -> S:
        """At a chance node: draw the outcome from the state's own generator and apply it."""
        return self.apply(state, self.chance_outcome(state), CHANCE)

    def check_undo(self, state: S, action: A, player: int) -> None:
        """Raise :class:`IllegalActionError` (why, for a person) if ``player`` may not take back ``action``,
        taken in ``state``, even though nothing was revealed since: a binding decision such as Forma's
        touch-move pick. By default every decision may be taken back (``Match.undo_span`` says when)."""

    @abstractmethod
    def _check(self, state: S, action: A, player: int) -> None:
        """Raise IllegalActionError (message for a person) unless ``action`` is legal for ``player``."""

    @abstractmethod
    def _apply(self, state: S, action: A, player: int) -> S:
        """Apply an action already checked by ``_check``."""

    def _resolve_player(self, state: S, player: int | None) -> int:
        cp = self.current_player(state)
        if cp == TERMINAL:
            raise IllegalActionError("the game is over: no more actions can be taken", "over")
        if cp == SIMULTANEOUS:
            acting = self.acting_players(state)
            if player is None:
                if len(acting) == 1:
                    return acting[0]
                names = ", ".join(player_name(p) for p in acting)
                raise IllegalActionError(
                    f"several players choose now ({names}); say which player acts",
                    "who",
                    {"players": ", ".join(str(p + 1) for p in acting)},
                )
            if player not in acting:
                if 0 <= player < state.config.players:
                    raise IllegalActionError(
                        f"{player_name(player)} has already chosen or is out of the game",
                        "chosen",
                        {"player": player + 1},
                    )
                raise IllegalActionError(
                    f"there is no player {player + 1} in this game", "no_player", {"player": player + 1}
                )
            return player
        if player is None or player == cp:
            return cp
        if cp == CHANCE:
            raise IllegalActionError("the next step is a chance event, not a player's move", "chance")
        raise IllegalActionError(
            f"it is {player_name(cp)}'s turn, not {player_name(player)}'s",
            "turn",
            {"turn": cp + 1, "player": player + 1},
        )

    # ------------------------------------------------------------------ chance
    def chance_outcome(self, state: S) -> A:
        """The outcome the state's own generator draws at this chance node (constant time)."""
        raise NotImplementedError(f"{self.spec.name} has no chance nodes")

    def chance_outcomes(self, state: S) -> list[tuple[A, float]]:
        """Every outcome with its probability, where that list is small enough to be useful."""
        raise NotImplementedError(f"{self.spec.name} does not enumerate chance outcomes here")

    def determinize(self, state: S, player: int, rng: Rng) -> S:
        """A state consistent with what ``player`` knows, hidden parts resampled (for AI search).

        Perfect-information games return the state itself. Games with chance must at least replace the
        generator state (the future is unknown to every player: ``rng.u64()`` is a fine new one); games
        with hidden order (deck, bag) reshuffle the unseen part; simultaneous games replace the other
        players' pending choices of this round by ones ``player`` could imagine (or clear them).
        """
        return state

    # ------------------------------------------------------------------ results
    @abstractmethod
    def scores(self, state: S) -> tuple[float, ...]:
        """Each player's score now (points, lines, numbers: the game's own measure)."""

    @abstractmethod
    def winners(self, state: S) -> tuple[int, ...]:
        """The winners of a finished game (several on a shared win); empty before the end."""

    def returns(self, state: S) -> tuple[float, ...]:
        """Utilities at the end, zero-sum: ``n/k - 1`` for each of ``k`` winners among ``n`` players and
        ``-1`` for the others (a 2-player win is +1/-1, a tie 0/0). Zero everywhere before the end.
        One-player games override this (usually the score scaled to [0, 1])."""
        n = state.config.players
        if not self.is_terminal(state):
            return (0.0,) * n
        won = set(self.winners(state))
        if not won or len(won) == n:
            return (0.0,) * n
        share = n / len(won) - 1.0
        return tuple(share if p in won else -1.0 for p in range(n))

    def outcome(self, state: S) -> dict[str, object]:
        """Why a finished game ended as it did, for people: a coded phrase (:mod:`polytable.core._said`)
        naming what ended it and what decided it (the scores, a tie-break, a shared win). Interfaces show it
        under the result. By default: the most points wins, equal points share the win."""
        return decided(self.scores(state), self.winners(state))

    def result(self, state: S) -> dict[str, object]:
        """A JSON-compatible summary of the end: scores, winners (0-based) and returns."""
        return {
            "scores": list(self.scores(state)),
            "winners": list(self.winners(state)),
            "returns": list(self.returns(state)),
            "terminal": self.is_terminal(state),
        }

    # ------------------------------------------------------------------ notation and ids
    @abstractmethod
    def format_action(self, action: A, state: S | None = None) -> str:
        """The canonical text of an action (``parse_action`` reads it back)."""

    @abstractmethod
    def parse_action(self, text: str, state: S | None = None) -> A:
        """Read an action from text, or raise IllegalActionError saying what is wrong with it."""

    @abstractmethod
    def num_distinct_actions(self, config: Config) -> int:
        """How many action ids exist for this config (the length of an action mask)."""

    @abstractmethod
    def action_id(self, action: A, state: S | None = None) -> int:
        """The dense integer id of an action, in ``range(num_distinct_actions)``."""

    @abstractmethod
    def action_from_id(self, action_id: int, state: S) -> A:
        """The action with this id (IllegalActionError if the id is out of range)."""

    # ------------------------------------------------------------------ serialisation and views
    @abstractmethod
    def state_to_dict(self, state: S) -> dict[str, Any]:
        """The whole state (hidden parts included) as JSON-compatible data."""

    @abstractmethod
    def state_from_dict(self, data: Mapping[str, Any]) -> S:
        """Rebuild and validate a state; StateFormatError with a clear message if it is malformed."""

    @abstractmethod
    def view(self, state: S, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (None: a spectator), as JSON-compatible data. Never contains hidden
        order (deck, bag, generator state) or another player's pending simultaneous choice."""

    @abstractmethod
    def render(self, state: S, player: int | None = None, color: bool = False) -> str:
        """A terminal rendering of what ``player`` may see (None: a spectator). ``color`` adds ANSI
        colours; without it the text must still be readable (letters and symbols)."""

    def describe_action(self, action: A, state: S) -> str:
        """A sentence for people and screen readers; the notation by default."""
        return self.format_action(action, state)

    def narrate(self, action: A, state: S, after: S, player: int) -> dict[str, object]:
        """``action`` by ``player`` (or chance), taken in ``state`` and leading to ``after``, in words for the
        game's history: a coded phrase (:mod:`polytable.core._said`) whose ``seat`` param is shown by name.
        By default the English sentence of :meth:`describe_action` after the mover's name."""
        return phrase(
            "said.plain",
            f"{player_name(player)}: {self.describe_action(action, state)}",
            {"seat": player, "text": self.describe_action(action, state)},
        )

    # ------------------------------------------------------------------ the game's own units (balance reports)
    def turns_begun(self, state: S) -> tuple[int, ...]:
        """How many turns each player has begun, as the rulebook counts turns (a turn in progress counts;
        a set-up before the first turn does not). A round is every player having one turn, so the rounds
        played are the most turns any player began. Balance reports measure length in these units rather
        than in actions (a Forma turn is a pick and a placement, a FORMFINITY turn a card and its elements).
        Every game implements it; the conformance suite checks it never decreases."""
        raise NotImplementedError(f"{self.spec.name} does not count its turns")

    def decision_kind(self, state: S, player: int) -> str:
        """What kind of decision ``player`` faces in ``state`` (``pick``, ``place``, ``reroll``, ``element``,
        ``drop``...): balance reports give the branching factor of each kind apart, as a pick among 21
        pieces and a placement among thousands are not one quantity. One kind, ``move``, by default."""
        return "move"

    def score_unit(self, config: Config) -> str | None:
        """What the scores count in this configuration (``points``, ``lines``...), or None when they are
        no running tally (a win or a loss only). Reports test scores only between configurations with the
        same unit, and follow the lead over a game only where the scores are a running tally."""
        return "points"

    # ------------------------------------------------------------------ testing
    def sample_configs(self) -> list[tuple[dict[str, object], int]]:
        """(options, players) pairs that together cover every variant and player count; the conformance
        suite plays seeded random games in each. Games with variants override this."""
        return [({}, n) for n in range(self.spec.min_players, self.spec.max_players + 1)]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec.id} rules {self.spec.rules_version}>"
