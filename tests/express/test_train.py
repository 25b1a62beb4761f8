"""Plays, trains, the connection rule and runs — including the rules page's worked checks."""

from __future__ import annotations

import pytest

from express import (
    ENGINE,
    WILD,
    Car,
    Card,
    Color,
    IllegalPlayError,
    ParseError,
    Play,
    Run,
    Train,
    check_plays,
    connects,
    solo_score,
)


def card(text: str) -> Card:
    return Card.parse(text)


def test_worked_check_1_four_cards_of_fours() -> None:
    train = Train().add(card("R4|B4")).add(card("B4|G4")).add(card("G4|Y4")).add(card("Y4|R4"))
    assert train.value == 32
    assert [(run.color.value, run.length) for run in train.runs] == [
        ("R", 1),
        ("B", 2),
        ("G", 2),
        ("Y", 2),
        ("R", 1),
    ]
    assert train.longest_run == 2
    assert solo_score(train) == 34


def test_worked_check_2_face_down_rescues_an_illegal_card() -> None:
    train = Train().add(card("R3|G3"))
    assert not train.can_add(card("B2|B2"))
    with pytest.raises(IllegalPlayError) as caught:
        train.add(card("B2|B2"))
    assert "B2" in str(caught.value) and "G3" in str(caught.value)  # names both cars
    assert train.can_add(card("B2|B2"), face_up=False)
    assert train.add(card("B2|B2"), face_up=False).value == 10


def test_worked_check_3_wild_breaks_a_run() -> None:
    train = Train.parse("B2|B2,B2|B3,~R4|R4,Y3|B3")
    assert train.value == 4 + 5 + 4 + 6 == 19
    assert train.runs[0] == Run(Color.BLUE, 0, 4)
    assert train.longest_run == 4
    assert solo_score(train) == 23


def test_connection_rule() -> None:
    car = Car.parse
    assert connects(car("B2"), car("B4"))  # colour
    assert connects(car("B3"), car("G3"))  # value
    assert not connects(car("B3"), car("G2"))
    assert connects(ENGINE, car("G2")) and connects(WILD, car("G2"))
    # No rotation: only the new card's left car counts.
    assert not Train.parse("R3|G3").can_add(card("B2|G2"))
    assert Train.parse("R3|G3").can_add(card("G2|B2"))
    # Anything follows a face-down card and the engine.
    assert Train.parse("~R3|G3").can_add(card("B2|B2"))
    assert Train().can_add(card("P4|P4"))


def test_text_round_trip() -> None:
    for text in ("", "R4|B4", "R4|B4,~B4|G4,G4|Y4", "~P2|P2"):
        train = Train.parse(text)
        assert str(train) == text
        assert eval(repr(train)) == train  # noqa: S307
    assert Train.parse(" r4|b4 ,  b4|g4 ") == Train.parse("R4|B4,B4|G4")
    assert str(Play.parse("~R3|G3")) == "~R3|G3" and not Play.parse("~R3|G3").face_up


def test_train_construction_checks_every_joint() -> None:
    with pytest.raises(IllegalPlayError, match="G3"):
        Train.parse("R3|G3,B2|B2")
    problems = check_plays(
        [Play(card("R3|G3")), Play(card("B2|B2")), Play(card("B2|Y2")), Play(card("R4|R4"))]
    )
    assert len(problems) == 2 and "card 2" in problems[0] and "card 4" in problems[1]
    assert check_plays([Play(card("R3|G3")), Play(card("B2|B2"), face_up=False)]) == ()


def test_bad_train_text_quotes_it() -> None:
    with pytest.raises(ParseError, match="'K4'"):
        Train.parse("R4|B4,K4|B4")


def test_runs_and_values() -> None:
    assert Train().value == 0 and Train().longest_run == 0 and Train().runs == ()
    assert Train.parse("~R3|G3").longest_run == 0
    single = Train.parse("R3|G3")
    assert single.longest_run == 1  # a single car is a run of 1
    assert Train.parse("P4|P4,P2|P3,P3|R3").longest_run == 5
    assert Train.parse("B2|B2,~B2|B2,B2|B2").longest_run == 2
    assert Train.parse("R4|B4,~B4|G4").last_car == WILD
    assert Train().last_car == ENGINE
    assert len(Train.parse("R4|B4,B4|G4")) == 2


@pytest.mark.parametrize("text", ["~", " ~ ", "~  "])
def test_a_face_down_play_without_its_card_is_quoted(text: str) -> None:
    from express import ParseError, Play

    with pytest.raises(ParseError, match=f"invalid play: {text!r}"):
        Play.parse(text)
