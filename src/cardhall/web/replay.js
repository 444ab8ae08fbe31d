// The replay viewer of a finished match, in a dialog over any page: step through it by move (first,
// previous, next, last, a slider; the arrow keys, Home and End), by trick and by deal, or jump to any
// deal, with every hand open; the trick drawn as the table draws it (each card in front of the seat that
// played it), and at the end of a deal its summary and scores as the table showed them. The browser
// decides nothing: the server replays the record and sends each position rendered as data (GET
// /api/tables/{table}/replay), a page of positions at a time, and with the first page where every trick
// and deal is. Below the position, the review of a seat's decisions (review.js) marks each of its moves.
import { t, num, has } from "./i18n.js";
import { h, api } from "./util.js";
import { cardElement, actionText, didText } from "./cards.js";
import { sheetDialog } from "./rules.js";
import { gameModule } from "./games/index.js";
import { dealSummary } from "./table/summary.js";
import { ReviewPanel, shared } from "./review.js";

const PAGE = 20; // positions asked for at once (the server's most)

class Replay {
  constructor(el, table) {
    this.el = el;
    this.table = table;
    this.pages = new Map(); // first step of a page -> its positions
    this.meta = null;
    this.step = 0;
    this.review = new ReviewPanel(this);
  }

  /** Show the current position again (the review came: its mark for this move). */
  refresh() {
    if (this.meta) this.go(this.step);
  }

  async load(step) {
    const from = Math.floor(step / PAGE) * PAGE;
    if (!this.pages.has(from)) {
      const data = await api("GET", `/api/tables/${encodeURIComponent(this.table)}/replay?from=${from}&count=${PAGE}${shared(this.table)}`);
      this.meta = { ...data, marks: data.marks ?? this.meta?.marks ?? null };
      this.pages.set(from, data.positions);
    }
    return this.pages.get(from)[step - from];
  }

  /** Whether the dialog still shows this replay (not closed, nor another replay opened, meanwhile). */
  get shown() {
    return current === this && this.el.open;
  }

  async go(step) {
    if (!this.meta) return;
    this.step = Math.max(0, Math.min(step, this.meta.steps));
    const position = await this.load(this.step);
    if (!this.shown) return; // its page came after the dialog moved on
    if (this.step === step || position) this.show(position);
  }

  /** The next (`dir` 1) or previous (-1) position among `marks` (tricks, deals) from the current one. */
  jump(kind, dir) {
    const marks = this.meta?.marks?.[kind] || [];
    const found = dir > 0 ? marks.find((m) => m > this.step) : [...marks].reverse().find((m) => m < this.step);
    return found ?? (dir > 0 ? this.meta.steps : 0);
  }

  /** The deal (1-based) the current position belongs to. */
  deal() {
    const deals = this.meta?.marks?.deals || [0];
    return deals.filter((m) => m <= this.step).length || 1;
  }

  seatName(seat) {
    const s = this.meta.seats[seat];
    if (!s) return t("replay.seat", { seat: seat + 1 });
    // a person who took a bot's seat (Play now) holds it from position `since` on: the bot before
    if (s.kind === "bot" || (s.before && this.step <= s.since)) return t("replay.bot", { seat: seat + 1 });
    return s.name || t("replay.seat", { seat: seat + 1 });
  }

  narrate(event) {
    const who = (seat) => (seat === null || seat === undefined ? "" : this.seatName(seat));
    switch (event.type) {
      case "deal":
        return t("replay.ev.deal", { deal: event.deal ?? 1 });
      case "trick":
        return event.winner === null || event.winner === undefined
          ? t("replay.ev.trick_aside")
          : t("replay.ev.trick", { who: who(event.winner) });
      case "deal_scored":
        return t("replay.ev.deal_scored", {
          deal: event.deal,
          points: (event.points || []).map((p, s) => `${who(s)} ${p > 0 ? "+" : ""}${num(p)}`).join(", "),
        });
      default:
        return has(`replay.ev.${event.type}`) ? t(`replay.ev.${event.type}`, { who: who(event.seat) }) : event.type;
    }
  }

  /** A seat's score as the table shows it: the number of the table's own scores cell (Svara's: the chips
   * with those in the pot, and how many are in it), called chips where the game's scores are chip
   * stacks (its observation has `stacks`), not "score" with another number (issue 46, D24). */
  score(o, seat) {
    if (!o.scores || o.scores[seat] === undefined) return null;
    const [number, ...rest] = [gameModule(this.meta.game).scoreCell(o, seat)].flat();
    const text = Array.isArray(o.stacks) ? t("replay.chips", { chips: number }) : t("replay.score", { score: number });
    return h("span", { class: "score" }, text, ...rest.filter(Boolean));
  }

