"""Output that cannot be written, in both commands: a full disk is one line and status 1, a
closed stdout too; a reader that went away (``| head``) ends the command quietly, status 0.

In-process through :func:`arena.cli.run_main` with a stand-in stdout, then once for real with
``/dev/full``, a closed descriptor and a closed pipe.
"""

from __future__ import annotations

import argparse
import errno
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import EXIT_FAILURE, EXIT_OK, Parser, run_main

ROOT = Path(__file__).resolve().parents[2]


class _Failing(io.StringIO):
    """A stdout whose writes fail with ``error``."""

    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error

    def write(self, text: str) -> int:
        raise self.error


def _printing_parser() -> Parser:
    parser = Parser(prog="demo", description="prints")

    def run(args: argparse.Namespace) -> int:
        print("a line of output")
        return 0

    parser.set_defaults(run=run)
    return parser


def test_a_full_disk_is_one_line_and_status_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdout", _Failing(OSError(errno.ENOSPC, "No space left on device")))
    assert run_main("demo", _printing_parser(), [], errors=()) == EXIT_FAILURE
    assert capsys.readouterr().err == (
        "demo: error: cannot write the output: No space left on device\n"
    )


def test_help_into_a_full_disk_is_not_a_silent_success(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdout", _Failing(OSError(errno.ENOSPC, "No space left on device")))
    assert run_main("demo", _printing_parser(), ["--help"], errors=()) == EXIT_FAILURE
    assert "No space left on device" in capsys.readouterr().err


def test_a_reader_that_went_away_ends_the_command_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdout", _Failing(BrokenPipeError(errno.EPIPE, "Broken pipe")))
    assert run_main("demo", _printing_parser(), [], errors=()) == EXIT_OK
    assert capsys.readouterr().err == ""


def test_a_closed_stdout_is_reported_when_written_to(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdout", None)
    assert run_main("demo", _printing_parser(), [], errors=()) == EXIT_FAILURE
    assert sys.stdout is None  # given back as it was
    assert capsys.readouterr().err == "demo: error: cannot write the output: stdout is closed\n"
    quiet = Parser(prog="demo", description="prints nothing")
    quiet.set_defaults(run=lambda args: 0)
    assert run_main("demo", quiet, [], errors=()) == EXIT_OK


def test_an_error_of_a_named_file_quotes_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = Parser(prog="demo", description="writes a file")

    def run(args: argparse.Namespace) -> int:
        raise OSError(errno.EROFS, "Read-only file system", "/mnt/out.txt")

    parser.set_defaults(run=run)
    assert run_main("demo", parser, [], errors=()) == EXIT_FAILURE
    assert capsys.readouterr().err == "demo: error: '/mnt/out.txt': Read-only file system\n"


# --- real processes ---------------------------------------------------------------------------

COMMANDS = {"packing": ["deck"], "express": ["deck"]}


def _command(prog: str) -> list[str]:
    return [sys.executable, "-m", prog, *COMMANDS[prog]]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("prog", sorted(COMMANDS))
def test_writing_to_dev_full_is_one_line(prog: str) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(_command(prog), stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == EXIT_FAILURE
    assert done.stderr == f"{prog}: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("prog", sorted(COMMANDS))
def test_a_closed_stdout_is_one_line(prog: str) -> None:
    program = " ".join(_command(prog)) + " >&-"
    done = subprocess.run(["sh", "-c", program], stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert done.returncode == EXIT_FAILURE
    assert done.stderr == f"{prog}: error: cannot write the output: stdout is closed\n"


@pytest.mark.parametrize("prog", sorted(COMMANDS))
def test_a_closed_pipe_ends_quietly(prog: str) -> None:
    process = subprocess.Popen(_command(prog), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader goes away before anything is written
    err = process.stderr.read()
    assert process.wait() == EXIT_OK
    assert err == b""
