// The rules page and the replay viewer, loaded when first opened (the first page does not wait for
// modules it does not need): showRules(game) and showReplay(table) import rules.js or replay.js then.
export async function showRules(game) {
  const { showRules: show } = await import("./rules.js");
  return show(game);
}

export async function showProfile(player) {
  const { showProfile: show } = await import("./profile.js");
  return show(player);
}

export async function showReplay(table) {
  const { showReplay: show } = await import("./replay.js");
  return show(table);
}
