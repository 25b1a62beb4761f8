"""Who may use the server: the ``Host`` names it answers to, the origin its state-changing
requests must come from and, on a shared server, the pairing token (kept per data folder).

A server on ``127.0.0.1`` (the default) is this machine's alone: it answers to ``127.0.0.1``,
``localhost`` and ``[::1]`` on its port, and to nothing else. That closes DNS rebinding: a web
page whose name an attacker rebinds to ``127.0.0.1`` reaches the server with its own name in
``Host``, and is refused. An address typed as such (``http://192.168.1.20:8000``) names this
machine only when it is the address the connection came in on, which a rebound name never is:
so a server shared with ``--host 0.0.0.0`` answers to each of its own addresses, and to the
names ``--allow-host`` adds (``mybox.local``).

A shared server (``--host`` other than a loopback address) answers only paired devices: a
device is paired by opening the pairing link (``/pair?token=…``), which sets a cookie, and an
API client sends the token as ``Authorization: Bearer TOKEN``. Requests from this machine need
it too: a proxy or tunnel on the machine (``ssh -R``, a reverse proxy) makes every client look
local, so the client's address proves nothing. The token is :data:`TOKEN_BYTES` random bytes
(``secrets``), compared in constant time (``hmac.compare_digest``), and kept in the file
:data:`TOKEN_FILE` of the data folder, readable by its owner only, so a paired phone stays
paired after a restart; ``tabletop-web --new-token`` (or deleting the file) replaces it, which
unpairs every device.

Nothing here needs an extra: :mod:`webapp.guard` applies it to every request.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import re
import secrets
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from webapp.errors import WebError

__all__ = [
    "LOOPBACK_NAMES",
    "TOKEN_BYTES",
    "TOKEN_FILE",
    "Access",
    "host_name",
    "is_loopback",
    "load_token",
    "split_host",
]

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
"""The names every server answers to (on its own port): this machine's."""

TOKEN_FILE = "pairing-token"
"""The file of the data folder (beside ``companion.sqlite3``) that keeps the pairing token."""

TOKEN_BYTES = 24
"""The pairing token's random bytes (192 bits; 32 characters in the link)."""

