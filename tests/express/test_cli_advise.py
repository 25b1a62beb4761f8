"""express advise: the table as a player types it, the advice, and every bad input as one line."""

from __future__ import annotations

import json
import math
import re
import shlex
from typing import Any

import pytest

import arena.progress
import express.cli.advise as express_cli_advise
from express import ExpressError
from express.cli.advise import EXAMPLES
from express.pimc import advise
from express.table_view import position_text, table_observation
from tests.cli import Run, assert_usage_error

# Three players, seat 1 to move in round 2: seat 0 (the start player) has played twice, the
# second time face down; seat 2 once. B3|Y3 went from this player's hands into a train unseen.
HAND = "R4|B4,B2|B3,Y3|G3,G2|G2"
TRAINS = ("B2|B2,~", "R3|G3", "G4|Y4")

# Two players late in a game (positions of a game between greedy bots): fast to advise on.
TWO: dict[str, Any] = {
    "players": 2,
    "seat": 1,
    "round": 5,
    "hand": "R2|R2,R3|G3,Y3|G3",
    "trains": ["B4|G4,G4|Y4,Y3|B3,B3|Y3,Y4|R4", "R4|B4,~G2|G2,G2|G3,~B2|B2"],
    "seen": "G4|Y4,Y3|B3,Y4|R4",
}


@pytest.fixture(autouse=True)
def no_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    """Progress shows only after arena.progress.DELAY seconds: a busy machine must not change
    what the tests read on stderr (the progress test sets its own)."""
    monkeypatch.setattr(arena.progress, "DELAY", math.inf)


def argv(
    *extra: str,
    players: str = "3",
    seat: str = "1",
    round: str = "2",
    hand: str = HAND,
    trains: tuple[str, ...] = TRAINS,
    seen: str = "B3|Y3",
) -> list[str]:
    """``advise`` on the three-player table above, with some of its values changed."""
    words = ["advise", "--players", players, "--seat", seat, "--round", round, "--hand", hand]
    for train in trains:
        words += ["--train", train]
    return [*words, "--seen", seen, *extra]


def two_player(*extra: str) -> list[str]:
    words = ["advise", "--players", "2", "--seat", "1", "--round", "5", "--hand", TWO["hand"]]
    for train in TWO["trains"]:
        words += ["--train", train]
    return [*words, "--seen", TWO["seen"], *extra]


