"""Batches of games held and stepped in C, behind :class:`polytable.interop.vector.VectorEnv`.

A batch keeps every game's state in one C buffer and steps all of them in one call: the actions are
checked against the masks, each action id applied, chance settled, and the next observation planes and
legal mask written into the environment's NumPy rows (only what changed: each game's slot remembers what
its rows hold), with no Python object made per game. New games come from the Python rules (``Game.new_game``,
once a game) and are loaded into the buffer; a game's state can be read back (``state``) for rendering and
for the differential tests (``tests/interop/test_vector_fast.py``), which check that a batch gives the
same observations, masks, rewards, terminations and states as the pure rules with the reference encoders.

Built for Forma, Quadefy, Foldris, Qwirkle Cubes and FORMFINITY (``polytable.games.forma._cforma_vec``,
``polytable.games.quadefy._cquadefy_vec``, ``polytable.games.foldris._cfoldris_vec``,
``polytable.games.qwirkle_cubes._cqwirkle_vec``, ``polytable.games.formfinity._cformfinity_vec``, compiled by
the package build with each kernel's own rules);
the other games, games with opponents inside the call, and ``POLYTABLE_PURE=1`` step through the tables.
Foldris' and Qwirkle Cubes' batches settle their chance events in C from each game's generator and start the
next game of a game that ended themselves (Qwirkle Cubes' from a seed per game, :attr:`Batch.seeds`), so a
game plays the same for a seed whatever the number of games.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from ..core import Game, IllegalActionError, native_module
from ._table import Table

__all__ = ["Batch", "BatchTable", "batch_for", "table_for"]


class Batch:
    """N games of one configuration in C (see the module docstring); a game's subclass loads and reads back
    its states."""

    def __init__(self, ext: Any, game: Game[Any, Any], first: Any, num_envs: int, size: int) -> None:
        self.ext = ext
        self.game = game
        self.config = first.config
        self.size = size
        self.states = np.zeros(num_envs * int(ext.state_bytes()), np.uint8)
        self.ids = np.empty(num_envs * int(ext.NUM_IDS), np.int32)  # each game's legal ids (pages touched on use)
        self.index = np.zeros(0, np.int32)
        self.fresh: npt.NDArray[np.uint8] | None = None
        """A game without chance: every new game's state, which the batch restarts ended games from."""
        self.seeds: npt.NDArray[np.int64] | None = None
        """Where set: each game's next seed, which the batch starts the next game of a game that ended from
        (the caller keeps them up to date)."""
        self._words_of: object = None
        self.words: npt.NDArray[np.uint32] | None = None

    def attach(self, env: Any) -> None:
        """The vector env the batch serves (a batch that starts its games' next episodes itself reads the
        env's seed and episode counts); nothing by default."""

    def play(self, env: Any, actions: npt.NDArray[np.int64]) -> bool:
        """The vector env's whole step in one call (the actions checked against the masks, applied, the
        terminations and episode counts written, ended games restarted), True; or False: the env steps
        through :meth:`step`."""
        return False

    def seed_words(self, env: Any) -> npt.NDArray[np.uint32] | None:
        """The env's seed as NumPy's entropy words (at most 12; None for a seed that is not such an int), for a
        batch whose step derives its games' next seeds in C as ``episode_seed`` does (kept while the seed is)."""
        seed = env._seed
        if seed is not self._words_of:
            self._words_of = seed
            self.words = None
            if type(seed) is int and 0 <= seed < 1 << 384:
                n = max(1, -(-seed.bit_length() // 32))
                self.words = np.array([seed >> (32 * k) & 0xFFFFFFFF for k in range(n)], np.uint32)
        return self.words

    def load(self, i: int, s: Any) -> None:
        """Game ``i`` becomes the (Python) state ``s``."""
        raise NotImplementedError

    def state(self, i: int) -> Any:
        """Game ``i``'s state as the Python rules hold it."""
        raise NotImplementedError

    def write(self, i: int, obs: npt.NDArray[np.uint8], masks: npt.NDArray[np.int8], to_act: Any) -> None:
        """Game ``i``'s seat to act, observation and mask into row ``i`` of the buffers."""
        self.ext.write(self.states, self.ids, self.size, i, obs, masks, self.index, to_act)

    def step(
        self,
        actions: npt.NDArray[np.int64],
        obs: npt.NDArray[np.uint8],
        masks: npt.NDArray[np.int8],
        to_act: Any,
        rewards: npt.NDArray[np.float32],
        returns: npt.NDArray[np.float32],
        ended: npt.NDArray[np.bool_],
    ) -> int:
        """One action per game (int64, C-contiguous), each checked against its mask row before any game moves
        (ValueError naming the first game at fault); the rows of the games that go on are rewritten, the games
        that ended get their returns and reward and True in ``ended`` (the caller starts their next game
        unless the batch restarts them itself: ``fresh``). Returns how many ended."""
        got: int = self.ext.step(
            self.states, self.ids, self.size, actions, obs, masks, self.index, to_act, rewards, returns, ended,
            self.fresh,
        )  # fmt: skip
        return got

    def sample(self, draws: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
        """One legal id per game, uniformly at random for uniform ``draws`` (one per game)."""
        out = np.empty(len(draws), np.int64)
        self.ext.sample(self.states, self.ids, draws, out)
        return out

    def left_out(self, i: int) -> int:
        """How many legal actions game ``i``'s mask leaves out (an indexed game past its cap; else 0)."""
        return 0

    def restart(self, i: int, seed: int) -> bool:
        """Start game ``i`` anew from ``seed`` in C, chance settled (True), where the batch can (else False)."""
        return False

    def observe(self, i: int, player: int, out: npt.NDArray[np.uint8]) -> bool:
        """Write game ``i``'s observation of any seat into ``out`` (True), where the batch can (else False)."""
        return False


class FormaBatch(Batch):
    """Forma games (``_cforma_vec``)."""

    def __init__(self, ext: Any, game: Game[Any, Any], first: Any, num_envs: int, stock_names: list[str]) -> None:
        from ..games import forma as p

        super().__init__(ext, game, first, num_envs, int(first.size))
        self.touch = bool(first.config["touch_move"])
        tb = p.tables(self.size)
        offsets = [sorted(y * tb.stride + x for x, y in c) for c in p.ORIENT_CELLS]
        ext.init(self.size, tb.stride, offsets, p.ORIENT_PIECE, p.PIECE_SIZES, p.ORIENT_REF)
        self.index = np.array([p.PIECE_NAMES.index(name) for name in stock_names], np.int32)

    def load(self, i: int, s: Any) -> None:
        self.ext.load(
            self.states, i, self.size, s.obstacles, s.tower, s.pieces, s.markers, s.filled, s.stock, s.scores,
            s.bridges, s.closed, s.watch, s.turn, s.moves, s.last, s.exact, self.touch, s.picked, s.misses,
            s.placing, s.rng,
        )  # fmt: skip

    def state(self, i: int) -> Any:
        from ..games.forma import PIECE_ORIENTS, FormaState

        got = self.ext.export(self.states, i)
        pieces, markers, filled, stocks, scores, bridges, closed, watch, turn, moves, last, exact = got[:12]
        obstacles, tower, picked, misses, placing, rng = got[12:]
        orients = tuple(tuple(g for p, c in enumerate(stock) if c for g in PIECE_ORIENTS[p]) for stock in stocks)
        return FormaState(
            self.config, self.size, obstacles, tower, pieces, markers, filled, stocks, scores, bridges, closed,
            watch, turn, picked, misses, moves, last, exact, orients, placing, rng,
        )  # fmt: skip


class QuadefyBatch(Batch):
    """Quadefy games (``_cquadefy_vec``)."""

    def __init__(self, ext: Any, game: Game[Any, Any], first: Any, num_envs: int) -> None:
        from ..games.quadefy import CompiledQuadefy

        super().__init__(ext, game, first, num_envs, 4)
        self.env: Any = None
        self.held: Any = None  # the attached env's buffers, held in C (_cquadefy_vec.hold)
        self.ids = np.zeros(0, np.int32)  # the legal ids are bits in each game's slot
        self.flags = int(first.flags)  # the option bits: fixed by the configuration
        CompiledQuadefy(ext)  # loads the kernel's tables into this extension's copy (init, bind)
        if not game.spec.chance:  # no chance: every new game is the first (the step restarts games itself)
            fresh = np.zeros(int(ext.state_bytes()), np.uint8)
            self._load(fresh, 0, first)
            self.fresh = fresh

    def attach(self, env: Any) -> None:
        self.env = env
        if self.fresh is not None:  # the env's buffers held once in C: a step passes only the actions
            self.held = self.ext.hold(
                self.states, env.observations, env.masks, env.to_act, env.rewards, env.returns, env.terminations,
                self.fresh, env.episodes,
            )  # fmt: skip

    def play(self, env: Any, actions: npt.NDArray[np.int64]) -> bool:
        if self.held is None or env is not self.env:
            return False
        self.ext.play(self.held, actions)  # the episodes counted in C too
        return True

    def load(self, i: int, s: Any) -> None:
        self._load(self.states, i, s)

    def _load(self, states: npt.NDArray[np.uint8], i: int, s: Any) -> None:
        (o0, o1), (r0, r1) = s.owned, s.remaining
        self.ext.load(states, i, s.occupied, o0, o1, r0, r1, s.to_move, s.loser, s.flags, s.moves)

    def state(self, i: int) -> Any:
        from ..games.quadefy import QuadefyState

        occupied, owned, remaining, moves, to_move, loser = self.ext.export(self.states, i)
        return QuadefyState(self.config, occupied, owned, remaining, moves, to_move, loser, self.flags)


class FoldrisBatch(Batch):
    """Foldris games (``_cfoldris_vec``): the whole turn flow in C (choices, the round's resolution, the
    reveals from each game's generator and deck) and, in a vector env, the next episodes: episode ``k`` of
    game ``i`` starts from :func:`polytable.interop.vector.episode_seed` computed in C, as the env's
    Python path would start it."""

    _tables: ClassVar[dict[int, int]] = {}  # a variant table's number -> its id in the extension
    _decks: ClassVar[dict[tuple[object, int], int]] = {}  # (deck text, trim cost) -> its id in the extension

    def __init__(self, ext: Any, game: Game[Any, Any], first: Any, num_envs: int, num_actions: int) -> None:
        from dataclasses import replace

        from ..games.foldris import deck_of, deck_rows, table_rows, tables_of, trim_cost

        config = first.config
        height, players = int(config["height"]), int(config.players)
        super().__init__(ext, game, first, num_envs, height)
        deck = deck_of(config)
        key = (config["deck"], trim_cost(config))
        did = self._decks.get(key)
        if did is None:
            tids = []
            for t in tables_of(config):
                if t.number not in self._tables:
                    self._tables[t.number] = ext.register(*table_rows(t))
                tids.append(self._tables[t.number])
            did = self._decks[key] = ext.deck(tids, *deck_rows(config))
        shapes = []
        for k in range(len(deck.cards)):  # each card's block as a player sees it (the view's drawing)
            plane = bytearray(height)
            for i, row in enumerate(game.view(replace(first, card=k), None)["card"]["shape"].split("/")):
                for c, ch in enumerate(row):
                    if ch == "#" and i < height and c < 8:
                        plane[height - 1 - i] |= 1 << c
            shapes.append(bytes(plane))
        features = -(-(4 * players + 1) // (8 * height))
        self.conf = np.zeros(-(-int(ext.conf_bytes()) // 4) * 4, np.uint8)  # the C configuration, in bytes
        ext.configure(self.conf, players, height, 3 * players + 2 + features, num_actions, did,
                      [lane for _, lane in deck.cards], shapes)  # fmt: skip
        self.index = self.conf.view(np.int32)  # what the base class hands to the extension's calls
        self.env: Any = None
        self.seed: object = None
        self.buffers: tuple[Any, ...] = ()

    def attach(self, env: Any) -> None:
        self.env = env
        self.fresh = self.conf  # the step starts the next episodes
        self.buffers = self._buffers(env)

    @staticmethod
    def _buffers(env: Any) -> tuple[Any, ...]:
        """The env's buffers a step writes (its own arrays, written in place: found once)."""
        return env.observations, env.masks, env.to_act, env.rewards, env.returns, env.terminations, env.episodes

    def play(self, env: Any, actions: npt.NDArray[np.int64]) -> bool:
        if self.fresh is None:
            return False
        self.ext.play(self.states, self.index, actions, *(self.buffers if env is self.env else self._buffers(env)))
        return True

    def load(self, i: int, s: Any) -> None:
        from ..games.foldris import tables_of

        episode = 0
        if self.env is not None:
            seed, episode = self.env._seed, int(self.env.episodes[i])
            if seed != self.seed:
                self.seed = seed
                words = []
                if isinstance(seed, int) and 0 <= seed < 1 << 256:
                    words = [seed >> (32 * k) & 0xFFFFFFFF for k in range(max(1, -(-seed.bit_length() // 32)))]
                if words:
                    self.ext.seed(self.conf, words)
                self.fresh = self.conf if words else None  # a seed NumPy's words cannot hold: Python restarts
        by_key = tables_of(s.config)[s.card].by_key if s.card >= 0 else {}
        pending = [-1 if d is None else by_key[(d.mirror, d.trim, d.rot)] * 8 + d.col for d in s.pending]
        sheets = [(h.ink, h.barrier, h.height, h.lines, h.bonus, h.out) for h in s.sheets]
        self.ext.load(
            self.states, i, self.index, i, episode, sheets, s.deck, s.start_lane, s.round, s.card, pending, s.rng,
            s.over, s.starter,
        )  # fmt: skip

    def state(self, i: int) -> Any:
        from ..games.foldris import Drop, FoldrisState, Sheet, deck_of, tables_of

        sheets, deck, start_lane, rnd, card, pending, rng, over, starter, _ = self.ext.export(self.states, i)
        drops: list[Drop | None] = [None] * len(pending)
        if card >= 0:
            name = deck_of(self.config).cards[card][0]
            variants = tables_of(self.config)[card].variants
            for p, k in enumerate(pending):
                if k >= 0:
                    v = variants[k >> 3]
                    drops[p] = Drop(name, v.mirror, v.trim, v.rot, k & 7)
        return FoldrisState(
            self.config, tuple(Sheet(*h) for h in sheets), deck, start_lane, rnd, card, tuple(drops), rng,
            bool(over), starter,
        )  # fmt: skip


class SeedingBatch(Batch):
    """A batch whose kernel's ``play`` is the whole step, restarts included, each next seed derived in C as
    ``episode_seed`` does (Qwirkle Cubes, FORMFINITY); a subclass names the kernel's leading arguments."""

    env: Any = None

    def attach(self, env: Any) -> None:
        self.env = env

    def leading(self) -> tuple[Any, ...]:
        """The kernel's arguments before the seed's words (the batch's own buffers)."""
        raise NotImplementedError

    def play(self, env: Any, actions: npt.NDArray[np.int64]) -> bool:
        """The whole step in C for the env attached and a seed NumPy takes as at most 12 words; else False."""
        if env is not self.env or self.seeds is None:
            return False
        words = self.seed_words(env)
        if words is None:
            return False
        self.ext.play(
            *self.leading(), words, actions, env.observations, env.masks, env.to_act, env.rewards, env.returns,
            env.terminations, env.episodes, self.seeds,
        )  # fmt: skip
        return True


class QwirkleBatch(SeedingBatch):
    """Qwirkle Cubes games (``_cqwirkle_vec``): actions by index (the legal actions are 0 .. count - 1, so no
    list of ids is kept), states loaded and read back through the kernel's state buffer (``PLAYOUT``)."""

    def __init__(self, ext: Any, game: Game[Any, Any], first: Any, num_envs: int) -> None:
        super().__init__(ext, game, first, num_envs, 0)
        self.ids = np.zeros(0, np.int32)
        self.first = first
        self.seeds = np.zeros(num_envs, np.int64)

    def leading(self) -> tuple[Any, ...]:
        return (self.states,)

    def load(self, i: int, s: Any) -> None:
        from ..games.qwirkle_cubes import pack_state

        self.ext.load(self.states, i, s.placed, pack_state(s))

    def state(self, i: int) -> Any:
        from ..games.qwirkle_cubes import PLAYOUT, Board, unpack_state

        buf = bytearray(PLAYOUT.size)
        placed = self.ext.export(self.states, i, buf)
        return unpack_state(self.first, PLAYOUT.struct.unpack(buf), placed, Board(placed))

    def step(
        self,
        actions: npt.NDArray[np.int64],
        obs: npt.NDArray[np.uint8],
        masks: npt.NDArray[np.int8],
        to_act: Any,
        rewards: npt.NDArray[np.float32],
        returns: npt.NDArray[np.float32],
        ended: npt.NDArray[np.bool_],
    ) -> int:
        got: int = self.ext.step(
            self.states, self.ids, self.size, actions, obs, masks, self.index, to_act, rewards, returns, ended,
            self.seeds,
        )  # fmt: skip
        return got

    def left_out(self, i: int) -> int:
        count, total = self.ext.listed(self.states, i)
        return int(total - count)

    def restart(self, i: int, seed: int) -> bool:
        if isinstance(seed, bool) or not -(1 << 63) <= seed < 1 << 63:  # the Python rules take (or refuse) it
            return False
        self.ext.restart(self.states, i, self.config.players, seed)
        return True

    def observe(self, i: int, player: int, out: npt.NDArray[np.uint8]) -> bool:
        self.ext.observe(self.states, i, player, out)
        return True


class FormfinityBatch(SeedingBatch):
    """FORMFINITY games (``_cformfinity_vec``): the batch holds the configuration's set-up, the template's
    planes and the cards' features once (``info``), and each game's state."""

    def __init__(self, ext: Any, game: Game[Any, Any], first: Any, num_envs: int, info: Any) -> None:
        super().__init__(ext, game, first, num_envs, 0)
        self.info = info
        self.first = first
        self.seeds = np.zeros(num_envs, np.int64)  # each game's next seed (the vector env keeps them)
        self.players = int(first.config.players)

    def leading(self) -> tuple[Any, ...]:
        return self.info, self.states, self.ids

    @staticmethod
    def make(ext: Any, game: Game[Any, Any], first: Any, num_envs: int) -> FormfinityBatch | None:
        """The batch of ``first``'s configuration, or None where the kernel does not hold its set-up."""
        from ..games.formfinity import CompiledFormfinity, formfinity_pack, setup_of
        from ._fast import formfinity_template
        from ._planes import formfinity_card_table

        CompiledFormfinity(ext)  # loads the shape tables into this extension's copy (init)
        setup = setup_of(game, first)
        info = np.zeros(int(ext.info_bytes()), np.uint8)
        statics, _ = formfinity_template(game.view(first, 0), setup.S)
        if not ext.prepare_batch(info, formfinity_pack(setup), statics, formfinity_card_table()):
            return None
        return FormfinityBatch(ext, game, first, num_envs, info)

    def load(self, i: int, s: Any) -> None:
        from ..games.formfinity import state_buffer

        self.ext.load(self.info, self.states, i, s.deck, s.lines, s.numbers, state_buffer(s))

    def state(self, i: int) -> Any:
        from ..games.formfinity import state_from_buffer

        buf = bytearray(len(self._blank()))
        rest = self.ext.export(self.info, self.states, i, buf)
        return state_from_buffer(self.first, buf, rest)

    def _blank(self) -> bytearray:
        from ..games.formfinity import state_buffer

        return state_buffer(self.first)

    def write(self, i: int, obs: npt.NDArray[np.uint8], masks: npt.NDArray[np.int8], to_act: Any) -> None:
        self.ext.write(self.info, self.states, self.ids, i, obs, masks, to_act)

    def step(
        self,
        actions: npt.NDArray[np.int64],
        obs: npt.NDArray[np.uint8],
        masks: npt.NDArray[np.int8],
        to_act: Any,
        rewards: npt.NDArray[np.float32],
        returns: npt.NDArray[np.float32],
        ended: npt.NDArray[np.bool_],
    ) -> int:
        """As :meth:`Batch.step` (the C step checks the actions first); the games that ended start their next
        game in C from :attr:`seeds`."""
        got: list[int] = self.ext.step(self.info, self.states, self.ids, actions, obs, masks, to_act, rewards, returns)
        ended[:] = False
        ended[got] = True
        count = len(got)
        if got and self.seeds is not None:  # (a table of one keeps its finished game: no seeds)
            games = np.array(got, np.int64)
            over = self.ext.restart(self.info, self.states, self.ids, games, self.seeds[games], obs, masks, to_act)
            if over:  # a template where a new game ends before its first move (none is shipped)
                raise RuntimeError(f"games {over}: a new game ended at once, which the compiled batch cannot start")
        return count


def batch_for(game: Game[Any, Any], first: Any, first_view: Any, num_envs: int, num_actions: int) -> Batch | None:
    """The compiled batch of a configuration, or None (not built, ``POLYTABLE_PURE=1``, or no batch for
    this game or board)."""
    gid = game.spec.id
    if gid == "forma":
        ext = native_module("polytable.games.forma._cforma_vec")
        if ext is None or int(first.size) > 20 or num_actions != ext.NUM_IDS:
            return None
        return FormaBatch(ext, game, first, num_envs, list(first_view["players"][0]["stock"]))
    if gid == "quadefy":
        ext = native_module("polytable.games.quadefy._cquadefy_vec")
        if ext is None or num_actions != ext.NUM_IDS or first.config.players != 2:
            return None
        return QuadefyBatch(ext, game, first, num_envs)
    if gid == "foldris":
        ext = native_module("polytable.games.foldris._cfoldris_vec")
        if ext is None or int(first.config["height"]) > 40:
            return None
        return FoldrisBatch(ext, game, first, num_envs, num_actions)
    if gid == "qwirkle-cubes":
        ext = native_module("polytable.games.qwirkle_cubes._cqwirkle_vec")
        if ext is None or num_actions != ext.NUM_IDS:
            return None
        return QwirkleBatch(ext, game, first, num_envs)
    if gid == "formfinity":
        ext = native_module("polytable.games.formfinity._cformfinity_vec")
        if ext is None or num_actions != ext.NUM_IDS:
            return None
        return FormfinityBatch.make(ext, game, first, num_envs)
    return None


class BatchTable(Table):
    """A :class:`Table` whose game is a compiled batch of one, for the PettingZoo environment: a step is one C
    call (apply, chance, the next seat's planes and mask) and hands out copies of the rows. ``state`` is
    read back from the batch when something asks for it (render, an observer other than the seat to act,
    the checked paths of :class:`Table`), so every other use of a table stays as it was."""

    def __init__(self, game_id: str, players: int | None, options: Mapping[str, object] | None, batch: Batch) -> None:
        self._state: Any = None
        self._dirty = False
        super().__init__(game_id, players, options)
        self.batch = batch
        self._obs = np.zeros((1, *self.obs_shape), np.uint8)
        self._masks = np.zeros((1, self.num_actions), np.int8)
        self._to_act = np.zeros(1, np.int16)
        self._rewards = np.zeros(1, np.float32)
        self._returns = np.zeros((1, self.players), np.float32)
        self._ended = np.zeros(1, np.bool_)
        self._over = True
        self._final: tuple[float, ...] = (0.0,) * self.players
        self._none = np.zeros(self.num_actions, np.int8)
        self._none.flags.writeable = False
        self._row: npt.NDArray[np.int8] | None = None

    @property
    def state(self) -> Any:  # type: ignore[override]
        if self._dirty:
            self._state = self.batch.state(0)
            self._dirty = False
        return self._state

    @state.setter
    def state(self, value: Any) -> None:
        self._state = value
        self._dirty = False

    def reset(self, seed: int) -> None:
        if self.batch.restart(0, seed):  # the new game made in C (a game with chance: no Python set-up)
            self._legal = None
            self._row = None
            self._dirty = True
            self._over = False
            self.batch.write(0, self._obs, self._masks, self._to_act)
            return
        super().reset(seed)
        self._row = None
        self._over = self.game.is_terminal(self._state)
        if not self._over:
            self.batch.load(0, self._state)
            self.batch.write(0, self._obs, self._masks, self._to_act)

    def to_act(self) -> int | None:
        return None if self._over else int(self._to_act[0])

    def is_over(self) -> bool:
        return self._over

    def returns(self) -> tuple[float, ...]:
        return self._final if self._over else (0.0,) * self.players

    def mask(self, player: int) -> npt.NDArray[np.int8]:
        if self._over or player != self._to_act[0]:
            return self._none
        if self._row is None:
            self._row = self._masks[0].copy()
            self._row.flags.writeable = False
        return self._row

    def write_mask(self, out: npt.NDArray[np.int8], player: int) -> None:
        out[:] = self.mask(player)

    def truncated(self, player: int) -> int:
        if not self.indexed or self._over or player != self._to_act[0]:
            return 0
        return self.batch.left_out(0)

    def observation(self, player: int) -> npt.NDArray[np.uint8]:
        if not self._over and player == self._to_act[0]:
            out: npt.NDArray[np.uint8] = self._obs[0].copy()
            return out
        out = np.empty(self.obs_shape, np.uint8)
        if self.batch.observe(0, player, out):
            return out
        return super().observation(player)

    def write_observation(self, out: npt.NDArray[np.uint8], player: int) -> None:
        out[:] = self.observation(player)

    def action_for(self, player: int, action_id: int) -> Any:
        """The id itself (what :meth:`play` takes), IllegalActionError when it is not legal now."""
        if player != self.to_act():
            raise IllegalActionError(f"it is not seat {player + 1}'s turn")
        if not 0 <= action_id < self.num_actions:
            raise IllegalActionError(f"action {action_id} is outside 0..{self.num_actions - 1}")
        if not self._masks[0, action_id]:
            if self.indexed:
                count = int(np.count_nonzero(self._masks[0]))
                raise IllegalActionError(f"action {action_id}: there are only {count} legal actions")
            text = self.game.format_action(self.game.action_from_id(action_id, self.state), self.state)
            raise IllegalActionError(f"action {action_id} ({text}) is not legal now (see the action mask)")
        return action_id

    def play(self, player: int, action: Any) -> None:
        """Apply an id (from :meth:`action_for`) in C, or a game action through the Python rules."""
        if not isinstance(action, int):
            super().play(player, action)
            self.reset_from_state()
            return
        ended = self.batch.step(
            np.array([action], np.int64), self._obs, self._masks, self._to_act, self._rewards, self._returns,
            self._ended,
        )  # fmt: skip
        self._dirty = True
        self._row = None
        if ended:
            self._over = True
            self._final = tuple(float(x) for x in self._returns[0])

    def reset_from_state(self) -> None:
        """Load the Python state into the batch (after a move made through the Python rules)."""
        self._row = None
        self._over = self.game.is_terminal(self._state)
        if not self._over:
            self.batch.load(0, self._state)
            self.batch.write(0, self._obs, self._masks, self._to_act)
        else:
            self._final = tuple(float(x) for x in self.game.returns(self._state))


def table_for(game_id: str, players: int | None, options: Mapping[str, object] | None) -> Table:
    """A :class:`BatchTable` where the game has a compiled batch, else a :class:`Table`."""
    table = Table(game_id, players, options)
    if table.codec is None:  # POLYTABLE_PURE=1 (or no fast codec): the reference path
        return table
    view = table.game.view(table.state, 0)
    batch = batch_for(table.game, table.state, view, 1, table.num_actions)
    if batch is None:
        return table
    batch.fresh = batch.seeds = None  # a table keeps its finished game until reset (no restart inside the step)
    return BatchTable(game_id, players, options, batch)
