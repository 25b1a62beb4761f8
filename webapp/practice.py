"""Practice games against the library's bots, every decision of the user graded.

A practice game is an ``arena`` game (:class:`packing.Game` or :class:`express.Game`) with the
user in one seat and bots in the others. It is kept as data (:class:`webapp.store.SavedGame`):
its setup, its seed and every action taken so far, each written as its index among the
state's chance outcomes or legal actions at that point — so :class:`Session` replays it
exactly, after a reload or a restart, without asking a bot again. The ``k``-th action's chance
draw, or the bot's choice, uses a generator seeded by ``(seed, k)``: the game a seed starts is
the same on every machine.

**Grades.** Before the user's decision is applied, every legal choice is valued the way the
library values it, and the grade is what the choice costs against the best:

- Pack & Stack: the exact expected penalty of each grab (:func:`packing.stats.grab_decision`,
  from the deck's optimal table): a revealed truck's optimal penalty, or the pile's mean over
  the trucks it may hold. The loss is in expected points.
- Yardmaster Express: :func:`express.advise`'s values (sampled worlds, each solved exactly;
  :data:`GRADE_WORLDS` worlds within :data:`GRADE_SECONDS`). The loss is in points of the
  advisor's measure, an estimate — exact in the last turns of a two-player game, where the
  advisor weighs every draw to come (its measure then ends in "(exact)"). At the end of a two-player game the review adds the exact
  loss of each decision against perfect play in the deal that was played
  (:func:`express.exact.play_values`, which knows the deck order: hindsight, defined for two
  players), and for every game each player's hindsight (:func:`express.review.hindsight`).

Nothing here knows HTTP: :mod:`webapp.practice_api` serves it, and hidden information (the deck
order, other players' hands and face-down cards) never enters a :meth:`Session.view`.
"""

from __future__ import annotations

import copy
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np

from arena import CHANCE, TERMINAL, sample_outcome
from arena.extras import has_extra
from webapp.errors import BadRequest, Conflict, NotFound
from webapp.store import SavedGame, Store, new_game_id

__all__ = [
    "GRADE_SECONDS",
    "GRADE_WORLDS",
    "USER",
    "Session",
    "Option",
    "Sessions",
    "bot_names",
    "new_game",
]

USER = "you"
"""The seat name that marks the user's seat."""

GRADE_WORLDS = 48
GRADE_SECONDS = 2.0
LARGEST_SEED = 2**63 - 1
MAX_ROUNDS = 40

#: Bots that need what a practice game cannot give: ``perfect`` is told the deck order.
_NOT_FOR_PRACTICE = frozenset({"perfect"})


def bot_names() -> dict[str, list[str]]:
    """The bots a seat may take, per game (OpenSpiel's only with the openspiel extra)."""
    from express.bots import BOT_NAMES as EXPRESS_BOTS
    from express.bots import OPENSPIEL_BOTS as EXPRESS_OPENSPIEL
    from packing.bots import BOT_NAMES as PACKING_BOTS
    from packing.bots import OPENSPIEL_BOTS as PACKING_OPENSPIEL

    spiel = has_extra("openspiel")
    return {
        "packing": [n for n in PACKING_BOTS if spiel or n not in PACKING_OPENSPIEL],
        "express": [
            n
            for n in EXPRESS_BOTS
            if n not in _NOT_FOR_PRACTICE and (spiel or n not in EXPRESS_OPENSPIEL)
        ],
    }


# --- a new game ------------------------------------------------------------------------------


def _seats(game: str, players: object) -> list[str]:
    if isinstance(players, str):
        players = [p.strip() for p in players.split(",")]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise BadRequest(f"field 'players': {players!r} is not a list of seat names")
    seats = [p.strip().lower() for p in players]
    low, high = (2, 6) if game == "packing" else (2, 5)
    if not low <= len(seats) <= high:
        raise BadRequest(
            f"field 'players': {len(seats)} seats; {game} takes {low} to {high} players"
        )
    if seats.count(USER) != 1:
        raise BadRequest(
            f"field 'players': exactly one seat must be {USER!r} (you), got {players!r}"
        )
    allowed = bot_names()[game]
    for name in seats:
        if name != USER and name not in allowed:
            raise BadRequest(
                f"field 'players': unknown bot {name!r} for {game} (choose from "
                f"{', '.join(allowed)})"
            )
    return seats


