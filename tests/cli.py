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