BAD_INPUT: list[tuple[list[str], str]] = [
    # cards the deck does not hold
    (argv(players="2", hand="R4|B4,B2|B3,P2|P2"), "'P2|P2' is not in the 2-player deck (with 2"),
    (argv(hand="R4|B4,B2|B3,Y3|G3,R3|R3"), "'R3|R3' is not in the 3-player deck"),
    (argv(hand="R4|B4,B2|B3,Y3|G3,R5|G2"), "'R5'"),
    (argv(hand="R4|B4,B2|B3,Y3|G3,\x1b[2J"), "hand 'R4|B4,B2|B3,Y3|G3,\\x1b[2J'"),
    (argv("--caboose", "\x1b[2J"), "'\\x1b[2J'"),
    (argv(trains=("B2|B2,~", "R3|G3", "G4|G5")), "'G5'"),
    (argv(seen="B3|Y3,P5|P5"), "'P5'"),
    # more copies of a card than the deck holds
    (argv(hand="R4|B4,R4|B4,Y3|G3,G2|G2"), "'R4|B4' needs 2 copies (2 in the hand)"),
    (argv(seen="R3|G3"), "'R3|G3' needs 2 copies (1 in your train, 1 in seen)"),
    (argv(trains=("B2|B2,~", "R3|G3", "R4|B4")), "'R4|B4' needs 2 copies"),
    (argv(seen="B2|B2,B2|B2,B2|B2"), "'B2|B2' needs 4 copies"),
    # a hand of the wrong size, the wrong number of trains
    (argv(hand="R4|B4,B2|B3,Y3|G3"), "hand 'R4|B4,B2|B3,Y3|G3' holds 3 cards"),
    (argv(trains=("B2|B2,~", "R3|G3")), "2 trains ('B2|B2,~', 'R3|G3') for 3 players"),
    # trains of the wrong lengths for the round and the seat
    (argv(trains=("B2|B2", "R3|G3", "G4|Y4")), "seat 0 'B2|B2' has 1 card: in round 2 seat 0"),
    (argv(trains=("B2|B2,~", "R3|G3", "")), "seat 2 '' has 0 cards"),
    (argv(trains=("B2|B2,~", "R3|G3,G3|R3", "G4|Y4")), "your train (seat 1) 'R3|G3,G3|R3' has 2"),
    # a face-up card that does not connect; what a player cannot or must know
    (argv(trains=("Y3|B3,G2|G2", "R3|G3", "G4|Y4")), "card 2 'G2|G2' cannot follow face up"),
    (argv(trains=("B2|B2,~", "~", "G4|Y4")), "your train (seat 1) '~'"),
    (argv(trains=("B2|B2,~Y2|Y2", "R3|G3", "G4|Y4")), "'~Y2|Y2' shows another player's"),
    # cards passed on that cannot be anywhere
    (
        # R4|B4 was the first card played, before this player held any: never theirs to pass on
        argv(hand="B2|B2,B2|B3,Y3|G3,G2|G2", trains=("R4|B4,~", "R3|G3", "G4|Y4"), seen="R4|B4"),
        "'R4|B4' needs 2 copies (1 in seen, 1 face up in other trains, a card played before "
        "your first turn never passed through your hands)",
    ),
    (argv(seen="B3|Y3,G3|R3"), "seen 'B3|Y3,G3|R3'"),
    (argv(round="1", trains=("B2|B2", "", ""), seen="B3|Y3"), "seen 'B3|Y3': in round 1"),
    # numbers out of range, unknown names
    (argv(players="6"), "6"),
    (argv(seat="3"), "seat 3 does not exist"),
    (argv(seat="-1"), "seat -1"),
    (argv(seat="one"), "'one'"),
    (argv("--start-player", "3"), "start player 3"),
    (argv(round="0"), "round 0"),
    (argv(round="7"), "round 7"),
    (argv("--rounds", "0"), "rounds 0"),
    (argv("--rounds", "20"), "rounds 20"),
    (argv("--caboose", "Caboose of Gold"), "'Caboose of Gold'"),
    (argv("--worlds", "0"), "'0'"),
    (argv("--worlds", "100001"), "'100001': at most 100,000"),
    (argv("--time-limit", "-1"), "'-1'"),
    (argv("--seed", "-2"), "'-2'"),
    (argv("--pass", "up"), "'up'"),
]


@pytest.mark.parametrize(("words", "quoted"), BAD_INPUT)
def test_bad_input_is_one_line_quoting_it_with_status_2(
    words: list[str], quoted: str, express: Run
) -> None:
    done = express(*words)
    assert_usage_error(done, "express", quoted)
    assert "\x1b" not in done.stderr  # an escape code in the input is quoted, never sent raw


@pytest.mark.parametrize(("words", "quoted"), BAD_INPUT)
def test_bad_input_under_json_is_a_json_error(words: list[str], quoted: str, express: Run) -> None:
    done = express(*words, "--json")
    assert done.returncode == 2 and done.stderr == "", done
    data = json.loads(done.stdout)
    assert set(data) == {"error"} and quoted in data["error"]


