"""What a command-line test gets back from calling a command's ``main(argv)`` in this process."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Done:
    """What one command did: its exit status and output."""

    returncode: int
    stdout: str
    stderr: str


Run = Callable[..., Done]
"""A fixture's runner: ``run(*argv)`` calls the command and returns what it did."""


def assert_usage_error(result: Done, prog: str, *quoted: str) -> str:
    """Exit 2, nothing on stdout, one ``PROG: error:`` line holding each of ``quoted``; the line."""
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"{prog}: error: "), lines[0]
    for text in quoted:
        assert text in lines[0], lines[0]
    return lines[0]
