"""What users keep: the SQLite store survives a restart, migrates, prunes, and refuses damage."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from webapp import store as store_module
from webapp.errors import NotFound, WebError
from webapp.store import (
    SCHEMA_VERSION,
    DamagedStoreError,
    SavedGame,
    Store,
    TrainerAnswer,
)


def answer(loss: float = 1.5) -> TrainerAnswer:
    return TrainerAnswer(time.time(), "3,2,3,0,1", ("S03", "S17"), "S03", "the pile", loss, 2.5)


def test_a_new_file_is_made_at_the_schema_version(tmp_path: Path) -> None:
    store = Store(tmp_path / "sub" / "db.sqlite3")
    assert store.schema_version == SCHEMA_VERSION == len(store_module.MIGRATIONS)
    tables = {r[0] for r in sqlite3.connect(store.path).execute("SELECT name FROM sqlite_master")}
    assert {"games", "trainer", "decks"} <= tables


def test_what_is_kept_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    first = Store(path)
    game = first.new_game("express", {"seats": ["you", "greedy"], "options": {}}, 7)
    saved = first.save_game(
        SavedGame(
            game.id, game.game, game.setup, game.seed, (3, 1, 4), ({"loss": 1.0},), False,
            game.created, game.updated,
        )
    )  # fmt: skip
    first.add_trainer_answer(answer())
    deck = first.add_deck("mine", "T1 height 1\n###\n")
    first.close()
    again = Store(path)
    loaded = again.game(game.id)
    assert (loaded.actions, loaded.grades, loaded.seed) == ((3, 1, 4), ({"loss": 1.0},), 7)
    assert loaded.updated == saved.updated
    assert [a.chosen for a in again.trainer_answers()] == ["S03"]
    assert again.deck(deck.id).text == "T1 height 1\n###\n"


def test_a_damaged_row_is_refused_not_loaded(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    game = store.new_game("packing", {"seats": ["you", "optimal"], "options": {}}, 1)
    with sqlite3.connect(store.path) as raw:
        raw.execute("UPDATE games SET actions = '[1, 2, 3]' WHERE id = ?", (game.id,))
    with pytest.raises(DamagedStoreError, match="damaged"):
        store.game(game.id)
    assert store.games() == []  # the list leaves it out instead of failing
    with sqlite3.connect(store.path) as raw:
        raw.execute("UPDATE games SET actions = 'not json' WHERE id = ?", (game.id,))
    with pytest.raises(DamagedStoreError):
        store.game(game.id)


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    path.write_bytes(b"this is not a database, it is some other file" * 100)
    with pytest.raises(DamagedStoreError, match="damaged"):
        Store(path)


def test_a_file_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(WebError, match="newer"):
        Store(path)


def test_an_older_file_is_migrated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "db.sqlite3"
    Store(path).close()
    extra = ("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)",)
    monkeypatch.setattr(store_module, "MIGRATIONS", (*store_module.MIGRATIONS, extra))
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    migrated = Store(path)
    assert migrated.schema_version == SCHEMA_VERSION + 1
    names = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    assert "notes" in names


def test_pruning_bounds_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "KEEP_GAMES", 3)
    monkeypatch.setattr(store_module, "KEEP_TRAINER", 5)
    monkeypatch.setattr(store_module, "KEEP_DECKS", 2)
    store = Store(tmp_path / "db.sqlite3")
    games = [store.new_game("packing", {"seats": ["you", "optimal"]}, n) for n in range(6)]
    assert [g.seed for g in store.games()] == [5, 4, 3]
    with pytest.raises(NotFound):
        store.game(games[0].id)
    for k in range(9):
        store.add_trainer_answer(answer(loss=k))
    store.prune()
    assert [a.loss for a in store.trainer_answers()] == [4, 5, 6, 7, 8]
    for name in "abc":
        store.add_deck(name, "T1 height 1\n#\n")
    assert sorted(d.name for d in store.decks()) == ["b", "c"]
    # An unfinished game untouched for longer than STALE_DAYS goes; a fresh one stays.
    store.prune(now=time.time() + (store_module.STALE_DAYS + 1) * 86_400)
    assert store.games() == []


def test_version_1_decks_sharing_a_name_keep_every_deck_under_distinct_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "db.sqlite3"
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:1])
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 1)
    old = Store(path)
    with sqlite3.connect(path) as raw:  # version 1 let one name be saved twice
        for deck_id, name, created in (("a1", "mine", 1.0), ("b2", "Mine", 2.0), ("c3", "x", 3.0)):
            raw.execute(
                "INSERT INTO decks VALUES (?, ?, 'T1 height 1\n#\n', ?)", (deck_id, name, created)
            )
    old.close()
    monkeypatch.undo()
    migrated = Store(path)
    assert migrated.schema_version == SCHEMA_VERSION == 2
    assert {d.id: d.name for d in migrated.decks()} == {"a1": "mine (a1)", "b2": "Mine", "c3": "x"}
    with pytest.raises(WebError, match="saved already"):
        migrated.add_deck("MINE", "T1 height 1\n#\n")
