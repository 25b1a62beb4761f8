"""Every JSON body goes through :func:`webapp.api.read_body`: one that nests too deep or holds a
number too long for Python to read is refused in one line (HTTP 400) by every endpoint that
takes a body, never a 500."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.webapp._endpoints import JSON, UNKNOWN, body_endpoints, unknown_item
from webapp.api import LARGEST_DEPTH, LONGEST_NUMBER


def test_every_body_endpoint_is_found(client: TestClient) -> None:
    endpoints = body_endpoints(client)
    assert ("POST", "/api/packing/best") in endpoints and ("POST", "/api/decks") in endpoints
    assert ("POST", f"/api/practice/{UNKNOWN}/move") in endpoints and len(endpoints) >= 20


def one_line_400(response: object, *words: str) -> None:
    status = response.status_code  # type: ignore[attr-defined]
    error = response.json()["error"]  # type: ignore[attr-defined]
    assert status == 400, (status, error)
    assert isinstance(error, str) and "\n" not in error and len(error) < 300
    for word in words:
        assert word in error, error


# Each body fits the smallest size cap (10,000 bytes: a practice or trainer request).
@pytest.mark.parametrize("depth", [LARGEST_DEPTH + 1, 1_000, 4_900])
def test_a_body_nested_too_deep_is_refused_by_every_endpoint(
    client: TestClient, depth: int
) -> None:
    nested = "[" * depth + "]" * depth
    for method, path in body_endpoints(client):
        response = client.request(method, path, content=f'{{"roll": {nested}}}', headers=JSON)
        if unknown_item(path, response):
            continue
        one_line_400(response, f"{LARGEST_DEPTH} levels")


def test_a_number_too_long_is_refused_by_every_endpoint(client: TestClient) -> None:
    for digits in (LONGEST_NUMBER + 1, 4_301, 9_900):
        number = "1" * digits
        for method, path in body_endpoints(client):
            response = client.request(method, path, content=f'{{"seed": {number}}}', headers=JSON)
            if unknown_item(path, response):
                continue
            one_line_400(response, f"{digits:,} digits", f"at most {LONGEST_NUMBER}")


def test_a_megabyte_of_nesting_is_refused_quickly(client: TestClient) -> None:
    nested = "[" * 499_990 + "]" * 499_990
    began = time.perf_counter()
    response = client.post("/api/packing/best", content=nested, headers=JSON)
    one_line_400(response, f"{LARGEST_DEPTH} levels")
    assert time.perf_counter() - began < 2.0


def test_brackets_and_digits_in_strings_are_text(client: TestClient) -> None:
    # Only the structure counts: a deck's name may hold brackets, a label many digits.
    text = '{"deck": "' + "[{" * 5_000 + '\\"[[[[", "title": "' + "9" * 10_000 + '"}'
    response = client.post("/api/packing/deck", content=text, headers=JSON)
    assert response.status_code == 422 and "levels" not in response.json()["error"]
    # an escaped backslash ends its escape: the brackets after the string are structure
    deep = (
        '{"title": "\\\\", "deck": ' + "[" * (LARGEST_DEPTH + 1) + "]" * (LARGEST_DEPTH + 1) + "}"
    )
    one_line_400(client.post("/api/packing/deck", content=deep, headers=JSON), "levels")


def test_a_body_just_within_the_bounds_is_read(client: TestClient, tmp_path: Path) -> None:
    within = "[" * (LARGEST_DEPTH - 1) + "]" * (LARGEST_DEPTH - 1)
    response = client.post("/api/packing/best", content=f'{{"roll": {within}}}', headers=JSON)
    assert response.status_code == 422  # read, and refused by the command as no roll
    seed = "9" * LONGEST_NUMBER
    response = client.post("/api/trainer/deal", content=f'{{"seed": {seed}}}', headers=JSON)
    assert response.status_code == 422 and "'seed'" in response.json()["error"]
