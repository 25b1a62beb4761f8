// Deck designer (/designer): draw trucks on the shared cell grid (truckgrid.js), add them to a
// deck, or start from the sample deck, a deck file or a saved deck; every change is checked by
// the server (POST /api/packing/deck parses the deck file text this page writes and draws its
// trucks). "Save deck" keeps it (POST /api/decks); "Analyse" compares it with the sample deck
// (POST /api/packing/compare: reports and SVG charts made on the server) and shows
// POST /api/packing/stats for it. The page only formats: every number comes from the server.
import { api, busy, el, fieldLabels, get, header, onFileText, picture, showError, truckFacts } from "/static/common.js";
import { truckGrid } from "/static/truckgrid.js";

header();
// What this page calls the API's fields: its errors name them so.
fieldLabels({
  deck: "Your deck", "decks[0]": "Your deck", "decks[1]": "The sample deck", text: "Your deck",
  name: "Deck name", "labels[0]": "Deck name", replace: "Replace",
});

const $ = (id) => document.getElementById(id);
const errorBox = $("error");
const percent = new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 1, minimumFractionDigits: 1 });
let trucks = []; // [{name, mask, height, capacity, compact_svg, ...}] as /api/packing/deck answers them
let sampleText = "";

const grid = truckGrid($("grid"), { prefix: "draw" });
$("truck-height").replaceChildren(...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(
  (h) => el("option", { value: h, text: h > 4 ? `${h} (variant)` : String(h) })));
$("truck-height").value = "2";

/** The deck file text of a list of trucks (README: "NAME height N", then the mask rows). */
function deckText(list) {
  const blocks = list.map((t) => `${t.name} height ${t.height}\n${t.mask.split("/").join("\n")}\n`);
  return `; drawn in the deck designer\n\n${blocks.join("\n")}`;
}

/** Ask the server to read `text` as a deck; show its trucks. */
async function useDeck(text) {
  const answer = await api("/api/packing/deck", { deck: text });
  trucks = answer.trucks;
  drawDeck();
}

function drawDeck() {
  $("deck-count").textContent = trucks.length
    ? `${trucks.length} truck${trucks.length === 1 ? "" : "s"}`
    : "No trucks yet: draw one, or start from the sample deck, a deck file or a saved deck.";
  $("deck").replaceChildren(...trucks.map((truck, index) => el("div", { class: "deck-card" },
    picture(truck.compact_svg, `truck ${truck.name}`),
    el("span", { class: "name", text: truck.name }),
    el("span", { class: "truck-facts", text: truckFacts(truck) }),
    el("button", {
      type: "button",
      "aria-label": `remove ${truck.name}`,
      text: "Remove",
      onclick: () => {
        trucks = trucks.filter((_, i) => i !== index);
        drawDeck();
      },
    }))));
  $("deck-text").value = trucks.length ? deckText(trucks) : "";
  $("results").hidden = true;
}

async function sampleDeckText() {
  if (!sampleText) sampleText = deckText((await api("/api/packing/deck", {})).trucks);
  return sampleText;
}

$("sample").addEventListener("click", () => busy($("sample"), errorBox, async () => useDeck(await sampleDeckText())));
$("empty").addEventListener("click", () => { showError(errorBox, null); trucks = []; drawDeck(); });

onFileText($("deck-file"), errorBox, async (text, file) => {
  await useDeck(text);
  $("deck-name").value = file.name.replace(/\.txt$/i, "").slice(0, 60);
});

$("add").addEventListener("click", () => busy($("add"), errorBox, async () => {
  const drawn = { name: $("truck-name").value.trim(), mask: grid.mask(), height: $("truck-height").value };
  if (!drawn.name) throw new Error("give the truck a name (one word, e.g. X01)");
  await useDeck(deckText([...trucks, drawn]));
  $("truck-name").value = "";
}));

// Saved decks: GET /api/decks lists them; each loads, is renamed (PATCH) or deleted (DELETE,
// after a second tap that confirms it: no dialog) with its own buttons.
async function listSaved() {
  const answer = await get("/api/decks");
  $("saved").replaceChildren(...(answer.decks.length
    ? answer.decks.map(savedDeck)
    : [el("li", { class: "muted", text: "none yet" })]));
}

function savedDeck(deck) {
  const item = el("li", { class: "saved-deck" });
  const plain = () => item.replaceChildren(
    el("span", { class: "name", text: deck.name }),
    el("span", { class: "row" },
      el("button", {
        type: "button",
        text: "Load",
        "aria-label": `Load ${deck.name}`,
        onclick: (event) => busy(event.currentTarget, errorBox, async () => {
          await useDeck(deck.text);
          $("deck-name").value = deck.name;
        }),
      }),
      el("button", { type: "button", text: "Rename", "aria-label": `Rename ${deck.name}`, onclick: renaming }),
      el("button", { type: "button", text: "Delete", "aria-label": `Delete ${deck.name}`, onclick: deleting })));
  function renaming() {
    const id = `rename-${deck.id}`;
    const input = el("input", { id, type: "text", maxlength: 60, autocomplete: "off", value: deck.name });
    item.replaceChildren(
      el("label", { for: id, text: `New name for ${deck.name}` }), input,
      el("span", { class: "row" },
        el("button", {
          type: "button",
          text: "Save the name",
          onclick: (event) => busy(event.currentTarget, errorBox, async () => {
            await api(`/api/decks/${encodeURIComponent(deck.id)}`, { name: input.value }, "PATCH");
            await listSaved();
          }),
        }),
        el("button", { type: "button", text: "Cancel", onclick: plain })));
    input.focus();
  }
  function deleting() {
    const yes = el("button", {
      type: "button",
      class: "danger",
      text: `Delete ${deck.name}`,
      onclick: (event) => busy(event.currentTarget, errorBox, async () => {
        await api(`/api/decks/${encodeURIComponent(deck.id)}`, {}, "DELETE");
        await listSaved();
      }),
    });
    item.replaceChildren(
      el("span", { class: "name", text: `Delete ${deck.name} for good?` }),
      el("span", { class: "row" }, yes, el("button", { type: "button", text: "Keep it", onclick: plain })));
    yes.focus();
  }
  plain();
  return item;
}