def new_game(store: Store, body: object) -> SavedGame:
    """Check a new game's request (``game``, ``players``, ``seed``, and ``caboose`` or
    ``max_rounds``), store the game, and play it to the user's first decision."""
    if not isinstance(body, dict):
        raise BadRequest("the request must be a JSON object")
    known = {"game", "players", "seed", "caboose", "max_rounds"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r} (fields: {', '.join(sorted(known))})")
    game = body.get("game")
    if game not in ("packing", "express"):
        raise BadRequest(f"field 'game': {game!r} is not 'packing' or 'express'")
    seats = _seats(
        game, body.get("players", f"{USER},optimal" if game == "packing" else f"{USER},greedy")
    )
    seed = body.get("seed")
    if seed is None:
        seed = secrets.randbelow(2**31)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= LARGEST_SEED:
        raise BadRequest(f"field 'seed': {seed!r} is not a whole number from 0 to 2**63 - 1")
    options: dict[str, Any] = {}
    if game == "express":
        if body.get("max_rounds") is not None:
            raise BadRequest("field 'max_rounds' is for Pack & Stack; Express has its rounds")
        caboose = body.get("caboose")
        if caboose is not None:
            if not isinstance(caboose, str):
                raise BadRequest(f"field 'caboose': {caboose!r} is not a caboose's name")
            from express.cabooses import caboose_named
            from express.errors import ExpressError

            if caboose.strip().lower() != "random":
                try:
                    caboose = caboose_named(caboose).name
                except ExpressError as error:
                    raise BadRequest(f"field 'caboose': {error}") from None
            else:
                caboose = "random"
        options["caboose"] = caboose
    else:
        if body.get("caboose") is not None:
            raise BadRequest("field 'caboose' is for Yardmaster Express")
        rounds = body.get("max_rounds")
        if rounds is not None and (
            isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS
        ):
            raise BadRequest(
                f"field 'max_rounds': {rounds!r} is not a whole number from 1 to {MAX_ROUNDS}"
            )
        options["max_rounds"] = rounds
    setup = {"seats": seats, "options": options}
    now = time.time()
    session = Session(SavedGame(new_game_id(), game, setup, int(seed), (), (), False, now, now))
    session.advance()
    return store.add_game(session.saved(updated=now))


# --- a game in play --------------------------------------------------------------------------


def _rng(seed: int, step: int) -> np.random.Generator:
    return np.random.default_rng([seed, step])


@dataclass(frozen=True)
class Option:
    """One legal action of the user's turn: its place among the legal actions, the action, and
    its label and detail as the practice page shows them."""

    index: int
    action: Any
    label: str
    detail: str


