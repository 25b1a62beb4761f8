"""Pictures of Yardmaster Express as plain SVG strings (no extra needed).

:func:`card_svg` draws a railcar card: its two cars in their cargo's colour, each with its
value (and its colour's letter, for readers who tell the colours apart by name). :func:`train_svg`
draws a train: the engine, then every card left to right, a face-down card as a card back with
its two wild cars worth 2, and a bar under each run of two or more cars. :func:`trains_svg` draws
a game's trains one above the other with each player's score once the game is over. The values
show these in Jupyter (``Card._repr_svg_``, ``Train._repr_svg_``, ``Game._repr_svg_``).

For a phone the same drawing wraps a train onto rows of a given width, between two cards
(``train_svg(train, width=PHONE_WIDTH)``), and a card shown small writes its values large and
leaves its letters to the words beside it (``card_svg(card, compact=True)``): no text is under
10 units, so a picture shown at 100 % reads at 10 pixels or more.

>>> from express import Train
>>> picture = train_svg(Train.parse("R4|B4,B4|G4,~R3|G3"))
>>> picture.count('class="card"'), picture.count('data-face="down"')
(3, 1)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

from arena.svg import PHONE_WIDTH, Svg, escape, text_width, wrap_text
from express.cards import Car, Card, Color
from express.errors import ExpressError
from express.train import Play, Train

if TYPE_CHECKING:  # annotations only: drawing a score runs no scoring code
    from express.scoring import GameScore

__all__ = ["COLOR_FILLS", "NARROWEST_TRAIN", "PHONE_WIDTH", "card_svg", "train_svg", "trains_svg"]

#: The fill of each cargo colour's cars: strong enough to tell apart, light enough for white
#: values to sit on them (the yellow takes dark text).
COLOR_FILLS: Final[dict[Color, str]] = {
    Color.BLUE: "#2f6db5",
    Color.RED: "#c0392b",
    Color.GREEN: "#2e8b57",
    Color.YELLOW: "#e9b824",
    Color.PURPLE: "#7d3c98",
}
_WILD = "#b9b9b9"
_BACK = "#34495e"
_BACK_EDGE = "#1f2d3a"
_CARD_EDGE = "#333333"
_TEXT = "#222222"
_MUTED = "#666666"

_CAR_W, _CAR_H = 46.0, 30.0  # a car's body
_PAD = 5.0  # inside a card, round its two cars
_CARD_W = 2 * _CAR_W + 3 * _PAD
_CARD_H = _CAR_H + 2 * _PAD + 10.0  # room for the wheels
_GAP = 10.0  # between two cards (the coupling)
_ENGINE_W = 62.0
_MARGIN = 10.0
_ROW_H = _CARD_H + 24.0  # a train with its run bars
_SMALL = 10.0  # the smallest text: a phone shows a picture at 100 % with it 10 pixels high

NARROWEST_TRAIN: Final = _ENGINE_W + _GAP + _CARD_W + 2 * _MARGIN
"""The narrowest ``width`` :func:`train_svg` takes: the engine and one card, with margins."""


def _car(
    page: Svg, car: Car, x: float, y: float, *, dark: bool = False, compact: bool = False
) -> None:
    """One car's body at (x, y) with its wheels and value (``dark``: on a card back).
    ``compact``: the value large and no colour letter, for a picture shown small beside the
    card's code."""
    fill = _WILD if car.color is None else COLOR_FILLS[car.color]
    light_text = car.color not in (None, Color.YELLOW)
    page.rect(x, y, _CAR_W, _CAR_H, rx=4, fill=fill, stroke="#1a1a1a", stroke_width=1)
    for wheel in (x + 10, x + _CAR_W - 10):
        page.circle(wheel, y + _CAR_H + 3.5, 3.5, fill="#1a1a1a")
    size, radius, drop = (22, 13.5, 8.0) if compact else (14, 10, 5.0)
    page.circle(x + _CAR_W / 2, y + _CAR_H / 2, radius, fill="#ffffff", fill_opacity=0.9)
    page.text(
        x + _CAR_W / 2,
        y + _CAR_H / 2 + drop,
        car.value,
        font_size=size,
        font_weight="bold",
        text_anchor="middle",
        fill=_TEXT,
    )
    if compact:
        return
    letter = "*" if car.color is None else car.color.value  # the notation's wild mark
    page.text(
        x + 2.5,
        y + 10,
        letter,
        font_size=_SMALL,
        fill="#ffffff" if light_text or dark else _TEXT,
    )


