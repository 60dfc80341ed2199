"""A first-time player's journey through every game, in Chromium on a phone (390 px), in English and Dutch.

For each game: open the home page (its new-game form set to the game), start the guided first game against
the AI (home, How to play, the guided game), read what the guide says to do, ask for a hint and play it with
one tap on the board, make a refused move and read why, undo (or read why the last move stands), play the
game to its end by the hints, and read the result: who won and why. Every step is checked, and at every
step every string on the page (text, labels, titles) is scanned for placeholders ("null", "undefined",
"{name}") and the history for notation; after the refusal, every control of the board still takes a tap.
The other tests: the hint outside the guided game, and FORMFINITY's line claim by its buttons.
Screenshots of each journey (English: the start, the hint on the board, the refusal and the result; Dutch:
the result) go to artifacts/journey/; the copies kept in docs/screenshots/journey/ are taken with
POLYTABLE_JOURNEY_SHOTS=docs.

Economy: one server and one browser for the module, one phone page per language shared by the five games
(the page moves between them as a player does, without reloading), the game's end reached by a loop inside
the page that taps the hint's ghost (the same clicks a player makes, without a round trip per move).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from polytable.web._i18n import load

from ._browser import launch, open_room, scroll_to, tap
from ._browser import need as _need
from ._proc import Server

pytestmark = pytest.mark.slow

GAMES = ("quadefy", "foldris", "formfinity", "forma", "qwirkle-cubes")
LOCALES = {"en": "en-GB", "nl": "nl-NL"}
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / ("docs/screenshots" if os.environ.get("POLYTABLE_JOURNEY_SHOTS") == "docs" else "artifacts") / "journey"
"""Where the screenshots go: artifacts/journey/ on every run; docs/screenshots/journey/, the ones kept in the
repository, when POLYTABLE_JOURNEY_SHOTS=docs (so a test run never changes a tracked file)."""
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WAIT = 20_000
PLACEHOLDER = re.compile(r"\bnull\b|\bundefined\b|\bNaN\b|\{[a-z_]+\}|\[object Object\]")

SCAN = """() => {
  const bits = [document.body.innerText];
  const names = ['aria-label', 'title', 'placeholder', 'alt'];
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))
    for (const a of names) if (el.getAttribute(a)) bits.push(el.getAttribute(a));
  return bits.join('\\n');
}"""

# The board's visible controls (and Undo) that a tap at their centre would not reach: something lies over them.
COVERED = """() => [...document.querySelectorAll('#main button, #undo')].filter((b) => {
  if (!b.getClientRects().length || b.closest('details:not([open])') || getComputedStyle(b).visibility === 'hidden')
    return false; // not shown: folded away (the moves in notation) or hidden
  b.scrollIntoView({ block: 'center', inline: 'nearest' });
  const r = b.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit !== null && hit !== b && !b.contains(hit);
}).map((b) => b.id || b.textContent)"""

# Plays the hints to the end: waits for the learner's turn, asks for the hint, taps what it shows (the ghost
# on the board, or the control it marks) and waits for the move to be made. Every text on the way (the AI's
# turns included) is kept for the placeholder scan.
FINISH = """async ([limit, throttled]) => {
  const app = document.querySelector('#app');
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const until = async (pred, what) => {
    const t0 = performance.now();
    while (!pred()) {
      if (performance.now() - t0 > 20000)
        throw new Error('waited too long for ' + what + ': ' + document.querySelector('#main').innerText.slice(0, 600));
      await sleep(15);
    }
  };
  const st = () => app.polytableState;
  const mine = () => st().mine['0'];
  const texts = new Set();
  let moves = 0;
  let refusals = 0;
  while (moves < limit) {
    await until(() => st().over || (mine() && mine().to_act), 'my turn');
    texts.add(document.body.innerText);
    if (st().over) break;
    const v = st().version;
    document.querySelector('#learn-hint').click();
    await until(() => document.querySelector('#learn-try').textContent || st().version !== v, 'the hint');
    if (st().version !== v) continue;
    const marked = document.querySelector('#board button.hinted:not([disabled])');
    const ghost = document.querySelector('#board .ghost, #qc-table .new');
    if (marked) marked.click();
    else {
      const r = ghost.getBoundingClientRect();
      ghost.scrollIntoView({ block: 'center' });
      const b = ghost.getBoundingClientRect();
      const under = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
      under.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      void r;
    }
    const slowed = () => document.querySelector('#main').innerText.includes(throttled);
    await until(() => st().version !== v || slowed(), 'the move');
    if (st().version === v) { // tapped faster than a player's socket may send: wait as a player would, tap again
      await sleep(1500);
      if (st().version === v) {
        if (++refusals > 20) throw new Error('refused for speed 20 times in a row');
        continue;
      }
    }
    refusals = 0;
    if (!st().over && !mine().to_act) texts.add(document.body.innerText); // the AI's turn: the guide waits
    moves += 1;
  }
  return { moves, over: st().over, texts: [...texts] };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("journey")
    # A short AI delay: the learner sees the AI's turn (the guide's waiting line is scanned too).
    s = Server(f"sqlite:///{tmp / 'rooms.db'}", delay=0.05, log=tmp / "server.log")
    yield s
    s.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def pages(browser: Any) -> Iterator[dict[str, Any]]:
    """One phone page per language, shared by the five journeys (made when first asked for)."""
    made: dict[str, Any] = {}

    def page(lang: str) -> Any:
        if lang not in made:
            ctx = browser.new_context(**PHONE, locale=LOCALES[lang])
            pg = ctx.new_page()
            pg.set_default_timeout(WAIT)
            pg.errors = []
            pg.on("pageerror", lambda e, pg=pg: pg.errors.append(str(e)))
            made[lang] = pg
        return made[lang]

    yield page  # type: ignore[misc]
    for pg in made.values():
        pg.context.close()


class Journey:
    """One game's journey on a page: the steps shared by every game, the game's own gestures in hooks."""

    def __init__(self, page: Any, server: Server, game: str, lang: str) -> None:
        self.page, self.base, self.game, self.lang = page, server.base, game, lang
        self.words = load(lang)

    def t(self, key: str) -> str:
        text = self.words[key]
        assert isinstance(text, str)
        return text

    # ------------------------------------------------------------------ checks
    def clean(self, where: str) -> str:
        """Every string on the page, with no placeholder in it (and a page as wide as the phone)."""
        text: str = self.page.evaluate(SCAN)
        found = PLACEHOLDER.findall(text)
        assert not found, f"{self.game} ({self.lang}), {where}: placeholder text {found}"
        wide = self.page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        assert wide[0] <= wide[1], f"{self.game} ({self.lang}), {where}: the page scrolls sideways {wide}"
        return text

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{self.game}-{self.lang}-{name}.png"))

    def state(self) -> dict[str, Any]:
        value: dict[str, Any] = self.page.evaluate("() => document.querySelector('#app').polytableState")
        return value

    def version(self) -> int:
        return int(self.page.locator("#app").get_attribute("data-version") or -1)

    def wait_version(self, before: int) -> None:
        self.page.wait_for_function("v => Number(document.querySelector('#app').dataset.version) > v", arg=before)

    def my_turn(self) -> None:
        self.page.wait_for_function(
            "() => { const s = document.querySelector('#app').polytableState;"
            " return s && (s.over || (s.mine['0'] && s.mine['0'].to_act)); }"
        )

    def refused(self) -> str:
        """The refusal the board shows beside the tap: a sentence in words, the move it names as "this move"."""
        note = self.page.locator("#refusal")
        note.wait_for()
        scroll_to(self.page, "#refusal")
        text: str = note.inner_text()
        assert text.startswith("✕ ") and len(text) > 12, text
        assert "@" not in text and not PLACEHOLDER.search(text), text
        return text

    def tap(self, selector: str) -> None:
        """A finger on what a selector shows (a ghost drawn over the board lets the tap through to the board)."""
        tap(self.page, selector)

    # ------------------------------------------------------------------ the journey
    def not_found(self) -> None:
        """Addresses that name nothing show a page that says so, in this language, with the way home."""
        for address in ("/r/" + "A" * 24, "/r/%20", "/learn/chess", "/nothing/here"):
            self.page.goto(self.base + address)
            self.page.locator("#not-found h1").filter(has_text=self.t("notFound.title")).wait_for()
            self.clean(f"the 404 page of {address}")

    def run(self, refuse: Callable[[Journey], None], undo: Callable[[Journey], None], ghost: str) -> None:
        page = self.page
        # 1. The home page, then How to play, then the guided first game against the AI.
        if page.url.startswith(self.base):
            page.locator("header a.brand").click()
        else:
            page.goto(self.base + "/")
        page.locator("#create").wait_for()
        assert page.locator("h1").first.inner_text() == self.t("home.title")
        self.clean("home page")
        page.locator("#game").select_option(self.game)  # the new-game form with this game's options and seats
        page.locator("#summary").filter(has_text=self.t(f"game.{self.game}.summary")[:30]).wait_for()
        self.clean("the new-game form")
        page.locator(f"a[href='/rules/{self.game}']").first.click()
        page.locator("#learn-link").wait_for()
        self.clean("the How to play page")
        page.locator("#learn-link").click()
        page.wait_for_url(f"**/learn/{self.game}/*")
        # 2. The guide says what the game is and what to do now.
        guide = page.locator("#guide")
        guide.filter(has_text=self.t(f"learn.{self.game}.intro")[:40]).wait_for()
        self.my_turn()
        seats = self.state()["room"]["seats"]
        assert [s["kind"] for s in seats] == ["here", "ai"], f"{self.game}: the guided game is not against the AI"
        guide.filter(has_text=self.t(f"learn.{self.game}.turn")[:40]).wait_for()
        self.clean("the guided game's start")
        if self.game == "forma":  # no piece is drawn, and none refused, before the player's first tap
            assert page.locator("#fm-board .ghost").count() == 0 and "✕" not in page.locator("#fm-info").inner_text()
        if self.lang == "en":
            self.shot("1-start")
        # 3. A hint, drawn on the board as the player's own choice; one tap on it plays it.
        if self.game == "qwirkle-cubes":
            page.locator("#qc-keep").click()  # keep the hand: the hint is then cubes on the table
            page.locator("#qc-confirm").wait_for()
        self.hint_and_tap(ghost, shoot=True)
        # 4. A refused move, and why.
        self.my_turn()
        refuse(self)
        self.clean("the refusal")
        # The refusal sits in the page's flow: every control of the board still takes a tap at its centre.
        covered = page.evaluate(COVERED)
        assert covered == [], f"{self.game} ({self.lang}): the refusal covers {covered}"
        if self.lang == "en":
            self.shot("3-refused")
        # 5. Undo, or why the last move stands.
        undo(self)
        self.clean("the undo")
        # 6. The game to its end, by the hints.
        self.my_turn()
        done = page.evaluate(FINISH, [400, self.t("error.throttled")])
        assert done["over"], f"{self.game}: the game did not end in {done['moves']} hinted moves"
        for text in done["texts"]:
            assert not PLACEHOLDER.search(text), f"{self.game}: placeholder during play {PLACEHOLDER.findall(text)}"
        # 7. The result: who won and why, in this language; the history in words.
        page.locator("#result-headline").wait_for()
        why = page.locator("#result-why").inner_text()
        assert why.startswith(self.t("room.why").split("{")[0]) and len(why) > 20, why
        history = page.locator("#history").inner_text()
        assert "@" not in history and "#" not in history, history[:400]
        # The history's numbers have room for three digits ("10." is never clipped to "l0." on a phone).
        room = page.evaluate(
            "() => { const s = getComputedStyle(document.querySelector('#history'));"
            " return parseFloat(s.paddingLeft) / parseFloat(s.fontSize); }"
        )
        assert room >= 3, room
        # Messages sit in the page's flow: none floats over the controls.
        assert page.evaluate("() => getComputedStyle(document.querySelector('#toast')).position") == "static"
        self.clean("the result")
        scroll_to(page, "#over")
        self.shot("4-result")
        assert page.errors == [], page.errors

    def hint_and_tap(self, ghost: str, shoot: bool = False) -> None:
        page = self.page
        before = self.version()
        page.locator("#learn-hint").click()
        page.locator("#learn-try").filter(has_text=self.t("learn.shown")[:30]).wait_for()
        page.locator(ghost).first.wait_for(state="attached")
        hint_text = page.locator("#learn-try").inner_text()
        assert "@" not in hint_text and page.locator("#learn-hint").inner_text() == self.t("learn.showMe")
        self.clean("the hint on the board")
        if shoot and self.lang == "en":
            scroll_to(page, ghost)
            self.shot("2-hint")
        self.tap(ghost)
        self.wait_version(before)


# ---------------------------------------------------------------------- each game's own gestures
def quadefy_refuse(j: Journey) -> None:
    j.page.locator("#qd-layers [data-i='63']").click()  # the top layer's corner: nothing can rest there yet
    j.refused()


def quadefy_undo(j: Journey) -> None:
    j.page.wait_for_function("() => document.querySelector('#app').polytableState.moves === 2")
    before = j.version()
    j.page.locator("#undo").click()  # my block and the AI's reply go back together
    j.wait_version(before)
    assert j.state()["moves"] == 0 and j.state()["mine"]["0"]["to_act"]


def foldris_refuse(j: Journey) -> None:
    j.page.locator("#fd-mirror").click()  # the first card's I bar looks the same mirrored
    assert "I" in j.refused()


def foldris_undo(j: Journey) -> None:
    why = j.page.locator("#undo-why")  # a new card was revealed since the drop: it stands, and the page says so
    why.wait_for()
    assert why.inner_text() and j.page.locator("#undo").is_hidden()


def formfinity_refuse(j: Journey) -> None:
    j.page.locator("#ff-board rect.cell[fill='#222']").first.click()  # a black square: nothing is drawn there
    j.refused()


def formfinity_undo(j: Journey) -> None:
    before = j.version()
    moves = j.state()["moves"]
    j.page.locator("#undo").click()  # the card's first element, while its second is still to place
    j.wait_version(before)
    assert j.state()["moves"] == moves - 1


def forma_refuse(j: Journey) -> None:
    page = j.page
    page.wait_for_function("() => document.querySelector('#app').polytableState.moves >= 4")  # the AI answered
    page.locator("#fm-pick").click()  # touch-move: the piece is in hand now
    page.locator("#fm-hand").wait_for()
    taken = j.state()["mine"]["0"]["view"]["players"][0]["pieces"][0]
    page.locator(f"#fm-board [data-cell='{taken}']").click()  # on my own piece: it does not fit
    j.refused()


def forma_undo(j: Journey) -> None:
    why = j.page.locator("#undo-why")  # the pick binds
    why.wait_for()
    assert j.t("error.engine.forma.pick_binding")[1:20] in why.inner_text()
    placed = j.state()["moves"] + 1  # counted before the tap: the AI may answer before the page is read again
    j.hint_and_tap("#fm-board .ghost")  # place the piece in hand
    j.page.wait_for_function(  # the placement and at least one move of the AI's reply, then my turn again
        "m => { const s = document.querySelector('#app').polytableState; return s.moves > m && s.mine['0'].to_act; }",
        arg=placed,
    )
    before = j.version()
    j.page.locator("#undo").click()  # the placement and the AI's reply go back; the piece is in hand again
    j.wait_version(before)
    j.page.locator("#fm-hand").wait_for()


def qwirkle_refuse(j: Journey) -> None:
    page = j.page
    if page.locator("#qc-keep").count():
        page.locator("#qc-keep").click()
    page.locator("#qc-hand button[data-i='0']:not([disabled])").wait_for()
    label = page.locator("#qc-hand button[data-i='0']").get_attribute("aria-label") or ""
    assert j.t("qc.pickCube").split("{")[0] in label and not re.search("[ROYGBP][●■◆♣✦✸]", label), label  # in words
    page.locator("#qc-hand button[data-i='0']").click()
    j.tap("#qc-table rect.spot")
    j.refused()


def qwirkle_undo(j: Journey) -> None:
    before = j.version()
    j.page.locator("#undo").click()  # keeping the hand is taken back: the reroll choice again
    j.wait_version(before)
    j.page.locator("#qc-keep").wait_for()


STEPS: dict[str, tuple[Callable[[Journey], None], Callable[[Journey], None], str]] = {
    "quadefy": (quadefy_refuse, quadefy_undo, "#qd-layers .ghost"),
    "foldris": (foldris_refuse, foldris_undo, "#fd-sheet .ghost"),
    "formfinity": (formfinity_refuse, formfinity_undo, "#ff-board .ghost"),
    "forma": (forma_refuse, forma_undo, "#fm-board .ghost"),
    "qwirkle-cubes": (qwirkle_refuse, qwirkle_undo, "#qc-table .new"),
}


@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("game", GAMES)
def test_a_first_time_players_journey(server: Server, pages: Callable[[str], Any], game: str, lang: str) -> None:
    _need(game)
    refuse, undo, ghost = STEPS[game]
    journey = Journey(pages(lang), server, game, lang)
    if game == GAMES[0]:
        journey.not_found()
    journey.run(refuse, undo, ghost)


def _room(server: Server, page: Any, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A Quadefy room made by the API, its tokens kept by the page as the home page keeps them, then opened."""
    r = httpx.post(server.base + "/api/rooms", json={"game": "quadefy", "players": 2, "seats": seats, "seed": 2})
    assert r.status_code == 201, r.text
    room: dict[str, Any] = r.json()
    open_room(page, server.base, room)
    return room


def test_a_hint_in_any_room_where_no_other_person_plays(server: Server, pages: Callable[[str], Any]) -> None:
    """Not only in the guided game: against an AI the hint is offered over the board and played by one tap on
    its ghost, and in a hot-seat game too (after the pass screen); with an invited person at the table, who
    plays against this player, no hint is offered."""
    _need("quadefy")
    page = pages("en")
    journey = Journey(page, server, "quadefy", "en")
    _room(server, page, [{"kind": "here"}, {"kind": "ai", "ai": "easy"}])
    journey.my_turn()
    assert page.locator("#guide").is_hidden()
    journey.hint_and_tap("#qd-layers .ghost")
    assert journey.state()["moves"] >= 1
    journey.clean("the hint against an AI")
    _room(server, page, [{"kind": "here"}, {"kind": "here"}])
    page.locator("#pass-ok").click()
    page.locator("#hint-bar #learn-hint").wait_for()
    _room(server, page, [{"kind": "here"}, {"kind": "invite"}])
    journey.my_turn()
    page.locator("#qd-layers").wait_for()
    assert page.locator("#learn-hint").count() == 0 and page.locator("#hint-bar").is_hidden()
    assert page.errors == [], page.errors


PLAY = """async ([code, tokens, moves]) => {
  const ws = new WebSocket(`ws://${location.host}/ws/${code}`);
  const states = [];
  let refused = null;
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === 'state') states.push(m);
    else if (m.type === 'error') refused = m;
  };
  await new Promise((r) => { ws.onopen = r; });
  ws.send(JSON.stringify({ type: 'hello', tokens }));
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const until = async (pred, what) => {
    for (let i = 0; !pred(); i++) {
      if (refused) throw new Error(what + ': ' + JSON.stringify(refused));
      if (i > 2000) throw new Error('waited too long for ' + what);
      await sleep(10);
    }
  };
  for (const [seat, action] of moves) {
    await until(() => states.length, 'the state');
    const seen = states.length;
    ws.send(JSON.stringify({ type: 'act', seat, version: states[states.length - 1].version, action }));
    await until(() => states.length > seen, action);
  }
  ws.close();
}"""
"""Plays moves in a room from a second connection of the page (as another tab of the same device would)."""


def test_formfinity_a_line_claimed_by_its_button(server: Server, pages: Callable[[str], Any]) -> None:
    """When an element completes lines that exclude each other, the board offers one button per line, named
    in words; the hint marks one and a tap on it claims that line (a hot-seat game whose eleventh move
    completes four lines, found by the greedy player on the offline table, which deals as the server does)."""
    from polytable.ai import make_bot
    from polytable.match import Table

    _need("formfinity")
    table = Table.new("formfinity", {}, 2, 2, [{"name": "A"}, {"name": "B"}], make_bot)
    moves: list[tuple[int, str]] = []

    def claims() -> bool:
        m = table.match
        legal = m.game.legal_actions(m.state, table.acting()[0])
        return any(m.game.format_action(a, m.state).startswith("line:") for a in legal)

    while not claims():
        assert len(moves) < 40, "no line to claim"
        seat = table.acting()[0]
        for move in table.hint(seat):
            table.play(seat, move, table.match.version)
            moves.append((seat, move))
    claimer = table.acting()[0]
    page = pages("nl")
    journey = Journey(page, server, "formfinity", "nl")
    r = httpx.post(
        server.base + "/api/rooms",
        json={"game": "formfinity", "players": 2, "seats": [{"kind": "here"}, {"kind": "here"}], "seed": 2},
    )
    assert r.status_code == 201, r.text
    room = r.json()
    open_room(page, server.base, room)
    page.locator("#pass-ok").wait_for()
    page.evaluate(PLAY, [room["code"], list(room["tokens"].values()), moves])
    page.wait_for_function("n => document.querySelector('#app').polytableState.moves >= n", arg=len(moves))
    page.locator("#pass-ok").click()
    buttons = page.locator("#ff-claims button")
    buttons.first.wait_for()
    labels = buttons.all_inner_texts()
    assert len(labels) >= 2 and all(x.startswith("Verover de lijn vanaf ") and ":" not in x for x in labels), labels
    assert journey.t("ff.claimHelp") in page.locator("#main").inner_text()
    before = journey.version()
    page.locator("#learn-hint").click()  # a hot-seat game: the hint is offered, and marks one of the buttons
    page.locator("#ff-claims button.hinted").click()
    journey.wait_version(before)
    state = journey.state()
    assert not any(a.startswith("line:") for a in state["mine"][str(claimer)]["legal"])
    assert "veroverde de lijn vanaf" in page.locator("#history").inner_text()  # the claim, in words
    journey.clean("the claimed line")
    assert page.errors == [], page.errors


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_other_pages_read_without_placeholders(server: Server, pages: Callable[[str], Any], lang: str) -> None:
    """What the journeys do not pass through, in both languages: the list of rules, the template designer,
    the games on this device, and a companion room of each card game before and after a card is dealt."""
    _need("formfinity")
    page = pages(lang)
    journey = Journey(page, server, "all", lang)
    visits = {"/rules": "a[href='/rules/forma']", "/designer": "#ds-name", "/local": "#create"}
    for address, shown in visits.items():
        page.goto(server.base + address)
        page.locator(shown).first.wait_for()
        journey.clean(address)
    for game in ("formfinity", "foldris"):
        body = {"game": game, "mode": "companion", "players": 2, "seed": 9}
        r = httpx.post(server.base + "/api/rooms", json=body)
        assert r.status_code == 201, r.text
        page.goto(f"{server.base}/r/{r.json()['code']}")
        page.locator("#deal").wait_for()
        journey.clean(f"the {game} companion")
        page.locator("#deal").click()
        page.locator("#companion-card").wait_for()
        page.wait_for_function("() => document.querySelector('#app').polytableState.companion.history.length > 0")
        journey.clean(f"the {game} companion's first card")
    assert page.errors == [], page.errors
