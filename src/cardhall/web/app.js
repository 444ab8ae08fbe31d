// The browser client's bootstrap: the websocket connection (said hello once, rejoining its table after a
// drop), the header (name, connection, language), and which page shows: the name form, the lobby
// (lobby.js), a table's waiting room (lobby.js) or the table (table.js, loaded when a table opens). Rules
// (rules.js) and replays (replay.js) open in dialogs over any page, loaded when first opened:
// `window.cardhall.showRules(game)` and `showReplay(table)`, or from a link: /#rules/hokm, /#replay/<id>.
// No build step: plain ES modules served under /static/, over the protocol of docs/protocol.md.
//
// Decisions: the first page loads only what the name form and the lobby need (this module, the
// catalogue, the lobby); the table's modules and the dialogs' come once the lobby is shown (in the
// background, when the browser is idle) or when first needed, whichever is first. The connection's state goes to
// the header and to the open table, which shows a lost connection on the table itself. A message sent
// while offline waits for the connection, except a move, which the table refuses instead (a move is
// never played later into a position the player has not seen).
import { setLanguage, language, initialLanguage, t } from "./i18n.js";
import { store } from "./util.js";
import { renderLobby, renderName, WaitingRoom } from "./lobby.js";
import { showRules, showReplay, showProfile } from "./dialogs.js";
import { chatError } from "./chat.js";
import { friendsChanged, invitationFor, invitationLink, rememberInvitation, showInvitation } from "./friends.js";
import { signedIn, forget, accountPanel, firstPageSignIn, checkSession } from "./account.js";

window.cardhall = { showRules, showReplay, showProfile };

// --- the websocket: one connection, said hello once, rejoining its table after a drop ------------------

class Link {
  constructor(onFrame, onStatus) {
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.ws = null;
    this.ready = false;
    this.queue = [];
    this.retry = 500;
    this.wanted = null; // () => the message that (re)attaches this connection to its table
  }

  open() {
    this.onStatus(this.ws ? "offline" : "connecting");
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    this.ws = ws;
    // An account's browser has no token: its hello leans on the session cookie (account.js).
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: store.get("token"), id: "hello" }));
    ws.onmessage = (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type === "welcome") {
        this.ready = true;
        this.retry = 500;
        this.onStatus("online");
        if (this.wanted) ws.send(JSON.stringify(this.wanted()));
        for (const m of this.queue.splice(0)) ws.send(JSON.stringify(m));
      }
      this.onFrame(frame);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ready = false;
      this.onStatus("offline");
      setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  send(message) {
    if (this.ready) this.ws.send(JSON.stringify(message));
    else this.queue.push(message);
  }
}

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
}

function connect() {
  if (link) return link;
  link = new Link(
    (frame) => {
      // A friend's invitation or request reaches this page whatever it shows (issue 25).
      if (frame.type === "invited") {
        return showInvitation(frame, (id) => {
          store.set("invited_to", id); // (a full table is watched instead: below)
          openTable(id, "join", true);
        });
      }
      if (frame.type === "friends") return friendsChanged(frame);
      if (frame.type === "error" && String(frame.ref).startsWith("chat:")) return chatError(frame);
      // The table of an invitation is full: watch it instead.
      if (frame.type === "error" && frame.code === "seat_taken" && view && view.mode === "join" && (invitationFor(view.id) || store.get("invited_to") === view.id) && !view.state?.seats?.some((s) => s.name === store.get("name") && s.kind === "person")) {
        openTable(view.id, "watch");
        return;
      }
      if (frame.type === "error") {
        if (view) view.error(frame);
        if (frame.code === "bad_token") logout();
        if (["no_such_table", "table_over", "seat_taken"].includes(frame.code) && view) view.gone(frame);
      } else if (frame.type === "rematch" && typeof frame.ref === "string" && frame.ref.startsWith("rematch:")) {
        openTable(frame.new, "join"); // the play-again table this person asked for
      } else if (loading) {
        loading.push(frame);
      } else if (view && frame.table === view.id) {
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
  if (link) link.ws?.close(); // a new connection says hello as whoever comes next
  render();
}

function hooks(id) {
  return {
    send: (message) => connect().send(message),
    leave: () => {
      connect().send({ type: "leave", table: id });
      closeTable();
    },
    lobby: () => closeTable(),
    open: (other) => openTable(other, "join"),
    rules: (game) => showRules(game),
    replay: () => showReplay(id), // once the match is over
  };
}

async function tableView(id, mode) {
  const { TableView } = await import("./table.js");
  const made = new TableView(main, id, mode, hooks(id));
  made.setConnection(status);
  return made;
}

/** Open table `id` to "join" or "watch" it; `waiting`: its seats are still being taken (the waiting room). */
async function openTable(id, mode, waiting = false) {
  if (view) view.forget();
  store.set("table", id);
  store.set("mode", mode);
  if (waiting) store.set("room", "1");
  else store.drop("room");
  view = waiting ? new WaitingRoom(main, id, mode, hooks(id)) : await tableView(id, mode);
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

function closeTable() {
  store.drop("table");
  store.drop("room");
  if (view) view.forget();
  view = null;
  if (link) link.wanted = null;
  render();
}

async function render() {
  header();
  if (view) return view.render();
  if (!signedIn()) {
    renderName(main, render);
    main.append(firstPageSignIn(signedInNow));
    return;
  }
  const invited = store.get("pending_invite");
  if (invited) {
    // Came by a private table's link before having a name: the name is given, to the table now.
    store.drop("pending_invite");
    return openTable(invited, "join", true);
  }
  checkSession(logout); // (a lobby still loading then finds nobody signed in, and draws nothing)
  connect(); // the lobby holds the websocket too: friends see him online, invitations reach him
  const shown = renderLobby(main, { openTable, render: signedInNow, busy: () => view !== null || !signedIn(), account: () => accountPanel(signedInNow) });
  // Once the lobby is up, the table's modules load in the background: the first table opens at once.
  (window.requestIdleCallback || setTimeout)(() => {
    for (const module of ["./table.js", "./replay.js", "./rules.js"]) import(module).catch(() => {});
  });
  return shown;
}

document.getElementById("lang").addEventListener("click", async () => {
  await setLanguage(language() === "en" ? "bn" : "en");
  setConnection(document.getElementById("conn").dataset.status || status);
  render();
});

/** The player changed (signed in, out, or made an account): the connection says hello again. */
function signedInNow() {
  if (link) link.ws?.close(); // it reopens at once, saying hello with the new credential
  render();
}

/** The dialog a link names (#rules/<game>, #replay/<table>, #player/<id>), if any; a private table's
 * link (#invite/<table>/<invitation>) opens that table, once the person has a name. */
function followLink() {
  const invite = invitationLink(location.hash);
  if (invite) {
    rememberInvitation(invite.table, invite.invitation);
    history.replaceState(null, "", location.pathname); // (the invitation is kept, not left in the bar)
    if (signedIn()) openTable(invite.table, "join", true);
    else {
      store.set("pending_invite", invite.table);
      render();
    }
    return;
  }
  const m = /^#(rules|replay|player)\/([\w-]+)$/.exec(location.hash);
  if (m && m[1] === "rules") showRules(m[2], m[0]);
  else if (m && m[1] === "player") showProfile(m[2], m[0]);
  else if (m) showReplay(m[2], m[0]);
}
window.addEventListener("hashchange", followLink);

await setLanguage(initialLanguage());
const table = store.get("table");
header();
if (invitationLink(location.hash)) followLink();
else {
  if (signedIn() && table) openTable(table, store.get("mode") || "join", store.get("room") === "1");
  else render();
  followLink();
}
