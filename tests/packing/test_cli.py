"""The command line: output, JSON, and one-line errors with exit status 2."""

import json
import re
from pathlib import Path

import pytest

from packing.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_prints_the_plan(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "solve", "--roll", "3,2,3,0,1", "--truck", "#####/###../#####", "--height", "3"
    )
    assert code == 0
    assert "penalty 18 (optimal)" in out and "level 2" in out


def test_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "solve",
        "--cargo",
        "0,0,0,3,0",
        "--truck",
        "#####/#####/#####",
        "--height",
        "1",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["penalty"] == 3 and data["status"] == "optimal"
    assert len(data["placements"]) == 3


def test_best_ranks_the_sample_deck(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "best", "--roll", "3,2,3,0,1")
    assert code == 0
    ranks = [line.split()[1] for line in out.splitlines() if re.match(r"^\s+\d+\s+S\d\d ", line)]
    assert sorted(ranks) == [f"S{i:02d}" for i in range(1, 31)]
    assert "best load plan:" in out and "blind draw" in out


def test_best_json_and_deck_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("small height 1\n###\n\nbig height 2\n###\n###\n")
    code, out, _ = run(capsys, "best", "--roll", "1,1,0,0,0", "--deck", str(deck), "--json")
    data = json.loads(out)
    assert code == 0
    assert [r["truck"] for r in data["ranking"]] == ["small", "big"]
    assert data["best"]["penalty"] == 0


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (["solve", "--roll", "3,2,3,0,7", "--truck", "###", "--height", "1"], "'3,2,3,0,7'"),
        (["solve", "--roll", "3,2,3,0,1", "--truck", "#x#", "--height", "1"], "'#x#'"),
        (["solve", "--roll", "3,2,3,0,1", "--truck", "###", "--height", "0"], "height 0"),
        (["solve", "--roll", "3,2,3,0,1", "--truck", "###", "--height", "two"], "'two'"),
        (["best", "--roll", "1,2,3"], "'1,2,3'"),
        (["best", "--roll", "1,0,0,0,0", "--deck", "/no/such/deck"], "'/no/such/deck'"),
        (["best", "--roll", "1,0,0,0,0", "--top", "0"], "--top"),
        (["frobnicate"], "frobnicate"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], quoted: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and quoted in err and "Traceback" not in err


SMALL_DECK_TEXT = "a height 1\n###\n###\n\nb height 3\n##\n##\n"


def test_grab_names_the_best_choice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "grab", "--roll", "3,2,3,0,1", "--revealed", "S03,S17,S22", "--json")
    data = json.loads(out)
    assert code == 0
    labels = [c["choice"] for c in data["choices"]]
    assert sorted(labels) == ["S03", "S17", "S22", "the pile"]
    values = [c["expected_penalty"] for c in data["choices"]]
    assert values == sorted(values)
    assert data["closest_capacity"] == "S22"


def test_stats_of_the_sample_deck(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", "--samples", "5", "--roll", "3,2,3,0,1", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["trucks"]) == 30
    assert abs(data["mean_volume"] - 121 / 6) < 1e-9
    assert [h["revealed"] for h in data["heuristic"]] == [0, 4, 6]
    assert len(data["roll"]["ranking"]) == 30
    code, out, _ = run(capsys, "stats", "--samples", "5")
    assert code == 0 and "E[penalty]" in out and "closest-capacity heuristic" in out


def test_table_build_then_stats_use_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import packing.table.registry as table_module

    monkeypatch.setattr(table_module, "_known", {})
    monkeypatch.setenv("PACKING_TABLE_DIR", str(tmp_path / "tables"))
    deck = tmp_path / "deck.txt"
    deck.write_text(SMALL_DECK_TEXT)
    code, out, _ = run(capsys, "table", "build", "--deck", str(deck), "--workers", "1")
    assert code == 0 and "1800 proven optimal, 0 not" in out
    assert len(list((tmp_path / "tables").glob("table-*.npz"))) == 1
    monkeypatch.setattr(table_module, "_known", {})
    code, out, err = run(capsys, "stats", "--deck", str(deck), "--samples", "3", "--json")
    assert code == 0 and "building" not in err  # found the built table
    assert [t["truck"] for t in json.loads(out)["trucks"]] == ["a", "b"]


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (["grab", "--roll", "3,2,3,0,1", "--revealed", "S03,NOPE"], "'NOPE'"),
        (["table", "build", "--workers", "0"], "--workers"),
        (["stats", "--roll", "9,9,9,9,9"], "'9,9,9,9,9'"),
        (
            [
                "plot",
                "plan",
                "--roll",
                "3,2,3,0,1",
                "--truck",
                "##",
                "--height",
                "-1",
                "--out",
                "x.png",
            ],
            "-1",
        ),
    ],
)
def test_more_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], quoted: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and quoted in err


