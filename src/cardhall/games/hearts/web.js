// Cancellation Hearts (and one-deck Hearts) at the table: passing three cards (select them, then
// confirm: the table sends one pass move per card, each as the server offers it), the direction of
// the pass and the cards received, the widow face down and who takes it, set-aside tricks, cancelled
// cards marked in the trick, the moon, and each hand's hearts, queens and widow per player.
import { t, num } from "../i18n.js";
import { cardBack, cardText } from "../cards.js";
import { h } from "../table/dom.js";
import { base } from "./base.js";

/** How many cards this seat still has to pass: the rules pass three; some may be chosen already. */
function stillToPass(o) {
  return Math.max(0, 3 - (o.passing || []).length);
}

export const hearts = {
  ...base,
  info(o, view) {
    const out = [];
    if (o.pass_direction) out.push(t(`hearts.pass.${o.pass_direction}`));
    if (o.hearts_broken) out.push(t("hearts.broken"));
    if (o.widow_size) {
      out.push(
        o.widow_taker === null || o.widow_taker === undefined
          ? t("hearts.widow", { count: o.widow_size })
          : t("hearts.widow_taken", { who: view.seatName(o.widow_taker), count: o.widow_size }),
      );
    }
    if (o.set_aside_tricks) out.push(t("hearts.set_aside", { count: o.set_aside_tricks }));
    if (o.target) out.push(t("table.target", { target: o.target }));
    return out;
  },
  badges(o, seat) {
    const out = [];
    if (o.widow_taker === seat) out.push(h("span", { class: "badge widow", text: t("hearts.badge_widow") }));
    if (o.moon === seat) out.push(h("span", { class: "badge moon", text: t("hearts.badge_moon") }));
    if (o.phase === "pass" && o.passes_chosen?.[seat] >= 3)
      out.push(h("span", { class: "badge passed", text: t("hearts.badge_passed") }));
    return out;
  },
  facts(o, seat) {
    return [
      t("seat.cards", { count: o.hand_sizes?.[seat] ?? 0 }),
      t("hearts.points", { count: o.trick_points?.[seat] ?? 0 }),
      t("seat.score", { score: o.scores[seat] }),
    ];
  },
  felt(o) {
    const out = [];
    if (o.widow_size && (o.widow_taker === null || o.widow_taker === undefined)) {
      const backs = Array.from({ length: Math.min(o.widow_size, 4) }, () => cardBack("mini"));
      out.push(h("div", { class: "widow", "aria-label": t("hearts.widow", { count: o.widow_size }) }, h("small", { text: t("hearts.widow_short") }), h("div", { class: "fan" }, backs)));
    }
    if (o.set_aside_tricks)
      out.push(h("div", { class: "aside", text: t("hearts.set_aside", { count: o.set_aside_tricks }) }));
    return out;
  },
  panel(o, view) {
    const out = [];
    if (o.phase === "pass" && o.passed_to !== null && o.passed_to !== undefined && view.mine()) {
      const need = stillToPass(o);
      out.push(
        h("p", {
          class: "hint",
          text: need
            ? t("hearts.pick", { count: need, who: view.seatName(o.passed_to) })
            : t("hearts.waiting_passes"),
        }),
      );
    }
    // The cards received stay named until the first trick of the hand closes.
    if (o.phase === "play" && o.received_cards?.length && !(o.tricks || []).length) {
      out.push(
        h("p", {
          class: "hint",
          text: t("hearts.received", {
            cards: o.received_cards.map(cardText).join(" "),
            who: view.seatName(o.received_from),
          }),
        }),
      );
    }
    return out;
  },
  cardMark(o, card, index, view) {
    if (view.picked.has(index)) return "picked";
    return "";
  },
  onCard(view, index, card, entries) {
    const o = view.state.observation || {};
    if (o.phase !== "pass" || !entries.some((e) => e.kind === "pass")) return false;
    if (view.picked.has(index)) view.picked.delete(index);
    else if (view.picked.size < stillToPass(o)) view.picked.add(index);
    view.render();
    return true;
  },
  controls(view, o, entries) {
    if (o.phase !== "pass") return [[], entries];
    const need = stillToPass(o);
    if (!need || !view.state.legal.some((e) => e.kind === "pass")) return [[], entries];
    const cards = [...view.picked].map((i) => o.hand[i]);
    const confirm = h("button", {
      type: "button",
      class: "act confirm",
      id: "confirm-pass",
      disabled: cards.length !== need || view.pending,
      text: t("hearts.confirm", { count: need, chosen: cards.length }),
      onclick: () => {
        view.picked.clear();
        view.passTarget = [...(o.passing || []), ...cards];
        hearts.pump(view);
      },
    });
    return [[confirm], entries.filter((e) => e.kind !== "pass")];
  },
  /**
   * Sends the next card of the confirmed pass, one action per frame: what is still to pass is the pass
   * chosen minus what the observation says has gone (a refused or doubled send heals itself).
   */
  pump(view) {
    const o = view.state.observation || {};
    if (!view.passTarget || view.pending) return;
    if (o.phase !== "pass") {
      view.passTarget = null;
      return;
    }
    const left = [...view.passTarget];
    for (const card of o.passing || []) {
      const i = left.indexOf(card);
      if (i >= 0) left.splice(i, 1);
    }
    const entry = left.length ? view.state.legal.find((e) => e.kind === "pass" && e.card === left[0]) : null;
    if (!left.length) view.passTarget = null;
    else if (entry) view.act(entry);
  },
  summaryLines(e, view) {
    const out = [];
    if (e.moon !== null && e.moon !== undefined)
      out.push(t("hearts.sum_moon", { who: view.seatName(e.moon), choice: e.moon_choice ? t(`table.word.${e.moon_choice}`) : "" }));
    if (e.widow_taker !== null && e.widow_taker !== undefined) out.push(t("hearts.sum_widow", { who: view.seatName(e.widow_taker) }));
    if (e.uncollected) out.push(t("hearts.sum_uncollected", { count: e.uncollected }));
    return out;
  },
  summaryColumns(e) {
    if (!e.players) return [];
    return [
      { head: t("hearts.col.hearts"), cell: (s) => num(e.players[s].hearts) },
      { head: t("hearts.col.queens"), cell: (s) => num(e.players[s].queens) },
      { head: t("hearts.col.widow"), cell: (s) => num(e.players[s].widow) },
    ];
  },
  line(e, view) {
    if (e.type === "passes") {
      const mine = e.passed_cards?.length
        ? t("hearts.ev_passes_mine", { gave: e.passed_cards.map(cardText).join(" "), got: (e.received_cards || []).map(cardText).join(" ") })
        : "";
      return `${t("ev.passes")}${mine ? ` ${mine}` : ""}`;
    }
    if (e.type === "moon") return t("ev.moon", { who: view.seatName(e.seat) });
    if (e.type === "widow") return t("ev.widow", { who: view.seatName(e.seat), count: e.size });
    // Another seat's card passed shows as a bare "pass" (its card hidden): say what it is.
    if (e.type === "action" && e.hidden && e.action === "pass") return t("hearts.ev_passed_card", { who: view.seatName(e.seat) });
    return null;
  },
};
