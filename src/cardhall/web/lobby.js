// The lobby: the player's own tables first (a button back to each, a badge when it is his turn there),
// then playing at once (quick play) and the open and running tables (join, watch), then the rest:
// creating a table (game, options, table settings), friends, the account, the leaderboards, the finished
// matches to replay, the five games with their options explained; and the waiting room of a table whose
// seats are still being taken.
// Texts come from the catalogue (lobby.*, leaderboard.*); each option's name, explanation and the words
// of its values come from the server's option list in the page's language (GET /api/games: `text`), and
// each option is offered as the control its type calls for (a checkbox, a list of its values, a number
// within its range), never as text to type. Refusals are worded from their error code.
//
// Decisions: what a person comes for is first (his tables, play now, the tables to join); on a phone
// (a window under 700 px wide) the rest is folded under its title (<details>), so the lobby is a screen
// or two tall rather than five; a fold he opens stays open while the page is open. The waiting room
// names the game and its options in words (never the game string), and offers a seat to someone who
// came by its address and holds none ("Take a seat" or "Watch": nobody is seated unasked).
import { t } from "./i18n.js";
import { h, api, store, errorText, playerLink } from "./util.js";
import { showReplay } from "./dialogs.js";
import { gameList, gameName, gameOptionsText, gameString, gameTitle, gamesKnown, optionHelp, optionText, optionValue } from "./catalogue.js";
import { paths } from "./router.js";
import { chatPanel } from "./chat.js";
import { friendsPanel, invitationFor, rememberInvitation, sharePanel } from "./friends.js";
import { leaderboards } from "./boards.js";

/** A bot by its level's name ("bot: easy") when it is one of the lobby's levels, else its bot string. */
export function botLabel(bot) {
  const level = Object.entries(gamesKnown()?.bot_levels || {}).find(([, spec]) => spec === bot);
  return t("lobby.seat_bot", { bot: level ? t(`level.${level[0]}`) : bot });
}

function seatLabel(seat) {
  if (seat.kind === "empty") return t("lobby.seat_empty");
  if (seat.kind === "bot") return botLabel(seat.bot || seat.name);
  return seat.name;
}

// --- controls for options and settings, from their description ("2|3", "int 1..", "true|false") --------

function optionControl(id, option) {
  if (option.type === "bool") {
    return h("input", { id, type: "checkbox", checked: option.default === true, "data-kind": "bool" });
  }
  if (option.type === "choice") {
    return h(
      "select",
      { id, "data-kind": "choice" },
      option.values.map((v, i) => h("option", { value: String(i), "data-value": String(v), text: optionValue(option, v), selected: v === option.default })),
    );
  }
  return h("input", {
    id,
    type: "number",
    "data-kind": "int",
    value: String(option.default),
    min: option.minimum,
    max: option.maximum,
    step: 1,
    inputmode: "numeric",
  });
}

function controlValue(el, option) {
  if (el.dataset.kind === "bool") return el.checked;
  if (el.dataset.kind === "int") return Number(el.value);
  return option.values[Number(el.value)];
}

/** A labelled control per option, its explanation under it; returns [element, () => changed values]. */
function optionFields(prefix, options) {
  const rows = options.map((o) => {
    const id = `${prefix}-${o.name}`;
    const control = optionControl(id, o);
    const help = h("small", { id: `${id}-help`, class: "help", text: optionHelp(o) });
    control.setAttribute("aria-describedby", help.id);
    return {
      o,
      control,
      el: h("div", { class: "field", "data-option": o.name }, h("label", { for: id, text: optionText(o).title }), control, help),
    };
  });
  const values = () => {
    const out = {};
    for (const { o, control } of rows) {
      const value = controlValue(control, o);
      if (value !== o.default) out[o.name] = value;
    }
    return out;
  };
  return [h("div", { class: "fields" }, rows.map((r) => r.el)), values];
}

// --- the lobby ----------------------------------------------------------------------------------------

