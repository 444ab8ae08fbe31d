// What the page's modules take from a browser, as little as the tests need, for Node: localStorage (kept
// in memory), a navigator, a document with no elements, and fetch answering the paths a test serves
// (the catalogues of texts, the API). Modules that build elements are tested through their pure parts
// only; nothing here draws.
//
// Import this module before the page's modules: its globals are in place before theirs run.
export const WEB = new URL("../../../src/cardhall/web/", import.meta.url);

class MemoryStorage {
  #items = new Map();
  getItem(key) {
    return this.#items.has(key) ? this.#items.get(key) : null;
  }
  setItem(key, value) {
    this.#items.set(key, String(value));
  }
  removeItem(key) {
    this.#items.delete(key);
  }
  clear() {
    this.#items.clear();
  }
}

const routes = new Map(); // path -> {status, body}
/** What fetch was asked, in order: {path, init}. */
export const fetched = [];

/** Answer `path` with `body` as JSON (status `status`). */
export function serve(path, body, status = 200) {
  routes.set(path, { status, body });
}

function define(name, value) {
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
}

define("localStorage", new MemoryStorage());
define("navigator", { languages: ["en-US"], language: "en-US", onLine: true });
define("document", { documentElement: { lang: "" }, querySelectorAll: () => [] });
define("fetch", async (path, init = {}) => {
  fetched.push({ path, init });
  const route = routes.get(path);
  const status = route?.status ?? 404;
  return {
    ok: status < 400,
    status,
    statusText: route ? "" : "Not Found",
    json: async () => (route ? structuredClone(route.body) : {}),
  };
});

/** Switch the page to `lang` with these catalogues ({en: {...}, bn: {...}}) instead of the real ones. */
export async function speak(lang, catalogues) {
  const { setLanguage } = await import("../../../src/cardhall/web/i18n.js");
  for (const [code, messages] of Object.entries(catalogues)) serve(`/static/i18n/${code}.json`, messages);
  await setLanguage(lang);
}
