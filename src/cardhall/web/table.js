// The table, for every game, from the protocol alone (docs/protocol.md): the seats round the felt, the
// trick or the game's layout in the middle, the hand (legal cards highlighted, the others dimmed: the
// server's legal actions decide, never the page), the other moves as buttons and amount controls, the
// deal summary, the score sheet, the log, keyboard play. What differs per game lives in games/<game>.js;
// the shared pieces in table/*.js.
import { t, has } from "./i18n.js";
import { actionText, cardElement, isCard, suitOf } from "./cards.js";
import { gameModule } from "./games/index.js";
import { controls } from "./table/controls.js";
import { h } from "./table/dom.js";
import { line } from "./table/log.js";
import { seatBox, seatName } from "./table/seats.js";
import { dealSummary, scoreSheet, scores } from "./table/summary.js";
import { hasLastTrick, trickArea } from "./table/trick.js";

const LOG_KEEP = 300;

export class TableView {
  constructor(root, id, mode, hooks) {
    this.root = root;
    this.id = id;
    this.mode = mode;
    this.hooks = hooks;
    this.state = { n: 0, seats: [], observation: null, legal: [], status: "waiting", you: null, deadlines: {} };
    this.events = [];
    this.scored = []; // every deal_scored event seen, for the score sheet and the deal summaries
    this.game = gameModule("");
    this.pending = false;
    this.selected = null; // the hand index of a card with several actions, waiting for the choice
    this.picked = new Set(); // hand indexes picked for a pass (Hearts)
    this.passTarget = null;
    this.amounts = {}; // the amount chosen per amount verb
    this.seenPlays = new Set();
    this.animatedTrick = null;
    this.showLast = false;
    this.dismissed = 0; // the deal_scored event whose summary was closed
    this.focusIndex = null;
    this.message = "";
    this.stopped = null; // why the server stopped the table, once it has
    const saved = JSON.parse(sessionStorage.getItem(this.key()) || "null");
    if (saved) {
      this.events = saved.events || [];
      this.scored = saved.scored || [];
      this.state.n = saved.n;
    }
    // Screen readers hear what happens from one live region that stays while the table is redrawn (the
    // table itself is redrawn whole at each frame, so it is not live).
    this.announcer = document.createElement("p");
    this.announcer.className = "sr-only";
    this.announcer.setAttribute("aria-live", "polite");
    document.body.append(this.announcer);
    this.onKey = (event) => this.keydown(event);
    document.addEventListener("keydown", this.onKey);
    // The log's lines wrap anew when the window changes size: its latest line stays in view.
    this.onResize = () => this.scrollLog();
    window.addEventListener("resize", this.onResize);
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
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
    this.announcer.remove();
    sessionStorage.removeItem(this.key());
  }

  mine() {
    return this.state.you !== null && this.state.you !== undefined;
  }

  over() {
    return this.state.status === "finished" || Boolean(this.state.observation?.is_over);
  }

  seatName(seat) {
    return seatName(this, seat);
  }

  frame(frame) {
    if (frame.type === "chat" || frame.type === "rematch") return;
    if (frame.type === "stopped") {
      // The operator (or the server's cap on a match's length) stopped the table: say why; the update
      // that follows shows it abandoned, with nothing left to play.
      this.stopped = frame.reason;
      this.message = t("error.stopped", { reason: frame.reason });
      this.render();
      return;
    }
    const s = this.state;
    const handBefore = JSON.stringify(s.observation?.hand || []);
    for (const field of ["n", "status", "observation", "legal", "deadlines", "to_act", "seats", "game", "you"]) {
      if (field in frame) s[field] = frame[field];
    }
    this.game = gameModule(s.game);
    const fresh = [];
    for (const e of frame.events || []) {
      if (this.events.length && e.n <= this.events[this.events.length - 1].n) continue;
      this.events.push(e);
      fresh.push(e);
      if (e.type === "deal") {
        this.picked.clear();
        this.amounts = {};
        this.passTarget = null;
      }
      if (e.type === "deal_scored" && !this.scored.some((x) => x.n === e.n)) this.scored.push(e);
    }
    this.events = this.events.slice(-LOG_KEEP);
    // A whole table frame (a join) is not read out, only what happens from then on.
    if (frame.type === "update" && fresh.length) this.announcer.textContent = fresh.slice(-3).map((e) => line(this, e)).join(". ");
    sessionStorage.setItem(this.key(), JSON.stringify({ n: s.n, events: this.events, scored: this.scored }));
    this.pending = false;
    // A selection names cards by their place in the hand: it ends when the hand changes.
    if (!s.legal?.length || JSON.stringify(s.observation?.hand || []) !== handBefore) {
      this.selected = null;
      if (!this.passTarget) this.picked.clear();
    }
    this.message = this.stopped ? t("error.stopped", { reason: this.stopped }) : "";
    this.render();
    this.game.pump?.(this);
  }

