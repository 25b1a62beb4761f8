"""The SVG pictures of cards, trains and games: each parses as XML, has one ``class="card"``
shape per card (face down ones as card backs), the engine once per train, a bar per run of
two or more cars, and keeps every shape inside its view box."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena import RandomPolicy, play
from express import DECK, Card, Game, Play, Train
from express.cards import Color
from express.errors import ExpressError
from express.svg import (
    COLOR_FILLS,
    NARROWEST_TRAIN,
    PHONE_WIDTH,
    card_svg,
    train_svg,
    trains_svg,
)
from tests.svgcheck import SVG, outside, parse, shapes, text_sizes, view_box, with_class

#: The best 12-card train of the 3-player deck (`express best --length 12 --players 3`).
TWELVE = Train.parse("B4|G4,G4|Y4,P4|P4,P2|P3,P3|B3,B3|R3,R4|B4,Y4|R4,R3|G3,B3|Y3,G3|B3,G3|R3")


def check_train(root: ET.Element, train: Train) -> None:
    """The cards of ``train`` in order, face up or down, under one engine."""
    cards = with_class(root, "card")
    assert [g.attrib["data-card"] for g in cards] == [str(p.card) for p in train.plays]
    assert [g.attrib["data-face"] for g in cards] == [
        "up" if p.face_up else "down" for p in train.plays
    ]
    for g, play_ in zip(cards, train.plays):
        fills = [r.attrib["fill"] for r in g.iter(f"{SVG}rect")][1:]  # the cars, after the card
        if play_.face_up:
            colors = [play_.card.left.color, play_.card.right.color]
            assert fills == [COLOR_FILLS[c] for c in colors if c is not None]
        else:
            assert len(set(fills)) == 1 and fills[0] not in COLOR_FILLS.values()
        values = [t.text for t in g.iter(f"{SVG}text") if t.text and t.text.isdigit()]
        assert values == [str(car.value) for car in play_.cars]
    runs = with_class(root, "run")
    assert [(g.attrib["data-color"], int(g.attrib["data-length"])) for g in runs] == [
        (run.color.value, run.length) for run in train.runs if run.length >= 2
    ]


def test_a_card() -> None:
    card = Card.parse("R3|G3")
    root = parse(card._repr_svg_())
    assert card._repr_svg_() == card_svg(card)
    assert outside(root) == []
    check_train(root, Train((Play(card),)))


def test_a_train_with_face_down_cards() -> None:
    train = Train.parse("R4|B4,B4|B3,~R3|G3,Y2|Y3,~P4|P4")
    root = parse(train._repr_svg_())
    assert outside(root) == []
    assert len(with_class(root, "engine")) == 1
    check_train(root, train)
    assert len([g for g in with_class(root, "card") if g.attrib["data-face"] == "down"]) == 2
    title = root.find(f"{SVG}title")
    assert train.value == 8 + 7 + 4 + 5 + 4
    assert title is not None and "value 28" in (title.text or "")


def test_the_engine_alone() -> None:
    root = parse(train_svg(Train()))
    assert outside(root) == [] and with_class(root, "card") == []
    assert len(with_class(root, "engine")) == 1


@st.composite
def trains(draw: st.DrawFn) -> Train:
    """A legal train from the deck: each card face up when it connects and the draw says so."""
    train = Train()
    for card in draw(st.lists(st.sampled_from(DECK), max_size=9)):
        face_up = draw(st.booleans()) and train.can_add(card)
        train = train.add(card, face_up)
    return train


@given(trains())
def test_random_trains(train: Train) -> None:
    root = parse(train_svg(train))
    assert outside(root) == []
    check_train(root, train)


@pytest.mark.parametrize("players", [2, 5])
def test_a_finished_game(players: int) -> None:
    game = play(Game(players, caboose="Lightweight"), [RandomPolicy()] * players, seed=players)
    assert game.is_terminal()
    root = parse(game._repr_svg_())
    assert outside(root) == []
    rows = with_class(root, "player")
    assert len(rows) == players
    score = game.score()
    for seat, (row, train) in enumerate(zip(rows, game.trains)):
        check_train(row, train)
        text = " ".join(row.itertext())
        assert f"total {score.players[seat].total}" in text
        assert ("wins" in text) == (seat == score.winner)


def test_a_game_under_way_shows_its_trains() -> None:
    game = Game(3)
    while not game.is_terminal() and game.turn < 4:
        if game.is_chance_node():
            game.apply_action(game.chance_outcomes()[0][0])
        else:
            game.apply_action(game.legal_actions()[0])
    root = parse(game._repr_svg_())
    assert outside(root) == []
    assert len(with_class(root, "card")) == sum(len(t) for t in game.trains) == 4
    assert "round 2 of 6" in (root.find(f"{SVG}title").text or "")  # type: ignore[union-attr]


def test_trains_svg_without_trains() -> None:
    root = parse(trains_svg([], title="nobody"))
    assert outside(root) == [] and with_class(root, "player") == []


def test_every_colour_has_its_own_fill() -> None:
    assert len(set(COLOR_FILLS.values())) == len(Color)


# --- pictures for a phone ---------------------------------------------------------------------


def card_rows(root: ET.Element) -> list[float]:
    """The top of each card of a train picture, in order; each card's shapes are checked to
    sit on that one row (a card is never cut by a row's end)."""
    tops = []
    for card in with_class(root, "card"):
        boxes = list(shapes(card))
        top = boxes[0].top  # the card's own rectangle
        assert all(top <= b.top and b.bottom <= top + 60 for b in boxes)
        tops.append(top)
    return tops


def test_a_long_train_wraps_between_cards_at_a_phones_width() -> None:
    root = parse(train_svg(TWELVE, width=PHONE_WIDTH))
    assert view_box(root)[2] == PHONE_WIDTH and outside(root) == []
    check_train(root, TWELVE)  # the cards in order, and one run group per run
    tops = card_rows(root)
    assert tops == sorted(tops) and len(set(tops)) > 1
    # every text shows 10 pixels high or more at 100 %, the width a phone gives it
    assert text_sizes(root)[0][0] >= 10
    # the run of 5 purple cars is cut by a row's end: a bar on each row, one label
    purple = next(g for g in with_class(root, "run") if g.attrib["data-color"] == "P")
    assert len(list(purple.iter(f"{SVG}rect"))) == 2
    assert ["".join(t.itertext()) for t in purple.iter(f"{SVG}text")] == ["run of 5"]
    # one row, the default, is as wide as the train, too wide for a phone
    assert view_box(parse(train_svg(TWELVE)))[2] > 3 * PHONE_WIDTH


@given(trains(), st.floats(NARROWEST_TRAIN, 1200))
def test_a_train_in_rows_of_any_width(train: Train, width: float) -> None:
    root = parse(train_svg(train, width=width))
    assert view_box(root)[2] == math.ceil(width) and outside(root) == []
    check_train(root, train)
    tops = card_rows(root)
    assert tops == sorted(tops)


def test_every_text_of_a_card_and_a_train_is_10_units_or_more() -> None:
    for picture in (train_svg(TWELVE), card_svg(Card.parse("Y3|G3")), train_svg(Train())):
        assert text_sizes(parse(picture))[0][0] >= 10


@pytest.mark.parametrize("width", [NARROWEST_TRAIN - 1, 0, -5, math.nan])
def test_a_width_too_narrow_for_one_card_is_refused_in_one_line(width: float) -> None:
    message = f"width: {width!r} is narrower than the engine and one card (199 units)"
    with pytest.raises(ExpressError, match=f"^{re.escape(message)}$"):
        train_svg(TWELVE, width=width)
    assert NARROWEST_TRAIN == 199


def test_a_compact_card_writes_its_values_large_and_no_letter() -> None:
    card = Card.parse("Y3|G3")
    root = parse(card_svg(card, compact=True))
    assert outside(root) == []
    assert text_sizes(root) == [(22.0, "3"), (22.0, "3")]
    full = parse(card_svg(card))
    assert sorted(text for _, text in text_sizes(full)) == ["3", "3", "G", "Y"]
    # 51 pixels wide (a picker's button is 74 on a phone) its values are 10 pixels high; the
    # full picture's letters would need it 127 pixels wide
    assert 22 * 51 / view_box(root)[2] >= 10 and 10 * 51 / view_box(full)[2] < 10
    check_train(root, Train((Play(card),)))
