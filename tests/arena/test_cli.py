"""The command-line contract both games stand on (arena.cli), checked on both commands.

Everything is called in-process through ``main(argv)``; the few end-to-end checks at the end run
real processes (the installed entry points, and the core imported with no extra installed).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path

import pytest

import arena
import express
import express.cli
import packing
import packing.cli
from arena.cli import (
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    Parser,
    UsageError,
    attach_values,
    parse_bot_list,
    run_main,
    seat_labels,
    wants_json,
)

ROOT = Path(__file__).resolve().parents[2]
Main = Callable[[Sequence[str] | None], int]
MAINS: dict[str, Main] = {"packing": packing.cli.main, "express": express.cli.main}
BOTS = {"packing": "optimal,random", "express": "greedy,random"}


def run(capsys: pytest.CaptureFixture[str], prog: str, *argv: str) -> tuple[int, str, str]:
    code = MAINS[prog](list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line(code: int, out: str, err: str, prog: str, *quoted: str) -> str:
    """Exit 2, nothing on stdout, one ``PROG: error:`` line on stderr quoting the input."""
    assert code == EXIT_USAGE and out == "" and "Traceback" not in err, (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{prog}: error: "), err
    for text in quoted:
        assert text in lines[0], (text, lines[0])
    return lines[0]


# --- bad values are quoted, whichever option takes them ----------------------------------------

# Every option that takes a value is found from the parser, so a value that starts with "-"
# reaches the check that quotes it (express once listed them by hand, without these).
DASHED = [
    ("packing", ["play", "--players", "optimal,random", "--seed", "-4"], "'-4'"),
    ("packing", ["tournament", "--players", "optimal,random", "--games", "-3"], "'-3'"),
    ("packing", ["tournament", "--players", "optimal,random", "--workers", "-1"], "'-1'"),
    ("packing", ["best", "--roll", "-1,2,3,0,1"], "'-1,2,3,0,1'"),
    ("express", ["play", "--players", "greedy,random", "--seed", "-1"], "'-1'"),
    ("express", ["tournament", "--players", "greedy,random", "--games", "-3"], "'-3'"),
    ("express", ["tournament", "--players", "greedy,random", "--workers", "-2"], "'-2'"),
    ("express", ["play", "--players", "greedy,random", "--rounds", "-2"], "-2"),
    ("express", ["best", "--length", "3", "--time-limit", "-1e-3"], "'-1e-3'"),
]


@pytest.mark.parametrize(("prog", "argv", "quoted"), DASHED)
def test_a_dashed_bad_value_is_quoted(
    capsys: pytest.CaptureFixture[str], prog: str, argv: list[str], quoted: str
) -> None:
    assert_one_line(*run(capsys, prog, *argv), prog, quoted)


@pytest.mark.parametrize("prog", MAINS)
@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--games", "0", "it must be at least 1"),
        ("--games", "many", "a whole number is needed"),
        ("--seed", "-1", "a seed is 0 or more"),
        ("--seed", "x", "a whole number is needed"),
        ("--workers", "0", "it must be at least 1"),
        ("--simulations", "0", "it must be at least 1"),
    ],
)
def test_both_commands_check_the_shared_options_alike(
    capsys: pytest.CaptureFixture[str], prog: str, option: str, value: str, says: str
) -> None:
    argv = ["tournament", "--players", BOTS[prog], option, value]
    line = assert_one_line(*run(capsys, prog, *argv), prog, f"{value!r}", says)
    assert f"argument {option}: " in line


@pytest.mark.parametrize("prog", MAINS)
def test_json_errors_are_one_object_on_stdout(
    capsys: pytest.CaptureFixture[str], prog: str
) -> None:
    code, out, err = run(
        capsys, prog, "tournament", "--players", BOTS[prog], "--seed", "-5", "--json"
    )
    assert code == EXIT_USAGE and err == ""
    data = json.loads(out)
    assert set(data) == {"error"} and "'-5'" in data["error"] and "\n" not in data["error"]
    # Even an error argparse finds itself (an unknown command) is JSON under --json.
    code, out, err = run(capsys, prog, "frobnicate", "--json")
    assert code == EXIT_USAGE and err == "" and "frobnicate" in json.loads(out)["error"]


def test_an_unknown_command_and_no_command_are_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for prog in MAINS:
        assert_one_line(*run(capsys, prog, "frobnicate"), prog, "'frobnicate'")
        assert_one_line(*run(capsys, prog), prog, "required")


# --- --version ---------------------------------------------------------------------------------


@pytest.mark.parametrize("prog", MAINS)
def test_version(capsys: pytest.CaptureFixture[str], prog: str) -> None:
    code, out, err = run(capsys, prog, "--version")
    assert code == 0 and err == ""
    assert out == f"{prog} {version('tabletop-solvers')} (tabletop-solvers)\n"


def test_the_packages_report_the_distribution_s_version() -> None:
    assert arena.__version__ == packing.__version__ == express.__version__
    assert arena.__version__ == version("tabletop-solvers")


# --- bots by name: one rule for a name given twice -----------------------------------------------


def test_seat_labels() -> None:
    assert seat_labels(["optimal", "optimal", "random", "optimal"]) == (
        "optimal",
        "optimal#2",
        "random",
        "optimal#3",
    )
    assert seat_labels(["a", "a#2", "a"]) == ("a", "a#2", "a#3")  # never two seats alike
    assert seat_labels([]) == ()


def test_parse_bot_list() -> None:
    known = ("greedy", "random")
    assert parse_bot_list(" Greedy,random ,greedy", known=known, players=(2, 5), game="G") == [
        "greedy",
        "random",
        "greedy",
    ]
    for text, says in [
        ("greedy,,random", "'greedy,,random' is not a comma-separated list of bots"),
        ("greedy,clever", "unknown bot 'clever' in 'greedy,clever' (choose from greedy, random)"),
        ("greedy", "'greedy' names 1 player; G takes 2 to 5"),
        ("greedy,perfect", "needs the order ('greedy,perfect')"),
    ]:
        with pytest.raises(UsageError, match="^argument --players: ") as caught:
            parse_bot_list(
                text, known=known, players=(2, 5), game="G", refused={"perfect": "needs the order"}
            )
        assert says in str(caught.value)


@pytest.mark.parametrize(
    ("prog", "bots", "labels"),
    [
        ("packing", "optimal,optimal,random", ["optimal", "optimal#2", "random"]),
        ("express", "greedy,greedy,random", ["greedy", "greedy#2", "random"]),
    ],
)
def test_both_commands_label_a_bot_named_twice_alike(
    capsys: pytest.CaptureFixture[str], prog: str, bots: str, labels: list[str]
) -> None:
    code, out, _ = run(capsys, prog, "play", "--players", bots, "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["players"] == labels
    argv = ["tournament", "--players", bots, "--games", "1", "--json"]
    code, out, _ = run(capsys, prog, *argv)
    assert code == 0 and json.loads(out)["policies"] == labels


def test_both_libraries_run_a_tournament_by_bot_names() -> None:
    mixed = packing.tournament(players=["random", "random"], games=1, seed=2)
    assert mixed.policies == ("random", "random#2")
    drafted = express.tournament(players=["random", "random"], games=1, seed=2)
    assert drafted.policies == ("random", "random#2")


# --- a missing extra: one line naming it, exit 2, everywhere ------------------------------------


def _hide(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make ``import MODULE`` fail as if it were not installed (and forget what imported it)."""
    for module in modules:
        monkeypatch.setitem(sys.modules, module, None)


