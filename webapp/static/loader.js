// Loader (/loader): any cargo (five rod counts) on any truck drawn as a grid of cells with a
// height cap; "Solve" asks POST /api/packing/solve (exactly `packing solve --json`) and draws
// the plan with POST /api/packing/plan. A truck can be opened from the deck's pictures
// (POST /api/packing/deck) or from the address: /loader?truck=#####/###../#####&height=2
// (&cargo=3,2,3,0,1&name=S15), as the grab helper links it.
import { api, busy, el, fieldLabels, header, onFileText, picture, truckButtonParts, truckLabel } from "/static/common.js";
import { truckGrid } from "/static/truckgrid.js";

header();
// What this page calls the API's fields: its errors name them so.
fieldLabels({ cargo: "The cargo", truck: "The truck", height: "Height cap", name: "Truck name", deck: "Deck file", plan: "The plan" });

const $ = (id) => document.getElementById(id);
const errorBox = $("error");
const query = new URLSearchParams(location.search);
let truckName = query.get("name") || "";

// The cargo: one number input per rod length.
const counts = [];
for (const length of [1, 2, 3, 4, 5]) {
  const input = el("input", { id: `rods-${length}`, type: "number", min: 0, max: 99, value: 0, inputmode: "numeric" });
  counts.push(input);
  $("cargo").append(el("div", { class: "count" },
    el("label", { for: input.id, text: `Length ${length} rods` }), input));
}
const startCargo = (query.get("cargo") || "3,2,3,0,1").split(",");
counts.forEach((input, index) => { input.value = startCargo[index] ?? "0"; });

// The truck: the shared grid widget and the height cap (5 and up are variants).
const grid = truckGrid($("grid"), { prefix: "truck", onchange: () => nameTruck("") });
function nameTruck(name) {
  truckName = name || "";
  $("truck-heading").textContent = truckName ? `The truck: ${truckName}` : "The truck";
}
const height = $("height");
function heightOptions(extra) {
  const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  if (extra && !values.includes(extra)) values.push(extra);
  height.replaceChildren(...values.map((h) => el("option", { value: h, text: h > 4 ? `${h} (variant)` : String(h) })));
}
heightOptions(null);
height.value = "2";

function openTruck(mask, cap, name) {
  grid.setMask(mask);
  const wanted = Number(cap);
  if (Number.isInteger(wanted) && wanted > 0) {
    heightOptions(wanted);
    height.value = String(wanted);
  }
  nameTruck(name);
}
if (query.get("truck")) openTruck(query.get("truck"), query.get("height") || "2", truckName);

// The deck picker: loaded when it is first opened (the sample deck, or a deck file).
let deckLoaded = false;
async function loadDeck(text, sourceName) {
  const answer = await api("/api/packing/deck", text ? { deck: text } : {});
  deckLoaded = true;
  $("deck-source").textContent = `${sourceName}: ${answer.trucks.length} trucks`;
  $("deck-trucks").replaceChildren(...answer.trucks.map((truck) => el("button", {
    type: "button",
    "aria-label": `open ${truckLabel(truck)}`,
    onclick: () => {
      openTruck(truck.mask, truck.height, truck.name);
      $("truck-heading").scrollIntoView({ block: "start" });
    },
  }, ...truckButtonParts(truck))));
}
$("deck-picker").addEventListener("toggle", () => {
  if ($("deck-picker").open && !deckLoaded) busy(null, errorBox, () => loadDeck("", "the sample deck"));
});
onFileText($("deck-file"), errorBox, (text, file) => loadDeck(text, file.name));

function fact(term, value) {
  return [el("dt", { text: term }), el("dd", { text: String(value) })];
}

$("solve").addEventListener("click", () => busy($("solve"), errorBox, async () => {
  $("result").hidden = true;
  const body = { cargo: counts.map((input) => input.value.trim() || "0").join(","), truck: grid.mask(), height: height.value };
  if (truckName) body.name = truckName;
  const answer = await api("/api/packing/solve", body);
  const status = answer.status === "optimal" ? "optimal (proven)" : `${answer.status} (not proven optimal)`;
  $("facts").replaceChildren(
    ...fact("Penalty", answer.penalty),
    ...fact("Loaded", `${answer.loaded} cubes`),
    ...fact("Empty", `${answer.empty} cubes`),
    ...fact("Left over", `${answer.left_over} cubes`),
    ...fact("Status", status),
  );
  // The library's tall layout: the level maps under the isometric view, readable on a phone.
  const drawn = await api("/api/packing/plan", { plan: answer, layout: "tall" });
  $("plan").replaceChildren(picture(drawn.svg, "the load plan: isometric view and level-by-level maps"));
  $("result").hidden = false;
}));
