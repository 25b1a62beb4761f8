"""play_values against an independent brute force over the Game itself.

The brute force knows nothing of the solver: it tries every legal action through
``Game.clone()`` / ``apply_action`` and scores finished games with ``Game.score()``, keeping
each visited state's answer by the game's own text (turn, hand, trains) only so that the
three- and four-player deals finish in a test's time (a memo changes no answer).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from express import (
    CABOOSES,
    Caboose,
    Game,
    Play,
    RulesError,
    SearchLimitReached,
    caboose_named,
    deck_for,
    play_values,
    solve_deal,
)
from express.errors import LimitError

Totals = tuple[int, ...]


def _state_key(game: Game) -> tuple[object, ...]:
    return (
        game.turn,
        tuple(sorted(str(card) for card in game.hand_cards())),
        tuple(str(train) for train in game.trains),
    )


def _totals(game: Game) -> Totals:
    return tuple(player.total for player in game.score().players)


def brute_zero_sum(game: Game, root: int) -> dict[Play, int]:
    """Each play's value for ``root``: its final total minus the best rival's, the rivals
    minimising it (with two players: minus the other's), by trying every line."""
    memo: dict[tuple[object, ...], int] = {}

    def utility(totals: Totals) -> int:
        return totals[root] - max(t for seat, t in enumerate(totals) if seat != root)

    def value(state: Game) -> int:
        if state.is_terminal():
            return utility(_totals(state))
        key = _state_key(state)
        if key not in memo:
            results = [value(_after(state, action)) for action in state.legal_actions()]
            memo[key] = max(results) if state.current_player() == root else min(results)
        return memo[key]

    return {action: value(_after(game, action)) for action in _plays(game)}


def brute_maxn(game: Game, root: int) -> dict[Play, int]:
    """Each play's final total for ``root`` when every player maximises its own total; ties go
    to the play worst for ``root``, then to the first in legal_actions() order."""
    memo: dict[tuple[object, ...], Totals] = {}

    def value(state: Game) -> Totals:
        if state.is_terminal():
            return _totals(state)
        key = _state_key(state)
        if key not in memo:
            mover = state.current_player()
            best: Totals | None = None
            for action in state.legal_actions():
                totals = value(_after(state, action))
                if (
                    best is None
                    or totals[mover] > best[mover]
                    or (totals[mover] == best[mover] and totals[root] < best[root])
                ):
                    best = totals
            assert best is not None
            memo[key] = best
        return memo[key]

    return {action: value(_after(game, action))[root] for action in _plays(game)}


def _after(game: Game, action: object) -> Game:
    child = game.clone()
    child.apply_action(action)
    return child


def _plays(game: Game) -> list[Play]:
    plays = [action for action in game.legal_actions() if isinstance(action, Play)]
    assert len(plays) == len(game.legal_actions())
    return plays


def _random_game(players: int, rounds: int, seed: int, caboose: Caboose | None, moves: int) -> Game:
    rng = np.random.default_rng(seed)
    deck = list(deck_for(players))
    order = [deck[i] for i in rng.permutation(len(deck))]
    game = Game(
        players,
        order=order,
        rounds=rounds,
        caboose=caboose,
        start_player=int(rng.integers(players)),
        pass_left=bool(rng.integers(2)),
    )
    for _ in range(moves):
        legal = game.legal_actions()
        game.apply_action(legal[int(rng.integers(len(legal)))])
    return game


BRUTE: dict[str, Callable[[Game, int], dict[Play, int]]] = {
    "paranoid": brute_zero_sum,
    "maxn": brute_maxn,
}

# No caboose, absolute ones (a monotone one, a window one, a last-car one) and relative ones
# (fewest colours, most runs, lowest value: the summaries the positions keep).
CASES = [
    None,
    caboose_named("Lightweight"),
    caboose_named("Sequence 1"),
    caboose_named("End of Line"),
    caboose_named("Executive"),
    caboose_named("Diversified"),
    caboose_named("The Little Engine"),
    caboose_named("Buried Alive"),
]


@pytest.mark.parametrize("caboose", CASES, ids=lambda c: "none" if c is None else c.name)
@pytest.mark.parametrize("rule", ["paranoid", "maxn"])
def test_three_players_match_the_brute_force(caboose: Caboose | None, rule: str) -> None:
    # From the first turn of a one-round deal, and from the third and fourth of two rounds.
    for rounds, seed, moves in ((1, 0, 0), (2, 1, 2), (2, 2, 3)):
        game = _random_game(3, rounds, seed, caboose, moves=moves)
        root = game.current_player()
        assert play_values(game, rule=rule) == BRUTE[rule](game, root)


@pytest.mark.parametrize("caboose", CASES[::2], ids=lambda c: "none" if c is None else c.name)
@pytest.mark.parametrize("rule", ["paranoid", "maxn"])
def test_four_players_match_the_brute_force(caboose: Caboose | None, rule: str) -> None:
    for seed in range(2):
        game = _random_game(4, 2, 10 + seed, caboose, moves=4 + seed)
        root = game.current_player()
        assert play_values(game, rule=rule) == BRUTE[rule](game, root)


@pytest.mark.parametrize("caboose", CASES, ids=lambda c: "none" if c is None else c.name)
def test_two_players_match_the_brute_force_and_solve_deal(caboose: Caboose | None) -> None:
    for seed in range(3):
        game = _random_game(2, 3 - (seed == 0), 20 + seed, caboose, moves=seed)
        root = game.current_player()
        values = play_values(game)
        assert values == brute_zero_sum(game, root)
        assert play_values(game, rule="maxn") == values  # the rule is for 3 to 5 players
        # The best play is worth solve_deal's value, seen from the player to move.
        sign = 1 if root == game.start_player else -1
        assert max(values.values()) == sign * solve_deal(game).value


def test_five_players_at_the_last_round_match_the_brute_force() -> None:
    for rule in ("paranoid", "maxn"):
        game = _random_game(5, 2, 7, caboose_named("Short Line"), moves=7)
        assert play_values(game, rule=rule) == BRUTE[rule](game, game.current_player())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([2, 3]),
    seed=st.integers(0, 10**6),
    caboose=st.sampled_from(CASES + [None]),
    rule=st.sampled_from(["paranoid", "maxn"]),
    moves=st.integers(0, 3),
)
def test_random_orders_match_the_brute_force(
    players: int, seed: int, caboose: Caboose | None, rule: str, moves: int
) -> None:
    game = _random_game(players, 2, seed, caboose, moves + (players - 2) * 2)
    brute = BRUTE["paranoid" if players == 2 else rule]
    assert play_values(game, rule=rule) == brute(game, game.current_player())


