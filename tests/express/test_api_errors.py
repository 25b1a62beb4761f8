"""The Python API on bad input: wrong types raise TypeError saying what to pass; bad values raise
an ExpressError (a ValueError) quoting them."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from express import (
    DECK,
    CabooseKind,
    Car,
    Card,
    Color,
    ExpressError,
    LimitError,
    ParseError,
    Play,
    PoolError,
    Provenance,
    RulesError,
    Train,
    best_train,
    caboose_named,
    deck_for,
    format_cards,
    format_deck,
    load_deck,
    parse_deck,
    save_deck,
    score_game,
    solo_score,
    without,
)

R4B4 = Card.parse("R4|B4")
untyped: Any = None  # lets the tests pass wrong types past mypy on purpose


def wrong(*args: Any, **kwargs: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return args, kwargs


TYPE_CASES: list[tuple[Callable[..., object], tuple[tuple[Any, ...], dict[str, Any]], str]] = [
    (best_train, wrong(3, 7), "best_train: cards must be an iterable of Card or deck text"),
    (best_train, wrong(["R4|B4"], 1), "best_train: each card must be a Card"),
    (best_train, wrong(DECK, "3"), "best_train: length must be a whole number"),
    (best_train, wrong(DECK, 3.0), "best_train: length must be a whole number"),
    (best_train, wrong(DECK, 3, start="R3|G3"), "best_train: start must be a Train"),
    (
        best_train,
        wrong(DECK, 3, caboose=5),
        "best_train: caboose must be a Caboose, its name or None",
    ),
    (best_train, wrong(DECK, 3, bonus="no"), "best_train: bonus must be a bool"),
    (best_train, wrong(DECK, 3, node_limit=2.5), "best_train: node_limit must be a whole number"),
    (
        best_train,
        wrong(DECK, 3, time_limit="1"),
        "best_train: time_limit must be a number of seconds",
    ),
    (Train().add, wrong("R4|B4"), "Train.add: card must be a Card"),
    (Train().add, wrong(R4B4, face_up="yes"), "Train.add: face_up must be a bool"),
    (Train().add_play, wrong(R4B4), "Train.add_play: play must be a Play"),
    (Train().can_add, wrong("R4|B4"), "Train.can_add: card must be a Card"),
    (Train().extend, wrong("R4|B4"), "Train.extend: plays must be an iterable of Play"),
    (Train().extend, wrong([R4B4]), "Train: each play must be a Play"),
    (Train, wrong([Play(R4B4)]), "Train: plays must be a tuple of Play"),
    (Train.parse, wrong(None), "Train.parse: text must be a train's text"),
    (Play, wrong("R4|B4"), "Play: card must be a Card"),
    (Play.parse, wrong(R4B4), "Play.parse: text must be"),
    (Card, wrong("R4", "B4"), "Card: left must be a Car"),
    (Card.parse, wrong(44), "Card.parse: text must be"),
    (Car, wrong("R", 3), "Car: color must be a Color or None"),
    (Car, wrong(Color.RED, "3"), "Car: value must be a whole number"),
    (Car.parse, wrong(3), "Car.parse: text must be"),
    (Color.parse, wrong(1), "Color.parse: text must be"),
    (score_game, wrong("R4|B4"), "score_game: trains must be a sequence of Train"),
    (score_game, wrong(["R4|B4"]), "score_game: each train must be a Train"),
    (score_game, wrong(Train.parse("R4|B4")), "score_game: trains must be a sequence of Train"),
    (
        score_game,
        wrong([Train()], start_player="0"),
        "score_game: start_player must be a whole number",
    ),
    (score_game, wrong([Train()], caboose=3), "score_game: caboose must be a Caboose"),
    (solo_score, wrong("R4|B4"), "solo_score: train must be a Train"),
    (caboose_named, wrong(None), "caboose_named: name must be"),
    (caboose_named("Efficient").met_by, wrong("R4|B4"), "Caboose.met_by: train must be a Train"),
    (
        caboose_named("Executive").winners,
        wrong(["R4|B4"], [0]),
        "Caboose.winners: each train must be a Train",
    ),
    (deck_for, wrong("2"), "deck_for: players must be a whole number"),
    (parse_deck, wrong(DECK), "parse_deck: text must be deck text"),
    (format_cards, wrong(["R4|B4"]), "format_cards: each card must be a Card"),
    (format_deck, wrong(["R4|B4"]), "format_deck: each card must be a Card"),
    (save_deck, wrong(DECK, 3), "save_deck: path must be a file path"),
    (load_deck, wrong(3), "load_deck: path must be a file path"),
    (without, wrong("R4|B4", [R4B4]), "without: deck must be an iterable of Card"),
    (without, wrong(DECK, "R4|B4"), "without: used must be a Train or an iterable of Card"),
    (without, wrong(DECK, ["R4|B4"]), "without: each used card must be a Card"),
]


@pytest.mark.parametrize(("function", "arguments", "message"), TYPE_CASES)
def test_wrong_types_raise_type_error_saying_what_was_expected(
    function: Callable[..., object], arguments: tuple[tuple[Any, ...], dict[str, Any]], message: str
) -> None:
    args, kwargs = arguments
    with pytest.raises(TypeError) as caught:
        function(*args, **kwargs)
    assert str(caught.value).startswith(message), str(caught.value)
    assert " not " in str(caught.value)  # ...and what came instead


def test_a_deck_text_is_a_pool_so_a_too_long_train_is_a_pool_error() -> None:
    # best_train accepts deck text on purpose (documented): "R4|B4" is a pool of one card.
    with pytest.raises(PoolError, match="3"):
        best_train("R4|B4", 3)


@pytest.mark.parametrize("limit", [-1, 0, -0.5, 0.0, math.nan, math.inf, -math.inf])
def test_time_limit_must_be_positive_and_finite(limit: float) -> None:
    with pytest.raises(LimitError, match="time_limit") as caught:
        best_train(DECK, 3, time_limit=limit)
    assert isinstance(caught.value, ExpressError) and isinstance(caught.value, ValueError)


@pytest.mark.parametrize("limit", [-1, 0])
def test_node_limit_must_be_positive(limit: int) -> None:
    with pytest.raises(LimitError, match=f"node limit: {limit}"):
        best_train(DECK, 3, node_limit=limit)


def test_positive_limits_are_accepted() -> None:
    assert best_train(DECK, 3, node_limit=1, time_limit=30).score <= best_train(DECK, 3).score


def test_without_takes_each_physical_card_once_and_names_what_is_missing() -> None:
    start = Train.parse("B2|B2,~B2|B2")
    left = without(DECK, start)
    assert len(left) == 30 and Card.parse("B2|B2") not in left
    assert without(DECK, [R4B4]) == tuple(card for card in DECK if card != R4B4)
    assert without(DECK, Train()) == DECK
    with pytest.raises(PoolError, match=r"card not in the deck: 'R3\|R3'"):
        without(DECK, Train.parse("R3|R3"))
    with pytest.raises(PoolError, match=r"'R4\|B4' \(2 used, the deck holds 1\)"):
        without(DECK, Train.parse("R4|B4,~R4|B4"))
    with pytest.raises(PoolError, match=r"'P4\|P4'"):
        without(deck_for(2), [Card.parse("P4|P4")])


def test_start_train_and_pool_follow_one_rule() -> None:
    """best_train draws from the cards it is given; with without() a deck card is never used twice."""
    start = Train.parse("R4|B4")
    extended = best_train(without(DECK, start), 7, start=start)
    assert extended.train.cards.count(R4B4) == 1
    assert not Counter(extended.train.cards) - Counter(DECK)  # every card from the deck, once
    # Given the whole deck instead, the search may take the deck's R4|B4 again: the caller said
    # it is available (another copy, as with B2|B2), so this is not an error.
    assert best_train(DECK, 7, start=start).train.cards.count(R4B4) == 2


def test_score_game_player_limit_and_deck() -> None:
    with pytest.raises(RulesError, match="too many trains: 6"):
        score_game([Train()] * 6)
    assert len(score_game([Train()] * 5).players) == 5
    trains = [Train.parse("R4|B4"), Train.parse("~R4|B4")]
    assert score_game(trains).winner == 0  # no deck given: any cards
    with pytest.raises(PoolError, match=r"'R4\|B4' \(2 used, the deck holds 1\)"):
        score_game(trains, deck=DECK)
    with pytest.raises(PoolError, match=r"'P4\|P4'"):
        score_game([Train.parse("P4|P4"), Train()], deck=deck_for(2))
    assert score_game([Train.parse("B2|B2"), Train.parse("~B2|B2")], deck=deck_for(2)).winner == 0
    # One train is no game: the run award and a relative caboose compare trains.
    with pytest.raises(RulesError, match="too few trains: 1"):
        score_game([Train.parse("R4|B4")], caboose="Lightweight")


def test_winners_needs_one_run_bonus_per_train() -> None:
    with pytest.raises(RulesError, match="2 trains but 1 run bonuses"):
        caboose_named("Executive").winners([Train(), Train()], [0])


def test_load_deck_errors_are_express_errors(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    for data, reason in [
        (b"\0\0", "binary"),
        (b"\xff\xfe", "not UTF-8"),
        (b"", "no card"),
        (b"R4|X4", "'X4'"),
    ]:
        path.write_bytes(data)
        with pytest.raises(ExpressError, match=reason) as caught:
            load_deck(path)
        assert repr(str(path)) in str(caught.value)
    with pytest.raises(ExpressError, match="cannot read deck file"):
        load_deck(tmp_path)
    path.write_bytes(b"\xef\xbb\xbfR4|B4\n")
    assert load_deck(path) == (R4B4,) and load_deck(str(path)) == (R4B4,)


def test_round_trip_of_deck_files(tmp_path: Path) -> None:
    for deck in (DECK, deck_for(2), (R4B4, R4B4, Card.parse("R3|R3"))):
        assert parse_deck(format_deck(deck)) == deck
        assert parse_deck(format_cards(deck)) == deck
        save_deck(deck, tmp_path / "deck.txt")
        assert load_deck(tmp_path / "deck.txt") == deck
        assert (tmp_path / "deck.txt").read_text(encoding="utf-8") == format_deck(deck) + "\n"
    lines = format_deck(DECK).splitlines()
    assert [line for line in lines if "inferred" in line] == [lines[7]] and lines[7].startswith(
        "G2|G2"
    )
    assert format_deck([Card.parse("R3|R3")]) == "R3|R3"  # not a standard card: no provenance
    assert format_cards(DECK[:3]) == "B2|B2,B2|B2,R2|R2"


def test_save_deck_names_a_file_it_cannot_write(tmp_path: Path) -> None:
    with pytest.raises(ExpressError, match="cannot write deck file"):
        save_deck(DECK, tmp_path / "missing" / "deck.txt")


def test_enum_values_from_bad_text_are_express_errors() -> None:
    for enum, text in ((Color, "X"), (CabooseKind, "least"), (Provenance, "found")):
        with pytest.raises(ParseError, match=repr(text)):
            enum(text)
    assert Color("B") is Color.BLUE and CabooseKind("most") is CabooseKind.MOST