/** The lobby page in `main`; `nav.openTable(id, mode, waiting)` opens a table. */
export async function renderLobby(main, nav) {
  const catalogue = await gameList();
  let listing = { open: [], running: [] };
  let finished = { tables: [] };
  let mine = { tables: [] };
  try {
    [listing, finished, mine] = await Promise.all([
      api("GET", "/api/tables"),
      api("GET", "/api/finished"),
      api("GET", "/api/players/me/tables"),
    ]);
  } catch {
    /* shown empty */
  }
  if (nav.busy()) return; // a table opened meanwhile
  if (!store.get("id")) {
    api("GET", "/api/players/me")
      .then((me) => store.set("id", String(me.id)))
      .catch(() => {});
  }
  main.replaceChildren(
    h(
      "div",
      { class: "lobby" },
      yourTables(mine, nav),
      quickPlay(catalogue, nav),
      tables(listing, nav, new Set(mine.tables.map((x) => x.table))),
      fold("create", t("lobby.create"), createTable(catalogue, nav)),
      fold("friends", t("friends.title"), friendsPanel(nav)),
      nav.account ? fold("account", t("account.title"), nav.account()) : null,
      fold("leaderboards", t("leaderboard.title"), leaderboards(catalogue)),
      fold("replays", t("replay.recent"), replays(finished)),
      fold("games", t("lobby.games"), gamesPanel(catalogue)),
    ),
  );
}

const opened = new Set(); // the folds opened on a phone, kept open while the page is open
const phone = window.matchMedia("(max-width: 700px)");
// (a window that becomes a phone's width, or a desktop's, folds or unfolds the lobby as if drawn at it)
phone.addEventListener("change", () => {
  for (const el of document.querySelectorAll(".lobby > .fold")) el.open = !phone.matches || opened.has(el.dataset.fold);
});

/** A part of the lobby under its title, folded on a phone (see the module's decisions); `panel` keeps its
 * own heading for screen readers, shown only by the fold's title. */
function fold(name, title, panel) {
  panel.classList.add("fold-body");
  // (the fold being replaced counts too: opened a moment ago, its toggle event may not have come yet)
  const shown = document.querySelector(`.lobby > .fold[data-fold="${name}"]`);
  const open = !phone.matches || opened.has(name) || Boolean(shown && shown.open);
  const el = h(
    "details",
    { class: `panel fold fold-${name}`, "data-fold": name, open },
    h("summary", { class: "fold-title" }, h("span", { text: title })),
    panel,
  );
  el.addEventListener("toggle", () => {
    if (phone.matches) el.open ? opened.add(name) : opened.delete(name);
  });
  return el;
}

function gameSelect(id, catalogue, label, onchange) {
  return h(
    "select",
    { id, "aria-label": label, onchange },
    catalogue.games.map((g) => h("option", { value: g.name, text: gameTitle(g.name) })),
  );
}

function levelSelect(id, catalogue) {
  return h(
    "select",
    { id, "aria-label": t("lobby.level") },
    Object.keys(catalogue.bot_levels).map((l) =>
      h("option", { value: l, text: t(`level.${l}`), selected: l === "normal" }),
    ),
  );
}

/** The player's own tables, first: a button back to each (his seat is kept while he is away from it, a
 * bot standing in after a while), a badge when it is his turn there. Asked again with the other tables. */
function yourTables(mine, nav) {
  const panel = h("section", { class: "panel yours", "aria-labelledby": "yours-title", "data-count": String(mine.tables.length) });
  const fill = (list) => {
    panel.dataset.count = String(list.length);
    panel.hidden = !list.length;
    panel.replaceChildren(
      h("h2", { id: "yours-title", text: t("lobby.yours") }),
      h(
        "ul",
        {},
        list.map((x) =>
          h(
            "li",
            { class: `table-row mine${x.your_turn ? " turn" : ""}`, "data-table": x.table },
            h("strong", { text: gameTitle(gameName(x.game)) }),
            x.your_turn ? h("span", { class: "badge turn-badge", text: t("lobby.your_turn") }) : null,
            h("span", { class: "names", text: x.seats.map(seatLabel).join(", ") }),
            h("button", {
              type: "button",
              class: "back-to primary",
              text: t(x.status === "waiting" ? "lobby.back_to_room" : "lobby.back_to_table"),
              "aria-label": t("lobby.back_to_table_of", { game: gameTitle(gameName(x.game)) }),
              onclick: () => nav.openTable(x.table, "join", x.status === "waiting"),
            }),
          ),
        ),
      ),
      h("p", { class: "help", text: t("lobby.yours_help") }),
    );
  };
  fill(mine.tables);
  const timer = setInterval(async () => {
    if (!panel.isConnected) return clearInterval(timer);
    if (panel.contains(document.activeElement)) return;
    try {
      fill((await api("GET", "/api/players/me/tables")).tables);
    } catch {
      /* shown as it was */
    }
  }, POLL_MS);
  return panel;
}

