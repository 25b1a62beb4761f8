"""The web companion's server under load, and what it costs over calling the library directly.

``python -m benchmarks web [--clients N] [--requests M] [--pace MS] [--seed S]
[--time-cap SECONDS] [--top K] [--questions Q] [--quick] [--only load paced overhead]`` (needs
the ``web`` extra)

The real server is started in a subprocess (``python -m webapp --host 127.0.0.1 --port 0 --data
<a temporary folder>``), on loopback only, and always stopped at the end. Its query endpoints
are asked about the sample deck: ``POST /api/packing/best`` with a roll drawn from the dice's
exact distribution (:func:`packing.roll_counts`, seeded), ``POST /api/packing/grab`` with such a
roll and one to four revealed trucks, and ``POST /api/express/score`` with the final trains of a
random game (2–5 players, a random caboose). Three sections, in one run:

- ``load``: ``--clients`` clients (default 50) each send ``--requests`` requests (default 40)
  over one keep-alive connection, all at once, the endpoints in turn; no request waits for
  anything but the one before it on its connection. Per endpoint: the count, requests per
  second, p50 / p99 / max latency and the errors (anything but 200: the bodies are valid, so
  there must be none). The whole load stops at ``--time-cap`` seconds (default 120) and reports
  what was done. **Target:** best-truck p99 ≤ 50 ms. The server's CPU seconds per request are
  read from ``/proc`` where there is one.
- ``paced``: the same, but each client sends one request every ``--pace`` ms (default 250, the
  clients' phases spread over it; a request that waited longer than that goes at once): a load
  the server can carry, where the latency is the server's own and not the queue's.
- ``overhead``: ``--questions`` questions per endpoint (default 100) asked three ways, in turn
  for each question: the library called in this process (what the command computes: for
  ``best`` :func:`packing.stats.ranking` with the best plan solved and :func:`packing.verify`,
  as ``packing best`` does, up to the answer's ``to_dict()``), :func:`webapp.contract.answer`
  (the command line run on the request, its ``--json`` value taken: the API's contract), and one HTTP round trip with a single client and no other load. Each question is
  first asked once in this process and once of the server, untimed: ``packing`` memoises the
  plans it solved, so the three are timed with the same warm caches. Medians per request, and
  the median per question of each layer's cost: contract − library, HTTP − contract, and the
  server's overhead HTTP − library. **Target:** overhead ≤ 2 ms a request.

Every HTTP answer of the ``overhead`` section, and the first answer of every client in ``load``,
is compared with :func:`webapp.contract.answer` for the same body (``wall_time`` and
``seconds`` fields aside: they are timings), and the library's answer with the contract's; a
difference or an error exits with status 1 (a missed target does not: the machine is shared).

The client is the standard library's :mod:`asyncio` streams writing HTTP/1.1 keep-alive requests
and reading ``Content-Length`` answers, not ``httpx``: ``httpx`` is not in the ``web`` extra, and
a client as small as this one leaves the two cores to the server being measured (its own CPU
per request is printed: 0.3–0.4 ms here, JSON encoding and decoding included).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

import express
import packing
from arena import RandomPolicy, play
from benchmarks._suite import at_least, percentile
from packing.model import Cargo
from packing.stats import grab_advice, ranking
from webapp import contract

HOST = "127.0.0.1"
"""The only address the benchmark's server listens on and its clients connect to."""

SERVER = ("-m", "webapp")
"""How the server is started (after ``python``): ``tabletop-web`` itself."""

ENDPOINTS = ("best", "grab", "score")
PATHS = {"best": "/api/packing/best", "grab": "/api/packing/grab", "score": "/api/express/score"}
COMMANDS = {"best": ("packing", "best"), "grab": ("packing", "grab"), "score": ("express", "score")}

P99_TARGET_MS = 50.0
OVERHEAD_TARGET_MS = 2.0
REQUEST_TIMEOUT = 30.0
"""Seconds one request may take before it counts as an error and its client stops."""

_TIMINGS = frozenset({"wall_time", "seconds"})


# --- the questions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    endpoint: str
    body: dict[str, Any]

    def encoded(self) -> bytes:
        return json.dumps(self.body).encode()


