"""The JSON API without a browser: the same answers as the command line's --json (the contract
test), errors as one line with a 4xx and never a 500, the limits, the documented schema and the
headers every answer carries."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import express.cli
import packing.cli
from webapp import contract
from webapp.app import CONTENT_SECURITY_POLICY, create_app
from webapp.errors import Busy, OverTime
from webapp.store import Store
from webapp.work import Runner

JSON = {"Content-Type": "application/json"}


def without_times(value: Any) -> Any:
    """``value`` without the fields that say how long it took (they differ between runs)."""
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items() if k not in ("wall_time", "seconds")}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


def cli_json(capsys: pytest.CaptureFixture[str], game: str, argv: list[str]) -> tuple[int, Any]:
    """What ``game ARGV --json`` prints, and its exit status."""
    main = packing.cli.main if game == "packing" else express.cli.main
    capsys.readouterr()
    status = main([*argv, "--json"])
    return status, json.loads(capsys.readouterr().out)


# Each question as a request body and, written by hand, as the command line: the contract test
# does not read webapp.contract's translation, it checks it.
QUESTIONS: list[tuple[str, str, dict[str, Any], list[str]]] = [
    ("packing", "best", {"roll": "3,2,3,0,1"}, ["best", "--roll", "3,2,3,0,1"]),
    ("packing", "best", {"roll": [3, 2, 3, 0, 1], "top": 3}, ["best", "--roll", "3,2,3,0,1", "--top", "3"]),
    ("packing", "best", {"cargo": [6, 0, 0, 0, 3]}, ["best", "--cargo", "6,0,0,0,3"]),
    (
        "packing",
        "solve",
        {"roll": "3,2,3,0,1", "truck": "#####/###../#####", "height": 3},
        ["solve", "--roll", "3,2,3,0,1", "--truck", "#####/###../#####", "--height", "3"],
    ),
    (
        "packing",
        "solve",
        {"cargo": [2, 2, 2, 2, 2], "truck": "######/######/######/######", "height": 5},
        ["solve", "--cargo", "2,2,2,2,2", "--truck", "######/######/######/######", "--height", "5"],
    ),
    (
        "packing",
        "grab",
        {"roll": [3, 2, 3, 0, 1], "revealed": ["S03", "S17"]},
        ["grab", "--roll", "3,2,3,0,1", "--revealed", "S03,S17"],
    ),
    (
        "packing",
        "grab",
        {"roll": "1,0,1,0,2", "revealed": "S01", "pile": "S02,S03,S04"},
        ["grab", "--roll", "1,0,1,0,2", "--revealed", "S01", "--pile", "S02,S03,S04"],
    ),
    ("packing", "stats", {"roll": "3,2,3,0,1"}, ["stats", "--roll", "3,2,3,0,1"]),
    ("express", "best", {"length": 5}, ["best", "--length", "5"]),
    (
        "express",
        "best",
        {"length": 3, "cards": "R4|B4,B4|G4,G4|Y4,Y2|Y2", "count": True, "no_bonus": True},
        ["best", "--length", "3", "--cards", "R4|B4,B4|G4,G4|Y4,Y2|Y2", "--count", "--no-bonus"],
    ),
    (
        "express",
        "score",
        {"train": ["R4|B4,B4|G4", "B2|B2,~R3|G3"], "start_player": 1},
        ["score", "--train", "R4|B4,B4|G4", "--train", "B2|B2,~R3|G3", "--start-player", "1"],
    ),
    ("express", "cabooses", {}, ["cabooses"]),
    ("express", "solve", {"seed": 4}, ["solve", "--seed", "4"]),
    (
        "express",
        "advise",
        {
            "players": 2,
            "seat": 1,
            "round": 5,
            "hand": ["R2|R2", "G2|G2", "B2|B3"],
            "train": ["B4|G4,G3|B3,B3|Y3,~,G2|G3", "R3|G3,G3|R3,Y3|G3,R3|Y3"],
            "seen": "B3|Y3,G3|B3,R2|R2",
            "caboose": "Lightweight",
            "worlds": 8,
            "seed": 2,
        },
        [
            "advise", "--players", "2", "--seat", "1", "--round", "5",
            "--hand", "R2|R2,G2|G2,B2|B3",
            "--train", "B4|G4,G3|B3,B3|Y3,~,G2|G3", "--train", "R3|G3,G3|R3,Y3|G3,R3|Y3",
            "--seen", "B3|Y3,G3|B3,R2|R2", "--caboose", "Lightweight", "--worlds", "8",
            "--seed", "2",
        ],
    ),
    # Bad input: the same one line, as a 422.
    ("packing", "best", {"roll": "3,2,9,0,1"}, ["best", "--roll", "3,2,9,0,1"]),
    ("packing", "best", {"roll": "-1,2,3,0,1"}, ["best", "--roll=-1,2,3,0,1"]),
    ("packing", "best", {"roll": "3,2,3,0,1", "cargo": "1,1,1,1,1"}, ["best", "--roll", "3,2,3,0,1", "--cargo", "1,1,1,1,1"]),
    ("packing", "solve", {"roll": "3,2,3,0,1", "truck": "", "height": 2}, ["solve", "--roll", "3,2,3,0,1", "--truck", "", "--height", "2"]),
    ("packing", "solve", {"roll": "3,2,3,0,1", "truck": "##", "height": 0}, ["solve", "--roll", "3,2,3,0,1", "--truck", "##", "--height", "0"]),
    ("packing", "grab", {"roll": "3,2,3,0,1", "revealed": "S99"}, ["grab", "--roll", "3,2,3,0,1", "--revealed", "S99"]),
    ("express", "best", {"length": 3, "cards": "R9|B4"}, ["best", "--length", "3", "--cards", "R9|B4"]),
    ("express", "score", {"train": ["R4|B4"]}, ["score", "--train", "R4|B4"]),
    ("express", "advise", {"players": 3, "seat": 0}, ["advise", "--players", "3", "--seat", "0"]),
    ("express", "advise", {"players": 2, "seat": 0, "round": 1, "hand": "R4|B4", "train": ["", ""], "worlds": 10**9}, ["advise", "--players", "2", "--seat", "0", "--round", "1", "--hand", "R4|B4", "--train", "", "--train", "", "--worlds", str(10**9)]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("game", "command", "body", "argv"),
    QUESTIONS,
    ids=[f"{g}-{c}-{i}" for i, (g, c, _, _) in enumerate(QUESTIONS)],
)
def test_the_api_answers_what_the_command_prints(
    client: TestClient,
    capsys: pytest.CaptureFixture[str],
    game: str,
    command: str,
    body: dict[str, Any],
    argv: list[str],
) -> None:
    response = client.post(f"/api/{game}/{command}", json=body)
    status, printed = cli_json(capsys, game, argv)
    assert without_times(response.json()) == without_times(printed)
    if status == 0:
        assert response.status_code == 200
    else:
        assert status == 2 and response.status_code == 422
        assert set(printed) == {"error"} and "\n" not in printed["error"]


def test_a_deck_file_field_takes_the_files_text(
    client: TestClient,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    good = "T1 height 2\n###\n###\n\nT2 height 1\n#####\n"
    bad = "T1 height 0\n##\n"
    for text in (good, bad):
        Path("deck").write_text(text, encoding="utf-8")
        response = client.post("/api/packing/best", json={"roll": "3,2,3,0,1", "deck": text})
        _, printed = cli_json(capsys, "packing", ["best", "--roll", "3,2,3,0,1", "--deck", "deck"])
        assert without_times(response.json()) == without_times(printed)
    cards = "R4|B4\nB4|G4\nG4|Y4\n"
    Path("deck").write_text(cards, encoding="utf-8")
    response = client.post("/api/express/best", json={"length": 2, "deck": cards})
    _, printed = cli_json(capsys, "express", ["best", "--length", "2", "--deck", "deck"])
    assert without_times(response.json()) == without_times(printed)


def test_a_new_decks_statistics_build_its_table(
    client: TestClient,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An expensive answer (in a process of its own, which starts a pool to build the table)
    is the command's too."""
    monkeypatch.setenv("PACKING_TABLE_DIR", str(tmp_path / "tables"))
    monkeypatch.chdir(tmp_path)
    deck = "A height 2\n###\n###\n\nB height 1\n#####\n"
    response = client.post("/api/packing/stats", json={"deck": deck, "roll": "1,1,0,0,0"})
    assert response.status_code == 200, response.text
    assert list((tmp_path / "tables").glob("table-*.npz"))  # built where the server says
    Path("deck").write_text(deck, encoding="utf-8")
    _, printed = cli_json(capsys, "packing", ["stats", "--deck", "deck", "--roll", "1,1,0,0,0"])
    assert without_times(response.json()) == without_times(printed)