@pytest.mark.extra("plot")
def test_plot_commands_write_pngs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import packing.table.registry as table_module

    monkeypatch.setattr(table_module, "_known", {})
    monkeypatch.setenv("PACKING_TABLE_DIR", str(tmp_path / "tables"))
    out_file = tmp_path / "pics" / "plan.png"
    code, out, _ = run(
        capsys,
        "plot",
        "plan",
        "--roll",
        "3,2,3,0,1",
        "--truck",
        "#####/###../#####",
        "--height",
        "3",
        "--out",
        str(out_file),
    )
    assert code == 0 and out.strip() == str(out_file)
    assert out_file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    deck = tmp_path / "deck.txt"
    deck.write_text(SMALL_DECK_TEXT)
    code, out, err = run(
        capsys, "plot", "deck", "--deck", str(deck), "--out", str(tmp_path / "deck")
    )
    assert code == 0 and "building it once" in err  # no table yet: built, then drawn
    paths = [Path(line) for line in out.split()]
    assert len(paths) == 2 and all(p.read_bytes()[:4] == b"\x89PNG" for p in paths)


def test_json_keys_stay(capsys: pytest.CaptureFixture[str]) -> None:
    """The keys scripts read: the result types' to_dict() keep every key printed before."""
    code, out, _ = run(capsys, "best", "--roll", "3,2,3,0,1", "--top", "2", "--json")
    data = json.loads(out)
    assert code == 0
    assert {"cargo", "volume", "ranking", "blind_draw_expected_penalty", "best"} <= data.keys()
    assert {"truck", "mask", "height", "capacity", "penalty", "optimal"} <= data["ranking"][
        0
    ].keys()
    assert {"truck", "cargo", "placements", "penalty", "status", "bound"} <= data["best"].keys()
    code, out, _ = run(capsys, "grab", "--roll", "3,2,3,0,1", "--revealed", "S03", "--json")
    data = json.loads(out)
    assert data.keys() == {"cargo", "choices", "closest_capacity"}
    assert data["choices"][0].keys() == {"choice", "expected_penalty", "exact"}
    code, out, _ = run(capsys, "stats", "--samples", "2", "--cargo", "3,2,3,0,1", "--json")
    data = json.loads(out)
    assert {"deck_key", "mean_volume", "trucks", "heuristic", "roll"} <= data.keys()
    assert {
        "truck",
        "mask",
        "height",
        "capacity",
        "expected_penalty",
        "p_best",
        "p_perfect",
        "perfect_rolls",
        "penalty_distribution",
    } <= data["trucks"][0].keys()
    assert data["heuristic"][0].keys() == {
        "revealed",
        "samples",
        "mean_loss",
        "worst_loss",
        "worst_roll",
        "p_loses",
    }
    assert {"cargo", "ranking", "blind_draw_expected_penalty"} <= data["roll"].keys()
    s30 = next(t for t in data["trucks"] if t["truck"] == "S30")
    assert s30["perfect_rolls"] == 4 and len(s30["perfect_cargos"]) == 1  # rolls, not cargos


def test_stats_text_counts_perfect_rolls(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", "--samples", "2")
    s30 = next(line for line in out.splitlines() if line.startswith("S30 "))
    assert code == 0 and s30.split()[-1] == "4"  # 4 of the 7,776 rolls, 1 distinct cargo
