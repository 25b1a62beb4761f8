// Grab helper (/grab): tap the five dice and the revealed trucks; "Advise" asks
// POST /api/packing/grab (take a revealed truck or draw from the pile: exactly what
// `packing grab --json` answers). The truck it names is solved for the roll with
// POST /api/packing/solve and its plan drawn with POST /api/packing/plan (the library's SVG, in
// its tall layout: the level maps under the isometric view, readable on a phone and on a desk
// alike); the pile has no plan. POST /api/packing/best ranks the whole deck for the cargo, and
// its best truck, when it is not on the table, is shown as that: an extra, labelled so.
import { api, busy, el, fieldLabels, header, onFileText, picture, truckButtonParts, truckLabel } from "/static/common.js";

header();
// What this page calls the API's fields: its errors name them so.
fieldLabels({ roll: "The dice", revealed: "The revealed trucks", deck: "Deck file" });

// The faces each die shows (packing.DICE; a face is the number of rods of that length),
// each distinct value once.
const FACES = { 1: [1, 2, 3, 4, 5], 2: [0, 1, 2, 3, 4], 3: [0, 1, 2, 3], 4: [0, 1, 2], 5: [0, 1, 2] };
const PILE = "the pile"; // the grab answer's name for drawing from the pile

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
      "aria-label": `truck ${truckLabel(truck)}`,
      onclick: (event) => {
        if (revealed.has(truck.name)) revealed.delete(truck.name); else revealed.add(truck.name);
        event.currentTarget.setAttribute("aria-pressed", revealed.has(truck.name) ? "true" : "false");
      },
    }, ...truckButtonParts(truck));
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
  const what = best.choice === PILE ? "draw from the pile" : `take ${best.choice}`;
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
      el("td", { text: choice.choice === PILE ? "draw" : "take" }),
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

function planSummary(plan) {
  return `${plan.truck.name}: loaded ${plan.loaded}, empty ${plan.empty}, left over ${plan.left_over}, penalty ${plan.penalty}` +
    (plan.status === "optimal" ? " — optimal (proven)." : ` — ${plan.status}.`);
}

/** Draw a plan (an answer's plan object) in `holder` with the library's tall layout. */
async function drawPlan(plan, holder) {
  const drawn = await api("/api/packing/plan", { plan, layout: "tall" });
  holder.replaceChildren(picture(drawn.svg, `load plan of ${plan.truck.name}: isometric view and level-by-level maps`));
}

// The plan of the truck the decision names: that truck (on the table) solved for this roll by
// the server. Drawing from the pile takes no truck yet, so there is no plan to show.
async function showChosen(decision) {
  const best = decision.choices[0];
  const link = $("loader-link");
  if (best.choice === PILE) {
    $("plan-heading").textContent = "No single truck: draw from the pile";
    $("plan-summary").textContent =
      `The pile's expected penalty is ${best.expected_penalty.toFixed(2)}: its mean over the trucks the pile may hold. There is no load plan until you see the truck you draw.`;
    $("plan").replaceChildren();
    link.hidden = true;
    return;
  }
  const truck = trucks.find((t) => t.name === best.choice);
  if (!truck) throw new Error(`the deck shown has no truck ${best.choice}: load the deck again`);
  const plan = await api("/api/packing/solve", {
    cargo: decision.cargo.join(","), truck: truck.mask, height: String(truck.height), name: truck.name,
  });
  $("plan-heading").textContent = `The load plan of ${plan.truck.name}, the truck to take`;
  $("plan-summary").textContent = planSummary(plan);
  await drawPlan(plan, $("plan"));
  const query = new URLSearchParams({
    truck: plan.truck.mask, height: String(plan.truck.height), cargo: plan.cargo.join(","), name: plan.truck.name,
  });
  $("open-loader").textContent = `Open ${plan.truck.name} in the loader`;
  $("open-loader").href = `/loader?${query}`;
  link.hidden = false;
}

// The deck's best truck for the cargo, shown only when it is not on the table, and said so.
async function showDeckBest(ranked, decision, names) {
  const best = ranked.best;
  const box = $("deck-best");
  const name = best.truck.name;
  if (names.includes(name) || decision.choices[0].choice === name) {
    box.hidden = true;
    return;
  }
  $("deck-best-heading").textContent = `Not on the table: ${name}`;
  $("deck-best-summary").textContent =
    `${name} is the deck's best truck for this cargo (penalty ${best.penalty}), but it is not among the revealed trucks: you cannot take it now.`;
  $("deck-best-toggle").textContent = `The load plan of ${name} (not on the table)`;
  $("deck-best-details").open = false;
  await drawPlan(best, $("deck-best-plan"));
  box.hidden = false;
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
  for (const id of ["decision", "ranking-panel"]) $(id).hidden = true;
  const decision = await api("/api/packing/grab", grabBody);
  await showChosen(decision);
  showDecision(decision);
  const ranked = await api("/api/packing/best", withDeck({ roll: rollText }));
  await showDeckBest(ranked, decision, names);
  showRanking(ranked);
}));

drawDice();
busy(null, errorBox, () => loadDeck("", "the sample deck"));
