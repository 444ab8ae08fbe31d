// The leaderboards: per game and pool (matches among people only, or with a bot at the table), the
// established ratings in order (the server lists no provisional one), each name a link to his page (a
// guest marked as one), and one line saying what the scale means (ratings.py: 1500 to start, 200
// points apart about 3 wins in 4). Every value comes from GET /api/leaderboard/{game}; names go in as
// text only.
import { t, num } from "./i18n.js";
import { h, api, store, playerLink } from "./util.js";
import { gameTitle } from "./catalogue.js";

function gameSelect(id, catalogue, label, onchange) {
  return h(
    "select",
    { id, "aria-label": label, onchange },
    catalogue.games.map((g) => h("option", { value: g.name, text: gameTitle(g.name) })),
  );
}

/** The leaderboards panel of the lobby (`catalogue`: GET /api/games). */
export function leaderboards(catalogue) {
  const body = h("div", { class: "board", "aria-live": "polite" });
  const pool = h(
    "select",
    { id: "lb-pool", "aria-label": t("leaderboard.pool") },
    ["people", "bots"].map((p) => h("option", { value: p, text: t(`leaderboard.pool_${p}`) })),
  );
  let asked = 0; // the newest board asked for: an older answer may come after it, and is dropped
  const show = async () => {
    const mine = ++asked;
    const chosen = game.value;
    let data;
    try {
      data = await api("GET", `/api/leaderboard/${encodeURIComponent(chosen)}?pool=${pool.value}`);
    } catch (e) {
      if (mine === asked) body.replaceChildren(h("p", { class: "error", role: "alert", text: t("leaderboard.failed") }));
      return;
    }
    if (mine !== asked) return; // another game or pool was chosen meanwhile
    Object.assign(body.dataset, { game: chosen, pool: data.pool }); // what it shows (tests wait on it)
    const scale = h("p", { class: "note scale", text: t("leaderboard.scale", { count: data.min_games }) });
    if (!data.players.length) {
      body.replaceChildren(h("p", { class: "empty", text: t("leaderboard.empty") }), scale);
      return;
    }
    body.replaceChildren(
      h(
        "table",
        { class: "leaderboard", "data-game": chosen },
        h("caption", { text: t("leaderboard.caption", { game: gameTitle(chosen) }) }),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["rank", "player", "rating", "games"].map((c) => h("th", { scope: "col", text: t(`leaderboard.${c}`) })),
          ),
        ),
        h(
          "tbody",
          {},
          data.players.map((p, i) =>
            h(
              "tr",
              { class: String(p.player) === store.get("id") ? "me" : null },
              h("td", { text: num(i + 1) }),
              h("th", { scope: "row", class: "name" }, playerLink(p.player, p.name, p.guest)),
              h("td", { class: "rating", text: num(p.rating) }),
              h("td", { text: num(p.games) }),
            ),
          ),
        ),
      ),
      scale,
    );
  };
  const game = gameSelect("lb-game", catalogue, t("leaderboard.game"), show);
  pool.addEventListener("change", show);
  show();
  return h(
    "section",
    { class: "panel leaderboards", "aria-labelledby": "lb-title" },
    h("h2", { id: "lb-title", text: t("leaderboard.title") }),
    h(
      "div",
      { class: "row" },
      h("label", { text: t("leaderboard.game") }, game),
      h("label", { text: t("leaderboard.pool") }, pool),
    ),
    body,
  );
}
