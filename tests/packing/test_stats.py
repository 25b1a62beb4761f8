"""Deck statistics and the grab decision, recomputed here from direct solves over all rolls."""

import itertools
from fractions import Fraction

import pytest

from packing import DICE, SAMPLE_DECK, Cargo, Truck, solve, verify
from packing.stats import closest_capacity, grab_decision, heuristic_loss, truck_stats
from packing.table import OptimalTable
from tests.decks import SMALL_DECK

DECK = SMALL_DECK
ALL_ROLLS = [Cargo(r) for r in itertools.product(*(DICE[n] for n in range(1, 6)))]


@pytest.fixture(scope="module")
def table(small_deck_table: OptimalTable) -> OptimalTable:
    return small_deck_table


@pytest.fixture(scope="module")
def direct(small_deck_solved: dict[Cargo, tuple[int, ...]]) -> dict[Cargo, list[int]]:
    """Optimal penalty per distinct cargo and truck, by solving (and validating) each."""
    assert set(small_deck_solved) == set(ALL_ROLLS)
    return {c: list(penalties) for c, penalties in small_deck_solved.items()}


def test_truck_stats_match_a_direct_count_over_7776_rolls(
    table: OptimalTable, direct: dict[Cargo, list[int]]
) -> None:
    stats = truck_stats(table)
    for j, s in enumerate(stats):
        penalties = [direct[c][j] for c in ALL_ROLLS]  # one entry per roll, duplicates included
        assert s.truck == DECK[j]
        assert s.expected_penalty == Fraction(sum(penalties), 7776)
        for p, prob in s.penalty_distribution.items():
            assert prob == Fraction(penalties.count(p), 7776)
        best = sum(1 for c in ALL_ROLLS if direct[c][j] == min(direct[c]))
        assert s.p_best == Fraction(best, 7776)
        assert set(s.perfect_cargos) == {c for c in direct if direct[c][j] == 0}
        assert s.perfect_rolls == penalties.count(0)
        assert s.p_perfect == Fraction(penalties.count(0), 7776)
    assert sum(s.p_best for s in stats) >= 1


def test_grab_decision_compares_trucks_with_the_pile() -> None:
    cargo = Cargo.from_roll([3, 2, 3, 0, 1])
    revealed, pile = list(SAMPLE_DECK[:4]), list(SAMPLE_DECK[4:])
    choices = grab_decision(cargo, revealed, pile)
    pile_mean = Fraction(sum(verify(solve(cargo, t)).penalty for t in pile), len(pile))
    expected = {t.name: Fraction(verify(solve(cargo, t)).penalty) for t in revealed}
    expected["the pile"] = pile_mean
    assert {c.label: c.expected_penalty for c in choices} == expected
    assert [c.expected_penalty for c in choices] == sorted(expected.values())
    with pytest.raises(ValueError):
        grab_decision(cargo, [], [])


def test_closest_capacity_prefers_the_larger_on_ties() -> None:
    small, big, exact = (Truck.parse("#" * n, height=1, name=str(n)) for n in (4, 6, 5))
    assert closest_capacity(Cargo({5: 1}), [small, big]).name == "6"
    assert closest_capacity(Cargo({5: 1}), [small, big, exact]).name == "5"


def test_heuristic_loss_over_the_whole_deck_is_exact(
    table: OptimalTable, direct: dict[Cargo, list[int]]
) -> None:
    report = heuristic_loss(table)
    losses = []
    for cargo in ALL_ROLLS:
        pick = DECK.index(closest_capacity(cargo, DECK))
        losses.append(direct[cargo][pick] - min(direct[cargo]))
    assert report.mean_loss == pytest.approx(sum(losses) / 7776, abs=1e-12)
    assert report.worst_loss == max(losses)
    assert report.p_loses == pytest.approx(sum(x > 0 for x in losses) / 7776)
    worst = report.worst_cargo
    pick = DECK.index(closest_capacity(worst, DECK))
    assert direct[worst][pick] - min(direct[worst]) == max(losses)


def test_heuristic_loss_with_revealed_trucks_is_never_negative(table: OptimalTable) -> None:
    report = heuristic_loss(table, revealed=2, samples=20, seed=3)
    assert report.revealed == 2 and report.samples == 20
    assert report.mean_loss >= 0 and report.worst_loss >= 0
    assert len(report.worst_revealed) == 2
    with pytest.raises(ValueError):
        heuristic_loss(table, revealed=3)


# --- the answers' text: what the command lines print is str() of the value ---------------------


def test_a_ranking_reads_as_its_table_the_blind_draw_and_the_best_plan() -> None:
    from packing.stats import ranking

    cargo = Cargo.from_roll([3, 2, 3, 0, 1])
    result = ranking(cargo, SAMPLE_DECK, top=3, solve_best=True)
    lines = str(result).splitlines()
    assert lines[0] == "cargo 3,2,3,0,1 (volume 21) on 30 trucks"  # the best 3 shown
    assert lines[1].split() == ["rank", "truck", "mask", "height", "capacity", "penalty"]
    rows = [line.split() for line in lines[2:5]]
    assert [row[1] for row in rows] == [entry.truck.name for entry in result.entries]
    assert [int(row[5]) for row in rows] == [entry.penalty for entry in result.entries]
    assert lines[5] == "blind draw from the whole deck: expected penalty 13.20 (exactly 66/5)"
    assert result.best is not None
    assert lines[7:] == ["best load plan:", *verify(result.best).render().splitlines()]


def test_grab_advice_reads_as_every_choice_best_first() -> None:
    from packing.stats import grab_advice

    cargo = Cargo.from_roll([3, 2, 3, 0, 1])
    revealed = [t for t in SAMPLE_DECK if t.name in ("S03", "S17")]
    pile = [t for t in SAMPLE_DECK if t not in revealed]
    advice = grab_advice(cargo, revealed, pile)
    lines = str(advice).splitlines()
    assert lines[0] == "cargo 3,2,3,0,1 (volume 21); 2 revealed, pile of 28 trucks"
    assert [line.split()[0] for line in lines[1:4]] == ["S17", "the", "S03"]
    assert [float(line.split()[-1]) for line in lines[1:4]] == [
        pytest.approx(float(c.expected_penalty), abs=0.005) for c in advice.choices
    ]
    assert lines[4:] == [
        "best choice: S17",
        "closest-capacity heuristic would take S17 (capacity 26)",
    ]


def test_deck_stats_read_as_each_truck_best_first(table: OptimalTable) -> None:
    from packing.stats import deck_stats

    stats = deck_stats(table, samples=5)
    lines = str(stats).splitlines()
    assert lines[0].startswith(f"{len(DECK)} trucks, table {table.key[:16]}")
    names = [line.split()[0] for line in lines[2 : 2 + len(DECK)]]
    by_mean = sorted(stats.trucks, key=lambda s: s.expected_penalty)
    assert names == [s.truck.name for s in by_mean]
    assert sum(
        line.lstrip().startswith(("any truck", "4 revealed", "6 revealed")) for line in lines
    ) == len(stats.heuristics)
