"""The web tests' shared fixture: the application behind FastAPI's test client, on a database of
its own per test module. Its imports wait for the fixture: without the ``web`` extra, these
modules' tests are skipped (``pytest.mark.extra``), not broken at collection."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from fastapi.testclient import TestClient

    from tests.webapp._endpoints import LOCAL
    from webapp.app import create_app
    from webapp.store import Store

    store = Store(tmp_path_factory.mktemp("store") / "db.sqlite3")
    with TestClient(create_app(store=store, warm_up=False), base_url=LOCAL) as test_client:
        yield test_client
