"""``python -m benchmarks engines`` runs end to end on tiny sizes (its figures are the
benchmarks' README's, measured at full size; here only that every section works)."""

from __future__ import annotations

import pytest

from benchmarks.engines import main
from packing.batch_loops import available


@pytest.mark.extra("rl")
def test_the_engines_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["--games", "2", "--batches", "30", "60", "--envs", "4", "--only", "batched", "vector-env"]
    )
    out = capsys.readouterr().out
    assert code == 0
    # Pack & Stack's batches run with NumPy and, with the compiled extra, with the compiled loops.
    ways = 2 if available() else 1
    # Each way's first use, two bots' batched rows and the vector environment's:
    assert out.count("Pack & Stack, 4 players") == ways + 3
    assert out.count("Yardmaster Express, 3 players") == 1 + 3
    assert out.count("first use") == ways + 1
    assert out.count("KiB") == 2 * 2 * (ways + 1) and out.count("PettingZoo") == 3


def test_the_whole_command_section_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--scalar-deals", "2", "--batched-deals", "20", "--only", "commands"])
    out = capsys.readouterr().out
    assert code == 0
    assert "packing tournament --players optimal,capacity,bonus-aware,random" in out
    assert "express tournament --players greedy,greedy,random" in out
    assert out.count("x\n") == 2
