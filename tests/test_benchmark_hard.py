"""``python -m benchmarks hard`` runs end to end on one case (its figures are the benchmarks'
README's, measured at full size; here only that it works, draws hard cases the same way each
time and refuses bad input)."""

from __future__ import annotations

import pytest

from benchmarks.hard import hard_cases, is_hard, main


def test_the_hard_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--cases", "1", "--only", "5x8 h5 holed", "--time-limit", "2"])
    out = capsys.readouterr().out
    assert code in (0, 1)  # 1: a target not met on one short case, which the run says
    assert "MISMATCH" not in out
    assert out.count("plain    total") == 2 and out.count("default  total") == 2
    assert out.count("target: ") == 5


def test_the_cases_are_the_same_each_time_and_hard() -> None:
    first, drawn = hard_cases("6x10 h6 holed", 2, seed=3)
    assert (first, drawn) == hard_cases("6x10 h6 holed", 2, seed=3)
    assert drawn >= 2 and all(is_hard(cargo, truck) for cargo, truck in first)
    assert first != hard_cases("6x10 h6 holed", 2, seed=4)[0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--cases", "0"], "argument --cases: must be at least 1, not 0"),
        (["--time-limit", "-1"], "argument --time-limit: must be positive, not -1.0"),
        (["--only", "7x7"], "argument --only: invalid choice: '7x7'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 2 and message in capsys.readouterr().err
