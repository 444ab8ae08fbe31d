// How a deal was scored (from its deal_scored event: the game's breakdown, each seat's points and
// total) and the match's score sheet, deal by deal (from the observation's score sheet where the game
// keeps one, else from the deal_scored events the page has seen), with the final scores and winners.
import { t, num } from "../i18n.js";
import { h, signed } from "./dom.js";

export function dealSummary(view, e, closable) {
  const seats = view.state.seats.map((_, seat) => seat);
  const cols = view.game.summaryColumns(e, view);
  const deal = e.deal_number ?? e.deal; // Kierki names its deals by their place among the twelve
  return h(
    "section",
    { class: "deal-summary", role: "status", "aria-label": t("summary.title", { deal }), tabindex: "-1" },
    h(
      "div",
      { class: "summary-head" },
      h("h3", { text: t("summary.title", { deal }) }),
      closable
        ? h("button", {
            type: "button",
            class: "close",
            id: "close-summary",
            text: t("summary.close"),
            onclick: () => {
              view.dismissed = e.n;
              view.render();
            },
          })
        : null,
    ),
    view.game.summaryLines(e, view).map((text) => h("p", { text })),
    h(
      "table",
      { class: "summary-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col", text: t("summary.player") }),
          cols.map((c) => h("th", { scope: "col", text: c.head })),
          h("th", { scope: "col", text: t("summary.points") }),
          h("th", { scope: "col", text: t("summary.total") }),
        ),
      ),
      h(
        "tbody",
        {},
        seats.map((seat) =>
          h(
            "tr",
            { class: seat === view.state.you ? "me" : null },
            h("th", { scope: "row", text: view.seatName(seat) }),
            cols.map((c) => h("td", { text: c.cell(seat) })),
            h("td", { class: "num", text: signed(e.points?.[seat] ?? 0, num) }),
            h("td", { class: "num", text: num(e.totals?.[seat] ?? 0) }),
          ),
        ),
      ),
    ),
  );
}

/** The score sheet by deal; `open` shows it unfolded. */
export function scoreSheet(view, o, open) {
  let rows = view.game.sheet(o, view);
  if (!rows)
    rows = view.scored.map((e) => ({ label: t("table.deal", { deal: e.deal }), points: e.points, totals: e.totals }));
  const seats = view.state.seats.map((_, seat) => seat);
  const winners = new Set(o.winners || []);
  const over = view.over();
  return h(
    "details",
    { class: "sheet", open: open || null },
    h("summary", { text: t("summary.sheet") }),
    h(
      "div",
      { class: "sheet-scroll" },
      h(
        "table",
        { class: "sheet-table" },
        h(
          "thead",
          {},
          h("tr", {}, h("th", { scope: "col", text: t("summary.deal") }), seats.map((s) => h("th", { scope: "col", text: view.seatName(s) }))),
        ),
        h(
          "tbody",
          {},
          rows.map((r) =>
            h(
              "tr",
              {},
              h("th", { scope: "row", text: r.label }),
              seats.map((s) =>
                h("td", { class: "num" }, h("span", { class: "pts", text: signed(r.points?.[s] ?? 0, num) }), h("span", { class: "tot", text: num(r.totals?.[s] ?? 0) })),
              ),
            ),
          ),
        ),
        o.scores
          ? h(
              "tfoot",
              {},
              h(
                "tr",
                {},
                h("th", { scope: "row", text: over ? t("summary.final") : t("summary.now") }),
                seats.map((s) => h("td", { class: `num${over && winners.has(s) ? " winner" : ""}`, text: num(o.scores[s]) })),
              ),
            )
          : null,
      ),
    ),
  );
}

export function scores(view, o) {
  if (!o.scores) return null;
  return h(
    "table",
    { class: "scores" },
    h("caption", { text: view.game.scoresCaption() }),
    h(
      "tbody",
      {},
      view.state.seats.map((_, seat) =>
        h(
          "tr",
          { class: (o.winners || []).includes(seat) && view.over() ? "winner" : null },
          h("th", { scope: "row", text: view.seatName(seat) }),
          h("td", {}, view.game.scoreCell(o, seat)),
        ),
      ),
    ),
  );
}
