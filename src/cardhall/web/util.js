// Small helpers every page module shares: the saved settings (localStorage), building elements without
// innerHTML (text always goes in as text), the JSON HTTP API with the player's token, and the words of a
// server's refusal (by its error code, from the catalogue: the server's English message is for logs).
import { t, has } from "./i18n.js";

export const store = {
  get: (key) => localStorage.getItem(`cardhall.${key}`),
  set: (key, value) => localStorage.setItem(`cardhall.${key}`, value),
  drop: (key) => localStorage.removeItem(`cardhall.${key}`),
};

/** Private events' tokens, kept per event once its link was opened or the event made (events.js sends
 * it with each request about the event). */
export const eventTokens = {
  get: (id) => store.get(`event-token.${id}`),
  set: (id, token) => id && token && store.set(`event-token.${id}`, token),
};

/** An element: `attrs` are attributes (`on...` listeners, `text` its text, `style` an object of styles),
 * `children` nodes or text (nested arrays flattened). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else if (key === "style" && typeof value === "object") {
      // custom properties (--x) by setProperty, the others by name
      for (const [name, v] of Object.entries(value)) {
        if (name.startsWith("--")) el.style.setProperty(name, v);
        else el.style[name] = v;
      }
    } else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) el.append(child);
  }
  return el;
}

/** A call of the HTTP API (docs/protocol.md); an error response throws with its `error` and `message`. */
export async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  const token = store.get("token");
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body && JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(data.message || response.statusText), data);
  return data;
}

/** What a refusal with error `code` (docs/protocol.md, error codes) means, in the page's language. */
export function errorText(code) {
  return has(`error.code.${code}`) ? t(`error.code.${code}`) : t("error.refused", { code });
}

/** A person's name leading to his page (/players/<id>, profile.js); plain text without an id (a bot,
 * an empty seat, a frame from an older server). `guest`: marked as a guest with his player number,
 * "Ann (guest #12)", so that two guests of one name are told apart (guests' names are not unique). */
export function playerLink(id, name, guest = false) {
  if (id === null || id === undefined) return document.createTextNode(name);
  return h(
    "a",
    { href: `/players/${id}`, class: `player-link${guest ? " guest" : ""}`, "data-player": String(id) },
    name,
    guest ? h("span", { class: "guest-mark", text: ` (${guestMark(id)})` }) : null,
  );
}

/** A guest's mark: "guest #12" (his player number), in the page's language. */
export function guestMark(id) {
  return t("account.guest_number", { id: Number(id) });
}
