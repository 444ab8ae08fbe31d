// Gin Rummy at the table: the roles (box, captain, advisor), the stock and the discard pile (click the
// stock to draw, the pile to take its top card, whenever the server offers that), the advisor's
// suggestion shown to his captain (the suggested card marked), the knocker's choice of layout when his
// cards can be laid out more than one way (each layout drawn beside its button), the knock laid out on
// the felt in place of the stock and the pile (the knocker's melds with the cards laid off on them, his
// deadwood, the other hand spread), his deadwood in the dock, and each hand's result. Any
// action the table does not know (a new phase's labels) still gets its labelled button.
import { t } from "../i18n.js";
import { actionText, cardBack, cardElement, cardText, moveCard, moveText } from "../cards.js";
import { h } from "../table/dom.js";
import { button } from "../table/controls.js";
import { base } from "./base.js";

function roleOf(o, seat) {
  for (const [role, holder] of Object.entries(o.roles || {})) if (holder === seat) return role;
  return null;
}

function legalEntry(view, kind) {
  return (view.state.legal || []).find((e) => e.kind === kind);
}

/** The legal entry the observation's suggestion names (the captain's own move), if any. */
function suggested(view, o) {
  return o.suggestion ? (view.state.legal || []).find((e) => e.label === o.suggestion) : null;
}

/** A knock, or the advisor's suggestion of one. */
function isKnock(entry) {
  return entry.kind === "knock" || (entry.kind === "suggest" && entry.suggestion.kind === "knock");
}

/** The knocks legal now, as visible moves: "Knock, discarding 5♣" each, under a heading that says the
 * deadwood left after it. */
function knockButtons(view, entries) {
  const knocks = entries.filter(isKnock);
  if (!knocks.length) return [];
  return [
    h(
      "section",
      { class: "knocks", "aria-label": t("gin.knock_moves") },
      h("strong", { text: t("gin.knock_moves") }),
      knocks.map((entry) => button(view, entry, { class: "act knock" })),
    ),
  ];
}

/** The knock laid out: the knocker's melds (cards laid off on them marked), his deadwood, the other hand
 * spread. It lies on the felt in place of the stock and the pile, where the one laying off looks. */
function knockView(o, view) {
  const k = o.knock;
  const laid = new Set((k.layoffs || []).map((l) => l.card));
  const melds = (k.melds || []).map((meld, i) =>
    h(
      "div",
      { class: "meld", "data-meld": i },
      meld.map((c) => cardElement(c, laid.has(c) ? "mini laid-off" : "mini", laid.has(c) ? t("gin.laid_off") : "")),
    ),
  );
  const head = k.gin ? t("gin.knock_gin", { who: view.seatName(k.seat) }) : t("gin.knock_head", { who: view.seatName(k.seat), deadwood: k.deadwood });
  const spread = [];
  (o.spread_hands || []).forEach((cards, seat) => {
    // the viewer's own spread hand is his hand below
    if (seat === k.seat || seat === view.state.you || !cards?.length) return;
    spread.push(
      h(
        "div",
        { class: "spread" },
        h("small", { text: t("gin.spread", { who: view.seatName(seat), deadwood: k.opponent_deadwood }) }),
        h("div", { class: "meld" }, cards.map((c) => cardElement(c, "mini"))),
      ),
    );
  });
  return h(
    "section",
    { class: "knock", "aria-label": head, tabindex: "0" },
    h("strong", { text: head }),
    h("div", { class: "melds" }, melds),
    k.deadwood_cards?.length
      ? h("div", { class: "deadwood" }, h("small", { text: t("gin.deadwood") }), h("div", { class: "meld" }, k.deadwood_cards.map((c) => cardElement(c, "mini"))))
      : null,
    spread,
  );
}

