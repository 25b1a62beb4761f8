"""What users keep: practice games, grab-trainer answers and decks, in one SQLite file.

The file is ``companion.sqlite3`` in the platform's user data folder (``platformdirs``; on
Linux ``~/.local/share/tabletop-solvers``), or in ``$TABLETOP_WEB_DATA`` when that is set, or
in the folder ``tabletop-web --data DIR`` names. It carries a schema version
(``PRAGMA user_version``): an older file is migrated step by step (:data:`MIGRATIONS`), a newer
one is refused.

- A game is kept as data, never as a pickle: its setup (the game, the seats, the options), its
  seed and every action taken so far (chance outcomes included, as indices), from which the
  ``arena`` game replays exactly (:mod:`webapp.practice`). Each row carries a SHA-256 of its
  contents: a row whose bytes were damaged is refused, never replayed into another game.
- A page reload or a server restart loses nothing: every action is written before it is
  answered.
- **Pruning** (:meth:`Store.prune`, run when the server starts and after every new game):
  at most :data:`KEEP_GAMES` games (the least recently played go first) and no unfinished game
  untouched for :data:`STALE_DAYS` days; at most :data:`KEEP_TRAINER` trainer answers and
  :data:`KEEP_DECKS` decks (the oldest go first). So the file cannot grow without bound.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webapp.errors import NotFound, WebError

__all__ = [
    "FILE_NAME",
    "KEEP_DECKS",
    "KEEP_GAMES",
    "KEEP_TRAINER",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "STALE_DAYS",
    "DamagedStoreError",
    "SavedDeck",
    "SavedGame",
    "Store",
    "TrainerAnswer",
]

FILE_NAME = "companion.sqlite3"
KEEP_GAMES = 500
STALE_DAYS = 90
KEEP_TRAINER = 20_000
KEEP_DECKS = 200

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # version 1
    (
        """CREATE TABLE games (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            setup TEXT NOT NULL,
            seed INTEGER NOT NULL,
            actions TEXT NOT NULL,
            grades TEXT NOT NULL,
            finished INTEGER NOT NULL,
            created REAL NOT NULL,
            updated REAL NOT NULL,
            checksum TEXT NOT NULL
        )""",
        "CREATE INDEX games_updated ON games (updated)",
        """CREATE TABLE trainer (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            created REAL NOT NULL,
            roll TEXT NOT NULL,
            revealed TEXT NOT NULL,
            chosen TEXT NOT NULL,
            best TEXT NOT NULL,
            loss REAL NOT NULL,
            seconds REAL NOT NULL
        )""",
        """CREATE TABLE decks (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            text TEXT NOT NULL,
            created REAL NOT NULL
        )""",
    ),
)
"""The statements that take a file from version ``i`` to ``i + 1``, for each ``i``."""

SCHEMA_VERSION = len(MIGRATIONS)


class DamagedStoreError(WebError):
    """The database file, or one saved row, is damaged: it is refused, not loaded."""

    status = 409


@dataclass(frozen=True)
class SavedGame:
    """One practice game as it is kept: enough to replay it exactly."""

    id: str
    game: str
    setup: dict[str, Any]
    seed: int
    actions: tuple[int, ...]
    grades: tuple[dict[str, Any], ...]
    finished: bool
    created: float
    updated: float

    def __hash__(self) -> int:
        # The setup and the grades are JSON objects (dicts): hashed through their canonical text,
        # worked out at each call (a string's hash is not the same in every process).
        return hash((self.id, self.checksum(), self.created, self.updated))

    def checksum(self) -> str:
        """The SHA-256 of the game's contents (kept in its row: a row that does not match it is
        damaged)."""
        return _digest(
            [self.id, self.game, self.setup, self.seed, list(self.actions), list(self.grades)]
            + [self.finished]
        )


@dataclass(frozen=True)
class TrainerAnswer:
    """One answer of the grab trainer: the roll and trucks shown, the choice, its cost, the
    time taken."""

    created: float
    roll: str
    revealed: tuple[str, ...]
    chosen: str
    best: str
    loss: float
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "created": self.created,
            "roll": self.roll,
            "revealed": list(self.revealed),
            "chosen": self.chosen,
            "best": self.best,
            "loss": self.loss,
            "seconds": self.seconds,
        }


@dataclass(frozen=True)
class SavedDeck:
    """A deck file a user uploaded or drew, kept by name."""

    id: str
    name: str
    text: str
    created: float

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "text": self.text, "created": self.created}


def _digest(value: object) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_folder() -> Path:
    """``$TABLETOP_WEB_DATA``, or the platform's user data folder for the distribution."""
    import platformdirs

    from arena.extras import DISTRIBUTION

    given = os.environ.get("TABLETOP_WEB_DATA")
    if given:
        return Path(given)
    return Path(platformdirs.user_data_dir(DISTRIBUTION, appauthor=False))


