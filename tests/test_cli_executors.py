"""Both tournament commands take --workers / --scheduler / --cluster; bad choices are one line."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import pytest

import express.cli
import packing.cli

Main = Callable[[Sequence[str] | None], int]
COMMANDS: list[tuple[Main, tuple[str, ...]]] = [
    (packing.cli.main, ("tournament", "--players", "optimal,capacity", "--games", "2")),
    (express.cli.main, ("tournament", "--players", "greedy,random", "--games", "2")),
]


def run(capsys: pytest.CaptureFixture[str], main: Main, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.usefixtures("quick_unreachable_scheduler")
@pytest.mark.parametrize("command", COMMANDS, ids=["packing", "express"])
@pytest.mark.parametrize(
    ("options", "quoted"),
    [
        pytest.param(
            ("--scheduler", "tcp://127.0.0.1:1"),
            "tcp://127.0.0.1:1",
            marks=pytest.mark.extra("dask"),
        ),
        (("--cluster", "remote:3"), "remote:3"),
        (("--workers", "0"), "'0'"),
    ],
)
def test_bad_executor_choices_are_one_line(
    capsys: pytest.CaptureFixture[str],
    command: tuple[Main, tuple[str, ...]],
    options: tuple[str, ...],
    quoted: str,
) -> None:
    main, words = command
    code, _, err = run(capsys, main, *words, *options)
    assert code == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and quoted in err
    code, out, _ = run(capsys, main, *words, *options, "--json")
    assert code == 2 and quoted in json.loads(out)["error"]


@pytest.mark.parametrize("command", COMMANDS, ids=["packing", "express"])
def test_a_process_pool_gives_the_serial_result(
    capsys: pytest.CaptureFixture[str], command: tuple[Main, tuple[str, ...]]
) -> None:
    main, words = command
    code, serial, err = run(capsys, main, *words, "--seed", "3", "--json")
    assert code == 0, err
    code, pooled, err = run(capsys, main, *words, "--seed", "3", "--workers", "2", "--json")
    assert code == 0, err
    assert json.loads(serial)["stats"] == json.loads(pooled)["stats"]
