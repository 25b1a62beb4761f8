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
    "BUSY_SECONDS",
    "DamagedStoreError",
    "DeckNameTaken",
    "SavedDeck",
    "SavedGame",
    "Store",
    "StoreUnavailable",
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
    # version 2: a deck's name is unique (whatever its case); of decks that shared a name, the
    # newest keeps it and each older one takes its id after it, so none is lost.
    (
        """UPDATE decks SET name = name || ' (' || id || ')' WHERE EXISTS (
            SELECT 1 FROM decks AS newer
            WHERE newer.name = decks.name COLLATE NOCASE AND newer.id != decks.id
            AND (newer.created > decks.created
                 OR (newer.created = decks.created AND newer.id > decks.id))
        )""",
        "CREATE UNIQUE INDEX decks_name ON decks (name COLLATE NOCASE)",
    ),
)
"""The statements that take a file from version ``i`` to ``i + 1``, for each ``i``."""

SCHEMA_VERSION = len(MIGRATIONS)


class DamagedStoreError(WebError):
    """The database file, or one saved row, is damaged: it is refused, not loaded."""

    status = 409


class StoreUnavailable(WebError):
    """The database cannot be read or written now (another program holds it locked, it is
    read-only, the disk is full): nothing was changed, and the same request may be tried
    again once the cause is gone."""

    status = 503


class DeckNameTaken(WebError):
    """A deck of that name is saved already (names are unique whatever their case)."""

    status = 409


BUSY_SECONDS = 2.0
"""How long a write waits for another program's lock on the file before it gives up."""

#: SQLite's primary result codes (``sqlite3.Error.sqlite_errorname``, without an extended
#: suffix) that are not damage: the file is fine, but cannot be used now.
_LOCKED = ("SQLITE_BUSY", "SQLITE_LOCKED")
_READ_ONLY = ("SQLITE_READONLY", "SQLITE_PERM", "SQLITE_AUTH")
_CANNOT_OPEN = ("SQLITE_CANTOPEN",)
_FULL = ("SQLITE_FULL",)
_DAMAGED = ("SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_FORMAT")


def _unavailable(error: sqlite3.Error, path: Path, *, opening: bool = False) -> WebError:
    """The one line saying why the database at ``path`` cannot be used: at start (``opening``)
    what to do before starting again; later, that nothing was saved and to try again."""
    code = (getattr(error, "sqlite_errorname", None) or "").split("_")
    name = "_".join(code[:2])
    shown = repr(os.fspath(path))
    if name in _DAMAGED or (not name and isinstance(error, sqlite3.DatabaseError)):
        return DamagedStoreError(
            f"the database {shown} is damaged ({error}): move it away and a new one is started"
        )
    if name in _LOCKED:
        why = "another program holds it locked"
        fix = "close that program (or wait for it), then start tabletop-web again"
    elif name in _READ_ONLY:
        why = "it cannot be written: the file or its folder is read-only"
        fix = "make both writable, or start tabletop-web with --data and a folder it can write"
    elif name in _CANNOT_OPEN:
        why = "it cannot be opened or created: its folder is missing or read-only"
        fix = "start tabletop-web with --data and a folder it can write"
    elif name in _FULL:
        why = "the disk is full"
        fix = "make room, then start tabletop-web again"
    else:
        why = str(error)
        fix = "start tabletop-web again once that is mended"
    if opening:
        return StoreUnavailable(f"the database {shown} cannot be used: {why}; {fix}")
    return StoreUnavailable(
        f"the database cannot be used now ({why}): nothing was saved; try again"
    )


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


