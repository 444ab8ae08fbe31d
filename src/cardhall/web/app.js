// The browser client's bootstrap: the websocket connection (link.js: said hello once, rejoining its table
// after a drop), the header (name, connection, language), and what the address shows (router.js): the
// first page for someone new (first.js), the lobby (lobby.js), a table's waiting room (lobby.js) or the table
// (table.js, loaded when a table opens), the events' screens (events.js, loaded when first shown: the
// list, an event with its standings followed live, a player's results), and over them the rules, a
// person's page and a replay (dialogs.js). No build step: plain ES modules served under /static/, over the protocol of
// docs/protocol.md; the service worker and the page without a network are offline.js's.
//
// Decisions: the first page loads only what the first page and the lobby need (this module, the
// catalogue, the lobby); the table's modules and the dialogs' come once the lobby is shown (in the
// background, when the browser is idle) or when first needed, whichever is first. The connection's state
// goes to the header and to the open table, which shows a lost connection on the table itself. A message
// sent while offline waits for the connection, except a move, which the table refuses instead (a move is
// never played later into a position the player has not seen).
//
// A table's address opened by someone who holds a seat there joins it; by anyone else, it watches it
// (in its waiting room a seat is offered: "Take a seat" or "Watch"), so a link never seats anyone
// unasked. What the person asked for in the page (Join, Watch, Play now, a friend's invitation) goes
// with the address as its intent. The page opened (or reloaded) at / goes to the table kept in
// localStorage, as it always has after a reload or a closed tab: the lobby, once drawn, forgets it, so
// this is a tab closed at a table, or another tab's table.
import { setLanguage, language, initialLanguage, t } from "./i18n.js";
import { api, eventTokens, store } from "./util.js";
import { renderLobby, WaitingRoom, seekingChanged, seekRefused } from "./lobby.js";
import { renderFirst } from "./first.js";
import { openDialog, closeDialog, showRules, showReplay, showProfile } from "./dialogs.js";
import { chatError } from "./chat.js";
import { friendsChanged, rememberInvitation, shareSeats, showInvitation } from "./friends.js";
import { signedIn, forget, accountPanel, checkSession } from "./account.js";
import { KINDS, current, eventToken, invitationLink, invitations, navigate, parse, paths, settle, start } from "./router.js";
import { Link } from "./link.js";
import { installWorker, networkNote, networkNoteAgain, offlineScreen, isOffline } from "./offline.js";

window.cardhall = { showRules, showReplay, showProfile };

// --- the websocket (link.js): one connection, said hello once, rejoining its table after a drop ---------

const MOVING_RETRY_MS = [1500, 3000, 5000]; // a table between servers: its attach sent again after these

// --- the page --------------------------------------------------------------------------------------------

const main = document.getElementById("main");
let link = null;
let view = null; // the open table: a WaitingRoom while its seats are taken, then a TableView
let status = "connecting";
let loading = null; // frames that came while the table's modules loaded, for the table view

function setConnection(next) {
  status = next;
  const el = document.getElementById("conn");
  el.className = `conn ${next}`;
  el.textContent = t(`conn.${next}`);
  el.dataset.status = next;
  view?.setConnection?.(next);
}

function header() {
  const name = store.get("name");
  const guest = name && !store.get("session") ? ` (${t("account.guest")})` : ""; // guests show as guests
  document.getElementById("who").textContent = name ? t("lobby.hello", { name }) + guest : "";
  const button = document.getElementById("lang");
  button.textContent = language() === "en" ? "বাংলা" : "English";
  button.setAttribute("aria-label", t("lang.switch"));
  button.setAttribute("lang", language() === "en" ? "bn" : "en");
  // The app to install is named in the page's language (a manifest per language).
  document.querySelector("link[rel=manifest]")?.setAttribute("href", `/static/manifest-${language()}.webmanifest`);
}

const seated = (v) => v.state?.you !== null && v.state?.you !== undefined;

/** The table shown is between two servers (``table_moved``: its server died or is being replaced): the
 * server attaches this connection by itself once the table is back, and the page, to be sure, asks
 * again a few times until a whole ``table`` frame comes (the table says it is moving meanwhile). */
