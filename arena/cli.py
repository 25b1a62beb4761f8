"""The command-line contract both games' commands stand on (``packing`` and ``express``).

Each command's ``main(argv) -> int`` is ``run_main`` over its parser, so both behave alike:

- the exit status is returned, never raised: 0 on success; ``EXIT_USAGE`` (2) on bad input,
  after one line ``PROG: error: …`` on stderr that quotes the input — or, when ``--json`` is
  among the arguments, a JSON object ``{"error": "…"}`` on stdout instead; ``EXIT_INTERRUPTED``
  (130) after one line on stderr when interrupted (Ctrl-C); run as the program (``argv``
  None), it then ignores further Ctrl-C until it has exited, so an impatient second press never
  turns the exit into a traceback;
- bad input is a ``UsageError``, the game's root error, an :class:`arena.ArenaError` or a
  missing optional extra (:class:`arena.extras.MissingExtraError`, whose line names the extra and
  the command that installs it);
- an option's value may start with ``-`` (``--roll -1,2,3,0,1``): ``attach_values`` joins it
  to its option, so the check that quotes it sees it instead of argparse reporting a missing
  value. The options that take a value are read from the parser itself;
- ``--version`` prints the installed distribution's version; ``--print-completion bash|zsh``
  prints a shell completion script (``add_completion_option``, the completion extra);
- every subcommand is made by ``add_command``: its ``--help`` opens with a one-line
  description and ends with runnable examples; ``derive_metavars`` names each value after
  what it is (``--games N``, not ``--games GAMES``) and ``help_problems`` lists what a
  parser still lacks (both games' tests walk every subcommand with it);
- a failed write of the output (a full disk: one line, status ``EXIT_FAILURE``) and a
  reader that went away (``| head``: quietly, status 0) are never a traceback;
- long work runs where ``--workers N`` / ``--scheduler ADDRESS`` / ``--cluster local:N`` say
  (``add_executor_options``, ``executor_for``);
- ``--players a,b,a`` names one bot per seat (``parse_bot_list``); a name given twice seats
  that bot twice, labelled as :func:`arena.tournament.seat_labels` says (``a``, ``a#2``).

>>> parser = Parser(prog="demo")
>>> _ = parser.add_argument("--seed", type=seed)
>>> parser.set_defaults(run=lambda args: print(f"seed {args.seed}") or 0)
>>> run_main("demo", parser, ["--seed", "3"], errors=())
seed 3
0
>>> run_main("demo", parser, ["--seed", "-1", "--json"], errors=())
{"error": "argument --seed: invalid seed '-1': a seed is 0 or more"}
2
"""

from __future__ import annotations

import argparse
import contextvars
import errno
import io
import json
import math
import os
import re
import signal
import sys
import tempfile
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import arena
from arena.batch import ENGINES
from arena.errors import ArenaError
from arena.executors import (
    MAX_WORKERS,
    executor_from,
    interrupts_ignored,
    parse_cluster,
    usable_cores,
)
from arena.extras import MissingExtraError, import_extra
from arena.search_bots import MAX_SIMULATIONS, MIN_SIMULATIONS
from arena.tournament import seat_labels

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = [
    "LiveText",
    "EXIT_FAILURE",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXAMPLES_HEADING",
    "EXIT_USAGE",
    "Interrupted",
    "Parser",
    "UsageError",
    "add_checkpoint_option",
    "add_engine_option",
    "add_command",
    "add_completion_option",
    "add_executor_options",
    "add_json_option",
    "add_version_option",
    "all_parsers",
    "attach_values",
    "check_file",
    "check_folder",
    "derive_metavars",
    "executor_for",
    "fail",
    "integer",
    "json_answers",
    "output_path",
    "parse_bot_list",
    "print_json",
    "run_main",
    "run_tournament",
    "seat_labels",
    "seconds",
    "takes_value",
    "seed",
    "simulations",
    "version_text",
    "wants_json",
    "whole_number",
    "whole_number_to",
    "with_examples",
    "worker_count",
]

R = TypeVar("R")

EXIT_OK = 0
EXIT_FAILURE = 1
"""The output could not be written (a full disk): not bad input, and not success either."""
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """Bad command-line input: :func:`run_main` prints it as one line and returns status 2."""


