// Express advisor (/advisor): build a Yardmaster Express position by tapping cards — your hand,
// every seat's train, the cards you have seen — and ask POST /api/express/advise (exactly what
// `express advise --json` answers) for every candidate play's value, best first. A second panel
// asks POST /api/express/best for the best train of a pool of cards (or a whole deck). Cards
// and trains are drawn by the library (POST /api/express/cards and /api/express/train); the
// page adds no rule of its own: the API judges every position.
import { api, busy, el, fieldLabels, header, number, picture, roomFor, showError } from "/static/common.js";
import { cardFigures, deckCards, drawCardGrid } from "/static/cardpicker.js";

header();
// What this page calls the API's fields: its errors name them so.
fieldLabels({
  players: "Players", seat: "Your seat", round: "Round", hand: "Your hand", train: "The trains",
  seen: "Cards you have seen", start_player: "Start player", pass: "Pass direction", caboose: "Caboose",
  seed: "Seed", worlds: "Worlds", rule: "Value rule", cards: "Cards", length: "Train length",
  time_limit: "Time limit",
});

const $ = (id) => document.getElementById(id);
const errorBox = $("error");

// The first example of `express advise --help`.
const EXAMPLE = {
  players: 3,
  seat: 1,
  round: 4,
  startPlayer: 0,
  pass: "left",
  caboose: "",
  hand: "B2|B2,Y2|Y2,P2|P2,P3|B3",
  trains: ["P4|P4,P3|Y3,Y4|R4,R2|R2", "P2|P3,G3|R3,R2|R3", "R3|G3,G2|G2,B2|B2"],
  seen: "B2|B2,G2|G2,P3|Y3,R2|R2",
  seed: 1,
};

// The position being built: card codes; a train's entries are "R4|B4" (face up),
// "~" (another player's face-down card) or "~R4|B4" (your own face-down card).
const state = {
  hand: [],
  trains: [[], [], []],
  seen: [],
  pool: [],
  faceDown: false, // your own train's picker adds face-down cards
};
let cabooses = [];

const split = (text) => (text ? text.split(",").map((s) => s.trim()).filter(Boolean) : []);
const players = () => Number($("players").value);
const seat = () => Number($("seat").value);
const cardOf = (entry) => (entry.startsWith("~") ? entry.slice(1) : entry);
const countOf = (list, card) => list.filter((entry) => cardOf(entry) === card).length;

// ---- keeping the keyboard focus where it was when a part is drawn again ----

function keepFocus(holder, redraw) {
  const active = document.activeElement;
  const key = active && holder.contains(active) ? active.dataset.focus : null;
  const result = redraw();
  const restore = () => {
    if (!key) return;
    let target = holder.querySelector(`[data-focus="${CSS.escape(key)}"]`);
    if (!target || target.disabled) {
      const [kind, index] = key.split(":");
      if (kind === "remove") {
        const removes = holder.querySelectorAll("[data-focus^='remove:']");
        target = removes[Math.min(Number(index), removes.length - 1)] || null;
      } else if (target) {
        // The card just used its last copy: the next card still open, else the one before.
        const open = [...holder.querySelectorAll("button.card-button")];
        const at = open.indexOf(target);
        target = open.slice(at + 1).find((b) => !b.disabled) || open.slice(0, at).reverse().find((b) => !b.disabled) || null;
      }
    }
    if (target) target.focus();
  };
  if (result && typeof result.then === "function") return result.then(restore);
  restore();
  return result;
}

function markFocus(container) {
  for (const button of container.querySelectorAll("button.card-button")) {
    button.dataset.focus = `card:${button.dataset.card}`;
  }
}

// ---- setup ----

function fillSelect(select, values, label = (v) => String(v)) {
  const previous = select.value;
  select.replaceChildren(...values.map((v) => el("option", { value: String(v), text: label(v) })));
  if (values.map(String).includes(previous)) select.value = previous;
}