def test_the_advisor_s_own_refusal_is_one_line(
    express: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The last resort: a view every check passes but no game leads to is the advisor's to find
    # (no world consistent with it); its error reaches the player as any other refusal does.
    def no_world(*args: object, **options: object) -> None:
        raise ExpressError("no game leads to this view")

    monkeypatch.setattr(express_cli_advise, "advise", no_world)
    assert_usage_error(express(*argv()), "express", "no game leads to this view")
    done = express(*argv(), "--json")
    assert done.returncode == 2 and json.loads(done.stdout) == {
        "error": "no game leads to this view"
    }


def test_the_advice_is_a_table_of_every_play_best_first(express: Run) -> None:
    done = express(*two_player("--worlds", "6", "--seed", "3"))
    assert done.returncode == 0 and done.stderr == "", done
    view = table_observation(**TWO)
    advice = advise(view, worlds=6, rng=3)
    lines = done.stdout.splitlines()
    assert lines[0] == position_text(view)
    assert lines[1] == "hand: R2|R2,R3|G3,Y3|G3"
    assert lines[2].startswith("value: your final score minus your opponent's")
    assert "6 worlds" in lines[2]
    # The command prints the library's answer: the same plays, values and recommendation.
    assert lines[2:-1] == str(advice).splitlines()
    rows = lines[3:-1]
    assert [row.split()[0] for row in rows] == [str(e.play) for e in advice.plays]
    assert {row.split()[0] for row in rows} == {
        f"{'~' if not up else ''}{card}"
        for card in view.hand
        for up in (True, False)
        if up is False or view.train.can_add(card)
    }
    means = [float(row.split()[1]) for row in rows]
    assert means == sorted(means, reverse=True)
    marked = [row for row in rows if "<- play this" in row]
    assert marked == [rows[0]] and rows[0].split()[0] == str(advice.recommended)
    assert lines[-1].startswith("(6 worlds in ")


def test_json_is_the_advice_and_a_seed_replays_it(express: Run) -> None:
    done = express(*two_player("--worlds", "5", "--seed", "4", "--json"))
    assert done.returncode == 0 and done.stderr == ""
    data = json.loads(done.stdout)
    expected = advise(table_observation(**TWO), worlds=5, rng=4).to_dict()
    data.pop("seconds"), expected.pop("seconds")
    assert data == expected and data["worlds"] == 5
    again = json.loads(express(*two_player("--worlds", "5", "--seed", "4", "--json")).stdout)
    again.pop("seconds")
    assert again == data
    other = json.loads(express(*two_player("--worlds", "5", "--seed", "5", "--json")).stdout)
    other.pop("seconds")
    assert other != data  # the seed is used: another seed samples other worlds


def test_progress_of_the_worlds_goes_to_stderr_and_leaves_the_answer_alone(
    express: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    quiet = express(*two_player("--worlds", "6", "--seed", "3"))
    assert quiet.returncode == 0 and quiet.stderr == ""
    monkeypatch.setattr(arena.progress, "DELAY", 0.0)
    shown = express(*two_player("--worlds", "6", "--seed", "3"))
    assert shown.returncode == 0
    assert shown.stdout.splitlines()[:-1] == quiet.stdout.splitlines()[:-1]  # but the time
    lines = shown.stderr.splitlines()
    assert lines and all(re.match(r"advise: [1-6]/6 worlds \(", line) for line in lines), lines
    assert lines[-1].startswith("advise: 6/6 worlds (100%)")
    # Under --json too, stdout holds the JSON alone.
    data = json.loads(express(*two_player("--worlds", "6", "--seed", "3", "--json")).stdout)
    assert data["worlds"] == 6


def test_help_ends_with_examples_that_run(express: Run) -> None:
    done = express("advise", "--help")
    assert done.returncode == 0
    assert done.stdout.rstrip().endswith(EXAMPLES[-1])
    for example in EXAMPLES:
        words = shlex.split(example)
        assert words[:2] == ["express", "advise"]
        result = express(*words[1:])
        assert result.returncode == 0 and result.stderr == "", (example, result)


def test_in_the_last_turns_the_advice_is_exact(express: Run) -> None:
    # Round 7 of two players, seat 1 to play with one more turn after it: the values are exact
    # expectations over the draws, and the answer says so instead of counting worlds.
    view = table_observation(
        players=2,
        seat=1,
        round=6,
        hand="R2|R2,R3|G3,Y3|G3",
        trains=["B4|G4,G4|Y4,Y3|B3,B3|Y3,Y4|R4,~", "R4|B4,~G2|G2,G2|G3,~B2|B2,B2|B3"],
        seen="G4|Y4,Y3|B3,Y4|R4",
    )
    done = express(
        "advise", "--players", "2", "--seat", "1", "--round", "6", "--hand", "R2|R2,R3|G3,Y3|G3",
        "--train", "B4|G4,G4|Y4,Y3|B3,B3|Y3,Y4|R4,~",
        "--train", "R4|B4,~G2|G2,G2|G3,~B2|B2,B2|B3",
        "--seen", "G4|Y4,Y3|B3,Y4|R4", "--seed", "3",
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done
    lines = done.stdout.splitlines()
    assert "exact: every draw to come weighed by its probability" in lines[2]
    assert lines[-1].startswith("(exact, no world sampled in ")
    advice = advise(view, rng=3)
    assert advice.expectation and lines[2:-1] == str(advice).splitlines()
