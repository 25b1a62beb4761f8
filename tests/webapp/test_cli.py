"""``tabletop-web``: the command-line contract (one line and status 2 for bad input), the address
it prints, and that a shared server says how to pair a phone (tests/webapp/test_pairing.py
checks what it says)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.cli_help import help_problems
from webapp.cli import build_parser, main


def test_bad_options_are_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, quoted in (
        (["--port", "70000"], "'70000'"),
        (["--port", "-1"], "'-1'"),
        (["--port", "８０"], "'８０'"),
        (["--host", "not a host"], "'not a host'"),
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and quoted in err and err.startswith("tabletop-web: error:")


@pytest.mark.extra("web")
def test_a_port_in_use_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["--port", str(port), "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"port {port} is in use" in err and err.count("\n") == 1


def test_the_help_is_complete() -> None:
    assert help_problems(build_parser()) == []


@pytest.mark.extra("web")
def test_it_prints_the_address_and_how_to_pair_when_shared(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    served: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: served.append(sockets))
    assert main(["--port", "0", "--data", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("tabletop-web: serving on http://127.0.0.1:") and err == ""
    assert str(tmp_path / "companion.sqlite3") in out
    assert main(["--host", "0.0.0.0", "--port", "0", "--data", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    # Shared, it answers only paired devices (tests/webapp/test_pairing.py): no warning then.
    assert "answers only the devices paired with it" in out and "/pair?token=" in out
    assert err == ""
    assert len(served) == 2


@pytest.mark.extra("web")
def test_python_m_webapp_serves_until_ctrl_c(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "webapp", "--port", "0", "--data", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        address = line.split("serving on ")[1].split()[0]
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(address + "api/health", timeout=5) as response:
                    assert response.read() == b'{"status":"ok"}'
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert err == "tabletop-web: interrupted\n"


# --- one server per data folder, a database it cannot use, Ctrl-C --------------------------------


def start_server(folder: Path) -> tuple[subprocess.Popen[str], str]:
    """``python -m webapp`` on a free port keeping its data in ``folder``; its address."""
    process = subprocess.Popen(
        [sys.executable, "-m", "webapp", "--port", "0", "--data", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    assert "serving on " in line, line + process.communicate(timeout=30)[1]
    return process, line.split("serving on ")[1].split()[0]


@pytest.mark.extra("web")
def test_a_second_server_on_one_data_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    served: list[Any] = []  # this process's servers return at once instead of serving
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: served.append(sockets))
    first, _ = start_server(tmp_path)
    try:
        assert main(["--port", "0", "--data", str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"(process {first.pid}) is serving from" in err
        assert str(tmp_path) in err and "--data" in err and not served
    finally:
        first.kill()  # even killed, not stopped, it leaves no lock behind
        first.communicate(timeout=30)
    assert main(["--port", "0", "--data", str(tmp_path)]) == 0 and len(served) == 1


def without_write_permission() -> list[str]:
    """The command prefix that runs a program unable to write where the permissions forbid it:
    none for an ordinary user; for root (CI), which the permissions do not stop, util-linux's
    setpriv takes away the capabilities that let it ignore them."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    assert setpriv is not None, "root runs this test through setpriv (util-linux)"
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search"]


@pytest.mark.extra("web")
def test_a_database_it_cannot_write_is_one_true_line(tmp_path: Path) -> None:
    from webapp.store import Store

    empty = tmp_path / "read-only empty"
    kept = tmp_path / "read-only with a database"
    locked_file = tmp_path / "read-only file"
    for folder in (empty, kept, locked_file):
        folder.mkdir()
    for folder in (kept, locked_file):
        Store(folder / "companion.sqlite3").close()
    (locked_file / "companion.sqlite3").chmod(0o444)
    empty.chmod(0o555)
    kept.chmod(0o555)
    try:
        for folder, words in (
            (empty, "cannot be written"),
            (kept, "cannot be written"),
            (locked_file, "the file or its folder is read-only"),
        ):
            done = subprocess.run(
                [*without_write_permission(), sys.executable, "-m", "webapp", "--port", "0"]
                + ["--data", str(folder)],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert done.returncode == 2, done.stderr
            assert done.stderr.count("\n") == 1 and done.stderr.startswith("tabletop-web: error:")
            assert words in done.stderr and "damaged" not in done.stderr, done.stderr
            assert str(folder) in done.stderr and done.stdout == ""
    finally:
        empty.chmod(0o755)
        kept.chmod(0o755)


@pytest.mark.extra("web")
def test_a_database_another_program_locks_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from webapp import store as store_module

    monkeypatch.setattr(store_module, "BUSY_SECONDS", 0.2)
    store_module.Store(tmp_path / "companion.sqlite3").close()
    other = sqlite3.connect(tmp_path / "companion.sqlite3", isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        other.execute("DELETE FROM decks")
        assert main(["--port", "0", "--data", str(tmp_path)]) == 2
    finally:
        other.close()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "another program holds it locked" in err


@pytest.mark.extra("web")
def test_ctrl_c_stops_a_long_answer_at_once_and_says_so(tmp_path: Path) -> None:
    process, address = start_server(tmp_path)
    answers: list[tuple[int, str]] = []

    def ask() -> None:
        body = {
            "players": 5,
            "seat": 0,
            "round": 1,
            "hand": "B2|B2,R2|R3,R3|G3,Y4|R4,P2|P3,B3|R3",
            "train": ["", "", "", "", ""],
            "worlds": 100_000,  # about 20 s of work: the request is cut short
        }
        request = urllib.request.Request(
            address + "api/express/advise",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                answers.append((answer.status, answer.read().decode()))
        except urllib.error.HTTPError as error:
            answers.append((error.code, error.read().decode()))

    asking = threading.Thread(target=ask)
    try:
        with urllib.request.urlopen(address + "api/health", timeout=30):
            pass
        time.sleep(0.5)  # the process that forks the long answers' workers is up
        before = living_descendants(process.pid)
        asking.start()
        deadline = time.monotonic() + 30
        while living_descendants(process.pid) <= before and time.monotonic() < deadline:
            time.sleep(0.05)  # until the answer's own process runs
    finally:
        started = time.monotonic()
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        stopped_in = time.monotonic() - started
        asking.join(timeout=30)
    assert process.returncode == 130
    assert stopped_in < 5, f"it took {stopped_in:.1f} s to stop"
    assert err == (
        "tabletop-web: stopping: 1 long answer in progress (express advise) stopped\n"
        "tabletop-web: interrupted\n"
    )
    [(status, text)] = answers
    assert status == 503 and "the server is stopping" in text


def living_descendants(pid: int) -> set[int]:
    """The processes ``pid`` started, and theirs, that have not ended (Linux's /proc)."""
    found: set[int] = set()
    waiting = [pid]
    while waiting:
        parent = waiting.pop()
        try:
            children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
        except OSError:  # it ended meanwhile
            continue
        for child in map(int, children):
            try:
                state = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state != "Z":
                found.add(child)
                waiting.append(child)
    return found