  cards(labels, label) {
    return h("div", { class: "cards", role: "list", "aria-label": label }, (labels || []).map((c) => {
      const card = cardElement(c);
      card.setAttribute("role", "listitem");
      return card;
    }));
  }

  show(p) {
    const o = p.observation || {};
    const steps = this.meta.steps;
    const toAct = new Set(o.to_act || []);
    this.el.querySelector(".replay-where").textContent = t("replay.step", { step: p.step, steps });
    const slider = this.el.querySelector(".replay-slider");
    slider.value = String(p.step);
    slider.setAttribute("aria-valuetext", t("replay.step", { step: p.step, steps }));
    const marks = this.meta.marks;
    for (const [cls, off] of [
      ["first", p.step === 0],
      ["prev", p.step === 0],
      ["next", p.step === steps],
      ["last", p.step === steps],
      ["prev-trick", p.step === 0 || !marks],
      ["next-trick", p.step === steps || !marks],
      ["prev-deal", p.step === 0 || !marks],
      ["next-deal", p.step === steps || !marks],
    ]) {
      this.el.querySelector(`.replay-${cls}`).disabled = off;
    }
    const deals = this.el.querySelector(".replay-deal");
    if (marks && deals.options.length !== marks.deals.length) {
      deals.replaceChildren(...marks.deals.map((m, i) => h("option", { value: String(m), text: t("replay.deal_n", { deal: i + 1 }) })));
    }
    if (marks) deals.value = String(marks.deals[this.deal() - 1]);
    const what = [];
    if (p.action !== null)
      what.push(
        h("li", {
          class: "move",
          text: p.move ? didText(this.seatName(p.seat), p.move) : t("replay.move", { who: this.seatName(p.seat), action: actionText(p.action) }),
        }),
      );
    else if (!p.events.length) what.push(h("li", { text: t("replay.start") }));
    for (const e of p.events) what.push(h("li", { class: `ev-${e.type}`, text: this.narrate(e) }));
    const facts = [];
    if (o.phase) facts.push(t("replay.phase", { phase: has(`phase.${o.phase}`) ? t(`phase.${o.phase}`) : o.phase }));
    if (o.trump) facts.push(t("replay.trump", { suit: has(`suit.${o.trump}`) ? t(`suit.${o.trump}`) : o.trump }));
    if (typeof o.pot === "number") facts.push(t("replay.pot", { pot: o.pot }));
    // The trick on the table; when this move completed one, the trick as it was taken.
    const taken = p.events.filter((e) => e.type === "trick").pop();
    const scored = p.events.filter((e) => e.type === "deal_scored").pop();
    const shown = (o.trick || []).length ? o.trick : taken ? taken.cards : [];
    // Each card in front of the seat that played it, on an oval as at the table (seat 0 at the bottom).
    const n = this.meta.seats.length || 1;
    const direction = gameModule(this.meta.game).direction;
    const trick = shown.map((x, i) => {
      const angle = Math.PI / 2 + direction * ((2 * Math.PI * x.seat) / n);
      return h(
        "figure",
        {
          class: `played${i === 0 ? " lead" : ""}${taken && !(o.trick || []).length && taken.winner === x.seat ? " winner" : ""}`,
          style: { left: `${50 + 32 * Math.cos(angle)}%`, top: `${50 + 30 * Math.sin(angle)}%` },
        },
        cardElement(x.card),
        h("figcaption", {}, i === 0 ? h("span", { class: "lead-mark", text: "▶ " }) : null, this.seatName(x.seat)),
      );
    });
    const pile = o.discard_pile && o.discard_pile.length ? o.discard_pile.slice(-1) : null;
    const seats = this.meta.seats.map((s, i) =>
      h(
        "section",
        { class: `replay-seat${toAct.has(i) ? " turn" : ""}${p.seat === i ? " acted" : ""}`, "data-seat": i, "aria-label": this.seatName(i) },
        h(
          "div",
          { class: "replay-seat-head" },
          h("strong", { text: this.seatName(i) }),
          this.score(o, i),
        ),
        this.cards(p.hands[i], t("replay.hand_of", { who: this.seatName(i) })),
      ),
    );
    const body = [
      h("ol", { class: "replay-what", "aria-label": t("replay.what") }, what),
      this.review.mark(p.step),
      facts.length ? h("p", { class: "replay-facts", text: facts.join(" · ") }) : null,
      trick.length || pile
        ? h(
            "div",
            { class: "replay-felt", role: "group", "aria-label": t("replay.middle") },
            trick.length ? h("div", { class: "trick" }, trick) : null,
            pile ? h("figure", { class: "pile" }, cardElement(pile[0]), h("figcaption", { text: t("replay.pile") })) : null,
          )
        : null,
      scored ? this.summary(scored) : null,
      h("div", { class: "replay-seats" }, seats),
    ];
    this.el.querySelector(".replay-body").replaceChildren(...body.filter(Boolean)); // (null would show as "null")
  }
}