@pytest.mark.parametrize("prog", MAINS)
def test_a_missing_dask_extra_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, prog: str
) -> None:
    _hide(monkeypatch, "distributed")
    argv = ["tournament", "--players", BOTS[prog], "--games", "1", "--cluster", "local:1"]
    assert_one_line(*run(capsys, prog, *argv), prog, "pip install 'tabletop-solvers[dask]'")


def test_a_missing_plot_extra_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _hide(monkeypatch, "matplotlib.figure")
    monkeypatch.delitem(sys.modules, "packing.plot", raising=False)
    monkeypatch.delattr(packing, "plot", raising=False)  # so that it is imported afresh
    argv = ["plot", "plan", "--roll", "3,2,3,0,1", "--truck", "###", "--height", "1"]
    out = str(tmp_path / "plan.png")
    assert_one_line(*run(capsys, "packing", *argv, "--out", out), "packing", "[plot]")
    assert not Path(out).exists()


def test_a_missing_openspiel_extra_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _hide(monkeypatch, "pyspiel")
    for name in ("arena.openspiel", "packing.openspiel", "express.openspiel"):
        monkeypatch.delitem(sys.modules, name, raising=False)
        package, _, module = name.partition(".")
        monkeypatch.delattr(sys.modules[package], module, raising=False)
    for prog, bots in (("packing", "mcts,random"), ("express", "ismcts,random")):
        line = assert_one_line(*run(capsys, prog, "play", "--players", bots), prog)
        assert "openspiel" in line.lower()


