"""Colours, cars, cards, the deck and the deck text format."""

from __future__ import annotations

import pickle
from collections import Counter

import pytest

from express import (
    DECK,
    DECK_ENTRIES,
    ENGINE,
    WILD,
    Car,
    Card,
    Color,
    ExpressError,
    ParseError,
    Play,
    Provenance,
    RulesError,
    deck_for,
    format_cards,
    format_deck,
    parse_deck,
)


def test_car_and_card_round_trip() -> None:
    for text in ("B2", "R3", "G4", "Y2", "P4", "*2", "*0"):
        car = Car.parse(text)
        assert str(car) == text
        assert eval(repr(car)) == car  # noqa: S307 - repr is documented to round-trip
    card = Card.parse("R3|G3")
    assert (card.left, card.right) == (Car(Color.RED, 3), Car(Color.GREEN, 3))
    assert str(card) == "R3|G3" and eval(repr(card)) == card  # noqa: S307
    assert Card.parse(" y2|p4 ") == Card.parse("Y2|P4")


def test_wild_cars() -> None:
    assert WILD.is_wild and WILD.value == 2
    assert ENGINE.is_wild and ENGINE.value == 0
    assert not Car.parse("B2").is_wild


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("X3|G3", "'X3'"),
        ("R5|G3", "'R5'"),
        ("R1|G3", "'R1'"),
        ("R3", "'R3'"),
        ("R3|G3|B3", "'R3|G3|B3'"),
        ("*2|G3", "'*2|G3'"),
        ("R|G3", "'R'"),
    ],
)
def test_bad_cards_quote_the_input(text: str, quoted: str) -> None:
    with pytest.raises(ParseError) as caught:
        Card.parse(text)
    assert quoted in str(caught.value)
    assert isinstance(caught.value, ExpressError) and isinstance(caught.value, ValueError)


def test_bad_car_values_are_rejected_by_the_constructor_too() -> None:
    with pytest.raises(ParseError, match="'B5'"):
        Car(Color.BLUE, 5)
    with pytest.raises(ParseError):
        Car(None, 3)
    with pytest.raises(ParseError):
        Card(WILD, Car.parse("B2"))


def test_card_value_and_mono() -> None:
    assert Card.parse("B2|B3").value == 5 and Card.parse("B2|B3").is_mono
    assert not Card.parse("R4|B4").is_mono


def test_deck_matches_the_rules_page() -> None:
    assert len(DECK) == 32
    counts = Counter(str(card) for card in DECK)
    for text in ("B2|B2", "R2|R2", "Y2|Y2", "G2|G2", "P2|P2"):
        assert counts[text] == 2
    assert sum(counts.values()) == 32 and len(counts) == 27
    inferred = [entry for entry in DECK_ENTRIES if entry.provenance is Provenance.INFERRED]
    assert [(str(entry.card), entry.count) for entry in inferred] == [("G2|G2", 1)]
    assert (
        sum(entry.count for entry in DECK_ENTRIES if entry.provenance is Provenance.PROTOTYPE_2014)
        == 31
    )
    # Every colour: 2 cards of 2|2, one 2|3 (purple's P2|P3 included).
    assert sum(1 for card in DECK if Color.PURPLE in (card.left.color, card.right.color)) == 8


def test_deck_for_players() -> None:
    two = deck_for(2)
    assert len(two) == 24
    assert all(Color.PURPLE not in (card.left.color, card.right.color) for card in two)
    assert deck_for(3) == deck_for(4) == deck_for(5) == DECK
    for players in (0, 1, 6):
        with pytest.raises(RulesError, match=repr(players)):
            deck_for(players)


def test_parse_deck_and_format_deck() -> None:
    text = """
    ; a user's transcription
    R4|B4, B4|G4   g3|b3
    P4|P4,  ; trailing comment
    """
    cards = parse_deck(text)
    assert [str(card) for card in cards] == ["R4|B4", "B4|G4", "G3|B3", "P4|P4"]
    assert parse_deck(format_deck(DECK)) == DECK
    assert parse_deck(format_cards(DECK)) == DECK
    assert parse_deck("") == ()
    with pytest.raises(ParseError, match="'Q4'"):
        parse_deck("R4|B4, Q4|B4")


def test_color_parse_and_cargo() -> None:
    assert Color.parse("p") is Color.PURPLE
    assert Color.BLUE.cargo == "coal"
    with pytest.raises(ParseError, match="'X'"):
        Color.parse("X")


def test_cards_and_plays_pickle_their_fields_alone_and_hash_alike_after() -> None:
    # Their hash is worked out once, when they are made; a pickle must not carry it (it would
    # tie the bytes, hence checkpoints' fingerprints, to how it is computed).
    for value in (Car.parse("B3"), Card.parse("R3|G3"), Play(Card.parse("R3|G3"), False)):
        back = pickle.loads(pickle.dumps(value))
        assert back == value and hash(back) == hash(value)
        assert "_hash" not in value.__getstate__()
        assert set(value.__getstate__()) == set(value.__dataclass_fields__)
