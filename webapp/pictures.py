"""What the pages draw: the library's SVG pictures of trucks, load plans, cards and trains, and
the decks the pickers show. Every picture is made by the games' own ``svg`` modules (the pages
add none), from a value parsed and checked by the library (a plan is verified before it is
drawn). No extra is needed here: :mod:`webapp.api` serves these answers.

An answer is bounded like a request: a deck of more than :data:`MOST_TRUCKS` trucks or a train
of more than :data:`MOST_TRAIN_CARDS` cards is refused before anything is drawn, a deck's
pictures stop as soon as they pass :data:`LARGEST_ANSWER` bytes, and the server sends no picture
answer longer than that (a small request could otherwise ask for megabytes: a 150 KB deck text
of 9,000 one-cell trucks drew 24 MB of SVG)."""

from __future__ import annotations

import re
from typing import Any

from webapp.errors import BadRequest

__all__ = [
    "LARGEST_ANSWER",
    "MOST_TRAIN_CARDS",
    "MOST_TRUCKS",
    "cards_answer",
    "deck_answer",
    "plan_answer",
    "shown_train",
    "train_answer",
    "truck_answer",
    "truck_entry",
]

LARGEST_ANSWER = 2_000_000
"""The most bytes of a picture answer: the sample deck's 30 trucks take about 520,000, the
largest truck's picture (100 × 100, every other cell usable) about 1,400,000."""

MOST_TRUCKS = 100
"""The most trucks of a deck whose pictures one request draws (the sample deck has 30)."""

MOST_TRAIN_CARDS = 32
"""The most cards of a train one request draws: the deck's 32 (a game's trains hold at most
seven; the best train of a pool at most the pool)."""