def test_the_server_opens_no_path_a_request_names(client: TestClient) -> None:
    for field, game, command, base in (
        ("deck", "packing", "best", {"roll": "3,2,3,0,1"}),
        ("deck", "express", "best", {"length": 3}),
        ("order", "express", "solve", {}),
    ):
        response = client.post(f"/api/{game}/{command}", json=base | {field: "/etc/passwd"})
        assert response.status_code == 422
        assert "root:" not in response.text and "/bin/" not in response.text


def test_request_errors_are_one_line_4xx(client: TestClient) -> None:
    cases = [
        (client.post("/api/packing/best", content=b"{not json", headers=JSON), 400),
        (client.post("/api/packing/best", json=[1, 2]), 400),
        (client.post("/api/packing/best", json={"rol": "3,2,3,0,1"}), 422),
        (client.post("/api/packing/best", json={"roll": True}), 422),
        (client.post("/api/packing/best", json={"roll": {"a": 1}}), 422),
        (
            client.post(
                "/api/packing/best", content=b'{"roll": "3,2,3,0,1", "top": NaN}', headers=JSON
            ),
            422,
        ),
        (client.post("/api/packing/nothing", json={}), 404),
        (client.get("/api/packing/best"), 405),
        (client.post("/api/packing/deck", json={"deck": "x height 1\n"}), 422),
        (client.post("/api/packing/plan", json={"plan": {"truck": 1}}), 422),
        (client.post("/api/express/train", json={"train": "R9|B4"}), 422),
    ]
    for response, status in cases:
        assert response.status_code == status, response.text
        error = response.json()["error"]
        assert isinstance(error, str) and error and "\n" not in error


