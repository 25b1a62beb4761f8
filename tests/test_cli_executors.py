"""Both tournament commands take --workers / --scheduler / --cluster; bad choices are one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

COMMANDS = [
    ("packing", "tournament", "--players", "optimal,capacity", "--games", "2"),
    ("express", "tournament", "--players", "greedy,random", "--games", "2"),
]


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *argv], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("command", COMMANDS, ids=["packing", "express"])
@pytest.mark.parametrize(
    ("options", "quoted"),
    [
        (("--scheduler", "tcp://127.0.0.1:1"), "tcp://127.0.0.1:1"),
        (("--cluster", "remote:3"), "remote:3"),
        (("--workers", "0"), "0"),
    ],
)
def test_bad_executor_choices_are_one_line(
    command: tuple[str, ...], options: tuple[str, ...], quoted: str
) -> None:
    done = run(*command, *options)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and quoted in done.stderr
    as_json = run(*command, *options, "--json")
    assert as_json.returncode == 2 and quoted in json.loads(as_json.stdout)["error"]


@pytest.mark.parametrize("command", COMMANDS, ids=["packing", "express"])
def test_a_process_pool_gives_the_serial_result(command: tuple[str, ...]) -> None:
    serial = run(*command, "--seed", "3", "--json")
    pooled = run(*command, "--seed", "3", "--workers", "2", "--json")
    assert serial.returncode == 0 and pooled.returncode == 0, serial.stderr + pooled.stderr
    assert json.loads(serial.stdout)["stats"] == json.loads(pooled.stdout)["stats"]