class Session:
    """A practice game in memory: the state replayed from a :class:`SavedGame`."""

    def __init__(self, saved: SavedGame) -> None:
        self.id = saved.id
        self.game = saved.game
        self.seats: list[str] = list(saved.setup["seats"])
        self.options: dict[str, Any] = dict(saved.setup.get("options", {}))
        self.seed = saved.seed
        self.created = saved.created
        self.seat = self.seats.index(USER)
        self.actions: list[int] = []
        self.grades: list[dict[str, Any]] = list(saved.grades)
        self.lock = threading.Lock()
        self._review: dict[str, Any] | None = None
        self.state, self.policies = self._start()
        for index in saved.actions:
            self._apply_index(index)

    def _start(self) -> tuple[Any, list[Any]]:
        if self.game == "packing":
            from packing.bots import bot
            from packing.game import Game

            state: Any = Game(len(self.seats), max_rounds=self.options.get("max_rounds"))
            # The user's seat loads optimally too: the grade is about the grab alone.
            policies = [bot("optimal" if name == USER else name) for name in self.seats]
            state.seat_policies(policies)
            return state, policies
        from express.bots import bot as express_bot
        from express.game import Game as ExpressGame

        express_state = ExpressGame(len(self.seats), caboose=self.options.get("caboose"))
        express_policies = [None if name == USER else express_bot(name) for name in self.seats]
        return express_state, express_policies

    def saved(self, *, updated: float = 0.0) -> SavedGame:
        return SavedGame(
            self.id,
            self.game,
            {"seats": self.seats, "options": self.options},
            self.seed,
            tuple(self.actions),
            tuple(self.grades),
            self.state.is_terminal(),
            self.created,
            updated,
        )

    def trial(self) -> Session:
        """A copy to make a move on: it becomes the game (:meth:`adopt`) only once it is kept,
        so a move that cannot be written leaves the game as it was."""
        trial = copy.copy(self)
        trial.state = self.state.clone()
        trial.actions = list(self.actions)
        trial.grades = list(self.grades)
        return trial

    def adopt(self, trial: Session) -> None:
        """Make the kept ``trial`` (from :meth:`trial`) the game."""
        self.state, self.actions, self.grades = trial.state, trial.actions, trial.grades
        self._review = trial._review

    def next_decision(self) -> int:
        """The number of the user's next decision (1 for the first)."""
        return len(self.grades) + 1

    def repeats(self, decision: int, index: int) -> bool:
        """Whether a move answering ``decision`` with choice ``index`` was made already (the
        same request sent twice: its answer is the game as it stands). A move for a decision
        answered otherwise, or for one not asked yet, is a :class:`Conflict`."""
        asked = self.next_decision()
        if decision == asked:
            return False
        if decision > asked:
            raise Conflict(
                f"field 'decision': {decision} is not asked yet: the game is at decision {asked}"
            )
        grade = self.grades[decision - 1]
        step = grade.get("step")
        if decision == asked - 1 and isinstance(step, int) and self.actions[step] == index:
            return True
        now = "the game is over" if self.state.is_terminal() else f"the game is at decision {asked}"
        raise Conflict(
            f"field 'decision': decision {decision} was answered already ({grade.get('chosen')}): "
            + now
        )

    # --- actions by index ----------------------------------------------------------------

    def _choices(self) -> list[Any]:
        return self._choices_of(self.state)

    def _apply_index(self, index: int) -> None:
        choices = self._choices()
        if not 0 <= index < len(choices):
            raise NotFound(
                f"saved game {self.id!r} does not replay: action {index} of {len(choices)}"
            )
        self.state.apply_action(choices[index])
        self.actions.append(index)

    def _apply(self, action: Any) -> None:
        self._apply_index(self._choices().index(action))

    def advance(self) -> None:
        """Chance and the bots play until the user's decision (a forced one is made for the
        user: the last grabber takes the pile) or the end."""
        state = self.state
        while True:
            player = state.current_player()
            if player == TERMINAL:
                return
            step = len(self.actions)
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                self._apply(sample_outcome(outcomes, _rng(self.seed, step)))
                continue
            legal = state.legal_actions()
            if player == self.seat:
                if len(legal) > 1:
                    return
                self._apply(legal[0])
                continue
            action = self.policies[player].act(
                state.observation(player), legal, _rng(self.seed, step)
            )
            self._apply(action)

    def your_turn(self) -> bool:
        return bool(self.state.current_player() == self.seat)

    def options_now(self) -> list[Option]:
        if not self.your_turn():
            return []
        legal = self.state.legal_actions()
        return [Option(i, a, *self._label(a)) for i, a in enumerate(legal)]

    def _label(self, action: Any) -> tuple[str, str]:
        if self.game == "packing":
            if action.truck is None:
                return "the pile", "draw the top truck of the pile"
            truck = action.truck
            return (
                f"{truck.name} from {self._name(action.owner)}",
                f"{truck.name}: capacity {truck.capacity}, height {truck.height}",
            )
        way = "face up" if action.face_up else "face down (worth 4, connects to anything)"
        return str(action), f"{action.card} {way}"

    # --- grading -------------------------------------------------------------------------

    def _values(self) -> tuple[list[float], str, str]:
        """Each legal choice's value (lower is better for Pack & Stack: expected penalty;
        higher is better for Express: the advisor's mean), the unit and the measure."""
        state = self.state
        legal = state.legal_actions()
        observation = state.observation(self.seat)
        if self.game == "packing":
            from packing.stats import grab_decision

            revealed = [a.truck for a in legal if a.truck is not None]
            choices = grab_decision(observation.cargo, revealed, observation.draw_pool)
            by_truck = {c.truck: float(c.expected_penalty) for c in choices}
            values = [by_truck[a.truck] for a in legal]
            return values, "expected points", "the exact expected penalty of the grab"
        from express.pimc import advise

        advice = advise(
            observation,
            worlds=GRADE_WORLDS,
            time_limit=GRADE_SECONDS,
            rng=_rng(self.seed, len(self.actions) + 1),
        )
        by_play = {estimate.play: estimate.mean for estimate in advice.plays}
        measure = f"{advice.measure} (exact)" if advice.expectation else advice.measure
        return [by_play[a] for a in legal], "points", measure

    def play(self, index: object) -> dict[str, Any]:
        """Grade the user's choice ``index`` of :meth:`options_now`, apply it, and play on to
        the user's next decision; the grade."""
        if self.state.is_terminal():
            raise BadRequest("the game is over: start a new one")
        if not self.your_turn():
            raise BadRequest("it is not your turn")
        legal = self.state.legal_actions()
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(legal):
            raise BadRequest(
                f"field 'action': {index!r} is not one of your choices (0 to {len(legal) - 1})"
            )
        values, unit, measure = self._values()
        lower_better = self.game == "packing"
        order = sorted(range(len(legal)), key=lambda i: values[i] if lower_better else -values[i])
        best = order[0]
        loss = abs(values[index] - values[best])
        labels = [self._label(a)[0] for a in legal]
        grade = {
            "decision": len(self.grades) + 1,
            "round": int(self.state.round),
            "step": len(self.actions),
            "chosen": labels[index],
            "best": labels[best],
            "loss": round(loss, 3),
            "unit": unit,
            "measure": measure,
            "choices": [{"label": labels[i], "value": round(values[i], 3)} for i in order],
        }
        self._apply_index(index)
        self.grades.append(grade)
        self.advance()
        return grade

    # --- what the user sees --------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """Everything the page shows, from the user's observation only."""
        state = self.state
        finished = state.is_terminal()
        pictures, facts, log, prompt = (
            self._packing_view() if self.game == "packing" else self._express_view()
        )
        options = self.options_now()
        return {
            "id": self.id,
            "game": self.game,
            "players": self.seats,
            "seat": self.seat,
            "seed": self.seed,
            "finished": finished,
            "round": self._round(),
            "rounds": self._rounds(),
            "your_turn": self.your_turn(),
            "decision": self.next_decision() if self.your_turn() else None,
            "prompt": "The game is over." if finished else prompt,
            "choices": [
                {"index": o.index, "label": o.label, "detail": o.detail, "svg": self._svg(o.action)}
                for o in options
            ],
            "pictures": pictures,
            "facts": facts,
            "log": log,
            "last_grade": self.grades[-1] if self.grades else None,
            "grades": self.grades,
            "points_lost": round(sum(g["loss"] for g in self.grades), 3),
            "points_lost_means": POINTS_LOST_MEANS[self.game],
            "result": self.result() if finished else None,
        }

    def _round(self) -> int:
        """The round being played, or the last one played once the game is over (Express's
        state counts one past its last round then)."""
        if self.game == "express":
            return min(int(self.state.round), int(self.state.rounds))
        return int(self.state.round)

    def _rounds(self) -> int | None:
        if self.game == "express":
            return int(self.state.rounds)
        rounds: int | None = self.options.get("max_rounds")
        return rounds

    def _svg(self, action: Any) -> str | None:
        if self.game == "packing":
            if action.truck is None:
                return None
            from packing.svg import truck_svg

            return truck_svg(action.truck, layout="compact")  # the choice's words say the rest
        from express.svg import card_svg

        return card_svg(action.card) if action.face_up else None

    def _name(self, seat: int) -> str:
        return "you" if seat == self.seat else f"P{seat} {self.seats[seat]}"

    def _names(self) -> list[str]:
        return [self._name(seat) for seat in range(len(self.seats))]

    def _packing_view(self) -> tuple[list[dict[str, str]], list[str], list[str], str]:
        from packing.svg import truck_svg

        state = self.state
        seen = state.observation(self.seat)
        rounds = self._rounds()
        facts = [
            f"round {seen.round}{'' if rounds is None else f' of {rounds}'}; points: "
            + ", ".join(f"{self._name(p)} {points}" for p, points in enumerate(seen.points))
        ]
        for p, cargo in enumerate(seen.cargos):
            if cargo is not None:
                facts.append(f"{self._name(p)} rolled {cargo} (volume {cargo.volume})")
        if seen.grab_order is not None:
            facts.append("grab order: " + ", ".join(self._name(p) for p in seen.grab_order))
        facts.append(f"pile: {len(seen.draw_pool)} trucks it may hold")
        pictures = []
        for owner, trucks in enumerate(seen.revealed):
            for truck in trucks:
                where = (
                    "yours: the others may take it, you may not"
                    if owner == self.seat
                    else f"in front of {self._name(owner)}"
                )
                pictures.append(
                    {
                        "label": f"{truck.name} (capacity {truck.capacity}, height "
                        f"{truck.height}), {where}",
                        "svg": truck_svg(truck, layout="compact"),
                    }
                )
        for p, truck in enumerate(seen.taken):
            if truck is not None:
                facts.append(f"{self._name(p)} took {truck.name}")
        log = list(state.log(self._names(), you=self.seat)[-40:])
        prompt = (
            f"You rolled {seen.cargo} (volume {seen.cargo.volume}): grab a truck or draw from "
            "the pile."
            if seen.cargo is not None
            else "Waiting."
        )
        return pictures, facts, log, prompt

    def _express_view(self) -> tuple[list[dict[str, str]], list[str], list[str], str]:
        from express.svg import PHONE_WIDTH, card_svg, train_svg
        from webapp.pictures import shown_train

        state = self.state
        seen = state.observation(self.seat)
        pictures = []
        for seat, plays in enumerate(seen.trains):
            text = ",".join("~" if play is None else str(play) for play in plays)
            train, hidden = shown_train(text)
            pictures.append(
                {
                    "label": f"train of {self._name(seat)}",
                    "svg": train_svg(train, hidden=hidden, width=PHONE_WIDTH),
                }
            )
        for card in seen.hand:
            pictures.append({"label": f"your hand: {card}", "svg": card_svg(card)})
        players = f"{len(self.seats)} players"
        if state.is_terminal():
            facts = [f"the game is over after {seen.rounds} rounds; {players}"]
        else:
            facts = [f"round {self._round()} of {seen.rounds}; {players}"]
        facts.append(f"caboose: {seen.caboose or 'none'}")
        if seen.hand:
            facts.append("your hand: " + ", ".join(str(c) for c in seen.hand))
        log = [
            f"decision {g['decision']} (round {g['round']}): you played {g['chosen']}"
            for g in self.grades
        ]
        prompt = "Play one card of your hand to your train, face up or face down."
        return pictures, facts, log, prompt

    # --- the end ---------------------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        """The end of the game and its review (worked out once)."""
        if self._review is None:
            self._review = self._result()
        return self._review

    def _result(self) -> dict[str, Any]:
        state = self.state
        winners = sorted(state.winners())
        names = ", ".join(self._name(p) for p in winners)
        won = self.seat in winners
        if self.game == "packing":
            points = state.points
            text = f"{'You win' if won else 'Winner: ' + names}; points: " + ", ".join(
                f"{self._name(p)} {n}" for p, n in enumerate(points)
            )
            lost = sum(g["loss"] for g in self.grades)
            lines = [
                f"{len(self.grades)} graded grabs; expected points lost against the table's "
                f"best: {lost:.2f}",
                *(
                    f"round {g['round']}: you took {g['chosen']}, best {g['best']} "
                    f"(cost {g['loss']:.2f})"
                    for g in self.grades
                ),
            ]
            review = {"points": list(points), "rounds": [r.to_dict() for r in state.round_records]}
            return {"winners": winners, "text": text, "review": review, "lines": lines}
        return self._express_result(winners, won, names)

    def _express_result(self, winners: list[int], won: bool, names: str) -> dict[str, Any]:
        from express.review import hindsight

        state = self.state
        score = state.score()
        totals = [player.total for player in score.players]
        text = f"{'You win' if won else 'Winner: ' + names}; scores: " + ", ".join(
            f"{self._name(p)} {t}" for p, t in enumerate(totals)
        )
        mine = hindsight(state)[self.seat]
        lines = [
            f"your train: {mine.train} (solo score {mine.solo}); the best train of the cards you "
            f"saw: {mine.best.train} (score {mine.best.score}): {mine.gap} points short",
        ]
        review: dict[str, Any] = {"score": score.to_dict(), "hindsight": mine.to_dict()}
        review["scores"] = self._score_rows(score)
        review["scoring"] = _scoring_text(score)
        exact = self._exact_losses()
        if exact is not None:
            review["exact_losses"] = exact
            lines.append(
                "against perfect play in this deal (both players knowing the deck order): "
                f"{sum(exact):g} points lost over {len(exact)} decisions"
            )
        return {"winners": winners, "text": text, "review": review, "lines": lines}

    def _score_rows(self, score: Any) -> list[dict[str, Any]]:
        """Each player's score as the rules make it, with the train it was made of (as this
        player sees it at the end: the others' face-down cards stay hidden)."""
        from express.svg import PHONE_WIDTH, train_svg
        from webapp.pictures import shown_train

        seen = self.state.observation(self.seat)
        rows = []
        for player, plays in zip(score.players, seen.trains):
            text = ",".join("~" if play is None else str(play) for play in plays)
            train, hidden = shown_train(text)
            rows.append(
                {
                    "player": player.player,
                    "name": self._name(player.player),
                    "train": text,
                    "svg": train_svg(train, hidden=hidden, width=PHONE_WIDTH),
                    "value": player.value,
                    "longest_run": player.longest_run,
                    "run_bonus": player.run_bonus,
                    "caboose_points": player.caboose_points,
                    "total": player.total,
                    "winner": player.player == score.winner,
                }
            )
        return rows

    def _exact_losses(self) -> list[int] | None:
        """Two players: each of the user's decisions' loss against the best play in the deal
        that was played (:func:`express.exact.play_values` on the game with its deck order
        known); None for more players."""
        if len(self.seats) != 2:
            return None
        from express.cards import Card
        from express.exact import play_values
        from express.game import Game

        played = Game(2, caboose=self.options.get("caboose"))
        order: list[Card] = []
        for index in self.actions:  # the cards in the order chance dealt and drew them
            action = self._choices_of(played)[index]
            if isinstance(action, Card) and played.current_player() == CHANCE:
                order.append(action)
            played.apply_action(action)
        known = Game(2, caboose=played.caboose, order=order)
        replay = Game(2, caboose=self.options.get("caboose"))
        losses = []
        for index in self.actions:
            player = replay.current_player()
            action = self._choices_of(replay)[index]
            replay.apply_action(action)
            if player == CHANCE:
                if isinstance(action, Card) and known.current_player() == CHANCE:
                    known.apply_action(known.chance_outcomes()[0][0])  # one outcome: the order's
                continue
            if player == self.seat:
                values = play_values(known)
                losses.append(max(values.values()) - values[action])
            known.apply_action(action)
        return losses

    @staticmethod
    def _choices_of(state: Any) -> list[Any]:
        if state.current_player() == CHANCE:
            return [action for action, _ in state.chance_outcomes()]
        return list(state.legal_actions())


