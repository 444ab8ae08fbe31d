// router.js's entries of the browser's history: a dialog over the screen it was opened from, Back closing
// it, a dialog of a kind open already taking its place, a close that goes back only to this site's own
// entry, an intent used once. The History API is played here by a list of entries (back() moves to the
// entry before a moment later, and popstate comes then, as in a browser).
import "./shim.mjs";
import test from "node:test";
import assert from "node:assert/strict";

const BASE = "https://cards.example";
const listeners = { popstate: [], hashchange: [] };
const entries = [];
let index = -1;

function go(url) {
  const u = new URL(url, BASE);
  Object.assign(globalThis.location, { pathname: u.pathname, search: u.search, hash: u.hash, href: u.href, origin: u.origin });
}

globalThis.location = {};
globalThis.window = { addEventListener: (kind, f) => listeners[kind]?.push(f) };
globalThis.document.addEventListener = () => {};
globalThis.history = {
  get state() {
    return entries[index].state;
  },
  pushState(state, _, url) {
    entries.splice(index + 1);
    entries.push({ state: structuredClone(state), url });
    index += 1;
    go(url);
  },
  replaceState(state, _, url) {
    entries[index] = { state: structuredClone(state), url };
    go(url);
  },
  back() {
    // (as a browser: the entry changes a moment later, and popstate comes then)
    setTimeout(() => {
      if (index === 0) return;
      index -= 1;
      go(entries[index].url);
      listeners.popstate.forEach((f) => f({ state: entries[index].state }));
    });
  },
};
const popped = () => new Promise((resolve) => setTimeout(resolve, 5));

/** A person's Back button: the entry before, then its popstate. */
async function back() {
  history.back();
  await popped();
}

// The page opened afresh at a rules address (a bookmark): the rules over the lobby.
entries.push({ state: null, url: "/rules/hokm" });
index = 0;
go("/rules/hokm");
const drawn = [];
const router = await import("../../../src/cardhall/web/router.js");
const first = router.start((state) => drawn.push(structuredClone(state)));

const urls = () => entries.map((e) => e.url);
const shown = () => router.current();

test("an address opened afresh shows its dialog over the lobby, in the entry it came in", () => {
  assert.deepEqual(first, { screen: "/", dialogs: ["/rules/hokm"], pushed: false });
  assert.deepEqual(drawn, [first]);
  assert.deepEqual(urls(), ["/rules/hokm"]);
  assert.deepEqual(history.state, first);
});

test("closing a dialog opened afresh replaces its entry by the screen's: a close never leaves the site", () => {
  router.dialogClosed("/rules/hokm");
  assert.deepEqual(shown(), { screen: "/", dialogs: [], pushed: false });
  assert.deepEqual(urls(), ["/"]);
  assert.equal(index, 0);
});

test("a table, a person's page over it, the next person's in its place, and Back", async () => {
  await router.navigate("/tables/t1");
  await router.navigate("/players/3");
  assert.deepEqual(shown(), { screen: "/tables/t1", dialogs: ["/players/3"], pushed: true });
  assert.equal(location.pathname, "/players/3");
  await router.navigate("/players/4");
  assert.deepEqual(urls(), ["/", "/tables/t1", "/players/4"], "the next of a kind replaces its entry");
  await router.navigate("/rules/gin");
  assert.deepEqual(shown().dialogs, ["/players/4", "/rules/gin"]);
  await back();
  assert.deepEqual(drawn.at(-1), { screen: "/tables/t1", dialogs: ["/players/4"], pushed: true });
  await back();
  assert.deepEqual(drawn.at(-1).dialogs, [], "Back closes the dialog and leaves the table as it was");
  assert.equal(location.pathname, "/tables/t1");
});

test("the same address again makes no second entry", async () => {
  const before = entries.length;
  await router.navigate("/tables/t1");
  assert.equal(entries.length, before);
});

test("closing a dialog opened here goes back, and the next navigation waits for that Back", async () => {
  await router.navigate("/tables/t1/replay");
  const length = entries.length;
  router.dialogClosed("/tables/t1/replay");
  assert.deepEqual(shown().dialogs, [], "drawn closed at once");
  // opened before the browser's Back came: pushed after it, not dropped by it
  await router.navigate("/rules/svara");
  assert.equal(entries.length, length);
  assert.deepEqual(urls().slice(-2), ["/tables/t1", "/rules/svara"]);
  assert.deepEqual(shown(), { screen: "/tables/t1", dialogs: ["/rules/svara"], pushed: true });
});

test("a table's intent is used once", async () => {
  await router.navigate("/tables/t2", { intent: "join" });
  assert.equal(shown().intent, "join");
  assert.equal(history.state.intent, "join");
  router.settle();
  assert.equal(shown().intent, undefined);
  assert.equal(history.state.intent, undefined, "Back to this table does not sit him down again");
});

test("an address of nothing is not gone to", async () => {
  const before = structuredClone(entries);
  await router.navigate("/nowhere");
  assert.deepEqual(entries, before);
});
