"""Scoring a finished game: breakdowns, the shared run award, cabooses, the tie-break."""

from __future__ import annotations

import pytest

from express import RulesError, Train, caboose_named, score_game, solo_score


def trains(*texts: str) -> list[Train]:
    return [Train.parse(text) for text in texts]


def test_breakdown_and_run_award_to_all_tied() -> None:
    game = score_game(trains("R4|B4,B4|G4", "G3|G3,G2|B2", "R3|Y3"))
    assert [(p.value, p.longest_run, p.run_bonus, p.total) for p in game.players] == [
        (16, 2, 0, 16),
        (10, 3, 3, 13),
        (6, 1, 0, 6),
    ]
    tied = score_game(trains("R4|B4,B4|G4", "G3|G3,Y3|Y2"))
    assert [p.run_bonus for p in tied.players] == [2, 2] and tied.run_winners == (0, 1)
    assert tied.longest_run == 2


def test_the_seed_example_four_red_cars_earn_four() -> None:
    game = score_game(trains("R2|R2,R2|R3", "B4|G4"))
    assert game.players[0].run_bonus == 4 and game.players[1].run_bonus == 0


def test_no_award_without_any_colored_car() -> None:
    game = score_game(trains("", "~R3|G3"))
    assert [p.run_bonus for p in game.players] == [0, 0] and game.run_winners == ()
    assert game.winner == 1


def test_tie_break_farthest_clockwise_from_start_player() -> None:
    level = trains("R3|G3", "B3|Y3", "Y3|G3", "G3|B3")  # all 6 + 1
    assert score_game(level, start_player=0).winner == 3
    assert score_game(level, start_player=1).winner == 0
    assert score_game(level, start_player=3).winner == 2
    two_tied = trains("R3|G3", "B4|G4", "B3|Y3")  # players 0 and 2 tie at 7, player 1 has 8+1
    assert score_game(two_tied).winner == 1
    partial = trains("R3|G3", "B2|B2", "B2|Y2")  # 6, 4 + run bonus 2, 4
    assert score_game(partial, start_player=2).winner == 1
    assert score_game(partial, start_player=0).winner == 1
    assert score_game(partial, start_player=1).winner == 0


def test_cabooses_in_a_game() -> None:
    game = score_game(trains("R3|G3,B3|Y3", "G4|G3", "B2|B2"), caboose=caboose_named("End of Line"))
    assert game.caboose_winners == (0, 1)
    assert [p.caboose_points for p in game.players] == [4, 4, 0]
    little = score_game(
        trains("B2|B2,B2|B3", "R3|G3,G3|B3"), caboose=caboose_named("The Little Engine")
    )
    # Player 0: 9 + run bonus 4 = 13; player 1: 12 + 0 = 12 -> player 1 is the little engine.
    assert little.caboose_winners == (1,)


def test_bad_games_are_rejected() -> None:
    with pytest.raises(RulesError):
        score_game([])
    with pytest.raises(RulesError, match="3"):
        score_game(trains("R3|G3", "B3|Y3"), start_player=3)


def test_solo_score() -> None:
    train = Train.parse("R2|R3,~Y2|Y2,G3|G3")
    assert solo_score(train) == 5 + 4 + 6 + 2
    assert solo_score(train, bonus=False) == 15
    assert solo_score(train, caboose=caboose_named("Sequence 5")) == 17 + 6
    # A relative caboose has no rivals in a solo score.
    assert solo_score(train, caboose=caboose_named("Buried Alive")) == 17


def test_to_dict() -> None:
    data = score_game(trains("R4|B4", "B2|B2"), caboose=caboose_named("Lightweight")).to_dict()
    # 8 against 4 + run bonus 2 + Lightweight 6
    assert (
        data["winner"] == 1 and data["caboose"] == "Lightweight" and data["caboose_winners"] == [1]
    )
    assert data["trains"] == ["R4|B4", "B2|B2"]
