"""Practice games: replayed exactly from setup, seed and actions; graded against values worked
out independently; no hidden information in what the user sees; bad moves refused."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import webapp.practice
from packing import Cargo, Truck, solve, verify
from packing.deck import SAMPLE_DECK
from webapp.errors import BadRequest, WebError
from webapp.practice import Session, Sessions
from webapp.store import Store


@pytest.fixture
def sessions(tmp_path: Path) -> Sessions:
    return Sessions(Store(tmp_path / "db.sqlite3"))


def play_to_end(sessions: Sessions, view: dict[str, Any], pick: int = 0) -> dict[str, Any]:
    while not view["finished"]:
        assert view["your_turn"] and view["choices"]
        choice = view["choices"][min(pick, len(view["choices"]) - 1)]["index"]
        view = sessions.move(view["id"], {"action": choice, "decision": view["decision"]})
    return view


def test_a_game_replays_exactly_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The grades' time limit keeps the page responsive; on a loaded machine it stops a grade
    # before all its worlds, so the second game's grades would rest on fewer of them.
    monkeypatch.setattr(webapp.practice, "GRADE_SECONDS", None)
    store = Store(tmp_path / "db.sqlite3")
    first = Sessions(store)
    view = first.create({"game": "express", "players": ["greedy", "you", "random"], "seed": 5})
    for _ in range(2):
        view = first.move(view["id"], {"action": 1, "decision": view["decision"]})
    restarted = Sessions(Store(tmp_path / "db.sqlite3"))
    assert restarted.view(view["id"]) == view
    # The same seed and the same choices make the same game.
    other = first.create({"game": "express", "players": ["greedy", "you", "random"], "seed": 5})
    for _ in range(2):
        other = first.move(other["id"], {"action": 1, "decision": other["decision"]})
    assert {k: v for k, v in other.items() if k != "id"} == {
        k: v for k, v in view.items() if k != "id"
    }


def test_a_pack_and_stack_grade_matches_the_solver(sessions: Sessions) -> None:
    """The expected penalty of each grab, worked out here from solve() alone: a revealed
    truck's optimal penalty, the pile's mean over the trucks it may hold."""
    view = sessions.create(
        {"game": "packing", "players": ["you", "optimal", "capacity"], "seed": 11, "max_rounds": 2}
    )
    session = sessions.get(view["id"])
    seen = session.state.observation(session.seat)
    cargo: Cargo = seen.cargo
    by_name = {t.name: t for t in SAMPLE_DECK}

    def penalty(truck: Truck) -> int:
        return verify(solve(cargo, truck)).penalty

    pile = [penalty(t) for t in seen.draw_pool]
    expected = {
        c["label"]: float(Fraction(sum(pile), len(pile)))
        if c["label"] == "the pile"
        else float(penalty(by_name[c["label"].split(" from ")[0]]))
        for c in view["choices"]
    }
    after = sessions.move(view["id"], {"action": view["choices"][0]["index"], "decision": 1})
    grade = after["grades"][0]
    assert {c["label"]: c["value"] for c in grade["choices"]} == pytest.approx(expected, abs=1e-3)
    best = min(expected.values())
    assert grade["loss"] == pytest.approx(expected[view["choices"][0]["label"]] - best, abs=1e-3)
    assert grade["unit"] == "expected points"


def test_an_express_game_ends_with_its_review(sessions: Sessions) -> None:
    view = sessions.create({"game": "express", "players": ["you", "greedy"], "seed": 2})
    end = play_to_end(sessions, view, pick=1)
    result = end["result"]
    assert end["finished"] and not end["choices"] and result["text"]
    assert len(end["grades"]) == 7  # two players play seven rounds
    for grade in end["grades"]:
        values = [c["value"] for c in grade["choices"]]
        assert values == sorted(values, reverse=True)  # best first
        assert grade["best"] == grade["choices"][0]["label"]
        assert grade["loss"] >= 0
    exact = result["review"]["exact_losses"]
    assert len(exact) == 7 and all(loss >= 0 for loss in exact)
    assert result["review"]["hindsight"]["gap"] >= 0
    # The user plays first: its last two decisions (four and two turns from the end) are in the advisor's
    # exact endgame, the grades of the others estimates over sampled worlds.
    exactly = [grade["measure"].endswith("(exact)") for grade in end["grades"]]
    assert exactly == [False] * 5 + [True] * 2


def test_a_pack_and_stack_game_ends_with_its_review(sessions: Sessions) -> None:
    view = sessions.create(
        {"game": "packing", "players": ["capacity", "you"], "seed": 3, "max_rounds": 3}
    )
    end = play_to_end(sessions, view)
    assert end["result"]["review"]["rounds"] and len(end["result"]["review"]["rounds"]) <= 3
    assert all(g["loss"] >= 0 for g in end["grades"])


def test_another_players_face_down_cards_are_never_shown(sessions: Sessions) -> None:
    view = sessions.create({"game": "express", "players": ["you", "random", "random"], "seed": 9})
    for _ in range(4):
        session = sessions.get(view["id"])
        for seat, train in enumerate(session.state.trains):
            if seat == session.seat:
                continue
            [picture] = [p for p in view["pictures"] if p["label"].startswith(f"train of P{seat}")]
            face_down = sum(1 for play in train.plays if not play.face_up)
            assert picture["svg"].count('data-face="down"') == face_down
            assert picture["svg"].count('data-card="hidden"') == face_down
            for play in train.plays:
                if not play.face_up:
                    assert f"{play.card} (face down" not in picture["svg"]
        view = sessions.move(view["id"], {"action": 1, "decision": view["decision"]})


def test_bad_setups_and_moves_are_one_line_errors(sessions: Sessions) -> None:
    bad_setups: list[object] = [
        [],
        {"game": "chess"},
        {"game": "express", "players": ["greedy", "greedy"]},
        {"game": "express", "players": ["you", "you"]},
        {"game": "express", "players": ["you", "perfect"]},
        {"game": "packing", "players": ["you"] + ["optimal"] * 6},
        {"game": "packing", "players": "you,optimal", "caboose": "Lightweight"},
        {"game": "packing", "players": "you,optimal", "max_rounds": 0},
        {"game": "express", "players": "you,greedy", "caboose": "Nothing"},
        {"game": "express", "players": "you,greedy", "seed": -1},
        {"game": "express", "players": "you,greedy", "colour": "red"},
    ]
    for body in bad_setups:
        with pytest.raises(BadRequest) as refused:
            sessions.create(body)
        assert "\n" not in str(refused.value)
    view = sessions.create({"game": "express", "players": "you,greedy", "seed": 1})
    for move in (
        {"action": 99, "decision": 1},
        {"action": -1, "decision": 1},
        {"action": "0", "decision": 1},
        {"action": True, "decision": 1},
        {"action": 0},
        {"action": 0, "decision": 0},
        {"action": 0, "decision": "1"},
        {"action": 0, "decision": 1, "colour": "red"},
        {},
        [0, 1],
    ):
        with pytest.raises(BadRequest) as refused:
            sessions.move(view["id"], move)
        assert "\n" not in str(refused.value)
    with pytest.raises(WebError, match="no saved game"):
        sessions.view("missing")


def test_a_forced_grab_is_made_for_the_user(sessions: Sessions) -> None:
    """The last grabber must take the pile: no decision, so no grade for it."""
    view = sessions.create(
        {"game": "packing", "players": ["you", "optimal"], "seed": 1, "max_rounds": 4}
    )
    end = play_to_end(sessions, view)
    session: Session = sessions.get(end["id"])
    assert len(end["grades"]) < 4 or all(g["choices"] for g in end["grades"])
    assert all(len(g["choices"]) > 1 for g in end["grades"])
    assert session.state.is_terminal()


def test_a_finished_express_game_says_how_every_score_was_made(sessions: Sessions) -> None:
    view = sessions.create(
        {"game": "express", "players": ["you", "greedy", "random"], "seed": 3, "caboose": "random"}
    )
    end = play_to_end(sessions, view)
    assert end["round"] == end["rounds"] == 6  # not "round 7 of 6"
    assert end["facts"][0] == "the game is over after 6 rounds; 3 players"
    assert not any("your hand" in fact for fact in end["facts"])
    session = sessions.get(end["id"])
    score = session.state.score()
    rows = end["result"]["review"]["scores"]
    assert [row["name"] for row in rows] == ["you", "P1 greedy", "P2 random"]
    for row, player in zip(rows, score.players):
        assert row["total"] == row["value"] + row["run_bonus"] + row["caboose_points"]
        assert (row["value"], row["run_bonus"], row["total"]) == (
            player.value,
            player.run_bonus,
            player.total,
        )
        assert row["winner"] == (player.player == score.winner)
        assert row["svg"].startswith("<svg")
    # the others' face-down cards stay hidden in the review too
    for row, train in zip(rows[1:], session.state.trains[1:]):
        assert row["train"].count("~") == sum(1 for play in train.plays if not play.face_up)
    scoring = end["result"]["review"]["scoring"]
    assert str(score.longest_run) in scoring and score.caboose is not None
    assert score.caboose.name in scoring
    assert "advisor's estimate" in end["points_lost_means"]


def test_pack_and_stack_practice_names_you_and_your_own_trucks(sessions: Sessions) -> None:
    view = sessions.create(
        {"game": "packing", "players": ["optimal", "you", "capacity"], "seed": 3, "max_rounds": 3}
    )
    session = sessions.get(view["id"])
    mine = [t.name for t in session.state.observation(1).revealed[1]]
    assert mine, "the seed deals the user trucks to offer"
    for picture in view["pictures"]:
        name = picture["label"].split(" (")[0]
        assert ("you may not" in picture["label"]) == (name in mine)
    assert not any(choice["label"].split(" from ")[0] in mine for choice in view["choices"])
    assert re.match(
        r"round [123] of 3; points: P0 optimal \d+, you \d+, P2 capacity", view["facts"][0]
    )
    end = play_to_end(sessions, view)
    assert not any("P1" in line for line in end["log"])  # the user's seat is "you"
    assert any(": you roll " in line for line in end["log"])
    assert "optimal table" in end["points_lost_means"]