function drawSetup() {
  const n = players();
  const seats = [...Array(n).keys()];
  fillSelect($("seat"), seats, (s) => `seat ${s}`);
  fillSelect($("start-player"), seats, (s) => `seat ${s}`);
  // A game has 9 - N rounds (the rules); the API checks the round it is given.
  fillSelect($("round"), [...Array(9 - n).keys()].map((r) => r + 1));
}

async function loadCabooses() {
  try {
    cabooses = await api("/api/express/cabooses", {});
  } catch (error) {
    showError(errorBox, error);
    return;
  }
  for (const id of ["caboose", "best-caboose"]) {
    const select = $(id);
    select.replaceChildren(el("option", { value: "", text: "none" }),
      ...cabooses.map((c) => el("option", { value: c.name, text: `${c.name} (${c.points} points, ${c.kind})` })));
  }
  describeCaboose();
}

function describeCaboose() {
  const found = cabooses.find((c) => c.name === $("caboose").value);
  $("caboose-condition").textContent = found ? `${found.name}: ${found.condition}.` : "";
}

// ---- the hand, the cards seen and the pool ----

const LISTS = {
  hand: { chosen: "hand-chosen", picker: "hand-picker", name: "your hand", add: (c) => `add ${c} to your hand`, from: "from your hand", empty: "No card yet: tap the cards below." },
  seen: { chosen: "seen-chosen", picker: "seen-picker", name: "the cards you have seen", add: (c) => `add ${c} to the cards you have seen`, from: "from the cards you have seen", empty: "None." },
  pool: { chosen: "pool-chosen", picker: "pool-picker", name: "the pool", add: (c) => `add ${c} to the pool`, from: "from the pool", empty: "No card yet: tap the cards below." },
};

// An advice shown is about the position it was asked for: an edit of the position hides it.
function changed(list) {
  if (list !== "pool") hideAdvice();
}

function deckPlayers(list) {
  return list === "pool" ? Number($("best-players").value) : players();
}

async function drawList(list) {
  const spec = LISTS[list];
  const codes = state[list];
  const who = deckPlayers(list);
  const chosen = $(spec.chosen);
  await keepFocus(chosen, async () => {
    await cardFigures(chosen, codes, {
      players: who,
      empty: spec.empty,
      removeLabel: (code, index) => `remove ${code} (card ${index + 1}) ${spec.from}`,
      onRemove: (index) => { codes.splice(index, 1); changed(list); drawList(list); },
    });
    chosen.querySelectorAll("button.remove").forEach((button, index) => { button.dataset.focus = `remove:${index}`; });
  });
  const picker = $(spec.picker);
  const cards = await deckCards(who);
  keepFocus(picker, () => {
    drawCardGrid(picker, cards, {
      name: `cards to add to ${spec.name}`,
      label: spec.add,
      used: (card) => countOf(codes, card),
      onPick: (card) => { codes.push(card); changed(list); drawList(list); },
    });
    markFocus(picker);
  });
}

// ---- the trains ----

const trainRequests = []; // the latest picture request per seat

function trainName(s) {
  return `seat ${s}'s train`;
}

function drawTrains() {
  const holder = $("trains");
  const n = players();
  holder.replaceChildren();
  for (let s = 0; s < n; s += 1) {
    const mine = s === seat();
    const box = el("div", { class: "seat-train", id: `train-${s}`, role: "group", "aria-labelledby": `train-${s}-heading` },
      el("h3", { id: `train-${s}-heading`, text: `Seat ${s}${mine ? " (you)" : ""}` }),
      el("div", { class: "train-picture", id: `train-${s}-picture` }),
      el("div", { class: "error", role: "alert", id: `train-${s}-error` }),
      el("div", { class: "train-cards", id: `train-${s}-cards` }),
      el("div", { class: "row", id: `train-${s}-actions` }),
      el("details", { id: `train-${s}-picker-box` },
        el("summary", { text: `Tap cards to add to ${trainName(s)}` }),
        el("div", { id: `train-${s}-picker` })));
    holder.append(box);
    drawTrain(s);
  }
}