class Interrupted(Exception):
    """Ctrl-C, with what the user should know (e.g. where finished work was saved)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one :class:`UsageError`, not a usage block and exit."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse drops a failed write of --help or --version silently (status 0): let it
        # fail, so run_main reports it.
        if message:
            (file if file is not None else sys.stderr).write(message)


# --- option values: each quotes the input it refuses -----------------------------------------


# One rule for every number a command line reads: ASCII digits only. int() and float() also
# read other scripts' digits ('٣' is 3) and underscores ('1_000'), which a command line would
# accept as nonsense it cannot echo back the way it was typed.
_DIGITS = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _at_least(text: str, low: int, what: str, too_low: str) -> int:
    """``text`` as a whole number of at least ``low``; ``what`` names the value in the error."""
    if not _DIGITS.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"invalid {what} {text!r}: a whole number is needed")
    value = int(text)
    if value < low:
        raise argparse.ArgumentTypeError(f"invalid {what} {text!r}: {too_low}")
    return value


def integer(text: str) -> int:
    """A whole number of any sign, whose range the library checks and quotes (``--length``,
    ``--players``, ``--rounds``).

    >>> integer("-3")
    -3
    >>> integer("٣")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: invalid value '٣': a whole number is needed
    """
    if _DIGITS.fullmatch(text.strip()) is None:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: a whole number is needed")
    return int(text)


def whole_number(text: str) -> int:
    """A whole number of at least 1 (``--games``, ``--workers``, ``--top`` …).

    >>> whole_number("3")
    3
    """
    return _at_least(text, 1, "value", "it must be at least 1")


def whole_number_to(largest: int) -> Callable[[str], int]:
    """A reader of whole numbers from 1 to ``largest``: the documented limit of an option whose
    cost grows with its value (``--count``, ``--batch``); the error quotes the input and says
    the limit.

    >>> whole_number_to(10)("10")
    10
    >>> whole_number_to(10)("11")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: invalid value '11': at most 10
    """

    def read(text: str) -> int:
        value = whole_number(text)
        if value > largest:
            raise argparse.ArgumentTypeError(f"invalid value {text!r}: at most {largest:,}")
        return value

    read.__name__ = f"whole_number_to_{largest}"
    return read


def simulations(text: str) -> int:
    """Simulations per decision of OpenSpiel's search bots (``--simulations``): from
    :data:`arena.search_bots.MIN_SIMULATIONS` (with one, the search has explored no move) to
    :data:`arena.search_bots.MAX_SIMULATIONS`.

    >>> simulations("300")
    300
    >>> simulations("1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: invalid value '1': the search bots need at least 2 simulations per decision (the first only visits the position)
    """
    value = whole_number_to(MAX_SIMULATIONS)(text)
    if value < MIN_SIMULATIONS:
        raise argparse.ArgumentTypeError(
            f"invalid value {text!r}: the search bots need at least {MIN_SIMULATIONS} "
            "simulations per decision (the first only visits the position)"
        )
    return value


def seed(text: str) -> int:
    """A seed: a whole number, 0 or more.

    >>> seed("0")
    0
    """
    return _at_least(text, 0, "seed", "a seed is 0 or more")


def seconds(text: str) -> float:
    """A positive, finite number of seconds (``--time-limit``, ``--budget``).

    >>> seconds("2.5")
    2.5
    >>> seconds("1_0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: invalid value '1_0': a positive, finite number of seconds is needed
    """
    value = float(text) if _DECIMAL.fullmatch(text.strip()) else math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(
            f"invalid value {text!r}: a positive, finite number of seconds is needed"
        )
    return value


# --- the arguments ---------------------------------------------------------------------------


_options_of: weakref.WeakKeyDictionary[
    argparse.ArgumentParser, tuple[int, tuple[set[str], set[str]]]
] = weakref.WeakKeyDictionary()


def _options(parser: argparse.ArgumentParser) -> tuple[set[str], set[str]]:
    """Every option string of ``parser`` and its subcommands, and those that take one value
    (worked out once per parser, while it keeps its actions: a server parses every request
    with one parser)."""
    known = _options_of.get(parser)
    if known is not None and known[0] == len(parser._actions):
        return known[1]
    found = _walk_options(parser)
    _options_of[parser] = (len(parser._actions), found)
    return found


def _walk_options(parser: argparse.ArgumentParser) -> tuple[set[str], set[str]]:
    takes_value: set[str] = set()
    options: set[str] = set()
    parsers = [parser]
    while parsers:
        current = parsers.pop()
        for action in current._actions:
            options.update(action.option_strings)
            if action.option_strings and action.nargs is None:
                takes_value.update(action.option_strings)
            if isinstance(action, argparse._SubParsersAction):
                parsers.extend(action.choices.values())
    return options, takes_value


def attach_values(parser: argparse.ArgumentParser, argv: Sequence[str]) -> list[str]:
    """``--roll -1,2,3,0,1`` as ``--roll=-1,2,3,0,1``: argparse takes any word that starts with
    ``-`` (and is not a plain negative number) for an option, so such a value would be reported
    as missing instead of being quoted as bad. The options that take a value are those of the
    parser (and its subcommands) that take exactly one.

    >>> p = Parser(prog="demo")
    >>> _ = p.add_argument("--start")
    >>> attach_values(p, ["--start", "-R3", "--start", "R3"])
    ['--start=-R3', '--start', 'R3']
    """
    options, takes_value = _options(parser)
    out: list[str] = []
    words = iter(argv)
    for word in words:
        if word == "--":
            out.append(word)
            out.extend(words)
            break
        if word in takes_value:
            following = next(words, None)
            if following is None:
                out.append(word)
            elif following.startswith("-") and following not in options:
                out.append(f"{word}={following}")
            else:
                out.extend((word, following))
            continue
        out.append(word)
    return out


def wants_json(argv: Sequence[str]) -> bool:
    """Whether ``--json`` (or an abbreviation argparse accepts) is among the arguments, so that
    even an error argparse finds is reported as JSON.

    >>> wants_json(["best", "--js"]), wants_json(["best"])
    (True, False)
    """
    words = list(argv)
    if "--" in words:
        words = words[: words.index("--")]
    return any(len(word) >= 3 and "--json".startswith(word) for word in words)


def version_text(prog: str) -> str:
    """What ``PROG --version`` prints: the command and the installed distribution's version."""
    return f"{prog} {arena.__version__} ({arena.extras.DISTRIBUTION})"


def add_json_option(parser: argparse.ArgumentParser) -> None:
    """``--json``: the answer, or the error as an object with ``"error"``, as JSON on stdout
    (:func:`run_main` reads it to answer errors in JSON too). Every command of both games with
    an answer takes it."""
    parser.add_argument(
        "--json",
        action="store_true",
        help="machine-readable output (errors too: an object with 'error')",
    )


def add_version_option(parser: argparse.ArgumentParser, prog: str) -> None:
    """``--version``: prints :func:`version_text` and exits with status 0."""
    parser.add_argument("--version", action="version", version=version_text(prog))


# --- help: descriptions, examples, metavars, completion ---------------------------------------

METAVARS: dict[Callable[[str], Any], str] = {whole_number: "N", seed: "N", seconds: "SECONDS"}
"""The metavar of an option read by one of these value readers, unless the option names its
own (``--top K``): :func:`derive_metavars` fills it in."""

#: shtab's completion of a file and of a folder, by shell (what ``shtab.FILE`` / ``shtab.DIR``
#: hold), set on an option whose metavar names a file or a folder: completion works without
#: the parser importing shtab.
_COMPLETE_FILE = {"bash": "_shtab_compgen_files", "zsh": "_files"}
_COMPLETE_FOLDER = {"bash": "_shtab_compgen_dirs", "zsh": "_files -/"}
_FILE_METAVARS = ("FILE", "PNG", "PATH", "DECK")
_FOLDER_METAVARS = ("DIR", "FOLDER")

EXAMPLES_HEADING = "examples:"
"""The line of a command's ``--help`` after which its example command lines follow
(:func:`with_examples`)."""


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the examples' lines as written (the description is one line anyway)."""


def add_command(
    sub: Any, name: str, *, help: str, examples: Sequence[str], **options: Any
) -> argparse.ArgumentParser:
    """The subcommand ``name`` of ``sub`` (what ``add_subparsers`` returned): ``help`` is both its
    line in the parent's list and the one-line description its own ``--help`` opens with;
    ``examples`` (whole command lines) end that ``--help``.

    >>> parser = Parser(prog="demo")
    >>> sub = parser.add_subparsers(dest="command", parser_class=Parser)
    >>> p = add_command(sub, "roll", help="roll dice", examples=["demo roll --count 2"])
    >>> print(p.format_help())  # doctest: +NORMALIZE_WHITESPACE
    usage: demo roll [-h]
    <BLANKLINE>
    roll dice
    <BLANKLINE>
    options:
      -h, --help  show this help message and exit
    <BLANKLINE>
    examples:
      demo roll --count 2
    <BLANKLINE>
    """
    if not help or "\n" in help:
        raise ValueError(f"a command's description is one line: {help!r}")
    parser: argparse.ArgumentParser = sub.add_parser(name, help=help, description=help, **options)
    return with_examples(parser, examples)


def with_examples(
    parser: argparse.ArgumentParser, examples: Sequence[str], *, note: str = ""
) -> argparse.ArgumentParser:
    """``parser`` with ``examples`` (whole command lines) at the end of its ``--help``, after
    ``note`` (a paragraph, wrapped as written); returns ``parser``."""
    if not examples:
        raise ValueError(f"{parser.prog!r} needs an example")
    lines = [note, ""] if note else []
    lines += [EXAMPLES_HEADING, *(f"  {example}" for example in examples)]
    parser.epilog = "\n".join(lines)
    parser.formatter_class = _HelpFormatter
    return parser


def all_parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """``parser`` and every subcommand's parser below it, each once (aliases share a parser)."""
    seen: set[int] = set()
    todo = [parser]
    while todo:
        current = todo.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        for action in current._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo.extend(action.choices.values())


def takes_value(action: argparse.Action) -> bool:
    """Whether ``action`` is an option or argument the user gives a value to."""
    return action.nargs != 0 and not isinstance(
        action, (argparse._SubParsersAction, argparse._HelpAction, argparse._VersionAction)
    )


def derive_metavars(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Name each option's value of ``parser`` and its subcommands after what it is, where the
    option does not name it: from its value reader (:data:`METAVARS`: ``--games N``,
    ``--budget SECONDS``); a list of subcommands after the commands (``{build}``), which is
    how a missing one is reported; and let shell completion offer files or folders to an option whose
    metavar names one (``FILE``, ``DIR``). Returns ``parser``.

    >>> parser = Parser(prog="demo")
    >>> _ = parser.add_argument("--games", type=whole_number)
    >>> derive_metavars(parser).format_usage()
    'usage: demo [-h] [--games N]\\n'
    """
    for current in all_parsers(parser):
        for action in current._actions:
            if isinstance(action, argparse._SubParsersAction) and action.metavar is None:
                # A missing command is reported by this name: the commands, not the dest.
                commands = [choice.dest for choice in action._choices_actions]
                action.metavar = "{" + ",".join(commands) + "}"
            if not takes_value(action) or action.choices is not None:
                continue
            if action.metavar is None and action.type in METAVARS:
                action.metavar = METAVARS[action.type]
            names = action.metavar if isinstance(action.metavar, str) else ""
            if not hasattr(action, "complete"):
                if any(word in names for word in _FOLDER_METAVARS):
                    action.complete = _COMPLETE_FOLDER  # type: ignore[attr-defined]
                elif any(word in names for word in _FILE_METAVARS):
                    action.complete = _COMPLETE_FILE  # type: ignore[attr-defined]
    return parser


class _PrintCompletion(argparse.Action):
    """``--print-completion SHELL``: the shell's completion script of the whole command."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        shtab = import_extra("shtab", "completion")
        print(shtab.complete(parser, shell=str(values)), end="")
        parser.exit()


def add_completion_option(parser: argparse.ArgumentParser) -> None:
    """``--print-completion {bash,zsh}``: prints the completion script of ``parser`` (made by
    shtab, the completion extra) and exits with status 0; without shtab, one line naming the
    extra and status 2."""
    parser.add_argument(
        "--print-completion",
        choices=("bash", "zsh"),
        action=_PrintCompletion,
        help="print the completion script for bash or zsh and exit (the completion extra)",
    )


_json_answers: contextvars.ContextVar[list[Any] | None] = contextvars.ContextVar(
    "json_answers", default=None
)


@contextmanager
def json_answers() -> Iterator[list[Any]]:
    """Within this block (in this thread or task), what :func:`print_json` and :func:`fail`
    with ``as_json`` would print is appended to the list yielded, as the JSON value itself,
    instead: a front end that answers with a command's ``--json`` (the web API) takes the
    value without printing and reading back the text.

    >>> with json_answers() as answers:
    ...     print_json({"a": 1})
    >>> answers
    [{'a': 1}]
    """
    answers: list[Any] = []
    token = _json_answers.set(answers)
    try:
        yield answers
    finally:
        _json_answers.reset(token)


def print_json(data: Any) -> None:
    """``data`` (a result's ``to_dict()``) as indented JSON on stdout (or to the
    :func:`json_answers` being collected)."""
    collected = _json_answers.get()
    if collected is not None:
        collected.append(json.loads(json.dumps(data)))  # exactly what the text would read as
        return
    print(json.dumps(data, indent=2))


class LiveText:
    """A game's text printed as it grows, each line once and flushed at once: an ``on_action``
    observer of :func:`arena.play`, so a game between slow bots shows every move as it is
    played. ``text(state)`` is the text so far — a game's text under way must be the start of
    its later text (``express play``'s turns are) — or None while nothing may show yet."""

    def __init__(self, text: Callable[[Any], str | None]) -> None:
        self.text = text
        self.printed = 0

    def __call__(self, state: Any) -> None:
        text = self.text(state)
        if text is not None:
            self.show(text)

    def show(self, text: str) -> None:
        """Print the lines of ``text`` (the text so far) not printed yet."""
        lines = text.splitlines()
        for line in lines[self.printed :]:
            print(line)
        sys.stdout.flush()
        self.printed = max(self.printed, len(lines))


def fail(prog: str, message: str, *, as_json: bool) -> int:
    """Report bad input in one line (stderr, or a JSON object on stdout); the status, 2.

    >>> fail("demo", "no such deck 'x'\\nsecond line", as_json=True)
    {"error": "no such deck 'x' second line"}
    2
    """
    line = " ".join(message.split("\n"))  # one line, whatever the message held
    if as_json:
        collected = _json_answers.get()
        if collected is not None:
            collected.append({"error": line})
        else:
            print(json.dumps({"error": line}))
    else:
        print(f"{prog}: error: {line}", file=sys.stderr)
    return EXIT_USAGE


def run_main(
    prog: str,
    parser: argparse.ArgumentParser,
    argv: Sequence[str] | None,
    *,
    errors: tuple[type[Exception], ...],
    explain: Callable[[Exception, argparse.Namespace | None], str] | None = None,
) -> int:
    """Parse ``argv`` (default ``sys.argv[1:]``) and run the chosen command, ``args.run(args)``;
    the exit status. Never raises.

    ``errors`` are the game's bad-input errors (its root error); ``explain(error, args)`` may
    give a better line for one of them than ``str(error)``.
    """
    words = list(sys.argv[1:] if argv is None else argv)
    closed = sys.stdout is None  # started with stdout closed (`packing deck >&-`)
    if closed:
        sys.stdout = _ClosedOutput()
    try:
        status = _dispatch(
            prog, parser, words, errors=errors, explain=explain, as_program=argv is None
        )
        sys.stdout.flush()  # a write that fails fails here, not at exit past every handler
        return status
    except BrokenPipeError:
        # The reader went away (e.g. `packing stats | head`): not an error of ours, and what
        # it read was all it wanted.
        _drop_output()
        return EXIT_OK
    except OSError as error:
        # The disk is full, stdout is closed: the output is lost, so say so in one line.
        _drop_output()
        print(f"{prog}: error: {_os_error_line(error)}", file=sys.stderr)
        return EXIT_FAILURE
    finally:
        if closed:
            sys.stdout = None


def _dispatch(
    prog: str,
    parser: argparse.ArgumentParser,
    words: list[str],
    *,
    errors: tuple[type[Exception], ...],
    explain: Callable[[Exception, argparse.Namespace | None], str] | None,
    as_program: bool,
) -> int:
    """:func:`run_main` but for the errors of writing the output, which it handles."""
    as_json = wants_json(words)
    bad_input: tuple[type[Exception], ...] = (*errors, ArenaError)
    args: argparse.Namespace | None = None
    try:
        args = parser.parse_args(attach_values(parser, words))
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except UsageError as error:
        return fail(prog, str(error), as_json=as_json)
    except MissingExtraError as error:
        return fail(prog, str(error), as_json=as_json)
    except bad_input as error:
        message = explain(error, args) if explain is not None else str(error)
        return fail(prog, message, as_json=as_json)
    except (KeyboardInterrupt, Interrupted) as interrupt:
        detail = f": {interrupt}" if isinstance(interrupt, Interrupted) else ""
        if as_program:
            _ignore_interrupts_until_exit()
            print(f"{prog}: interrupted{detail}", file=sys.stderr)
        else:
            with interrupts_ignored():
                print(f"{prog}: interrupted{detail}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except SystemExit as done:  # --help and --version exit through argparse
        return done.code if isinstance(done.code, int) else EXIT_OK


def _ignore_interrupts_until_exit() -> None:
    """Ctrl-C ignored from now on (the main thread only can set it): an interrupted program is
    on its way out, and a second press during the exit (flushing, joining a pool's threads)
    would otherwise end it with a traceback. Only for the program itself: a caller of
    ``main(argv)`` in its own process keeps its Ctrl-C."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


class _ClosedOutput(io.TextIOBase):
    """Stands for a stdout that was closed before the command started: writing to it fails as
    writing to a closed descriptor does, instead of Python dropping the output silently."""

    def write(self, text: str) -> int:
        if not text:
            return 0
        raise OSError(errno.EBADF, "stdout is closed")


def _os_error_line(error: OSError) -> str:
    """An error of the system in one line: the file it concerns, or that the output is lost."""
    reason = error.strerror or str(error)
    if error.filename is not None:
        return f"{os.fspath(error.filename)!r}: {reason}"
    if error.errno in _WRITE_ERRNOS:
        return f"cannot write the output: {reason}"
    return reason


_WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF}


def _drop_output() -> None:
    """Point stdout at the null device, so output still buffered for a reader that went away or
    a full disk is not written again at exit (where Python would print a traceback)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # no stdout, or not a real file (a test's)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


# --- executors -------------------------------------------------------------------------------


def worker_count(text: str) -> int:
    """A ``--workers`` value: a whole number from 1 to :data:`arena.executors.MAX_WORKERS`.

    >>> worker_count("2")
    2
    """
    value = whole_number(text)
    if value > MAX_WORKERS:
        raise argparse.ArgumentTypeError(
            f"invalid value {text!r}: at most {MAX_WORKERS} worker processes (the larger of "
            "256 and 4 per usable core)"
        )
    return value


def add_executor_options(
    parser: argparse.ArgumentParser, *, workers_default: int | None = None
) -> None:
    """``--workers N`` / ``--scheduler ADDRESS`` / ``--cluster local:N`` on a command that runs
    long work (at most one of them). ``--workers`` defaults to ``workers_default``, else to
    the usable cores (:func:`arena.executors.usable_cores`)."""
    default = workers_default if workers_default is not None else usable_cores()
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--workers",
        type=worker_count,
        default=None,
        metavar="N",
        help=f"local worker processes (default: the usable cores, {default} here; "
        f"1 = in this process; at most {MAX_WORKERS})",
    )
    group.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="an existing Dask scheduler, e.g. tcp://host:8786 (the dask extra)",
    )
    group.add_argument(
        "--cluster",
        metavar="local:N",
        help="a Dask LocalCluster of N worker processes (the dask extra)",
    )
    parser.set_defaults(workers_default=default)


# --- output paths: checked before any work ----------------------------------------------------


def output_path(text: str, option: str = "argument --out") -> Path:
    """``--out``'s path; an empty one is refused (``Path('')`` is the current folder)."""
    if not text.strip():
        raise UsageError(f"{option}: {text!r} names no file or folder")
    return Path(text)


def check_folder(folder: Path, option: str, *, target: Path | None = None) -> None:
    """Fail now, quoting the input, unless ``folder`` is (or can be created as) a writable
    folder; ``target`` is the file to be written there, when the input named a file."""
    quoted = repr(os.fspath(target if target is not None else folder))
    if folder.exists() and not folder.is_dir():
        raise UsageError(
            f"{option}: cannot write {quoted}: {os.fspath(folder)!r} is a file, not a folder"
        )
    existing = folder
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir():
        raise UsageError(
            f"{option}: cannot write {quoted}: {os.fspath(existing)!r} is a file, not a folder"
        )
    # A file made and removed there at once: permission bits alone say yes to root everywhere,
    # and to folders such as /proc where nothing can be written.
    try:
        handle, probe = tempfile.mkstemp(dir=existing, prefix=".write-check-")
    except OSError as error:
        if isinstance(error, PermissionError):
            reason = f"permission denied in {os.fspath(existing)!r}"
        elif isinstance(error, FileNotFoundError):  # the folder is there: /proc says this
            reason = f"no file can be made in {os.fspath(existing)!r}"
        else:
            reason = f"{error.strerror or error} in {os.fspath(existing)!r}"
        raise UsageError(f"{option}: cannot write {quoted}: {reason}") from None
    os.close(handle)
    os.unlink(probe)


def check_file(path: Path, option: str, *, folder_made: bool = False) -> None:
    """Fail now, quoting the input, unless a file can be written at ``path``: its folder must
    exist, unless ``folder_made`` (the command's writer makes a missing folder: pictures do,
    deck files and checkpoints do not)."""
    if path.is_dir():
        raise UsageError(f"{option}: cannot write {os.fspath(path)!r}: it is a folder")
    if not path.parent.exists() and not folder_made:
        raise UsageError(
            f"{option}: cannot write {os.fspath(path)!r}: no folder {os.fspath(path.parent)!r}"
        )
    check_folder(path.parent, option, target=path)
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"{option}: cannot write {os.fspath(path)!r}: permission denied")


def _checkpoint_path(text: str) -> str:
    """``--checkpoint``'s file, checked before any work (it is written as the work goes); only a
    regular file is one (reading a FIFO or a device would wait or never end)."""
    path = output_path(text, "argument --checkpoint")
    if path.exists() and not path.is_dir() and not path.is_file():
        raise UsageError(f"argument --checkpoint: cannot use {text!r}: it is not a regular file")
    check_file(path, "argument --checkpoint")
    return text


def add_engine_option(parser: argparse.ArgumentParser) -> None:
    """``--engine auto|scalar|batched``: which engine plays a tournament's games
    (:func:`arena.tournament`'s ``engine``)."""
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="auto (default): the batched engine when every bot can be batched, else one game "
        "at a time; scalar: one game at a time; batched: the batched engine, or an error "
        "naming the bot it cannot play",
    )


