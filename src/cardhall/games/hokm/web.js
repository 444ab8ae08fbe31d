// Hokm Egbari at the table: the bids (Bas, not 2; Kaboot), the declarer and his contract, trump, the
// tricks each seat has taken against his contract ("3 of 5 tricks", first among a seat's facts so a phone
// shows it), and how each hand's contracts were scored.
import { t } from "../i18n.js";
import { suitText } from "../cards.js";
import { h } from "../table/dom.js";
import { base } from "./base.js";

/** A contract's name: 2 is Bas, 10 Kaboot. */
export function contractText(contract) {
  if (contract === 2 || contract === "bas") return t("hokm.bas");
  if (contract === 10 || contract === "kaboot") return t("hokm.kaboot");
  return t("hokm.tricks", { count: Number(contract) });
}

function bidOf(o, seat) {
  const bids = (o.bids || []).filter((b) => b.seat === seat);
  return bids.length ? bids[bids.length - 1].contract : null;
}

export const hokm = {
  ...base,
  direction: -1, // Hokm plays counter-clockwise: seat s + 1 sits on s's right
  info(o, view) {
    const out = [];
    if (o.declarer !== null && o.declarer !== undefined) {
      const contract = bidOf(o, o.declarer);
      out.push(t("hokm.declares", { who: view.seatName(o.declarer), contract: contractText(contract) }));
    }
    if (o.trump) out.push(t("table.trump", { suit: suitText(o.trump) }));
    else if (o.phase === "trump") out.push(t("hokm.naming"));
    if (o.target) out.push(t("table.target", { target: o.target }));
    return out;
  },
  badges(o, seat) {
    return o.declarer === seat ? [h("span", { class: "badge declarer", text: t("badge.declarer") })] : [];
  },
  /** Tricks taken against the contract first (a phone shows a seat's first two facts only). */
  facts(o, seat) {
    const facts = [];
    const bid = bidOf(o, seat);
    if (o.phase === "play" || o.phase === "over") {
      facts.push(
        bid !== null
          ? t("hokm.tricks_of", { count: o.tricks_won[seat], contract: Number(bid) })
          : t("seat.tricks", { count: o.tricks_won[seat] }),
      );
    } else if (bid !== null) facts.push(t("hokm.bid", { contract: contractText(bid) }));
    facts.push(t("seat.score", { score: o.scores[seat] }));
    facts.push(t("seat.cards", { count: o.hand_sizes?.[seat] ?? 0 }));
    return facts;
  },
  summaryLines(e, view) {
    return [t("hokm.sum", { who: view.seatName(e.declarer), trump: suitText(e.trump) })];
  },
  summaryColumns(e) {
    return [
      { head: t("hokm.col.contract"), cell: (s) => contractText(e.contracts[s]) },
      { head: t("hokm.col.tricks"), cell: (s) => t("hokm.tricks", { count: e.tricks[s] }) },
      { head: t("hokm.col.made"), cell: (s) => (e.made[s] ? t("hokm.made") : t("hokm.failed")) },
    ];
  },
  line(e, view) {
    if (e.type === "declarer")
      return t("ev.declarer", { who: view.seatName(e.seat), contract: contractText(e.contract) });
    return null;
  },
};
