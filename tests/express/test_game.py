"""The draft on the arena protocol: the generic random-playout check with the game's invariants,
and hand-worked golden cases (the deal, passing, the run award, cabooses, the tie-break)."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from fractions import Fraction
from functools import partial

import pytest

from arena import CHANCE, TERMINAL, GameState, RandomPolicy, play
from arena.memo import IdentityMemo
from arena.testing import check_random_playouts
from express import CABOOSES, Card, Play, Train, caboose_named, check_plays, deck_for, parse_deck
from express.errors import ExpressError, IllegalPlayError, ParseError, RulesError
from express.game import CabooseDraw, Game, Turn

# Per deck (the tuple every clone of a game shares): its distinct cards in deck_left's order,
# each card's index among them, and the copies of each (cards are counted by index: hashing
# cards is slow).
_KINDS = IdentityMemo[tuple[Card, ...], tuple[tuple[Card, ...], dict[Card, int], list[int]]]()


def _kinds(game: Game) -> tuple[tuple[Card, ...], dict[Card, int], list[int]]:
    def compute(deck: tuple[Card, ...]) -> tuple[tuple[Card, ...], dict[Card, int], list[int]]:
        kinds = tuple(card for card, _ in game.deck_left())
        kind_of = {card: kind for kind, card in enumerate(kinds)}
        counts = [0] * len(kinds)
        for card in deck:
            counts[kind_of[card]] += 1
        return kinds, kind_of, counts

    return _KINDS.lookup(game.deck, compute)


def _counts(kinds: list[int], size: int) -> list[int]:
    counts = [0] * size
    for kind in kinds:
        counts[kind] += 1
    return counts


def invariant(state: GameState) -> None:
    """Cards are conserved, hands have their size, trains are legal, rounds are counted."""
    assert isinstance(state, Game)
    game = state
    kinds, kind_of, deck_counts = _kinds(game)
    n, players, size = game.hand_size, game.players, len(kinds)
    # Conservation: the deck = the cards left in it + the cards drawn; every drawn card is in the
    # hand or in exactly one train. Drawn cards are the deck's own objects.
    ids = [kind_of[card] for card in game.drawn]
    drawn = _counts(ids, size)
    assert all(card is kinds[kind] for card, kind in zip(game.drawn, ids, strict=True))
    left = game.deck_left()
    assert [card for card, _ in left] == list(kinds)
    assert [d + copies for d, (_, copies) in zip(drawn, left)] == deck_counts
    placed = [[kind_of[card] for card in train.cards] for train in game.trains]
    held = [ids[i] for i in game.hand]
    assert _counts([kind for kinds_ in placed for kind in kinds_] + held, size) == drawn
    assert len(set(game.hand)) == len(game.hand) and all(
        0 <= i < len(game.drawn) for i in game.hand
    )
    if game.order is not None:
        assert tuple(game.drawn) == game.order[: len(game.drawn)]
    # Hand sizes: N + 1 when a player acts, N between turns and at the end, fewer only while dealt.
    if game.caboose_pending:
        assert not game.drawn
    elif game.is_terminal():
        assert len(game.hand) == n
    elif game.is_chance_node():
        assert len(game.hand) == min(n, len(game.drawn)) and len(game.drawn) <= n + game.turn
    else:
        assert len(game.hand) == n + 1 == len(game.drawn) - game.turn
        assert set(game.hand) <= game.seen[game.current_player()]
        # The plays offered are the hand's cards (each face down at least); cards are the deck's
        # own objects (checked above), so identity compares them without hashing.
        offered = {id(action.card) for action in game.legal_actions() if isinstance(action, Play)}
        assert offered == {id(card) for card in game.hand_cards()}
    # Trains: legal, one card per turn taken by the seat, and made of cards the player held.
    order = game.seat_order()
    full, extra = divmod(game.turn, players)
    for seat, train in enumerate(game.trains):
        assert check_plays(train.plays) == ()
        assert len(train) == full + (1 if order.index(seat) < extra else 0)
        seen = _counts([ids[i] for i in game.seen[seat]], size)
        assert all(p <= s for p, s in zip(_counts(placed[seat], size), seen))
    # Rounds: the game ends after players x rounds turns, every train holding `rounds` cards.
    assert (
        sum(1 for event in game.events if isinstance(event, Turn))
        == game.turn
        <= players * game.rounds
    )
    if game.is_terminal():
        assert all(len(train) == game.rounds for train in game.trains)
        assert game.current_player() == TERMINAL
        assert sum(game.returns()) == sum(p.total for p in game.score().players)


# 600 games: every node checked (the invariant among the checks), the clone and pickle round
# trips (the state and every seat's observation) every 5th action, every game replayed.
@pytest.mark.slow
@pytest.mark.parametrize(("players", "games"), [(2, 240), (3, 160), (4, 100), (5, 100)])
def test_random_playouts_keep_the_protocol_and_the_rules(players: int, games: int) -> None:
    checked = check_random_playouts(
        partial(Game, players, caboose="random"),
        games=games,
        seed=players,
        invariant=invariant,
        deep_every=5,
    )
    # Per game: the caboose, N deal draws, then a draw and a play per turn.
    assert checked == games * (1 + players + 2 * players * (9 - players))


def test_random_playouts_with_a_given_order_and_short_games() -> None:
    def ordered(seed: int) -> Callable[[], Game]:
        order = list(deck_for(3))
        random.Random(seed).shuffle(order)
        return partial(
            Game,
            3,
            order=order,
            rounds=2,
            caboose="Short Line",
            start_player=seed % 3,
            pass_left=seed % 2 == 0,
        )

    for seed in range(40):
        checked = check_random_playouts(
            ordered(seed), games=3, seed=seed, invariant=invariant, deep_every=2
        )
        assert checked == 3 * 3 * 2  # no chance left: one play per turn


def scripted(players: int, order: str, plays: str, **options: object) -> Game:
    """A game with a known deck order, played by the given plays (one per turn, in order)."""
    game = Game(players, order=order, **options)  # type: ignore[arg-type]
    for token in plays.split():
        assert game.current_player() >= 0, token
        game.apply_action(Play.parse(token))
    return game


# 2 players, 2 rounds: player 0 is dealt B2|B2, R2|R2 and draws B2|B3; then one draw a turn.
TWO = "B2|B2,R2|R2,B2|B3,R2|R3,Y2|Y2,G2|G2"


def test_the_deal_the_draws_and_the_passing() -> None:
    game = Game(2, order=TWO, rounds=2)
    assert game.current_player() == 0 and not game.is_chance_node()
    assert game.hand_cards() == tuple(parse_deck("B2|B2,R2|R2,B2|B3"))
    assert str(game.events[0]) == "player 0 is dealt B2|B2, R2|R2"
    game.apply_action(Play.parse("B2|B2"))
    # The two cards left go to player 1, who draws the fourth card of the order.
    assert game.current_player() == 1 and game.hand_cards() == tuple(
        parse_deck("R2|R2,B2|B3,R2|R3")
    )
    turn = game.events[-1]
    assert isinstance(turn, Turn) and (turn.round, turn.player, str(turn.drew), turn.passed_to) == (
        1,
        0,
        "B2|B3",
        1,
    )
    assert (
        str(turn)
        == "round 1: player 0 draws B2|B3, holds B2|B2 R2|R2 B2|B3, plays B2|B2 face up, passes 2 to player 1"
    )
    for token in ("R2|R2", "B2|B3", "~R2|R3"):
        game.apply_action(Play.parse(token))
    assert game.is_terminal() and game.current_player() == TERMINAL and game.legal_actions() == ()
    assert [str(train) for train in game.trains] == ["B2|B2,B2|B3", "R2|R2,~R2|R3"]
    assert game.hand_cards() == tuple(parse_deck("Y2|Y2,G2|G2"))  # left over
    assert game.seen_cards(0) == tuple(parse_deck("B2|B2,R2|R2,B2|B3,R2|R3,Y2|Y2"))
    assert game.seen_cards(1) == tuple(parse_deck("R2|R2,B2|B3,R2|R3,Y2|Y2,G2|G2"))


def test_legal_actions_are_each_distinct_card_face_up_when_it_connects_and_face_down() -> None:
    game = scripted(3, "R3|G3,B2|B2,B2|B2,Y3|B3,R2|R2,G2|G2,Y2|Y2,P2|P2,R4|B4", "R3|G3", rounds=2)
    # Player 1 holds B2|B2 twice, Y3|B3 and R2|R2: each distinct card once, in the deck's order;
    # after the engine every card connects face up.
    assert [str(a) for a in game.legal_actions()] == [
        "B2|B2",
        "~B2|B2",
        "R2|R2",
        "~R2|R2",
        "Y3|B3",
        "~Y3|B3",
    ]
    game.apply_action(Play.parse("Y3|B3"))
    assert [str(a) for a in game.legal_actions()] == [
        "B2|B2",
        "~B2|B2",
        "R2|R2",
        "~R2|R2",
        "G2|G2",
        "~G2|G2",
    ]
    game.apply_action(Play.parse("G2|G2"))
    # Player 0's train ends G3: B2, R2 and Y2 match neither its colour nor its value.
    assert [str(a) for a in game.legal_actions()] == ["~B2|B2", "~R2|R2", "~Y2|Y2"]
    with pytest.raises(IllegalPlayError, match="'B2\\|B2'"):
        game.apply_action(Play.parse("B2|B2"))
    with pytest.raises(IllegalPlayError, match="'R4\\|B4'"):
        game.apply_action(Play.parse("~R4|B4"))


def test_the_observation_hides_other_players_face_down_cards() -> None:
    game = scripted(2, TWO, "B2|B2 ~R2|R2", rounds=2)
    mine, theirs = game.observation(0), game.observation(1)
    assert mine.hand == tuple(parse_deck("Y2|Y2,B2|B3,R2|R3")) and theirs.hand == ()
    assert mine.trains == ((Play.parse("B2|B2"),), (None,)) and mine.train == Train.parse("B2|B2")
    assert theirs.trains == ((Play.parse("B2|B2"),), (Play.parse("~R2|R2"),))
    assert theirs.seen == tuple(parse_deck("R2|R2,B2|B3,R2|R3"))  # in the deck's order
    assert mine.turns_left == 1 and mine.drawn == 5 and mine.deck == deck_for(2)
    assert pickle.loads(pickle.dumps(mine)) == mine


def test_run_award_ties_all_score_and_the_tie_break_follows_the_start_player() -> None:
    game = scripted(2, TWO, "B2|B2 R2|R2 B2|B3 R2|R3", rounds=2)
    score = game.score()
    assert [(p.value, p.longest_run, p.run_bonus, p.total) for p in score.players] == [
        (9, 4, 4, 13),
        (9, 4, 4, 13),
    ]
    # 13 all: the tied player seated farthest clockwise from the start player wins.
    assert (
        score.run_winners == (0, 1)
        and game.winners() == frozenset({1})
        and game.returns() == [13.0, 13.0]
    )
    moved = scripted(2, TWO, "B2|B2 R2|R2 B2|B3 R2|R3", rounds=2, start_player=1)
    assert [str(t) for t in moved.trains] == [
        "R2|R2,R2|R3",
        "B2|B2,B2|B3",
    ] and moved.winners() == frozenset({0})


# 3 players, 2 rounds: player 0 is dealt the first three and draws the fourth.
THREE = "R4|B4,B4|G4,Y3|G3,Y2|Y2,B2|B2,R3|G3,Y3|B3,G2|G3,Y2|Y3"
THREE_PLAYS = "R4|B4 ~Y3|G3 Y2|Y2 B4|G4 ~B2|B2 Y2|Y3"


@pytest.mark.parametrize(
    ("caboose", "caboose_points", "winner"),
    [
        (None, [0, 0, 0], 0),
        ("Buried Alive", [0, 7, 0], 0),  # most wild cars (4), with a face-down card
        ("The Little Engine", [0, 7, 0], 0),  # lowest value plus run bonus: 8 < 13 < 16
        ("Executive", [0, 5, 0], 0),  # fewest colours: none at all
        ("Diversified", [5, 0, 5], 0),  # most runs of length >= 2: one each, ties all score
        ("Short Line", [0, 0, 5], 2),  # most cars of one colour: four yellow; 18 beats 16
        ("End of Line", [0, 0, 4], 2),  # absolute: the last car is a 3; 17 beats 16
    ],
)
def test_relative_and_absolute_cabooses_in_a_played_game(
    caboose: str | None, caboose_points: list[int], winner: int
) -> None:
    game = scripted(3, THREE, THREE_PLAYS, rounds=2, caboose=caboose)
    assert [str(t) for t in game.trains] == ["R4|B4,B4|G4", "~Y3|G3,~B2|B2", "Y2|Y2,Y2|Y3"]
    score = game.score()
    assert [p.value + p.run_bonus for p in score.players] == [16, 8, 13]  # the run award: 4 yellow
    assert [p.caboose_points for p in score.players] == caboose_points
    assert score.winner == winner
    assert game.returns() == [float(t + c) for t, c in zip([16, 8, 13], caboose_points)]


def test_passing_right_turns_go_counter_clockwise_and_the_tie_break_follows_the_play() -> None:
    order = "B2|B2,R2|R2,G2|G2,Y2|Y2,B2|B3,Y2|Y3"
    left = scripted(3, order, "~Y2|Y2 B2|B2 R2|R2", rounds=1)
    right = scripted(3, order, "~Y2|Y2 B2|B2 R2|R2", rounds=1, pass_left=False)
    assert [str(t) for t in left.trains] == ["~Y2|Y2", "B2|B2", "R2|R2"]
    assert [str(t) for t in right.trains] == ["~Y2|Y2", "R2|R2", "B2|B2"]
    assert right.seat_order() == (0, 2, 1)
    assert [e.passed_to for e in right.events if isinstance(e, Turn)] == [2, 1, None]
    # Players 1 and 2 tie on 6 (value 4 + run award 2): the tied player playing last wins.
    assert left.returns() == right.returns() == [4.0, 6.0, 6.0]
    assert left.winners() == frozenset({2}) and right.winners() == frozenset({1})
    assert [p.player for p in right.score().players] == [0, 1, 2]


def test_chance_draws_are_the_distinct_cards_left_with_exact_odds() -> None:
    game = Game(2, caboose="random")
    outcomes = game.chance_outcomes()
    assert game.current_player() == CHANCE and len(outcomes) == 16
    assert {str(a) for a, _ in outcomes} == {c.name for c in CABOOSES}
    game.apply_action(CabooseDraw("Efficient"))
    assert game.caboose == caboose_named("Efficient") and str(game.events[0]).startswith(
        "caboose Efficient (8)"
    )
    outcomes = game.chance_outcomes()
    odds = {str(card): p for card, p in outcomes}
    assert (
        len(odds) == len(set(deck_for(2)))
        and odds["B2|B2"] == Fraction(2, 24)
        and odds["B2|B3"] == Fraction(1, 24)
    )
    game.apply_action(Card.parse("B2|B2"))
    odds = {str(card): p for card, p in game.chance_outcomes()}
    assert (
        odds["B2|B2"] == Fraction(1, 23)
        and game.action_to_string(Card.parse("R2|R2")) == "deal R2|R2"
    )
    game.apply_action(Card.parse("B2|B2"))
    assert "B2|B2" not in {str(card) for card, _ in game.chance_outcomes()}
    assert game.action_to_string(Card.parse("R2|R2")) == "draw R2|R2"
    with pytest.raises(RulesError, match="'B2\\|B2'"):
        game.apply_action(Card.parse("B2|B2"))
    with pytest.raises(RulesError, match="'P2\\|P2'"):
        game.apply_action(Card.parse("P2|P2"))  # purple is out with two players


def test_a_seeded_game_is_reproducible() -> None:
    first = play(Game(4, caboose="random"), [RandomPolicy()] * 4, seed=7)
    second = play(Game(4, caboose="random"), [RandomPolicy()] * 4, seed=7)
    assert first == second and [str(e) for e in first.events] == [str(e) for e in second.events]
    assert len([e for e in first.events if isinstance(e, Turn)]) == 4 * 5
    assert pickle.loads(pickle.dumps(first)) == first


@pytest.mark.parametrize(
    ("options", "error", "quoted"),
    [
        ({"players": 6}, RulesError, "6"),
        ({"players": 1}, RulesError, "1"),
        ({"players": 3, "caboose": "Red Caboose"}, ParseError, "'Red Caboose'"),
        ({"players": 2, "order": "B2|B2,R2|R2"}, RulesError, "'B2|B2,R2|R2'"),
        ({"players": 2, "order": "P2|P2," * 20}, RulesError, "'P2|P2'"),
        ({"players": 2, "order": "B2|B5"}, ParseError, "'B5'"),
        ({"players": 3, "rounds": 0}, RulesError, "0"),
        ({"players": 5, "rounds": 6}, RulesError, "35"),
        ({"players": 3, "start_player": 3}, RulesError, "3"),
        ({"players": 2, "deck": "B2|B2,R2|R2"}, RulesError, "2 cards"),
    ],
)
def test_bad_games_raise_an_express_error_quoting_the_input(
    options: dict[str, object], error: type[ExpressError], quoted: str
) -> None:
    with pytest.raises(error) as raised:
        Game(**options)  # type: ignore[arg-type]
    assert quoted in str(raised.value)


@pytest.mark.parametrize(
    "options",
    [
        {"players": "3"},
        {"players": True},
        {"players": 3, "caboose": 5},
        {"players": 3, "order": [1, 2]},
        {"players": 3, "rounds": 2.0},
        {"players": 3, "pass_left": "no"},
        {"players": 3, "deck": 7},
    ],
)
def test_wrong_types_raise_type_error(options: dict[str, object]) -> None:
    with pytest.raises(TypeError):
        Game(**options)  # type: ignore[arg-type]


def test_an_order_card_used_more_often_than_the_deck_holds_it_says_so() -> None:
    from collections import Counter

    from express import Game, RulesError

    deck = Game(2).deck
    once = next(card for card, n in Counter(deck).items() if n == 1)
    with pytest.raises(RulesError, match=f"used too often: '{once}' is in the order 2 times"):
        Game(2, order=[once, *deck])
