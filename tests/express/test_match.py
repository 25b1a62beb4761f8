"""The strategic variant: game 2's start player and direction, the totals, the tie rules."""

from __future__ import annotations

import pickle
from functools import partial

import pytest

from arena import GameState, RandomPolicy, play
from arena.testing import check_random_playouts
from express import Match, Play, bot
from express.errors import RulesError
from express.game import Turn
from express.match import MatchEvent, MatchObservation
from tests.express.test_game import invariant as game_invariant

# 3 players, 1 round: player 0 (or game 2's start player) is dealt B2|B2, R2|R2, G2|G2.
ORDER = "B2|B2,R2|R2,G2|G2,Y2|Y2,B2|B3,Y2|Y3"


def scripted(first: str, second: str) -> Match:
    match = Match(3, orders=(ORDER, ORDER), rounds=1)
    for token in f"{first} {second}".split():
        match.apply_action(Play.parse(token))
    return match


def test_lowest_scorer_starts_game_2_which_passes_right() -> None:
    # Game 1: 6 (B2|B2 with the run award), 4 (face down), 6 (G2|G2 with the award): player 1
    # is lowest and starts game 2, which goes 1 -> 0 -> 2.
    match = scripted("B2|B2 ~R2|R2 G2|G2", "B2|B2 ~R2|R2 G2|G2")
    first, second = match.games
    assert first.returns() == [6.0, 4.0, 6.0] and match.second_start() == 1
    assert second.start_player == 1 and not second.pass_left and second.seat_order() == (1, 0, 2)
    assert [str(t) for t in second.trains] == ["~R2|R2", "B2|B2", "G2|G2"]
    assert [e.passed_to for e in second.events if isinstance(e, Turn)] == [0, 2, None]
    assert second.returns() == [4.0, 6.0, 6.0]
    assert match.returns() == [10.0, 10.0, 12.0] and match.winners() == frozenset({2})
    assert [str(e) for e in match.events][0] == "game 1: player 0 is dealt B2|B2, R2|R2, G2|G2"
    assert all(isinstance(e, MatchEvent) for e in match.events)


def test_ties_for_lowest_and_for_the_match_total() -> None:
    # Game 1: 6, 4, 4. Players 1 and 2 tie for lowest: the one playing earlier in game 1 (1)
    # starts game 2. Game 2 (order 1, 0, 2): 6, 4, 4 -> totals 10, 10, 8. Players 0 and 1 tie:
    # game 2's tie-break, the tied player playing later in game 2, is player 0.
    match = scripted("B2|B2 ~R2|R2 ~G2|G2", "B2|B2 ~R2|R2 ~G2|G2")
    assert match.games[0].returns() == [6.0, 4.0, 4.0] and match.second_start() == 1
    assert match.returns() == [10.0, 10.0, 8.0]
    assert match.winners() == frozenset({0}) and match.is_terminal()


def test_observation_shows_game_1_totals_in_game_2() -> None:
    match = scripted("B2|B2 ~R2|R2 ~G2|G2", "")
    seen = match.observation(1)
    assert isinstance(seen, MatchObservation) and seen.game == 2 and seen.first_totals == (6, 4, 4)
    assert seen.current.hand and match.current_player() == 1
    assert pickle.loads(pickle.dumps(seen)) == seen
    assert (
        match.observation(0).first_totals == (6, 4, 4) and match.observation(0).current.hand == ()
    )
    with pytest.raises(RulesError, match="over"):
        Match(2).second_start()


def match_invariant(state: GameState) -> None:
    assert isinstance(state, Match)
    for game in state.games:
        game_invariant(game)
    assert (
        len(state.games) in (1, 2) and state.games[0].start_player == 0 and state.games[0].pass_left
    )
    if len(state.games) == 2:
        assert state.games[0].is_terminal()
        assert state.games[1].start_player == state.second_start() and not state.games[1].pass_left
        totals = state.games[0].returns()
        assert totals[state.second_start()] == min(totals)
    if state.is_terminal():
        assert state.returns() == [
            a + b for a, b in zip(state.games[0].returns(), state.games[1].returns())
        ]
        (winner,) = state.winners()
        assert state.returns()[winner] == max(state.returns())


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_matches_keep_the_protocol(players: int) -> None:
    check_random_playouts(
        partial(Match, players, caboose="random"),
        games=25,
        seed=players,
        invariant=match_invariant,
        deep_every=11,
    )


def test_bots_play_matches_reproducibly() -> None:
    policies = [bot("search"), bot("greedy"), RandomPolicy()]
    first = play(Match(3, caboose="Lightweight"), policies, seed=5)
    second = play(Match(3, caboose="Lightweight"), policies, seed=5)
    assert first == second and first.is_terminal() and len(first.games) == 2


def test_bad_matches() -> None:
    with pytest.raises(RulesError, match="two deck orders"):
        Match(3, orders=(ORDER,))
    with pytest.raises(RulesError, match="too short"):
        Match(3, orders=(ORDER, ORDER))  # 6 cards for a 6-round game
    with pytest.raises(RulesError, match="7"):
        Match(7)
