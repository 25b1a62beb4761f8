// Practise: a whole game against the library's bots, every decision graded by the server.
// The page only asks the API (/api/practice...) and shows its answers; the game's id is kept
// in the address (/practice?game=ID) so a reload shows the game where it was.
import { api, el, fieldLabels, get, header, number, picture, showError } from "/static/common.js";

header();
// What this page calls the API's fields: its errors name them so.
fieldLabels({
  game: "Game to play", players: "Seats", seed: "Seed", max_rounds: "Rounds", caboose: "Caboose",
  action: "Your choice", decision: "Decision",
});

const $ = (id) => document.getElementById(id);
const errorBox = $("error");
const GAME_NAMES = { packing: "Pack & Stack", express: "Yardmaster Express" };
const SEATS = { packing: [2, 6], express: [2, 5] };
const DEFAULT_BOTS = { packing: ["optimal", "capacity"], express: ["search", "greedy"] };

let bots = { packing: [], express: [] };
let seats = ["you", "optimal", "capacity"];
let cabooses = null;
let current = null; // the view shown
let working = false;

// --- the setup form ------------------------------------------------------------------------

function gameKind() {
  return $("game").value;
}

function defaultSeats(kind) {
  const names = bots[kind] || [];
  const wanted = DEFAULT_BOTS[kind].filter((b) => names.includes(b));
  for (const b of names) if (wanted.length < 2 && !wanted.includes(b)) wanted.push(b);
  return ["you", ...wanted];
}

function drawSeats() {
  const kind = gameKind();
  const box = $("seats");
  box.replaceChildren();
  seats.forEach((value, i) => {
    const id = `seat-${i}`;
    const select = el("select", { id });
    for (const name of ["you", ...bots[kind]]) {
      const option = el("option", { value: name, text: name === "you" ? "you" : `bot: ${name}` });
      if (name === value) option.selected = true;
      select.append(option);
    }
    select.addEventListener("change", () => {
      const before = seats[i];
      const after = select.value;
      // only one seat is yours: the seat you leave takes the bot this one had
      if (after === "you") seats = seats.map((s, j) => (s === "you" && j !== i ? before : s));
      seats[i] = after;
      drawSeats();
      $(id).focus();
    });
    box.append(el("div", { class: "row seat" }, el("label", { for: id, text: `Seat ${i + 1}` }), select));
  });
  const [low, high] = SEATS[kind];
  $("add-seat").disabled = seats.length >= high;
  $("remove-seat").disabled = seats.length <= low;
}

async function loadCabooses() {
  if (cabooses !== null) return;
  cabooses = [];
  try {
    const list = await api("/api/express/cabooses", {});
    cabooses = Array.isArray(list) ? list : [];
    const select = $("caboose");
    for (const c of cabooses) {
      const text = c.points !== undefined ? `${c.name} (${c.points} points: ${c.condition || ""})` : c.name;
      select.append(el("option", { value: c.name, text }));
    }
  } catch (error) {
    cabooses = null;
    showError(errorBox, error);
  }
}

function gameChanged() {
  const kind = gameKind();
  seats = defaultSeats(kind);
  $("rounds-row").hidden = kind !== "packing";
  $("caboose-row").hidden = kind !== "express";
  if (kind === "express") loadCabooses();
  drawSeats();
}

$("game").addEventListener("change", gameChanged);
$("add-seat").addEventListener("click", () => {
  const names = bots[gameKind()];
  const next = names.find((b) => !seats.includes(b)) || names[0];
  if (next) seats.push(next);
  drawSeats();
});
$("remove-seat").addEventListener("click", () => {
  let i = seats.length - 1;
  if (seats[i] === "you") i -= 1; // keep your seat
  seats.splice(i, 1);
  drawSeats();
});

