"""The yardsticks of the strength benchmark (``benchmarks/express_strength.py``) measure what
they say: ``pimc-told`` is ``pimc`` whose only unknown is the order of the cards not drawn yet,
and the information price is the least any one play gives up over the worlds."""

from __future__ import annotations

import re
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.express_strength import (
    deal_loss,
    deal_price,
    information_price,
    playable_bots,
    shuffled_orders,
    told_pimc_play,
)
from benchmarks.express_strength import main as strength_main
from express import Game, Play, bot, deck_for, play_values


def test_told_pimc_plays_perfectly_when_the_cards_to_come_are_known() -> None:
    # A 16-card deck holds exactly the cards of a deal: at the last two decisions at most one
    # card is still to come, so every world of pimc-told is the true game, and its play is one
    # of the best plays by the exact values. The turns before are played by the first legal play.
    rng = np.random.default_rng(3)
    checked = 0
    for deal in range(8):
        deck = deck_for(2)
        order = tuple(deck[i] for i in np.random.default_rng(deal).permutation(len(deck)))[:16]
        game = Game(2, order=order, deck=order)
        while not game.is_terminal():
            if len(order) - len(game.drawn) > 1:
                game.apply_action(game.legal_actions()[0])
                continue
            values = play_values(game)
            chosen = told_pimc_play(game, 2, rng)
            assert values[chosen] == max(values.values())
            checked += 1
            game.apply_action(chosen)
    assert checked == 16


def test_told_pimc_does_not_know_the_order_of_the_cards_to_come() -> None:
    # Early in a deal its worlds differ from the true game: its mean is not the true game's
    # best value in general, but its play is always legal and the same for the same generator.
    deck = deck_for(2)
    order = tuple(deck[i] for i in np.random.default_rng(5).permutation(len(deck)))
    game = Game(2, order=order)
    first = told_pimc_play(game, 3, np.random.default_rng(1))
    assert first in game.legal_actions()
    assert told_pimc_play(game, 3, np.random.default_rng(1)) == first


@given(st.lists(st.lists(st.integers(-20, 20), min_size=3, max_size=3), min_size=1, max_size=6))
def test_the_information_price_is_the_least_shortfall_of_one_play_for_all_worlds(
    rows: list[list[int]],
) -> None:
    # Three plays valued in one to six worlds: the price is the mean best value less the best
    # mean, so no play's mean shortfall from each world's best is below it, and the play of
    # the best mean falls short by exactly it.
    plays = [Play.parse(text) for text in ("R3|G3", "~R3|G3", "B2|B2")]
    values = [dict(zip(plays, row, strict=True)) for row in rows]
    price = information_price(values)
    shortfalls = [sum(max(row) - row[k] for row in rows) / len(rows) for k in range(len(plays))]
    assert price >= -1e-9
    assert min(shortfalls) == pytest.approx(price)


def test_the_information_price_of_a_worked_case() -> None:
    # Play a scores 4 in the first world and 0 in the second, b 0 and 2: knowing the world is
    # worth 3 on average, one play for both is worth 2 at best (a), so the unknown costs 1.
    a, b = Play.parse("R3|G3"), Play.parse("B2|B2")
    assert information_price([{a: 4, b: 0}, {a: 0, b: 2}]) == 1
    assert information_price([{a: 4, b: 0}, {a: 3, b: 2}]) == 0  # a is best in both


@pytest.mark.slow
def test_the_price_games_are_the_loss_tables_and_their_loss_is_the_sum_of_shortfalls() -> None:
    # deal_price replays pimc's loss-table games (the same seeds) and checks inside that the
    # loss is the sum of its plays' shortfalls in the true deal.
    order = shuffled_orders(1, 1)[0]
    loss, price, told = deal_price("pimc", 2, 0, order)
    assert loss == deal_loss("pimc", 96, 0, order)
    assert price >= 0 and told >= 0


