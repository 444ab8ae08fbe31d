// The rules page, a person's page and the replay viewer: dialogs over whatever screen shows, each at its
// own address (router.js): /rules/<game>, /players/<id>, /tables/<id>/replay. showRules(game),
// showProfile(player) and showReplay(table) go to that address (Back closes the dialog again);
// openDialog and closeDialog are the router's, drawing what an address says. Each dialog's module
// (rules.js, profile.js, replay.js) is loaded when first opened: the first page does not wait for
// modules it does not need.
import { current, navigate, parse, paths } from "./router.js";

const MODULES = {
  rules: { load: () => import("./rules.js"), show: "showRules", arg: (what) => what.game },
  player: { load: () => import("./profile.js"), show: "showProfile", arg: (what) => what.player },
  replay: { load: () => import("./replay.js"), show: "showReplay", arg: (what) => what.table },
};

const dialog = (kind) => document.getElementById(`${kind}-dialog`);

/** Open the dialog of address `path` (a dialog of `kind`), unless it shows it already. */
export async function openDialog(kind, path) {
  const el = dialog(kind);
  if (el?.open && el.dataset.route === path) return;
  const module = MODULES[kind];
  const [loaded, { openedAt }] = await Promise.all([module.load(), import("./rules.js")]);
  if (!current()?.dialogs.includes(path)) return; // closed (Back) or replaced while its module loaded
  const shown = loaded[module.show](module.arg(parse(path))); // (it opens its dialog before its first await)
  openedAt(`${kind}-dialog`, path);
  return shown;
}

/** Close the dialog of `kind` because the address no longer names it (Back, or another screen). */
export function closeDialog(kind) {
  const el = dialog(kind);
  if (!el?.open) return;
  delete el.dataset.route; // (closed by the address: there is no entry to drop)
  el.close();
}

export function showRules(game) {
  return navigate(paths.rules(game));
}

export function showProfile(player) {
  return navigate(paths.player(player));
}

export function showReplay(table) {
  return navigate(paths.replay(table));
}
