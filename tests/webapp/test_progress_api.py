"""GET /api/progress: the trainer's and the practice games' history as counts and SVG charts,
read from the store; an empty store still answers with charts that say "no data yet"."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from tests.svgcheck import SVG, outside, parse, with_class
from webapp.app import create_app
from webapp.store import Store, TrainerAnswer


def _circles(svg: str) -> int:
    return sum(len(g.findall(f"{SVG}circle")) for g in with_class(parse(svg), "points"))


def test_empty_history(tmp_path: Path) -> None:
    app = create_app(store=Store(tmp_path / "db.sqlite3"), warm_up=False)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        response = client.get("/api/progress")
    assert response.status_code == 200
    answer = response.json()
    assert answer["trainer"]["count"] == 0
    assert answer["trainer"]["mean_loss"] is None
    assert answer["practice"]["games"] == 0 and answer["practice"]["decisions"] == 0
    by_game = answer["practice"]["by_game"]
    assert sorted(by_game) == ["express", "packing"]
    assert all(one["games"] == 0 and one["mean_loss"] is None for one in by_game.values())
    for svg in (
        answer["trainer"]["loss_svg"],
        answer["trainer"]["seconds_svg"],
        by_game["packing"]["loss_svg"],
        by_game["express"]["loss_svg"],
    ):
        root = parse(svg)
        assert [e.text for e in with_class(root, "empty")] == ["no data yet"]
        assert outside(root) == []


def test_trainer_answers_and_games(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    for i in range(12):
        store.add_trainer_answer(
            TrainerAnswer(
                created=1_700_000_000.0 + i,
                roll="3,2,3,0,1",
                revealed=("S03", "S17"),
                chosen="S03" if i % 3 else "the pile",
                best="S03",
                loss=0.0 if i % 3 else 1.5,
                seconds=2.0 + i / 4,
            )
        )
    saved = store.new_game("packing", {"seats": ["you", "optimal"]}, 7)
    store.save_game(
        type(saved)(
            saved.id,
            saved.game,
            saved.setup,
            saved.seed,
            (0, 1, 2),
            ({"loss": 1.0}, {"loss": 0.0}, {"loss": 2.0}),
            True,
            saved.created,
            saved.updated,
        )
    )
    store.new_game("express", {"seats": ["you", "optimal"]}, 8)  # nothing graded yet
    app = create_app(store=store, warm_up=False)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        answer = client.get("/api/progress").json()
    trainer = answer["trainer"]
    assert trainer["count"] == 12
    assert abs(trainer["mean_loss"] - 0.5) < 1e-9
    assert abs(trainer["mean_seconds"] - (2.0 + 5.5 / 4)) < 1e-9
    assert _circles(trainer["loss_svg"]) == 12
    assert _circles(trainer["seconds_svg"]) == 12
    assert len(with_class(parse(trainer["loss_svg"]), "line")) == 1
    practice = answer["practice"]
    assert practice["games"] == 2 and practice["decisions"] == 3 and practice["finished"] == 1
    packing, express = practice["by_game"]["packing"], practice["by_game"]["express"]
    assert (packing["games"], packing["decisions"], packing["finished"]) == (1, 3, 1)
    assert abs(packing["mean_loss"] - 1.0) < 1e-9 and packing["unit"] == "expected points"
    assert (express["games"], express["decisions"], express["mean_loss"]) == (1, 0, None)
    assert _circles(packing["loss_svg"]) == 1  # one game with graded decisions
    assert _circles(express["loss_svg"]) == 0  # its one game has none yet
    for svg in (trainer["loss_svg"], trainer["seconds_svg"], packing["loss_svg"]):
        assert outside(parse(svg)) == []


def test_the_two_games_points_are_never_averaged_together(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    for game, losses in (("packing", (4.0, 0.0)), ("express", (1.0,))):
        saved = store.new_game(game, {"seats": ["you", "greedy"]}, 1)
        grades = tuple({"loss": loss} for loss in losses)
        store.save_game(
            type(saved)(
                saved.id, game, saved.setup, 1, (0,) * len(losses), grades, True,
                saved.created, saved.updated,
            )
        )  # fmt: skip
    with TestClient(
        create_app(store=store, warm_up=False), base_url="http://127.0.0.1:8000"
    ) as client:
        practice = client.get("/api/progress").json()["practice"]
    assert "mean_loss" not in practice and "points_lost" not in practice
    assert practice["by_game"]["packing"]["mean_loss"] == 2.0
    assert practice["by_game"]["express"]["mean_loss"] == 1.0
