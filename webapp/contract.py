"""The web API's contract with the command line: a command's long options in, exactly the JSON
object the command prints with ``--json`` out.

A request for ``packing best`` is a JSON object whose fields are the command's long options
(``--start-player`` is ``start_player``; a repeatable option such as ``--train`` takes a list);
each value is written as the command line takes it (``"roll": "3,2,3,0,1"``) or as its plain
JSON equivalent (``"roll": [3, 2, 3, 0, 1]``, ``"count": true``, ``"worlds": 200``); a missing
field takes the command's default. :func:`answer` turns the object into the command line and
runs the command itself (``packing.cli.main``), so the answer *is* what ``--json`` prints —
errors included — and no rule is written twice.

An option that names a file on the command line (``--deck FILE``, ``--order FILE``) takes the
file's text here: the text is written to a private temporary folder for the command to read,
and the folder's name is taken out of the answer, so an error reads ``deck:3: …``. No path a
request names is ever opened.

This module needs no extra: the server (:mod:`webapp.app`) and the tests call it.

>>> answer("packing", "best", {"roll": [3, 2, 3, 0, 1], "top": 1}).data["ranking"][0]["truck"]
'S15'
>>> answer("packing", "best", {"roll": "3,2,9,0,1"}).data
{'error': "argument --roll: invalid roll '3,2,9,0,1': the length-3 die has no face 9 (faces [0, 1, 2, 3])"}
"""

from __future__ import annotations

import argparse
import json
import math
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from arena.cli import json_answers
from arena.progress import silenced

__all__ = [
    "COMMANDS",
    "FILE_FIELDS",
    "GAMES",
    "Answer",
    "Field",
    "FieldError",
    "LARGEST_FILE_TEXT",
    "answer",
    "argv_for",
    "command_help",
    "fields",
]

GAMES = ("packing", "express")
COMMANDS: Mapping[str, tuple[str, ...]] = {
    "packing": ("solve", "best", "grab", "stats"),
    "express": ("best", "score", "cabooses", "solve", "advise"),
}
"""The query commands the API answers, per game: each answers one question and writes nothing."""

FILE_FIELDS = frozenset({"deck", "order"})
"""Fields whose option names a file on the command line: over HTTP they take the file's text."""

LARGEST_FILE_TEXT = 64_000
"""The most characters a file field's text may hold (a 30-truck deck file is about 1,500)."""

OK = 200
BAD_REQUEST = 400
UNPROCESSABLE = 422

#: Options every command has that are not questions: ``--json`` is always on, ``--help`` asks
#: nothing.
_NOT_FIELDS = frozenset({"help", "json"})


class FieldError(ValueError):
    """A request the command line cannot be made from (not an object, an unknown field, a value
    of the wrong type): one line that names the field and quotes the value."""


@dataclass(frozen=True)
class Field:
    """One long option of a command, as a request field."""

    name: str
    """The field: the long option without ``--``, ``-`` as ``_`` (``start_player``)."""
    option: str
    """The option it fills (``--start-player``)."""
    kind: Literal["flag", "value", "repeated"]
    """``flag`` takes true or false; ``value`` one value; ``repeated`` a list, one value each."""
    help: str
    required: bool
    choices: tuple[str, ...] | None
    is_file: bool

    def to_schema(self) -> dict[str, Any]:
        """The field's JSON schema (the OpenAPI page shows it)."""
        scalar: dict[str, Any] = {"anyOf": [{"type": "string"}, {"type": "number"}]}
        if self.choices is not None:
            scalar = {"type": "string", "enum": list(self.choices)}
        elif self.is_file:
            scalar = {"type": "string", "maxLength": LARGEST_FILE_TEXT}
        if self.kind == "flag":
            schema: dict[str, Any] = {"type": "boolean"}
        elif self.kind == "repeated":
            schema = {"type": "array", "items": scalar}
        elif self.choices is not None or self.is_file:
            schema = scalar
        else:
            schema = {"anyOf": [*scalar["anyOf"], {"type": "array", "items": scalar}]}
        text = self.help + (" (the file's text, not a path)" if self.is_file else "")
        return schema | {"description": f"{self.option}: {text}"}