def test_every_legal_play_is_valued_once() -> None:
    game = _random_game(4, 5, 3, None, moves=13)
    for rule in ("paranoid", "maxn"):
        assert list(play_values(game, rule=rule)) == list(game.legal_actions())


@pytest.mark.slow
def test_whole_two_player_deals_agree_with_solve_deal() -> None:
    for seed in range(3):
        game = _random_game(2, 7, 40 + seed, CABOOSES[seed * 5], moves=2 * seed)
        sign = 1 if game.current_player() == game.start_player else -1
        assert max(play_values(game).values()) == sign * solve_deal(game).value


def test_a_node_limit_raises_instead_of_guessing() -> None:
    game = _random_game(3, 2, 2, None, moves=0)
    for rule in ("paranoid", "maxn"):
        with pytest.raises(SearchLimitReached, match="node_limit 5") as raised:
            play_values(game, rule=rule, node_limit=5)
        assert raised.value.nodes == 5
        error = pickle.loads(pickle.dumps(raised.value))
        assert str(error) == str(raised.value) and error.nodes == 5
        assert play_values(game, rule=rule, node_limit=10**7) == play_values(game, rule=rule)
    two = _random_game(2, 7, 2, None, moves=0)
    with pytest.raises(SearchLimitReached, match="node_limit 50"):
        play_values(two, node_limit=50)


def test_bad_input_is_one_clear_line() -> None:
    deck = list(deck_for(3))
    with pytest.raises(TypeError, match="express.Game"):
        play_values("B2|B2")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="deck order"):
        play_values(Game(3))
    with pytest.raises(RulesError, match="unknown rule: 'minimax'"):
        play_values(Game(3, order=deck), rule="minimax")
    with pytest.raises(TypeError, match="rule must be a str"):
        play_values(Game(3, order=deck), rule=1)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="caboose has not been drawn"):
        play_values(Game(3, order=deck, caboose="random"))
    with pytest.raises(LimitError, match="node_limit: 0"):
        play_values(Game(3, order=deck), node_limit=0)
    over = Game(2, order=list(deck_for(2)), rounds=1)
    while not over.is_terminal():
        over.apply_action(over.legal_actions()[0])
    with pytest.raises(RulesError, match="game is over"):
        play_values(over)
    shuffled = Game(3)
    with pytest.raises(RulesError, match="deck order"):
        play_values(shuffled)
