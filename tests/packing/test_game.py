"""The game of Pack & Stack: golden cases for every rule of a round, the generic protocol check,
and conservation of trucks and points over many random games."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import arena
from arena import CHANCE, TERMINAL
from arena.testing import check_random_playouts
from packing import (
    SAMPLE_DECK,
    Cargo,
    Game,
    Grab,
    InvalidPlan,
    LoadPlan,
    PackingError,
    Truck,
    play_game,
    solve,
    verify,
)
from packing.bots import bot
from packing.game import (
    FROM_PILE,
    PILE,
    Draw,
    GrabOrder,
    Observation,
    RoundRecord,
    Source,
    game_from_observation,
    roll_outcomes,
)

# A tiny deck whose penalties are easy to work out by hand: one row of cells, height 1, so a
# cargo of single cubes loads min(capacity, volume) and the penalty is
# (capacity − loaded) + 2 × (volume − loaded).
LINE = tuple(Truck.parse("#" * k, height=1, name=f"L{k}") for k in range(1, 6))
TALL = tuple(Truck.parse("#", height=h, name=f"H{h}") for h in range(2, 5))
SMALL_DECK = LINE + TALL  # 8 trucks: L1..L5 (capacity 1..5), H2..H4 (capacity 2..4)


def cubes(n: int) -> Cargo:
    """The roll that gives ``n`` single cubes and nothing else."""
    return Cargo.from_roll([n, 0, 0, 0, 0])


def named(deck: tuple[Truck, ...], name: str) -> Truck:
    return next(t for t in deck if t.name == name)


def draw(state: Game, name: str) -> None:
    """Resolve a draw (or the top of the pile) as the truck called ``name``."""
    trucks = state.trucks()
    pool = trucks["pile"] or tuple(sorted(trucks["discards"], key=SMALL_DECK_ORDER.__getitem__))
    state.apply_action(Draw([t.name for t in pool].index(name)))


SMALL_DECK_ORDER = {t: i for i, t in enumerate(SMALL_DECK)}


def roll_all(state: Game, *loads: int) -> None:
    """Give the players, from the first roller on, that many single cubes each."""
    for n in loads:
        assert state.current_player() == CHANCE
        state.apply_action(cubes(n))


def check_invariant(state: arena.GameState) -> None:
    """Every truck is somewhere exactly once; every point is accounted for by the records."""
    assert isinstance(state, Game)
    deck = state.setup.deck
    assert isinstance(deck, tuple)
    where = state.trucks()
    assert Counter(t for place in where.values() for t in place) == Counter(deck)
    start = state.setup.start_points
    assert isinstance(start, int)
    n = state.num_players
    running = [start] * n
    for number, record in enumerate(state.round_records, start=1):
        assert record.number == number
        assert record.first_roller == (number - 1) % n
        low = min(record.penalties)
        assert record.bonus == tuple(p for p in range(n) if record.penalties[p] == low)
        for p in range(n):
            running[p] += -record.penalties[p] + (10 if p in record.bonus else 0)
        assert record.points == tuple(running)
        assert sorted(record.grab_order) == list(range(n))
        assert len(set(record.taken)) == n
        assert record.sources[record.grab_order[-1]] == FROM_PILE  # the last grabber's
        for p, source in enumerate(record.sources):
            owner = source.owner
            if owner is not None:
                assert source.kind == "revealed"
                assert owner != p and record.taken[p] in record.revealed[owner]
            else:
                assert source == FROM_PILE
                assert all(record.taken[p] not in ts for ts in record.revealed)
        draws_each = 1 if n >= 5 else 2
        assert all(len(ts) == draws_each for ts in record.revealed)
    assert list(state.points) == running
    total_penalties = [sum(r.penalties[p] for r in state.round_records) for p in range(n)]
    bonuses = [sum(p in r.bonus for r in state.round_records) for p in range(n)]
    assert list(state.points) == [start - total_penalties[p] + 10 * bonuses[p] for p in range(n)]
    if state.is_terminal():
        assert min(state.points) <= 0
        assert all(min(r.points) > 0 for r in state.round_records[:-1])
        for record in state.round_records:
            for p, plan in enumerate(record.plans):
                verify(plan)
                assert (plan.cargo, plan.truck) == (record.cargos[p], record.taken[p])
                assert plan.penalty == record.penalties[p]


# --- the generic protocol check ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_pass_the_protocol_check(players: int) -> None:
    # Every action is checked; clone and pickle round trips after every 4th (they cost most).
    checked = check_random_playouts(
        lambda: Game(players),
        games=10,
        seed=players,
        invariant=check_invariant,
        deep_every=4,
    )
    assert checked > 10 * players * 5


@pytest.mark.slow
def test_many_random_games_account_for_every_truck_and_point() -> None:
    for seed in range(200):
        players = 2 + seed % 5
        state = arena.play(Game(players), [arena.RandomPolicy()] * players, seed=seed)
        check_invariant(state)


def test_random_games_on_a_small_deck_reshuffle_and_pass_the_check() -> None:
    # 8 trucks for 2 players: the pile runs out every other round, so reshuffles are frequent.
    def new() -> Game:
        return Game(2, deck=SMALL_DECK, start_points=30)

    check_random_playouts(new, games=20, seed=9, invariant=check_invariant, deep_every=3)
    events = [
        e
        for s in range(30)
        for e in play_game([bot("random")] * 2, seed=s, deck=SMALL_DECK, start_points=30).events
    ]
    assert any("shuffled into a new pile" in e for e in events)


def test_many_bot_games_account_for_every_truck_and_point() -> None:
    names = ["optimal", "bonus-aware", "capacity", "greedy-loader"]
    for seed in range(25):
        state = play_game([bot(n) for n in names], seed=seed)
        check_invariant(state)
        assert state.is_terminal() and state.winners()


# --- golden cases: the round ------------------------------------------------------------------


def test_rolls_come_first_from_the_rotating_first_roller() -> None:
    state = Game(3, deck=SMALL_DECK + (Truck.parse("##/##", height=1, name="Q"),))
    assert state.chance_outcomes() is roll_outcomes()  # one cached tuple: arena caches its sampler
    assert len(roll_outcomes()) == 900 and sum(p for _, p in roll_outcomes()) == 1
    roll_all(state, 1, 2, 3)
    assert state.observation(0).cargos == (cubes(1), cubes(2), cubes(3))
    with pytest.raises(PackingError, match="not a roll"):
        Game(2).apply_action(Cargo({1: 9}))


def test_each_draw_is_uniform_over_the_pile() -> None:
    state = Game(2, deck=SMALL_DECK)
    roll_all(state, 1, 1)
    outcomes = state.chance_outcomes()
    assert [p for _, p in outcomes] == [Fraction(1, 8)] * 8
    draw(state, "L3")
    assert [p for _, p in state.chance_outcomes()] == [Fraction(1, 7)] * 7
    assert state.action_to_string(Draw(0)).startswith("L1")
    assert "L3" not in [t.name for t in state.trucks()["pile"]]


def test_two_to_four_players_draw_two_each_five_and_six_draw_one() -> None:
    for players, each in [(2, 2), (3, 2), (4, 2), (5, 1), (6, 1)]:
        state = Game(players)
        for _ in range(players):
            state.apply_action(cubes(1))
        draws = 0
        while not isinstance(state.chance_outcomes()[0][0], GrabOrder):
            state.apply_action(Draw(0))
            draws += 1
        assert draws == players * each
        assert [len(ts) for ts in state.observation(0).revealed] == [each] * players


def order_outcomes(state: Game) -> list[tuple[Any, Fraction]]:
    """The chance outcomes of the first round's grab order (rolls and draws taken first)."""
    while not isinstance(state.chance_outcomes()[0][0], GrabOrder):
        state.apply_action(state.chance_outcomes()[0][0])
    return list(state.chance_outcomes())