_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,128}")
_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def is_loopback(host: str) -> bool:
    """Whether listening on ``host`` keeps the server to this machine (``127.0.0.1``,
    ``localhost``, ``::1``): then it needs no pairing."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_name(text: str) -> str:
    """``text`` as a name or address a ``Host`` header may carry (lower case, an IPv6 address
    without brackets), or :class:`ValueError` quoting it: a port, a scheme, a path or a wildcard
    is not a name.

    >>> host_name("MyBox.local"), host_name("[fe80::1]"), host_name("192.168.1.20")
    ('mybox.local', 'fe80::1', '192.168.1.20')
    """
    name = text.strip().lower()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        pass
    labels = name.removesuffix(".").split(".")
    if len(name) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        raise ValueError(
            f"invalid host name {text!r}: a name such as mybox.local or an address, without a "
            "port or scheme"
        )
    return name


def split_host(header: str) -> tuple[str, int | None] | None:
    """The name (lower case; an IPv6 address without brackets) and port of a ``Host`` header,
    or None when it is not one.

    >>> split_host("[::1]:8000"), split_host("LocalHost"), split_host("a b")
    (('::1', 8000), ('localhost', None), None)
    """
    text = header.strip().lower()
    port_text = ""
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return None
        name, rest = text[1:end], text[end + 1 :]
        if rest:
            if not rest.startswith(":"):
                return None
            port_text = rest[1:]
    elif text.count(":") == 1:
        name, port_text = text.split(":")
        if not port_text:
            return None
    elif ":" in text:
        return None  # an IPv6 address must be in brackets
    else:
        name = text
    if port_text and not (port_text.isascii() and port_text.isdigit() and len(port_text) <= 5):
        return None
    try:
        name = host_name(name)
    except ValueError:
        return None
    return name, int(port_text) if port_text else None


def _same_address(name: str, address: str) -> bool:
    """Whether the address ``name`` is ``address`` (an IPv4 address the way a dual-stack socket
    reports it, ``::ffff:192.168.1.20``, counts as itself)."""
    try:
        one, other = ipaddress.ip_address(name), ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(other, ipaddress.IPv6Address) and other.ipv4_mapped is not None:
        other = other.ipv4_mapped
    return one == other


@dataclass(frozen=True)
class Access:
    """What a server lets in: this machine only by default; a shared server has a ``token``."""

    hosts: frozenset[str] = frozenset()
    """The names and addresses it answers to besides :data:`LOOPBACK_NAMES` and the address a
    connection came in on (``--host`` when it is a name, every ``--allow-host``), each as
    :func:`host_name` writes it."""
    token: str | None = None
    """The pairing token, when the server is shared; None keeps it to this machine."""
    links: tuple[str, ...] = ()
    """The pairing links to open on a phone, the first the one its QR code shows (a shared
    server's addresses on the network, :mod:`webapp.sharing`)."""

    @property
    def shared(self) -> bool:
        """Whether the server answers only paired devices."""
        return self.token is not None

    @property
    def cookie(self) -> str:
        """The name of the pairing cookie: a digest of the token in it, so that two shared
        servers on one machine (other ports, other data folders) keep cookies of their own."""
        digest = hashlib.sha256((self.token or "").encode()).hexdigest()[:12]
        return f"tabletop-pairing-{digest}"

    def paired(self, given: str | None) -> bool:
        """Whether ``given`` (a cookie's or an ``Authorization`` header's token) is the token,
        compared in constant time; always true on a server that is not shared."""
        if self.token is None:
            return True
        if given is None:
            return False
        return hmac.compare_digest(given.encode("utf-8"), self.token.encode("utf-8"))

    def allows_host(self, header: str | None, server: tuple[str, int] | None, scheme: str) -> bool:
        """Whether a request whose ``Host`` is ``header`` is for this server, which ``server``
        (the connection's own address and port, None when unknown) served."""
        found = split_host(header) if header is not None else None
        if found is None:
            return False
        name, port = found
        if server is not None:
            if (port if port is not None else _DEFAULT_PORTS.get(scheme, 80)) != server[1]:
                return False
            if _same_address(name, server[0]):
                return True  # an address, not a name: no rebinding can send it
        return name in LOOPBACK_NAMES or name in self.hosts

    @staticmethod
    def foreign(origin: str | None, fetch_site: str | None, host: str, scheme: str) -> str | None:
        """Why a request that changes something (or starts work) comes from another site, or
        None when it comes from this server's pages or from a client that is no browser.
        ``origin`` and ``fetch_site`` are its ``Origin`` and ``Sec-Fetch-Site`` headers,
        ``host`` its (allowed) ``Host``."""
        if fetch_site is not None and fetch_site.lower() not in ("same-origin", "none"):
            return f"a {fetch_site.lower()} request"
        if origin is None:
            return None
        own = split_host(host)
        parts = urlsplit(origin.strip().lower())
        theirs = split_host(parts.netloc) if parts.scheme == scheme else None
        default = _DEFAULT_PORTS.get(scheme, 80)
        if (
            own is None
            or theirs is None
            or (own[0], own[1] or default)
            != (
                theirs[0],
                theirs[1] or default,
            )
        ):
            return f"a request from the origin {origin[:100]!r}"
        return None


def load_token(folder: Path, *, renew: bool = False) -> str:
    """The pairing token kept in ``folder`` (:data:`TOKEN_FILE`), made the first time (or when
    ``renew``: every device paired before must pair again). The file is written whole (a
    temporary file renamed) and readable by its owner only; one readable by others is made
    private again. :class:`WebError` in one line when the folder cannot keep it or the file is
    damaged."""
    path = folder / TOKEN_FILE
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not renew and path.exists():
            return _read_token(path)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=".pairing-")
        try:
            with os.fdopen(descriptor, "w", encoding="ascii") as file:
                file.write(token + "\n")
            os.chmod(temporary, 0o600)  # mkstemp's mode already; said for the reader
            if renew:
                os.replace(temporary, path)
            else:
                try:
                    os.link(temporary, path)  # fails when another server made one meanwhile
                except FileExistsError:
                    return _read_token(path)
                except OSError:  # a file system without hard links
                    os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
        return token
    except OSError as error:
        raise WebError(
            f"cannot keep the pairing token in {os.fspath(path)!r}: {error.strerror or error}"
        ) from None


def _read_token(path: Path) -> str:
    mode = path.stat().st_mode
    if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
        os.chmod(path, 0o600)
    text = path.read_text(encoding="ascii", errors="replace").strip()
    if not _TOKEN.fullmatch(text):
        raise WebError(
            f"the pairing token file {os.fspath(path)!r} is damaged: delete it (or start with "
            "--new-token) and pair again"
        )
    return text