def _text(body: Any, name: str, *, required: bool = True, default: str = "") -> str:
    if not isinstance(body, dict):
        raise BadRequest("the request must be a JSON object")
    value = body.get(name)
    if value is None:
        if required:
            raise BadRequest(f"field {name!r} is required")
        return default
    if isinstance(value, list) and all(isinstance(v, (str, int)) for v in value):
        return ",".join(str(v) for v in value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise BadRequest(f"field {name!r}: {value!r} is not a string")
    return value


def _library_error(error: Exception) -> BadRequest:
    return BadRequest(" ".join(str(error).split("\n")))


def truck_entry(truck: Any) -> dict[str, Any]:
    """A truck as the pages show it: its facts, its picture (``svg``, the library's wide
    layout) and ``compact_svg``, the truck alone without a word, for a button small enough
    that its name, capacity and height are better written beside it in the page."""
    from packing.svg import truck_svg

    return {
        "name": truck.name,
        "mask": str(truck),
        "height": truck.height,
        "capacity": truck.capacity,
        "variant": truck.is_variant,
        "svg": truck_svg(truck),
        "compact_svg": truck_svg(truck, layout="compact"),
    }


def deck_answer(body: Any) -> dict[str, Any]:
    """The trucks of the sample deck, or of the deck file's text in ``deck``, with pictures.

    **Limits.** At most 100 trucks (:data:`MOST_TRUCKS`), refused before any is drawn; the
    answer at most 2,000,000 bytes (:data:`LARGEST_ANSWER`): the drawing stops as soon as the
    pictures pass it."""
    from packing.deck import SAMPLE_DECK, parse_deck
    from packing.errors import PackingError

    text = _text(body, "deck", required=False)
    if not text:
        return {"source": "sample", "trucks": _pictured(SAMPLE_DECK)}
    # Counted before the deck is read: reading thousands of trucks takes a second.
    headers = len(_TRUCK_HEADER.findall(text))
    if headers > MOST_TRUCKS:
        raise BadRequest(
            f"field 'deck': {headers:,} trucks, more than the {MOST_TRUCKS} trucks a picture "
            "request draws"
        )
    try:
        trucks = parse_deck(text, source="deck")
    except PackingError as error:
        raise _library_error(error) from None
    if not trucks:
        raise BadRequest("field 'deck': the deck holds no truck")
    return {"source": "uploaded", "trucks": _pictured(trucks)}


#: A truck's first line in a deck file (``NAME height N``, :mod:`packing.deck`).
_TRUCK_HEADER = re.compile(r"^[ \t]*\S+[ \t]+height[ \t]+\S+[ \t]*$", re.MULTILINE)


def _pictured(trucks: Any) -> list[dict[str, Any]]:
    """Each truck's entry with its picture, stopped as soon as the pictures pass
    :data:`LARGEST_ANSWER` bytes (a deck of large variant trucks)."""
    entries = []
    size = 0
    for index, truck in enumerate(trucks, 1):
        entry = truck_entry(truck)
        size += len(entry["svg"])
        if size > LARGEST_ANSWER:
            raise BadRequest(
                f"the pictures of this deck pass this server's limit of {LARGEST_ANSWER:,} bytes "
                f"at truck {index} of {len(trucks)}: picture fewer or smaller trucks"
            )
        entries.append(entry)
    return entries


def truck_answer(body: Any) -> dict[str, Any]:
    """One truck (``truck`` a mask, ``height``, ``name``) with its picture."""
    from packing.errors import PackingError
    from packing.model import Truck

    mask = _text(body, "truck")
    height = _text(body, "height")
    name = _text(body, "name", required=False)
    if not height.strip().isdigit():
        raise BadRequest(f"field 'height': {height!r} is not a whole number")
    try:
        truck = Truck.parse(mask, height=int(height), name=name)
    except PackingError as error:
        raise _library_error(error) from None
    return truck_entry(truck)


def plan_answer(body: Any) -> dict[str, Any]:
    """The picture of a load plan as the answers give it (``plan``: an answer's ``best`` or
    ``packing solve``'s object, its ``status`` and ``bound`` included); the plan is verified
    before it is drawn.

    ``layout`` (optional): ``wide`` (the default: the level maps beside the isometric view,
    as `packing plot plan` draws it), ``tall`` (the level maps under it and the text wrapped
    to 340 units, none smaller than 10: a phone shows it at 100 %) or ``compact`` (the
    isometric view alone, no text). ``title`` (optional) replaces the heading."""
    from packing.errors import PackingError
    from packing.model import Cargo, LoadPlan, Placement, Truck
    from packing.svg import PLAN_LAYOUTS, plan_svg
    from packing.verify import verify

    if not isinstance(body, dict) or not isinstance(body.get("plan"), dict):
        raise BadRequest("field 'plan' is required: a load plan as an answer gives it")
    layout = "wide" if body.get("layout") is None else body["layout"]
    if not isinstance(layout, str) or layout not in PLAN_LAYOUTS:
        raise BadRequest(f"field 'layout': {layout!r} is not one of {', '.join(PLAN_LAYOUTS)}")
    plan = body["plan"]
    try:
        truck_data = plan["truck"]
        truck = Truck.parse(
            str(truck_data["mask"]),
            height=int(truck_data["height"]),
            name=str(truck_data.get("name", "")),
        )
        cargo = Cargo(tuple(int(n) for n in plan["cargo"]))
        placements = tuple(Placement.parse(str(p)) for p in plan["placements"])
        # The status the answer gives ("optimal" with its bound) is drawn as it says, once
        # verify has checked the two agree; a plan without one was given by hand.
        status, bound = plan.get("status", "by-hand"), plan.get("bound")
        checked = verify(LoadPlan(truck, cargo, placements, status=status, bound=bound))
    except (KeyError, TypeError, ValueError, PackingError) as error:
        raise BadRequest(f"field 'plan': not a valid load plan ({error})") from None
    title = _text(body, "title", required=False) or None
    return {"svg": plan_svg(checked, title=title, layout=layout), "penalty": checked.penalty}


def cards_answer(body: Any) -> dict[str, Any]:
    """The cards of the deck for ``players`` (2 to 5; default the full deck), with pictures:
    ``svg`` the card, ``compact_svg`` the card with its values large and no colour letter,
    for a button that writes the card's code beside it."""
    from express.cards import DECK, deck_for
    from express.errors import ExpressError
    from express.svg import card_svg

    players = _text(body, "players", required=False)
    try:
        deck = deck_for(int(players)) if players else DECK
    except (ValueError, ExpressError) as error:
        raise _library_error(error) from None
    return {
        "cards": [
            {"card": str(card), "svg": card_svg(card), "compact_svg": card_svg(card, compact=True)}
            for card in deck
        ]
    }


def shown_train(text: str) -> tuple[Any, list[int]]:
    """A train as a player sees it, written as ``express advise --train`` takes it: another
    player's face-down card is ``~`` (unknown), which stands here as some face-down card (two
    wild cars, whichever card it is) drawn as a back that names no card. The train and the
    indices of its hidden cards."""
    from express.cards import DECK
    from express.train import Play, Train

    tokens = [token.strip() for token in text.split(",")] if text.strip() else []
    plays = []
    hidden = []
    for index, token in enumerate(tokens):
        if token == "~":
            plays.append(Play(DECK[0], face_up=False))
            hidden.append(index)
        else:
            plays.append(Play.parse(token))
    return Train(tuple(plays)), hidden


def train_answer(body: Any) -> dict[str, Any]:
    """A train (``train``, as ``express advise --train`` takes it: ``~`` for another player's
    face-down card, ``~CARD`` for your own) with its picture.

    ``width`` (optional): the picture's width in units, the cards wrapping onto rows within
    it between two cards (340, a phone's picture column, shows every text at 10 pixels or
    more); at least 199 (the engine and one card), at most 4,000. Without it the train is one
    row. ``title`` (optional) replaces the heading.

    **Limits.** At most 32 cards (:data:`MOST_TRAIN_CARDS`, the deck's), refused before the
    train is read."""
    from express.errors import ExpressError
    from express.svg import train_svg

    text = _text(body, "train", required=False)
    cards = text.count(",") + 1 if text.strip() else 0
    if cards > MOST_TRAIN_CARDS:
        raise BadRequest(
            f"field 'train': {cards:,} cards, more than the {MOST_TRAIN_CARDS} cards a picture "
            "request draws"
        )
    try:
        train, hidden = shown_train(text)
    except ExpressError as error:
        raise _library_error(error) from None
    title = _text(body, "title", required=False) or None
    width = body.get("width")
    if width is not None and (
        isinstance(width, bool) or not isinstance(width, (int, float)) or width > _WIDEST
    ):
        raise BadRequest(f"field 'width': {width!r} is not a number of units up to {_WIDEST:,}")
    try:
        svg = train_svg(train, title=title, hidden=hidden, width=width)
    except ExpressError as error:
        raise BadRequest(f"field 'width': {str(error).removeprefix('width: ')}") from None
    return {"train": text.strip(), "svg": svg}


_WIDEST = 4_000
"""The widest train picture a page may ask for, in units (a desk screen is under 3,000)."""
