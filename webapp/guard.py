"""The request guard: every request passes it before any page or endpoint answers.

In order (:mod:`webapp.access` says who may):

1. the ``Host`` must be this server's (:meth:`~webapp.access.Access.allows_host`): DNS
   rebinding is refused, HTTP 400;
2. a request that is not ``GET`` or ``HEAD`` (it changes what the server keeps, or starts
   work) must come from this server's own pages or from a client that is no browser: a
   foreign ``Origin`` or ``Sec-Fetch-Site: cross-site`` is refused, HTTP 403;
3. on a shared server, the device must be paired (the pairing cookie, or ``Authorization:
   Bearer TOKEN``): HTTP 401 otherwise. ``/pair?token=TOKEN``, the pairing link, is the one
   door: it sets the cookie (HttpOnly, SameSite=Strict) and sends the browser to the front
   page, so the token leaves the address bar.

An API client (a path under ``/api/``, and ``/openapi.json``) is told why in one line,
``{"error": "…"}``; a browser gets a short page that says what to do.
"""

from __future__ import annotations

import html
from urllib.parse import parse_qs

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from webapp.access import Access

__all__ = ["COOKIE_SECONDS", "PAIR_PATH", "Guard"]

PAIR_PATH = "/pair"
"""The pairing link's path: ``/pair?token=TOKEN``."""

COOKIE_SECONDS = 400 * 24 * 3600
"""How long a paired browser keeps its cookie (400 days: the longest browsers keep one)."""

_SAFE = ("GET", "HEAD")


def _is_api(path: str) -> bool:
    return path.startswith("/api/") or path == "/openapi.json"


def _page(
    status: int, title: str, *paragraphs: str, headers: dict[str, str] | None = None
) -> Response:
    """A short page that needs nothing else from the server (no stylesheet: the server may
    answer nothing more to this browser)."""
    body = "".join(f"<p>{html.escape(text)}</p>" for text in paragraphs)
    return HTMLResponse(
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<link rel="icon" href="data:,"><title>{html.escape(title)} — tabletop-web</title>'
        f"</head><body><main><h1>{html.escape(title)}</h1>{body}</main></body></html>",
        status_code=status,
        headers=headers,
    )


def _refusal(api: bool, status: int, error: str, title: str) -> Response:
    if api:
        return JSONResponse({"error": error}, status_code=status)
    return _page(status, title, error[0].upper() + error[1:] + ".")


class Guard:
    """The ASGI middleware that applies an :class:`~webapp.access.Access` to every request."""

    def __init__(self, app: ASGIApp, access: Access) -> None:
        self.app = app
        self.access = access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        answer = self._answer(scope)
        if answer is None:
            await self.app(scope, receive, send)
            return
        # A refusal, a pairing or its page: none may be kept and shown again later.
        answer.headers["Cache-Control"] = "no-store"
        await answer(scope, receive, send)

    def _answer(self, scope: Scope) -> Response | None:
        """The guard's own answer to the request, or None to let it through."""
        headers = Headers(scope=scope)
        path: str = scope["path"]
        api = _is_api(path)
        scheme: str = scope.get("scheme", "http")
        server = scope.get("server")
        host = headers.get("host")
        if host is None or not self.access.allows_host(
            host, tuple(server) if server else None, scheme
        ):
            shown = "no Host" if host is None else f"the Host {host[:100]!r}"
            return _refusal(
                api,
                400,
                f"this server answers to its own addresses (127.0.0.1, localhost, [::1] and the "
                f"ones it was started on) and to the names tabletop-web --allow-host adds, not to "
                f"{shown}",
                "Not this server's address",
            )
        if scope["method"] not in _SAFE:
            foreign = Access.foreign(
                headers.get("origin"), headers.get("sec-fetch-site"), host, scheme
            )
            if foreign is not None:
                return _refusal(
                    api,
                    403,
                    f"{foreign} may not {scope['method']} {path!r}: only this server's own "
                    "pages may change what it keeps or start work",
                    "Refused",
                )
        if path == PAIR_PATH:
            return self._pair(scope)
        if self.access.shared and not self._paired(headers):
            return self._unpaired(api)
        return None

    def _paired(self, headers: Headers) -> bool:
        cookie = cookie_parser(headers.get("cookie", "")).get(self.access.cookie)
        if cookie is not None and self.access.paired(cookie):
            return True
        scheme, _, credentials = headers.get("authorization", "").partition(" ")
        return scheme.lower() == "bearer" and self.access.paired(credentials.strip())

    def _pair(self, scope: Scope) -> Response:
        """The pairing link: the cookie and the front page for the right token."""
        if not self.access.shared:
            return RedirectResponse("/", status_code=303)  # this machine's only: nothing to pair
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = query.get("token", [None])[0]
        if not self.access.paired(given):
            return _page(
                403,
                "Not a pairing link of this server",
                "This link's token is not this server's: it was replaced (tabletop-web "
                "--new-token) or the link was copied wrong.",
                "Open the link tabletop-web printed when it started last, or scan its QR code.",
            )
        answer = RedirectResponse("/", status_code=303)
        answer.set_cookie(
            self.access.cookie,
            given or "",
            max_age=COOKIE_SECONDS,
            path="/",
            httponly=True,
            samesite="strict",
        )
        return answer

    def _unpaired(self, api: bool) -> Response:
        if api:
            return JSONResponse(
                {
                    "error": "this server is shared: pair this device first (open the pairing "
                    "link tabletop-web printed, or send its token as 'Authorization: Bearer "
                    "TOKEN')"
                },
                status_code=401,
                headers={"WWW-Authenticate": 'Bearer realm="tabletop-web"'},
            )
        return _page(
            401,
            "Pair this device",
            "This tabletop-web is shared with the local network, so it answers only the devices "
            "paired with it.",
            "To pair this one, scan the QR code tabletop-web printed in its terminal (a device "
            "already paired shows it on the front page too), or open the pairing link it "
            "printed: http://…/pair?token=…",
            "A paired device stays paired, also after the server restarts, until the token is "
            "replaced with tabletop-web --new-token.",
            headers={"WWW-Authenticate": 'Bearer realm="tabletop-web"'},
        )
