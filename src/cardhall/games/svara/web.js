// Svara at the table: chips, the pot, each player's bet this round, blind bets, looking, and an amount
// control per kind of bet (blind, bet, raise: a slider and a number, with min, double, pot and all-in;
// the amount chosen is sent as the matching legal move, so the server's list stays the one truth); what
// his cards are worth, in the dock beside them; the hands shown at a showdown and the bets, on the ring
// the trick would lie on in other games; the svara (who tied, the fee, who may join), and each deal's
// chips won and paid.
import { t, num } from "../i18n.js";
import { cardBack, cardElement, cardText } from "../cards.js";
import { h } from "../table/dom.js";
import { seatAngle } from "../table/seats.js";
import { base } from "./base.js";

function latest(view, type) {
  for (let i = view.events.length - 1; i >= 0; i--) {
    const e = view.events[i];
    if (e.type === type) return e;
    if (e.type === "deal" && type !== "deal") return null;
  }
  return null;
}

export const svara = {
  ...base,
  tricks: false,
  info(o) {
    const out = [];
    if (o.svara) out.push(t("svara.round", { round: o.svara }));
    if (o.current_bet && (o.phase === "blind" || o.phase === "open")) out.push(t("svara.current_bet", { amount: o.current_bet }));
    if (o.ante) out.push(t("svara.ante", { amount: o.ante }));
    return out;
  },
  badges(o, seat) {
    const out = [];
    if (o.folded?.[seat]) out.push(h("span", { class: "badge away", text: t("svara.folded") }));
    else if (o.in_deal && !o.in_deal[seat]) out.push(h("span", { class: "badge", text: t("svara.sitting_out") }));
    if (o.blinds?.some((b) => b.seat === seat)) out.push(h("span", { class: "badge blind", text: t("svara.blind") }));
    if ((o.svara_players || []).includes(seat)) out.push(h("span", { class: "badge declarer", text: t("svara.in_svara") }));
    return out;
  },
  facts(o, seat) {
    const facts = [t("seat.chips", { count: o.stacks?.[seat] ?? 0 })];
    if (o.bets?.[seat]) facts.push(t("svara.bet", { amount: o.bets[seat] }));
    return facts;
  },
  felt(o, view) {
    const out = [h("div", { class: "pot", role: "status" }, h("span", { class: "chips-icon", "aria-hidden": "true" }), t("table.pot", { pot: o.pot ?? 0 }))];
    // Each player's bet this round lies in front of him, until a showdown shows the hands there.
    if (!(o.showdown || []).length) {
      (o.bets || []).forEach((bet, seat) => {
        if (!bet) return;
        const angle = seatAngle(view, seat);
        out.push(
          h(
            "div",
            { class: "bet-chip", "data-seat": seat, style: { "--cx": Math.cos(angle).toFixed(3), "--cy": Math.sin(angle).toFixed(3) } },
            h("span", { class: "chips-icon", "aria-hidden": "true" }),
            t("svara.bet", { amount: bet }),
          ),
        );
      });
    }
    // The hands shown lie where the bets lay: on the ring inside the seats (style.css).
    for (const shown of o.showdown || []) {
      const angle = seatAngle(view, shown.seat);
      out.push(
        h(
          "div",
          { class: "shown", "data-seat": shown.seat, style: { "--cx": Math.cos(angle).toFixed(3), "--cy": Math.sin(angle).toFixed(3) } },
          h("div", { class: "fan" }, shown.cards.map((c) => cardElement(c, "mini"))),
          h("small", { text: t("svara.value", { who: view.seatName(shown.seat), value: shown.value }) }),
        ),
      );
    }
    return out;
  },
  panel(o, view) {
    const out = [];
    const call = latest(view, "svara");
    if (o.phase === "svara join" || (o.svara_players || []).length) {
      const players = (o.svara_players || call?.players || []).map((s) => view.seatName(s)).join(", ");
      const mayJoin = (call?.may_join || []).map((s) => view.seatName(s)).join(", ");
      out.push(
        h(
          "p",
          { class: "suggestion", role: "status" },
          t("svara.svara", { players, fee: o.svara_fee ?? call?.fee ?? 0 }),
          mayJoin ? ` ${t("svara.may_join", { players: mayJoin })}` : "",
        ),
      );
    }
    return out;
  },
  /** What his cards are worth, once he has looked: in the dock beside them (the only place it shows). */
  handValue(o) {
    return o.hand_value !== null && o.hand_value !== undefined && o.hand?.length ? t("svara.your_value", { value: o.hand_value }) : null;
  },
  /** A player without chips enough for the ante is out of the match: told so, offered to watch or leave. */
  notice(o, view) {
    if (!view.mine() || !o.stacks || !o.ante) return null;
    const you = view.state.you;
    if (o.stacks[you] >= o.ante || o.in_deal?.[you]) return null;
    return t("svara.out", { chips: o.stacks[you], ante: o.ante });
  },
  emptyHand(o, view) {
    if (!view.mine() || !o.in_deal?.[view.state.you] || o.looked || o.phase === "over") return [];
    return [0, 1, 2].map(() => cardBack("", t("svara.unseen")));
  },
  /** Each player's chips with those he has put into the pot of the deal in hand: the same number as
   * the last deal summary's total until the pot is won (the ante paid at once for the next deal does
   * not make them disagree). */
  scoreCell(o, seat) {
    const inPot = o.contributions?.[seat] ?? 0;
    return [
      num((o.stacks?.[seat] ?? o.scores[seat]) + inPot),
      inPot ? h("small", { class: "in-pot", text: ` ${t("svara.in_pot", { amount: inPot })}` }) : null,
    ];
  },
  scoresCaption() {
    return t("svara.chips_caption");
  },
  summaryLines(e, view) {
    return (e.rounds || []).map((r) =>
      t(`svara.sum.${r.ended}`, {
        pot: r.pot,
        won: (r.won || []).map((w) => `${view.seatName(w.seat)} ${num(w.amount)}`).join(", "),
      }),
    );
  },
  summaryColumns(e) {
    return [
      { head: t("svara.col.paid"), cell: (s) => num(e.paid?.[s] ?? 0) },
      { head: t("svara.col.won"), cell: (s) => num(e.won?.[s] ?? 0) },
    ];
  },
  line(e, view) {
    if (e.type === "looked") return e.hand?.length ? t("svara.ev_looked", { cards: e.hand.map(cardText).join(" ") }) : t("ev.looked");
    if (e.type === "showdown")
      return t("svara.ev_showdown", {
        hands: (e.hands || []).map((x) => `${view.seatName(x.seat)} ${x.cards.map(cardText).join(" ")} (${num(x.value)})`).join("; "),
      });
    if (e.type === "pot_won") return t("ev.pot_won", { who: view.seatName(e.seat), pot: e.amount });
    if (e.type === "svara")
      return t("ev.svara", { players: (e.players || []).map((s) => view.seatName(s)).join(", "), pot: e.pot });
    if (e.type === "busted") return t("ev.busted", { players: (e.players || []).map((s) => view.seatName(s)).join(", ") });
    return null;
  },
};
