"""Who may use the server: the ``Host`` names it answers to and the origin its state-changing
requests must come from.

A server on ``127.0.0.1`` (the default) is this machine's alone: it answers to ``127.0.0.1``,
``localhost`` and ``[::1]`` on its port, and to nothing else. That closes DNS rebinding: a web
page whose name an attacker rebinds to ``127.0.0.1`` reaches the server with its own name in
``Host``, and is refused. An address typed as such (``http://192.168.1.20:8000``) names this
machine only when it is the address the connection came in on, which a rebound name never is:
so a server shared with ``--host 0.0.0.0`` answers to each of its own addresses, and to the
names ``--allow-host`` adds (``mybox.local``).

Nothing here needs an extra: :mod:`webapp.guard` applies it to every request.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = [
    "LOOPBACK_NAMES",
    "Access",
    "host_name",
    "split_host",
]

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
"""The names every server answers to (on its own port): this machine's."""

_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


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
    """What a server lets in: by default this machine's browser and clients only."""

    hosts: frozenset[str] = frozenset()
    """The names and addresses it answers to besides :data:`LOOPBACK_NAMES` and the address a
    connection came in on (``--host`` when it is a name, every ``--allow-host``), each as
    :func:`host_name` writes it."""

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