def new_game_id() -> str:
    """A new game's id: 16 random hexadecimal digits."""
    return uuid.uuid4().hex[:16]


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
    """The SQLite file of one server (thread-safe: one connection behind a lock).

    Opening it checks that it can be written: a file that another program holds locked, or
    that is read-only (the file or its folder), is refused at once in one line
    (:class:`StoreUnavailable`), not at the first move. Later, a write that cannot be made
    (another program holds the file for longer than :data:`BUSY_SECONDS`, the disk is full)
    raises :class:`StoreUnavailable` and changes nothing: a transaction is all or nothing."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreUnavailable(
                f"cannot make the folder of the database {os.fspath(self.path)!r}: {error.strerror}"
            ) from None
        try:
            self._db = sqlite3.connect(
                self.path, timeout=BUSY_SECONDS, check_same_thread=False, isolation_level=None
            )
        except sqlite3.Error as error:
            raise _unavailable(error, self.path, opening=True) from None
        try:
            self._check_and_migrate()
            self._check_writable()
        except sqlite3.Error as error:
            self._db.close()
            raise _unavailable(error, self.path, opening=True) from None
        except WebError:
            self._db.close()
            raise

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
            raise WebError(
                f"the database {os.fspath(self.path)!r} has schema version {version}, made by a "
                f"newer tabletop-web (this one knows up to {SCHEMA_VERSION})"
            )
        db.execute("PRAGMA journal_mode=WAL")
        for step in range(version, SCHEMA_VERSION):
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[step]:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {step + 1}")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _check_writable(self) -> None:
        """Write the schema version over itself: a read-only file or folder, or a lock held by
        another program, shows now rather than at the first move."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            db.execute("ROLLBACK")
            raise
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
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise _unavailable(error, self.path) from None
            try:
                yield self._db
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                self._rollback()
                raise _unavailable(error, self.path) from None
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:  # SQLite rolled back already (a full disk, an I/O error)
                pass

    def _run(self, sql: str, parameters: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, parameters).fetchall()
            except sqlite3.Error as error:
                raise _unavailable(error, self.path) from None

    # --- games -----------------------------------------------------------------------------

    def new_game(self, game: str, setup: dict[str, Any], seed: int) -> SavedGame:
        """A new game with no action yet (kept at once)."""
        now = time.time()
        return self.add_game(SavedGame(new_game_id(), game, setup, seed, (), (), False, now, now))

    def add_game(self, saved: SavedGame) -> SavedGame:
        """Keep a new game as it is, its actions so far included, in one write."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    saved.id,
                    saved.game,
                    json.dumps(saved.setup),
                    saved.seed,
                    json.dumps(list(saved.actions)),
                    json.dumps(list(saved.grades)),
                    int(saved.finished),
                    saved.created,
                    saved.updated,
                    saved.checksum(),
                ),
            )
            _prune(db, time.time())
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

    def add_deck(self, name: str, text: str, *, replace: bool = False) -> SavedDeck:
        """Keep a deck as ``name``. A deck of that name (whatever its case) is
        :class:`DeckNameTaken`, unless ``replace``: then its text is replaced (its id stays)."""
        deck = SavedDeck(uuid.uuid4().hex[:16], name, text, time.time())
        with self._transaction() as db:
            taken = db.execute(
                "SELECT id FROM decks WHERE name = ? COLLATE NOCASE", (name,)
            ).fetchone()
            if taken is not None and not replace:
                raise DeckNameTaken(
                    f"a deck named {name!r} is saved already: choose another name, or replace it"
                )
            if taken is not None:
                deck = SavedDeck(taken[0], name, text, deck.created)
                db.execute(
                    "UPDATE decks SET name = ?, text = ?, created = ? WHERE id = ?",
                    (name, text, deck.created, deck.id),
                )
            else:
                db.execute(
                    "INSERT INTO decks VALUES (?, ?, ?, ?)", (deck.id, name, text, deck.created)
                )
            _prune(db, deck.created)
        return deck

    def rename_deck(self, deck_id: str, name: str) -> SavedDeck:
        """Give the saved deck ``deck_id`` the name ``name``: :class:`NotFound`, or
        :class:`DeckNameTaken` when another deck has that name."""
        with self._transaction() as db:
            rows = db.execute(
                "SELECT id, name, text, created FROM decks WHERE id = ?", (deck_id,)
            ).fetchall()
            if not rows:
                raise NotFound(f"no saved deck {deck_id!r}")
            other = db.execute(
                "SELECT id FROM decks WHERE name = ? COLLATE NOCASE AND id != ?", (name, deck_id)
            ).fetchone()
            if other is not None:
                raise DeckNameTaken(f"a deck named {name!r} is saved already: choose another name")
            db.execute("UPDATE decks SET name = ? WHERE id = ?", (name, deck_id))
        found = SavedDeck(*rows[0])
        return SavedDeck(found.id, name, found.text, found.created)

    def delete_deck(self, deck_id: str) -> None:
        """Forget the saved deck ``deck_id`` (:class:`NotFound` when there is none)."""
        with self._transaction() as db:
            if not db.execute("DELETE FROM decks WHERE id = ?", (deck_id,)).rowcount:
                raise NotFound(f"no saved deck {deck_id!r}")

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
        with self._transaction() as db:
            _prune(db, time.time() if now is None else now)


def _prune(db: sqlite3.Connection, now: float) -> None:
    """The pruning rule, inside the caller's transaction (a new game or deck and the pruning
    it causes are one write: both happen, or neither)."""
    db.execute("DELETE FROM games WHERE finished = 0 AND updated < ?", (now - STALE_DAYS * 86_400,))
    db.execute(
        "DELETE FROM games WHERE id NOT IN (SELECT id FROM games ORDER BY updated DESC LIMIT ?)",
        (KEEP_GAMES,),
    )
    db.execute(
        "DELETE FROM trainer WHERE id NOT IN (SELECT id FROM trainer ORDER BY id DESC LIMIT ?)",
        (KEEP_TRAINER,),
    )
    db.execute(
        "DELETE FROM decks WHERE id NOT IN (SELECT id FROM decks ORDER BY created DESC LIMIT ?)",
        (KEEP_DECKS,),
    )
