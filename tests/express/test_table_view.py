"""express.table_view: the view a player types becomes the observation a Game would give them."""

from __future__ import annotations

import pickle
from collections import Counter
from collections.abc import Callable, Iterator

import numpy as np
import pytest

from express import ExpressError, Game, Observation
from express.table_view import play_position, position_text, table_observation
from express.worlds import sample_world
from tests.express.walks import random_walk


def views(
    players: int, seed: int, *, start_player: int = 0, pass_left: bool = True, **options: object
) -> Iterator[Observation]:
    """The observation of the player to move at every decision of one random game."""
    game = Game(players, start_player=start_player, pass_left=pass_left, **options)  # type: ignore[arg-type]
    for state in random_walk(game, seed):
        if not state.is_chance_node() and not state.is_terminal():
            yield state.observation(state.current_player())


def typed(view: Observation) -> dict[str, object]:
    """What the player at the table types for ``view``: its arguments to table_observation."""
    trains = [
        str(view.train)
        if seat == view.player
        else ",".join("~" if play is None else str(play) for play in plays)
        for seat, plays in enumerate(view.trains)
    ]
    passed_on = Counter(view.seen) - Counter(view.hand) - Counter(view.train.cards)
    return {
        "players": view.players,
        "seat": view.player,
        "round": view.turn // view.players + 1,
        "hand": ",".join(str(card) for card in view.hand),
        "trains": trains,
        "seen": " ".join(str(card) for card in sorted(passed_on.elements(), key=str)),
        "start_player": view.start_player,
        "pass_left": view.pass_left,
        "caboose": view.caboose,
        "rounds": view.rounds,
    }


@pytest.mark.parametrize(
    ("players", "seed", "start_player", "pass_left", "caboose"),
    [
        (2, 1, 0, True, None),
        (2, 2, 1, True, "Lightweight"),
        (3, 3, 0, True, None),
        (3, 4, 2, False, "End of Line"),
        (4, 5, 1, True, "Two-Timer"),
        (5, 6, 3, False, None),
    ],
)
def test_every_decision_of_a_game_reads_back_as_its_observation(
    players: int, seed: int, start_player: int, pass_left: bool, caboose: str | None
) -> None:
    decisions = 0
    for view in views(
        players, seed, start_player=start_player, pass_left=pass_left, caboose=caboose
    ):
        assert table_observation(**typed(view)) == view  # type: ignore[arg-type]
        decisions += 1
    assert decisions == players * (9 - players)


def test_a_read_view_has_consistent_worlds_and_pickles() -> None:
    for number, view in enumerate(views(3, 11, start_player=1)):
        if number % 4:
            continue
        read = table_observation(**typed(view))  # type: ignore[arg-type]
        assert pickle.loads(pickle.dumps(read)) == read
        world = sample_world(read, np.random.default_rng(number))
        assert world.observation(read.player) == read


def test_the_rounds_and_the_order_of_play_are_derived_from_the_seats() -> None:
    # Four players, seat 3 started, passing right: the order of play is 3, 2, 1, 0.
    assert [play_position(4, seat, 3, False) for seat in range(4)] == [3, 2, 1, 0]
    view = table_observation(
        players=4,
        seat=1,
        round=1,
        hand="R4|B4,B2|B3,Y3|G3,G2|G2,P4|P4",
        trains=["", "", "R3|G3", "B2|B2"],
        start_player=3,
        pass_left=False,
    )
    assert (view.turn, view.drawn, view.rounds, view.turns_left) == (2, 7, 5, 5)
    assert position_text(view) == (
        "seat 1 of 4, round 1 of 5: you play 3rd (seat 3 starts, passing right), no caboose"
    )


def test_the_own_face_down_card_is_known_and_others_are_hidden() -> None:
    view = table_observation(
        players=2,
        seat=0,
        round=3,
        hand="Y2|Y2,R2|R3,G2|G2",
        trains=["B2|B2,~R4|B4", "~,G3|B3"],
        seen="Y3|G3",
        caboose="lightweight",
    )
    assert str(view.train) == "B2|B2,~R4|B4" and view.trains[1][0] is None
    assert view.caboose == "Lightweight"
    # The card passed on that lies in no train face up is the opponent's hidden one.
    assert "Y3|G3" not in [str(card) for card in view.unknown_cards()]


A_VIEW: dict[str, object] = {
    "players": 2,
    "seat": 1,
    "round": 2,
    "start_player": 1,
    "hand": "Y2|Y2,R2|R3,G2|G2",
    "trains": ["B2|B2", "~R4|B4"],
    "seen": "B2|B2",
}
"""A view a game can show, which each case below changes in one argument."""


