"""Practice games and the grab trainer over HTTP (:mod:`webapp.practice`, :mod:`webapp.trainer`).

Every answer is computed in a thread off the event loop; a practice move's work is bounded by
the library's own limits (the grade of an Express play samples worlds for at most
:data:`webapp.practice.GRADE_SECONDS`; the bots are the library's, at their defaults).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from webapp import practice, trainer
from webapp.api import read_body, runner
from webapp.store import Store

__all__ = ["router"]

router = APIRouter()

LARGEST_BODY = 10_000
"""The most bytes a practice or trainer request may hold."""


def _sessions(request: Request) -> practice.Sessions:
    state = request.app.state
    found: practice.Sessions | None = getattr(state, "sessions", None)
    if found is None or found.store is not state.store:
        found = state.sessions = practice.Sessions(state.store)
    return found


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


@router.get("/api/practice/bots", tags=["practice"], summary="the bots a seat may take")
async def practice_bots() -> dict[str, list[str]]:
    """Per game, the bot names a practice seat may take (OpenSpiel's with the openspiel extra)."""
    return practice.bot_names()


@router.post("/api/practice", tags=["practice"], summary="start a practice game")
async def practice_new(request: Request) -> dict[str, Any]:
    """Start a game: ``game`` (``packing`` or ``express``), ``players`` (one name per seat,
    exactly one ``you``; bots from ``/api/practice/bots``), ``seed`` (optional), ``caboose``
    (Express: a name, ``random`` or null) or ``max_rounds`` (Pack & Stack: 1 to 40, null for
    the rules' game). The answer is the game's view, at your first decision. At most
    10,000 bytes."""
    body = await read_body(request, limit=LARGEST_BODY)
    return await runner(request).cheap(_sessions(request).create, body)


@router.get("/api/practice", tags=["practice"], summary="the recent practice games")
async def practice_list(request: Request) -> dict[str, Any]:
    """The 50 most recently played games, newest first (id, game, players, finished, updated,
    decisions, points lost)."""
    return {"games": await runner(request).cheap(practice.summaries, _store(request))}


@router.get("/api/practice/{game_id}", tags=["practice"], summary="a practice game's view")
async def practice_view(request: Request, game_id: str) -> dict[str, Any]:
    """What you see of the game: pictures, facts, your choices when it is your turn, every
    grade so far, the result and review at the end. Hidden information (the deck order, other
    players' hands and face-down cards) is never in it."""
    return await runner(request).cheap(_sessions(request).view, game_id)


@router.post("/api/practice/{game_id}/move", tags=["practice"], summary="make your decision")
async def practice_move(request: Request, game_id: str) -> dict[str, Any]:
    """``{"action": INDEX, "decision": NUMBER}``: the index of one of the view's ``choices``,
    and the view's ``decision`` (the number of the decision it answers). The choice is graded
    against the best one, applied, and the bots play on to your next decision; the answer is
    the new view, with ``last_grade``, once the move is written (a page reload or a restart
    finds it).

    The same move sent again (the same decision and choice: a second tap, a retry after a lost
    answer) is made once, and answered with the game as it stands. 409 for a decision answered
    already with another choice, or not asked yet; 422 when it is not your turn, the index is
    not a choice, or a field is missing or unknown; 503 (with ``Retry-After``) when the
    database cannot be written now: the move is not made and may be sent again. At most
    10,000 bytes."""
    body = await read_body(request, limit=LARGEST_BODY)
    return await runner(request).cheap(_sessions(request).move, game_id, body)


@router.post("/api/trainer/deal", tags=["trainer"], summary="a new grab-trainer question")
async def trainer_deal(request: Request) -> dict[str, Any]:
    """A roll drawn with its exact odds and ``revealed`` (1 to 8, default 4) trucks of the
    sample deck; ``seed`` (optional) makes it reproducible."""
    body = await read_body(request, limit=LARGEST_BODY)
    return await runner(request).cheap(trainer.deal, body)


@router.post("/api/trainer/answer", tags=["trainer"], summary="grade a grab-trainer answer")
async def trainer_answer(request: Request) -> dict[str, Any]:
    """``roll``, ``revealed`` (names), ``chosen`` (a revealed truck's name or ``the pile``) and
    ``seconds`` (the time taken, 0 to 3,600): the grade (the exact expected points the choice
    loses against the best, the table's), kept in the history."""
    body = await read_body(request, limit=LARGEST_BODY)
    return await runner(request).cheap(trainer.answer, _store(request), body)


@router.get("/api/trainer", tags=["trainer"], summary="the grab trainer's history")
async def trainer_history(request: Request) -> dict[str, Any]:
    """The last 1,000 answers, oldest first, and their summary."""
    return await runner(request).cheap(trainer.history, _store(request))
