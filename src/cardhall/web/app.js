// The browser client: the lobby (name, games, quick play, open tables) and the table, over the protocol of
// docs/protocol.md. No build step: plain ES modules served under /static/.
import { setLanguage, language, t, num } from "./i18n.js";
import { TableView } from "./table.js";

const store = {
  get: (key) => localStorage.getItem(`cardhall.${key}`),
  set: (key, value) => localStorage.setItem(`cardhall.${key}`, value),
  drop: (key) => localStorage.removeItem(`cardhall.${key}`),
};

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) el.append(child);
  }
  return el;
}

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  const token = store.get("token");
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body && JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(data.message || response.statusText), data);
  return data;
}

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
    this.onStatus("connecting");
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    this.ws = ws;
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
let games = null;
let link = null;
let view = null;

function setConnection(status) {
  const el = document.getElementById("conn");
  el.className = `conn ${status}`;
  el.textContent = t(`conn.${status}`);
  el.dataset.status = status;
}

function header() {
  const name = store.get("name");
  document.getElementById("who").textContent = name ? t("lobby.hello", { name }) : "";
  const button = document.getElementById("lang");
  button.textContent = language() === "en" ? "বাংলা" : "English";
  button.setAttribute("aria-label", t("lang.switch"));
}

function connect() {
  if (link) return link;
  link = new Link(
    (frame) => {
      if (frame.type === "error") {
        if (view) view.error(frame);
        if (frame.code === "bad_token") logout();
        if (["no_such_table", "table_over", "seat_taken"].includes(frame.code) && view) view.gone(frame);
      } else if (view && frame.table === view.id) {
        view.frame(frame);
      }
    },
    setConnection,
  );
  link.open();
  return link;
}

function logout() {
  store.drop("token");
  store.drop("name");
  store.drop("table");
  render();
}

function openTable(id, mode) {
  store.set("table", id);
  store.set("mode", mode);
  view = new TableView(main, id, mode, {
    send: (message) => connect().send(message),
    leave: () => {
      connect().send({ type: "leave", table: id });
      closeTable();
    },
    lobby: () => closeTable(),
    h,
  });
  connect().wanted = () => view.attach();
  connect().send(view.attach());
}

function closeTable() {
  store.drop("table");
  if (view) view.forget();
  view = null;
  if (link) link.wanted = null;
  render();
}

async function render() {
  header();
  if (view) return view.render();
  if (!store.get("token")) return renderName();
  return renderLobby();
}

function renderName() {
  main.replaceChildren(
    h(
      "form",
      {
        class: "panel name-form",
        onsubmit: async (event) => {
          event.preventDefault();
          const name = event.target.elements.name.value.trim();
          if (!name) return;
          try {
            const player = await api("POST", "/api/players", { name });
            store.set("token", player.token);
            store.set("name", player.name);
            render();
          } catch (e) {
            event.target.querySelector(".error").textContent = t("error.name");
          }
        },
      },
      h("h2", { text: t("name.title") }),
      h("label", { for: "name", text: t("name.label") }),
      h("input", { id: "name", name: "name", maxlength: 40, required: true, autocomplete: "nickname" }),
      h("button", { type: "submit", id: "enter", text: t("name.enter") }),
      h("p", { class: "error", role: "alert" }),
    ),
  );
}

function gameTitle(name) {
  return t(`game.${name}.title`);
}