class Sessions:
    """The games in play, kept in memory (the least recently used beyond ``keep`` are dropped
    and replayed from the store when asked for again)."""

    def __init__(self, store: Store, keep: int = 32) -> None:
        self.store = store
        self.keep = keep
        self._open: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Session:
        with self._lock:
            found = self._open.get(game_id)
            if found is not None:
                self._open.move_to_end(game_id)
                return found
        session = Session(self.store.game(game_id))
        with self._lock:
            session = self._open.setdefault(game_id, session)
            self._open.move_to_end(game_id)
            while len(self._open) > self.keep:
                self._open.popitem(last=False)
        return session

    def create(self, body: object) -> dict[str, Any]:
        saved = new_game(self.store, body)
        return self.get(saved.id).view()

    def view(self, game_id: str) -> dict[str, Any]:
        session = self.get(game_id)
        with session.lock:
            return session.view()

    def move(self, game_id: str, body: object) -> dict[str, Any]:
        """Make the user's move ``{"action": INDEX, "decision": NUMBER}`` and keep it: the new
        view. The move is made on a copy of the game, which becomes the game only once it is
        written (a store that cannot be written raises and the game is as it was); the same
        move sent again answers the game as it stands, without a second move."""
        index, decision = _move_fields(body)
        session = self.get(game_id)
        with session.lock:
            if not session.repeats(decision, index):
                trial = session.trial()
                trial.play(index)
                self.store.save_game(trial.saved())
                session.adopt(trial)
            return session.view()

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._open.pop(game_id, None)


