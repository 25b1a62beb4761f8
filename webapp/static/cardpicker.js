// A reusable Yardmaster Express card picker: a wrapping grid of card buttons (the library's
// card pictures from POST /api/express/cards), one button per distinct card of the deck, that
// calls back with the chosen card's code. A deck holds some cards more than once; a button
// shows how many copies are left for the list it fills and turns off when none is.
//
//   import { renderCardPicker, deckCards, cardFigures } from "/static/cardpicker.js";
//   await renderCardPicker(holder, { players: 3, label: (c) => `add ${c} to your hand`,
//                                    onPick: (c) => ..., used: (c) => countInMyList(c) });
import { api, el, picture } from "/static/common.js";

const decks = new Map(); // players ("" = the full deck) -> Promise of [{card, svg, copies}]

/** The distinct cards of the deck for `players` (2 to 5; "" or null: the full deck), in the
 *  deck's order, each with its compact picture (the values large, no colour letter: the code
 *  is written beside it) and how many copies the deck has. Asked once per player count. */
export function deckCards(players) {
  const key = players ? String(players) : "";
  if (!decks.has(key)) {
    const request = api("/api/express/cards", key ? { players: Number(key) } : {}).then((answer) => {
      const byCode = new Map();
      for (const { card, compact_svg: svg } of answer.cards) {
        if (byCode.has(card)) byCode.get(card).copies += 1;
        else byCode.set(card, { card, svg, copies: 1 });
      }
      return [...byCode.values()];
    });
    request.catch(() => decks.delete(key)); // a failed request is asked again next time
    decks.set(key, request);
  }
  return decks.get(key);
}

/** The picture (SVG text) of one card, from any deck already asked for; "" if unknown. */
export async function cardSvg(code, players) {
  const cards = await deckCards(players);
  const found = cards.find((entry) => entry.card === code);
  return found ? found.svg : "";
}

/** Draw the grid of `cards` (from deckCards) in `holder`: a button per card whose
 *  aria-label is label(card); onPick(card) on a tap; used(card) (optional) is how many copies
 *  the list being filled already holds, and the button is off once every copy is used. */
export function drawCardGrid(holder, cards, { label, onPick, used = () => 0, name = "cards" }) {
  const buttons = cards.map(({ card, svg, copies }) => {
    const left = copies - used(card);
    const children = [picture(svg, `card ${card}`)];
    children.push(el("span", { class: "card-count", "aria-hidden": "true", text: copies > 1 ? `${card} ×${Math.max(left, 0)}` : card }));
    return el("button", {
      type: "button",
      class: "card-button",
      "aria-label": label(card),
      "data-card": card,
      disabled: left <= 0,
      title: copies > 1 ? `${card}: ${Math.max(left, 0)} of ${copies} copies left` : card,
      onclick: () => onPick(card),
    }, ...children);
  });
  const grid = el("div", { class: "card-grid", role: "group", "aria-label": name }, ...buttons);
  holder.replaceChildren(grid);
  return grid;
}

/** Fetch the deck for `players` (POST /api/express/cards) and draw its grid in `holder`;
 *  resolves to the grid element. Options as drawCardGrid. */
export async function renderCardPicker(holder, { players, ...options }) {
  const cards = await deckCards(players);
  return drawCardGrid(holder, cards, options);
}

/** Draw the chosen cards `codes` as pictures, each with a remove button
 *  (aria-label removeLabel(code, index)) calling onRemove(index). */
export async function cardFigures(holder, codes, { players, removeLabel, onRemove, empty = "none yet" }) {
  const cards = await deckCards(players);
  const svgs = new Map(cards.map((entry) => [entry.card, entry.svg]));
  if (!codes.length) {
    holder.replaceChildren(el("p", { class: "muted", text: empty }));
    return;
  }
  const figures = codes.map((code, index) => el("figure", { class: "chosen-card" },
    svgs.has(code) ? picture(svgs.get(code), `card ${code}`) : el("span", { text: code }),
    el("figcaption", {},
      el("span", { text: code }),
      el("button", {
        type: "button",
        class: "remove",
        "aria-label": removeLabel(code, index),
        text: "Remove",
        onclick: () => onRemove(index),
      }))));
  holder.replaceChildren(el("div", { class: "chosen-cards" }, ...figures));
}