@pytest.mark.parametrize(
    ("option", "text"),
    [
        ("--loss-deals", "0"),
        ("--price-worlds", "-3"),
        ("--seed", "-1"),
        ("--time-games", "x"),
        ("--strong-duel-deals", "0"),
    ],
)
def test_the_strength_benchmark_refuses_a_count_that_is_not_one(
    option: str, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        strength_main(["--only", "price", option, text])
    assert stop.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.endswith(
        f"argument {option}: not a whole number of at least {0 if option == '--seed' else 1}: {text!r}"
    )


def test_the_strength_benchmark_refuses_a_bot_the_price_table_cannot_play(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # pimc-told is a loss-table cheat, not a policy: the price table cannot seat it.
    with pytest.raises(SystemExit) as stop:
        strength_main(["--only", "price", "--price-bots", "pimc,pimc-told"])
    assert stop.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "argument --price-bots: unknown bot 'pimc-told' in 'pimc,pimc-told'" in error


def test_the_strength_benchmark_has_a_two_player_section_against_ismcts_at_1000(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # --only knows strong-duel: the error is the deal count's, found after the section's name.
    with pytest.raises(SystemExit) as stop:
        strength_main(["--only", "strong-duel", "--strong-duel-deals", "0"])
    assert stop.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "argument --strong-duel-deals:" in error


def test_the_duels_refuse_a_rival_that_is_not_a_bot_of_the_tables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # pimc-told is a cheat of the loss table, and pimc's duel against itself says nothing.
    for rival in ("pimc-told", "pimc"):
        with pytest.raises(SystemExit) as stop:
            strength_main(["--only", "duel", "--duel-rivals", f"greedy,{rival}"])
        assert stop.value.code == 2
        error = capsys.readouterr().err.strip().splitlines()[-1]
        assert f"argument --duel-rivals: unknown bot {rival!r} in 'greedy,{rival}'" in error


def test_the_duels_play_greedy_on_the_same_deals_as_the_other_rivals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # One deal of pimc against greedy, in this process: a table of the two bots, the duel's
    # name and seed as the other duels print them.
    argv = ["--only", "duel", "--duel-rivals", "greedy", "--duel-deals", "1", "--workers", "1"]
    assert strength_main(argv) == 0
    out = capsys.readouterr().out
    assert "duel-greedy: 2 players, 1 deals x 2 seatings = 2 games (seed 1)" in out
    rows = [line.split("|") for line in out.splitlines() if line.startswith("| ")]
    shares = [row[1].strip() for row in rows if re.fullmatch(r"\d+\.\d %", row[2].strip())]
    assert sorted(shares) == ["greedy", "pimc"]


def test_bots_that_need_a_missing_extra_are_left_out_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Without OpenSpiel both ismcts bots are dropped and named; the rest, cheats included, stay.
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if not installed
    for name in ("arena.openspiel", "express.openspiel"):  # so that they are imported afresh
        monkeypatch.delitem(sys.modules, name, raising=False)
        package, _, module = name.partition(".")
        monkeypatch.delattr(sys.modules[package], module, raising=False)
    kept, left_out = playable_bots(["pimc", "ismcts", "pimc-told", "ismcts1000", "search"])
    assert kept == ["pimc", "pimc-told", "search"]
    assert len(left_out) == 1
    assert left_out[0].startswith("(ismcts, ismcts1000 left out: ")
    assert "tabletop-solvers[openspiel]" in left_out[0]


def test_the_endgame_positions_are_the_last_decisions_of_one_game() -> None:
    from benchmarks.endgame import endgame_positions

    positions = endgame_positions(seed=1, game=0, turns=3)
    assert [p.turn for p in positions] == [11, 12, 13]
    # One game: each position is the one before it after a play and a draw.
    assert all(later.drawn[: len(p.drawn)] == p.drawn for p, later in zip(positions, positions[1:]))
    assert endgame_positions(seed=1, game=0, turns=3) == positions  # seeded


def test_the_endgame_regret_is_the_shortfall_of_the_bots_play_by_the_exact_values() -> None:
    from benchmarks.endgame import endgame_positions, game_regrets
    from express.endgame import expected_values

    regrets = game_regrets(["greedy", "pimc"], seed=2, turns=3, game=1)
    positions = endgame_positions(seed=2, game=1, turns=3)
    assert [len(regrets[label]) for label in ("greedy", "pimc")] == [3, 3]
    for back, position in enumerate(reversed(positions)):
        values = expected_values(position)
        best = max(values.values())
        greedy = bot("greedy").act(
            position.observation(position.current_player()),
            position.legal_actions(),
            np.random.default_rng(0),
        )
        assert regrets["greedy"][back] == best - values[greedy]
        assert regrets["pimc"][back] >= 0
    assert regrets["pimc"][0] == 0  # the last play hides nothing: the exact search's choice


def test_the_endgame_table_has_a_row_per_bot_and_a_column_per_turn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--only", "endgame", "--endgame-games", "2", "--endgame-turns", "2", "--workers", "1"]
    assert strength_main([*argv, "--endgame-bots", "pimc,greedy"]) == 0
    out = capsys.readouterr().out
    assert "| bot | last 1 | last 2 | decisions with a regret |" in out
    rows = [
        line
        for line in out.splitlines()
        if line.startswith("| pimc ") or line.startswith("| greedy ")
    ]
    assert len(rows) == 2 and all(row.endswith(" of 4 |") for row in rows)
    with pytest.raises(SystemExit) as stop:
        strength_main(["--only", "endgame", "--endgame-bots", "pimc,perfect"])
    assert stop.value.code == 2
    assert "unknown bot 'perfect'" in capsys.readouterr().err
