"""The web companion's server: the API routers, the pages, and the headers every answer carries.

:func:`create_app` makes the ASGI application (FastAPI); ``tabletop-web`` serves it with uvicorn
(:mod:`webapp.cli`). FastAPI was chosen over Starlette alone for the OpenAPI schema it writes
from the routes (``/openapi.json``, shown offline by the ``/api`` page) and for its test client;
both come with the ``web`` extra.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import arena
from webapp import api, designer, pairing_api, practice_api, progress_api
from webapp.access import Access
from webapp.errors import WebError
from webapp.guard import Guard
from webapp.store import Store
from webapp.work import Runner

__all__ = ["CONTENT_SECURITY_POLICY", "PAGES", "create_app"]

STATIC = Path(__file__).with_name("static")

PAGES = ("grab", "loader", "advisor", "practice", "trainer", "designer", "progress", "api")
"""The pages besides the front page: ``/grab`` serves ``static/grab.html``, and so on."""

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""No inline script or style, nothing from another origin: a name a user typed can only ever
show as text, and the pages work offline."""

_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def create_app(
    *,
    store: Store | None = None,
    runner: Runner | None = None,
    warm_up: bool = True,
    access: Access | None = None,
) -> FastAPI:
    """The application. ``store``: where users' games, trainer sessions and decks are kept (by
    default the SQLite file in the platform's user data folder, :meth:`~webapp.store.Store.default`);
    ``runner``: where answers are computed (:class:`webapp.work.Runner`). ``warm_up`` starts
    the process that forks the long answers' workers with the server, not on the first one.
    ``access``: who may use it (:class:`webapp.access.Access`; by default this machine only,
    through ``127.0.0.1``, ``localhost`` or ``[::1]``), applied to every request by
    :class:`webapp.guard.Guard`."""
    runner = Runner() if runner is None else runner
    access = Access() if access is None else access

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if app.state.store is None:  # else the caller opened it (tabletop-web prunes it first)
            app.state.store = Store.default()
            app.state.store.prune()
        if warm_up:
            runner.warm_up()
        yield
        app.state.store.close()

    app = FastAPI(
        title="Tabletop solvers: the web companion",
        version=arena.__version__,
        description=(
            "Pack & Stack and Yardmaster Express answered exactly, over HTTP. Each "
            "`/api/{game}/{command}` endpoint is the command line's `--json` answer; the other "
            "endpoints serve the pages (pictures, practice games, the trainer). Errors are "
            '`{"error": "one line"}` with a 4xx status, never a 500 for input.'
        ),
        docs_url=None,  # FastAPI's docs pages load scripts from a CDN: the /api page is offline
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.runner = runner
    app.state.access = access
    app.include_router(api.router)
    app.include_router(pairing_api.router)
    app.include_router(practice_api.router)
    app.include_router(progress_api.router)
    app.include_router(designer.router)

    @app.exception_handler(WebError)
    async def web_error(request: Request, error: WebError) -> JSONResponse:
        headers = {"Retry-After": "2"} if error.status == 503 else None
        return JSONResponse({"error": str(error)}, status_code=error.status, headers=headers)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        detail = error.detail if isinstance(error.detail, str) else "bad request"
        if error.status_code == 404:
            detail = f"no such page or endpoint: {request.url.path!r}"
        elif error.status_code == 405:
            detail = f"{request.method} is not how {request.url.path!r} is asked"
        return JSONResponse({"error": detail}, status_code=error.status_code)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = [
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', 'invalid')}"
            for e in error.errors()
        ]
        return JSONResponse({"error": "; ".join(problems) or "invalid request"}, 422)

    # The guard first, inside the headers: its refusals carry the security headers too.
    app.add_middleware(Guard, access=access)
    app.add_middleware(_Headers)

    # Pages answer HEAD as GET without the body (FileResponse sends only the headers then).
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def front_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    for page in PAGES:
        _page_route(app, page)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


class _Headers:
    """Adds :data:`_HEADERS` to every answer (and ``Cache-Control: no-store`` to the API's): a
    plain ASGI middleware, which costs a dictionary update where an ``@app.middleware("http")``
    one runs each request through another task and stream."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope["path"].startswith("/api/")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in _HEADERS.items():
                    headers.setdefault(name, value)
                if api:
                    headers.setdefault("Cache-Control", "no-store")
            await send(message)

        await self.app(scope, receive, with_headers)


def _page_route(app: FastAPI, page: str) -> None:
    async def serve() -> FileResponse:
        return FileResponse(STATIC / f"{page}.html")

    serve.__name__ = f"page_{page}"
    app.add_api_route(f"/{page}", serve, methods=["GET", "HEAD"], include_in_schema=False)