async function drawTrain(s) {
  const entries = state.trains[s];
  const mine = s === seat();
  const name = trainName(s);
  const chips = $(`train-${s}-cards`);
  keepFocus(chips, () => {
    const items = entries.map((entry, index) => {
      const shown = entry === "~" ? "face down" : entry.startsWith("~") ? `${cardOf(entry)} face down` : entry;
      return el("li", {},
        el("span", { text: `${index + 1}. ${shown}` }),
        el("button", {
          type: "button",
          class: "remove",
          "data-focus": `remove:${index}`,
          "aria-label": `remove card ${index + 1} (${shown}) from ${name}`,
          text: "Remove",
          onclick: () => { entries.splice(index, 1); hideAdvice(); drawTrain(s); },
        }));
    });
    chips.replaceChildren(items.length
      ? el("ol", { class: "train-list" }, ...items)
      : el("p", { class: "muted", text: "Engine only." }));
  });

  const actions = $(`train-${s}-actions`);
  keepFocus(actions, () => {
    if (mine) {
      actions.replaceChildren(el("button", {
        type: "button",
        "data-focus": "toggle:face-down",
        "aria-pressed": state.faceDown ? "true" : "false",
        text: "Add face down",
        title: "the cards you tap next go in your train face down",
        onclick: () => { state.faceDown = !state.faceDown; drawTrain(s); },
      }));
    } else {
      actions.replaceChildren(el("button", {
        type: "button",
        "data-focus": "add:hidden",
        "aria-label": `add a face-down card to ${name}`,
        text: "Add a face-down card",
        onclick: () => { entries.push("~"); hideAdvice(); drawTrain(s); },
      }));
    }
  });

  const picker = $(`train-${s}-picker`);
  const cards = await deckCards(players());
  const down = mine && state.faceDown;
  keepFocus(picker, () => {
    drawCardGrid(picker, cards, {
      name: `cards to add to ${name}`,
      label: (card) => (down ? `add ${card} face down to ${name}` : `add ${card} to ${name}`),
      used: (card) => countOf(entries, card),
      onPick: (card) => { entries.push(down ? `~${card}` : card); hideAdvice(); drawTrain(s); },
    });
    markFocus(picker);
  });
  drawTrainPicture(s);
}

async function drawTrainPicture(s) {
  const text = state.trains[s].join(",");
  const ticket = {};
  trainRequests[s] = ticket;
  const holder = $(`train-${s}-picture`);
  const box = $(`train-${s}-error`);
  try {
    // drawn as wide as the page has room for: the cards wrap onto rows, the text keeps its size
    const answer = await api("/api/express/train", { train: text, width: roomFor(holder) });
    if (trainRequests[s] !== ticket || !holder) return;
    showError(box, null);
    holder.replaceChildren(picture(answer.svg, `${trainName(s)}: ${text || "engine only"}`));
  } catch (error) {
    if (trainRequests[s] !== ticket || !holder) return;
    holder.replaceChildren();
    showError(box, error);
  }
}

// ---- when the table changes ----

async function prune() {
  // Cards the deck for this player count does not have (purple with 2 players) leave the lists.
  const have = new Set((await deckCards(players())).map((c) => c.card));
  const keep = (entry) => entry === "~" || have.has(cardOf(entry));
  state.hand = state.hand.filter(keep);
  state.seen = state.seen.filter(keep);
  state.trains = state.trains.map((train) => train.filter(keep));
}

function fixTrains() {
  const n = players();
  while (state.trains.length < n) state.trains.push([]);
  state.trains.length = n;
  // Another seat's face-down card is "~" (nobody else sees which card it was).
  state.trains = state.trains.map((train, s) => (s === seat() ? train : train.map((e) => (e.startsWith("~") ? "~" : e))));
}

async function drawAll() {
  fixTrains();
  try {
    await prune();
  } catch (error) {
    showError(errorBox, error);
    return;
  }
  drawTrains();
  await Promise.all([drawList("hand"), drawList("seen")]);
}