def test_grab_order_is_uniform_or_weighted_by_speed() -> None:
    uniform = order_outcomes(Game(3))
    assert len(uniform) == 6 and all(p == Fraction(1, 6) for _, p in uniform)
    weighted = dict(order_outcomes(Game(2, speeds=[2, 1])))
    assert weighted == {GrabOrder((0, 1)): Fraction(2, 3), GrabOrder((1, 0)): Fraction(1, 3)}
    three = dict(order_outcomes(Game(3, speeds=[3, 2, 1])))
    assert three[GrabOrder((2, 1, 0))] == Fraction(1, 6) * Fraction(2, 5) * 1
    assert sum(three.values()) == 1
    for bad in ([1, 2], [1, 0, 1], [1, -2, 1]):
        with pytest.raises(PackingError):
            Game(3, speeds=bad)


def start_grab(
    state: Game, loads: tuple[int, int], revealed: tuple[str, ...], order: tuple[int, ...]
) -> None:
    roll_all(state, *loads)
    for name in revealed:
        draw(state, name)
    state.apply_action(GrabOrder(order))


def test_own_truck_refused_and_the_last_grabber_must_take_the_pile() -> None:
    state = Game(2, deck=SMALL_DECK)
    start_grab(state, (1, 1), ("L1", "L2", "L3", "L4"), (1, 0))
    assert state.current_player() == 1
    legal = state.legal_actions()
    # P1 may take P0's trucks (L1, L2) or the pile, never its own (L3, L4).
    assert [a.truck.name if a.truck else "pile" for a in legal] == ["L1", "L2", "pile"]
    with pytest.raises(PackingError, match="may not grab"):
        state.apply_action(Grab(named(SMALL_DECK, "L3"), 1))
    with pytest.raises(PackingError, match="may not grab"):
        state.apply_action(Grab(named(SMALL_DECK, "L3"), 0))  # not in front of P0
    state.apply_action(Grab(named(SMALL_DECK, "L1"), 0))
    # P0 is last: the pile only, though P1's L3 and L4 still lie revealed.
    assert state.current_player() == 0 and state.legal_actions() == [PILE]
    with pytest.raises(PackingError, match="may not grab"):
        state.apply_action(Grab(named(SMALL_DECK, "L3"), 1))
    state.apply_action(PILE)
    assert state.is_chance_node() and len(state.chance_outcomes()) == 4  # L5, H2, H3, H4
    draw(state, "H2")
    record = state.round_records[0]
    assert record.taken == (named(SMALL_DECK, "H2"), named(SMALL_DECK, "L1"))
    assert record.sources == (FROM_PILE, Source("revealed", 0))
    # P0: 1 cube on H2 (capacity 2) → 1 empty; P1: 1 cube on L1 → 0. P1 gains the +10.
    assert record.penalties == (1, 0) and record.bonus == (1,)
    assert record.points == (74, 85) and state.points == (74, 85)
    # Every truck of the round is discarded: L1..L4 revealed, H2 from the pile.
    assert sorted(t.name for t in state.trucks()["discards"]) == ["H2", "L1", "L2", "L3", "L4"]
    assert state.first_roller == 1 and state.round == 2


