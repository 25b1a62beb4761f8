"""webapp.designer: decks compared with charts, decks saved and listed; bad input is a 4xx
with one line, never a 500; a truck's name that looks like markup comes back as it was."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from fastapi.testclient import TestClient
    from httpx import Response

pytestmark = pytest.mark.extra("web")

SMALL_DECK = "A1 height 2\n####.\n###..\n\nB2 height 3\n#####\n#...#\n"
SCRIPT = "<script>alert(1)</script>"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    from fastapi.testclient import TestClient

    from webapp.app import create_app
    from webapp.store import Store

    app = create_app(store=Store(tmp_path / "db.sqlite3"), warm_up=False)
    with TestClient(app, base_url="http://127.0.0.1:8000") as test_client:
        yield test_client


def _one_line_error(response: Response, status: int = 422) -> str:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert isinstance(error, str) and error and "\n" not in error
    return error


def test_save_and_list_decks_round_trip_a_script_name(client: TestClient) -> None:
    text = f"{SCRIPT} height 2\n###\n###\n"
    saved = client.post("/api/decks", json={"name": SCRIPT, "text": text})
    assert saved.status_code == 200, saved.text
    assert saved.json()["name"] == SCRIPT and saved.json()["text"] == text
    listed = client.get("/api/decks").json()["decks"]
    assert [(d["name"], d["text"]) for d in listed] == [(SCRIPT, text)]
    shown = client.post("/api/packing/deck", json={"deck": text}).json()
    assert shown["trucks"][0]["name"] == SCRIPT
    assert "<script>" not in shown["trucks"][0]["svg"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"name": "x"}, "'text'"),
        ({"text": SMALL_DECK}, "'name'"),
        ({"name": "", "text": SMALL_DECK}, "'name'"),
        ({"name": "x" * 61, "text": SMALL_DECK}, "more than 60"),
        ({"name": "x", "text": "A height 0\n##\n"}, "height"),
        ({"name": "x", "text": "; nothing\n"}, "no truck"),
        ({"name": "x", "text": "x" * 64_001}, "more than 64,000"),
        ({"name": "x", "text": 3}, "'text'"),
        ({"name": "x", "text": SMALL_DECK, "extra": 1}, "unknown field"),
        ([1, 2], "JSON object"),
    ],
)
def test_bad_decks_are_refused_in_one_line(client: TestClient, body: object, words: str) -> None:
    response = client.post("/api/decks", json=body)
    assert words in _one_line_error(response)
    assert client.get("/api/decks").json() == {"decks": []}


def test_a_body_that_is_not_json(client: TestClient) -> None:
    response = client.post(
        "/api/decks", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert "not JSON" in _one_line_error(response, 400)


def test_compare_reports_and_charts(client: TestClient) -> None:
    from packing.deck import SAMPLE_DECK, format_deck

    # the sample deck's table is shipped: nothing is built (and nothing written) here
    response = client.post(
        "/api/packing/compare", json={"decks": [format_deck(SAMPLE_DECK)], "labels": [SCRIPT]}
    )
    assert response.status_code == 200, response.text
    data = response.json()
    assert [d["deck"] for d in data["decks"]] == [SCRIPT]
    assert len(data["decks"][0]["trucks"]) == 30
    charts = data["charts"]
    assert len(charts["p_best"]) == 1
    for svg in [charts["best_by_volume"], *charts["p_best"]]:
        assert svg.startswith("<svg") and "<script>" not in svg
    assert "&lt;script&gt;" in charts["best_by_volume"]


def test_a_new_deck_has_its_table_built_and_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from packing.deck import SAMPLE_DECK, format_deck
    from packing.table import forget_tables
    from webapp.designer import compare_answer

    monkeypatch.setenv("PACKING_TABLE_DIR", str(tmp_path))
    try:
        data = compare_answer([SMALL_DECK, format_deck(SAMPLE_DECK)], ["mine", "sample"])
    finally:
        forget_tables()
    assert [t["truck"] for t in data["decks"][0]["trucks"]] == ["A1", "B2"]
    assert sum(t["p_best"] for t in data["decks"][0]["trucks"]) >= 1 - 1e-9
    assert len(data["charts"]["p_best"]) == 2
    assert len(list(tmp_path.glob("*.npz"))) == 1  # packing stats of this deck finds it


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, "'decks'"),
        ({"decks": []}, "'decks'"),
        ({"decks": "A height 1\n#\n"}, "'decks'"),
        ({"decks": [SMALL_DECK] * 5}, "more than 4"),
        ({"decks": ["x" * 64_001]}, "more than 64,000"),
        ({"decks": ["A height 9x\n#\n"]}, "decks[0]"),
        ({"decks": [SMALL_DECK, 7]}, "decks[1]"),
        ({"decks": [SMALL_DECK], "labels": ["a", "b"]}, "'labels'"),
        ({"decks": [SMALL_DECK], "labels": ["y" * 61]}, "more than 60"),
        ({"decks": [SMALL_DECK], "top": 3}, "unknown field"),
    ],
)
def test_bad_comparisons_are_refused_in_one_line(
    client: TestClient, body: object, words: str
) -> None:
    response = client.post("/api/packing/compare", json=body)
    assert words in _one_line_error(response)


def test_the_endpoints_document_their_limits(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "64,000" in paths["/api/packing/compare"]["post"]["description"]
    assert "120 s" in paths["/api/packing/compare"]["post"]["description"]
    assert "60 characters" in paths["/api/decks"]["post"]["description"]
    assert (
        "deck"
        in paths["/api/decks"]["post"]["requestBody"]["content"]["application/json"]["schema"][
            "properties"
        ]["text"]["description"]
    )


def test_saved_decks_are_renamed_deleted_and_never_share_a_name(client: TestClient) -> None:
    first = client.post("/api/decks", json={"name": "Mine", "text": SMALL_DECK}).json()
    taken = client.post("/api/decks", json={"name": "mine", "text": SMALL_DECK})
    assert "a deck named 'mine' is saved already" in _one_line_error(taken, 409)
    other = client.post("/api/decks", json={"name": "other", "text": SMALL_DECK}).json()
    # replace keeps the deck (its id) and takes the new text
    replaced = client.post(
        "/api/decks", json={"name": "MINE", "text": "C1 height 1\n##\n", "replace": True}
    ).json()
    assert replaced["id"] == first["id"] and replaced["text"] == "C1 height 1\n##\n"
    assert sorted(d["name"] for d in client.get("/api/decks").json()["decks"]) == [
        "MINE",
        "other",
    ]
    # rename: to a free name; not to another deck's
    renamed = client.patch(f"/api/decks/{other['id']}", json={"name": "  two   words "})
    assert renamed.status_code == 200 and renamed.json()["name"] == "two words"
    clash = client.patch(f"/api/decks/{other['id']}", json={"name": "mine"})
    assert "saved already" in _one_line_error(clash, 409)
    for body, words in (
        ({"name": ""}, "'name'"),
        ({"name": "ok", "colour": "red"}, "unknown field 'colour'"),
        ([], "JSON object"),
    ):
        assert words in _one_line_error(client.patch(f"/api/decks/{other['id']}", json=body))
    assert "no saved deck" in _one_line_error(
        client.patch("/api/decks/nothing", json={"name": "x"}), 404
    )
    # delete
    assert client.delete(f"/api/decks/{first['id']}").json() == {"deleted": first["id"]}
    assert [d["name"] for d in client.get("/api/decks").json()["decks"]] == ["two words"]
    assert "no saved deck" in _one_line_error(client.delete(f"/api/decks/{first['id']}"), 404)
    assert "'replace'" in _one_line_error(
        client.post("/api/decks", json={"name": "y", "text": SMALL_DECK, "replace": "yes"})
    )