let movingTimer = null;
function moving(shown, attempt = 0) {
  if (movingTimer !== null || attempt >= MOVING_RETRY_MS.length) return;
  movingTimer = setTimeout(() => {
    movingTimer = null;
    if (view !== shown) return;
    connect().send(shown.attach());
    moving(shown, attempt + 1);
  }, MOVING_RETRY_MS[attempt]);
}

function moved() {
  if (movingTimer !== null) clearTimeout(movingTimer);
  movingTimer = null;
}

/** The table the page shows now, if any (its id). */
const tableShown = () => parse(current()?.screen ?? "/")?.table ?? null;

function connect() {
  if (link) return link;
  link = new Link(
    (frame) => {
      // A friend's invitation or request reaches this page whatever it shows (issue 25): answering it
      // ("Go to the table") takes a seat there.
      if (frame.type === "invited") {
        return showInvitation(frame, (id) => navigate(paths.table(id), { intent: { mode: "join", waiting: true } }));
      }
      if (frame.type === "friends") return friendsChanged(frame);
      // Play now (issue 49): the queue's count, and the table it seated him at, on whatever page.
      if (frame.type === "seeking" || frame.type === "unseeked") return seekingChanged(frame);
      // Events (issue 50): an event's standings pushed to its page; a seat at an event's table.
      if (frame.type === "event") return events?.eventFrame(frame);
      if (frame.type === "seated" || frame.type === "event_seated") {
        // (its end leads back to the event: the last table an event seated him at is kept)
        if (frame.event) store.set("event-seat", JSON.stringify({ table: frame.table, event: frame.event }));
        seekingChanged(frame);
        // A bot's seat from the table's next deal: he watches until it starts, and is seated then.
        if (frame.next_deal) {
          const note = t("table.seat_next_deal", { bot: t("seat.bot", { seat: frame.seat + 1 }) });
          return navigate(paths.table(frame.table), { intent: { mode: "watch", waiting: false, note } });
        }
        return navigate(paths.table(frame.table), { intent: { mode: "join", waiting: false } });
      }
      if (frame.type === "error" && frame.ref === "seek") return seekRefused(frame);
      if (frame.type === "error" && String(frame.ref).startsWith("chat:")) return chatError(frame);
      if (frame.seats && frame.table) shareSeats(frame.table, frame.seats); // (invite only who is not there)
      if (frame.type === "error") {
        if (frame.code === "bad_token") return logout();
        // Asked for a seat where there is none (every seat taken, the match started): watch instead.
        if (frame.code === "seat_taken" && view && view.mode === "join" && !seated(view)) {
          return openTable(view.id, { mode: "watch", said: frame });
        }
        if (view) view.error(frame);
        if (["no_such_table", "table_over"].includes(frame.code) && view) view.gone(frame);
        if (frame.code === "table_moved" && view) moving(view);
      } else if (frame.type === "rematch" && typeof frame.ref === "string" && frame.ref.startsWith("rematch:")) {
        navigate(paths.table(frame.new), { intent: { mode: "join", waiting: false } }); // the play-again table he asked for
      } else if (loading) {
        loading.push(frame);
      } else if (view && frame.table === view.id) {
        if (frame.type === "table") moved(); // (back from a move: at its new server)
        if (frame.type === "table" && frame.you !== null && frame.you !== undefined && view.mode === "watch") {
          view.mode = "join"; // (watching, he took a bot's seat: a reconnection joins it)
          store.set("mode", "join");
        }
        if (view.waiting && frame.type === "table" && frame.status !== "waiting") {
          promote(frame);
          return;
        }
        view.frame(frame);
      }
    },
    setConnection,
  );
  link.open();
  return link;
}

function logout() {
  forget();
  dropTable();
  if (link) link.ws?.close(); // a new connection says hello as whoever comes next
  drawScreen(current());
}

/** The event that seated him at table `id` (the last one an event did), or null. */
function eventOf(id) {
  try {
    const kept = JSON.parse(store.get("event-seat") || "null");
    return kept?.table === id ? kept.event : null;
  } catch {
    return null;
  }
}

function hooks(id) {
  return {
    send: (message) => connect().send(message),
    leave: () => {
      connect().send({ type: "leave", table: id });
      navigate(paths.lobby());
    },
    lobby: () => navigate(paths.lobby()),
    open: (other) => navigate(paths.table(other), { intent: { mode: "join", waiting: false } }),
    rules: (game) => showRules(game),
    replay: () => showReplay(id), // once the match is over
    event: () => eventOf(id), // the event that seated him here, if any
    toEvent: () => navigate(paths.event(eventOf(id))),
  };
}

