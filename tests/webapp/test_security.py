"""The request guard on a server of this machine (the default): it answers only to its own
``Host`` (DNS rebinding is refused), only its own pages may change what it keeps or start work
(a foreign ``Origin`` or ``Sec-Fetch-Site: cross-site`` is refused), and a body must say it is
JSON. Each refusal is one line for the API and a short page for a browser, never a 500."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from tests.webapp._endpoints import JSON, LOCAL, body_endpoints, unknown_item
from webapp.access import Access
from webapp.app import create_app
from webapp.store import Store

EVIL = "http://attacker.example:8000"
DECK = {"name": "mine", "text": "T1 height 1\n###\n"}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    found = Store(tmp_path_factory.mktemp("store") / "db.sqlite3")
    yield found
    found.close()


@pytest.fixture(scope="module")
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store=store, warm_up=False), base_url=LOCAL) as test_client:
        yield test_client


def api_refusal(response: Response, status: int, *words: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    error = response.json()["error"]
    assert isinstance(error, str) and "\n" not in error and len(error) < 400
    for word in words:
        assert word in error, error


def page_refusal(response: Response, status: int, *words: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["content-security-policy"].startswith("default-src 'self'")
    assert len(response.text) < 2_000 and "<script" not in response.text
    for word in words:
        assert word in response.text, response.text


# --- the Host -------------------------------------------------------------------------------------

FOREIGN_HOSTS = [
    "attacker.example:8000",  # DNS rebinding: a name of the attacker's, rebound to 127.0.0.1
    "attacker.example",
    "127.0.0.1.nip.io:8000",
    "localhost.:8000",
    "localhost:9000",  # this machine, but another port (another server)
    "127.0.0.1",  # port 80
    "10.1.2.3:8000",  # an address, but not the one the connection came in on
    "[::1:8000",
    "a b:8000",
    "x:99999999",
    "",
]


@pytest.mark.parametrize("host", FOREIGN_HOSTS)
def test_a_foreign_host_is_refused_by_the_api_in_one_line(client: TestClient, host: str) -> None:
    for method, path in (("GET", "/api/health"), ("GET", "/openapi.json"), ("GET", "/api/decks")):
        api_refusal(client.request(method, path, headers={"Host": host}), 400, repr(host))
    posted = client.post("/api/decks", json=DECK, headers={"Host": host, "Origin": EVIL})
    api_refusal(posted, 400, repr(host))


@pytest.mark.parametrize("host", FOREIGN_HOSTS)
def test_a_foreign_host_is_refused_by_the_pages_with_a_short_page(
    client: TestClient, host: str
) -> None:
    for path in ("/", "/grab", "/static/style.css", "/pair"):
        page_refusal(client.get(path, headers={"Host": host}), 400, "Not this server")


def test_dns_rebinding_reads_and_writes_nothing(client: TestClient, store: Store) -> None:
    # The attacker's page is same-origin with itself: its Origin is its own rebound name.
    rebound = {"Host": "attacker.example:8000", "Origin": EVIL, "Sec-Fetch-Site": "same-origin"}
    before = len(store.decks())
    assert client.post("/api/decks", json=DECK, headers=rebound).status_code == 400
    assert client.post("/api/trainer/deal", json={}, headers=rebound).status_code == 400
    assert client.get("/api/trainer", headers=rebound).status_code == 400
    assert client.get("/api/practice", headers=rebound).status_code == 400
    assert len(store.decks()) == before


def test_a_host_with_markup_is_shown_as_text(client: TestClient) -> None:
    response = client.get("/", headers={"Host": "<b>x</b>"})
    assert response.status_code == 400 and "<b>" not in response.text


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8000", "localhost:8000", "LocalHost:8000", "[::1]:8000"]
)
def test_this_machines_names_on_its_port_are_answered(client: TestClient, host: str) -> None:
    assert client.get("/api/health", headers={"Host": host}).status_code == 200
    assert client.get("/", headers={"Host": host}).status_code == 200
    assert client.head("/grab", headers={"Host": host}).status_code == 200


def test_an_address_of_the_connection_and_an_allowed_name_are_answered(tmp_path: Path) -> None:
    # A server shared on 0.0.0.0: the phone's browser names the address it connected to.
    access = Access(hosts=frozenset({"mybox.local"}))
    app = create_app(store=Store(tmp_path / "db.sqlite3"), warm_up=False, access=access)
    with TestClient(app, base_url="http://192.168.1.20:8000") as shared:
        assert shared.get("/api/health").status_code == 200
        assert shared.get("/api/health", headers={"Host": "mybox.local:8000"}).status_code == 200
        assert shared.get("/api/health", headers={"Host": "localhost:8000"}).status_code == 200
        for host in ("192.168.1.21:8000", "other.local:8000", "mybox.local:8080"):
            api_refusal(shared.get("/api/health", headers={"Host": host}), 400, repr(host))


def test_a_dual_stack_server_knows_an_ipv4_address_as_itself(tmp_path: Path) -> None:
    # The request is handed to the application as the server sees it (ASGI's scope): the test
    # client of Starlette's oldest supported version cannot parse an IPv6 base URL.
    app = create_app(store=Store(tmp_path / "db.sqlite3"), warm_up=False)
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/api/health",
        "raw_path": b"/api/health",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"192.168.1.20:8000")],
        "client": ("192.168.1.30", 50000),
        "server": ("::ffff:192.168.1.20", 8000),  # the IPv6 socket of a dual-stack server
    }
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    # In a thread of its own: a browser test of the same worker may hold a running event loop
    # in this one (Playwright's sync API), where asyncio.run refuses to start.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, app(scope, receive, send)).result()
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 200


# --- cross-site requests ---------------------------------------------------------------------------

FOREIGN = [
    {"Origin": EVIL},
    {"Origin": "http://127.0.0.1:9000"},  # another server of this machine
    {"Origin": "https://127.0.0.1:8000"},
    {"Origin": "null"},  # a sandboxed frame, a file
    {"Origin": "http://127.0.0.1:8000", "Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},  # another port of the same host is the same site
]


@pytest.mark.parametrize("headers", FOREIGN, ids=lambda h: " ".join(h.values()))
def test_a_foreign_page_may_change_nothing(
    client: TestClient, store: Store, headers: dict[str, str]
) -> None:
    before = len(store.decks())
    endpoints = body_endpoints(client)
    assert len(endpoints) >= 20
    for method, path in endpoints:
        response = client.request(method, path, json={}, headers=headers)
        api_refusal(response, 403, f"may not {method} {path!r}")
    response = client.post("/api/decks", json=DECK, headers=headers)
    api_refusal(response, 403)
    assert len(store.decks()) == before


@pytest.mark.parametrize("method", ["DELETE", "PATCH", "PUT", "OPTIONS", "POST"])
def test_every_method_but_get_and_head_is_guarded(client: TestClient, method: str) -> None:
    # Whatever endpoint a method reaches now or later (deck deletion is coming), and whether it
    # exists or not, a foreign page is refused before it is routed.
    for path in ("/api/decks/x", "/api/decks", "/api/anything", "/"):
        response = client.request(method, path, headers={"Origin": EVIL})
        assert response.status_code == 403, (method, path, response.text)


def test_a_foreign_page_may_still_link_to_the_pages(client: TestClient) -> None:
    # Reading is harmless: a page of another site cannot read the answer (no CORS header).
    for path in ("/", "/grab", "/api/health"):
        response = client.get(path, headers={"Origin": EVIL, "Sec-Fetch-Site": "cross-site"})
        assert response.status_code == 200
        assert "access-control-allow-origin" not in response.headers


def test_the_own_pages_and_clients_that_are_no_browser_are_answered(client: TestClient) -> None:
    for headers in (
        {"Origin": LOCAL, "Sec-Fetch-Site": "same-origin"},  # the server's own page
        {"Origin": "http://127.0.0.1:8000"},
        {"Sec-Fetch-Site": "none"},  # typed into the address bar
        {},  # curl, a script
    ):
        response = client.post("/api/packing/best", json={"roll": [3, 2, 3, 0, 1]}, headers=headers)
        assert response.status_code == 200, (headers, response.text)


def test_a_cross_site_refusal_is_a_page_for_a_browser(client: TestClient) -> None:
    page_refusal(client.post("/grab", headers={"Origin": EVIL}), 403, "attacker.example")


# --- the body's Content-Type ----------------------------------------------------------------------

NOT_JSON = [
    "text/plain",  # a form or fetch() of another site may send these without asking first
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "text/json",
]


@pytest.mark.parametrize("kind", NOT_JSON)
def test_a_body_that_does_not_say_it_is_json_is_refused(client: TestClient, kind: str) -> None:
    for method, path in body_endpoints(client):
        response = client.request(method, path, content=b"{}", headers={"Content-Type": kind})
        if unknown_item(path, response):
            continue
        api_refusal(response, 415, repr(kind), "application/json")


def test_a_body_without_a_content_type_is_refused(client: TestClient) -> None:
    for method, path in body_endpoints(client):
        response = client.request(method, path, content=b'{"roll": "3,2,3,0,1"}')
        if unknown_item(path, response):
            continue
        api_refusal(response, 415, "Content-Type", "application/json")


def test_json_with_a_charset_and_an_empty_body_are_read(client: TestClient) -> None:
    kind = {"Content-Type": "application/json; charset=utf-8"}
    best = client.post("/api/packing/best", content=b'{"roll": "3,2,3,0,1"}', headers=kind)
    assert best.status_code == 200
    assert client.post("/api/trainer/deal").status_code == 200  # no body: {}
    assert client.post("/api/trainer/deal", content=b"{}", headers=JSON).status_code == 200
