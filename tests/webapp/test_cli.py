"""``tabletop-web``: the command-line contract (one line and status 2 for bad input), the address
it prints, and that a shared server says how to pair a phone (tests/webapp/test_pairing.py
checks what it says)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
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