async function tableView(id, mode) {
  const { TableView } = await import("./table.js");
  const made = new TableView(main, id, mode, hooks(id));
  made.setConnection(status);
  return made;
}

/** How to open table `id`: to join it (a seat he holds or asked for) or to watch it, in its waiting room
 * or at the table; `offer`: a seat is offered in the waiting room. `intent`: what he asked for. */
async function seatFor(id, intent) {
  if (intent?.mode === "join") return { mode: "join", waiting: intent.waiting ?? true };
  if (intent?.mode === "watch") return { mode: "watch", waiting: intent.waiting ?? true, offer: false };
  if (!intent && store.get("table") === id && store.get("mode")) {
    return { mode: store.get("mode"), waiting: store.get("room") === "1" }; // a reload at the table
  }
  let mine = [];
  try {
    mine = (await api("GET", "/api/players/me/tables")).tables;
  } catch {
    /* not known: watch (a seat he holds is joined from the waiting room's seats, or the lobby) */
  }
  const held = mine.find((x) => x.table === id);
  if (held) return { mode: "join", waiting: held.status === "waiting" };
  // Not his: watched, from the waiting room (which hands over to the table if the match is on).
  return { mode: "watch", waiting: true, offer: true };
}

/** Open table `id` (the screen of its address); `intent`: what the person asked for (see seatFor). */
async function openTable(id, intent) {
  const shownBefore = view;
  if (view) view.forget();
  view = null;
  if (shownBefore?.id !== id) main.replaceChildren();
  settle(); // (the intent is used once: Back to this address decides anew)
  const how = await seatFor(id, intent);
  if (tableShown() !== id || view) return; // another screen was asked for meanwhile
  store.set("table", id);
  store.set("mode", how.mode);
  if (how.waiting) store.set("room", "1");
  else store.drop("room");
  const made = how.waiting ? new WaitingRoom(main, id, how.mode, hooks(id), { offer: how.offer, said: intent?.said }) : await tableView(id, how.mode);
  if (!how.waiting && intent?.note) made.note = intent.note; // (a bot's seat his from the next deal)
  if (tableShown() !== id || view) return made.forget();
  view = made;
  connect().wanted = () => view.attach();
  connect().send(view.attach());
}

/** The match of the waiting room's table started (`frame`): the table view takes over, with the frames
 * that come while it loads. */
async function promote(frame) {
  const { id, mode } = view;
  view.forget();
  store.drop("room");
  loading = [frame];
  const next = await tableView(id, mode);
  const held = loading;
  loading = null;
  view = next;
  for (const f of held) if (f.table === id) view.frame(f);
}

/** No table shown any more: it is forgotten (the page opened at / goes to the lobby). */
function dropTable() {
  store.drop("table");
  store.drop("room");
  if (view) view.forget();
  view = null;
  loading = null;
  if (link) link.wanted = null;
}

let events = null; // events.js, once an event's screen was drawn (its frames go to it)
let following = null; // the event whose standings this connection follows (its page is shown)

/** Follow no event but `keep` (the event of the screen drawn now, if any): the server stops pushing. */
function unfollow(keep) {
  if (following === null || following === keep) return;
  connect().send({ type: "unfollow_event", event: following });
  following = null;
}

/** An events screen (events.js, loaded when first needed): the list, an event, a player's results. */
async function drawEvents(what, screen) {
  events = await import("./events.js");
  const nav = {
    busy: () => current()?.screen !== screen || !signedIn(),
    open: (path) => navigate(path),
    // (asked again after a reconnection, as a table's attach is)
    follow: (id, token) => {
      following = id;
      const message = () => ({ type: "follow_event", event: id, token: token ?? null, id: `follow_event:${id}` });
      connect().wanted = message;
      connect().send(message());
    },
  };
  try {
    if (what.screen === "events") return await events.renderEvents(main, nav);
    if (what.screen === "event") return await events.renderEvent(main, what.event, nav);
    return await events.renderEventPlayer(main, what.event, what.player, nav);
  } catch (e) {
    if (current()?.screen !== screen) return;
    if (isOffline(e)) return offlineScreen(main, () => drawScreen(current()));
    throw e;
  }
}

