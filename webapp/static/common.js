// What every page shares: the API call, the site header, error display and small DOM helpers.
// No page adds a rule of its own: answers come from the API, pictures are the library's SVG.

/** POST a JSON body to an API path; resolves to the parsed answer or throws an Error whose
 *  message is the API's one-line `error` and whose `status` is the HTTP status (0: no answer). */
export async function api(path, body = {}, method = "POST") {
  const options = { method, headers: { "Content-Type": "application/json" } };
  if (method !== "GET") options.body = JSON.stringify(body);
  let response;
  try {
    response = await fetch(path, options);
  } catch (failure) {
    throw Object.assign(new Error("the server does not answer: is tabletop-web still running?"), { status: 0 });
  }
  let data;
  try {
    data = await response.json();
  } catch (failure) {
    throw Object.assign(new Error(`the server answered ${response.status} without JSON`), { status: response.status });
  }
  if (!response.ok || (data && typeof data === "object" && !Array.isArray(data) && "error" in data)) {
    const message = data && data.error ? data.error : `the server answered ${response.status}`;
    throw Object.assign(new Error(message), { status: response.status });
  }
  return data;
}

export const get = (path) => api(path, {}, "GET");

/** An element: el("button", {type: "button", text: "Go"}, child, ...). Text is always text. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name === "onclick") node.addEventListener("click", value);
    else if (name === "onchange") node.addEventListener("change", value);
    else if (name === "oninput") node.addEventListener("input", value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An SVG picture the server made (the library's escaping builder) as a DOM node, parsed as
 *  XML so nothing in it runs. `label` names it for screen readers. */
export function picture(svgText, label) {
  const parsed = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const root = parsed.documentElement;
  const holder = el("div", { class: "picture", role: "img", "aria-label": label || "picture" });
  if (root && root.nodeName === "svg") holder.append(document.importNode(root, true));
  return holder;
}

/** A truck's capacity and height in words, as a button shows them beside the truck's compact
 *  picture (which draws none): "capacity 10 · height 1", a variant marked. */
export function truckFacts(truck) {
  return `capacity ${truck.capacity} · height ${truck.height}${truck.variant ? " · variant" : ""}`;
}

/** A truck named for a screen reader: "S02, capacity 10, height 1". */
export function truckLabel(truck) {
  return `${truck.name}, capacity ${truck.capacity}, height ${truck.height}${truck.variant ? ", variant" : ""}`;
}

/** The inside of a truck button: the compact picture (no words), the name and the facts. */
export function truckButtonParts(truck, name = truck.name) {
  return [
    picture(truck.compact_svg, `truck ${truck.name}`),
    el("span", { class: "truck-name", text: name }),
    el("span", { class: "truck-facts", text: truckFacts(truck) }),
  ];
}

/** The width in CSS pixels a picture has inside `node` (its content box; a node not laid out,
 *  such as a hidden one, takes its nearest laid-out ancestor's): a picture the server draws
 *  that wide shows at 100 %, its text at the size it was drawn. */
export function roomFor(node) {
  for (let n = node; n; n = n.parentElement) {
    if (n.clientWidth > 0) {
      const style = getComputedStyle(n);
      return Math.floor(n.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight));
    }
  }
  return 340; // a phone's picture column
}


// What this page calls the API's fields (fieldLabels): an error names the field the user sees.
let labels = {};

/** Tell the page's errors what this page calls each API field, e.g.
 *  fieldLabels({ cargo: "The cargo", deck: "Deck file" }). A field it does not name is shown
 *  as its name, its underscores as spaces. */
export function fieldLabels(names) {
  labels = names;
}

const label = (field) => labels[field] || field.replace(/_/g, " ");
const optionField = (option) => option.replace(/-/g, "_");

/** An API error in the page's words. The API answers in the command line's (its `--json` is the
 *  command's own line): "argument --cargo: …", "deck:3: …", "field 'seconds': …", "the following
 *  arguments are required: --length" become "The cargo: …", "Deck file, line 3: …" and so on. */
export function inPageWords(message) {
  return String(message)
    .replace(/^argument --([a-z0-9-]+): /, (_, option) => `${label(optionField(option))}: `)
    .replace(/^field '([^']+)': /, (_, field) => `${label(field)}: `)
    .replace(/^([a-z_]+(?:\[\d+\])?):(\d+): /, (_, field, line) => `${label(field)}, line ${line}: `)
    .replace(/(^|[\s(])--([a-z][a-z0-9-]*)\b/g, (_, before, option) => `${before}${label(optionField(option))}`);
}

/** Show an error (or clear it with null) in the page's error box, in the page's words and
 *  scrolled into sight: on a phone the box may be a screen away from the button that failed. */
export function showError(box, error) {
  box.textContent = error ? inPageWords(error.message || String(error)) : "";
  if (error && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
}

/** Run an async action with a busy state on `button`, showing any error in `box`. */
export async function busy(button, box, action) {
  const label = button ? button.textContent : "";
  if (button) { button.disabled = true; button.textContent = "Working…"; }
  showError(box, null);
  try {
    return await action();
  } catch (error) {
    showError(box, error);
    return undefined;
  } finally {
    if (button) { button.disabled = false; button.textContent = label; }
  }
}

export const PAGES = [
  ["/grab", "Grab helper"],
  ["/loader", "Loader"],
  ["/advisor", "Express advisor"],
  ["/practice", "Practise"],
  ["/trainer", "Grab trainer"],
  ["/designer", "Designer"],
  ["/progress", "Progress"],
  ["/api", "API"],
];

/** The site header with every page, the current one marked. */
export function header() {
  const nav = el("nav", { "aria-label": "pages" });
  for (const [path, name] of PAGES) {
    const link = el("a", { href: path, text: name });
    if (location.pathname === path) link.setAttribute("aria-current", "page");
    nav.append(link);
  }
  const top = el("header", { class: "site" }, el("a", { class: "home", href: "/", text: "Tabletop solvers" }), nav);
  document.body.prepend(top);
}

/** A number shown with at most `digits` decimals. */
export function number(value, digits = 2) {
  return Number(value).toFixed(digits).replace(/\.?0+$/, "");
}

/** When the user picks a file in `input`, call `use(text, file)` with its text (showing any
 *  error, a file that cannot be read included, in `box`). */
export function onFileText(input, box, use) {
  input.addEventListener("change", () => {
    const file = input.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => busy(null, box, () => use(String(reader.result), file));
    reader.onerror = () => showError(box, new Error(`cannot read ${file.name}`));
    reader.readAsText(file);
  });
}
