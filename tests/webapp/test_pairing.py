"""Sharing the server with a phone: a shared server answers only paired devices (the pairing
link's cookie, or the token as ``Authorization: Bearer``), the machine itself included; the
token is kept per data folder, readable by its owner only, so a phone stays paired after a
restart, and ``--new-token`` unpairs every device; ``tabletop-web --host 0.0.0.0`` prints the
addresses to open, the pairing links and a QR code of the first, which the front page shows
too. A server of this machine (the default) needs no pairing."""

from __future__ import annotations

import http.client
import os
import re
import socket
import stat
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from tests.webapp._endpoints import JSON, LOCAL
from tests.webapp.browser import LiveServer
from webapp import sharing
from webapp.access import TOKEN_FILE, Access, load_token
from webapp.app import create_app
from webapp.cli import main
from webapp.errors import WebError
from webapp.guard import COOKIE_SECONDS
from webapp.store import Store

TOKEN = "t0ken-of-thirty-two-characters_x"
LINK = f"http://192.168.1.20:8000/pair?token={TOKEN}"
SHARED = Access(token=TOKEN, links=(LINK, "http://10.0.0.5:8000/pair?token=" + TOKEN))


@pytest.fixture
def app_shared(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(store=Store(tmp_path / "db.sqlite3"), warm_up=False, access=SHARED)
    with TestClient(app, base_url="http://192.168.1.20:8000", follow_redirects=False) as client:
        yield client


def one_line(response: Response, status: int, *words: str) -> None:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert isinstance(error, str) and "\n" not in error
    for word in words:
        assert word in error, error


# --- the token file ---------------------------------------------------------------------------


def test_the_token_is_kept_private_per_folder_and_renewed_on_request(tmp_path: Path) -> None:
    token = load_token(tmp_path)
    path = tmp_path / TOKEN_FILE
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", token)
    assert path.read_text() == token + "\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_token(tmp_path) == token  # a restart: the same token, phones stay paired
    assert load_token(tmp_path / "elsewhere") != token  # another data folder, another token
    renewed = load_token(tmp_path, renew=True)
    assert renewed != token and load_token(tmp_path) == renewed
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir() if p.is_file()] == [TOKEN_FILE]  # no leftovers


def test_a_token_file_readable_by_others_is_made_private(tmp_path: Path) -> None:
    token = load_token(tmp_path)
    (tmp_path / TOKEN_FILE).chmod(0o644)
    assert load_token(tmp_path) == token
    assert stat.S_IMODE((tmp_path / TOKEN_FILE).stat().st_mode) == 0o600


def test_a_damaged_or_unwritable_token_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / TOKEN_FILE).write_text("short\n")
    with pytest.raises(WebError, match="damaged: delete it") as damaged:
        load_token(tmp_path)
    assert "\n" not in str(damaged.value)
    (tmp_path / "a file").write_text("")
    with pytest.raises(WebError, match="cannot keep the pairing token") as unwritable:
        load_token(tmp_path / "a file" / "data")
    assert "\n" not in str(unwritable.value)


# --- a shared server --------------------------------------------------------------------------


def test_an_unpaired_browser_is_told_how_to_pair(app_shared: TestClient) -> None:
    for path in ("/", "/grab", "/static/style.css", "/api"):
        response = app_shared.get(path)
        assert response.status_code == 401
        assert response.headers["content-type"].startswith("text/html")
        assert "Pair this device" in response.text and "scan the QR code" in response.text
        assert TOKEN not in response.text
        assert response.headers["cache-control"] == "no-store"


def test_an_unpaired_api_client_is_refused_in_one_line(app_shared: TestClient) -> None:
    for method, path in (("GET", "/api/health"), ("GET", "/openapi.json"), ("POST", "/api/decks")):
        response = app_shared.request(method, path, json={})
        one_line(response, 401, "pair this device", "Authorization: Bearer")
        assert response.headers["www-authenticate"].startswith("Bearer")
    wrong = {"Authorization": "Bearer " + TOKEN[:-1] + "y"}
    one_line(app_shared.get("/api/health", headers=wrong), 401)
    one_line(app_shared.get("/api/health", headers={"Authorization": "Basic " + TOKEN}), 401)
    latin = {"Authorization": "Bearer é".encode("latin-1")}  # not ASCII: no token, no error
    one_line(app_shared.get("/api/health", headers=latin), 401)


