// Progress: the server's summary numbers and charts (/api/progress), drawn as it sends them.
import { get, el, picture, showError, header, number } from "/static/common.js";

header();

const $ = (id) => document.getElementById(id);

function numbers(box, pairs) {
  box.replaceChildren(...pairs.flatMap(([name, value]) => [el("dt", { text: name }), el("dd", { text: value })]));
}

const or = (value, digits, unit = "") => (value === null || value === undefined ? "—" : `${number(value, digits)}${unit}`);

async function load() {
  try {
    const { trainer, practice } = await get("/api/progress");
    numbers($("trainer-summary"), [
      ["answers", String(trainer.count)],
      ["mean points lost", or(trainer.mean_loss, 3)],
      ["mean time", or(trainer.mean_seconds, 2, " s")],
    ]);
    $("trainer-loss").replaceChildren(picture(trainer.loss_svg, "chart: points lost per trainer answer, oldest first"));
    $("trainer-seconds").replaceChildren(picture(trainer.seconds_svg, "chart: seconds per trainer answer, oldest first"));
    numbers($("practice-summary"), [
      ["games", String(practice.games)],
      ["finished", String(practice.finished)],
      ["graded decisions", String(practice.decisions)],
    ]);
    $("practice-games").replaceChildren(...Object.entries(practice.by_game).map(([game, one]) => {
      const summary = el("dl", { class: "summary-numbers", id: `practice-summary-${game}` });
      numbers(summary, [
        ["games", String(one.games)],
        ["graded decisions", String(one.decisions)],
        [`mean ${one.unit} lost per decision`, or(one.mean_loss, 3)],
      ]);
      return el("div", { class: "chart", id: `practice-${game}` },
        el("h3", { text: one.name }), summary,
        picture(one.loss_svg, `chart: ${one.name}, mean ${one.unit} lost per decision in each practice game, oldest first`));
    }));
    $("loading").textContent = "";
  } catch (error) {
    $("loading").textContent = "";
    showError($("error"), error);
  }
}

load();