// --- Play now (issue 49): the hall's queue -----------------------------------------------------------
// The person presses Play now with a choice of when bots may fill the seats nobody comes for; the panel
// then counts, from the server's `seeking` frames ("2 of 3 seated — starting with a bot in 8 s"), offers
// Leave, and the page opens the table when a `seated` frame comes (app.js). "Alone against bots" is the
// quick play of before (a table of his own at once). Under the buttons: the games people look for now.

const CHOICES = ["after_wait", "now", "people_only"];
let seeking = null; // the last `seeking` frame while this page waits in the queue (null: not waiting)
let seekShown = null; // () => redraws the waiting panel, while the lobby shows it

/** A Play now frame (`seeking`, `unseeked`, `seated`) from the connection (app.js). */
export function seekingChanged(frame) {
  if (frame.type === "seeking") seeking = { ...frame, until: frame.bots_in === null ? null : Date.now() + frame.bots_in * 1000 };
  else if (frame.type === "unseeked") seeking = null;
  else if (frame.type === "seated") seeking = null; // (the page opens the table: app.js)
  seekShown?.();
}

function seekingText(s) {
  const count = Math.min(s.waiting, s.seats);
  if (s.bots_in === null) return t("lobby.seeking_people", { count, seats: s.seats });
  const seconds = Math.max(0, Math.ceil((s.until - Date.now()) / 1000));
  if (s.choice === "now" || seconds === 0) return t("lobby.seeking_now", { count, seats: s.seats });
  return t("lobby.seeking", { count, seats: s.seats, seconds });
}

function waitingPanel(nav) {
  const text = h("p", { id: "pn-status", class: "pn-status", role: "status", "aria-live": "polite" });
  const usual = h("p", { id: "pn-usual", class: "help" });
  const leave = h("button", {
    type: "button",
    id: "unseek",
    text: t("lobby.unseek"),
    onclick: () => nav.send({ type: "unseek", id: "unseek" }),
  });
  const panel = h("div", { id: "pn-waiting", class: "pn-waiting", hidden: true }, text, usual, leave);
  const show = () => {
    panel.hidden = !seeking;
    if (!seeking) return;
    text.textContent = seekingText(seeking);
    usual.textContent = seeking.usual_wait === null ? "" : t("lobby.usual_wait", { seconds: Math.round(seeking.usual_wait) });
  };
  seekShown = show;
  const timer = setInterval(() => {
    if (!panel.isConnected) {
      clearInterval(timer);
      if (seekShown === show) seekShown = null;
      return;
    }
    show();
  }, 250);
  show();
  return panel;
}

/** How many people look for each game now, and the usual wait (GET /api/playnow), asked again with the
 * tables. */
function lookingPanel() {
  const list = h("ul", { id: "pn-pools", class: "pn-pools" });
  const panel = h("div", { class: "pn-looking", hidden: true }, h("h3", { text: t("lobby.looking_title") }), list);
  const fill = (pools) => {
    const byGame = new Map();
    for (const p of pools) {
      const name = gameName(p.game);
      const seen = byGame.get(name) || { waiting: 0, usual: null };
      seen.waiting += p.waiting;
      if (p.usual_wait !== null) seen.usual = seen.usual === null ? p.usual_wait : Math.min(seen.usual, p.usual_wait);
      byGame.set(name, seen);
    }
    panel.hidden = !byGame.size;
    list.replaceChildren(
      ...[...byGame].map(([name, x]) =>
        h(
          "li",
          { "data-game": name, "data-waiting": String(x.waiting) },
          h("strong", { text: gameTitle(name) }),
          " ",
          h("span", { text: t("lobby.looking", { count: x.waiting }) }),
          x.usual === null ? null : h("span", { class: "help", text: ` · ${t("lobby.usual_wait", { seconds: Math.round(x.usual) })}` }),
        ),
      ),
    );
  };
  const ask = async () => {
    try {
      fill((await api("GET", "/api/playnow")).pools);
    } catch {
      /* shown as it was */
    }
  };
  ask();
  const timer = setInterval(() => (panel.isConnected ? ask() : clearInterval(timer)), POLL_MS);
  return panel;
}

