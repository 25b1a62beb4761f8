"""``POST /api/{packing|express}/{command}``: the query commands over HTTP, each answering
exactly what the command prints with ``--json`` (:mod:`webapp.contract`), with the limits a
server shared by a table needs (:data:`LIMITS`): a size cap on every request, and expensive
answers in processes of their own with a time limit (:mod:`webapp.work`)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from webapp import contract, pictures
from webapp.errors import BadRequest, NotJson, NotJsonType, TooLarge
from webapp.work import Runner

__all__ = [
    "LARGEST_BODY",
    "LARGEST_DEPTH",
    "LIMITS",
    "LONGEST_NUMBER",
    "Limit",
    "read_body",
    "router",
]

LARGEST_BODY = 1_000_000
"""The most bytes a request body may hold (a deck file's text is far smaller)."""

LARGEST_DEPTH = 20
"""The most levels of arrays and objects a request body may nest (the deepest body a page sends,
a load plan's picture request, nests three): checked before the body is parsed, since Python's
parser recurses once per level and fails past its recursion limit."""

LONGEST_NUMBER = 100
"""The most digits of a whole number in a request body (a seed has at most 19): Python refuses
to read one of more than 4,300 digits, and reading a long one costs time quadratic in its
length."""


@dataclass(frozen=True)
class Limit:
    """What one command may cost over HTTP."""

    seconds: float
    """The wall time of an expensive answer: its process is stopped past it."""
    expensive: Callable[[Mapping[str, Any]], bool]
    """Which requests are expensive (run in a process of their own); the rest run in a thread."""
    why: str
    """When a request counts as expensive, in words (the endpoint's documentation says it)."""

    def time_limit(self) -> float:
        """The ``time_limit`` an expensive request of a command that takes one gets when it
        gives none, so that it answers with its best found before the process is stopped."""
        return round(self.seconds * 0.75, 1)


def _given(*names: str) -> Callable[[Mapping[str, Any]], bool]:
    return lambda body: any(body.get(name) is not None for name in names)


def _variant_truck(body: Mapping[str, Any]) -> bool:
    """A truck larger than the game's (3 rows × 5 columns, height 1–4)."""
    rows = str(body.get("truck", "")).split("/")
    height = str(body.get("height", "1")).strip()
    tall = not re.fullmatch(r"[0-9]{1,3}", height) or int(height) > 4
    return len(rows) > 3 or any(len(row) > 5 for row in rows) or tall


def _always(body: Mapping[str, Any]) -> bool:
    return True


def _never(body: Mapping[str, Any]) -> bool:
    return False


LIMITS: Mapping[tuple[str, str], Limit] = {
    ("packing", "solve"): Limit(20, _variant_truck, "a truck larger than 3×5 or taller than 4"),
    ("packing", "best"): Limit(
        30, _given("deck", "cargo"), "a deck of your own or a cargo no roll gives (no table)"
    ),
    ("packing", "grab"): Limit(
        30, _given("deck", "cargo"), "a deck of your own or a cargo no roll gives (no table)"
    ),
    ("packing", "stats"): Limit(
        120, _given("deck", "samples"), "a deck of your own (its table is built) or samples"
    ),
    ("express", "best"): Limit(20, _always, "always (an exhaustive search)"),
    ("express", "score"): Limit(10, _never, "never"),
    ("express", "cabooses"): Limit(10, _never, "never"),
    ("express", "solve"): Limit(20, _always, "always (an exact game-tree search)"),
    ("express", "advise"): Limit(30, _always, "always (worlds sampled and solved)"),
}
"""Each command's limits over HTTP."""

router = APIRouter()


async def read_body(request: Request, *, limit: int = LARGEST_BODY) -> object:
    """The request's JSON body (an empty body is ``{}``), read no further than ``limit`` bytes:
    :class:`TooLarge` past it, :class:`NotJson` when it is not JSON, or nests deeper than
    :data:`LARGEST_DEPTH`, or holds a whole number longer than :data:`LONGEST_NUMBER` digits.
    Every endpoint reads its body here, so these bounds hold for each.

    A body must say it is JSON (``Content-Type: application/json``; :class:`NotJsonType`, HTTP
    415, otherwise): a page of another site can send a form or plain text without the browser
    asking first, but not that."""
    kind = request.headers.get("content-type")
    if kind is not None and kind.partition(";")[0].strip().lower() != "application/json":
        raise NotJsonType(f"the request's Content-Type is {kind[:100]!r}, not 'application/json'")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise TooLarge(limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(limit)
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    if kind is None:
        raise NotJsonType("the request sends a body without 'Content-Type: application/json'")
    if _depth_exceeds(raw, LARGEST_DEPTH):
        raise NotJson(f"the request nests arrays and objects more than {LARGEST_DEPTH} levels deep")
    try:
        return json.loads(raw, parse_int=_whole_number)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise NotJson(f"the request is not JSON: {error}") from None


# The characters that open, close or escape something in JSON text: a string is skipped by
# following its quotes and backslashes, so brackets inside it are text.
_STRUCTURE = re.compile(rb'[\[\]{}"\\]')
_OPENING = frozenset(b"[{")
_CLOSING = frozenset(b"]}")
_QUOTE, _BACKSLASH = ord('"'), ord("\\")


def _depth_exceeds(raw: bytes, limit: int) -> bool:
    """Whether the JSON text ``raw`` nests arrays and objects more than ``limit`` levels deep
    (text that is not JSON may answer either way: the parser refuses it next)."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    depth = 0
    in_string = False
    escaped = -1  # the position of the character a backslash in a string escapes
    for found in _STRUCTURE.finditer(raw):
        at = found.start()
        char = raw[at]
        if in_string:
            if at == escaped:
                continue
            if char == _BACKSLASH:
                escaped = at + 1
            elif char == _QUOTE:
                in_string = False
        elif char == _QUOTE:
            in_string = True
        elif char in _OPENING:
            depth += 1
            if depth > limit:
                return True
        elif char in _CLOSING:
            depth -= 1
    return False


def _whole_number(text: str) -> int:
    """A whole number of the body, refused past :data:`LONGEST_NUMBER` digits before Python
    reads it."""
    digits = len(text.lstrip("-"))
    if digits > LONGEST_NUMBER:
        raise NotJson(
            f"the request holds a number of {digits:,} digits ({text[:12]}…): at most "
            f"{LONGEST_NUMBER} are read"
        )
    return int(text)


def runner(request: Request) -> Runner:
    found: Runner = request.app.state.runner
    return found


def _with_time_limit(game: str, command: str, body: Any) -> Any:
    """An expensive request of a command that takes ``time_limit``: the server's own when it gives
    none, and refused when it asks for more than the endpoint allows."""
    limit = LIMITS[game, command]
    if not isinstance(body, dict) or "time_limit" not in {
        f.name for f in contract.fields(game, command)
    }:
        return body
    given = body.get("time_limit")
    if given is None:
        return body | {"time_limit": limit.time_limit()}
    try:
        seconds = float(given)
    except (TypeError, ValueError):
        return body  # the command quotes it
    if seconds > limit.time_limit():
        raise BadRequest(
            f"field 'time_limit': {given!r} is more than this server allows for {game} "
            f"{command} ({limit.time_limit():g} s)"
        )
    return body


def _endpoint(game: str, command: str) -> None:
    limit = LIMITS[game, command]
    fields = contract.fields(game, command)
    schema = {
        "type": "object",
        "properties": {f.name: f.to_schema() for f in fields},
        "required": [f.name for f in fields if f.required],
        "additionalProperties": False,
    }

    async def run_command(request: Request) -> JSONResponse:
        body = await read_body(request)
        if isinstance(body, dict) and limit.expensive(body):
            body = _with_time_limit(game, command, body)
            answered = await runner(request).heavy(
                contract.answer,
                game,
                command,
                body,
                seconds=limit.seconds,
                label=f"{game} {command}",
            )
        else:
            # A cheap answer (a millisecond: read from the table, a score) is computed here, on
            # the event loop: a thread's hand-over and its fight for the GIL would cost more.
            answered = contract.answer(game, command, body)
        return JSONResponse(answered.data, status_code=answered.status)

    parser_help = contract.command_help(game, command)
    description = (
        f"{parser_help}\n\nAnswers exactly what `{game} {command} --json` prints, errors "
        'included (`{"error": "…"}`, HTTP 422; 400 for a body that is not JSON; 413 past '
        f"{LARGEST_BODY:,} bytes). Each field is the command's long option of that name; a value "
        "is written as the command line takes it or as its plain JSON equivalent; a missing "
        "field takes the command's default. A file option (`--deck FILE`, `--order FILE`) takes "
        f"the file's text (at most {contract.LARGEST_FILE_TEXT:,} characters).\n\n"
        f"**Limits.** Expensive when: {limit.why}. An expensive answer runs in a process of its "
        f"own, stopped after {limit.seconds:g} s (HTTP 422 then; 503 while every slot for long "
        "answers is taken); a cheap one (a millisecond or so) is answered at once"
        + (
            f"; it gets `time_limit` {limit.time_limit():g} s when it gives none, and may ask "
            "for no more."
            if any(f.name == "time_limit" for f in fields)
            else "."
        )
    )
    run_command.__name__ = f"{game}_{command}"
    router.add_api_route(
        f"/api/{game}/{command}",
        run_command,
        methods=["POST"],
        summary=f"{game} {command}",
        description=description,
        tags=[game],
        openapi_extra={
            "requestBody": {
                "required": False,
                "content": {"application/json": {"schema": schema}},
            }
        },
        responses={
            200: {"description": f"what `{game} {command} --json` prints"},
            422: {"description": 'bad input: `{"error": "one line quoting it"}`'},
        },
    )


for _game, _commands in contract.COMMANDS.items():
    for _command in _commands:
        _endpoint(_game, _command)


@router.get("/api/health", tags=["server"], summary="whether the server answers")
async def health() -> dict[str, str]:
    """`{"status": "ok"}` at once, whatever else the server is doing (nothing is computed)."""
    return {"status": "ok"}


LARGEST_PICTURE_BODY = 200_000
"""The most bytes a picture request may hold (a deck's text with room to spare)."""


def _rendered(answer: Callable[[Any], dict[str, Any]], body: Any) -> bytes:
    """``answer(body)`` as the JSON bytes sent, refused past :data:`pictures.LARGEST_ANSWER`."""
    data = json.dumps(
        answer(body), ensure_ascii=False, allow_nan=False, separators=(",", ":")
    ).encode()
    if len(data) > pictures.LARGEST_ANSWER:
        raise BadRequest(
            f"the answer would be {len(data):,} bytes, more than this server's limit of "
            f"{pictures.LARGEST_ANSWER:,} bytes for a picture: ask for a smaller one"
        )
    return data


def _picture_route(path: str, answer: Callable[[Any], dict[str, Any]], summary: str) -> None:
    async def serve(request: Request) -> Response:
        body = await read_body(request, limit=LARGEST_PICTURE_BODY)
        data = await runner(request).cheap(_rendered, answer, body)
        return Response(data, media_type="application/json")

    serve.__name__ = answer.__name__
    router.add_api_route(
        path,
        serve,
        methods=["POST"],
        summary=summary,
        description=(
            f"{answer.__doc__}\n\nAt most {LARGEST_PICTURE_BODY:,} bytes in (HTTP 413 past it) "
            f"and {pictures.LARGEST_ANSWER:,} bytes out (HTTP 422 past it, nothing sent)."
        ),
        tags=["pictures"],
    )


_picture_route("/api/packing/deck", pictures.deck_answer, "a deck's trucks with pictures")
_picture_route("/api/packing/truck", pictures.truck_answer, "one truck with its picture")
_picture_route("/api/packing/plan", pictures.plan_answer, "a load plan's picture")
_picture_route("/api/express/cards", pictures.cards_answer, "a deck's cards with pictures")
_picture_route("/api/express/train", pictures.train_answer, "a train's picture")
