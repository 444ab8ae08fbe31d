// Every screen's address, and moving between them with the browser's history (History API): Back and
// Forward move from screen to screen, a reload stays where it was, an address can be bookmarked or sent.
//
//   /                        the lobby (the first page for someone new)
//   /tables/<id>             a table: its waiting room while seats are taken, then the table
//   /tables/<id>/replay      a finished match's replay, and its review
//   /players/<id>            a person's page
//   /rules/<game>            the rules of a game
//   /events                  the events (tournaments): running, upcoming, finished; making one
//   /events/<id>             an event: its standings (live), tables, sign-ups
//   /events/<id>/players/<p> a player's results in an event
//
// Decisions:
// - A *screen* (the lobby, a table) fills the page; the replay, a person's page and the rules are
//   *dialogs* over the screen they were opened from. An entry of the history holds both: its screen and
//   the dialogs open over it, the last one's address in the bar. So Back from a table's rules closes the
//   rules and leaves the table as it was, and a reload of /rules/hokm opened at a table shows the rules
//   over that table again (the entry's state outlives a reload). An address opened afresh (a bookmark, a
//   link from elsewhere) shows its dialog over the lobby.
// - Closing a dialog goes back in the history when the entry before it is the same screen without it
//   (it was opened here), so closing and Back are one; otherwise (an address opened afresh) the entry is
//   replaced by the screen's own address: a close never leaves the site.
// - Opening a dialog of a kind already open (the next rules, the next replay) replaces its entry: the
//   one closed is not reopened by Back.
// - A table screen's entry may carry what the person asked for there (`intent`: "join" to take a seat,
//   "watch", "offer": an invitation's link, which offers a seat first); it is used once and dropped
//   from the entry, so Back to a table one has left does not sit him down again.
// - The old links (/#rules/<game>, /#replay/<table>, /#player/<id>) still work: each is replaced by its
//   new address. A private table's link keeps its invitation in the fragment
//   (/#invite/<table>/<invitation>, made by the server): a fragment is never sent in a request, so the
//   invitation reaches no server log, proxy or Referer; the page keeps it (friends.js) and puts the
//   table's own address, without it, in the bar.
// - A click on a link of the page to one of these addresses moves here without loading the page again;
//   a click with a modifier key (a new tab) is the browser's.

export const KINDS = ["rules", "player", "replay"]; // the kinds of dialog (their ids: rules-dialog, ...)

export const paths = {
  lobby: () => "/",
  table: (id) => `/tables/${encodeURIComponent(id)}`,
  replay: (id) => `/tables/${encodeURIComponent(id)}/replay`,
  player: (id) => `/players/${encodeURIComponent(id)}`,
  rules: (game) => `/rules/${encodeURIComponent(game)}`,
  events: () => "/events",
  event: (id) => `/events/${encodeURIComponent(id)}`,
  eventPlayer: (id, player) => `/events/${encodeURIComponent(id)}/players/${encodeURIComponent(player)}`,
};

/** What an address names: {screen: "lobby"}, {screen: "table", table}, {dialog: "replay", table},
 * {dialog: "player", player}, {dialog: "rules", game}, {screen: "events"}, {screen: "event", event},
 * {screen: "event_player", event, player}; null for an address of none. */
export function parse(path) {
  if (path === "/" || path === "") return { screen: "lobby" };
  let m = /^\/tables\/([\w-]+)$/.exec(path);
  if (m) return { screen: "table", table: m[1] };
  m = /^\/tables\/([\w-]+)\/replay$/.exec(path);
  if (m) return { dialog: "replay", table: m[1] };
  m = /^\/players\/(\d+)$/.exec(path);
  if (m) return { dialog: "player", player: m[1] };
  m = /^\/rules\/(\w+)$/.exec(path);
  if (m) return { dialog: "rules", game: m[1] };
  if (path === "/events") return { screen: "events" };
  m = /^\/events\/([\w-]+)$/.exec(path);
  if (m) return { screen: "event", event: m[1] };
  m = /^\/events\/([\w-]+)\/players\/(\d+)$/.exec(path);
  if (m) return { screen: "event_player", event: m[1], player: m[2] };
  return null;
}

/** The new address of an old link's fragment (#rules/hokm -> /rules/hokm), or null. */
export function fromHash(hash) {
  const m = /^#(rules|replay|player)\/([\w-]+)$/.exec(hash);
  if (!m) return null;
  return m[1] === "rules" ? paths.rules(m[2]) : m[1] === "player" ? paths.player(m[2]) : paths.replay(m[2]);
}

/** The private table and invitation a link names (#invite/<table>/<invitation>), or null. */
export function invitationLink(hash) {
  const m = /^#invite\/([\w-]+)\/([\w-]+)$/.exec(hash);
  return m ? { table: m[1], invitation: m[2] } : null;
}

/** The token a private event's link carries: in its fragment ("#token=...", the page's links) or its
 * query ("?token=...", the server's `link`); null for none. */
export function eventToken(hash, search = "") {
  const m = /^#token=([\w-]+)$/.exec(hash || "");
  if (m) return m[1];
  const q = new URLSearchParams(search || "").get("token");
  return q && /^[\w-]+$/.test(q) ? q : null;
}

const kindOf = (path) => parse(path)?.dialog;
const top = (state) => state.dialogs[state.dialogs.length - 1] ?? state.screen;

let shown = null; // the state drawn now: {screen, dialogs, pushed, intent}
let draw = null; // (state, before) => the page drawn as `state` says (app.js)
let goingBack = 0; // the steps back asked for by dialogs closed, not come yet
let wentBack = null; // resolved when they have come (a navigation waits for them: see navigate)
let backDone = () => {};

