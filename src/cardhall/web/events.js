// The events' pages (issue 50: tournaments), each a screen at its own address (router.js):
//   /events                    the events: running, upcoming, finished (join, leave), and making one for
//                              friends (private: a link to share)
//   /events/<id>               an event: where it is (starts in, round r of n, ends in), join / leave /
//                              come back, the standings (pushed live: `follow_event` -> `event` frames),
//                              its tables by round (watch a running one, replay and review a finished
//                              one), the people signed up
//   /events/<id>/players/<p>   a player's results: each of his tables (place, points, replay) and, for
//                              a duplicate event, each deal's score beside what the other tables made of
//                              the same cards (matchpoints: 1 per player beaten, 1/2 per tie)
// Everything shown comes from the routes and frames of docs/protocol.md (GET /api/events,
// /api/events/<id>, /api/events/<id>/players/<p>, POST /api/events, .../join, .../leave); the texts
// from the catalogue (events.*); the formatting is eventtext.js's (pure, tested in Node).
//
// Decisions: the standings are pushed, never polled: the page asks to follow the event once drawn (and
// again after a reconnection: app.js makes it the connection's `wanted` message) and redraws the
// standings and tables from each `event` frame; only the countdown ticks by itself (a clock, not a
// request), and an event whose start time passed is asked for once, in case its frame was missed. A
// private event's token comes in its link's fragment (eventtext.privateLink) and is kept per event in
// localStorage, sent with each request about it. Names go in as text only (util.h), each a link to his
// results in the event.
import { t, language } from "./i18n.js";
import { h, api, eventTokens, store, errorText, playerLink } from "./util.js";
import { gameList, gameName, gameString, gameTitle } from "./catalogue.js";
import { paths } from "./router.js";
import { dealComparison, figure, formatText, groupEvents, privateLink, seconds, standingsTable, stateText, STATUSES } from "./eventtext.js";

const tokenFor = (id) => eventTokens.get(id);

const now = () => Date.now() / 1000;

let styled = null;
/** The events' stylesheet, added to the page when an events screen is first drawn (the first page does
 * not load it); resolves once it applies (or failed: the page is drawn unstyled rather than never). */
function stylesheet() {
  if (!styled) {
    styled = new Promise((resolve) => {
      const link = h("link", { rel: "stylesheet", href: "/static/events.css", onload: resolve, onerror: resolve });
      document.head.append(link);
    });
  }
  return styled;
}
const KINDS = ["arena", "duplicate"];

const withToken = (id, path) => (tokenFor(id) ? `${path}?token=${encodeURIComponent(tokenFor(id))}` : path);

function me() {
  return store.get("id");
}

const eventTitle = (e) => t(`events.kind_${e.kind}_of`, { game: gameTitle(gameName(e.game)) });

const signups = (e) => (Array.isArray(e.signups) ? e.signups : []);

/** Whether he is signed up to `e` (and not withdrawn): the server's word (`joined`), else his line in
 * its sign-ups. */
function joinedTo(e) {
  if (typeof e.joined === "boolean") return e.joined;
  return Boolean(signups(e).find((p) => String(p.player) === me() && !p.left));
}

/** Join, leave (or come back to) event `e`; `done()` redraws with the event as it is now; a refusal is
 * said in `error`. */
function joinButton(e, done, error) {
  if (!["upcoming", "running"].includes(e.status)) return null;
  const joined = joinedTo(e);
  const left = !joined && signups(e).some((p) => String(p.player) === me());
  const label = joined ? "events.leave" : left ? "events.come_back" : "events.join";
  return h("button", {
    type: "button",
    class: `event-join${joined ? "" : " primary"}`,
    "data-event": String(e.id),
    "data-joined": joined ? "1" : "0",
    text: t(label),
    "aria-label": t(`${label}_of`, { event: eventTitle(e) }),
    onclick: async (event) => {
      const button = event.currentTarget;
      button.disabled = true;
      try {
        await api("POST", `/api/events/${encodeURIComponent(e.id)}/${joined ? "leave" : "join"}`, tokenFor(e.id) ? { token: tokenFor(e.id) } : {});
        done();
      } catch (x) {
        // (said where he clicked, the button his again: nothing changed)
        error.textContent = t("events.refused", { message: errorText(x.error) });
        button.disabled = false;
      }
    },
  });
}

// --- /events ------------------------------------------------------------------------------------------