$("players").addEventListener("change", async () => {
  drawSetup();
  $("best-players").value = $("players").value;
  hideAdvice();
  await drawAll();
  await drawPool();
});
$("seat").addEventListener("change", () => { hideAdvice(); drawAll(); });
for (const id of ["round", "start-player", "pass"]) $(id).addEventListener("change", hideAdvice);
$("caboose").addEventListener("change", () => { hideAdvice(); describeCaboose(); });

function hideAdvice() {
  $("advice").hidden = true;
}

// ---- advise ----

function optionalNumber(id) {
  const text = $(id).value.trim();
  return text === "" ? undefined : Number(text);
}

function adviseBody() {
  const body = {
    players: players(),
    seat: seat(),
    round: Number($("round").value),
    hand: state.hand.join(","),
    train: state.trains.map((train) => train.join(",")),
    start_player: Number($("start-player").value),
    pass: $("pass").value,
  };
  if (state.seen.length) body.seen = state.seen.join(",");
  if ($("caboose").value) body.caboose = $("caboose").value;
  const seed = optionalNumber("seed");
  if (seed !== undefined) body.seed = seed;
  const worlds = optionalNumber("worlds");
  if (worlds !== undefined) body.worlds = worlds;
  if ($("rule").value) body.rule = $("rule").value;
  return body;
}

const fixed = (value) => Number(value).toFixed(2);
const describePlay = (play) => (play.startsWith("~") ? `${play.slice(1)} face down` : `${play} face up`);

async function advise() {
  const body = adviseBody();
  const panel = $("advice");
  $("advise-working").textContent = "Sampling the hidden cards and solving each deal… this can take several seconds.";
  panel.setAttribute("aria-busy", "true");
  try {
    const answer = await api("/api/express/advise", body);
    showAdvice(answer, body);
  } catch (error) {
    hideAdvice();
    throw error;
  } finally {
    $("advise-working").textContent = "";
    panel.removeAttribute("aria-busy");
  }
}

function showAdvice(answer, body) {
  const best = answer.recommended;
  $("verdict").replaceChildren(
    el("span", { class: "badge", text: "best" }), " Play ",
    el("strong", { text: describePlay(best) }), best.startsWith("~") ? ` (${best}).` : ".");
  const kind = answer.exact ? "each deal solved exactly" : "each deal played out by the advisor";
  const how = answer.expectation
    ? "exact: every card still to come weighed by its chance, both players playing on at their best (nothing sampled, so no interval)"
    : answer.worlds >= 2 ? `the mean over ${answer.worlds} sampled worlds (${kind}), with its 95 % interval` : `one sampled world (${kind}): one world measures no spread, so no interval`;
  $("measure").textContent = `Value: ${answer.measure}; ${how}, in ${number(answer.seconds, 2)} s.`;
  const rows = answer.plays.map((play) => {
    const isBest = play.play === best;
    return el("tr", { class: isBest ? "best" : null },
      el("th", { scope: "row" },
        isBest ? el("span", { class: "badge", text: "best" }) : null,
        isBest ? " " : null,
        el("span", { class: "play-code", text: play.play }),
        el("span", { class: "play-way", text: play.play.startsWith("~") ? " face down" : " face up" })),
      el("td", { class: "num", text: fixed(play.mean) }),
      el("td", { class: "num interval", text: play.low === null ? "none" : `${fixed(play.low)} … ${fixed(play.high)}` }),
      el("td", { class: "num", text: play.expectation ? "exact" : `${play.worlds}${play.exact === answer.exact ? "" : play.exact ? " exact" : " sampled"}` }));
  });
  $("plays").tBodies[0].replaceChildren(...rows);
  const panel = $("advice");
  panel.hidden = false;
  drawPlayedTrain(body, best);
  panel.scrollIntoView({ behavior: "smooth", block: "start" });
}