async function save(replace) {
  $("saved-note").textContent = "";
  $("replace").hidden = true;
  if (!trucks.length) throw new Error("the deck holds no truck: add one first");
  const body = { name: $("deck-name").value, text: deckText(trucks) };
  if (replace) body.replace = true;
  try {
    const saved = await api("/api/decks", body);
    $("saved-note").textContent = `Saved as “${saved.name}”.`;
  } catch (error) {
    if (error.status === 409) $("replace").hidden = false; // the name is taken: offer to replace it
    throw error;
  }
  await listSaved();
}

$("save").addEventListener("click", () => busy($("save"), errorBox, () => save(false)));
$("replace").addEventListener("click", () => busy($("replace"), errorBox, () => save(true)));

// The comparison's measures, a row each (a column per deck fits a phone where a column per
// measure does not); each is explained under the table.
const MEASURES = [
  ["Coverage", (deck) => deck.coverage.toFixed(2)],
  ["Balance", (deck) => percent.format(deck.balance)],
  ["Skill", (deck) => deck.skill.toFixed(2)],
  ["Best truck's E[penalty]", (deck) => deck.best_mean_penalty.toFixed(2)],
  ["Dominated trucks", (deck) => String(deck.dominated.length)],
];

function showComparison(answer) {
  const table = $("summary");
  table.tHead.replaceChildren(el("tr", {},
    el("th", { scope: "col", text: "Measure" }),
    ...answer.decks.map((deck) => el("th", { scope: "col", class: "num", text: deck.deck }))));
  table.tBodies[0].replaceChildren(...MEASURES.map(([name, shown]) => el("tr", {},
    el("th", { scope: "row", text: name }),
    ...answer.decks.map((deck) => el("td", { class: "num", text: shown(deck) })))));
  $("facts").replaceChildren(...answer.decks.map((deck) => el("li", {
    text: deck.facts_broken.length
      ? `${deck.deck} breaks ${deck.facts_broken.length} published fact${deck.facts_broken.length === 1 ? "" : "s"}: ${deck.facts_broken.join("; ")}`
      : `${deck.deck} honours every published fact.`,
  })));
  $("charts").replaceChildren(
    picture(answer.charts.best_by_volume, "chart: the best truck's expected penalty by load volume, one line per deck"),
    ...answer.charts.p_best.map((svg, index) => picture(svg, `chart: P(best) per truck of ${answer.decks[index].deck}`)),
  );
}

function showStats(stats) {
  $("stats-summary").textContent = `Mean load volume over all 7,776 rolls: ${stats.mean_volume.toFixed(2)} cubes. P(best) counts ties: every truck tied for the least penalty is best.`;
  $("stats").tBodies[0].replaceChildren(...stats.trucks.map((t) => el("tr", {},
    el("th", { scope: "row", text: t.truck }),
    el("td", { class: "num", text: String(t.capacity) }),
    el("td", { class: "num", text: String(t.height) }),
    el("td", { class: "num", text: t.expected_penalty.toFixed(2) }),
    el("td", { class: "num", text: percent.format(t.p_best) }),
    el("td", { class: "num", text: percent.format(t.p_perfect) }))));
  $("heuristic").replaceChildren(...stats.heuristic.map((h) => el("li", {
    text: `${h.revealed ? `${h.revealed} revealed + pile (${h.samples} sampled sets)` : "any truck of the deck (exact)"}: mean loss ${h.mean_loss.toFixed(2)}, worst ${h.worst_loss.toFixed(2)} (roll ${h.worst_roll}), worse in ${percent.format(h.p_loses)} of rolls`,
  })));
}

$("analyse").addEventListener("click", () => busy($("analyse"), errorBox, async () => {
  if (!trucks.length) throw new Error("the deck holds no truck: add one first");
  const mine = deckText(trucks);
  $("results").hidden = true;
  $("working").textContent = "Working: solving every roll on every new truck of your deck. A new deck can take up to two minutes…";
  try {
    const compared = await api("/api/packing/compare", {
      decks: [mine, await sampleDeckText()],
      labels: [$("deck-name").value.trim() || "your deck", "sample deck"],
    });
    showComparison(compared);
    $("working").textContent = "Working: the deck's statistics…";
    showStats(await api("/api/packing/stats", { deck: mine }));
    $("results").hidden = false;
  } finally {
    $("working").textContent = "";
  }
}));

drawDeck();
busy(null, errorBox, listSaved);