def test_a_body_past_the_limit_is_refused_unread(client: TestClient) -> None:
    huge = json.dumps({"roll": "3,2,3,0,1", "deck": "x" * 5_000_000})
    response = client.post(
        "/api/packing/best", content=huge, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413
    assert "limit" in response.json()["error"]
    too_long = client.post("/api/packing/best", json={"roll": "3,2,3,0,1", "deck": "x" * 70_000})
    assert too_long.status_code == 422 and "'deck'" in too_long.json()["error"]


def test_a_long_answer_asks_for_no_more_time_than_the_endpoint_allows(client: TestClient) -> None:
    response = client.post("/api/express/best", json={"length": 3, "time_limit": 600})
    assert response.status_code == 422
    assert "time_limit" in response.json()["error"]


def test_health_answers_at_once(client: TestClient) -> None:
    assert client.get("/api/health").json() == {"status": "ok"}


def test_every_answer_carries_a_strict_content_security_policy(client: TestClient) -> None:
    for response in (client.get("/"), client.get("/api/health"), client.get("/static/style.css")):
        policy = response.headers["content-security-policy"]
        assert policy == CONTENT_SECURITY_POLICY
        assert "unsafe-inline" not in policy and "script-src 'self'" in policy
        assert response.headers["x-content-type-options"] == "nosniff"


def test_the_openapi_schema_lists_every_command_with_its_fields(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for game, commands in contract.COMMANDS.items():
        for command in commands:
            operation = schema["paths"][f"/api/{game}/{command}"]["post"]
            body = operation["requestBody"]["content"]["application/json"]["schema"]
            fields = [f.name for f in contract.fields(game, command)]
            assert list(body["properties"]) == fields
            assert all(body["properties"][f]["description"] for f in fields)
            assert "Limits" in operation["description"]
    for path in ("/api/health", "/api/practice", "/api/trainer/deal", "/api/packing/deck"):
        assert path in schema["paths"]


def test_names_from_a_deck_are_escaped_in_pictures(client: TestClient) -> None:
    deck = (
        '<script>alert(1)</script> height 2\n###\n\n"><img/src=x/onerror=alert(1)> height 1\n##\n'
    )
    trucks = client.post("/api/packing/deck", json={"deck": deck}).json()["trucks"]
    assert [t["name"] for t in trucks] == [
        "<script>alert(1)</script>",
        '"><img/src=x/onerror=alert(1)>',
    ]
    for truck in trucks:
        assert "<script" not in truck["svg"] and "<img" not in truck["svg"]
        assert "&lt;" in truck["svg"]


def test_a_plan_picture_is_drawn_only_for_a_valid_plan(client: TestClient) -> None:
    best = client.post("/api/packing/best", json={"roll": "3,2,3,0,1"}).json()["best"]
    drawn = client.post("/api/packing/plan", json={"plan": best})
    assert drawn.status_code == 200 and drawn.json()["svg"].startswith("<svg")
    assert drawn.json()["penalty"] == best["penalty"]
    assert best["status"] == "optimal" and "(proven optimal)" in drawn.json()["svg"]
    by_hand = {key: value for key, value in best.items() if key not in ("status", "bound")}
    assert "(by hand)" in client.post("/api/packing/plan", json={"plan": by_hand}).json()["svg"]
    # an answer claiming a proof its bound does not give is refused
    claimed = best | {"bound": best["loaded"] + 1}
    assert client.post("/api/packing/plan", json={"plan": claimed}).status_code == 422
    floating = best | {"placements": ["1z@0,2,1"]}  # a rod over empty space
    assert client.post("/api/packing/plan", json={"plan": floating}).status_code == 422


def test_a_plan_picture_comes_in_the_layout_asked_for(client: TestClient) -> None:
    from packing.svg import TALL_WIDTH

    best = client.post("/api/packing/best", json={"roll": "3,2,3,0,1"}).json()["best"]
    pictures = {
        layout: client.post("/api/packing/plan", json={"plan": best, "layout": layout}).json()
        for layout in ("wide", "tall", "compact")
    }
    for default in ({"plan": best}, {"plan": best, "layout": None}):
        assert client.post("/api/packing/plan", json=default).json() == pictures["wide"]
    assert f'width="{TALL_WIDTH:g}"' in pictures["tall"]["svg"]
    assert "<text" not in pictures["compact"]["svg"]
    assert {answer["penalty"] for answer in pictures.values()} == {best["penalty"]}
    for bad in ("narrow", 3, ["tall"]):
        response = client.post("/api/packing/plan", json={"plan": best, "layout": bad})
        assert response.status_code == 422
        error = response.json()["error"]
        assert error == f"field 'layout': {bad!r} is not one of wide, tall, compact"
    operation = client.get("/openapi.json").json()["paths"]["/api/packing/plan"]["post"]
    assert "``tall``" in operation["description"]


def test_a_deck_entry_carries_a_compact_picture_without_words(client: TestClient) -> None:
    trucks = client.post("/api/packing/deck", json={}).json()["trucks"]
    for truck in trucks:
        assert truck["compact_svg"].startswith("<svg") and "<text" not in truck["compact_svg"]
        assert f"Truck {truck['name']} " in truck["compact_svg"]  # its <title>


def test_a_train_picture_wraps_at_the_width_asked_for(client: TestClient) -> None:
    from express.svg import PHONE_WIDTH

    train = "B4|G4,G4|Y4,P4|P4,P2|P3,P3|B3,B3|R3,R4|B4,Y4|R4,R3|G3,B3|Y3,G3|B3,G3|R3"
    one_row = client.post("/api/express/train", json={"train": train}).json()["svg"]
    rows = client.post("/api/express/train", json={"train": train, "width": PHONE_WIDTH})
    assert rows.status_code == 200
    assert f'width="{PHONE_WIDTH:g}"' in rows.json()["svg"] and 'width="1' in one_row
    assert rows.json()["svg"].count('class="card"') == 12
    cases = {
        150: "field 'width': 150 is narrower than the engine and one card (199 units)",
        "wide": "field 'width': 'wide' is not a number of units up to 4,000",
        True: "field 'width': True is not a number of units up to 4,000",
        5000: "field 'width': 5000 is not a number of units up to 4,000",
    }
    for width, error in cases.items():
        response = client.post("/api/express/train", json={"train": train, "width": width})
        assert response.status_code == 422 and response.json() == {"error": error}


def test_a_deck_of_cards_carries_compact_pictures(client: TestClient) -> None:
    cards = client.post("/api/express/cards", json={"players": 3}).json()["cards"]
    for card in cards:
        assert 'font-size="22"' in card["compact_svg"] and 'font-size="22"' not in card["svg"]


def test_a_train_picture_hides_another_players_face_down_card(client: TestClient) -> None:
    svg = client.post("/api/express/train", json={"train": "R4|B4,~,~B2|B2"}).json()["svg"]
    assert svg.count('data-face="down"') == 2
    assert svg.count('data-card="hidden"') == 1 and 'data-card="B2|B2"' in svg


# --- the runner: long answers in processes, with limits ---------------------------------------


def test_a_long_answer_past_its_time_is_stopped() -> None:
    import anyio

    runner = Runner(heavy_at_once=1)
    began = time.perf_counter()
    with pytest.raises(OverTime, match="limit of 0.5 s"):
        anyio.run(lambda: runner.heavy(time.sleep, 30, seconds=0.5))
    assert time.perf_counter() - began < 10


def test_more_long_answers_than_slots_are_refused_as_busy() -> None:
    import anyio

    runner = Runner(heavy_at_once=1)

    async def two_at_once() -> list[object]:
        results: list[object] = []

        async def one(delay: float) -> None:
            try:
                results.append(await runner.heavy(time.sleep, delay, seconds=20))
            except Busy as busy:
                results.append(busy)

        async with anyio.create_task_group() as group:
            group.start_soon(one, 1.5)
            await anyio.sleep(0.3)
            group.start_soon(one, 0)
        return results

    results = anyio.run(two_at_once)
    assert sum(isinstance(r, Busy) for r in results) == 1
    assert Busy.status == 503


def test_a_cheap_request_answers_while_long_ones_run(tmp_path: Path) -> None:
    """Health and a best-truck query answer at once while both process slots are busy."""
    import threading

    app = create_app(store=Store(tmp_path / "db.sqlite3"), runner=Runner(heavy_at_once=2))
    with TestClient(app, base_url="http://127.0.0.1:8000") as test_client:
        advise = {
            "players": 3, "seat": 1, "round": 1, "start_player": 0,
            "hand": "R4|B4,B2|B3,Y3|G3,G2|G2,P4|P4",
            "train": ["", "", ""], "worlds": 100000, "time_limit": 4, "seed": 1,
        }  # fmt: skip
        threads = [
            threading.Thread(target=lambda: test_client.post("/api/express/advise", json=advise))
            for _ in range(2)
        ]
        for thread in threads:
            thread.start()
        time.sleep(1.0)
        began = time.perf_counter()
        assert test_client.get("/api/health").status_code == 200
        best = test_client.post("/api/packing/best", json={"roll": "3,2,3,0,1"})
        took = time.perf_counter() - began
        assert best.status_code == 200
        for thread in threads:
            thread.join()
    assert took < 2.0, took


def test_no_answer_is_a_500_for_random_fields(client: TestClient) -> None:
    """Fields of every command with values of every JSON type: always a 2xx or a 4xx."""
    values: list[Any] = [None, True, 0, -1, 1.5, "", "x", "~", [1], [], {"a": 1}, "9" * 40]
    for game, commands in contract.COMMANDS.items():
        for command in commands:
            if (game, command) in (("express", "advise"), ("express", "solve")):
                continue  # long answers: their fields are checked above
            for field in contract.fields(game, command):
                for value in values:
                    response = client.post(f"/api/{game}/{command}", json={field.name: value})
                    assert response.status_code < 500, (game, command, field.name, value)


def test_an_answer_prints_nothing_on_the_servers_output(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command's output is captured for its request alone: nothing reaches the server's."""
    capsys.readouterr()
    assert client.post("/api/packing/best", json={"roll": "3,2,3,0,1"}).status_code == 200
    assert client.post("/api/packing/best", json={"roll": "9"}).status_code == 422
    assert capsys.readouterr() == ("", "")
