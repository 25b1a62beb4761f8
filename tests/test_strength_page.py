"""docs/strength.md's headline table says no more than the runs below it: every win share it
quotes is a figure of the section of its player count (the same share, the same 95 %
interval), and it measures ``pimc`` at two players against every other bot, ``ismcts`` at both
its simulation counts.

The page is written for people, so its tables are read loosely: one row per line, cells split
on ``|``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "strength.md"

HEADLINE = "## The headline: head to head on duplicate deals"

SECTIONS = {2: "## Two players: head to head", 3: "## Three players", 4: "## Four players"}
"""The section holding the runs of each player count's rows."""

PIMC_SHARE = re.compile(r"^\*\*(\d+\.\d) %\*\* \((\d+\.\d) – (\d+\.\d)\)$")
"""``pimc``'s cell of the headline: its share in bold, then its interval."""

OTHER_SHARE = re.compile(r"`([\w-]+)` (\d+\.\d) %(?: \((\d+\.\d) – (\d+\.\d)\))?")
"""A share in the headline's last cell: the bot, its share and perhaps its interval."""


@dataclass(frozen=True)
class Share:
    bot: str
    share: str
    interval: tuple[str, str] | None


@dataclass(frozen=True)
class Row:
    players: int
    bots: str
    deals: int
    shares: tuple[Share, ...]  # pimc's first


def section(lines: list[str], heading: str) -> list[str]:
    """The lines under ``heading`` up to the next heading of the same level."""
    start = lines.index(heading)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start + 1 : end]


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().split("|")[1:-1]]


def table_rows(lines: list[str]) -> list[list[str]]:
    """Every table row of ``lines`` as stripped cells, the ``|---|`` lines left out."""
    rows = [cells(line) for line in lines if line.startswith("|")]
    return [row for row in rows if not all(set(cell) <= {"-", ":"} for cell in row)]


def headline(lines: list[str]) -> list[Row]:
    rows = []
    for players, bots, deals, pimc, others in table_rows(section(lines, HEADLINE))[1:]:
        found = PIMC_SHARE.match(pimc)
        assert found is not None, f"pimc's share is not 'share (low – high)': {pimc!r}"
        shares = [Share("pimc", found[1], (found[2], found[3]))]
        for bot, share, low, high in OTHER_SHARE.findall(others):
            shares.append(Share(bot, share, (low, high) if low else None))
        assert len(shares) == len(re.findall(r"`[\w-]+`", bots)), (
            f"a bot's share is missing: {others!r}"
        )
        rows.append(Row(int(players), bots, int(deals.replace(",", "")), tuple(shares)))
    return rows


def names(cell: str, bot: str) -> bool:
    """Whether a table's first cell names ``bot`` (``ismcts`` also names ``ismcts1000``)."""
    return re.search(rf"(?<![\w-])`?{re.escape(bot)}", cell) is not None


def quoted_in(rows: list[list[str]], share: Share) -> bool:
    """Whether a row naming the bot gives its share, and its interval in the next cell."""
    for row in rows:
        if not names(row[0], share.bot):
            continue
        for i, cell in enumerate(row[:-1]):
            if cell.replace("*", "") != f"{share.share} %":
                continue
            if (
                share.interval is None
                or row[i + 1] == f"{share.interval[0]} – {share.interval[1]} %"
            ):
                return True
    return False


LINES = PAGE.read_text(encoding="utf-8").splitlines()
ROWS = headline(LINES)


def test_the_headline_has_rows_for_every_player_count() -> None:
    assert {row.players for row in ROWS} == set(SECTIONS)
    assert all(row.shares[0].bot == "pimc" for row in ROWS)


def test_the_headline_measures_pimc_against_every_bot_at_two_players() -> None:
    rivals = []
    for row in ROWS:
        if row.players != 2:
            continue
        assert len(row.shares) == 2, row.bots
        rival = row.shares[1].bot
        if rival == "ismcts":
            simulations = re.search(r"`ismcts` \(([\d,]+)", row.bots)
            assert simulations is not None, f"ismcts without its simulations: {row.bots!r}"
            rival += f" ({simulations[1]})"
        rivals.append(rival)
    assert sorted(rivals) == ["greedy", "ismcts (1,000)", "ismcts (100)", "search"]


def test_the_page_no_longer_says_the_two_player_duels_are_unmeasured() -> None:
    text = " ".join(" ".join(section(LINES, HEADLINE)).split())
    assert "Not measured yet" not in text


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row.players}p {row.bots}")
def test_every_headline_share_is_a_figure_of_its_section(row: Row) -> None:
    rows = table_rows(section(LINES, SECTIONS[row.players]))
    pimc, *others = row.shares
    assert quoted_in(rows, pimc), f"{pimc} is not in {SECTIONS[row.players]!r}"
    for other in others:
        if row.players == 2 and other.interval is None:
            # Two players: a deal's share is the other's complement, and so is the mean.
            assert f"{100 - float(pimc.share):.1f}" == other.share, (pimc, other)
        else:
            assert quoted_in(rows, other), f"{other} is not in {SECTIONS[row.players]!r}"


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row.players}p {row.bots}")
def test_every_headline_row_names_its_deals_in_its_section(row: Row) -> None:
    text = "\n".join(section(LINES, SECTIONS[row.players]))
    assert re.search(rf"(?<![\d,]){row.deals:,}(?![\d,]) (duplicate )?deals", text), row