/** The events list in `main`, and the form to make one; `nav.busy()`: another screen was asked for. */
export async function renderEvents(main, nav) {
  const [catalogue] = await Promise.all([gameList(), stylesheet()]);
  let data = {};
  let failed = false;
  try {
    data = await api("GET", "/api/events");
  } catch (e) {
    failed = e;
  }
  if (nav.busy()) return;
  const error = h("p", { class: "error", role: "alert" });
  const groups = groupEvents(data);
  const redraw = () => renderEvents(main, nav);
  main.replaceChildren(
    h(
      "div",
      { class: "events", lang: language() },
      h("p", { class: "crumbs" }, h("a", { href: paths.lobby(), text: t("events.to_lobby") })),
      h(
        "section",
        { class: "panel events-list", "aria-labelledby": "events-title" },
        h("h2", { id: "events-title", text: t("events.title") }),
        h("p", { class: "help", text: t("events.about") }),
        failed ? h("p", { class: "error", role: "alert", text: failed.error ? errorText(failed.error) : t("events.failed") }) : null,
        error,
        STATUSES.map((status) => eventGroup(status, groups[status], redraw, error)),
      ),
      createEvent(catalogue, nav),
    ),
  );
}

function eventGroup(status, list, redraw, error) {
  return h(
    "div",
    { class: `event-group ${status}`, "data-status": status },
    h("h3", { text: t(`events.${status}`) }),
    list.length
      ? h(
          "ul",
          { class: "event-rows" },
          list.map((e) =>
            h(
              "li",
              { class: `event-row${joinedTo(e) ? " joined" : ""}`, "data-event": String(e.id), "data-kind": e.kind },
              h("a", { href: paths.event(e.id), class: "event-link", text: eventTitle(e) }),
              e.private ? h("span", { class: "badge", text: t("events.private") }) : null,
              h("span", { class: "event-format", text: formatText(e) }),
              h("span", { class: "event-state", text: stateText(e, now()) }),
              typeof e.players === "number" ? h("span", { class: "event-count", text: t("events.signed_up", { count: e.players }) }) : null,
              joinButton(e, () => redraw(), error),
            ),
          ),
        )
      : h("p", { class: "empty", text: t("events.none") }),
  );
}

/** Making an event for friends: private (its link is the way in), a game, arena minutes or duplicate
 * rounds and deals, and when it starts. */
function createEvent(catalogue, nav) {
  const error = h("p", { class: "error", role: "alert" });
  const game = h(
    "select",
    { id: "ev-game" },
    catalogue.games.map((g) => h("option", { value: g.name, text: gameTitle(g.name) })),
  );
  const kind = h(
    "select",
    { id: "ev-kind" },
    KINDS.map((k) => h("option", { value: k, text: t(`events.kind_${k}`) })),
  );
  const number = (id, value, min, max) => h("input", { id, type: "number", value: String(value), min, max, step: 1, inputmode: "numeric" });
  const minutes = number("ev-minutes", 20, 5, 180);
  const rounds = number("ev-rounds", 3, 1, 12);
  const deals = number("ev-deals", 2, 1, 8);
  const startIn = number("ev-start", 5, 0, 10080); // (minutes; sent as seconds)
  const arenaRow = h("div", { class: "row arena-only" }, h("label", { text: t("events.minutes") }, minutes));
  const dupRow = h("div", { class: "row duplicate-only" }, h("label", { text: t("events.rounds") }, rounds), h("label", { text: t("events.deals") }, deals));
  const help = h("p", { class: "help" });
  const shown = () => {
    arenaRow.hidden = kind.value !== "arena";
    dupRow.hidden = kind.value !== "duplicate";
    help.textContent = t(`events.kind_${kind.value}_help`);
  };
  kind.addEventListener("change", shown);
  shown();
  return h(
    "form",
    {
      class: "panel event-create",
      "aria-labelledby": "ev-create-title",
      onsubmit: async (event) => {
        event.preventDefault();
        error.textContent = "";
        const body = {
          game: gameString(game.value, {}),
          kind: kind.value,
          starts_in: Number(startIn.value) * 60,
          ...(kind.value === "arena" ? { minutes: Number(minutes.value) } : { rounds: Number(rounds.value), deals: Number(deals.value) }),
        };
        try {
          const made = await api("POST", "/api/events", body);
          eventTokens.set(made.id, made.token);
          nav.open(paths.event(made.id));
        } catch (e) {
          error.textContent = t("events.create_failed", { message: errorText(e.error) });
        }
      },
    },
    h("h2", { id: "ev-create-title", text: t("events.create") }),
    h("p", { class: "help", text: t("events.create_help") }),
    h("div", { class: "row" }, h("label", { text: t("lobby.game") }, game), h("label", { text: t("events.kind") }, kind)),
    help,
    arenaRow,
    dupRow,
    h("div", { class: "row" }, h("label", { text: t("events.start_in") }, startIn)),
    h("div", { class: "row buttons" }, h("button", { type: "submit", id: "ev-create", class: "primary", text: t("events.create_button") })),
    error,
  );
}