  error(frame) {
    this.pending = false;
    // A stale action only means the table moved on meanwhile: the next frame redraws it.
    if (frame.code !== "stale") this.message = t("error.refused", { code: frame.code });
    this.render();
  }

  gone() {
    this.message = t("error.gone");
    this.render();
  }

  act(entry) {
    if (this.pending || !entry) return;
    this.pending = true;
    this.selected = null;
    this.hooks.send({ type: "act", table: this.id, action: entry.label, n: this.state.n });
    this.render();
  }

  /** Makes a drawn element (a card of the stock, the pile) a button doing `run`. */
  clickable(el, run, label) {
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", label);
    el.tabIndex = 0;
    el.classList.add("legal");
    el.addEventListener("click", run);
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        e.stopPropagation();
        run();
      }
    });
  }

  tick() {
    const deadlines = this.state.deadlines || {};
    for (const el of this.root.querySelectorAll(".timer[data-seat], .bar .turn-timer")) {
      const seat = el.dataset.seat ?? String(this.state.you);
      const end = deadlines[seat];
      el.textContent = end ? t("table.timer", { seconds: Math.max(0, Math.round((end - Date.now()) / 1000)) }) : "";
    }
  }

  // --- choosing -------------------------------------------------------------------------------------

  choose(index, card, entries) {
    if (this.pending) return;
    this.focusIndex = index;
    if (this.game.onCard(this, index, card, entries)) return;
    if (entries.length === 1) this.act(entries[0]);
    else {
      this.selected = this.selected === index ? null : index;
      this.render();
    }
  }

  keydown(event) {
    const target = event.target;
    if (target instanceof HTMLElement && target.closest("input, select, textarea")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    // A dialog over the table (the rules, a replay) has the keys to itself.
    if (document.querySelector("dialog[open]")) return;
    const cards = [...this.root.querySelectorAll(".hand .card")];
    const at = cards.indexOf(document.activeElement);
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      if (!cards.length) return;
      event.preventDefault();
      const step = event.key === "ArrowRight" ? 1 : -1;
      const next = at < 0 ? (step > 0 ? 0 : cards.length - 1) : (at + step + cards.length) % cards.length;
      this.focusCard(next);
    } else if (/^[0-9]$/.test(event.key)) {
      const n = event.key === "0" ? 10 : Number(event.key);
      const legal = [...this.root.querySelectorAll(".hand .card.legal")];
      if (legal.length) {
        if (n <= legal.length) this.focusCard(cards.indexOf(legal[n - 1]));
      } else {
        const buttons = [...this.root.querySelectorAll(".actions button.act:not([disabled])")];
        if (n <= buttons.length) buttons[n - 1].focus();
      }
      event.preventDefault();
    } else if (event.key === "l" || event.key === "L") {
      this.showLast = !this.showLast;
      this.render();
    } else if (event.key === "Escape") {
      this.selected = null;
      this.picked.clear();
      this.showLast = false;
      this.render();
    }
  }

  focusCard(index) {
    const cards = [...this.root.querySelectorAll(".hand .card")];
    if (!cards.length) return;
    const i = Math.max(0, Math.min(index, cards.length - 1));
    for (const c of cards) c.tabIndex = -1;
    cards[i].tabIndex = 0;
    cards[i].focus();
    this.focusIndex = i;
  }

  // --- drawing --------------------------------------------------------------------------------------

  handCards(o, byCard) {
    const s = this.state;
    const hand = o.hand || [];
    if (!hand.length) return this.game.emptyHand(o, this);
    // Suit groups in the order the game sorts the hand (its rank order inside), trump last.
    const order = this.game.suitOrder(o);
    const groups = new Map();
    hand.forEach((card, index) => {
      const suit = suitOf(card) ?? "?";
      if (!groups.has(suit)) groups.set(suit, []);
      groups.get(suit).push([card, index]);
    });
    const suits = [...groups.keys()];
    if (order) suits.sort((a, b) => order.indexOf(a) - order.indexOf(b));
    // Cards are dimmed only when some card is playable (not while bidding or betting).
    const anyLegal = byCard.size > 0;
    return suits.map((suit) =>
      h(
        "div",
        { class: "suit-group", "data-suit": suit },
        groups.get(suit).map(([card, index]) => {
          const entries = byCard.get(card);
          const classes = [entries ? "legal" : anyLegal ? "dim" : "", this.game.cardMark(o, card, index, this)];
          if (this.selected === index) classes.push("selected");
          const state = entries ? t("table.legal") : anyLegal ? t("table.not_legal") : "";
          const el = cardElement(card, classes.join(" "), state);
          el.dataset.index = index;
          el.tabIndex = index === (this.focusIndex ?? -1) ? 0 : -1;
          if (entries) {
            el.setAttribute("role", "button");
            el.setAttribute("aria-pressed", this.selected === index || this.picked.has(index) ? "true" : "false");
            el.addEventListener("click", () => this.choose(index, card, entries));
            el.addEventListener("keydown", (e) => {
              if (e.key === "Enter" || e.key === " ") {
                e.preventDefault();
                e.stopPropagation();
                this.choose(index, card, entries);
              }
            });
          }
          return el;
        }),
      ),
    );
  }

  summary(o) {
    const last = this.scored[this.scored.length - 1];
    if (!last || last.n <= this.dismissed) return null;
    const later = this.events.filter((e) => e.n > last.n);
    const moved = this.mine()
      ? later.some((e) => e.type === "action" && e.seat === this.state.you)
      : later.some((e) => e.type === "trick" || e.type === "deal_scored");
    if (moved && !this.over()) return null;
    return dealSummary(this, last, !this.over());
  }

  render() {
    const s = this.state;
    const o = s.observation || {};
    const game = this.game;
    const name = (s.game || "").split("(")[0];
    const you = s.you;
    const mine = this.mine();
    const over = this.over();
    const hand = o.hand || [];
    // The legal actions naming a card of the hand as their last word ("play QS", "knock 5C", "lay off
    // 4H", "suggest discard 3D") belong to that card; the others are buttons.
    const byCard = new Map();
    const others = [];
    for (const entry of s.legal || []) {
      const words = entry.label.split(" ");
      const last = words[words.length - 1];
      if (words.length >= 2 && isCard(last) && hand.includes(last)) {
        if (!byCard.has(last)) byCard.set(last, []);
        byCard.get(last).push(entry);
      } else others.push(entry);
    }
    const selectedCard = this.selected !== null ? hand[this.selected] : null;
    const buttons = [];
    if (selectedCard && byCard.has(selectedCard)) {
      for (const entry of byCard.get(selectedCard))
        buttons.push(
          h("button", {
            type: "button",
            class: "act",
            "data-label": entry.label,
            disabled: this.pending,
            text: this.actionText(entry.label),
            onclick: () => this.act(entry),
          }),
        );
    }
    buttons.push(...controls(this, others));

    const info = [];
    if (o.phase) {
      const key = [`table.phase.${o.phase}`, `phase.${o.phase}`].find((k) => has(k));
      info.push(key ? t(key) : o.phase);
    }
    const deal = o.hand_number ?? o.deal_number;
    if (deal && game.dealChip) info.push(t("table.deal", { deal }));
    info.push(...game.info(o, this));

    const toAct = (o.to_act || s.to_act || []).filter((seat) => seat !== you);
    const standIn = mine && s.seats[you]?.stand_in;
    let prompt = null;
    if (mine && s.legal?.length) prompt = h("span", { class: "prompt", text: t("table.your_turn") });
    else if (toAct.length && !over)
      prompt = h("span", { class: "waiting", text: t("table.waiting_for", { who: toAct.map((x) => this.seatName(x)).join(", ") }) });

    const focusWasIn = this.root.contains(document.activeElement) ? document.activeElement : null;
    const focusLabel = focusWasIn?.dataset?.label;
    const focusHand = Boolean(focusWasIn?.closest?.(".hand"));
    const showRules = () => this.hooks.rules(name);

    this.root.replaceChildren(
      h(
        "div",
        {
          class: `table-view game-${name}${this.pending ? " pending" : ""}`,
          "aria-live": "off",
          "data-status": s.status,
          "data-phase": o.phase || "",
        },
        h(
          "div",
          { class: "bar" },
          h("strong", { class: "title", text: t(`game.${name}.title`) }),
          h("span", { class: "status", text: t(`status.${s.status}`) }),
          h("span", { class: "turn-timer", role: "timer", "aria-label": t("table.your_timer") }),
          h(
            "span",
            { class: "bar-buttons" },
            game.tricks
              ? h("button", {
                  type: "button",
                  id: "last-trick",
                  "aria-pressed": this.showLast ? "true" : "false",
                  "aria-keyshortcuts": "L",
                  disabled: !hasLastTrick(this, o),
                  text: t("table.last_trick"),
                  onclick: () => {
                    this.showLast = !this.showLast;
                    this.render();
                  },
                })
              : null,
            h("button", { type: "button", id: "rules", text: t("table.rules"), onclick: showRules }),
            // A finished match may be stepped through at once, every hand open.
            over && s.status === "finished"
              ? h("button", { type: "button", id: "table-replay", text: t("replay.open"), onclick: () => this.hooks.replay() })
              : null,
            h("button", { type: "button", id: "to-lobby", text: t("table.lobby"), onclick: () => this.hooks.lobby() }),
            mine && !over
              ? h("button", { type: "button", id: "leave", text: t("table.leave"), onclick: () => this.hooks.leave() })
              : null,
          ),
        ),
        h("ul", { class: "info", "aria-label": t("table.info") }, info.map((text) => h("li", { text }))),
        this.message ? h("p", { class: "error", role: "alert", text: this.message }) : null,
        standIn
          ? h(
              "p",
              { class: "stand-in-banner", role: "status" },
              t("table.stand_in_you"),
              " ",
              h("button", { type: "button", id: "back", text: t("table.back"), onclick: () => this.hooks.send({ type: "back", table: this.id }) }),
            )
          : null,
        over
          ? h("div", { class: "match-over", role: "status" }, t("table.over", { winners: (o.winners || []).map((w) => this.seatName(w)).join(", ") }))
          : null,
        this.summary(o),
        h(
          "div",
          { class: `arena seats-${s.seats.length}` },
          h("div", { class: "felt", "aria-label": t(game.tricks ? "table.trick" : "table.middle") }, game.tricks ? trickArea(this, o) : null, game.felt(o, this)),
          s.seats.map((_, seat) => seatBox(this, seat)),
        ),
        game.panel(o, this),
        mine
          ? h("div", { class: `hand${hand.length > 12 ? " many" : ""}`, role: "group", "aria-label": t("table.hand_keys") }, this.handCards(o, byCard))
          : null,
        h("div", { class: "actions", role: "group", "aria-label": t("table.actions") }, prompt, buttons),
        h(
          "div",
          { class: "side" },
          scores(this, o),
          scoreSheet(this, o, over || game.sheetOpen),
          h(
            "ol",
            { class: "log", "aria-label": t("table.log") },
            this.events.slice(-80).map((e) => h("li", { class: `ev ev-${e.type}`, text: line(this, e) })),
          ),
        ),
      ),
    );
    this.scrollLog();
    if (focusHand && this.focusIndex !== null) this.focusCard(this.focusIndex);
    else if (focusLabel) this.root.querySelector(`button[data-label="${CSS.escape(focusLabel)}"]`)?.focus();
    this.tick();
  }

  scrollLog() {
    const logEl = this.root.querySelector(".log");
    if (logEl) logEl.scrollTop = logEl.scrollHeight;
  }

  actionText(label) {
    return actionText(label);
  }
}