export const gin = {
  ...base,
  tricks: false,
  info(o, view) {
    const out = [];
    const role = roleOf(o, view.state.you);
    if (role) out.push(t("gin.you_are", { role: t(`gin.role.${role}`) }));
    if (o.target) out.push(t("table.target", { target: o.target }));
    return out;
  },
  /** His deadwood as his cards lie best: in the dock beside the hand. */
  handValue(o) {
    return o.hand_layout ? t("gin.your_deadwood", { deadwood: o.hand_layout.deadwood }) : null;
  },
  badges(o, seat) {
    const out = [];
    const role = roleOf(o, seat);
    if (role) out.push(h("span", { class: `badge role ${role}`, text: t(`gin.role.${role}`) }));
    if (o.knock && o.knock.seat === seat)
      out.push(h("span", { class: "badge declarer", text: o.knock.gin ? t("gin.badge_gin") : t("gin.badge_knock") }));
    return out;
  },
  facts(o, seat) {
    const facts = [];
    if (o.hand_sizes?.[seat]) facts.push(t("seat.cards", { count: o.hand_sizes[seat] }));
    if (o.hands_won) facts.push(t("gin.hands_won", { count: o.hands_won[seat] }));
    facts.push(t("seat.score", { score: o.scores[seat] }));
    return facts;
  },
  felt(o, view) {
    if (o.knock) return [knockView(o, view)];
    const draw = legalEntry(view, "draw");
    const take = legalEntry(view, "take");
    const stock = h(
      "div",
      { class: "stock" },
      h("small", { text: t("table.stock", { count: o.stock_size ?? 0 }) }),
      o.stock_size ? cardBack(draw ? "legal" : "", t("gin.stock_label", { count: o.stock_size })) : null,
    );
    const stockCard = stock.querySelector(".card");
    if (draw && stockCard) view.clickable(stockCard, () => view.act(draw), moveText(draw));
    const pile = o.discard_pile || [];
    const top = pile.length ? pile[pile.length - 1] : null;
    const pileEl = h(
      "div",
      { class: "pile" },
      h("small", { text: t("table.pile") }),
      h(
        "div",
        { class: "fan" },
        pile.slice(-3, -1).map((c) => cardElement(c, "under")),
        top ? cardElement(top, take ? "legal top" : "top") : h("span", { class: "card empty" }),
      ),
    );
    const topCard = pileEl.querySelector(".card.top");
    if (take && topCard) view.clickable(topCard, () => view.act(take), moveText(take));
    return [stock, pileEl];
  },
  panel(o, view) {
    const out = [];
    const role = roleOf(o, view.state.you);
    if (o.suggestion && (role === "captain" || role === "advisor")) {
      out.push(
        h("p", {
          class: "suggestion",
          role: "status",
          text: t(role === "captain" ? "gin.suggests" : "gin.you_suggested", {
            action: suggested(view, o) ? moveText(suggested(view, o)) : actionText(o.suggestion),
          }),
        }),
      );
    }
    return out;
  },
  /**
   * The knocker's choice of layout (phase arrange): each layout he may lay out, its melds and deadwood
   * drawn, with its button ("arrange N"; his advisor's "suggest arrange N").
   */
  controls(view, o, entries) {
    const layouts = o.phase === "arrange" && Array.isArray(o.arrangements) ? o.arrangements : null;
    const byNumber = new Map();
    const rest = [];
    for (const entry of entries) {
      const move = entry.kind === "suggest" ? entry.suggestion : entry;
      if (layouts && move.kind === "arrange") byNumber.set(move.layout, entry);
      else rest.push(entry);
    }
    if (!byNumber.size) return [knockButtons(view, rest), rest.filter((e) => !isKnock(e))];
    const cards = (list) => h("div", { class: "meld" }, list.map((c) => cardElement(c, "mini")));
    const choices = layouts.map((layout, i) => {
      const entry = byNumber.get(i + 1);
      const label = t("gin.layout", { n: i + 1, deadwood: layout.deadwood });
      return h(
        "div",
        { class: "layout", role: "group", "aria-label": label, "data-layout": i + 1 },
        h("small", { text: label }),
        h("div", { class: "melds" }, layout.melds.map(cards)),
        layout.deadwood_cards.length ? cards(layout.deadwood_cards) : null,
        entry
          ? button(view, entry, {
              text: t(entry.kind === "suggest" ? "gin.layout_suggest" : "gin.layout_choose"),
              "aria-label": `${label}: ${moveText(entry)}`,
            })
          : null,
      );
    });
    return [[h("section", { class: "layouts", "aria-label": t("gin.layouts") }, h("strong", { text: t("gin.layouts") }), choices)], rest];
  },
  cardMark(o, card, index, view) {
    const role = roleOf(o, view.state.you);
    const entry = role === "captain" ? suggested(view, o) : null;
    return entry && moveCard(entry) === card ? "suggested" : "";
  },
  /** Knocks are moves of their own (buttons), not something found by clicking a card. */
  cardMoves(entry) {
    return !isKnock(entry);
  },
  /** The hand grouped as it lies best: each meld, then the deadwood (the observation's hand_layout). */
  groups(o) {
    const layout = o.hand_layout;
    if (!layout) return null;
    return [
      ...layout.melds.map((cards) => ({ cards, cls: "meld-group", label: t("gin.meld_group") })),
      ...(layout.deadwood_cards.length
        ? [{ cards: layout.deadwood_cards, cls: "deadwood-group", label: t("gin.deadwood_group", { deadwood: layout.deadwood }) }]
        : []),
    ];
  },
  summaryLines(e, view) {
    const vars = {
      who: view.seatName(e.knocker),
      winner: view.seatName(e.winner),
      kd: e.knocker_deadwood,
      od: e.opponent_deadwood,
      diff: e.deadwood_difference,
      bonus: e.bonus,
    };
    const out = [t(`gin.sum.${e.result}`, vars)];
    if (e.bonus && e.result !== "void") out.push(t("gin.sum_bonus", vars));
    if (e.winner !== null && e.winner !== undefined && (e.credited || []).length)
      out.push(t("gin.sum_credited", { who: e.credited.map((s) => view.seatName(s)).join(", "), points: e.deadwood_difference + e.bonus }));
    return out;
  },
  line(e, view) {
    if (e.type === "knock")
      return e.gin
        ? t("gin.knock_gin", { who: view.seatName(e.knocker) })
        : t("gin.knock_head", { who: view.seatName(e.knocker), deadwood: e.deadwood });
    if (e.type === "deal" && e.roles)
      return t("gin.ev_deal", { deal: e.deal, box: view.seatName(e.roles.box), upcard: e.upcard ? cardText(e.upcard) : "—" });
    return null;
  },
};
