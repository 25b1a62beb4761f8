"""The pages answer ``HEAD`` as they answer ``GET``, without the body (a link checker, ``curl -I``
and some phone browsers ask so before they load a page)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from webapp.app import PAGES, create_app
from webapp.store import Store


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    store = Store(tmp_path_factory.mktemp("store") / "db.sqlite3")
    app = create_app(store=store, warm_up=False)
    with TestClient(app, base_url="http://127.0.0.1:8000") as test_client:
        yield test_client


@pytest.mark.parametrize("path", ["/", *(f"/{page}" for page in PAGES), "/static/style.css"])
def test_head_answers_like_get_without_a_body(client: TestClient, path: str) -> None:
    got = client.get(path)
    head = client.head(path)
    assert got.status_code == head.status_code == 200
    assert head.content == b""
    for name in ("content-type", "content-length", "content-security-policy"):
        assert head.headers[name] == got.headers[name]