function setupBody() {
  const kind = gameKind();
  const body = { game: kind, players: [...seats] };
  const seed = $("seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  if (kind === "packing") body.max_rounds = $("rounds").value === "" ? null : Number($("rounds").value);
  else body.caboose = $("caboose").value === "" ? null : $("caboose").value;
  return body;
}

$("start").addEventListener("click", async () => {
  const button = $("start");
  const view = await act(button, "Dealing and letting the bots play to your first decision…", () =>
    api("/api/practice", setupBody()),
  );
  if (view) {
    history.pushState(null, "", `/practice?game=${encodeURIComponent(view.id)}`);
    show(view);
    $("play-heading").focus();
    loadRecent();
  }
});

// --- the game ------------------------------------------------------------------------------

/** Run an API call with the page in its working state; the answer, or undefined on error. */
async function act(button, message, action) {
  if (working) return undefined;
  working = true;
  // a plain text button says it is working; a choice (with its picture) is marked instead
  const relabel = button && button.children.length === 0;
  const label = relabel ? button.textContent : "";
  document.querySelectorAll("#choices button, #start").forEach((b) => { b.disabled = true; });
  if (relabel) button.textContent = "Working…";
  else if (button) button.classList.add("working");
  $("status").textContent = message;
  document.body.setAttribute("aria-busy", "true");
  showError(errorBox, null);
  try {
    return await action();
  } catch (error) {
    showError(errorBox, error);
    $("status").textContent = "";
    return undefined;
  } finally {
    working = false;
    document.body.removeAttribute("aria-busy");
    if (relabel) button.textContent = label;
    else if (button) button.classList.remove("working");
    document.querySelectorAll("#choices button, #start").forEach((b) => { b.disabled = false; });
  }
}

function gradeText(grade) {
  const unit = grade.unit || "points";
  if (!(grade.loss > 0)) return `Best play! (0 ${unit} lost)`;
  return `This cost ${number(grade.loss, 3)} ${unit}; best was ${grade.best}.`;
}

function gradeBox(grade) {
  const box = $("last-grade");
  box.replaceChildren();
  if (!grade) { box.hidden = true; return; }
  box.hidden = false;
  box.className = `grade-box ${grade.loss > 0 ? "lost" : "best"}`;
  box.append(
    el("p", { class: "grade-line", text: gradeText(grade) }),
    el("p", { class: "muted", text: `Decision ${grade.decision}, round ${grade.round}: you chose ${grade.chosen}.` }),
  );
  if (Array.isArray(grade.choices) && grade.choices.length) {
    const rows = grade.choices.map((c) => el(
      "tr", { class: c.label === grade.best ? "best" : (c.label === grade.chosen ? "chosen" : null) },
      el("td", { text: c.label + (c.label === grade.chosen ? " (yours)" : "") }),
      el("td", { class: "num", text: number(c.value, 3) }),
    ));
    const table = el("table", {},
      el("thead", {}, el("tr", {}, el("th", { text: "choice" }), el("th", { class: "num", text: "value" }))),
      el("tbody", {}, ...rows));
    box.append(el("details", {},
      el("summary", { text: "Every choice's value" }),
      grade.measure ? el("p", { class: "muted", text: grade.measure }) : null,
      el("div", { class: "table-wrap" }, table)));
  }
}

function choiceButton(choice, count) {
  const key = count <= 9 ? `${choice.index + 1}` : null;
  const button = el("button", { type: "button", class: "choice" });
  if (choice.svg) button.append(picture(choice.svg, choice.label));
  button.append(el("span", { class: "choice-label", text: choice.label }));
  if (choice.detail && choice.detail !== choice.label) button.append(el("span", { class: "choice-detail", text: choice.detail }));
  if (key) button.setAttribute("aria-keyshortcuts", key);
  button.addEventListener("click", () => move(choice.index, button));
  return button;
}

async function move(index, button) {
  if (!current) return;
  const path = `/api/practice/${encodeURIComponent(current.id)}`;
  // The move names the decision it answers: sent twice (a second tap, a retry after a lost
  // answer) it is made once; answered already in another tab (409), the game is shown as it
  // stands instead.
  const body = { action: index, decision: current.decision };
  let stale = null;
  const view = await act(button, "Grading your decision; the bots are playing on…", async () => {
    try {
      return await api(`${path}/move`, body);
    } catch (error) {
      if (error.status !== 409) throw error;
      stale = error;
      return get(path);
    }
  });
  if (view) {
    show(view);
    if (stale) showError(errorBox, new Error(`${stale.message} (this is the game as it stands now)`));
    const focus = document.querySelector("#choices button") || $("new-game");
    focus.focus();
    loadRecent();
  }
}

function show(view) {
  current = view;
  $("setup").hidden = true;
  $("play").hidden = false;
  const name = GAME_NAMES[view.game] || view.game;
  const rounds = view.rounds ? ` of ${view.rounds}` : "";
  $("play-heading").textContent = view.finished
    ? `${name}: the game is over`
    : `${name}, round ${view.round}${rounds}`;
  $("play-heading").setAttribute("tabindex", "-1");
  $("status").textContent = view.finished
    ? "The game is over."
    : (view.your_turn ? "Your decision." : "Waiting for the bots.");
  $("status").append(` Points lost so far: ${number(view.points_lost || 0, 3)} in ${view.grades.length} graded decision${view.grades.length === 1 ? "" : "s"}.`);
  $("points-lost-means").textContent = view.points_lost_means || "";

  gradeBox(view.last_grade);

  $("decide").hidden = !view.your_turn || view.finished;
  $("prompt").textContent = view.prompt || "";
  const choices = $("choices");
  choices.replaceChildren(...view.choices.map((c) => choiceButton(c, view.choices.length)));
  choices.className = `choices ${view.game}`;

  $("facts").replaceChildren(...view.facts.map((f) => el("li", { text: f })));
  const pictures = $("pictures");
  pictures.className = `pictures ${view.game}`;
  pictures.replaceChildren(...view.pictures.map((p) =>
    el("figure", {}, picture(p.svg, p.label), el("figcaption", { text: p.label }))));

  $("log").replaceChildren(...view.log.map((line) => el("li", { text: line })));
  drawGrades(view);
  drawResult(view);
}

function drawGrades(view) {
  const table = $("grades");
  $("grades-summary").textContent = `Your graded decisions (${view.grades.length}; ${number(view.points_lost || 0, 3)} points lost)`;
  const head = el("thead", {}, el("tr", {},
    el("th", { text: "#" }), el("th", { text: "round" }), el("th", { text: "you chose" }),
    el("th", { text: "best" }), el("th", { class: "num", text: "lost" })));
  const rows = view.grades.map((g) => el("tr", { class: g.loss > 0 ? null : "best" },
    el("td", { text: g.decision }), el("td", { text: g.round }), el("td", { text: g.chosen }),
    el("td", { text: g.best }), el("td", { class: "num", text: `${number(g.loss, 3)} ${g.unit || ""}` })));
  table.replaceChildren(head, el("tbody", {}, ...rows));
}

function drawResult(view) {
  const box = $("result");
  box.replaceChildren();
  if (!view.finished || !view.result) { box.hidden = true; return; }
  box.hidden = false;
  const result = view.result;
  const won = Array.isArray(result.winners) && result.winners.includes(view.seat);
  box.append(
    el("h3", { text: won ? "You won!" : "The game is over" }),
    el("p", { class: "result-line", text: result.text || "" }),
  );
  const scores = result.review && result.review.scores;
  if (Array.isArray(scores) && scores.length) box.append(...scoreBreakdown(scores, result.review.scoring));
  if (Array.isArray(result.lines) && result.lines.length) {
    box.append(el("h4", { text: "Review" }), el("ul", { class: "review" }, ...result.lines.map((l) => el("li", { text: l }))));
    if (view.points_lost_means) box.append(el("p", { class: "muted", text: view.points_lost_means }));
  }
}

/** How every score was made (Express): each train's picture, then a row per player of the
 *  numbers the server sends (the page adds nothing up). */
function scoreBreakdown(scores, scoring) {
  const head = el("thead", {}, el("tr", {},
    el("th", { scope: "col", text: "player" }),
    el("th", { scope: "col", class: "num", text: "train value" }),
    el("th", { scope: "col", class: "num", text: "run award" }),
    el("th", { scope: "col", class: "num", text: "caboose" }),
    el("th", { scope: "col", class: "num", text: "total" })));
  const rows = scores.map((row) => el("tr", { class: row.winner ? "best" : null },
    el("th", { scope: "row", text: row.name + (row.winner ? " (winner)" : "") }),
    el("td", { class: "num", text: String(row.value) }),
    el("td", { class: "num", text: `${row.run_bonus} (run ${row.longest_run})` }),
    el("td", { class: "num", text: String(row.caboose_points) }),
    el("td", { class: "num", text: String(row.total) })));
  const table = el("table", { class: "compact", id: "scores" },
    el("caption", { class: "sr-only", text: "How each score was made" }), head, el("tbody", {}, ...rows));
  const trains = scores.map((row) => el("figure", { class: "score-train" },
    picture(row.svg, `train of ${row.name}: ${row.train || "the engine alone"}`),
    el("figcaption", { text: `${row.name}: ${row.total} points` })));
  return [
    el("h4", { text: "How the scores were made" }),
    el("div", { class: "table-wrap" }, table),
    scoring ? el("p", { class: "muted", text: scoring }) : null,
    el("div", { class: "score-trains" }, ...trains),
  ].filter(Boolean);
}

$("new-game").addEventListener("click", () => {
  current = null;
  history.pushState(null, "", "/practice");
  $("play").hidden = true;
  $("setup").hidden = false;
  showError(errorBox, null);
  $("game").focus();
});

// Number keys pick a choice (1 = the first) when no field has the focus.
document.addEventListener("keydown", (event) => {
  if (!current || !current.your_turn || working || event.ctrlKey || event.metaKey || event.altKey) return;
  const tag = (event.target && event.target.tagName) || "";
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
  if (!/^[1-9]$/.test(event.key)) return;
  const buttons = document.querySelectorAll("#choices button");
  if (buttons.length > 9) return;
  const button = buttons[Number(event.key) - 1];
  if (button) { event.preventDefault(); button.click(); }
});

// --- recent games and loading one ------------------------------------------------------------

async function loadRecent() {
  let games = [];
  try {
    games = (await get("/api/practice")).games || [];
  } catch (error) {
    showError(errorBox, error);
    return;
  }
  const list = $("games");
  if (!games.length) {
    list.replaceChildren(el("li", { class: "muted", text: "No games yet." }));
    return;
  }
  list.replaceChildren(...games.slice(0, 20).map((g) => {
    const when = new Date(g.updated * 1000).toLocaleString();
    const players = (g.players || []).join(", ");
    const state = g.finished ? "finished" : "in progress";
    const line = `${GAME_NAMES[g.game] || g.game}: ${players}; ${state}; ${g.decisions} decision${g.decisions === 1 ? "" : "s"}, ${number(g.points_lost, 3)} points lost; ${when}`;
    const button = el("button", { type: "button", text: g.finished ? "Review" : "Resume", "aria-label": `${g.finished ? "Review" : "Resume"} the ${GAME_NAMES[g.game] || g.game} game of ${when}` });
    button.addEventListener("click", () => open(g.id, button));
    const mark = current && current.id === g.id ? el("strong", { text: " (shown)" }) : null;
    return el("li", { class: "row" }, button, el("span", { text: line }, mark));
  }));
}

async function open(id, button) {
  const view = await act(button, "Loading the game…", () => get(`/api/practice/${encodeURIComponent(id)}`));
  if (view) {
    if (new URLSearchParams(location.search).get("game") !== view.id) {
      history.pushState(null, "", `/practice?game=${encodeURIComponent(view.id)}`);
    }
    show(view);
    $("play-heading").focus();
    loadRecent();
  }
  return view;
}

async function fromAddress() {
  const id = new URLSearchParams(location.search).get("game");
  if (id) {
    const view = await open(id, null);
    if (!view) history.replaceState(null, "", "/practice"); // the error box says why
  } else {
    current = null;
    $("play").hidden = true;
    $("setup").hidden = false;
  }
}

window.addEventListener("popstate", fromAddress);

async function start() {
  try {
    bots = await get("/api/practice/bots");
  } catch (error) {
    showError(errorBox, error);
  }
  gameChanged();
  await fromAddress();
  loadRecent();
}

start();
