"""The notebooks in examples/ are stored clean, and ``make examples`` runs them.

Stored notebooks keep no outputs and no execution counts: what they show is made by running
them, never an old result. Running them needs a Jupyter kernel (the ``examples`` extra), so the
suite only reads the files; ``make examples`` runs this module as a script,
``python -m tests.test_examples``, which executes every notebook top to bottom in a fresh
kernel started in ``examples/`` and exits with status 1 at the first cell that raises or whose
output shows a warning the reader should not see (:data:`UNWANTED`).
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from arena.extras import import_extra

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))
# A cell may take this long before the run gives up (the whole run is meant to stay well under
# a minute: the notebooks use small budgets).
CELL_TIMEOUT = 300
#: Text no run may show: tqdm's warning that a kernel lacks ipywidgets ("IProgress not found")
#: means a progress bar fell back noisily instead of quietly.
UNWANTED = ("TqdmWarning",)


def stored_outputs(notebook: dict[str, Any]) -> list[str]:
    """Where a notebook keeps something that only running it should make."""
    found = []
    for number, cell in enumerate(notebook.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        if cell.get("outputs"):
            found.append(f"cell {number}: outputs")
        if cell.get("execution_count") is not None:
            found.append(f"cell {number}: execution count {cell['execution_count']}")
    return found


def unwanted_outputs(notebook: dict[str, Any]) -> list[str]:
    """Where a run notebook's outputs (streams, errors, displayed text) show :data:`UNWANTED`."""
    found = []
    for number, cell in enumerate(notebook.get("cells", [])):
        for output in cell.get("outputs", []):
            texts = [output.get("text", ""), *output.get("traceback", [])]
            texts += [output.get("data", {}).get("text/plain", "")]
            text = "".join("".join(t) if isinstance(t, list) else t for t in texts)
            found += [f"cell {number}: {word}" for word in UNWANTED if word in text]
    return found


def test_the_three_notebooks_are_there() -> None:
    assert [path.name for path in NOTEBOOKS] == [
        "designer.ipynb",
        "player.ipynb",
        "researcher.ipynb",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_a_notebook_is_stored_without_outputs(path: Path) -> None:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert notebook["nbformat"] == 4
    assert any(cell["cell_type"] == "code" for cell in notebook["cells"])
    assert stored_outputs(notebook) == []


def test_stored_outputs_are_found() -> None:
    notebook = {
        "cells": [
            {"cell_type": "markdown", "source": "# title"},
            {"cell_type": "code", "execution_count": None, "outputs": []},
            {"cell_type": "code", "execution_count": 3, "outputs": [{"output_type": "stream"}]},
        ]
    }
    assert stored_outputs(notebook) == ["cell 2: outputs", "cell 2: execution count 3"]


def test_a_warning_in_an_output_is_found() -> None:
    warning = "/x/tqdm/autonotebook.py:1: TqdmWarning: IProgress not found.\n"
    notebook = {
        "cells": [
            {"cell_type": "markdown", "source": "TqdmWarning is explained here"},
            {"cell_type": "code", "outputs": [{"output_type": "stream", "text": "ok\n"}]},
            {"cell_type": "code", "outputs": [{"output_type": "stream", "text": [warning]}]},
        ]
    }
    assert unwanted_outputs(notebook) == ["cell 2: TqdmWarning"]


def run_notebook(path: Path) -> tuple[float, list[str]]:
    """Executes ``path`` in a fresh kernel (in its own folder; nothing is written back) and
    returns the seconds it took and its :func:`unwanted_outputs`; a cell that raises raises
    ``CellExecutionError``."""
    nbformat = import_extra("nbformat", "examples")
    nbclient = import_extra("nbclient", "examples")
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    start = time.perf_counter()
    client.execute()
    return time.perf_counter() - start, unwanted_outputs(notebook)


def main(argv: list[str]) -> int:
    """``python -m tests.test_examples [NOTEBOOK...]``: runs the notebooks (all by default)."""
    paths = [Path(arg) for arg in argv] or NOTEBOOKS
    nbclient = import_extra("nbclient", "examples")
    total = 0.0
    for path in paths:
        try:
            seconds, unwanted = run_notebook(path)
        except nbclient.exceptions.CellExecutionError as error:
            print(f"{path}: {error}", file=sys.stderr)
            return 1
        if unwanted:
            print("\n".join(f"{path}: {line}" for line in unwanted), file=sys.stderr)
            return 1
        total += seconds
        print(f"{path.name}: ran in {seconds:.1f} s")
    print(f"{len(paths)} notebooks ran in {total:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def test_the_researcher_duel_says_its_few_deals_decide_nothing() -> None:
    # A duel of a few deals is there to show the call; its table must not be read as a ranking.
    cells = json.loads((EXAMPLES / "researcher.ipynb").read_text(encoding="utf-8"))["cells"]
    text = ["".join(cell["source"]) for cell in cells]
    duel = next(i for i, source in enumerate(text) if 'players=["mcts", "optimal"]' in source)
    games = int(re.search(r"games=(\d+)", text[duel])[1])  # type: ignore[index]
    assert games < 100
    assert cells[duel + 1]["cell_type"] == "markdown"
    assert "decide nothing" in text[duel + 1]
