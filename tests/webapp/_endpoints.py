"""What the web tests share: every endpoint of the API that is not a ``GET``, read from its
schema, and the header a JSON body is sent with."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from httpx import Response

JSON = {"Content-Type": "application/json"}

#: The base URL of the tests' clients: this machine's own address, the only kind of Host a
#: server on 127.0.0.1 answers to.
LOCAL = "http://127.0.0.1:8000"


#: What a path parameter is filled with: an item that does not exist.
UNKNOWN = "no-such-item"


def body_endpoints(client: TestClient) -> list[tuple[str, str]]:
    """Every (method, path) of the API that is not a GET (its schema lists every endpoint), a
    path's parameters filled with :data:`UNKNOWN`."""
    paths = client.get("/openapi.json").json()["paths"]
    return [
        (method.upper(), re.sub(r"\{[^}]+\}", UNKNOWN, path))
        for path, operations in paths.items()
        for method in operations
        if method not in ("get", "head")
    ]


def unknown_item(path: str, response: Response) -> bool:
    """Whether ``response`` says that the item ``path`` names does not exist (HTTP 404, one
    line): an endpoint about one item (a saved deck, a practice game) may look it up before it
    reads the body, so the body's checks are not reached there."""
    return f"/{UNKNOWN}" in path and response.status_code == 404 and "\n" not in response.text
