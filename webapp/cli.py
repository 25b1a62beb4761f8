"""``tabletop-web``: serve the web companion on this machine.

    tabletop-web                      # http://127.0.0.1:8000, this machine only
    tabletop-web --port 0             # any free port (the chosen one is printed)
    tabletop-web --host 0.0.0.0       # share it with a phone: it prints the pairing link and QR
    tabletop-web --data DIR           # keep games and decks in DIR/companion.sqlite3

It follows the command-line contract of :mod:`arena.cli`: bad input prints one line quoting it
and exits with status 2 (a damaged, read-only or locked database too, and a data folder another
``tabletop-web`` serves from: one server per folder); Ctrl-C stops the server within a second or
two, saying what was in progress, and exits with status 130.
"""

from __future__ import annotations

import argparse
import errno
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Any

from arena.cli import (
    Parser,
    UsageError,
    add_version_option,
    derive_metavars,
    run_main,
    with_examples,
)

__all__ = ["build_parser", "main"]

DEFAULT_PORT = 8000


def _port(text: str) -> int:
    if not text.isascii() or not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(
            f"invalid port {text!r}: a whole number from 0 (any free port) to 65535"
        )
    return int(text)


def _host_name(text: str) -> str:
    from webapp.access import host_name

    try:
        return host_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``tabletop-web``."""
    parser = Parser(
        prog="tabletop-web",
        description="Serve the web companion of Pack & Stack and Yardmaster Express "
        "(pages and the JSON API) on this machine.",
    )
    with_examples(
        parser,
        [
            "tabletop-web",
            "tabletop-web --port 0",
            "tabletop-web --host 0.0.0.0 --port 8080",
            "tabletop-web --host 0.0.0.0 --allow-host mybox.local --new-token",
        ],
        note="Everything runs on this machine, offline. The address is printed once the "
        "server listens; Ctrl-C stops it.",
    )
    add_version_option(parser, "tabletop-web")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="ADDRESS",
        help="the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 shares "
        "it with the local network: only devices paired by the link and QR code it prints can "
        "use it)",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        type=_host_name,
        metavar="NAME",
        help="a name this machine is reached by (e.g. mybox.local) that the server answers to, "
        "besides its addresses; repeatable",
    )
    parser.add_argument(
        "--new-token",
        action="store_true",
        help="replace the pairing token kept in the data folder: every device paired before "
        "must pair again",
    )
    parser.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        metavar="N",
        help=f"the port (default {DEFAULT_PORT}; 0 for any free port)",
    )
    parser.add_argument(
        "--data",
        metavar="DIR",
        help="the folder of the database that keeps games, trainer sessions and decks "
        "(default: the platform's user data folder)",
    )
    parser.set_defaults(run=serve)
    return derive_metavars(parser)


def _listen(host: str, port: int) -> socket.socket:
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # IPPROTO_TCP by name: asyncio turns Nagle's algorithm off only on sockets that say so,
        # and with it on, each answer's body waits for the client's delayed ACK (40 ms).
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise UsageError(
                f"argument --port: port {port} is in use: pick another (--port 0 for any free one)"
            ) from None
        raise UsageError(f"argument --host: cannot listen on {host!r}: {error.strerror}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


STOP_SECONDS = 1.0
"""How long a stopping server waits for the quick answers in progress (long ones are stopped at
once): Ctrl-C ends it within a second or two."""


def serve(args: argparse.Namespace) -> int:
    from arena.extras import import_extra

    sock = _listen(args.host, args.port)  # a bad address or a taken port first: plain input
    try:
        uvicorn = import_extra("uvicorn", "web")
        import_extra("fastapi", "web")
        from webapp.app import create_app
        from webapp.lock import FolderLock
        from webapp.sharing import share
        from webapp.store import Store, default_folder
        from webapp.work import Runner

        folder = default_folder() if args.data is None else Path(args.data)
        with FolderLock(folder):
            store = Store.at_folder(folder)  # a damaged, read-only or locked file: one line
            store.prune()
            runner = Runner()
            port = sock.getsockname()[1]
            access, sharing = share(
                args.host, port, folder=folder, allowed=args.allow_host, new_token=args.new_token
            )
            shown = f"[{args.host}]" if ":" in args.host else args.host
            print(f"tabletop-web: serving on http://{shown}:{port}/ (Ctrl-C stops it)", flush=True)
            print(f"tabletop-web: keeping games and decks in {store.path}", flush=True)
            for line in sharing:
                print(line, flush=True)
            # log_config=None: uvicorn's own logging set-up would close every handler the process
            # already has (logging.config.dictConfig); its warnings still reach stderr.
            config = uvicorn.Config(
                create_app(store=store, runner=runner, access=access),
                log_level="warning",
                log_config=None,
                lifespan="on",
                timeout_graceful_shutdown=STOP_SECONDS,
            )
            _server(config, runner).run(sockets=[sock])
    finally:
        sock.close()
    return 0


def _server(config: Any, runner: Any) -> Any:
    """uvicorn's server, which on Ctrl-C first says what is in progress and stops the long
    answers (their processes), so that it ends within :data:`STOP_SECONDS` or so instead of
    waiting silently for a long answer to finish."""
    import logging

    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if not self.should_exit:
                said = runner.stop()
                if said:
                    print(f"tabletop-web: stopping: {said}", file=sys.stderr, flush=True)
                # the line above says it, in the command's words
                logging.getLogger("uvicorn.error").setLevel(logging.CRITICAL)
            super().handle_exit(sig, frame)

    return Server(config)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``tabletop-web`` on ``argv`` (default ``sys.argv[1:]``); the exit status."""
    from webapp.errors import WebError

    return run_main("tabletop-web", build_parser(), argv, errors=(WebError,))