// --- /events/<id> -------------------------------------------------------------------------------------

let shown = null; // the event page drawn now: {id, apply(frame)}

/** A frame about an event (`event`: its standings, tables and state, pushed): the page showing it redraws. */
export function eventFrame(frame) {
  if (shown && String(frame.event ?? frame.id) === String(shown.id)) shown.apply(frame);
}

/** An event's page in `main`: `nav.follow(id)` asks the connection for its frames. */
export async function renderEvent(main, id, nav) {
  shown = null;
  await stylesheet();
  let data;
  try {
    data = await api("GET", withToken(id, `/api/events/${encodeURIComponent(id)}`));
  } catch (e) {
    if (nav.busy()) return;
    main.replaceChildren(
      h("div", { class: "events" }, crumbs(), h("p", { class: "error panel", role: "alert", text: e.error ? errorText(e.error) : t("events.failed") })),
    );
    return;
  }
  if (nav.busy()) return;
  const error = h("p", { class: "error", role: "alert" });
  const state = h("p", { class: "event-state", id: "event-state", role: "status" });
  const head = h("section", { class: "panel event-head", "aria-labelledby": "event-title" });
  const standings = h("section", { class: "panel event-standings", id: "event-standings", "aria-labelledby": "standings-title" });
  const tables = h("section", { class: "panel event-tables", id: "event-tables", "aria-labelledby": "tables-title" });
  const people = h("section", { class: "panel event-players", "aria-labelledby": "players-title" });
  let asked = false; // (asked again once its start time passed, in case the frame saying so was missed)
  const tick = () => {
    state.textContent = stateText(data, now());
    const start = seconds(data.starts_at);
    if (!asked && data.status === "upcoming" && start !== null && now() > start + 3) {
      asked = true;
      refresh();
    }
  };
  const refresh = async () => {
    try {
      data = await api("GET", withToken(id, `/api/events/${encodeURIComponent(id)}`));
      draw();
    } catch {
      /* shown as it was */
    }
  };
  const draw = () => {
    head.replaceChildren(
      h("h2", { id: "event-title", text: eventTitle(data) }),
      h("p", { class: "event-format", text: formatText(data) }),
      state,
      data.private ? shareLine(data) : "",
      h("div", { class: "row buttons" }, joinButton(data, () => refresh(), error)),
      error,
    );
    tick();
    drawStandings(standings, data);
    drawTables(tables, data);
    drawPeople(people, data);
    main.querySelector(".events")?.setAttribute("data-status", data.status);
  };
  main.replaceChildren(h("div", { class: "events event", "data-event": String(id), lang: language() }, crumbs(), head, standings, tables, people));
  draw();
  const timer = setInterval(() => (head.isConnected ? tick() : clearInterval(timer)), 1000);
  shown = {
    id,
    apply: (frame) => {
      if (!head.isConnected) return;
      const { type: _type, event: _event, ref: _ref, ...fresh } = frame;
      data = { ...data, ...fresh };
      draw();
    },
  };
  nav.follow(id, tokenFor(id));
}

function crumbs() {
  return h("p", { class: "crumbs" }, h("a", { href: paths.lobby(), text: t("events.to_lobby") }), " · ", h("a", { href: paths.events(), text: t("events.title") }));
}

/** A private event's link to share, with a button that copies it. */
function shareLine(e) {
  const token = e.token ?? tokenFor(e.id);
  if (!token) return h("p", { class: "help", text: t("events.private_note") });
  const link = privateLink(location.origin, e.id, token);
  const field = h("input", { id: "event-link", type: "text", readonly: true, value: link, "aria-label": t("events.share") });
  return h(
    "div",
    { class: "event-share" },
    h("label", { for: "event-link", text: t("events.share") }),
    field,
    h("button", {
      type: "button",
      text: t("events.copy"),
      onclick: async (event) => {
        field.select();
        try {
          await navigator.clipboard.writeText(link);
          event.currentTarget.textContent = t("events.copied");
        } catch {
          /* selected: he copies it himself */
        }
      },
    }),
  );
}