function quickPlay(catalogue, nav) {
  const holder = h("div", { class: "game-options" });
  let optionValues = () => ({});
  const fill = () => {
    const g = catalogue.games.find((x) => x.name === game.value);
    const [el, values] = optionFields("qp-opt", g.options);
    optionValues = values;
    holder.replaceChildren(el);
  };
  const game = gameSelect("qp-game", catalogue, t("lobby.game"), fill);
  fill();
  const level = levelSelect("qp-level", catalogue);
  const pace = h(
    "select",
    { id: "qp-pace", "aria-label": t("lobby.pace") },
    [
      ["1500", "pace.slow"],
      ["700", "pace.normal"],
      ["0", "pace.fast"],
    ].map(([v, k]) => h("option", { value: v, text: t(k), selected: v === "700" })),
  );
  const choice = h(
    "select",
    { id: "qp-choice", "aria-label": t("lobby.choice") },
    CHOICES.map((c) => h("option", { value: c, text: t(`choice.${c}`), selected: c === "after_wait" })),
  );
  const error = h("p", { class: "error", role: "alert" });
  const wanted = () => ({
    game: gameString(game.value, optionValues()),
    level: level.value,
    settings: { bot_pace_ms: Number(pace.value) },
  });
  const alone = async () => {
    try {
      const table = await api("POST", "/api/quickplay", wanted());
      nav.openTable(table.table, "join", false);
    } catch (e) {
      error.textContent = t("error.quickplay", { message: errorText(e.error) });
    }
  };
  return h(
    "form",
    {
      class: "panel quick",
      "aria-labelledby": "quick-title",
      onsubmit: (event) => {
        event.preventDefault();
        error.textContent = "";
        if (event.submitter?.id === "quickplay") return alone();
        nav.send({ type: "seek", id: "seek", choice: choice.value, ...wanted() });
      },
    },
    h("h2", { id: "quick-title", text: t("lobby.quick") }),
    h("div", { class: "row" }, h("label", { text: t("lobby.game") }, game)),
    h("details", { class: "qp-options" }, h("summary", { text: t("lobby.options") }), holder),
    h("div", { class: "row" }, h("label", { text: t("lobby.level") }, level), h("label", { text: t("lobby.pace") }, pace)),
    h("p", { class: "help", id: "qp-levels", text: t("lobby.levels_about") }),
    h("div", { class: "row" }, h("label", { text: t("lobby.choice") }, choice)),
    h(
      "div",
      { class: "row buttons" },
      h("button", { type: "submit", id: "playnow", class: "primary", text: t("lobby.play") }),
      h("button", { type: "submit", id: "quickplay", text: t("lobby.play_bots") }),
    ),
    waitingPanel(nav),
    error,
    lookingPanel(),
  );
}

/** A refusal of `seek` (its error frame, `ref` "seek"), shown under the Play now button. */
export function seekRefused(frame) {
  const el = document.querySelector(".panel.quick .error");
  if (el) el.textContent = t("error.playnow", { message: errorText(frame.code) });
}

function createTable(catalogue, nav) {
  const holder = h("div", { class: "game-options" });
  let optionValues = () => ({});
  const fill = () => {
    const g = catalogue.games.find((x) => x.name === game.value);
    const [el, values] = optionFields("ct-opt", g.options);
    optionValues = values;
    holder.replaceChildren(el);
  };
  const game = gameSelect("ct-game", catalogue, t("lobby.game"), fill);
  const [settingsEl, settingValues] = optionFields("ct-set", catalogue.settings);
  const error = h("p", { class: "error", role: "alert" });
  const privately = h("input", { type: "checkbox", id: "ct-private" });
  fill();
  return h(
    "form",
    {
      class: "panel create",
      "aria-labelledby": "create-title",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          const table = await api("POST", privately.checked ? "/api/private-tables" : "/api/tables", {
            game: gameString(game.value, optionValues()),
            settings: settingValues(),
          });
          rememberInvitation(table.table, table.invitation);
          nav.openTable(table.table, "join", true);
        } catch (e) {
          error.textContent = t("lobby.create_failed", { message: errorText(e.error) });
        }
      },
    },
    h("h2", { id: "create-title", text: t("lobby.create") }),
    h("div", { class: "row" }, h("label", { text: t("lobby.game") }, game)),
    h("details", {}, h("summary", { text: t("lobby.game_options") }), holder),
    h("details", {}, h("summary", { text: t("lobby.table_settings") }), settingsEl),
    h("label", { class: "check private-choice" }, privately, " ", t("lobby.private")),
    h("button", { type: "submit", id: "create", text: t("lobby.create_button") }),
    error,
  );
}