class Questions:
    """Seeded questions for the three endpoints: rolls from the dice's exact distribution."""

    def __init__(self, seed: int, top: int | None) -> None:
        self.rng = np.random.default_rng(seed)
        self.top = top
        counts = packing.roll_counts()
        self.cargos = list(counts)
        self.cumulative = np.cumsum(list(counts.values()))
        self.names = [t.name for t in packing.SAMPLE_DECK]
        self.trains = [self._finished_game(int(s)) for s in self.rng.integers(2**31, size=60)]

    def _roll(self) -> list[int]:
        # One of the 7,776 equally likely rolls, mapped to its cargo: the exact distribution.
        k = int(np.searchsorted(self.cumulative, self.rng.integers(packing.ROLLS), side="right"))
        return list(self.cargos[k].counts)

    def _finished_game(self, seed: int) -> dict[str, Any]:
        players = 2 + seed % 4
        game = express.Game(players, caboose="random")
        play(game, [RandomPolicy()] * players, seed)
        body: dict[str, Any] = {"train": [str(t) for t in game.trains]}
        body["start_player"] = game.start_player
        if game.caboose is not None:
            body["caboose"] = game.caboose.name
        return body

    def ask(self, endpoint: str) -> Question:
        if endpoint == "best":
            body: dict[str, Any] = {"roll": self._roll()}
            if self.top is not None:
                body["top"] = self.top
        elif endpoint == "grab":
            revealed = self.rng.choice(self.names, size=int(self.rng.integers(1, 5)), replace=False)
            body = {"roll": self._roll(), "revealed": ",".join(str(n) for n in revealed)}
        else:
            body = dict(self.trains[int(self.rng.integers(len(self.trains)))])
        return Question(endpoint, body)


def library_answer(question: Question) -> dict[str, Any]:
    """What the command computes for ``question``, called directly: the answer's ``to_dict()``."""
    body = question.body
    if question.endpoint == "score":
        trains = [express.Train.parse(text) for text in body["train"]]
        caboose = express.caboose_named(body["caboose"]) if "caboose" in body else None
        scored = express.score_game(
            trains,
            start_player=body["start_player"],
            caboose=caboose,
            deck=express.deck_for(len(trains)),
        )
        return scored.to_dict()
    cargo = Cargo.from_roll(body["roll"])
    deck = packing.SAMPLE_DECK
    if question.endpoint == "best":
        result = ranking(cargo, deck, top=body.get("top"), solve_best=True)
        assert result.best is not None
        packing.verify(result.best)
        return result.to_dict()
    index = {t.name: t for t in deck}
    revealed = [index[name] for name in body["revealed"].split(",")]
    pile = [t for t in deck if t not in revealed]
    return grab_advice(cargo, revealed, pile).to_dict()


def contract_answer(question: Question) -> contract.Answer:
    game, command = COMMANDS[question.endpoint]
    return contract.answer(game, command, question.body)


def _untimed(value: Any) -> Any:
    """``value`` without its timing fields, and as JSON reads it back (lists, not tuples)."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k not in _TIMINGS}
    if isinstance(value, (list, tuple)):
        return [_untimed(v) for v in value]
    return value


def same_answer(a: Any, b: Any) -> bool:
    return bool(_untimed(json.loads(json.dumps(a))) == _untimed(json.loads(json.dumps(b))))


# --- the server -----------------------------------------------------------------------------------


@contextmanager
def running_server() -> Iterator[tuple[int, int]]:
    """The web companion served on loopback in a subprocess: (its port, its process id). It is
    stopped (terminated, then killed) whatever happens."""
    with tempfile.TemporaryDirectory(prefix="bench-web-") as folder:
        command = [sys.executable, *SERVER, "--host", HOST, "--port", "0", "--data", folder]
        log = Path(folder, "server.log").open("w+b")
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log)
        try:
            port = _port_of(process, log)
            asyncio.run(_wait_healthy(port, process))
            yield port, process.pid
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            assert process.stdout is not None
            process.stdout.close()
            log.close()


def _port_of(process: subprocess.Popen[bytes], log: Any) -> int:
    """The port from the server's first line (``tabletop-web: serving on http://HOST:PORT/``)."""
    lines: list[bytes] = []
    reader = threading.Thread(
        target=lambda: lines.append(process.stdout.readline() if process.stdout else b""),
        daemon=True,
    )
    reader.start()
    reader.join(60)
    first = lines[0].decode(errors="replace") if lines else ""
    found = re.search(r"serving on http://127\.0\.0\.1:([0-9]+)/", first)
    if found is None:
        log.seek(0)
        raise RuntimeError(
            f"the server did not start: {first.strip()!r} {log.read().decode(errors='replace')}"
        )
    return int(found.group(1))