@pytest.mark.parametrize(
    ("changes", "quoted"),
    [
        ({"players": 6}, "6"),
        ({"seat": 2}, "seat 2"),
        ({"start_player": -1}, "start player -1"),
        ({"round": 0}, "round 0"),
        ({"round": 8}, "round 8"),
        ({"rounds": 0}, "rounds 0"),
        ({"rounds": 12}, "rounds 12"),
        ({"caboose": "Caboose of Gold"}, "'Caboose of Gold'"),
        ({"hand": "Y2|Y2,R2|R3"}, "'Y2|Y2,R2|R3'"),
        ({"hand": "Y2|Y2,R2|R3,P2|P2"}, "'P2|P2' is not in the 2-player deck"),
        ({"hand": "Y2|Y2,R2|R3,R3|R3"}, "'R3|R3'"),
        ({"hand": "Y2|Y2,R2|R3,R5|G3"}, "'R5'"),
        ({"hand": "Y2|Y2,R2|R3,R4|B4"}, "'R4|B4' needs 2 copies"),
        ({"seen": "B2|B2,B2|B2,B2|B2"}, "'B2|B2' needs 3 copies"),
        ({"seen": "Y3|G3,G3|B3"}, "seen 'Y3|G3,G3|B3'"),
        ({"trains": ["B2|B2"]}, "'B2|B2'"),
        ({"trains": ["B2|B2", "~R4|B4", ""]}, "3 trains"),
        ({"trains": ["B2|B2,G2|G2", "~R4|B4"]}, "'B2|B2,G2|G2' has 2 cards"),
        ({"trains": ["B2|B2", "~R4|B4,Y3|G3"]}, "'~R4|B4,Y3|G3' has 2 cards"),
        (
            {"round": 3, "trains": ["B2|B2,G3|R3", "~R4|B4,Y3|G3"]},
            "seat 0 'B2|B2,G3|R3': card 2 'G3|R3' cannot follow face up",
        ),
        ({"trains": ["B2|B2", "~"]}, "your train (seat 1) '~'"),
        ({"trains": ["~B2|B2", "~R4|B4"]}, "'~B2|B2' shows another player's face-down card"),
    ],
)
def test_a_view_no_game_can_show_is_one_line_quoting_it(
    changes: dict[str, object], quoted: str
) -> None:
    given = {**A_VIEW, **changes}
    with pytest.raises(ExpressError) as error:
        table_observation(**given)  # type: ignore[arg-type]
    message = str(error.value)
    assert "\n" not in message and quoted in message, message


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": None}, "players must be a whole number, not NoneType None"),
        ({"players": "2"}, "players must be a whole number, not str '2'"),
        ({"seat": True}, "seat must be a whole number, not bool True"),
        ({"seat": 1.0}, "seat must be a whole number, not float 1.0"),
        ({"round": None}, "round must be a whole number, not NoneType None"),
        ({"start_player": "1"}, "start_player must be a whole number, not str '1'"),
        ({"rounds": 6.0}, "rounds must be a whole number, not float 6.0"),
        (
            {"pass_left": None},
            "pass_left must be a bool (True: the hand goes clockwise), not NoneType",
        ),
        ({"pass_left": 1}, "pass_left must be a bool (True: the hand goes clockwise), not int 1"),
        (
            {"pass_left": "left"},
            "pass_left must be a bool (True: the hand goes clockwise), not str",
        ),
        ({"caboose": 5}, "caboose must be a caboose's name (str), like 'Two-Timer', or None, not"),
        ({"caboose": ["Lightweight"]}, "caboose must be a caboose's name (str), like"),
        ({"hand": None}, "hand must be text (cards like 'R4|B4,B2|B3'), not NoneType None"),
        ({"hand": ["Y2|Y2"]}, "hand must be text (cards like 'R4|B4,B2|B3'), not list ['Y2|Y2']"),
        ({"seen": None}, "seen must be text (cards like 'R4|B4,B2|B3'), not NoneType None"),
        ({"seen": b"B2|B2"}, "seen must be text (cards like 'R4|B4,B2|B3'), not bytes b'B2|B2'"),
        ({"trains": None}, "trains must be a list of texts, one train per seat, like"),
        ({"trains": 2}, "trains must be a list of texts, one train per seat, like"),
        ({"trains": "B2|B2"}, "trains must be a list of texts, one train per seat, like"),
        ({"trains": {"B2|B2": 0, "~R4|B4": 1}}, "trains must be a list of texts, one train per"),
        ({"trains": {"B2|B2", "~R4|B4"}}, "trains must be a list of texts, one train per seat"),
        ({"trains": ["B2|B2", None]}, "trains[1] must be text (a train like 'B2|B2,~', '' for"),
        ({"trains": [1, "~R4|B4"]}, "trains[0] must be text (a train like 'B2|B2,~', '' for"),
        ({"trains": ["B2|B2", ["~R4|B4"]]}, "trains[1] must be text (a train like"),
    ],
)
def test_a_value_of_the_wrong_type_is_a_type_error_naming_the_argument(
    changes: dict[str, object], message: str
) -> None:
    given = {**A_VIEW, **changes}
    with pytest.raises(TypeError) as error:
        table_observation(**given)  # type: ignore[arg-type]
    text = str(error.value)
    assert "\n" not in text and text.startswith(message), text


@pytest.mark.parametrize("collection", [tuple, iter, np.array], ids=["tuple", "iterator", "numpy"])
def test_the_trains_may_come_in_any_ordered_collection(
    collection: Callable[[list[str]], object],
) -> None:
    given: dict[str, object] = {
        "players": 2,
        "seat": 1,
        "round": 2,
        "start_player": 1,
        "hand": "Y2|Y2,R2|R3,G2|G2",
        "seen": "B2|B2",
    }
    expected = table_observation(trains=["B2|B2", "~R4|B4"], **given)  # type: ignore[arg-type]
    trains = collection(["B2|B2", "~R4|B4"])
    assert table_observation(trains=trains, **given) == expected  # type: ignore[arg-type]