def _card(
    page: Svg,
    play: Play,
    x: float,
    y: float,
    number: int,
    *,
    hidden: bool = False,
    compact: bool = False,
) -> None:
    """A card at (x, y): face up its two cars on a white card, face down a card back.
    ``hidden``: a face-down card whose identity the viewer does not know (another player's):
    the picture names no card. ``compact``: the cars as :func:`_car` draws them compact."""
    down = not play.face_up
    wild = " (face down: two wild cars worth 2)" if down else ""
    title = f"card {number}: " + ("a hidden card" if hidden else str(play.card)) + wild
    shown = "hidden" if hidden else str(play.card)
    with page.group(class_="card", data_card=shown, data_face="down" if down else "up"):
        page.element("title", escape(title))
        page.rect(
            x,
            y,
            _CARD_W,
            _CARD_H,
            rx=6,
            fill=_BACK if down else "#ffffff",
            stroke=_BACK_EDGE if down else _CARD_EDGE,
            stroke_width=1.2,
        )
        if down:
            # The back's pattern: a few diagonal stripes inside the card.
            for k in range(1, 7):
                offset = k * _CARD_W / 7
                page.line(
                    (x + offset, y + 3),
                    (x + max(3.0, offset - 22), y + _CARD_H - 3),
                    stroke="#46607a",
                    stroke_width=2,
                )
        left, right = play.cars
        _car(page, left, x + _PAD, y + _PAD, dark=down, compact=compact)
        _car(page, right, x + 2 * _PAD + _CAR_W, y + _PAD, dark=down, compact=compact)


def _engine(page: Svg, x: float, y: float) -> None:
    """The engine: a wild car worth 0 with a cab and a chimney."""
    with page.group(class_="engine"):
        page.element("title", "the engine: a wild car worth 0")
        body_y = y + _PAD + 8
        page.rect(x, body_y, _ENGINE_W - 18, _CAR_H - 8, rx=3, fill="#555555", stroke="#1a1a1a")
        page.rect(x + _ENGINE_W - 22, y + _PAD, 22, _CAR_H, rx=2, fill="#444444", stroke="#1a1a1a")
        page.rect(x + 8, y + _PAD, 8, 8, fill="#333333")
        for wheel in (x + 9, x + 25, x + _ENGINE_W - 11):
            page.circle(wheel, y + _PAD + _CAR_H + 3.5, 4, fill="#1a1a1a")
        page.text(
            x + (_ENGINE_W - 18) / 2,
            body_y + 15,
            "0",
            font_size=12,
            font_weight="bold",
            text_anchor="middle",
            fill="#ffffff",
        )