def test_the_pairing_link_sets_a_strict_cookie_and_leaves_the_address_bar(
    app_shared: TestClient,
) -> None:
    response = app_shared.get(f"/pair?token={TOKEN}")
    assert response.status_code == 303 and response.headers["location"] == "/"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{SHARED.cookie}={TOKEN};")
    for attribute in ("HttpOnly", "SameSite=strict", "Path=/", f"Max-Age={COOKIE_SECONDS}"):
        assert attribute.lower() in cookie.lower(), cookie
    assert response.headers["cache-control"] == "no-store"
    # the client keeps the cookie, as a browser does: every page and endpoint answers now
    assert app_shared.get("/").status_code == 200
    assert app_shared.get("/api/health").json() == {"status": "ok"}
    assert app_shared.post("/api/trainer/deal", json={}).status_code == 200


def test_a_wrong_pairing_link_pairs_nothing(app_shared: TestClient) -> None:
    for query in ("", "?token=", f"?token={TOKEN}x", "?token=%C3%A9", f"?tok={TOKEN}"):
        response = app_shared.get(f"/pair{query}")
        assert response.status_code == 403 and "set-cookie" not in response.headers
        assert "Not a pairing link of this server" in response.text
    assert app_shared.get("/").status_code == 401


def test_an_api_client_sends_the_token_as_a_bearer(app_shared: TestClient) -> None:
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    assert app_shared.get("/api/health", headers=bearer).status_code == 200
    best = app_shared.post("/api/packing/best", json={"roll": "3,2,3,0,1"}, headers=bearer)
    assert best.status_code == 200


def test_a_paired_device_is_still_guarded_by_host_and_origin(app_shared: TestClient) -> None:
    assert app_shared.get(f"/pair?token={TOKEN}").status_code == 303
    rebound = app_shared.get("/api/health", headers={"Host": "attacker.example:8000"})
    one_line(rebound, 400, "attacker.example")
    foreign = app_shared.post("/api/decks", json={}, headers={"Origin": "http://evil.example"})
    one_line(foreign, 403, "evil.example")


def test_the_front_page_is_told_the_links_and_their_qr_code(app_shared: TestClient) -> None:
    assert app_shared.get("/api/pairing").status_code == 401  # the token is in it
    assert app_shared.get(f"/pair?token={TOKEN}").status_code == 303
    answer = app_shared.get("/api/pairing").json()
    assert answer["shared"] is True and answer["links"] == list(SHARED.links)
    svg = ElementTree.fromstring(answer["svg"])
    assert svg.tag == "{http://www.w3.org/2000/svg}svg" and svg.get("viewBox")
    assert "style" not in answer["svg"]  # the pages' policy allows no inline style
    assert app_shared.get("/api/pairing").headers["cache-control"] == "no-store"


def test_a_server_of_this_machine_needs_no_pairing(tmp_path: Path) -> None:
    app = create_app(store=Store(tmp_path / "db.sqlite3"), warm_up=False)
    with TestClient(app, base_url=LOCAL, follow_redirects=False) as client:
        assert client.get("/").status_code == 200
        assert client.get("/api/pairing").json() == {"shared": False, "links": [], "svg": None}
        paired = client.get(f"/pair?token={TOKEN}")
        assert paired.status_code == 303 and "set-cookie" not in paired.headers
    assert not (tmp_path / TOKEN_FILE).exists()


# --- a real server, over a socket ----------------------------------------------------------------