const POLL_MS = 5000; // how often the lobby asks again for the open and running tables

function tables(listing, nav, mine = new Set()) {
  const button = (table, verb) =>
    h("button", {
      type: "button",
      class: verb,
      text: t(`lobby.${verb}`),
      "aria-label": t(`lobby.${verb}_table`, { game: gameTitle(gameName(table.game)) }),
      onclick: () => nav.openTable(table.table, verb, table.status === "waiting"),
    });
  const row = (table, verbs) =>
    h(
      "li",
      { class: "table-row", "data-table": table.table },
      h("strong", { text: gameTitle(gameName(table.game)) }),
      h("span", { class: "names", text: table.seats.map(seatLabel).join(", ") }),
      verbs.map((verb) => button(table, verb)),
    );
  const panel = h(
    "section",
    { class: "panel tables", "aria-labelledby": "open-title", "data-listing": JSON.stringify(listing) },
    h("h2", { id: "open-title", text: t("lobby.open") }),
    listing.open.length
      ? h("ul", {}, listing.open.map((x) => row(x, ["join", "watch"])))
      : h("p", { text: t("lobby.none") }),
    h("h2", { text: t("lobby.running") }),
    listing.running.length
      ? h("ul", {}, listing.running.map((x) => row(x, mine.has(x.table) ? [] : ["watch"])))
      : h("p", { text: t("lobby.none") }),
    h("button", { type: "button", id: "refresh", text: t("lobby.refresh"), onclick: () => nav.render() }),
  );
  // Tables come and go: ask again now and then while this panel is shown, and redraw it when they
  // changed, unless the keyboard is in it (a redraw would take the focus away).
  const timer = setInterval(async () => {
    if (!panel.isConnected) return clearInterval(timer);
    let fresh;
    try {
      fresh = await api("GET", "/api/tables");
    } catch {
      return;
    }
    const same = JSON.stringify(fresh) === panel.dataset.listing;
    if (same || !panel.isConnected || panel.contains(document.activeElement)) return;
    clearInterval(timer);
    panel.replaceWith(tables(fresh, nav, mine));
  }, POLL_MS);
  return panel;
}

function gamesPanel(catalogue) {
  return h(
    "section",
    { class: "panel games", "aria-labelledby": "games-title" },
    h("h2", { id: "games-title", text: t("lobby.games") }),
    h(
      "ul",
      {},
      catalogue.games.map((g) =>
        h(
          "li",
          { class: "game", "data-game": g.name },
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
            { class: "explained" },
            h("summary", { text: t("lobby.options_of") }),
            h(
              "dl",
              {},
              g.options.map((o) => [
                h("dt", {}, `${optionText(o).title}: ${optionValue(o, o.default)} `, h("code", { text: o.name })),
                h("dd", { text: optionHelp(o) }),
              ]),
            ),
          ),
          h(
            "div",
            { class: "game-links" },
            h("a", {
              class: "rules-link button-link",
              href: paths.rules(g.name),
              text: t("lobby.rules"),
              "aria-label": t("lobby.rules_of", { game: gameTitle(g.name) }),
            }),
            h("button", {
              type: "button",
              class: "board-link",
              text: t("lobby.leaderboard"),
              "aria-label": t("lobby.leaderboard_of", { game: gameTitle(g.name) }),
              onclick: () => {
                const select = document.getElementById("lb-game");
                const folded = select.closest("details");
                if (folded) folded.open = true;
                select.value = g.name;
                select.dispatchEvent(new Event("change"));
                select.scrollIntoView({ block: "center" });
                select.focus();
              },
            }),
          ),
        ),
      ),
    ),
  );
}

// --- finished matches to replay -----------------------------------------------------------------------

