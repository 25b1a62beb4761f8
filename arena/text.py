"""Words in the library's reports that both games share.

>>> plural(1, "deal"), plural(3, "round")
('1 deal', '3 rounds')
"""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, noun: str) -> str:
    """``count`` with ``noun`` in the right number (every noun the reports count adds an s)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
