// The rules page, a person's page and the replay viewer, loaded when first opened (the first page does not
// wait for modules it does not need): showRules(game), showProfile(player) and showReplay(table) import
// rules.js, profile.js or replay.js then. `link`: the address bar's link that opened it (#replay/<id>),
// which the dialog drops when it closes.
async function show(module, name, dialog, what, link) {
  const [loaded, { openedFromLink }] = await Promise.all([module(), import("./rules.js")]);
  const shown = loaded[name](what); // (it opens its dialog before its first await)
  if (link) openedFromLink(dialog, link);
  return shown;
}

export function showRules(game, link) {
  return show(() => import("./rules.js"), "showRules", "rules-dialog", game, link);
}

export function showProfile(player, link) {
  return show(() => import("./profile.js"), "showProfile", "player-dialog", player, link);
}

export function showReplay(table, link) {
  return show(() => import("./replay.js"), "showReplay", "replay-dialog", table, link);
}