MOVE_FIELDS = ("action", "decision")

POINTS_LOST_MEANS = {
    "packing": (
        "Points lost: for each of your grabs, the expected penalty it costs against the best "
        "grab (exact, from the deck's optimal table; your rods are always loaded optimally, so "
        "only the grab is graded). 0 means you chose the best."
    ),
    "express": (
        "Points lost: for each of your plays, how far its value falls short of the best play's, "
        "the value being the advisor's estimate of your final score minus the best rival's "
        "(a mean over sampled deals, each played out exactly; in the last four turns of a "
        "two-player game exact, every card still to come weighed by its chance). 0 means you "
        "chose the best."
    ),
}
"""What a practice game's "points lost" measures, per game (the page shows it)."""


def _scoring_text(score: Any) -> str:
    """How Express's scores are made, in the words of :mod:`express.scoring`, with this
    game's run award and caboose."""
    owners = "its owners each gain" if len(score.run_winners) > 1 else "its owner gains"
    run = (
        f"the game's longest run is {score.longest_run} cars long, so {owners} {score.longest_run}"
        if score.longest_run
        else "no train has a coloured car, so nobody gains the run award"
    )
    caboose = (
        "there is no caboose"
        if score.caboose is None
        else f"{score.caboose.name}, {score.caboose.points} points to every train that meets "
        f"its condition: {score.caboose.condition}"
    )
    return (
        "Each player scores the train's value (the sum of its cars' numbers, both halves of "
        f"every card; a face-down card counts 2 + 2), plus the longest-run award ({run}), plus "
        f"the caboose ({caboose}). The highest total wins."
    )


