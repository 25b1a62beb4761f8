// Grab helper (/grab): tap the five dice and the revealed trucks; "Advise" asks
// POST /api/packing/grab (take a revealed truck or draw from the pile: exactly what
// `packing grab --json` answers), then POST /api/packing/best (the deck ranked for this cargo)
// and draws the best load plan with POST /api/packing/plan (the library's SVG).
import { api, busy, el, fieldLabels, header, onFileText, picture, showError } from "/static/common.js";

header();
// What this page calls the API's fields: its errors name them so.
fieldLabels({ roll: "The dice", revealed: "The revealed trucks", deck: "Deck file" });

// The faces each die shows (packing.DICE; a face is the number of rods of that length),
// each distinct value once.
const FACES = { 1: [1, 2, 3, 4, 5], 2: [0, 1, 2, 3, 4], 3: [0, 1, 2, 3], 4: [0, 1, 2], 5: [0, 1, 2] };

const roll = { 1: null, 2: null, 3: null, 4: null, 5: null };
const revealed = new Set();
let deckText = ""; // "" is the sample deck
let trucks = [];

const $ = (id) => document.getElementById(id);
const errorBox = $("error");

// The pressed state is set on the buttons in place: redrawing them would drop the keyboard's
// focus to the page, and a keyboard user would start again from the top.
function markDie(length, buttons) {
  FACES[length].forEach((face, k) => {
    buttons[k].setAttribute("aria-pressed", roll[length] === face ? "true" : "false");
  });
}

function drawDice() {
  const holder = $("dice");
  holder.replaceChildren();
  for (const length of [1, 2, 3, 4, 5]) {
    const buttons = [];
    for (const face of FACES[length]) {
      const rods = `${face} rod${face === 1 ? "" : "s"}`;
      buttons.push(el("button", {
        type: "button",
        "aria-pressed": roll[length] === face ? "true" : "false",
        "aria-label": `length ${length}: ${rods}`,
        text: String(face),
        onclick: () => { roll[length] = roll[length] === face ? null : face; markDie(length, buttons); },
      }));
    }
    holder.append(el("div", { class: "grab-die", role: "group", "aria-label": `length ${length} die` },
      el("span", { class: "grab-die-name", text: `Length ${length}` }),
      el("div", { class: "grab-faces" }, ...buttons)));
  }
}

function drawTrucks() {
  const holder = $("trucks");
  holder.replaceChildren();
  for (const truck of trucks) {
    const on = revealed.has(truck.name);
    const button = el("button", {
      type: "button",
      "aria-pressed": on ? "true" : "false",
      "aria-label": `truck ${truck.name}`,
      onclick: (event) => {
        if (revealed.has(truck.name)) revealed.delete(truck.name); else revealed.add(truck.name);
        event.currentTarget.setAttribute("aria-pressed", revealed.has(truck.name) ? "true" : "false");
      },
    }, picture(truck.svg, `truck ${truck.name}`), el("span", { text: truck.name }));
    holder.append(button);
  }
}

async function loadDeck(text, sourceName) {
  const answer = await api("/api/packing/deck", text ? { deck: text } : {});
  deckText = text;
  trucks = answer.trucks;
  revealed.clear();
  $("deck-source").textContent = `${sourceName}: ${trucks.length} trucks`;
  drawTrucks();
}

$("sample").addEventListener("click", () => {
  $("deck-file").value = "";
  busy($("sample"), errorBox, () => loadDeck("", "the sample deck"));
});

onFileText($("deck-file"), errorBox, (text, file) => loadDeck(text, file.name));

function withDeck(body) {
  return deckText ? { ...body, deck: deckText } : body;
}

function showDecision(answer) {
  const [best, next] = answer.choices;
  const verdict = $("verdict");
  const what = best.choice === "the pile" ? "draw from the pile" : `take ${best.choice}`;
  verdict.replaceChildren(el("strong", { text: `Best: ${what}` }));
  if (next) {
    // The margin: the next option's expected penalty less the best's, both from the answer.
    const margin = next.expected_penalty - best.expected_penalty;
    verdict.append(margin > 0
      ? ` — it beats ${next.choice} by ${margin.toFixed(2)} expected points.`
      : ` — tied with ${next.choice}.`);
  }
  const body = $("choices").tBodies[0];
  body.replaceChildren();
  answer.choices.forEach((choice, index) => {
    body.append(el("tr", { class: index === 0 ? "best" : null },
      el("th", { scope: "row", text: choice.choice + (index === 0 ? " (best)" : "") }),
      el("td", { text: choice.choice === "the pile" ? "draw" : "take" }),
      el("td", { class: "num", text: choice.expected_penalty.toFixed(2) }),
      el("td", { class: "num", text: choice.exact })));
  });
  $("heuristic").textContent = answer.closest_capacity
    ? `The closest-capacity rule of thumb would take ${answer.closest_capacity}.`
    : "";
  $("decision").hidden = false;
}

function showRanking(answer) {
  $("ranking-summary").textContent =
    `Cargo ${answer.cargo.join(",")}: ${answer.volume} cubes. A blind draw from the whole deck expects a penalty of ${answer.blind_draw_expected_penalty.toFixed(2)}.`;
  const body = $("ranking").tBodies[0];
  body.replaceChildren();
  answer.ranking.forEach((row, index) => {
    body.append(el("tr", { class: index === 0 ? "best" : null },
      el("th", { scope: "row", text: row.truck + (row.variant ? " (variant)" : "") }),
      el("td", { class: "num", text: String(row.capacity) }),
      el("td", { class: "num", text: String(row.height) }),
      el("td", { class: "num", text: String(row.penalty) }),
      el("td", { text: row.optimal ? "yes" : "no (time limit)" })));
  });
  $("ranking-panel").hidden = false;
}

async function showPlan(best) {
  const drawn = await api("/api/packing/plan", { plan: best });
  $("plan-summary").textContent =
    `${best.truck.name}: loaded ${best.loaded}, empty ${best.empty}, left over ${best.left_over}, penalty ${best.penalty}` +
    (best.status === "optimal" ? " — optimal (proven)." : ` — ${best.status}.`);
  $("plan").replaceChildren(picture(drawn.svg, `load plan of ${best.truck.name}: isometric view and level-by-level maps`));
  const query = new URLSearchParams({
    truck: best.truck.mask, height: String(best.truck.height), cargo: best.cargo.join(","), name: best.truck.name,
  });
  $("open-loader").href = `/loader?${query}`;
  $("plan-panel").hidden = false;
}

$("advise").addEventListener("click", () => busy($("advise"), errorBox, async () => {
  const missing = [1, 2, 3, 4, 5].filter((length) => roll[length] === null);
  if (missing.length) {
    throw new Error(`tap a face for each die: length ${missing.join(", ")} ${missing.length === 1 ? "has" : "have"} none`);
  }
  const rollText = [1, 2, 3, 4, 5].map((length) => roll[length]).join(",");
  const names = trucks.map((truck) => truck.name).filter((name) => revealed.has(name));
  const grabBody = withDeck({ roll: rollText });
  if (names.length) grabBody.revealed = names.join(",");
  for (const id of ["decision", "ranking-panel", "plan-panel"]) $(id).hidden = true;
  showDecision(await api("/api/packing/grab", grabBody));
  const ranked = await api("/api/packing/best", withDeck({ roll: rollText }));
  showRanking(ranked);
  await showPlan(ranked.best);
}));

drawDice();
busy(null, errorBox, () => loadDeck("", "the sample deck"));