def test_a_grabbed_truck_is_gone_for_the_next_grabber() -> None:
    state = Game(3, deck=SMALL_DECK + (Truck.parse("##/##", height=1, name="Q"),))
    roll_all(state, 1, 1, 1)
    for name in ("L1", "L2", "L3", "L4", "L5", "H2"):
        draw(state, name)
    state.apply_action(GrabOrder((2, 0, 1)))
    state.apply_action(Grab(named(SMALL_DECK, "L1"), 0))
    assert named(SMALL_DECK, "L1") not in [a.truck for a in state.legal_actions()]
    assert state.observation(1).revealed[0] == (named(SMALL_DECK, "L2"),)
    assert state.observation(1).waiting == (1,)


def test_the_pile_is_reshuffled_when_a_draw_finds_it_empty() -> None:
    deck = SMALL_DECK[:7]  # L1..L5, H2, H3 — seven trucks for two players
    state = Game(2, deck=deck)
    start_grab(state, (1, 1), ("L1", "L2", "L3", "L4"), (0, 1))
    state.apply_action(Grab(named(deck, "L3"), 1))
    state.apply_action(PILE)
    draw(state, "L5")
    assert [t.name for t in state.trucks()["pile"]] == ["H2", "H3"]
    assert len(state.trucks()["discards"]) == 5
    roll_all(state, 1, 1)
    draw(state, "H2")
    draw(state, "H3")
    assert state.trucks()["pile"] == ()
    # The third draw finds the pile empty: the five discards become the new pile.
    assert len(state.chance_outcomes()) == 5
    state.apply_action(Draw(0))
    assert "the discards (5 trucks) are shuffled into a new pile" in state.events[-2]
    assert state.trucks()["discards"] == () and len(state.trucks()["pile"]) == 4
    check_invariant(state)


