"""The progress page's answer: the grab trainer's and the practice games' history as charts
(:mod:`webapp.charts`) and a few summary numbers, read from the store."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from webapp import charts
from webapp.store import KEEP_GAMES, KEEP_TRAINER, SavedGame, Store

__all__ = ["CHART_POINTS", "progress_answer", "router"]

router = APIRouter(tags=["progress"])

CHART_POINTS = 500
"""The trainer charts show the latest answers only (the summary counts every kept answer)."""


def _loss(grade: object) -> float:
    value = grade.get("loss", 0.0) if isinstance(grade, dict) else 0.0
    try:
        loss = float(value)
    except (TypeError, ValueError):
        return 0.0
    return loss if loss >= 0 else 0.0


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


#: Each game's name and the unit of its grades' losses (webapp.practice grades them).
GAMES = {
    "packing": ("Pack & Stack", "expected points"),
    "express": ("Yardmaster Express", "points"),
}


def _practice(games: list[SavedGame], game: str) -> dict[str, Any]:
    """One game's practice summary and chart: its games' counts and their points lost, never
    added to the other game's (their units differ)."""
    mine = sorted((g for g in games if g.game == game), key=lambda g: g.created)
    graded = [g for g in mine if g.grades]
    decisions = sum(len(g.grades) for g in mine)
    points_lost = sum(_loss(x) for g in mine for x in g.grades)
    name, unit = GAMES[game]
    per_game = [sum(_loss(x) for x in g.grades) / len(g.grades) for g in graded]
    return {
        "name": name,
        "unit": unit,
        "games": len(mine),
        "finished": sum(1 for g in mine if g.finished),
        "decisions": decisions,
        "points_lost": round(points_lost, 4),
        "mean_loss": round(points_lost / decisions, 4) if decisions else None,
        "loss_svg": charts.practice_loss_chart(per_game, game=name, unit=unit),
    }


def progress_answer(store: Store) -> dict[str, Any]:
    """The ``GET /api/progress`` answer."""
    answers = store.trainer_answers(KEEP_TRAINER)
    losses = [max(0.0, float(a.loss)) for a in answers]
    seconds = [max(0.0, float(a.seconds)) for a in answers]
    shown = max(0, len(answers) - CHART_POINTS)
    games = store.games(KEEP_GAMES)
    return {
        "trainer": {
            "count": len(answers),
            "mean_loss": _mean(losses),
            "mean_seconds": _mean(seconds),
            "best_share": _mean([1.0 if loss <= 1e-9 else 0.0 for loss in losses]),
            "loss_svg": charts.trainer_loss_chart(losses[shown:], first=shown + 1),
            "seconds_svg": charts.trainer_seconds_chart(seconds[shown:], first=shown + 1),
        },
        "practice": {
            "games": len(games),
            "finished": sum(1 for g in games if g.finished),
            "decisions": sum(len(g.grades) for g in games),
            "by_game": {game: _practice(games, game) for game in GAMES},
        },
    }


@router.get("/api/progress")
def progress(request: Request) -> dict[str, Any]:
    """The trainer's and the practice games' history: summary numbers and SVG charts (points
    lost per trainer answer, reaction time per answer; per game, Pack & Stack's and Express's
    apart since their points are not the same measure, the points lost per decision in each
    practice game)."""
    store: Store = request.app.state.store
    return progress_answer(store)
