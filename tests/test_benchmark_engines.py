"""``python -m benchmarks engines`` runs end to end on tiny sizes (its figures are the
benchmarks' README's, measured at full size; here only that every section works)."""

from __future__ import annotations

import pytest

from benchmarks.engines import main


@pytest.mark.extra("rl")
def test_the_engines_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["--games", "2", "--batches", "30", "60", "--envs", "4", "--only", "batched", "vector-env"]
    )
    out = capsys.readouterr().out
    assert code == 0
    for title in ("Pack & Stack, 4 players", "Yardmaster Express, 3 players"):
        assert out.count(title) == 3  # two bots' batched rows and the vector environment's
    assert out.count("KiB") == 8 and out.count("PettingZoo") == 3
