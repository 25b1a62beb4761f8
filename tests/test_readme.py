"""The README's Python examples run as written, and the values they state are the real ones.

Every ```python block of README.md runs, in order, in one namespace, inside an empty working
folder (so a file the README uses must be one it makes). Two kinds of statement in a block are
checked, so the printed examples stay honest:

* an expression statement whose comment *starts with* a Python value, optionally followed by
  ``: explanation`` — ``plan.penalty, plan.optimal   # (18, True)`` — must evaluate to that
  value, compared by ``repr`` (so ``1`` is not ``True``, and ``Fraction(66, 5)`` works too). A
  comment that is prose (``# exact: branch and bound``) is not a check;
* a ```text block that directly follows a ```python block is exactly what that block prints.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import tokenize
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"

_FENCE = re.compile(r"^(\s*)```(\w*)\s*$")


@dataclass(frozen=True)
class Block:
    """One fenced block of the README: its language, text and first line number."""

    language: str
    text: str
    line: int
    follows_python: bool  # a ```text block with only blank lines between it and a ```python block


def readme_blocks(text: str) -> list[Block]:
    """The fenced blocks of ``text`` in order (indented fences inside list items included)."""
    blocks: list[Block] = []
    lines = text.splitlines()
    i = 0
    last_python_end: int | None = None
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, language = match.groups()
        start = i + 1
        end = start
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        if end == len(lines):
            raise ValueError(f"README.md:{i + 1}: unclosed code fence")
        body = "\n".join(
            line[len(indent) :] if line.startswith(indent) else line for line in lines[start:end]
        )
        follows = last_python_end is not None and all(
            not line.strip() for line in lines[last_python_end + 1 : i]
        )
        blocks.append(Block(language, body + "\n", start + 1, follows and language == "text"))
        last_python_end = end if language == "python" else None
        i = end + 1
    return blocks


def stated_value(comment: str) -> str | None:
    """The value a comment states, or None when the comment is prose.

    The value is the whole comment or the part before one of its ``": "``, and must be a Python
    expression made of literals and calls of a name (``Fraction(1, 972)``): a bare name or an
    attribute is prose (``exact: …`` is not a value).
    """
    text = comment.strip()
    cuts = [len(text)] + [m.start() for m in re.finditer(r": ", text)]
    for cut in sorted(cuts):
        head = text[:cut].strip()
        try:
            tree = ast.parse(head, mode="eval")
        except SyntaxError:
            continue
        called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
        if any(isinstance(node, ast.Attribute) for node in ast.walk(tree)):
            continue
        if any(isinstance(node, ast.Name) and id(node) not in called for node in ast.walk(tree)):
            continue
        return head
    return None


def matches(value: object, stated: str) -> bool:
    """Whether ``value`` is what the comment ``stated``, compared by ``repr`` (a literal's quotes
    and spacing are normalised first, so ``"S15"`` states the same as ``'S15'``)."""
    try:
        literal = ast.literal_eval(stated)
    except ValueError:
        return repr(value) == stated
    return repr(value) == repr(literal)


def comments_by_line(source: str) -> dict[int, str]:
    """The comment text (without ``#``) on each line of ``source`` that has one."""
    found: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found[token.start[0]] = token.string[1:]
    return found


@dataclass(frozen=True)
class Check:
    line: int
    expression: str
    stated: str


def run_block(block: Block, namespace: dict[str, object]) -> list[Check]:
    """Execute a python block statement by statement; check every stated value. Returns the checks."""
    tree = ast.parse(block.text)
    comments = comments_by_line(block.text)
    checks: list[Check] = []
    for statement in tree.body:
        ast.increment_lineno(statement, block.line - 1)
        where = f"README.md:{statement.lineno}"
        comment = comments.get((statement.end_lineno or statement.lineno) - block.line + 1)
        stated = stated_value(comment) if comment is not None else None
        if isinstance(statement, ast.Expr):
            code = compile(ast.Expression(statement.value), "README.md", "eval")
            value = eval(code, namespace)
            if stated is not None:
                expression = ast.unparse(statement.value)
                assert matches(value, stated), (
                    f"{where}: {expression} is {value!r}, the README says {stated}"
                )
                checks.append(Check(statement.lineno, expression, stated))
        else:
            exec(compile(ast.Module([statement], type_ignores=[]), "README.md", "exec"), namespace)
    return checks


def test_stated_value_reads_values_and_skips_prose() -> None:
    assert stated_value(" (18, True, 21)") == "(18, True, 21)"
    assert stated_value(" (19, 1): 9 + run award 4 + Lightweight 6 beats 16") == "(19, 1)"
    assert stated_value(" Fraction(1, 972): exact odds of each cargo") == "Fraction(1, 972)"
    assert stated_value(" 8448: distinct optimal trains") == "8448"
    assert stated_value(" exact: branch and bound, memoised states") is None
    assert stated_value(" e.g. '5x@0,0,0': length 5 along x") is None
    assert stated_value(" dice results for lengths 1..5") is None
    assert stated_value(" text form: commas, '~' = face down") is None
    assert matches(Fraction(66, 5), "Fraction(66, 5)") and not matches(
        Fraction(66, 5), "Fraction(13, 1)"
    )
    assert matches((18, True, 21), "(18, True, 21)") and not matches((18, 1, 21), "(18, True, 21)")


@pytest.mark.extra("openspiel")
def test_readme_python_blocks_run_and_state_true_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PACKING_TABLE_DIR", str(tmp_path / "tables"))
    blocks = readme_blocks(README.read_text(encoding="utf-8"))
    namespace: dict[str, object] = {"__name__": "readme"}
    checks: list[Check] = []
    printed = ""
    ran = 0
    for block in blocks:
        if block.language == "python":
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                checks += run_block(block, namespace)
            printed = out.getvalue()
            ran += 1
        elif block.follows_python:
            assert printed == block.text, (
                f"README.md:{block.line}: the block above prints\n{printed}"
            )
    assert ran >= 3
    # The parser must find the README's key statements as checks, not skip them as prose.
    checked = {check.expression for check in checks}
    for expression in (
        "(plan.penalty, plan.optimal, plan.bound)",
        "(game.players[1].total, game.winner)",
    ):
        assert expression in checked, f"{expression} is no longer checked"
