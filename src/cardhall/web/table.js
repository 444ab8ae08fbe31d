// The table, for every game, from the protocol alone: seats, the hand (legal cards highlighted), the other
// legal actions as buttons, the trick, scores and a log of events. Fields are read when the game has them.
import { t, num } from "./i18n.js";
import { cardElement, cardText, actionText, isCard } from "./cards.js";

const LOG_KEEP = 300;

export class TableView {
  constructor(root, id, mode, hooks) {
    this.root = root;
    this.id = id;
    this.mode = mode;
    this.hooks = hooks;
    this.h = hooks.h;
    this.state = { n: 0, seats: [], observation: null, legal: [], status: "waiting", you: null, deadlines: {} };
    this.events = [];
    this.pending = false;
    this.selected = null;
    this.message = "";
    const saved = JSON.parse(sessionStorage.getItem(this.key()) || "null");
    if (saved) {
      this.events = saved.events;
      this.state.n = saved.n;
    }
    this.timer = setInterval(() => this.tick(), 1000);
    this.render();
  }

  key() {
    return `cardhall.log.${this.id}`;
  }

  /** The message that attaches a connection to this table, asking only for the events it lacks. */
  attach() {
    return { type: this.mode === "watch" ? "watch" : "join", table: this.id, since: this.state.n };
  }

  forget() {
    clearInterval(this.timer);
    sessionStorage.removeItem(this.key());
  }

  frame(frame) {
    if (frame.type === "chat" || frame.type === "rematch") return;
    const s = this.state;
    for (const field of ["n", "status", "observation", "legal", "deadlines", "to_act", "seats", "game", "you"]) {
      if (field in frame) s[field] = frame[field];
    }
    for (const e of frame.events || []) {
      if (!this.events.length || e.n > this.events[this.events.length - 1].n) this.events.push(e);
    }
    this.events = this.events.slice(-LOG_KEEP);
    sessionStorage.setItem(this.key(), JSON.stringify({ n: s.n, events: this.events }));
    this.pending = false;
    this.selected = null;
    this.message = "";
    this.render();
  }

  error(frame) {
    this.pending = false;
    this.message = t("error.refused", { code: frame.code });
    this.render();
  }

  gone() {
    this.message = t("error.gone");
    this.render();
  }

  act(entry) {
    if (this.pending) return;
    this.pending = true;
    this.hooks.send({ type: "act", table: this.id, action: entry.action, n: this.state.n });
    this.render();
  }

  seatName(seat) {
    const entry = this.state.seats[seat];
    if (seat === null || seat === undefined) return "";
    if (!entry || entry.kind === "empty") return t("seat.number", { seat: seat + 1 });
    if (entry.kind === "bot") return t("seat.bot", { seat: seat + 1 });
    return entry.name;
  }

  tick() {
    const el = this.root.querySelector(".timer");
    if (!el) return;
    const end = this.state.deadlines?.[String(this.state.you)];
    if (!end) {
      el.textContent = "";
      return;
    }
    const left = Math.max(0, Math.round((end - Date.now()) / 1000));
    el.textContent = t("table.timer", { seconds: left });
  }

