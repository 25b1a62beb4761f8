"""A picture request's answer is bounded like the request: a deck of more trucks or a train of
more cards than a picture request draws is refused before anything is drawn, and no picture
answer is longer than :data:`webapp.pictures.LARGEST_ANSWER` bytes (one line, HTTP 422)."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from express.cards import DECK
from webapp import pictures
from webapp.api import LARGEST_PICTURE_BODY
from webapp.pictures import LARGEST_ANSWER, MOST_TRAIN_CARDS, MOST_TRUCKS

#: A truck of the largest size with every other cell usable: the longest picture of one truck.
CHECKERED = "\n".join(["#." * 50] * 100)


def refused(response: object, *words: str) -> None:
    status = response.status_code  # type: ignore[attr-defined]
    error = response.json()["error"]  # type: ignore[attr-defined]
    assert status == 422, (status, error)
    assert "\n" not in error and len(error) < 300
    for word in words:
        assert word in error, error


def test_a_deck_of_thousands_of_small_trucks_is_refused_before_drawing(client: TestClient) -> None:
    deck = "\n\n".join(f"t{i} height 1\n#" for i in range(9_000))
    assert len(deck) < LARGEST_PICTURE_BODY
    began = time.perf_counter()
    response = client.post("/api/packing/deck", json={"deck": deck})
    refused(response, "9,000 trucks", f"{MOST_TRUCKS}")
    assert time.perf_counter() - began < 1.0  # drawing them took seconds (24 MB of SVG)


def test_a_deck_of_large_pictures_stops_at_the_byte_limit(client: TestClient) -> None:
    deck = "\n\n".join(f"big{i} height 100\n{CHECKERED}" for i in range(19))
    assert len(deck) < LARGEST_PICTURE_BODY  # each truck's picture is about 1.4 MB
    began = time.perf_counter()
    response = client.post("/api/packing/deck", json={"deck": deck})
    refused(response, f"{LARGEST_ANSWER:,} bytes")
    assert time.perf_counter() - began < 2.0  # two pictures drawn, not nineteen


def test_a_train_of_thousands_of_cards_is_refused_before_drawing(client: TestClient) -> None:
    assert MOST_TRAIN_CARDS == len(DECK)  # no train holds more cards than the deck
    train = ",".join(["R4|B4"] * 20_000)
    assert len(train) < LARGEST_PICTURE_BODY
    response = client.post("/api/express/train", json={"train": train})
    refused(response, "20,000 cards", f"{MOST_TRAIN_CARDS}")
    whole_deck = client.post("/api/express/train", json={"train": "~," * 31 + "~"})
    assert whole_deck.status_code == 200


def test_no_picture_answer_passes_the_byte_limit(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sample = client.post("/api/packing/deck", json={})
    assert sample.status_code == 200 and len(sample.content) <= LARGEST_ANSWER
    # A large truck that still fits (its two pictures, the full one and the compact one, come
    # to about 1.8 MB), then the same past a lowered limit.
    large = {"truck": "/".join(CHECKERED.split("\n")[:60]), "height": 100}
    one = client.post("/api/packing/truck", json=large)
    assert one.status_code == 200 and len(one.content) <= LARGEST_ANSWER
    monkeypatch.setattr(pictures, "LARGEST_ANSWER", len(one.content) - 1)
    again = client.post("/api/packing/truck", json=large)
    refused(again, f"{len(one.content) - 1:,} bytes")


def test_each_picture_endpoint_states_its_limits(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/packing/deck", "/api/packing/truck", "/api/packing/plan",
                 "/api/express/cards", "/api/express/train"):  # fmt: skip
        text = paths[path]["post"]["description"]
        assert f"{LARGEST_PICTURE_BODY:,} bytes" in text and f"{LARGEST_ANSWER:,} bytes" in text
    assert f"{MOST_TRUCKS} trucks" in paths["/api/packing/deck"]["post"]["description"]
    assert f"{MOST_TRAIN_CARDS} cards" in paths["/api/express/train"]["post"]["description"]
