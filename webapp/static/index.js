import { el, get, header, picture } from "/static/common.js";

header();

// The pairing box: on a shared server (tabletop-web --host 0.0.0.0) the QR code of the pairing
// link and the links themselves, from GET /api/pairing; on this machine's own server, how to
// share it.
async function pairing() {
  const box = document.getElementById("pairing");
  const body = document.getElementById("pairing-body");
  let answer;
  try {
    answer = await get("/api/pairing");
  } catch (error) {
    return; // the pages still work; the box stays hidden
  }
  if (!answer.shared) {
    body.append(
      el("p", {}, "Only this machine can use this server. To use it from a phone at the table, start it with ",
        el("code", { text: "tabletop-web --host 0.0.0.0" }),
        ": it prints a QR code and a link, and only the phones that scan it or open the link can use it."),
    );
    box.hidden = false;
    return;
  }
  const [first, ...others] = answer.links;
  if (answer.svg) {
    body.append(
      el("p", { text: "Scan this code with the phone's camera (on the same Wi-Fi network): it pairs the phone with this server." }),
      el("figure", { class: "qr" }, picture(answer.svg, "QR code of the pairing link")),
    );
  }
  if (first) {
    body.append(el("p", {}, "Or open this link on the phone: ", el("code", { class: "link", text: first })));
  }
  if (others.length) {
    const list = el("ul", { class: "links" });
    for (const link of others) list.append(el("li", {}, el("code", { class: "link", text: link })));
    body.append(el("p", { text: "Other addresses of this machine, if that one does not answer:" }), list);
  }
  body.append(
    el("p", {}, "A paired phone stays paired, also after a restart. Anyone with this code or link can use the server: show it to your table only. ",
      el("code", { text: "tabletop-web --new-token" }), " unpairs every device."),
  );
  box.hidden = false;
}

pairing();
