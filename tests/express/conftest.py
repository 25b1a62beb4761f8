"""What the Express command-line tests share."""

from __future__ import annotations

import pytest

from express.cli import main
from tests.cli import Done, Run


@pytest.fixture
def express(capsys: pytest.CaptureFixture[str]) -> Run:
    """``express ARGV`` in this process, through ``main(argv)``."""

    def run(*argv: str) -> Done:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return Done(code, out, err)

    return run