async function renderLobby() {
  if (!games) games = await api("GET", "/api/games");
  let listing = { open: [], running: [] };
  try {
    listing = await api("GET", "/api/tables");
  } catch {
    /* shown empty */
  }
  if (view) return; // a table opened meanwhile
  const gameSelect = h(
    "select",
    { id: "qp-game", "aria-label": t("lobby.game") },
    games.games.map((g) => h("option", { value: g.name, text: gameTitle(g.name) })),
  );
  const options = h("input", { id: "qp-options", placeholder: "max_hands=1", "aria-label": t("lobby.options") });
  const level = h(
    "select",
    { id: "qp-level", "aria-label": t("lobby.level") },
    Object.keys(games.bot_levels).map((l) => h("option", { value: l, text: t(`level.${l}`), selected: l === "normal" })),
  );
  const pace = h(
    "select",
    { id: "qp-pace", "aria-label": t("lobby.pace") },
    [
      ["1500", "pace.slow"],
      ["700", "pace.normal"],
      ["0", "pace.fast"],
    ].map(([v, k]) => h("option", { value: v, text: t(k), selected: v === "700" })),
  );
  const error = h("p", { class: "error", role: "alert" });
  const quick = h(
    "form",
    {
      class: "panel quick",
      onsubmit: async (event) => {
        event.preventDefault();
        const extra = options.value.trim();
        const game = extra ? `${gameSelect.value}(${extra})` : gameSelect.value;
        try {
          const table = await api("POST", "/api/quickplay", {
            game,
            level: level.value,
            settings: { bot_pace_ms: Number(pace.value) },
          });
          openTable(table.table, "join");
        } catch (e) {
          error.textContent = t("error.quickplay", { message: e.message });
        }
      },
    },
    h("h2", { text: t("lobby.quick") }),
    h("div", { class: "row" }, h("label", { text: t("lobby.game") }, gameSelect)),
    h("div", { class: "row" }, h("label", { text: t("lobby.options") }, options)),
    h("div", { class: "row" }, h("label", { text: t("lobby.level") }, level), h("label", { text: t("lobby.pace") }, pace)),
    h("button", { type: "submit", id: "quickplay", text: t("lobby.play") }),
    error,
  );
  const gameList = h(
    "section",
    { class: "panel games" },
    h("h2", { text: t("lobby.games") }),
    h(
      "ul",
      {},
      games.games.map((g) =>
        h(
          "li",
          { class: "game" },
          h("strong", { text: gameTitle(g.name) }),
          " ",
          h("span", {
            class: "players",
            text:
              g.players[0] === g.players[1]
                ? t("lobby.players_fixed", { count: g.players[0] })
                : t("lobby.players", { min: g.players[0], max: g.players[1] }),
          }),
          h("p", { class: "blurb", text: t(`game.${g.name}.blurb`) }),
          h(
            "details",
            {},
            h("summary", { text: t("lobby.options_of") }),
            h(
              "dl",
              {},
              g.options.map((o) => [
                h("dt", {}, h("code", { text: `${o.name}=${o.default}` })),
                h("dd", { text: o.help }),
              ]),
            ),
          ),
        ),
      ),
    ),
  );
  const row = (table, verb) =>
    h(
      "li",
      { class: "table-row" },
      h("span", { text: `${gameTitle(table.game.split("(")[0])} · ${table.table}` }),
      " ",
      h("span", {
        class: "names",
        text: table.seats.map((s) => (s.kind === "empty" ? t("seat.empty") : s.name)).join(", "),
      }),
      " ",
      h("button", {
        type: "button",
        class: verb,
        text: t(`lobby.${verb}`),
        onclick: () => openTable(table.table, verb),
      }),
    );
  const tables = h(
    "section",
    { class: "panel tables" },
    h("h2", { text: t("lobby.open") }),
    listing.open.length ? h("ul", {}, listing.open.map((x) => row(x, "join"))) : h("p", { text: t("lobby.none") }),
    h("h2", { text: t("lobby.running") }),
    listing.running.length
      ? h("ul", {}, listing.running.map((x) => row(x, "watch")))
      : h("p", { text: t("lobby.none") }),
    h("button", { type: "button", id: "refresh", text: t("lobby.refresh"), onclick: () => render() }),
  );
  main.replaceChildren(h("div", { class: "lobby" }, quick, tables, gameList));
}

document.getElementById("lang").addEventListener("click", async () => {
  await setLanguage(language() === "en" ? "bn" : "en");
  if (link) setConnection(document.getElementById("conn").dataset.status || "offline");
  render();
});

await setLanguage(store.get("lang") || "en");
const table = store.get("table");
header();
if (store.get("token") && table) openTable(table, store.get("mode") || "join");
else render();
