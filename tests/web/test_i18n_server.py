"""Server-made text in the translation files: game specs, the server's own errors, the engine's messages.

The web client translates its own strings; these tests make sure what the server produces can be shown in
every language too: a new option or choice of a shipped game without keys, a new server error without a
reason and a text, or a shipped game's engine code without a Dutch text fails here; a new game's missing
keys are only reported, it is shown in English (see ``polytable.web._i18n``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from polytable.core import all_games, get_game
from polytable.web import _i18n

from .conftest import error, hello, make_room, state

WEB = Path(_i18n.__file__).parent
EN = _i18n.load("en")
NL = _i18n.load("nl")


SHIPPED = {"foldris", "forma", "formfinity", "quadefy", "qwirkle-cubes"}
"""The games that ship translated; another game's missing keys are reported, and it is shown in English."""


def _shipped_key(key: str) -> bool:
    parts = key.split(".")
    return parts[0] not in ("game", "option") or parts[1] in SHIPPED


def _fill(text: object, params: Mapping[str, object]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(params.get(m.group(1), m.group(0))), str(text))


def test_every_offered_game_has_its_spec_in_both_languages() -> None:
    keys = {k: v for k, v in _i18n.spec_keys().items() if _shipped_key(k)}
    offered = [g.spec for g in all_games() if g.spec.listed and g.spec.id in SHIPPED]
    assert offered and all(f"game.{s.id}.name" in keys for s in offered)
    for spec in offered:  # every option has a label and help, every choice a label
        for opt in spec.options:
            assert f"option.{spec.id}.{opt.name}.help" in keys
            assert all(f"option.{spec.id}.{opt.name}.choice.{c}" in keys for c in opt.choices)
    gaps = _i18n.missing()
    for lang in ("en", "nl"):
        assert [k for k in gaps[lang] if _shipped_key(k)] == [], "run python -m polytable.web._i18n"
    for key, english in keys.items():
        assert EN[key] and NL[key], key
        if not key.endswith((".label",)) and ".choice." not in key:
            # The English file says what the spec says: a changed help text must be translated again.
            assert EN[key] == english, (key, EN[key], english)
    assert NL["option.forma.obstacles.label"] == "Hindernissen"  # the rulebook's word (hindernisfiches)
    ais = _i18n.ai_keys()
    assert "ai.greedy" in ais and all(k in EN and k in NL for k in ais)


