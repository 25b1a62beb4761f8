// API page (/api): every endpoint of the server, read from /openapi.json (FastAPI writes it
// from the routes): method, path, summary, description, and the request's fields (name, type,
// description) from its JSON body schema and its parameters. Offline, no library.
import { el, get, header, showError } from "/static/common.js";

header();

const $ = (id) => document.getElementById(id);
let spec = {};

/** Markdown's **bold** and `code` as plain text. */
function plain(text) {
  return String(text || "").replace(/\*\*(.+?)\*\*/g, "$1").replace(/`([^`]*)`/g, "$1");
}

/** A schema's `$ref` followed into the spec's components. */
function resolve(schema) {
  let found = schema || {};
  for (let hops = 0; found.$ref && hops < 10; hops++) {
    found = found.$ref.replace(/^#\//, "").split("/").reduce((node, key) => (node ? node[key] : undefined), spec) || {};
  }
  return found;
}

/** A schema's type in words: "string", "array of string", "string or number", "one of a, b". */
function typeOf(schema) {
  const s = resolve(schema);
  if (s.enum) return `one of ${s.enum.join(", ")}`;
  const options = s.anyOf || s.oneOf;
  if (options) return options.map(typeOf).filter((t) => t !== "null").join(" or ");
  if (s.type === "array") return `array of ${typeOf(s.items)}`;
  let text = s.type || (s.properties ? "object" : "any");
  if (s.maxLength !== undefined) text += ` (at most ${s.maxLength.toLocaleString("en")} characters)`;
  return text;
}

function fieldRows(operation) {
  const rows = [];
  for (const parameter of operation.parameters || []) {
    rows.push([parameter.name, `${typeOf(parameter.schema)} (in the ${parameter.in})`, parameter.required, plain(parameter.description || "")]);
  }
  const content = operation.requestBody && operation.requestBody.content;
  const schema = content && content["application/json"] ? resolve(content["application/json"].schema) : null;
  if (schema && schema.properties) {
    const required = new Set(schema.required || []);
    for (const [name, property] of Object.entries(schema.properties)) {
      const field = resolve(property);
      rows.push([name, typeOf(field), required.has(name), plain(property.description || field.description || field.title || "")]);
    }
  }
  return rows;
}

function endpoint(path, method, operation, index) {
  const id = `endpoint-${index}`;
  const section = el("section", { class: "endpoint", id, "aria-labelledby": `${id}-title` },
    el("h2", { id: `${id}-title` }, el("span", { class: "method", text: method.toUpperCase() }), path));
  if (operation.summary) section.append(el("p", {}, el("strong", { text: plain(operation.summary) })));
  // The description's paragraphs (blank-line separated), each line break inside one a space.
  for (const paragraph of plain(operation.description).split(/\n\s*\n/)) {
    if (paragraph.trim()) section.append(el("p", { class: "description", text: paragraph.split(/\s*\n\s*/).join(" ") }));
  }
  const rows = fieldRows(operation);
  if (rows.length) {
    // One block per field (a table is too wide for a phone): name, type, required, description.
    section.append(el("h3", { text: "Request fields" }), el("dl", { class: "fields", "aria-label": `request fields of ${method.toUpperCase()} ${path}` },
      ...rows.flatMap(([name, type, required, description]) => [
        el("dt", {}, el("code", { text: name }), el("span", { class: "muted", text: ` ${type}${required ? ", required" : ""}` })),
        el("dd", { text: description || "—" }),
      ])));
  } else {
    section.append(el("p", { class: "muted", text: method === "get" ? "No request fields." : "No documented request fields." }));
  }
  return section;
}

async function show() {
  spec = await get("/openapi.json");
  if (spec.info) {
    $("intro").replaceChildren(`${spec.info.title} (version ${spec.info.version}). ${plain(spec.info.description)} Read from `, el("a", { href: "/openapi.json", text: "/openapi.json" }), ".");
  }
  const links = el("ul", { class: "contents" });
  let index = 0;
  for (const [path, methods] of Object.entries(spec.paths || {})) {
    for (const [method, operation] of Object.entries(methods)) {
      index += 1;
      $("endpoints").append(endpoint(path, method, operation, index));
      links.append(el("li", {}, el("a", { href: `#endpoint-${index}`, text: `${method.toUpperCase()} ${path}` })));
    }
  }
  $("contents").append(el("h2", { text: "Endpoints" }), links);
}

show().catch((error) => showError($("error"), error));