async function drawPlayedTrain(body, best) {
  // Your train with the recommended card added, as the library draws it.
  const holder = $("advice-train") || el("div", { id: "advice-train" });
  if (!holder.isConnected) $("verdict").after(holder);
  holder.replaceChildren();
  const mine = body.train[body.seat];
  const text = mine ? `${mine},${best}` : best;
  try {
    const answer = await api("/api/express/train", { train: text, title: "your train with the best play", width: roomFor(holder) });
    holder.replaceChildren(picture(answer.svg, `your train with ${describePlay(best)}: ${text}`));
  } catch (error) {
    holder.replaceChildren();
  }
}

$("advise").addEventListener("click", () => busy($("advise"), errorBox, advise));

// ---- load the example, clear ----

async function loadExample() {
  $("players").value = String(EXAMPLE.players);
  $("best-players").value = String(EXAMPLE.players);
  drawSetup();
  $("seat").value = String(EXAMPLE.seat);
  $("round").value = String(EXAMPLE.round);
  $("start-player").value = String(EXAMPLE.startPlayer);
  $("pass").value = EXAMPLE.pass;
  $("caboose").value = EXAMPLE.caboose;
  describeCaboose();
  $("seed").value = String(EXAMPLE.seed);
  $("worlds").value = "";
  $("rule").value = "";
  state.hand = split(EXAMPLE.hand);
  state.trains = EXAMPLE.trains.map(split);
  state.seen = split(EXAMPLE.seen);
  state.faceDown = false;
  hideAdvice();
  showError(errorBox, null);
  await drawAll();
  await drawPool();
}

$("load-example").addEventListener("click", () => busy($("load-example"), errorBox, loadExample));
$("clear").addEventListener("click", () => {
  state.hand = [];
  state.seen = [];
  state.trains = state.trains.map(() => []);
  state.faceDown = false;
  hideAdvice();
  showError(errorBox, null);
  drawAll();
});

// ---- the best train of any cards ----

async function drawPool() {
  const have = new Set((await deckCards(Number($("best-players").value))).map((c) => c.card));
  state.pool = state.pool.filter((card) => have.has(card));
  await drawList("pool");
}

function showSource() {
  const whole = $("best-source").value === "deck";
  $("pool-box").hidden = whole;
}

$("best-source").addEventListener("change", showSource);
$("best-players").addEventListener("change", () => drawPool().catch((error) => showError($("best-error"), error)));

async function findBest() {
  const body = { length: $("best-length").value.trim() };
  if ($("best-source").value === "deck") body.players = Number($("best-players").value);
  else if (!state.pool.length) throw new Error("the pool holds no card: tap some cards, or choose the whole deck");
  else body.cards = state.pool.join(",");
  if ($("best-caboose").value) body.caboose = $("best-caboose").value;
  $("best-working").textContent = "Searching every train… this can take several seconds.";
  try {
    const answer = await api("/api/express/best", body);
    const train = await api("/api/express/train", { train: answer.train, width: roomFor($("best-picture")) });
    $("best-summary").textContent = `Score ${answer.score}: ${answer.train || "engine only"}`;
    $("best-picture").replaceChildren(picture(train.svg, `the best train: ${answer.train || "engine only"}`));
    const facts = [
      ["Score", String(answer.score)],
      ["Train value", String(answer.value)],
      ["Longest run", String(answer.longest_run)],
      ["Run bonus", String(answer.run_bonus)],
      ["Caboose", answer.caboose ? `${answer.caboose}: ${answer.caboose_points} points` : "none"],
      ["Proven optimal", answer.optimal ? "yes" : "no (the search stopped early)"],
      ["Search", `${answer.nodes} states in ${number(answer.seconds, 3)} s`],
    ];
    $("best-facts").replaceChildren(...facts.flatMap(([name, value]) => [el("dt", { text: name }), el("dd", { text: value })]));
    $("best-result").hidden = false;
  } catch (error) {
    $("best-result").hidden = true;
    throw error;
  } finally {
    $("best-working").textContent = "";
  }
}

$("best").addEventListener("click", () => busy($("best"), $("best-error"), findBest));

// ---- start ----

drawSetup();
showSource();
loadCabooses();
drawAll();
drawPool().catch((error) => showError($("best-error"), error));