def add_checkpoint_option(parser: argparse.ArgumentParser, what: str = "completed deals") -> None:
    """``--checkpoint FILE``: long work saved as it finishes, continued by a rerun."""
    parser.add_argument(
        "--checkpoint",
        type=_checkpoint_path,
        metavar="FILE",
        help=f"save {what} in FILE as they finish; the same command run again continues "
        "from it (a file of a run with other arguments is refused)",
    )


def executor_where(args: argparse.Namespace) -> str:
    """Where :func:`executor_for` runs the work, in words: ``Dask local:2``, ``1 worker``."""
    if args.scheduler is not None or args.cluster is not None:
        return f"Dask {args.scheduler or args.cluster}"
    workers = args.workers if args.workers is not None else args.workers_default
    return f"{workers} worker" + ("" if workers == 1 else "s")


@contextmanager
def executor_for(args: argparse.Namespace) -> Iterator[tuple[Executor | None, int]]:
    """The executor the options of :func:`add_executor_options` ask for, and the worker count
    to plan tasks for: Dask when asked, a process pool for ``--workers N > 1``, ``None`` (work
    in this process) for 1. A cluster that cannot be made or reached raises
    :class:`arena.executors.ExecutorError` (bad input: one line)."""
    workers = args.workers if args.workers is not None else args.workers_default
    if args.scheduler is None and args.cluster is None:
        if workers == 1:
            yield None, 1
            return
        with executor_from(workers=workers) as pool:
            yield pool, workers
        return
    with executor_from(scheduler=args.scheduler, cluster=args.cluster) as executor:
        yield executor, parse_cluster(args.cluster) if args.cluster is not None else 2


