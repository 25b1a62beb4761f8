"""The names 0.2.0 removed are gone, not served under a warning: code written against 0.1.0
fails at the old name (an AttributeError naming it, or argparse's usage error for an option),
and CHANGELOG.md's Removed list names each one with its replacement."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from express.cli import main as express_main

ROOT = Path(__file__).resolve().parents[1]

#: module -> (old name, the name that replaces it), as CHANGELOG.md's 0.2.0 Removed list has them.
REMOVED: dict[str, tuple[tuple[str, str], ...]] = {
    "packing": (("BOTS", "BOT_NAMES"), ("dump_deck", "format_deck")),
    "packing.bots": (
        ("BOTS", "BOT_NAMES"),
        ("SEARCH_BOTS", "OPENSPIEL_BOTS"),
        ("MCTS_SIMULATIONS", "SEARCH_SIMULATIONS"),
    ),
    "packing.deck": (("dump_deck", "format_deck"),),
    "packing.rules": (("COLOURS", "COLORS"),),
    "packing.design": (("optimise", "optimize"),),
    "express": (("TrainSearch", "TrainSolution"), ("format_deck_file", "format_deck")),
    "express.search": (("TrainSearch", "TrainSolution"),),
}


@pytest.mark.parametrize(
    ("module", "old", "new"), [(m, old, new) for m, pairs in REMOVED.items() for old, new in pairs]
)
def test_an_old_name_is_gone_and_its_replacement_is_there(module: str, old: str, new: str) -> None:
    imported = importlib.import_module(module)
    with pytest.raises(AttributeError, match=old):
        getattr(imported, old)
    assert hasattr(imported, new)
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"`{module}.{old}`" in changelog and f"`{module}.{new}`" in changelog


def test_the_old_properties_are_gone() -> None:
    from packing import Game, bot, play_game
    from packing.design import SearchResult

    state = play_game([bot("optimal"), bot("capacity")], seed=2, max_rounds=1)
    assert isinstance(state, Game)
    assert not hasattr(state, "rounds") and state.round_records
    with pytest.raises(TypeError):
        state.setup["deck"]  # type: ignore[index]
    assert "maximise" not in SearchResult.__dataclass_fields__ and not hasattr(
        SearchResult, "maximise"
    )


def test_the_old_deck_file_option_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert express_main(["best", "--length", "3", "--deck-file", "deck.txt"]) == 2
    assert "--deck-file" in capsys.readouterr().err


def test_no_module_serves_old_names_any_more() -> None:
    # A module-level __getattr__ is how old names were served; none is left in the library.
    serving = [
        str(path.relative_to(ROOT))
        for package in ("arena", "packing", "express", "webapp")
        for path in sorted((ROOT / package).rglob("*.py"))
        if "\n__getattr__ = " in path.read_text(encoding="utf-8")
    ]
    assert serving == []