function drawStandings(el, e) {
  // (before any table of it ended, every line would be a 0: the note says why there is none yet)
  const started = (e.standings || []).some((x) => x.tables > 0);
  const [heads, rows] = standingsTable(e.kind, started ? e.standings : []);
  el.replaceChildren(
    h("h2", { id: "standings-title", text: t(e.status === "finished" ? "events.results" : "events.standings") }),
    rows.length
      ? h(
          "table",
          { class: "standings", "data-kind": e.kind },
          h("thead", {}, h("tr", {}, heads.map((x) => h("th", { scope: "col", text: x })))),
          h(
            "tbody",
            {},
            rows.map(([rank, s, ...cells]) =>
              h(
                "tr",
                { class: String(s.player) === me() ? "me" : null, "data-player": String(s.player), "data-rank": String(s.rank) },
                h("td", { class: "rank", text: rank }),
                h(
                  "th",
                  { scope: "row" },
                  h("a", { href: paths.eventPlayer(e.id, s.player), class: "event-player-link", text: s.name ?? String(s.player) }),
                  // (an arena's streak: two firsts in a row, his points counting double until it breaks)
                  e.kind === "arena" && (s.streak === true || s.streak >= 2) ? h("span", { class: "badge streak", text: ` ${t("events.streak")}` }) : null,
                ),
                cells.map((c) => h("td", { text: c })),
              ),
            ),
          ),
        )
      : h("p", { class: "empty", text: t("events.no_standings") }),
    h("p", { class: "help", text: t(`events.scoring_${e.kind}`) }),
  );
}

/** The people at a table by name, a bot as "bot" (the seats of an event table entry: `bot` and `player`
 * null for a bot). */
function seatNames(seats) {
  return (seats || []).map((s) => (s.bot || s.kind === "bot" || (s.player === null && !s.name) ? t("badge.bot") : s.name)).join(", ");
}

/** A table's name: "Round 2, table 1" in a duplicate event; in an arena "Table 7", its number among
 * the event's tables in the order they began. */
function tableName(e, x) {
  if (e.kind === "duplicate") return t("events.table_in_round", { round: x.round, table: (x.index ?? 0) + 1 });
  const order = [...(e.tables || [])].sort((a, b) => (a.round ?? 0) - (b.round ?? 0) || (a.index ?? 0) - (b.index ?? 0));
  const at = order.findIndex((y) => y.table === x.table);
  return t("events.table_n", { table: at < 0 ? (x.index ?? 0) + 1 : at + 1 });
}

const over = (x) => x.status === "finished" || Boolean(x.finished_at);

/** The event's tables, the latest round first: each running one to watch, each finished one to replay
 * (and review: the replay's own page). */
function drawTables(el, e) {
  const list = [...(e.tables || [])].sort((a, b) => (b.round ?? 0) - (a.round ?? 0) || (a.index ?? 0) - (b.index ?? 0));
  el.replaceChildren(
    h("h2", { id: "tables-title", text: t("events.tables") }),
    list.length
      ? h(
          "ul",
          { class: "event-table-rows" },
          list.map((x) =>
            h(
              "li",
              { class: `event-table ${x.status || ""}`, "data-table": x.table, "data-round": String(x.round ?? "") },
              h("strong", { text: tableName(e, x) }),
              " ",
              h("span", { class: "names", text: seatNames(x.seats) }),
              " ",
              over(x)
                ? h("a", { href: paths.replay(x.table), class: "replay-link", text: t("events.replay") })
                : h("a", { href: paths.table(x.table), class: "watch-link", text: t("events.watch") }),
            ),
          ),
        )
      : h("p", { class: "empty", text: t("events.no_tables") }),
  );
}

function drawPeople(el, e) {
  const players = signups(e);
  el.replaceChildren(
    h("h2", { id: "players-title", text: t("events.players", { count: players.filter((p) => !p.left).length }) }),
    players.length
      ? h(
          "ul",
          { class: "event-people" },
          players.map((p) =>
            h(
              "li",
              { class: p.left ? "left" : null, "data-player": String(p.player) },
              playerLink(p.player, p.name, p.guest),
              p.left ? h("span", { class: "help", text: ` (${t("events.withdrawn")})` }) : null,
            ),
          ),
        )
      : h("p", { class: "empty", text: t("events.nobody") }),
  );
}