def test_the_tied_lowest_all_gain_ten() -> None:
    state = Game(3, deck=SMALL_DECK + (Truck.parse("##/##", height=1, name="Q"),))
    roll_all(state, 1, 1, 2)
    for name in ("L1", "H2", "L2", "H3", "L3", "H4"):
        draw(state, name)
    state.apply_action(GrabOrder((0, 1, 2)))
    state.apply_action(Grab(named(SMALL_DECK, "L2"), 1))  # P0: 1 cube on capacity 2 → 1
    state.apply_action(Grab(named(SMALL_DECK, "L3"), 2))  # P1: 1 cube on capacity 3 → 2
    state.apply_action(PILE)
    draw(state, "L4")  # P2: 2 cubes on capacity 4 → 2
    record = state.round_records[0]
    assert record.penalties == (1, 2, 2) and record.bonus == (0,)
    state2 = Game(3, deck=SMALL_DECK + (Truck.parse("##/##", height=1, name="Q"),))
    roll_all(state2, 1, 1, 2)
    for name in ("L1", "H2", "L2", "H3", "L3", "H4"):
        draw(state2, name)
    state2.apply_action(GrabOrder((0, 1, 2)))
    state2.apply_action(Grab(named(SMALL_DECK, "H3"), 1))  # P0: 1 cube on capacity 3 → 2
    state2.apply_action(Grab(named(SMALL_DECK, "L3"), 2))  # P1: 2
    state2.apply_action(PILE)
    draw(state2, "L4")  # P2: 2
    assert state2.round_records[0].penalties == (2, 2, 2) and state2.round_records[0].bonus == (
        0,
        1,
        2,
    )
    assert state2.points == (83, 83, 83)
    # Mid-game the standings are the players' points; the protocol's returns and winners
    # speak only at the end (zeros and no winner before it).
    assert not state2.is_terminal()
    assert state2.returns() == [0.0, 0.0, 0.0] and state2.winners() == frozenset()


def test_the_game_ends_after_the_round_in_which_someone_reaches_zero() -> None:
    deck = SMALL_DECK + (Truck.parse("##/##", height=1, name="Q"),)
    state = Game(3, deck=deck, start_points=2)
    roll_all(state, 1, 1, 1)
    for name in ("L1", "L5", "L2", "H4", "L3", "Q"):
        draw(state, name)
    state.apply_action(GrabOrder((0, 1, 2)))
    state.apply_action(Grab(named(deck, "L2"), 1))  # P0: capacity 2 → 1 → 1 point left
    state.apply_action(Grab(named(deck, "L1"), 0))  # P1: capacity 1 → 0, the +10 → 12
    state.apply_action(PILE)
    draw(state, "L4")  # P2: capacity 4 → 3 → -1: the game ends after this round
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.points == (1, 12, -1) and state.returns() == [1.0, 12.0, -1.0]
    assert state.winners() == frozenset({1}) and state.legal_actions() == []
    assert state.events[-1] == "game over: P1 wins"
    check_invariant(state)
    with pytest.raises(PackingError, match="game is over"):
        state.apply_action(PILE)


def test_tied_most_points_share_the_win() -> None:
    deck = SMALL_DECK + (Truck.parse("##/##", height=1, name="Q"),)
    state = Game(3, deck=deck, start_points=3)
    roll_all(state, 1, 1, 2)
    for name in ("L5", "Q", "L1", "L4", "L2", "L3"):
        draw(state, name)
    state.apply_action(GrabOrder((0, 1, 2)))
    state.apply_action(Grab(named(deck, "L1"), 1))  # P0: 1 cube, capacity 1 → 0
    state.apply_action(Grab(named(deck, "Q"), 0))  # P1: 1 cube, capacity 4 → 3 → 0 points
    state.apply_action(PILE)
    draw(state, "H2")  # P2: 2 cubes, capacity 2 → 0
    record = state.round_records[0]
    assert record.penalties == (0, 3, 0) and record.bonus == (0, 2)
    assert state.is_terminal() and state.points == (13, 0, 13)
    assert state.winners() == frozenset({0, 2})
    assert state.events[-1] == "game over: P0, P2 share the win"


def test_loaders_are_verified_and_scored() -> None:
    def leave_everything(cargo: Cargo, truck: Truck) -> LoadPlan:
        return LoadPlan.from_placements(truck, cargo, [])

    state = play_game([bot("optimal", loader=leave_everything), bot("optimal")], seed=4)
    record = state.round_records[0]
    truck, cargo = record.taken[0], record.cargos[0]
    assert record.plans[0].placements == ()
    assert record.penalties[0] == truck.capacity + 2 * cargo.volume
    assert (
        record.plans[1].optimal
        and record.penalties[1] == solve(record.cargos[1], record.taken[1]).penalty
    )

    def cheat(cargo: Cargo, truck: Truck) -> LoadPlan:
        plan = solve(cargo, truck)
        return LoadPlan(truck, cargo, plan.placements + plan.placements)  # rods on top of rods

    with pytest.raises(InvalidPlan):
        play_game([bot("optimal", loader=cheat), bot("optimal")], seed=4)


