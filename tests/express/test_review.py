"""Hindsight (cross-checked against the brute force) and what decided the winner."""

from __future__ import annotations

import pytest

from arena import RandomPolicy, play
from express import Decisive, Game, Match, Play, bot, decisive, hindsight, solo_score
from express.errors import RulesError
from tests.express import brute


@pytest.mark.parametrize("seed", range(6))
def test_hindsight_is_the_best_train_from_the_cards_seen(seed: int) -> None:
    game = play(Game(3, rounds=2), [bot("greedy"), RandomPolicy(), bot("search")], seed=seed)
    for h in hindsight(game):
        assert h.seen == game.seen_cards(h.player) and h.train == game.trains[h.player]
        assert h.solo == solo_score(h.train) and h.total == game.score().players[h.player].total
        best, _, _ = brute.brute_best([str(card) for card in h.seen], 2)
        assert h.best.score == best and h.best.optimal and h.gap == best - h.solo >= 0
        assert set(h.best.train.cards) <= set(h.seen)


def test_hindsight_scores_an_absolute_caboose_on_both_sides() -> None:
    game = play(Game(2, caboose="Lightweight"), [bot("greedy"), bot("greedy")], seed=4)
    for h in hindsight(game):
        assert h.solo == solo_score(h.train, caboose=game.caboose) and h.best.score >= h.solo


THREE = "R4|B4,B4|G4,Y3|G3,Y2|Y2,B2|B2,R3|G3,Y3|B3,G2|G3,Y2|Y3"


def finished(caboose: str | None) -> Game:
    game = Game(3, order=THREE, rounds=2, caboose=caboose)
    for token in "R4|B4 ~Y3|G3 Y2|Y2 B4|G4 ~B2|B2 Y2|Y3".split():
        game.apply_action(Play.parse(token))
    return game


def test_what_decided_the_winner() -> None:
    # Trains worth 16, 8 and 9 + the run award 4 = 13: the award does not change the winner.
    assert decisive(finished(None)) == decisive(finished(None)).__class__(
        run_award=False, caboose=False
    )
    # Short Line gives player 2 five more: 18 beats 16. Without it, or without the award (14),
    # player 0 would win.
    assert decisive(finished("Short Line")).run_award and decisive(finished("Short Line")).caboose
    # Buried Alive gives player 1 seven: 15, still behind 16.
    assert not decisive(finished("Buried Alive")).caboose


FIRST = "B2|B2,R2|R2,B2|B3,R2|R3,Y2|Y2,G2|G2"
SECOND = "B4|G4,R2|R2,Y4|R4,R2|R3,Y2|Y2,G2|G2"
MATCH_PLAYS = "B2|B2 ~R2|R2 B2|B3 R2|R3 B4|G4 R2|R2 Y4|R4 R2|R3"


def finished_match(caboose: str | None) -> Match:
    match = Match(2, caboose=caboose, orders=(FIRST, SECOND), rounds=2)
    for token in MATCH_PLAYS.split():
        match.apply_action(Play.parse(token))
    assert match.is_terminal()
    return match


def test_what_decided_a_match() -> None:
    # Game 1: player 0 lays B2|B2,B2|B3 (9, a blue run of 4: the award, 13), player 1
    # ~R2|R2,R2|R3 (9). Game 2 starts with player 1, the lowest scorer: B4|G4,Y4|R4 (16, no run
    # longer than 1) against player 0's R2|R2,R2|R3 (9 + 4). Match: 26 to 25 for player 0, who
    # without the awards would lose 18 to 25: the award decided it.
    match = finished_match(None)
    assert [[p.total for p in game.score().players] for game in match.games] == [[13, 9], [13, 16]]
    assert match.winners() == frozenset({0})
    assert decisive(match) == Decisive(run_award=True, caboose=False)
    # Buried Alive gives player 1 seven in game 1 (the only face-down card): 16 to 13, so game 2
    # starts with player 0 and the same plays give him B4|G4,Y4|R4 (16) against 13. A 29-all tie
    # goes to player 1 (the later in game 2's round); without the caboose player 0 wins 29 to
    # 22, without the awards it is still a tie (25 all) won by player 1.
    match = finished_match("Buried Alive")
    assert [[p.total for p in game.score().players] for game in match.games] == [[13, 16], [16, 13]]
    assert match.winners() == frozenset({1})
    assert decisive(match) == Decisive(run_award=False, caboose=True)


def test_decisive_over_random_matches() -> None:
    # Over whole matches: removing a seat's run awards (or caboose points) of both games from
    # the totals changes the winner exactly when decisive says so (where no tie-break is needed).
    flags: set[tuple[bool, bool]] = set()
    for seed in range(30):
        match = play(Match(2, caboose="random"), [bot("greedy"), RandomPolicy()], seed=seed)
        result = decisive(match)
        (winner,) = match.winners()
        scores = [game.score() for game in match.games]
        totals = [sum(s.players[seat].total for s in scores) for seat in range(2)]
        for flag, part in (
            (
                result.run_award,
                [sum(s.players[seat].run_bonus for s in scores) for seat in range(2)],
            ),
            (
                result.caboose,
                [sum(s.players[seat].caboose_points for s in scores) for seat in range(2)],
            ),
        ):
            left = [t - p for t, p in zip(totals, part)]
            if left[0] != left[1]:
                assert flag == (left.index(max(left)) != winner), (seed, totals, part)
        flags.add((result.run_award, result.caboose))
    assert {run for run, _ in flags} == {True, False}


def test_decisive_on_bad_input() -> None:
    match = finished_match(None)
    with pytest.raises(RulesError):
        decisive(Game(2))
    with pytest.raises(RulesError):
        hindsight(Game(2))
    with pytest.raises(TypeError):
        hindsight(match)  # type: ignore[arg-type]
