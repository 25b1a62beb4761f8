"""Hindsight (cross-checked against the brute force) and what decided the winner."""

from __future__ import annotations

import pytest

from arena import RandomPolicy, play
from express import Game, Match, Play, bot, decisive, hindsight, solo_score
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


def test_decisive_on_matches_and_bad_input() -> None:
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
    with pytest.raises(RulesError):
        decisive(Game(2))
    with pytest.raises(RulesError):
        hindsight(Game(2))
    with pytest.raises(TypeError):
        hindsight(match)  # type: ignore[arg-type]
