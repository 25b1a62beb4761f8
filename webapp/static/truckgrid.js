// The truck-drawing widget the loader and the designer share: a grid of toggle buttons, one per
// cell (pressed = loadable '#'), with labelled row and column counts (1..6). It only edits a
// mask; the server checks it (a mask with no loadable cell is refused there, in one line).
import { el } from "/static/common.js";

const LARGEST = 6;

/** A truck grid inside `holder`. `prefix` keeps the inputs' ids unique on the page.
 *  `onchange()` is called when the user changes a cell or the size.
 *  Returns {mask(): "#####/###../#####", setMask(text)}. */
export function truckGrid(holder, { prefix = "grid", rows = 3, columns = 5, onchange = null } = {}) {
  let cells = []; // cells[r][c] = true when loadable
  const rowsInput = el("input", { id: `${prefix}-rows`, type: "number", min: 1, max: LARGEST, value: rows, inputmode: "numeric" });
  const columnsInput = el("input", { id: `${prefix}-columns`, type: "number", min: 1, max: LARGEST, value: columns, inputmode: "numeric" });
  const board = el("div", { class: "cells", role: "group", "aria-label": "truck cells: pressed is loadable" });

  function resize(newRows, newColumns) {
    const next = [];
    for (let r = 0; r < newRows; r++) {
      next.push([]);
      for (let c = 0; c < newColumns; c++) {
        next[r].push(r < cells.length && c < cells[r].length ? cells[r][c] : true);
      }
    }
    cells = next;
    draw();
  }

  function draw() {
    board.replaceChildren();
    board.dataset.columns = String(cells[0].length);
    cells.forEach((row, r) => {
      row.forEach((on, c) => {
        const button = el("button", {
          type: "button",
          "aria-pressed": on ? "true" : "false",
          "aria-label": `row ${r + 1}, column ${c + 1}`,
          text: on ? "#" : "·",
          onclick: () => {
            cells[r][c] = !cells[r][c];
            button.setAttribute("aria-pressed", cells[r][c] ? "true" : "false");
            button.textContent = cells[r][c] ? "#" : "·";
            if (onchange) onchange();
          },
        });
        board.append(button);
      });
    });
  }

  function clamp(input) {
    const value = Math.round(Number(input.value));
    return Number.isFinite(value) ? Math.min(LARGEST, Math.max(1, value)) : 1;
  }

  const onSize = () => {
    const newRows = clamp(rowsInput);
    const newColumns = clamp(columnsInput);
    rowsInput.value = newRows;
    columnsInput.value = newColumns;
    if (cells.length === newRows && cells[0].length === newColumns) return; // nothing to redraw
    resize(newRows, newColumns);
    if (onchange) onchange();
  };
  // While typing (not on leaving the field): the grid is the new size before the next tap, so
  // a tap on a cell right after typing is not lost to a redraw. A field still empty or out of
  // range waits; leaving it puts the clamped value back.
  const whileTyping = (input) => () => {
    const value = Number(input.value);
    if (input.value !== "" && Number.isInteger(value) && value >= 1 && value <= LARGEST) onSize();
  };
  rowsInput.addEventListener("input", whileTyping(rowsInput));
  columnsInput.addEventListener("input", whileTyping(columnsInput));
  rowsInput.addEventListener("change", onSize);
  columnsInput.addEventListener("change", onSize);

  holder.append(
    el("div", { class: "row" },
      el("label", { for: rowsInput.id, text: "Rows" }), rowsInput,
      el("label", { for: columnsInput.id, text: "Columns" }), columnsInput),
    board,
  );
  resize(rows, columns);

  return {
    mask: () => cells.map((row) => row.map((on) => (on ? "#" : ".")).join("")).join("/"),
    setMask(text) {
      const lines = String(text).split("/");
      const width = Math.max(...lines.map((line) => line.length));
      cells = lines.map((line) => Array.from({ length: width }, (_, c) => line[c] === "#"));
      rowsInput.value = String(cells.length);
      columnsInput.value = String(width);
      draw();
    },
  };
}
