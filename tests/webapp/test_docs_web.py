"""docs/web.md states the limits the server applies: its table is LIMITS, row for row, and the
bounds of a body and of a picture answer; the docs' curl examples send what the server takes."""

from __future__ import annotations

from pathlib import Path

from webapp.api import LARGEST_BODY, LARGEST_DEPTH, LIMITS, LONGEST_NUMBER
from webapp.pictures import LARGEST_ANSWER, MOST_TRAIN_CARDS, MOST_TRUCKS

PAGE = Path(__file__).resolve().parents[2] / "docs" / "web.md"
README = Path(__file__).resolve().parents[2] / "README.md"
HEADER = "| endpoint | expensive when | time limit (s) |"


def rows_after(header: str) -> list[list[str]]:
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    rows = []
    for line in lines[lines.index(header) + 2 :]:  # past the header and its |---| line
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def test_the_limits_table_is_the_servers() -> None:
    rows = rows_after(HEADER)
    stated = {tuple(e.strip("`").split()): (when, float(s)) for e, when, s in rows}
    assert stated == {key: (limit.why, limit.seconds) for key, limit in LIMITS.items()}


def test_the_body_limit_is_the_servers() -> None:
    assert f"at most {LARGEST_BODY:,} bytes" in PAGE.read_text(encoding="utf-8")


def test_the_body_and_picture_bounds_are_the_servers() -> None:
    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    assert f"at most {LARGEST_DEPTH} levels deep" in text
    assert f"whole numbers of at most {LONGEST_NUMBER} digits" in text
    assert f"at most {LARGEST_ANSWER:,} bytes" in text
    assert f"at most {MOST_TRUCKS} trucks" in text and f"at most {MOST_TRAIN_CARDS} cards" in text


def test_every_curl_example_says_its_body_is_json() -> None:
    # The server refuses a body without Content-Type: application/json (HTTP 415).
    examples = [
        line
        for page in (PAGE, README)
        for line in page.read_text(encoding="utf-8").splitlines()
        if "curl " in line and any(flag in line for flag in (" -d ", "--data", "--json"))
    ]
    assert examples
    for line in examples:
        assert "--json" in line or "Content-Type: application/json" in line, line