def _ask(port: int, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body or None, headers=headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_the_pairing_cookie_over_a_real_socket(tmp_path: Path) -> None:
    token = load_token(tmp_path)
    server = LiveServer(tmp_path, access_for=lambda port: Access(token=token))
    server.start()
    try:
        port = server.port
        host = {"Host": f"127.0.0.1:{port}"}
        # from this machine too: a proxy or tunnel here would make every client look local
        status, headers, body = _ask(port, "GET", "/api/health", host)
        assert status == 401 and b"pair this device" in body
        status, _, body = _ask(port, "GET", "/", host)
        assert status == 401 and b"Pair this device" in body
        status, headers, _ = _ask(port, "GET", f"/pair?token={token}", host)
        assert status == 303 and headers["location"] == "/"
        cookie = headers["set-cookie"].split(";")[0]
        assert "httponly" in headers["set-cookie"].lower()
        assert "samesite=strict" in headers["set-cookie"].lower()
        paired = host | {"Cookie": cookie}
        status, headers, body = _ask(port, "GET", "/", paired)
        assert status == 200 and b"<title>" in body
        page = {"Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}
        status, _, body = _ask(port, "POST", "/api/trainer/deal", paired | page | JSON, b"{}")
        assert status == 200 and b'"roll"' in body
        status, _, _ = _ask(port, "GET", "/", paired | {"Host": f"attacker.example:{port}"})
        assert status == 400
        evil = {"Origin": "http://evil.example"}
        status, _, _ = _ask(port, "POST", "/api/trainer/deal", paired | evil | JSON, b"{}")
        assert status == 403
        status, _, _ = _ask(port, "POST", "/api/trainer/deal", paired, b"{}")
        assert status == 415
        status, _, _ = _ask(port, "HEAD", "/grab", paired)
        assert status == 200
    finally:
        server.stop()


# --- what tabletop-web prints ------------------------------------------------------------------


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The servers ``tabletop-web`` would run (uvicorn's ``Server.run`` records its config
    instead), on a machine whose network addresses are 192.168.1.20 and 10.0.0.5."""
    import uvicorn

    configs: list[Any] = []
    monkeypatch.setattr(
        uvicorn.Server, "run", lambda self, sockets=None: configs.append(self.config)
    )
    machine = {socket.AF_INET: ["192.168.1.20", "10.0.0.5"], socket.AF_INET6: []}
    monkeypatch.setattr(sharing, "_machine_addresses", lambda family: machine[family])
    return configs


def _qr_rows(lines: list[str]) -> list[list[bool]]:
    """The QR code's modules (True: dark) from the half-block lines printed."""
    top = {"█": False, "▀": False, "▄": True, " ": True}
    bottom = {"█": False, "▀": True, "▄": False, " ": True}
    rows = []
    for line in lines:
        rows.append([top[c] for c in line])
        rows.append([bottom[c] for c in line])
    return rows


def test_sharing_prints_the_pairing_links_and_their_qr_code(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, served: list[Any]
) -> None:
    import segno

    assert main(["--host", "0.0.0.0", "--port", "0", "--data", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    token = (tmp_path / TOKEN_FILE).read_text().strip()
    port = int(re.search(r"serving on http://0\.0\.0\.0:(\d+)/", out).group(1))  # type: ignore[union-attr]
    first = f"http://192.168.1.20:{port}/pair?token={token}"
    assert f"  {first}\n" in out
    assert f"  http://10.0.0.5:{port}/pair?token={token} (another address" in out
    assert f"on this machine: http://127.0.0.1:{port}/pair?token={token}" in out
    assert str(tmp_path / TOKEN_FILE) in out and "--new-token" in out
    drawn = [line for line in out.splitlines() if line and set(line) <= set("█▀▄ ")]
    expected = [
        [bool(m) for m in row] for row in segno.make(first, error="m").matrix_iter(border=4)
    ]
    assert _qr_rows(drawn)[: len(expected)] == expected  # the code of the first link
    access = served[0].app.state.access
    assert access.shared and access.token == token and access.links[0] == first
    # a restart: the same token, so a phone paired before stays paired
    assert main(["--host", "0.0.0.0", "--port", "0", "--data", str(tmp_path)]) == 0
    assert token in capsys.readouterr().out
    # --new-token: every device paired before must pair again
    assert main(["--host", "0.0.0.0", "--port", "0", "--data", str(tmp_path), "--new-token"]) == 0
    renewed = (tmp_path / TOKEN_FILE).read_text().strip()
    assert renewed != token and renewed in capsys.readouterr().out
    assert served[-1].app.state.access.token == renewed


def test_allowed_names_are_answered_and_listed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, served: list[Any]
) -> None:
    argv = ["--host", "0.0.0.0", "--port", "0", "--data", str(tmp_path)]
    assert main([*argv, "--allow-host", "MyBox.local", "--allow-host", "tables.lan"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"  http://mybox\.local:\d+/pair\?token=", out)
    assert served[0].app.state.access.hosts >= {"mybox.local", "tables.lan"}


def test_this_machine_needs_no_pairing_and_no_token_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, served: list[Any]
) -> None:
    assert main(["--port", "0", "--data", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert "pair" not in out and err == ""
    assert not served[0].app.state.access.shared
    assert not (tmp_path / TOKEN_FILE).exists()


def test_no_network_address_is_said_in_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    served: list[Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sharing, "_machine_addresses", lambda family: [])
    assert main(["--host", "0.0.0.0", "--port", "0", "--data", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "no network address of this machine was found" in out
    assert "█" not in out and "on this machine: http://127.0.0.1:" in out


@pytest.mark.parametrize(
    "name", ["mybox.local:8000", "http://mybox.local", "*.local", "my box", "a/b", ""]
)
def test_a_bad_allowed_name_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    assert main(["--allow-host", name, "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and repr(name) in err and err.startswith("tabletop-web: error:")


def test_an_unwritable_data_folder_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, served: list[Any]
) -> None:
    Store(tmp_path / "companion.sqlite3").close()
    os.mkdir(tmp_path / TOKEN_FILE)  # where the token file should be: a folder
    assert main(["--host", "0.0.0.0", "--port", "0", "--data", str(tmp_path)]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pairing token" in err and not served