def _move_fields(body: object) -> tuple[int, int]:
    """A move's choice index and decision number, checked for their type (whether they fit the
    game is the session's to say)."""
    if not isinstance(body, dict):
        raise BadRequest("the request must be a JSON object with 'action' and 'decision'")
    unknown = sorted(set(body) - set(MOVE_FIELDS))
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r} (fields: {', '.join(MOVE_FIELDS)})")
    for name in MOVE_FIELDS:
        if name not in body:
            raise BadRequest(
                "fields 'action' (a choice's index) and 'decision' (the view's number of the "
                f"decision it answers) are required: {name!r} is missing"
            )
    index, decision = body["action"], body["decision"]
    if isinstance(index, bool) or not isinstance(index, int):
        raise BadRequest(f"field 'action': {index!r} is not a choice's index")
    if isinstance(decision, bool) or not isinstance(decision, int) or decision < 1:
        raise BadRequest(f"field 'decision': {decision!r} is not a decision's number (1 or more)")
    return index, decision


def summaries(store: Store, limit: int = 50) -> list[dict[str, Any]]:
    """The recent games, newest first, as the page lists them."""
    return [
        {
            "id": g.id,
            "game": g.game,
            "players": g.setup.get("seats", []),
            "finished": g.finished,
            "updated": g.updated,
            "decisions": len(g.grades),
            "points_lost": round(sum(float(x.get("loss", 0)) for x in g.grades), 3),
        }
        for g in store.games(limit)
    ]
