// The grab trainer: deal a roll and revealed trucks (/api/trainer/deal), time the pick from the
// moment the deal is shown, and let the server grade and keep it (/api/trainer/answer).
import { api, el, fieldLabels, get, header, number, showError, truckButtonParts, truckLabel } from "/static/common.js";

header();
// What this page calls the API's fields: its errors name them so.
fieldLabels({ revealed: "Revealed trucks", roll: "The roll", chosen: "Your grab", seconds: "Time" });

const $ = (id) => document.getElementById(id);
const errorBox = $("error");
const PILE = "the pile";

let deal = null; // the question shown
let shownAt = 0; // performance.now() when it was drawn
let answered = false;
let dealing = false;
const session = []; // this visit's grades, newest first

function choiceButtons() {
  return [...document.querySelectorAll("#trucks button"), $("pile")];
}

async function newDeal() {
  if (dealing) return;
  dealing = true;
  showError(errorBox, null);
  const button = $("deal");
  button.disabled = true;
  $("next").disabled = true;
  try {
    const question = await api("/api/trainer/deal", { revealed: Number($("revealed-count").value) });
    showDeal(question);
  } catch (error) {
    showError(errorBox, error);
  } finally {
    dealing = false;
    button.disabled = false;
    $("next").disabled = false;
  }
}

function showDeal(question) {
  deal = question;
  answered = false;
  $("grade").hidden = true;
  $("question").hidden = false;
  $("roll-text").textContent = `Roll ${question.roll}: volume ${question.volume}. ${question.pile} trucks in the pile.`;
  const counts = String(question.roll).split(",");
  $("dice").replaceChildren(...counts.map((count, i) => el("div", {
    class: "die", role: "listitem", "aria-label": `length ${i + 1}: ${count} rods`,
  }, el("span", { class: "die-count", text: count }), el("span", { class: "die-length", text: `length ${i + 1}` }))));
  $("trucks").replaceChildren(...question.revealed.map((truck, i) => {
    const button = el("button", { type: "button", "aria-label": `Grab ${truckLabel(truck)} (key ${i + 1})`, "aria-keyshortcuts": String(i + 1) },
      ...truckButtonParts(truck, `${i + 1} · ${truck.name}`));
    button.addEventListener("click", () => choose(truck.name, button));
    return button;
  }));
  const pile = $("pile");
  pile.textContent = `0 · Draw from the pile (${question.pile} trucks)`;
  pile.setAttribute("aria-label", "Draw from the pile (key 0 or P)");
  pile.setAttribute("aria-keyshortcuts", "0 P");
  choiceButtons().forEach((b) => { b.disabled = false; b.removeAttribute("aria-pressed"); });
  $("question-heading").focus();
  // the clock starts when the deal is on the screen
  requestAnimationFrame(() => { shownAt = performance.now(); });
  shownAt = performance.now();
}

$("pile").addEventListener("click", () => choose(PILE, $("pile")));

async function choose(name, button) {
  if (!deal || answered) return;
  const seconds = Math.max(0.001, (performance.now() - shownAt) / 1000);
  answered = true;
  choiceButtons().forEach((b) => { b.disabled = true; });
  button.setAttribute("aria-pressed", "true");
  showError(errorBox, null);
  try {
    const grade = await api("/api/trainer/answer", {
      roll: deal.roll,
      revealed: deal.revealed.map((t) => t.name),
      chosen: name,
      seconds: Number(seconds.toFixed(3)),
    });
    showGrade(grade);
    session.unshift(grade);
    drawSession();
    loadSummary();
  } catch (error) {
    answered = false;
    choiceButtons().forEach((b) => { b.disabled = false; });
    button.removeAttribute("aria-pressed");
    showError(errorBox, error);
  }
}

function showGrade(grade) {
  const box = $("grade-box");
  const best = !(grade.loss > 0);
  box.className = `grade-box ${best ? "best" : "lost"}`;
  const line = best
    ? `Best grab! ${grade.chosen}, in ${number(grade.seconds, 2)} s (0 points lost).`
    : `${grade.chosen} cost ${number(grade.loss, 3)} expected points; best was ${grade.best}. Time: ${number(grade.seconds, 2)} s.`;
  const rows = (grade.choices || []).map((c) => el("tr", { class: c.label === grade.best ? "best" : null },
    el("td", { text: c.label + (c.label === grade.chosen ? " (yours)" : "") }),
    el("td", { class: "num", text: number(c.value, 3) })));
  box.replaceChildren(
    el("p", { class: "grade-line", text: line }),
    el("details", {}, el("summary", { text: "Every choice, best first" }),
      el("p", { class: "muted", text: "Expected penalty points of each choice (lower is better)." }),
      el("div", { class: "table-wrap" }, el("table", {},
        el("thead", {}, el("tr", {}, el("th", { text: "choice" }), el("th", { class: "num", text: "expected penalty" }))),
        el("tbody", {}, ...rows)))),
  );
  $("grade").hidden = false;
  $("next").focus();
}

function drawSession() {
  const table = $("session");
  if (!session.length) { table.replaceChildren(); return; }
  const head = el("thead", {}, el("tr", {},
    el("th", { text: "roll" }), el("th", { text: "you" }), el("th", { text: "best" }),
    el("th", { class: "num", text: "lost" }), el("th", { class: "num", text: "seconds" })));
  const rows = session.slice(0, 20).map((g) => el("tr", { class: g.loss > 0 ? null : "best" },
    el("td", { text: g.roll }), el("td", { text: g.chosen }), el("td", { text: g.best }),
    el("td", { class: "num", text: number(g.loss, 3) }), el("td", { class: "num", text: number(g.seconds, 2) })));
  table.replaceChildren(el("caption", { text: `This visit: ${session.length} answer${session.length === 1 ? "" : "s"} (latest first)` }), head, el("tbody", {}, ...rows));
}

async function loadSummary() {
  try {
    const { summary } = await get("/api/trainer");
    $("summary").textContent = summary.count
      ? `All your answers (the last ${summary.count}): ${number(summary.mean_loss, 3)} expected points lost and ${number(summary.mean_seconds, 2)} s on average.`
      : "No answers yet: deal one.";
  } catch (error) {
    showError(errorBox, error);
  }
}

$("deal").addEventListener("click", newDeal);
$("next").addEventListener("click", newDeal);

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const tag = (event.target && event.target.tagName) || "";
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
  const key = event.key.toLowerCase();
  if (deal && !answered && !$("question").hidden) {
    if (key === "0" || key === "p") { event.preventDefault(); $("pile").click(); return; }
    if (/^[1-9]$/.test(key)) {
      const button = document.querySelectorAll("#trucks button")[Number(key) - 1];
      if (button) { event.preventDefault(); button.click(); }
      return;
    }
  }
  if (answered && key === "n") { event.preventDefault(); newDeal(); }
});

loadSummary();
