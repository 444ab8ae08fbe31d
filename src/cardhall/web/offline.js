// The page without a network, and the service worker that lets it open without one (sw.js, served at
// /sw.js by the server with its version and files filled in).
//
// Decisions:
// - No network is said plainly, in words, under the header ("No network: cardhall needs a connection to
//   play..."), for as long as the browser is offline; a screen that could not load says it in its place,
//   with "Try again"; it draws itself again when the network is back.
// - The worker is registered once the page is idle (the first page never waits for it); its files come
//   in the background. At each visit the page asks whether the worker changed (/sw.js, a few KiB).
// - A new version of the client (a new worker, installed and waiting: sw.js) takes over at once while the
//   person has not touched the page yet (it has just opened: it reloads, from the new version's files);
//   once he has, the page says a new version is ready, with a button to reload into it, and never reloads
//   under him. The next visit then takes it over at once. So a page runs one version's files, never a
//   mix, and no page stays stale past the visit after the one that found the new version.
import { t } from "./i18n.js";
import { h } from "./util.js";

let touched = false; // the person did something here (a key, a click): the page is not reloaded under him
for (const kind of ["pointerdown", "keydown"]) addEventListener(kind, () => (touched = true), { capture: true, once: true });

/** Whether `error` (from a fetch of the API) means there is no network. */
export function isOffline(error) {
  if (!navigator.onLine) return true;
  return error instanceof TypeError && /fetch|network|load failed/i.test(error.message);
}

let note = null;

/** Say so under the header while the browser has no network; `back()` when it has again. */
export function networkNote(back) {
  note = h("p", { id: "offline-note", class: "offline-note", role: "status" });
  const update = () => {
    if (navigator.onLine) return note.remove();
    note.textContent = t("offline.note");
    if (!note.isConnected) document.getElementById("top").after(note);
  };
  addEventListener("offline", update);
  addEventListener("online", () => {
    update();
    back();
  });
  update();
}

/** The note's words again (the language changed). */
export function networkNoteAgain() {
  if (note?.isConnected) note.textContent = t("offline.note");
}

/** The screen that could not load for want of a network, with "Try again" (`retry`). */
export function offlineScreen(main, retry) {
  main.replaceChildren(
    h(
      "section",
      { class: "panel offline-screen", "aria-labelledby": "offline-title" },
      h("h2", { id: "offline-title", text: t("offline.title") }),
      h("p", { text: t("offline.screen") }),
      h("button", { type: "button", id: "offline-retry", class: "primary", text: t("offline.retry"), onclick: retry }),
    ),
  );
}

/** Register the service worker (when the page is idle), and take up a new version as the module's
 * decisions say. */
export function installWorker() {
  if (!("serviceWorker" in navigator)) return;
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading) location.reload();
    else updateNote(() => location.reload()); // (another tab let the new version in)
  });
  const takeOver = (worker) => {
    reloading = true;
    worker.postMessage("take-over");
  };
  const waiting = (worker) => {
    if (!navigator.serviceWorker.controller) return; // (the first worker: nothing older to replace)
    if (!touched) takeOver(worker);
    else updateNote(() => takeOver(worker));
  };
  (window.requestIdleCallback || setTimeout)(async () => {
    let registration;
    try {
      registration = await navigator.serviceWorker.register("/sw.js");
    } catch {
      return; // (no worker: the page works as before, from the network)
    }
    const installing = (worker) =>
      worker?.addEventListener("statechange", () => {
        if (worker.state === "installed") waiting(worker);
      });
    // (a new version found before this page listened is installed already, or installing still)
    if (registration.waiting) waiting(registration.waiting);
    installing(registration.installing);
    registration.addEventListener("updatefound", () => installing(registration.installing));
    // Asked at every visit: a browser's own check may wait (registering the same worker again asks
    // nothing), and a new version must not wait for it.
    registration.update().catch(() => {});
  });
}

/** "A new version is ready", with a button that reloads into it (`reload`). */
function updateNote(reload) {
  if (document.getElementById("update-note")) return;
  const el = h(
    "p",
    { id: "update-note", class: "update-note", role: "status" },
    t("offline.update"),
    " ",
    h("button", { type: "button", id: "update-reload", class: "primary", text: t("offline.reload"), onclick: reload }),
  );
  document.getElementById("top").after(el);
}