/** Draw the screen of `state` (the router's): the first page, the lobby, a table, or an events screen. */
async function drawScreen(state) {
  header();
  const what = parse(state.screen) ?? { screen: "lobby" };
  if (link) unfollow(what.screen === "event" ? what.event : null);
  if (!signedIn()) {
    dropTable();
    return renderFirst(main, { done: signedInNow, table: what.table, play: (id) => navigate(paths.table(id), { intent: { mode: "join", waiting: false } }) });
  }
  if (what.screen === "table") return openTable(what.table, state.intent);
  dropTable();
  checkSession(logout); // (a lobby still loading then finds nobody signed in, and draws nothing)
  connect(); // the lobby holds the websocket too: friends see him online, invitations reach him
  if (what.screen?.startsWith("event")) return drawEvents(what, state.screen);
  try {
    await renderLobby(main, {
      openTable: (id, mode, waiting) => navigate(paths.table(id), { intent: { mode, waiting } }),
      render: () => drawScreen(current()), // (Refresh: asked again, the connection kept)
      busy: () => current()?.screen !== "/" || !signedIn(),
      account: () => accountPanel(signedInNow),
      send: (message) => connect().send(message),
    });
  } catch (e) {
    if (current()?.screen !== "/") return;
    if (isOffline(e)) return offlineScreen(main, () => drawScreen(current()));
    throw e;
  }
  // Once the lobby is up, the table's modules load in the background: the first table opens at once.
  (window.requestIdleCallback || setTimeout)(() => {
    for (const module of ["./table.js", "./replay.js", "./rules.js"]) import(module).catch(() => {});
  });
}

/** The router's drawer: the screen when it changed (or what it is for), then the dialogs over it. */
function draw(state, before) {
  const screen = !before || before.screen !== state.screen || state.intent ? drawScreen(state) : null;
  const wanted = new Set(state.dialogs.map((d) => parse(d).dialog));
  for (const kind of KINDS) if (!wanted.has(kind)) closeDialog(kind);
  // (in the order they were opened: the last one on top)
  const opened = state.dialogs.map((d) => openDialog(parse(d).dialog, d));
  return opened.length ? Promise.all(opened) : screen;
}

document.getElementById("lang").addEventListener("click", async () => {
  await setLanguage(language() === "en" ? "bn" : "en");
  if (link) setConnection(document.getElementById("conn").dataset.status || status); // (none on the first page)
  header();
  networkNoteAgain();
  if (view) view.render();
  else drawScreen(current());
});

/** The player changed (signed in, out, or made an account): the connection says hello again. */
function signedInNow() {
  if (link) link.ws?.close(); // it reopens at once, saying hello with the new credential
  drawScreen(current());
}

/** A private table's link (#invite/<table>/<invitation>): the invitation is kept, the table's address
 * shown, and its waiting room offers a seat (once the person has a name). */
function invited(invite, replace = true) {
  rememberInvitation(invite.table, invite.invitation);
  return navigate(paths.table(invite.table), { replace, intent: { mode: "offer" } });
}
invitations((invite) => invited(invite));

await setLanguage(initialLanguage());
header();
networkNote(() => {
  if (!view) drawScreen(current()); // the network is back: the lobby asks again
});
start(draw, (state) => {
  // A private event's link (/events/<id>#token=...): its token kept for the page's requests about it.
  const opened = parse(location.pathname);
  const token = opened?.event ? eventToken(location.hash, location.search) : null;
  if (token) {
    eventTokens.set(opened.event, token);
    history.replaceState(history.state, "", location.pathname); // (kept by the page: out of the bar)
  }
  const invite = invitationLink(location.hash);
  if (invite) {
    rememberInvitation(invite.table, invite.invitation);
    return { screen: paths.table(invite.table), dialogs: [], pushed: false, intent: { mode: "offer" } };
  }
  // Opened at / with a table kept (a tab closed at the table, a reload from before addresses): that table.
  const table = store.get("table");
  if (state.screen === "/" && !state.dialogs.length && signedIn() && table) {
    return { ...state, screen: paths.table(table) };
  }
  return state;
});
installWorker();