  render() {
    const h = this.h;
    const s = this.state;
    const o = s.observation || {};
    const you = s.you;
    const toAct = new Set(o.to_act || s.to_act || []);
    // The legal actions naming one card of the hand ("play QS", "discard 5C", "knock 5C", "pass 3H").
    const byCard = new Map();
    const others = [];
    for (const entry of s.legal || []) {
      const words = entry.label.split(" ");
      if (words.length === 2 && isCard(words[1]) && (o.hand || []).includes(words[1])) {
        if (!byCard.has(words[1])) byCard.set(words[1], []);
        byCard.get(words[1]).push(entry);
      } else others.push(entry);
    }
    const n = s.seats.length;
    const order = [];
    for (let i = 1; i <= n; i++) order.push(((you ?? -1) + i + n) % n);
    const seatBox = (seat) => {
      const entry = s.seats[seat] || {};
      const badges = [];
      if (entry.kind === "bot") badges.push(h("span", { class: "badge bot", text: t("badge.bot") }));
      if (o.dealer === seat) badges.push(h("span", { class: "badge dealer", text: t("badge.dealer") }));
      if (o.declarer === seat) badges.push(h("span", { class: "badge declarer", text: t("badge.declarer") }));
      if (entry.stand_in) badges.push(h("span", { class: "badge stand-in", text: t("badge.stand_in") }));
      if (entry.kind === "person" && entry.connected === false)
        badges.push(h("span", { class: "badge away", text: t("badge.away") }));
      const facts = [];
      if (o.hand_sizes) facts.push(t("seat.cards", { count: o.hand_sizes[seat] }));
      if (o.tricks_won) facts.push(t("seat.tricks", { count: o.tricks_won[seat] }));
      if (o.stacks) facts.push(t("seat.chips", { count: o.stacks[seat] }));
      if (o.scores) facts.push(t("seat.score", { score: o.scores[seat] }));
      return h(
        "div",
        {
          class: `seat${toAct.has(seat) ? " turn" : ""}${seat === you ? " me" : ""}`,
          "data-seat": seat,
          "aria-current": toAct.has(seat) ? "true" : null,
        },
        h("div", { class: "seat-name", text: this.seatName(seat) }),
        h("div", { class: "badges" }, badges),
        h("div", { class: "facts", text: facts.join(" · ") }),
      );
    };
    const info = [];
    const phase = o.phase ? t(`phase.${o.phase}`) : "";
    if (phase) info.push(phase);
    const deal = o.hand_number ?? o.deal_number;
    if (deal) info.push(t("table.deal", { deal }));
    if (o.deal_name) info.push(o.deal_name);
    if (o.trump) info.push(t("table.trump", { suit: cardText(`A${o.trump}`).slice(1) }));
    if (o.pot !== undefined && o.pot !== null) info.push(t("table.pot", { pot: o.pot }));
    if (o.stock_size !== undefined && o.stock_size !== null) info.push(t("table.stock", { count: o.stock_size }));
    const pile = o.discard_pile?.length ? o.discard_pile[o.discard_pile.length - 1] : null;
    // Only a card played since the last drawing lands with an animation.
    const before = this.shownTrick || new Set();
    this.shownTrick = new Set((o.trick || []).map((play) => `${play.seat}:${play.card}`));
    const trick = (o.trick || []).map((play) =>
      h(
        "div",
        { class: "played" },
        cardElement(play.card, before.has(`${play.seat}:${play.card}`) ? "" : "new"),
        h("small", { text: this.seatName(play.seat) }),
      ),
    );
    const hand = (o.hand || []).map((card) => {
      const actions = byCard.get(card);
      const el = cardElement(card, actions ? "legal" : s.legal?.length ? "dim" : "");
      if (actions) {
        el.setAttribute("role", "button");
        el.tabIndex = 0;
        const choose = () => {
          if (actions.length === 1) this.act(actions[0]);
          else {
            this.selected = card;
            this.render();
          }
        };
        el.addEventListener("click", choose);
        el.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && choose());
        if (this.selected === card) el.classList.add("selected");
      }
      return el;
    });
    const buttons = [];
    if (this.selected && byCard.has(this.selected)) {
      for (const entry of byCard.get(this.selected)) buttons.push(this.button(entry));
    }
    // Many actions of one verb with an amount ("blind 10" .. "blind 990"): one amount control per verb.
    const groups = new Map();
    for (const entry of others) {
      const m = /^(\S+) (\d+)$/.exec(entry.label);
      const verb = m ? m[1] : entry.label;
      if (!groups.has(verb)) groups.set(verb, []);
      groups.get(verb).push(entry);
    }
    for (const [verb, entries] of groups) {
      if (entries.length > 12) buttons.push(this.amount(verb, entries));
      else for (const entry of entries) buttons.push(this.button(entry));
    }
    const over = s.status === "finished" || o.is_over;
    const scores = o.scores
      ? h(
          "table",
          { class: "scores" },
          h("caption", { text: t("table.scores") }),
          h(
            "tbody",
            {},
            s.seats.map((_, seat) =>
              h(
                "tr",
                { class: (o.winners || []).includes(seat) ? "winner" : null },
                h("th", { scope: "row", text: this.seatName(seat) }),
                h("td", { text: num(o.scores[seat]) }),
              ),
            ),
          ),
        )
      : null;
    const log = h(
      "ol",
      { class: "log", "aria-label": t("table.log") },
      this.events.slice(-80).map((e) => h("li", { class: `ev ev-${e.type}`, text: this.line(e) })),
    );
    const mine = you !== null && you !== undefined;
    this.root.replaceChildren(
      h(
        "div",
        { class: `table-view${this.pending ? " pending" : ""}`, "data-status": s.status },
        h(
          "div",
          { class: "bar" },
          h("strong", { text: t(`game.${(s.game || "").split("(")[0]}.title`) }),
          h("span", { class: "status", text: t(`status.${s.status}`) }),
          h("span", { class: "info", text: info.join(" · ") }),
          h("span", { class: "timer" }),
          h("button", { type: "button", id: "to-lobby", text: t("table.lobby"), onclick: () => this.hooks.lobby() }),
          mine && !over
            ? h("button", { type: "button", id: "leave", text: t("table.leave"), onclick: () => this.hooks.leave() })
            : null,
        ),
        this.message ? h("p", { class: "error", role: "alert", text: this.message }) : null,
        over
          ? h(
              "div",
              { class: "match-over", role: "status" },
              t("table.over", { winners: (o.winners || []).map((w) => this.seatName(w)).join(", ") }),
            )
          : null,
        h("div", { class: "ring" }, order.filter((seat) => seat !== you).map(seatBox)),
        h(
          "div",
          { class: "felt" },
          h("div", { class: "trick", "aria-label": t("table.trick") }, trick),
          pile ? h("div", { class: "pile" }, h("small", { text: t("table.pile") }), cardElement(pile)) : null,
        ),
        mine ? seatBox(you) : null,
        mine ? h("div", { class: "hand", "aria-label": t("table.hand") }, hand) : null,
        h(
          "div",
          { class: "actions", "aria-label": t("table.actions") },
          buttons,
          mine && s.legal?.length ? h("span", { class: "prompt", text: t("table.your_turn") }) : null,
        ),
        h("div", { class: "side" }, scores, log),
      ),
    );
    const logEl = this.root.querySelector(".log");
    if (logEl) logEl.scrollTop = logEl.scrollHeight;
    this.tick();
  }

  button(entry) {
    return this.h("button", {
      type: "button",
      class: "act",
      "data-label": entry.label,
      disabled: this.pending,
      text: actionText(entry.label),
      onclick: () => this.act(entry),
    });
  }

  amount(verb, entries) {
    const h = this.h;
    const select = h(
      "select",
      { "aria-label": actionText(verb) },
      entries.map((e, i) => h("option", { value: i, text: num(Number(e.label.split(" ")[1])) })),
    );
    return h(
      "span",
      { class: "amount" },
      select,
      h("button", {
        type: "button",
        class: "act",
        "data-label": verb,
        disabled: this.pending,
        text: actionText(verb),
        onclick: () => this.act(entries[Number(select.value)]),
      }),
    );
  }

  /** One readable line for an event. */
  line(e) {
    const who = (seat) => this.seatName(seat);
    const cards = (list) => (list || []).map((c) => cardText(c.card ?? c)).join(" ");
    const people = (list) => (list || []).map(who).join(", ");
    switch (e.type) {
      case "seat":
        return t("ev.seat", { name: who(e.seat), seat: e.seat + 1 });
      case "action":
        return t("ev.action", { who: who(e.seat), action: actionText(e.action) });
      case "deal":
        return t("ev.deal", { deal: e.deal, dealer: who(e.dealer) });
      case "declarer":
        return t("ev.declarer", { who: who(e.seat), contract: e.contract });
      case "trump":
        return t("ev.trump", { who: who(e.chooser), suit: cardText(`A${e.trump}`).slice(1) });
      case "trick":
        return e.winner === null
          ? t("ev.trick_aside", { cards: cards(e.cards) })
          : t("ev.trick", { who: who(e.winner), cards: cards(e.cards) });
      case "deal_scored":
        return t("ev.deal_scored", {
          deal: e.deal,
          points: (e.points || []).map((p, seat) => `${who(seat)} ${p > 0 ? "+" : ""}${num(p)}`).join(", "),
        });
      case "match_over":
        return t("ev.match_over", { winners: people(e.winners) });
      case "widow":
        return t("ev.widow", { who: who(e.seat), size: e.size });
      case "moon":
        return t("ev.moon", { who: who(e.seat) });
      case "knock":
        return t("ev.knock", { who: who(e.knocker ?? e.seat) });
      case "out":
        return t("ev.out", { who: who(e.seat) });
      case "pot_won":
        return t("ev.pot_won", { who: who(e.seat ?? e.winner), pot: e.pot ?? e.amount ?? "" });
      case "svara":
        return t("ev.svara", { players: people(e.players), pot: e.pot });
      case "busted":
        return t("ev.busted", { players: people(e.players) });
      default:
        return t(`ev.${e.type}`);
    }
  }
}