def test_optimal_plans_without_the_table_match_the_table() -> None:
    with_table = play_game([bot("optimal")] * 4, seed=11)
    without = play_game([bot("optimal", use_table=False)] * 4, seed=11, use_table=False)
    assert [r.penalties for r in with_table.round_records] == [
        r.penalties for r in without.round_records
    ]
    assert with_table.events == without.events


# --- options, values, determinism -------------------------------------------------------------


def test_bad_options_raise_errors_quoting_them() -> None:
    with pytest.raises(PackingError, match="2 to 6 players, not 7"):
        Game(7)
    with pytest.raises(PackingError, match="not 1"):
        Game(1)
    with pytest.raises(TypeError):
        Game("4")  # type: ignore[arg-type]
    with pytest.raises(PackingError, match="too small"):
        Game(4, deck=SMALL_DECK)
    with pytest.raises(PackingError, match="twice"):
        Game(2, deck=SMALL_DECK + SMALL_DECK[:1])
    with pytest.raises(PackingError, match="start_points"):
        Game(2, start_points=0)
    with pytest.raises(PackingError, match="3 loaders"):
        Game(2, loaders=[None, None, None])
    with pytest.raises(arena.ArenaError):
        arena.play(Game(3), [bot("optimal")] * 2, seed=1)