def _server_reasons() -> set[str]:
    """Every reason literal the server modules give an error (RoomError, _err, _error, DesignError, fail)."""
    positions = {"RoomError": 2, "_err": 2, "_error": 2, "DesignError": 1, "fail": 1}
    found: set[str] = set()
    for path in WEB.glob("_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                if name not in positions:
                    continue
                args = [*node.args[positions[name] : positions[name] + 1]]
                args += [k.value for k in node.keywords if k.arg == "reason"]
                found |= {a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                target = node.targets[0]
                if isinstance(target, ast.Subscript) and ast.unparse(target.slice) == "'reason'":
                    found.add(str(node.value.value))
    return found


def test_every_server_error_reason_has_a_text_in_both_languages() -> None:
    used = _server_reasons()
    assert len(used) > 50  # the scan sees the server's errors
    assert used - {"engine"} <= set(_i18n.ERROR_REASONS), sorted(used - {"engine"} - set(_i18n.ERROR_REASONS))
    for reason in _i18n.ERROR_REASONS:
        assert f"error.{reason}" in EN and f"error.{reason}" in NL, reason


ERROR_CALLS = frozenset({"IllegalActionError", "ConfigError", "StateFormatError", "PolytableError", "TemplateError"})


def _uncoded(root: Path) -> list[str]:
    """Error calls in the rules with a message but no code (``raise X.relay(e)`` keeps the relayed code)."""
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            call = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ERROR_CALLS
            if call and node.args and len(node.args) < 2 and not any(k.arg == "code" for k in node.keywords):  # type: ignore[attr-defined]
                out.append(f"{path.relative_to(_i18n.PACKAGE).as_posix()}:{node.lineno}")
    return out


def _shipped_code(code: str, where: str) -> bool:
    """A code the shipped translations must have: raised outside ``games/`` or in a shipped game."""
    parts = where.split("/")
    return parts[0] != "games" or parts[1].replace("_", "-") in SHIPPED


def test_every_error_the_rules_raise_has_a_well_formed_code_and_an_english_text() -> None:
    raises = list(_i18n.engine_raises())
    assert len(raises) > 350  # the scan sees the rules' errors
    assert _uncoded(_i18n.PACKAGE / "games") == []
    bad = sorted({code for code, _, _ in raises if not _i18n.CODE.fullmatch(code)})
    assert bad == [], bad
    english: dict[str, set[str]] = {}
    for code, text, _ in raises:
        if text is not None:
            english.setdefault(code, set()).add(text)
    # A code names one message: the same code raised in two places says the same English words.
    assert {c: t for c, t in english.items() if len(t) > 1} == {}
    assert "{at} would stick out over the edge of the board" in english["forma.would_stick_out"]
    assert english["no_action"] == {"Player {player} has no legal action"}  # shared by every game
    # Every code has its English text in en.json, and it is the source's own words.
    messages = _i18n.engine_messages()
    assert [c for c in _i18n.engine_codes() if f"error.engine.{c}" not in EN] == []
    assert {c: (EN[f"error.engine.{c}"], t) for c, t in messages.items() if EN[f"error.engine.{c}"] != t} == {}


def test_no_shipped_engine_code_disappears() -> None:
    """Codes are stable: one listed in ``tests/data/engine_codes.txt`` is still raised (a new one may be
    added to the list; a new game's codes need not be there)."""
    listed = Path(__file__).parent.parent / "data" / "engine_codes.txt"
    shipped = {line for line in listed.read_text(encoding="utf-8").splitlines() if line and line[0] != "#"}
    assert len(shipped) > 350
    now = {*_i18n.engine_messages(), *_i18n.engine_codes()}
    assert sorted(shipped - now) == []


def test_every_shipped_engine_code_has_dutch_and_a_new_games_gaps_are_reported(
    capsys: pytest.CaptureFixture[str],
) -> None:
    codes = _i18n.engine_codes()
    gaps = [c for c in {**_i18n.engine_messages(), **codes} if f"error.engine.{c}" not in NL]
    shipped = [c for c in gaps if c not in codes or _shipped_code(c, codes[c])]
    assert shipped == [], "run python -m polytable.web._i18n"
    if gaps:  # a game that is not shipped yet: shown in English until its keys are added
        print("engine codes without a Dutch text (shown in English):", ", ".join(sorted(gaps)))
    assert "forma.would_stick_out" in codes and codes["forma.would_stick_out"].startswith("games/forma/")
    for key, dutch in NL.items():  # a translation uses only the params the message has
        if key.startswith("error.engine."):
            assert set(re.findall(r"\{(\w+)\}", dutch)) <= set(re.findall(r"\{(\w+)\}", EN[key])), key


def test_a_code_without_a_translation_falls_back_to_the_english_message() -> None:
    from polytable.core import IllegalActionError, word
    from polytable.match import engine_reason

    exc = IllegalActionError("no nim heap 4 here", "nim.no_heap", {"heap": 4})  # a throwaway game's code
    shown = engine_reason(exc)
    assert shown == {"reason": "engine.nim.no_heap", "params": {"heap": 4}}
    assert _i18n.translate_error(shown["reason"], shown["params"], str(exc), NL) == "no nim heap 4 here"
    side = IllegalActionError("nothing slides in from the top", "nim.slide", {"side": word("top")})
    shown = engine_reason(side)  # the part has Dutch, the sentence has not: the whole stays English
    assert shown["params"] == {"side": {"code": "word.top", "params": {}, "message": "top"}}
    assert _i18n.translate_error(shown["reason"], shown["params"], str(side), NL) == str(side)
    plain = IllegalActionError("an error without a code")
    assert engine_reason(plain) == {"reason": "engine", "params": {}}


def _shown(exc: Exception, table: Mapping[str, object]) -> str:
    from polytable.match import engine_reason

    r = engine_reason(exc)
    return _i18n.translate_error(r["reason"], r["params"], str(exc), dict(table))


def test_engine_messages_translate_nested_parts_and_words() -> None:
    from polytable.core import ConfigError, IllegalActionError, joined, phrase

    quadefy = IllegalActionError(
        "L r3 @ a1.1 is not allowed: it would overlap blocks already placed",
        "quadefy.not_allowed",
        {"move": "L r3 @ a1.1", "why": phrase("quadefy.overlap", "it would overlap blocks already placed")},
    )
    inner = ConfigError(
        "line 3, column 4: the numbers must run 1, 2, 3, ... without gaps; 5 is missing",
        "formfinity.variant_number_gap",
        {"at": phrase("formfinity.line_column", "line 3, column 4", {"line": 3, "column": 4}), "i": 5},
    )
    variant = ConfigError(f"variant file: {inner}", "formfinity.variant_file", {"msg": inner})
    enters = IllegalActionError(
        "with this card the element enters from the top or left and slides until it stops; "
        "it cannot come to rest at c5",
        "formfinity.slides_elsewhere",
        {"where": joined(["top", "left"], "or"), "cell_name": "c5"},
    )
    cases = {
        quadefy: "L r3 @ a1.1 mag niet: het zou blokken overlappen die al geplaatst zijn",
        variant: "variantbestand: regel 3, kolom 4: de nummers moeten zonder gaten 1, 2, 3, ... lopen; 5 ontbreekt",
        enters: (
            "met deze kaart komt het element binnen van boven of links en schuift door tot het stopt; "
            "het kan niet tot stilstand komen op c5"
        ),
        IllegalActionError("a message with no code"): "a message with no code",
    }
    for exc, dutch in cases.items():
        assert _shown(exc, NL) == dutch
        assert _shown(exc, EN) == str(exc)  # the English file reads like the message itself


@pytest.mark.parametrize("game_id", sorted(SHIPPED))
def test_refused_moves_read_the_same_from_the_english_file(game_id: str) -> None:
    """Junk, legal-looking and already played actions, from every seat, over random positions:
    every refusal shown from ``error.engine.<code>`` with its params is its English message word for word,
    and has a Dutch text without unfilled params."""
    from polytable.core import SIMULTANEOUS, PolytableError, Rng

    game = get_game(game_id)
    words = ["", "x", "zz 9", "1", "-1", "99999", "pick F5", "T r1 c9", "reveal Q 9", "L r99 @ a1.1", "B*@9,9"]
    words += ["reroll 7", "keep", "pass", "line:h:z9", "area:Q", "##@c5", "F5 r0 @ a1", "tower a1", "fill"]
    rng = Rng(7)
    seen: set[str] = set()
    for seed in range(3):
        state = game.new_game(None, seed=seed)
        played: list[str] = []
        for _ in range(40):
            if game.is_terminal(state):
                break
            for text in [*words, *played[-6:]]:
                for player in range(state.config.players):
                    try:
                        game.apply(state, game.parse_action(text, state), player)
                    except PolytableError as exc:
                        assert exc.code, str(exc)
                        seen.add(exc.code)
                        assert _shown(exc, EN) == str(exc), exc.code
                        assert "{" not in _shown(exc, NL), exc.code
            player = game.current_player(state)
            if player == SIMULTANEOUS:
                player = game.acting_players(state)[0]
            action, after = game.sample_and_apply(state, player, rng)
            played.append(game.format_action(action, state))
            state = after
    assert len(seen) >= 4, seen


NOTATION = re.compile(r"@|[ROYGBP][●■◆♣✦✸]|[#.]+/[#.]|\b(?:line|area):|\br\d\b|'[^']*\d[^']*'|-?\d+,-?\d")
"""What a refusal on a board never shows: a move's notation (``@``), a cube's code (``B◆``), a shape drawn
as text (``##/#.``), a claim's code (``line:h:c5``), a rotation's code (``r1``), a typed example (``'pick F5'``),
a square of the Qwirkle Cubes grid, which has no printed coordinates (``2,-1``)."""


def _kind(text: str) -> str:
    """What sort of move a text is: a placement (``@``) or its first word (``keep``, ``pick``, ``line``, ``T``)."""
    return "place" if "@" in text else text.split(" ")[0].split(":")[0]


@pytest.mark.parametrize("game_id", sorted(SHIPPED))
def test_refusals_a_board_can_meet_read_in_words(game_id: str) -> None:
    """The moves a board sends are moves of the kind the position offers (a placement where placements are
    legal, a claim where claims are): each seat's legal moves of earlier positions, tried again later, are
    refused in words in English and Dutch, the move itself shown as "this move" (story.js ``refusal``)."""
    from polytable.core import CHANCE, SIMULTANEOUS, PolytableError, Rng
    from polytable.match import engine_reason

    game = get_game(game_id)
    rng, seen, bad = Rng(5), set[str](), list[str]()
    for seed in range(2):
        state = game.new_game(None, seed=seed)
        pool: dict[int, list[str]] = {}
        for _ in range(60):
            if game.is_terminal(state):
                break
            player = game.current_player(state)
            if player == SIMULTANEOUS:
                player = game.acting_players(state)[0]
            if player != CHANCE:
                legal = [game.format_action(a, state) for a in game.legal_actions(state, player)]
                kinds = {_kind(a) for a in legal}
                tried = pool.setdefault(player, [])
                for text in tried[-120::4]:
                    if _kind(text) not in kinds or text in legal:
                        continue
                    try:
                        game.apply(state, game.parse_action(text, state), player)
                    except PolytableError as exc:
                        shown = engine_reason(exc)
                        params = {k: ("this move" if v == text else v) for k, v in shown["params"].items()}
                        seen.add(str(exc.code))
                        for table in (EN, NL):
                            words = _i18n.translate_error(shown["reason"], params, str(exc), dict(table))
                            if NOTATION.search(words) or "{" in words:
                                bad.append(f"{exc.code}: {words}")
                tried.extend(legal[:: max(1, len(legal) // 12)])
            state = game.sample_and_apply(state, player, rng)[1]
    assert seen, "no refusal was met"
    assert sorted(set(bad)) == []


def test_error_reasons_round_trip_over_http_and_websocket(client: TestClient) -> None:
    r = client.get("/api/rooms/ZZZZZ")
    body = r.json()
    assert r.status_code == 404 and body["reason"] == "no_room" and body["params"] == {"code": "ZZZZZ"}
    assert _fill(NL["error.no_room"], body["params"]) == "Er is geen kamer ZZZZZ."
    room = make_room(client, seats=[{"kind": "here"}, {"kind": "invite", "name": "Bo"}])
    assert [s["default_name"] for s in room["room"]["seats"]] == [True, False]  # "Player 1" is the server's
    code = room["code"]
    assert client.post(f"/api/rooms/{code}/join", json={"seat": 1}).status_code == 200
    taken = client.post(f"/api/rooms/{code}/join", json={"seat": 1})
    assert taken.status_code == 409
    assert taken.json()["reason"] == "seat_taken" and taken.json()["params"] == {"seat": 2}
    assert _fill(NL["error.seat_taken"], taken.json()["params"]) == "Plaats 2 is al bezet."
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, room["tokens"]["0"])
        v = state(ws)["version"]
        ws.send_json({"type": "act", "seat": 1, "version": v, "action": "1"})
        err = error(ws)
        assert (err["code"], err["reason"], err["params"]) == ("forbidden", "not_your_seat", {"seat": 2})
        assert "seat 2" in err["message"]  # the English fallback stays
        ws.send_json({"type": "nonsense"})
        err = error(ws)
        assert err["reason"] == "unknown_type" and err["params"] == {"type": "nonsense"}
    with client.websocket_connect("/ws/ZZZZZ") as ws:
        err = ws.receive_json()
        assert (err["code"], err["reason"]) == ("missing", "no_room")


def test_engine_errors_reach_the_client_as_translatable_text(client: TestClient) -> None:
    try:
        get_game("forma")
    except Exception:
        pytest.skip("forma is not installed")
    bad = client.post("/api/rooms", json={"game": "forma", "players": 2, "options": {"obstacles": 99}})
    body = bad.json()
    assert bad.status_code == 400 and body["reason"] == "engine.option_max"  # a coded engine error
    assert body["params"] == {"option": "obstacles", "max": "25", "value": "99"}
    assert _fill(NL["error.engine.option_max"], body["params"]) == "optie 'obstacles' mag hoogstens 25 zijn, niet 99"
    assert _fill(EN["error.engine.option_max"], body["params"]) == body["error"]  # English says the same
    room = make_room(client, game="forma", players=2, options={"obstacles": 0})
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"], room["tokens"]["1"])
        v = state(ws)["version"]
        ws.send_json({"type": "act", "seat": 0, "version": v, "action": "F5 r0 @ a1"})
        err = error(ws)
        assert (err["code"], err["reason"]) == ("illegal", "engine.forma.setup_first_tower")  # a game's own code
        assert err["params"] == {"player": 1}
        dutch = _i18n.translate_error(err["reason"], err["params"], err["message"], NL)
        assert dutch.startswith("eerst wordt het spelbord opgesteld: Speler 1 plaatst de toren"), dutch
        assert _i18n.translate_error(err["reason"], err["params"], "", EN) == err["message"]
        ws.send_json({"type": "act", "seat": 1, "version": v, "action": "F5 r0 @ j10"})
        err = error(ws)  # the kernel's turn check has a code
        assert (err["code"], err["reason"], err["params"]) == ("illegal", "engine.turn", {"turn": 1, "player": 2})
        assert _fill(NL["error.engine.turn"], err["params"]) == "Speler 1 is aan de beurt, niet Speler 2"
        ws.send_json({"type": "preview", "seat": 1, "action": "F5 r0 @ j10", "ask": 1})
        pv = next(m for m in iter(ws.receive_json, None) if m["type"] == "preview")
        assert pv["ok"] is False and pv["reason"] == "not_your_turn"
    check = client.post("/api/formfinity/validate", json={"variant_file": ""}).json()
    assert check["ok"] is False and check["reason"] == "variant_text"


def test_coded_engine_errors_read_the_same_from_their_key() -> None:
    """Each coded error of the kernel, shown from ``error.engine.<code>`` with its params, is its English
    message word for word, and the Dutch text uses only those params."""
    from polytable.core import CHANCE, ConfigError, GameSpec, IllegalActionError, Option

    opts = (
        Option("n", "int", 1, "n", min=1, max=5),
        Option("b", "bool", False, "b"),
        Option("c", "choice", "x", "c", choices=("x", "y")),
        Option("f", "float", 1.0, "f"),
        Option("s", "str", "", "s"),
        Option("t", "text", "", "t"),
    )
    spec = GameSpec(
        id="t", name="Test", min_players=2, max_players=4, default_players=2, rules_version="1", options=opts
    )
    duo = GameSpec(id="d", name="Duo", min_players=2, max_players=2, default_players=2, rules_version="1")
    attempts = [
        *((spec, o, 2) for o in ({"n": 0}, {"n": 9}, {"n": "x"}, {"n": True}, {"n": None}, {"b": "maybe"})),
        *((spec, o, 2) for o in ({"c": "z"}, {"f": "x"}, {"f": True}, {"s": [1]}, {"s": "x" * 201}, {"zz": 1})),
        (spec, {"t": "x" * 1_000_001}, 2),
        (spec, {}, "two"),
        (spec, {}, 9),
        (duo, {}, 3),
    ]
    errors: list[ConfigError | IllegalActionError] = []
    for sp, options, players in attempts:
        with pytest.raises(ConfigError) as info:
            sp.config(options, players)  # type: ignore[arg-type]
        errors.append(info.value)
    toy = get_game("toy")
    s = toy.new_game({"rounds": 1}, seed=1, players=2)
    rolled = toy.apply(s, 1, CHANCE)
    for state_, player in ((s, 0), (rolled, 5), (toy.apply(rolled, 1, 0), 0)):  # chance; no player 6; chosen
        with pytest.raises(IllegalActionError) as info:
            toy.apply(state_, 1, player)
        errors.append(info.value)
    codes = _i18n.engine_codes()
    for e in errors:
        assert e.code in codes, str(e)
        assert _fill(EN[f"error.engine.{e.code}"], e.params) == str(e), e.code
        dutch = _fill(NL[f"error.engine.{e.code}"], e.params)
        assert "{" not in dutch and dutch != str(e), e.code
    assert len({e.code for e in errors}) >= 17