# --- bots by name ------------------------------------------------------------------------------


def parse_bot_list(
    text: str,
    *,
    known: Sequence[str],
    players: tuple[int, int],
    game: str,
    refused: Mapping[str, str] | None = None,
    option: str = "--players",
) -> list[str]:
    """The bot names of ``--players`` (``"optimal,random,optimal"``: one per seat, a name given
    twice seats that bot twice), checked against ``known`` and the game's player range
    ``players``; ``refused`` gives the reason a name the game knows cannot be seated here.

    >>> parse_bot_list("greedy, random,greedy", known=["greedy", "random"], players=(2, 5),
    ...                game="Demo")
    ['greedy', 'random', 'greedy']
    >>> parse_bot_list("greedy", known=["greedy"], players=(2, 5), game="Demo")
    Traceback (most recent call last):
    ...
    arena.cli.UsageError: argument --players: 'greedy' names 1 player; Demo takes 2 to 5
    """
    names = [name.strip().lower() for name in text.split(",")]
    if not all(names):
        raise UsageError(f"argument {option}: {text!r} is not a comma-separated list of bots")
    for name in names:
        if refused and name in refused:
            raise UsageError(f"argument {option}: {refused[name]} ({text!r})")
        if name not in known:
            raise UsageError(
                f"argument {option}: unknown bot {name!r} in {text!r} "
                f"(choose from {', '.join(known)})"
            )
    low, high = players
    if not low <= len(names) <= high:
        count = f"{len(names)} player" + ("" if len(names) == 1 else "s")
        raise UsageError(f"argument {option}: {text!r} names {count}; {game} takes {low} to {high}")
    return names


