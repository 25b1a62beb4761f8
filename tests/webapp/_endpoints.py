"""What the web tests share: every endpoint of the API that is not a ``GET``, read from its
schema, and the header a JSON body is sent with."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

JSON = {"Content-Type": "application/json"}

#: The base URL of the tests' clients: this machine's own address, the only kind of Host a
#: server on 127.0.0.1 answers to.
LOCAL = "http://127.0.0.1:8000"


def body_endpoints(client: TestClient) -> list[tuple[str, str]]:
    """Every (method, path) of the API that is not a GET (its schema lists every endpoint), a
    path's parameters filled."""
    paths = client.get("/openapi.json").json()["paths"]
    return [
        (method.upper(), re.sub(r"\{[^}]+\}", "x", path))
        for path, operations in paths.items()
        for method in operations
        if method not in ("get", "head")
    ]
