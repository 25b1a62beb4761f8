"""Deck text and deck files of Yardmaster Express: the cards of a deck in the card notation.

A deck file (``express best --deck FILE``, :func:`load_deck`) lists cards in the notation of
:class:`express.Card` (``LEFT|RIGHT``), one or more per line, separated by commas or
whitespace; ``;`` starts a comment (the comment character of Pack & Stack's deck files too).
:func:`format_deck` gives the text of one, one card per line with its provenance as a comment,
which is what ``express deck`` prints (:func:`save_deck` writes it to a file):

>>> from express import DECK
>>> print(format_deck(DECK[:3]))
B2|B2  ; listed in the mid-2014 prototype card list
B2|B2  ; listed in the mid-2014 prototype card list
R2|R2  ; listed in the mid-2014 prototype card list
>>> parse_deck(format_deck(DECK)) == DECK
True
"""

from __future__ import annotations

import os
import re
from collections import defaultdict, deque
from collections.abc import Iterable

from arena.files import checked_path, read_text, write_text
from express.cards import DECK_ENTRIES, Card, Provenance, checked_card, refuse_text
from express.errors import ExpressError, ParseError, type_error

__all__ = ["COMMENT", "LARGEST_DECK_FILE", "format_deck", "load_deck", "parse_deck", "save_deck"]

COMMENT = ";"
"""Starts a comment that runs to the end of the line, in deck text and deck files."""

LARGEST_DECK_FILE = 1_000_000
"""The largest deck file :func:`load_deck` reads, in bytes: a deck of 32 cards takes about
1,700 with comments; the bound stops a device such as /dev/zero or a wrong file."""


def parse_deck(text: str, *, source: str | None = None) -> tuple[Card, ...]:
    """Cards from deck text, in order: the format of ``--cards`` and of deck files.

    Cards are written in the card notation (``R4|B4``) and separated by commas and/or
    whitespace, so one card per line (what :func:`format_deck` writes) and
    ``"R4|B4,B4|G4"`` (what :func:`format_cards` writes) are the same format. A copy of a card
    is listed again: there is no count syntax. ``;`` starts a comment that runs to the end of
    the line. Errors name the line when the text has line breaks, after ``source`` when given
    (where the text came from, e.g. ``"deck file 'my.txt'"``).

    >>> parse_deck("R4|B4, B4|G4  ; two of the 4|4 cards")
    (Card.parse('R4|B4'), Card.parse('B4|G4'))
    """
    if not isinstance(text, str):
        raise type_error(
            "parse_deck: text", "deck text (str); for a file use load_deck(path)", text
        )
    cards: list[Card] = []
    lines = text.splitlines()
    numbered = "\n" in text or "\r" in text
    for number, line in enumerate(lines, start=1):
        content = line.split(COMMENT, 1)[0]
        try:
            cards.extend(_parse_token(token) for token in re.split(r"[,\s]+", content) if token)
        except ParseError as error:
            where = [source] if source else []
            if numbered:
                where.append(f"line {number}")
            if where:
                raise ParseError(f"{': '.join(where)}: {error}") from None
            raise
    return tuple(cards)


_LONGEST_TOKEN = 24


def _parse_token(token: str) -> Card:
    if token.startswith("#"):
        raise ParseError(f"invalid card: {token!r} (comments in deck text start with {COMMENT!r})")
    if token.isdigit():
        raise ParseError(
            f"invalid card: {token!r} (a deck lists each copy of a card again; there is no count syntax)"
        )
    if len(token) > _LONGEST_TOKEN:
        # Quote the start only: a damaged file can hold one enormous token.
        shown = repr(token[:_LONGEST_TOKEN])
        raise ParseError(
            f"invalid card: {shown}... (expected two cars joined by '|', like 'R3|G3')"
        )
    return Card.parse(token)


def format_deck(cards: Iterable[Card]) -> str:
    """The text of a deck file of ``cards``, one card per line, that :func:`parse_deck` and
    :func:`load_deck` read back (the same cards in the same order); :func:`save_deck` writes it.

    Each copy of a standard card carries its provenance (:class:`Provenance`) as a ``;``
    comment, copies taking the :data:`DECK_ENTRIES` in order (so the inferred G2|G2 is the
    second one); a card the standard deck does not hold, or holds fewer times, has no comment.
    """
    refuse_text(cards, "format_deck")
    provenances: defaultdict[Card, deque[Provenance]] = defaultdict(deque)
    for entry in DECK_ENTRIES:
        provenances[entry.card].extend([entry.provenance] * entry.count)
    lines = []
    for card in cards:
        checked_card(card, "format_deck")
        known = provenances[card]
        lines.append(f"{card}  {COMMENT} {known.popleft().value}" if known else str(card))
    return "\n".join(lines)


def save_deck(cards: Iterable[Card], path: str | os.PathLike[str]) -> None:
    """Write the deck file of ``cards`` (:func:`format_deck`, UTF-8) to ``path``, replacing
    the file whole or not at all; :func:`load_deck` reads it back. No card, or a problem
    writing it, raises an :class:`ExpressError` quoting the file."""
    name = checked_path(path, "save_deck", ExpressError, "deck file")
    refuse_text(cards, "save_deck")
    text = format_deck(cards)
    if not text:
        # load_deck refuses a file without a card: never write one it cannot read back.
        raise ExpressError(f"save_deck: no card to write to {name!r} (a deck holds cards)")
    write_text(path, text + "\n", what="deck file", error=ExpressError, caller="save_deck")


def load_deck(path: str | os.PathLike[str]) -> tuple[Card, ...]:
    """The cards of a deck file (see :func:`parse_deck` for the format; UTF-8, a byte-order mark
    is fine). Every problem raises an :class:`ExpressError` quoting the file: it cannot be read,
    it is binary, not UTF-8 or over :data:`~express.deck.LARGEST_DECK_FILE` bytes, a card in it is invalid
    (with its line), or it holds no card.
    """
    name = checked_path(path, "load_deck", ExpressError, "deck file")
    text = read_text(
        path, what="deck file", limit=LARGEST_DECK_FILE, error=ExpressError, caller="load_deck"
    )
    cards = parse_deck(text, source=f"deck file {name!r}")
    if not cards:
        raise ExpressError(f"deck file {name!r} holds no card")
    return cards