class Store:
    """The SQLite file of one server (thread-safe: one connection behind a lock)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise WebError(f"cannot open the database {os.fspath(self.path)!r}: {error}") from None
        try:
            self._check_and_migrate()
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise DamagedStoreError(
                f"the database {os.fspath(self.path)!r} is damaged ({error}): move it away and "
                "a new one is started"
            ) from None

    @classmethod
    def default(cls) -> Store:
        """The store in ``default_folder``."""
        return cls.at_folder(default_folder())

    @classmethod
    def at_folder(cls, folder: Path) -> Store:
        return cls(folder / FILE_NAME)

    def _check_and_migrate(self) -> None:
        db = self._db
        found = db.execute("PRAGMA quick_check").fetchone()[0]
        if found != "ok":
            raise sqlite3.DatabaseError(found)
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            db.close()
            raise WebError(
                f"the database {os.fspath(self.path)!r} has schema version {version}, made by a "
                f"newer tabletop-web (this one knows up to {SCHEMA_VERSION})"
            )
        db.execute("PRAGMA journal_mode=WAL")
        for step in range(version, SCHEMA_VERSION):
            db.execute("BEGIN IMMEDIATE")
            for statement in MIGRATIONS[step]:
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {step + 1}")
            db.execute("COMMIT")

    @property
    def schema_version(self) -> int:
        return int(self._run("PRAGMA user_version")[0][0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _run(self, sql: str, parameters: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, parameters).fetchall()

    # --- games -----------------------------------------------------------------------------

    def new_game(self, game: str, setup: dict[str, Any], seed: int) -> SavedGame:
        now = time.time()
        saved = SavedGame(uuid.uuid4().hex[:16], game, setup, seed, (), (), False, now, now)
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    saved.id,
                    game,
                    json.dumps(setup),
                    seed,
                    "[]",
                    "[]",
                    0,
                    now,
                    now,
                    saved.checksum(),
                ),
            )
        self.prune()
        return saved

    def save_game(self, saved: SavedGame) -> SavedGame:
        """Write the game's actions, grades and whether it is over."""
        updated = SavedGame(
            saved.id,
            saved.game,
            saved.setup,
            saved.seed,
            saved.actions,
            saved.grades,
            saved.finished,
            saved.created,
            time.time(),
        )
        with self._transaction() as db:
            changed = db.execute(
                "UPDATE games SET actions = ?, grades = ?, finished = ?, updated = ?, "
                "checksum = ? WHERE id = ?",
                (
                    json.dumps(list(updated.actions)),
                    json.dumps(list(updated.grades)),
                    int(updated.finished),
                    updated.updated,
                    updated.checksum(),
                    updated.id,
                ),
            ).rowcount
        if not changed:
            raise NotFound(f"no saved game {saved.id!r} (it may have been pruned)")
        return updated

    def game(self, game_id: str) -> SavedGame:
        """The game kept as ``game_id``: :class:`NotFound`, or :class:`DamagedStoreError`
        when its row does not match its checksum."""
        rows = self._run("SELECT * FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise NotFound(f"no saved game {game_id!r} (it may have been pruned)")
        return self._game_of(rows[0])

    def _game_of(self, row: tuple[Any, ...]) -> SavedGame:
        game_id = row[0]
        try:
            saved = SavedGame(
                id=game_id,
                game=row[1],
                setup=json.loads(row[2]),
                seed=int(row[3]),
                actions=tuple(int(a) for a in json.loads(row[4])),
                grades=tuple(json.loads(row[5])),
                finished=bool(row[6]),
                created=float(row[7]),
                updated=float(row[8]),
            )
        except (ValueError, TypeError) as error:
            raise DamagedStoreError(f"saved game {game_id!r} is damaged ({error})") from None
        if saved.checksum() != row[9]:
            raise DamagedStoreError(
                f"saved game {game_id!r} is damaged (its checksum does not match): it is not loaded"
            )
        return saved

    def games(self, limit: int = 50) -> list[SavedGame]:
        """The most recently played games, newest first (damaged rows left out)."""
        found = []
        for row in self._run("SELECT * FROM games ORDER BY updated DESC LIMIT ?", (limit,)):
            try:
                found.append(self._game_of(row))
            except DamagedStoreError:
                continue
        return found

    # --- the grab trainer ------------------------------------------------------------------

    def add_trainer_answer(self, answer: TrainerAnswer) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO trainer (created, roll, revealed, chosen, best, loss, seconds) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    answer.created,
                    answer.roll,
                    ",".join(answer.revealed),
                    answer.chosen,
                    answer.best,
                    answer.loss,
                    answer.seconds,
                ),
            )

    def trainer_answers(self, limit: int = 1000) -> list[TrainerAnswer]:
        """The latest trainer answers, oldest first."""
        rows = self._run(
            "SELECT created, roll, revealed, chosen, best, loss, seconds FROM trainer "
            "ORDER BY id DESC LIMIT ?",
            (limit,),
        )
        return [
            TrainerAnswer(
                r[0], r[1], tuple(r[2].split(",")) if r[2] else (), r[3], r[4], r[5], r[6]
            )
            for r in reversed(rows)
        ]

    # --- decks -----------------------------------------------------------------------------

    def add_deck(self, name: str, text: str) -> SavedDeck:
        deck = SavedDeck(uuid.uuid4().hex[:16], name, text, time.time())
        with self._transaction() as db:
            db.execute("INSERT INTO decks VALUES (?, ?, ?, ?)", (deck.id, name, text, deck.created))
        self.prune()
        return deck

    def decks(self) -> list[SavedDeck]:
        rows = self._run("SELECT id, name, text, created FROM decks ORDER BY created DESC")
        return [SavedDeck(*row) for row in rows]

    def deck(self, deck_id: str) -> SavedDeck:
        rows = self._run("SELECT id, name, text, created FROM decks WHERE id = ?", (deck_id,))
        if not rows:
            raise NotFound(f"no saved deck {deck_id!r}")
        return SavedDeck(*rows[0])

    # --- pruning ---------------------------------------------------------------------------

    def prune(self, *, now: float | None = None) -> None:
        """Apply the pruning rule of the module's docstring."""
        now = time.time() if now is None else now
        with self._transaction() as db:
            db.execute(
                "DELETE FROM games WHERE finished = 0 AND updated < ?",
                (now - STALE_DAYS * 86_400,),
            )
            db.execute(
                "DELETE FROM games WHERE id NOT IN "
                "(SELECT id FROM games ORDER BY updated DESC LIMIT ?)",
                (KEEP_GAMES,),
            )
            db.execute(
                "DELETE FROM trainer WHERE id NOT IN "
                "(SELECT id FROM trainer ORDER BY id DESC LIMIT ?)",
                (KEEP_TRAINER,),
            )
            db.execute(
                "DELETE FROM decks WHERE id NOT IN "
                "(SELECT id FROM decks ORDER BY created DESC LIMIT ?)",
                (KEEP_DECKS,),
            )