def run_tournament(
    args: argparse.Namespace,
    tournament: Callable[..., R],
    names: Sequence[str],
    *,
    bot: Callable[..., object],
    needs_extra: Iterable[str],
    bot_options: Mapping[str, Mapping[str, Any]],
    **game_options: Any,
) -> R:
    """The game's ``tournament`` between the bots ``names`` as a ``tournament`` command runs it:
    ``--games``, ``--seed``, ``--checkpoint``, ``--engine`` and the executor options from ``args``, progress
    on stderr (:mod:`arena.progress`), and ``game_options`` passed on. Each bot among
    ``needs_extra`` is built once first (with its ``bot_options``), so a missing extra or a
    refused option fails in one line before any work starts. An interrupted tournament raises
    :class:`Interrupted` (exit status 130) saying how far it got, never a partial table."""
    for name in set(names) & set(needs_extra):
        bot(name, **bot_options[name])
    checkpoint = getattr(args, "checkpoint", None)
    with executor_for(args) as (executor, workers):
        result = tournament(
            names,
            games=args.games,
            seed=args.seed,
            workers=workers,
            executor=executor,
            progress=not getattr(args, "quiet", False),
            bot_options=bot_options,
            checkpoint=checkpoint,
            engine=getattr(args, "engine", "auto"),
            **game_options,
        )
        if getattr(result, "interrupted", False):  # raised here, so the workers are stopped
            deals = f"{result.deals} of {result.deals_requested} deals completed"  # type: ignore[attr-defined]
            if checkpoint is not None:
                raise Interrupted(
                    f"{deals}, saved in {checkpoint!r}; run the same command to continue"
                )
            raise Interrupted(f"{deals} (--checkpoint FILE keeps them for a rerun)")
    return result
