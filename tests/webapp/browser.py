"""The browser tests' harness: the real server on a free port, the system's Chromium driven by
Playwright, and a watch on every page for console errors, failed requests and dialogs.

The server is ``tabletop-web``'s: :func:`webapp.app.create_app` served by uvicorn, here in a
thread of the test process on a socket bound to port 0 (as :func:`webapp.cli.serve` does). The
browser is Debian's Chromium (``apt-get install chromium``), never one Playwright downloads:
the tests run offline. Without it, or without Playwright, the tests are skipped with the command
that installs what is missing (:func:`missing`).
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import uvicorn

from webapp.access import Access
from webapp.app import create_app
from webapp.store import Store

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Dialog, Error, Page, Request, Response

__all__ = ["CHROMIUM_ARGS", "LiveServer", "Watch", "chromium", "missing"]

#: Chromium's switches: no sandbox (CI runs as root in a container), no GPU, and nothing that
#: reaches the network on its own (updates, sync, first-run pages).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]


def chromium() -> str | None:
    """The system's Chromium: ``chromium`` on the PATH, else ``/usr/bin/chromium``, else None."""
    found = shutil.which("chromium")
    if found is not None:
        return found
    fallback = Path("/usr/bin/chromium")
    return str(fallback) if fallback.exists() else None


def missing() -> str | None:
    """Why the browser tests cannot run here, naming what to install; None when they can."""
    needed = []
    if importlib.util.find_spec("playwright") is None:
        needed.append("Playwright: pip install playwright (the 'test' extra has it)")
    if chromium() is None:
        needed.append("the system's Chromium: apt-get install chromium")
    return f"needs {' and '.join(needed)}" if needed else None


class LiveServer:
    """The web companion served by uvicorn in a background thread on ``127.0.0.1:<free port>``,
    keeping its data in ``folder``, letting in whom ``access`` lets in (this machine's browser
    by default; made from the port by ``access_for``, for links that name it).
    :meth:`start` returns once ``/api/health`` answers."""

    def __init__(self, folder: Path, *, access_for: Callable[[int], Access] | None = None) -> None:
        self.folder = folder
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind(("127.0.0.1", 0))
        self._socket.listen(128)
        self.port: int = self._socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.access = Access() if access_for is None else access_for(self.port)
        app = create_app(store=Store(folder / "db.sqlite3"), access=self.access)
        # log_config=None: uvicorn's logging set-up would close pytest's capture handlers.
        config = uvicorn.Config(app, log_level="warning", log_config=None, lifespan="on")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True
        )

    def start(self, timeout: float = 60.0) -> None:
        self._thread.start()
        deadline = time.monotonic() + timeout
        # A shared server answers a client that sends its token.
        token = {"Authorization": f"Bearer {self.access.token}"} if self.access.shared else {}
        health = urllib.request.Request(f"{self.url}/api/health", headers=token)
        while True:
            try:
                with urllib.request.urlopen(health, timeout=5) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the web companion did not start on {self.url}")
            time.sleep(0.05)

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout=15)
        self._socket.close()


@dataclass
class Watch:
    """Everything that went wrong on a page: console errors, uncaught exceptions, failed
    requests, answers with a status of 400 or more that the scenario did not :meth:`expect`, and
    any dialog (an ``alert`` would mean a name ran as code)."""

    problems: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    expected: set[int] = field(default_factory=set)
    pending: set[str] = field(default_factory=set)

    def attach(self, page: Page) -> None:
        page.on("console", self._console)
        page.on("pageerror", self._page_error)
        page.on("request", self._request)
        page.on("requestfinished", self._request_finished)
        page.on("requestfailed", self._request_failed)
        page.on("response", self._response)
        page.on("dialog", self._dialog)

    def quiet(self, page: Page, timeout: float = 30.0) -> None:
        """Wait until no request of the page is in flight (before leaving it: a navigation
        aborts what is still loading, which is no fault of the page)."""
        deadline = time.monotonic() + timeout
        while self.pending and time.monotonic() < deadline:
            page.wait_for_timeout(20)

    def expect(self, status: int) -> None:
        """The scenario sends bad input on purpose: answers with ``status`` are not problems
        (nor the console line Chromium writes for each)."""
        self.expected.add(status)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        found = re.search(r"the server responded with a status of (\d+)", message.text)
        if found is not None and int(found.group(1)) in self.expected:
            return
        self.problems.append(f"console error: {message.text} at {message.location}")

    def _page_error(self, error: Error) -> None:
        self.problems.append(f"uncaught exception: {error.message}")

    def _request(self, request: Request) -> None:
        self.pending.add(f"{id(request)} {request.url}")

    def _request_finished(self, request: Request) -> None:
        self.pending.discard(f"{id(request)} {request.url}")

    def _request_failed(self, request: Request) -> None:
        self._request_finished(request)
        self.problems.append(f"request failed: {request.method} {request.url}: {request.failure}")

    def _response(self, response: Response) -> None:
        if response.status >= 400 and response.status not in self.expected:
            self.problems.append(
                f"answer {response.status}: {response.request.method} {response.url}"
            )

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        self.problems.append(f"a dialog opened: {dialog.type} {dialog.message!r}")
        dialog.dismiss()
