"""The child side of the web companion's round-trip test (``test_values.py``): every public
value of ``webapp`` built afresh in a spawned process, compared with the one received."""

from __future__ import annotations

from tests.packing._roundtrip import disagreements
from webapp.access import Access
from webapp.contract import Answer, fields
from webapp.errors import (
    BadRequest,
    Busy,
    Conflict,
    NotFound,
    NotJson,
    NotJsonType,
    OverTime,
    Stopped,
    Stopping,
    TooLarge,
)
from webapp.lock import FolderInUse
from webapp.store import (
    DamagedStoreError,
    DeckNameTaken,
    SavedDeck,
    SavedGame,
    StoreUnavailable,
    TrainerAnswer,
)


def sample_values() -> dict[str, object]:
    """One of every public value of the web companion, the same in any process."""
    return {
        "saved game": SavedGame(
            "0123456789abcdef",
            "express",
            {"seats": ["you", "greedy"], "options": {"caboose": None}},
            7,
            (3, 1, 4),
            ({"decision": 1, "loss": 0.5, "choices": [{"label": "R4|B4", "value": 2.0}]},),
            False,
            1.5,
            2.5,
        ),
        "trainer answer": TrainerAnswer(
            1.5, "3,2,3,0,1", ("S03", "S17"), "S03", "the pile", 2.0, 1.2
        ),
        "saved deck": SavedDeck("abc", "mine", "T1 height 1\n###\n", 3.0),
        "answer": Answer(422, {"error": "a line", "nested": [1, {"b": 2}]}),
        "field": fields("express", "score")[0],
        "access": Access(
            hosts=frozenset({"mybox.local", "192.168.1.20"}),
            token="A" * 32,
            links=("http://192.168.1.20:8000/pair?token=" + "A" * 32,),
        ),
    }


def sample_errors() -> dict[str, Exception]:
    """One of each of the web companion's errors."""
    return {
        "bad request": BadRequest("field 'x': bad"),
        "not json": NotJson("the request is not JSON"),
        "not json type": NotJsonType("the request's Content-Type is 'text/plain'"),
        "not found": NotFound("no saved game 'x'"),
        "too large": TooLarge(1000),
        "busy": Busy(2),
        "over time": OverTime(2.5),
        "stopped": Stopped(),
        "stopping": Stopping(),
        "conflict": Conflict("field 'decision': decision 1 was answered already (S03)"),
        "store unavailable": StoreUnavailable("the database cannot be used now: try again"),
        "damaged store": DamagedStoreError("the database 'x' is damaged"),
        "deck name taken": DeckNameTaken("a deck named 'mine' is saved already"),
        "folder in use": FolderInUse("another tabletop-web is serving from the data folder"),
    }


def check_in_child(name: str, received: object) -> tuple[object, list[str]]:
    """``received`` compared with the value of that name built here."""
    return received, disagreements(received, sample_values()[name])
