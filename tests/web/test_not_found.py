"""Addresses that name nothing answer 404: a malformed room code, an unknown game, an unknown page get the app
shell (whose scripts show the not-found page in the player's language, see test_browser_journey.py), and an
unknown API address a JSON error with its reason; the pages that exist answer 200."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient


@pytest.mark.parametrize(
    ("address", "status"),
    [
        ("/", 200),
        ("/r/ABCDE", 200),  # a well-formed code: the page asks the server, which says if the room is missing
        ("/learn/forma", 200),
        ("/learn/forma/ABCDE", 200),
        ("/rules/quadefy", 200),
        ("/r/" + "A" * 24, 404),
        ("/r/%20", 404),
        ("/learn/chess", 404),
        ("/rules/chess", 404),
        ("/nothing/here", 404),
    ],
)
def test_pages_that_name_nothing_answer_404_with_the_app_shell(client: TestClient, address: str, status: int) -> None:
    r = client.get(address)
    assert r.status_code == status
    assert r.headers["content-type"].startswith("text/html") and "/static/app.js" in r.text


def test_an_unknown_api_address_is_still_a_json_404_with_its_reason(client: TestClient) -> None:
    r = client.get("/api/nothing")  # the pages' catch-all leaves the API's own answer as it is
    assert r.status_code == 404 and r.json()["reason"] == "no_api"
    assert client.post("/api/nothing", json={}).status_code == 404
