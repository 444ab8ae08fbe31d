// Kierki at the table: the deal's name and its penalty rule (from the catalogue by deal number, so both
// languages have them), trump in deals 8-11, the score sheet by deal (always open), each deal's
// penalties item by item, and the lottery laid out Fan Tan style: one row per suit, from its lowest card
// to its highest (the other seats then sit along the top of the arena, the rows its whole width below
// them: style.css).
import { t, has, num } from "../i18n.js";
import { cardElement, suitText, SUITS } from "../cards.js";
import { h, signed } from "../table/dom.js";
import { base } from "./base.js";

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

export function dealName(number, fallback) {
  return has(`kierki.deal.${number}`) ? t(`kierki.deal.${number}`) : fallback;
}

function ruleText(number, fallback) {
  return has(`kierki.rule.${number}`) ? t(`kierki.rule.${number}`) : fallback;
}

function items(list) {
  return (list || [])
    .filter((item) => item.count)
    .map((item) => t("kierki.item", { item: t(`kierki.item.${item.item}`), count: item.count, points: signed(item.points, num) }))
    .join(", ");
}

/** One suit's row of the lottery: the cards laid from its low end to its high end. */
function row(suit, ends) {
  const cards = [];
  if (ends) {
    const low = RANKS.indexOf(ends.low.slice(0, -1));
    const high = RANKS.indexOf(ends.high.slice(0, -1));
    for (let r = low; r <= high; r++) {
      const card = cardElement(`${RANKS[r]}${suit}`, "mini");
      card.style.gridColumn = String(r + 2); // each rank in its column, so the rows line up round the 7s
      cards.push(card);
    }
  }
  return h(
    "div",
    { class: "lottery-row", "data-suit": suit, "aria-label": suitText(suit) },
    h("span", { class: `row-suit ${"HD".includes(suit) ? "red" : ""}`, text: SUITS[suit] }),
    cards.length ? cards : h("span", { class: "row-empty", text: t("kierki.row_empty") }),
  );
}

export const kierki = {
  ...base,
  sheetOpen: true,
  dealChip: false, // the deal's name says which of the twelve it is
  info(o) {
    const out = [];
    if (o.deal_number) {
      out.push(t("kierki.deal_of", { deal: o.deal_number, name: dealName(o.deal_number, o.deal_name) }));
      out.push(ruleText(o.deal_number, o.deal_rule));
    }
    if (o.trump) out.push(t("table.trump", { suit: suitText(o.trump) }));
    return out;
  },
  badges(o, seat) {
    const out = [];
    if (o.trump_chooser === seat && !o.trump) out.push(h("span", { class: "badge declarer", text: t("kierki.chooser") }));
    const place = (o.out || []).indexOf(seat);
    if (place >= 0) out.push(h("span", { class: "badge out", text: t("kierki.out", { place: place + 1 }) }));
    return out;
  },
  facts(o, seat) {
    const facts = [t("seat.cards", { count: o.hand_sizes?.[seat] ?? 0 })];
    if (o.phase !== "lottery") facts.push(t("seat.tricks", { count: o.tricks_won?.[seat] ?? 0 }));
    if (o.deal_points?.[seat]) facts.push(t("kierki.this_deal", { points: signed(o.deal_points[seat], num) }));
    facts.push(t("seat.score", { score: o.scores[seat] }));
    return facts;
  },
  felt(o) {
    if (o.phase !== "lottery" && !(o.layout || []).some(Boolean)) return [];
    return [h("div", { class: "lottery", "aria-label": t("kierki.layout") }, ["C", "D", "H", "S"].map((s, i) => row(s, o.layout[i])))];
  },
  sheet(o) {
    if (!Array.isArray(o.score_sheet)) return null;
    return o.score_sheet.map((r) => ({
      label: `${num(r.deal)}. ${dealName(r.deal, r.name)}`,
      points: r.points,
      totals: r.totals,
    }));
  },
  summaryLines(e) {
    const out = [t("kierki.sum", { deal: e.deal_number, name: dealName(e.deal_number, e.name) })];
    if (e.trump) out.push(t("table.trump", { suit: suitText(e.trump) }));
    return out;
  },
  summaryColumns(e) {
    const cols = [];
    if (e.tricks && e.deal_number !== 12) cols.push({ head: t("kierki.col.tricks"), cell: (s) => num(e.tricks[s]) });
    if (e.breakdown) cols.push({ head: t("summary.how"), cell: (s) => items(e.breakdown[s]) || "—" });
    if (e.out) cols.push({ head: t("summary.place"), cell: (s) => (e.out.includes(s) ? num(e.out.indexOf(s) + 1) : "—") });
    return cols;
  },
  line(e, view) {
    if (e.type === "trump") return t("ev.trump", { who: view.seatName(e.chooser), suit: suitText(e.trump) });
    if (e.type === "out") return t("kierki.ev_out", { who: view.seatName(e.seat), place: e.place, points: e.points });
    if (e.type === "deal") return t("kierki.ev_deal", { deal: e.deal_number, name: dealName(e.deal_number, e.name), dealer: view.seatName(e.dealer) });
    return null;
  },
};