# --- Ctrl-C ------------------------------------------------------------------------------------


def _interrupt(*args: object, **options: object) -> None:
    raise KeyboardInterrupt


@pytest.mark.parametrize(
    ("prog", "target", "argv"),
    [
        ("packing", "packing.cli.answers.ranking", ["best", "--roll", "3,2,3,0,1"]),
        ("express", "express.cli.trains.best_train", ["best", "--length", "3"]),
    ],
)
def test_ctrl_c_is_one_line_and_130(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    prog: str,
    target: str,
    argv: list[str],
) -> None:
    monkeypatch.setattr(target, _interrupt)
    code, out, err = run(capsys, prog, *argv)
    assert code == EXIT_INTERRUPTED and out == "" and err == f"{prog}: interrupted\n"


# --- the pieces --------------------------------------------------------------------------------


def test_attach_values_reads_the_options_from_the_parser() -> None:
    parser = Parser(prog="demo")
    sub = parser.add_subparsers(dest="command", parser_class=Parser)
    child = sub.add_parser("go")
    child.add_argument("--seed")
    child.add_argument("--flag", action="store_true")
    assert attach_values(parser, ["go", "--seed", "-1", "--flag"]) == ["go", "--seed=-1", "--flag"]
    assert attach_values(parser, ["go", "--seed", "--flag"]) == ["go", "--seed", "--flag"]
    assert attach_values(parser, ["go", "--", "--seed", "-1"]) == ["go", "--", "--seed", "-1"]


def test_wants_json() -> None:
    assert wants_json(["best", "--json"]) and wants_json(["--js"])
    assert not wants_json(["best", "--", "--json"]) and not wants_json(["-j"])


def test_run_main_turns_each_failure_into_its_status(capsys: pytest.CaptureFixture[str]) -> None:
    class GameError(Exception):
        pass

    def command(args: argparse.Namespace) -> int:
        raise {
            "game": GameError("bad 'x'"),
            "extra": arena.MissingExtraError("matplotlib", "plot"),
        }[args.what]

    parser = Parser(prog="demo")
    parser.add_argument("what")
    parser.set_defaults(run=command)
    assert run_main("demo", parser, ["game"], errors=(GameError,)) == EXIT_USAGE
    assert run_main("demo", parser, ["extra"], errors=(GameError,)) == EXIT_USAGE
    assert capsys.readouterr().err.splitlines() == [
        "demo: error: bad 'x'",
        "demo: error: matplotlib is not installed: it comes with the plot extra "
        "(pip install 'tabletop-solvers[plot]')",
    ]
    assert run_main("demo", parser, ["--help"], errors=()) == 0


# --- end to end: real processes ------------------------------------------------------------------


@pytest.mark.parametrize("prog", MAINS)
def test_the_installed_entry_points_run(prog: str) -> None:
    # The scripts pip installs are what users type: only a process runs them.
    script = Path(sys.executable).with_name(prog)
    if not script.exists():
        pytest.skip(f"no {prog} script beside {sys.executable} (the package is not installed)")
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith(f"{prog} ") and done.stderr == ""


_NO_EXTRAS = """
import sys
for name in ("matplotlib", "scipy", "distributed", "dask", "pyspiel", "tqdm"):
    sys.modules[name] = None  # as if none of the extras were installed
import arena, express, packing
from packing.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_the_core_runs_without_any_extra_and_names_the_missing_one() -> None:
    # An interpreter of its own: hiding the extras needs a sys.modules nothing has filled yet.
    def packing_without_extras(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", _NO_EXTRAS, *argv],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )

    answered = packing_without_extras(
        "solve", "--roll", "3,2,3,0,1", "--truck", "###", "--height", "1"
    )
    assert answered.returncode == 0, answered.stderr
    table = packing_without_extras("tournament", "--players", "optimal,random", "--games", "3")
    assert table.returncode == 0 and "rating (Elo)" in table.stdout, table.stderr
    refused = packing_without_extras(
        "tournament", "--players", "optimal,random", "--games", "1", "--cluster", "local:1"
    )
    assert refused.returncode == EXIT_USAGE and refused.stdout == ""
    assert refused.stderr.splitlines() == [
        "packing: error: distributed is not installed: it comes with the dask extra "
        "(pip install 'tabletop-solvers[dask]')"
    ]
