"""What a player has seen of a game, in order (its *seen history*): the caboose shown, the
deal, every turn of its own in full and the others' turns with their face-down cards hidden.
Two games the player cannot tell apart have equal seen histories; :func:`express.worlds.resample`
keeps it, and :mod:`express.openspiel` renders it as the information-state string.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from express.cards import Card
from express.game import CabooseShown, Dealt, Game, Turn
from express.train import Play
from express.worlds.kinds import deck_kinds

__all__ = [
    "CabooseSeen",
    "DealSeen",
    "OtherTurnSeen",
    "OwnTurnSeen",
    "SeenEvent",
    "new_by_turn",
    "seen_history",
]


@dataclass(frozen=True)
class CabooseSeen:
    """The caboose shown at the start (a game with a random caboose)."""

    caboose: str


@dataclass(frozen=True)
class DealSeen:
    """The deal: ``cards`` (in kind order) when the observing player was dealt them, else None;
    ``size`` cards to ``player``."""

    player: int
    cards: tuple[Card, ...] | None
    size: int


@dataclass(frozen=True)
class OwnTurnSeen:
    """One of the observing player's turns: the card it drew, the hand it chose from and which of
    those cards were new to it (both in kind order: the order the cards joined the hand is not
    something it sees), and its play (None for the turn in progress)."""

    turn: int
    drew: Card
    held: tuple[Card, ...]
    new: tuple[Card, ...]
    play: Play | None


@dataclass(frozen=True)
class OtherTurnSeen:
    """Another player's turn as the observing player saw it: the play face up, or None for a
    card played face down."""

    turn: int
    player: int
    play: Play | None


SeenEvent = CabooseSeen | DealSeen | OwnTurnSeen | OtherTurnSeen
"""One entry of :func:`seen_history`."""


def seen_history(game: Game, player: int) -> tuple[SeenEvent, ...]:
    """The whole history of ``game`` as ``player`` saw it (perfect recall), in order: the caboose
    shown; the deal (the cards when the player was dealt them, else only how many); every turn
    of its own in full; the others' turns with their face-down cards hidden; and the turn in
    progress when it is the player's. Nothing in it depends on what the player cannot see: two
    games the player cannot tell apart have equal seen histories and equal observations.
    """
    game.observation(player)  # checks the player
    by_kind = deck_kinds(game.deck)
    new = new_by_turn(game, player)

    def cards(indices: Iterable[int]) -> tuple[Card, ...]:
        return by_kind.sorted(game.drawn[i] for i in indices)

    history: list[SeenEvent] = []
    turn = 0
    for event in game.events:
        if isinstance(event, Dealt):
            mine = event.player == player
            history.append(
                DealSeen(
                    event.player, by_kind.sorted(event.cards) if mine else None, len(event.cards)
                )
            )
        elif isinstance(event, Turn):
            if event.player == player:
                history.append(
                    OwnTurnSeen(
                        turn,
                        event.drew,
                        by_kind.sorted(event.hand),
                        cards(new.get(turn, ())),
                        event.play,
                    )
                )
            else:
                history.append(
                    OtherTurnSeen(turn, event.player, event.play if event.play.face_up else None)
                )
            turn += 1
        else:
            assert isinstance(event, CabooseShown)
            history.append(CabooseSeen(event.caboose))
    if game.current_player() == player:
        history.append(
            OwnTurnSeen(
                turn,
                game.drawn[-1],
                by_kind.sorted(game.hand_cards()),
                cards(new.get(turn, ())),
                None,
            )
        )
    return tuple(history)


def _own_turn_at_or_after(game: Game, player: int, turn: int) -> int:
    """The first turn ≥ ``turn`` that is ``player``'s."""
    offset = game.seat_order().index(player)
    return turn + (offset - turn) % game.players


def new_by_turn(game: Game, player: int) -> dict[int, list[int]]:
    """For each of ``player``'s turns, the cards (indices into ``game.drawn``) that were new to
    it then. A card stays in the travelling hand from its draw until it is played, and the hand
    passes every seat each round, so a card the player has seen was first seen at the player's
    first turn at or after the card's draw (the deal counts as drawn at turn 0)."""
    firsts: dict[int, list[int]] = {}
    for index in game.seen[player]:
        drawn_at = max(0, index - game.hand_size)
        firsts.setdefault(_own_turn_at_or_after(game, player, drawn_at), []).append(index)
    return firsts
