"""``GET /api/pairing``: what the front page shows to pair a phone (the pairing links of a
shared server and the QR code of the first), from the server's :class:`~webapp.access.Access`.
The pairing link itself, ``/pair``, is the request guard's (:mod:`webapp.guard`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from webapp.access import Access
from webapp.sharing import qr_svg

__all__ = ["router"]

router = APIRouter()


@router.get("/api/pairing", tags=["server"], summary="how to pair a phone")
async def pairing(request: Request) -> dict[str, Any]:
    """`shared`: whether the server is shared with the network (`tabletop-web --host 0.0.0.0`),
    and then answers only paired devices. On a shared server, `links` are the pairing links to
    open on a phone (one per address of this machine on the network) and `svg` the QR code of
    the first (null when no address was found). Only a paired device gets this answer from a
    shared server: the links hold the pairing token."""
    access: Access = request.app.state.access
    if not access.shared:
        return {"shared": False, "links": [], "svg": None}
    links = list(access.links)
    return {"shared": True, "links": links, "svg": qr_svg(links[0]) if links else None}
