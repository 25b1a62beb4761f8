"""Words in the library's reports that both games share.

>>> plural(1, "deal"), plural(3, "round"), plural(2, "entry"), plural(1_200, "truck")
('1 deal', '3 rounds', '2 entries', '1,200 trucks')
"""

from __future__ import annotations

__all__ = ["plural", "plural_noun"]


def plural_noun(noun: str) -> str:
    """``deal`` → ``deals``, ``entry`` → ``entries``: the nouns the reports count."""
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "o", "u"):
        return noun[:-1] + "ies"
    return noun + "s"


def plural(count: int, noun: str) -> str:
    """``count`` (with thousands separators) and ``noun`` in the right number."""
    return f"{count:,} {noun if count == 1 else plural_noun(noun)}"