def _train(
    page: Svg,
    train: Train,
    x: float,
    y: float,
    hidden: frozenset[int] = frozenset(),
    width: float | None = None,
) -> None:
    """The train with its top left corner at (x, y): engine, cards, couplings, run bars; the
    plays at the indices ``hidden`` are face-down cards the viewer does not know. ``width``:
    the cards wrap to a new row before one would reach past it (between cards, never inside
    one); None: one row."""
    _engine(page, x, y)
    places = _card_places(train, x, y, width)
    for number, (play, (left, top)) in enumerate(zip(train.plays, places), start=1):
        page.line(
            (left - _GAP - 1, top + _PAD + _CAR_H * 0.6),
            (left + 1, top + _PAD + _CAR_H * 0.6),
            stroke="#1a1a1a",
            stroke_width=2.5,
        )
        _card(page, play, left, top, number, hidden=number - 1 in hidden)
    for run in train.runs:
        if run.length < 2:
            continue
        # A run wrapped onto more rows has a bar on each; its words go under the first.
        pieces: dict[float, tuple[float, float]] = {}
        for car in range(run.start, run.start + run.length):
            left, top = places[car // 2]
            car_x = left + _PAD + (car % 2) * (_CAR_W + _PAD)
            first, _ = pieces.get(top, (car_x, car_x))
            pieces[top] = (first, car_x + _CAR_W)
        with page.group(class_="run", data_color=run.color.value, data_length=run.length):
            for number, (top, (first, last)) in enumerate(pieces.items()):
                bar_y = top + _CARD_H + 5
                page.rect(first, bar_y, last - first, 4, rx=2, fill=COLOR_FILLS[run.color])
                if number == 0:
                    page.text(
                        (first + last) / 2,
                        bar_y + 15,
                        f"run of {run.length}",
                        font_size=_SMALL,
                        text_anchor="middle",
                        fill=_MUTED,
                    )


def _card_places(
    train: Train, x: float, y: float, width: float | None
) -> list[tuple[float, float]]:
    """The top left corner of each card: after the engine in one row, or in rows no wider
    than ``width`` (from ``x``), a new row starting a coupling's length in."""
    places = []
    left, top = x + _ENGINE_W + _GAP, y
    for _ in train.plays:
        if width is not None and left + _CARD_W > x + width and left > x + _ENGINE_W + _GAP:
            left, top = x + _GAP, top + _ROW_H
        places.append((left, top))
        left += _CARD_W + _GAP
    return places


def _train_width(train: Train) -> float:
    return _ENGINE_W + len(train.plays) * (_CARD_W + _GAP)


def card_svg(card: Card, *, compact: bool = False) -> str:
    """The card face up, as an SVG document.

    ``compact``: each car's value large (22 units) and no colour letter, with a thin margin,
    for a button or a list that shows the card small and writes its code beside it: shown 51
    pixels wide, its values are still 10 pixels high (the full picture's letters need 127).

    >>> "<text" in card_svg(Card.parse("R3|G3"), compact=True)
    True
    """
    margin = 2.0 if compact else _MARGIN
    width, height = _CARD_W + 2 * margin, _CARD_H + 2 * margin
    page = Svg(width, height, title=f"card {card}")
    _card(page, Play(card), margin, margin, 1, compact=compact)
    return str(page)


def train_svg(
    train: Train,
    *,
    title: str | None = None,
    hidden: Iterable[int] = (),
    width: float | None = None,
) -> str:
    """The train as an SVG document, with its value and longest run written above it.

    ``hidden``: the indices of face-down plays the viewer does not know (another player's
    face-down cards): they are drawn as card backs that name no card, whatever card stands in
    for them in ``train`` (a face-down card is two wild cars worth 2, whichever it is).

    ``width``: the picture is that many units wide and the cards wrap onto rows within it,
    between two cards (never inside one), the heading onto lines; a run cut by a row's end
    has a bar on each row. At :data:`PHONE_WIDTH` a phone shows it at 100 %, every text at 10
    pixels or more. None (the default): one row, as wide as the train. A width narrower than
    :data:`NARROWEST_TRAIN` (the engine and one card) raises :class:`ExpressError`.

    >>> from express import Train
    >>> long = Train.parse(",".join(["~R3|G3"] * 12))
    >>> 'width="340"' in train_svg(long, width=PHONE_WIDTH)
    True
    """
    unknown = frozenset(hidden)
    for index in unknown:
        if not 0 <= index < len(train.plays) or train.plays[index].face_up:
            raise ValueError(f"hidden: play {index} of the train is not a face-down card")
    heading = title if title is not None else _summary(train)
    if width is None:
        lines = [heading]
        page_width = max(_train_width(train), text_width(heading, 12)) + 2 * _MARGIN
        rows = 1
    else:
        if not width >= NARROWEST_TRAIN:  # NaN too
            raise ExpressError(
                f"width: {width!r} is narrower than the engine and one card "
                f"({NARROWEST_TRAIN:g} units)"
            )
        page_width = width
        lines = wrap_text(heading, 12, width - 2 * _MARGIN)
        places = _card_places(train, 0.0, 0.0, width - 2 * _MARGIN)
        rows = 1 + round(max((top for _, top in places), default=0.0) / _ROW_H)
    head = 20 + 16 * (len(lines) - 1)
    height = head + rows * _ROW_H + 2 * _MARGIN
    page = Svg(math.ceil(page_width), math.ceil(height), title=heading)
    page.rect(0, 0, math.ceil(page_width), math.ceil(height), fill="#ffffff")
    for number, line in enumerate(lines):
        y = _MARGIN + 12 + 16 * number
        page.text(_MARGIN, y, line, font_size=12, font_weight="bold", fill=_TEXT)
    inside = None if width is None else width - 2 * _MARGIN
    _train(page, train, _MARGIN, _MARGIN + head, unknown, inside)
    return str(page)


def _summary(train: Train) -> str:
    down = sum(1 for play in train.plays if not play.face_up)
    hidden = f", {down} face down" if down else ""
    cards = f"{len(train)} card{'s' * (len(train) != 1)}"
    return f"train of {cards}{hidden}: value {train.value}, longest run {train.longest_run}"


def trains_svg(
    trains: Sequence[Train],
    *,
    title: str,
    start_player: int | None = None,
    score: GameScore | None = None,
) -> str:
    """Every player's train, one row each, under ``title``; with ``score`` (a finished game's)
    each player's train value, longest-run award, caboose points and total, the winner marked.
    ``start_player`` is marked "(start)". This is what a game shows (``Game._repr_svg_``)."""
    label_w = 150.0
    widest = max((_train_width(train) for train in trains), default=_ENGINE_W)
    width = max(label_w + widest, text_width(title, 13)) + 2 * _MARGIN
    height = 24 + len(trains) * (_ROW_H + 8) + 2 * _MARGIN
    page = Svg(math.ceil(width), math.ceil(height), title=title)
    page.rect(0, 0, math.ceil(width), math.ceil(height), fill="#ffffff")
    page.text(_MARGIN, _MARGIN + 13, title, font_size=13, font_weight="bold", fill=_TEXT)
    for seat, train in enumerate(trains):
        y = _MARGIN + 24 + seat * (_ROW_H + 8)
        with page.group(class_="player", data_seat=seat):
            start = " (start)" if seat == start_player else ""
            won = score is not None and score.winner == seat
            page.text(
                _MARGIN,
                y + 14,
                f"P{seat}{start}" + (" wins" if won else ""),
                font_size=12,
                font_weight="bold",
                fill="#b8860b" if won else _TEXT,
            )
            lines: tuple[str, ...]
            if score is not None:
                p = score.players[seat]
                lines = (
                    f"value {p.value}",
                    f"run {p.longest_run}: +{p.run_bonus}",
                    f"caboose +{p.caboose_points}",
                    f"total {p.total}",
                )
            else:
                lines = (f"value {train.value}", f"longest run {train.longest_run}")
            for line, text in enumerate(lines):
                page.text(_MARGIN, y + 28 + 11 * line, text, font_size=9.5, fill=_MUTED)
            _train(page, train, _MARGIN + label_w, y)
    return str(page)
