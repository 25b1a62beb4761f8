"""Sharing the server with a phone: the addresses a device on the network opens, the pairing
links, their QR code (in the terminal and on the front page), and what ``tabletop-web`` prints
when it starts.

:func:`share` is what ``tabletop-web`` calls once it listens: it reads (or makes) the pairing
token of the data folder (:func:`webapp.access.load_token`) when the server is shared, and
returns the server's :class:`~webapp.access.Access` with the lines to print. The QR codes are
drawn by ``segno`` (the ``web`` extra; pure Python), imported where they are drawn.
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import socket
import sys
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TextIO
from urllib.parse import quote

from arena.extras import import_extra
from webapp.access import TOKEN_FILE, Access, host_name, is_loopback, load_token

__all__ = ["network_addresses", "pairing_link", "qr_svg", "share", "terminal_qr"]

# Documentation addresses (RFC 5737, RFC 3849): "connecting" a UDP socket to one sends nothing,
# it only asks the system which of this machine's addresses its route leaves from.
_PROBES = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}


def _usable(address: str) -> bool:
    """An address a phone on the network can open: not loopback, link-local (it would need the
    interface's name), multicast or unspecified."""
    try:
        found = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return not (
        found.is_loopback or found.is_link_local or found.is_multicast or found.is_unspecified
    )


def _machine_addresses(family: socket.AddressFamily) -> list[str]:
    """This machine's addresses of ``family``: the one its default route leaves from, then the
    ones its host name resolves to."""
    found = []
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((_PROBES[family], 9))
            found.append(str(probe.getsockname()[0]))
    except OSError:  # no route: offline, or no address of this family
        pass
    try:
        for *_, address in socket.getaddrinfo(socket.gethostname(), None, family):
            found.append(str(address[0]))
    except OSError:
        pass
    return [address for address in found if _usable(address)]


def network_addresses(host: str) -> list[str]:
    """The addresses a device on the network opens to reach a server listening on ``host``:
    this machine's own for a wildcard (``0.0.0.0`` its IPv4 ones, ``::`` its IPv6 ones too),
    else ``host`` itself. The first is the likeliest (the default route's)."""
    try:
        listening = ipaddress.ip_address(host.strip("[]")) if host else None
    except ValueError:
        return [host]  # a name: the one the user gave
    if listening is not None and not listening.is_unspecified:
        return [str(listening)]
    families = [socket.AF_INET]
    if listening is None or listening.version == 6:
        families.append(socket.AF_INET6)
    found: list[str] = []
    for family in families:
        found.extend(a for a in _machine_addresses(family) if a not in found)
    return found


def pairing_link(address: str, port: int, token: str) -> str:
    """The link that pairs a device: ``http://ADDRESS:PORT/pair?token=TOKEN``."""
    shown = f"[{address}]" if ":" in address else address
    return f"http://{shown}:{port}/pair?token={quote(token, safe='')}"


def _wildcard(host: str) -> bool:
    try:
        return not host or ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


# A pair of QR modules stacked in one character, (top dark, bottom dark): the light modules are
# drawn, so the code shows on a dark terminal (and, with colours, on any).
_HALVES = {(False, False): "█", (False, True): "▀", (True, False): "▄", (True, True): " "}


def terminal_qr(text: str, *, colour: bool) -> list[str]:
    """The QR code of ``text`` as lines of text, two rows of modules a line; ``colour`` paints
    it white on black (ANSI) so it scans on a light terminal too."""
    segno = import_extra("segno", "web")
    rows = [[bool(m) for m in row] for row in segno.make(text, error="m").matrix_iter(border=4)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2]):
        line = "".join(_HALVES[pair] for pair in zip(top, bottom))
        lines.append(f"\033[97;40m{line}\033[0m" if colour else line)
    return lines


@lru_cache(maxsize=4)
def qr_svg(text: str) -> str:
    """The QR code of ``text`` as an SVG document (black on white, sized by its viewBox), for
    the front page."""
    segno = import_extra("segno", "web")
    out = io.BytesIO()
    segno.make(text, error="m").save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=True,
        border=4,
        omitsize=True,
        dark="#000",
        light="#fff",
        title="the pairing link as a QR code",
        svgclass="qr",
    )
    return out.getvalue().decode("utf-8")


def _can_show(stream: TextIO, lines: Iterable[str]) -> bool:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "".join(lines).encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def share(
    host: str,
    port: int,
    *,
    folder: Path,
    allowed: Sequence[str] = (),
    new_token: bool = False,
    stream: TextIO | None = None,
) -> tuple[Access, list[str]]:
    """The :class:`~webapp.access.Access` of a server listening on ``host`` and ``port`` that
    keeps its data in ``folder``, and the lines ``tabletop-web`` prints about it on ``stream``
    (default stdout; a QR code is drawn when it can show one, in colour on a terminal).

    ``allowed`` are the names of ``--allow-host`` (:func:`~webapp.access.host_name` checked
    them); ``new_token`` replaces the pairing token. A loopback ``host`` keeps the server to
    this machine: no token, no pairing."""
    out = sys.stdout if stream is None else stream
    hosts = set(allowed)
    if not _wildcard(host):
        with contextlib.suppress(ValueError):  # a name no browser sends as a Host is no use
            hosts.add(host_name(host))
    lines = []
    if is_loopback(host):
        if new_token:
            load_token(folder, renew=True)
            lines.append(
                "tabletop-web: a new pairing token: devices paired before must pair again "
                "(it matters once the server is shared, e.g. --host 0.0.0.0)"
            )
        return Access(hosts=frozenset(hosts)), lines
    token = load_token(folder, renew=new_token)
    addresses = network_addresses(host)
    addresses += [name for name in allowed if name not in addresses]
    links = tuple(pairing_link(address, port, token) for address in addresses)
    lines.append(
        "tabletop-web: shared with the network: it answers only the devices paired with it "
        "(this machine's browser too)"
    )
    if links:
        lines.append(
            "tabletop-web: to pair a phone on the same network, scan this QR code with its "
            "camera or open the link:"
        )
        drawing = terminal_qr(links[0], colour=out.isatty())
        if _can_show(out, drawing):
            lines.extend(drawing)
        lines.append(f"  {links[0]}")
        lines.extend(f"  {link} (another address of this machine)" for link in links[1:])
    else:
        lines.append(
            "tabletop-web: no network address of this machine was found: connect it to the "
            "phone's network (Wi-Fi) and restart, or name it with --allow-host NAME"
        )
    if _wildcard(host):
        local = "::1" if ":" in host else "127.0.0.1"
        lines.append(f"tabletop-web: on this machine: {pairing_link(local, port, token)}")
    lines.append(
        "tabletop-web: a paired device stays paired after a restart; --new-token unpairs them "
        f"all (the token is kept in {folder / TOKEN_FILE})"
    )
    return Access(hosts=frozenset(hosts), token=token, links=links), lines