/** The deal summary the table showed, drawn by the table's own code (a view of the replay's seats). */
Replay.prototype.summary = function summary(e) {
  const view = {
    state: { seats: this.meta.seats, you: null, observation: null },
    game: gameModule(this.meta.game),
    seatName: (seat) => this.seatName(seat),
    over: () => true,
  };
  return dealSummary(view, e, false);
};

function button(cls, symbol, label, onclick) {
  return h("button", { type: "button", class: `replay-${cls}`, text: symbol, "aria-label": label, title: label, onclick });
}

let current = null; // the replay shown, for the keys

// On the document, not the dialog: the focused button may have just been disabled (at either end).
document.addEventListener("keydown", (event) => {
  const el = document.getElementById("replay-dialog");
  if (!current || !el || !el.open || !current.meta) return;
  if (event.target.classList?.contains("replay-slider") || event.altKey || event.ctrlKey || event.metaKey) return;
  const moves = { ArrowRight: current.step + 1, ArrowLeft: current.step - 1, Home: 0, End: current.meta.steps };
  if (event.key in moves) {
    event.preventDefault();
    current.go(moves[event.key]);
  }
});

/** Open the replay viewer of finished table `table` (its id). */
export async function showReplay(table) {
  const el = sheetDialog("replay-dialog");
  const r = new Replay(el, table);
  const slider = h("input", {
    type: "range",
    class: "replay-slider",
    min: 0,
    max: 0,
    value: 0,
    "aria-label": t("replay.slider"),
    oninput: () => r.go(Number(slider.value)),
  });
  el.replaceChildren(
    h(
      "div",
      { class: "sheet-bar" },
      h("span", { id: "replay-dialog-title", class: "sheet-title", text: t("replay.title") }),
      h("button", { type: "button", class: "close", id: "replay-close", text: "×", "aria-label": t("replay.close"), onclick: () => el.close() }),
    ),
    h(
      "div",
      { class: "replay-nav", role: "toolbar", "aria-label": t("replay.controls") },
      button("first", "«", t("replay.first"), () => r.go(0)),
      button("prev", "◀", t("replay.prev"), () => r.go(r.step - 1)),
      h("span", { class: "replay-where", role: "status" }),
      button("next", "▶", t("replay.next"), () => r.go(r.step + 1)),
      button("last", "»", t("replay.last"), () => r.go(r.meta ? r.meta.steps : 0)),
      slider,
      h(
        "div",
        { class: "replay-by" },
        h("span", { text: t("replay.by_trick") }),
        button("prev-trick", "◀", t("replay.prev_trick"), () => r.go(r.jump("tricks", -1))),
        button("next-trick", "▶", t("replay.next_trick"), () => r.go(r.jump("tricks", 1))),
        h("span", { text: t("replay.by_deal") }),
        button("prev-deal", "◀", t("replay.prev_deal"), () => r.go(r.jump("deals", -1))),
        button("next-deal", "▶", t("replay.next_deal"), () => r.go(r.jump("deals", 1))),
        h("select", { class: "replay-deal", "aria-label": t("replay.jump_deal"), onchange: (e) => r.go(Number(e.target.value)) }),
      ),
    ),
    h("div", { class: "replay-body" }, h("p", { text: t("replay.loading") })),
    r.review.el,
  );
  current = r;
  el.dataset.table = table;
  if (!el.open) el.showModal();
  try {
    const first = await r.load(0);
    if (!r.shown) return; // closed, or another replay opened, while it loaded
    const title = t("replay.title_of", { game: t(`game.${r.meta.game.split("(")[0]}.title`) });
    el.querySelector("#replay-dialog-title").textContent = title;
    slider.max = String(r.meta.steps);
    if (!first) {
      el.querySelector(".replay-body").replaceChildren(h("p", { text: t("replay.never_played") }));
      return;
    }
    r.show(first);
    r.review.start();
    el.querySelector(".replay-next").focus();
  } catch (e) {
    if (!r.shown) return;
    el.querySelector(".replay-body").replaceChildren(
      h("p", { class: "error", role: "alert", text: e.error === "not_over" ? t("replay.not_over") : t("replay.failed") }),
    );
  }
}