function replays(finished) {
  const me = store.get("id");
  const mine = (table) => table.seats.some((s) => s.player !== null && String(s.player) === me);
  const sorted = [...finished.tables.filter(mine), ...finished.tables.filter((x) => !mine(x))];
  const bad = h("p", { class: "error", role: "alert" });
  const id = h("input", {
    id: "replay-id",
    name: "table",
    required: true,
    maxlength: 20,
    autocomplete: "off",
    "aria-label": t("replay.by_id"),
  });
  return h(
    "section",
    { class: "panel replays", "aria-labelledby": "replays-title" },
    h("h2", { id: "replays-title", text: t("replay.recent") }),
    sorted.length
      ? h(
          "ul",
          {},
          sorted.map((table) =>
            h(
              "li",
              { class: `table-row${mine(table) ? " mine" : ""}`, "data-table": table.table },
              h("strong", { text: gameTitle(gameName(table.game)) }),
              h("span", { class: "names", text: table.seats.map(seatLabel).join(", ") }),
              h("button", {
                type: "button",
                class: "replay",
                text: t("replay.open"),
                "aria-label": t("replay.open_of", { game: gameTitle(gameName(table.game)) }),
                onclick: () => showReplay(table.table),
              }),
            ),
          ),
        )
      : h("p", { text: t("lobby.none") }),
    h(
      "form",
      {
        class: "row",
        onsubmit: (event) => {
          event.preventDefault();
          const wanted = id.value.trim();
          bad.textContent = wanted && !/^[\w-]+$/.test(wanted) ? t("replay.bad_id") : "";
          if (wanted && !bad.textContent) showReplay(wanted);
        },
      },
      h("label", { text: t("replay.by_id") }, id),
      h("button", { type: "submit", id: "replay-go", text: t("replay.open") }),
    ),
    bad,
  );
}

// --- the waiting room: seats being taken, bots added, the match starting when every seat is taken --------

export class WaitingRoom {
  /** `offer`: offer a seat (or watching) to a person who holds none (he came by the table's address);
   * `said`: a refusal to show at first (the seat asked for was taken). */
  constructor(root, id, mode, hooks, { offer = false, said = null } = {}) {
    this.root = root;
    this.id = id;
    this.mode = mode;
    this.hooks = hooks;
    this.offer = offer;
    this.waiting = true; // app.js hands the table over to the table view once the match starts
    this.chat = chatPanel(id, (message) => hooks.send(message));
    this.state = null;
    this.message = said ? errorText(said.code) : "";
    this.render();
    gameList()
      .then(() => this.state && this.render()) // (the settings' names, after a reload into the room)
      .catch(() => {});
  }

  attach() {
    return { type: this.mode === "watch" ? "watch" : "join", table: this.id, invitation: invitationFor(this.id) };
  }

  frame(frame) {
    if (frame.type === "chat") return this.chat.add(frame);
    if (frame.type === "table") this.state = frame;
    else if (frame.type === "update" && this.state && frame.seats) this.state.seats = frame.seats;
    else return;
    this.message = "";
    this.render();
  }

  error(frame) {
    this.message = errorText(frame.code);
    this.render();
  }

  gone() {
    this.message = t("error.gone");
    this.render();
    // A match over and gone from the server's memory (an old bookmark): its replay is one click away.
    api("GET", `/api/tables/${encodeURIComponent(this.id)}`)
      .then((summary) => {
        this.replayable = summary.status === "finished";
        if (this.replayable) this.render();
      })
      .catch(() => {});
  }

  forget() {}

  /** Take a seat (`seat`: that one; none: the first free one). */
  sit(seat) {
    this.mode = "join";
    this.offer = false;
    store.set("mode", "join");
    this.hooks.send({ type: "join", table: this.id, seat, invitation: invitationFor(this.id) });
    this.render();
  }

