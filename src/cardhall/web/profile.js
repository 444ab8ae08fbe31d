// A person's page, in a dialog over any page (/players/<id>, or showProfile(id)): his name (a guest marked
// as one), each rating (a game and a pool: the displayed rating, 1500 to start, with "?" while
// provisional, under the boards' ten rated matches; one line says what the scale means) with its
// history drawn as an SVG line (no charting library: a polyline on a fixed grid, each point's value in
// its <title>), his matches and wins per game, and his last matches, each with the other players' names
// (links to their pages) and a link to its replay (none for a private table shown to someone not at
// it: the server leaves its id out). A match a stand-in played for him says so ("left; a bot finished")
// instead of its result: it counts as a loss (ratings.py). Every value comes from GET /api/players/{id};
// names go in as text only.
import { t, language, num } from "./i18n.js";
import { h, api, errorText, guestMark, playerLink } from "./util.js";
import { sheetDialog } from "./rules.js";
import { gameTitle, gameName } from "./catalogue.js";

const SVG = "http://www.w3.org/2000/svg";
export const W = 320; // the plot's drawing grid; it scales with the page
export const H = 120;
export const PAD = 8;

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const child of children) el.append(child);
  return el;
}

const round = (x) => Math.round(x * 10) / 10;

/** A displayed rating, "?" after it while provisional. */
export function ratingText(rating, provisional) {
  return `${num(rating)}${provisional ? "?" : ""}`;
}

/** Where the plot of `values` puts each on its W x H grid ([x, y], y downwards): oldest on the left,
 * the range of the values from the bottom line to the top one; one value (or all equal) is a level line
 * across the middle. */
export function plotPoints(values) {
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const x = (i) => (values.length === 1 ? W / 2 : PAD + (i * (W - 2 * PAD)) / (values.length - 1));
  const y = (v) => (high === low ? H / 2 : H - PAD - ((v - low) / span) * (H - 2 * PAD));
  return values.map((v, i) => [x(i), y(v)]);
}

/** The rating after each rated match, as a line: oldest on the left, the range of the values top to
 * bottom, the first and last values written beside it. */
export function ratingPlot(points, label) {
  const values = points.map((p) => p.rating);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const at = plotPoints(values);
  const plot = svg(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, class: "rating-plot", role: "img", "aria-label": label },
    svg("title", {}, label),
    svg("line", { x1: PAD, y1: PAD, x2: W - PAD, y2: PAD, class: "axis" }),
    svg("line", { x1: PAD, y1: H - PAD, x2: W - PAD, y2: H - PAD, class: "axis" }),
    svg("polyline", { points: at.map(([x, y]) => `${x},${y}`).join(" "), class: "line" }),
  );
  values.forEach((v, i) => plot.append(svg("circle", { cx: at[i][0], cy: at[i][1], r: 3, class: "point" }, svg("title", {}, num(round(v))))));
  return h(
    "figure",
    { class: "plot" },
    plot,
    h("figcaption", {}, h("span", { text: t("profile.plot") }), " ", h("span", { class: "range", text: `${num(round(low))} – ${num(round(high))}` })),
  );
}

function ratings(data) {
  if (!data.ratings.length) return h("p", { class: "empty", text: t("profile.no_ratings") });
  return h(
    "ul",
    { class: "ratings" },
    data.ratings.map((r) => {
      const what = t("profile.rating_of", {
        game: gameTitle(r.game),
        pool: t(`leaderboard.pool_${r.pool}`),
        rating: ratingText(r.rating, r.provisional),
        count: r.games,
      });
      return h(
        "li",
        { class: "rating", "data-game": r.game, "data-pool": r.pool },
        h("p", {}, what, r.provisional ? h("span", { class: "badge", text: ` ${t("profile.provisional")}` }) : null),
        r.history.length ? ratingPlot(r.history, what) : null,
      );
    }),
  );
}

function totals(data) {
  if (!data.totals.length) return null;
  return h(
    "table",
    { class: "totals" },
    h("caption", { text: t("profile.totals") }),
    h(
      "tbody",
      {},
      data.totals.map((x) =>
        h(
          "tr",
          {},
          h("th", { scope: "row", text: gameTitle(x.game) }),
          h("td", { text: t("profile.matches_won", { count: x.matches, wins: round(x.wins) }) }),
        ),
      ),
    ),
  );
}

function outcome(m) {
  // A match a stand-in played for him: why, instead of a result he did not make (a loss for him).
  if (m.absent) return `${t(`profile.absent_${m.absent}`)} · ${t("profile.absent_loss")}`;
  const result = m.win_share >= 1 ? t("profile.won") : m.win_share > 0 ? t("profile.shared") : t("profile.lost");
  return `${result} · ${t("replay.score", { score: num(m.score) })}`;
}

function matches(data) {
  if (!data.matches.length) return h("p", { class: "empty", text: t("profile.no_matches") });
  return h(
    "ul",
    { class: "matches" },
    data.matches.map((m) =>
      h(
        "li",
        { class: "match", "data-table": m.table },
        h("strong", { text: gameTitle(gameName(m.game)) }),
        " ",
        h("span", { class: `outcome${m.absent ? " absent" : ""}`, text: outcome(m) }),
        " ",
        h(
          "span",
          { class: "names" },
          m.seats
            .filter((s) => s.seat !== m.seat)
            .flatMap((s, i) => [i ? ", " : "", s.kind === "person" ? playerLink(s.player, s.name, s.guest) : t("badge.bot")]),
        ),
        " ",
        m.table ? h("a", { href: `/tables/${m.table}/replay`, class: "replay-link", text: t("replay.open") }) : null,
      ),
    ),
  );
}

/** Show the page of player `id`. */
export async function showProfile(id) {
  const el = sheetDialog("player-dialog");
  const close = h("button", { type: "button", class: "close", id: "player-close", text: "×", "aria-label": t("profile.close"), onclick: () => el.close() });
  const title = h("span", { id: "player-dialog-title", class: "sheet-title", text: t("profile.loading") });
  const body = h("div", { class: "profile", lang: language() }, h("p", { text: t("profile.loading") }));
  el.replaceChildren(h("div", { class: "sheet-bar" }, title, close), body);
  el.dataset.player = String(id);
  delete el.dataset.loaded;
  if (!el.open) el.showModal();
  try {
    const data = await api("GET", `/api/players/${encodeURIComponent(id)}`);
    if (!el.contains(body)) return; // closed, or another page opened, meanwhile
    // (a guest's name is not unique: his number tells him apart, as everywhere a name is listed)
    title.textContent = t("profile.title", { name: data.guest ? `${data.name} (${guestMark(data.id)})` : data.name });
    body.replaceChildren(
      h("p", { class: `who ${data.guest ? "guest" : "account"}`, text: data.guest ? t("profile.guest") : t("profile.account") }),
      h("h3", { text: t("profile.ratings") }),
      ratings(data),
      h("p", { class: "note scale", text: t("leaderboard.scale", { count: data.min_games }) }),
      totals(data),
      h("h3", { text: t("profile.recent") }),
      matches(data),
    );
    el.dataset.loaded = "1";
  } catch (e) {
    body.replaceChildren(h("p", { class: "error", role: "alert", text: e.error ? errorText(e.error) : t("profile.failed") }));
  }
  if (el.contains(close)) close.focus();
}
