"""A practice move is written or refused, never half made: a store that cannot be written leaves
the game as it was (HTTP 503, try again), and the same move sent twice is made once (a move
names the decision it answers; a stale one is refused with 409)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import webapp.practice
from webapp import store as store_module
from webapp.errors import Conflict
from webapp.practice import Sessions
from webapp.store import Store, StoreUnavailable

pytestmark = pytest.mark.extra("web")

SETUP = {"game": "express", "players": ["you", "greedy"], "seed": 4}


@pytest.fixture
def quick_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    """A write gives up on another program's lock after 0.2 s, not 2 s (the tests wait less)."""
    monkeypatch.setattr(store_module, "BUSY_SECONDS", 0.2)


@pytest.fixture
def held(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """Another program's connection to the database, which the test may lock."""
    Store(tmp_path / "db.sqlite3").close()
    other = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    yield other
    if other.in_transaction:
        other.execute("ROLLBACK")
    other.close()


def move(view: dict[str, Any], choice: int = 0) -> dict[str, Any]:
    return {"action": view["choices"][choice]["index"], "decision": view["decision"]}


@pytest.mark.usefixtures("quick_busy")
def test_a_move_the_store_cannot_write_leaves_the_game_as_it_was(
    tmp_path: Path, held: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two games' grades are compared: the grade's time limit could stop one before all its
    # worlds on a loaded machine.
    monkeypatch.setattr(webapp.practice, "GRADE_SECONDS", None)
    sessions = Sessions(Store(tmp_path / "db.sqlite3"))
    before = sessions.create(SETUP)
    held.execute("BEGIN IMMEDIATE")  # another program holds the file
    with pytest.raises(StoreUnavailable) as refused:
        sessions.move(before["id"], move(before))
    message = str(refused.value)
    assert refused.value.status == 503 and "try again" in message and "\n" not in message
    assert sessions.view(before["id"]) == before  # the server's copy did not move ahead
    held.execute("ROLLBACK")

    # Tapping the same choice again makes the move once, as if the first tap had never been.
    after = sessions.move(before["id"], move(before))
    assert len(after["grades"]) == 1
    fresh = Sessions(Store(tmp_path / "other.sqlite3"))
    once = fresh.create(SETUP)
    once = fresh.move(once["id"], move(once))
    assert {k: v for k, v in after.items() if k != "id"} == {
        k: v for k, v in once.items() if k != "id"
    }
    # and a restart finds the move that was made, and only it
    restarted = Sessions(Store(tmp_path / "db.sqlite3"))
    assert restarted.view(before["id"]) == after


def test_the_same_move_sent_twice_is_made_once(tmp_path: Path) -> None:
    sessions = Sessions(Store(tmp_path / "db.sqlite3"))
    view = sessions.create(SETUP)
    assert view["decision"] == 1
    first = sessions.move(view["id"], move(view, 1))
    again = sessions.move(view["id"], move(view, 1))  # the same request, sent twice
    assert again == first and len(first["grades"]) == 1 and first["decision"] == 2
    restarted = Sessions(Store(tmp_path / "db.sqlite3"))
    assert restarted.view(view["id"])["grades"] == first["grades"]


def test_a_stale_or_early_decision_is_refused(tmp_path: Path) -> None:
    sessions = Sessions(Store(tmp_path / "db.sqlite3"))
    view = sessions.create(SETUP)
    first = sessions.move(view["id"], move(view, 1))
    second = sessions.move(first["id"], move(first, 0))
    for body, words in (
        ({"action": 0, "decision": 1}, "decision 1 was answered already"),  # stale
        ({"action": 1, "decision": 2}, "decision 2 was answered already"),  # another choice
        ({"action": 0, "decision": 9}, "9 is not asked yet: the game is at decision 3"),
    ):
        with pytest.raises(Conflict, match=words) as refused:
            sessions.move(view["id"], body)
        assert refused.value.status == 409 and "\n" not in str(refused.value)
    assert sessions.view(view["id"]) == second


def test_over_http_a_locked_store_is_a_503_and_a_repeat_is_answered(
    tmp_path: Path, held: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fastapi.testclient import TestClient

    from webapp.app import create_app

    monkeypatch.setattr(store_module, "BUSY_SECONDS", 0.2)
    app = create_app(store=Store(tmp_path / "db.sqlite3"), warm_up=False)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        view = client.post("/api/practice", json=SETUP).json()
        path = f"/api/practice/{view['id']}/move"
        held.execute("BEGIN IMMEDIATE")
        refused = client.post(path, json=move(view))
        assert refused.status_code == 503 and refused.headers["retry-after"] == "2"
        assert list(refused.json()) == ["error"] and "try again" in refused.json()["error"]
        held.execute("ROLLBACK")
        assert client.get(f"/api/practice/{view['id']}").json() == view

        made = client.post(path, json=move(view))
        repeated = client.post(path, json=move(view))
        assert made.status_code == repeated.status_code == 200
        assert made.json() == repeated.json() and len(made.json()["grades"]) == 1
        stale = client.post(path, json={"action": 1, "decision": 1})
        assert stale.status_code == 409 and "answered already" in stale.json()["error"]
        unknown = client.post(path, json={**move(made.json()), "again": True})
        assert unknown.status_code == 422 and "unknown field 'again'" in unknown.json()["error"]