// --- /events/<id>/players/<player> -------------------------------------------------------------------

/** A player's results in an event: his standing, then each table he played (its place and points, its
 * replay) with, in a duplicate event, each deal beside what the other tables made of the same cards. */
export async function renderEventPlayer(main, id, player, nav) {
  shown = null;
  await stylesheet();
  let data;
  try {
    data = await api("GET", withToken(id, `/api/events/${encodeURIComponent(id)}/players/${encodeURIComponent(player)}`));
  } catch (e) {
    if (nav.busy()) return;
    main.replaceChildren(h("div", { class: "events" }, crumbs(), h("p", { class: "error panel", role: "alert", text: e.error ? errorText(e.error) : t("events.failed") })));
    return;
  }
  if (nav.busy()) return;
  const e = data.event || {};
  const who = data.player || {};
  const standing = data.standing;
  const deals = data.deals || [];
  const tables = [...(data.tables || [])].sort((a, b) => (a.round ?? 0) - (b.round ?? 0));
  main.replaceChildren(
    h(
      "div",
      { class: "events event-player", "data-event": String(id), "data-player": String(player), lang: language() },
      h("p", { class: "crumbs" }, h("a", { href: paths.events(), text: t("events.title") }), " · ", h("a", { href: paths.event(id), text: e.kind ? eventTitle(e) : t("events.back_to_event") })),
      h(
        "section",
        { class: "panel" },
        h("h2", { id: "event-player-title" }, t("events.results_of", { name: who.name ?? String(player) }), " ", playerLink(player, t("events.his_page"), false)),
        standing ? h("p", { class: "standing-line", text: standingLine(e.kind, standing) }) : h("p", { class: "empty", text: t("events.no_standing") }),
        h("p", { class: "help", text: t(`events.scoring_${e.kind === "duplicate" ? "duplicate" : "arena"}`) }),
      ),
      tables.map((x) => playedTable(e, x, deals.filter((d) => d.table === x.table).sort((a, b) => a.deal - b.deal))),
      tables.length ? null : h("p", { class: "panel empty", text: t("events.no_tables") }),
    ),
  );
}

function standingLine(kind, s) {
  if (kind === "duplicate") return t("events.standing_duplicate", { rank: s.rank, mp: s.matchpoints, share: Math.round((s.share ?? 0) * 1000) / 10 });
  return t("events.standing_arena", { rank: s.rank, points: s.points });
}

function playedTable(e, x, deals) {
  const what = t(e.kind === "duplicate" ? "events.round_n" : "events.wave_n", { round: x.round });
  const outcome = x.absent
    ? t("events.absent")
    : x.place !== undefined && x.place !== null
      ? e.kind === "duplicate"
        ? t("events.place_score", { place: x.place, score: x.score ?? 0 }) // (ranked by matchpoints: no place points)
        : t("events.place", { place: x.place, points: x.points ?? 0 })
      : t("events.playing");
  const done = x.place !== undefined && x.place !== null;
  return h(
    "section",
    { class: "panel played", "data-table": x.table, "data-round": String(x.round ?? "") },
    h("h3", {}, what, " · ", h("span", { class: "outcome", text: outcome })),
    h(
      "p",
      { class: "links" },
      done ? h("a", { href: paths.replay(x.table), class: "replay-link", text: t("events.replay") }) : h("a", { href: paths.table(x.table), class: "watch-link", text: t("events.watch") }),
    ),
    deals.map((d) => dealPanel(d)),
  );
}

/** One duplicate deal: his score beside what the other tables made of the same cards. */
function dealPanel(deal) {
  const { lines, matchpoints, out_of } = dealComparison(deal);
  return h(
    "table",
    { class: "deal-compare", "data-deal": String(deal.deal) },
    h("caption", { text: t("events.deal_caption", { deal: deal.deal, mp: matchpoints, of: out_of }) }),
    h("thead", {}, h("tr", {}, [t("events.col_holder"), t("events.col_score"), t("events.col_versus")].map((c) => h("th", { scope: "col", text: c })))),
    h(
      "tbody",
      {},
      lines.map((l) =>
        h(
          "tr",
          { class: l.mine ? "me" : l.versus },
          h("th", { scope: "row", text: l.mine ? t("events.this_player") : l.is_bot ? t("badge.bot") : (l.name ?? "") }),
          h("td", { text: figure(l.score) }),
          h("td", { text: l.mine ? "" : t(`events.vs_${l.versus}`) }),
        ),
      ),
    ),
  );
}