async def _wait_healthy(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped with status {process.returncode}")
        try:
            connection = await Connection.open(port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        try:
            status, _ = await connection.request("GET", "/api/health", b"")
        finally:
            await connection.close()
        if status == 200:
            return
        await asyncio.sleep(0.1)
    raise RuntimeError("the server did not answer GET /api/health within 60 s")


def cpu_seconds(pid: int) -> float:
    """The process's user + system CPU seconds from ``/proc`` (NaN where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return math.nan
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- a minimal HTTP/1.1 keep-alive client ---------------------------------------------------------


class Connection:
    """One keep-alive connection to the server on loopback."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, port: int):
        self.reader, self.writer = reader, writer
        self.head = f"Host: {HOST}:{port}\r\nContent-Type: application/json\r\n"

    @classmethod
    async def open(cls, port: int) -> Connection:
        reader, writer = await asyncio.open_connection(HOST, port)
        return cls(reader, writer, port)

    async def request(self, method: str, path: str, body: bytes) -> tuple[int, bytes]:
        """(status, body) of one request; ``ConnectionError`` when the answer is not HTTP/1.1
        with a ``Content-Length``."""
        self.writer.write(
            f"{method} {path} HTTP/1.1\r\n{self.head}Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        await self.writer.drain()
        status_line = await self.reader.readline()
        parts = status_line.split()
        if len(parts) < 2 or not parts[1].isdigit():
            raise ConnectionError(f"not an HTTP answer: {status_line[:80]!r}")
        length = None
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if length is None:
            raise ConnectionError("an answer without Content-Length")
        return int(parts[1]), await self.reader.readexactly(length)

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except OSError:
            pass


async def _post(connection: Connection, question: Question) -> tuple[int, Any, float]:
    """(status, the answer, seconds) of one request."""
    began = time.perf_counter()
    status, raw = await connection.request("POST", PATHS[question.endpoint], question.encoded())
    seconds = time.perf_counter() - began
    return status, json.loads(raw), seconds


# --- load -----------------------------------------------------------------------------------------


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {e: [] for e in ENDPOINTS})
    errors: dict[str, list[str]] = field(default_factory=lambda: {e: [] for e in ENDPOINTS})
    checked: list[tuple[Question, Any]] = field(default_factory=list)
    not_sent: int = 0
    cut: int = 0


async def _client(
    port: int,
    questions: list[Question],
    tally: Tally,
    deadline: float,
    start: asyncio.Event,
    pace: tuple[float, float] | None,
) -> None:
    """One client asking its ``questions`` in turn on one connection: back to back, or with
    ``pace`` (a phase and a period, seconds) the k-th at phase + k × period after the start
    (or at once when the one before took longer)."""
    connection = await Connection.open(port)
    await start.wait()
    began = time.perf_counter()
    try:
        for k, question in enumerate(questions):
            if pace is not None:
                phase, period = pace
                await asyncio.sleep(max(0.0, began + phase + k * period - time.perf_counter()))
            left = deadline - time.perf_counter()
            if left <= 0:
                tally.not_sent += len(questions) - k
                return
            try:
                status, data, seconds = await asyncio.wait_for(
                    _post(connection, question), min(left, REQUEST_TIMEOUT)
                )
            except TimeoutError:
                if left <= REQUEST_TIMEOUT:  # the time cap, not the server, stopped it
                    tally.cut += 1
                else:
                    tally.errors[question.endpoint].append(f"no answer in {REQUEST_TIMEOUT:g} s")
                tally.not_sent += len(questions) - k - 1
                return
            except (OSError, ValueError, asyncio.IncompleteReadError) as error:
                tally.errors[question.endpoint].append(f"{type(error).__name__}: {error}")
                tally.not_sent += len(questions) - k - 1
                return
            tally.latencies[question.endpoint].append(seconds)
            if status != 200:
                tally.errors[question.endpoint].append(f"HTTP {status}: {str(data)[:200]}")
            elif k == 0:
                tally.checked.append((question, data))
    finally:
        await connection.close()


async def _load(
    port: int, plans: list[list[Question]], cap: float, period: float
) -> tuple[Tally, float]:
    tally = Tally()
    start = asyncio.Event()
    opening = 0.2  # every connection open before the first request
    deadline = time.perf_counter() + opening + cap
    paces = [
        (period * c / len(plans), period) if period > 0 else None for c in range(len(plans))
    ]  # the clients' phases spread over one period
    tasks = [
        asyncio.create_task(_client(port, plan, tally, deadline, start, pace))
        for plan, pace in zip(plans, paces)
    ]
    await asyncio.sleep(opening)
    began = time.perf_counter()
    start.set()
    await asyncio.gather(*tasks)
    return tally, time.perf_counter() - began


def load_section(
    args: argparse.Namespace, port: int, pid: int, pace_ms: float
) -> tuple[list[str], bool]:
    questions = Questions(args.seed, args.top)
    plans = [
        [questions.ask(ENDPOINTS[(c + j) % len(ENDPOINTS)]) for j in range(args.requests)]
        for c in range(args.clients)
    ]
    cpu_before, client_before = cpu_seconds(pid), time.process_time()
    tally, wall = asyncio.run(_load(port, plans, args.time_cap, pace_ms / 1000))
    server_cpu, client_cpu = cpu_seconds(pid) - cpu_before, time.process_time() - client_before
    done = sum(len(v) for v in tally.latencies.values())
    how = (
        f"each every {pace_ms:g} ms ({args.clients * 1000 / pace_ms:,.0f}/s offered)"
        if pace_ms > 0
        else "back to back"
    )
    lines = [
        f"{'paced' if pace_ms > 0 else 'load'}: {args.clients} clients x {args.requests} "
        f"requests, {how}, on {HOST} "
        f"(cap {args.time_cap:g} s): {done:,} requests in {wall:.2f} s, {done / wall:,.0f}/s"
        + (f"; {tally.cut:,} cut at the cap" if tally.cut else "")
        + (f"; {tally.not_sent:,} not sent" if tally.not_sent else ""),
        f"  {'endpoint':<22}{'count':>7}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}"
        f"{'errors':>8}",
    ]
    errors = 0
    for endpoint in ENDPOINTS:
        seconds = tally.latencies[endpoint]
        errors += len(tally.errors[endpoint])
        if not seconds:
            lines.append(f"  {PATHS[endpoint]:<22}{0:>7}")
            continue
        ms = [s * 1000 for s in seconds]
        lines.append(
            f"  {PATHS[endpoint]:<22}{len(ms):>7,}{len(ms) / wall:>9,.0f}{percentile(ms, 0.5):>9.1f}"
            f"{percentile(ms, 0.99):>9.1f}{max(ms):>9.1f}{len(tally.errors[endpoint]):>8}"
        )
    for endpoint in ENDPOINTS:
        for message in tally.errors[endpoint][:3]:
            lines.append(f"  error ({endpoint}): {message}")
    if done:
        lines.append(
            f"  server CPU {server_cpu:.1f} s ({server_cpu / done * 1000:.2f} ms a request), "
            f"this client's CPU {client_cpu:.1f} s ({client_cpu / done * 1000:.2f} ms a request)"
        )
    best = [s * 1000 for s in tally.latencies["best"]]
    if best:
        p99 = percentile(best, 0.99)
        met = "met" if p99 <= P99_TARGET_MS and not tally.errors["best"] else "NOT met"
        lines.append(
            f"  target: best-truck p99 <= {P99_TARGET_MS:g} ms under this load: {p99:.1f} ms, {met}"
        )
    wrong = [q for q, data in tally.checked if not same_answer(data, contract_answer(q).data)]
    lines.append(
        f"  answers checked against webapp.contract.answer: {len(tally.checked)}, "
        f"{len(wrong)} different"
    )
    for question in wrong[:3]:
        lines.append(f"  DIFFERENT: {PATHS[question.endpoint]} {json.dumps(question.body)}")
    return lines, errors == 0 and not wrong and done > 0


# --- overhead -------------------------------------------------------------------------------------


def _timed(function: Callable[[], Any]) -> tuple[Any, float]:
    began = time.perf_counter()
    result = function()
    return result, time.perf_counter() - began


async def _three_ways(
    port: int, questions: list[Question]
) -> list[tuple[tuple[Any, float], tuple[contract.Answer, float], tuple[int, Any, float]]]:
    """Each question asked of the library, of the contract and over HTTP (one keep-alive
    connection, nothing else running), in turn, so that a change in the machine's load falls on
    all three alike."""
    connection = await Connection.open(port)
    try:
        found = []
        for q in questions:
            # Asked once of each process first, untimed: packing memoises the plans it solved,
            # so all three are timed with the same warm caches.
            library_answer(q)
            await _post(connection, q)
            direct = _timed(partial(library_answer, q))
            layer = _timed(partial(contract_answer, q))
            found.append((direct, layer, await _post(connection, q)))
        return found
    finally:
        await connection.close()


def _median(seconds: list[float]) -> float:
    """The median, in milliseconds."""
    return percentile([s * 1000 for s in seconds], 0.5)


def _median_difference(a: list[float], b: list[float]) -> float:
    """The median over questions of ``a - b``, in milliseconds."""
    return _median([x - y for x, y in zip(a, b, strict=True)])


def overhead_section(args: argparse.Namespace, port: int) -> tuple[list[str], bool]:
    questions = Questions(args.seed + 1, args.top)
    lines = [
        f"overhead: {args.questions} questions per endpoint, one client, no other load "
        "(median ms a request; layers: the median over questions of the difference)",
        f"  {'endpoint':<22}{'library':>9}{'contract':>10}{'HTTP':>8}"
        f"{'contract-lib':>14}{'HTTP-contract':>15}{'HTTP-lib':>10}",
    ]
    ok = True
    worst = -math.inf
    for endpoint in ENDPOINTS:
        asked = [questions.ask(endpoint) for _ in range(args.questions)]
        asyncio.run(_three_ways(port, asked[:3]))  # warm-up, not counted
        library, layer, http, wrong = [], [], [], 0
        for (lib_data, lib_s), (answered, contract_s), (status, data, http_s) in asyncio.run(
            _three_ways(port, asked)
        ):
            library.append(lib_s)
            layer.append(contract_s)
            http.append(http_s)
            if (
                status != 200
                or answered.status != 200
                or not same_answer(data, answered.data)
                or not same_answer(lib_data, answered.data)
            ):
                wrong += 1
        total = _median_difference(http, library)
        worst = max(worst, total)
        lines.append(
            f"  {PATHS[endpoint]:<22}{_median(library):>9.2f}{_median(layer):>10.2f}{_median(http):>8.2f}"
            f"{_median_difference(layer, library):>14.2f}{_median_difference(http, layer):>15.2f}{total:>10.2f}"
            + (f"   {wrong} DIFFERENT or not 200" if wrong else "")
        )
        ok = ok and wrong == 0
    met = "met" if worst <= OVERHEAD_TARGET_MS else "NOT met"
    lines.append(
        f"  target: the server's overhead (HTTP - library) <= {OVERHEAD_TARGET_MS:g} ms a "
        f"request: {worst:.2f} ms at worst, {met}"
    )
    return lines, ok


# --- the suite ------------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks web", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--clients", type=at_least(1), default=50, help="clients at once (default 50)"
    )
    parser.add_argument(
        "--requests", type=at_least(1), default=40, help="requests per client (default 40)"
    )
    parser.add_argument("--seed", type=int, default=1, help="which rolls and games are asked")
    parser.add_argument(
        "--time-cap",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="the load stops after this long and reports what was done (default 120)",
    )
    parser.add_argument(
        "--top", type=at_least(1), default=None, help="best: only the best K trucks (default all)"
    )
    parser.add_argument(
        "--questions",
        type=at_least(1),
        default=100,
        help="questions per endpoint timed for the overhead (default 100)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="10 clients x 10 requests, 20 questions (a few s)"
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=250.0,
        metavar="MS",
        help="the paced load: each client sends a request every MS ms (default 250: 50 "
        "clients offer 200 requests a second, a table's worth of phones many times over)",
    )
    parser.add_argument(
        "--only", nargs="+", choices=["load", "paced", "overhead"], help="these sections"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.clients, args.requests, args.questions = 10, 10, 20

    from arena.extras import MissingExtraError, import_extra

    try:
        import_extra("uvicorn", "web")  # the server's subprocess needs it; found here first
    except MissingExtraError as error:
        print(f"benchmarks web: {error}", file=sys.stderr)
        return 2
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
    print(
        f"The web companion's server on {HOST} (load average {load:.1f} on {os.cpu_count()} "
        f"cores; best-truck queries {'top ' + str(args.top) if args.top else 'of the whole deck'})"
    )
    ok = True
    with running_server() as (port, pid):
        for name in ("load", "paced", "overhead"):
            if args.only is None or name in args.only:
                if name == "overhead":
                    lines, passed = overhead_section(args, port)
                else:
                    pace = args.pace if name == "paced" else 0.0
                    lines, passed = load_section(args, port, pid, pace)
                print()
                print("\n".join(lines), flush=True)
                ok = ok and passed
    return 0 if ok else 1