@dataclass(frozen=True)
class Answer:
    """What a command answered: the HTTP status and the JSON value ``--json`` printed (an
    object, or a list for ``express cabooses``)."""

    status: int
    data: Any

    def __hash__(self) -> int:
        # The data is JSON (dicts and lists): hashed through its canonical text, at each call.
        return hash((self.status, json.dumps(self.data, sort_keys=True)))


# --- the commands' parsers, built once ---------------------------------------------------------


@cache
def _parser(game: str) -> argparse.ArgumentParser:
    if game == "packing":
        from packing.cli import build_parser
    else:
        from express.cli import build_parser
    return build_parser()


def _main(game: str) -> Callable[..., int]:
    if game == "packing":
        from packing.cli import main
    else:
        from express.cli import main
    return main


def _command_parser(game: str, command: str) -> argparse.ArgumentParser:
    for action in _parser(game)._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[command]
            return found
    raise LookupError(f"{game} has no commands")  # pragma: no cover - both parsers have them


def _check_command(game: str, command: str) -> None:
    if game not in COMMANDS:
        raise FieldError(f"unknown game {game!r} (expected one of {', '.join(GAMES)})")
    if command not in COMMANDS[game]:
        raise FieldError(
            f"unknown {game} command {command!r} (expected one of {', '.join(COMMANDS[game])})"
        )


@cache
def fields(game: str, command: str) -> tuple[Field, ...]:
    """The request fields of ``game command``, in the order ``--help`` lists them.

    >>> [f.name for f in fields("express", "score")]
    ['train', 'start_player', 'caboose', 'rounds', 'cards', 'deck']
    """
    _check_command(game, command)
    found: list[Field] = []
    for action in _command_parser(game, command)._actions:
        longs = [o for o in action.option_strings if o.startswith("--")]
        if not longs:
            continue
        option = longs[0]
        name = option[2:].replace("-", "_")
        if name in _NOT_FIELDS:
            continue
        if isinstance(action, argparse._StoreTrueAction):
            kind: Literal["flag", "value", "repeated"] = "flag"
        elif isinstance(action, argparse._AppendAction):
            kind = "repeated"
        else:
            kind = "value"
        choices = tuple(str(c) for c in action.choices) if action.choices is not None else None
        found.append(
            Field(
                name=name,
                option=option,
                kind=kind,
                help=" ".join((action.help or "").split()),
                required=action.required,
                choices=choices,
                is_file=name in FILE_FIELDS,
            )
        )
    return tuple(found)


# --- a request as a command line ---------------------------------------------------------------


