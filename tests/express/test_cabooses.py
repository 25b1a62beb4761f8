"""The 16 cabooses: data, each predicate on hand-made trains, relative judging, search facts."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from express import (
    CABOOSES,
    DECK,
    CabooseKind,
    ExpressError,
    ParseError,
    Play,
    Train,
    caboose_named,
)

ABSOLUTE_CASES = [
    ("Two-Timer", "R3|R3,R2|G2,G3|G3", True),
    ("Two-Timer", "R3|R3,R2|G2", False),
    ("Two-Timer", "R3|R3,R2|R2,G2|G2,G3|G3", False),  # red has 4, not exactly 3
    ("Lightweight", "R3|G3,G2|G2", True),
    ("Lightweight", "~R4|B4,B2|B2", True),  # a face-down card's cars are worth 2
    ("Lightweight", "R3|G3,G4|Y4", False),
    ("Specialized", "B2|B2,B2|B3,B4|G4", True),
    ("Specialized", "B2|B2,B2|B2", False),
    ("Specialized", "B2|B2,B2|B2,B2|B3", False),  # six, not exactly five
    ("Efficient", "B2|B2,~R3|G3,B2|B3", True),
    ("Efficient", "", True),  # no face-up card to break the condition
    ("Efficient", "B2|B2,B2|G2", False),
    ("Sequence 1", "B2|B2,~R3|G3,G2|Y3", True),
    ("Sequence 1", "B2|B2,B2|B3,B3|B2", False),
    ("Sequence 2", "R3|G3,G3|B3,B3|Y3", True),
    ("Sequence 2", "R3|G3,G3|B3,~B3|Y3", False),
    ("Sequence 3", "B2|B2,B2|B3,B3|R3", True),
    ("Sequence 3", "G3|B3,~R3|G3,B2|B2", False),  # 3,3,2,2,2,2: read left to right only
    ("Sequence 4", "~R3|G3,B2|B2,B2|B3", True),
    ("Sequence 4", "B2|B2,B2|B3", False),
    ("Sequence 5", "R2|R3,~Y2|Y2,G3|G3", True),
    ("Sequence 5", "R2|R3,~Y2|Y2,G2|G3", False),
    ("End of Line", "G4|G3", True),
    ("End of Line", "~G4|G3", False),
    ("End of Line", "", False),  # the engine is not a railcar
    ("Inefficient", "R3|G3,B3|Y3", True),
    ("Inefficient", "", True),
    ("Inefficient", "R3|G3,G3|B3", False),
]


@pytest.mark.parametrize(("name", "train", "expected"), ABSOLUTE_CASES)
def test_absolute_conditions(name: str, train: str, expected: bool) -> None:
    assert caboose_named(name).met_by(Train.parse(train)) is expected


def test_the_sixteen_cabooses() -> None:
    assert len(CABOOSES) == 16 and len({c.name for c in CABOOSES}) == 16
    points = {c.name: c.points for c in CABOOSES}
    assert (
        points["The Little Engine"] == 7 and points["Efficient"] == 8 and points["Specialized"] == 3
    )
    relative = {c.name for c in CABOOSES if c.is_relative}
    assert relative == {
        "Executive",
        "Diversified",
        "Short Line",
        "The Little Engine",
        "Buried Alive",
    }
    assert caboose_named("Short Line").kind is CabooseKind.MOST
    assert caboose_named("executive").kind is CabooseKind.FEWEST
    assert all(c.memo_key is not None for c in CABOOSES if not c.is_relative)


def test_names_are_forgiving_and_errors_quote() -> None:
    assert caboose_named("two timer") is caboose_named("Two-Timer")
    assert caboose_named("SEQUENCE 3").name == "Sequence 3"
    with pytest.raises(ParseError, match="'Red Caboose'"):
        caboose_named("Red Caboose")
    with pytest.raises(ExpressError, match="Executive"):
        caboose_named("Executive").met_by(Train())


def winners(name: str, trains: list[str], bonuses: list[int] | None = None) -> tuple[bool, ...]:
    parsed = [Train.parse(text) for text in trains]
    return caboose_named(name).winners(parsed, bonuses or [0] * len(parsed))


def test_relative_cabooses_all_tied_players_score() -> None:
    assert winners("Executive", ["B2|B2,B2|B3", "R2|R2,R2|R3", "R4|B4"]) == (True, True, False)
    assert winners("Diversified", ["R3|G3,G3|B3,B3|Y3", "B2|B2", "R3|G3"]) == (True, False, False)
    assert winners("Short Line", ["B2|B2,B2|B3", "R2|R2,R2|R3", "R4|B4"]) == (True, True, False)
    # The Little Engine compares value plus the run bonus actually awarded.
    trains = ["B2|B2,B2|B3", "R3|G3,G3|B3"]
    assert winners("The Little Engine", trains, [3, 0]) == (True, True)  # 9 + 3 = 12 + 0
    assert winners("The Little Engine", trains, [0, 0]) == (True, False)
    # Buried Alive: only trains with a face-down card compete.
    assert winners("Buried Alive", ["~B2|B2,B2|B3", "~R3|G3,~G3|B3", "R4|B4"]) == (
        False,
        True,
        False,
    )
    assert winners("Buried Alive", ["B2|B2", "R4|B4"]) == (False, False)
    assert winners("Two-Timer", ["R3|R3,R2|G2,G3|G3", "R4|B4"]) == (True, False)


def _random_rows(
    rng: random.Random, cards: list[str], n: int, max_cards: int
) -> list[tuple[Play, ...]]:
    rows = []
    for _ in range(n):
        plays = [Play.parse(rng.choice(cards)) for _ in range(rng.randint(0, max_cards))]
        plays = [Play(play.card, rng.random() < 0.7) for play in plays]
        rows.append(tuple(plays))
    return rows


@pytest.mark.parametrize(
    "caboose", [c for c in CABOOSES if not c.is_relative], ids=lambda c: c.name
)
def test_memo_key_and_monotone_facts(caboose: object) -> None:
    """Rows with equal memo keys and last cars get equal verdicts after any continuation
    (no connection rule needed here: the conditions read cars only)."""
    from express import Caboose

    assert isinstance(caboose, Caboose) and caboose.memo_key is not None
    rng = random.Random(caboose.name)
    # A small alphabet makes equal keys frequent.
    cards = ["B2|B2", "B2|B3", "B3|R3", "R2|R2", "R3|G3", "G2|G3", "G4|Y4", "Y3|B3"]
    prefixes = _random_rows(rng, cards, 400, 4)
    continuations = _random_rows(rng, cards, 40, 3)
    groups: dict[object, list[tuple[Play, ...]]] = defaultdict(list)
    for prefix in prefixes:
        row = tuple(car for play in prefix for car in play.cars)
        groups[(caboose.memo_key(row), row[-1] if row else None)].append(prefix)
    checked = 0
    for members in groups.values():
        for continuation in continuations:
            verdicts = {
                caboose.test(tuple(car for play in p + continuation for car in play.cars))
                for p in members
            }
            assert len(verdicts) == 1, (caboose.name, members[:2], continuation)
            checked += len(members) > 1
        if caboose.monotone:
            for prefix in members:
                row = tuple(car for play in prefix for car in play.cars)
                if not caboose.test(row):
                    for continuation in continuations:
                        assert not caboose.test(
                            row + tuple(car for play in continuation for car in play.cars)
                        )
    assert checked > 0
    if caboose.face_up_ok is not None:
        for prefix in prefixes + [p + c for p in prefixes[:50] for c in continuations]:
            if caboose.test(tuple(car for play in prefix for car in play.cars)):
                assert all(caboose.face_up_ok(play.card) for play in prefix if play.face_up), prefix
    assert len(DECK) == 32