  render() {
    const s = this.state;
    const title = s ? gameTitle(gameName(s.game)) : t("lobby.room");
    const seats = s ? s.seats : [];
    const empty = seats.filter((x) => x.kind === "empty").length;
    const level = (seat) =>
      h(
        "select",
        { id: `room-level-${seat}`, "aria-label": t("lobby.bot_level_for", { seat: seat + 1 }) },
        Object.keys(gamesKnown()?.bot_levels || { easy: 1, normal: 1, hard: 1, expert: 1 }).map((l) => h("option", { value: l, text: t(`level.${l}`), selected: l === "normal" })),
      );
    const seatRow = (x) => {
      const you = s.you === x.seat;
      const who =
        x.kind === "empty"
          ? t("lobby.seat_empty")
          : x.kind === "bot"
            ? botLabel(x.bot)
            : you
              ? t("lobby.seat_you", { name: x.name })
              : x.name;
      const controls = [];
      if (x.kind === "empty" && s.you !== null) {
        const pick = level(x.seat);
        controls.push(
          pick,
          h("button", {
            type: "button",
            class: "add-bot",
            text: t("lobby.add_bot"),
            "aria-label": t("lobby.add_bot_at", { seat: x.seat + 1 }),
            onclick: () => this.hooks.send({ type: "bot", table: this.id, seat: x.seat, level: pick.value }),
          }),
        );
      }
      if (x.kind === "empty" && s.you === null) {
        controls.push(
          h("button", {
            type: "button",
            class: "sit",
            text: t("lobby.sit"),
            "aria-label": t("lobby.sit_at", { seat: x.seat + 1 }),
            onclick: () => this.sit(x.seat),
          }),
        );
      }
      return h(
        "li",
        { class: `room-seat ${x.kind}${you ? " me" : ""}`, "data-seat": x.seat },
        h("span", { class: "seat-no", text: t("lobby.seat_number", { seat: x.seat + 1 }) }),
        h("span", { class: "seat-who", text: who }),
        h("span", { class: "seat-controls" }, controls),
      );
    };
    const described = new Map((gamesKnown()?.settings || []).map((o) => [o.name, o]));
    const settings = s
      ? Object.entries(s.settings).map(([k, v]) => {
          const o = described.get(k);
          return h("li", {}, o ? `${optionText(o).title}: ${optionValue(o, v)}` : `${k}: ${v}`);
        })
      : [];
    const options = s ? gameOptionsText(s.game) : [];
    const offered = this.offer && s && s.you === null && s.status === "waiting" && empty > 0;
    const typing = document.activeElement === this.chat.input;
    const focus = document.activeElement?.id;
    this.chat.draw();
    this.root.replaceChildren(
      h(
        "section",
        { class: "panel room", "aria-labelledby": "room-title", "data-table": this.id },
        h("h2", { id: "room-title", text: t("lobby.room_title", { game: title }) }),
        options.length ? h("ul", { class: "room-options", "aria-label": t("lobby.room_options") }, options.map((text) => h("li", { text }))) : null,
        offered
          ? h(
              "div",
              { class: "seat-offer", role: "group", "aria-labelledby": "offer-text" },
              h("p", { id: "offer-text", text: t("lobby.offer") }),
              h(
                "div",
                { class: "row" },
                h("button", { type: "button", id: "take-seat", class: "primary", text: t("lobby.take_seat"), onclick: () => this.sit() }),
                h("button", {
                  type: "button",
                  id: "just-watch",
                  text: t("lobby.just_watch"),
                  onclick: () => {
                    this.offer = false;
                    this.render();
                  },
                }),
              ),
            )
          : null,
        h("p", { class: "room-id" }, t("lobby.room_id"), " ", h("code", { text: this.id })),
        sharePanel(this.id),
        s
          ? h("p", {
              class: "room-status",
              role: "status",
              text: empty ? t("lobby.room_waiting", { count: empty }) : t("lobby.room_starting"),
            })
          : h("p", { text: t("conn.connecting") }),
        s ? h("ol", { class: "room-seats", "aria-label": t("lobby.seats") }, seats.map(seatRow)) : null,
        settings.length
          ? h("details", {}, h("summary", { text: t("lobby.table_settings") }), h("ul", { class: "settings" }, settings))
          : null,
        h("p", { class: "error", role: "alert", text: this.message }),
        h(
          "div",
          { class: "row" },
          this.replayable ? h("a", { id: "room-replay", class: "button-link", href: paths.replay(this.id), text: t("replay.open") }) : null,
          s
            ? h("button", {
                type: "button",
                id: "room-rules",
                text: t("lobby.rules"),
                onclick: () => this.hooks.rules(gameName(s.game)),
              })
            : null,
          h("button", { type: "button", id: "room-lobby", text: t("lobby.back"), onclick: () => this.hooks.lobby() }),
          s && s.you !== null
            ? h("button", { type: "button", id: "room-leave", text: t("lobby.leave"), onclick: () => this.hooks.leave() })
            : null,
        ),
      ),
      this.chat.element,
    );
    if (typing) this.chat.input.focus({ preventScroll: true }); // (redrawn while he types)
    else if (focus && focus !== "take-seat") document.getElementById(focus)?.focus({ preventScroll: true });
    if (offered && !this.offerShown) {
      this.offerShown = true;
      this.root.querySelector("#take-seat")?.focus({ preventScroll: true });
    }
  }
}