/** An entry's state for `path` opened afresh: a screen alone, or a dialog over the lobby. */
function fresh(path) {
  const what = parse(path);
  if (!what) return { screen: "/", dialogs: [], pushed: false };
  if (what.screen) return { screen: path, dialogs: [], pushed: false };
  return { screen: "/", dialogs: [path], pushed: false };
}

function write(state, replace) {
  const address = top(state) + location.search;
  if (replace) history.replaceState(state, "", address);
  else history.pushState(state, "", address);
}

function apply(state) {
  const before = shown;
  shown = state;
  return draw(state, before);
}

/** The state drawn now (a copy). */
export function current() {
  return shown && { ...shown, dialogs: [...shown.dialogs] };
}

/** Go to `path` (a screen or a dialog). `replace`: instead of the entry shown (no new entry for Back);
 * `intent`: what a table screen is for ("join", "watch", "offer"). Resolves when the screen or dialog is
 * drawn (a dialog: once its content came). */
export async function navigate(path, { replace = false, intent } = {}) {
  // A dialog just closed went back in the history, which the browser does a moment later: an entry
  // pushed before then would be the one it leaves (the replay opened next, closed at once by it).
  // (A second at most: a Back the browser never did must not hold the page.)
  if (goingBack && wentBack) await Promise.race([wentBack, new Promise((r) => setTimeout(r, 1000))]);
  const what = parse(path);
  if (!what || !shown) return;
  if (path === top(shown) && !intent) replace = true; // (the address shown: no second entry of it)
  let state;
  if (what.screen) {
    state = { screen: path, dialogs: [], pushed: !replace || shown.pushed, intent };
  } else {
    const kind = what.dialog;
    const same = shown.dialogs.find((d) => kindOf(d) === kind);
    const dialogs = [...shown.dialogs.filter((d) => kindOf(d) !== kind), path];
    // The next dialog of a kind open already takes its place (its entry replaced).
    replace = replace || Boolean(same);
    state = { screen: shown.screen, dialogs, pushed: replace ? shown.pushed : true };
  }
  write(state, replace);
  return apply(state);
}

/** The entry shown, without its one-time intent (see the module's decisions). */
export function settle() {
  if (!shown?.intent) return;
  shown = { ...shown, intent: undefined };
  history.replaceState(shown, "", location.href);
}

/** The dialog of address `path` was closed by the person (its close button, Escape): its entry goes. */
export function dialogClosed(path) {
  if (!path || !shown || !shown.dialogs.includes(path)) return; // gone already (Back, or the next one)
  const state = { ...shown, dialogs: shown.dialogs.filter((d) => d !== path) };
  if (top(shown) === path && shown.pushed) {
    shown = state; // (Back then finds it drawn already)
    if (!goingBack) wentBack = new Promise((resolve) => (backDone = resolve));
    goingBack += 1;
    history.back();
    return;
  }
  shown = state;
  write(state, true);
}

/** Start: draw the address the page was opened at (`draw(state, before)` draws a state), then follow
 * Back, Forward, an old link's fragment and the page's links. `resume(state)`: a last word on the first
 * state, opened afresh or reloaded (app.js: the table it was at, when opened at /). Returns the first
 * state. */
export function start(drawer, resume = (state) => state) {
  draw = drawer;
  let state;
  const saved = history.state;
  const old = fromHash(location.hash);
  if (old) {
    const here = parse(location.pathname)?.screen ? location.pathname : "/";
    state = { screen: here, dialogs: [old], pushed: false };
  } else if (saved && Array.isArray(saved.dialogs) && top(saved) === location.pathname) {
    state = resume(saved); // a reload: its entry, as it was
  } else {
    state = resume(fresh(location.pathname));
  }
  write(state, true);
  window.addEventListener("popstate", (event) => {
    // Two dialogs closed at once go back twice: the entry between is not drawn, only the last.
    if (goingBack && --goingBack) return;
    if (wentBack) {
      wentBack = null;
      backDone(); // (a navigation waiting for it goes on once this entry is drawn)
    }
    const next = event.state && Array.isArray(event.state.dialogs) ? event.state : fresh(location.pathname);
    if (!event.state) history.replaceState(next, "", location.href);
    apply(next);
  });
  window.addEventListener("hashchange", () => followHash());
  document.addEventListener("click", followClick);
  apply(state);
  return state;
}

/** An old link's fragment followed in the page (#rules/hokm): its dialog opens over the screen shown,
 * under its new address, in the entry the fragment made. A private table's link is the page's to
 * follow (`onInvitation`). */
let onInvitation = null;
export function invitations(handler) {
  onInvitation = handler;
}

function followHash() {
  const invite = invitationLink(location.hash);
  if (invite && onInvitation) {
    onInvitation(invite);
    return;
  }
  const path = fromHash(location.hash);
  if (!path || !shown) return;
  const kind = kindOf(path);
  const state = { screen: shown.screen, dialogs: [...shown.dialogs.filter((d) => kindOf(d) !== kind), path], pushed: true };
  write(state, true);
  apply(state);
}

function followClick(event) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const a = event.target.closest?.("a[href]");
  if (!a || a.target || a.hasAttribute("download")) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || !parse(url.pathname)) return;
  if (url.pathname === location.pathname && url.hash) return; // a fragment of this address: hashchange
  event.preventDefault();
  navigate(url.pathname);
}