def test_same_seed_same_game_and_values_travel() -> None:
    first = play_game([bot("optimal"), bot("capacity"), bot("random")], seed=5)
    second = play_game([bot("optimal"), bot("capacity"), bot("random")], seed=5)
    assert (
        first == second
        and first.events == second.events
        and first.round_records == second.round_records
    )
    assert pickle.loads(pickle.dumps(first)) == first
    record = first.round_records[0]
    assert isinstance(record, RoundRecord) and pickle.loads(pickle.dumps(record)) == record
    assert isinstance(Game(3), arena.GameState)
    # A fresh process (other string hashes) plays the same game: its records unpickle equal.
    code = (
        "import pickle, sys; from packing import play_game, bot; "
        "s = play_game([bot('optimal'), bot('capacity'), bot('random')], seed=5); "
        "sys.stdout.buffer.write(pickle.dumps(s.round_records))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout
    assert pickle.loads(out) == first.round_records


def test_observation_hides_nothing_public_and_nothing_private() -> None:
    state = Game(4)
    for _ in range(4):
        state.apply_action(state.chance_outcomes()[0][0])
    seen = state.observation(2)
    assert seen.player == 2 and seen.cargo == seen.cargos[2] and seen.grab_order is None
    assert len(seen.pile) == 30 and seen.draw_pool == seen.pile
    assert seen.deck == SAMPLE_DECK and seen.points == (75, 75, 75, 75)
    # The pile is shown in deck order, whatever order the draws left it in: no hidden order.
    for _ in range(8):
        state.apply_action(Draw(3))
    assert list(state.observation(0).pile) == sorted(
        state.observation(0).pile, key=SAMPLE_DECK.index
    )


def test_strings_read_well() -> None:
    state = play_game([bot("optimal")] * 2, seed=2)
    assert str(PILE) == "the pile" and str(GrabOrder((1, 0))) == "grab order P1, P0"
    assert str(Grab(SAMPLE_DECK[2], 1)) == "S03 from P1"
    assert "round 1: P0 rolls" in state.events[0]
    assert "Pack & Stack, 2 players" in str(state)
    assert any(e.startswith("round 1: penalties") for e in state.events)


def test_loaders_follow_the_policies_into_their_seats() -> None:
    state = Game(2)
    arena.play(state, [bot("capacity"), bot("greedy-loader")], seed=6)
    # greedy_load's plans are given by hand (never proven optimal); capacity loads optimally.
    assert all(not r.plans[1].optimal and r.plans[0].optimal for r in state.round_records)
    swapped = arena.play(Game(2), [bot("greedy-loader"), bot("capacity")], seed=6)
    assert all(not r.plans[0].optimal and r.plans[1].optimal for r in swapped.round_records)


def test_the_round_cap_ends_the_game_on_the_standings() -> None:
    policies = [bot("optimal")] * 3
    for seed in range(5):
        free = play_game(policies, seed=seed)
        assert free.setup.max_rounds is None
        cap = len(free.round_records) - 1  # one round short of the rules' end
        assert cap >= 1
        capped = play_game(policies, seed=seed, max_rounds=cap)
        assert capped.is_terminal() and len(capped.round_records) == cap and capped.round == cap
        assert capped.round_records == free.round_records[:cap]  # the same game up to the cap
        assert capped.returns() == list(map(float, free.round_records[cap - 1].points))
        best = max(capped.points)
        assert capped.winners() == {p for p, x in enumerate(capped.points) if x == best}
        assert min(capped.points) > 0  # ended by the cap, not the rules
        longer = play_game(policies, seed=seed, max_rounds=len(free.round_records) + 5)
        assert (
            longer.round_records == free.round_records
        )  # a cap that does not bind changes nothing
    with pytest.raises(PackingError, match="max_rounds must be at least 1"):
        Game(2, max_rounds=0)
    with pytest.raises(TypeError, match="max_rounds must be a whole number, not bool True"):
        Game(2, max_rounds=True)
    state = Game(2, max_rounds=3)
    assert (
        pickle.loads(pickle.dumps(state)) == state
        and pickle.loads(pickle.dumps(state)).setup.max_rounds == 3
    )


def test_a_game_rebuilt_from_an_observation_observes_and_plays_the_same() -> None:
    seen: list[tuple[Game, Observation]] = []

    class Watcher:
        """Grabs like ``optimal``; remembers each decision's state and observation."""

        name = "watcher"

        def __init__(self, state: Game) -> None:
            self.state = state

        def act(
            self, observation: Observation, legal: Sequence[Grab], rng: np.random.Generator
        ) -> Grab:
            seen.append((self.state.clone(), observation))
            choice: Grab = bot("optimal").act(observation, legal, rng)
            return choice

    for players, seed in ((2, 1), (5, 2)):
        state = Game(players)
        arena.play(state, [Watcher(state)] * players, seed)
    assert len(seen) > 10
    for state, observation in seen:
        rebuilt = game_from_observation(observation, max_rounds=observation.round)
        assert all(rebuilt.observation(p) == state.observation(p) for p in range(state.num_players))
        assert rebuilt.legal_actions() == state.legal_actions()
        assert rebuilt.current_player() == state.current_player() == observation.player
        assert rebuilt.round_records == () and rebuilt.events == ()
        # Played on, it ends with this round (its cap), everyone's points moved by this round alone.
        arena.play(rebuilt, [bot("optimal")] * state.num_players, seed=0)
        assert (
            rebuilt.is_terminal()
            and len(rebuilt.round_records) == 1
            and rebuilt.round == observation.round
        )
    broken = Game(2).observation(0)
    object.__setattr__(broken, "pile_at", broken.pile_at[1:])
    with pytest.raises(PackingError, match="every truck of its deck once"):
        game_from_observation(broken)


def test_setup_and_sources() -> None:
    state = play_game([bot("optimal"), bot("capacity")], seed=2, max_rounds=2)
    setup = state.setup
    assert (setup.players, setup.deck, setup.start_points) == (2, SAMPLE_DECK, 75)
    assert (setup.speeds, setup.use_table, setup.max_rounds) == (None, True, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setup.players = 3  # type: ignore[misc]
    for record in state.round_records:
        for p, source in enumerate(record.sources):
            assert source.is_pile == (source == FROM_PILE == Source("pile"))
            if source.owner is not None:
                assert source.kind == "revealed" and source.owner != p
                assert record.taken[p] in record.revealed[source.owner]
        assert record.to_dict()["sources"] == [s.to_list() for s in record.sources]
    assert FROM_PILE.to_list() == ["pile"] and Source.revealed_by(1).to_list() == ["revealed", 1]


def test_the_log_names_the_players_and_addresses_you() -> None:
    game = Game(3, max_rounds=2)
    arena.play(game, [bot("optimal"), bot("capacity"), bot("random")], seed=5)
    plain, named = game.events, game.log(["Ann", "Bob", "Cy"], you=1)
    assert len(plain) == len(named) and plain == game.log()
    for line, words in zip(plain, named):
        expected = (
            line.replace("P0", "Ann").replace("P1", "you").replace("P2", "Cy")
            # "you" takes the verb without its s, as a person reads it
            .replace("you rolls", "you roll").replace("you draws", "you draw")
            .replace("you grabs", "you grab").replace("you takes", "you take")
            .replace("you wins", "you win")
        )  # fmt: skip
        assert words == expected
    with pytest.raises(PackingError, match="2 names for 3 players"):
        game.log(["Ann", "Bob"])
    with pytest.raises(PackingError, match="you=3 is not a player"):
        game.log(you=3)