def _word(field: Field, value: object) -> str:
    """One value as the command line writes it: a string as it is, a number in digits, a list of
    them joined by commas (a roll, a hand, a list of truck names)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        raise FieldError(f"field {field.name!r}: {json.dumps(value)} is not a {_wanted(field)}")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise FieldError(f"field {field.name!r}: {value!r} is not a {_wanted(field)}")
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, list) and field.kind == "value" and not field.is_file:
        return ",".join(_word(field, item) for item in _scalars(field, value))
    raise FieldError(f"field {field.name!r}: {_shown(value)} is not a {_wanted(field)}")


def _scalars(field: Field, values: list[Any]) -> list[Any]:
    for item in values:
        if isinstance(item, (list, dict)) or item is None:
            raise FieldError(f"field {field.name!r}: {_shown(values)} is not a {_wanted(field)}")
    return values


def _wanted(field: Field) -> str:
    if field.is_file:
        return "file's text (a string)"
    if field.kind == "value":
        return "string, number or list of them"
    return "string or number"


def _shown(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def argv_for(
    game: str, command: str, body: object, files: Mapping[str, str] | None = None
) -> list[str]:
    """The command line of the request ``body``; ``files`` maps a file field to the path its
    text was written to (:func:`answer` writes them). A :class:`FieldError` for a body that is
    not a JSON object, an unknown field or a value of the wrong type.

    >>> argv_for("packing", "best", {"roll": [3, 2, 3, 0, 1], "top": 3})
    ['best', '--roll=3,2,3,0,1', '--top=3', '--json']
    >>> argv_for("express", "score", {"train": ["R4|B4", "B2|B2,~"], "start_player": 1})
    ['score', '--train=R4|B4', '--train=B2|B2,~', '--start-player=1', '--json']
    """
    _check_command(game, command)
    if not isinstance(body, dict):
        raise FieldError(f"the request must be a JSON object of {game} {command}'s options")
    known = {f.name: f for f in fields(game, command)}
    words = [command]
    for name, value in body.items():
        if name not in known:
            raise FieldError(
                f"unknown field {name!r} for {game} {command} "
                f"(its fields: {', '.join(known) or 'none'})"
            )
        field = known[name]
        if value is None:
            continue  # the command's default
        if field.kind == "flag":
            if not isinstance(value, bool):
                raise FieldError(f"field {name!r}: {_shown(value)} is not true or false")
            if value:
                words.append(field.option)
        elif field.kind == "repeated":
            items = value if isinstance(value, list) else [value]
            words.extend(f"{field.option}={_word(field, item)}" for item in items)
        elif field.is_file:
            if not isinstance(value, str):
                raise FieldError(f"field {name!r}: {_shown(value)} is not a {_wanted(field)}")
            if len(value) > LARGEST_FILE_TEXT:
                raise FieldError(
                    f"field {name!r}: {len(value):,} characters, more than the "
                    f"{LARGEST_FILE_TEXT:,} a file's text may hold here"
                )
            path = (files or {}).get(name, name)
            words.append(f"{field.option}={path}")
        else:
            words.append(f"{field.option}={_word(field, value)}")
    words.append("--json")
    return words


# --- running the command with its output captured -----------------------------------------------


@contextmanager
def _file_fields(body: object) -> Iterator[tuple[dict[str, str], str | None]]:
    """The file fields' texts written to a private folder: each field's path, and the folder's
    prefix to take out of the answer (None when the request has no file field)."""
    texts = (
        {k: v for k, v in body.items() if k in FILE_FIELDS and isinstance(v, str)}
        if isinstance(body, dict)
        else {}
    )
    if not texts:
        yield {}, None
        return
    with tempfile.TemporaryDirectory(prefix="tabletop-web-") as folder:
        paths: dict[str, str] = {}
        for name, text in texts.items():
            if len(text) > LARGEST_FILE_TEXT:
                continue  # argv_for refuses it, naming the field
            path = Path(folder, name)
            path.write_text(text, encoding="utf-8", errors="surrogateescape")
            paths[name] = os.fspath(path)
        yield paths, folder + os.sep


def answer(game: str, command: str, body: object) -> Answer:
    """Run ``game command`` on the request ``body``: its ``--json`` object and the HTTP status
    (200; 422 when the command refuses the input, with its one-line ``error``; 400 when the body
    is not an object of the command's fields). Never raises for bad input."""
    with _file_fields(body) as (paths, folder):
        try:
            argv = argv_for(game, command, body, paths)
        except FieldError as error:
            status = UNPROCESSABLE if isinstance(body, dict) else BAD_REQUEST
            return Answer(status, {"error": str(error)})
        # The command's --json value is taken as it is printed (arena.cli.json_answers); a
        # server has no terminal to show long work's progress on.
        with silenced(), json_answers() as printed:
            exit_status = _main(game)(argv, parser=_parser(game))
    data = printed[-1] if printed else None
    if folder is not None:
        data = _without(folder, data)
    if exit_status == 0 and not (isinstance(data, dict) and "error" in data):
        return Answer(OK, data)
    if not (isinstance(data, dict) and "error" in data):  # pragma: no cover - --json says why
        data = {"error": f"{game} {command} failed (exit status {exit_status})"}
    return Answer(UNPROCESSABLE, data)


def _without(folder: str, value: Any) -> Any:
    """``value`` with the private folder's name taken out of every string in it."""
    if isinstance(value, str):
        return value.replace(folder, "")
    if isinstance(value, list):
        return [_without(folder, item) for item in value]
    if isinstance(value, dict):
        return {key: _without(folder, item) for key, item in value.items()}
    return value


def command_help(game: str, command: str) -> str:
    """The one line ``game command --help`` opens with.

    >>> command_help("packing", "best")
    "rank a deck's trucks for a cargo, show the best plan"
    """
    _check_command(game, command)
    parser = _command_parser(game, command)
    return (parser.description or "").strip().split("\n")[0]
