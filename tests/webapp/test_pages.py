"""The pages answer ``HEAD`` as they answer ``GET``, without the body (a link checker, ``curl -I``
and some phone browsers ask so before they load a page)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from webapp.app import PAGES


@pytest.mark.parametrize("path", ["/", *(f"/{page}" for page in PAGES), "/static/style.css"])
def test_head_answers_like_get_without_a_body(client: TestClient, path: str) -> None:
    got = client.get(path)
    head = client.head(path)
    assert got.status_code == head.status_code == 200
    assert head.content == b""
    for name in ("content-type", "content-length", "content-security-policy"):
        assert head.headers[name] == got.headers[name]
