// The table, for every game, from the protocol alone (docs/protocol.md): the seats round the felt, the
// trick or the game's layout in the middle, the hand (legal cards highlighted, the others dimmed: the
// server's legal moves decide, never the page), the other moves as buttons and amount controls, the
// deal summary, the score sheet, the log, keyboard play. What differs per game lives in games/<game>.js;
// the shared pieces in table/*.js.
//
// Decisions this page makes:
// - Nothing is drawn over the play (issue 46). The table is a stage the size of the window under the
//   page's header (style.css: a grid of 100dvh less the header, whose height this view keeps in
//   --top-h): the bar, a strip of notices, the arena and the dock, each in flow, the arena taking what
//   is left. The seats, the trick, the pot, the stock and the lottery are sized from the arena's own
//   size (container units), the seats kept inside it and the trick on a ring inside the seats.
// - The dock (the turn line with prompt and timer, the hand with its value, the moves) is the stage's
//   last row: over nothing, under nothing. It can be folded (a button, kept per browser) for a window
//   too small for it (200 % zoom); folded, its turn line stays and says when it is his turn.
// - The notices (a refusal, the connection, a stand-in, watching, the game's notice and its panel, the
//   match's end, the offer of sound and notifications, a line saying a deal was scored) take at most
//   about a quarter of the stage and scroll: they never push the arena or the dock out of the window.
// - The scores, the deal summary, the score sheet, the log, the chat and "Leave" are a side column:
//   beside the stage on a wide window, below it on a narrow one (there the notices say a deal was
//   scored, with the points, and a button to its summary).
// - The trick lies on the felt until the next deal is dealt (never under the next deal's bidding); on
//   demand, the last trick, the previous deal's when this deal has none yet (then named so).
// - A legal move is read from its structured fields (kind, card, amount: the legal entries) and sent
//   as its action int; a move about a card of the hand is made by clicking the card, except where the
//   game makes it a button (gin's knock).
// - A lost connection is shown on the table itself: the hand and the moves look disabled, a tap says
//   it was not sent (nothing is queued to be played later), the banner says when a stand-in will play;
//   once back, the table says what the stand-in played for him, by name, then the rest briefly.
// - Its turn is told where a person looks: the tab's title, the live region, the focus (on his first
//   playable card or move), and, if he turned them on (offered once, the first time he sits at a table
//   in this browser; then in the "?" panel), a sound and a notification when the tab is hidden; the
//   timer turns urgent in its last ten seconds.
// - The focus stays in the dock after a move (the card or move it was on, else the next playable one,
//   else the dock itself): it never falls to the page, so the keys go on playing.
// - Once the match is over there is no dock (nothing is left to play) and no "a bot plays for you".
// - Leaving during a match asks first, saying what it means; a finished match offers to play again (an
//   offer the others accept or decline: the new table seats only those who accept).
import { t, has, num } from "./i18n.js";
import { cardElement, cardText, moveCard, moveText, suitOf } from "./cards.js";
import { gameModule } from "./games/index.js";
import { controls } from "./table/controls.js";
import { h, signed } from "./table/dom.js";
import { line } from "./table/log.js";
import { seatBox, seatName } from "./table/seats.js";
import { dealSummary, scoreSheet, scores } from "./table/summary.js";
import { hasLastTrick, trickArea } from "./table/trick.js";
import { errorText, store } from "./util.js";
import * as notify from "./notify.js";
import { chatPanel } from "./chat.js";
import { invitationFor, sharePanel } from "./friends.js";

const LOG_KEEP = 300;
const PRESS_HOLD_MS = 1500; // the longest a press holds the table's redraw
const URGENT_SECONDS = 10; // the timer turns urgent (and beeps once, if sound is on) in its last seconds

export class TableView {
  constructor(root, id, mode, hooks) {
    this.root = root;
    this.id = id;
    this.mode = mode;
    this.hooks = hooks;
    this.state = { n: 0, seats: [], observation: null, legal: [], status: "waiting", you: null, deadlines: {}, spectators: 0 };
    this.events = [];
    this.scored = []; // every deal_scored event seen, for the score sheet and the deal summaries
    this.game = gameModule("");
    this.pending = false;
    this.selected = null; // the hand index of a card with several moves, waiting for the choice
    this.picked = new Set(); // hand indexes picked for a pass (Hearts)
    this.passTarget = null;
    this.amounts = {}; // the amount chosen per kind of amount move
    this.seenPlays = new Set();
    this.animatedTrick = null;
    this.showLast = false;
    this.dismissed = 0; // the deal_scored event whose summary was closed
    this.focusIndex = null;
    this.message = "";
    this.note = ""; // shown while he watches (Play now: a bot's seat his from the next deal)
    this.naming = null; // the event whose seats seatName names (namedAt), null: as they are now
    this.stopped = null; // why the server stopped the table, once it has
    this.connection = "online"; // as the page's link says: online, connecting, offline
    this.away = null; // while offline or just back: {since: the n when the link dropped, back: lines}
    this.wasTurn = false;
    this.beeped = null; // the deadline whose last seconds have beeped
    this.rematchNew = null; // the play-again table, once somebody asked for it
    this.chat = chatPanel(id, (message) => hooks.send(message)); // (the waiting room's, kept)
    this.noticeClosed = false; // the game's notice (Svara: out of chips) was closed
    this.folded = store.get("dock_folded") === "1"; // the dock folded to its turn line (kept per browser)
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
    // The stage is the window less the page's header, whose height changes with its wrapping and the
    // zoom: kept in --top-h for the stylesheet.
    const top = document.getElementById("top");
    const measure = () => document.documentElement.style.setProperty("--top-h", `${top ? top.offsetHeight : 0}px`);
    measure();
    this.topObserver = top && window.ResizeObserver ? new ResizeObserver(measure) : null;
    this.topObserver?.observe(top);
    this.timer = setInterval(() => this.tick(), 1000);
    // A press holds the redraw until its release: the table is drawn anew at each frame (several a
    // second while bots play, a stand-in's "I'm back" among them), and a button replaced between the
    // press and the release gets no click. The held redraw comes right after the click (a press that
    // never ends lets it go after PRESS_HOLD_MS).
    this.pressed = null; // the timer that ends a press held too long
    this.redrawDue = false;
    this.onPress = () => {
      clearTimeout(this.pressed);
      this.pressed = setTimeout(this.onRelease, PRESS_HOLD_MS);
    };
    this.onRelease = () => {
      if (this.pressed === null) return;
      clearTimeout(this.pressed);
      this.pressed = null;
      // (after the click the release leads to, which must find the button it was pressed on)
      if (this.redrawDue) setTimeout(() => this.redrawDue && this.pressed === null && this.render(), 0);
    };
    this.root.addEventListener("pointerdown", this.onPress);
    document.addEventListener("pointerup", this.onRelease, true);
    document.addEventListener("pointercancel", this.onRelease, true);
    this.render();
  }

  key() {
    return `cardhall.log.${this.id}`;
  }

  /** The message that attaches a connection to this table, asking only for the events it lacks. */
  attach() {
    return { type: this.mode === "watch" ? "watch" : "join", table: this.id, since: this.state.n, invitation: invitationFor(this.id) };
  }

  forget() {
    clearInterval(this.timer);
    clearTimeout(this.pressed);
    this.root.removeEventListener("pointerdown", this.onPress);
    document.removeEventListener("pointerup", this.onRelease, true);
    document.removeEventListener("pointercancel", this.onRelease, true);
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
    this.topObserver?.disconnect();
    this.announcer.remove();
    sessionStorage.removeItem(this.key());
    notify.title(false, "");
  }

  mine() {
    return this.state.you !== null && this.state.you !== undefined;
  }

  over() {
    return this.state.status === "finished" || Boolean(this.state.observation?.is_over);
  }

  myTurn() {
    return this.mine() && (this.state.legal || []).length > 0 && !this.over();
  }

  seatName(seat) {
    // An event before a person took a bot's seat (Play now) names the bot that held it then.
    if (this.naming !== null && this.naming !== undefined && seat !== null && seat !== undefined) {
      const took = this.events.find((e) => e.type === "seat" && e.seat === seat && e.replaces && e.n > this.naming);
      if (took) return took.replaces.kind === "bot" ? t("seat.bot", { seat: seat + 1 }) : took.replaces.name;
    }
    return seatName(this, seat);
  }

  /** `make()` with the seats named as they were held at event `n` (see seatName). */
  namedAt(n, make) {
    const before = this.naming;
    this.naming = n;
    try {
      return make();
    } finally {
      this.naming = before;
    }
  }

  gameTitle() {
    return t(`game.${(this.state.game || "").split("(")[0]}.title`);
  }

  frame(frame) {
    if (frame.type === "chat") return this.chat.add(frame);
    if (frame.type === "hint") {
      // the search's move for the seat's choice now (a table with hints on)
      this.hint = { action: frame.action, legal: legalKey(this.state) };
      this.render();
      return;
    }
    if (frame.type === "rematch") {
      // An offer to play again as it stands, or the table it made (docs/protocol.md, rematch). Who
      // accepted is taken there at once; nobody else is seated there.
      this.rematch = frame;
      this.rematchNew = frame.new;
      if (frame.new && this.mine() && frame.accepted.includes(this.state.you) && this.rematchOpened !== frame.new) {
        this.rematchOpened = frame.new;
        this.hooks.open(frame.new);
        return;
      }
      // The offer's clock: counted down while it is open (one timer, ended with the offer).
      if (frame.until && !this.rematchTimer) {
        this.rematchTimer = setInterval(() => {
          const open = this.rematch?.until && !this.rematch.new && Date.now() < this.rematch.until + 5000;
          if (!open) {
            clearInterval(this.rematchTimer);
            this.rematchTimer = null;
          }
          for (const el of document.querySelectorAll(`.rematch-clock[data-table="${this.id}"]`)) el.textContent = rematchClock(this.rematch);
        }, 1000);
      }
      this.render();
      return;
    }
    if (frame.type === "stopped" || frame.type === "paused" || frame.type === "resumed") {
      if (frame.type === "stopped") {
        // The operator (or the server's cap on a match's length) stopped the table: say why; the update
        // that follows shows it abandoned, with nothing left to play.
        this.stopped = frame.reason;
        this.message = t("error.stopped", { reason: frame.reason });
      } else {
        // the server's storage failed: the table waits until it takes writes again (an update follows)
        this.state.paused = frame.type === "paused" ? frame.reason : null;
      }
      this.render();
      return;
    }
    const s = this.state;
    const handBefore = JSON.stringify(s.observation?.hand || []);
    for (const field of ["n", "status", "observation", "legal", "deadlines", "to_act", "seats", "game", "you", "spectators", "settings", "paused"]) {
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
        this.noticeClosed = false;
      }
      if (e.type === "deal_scored" && !this.scored.some((x) => x.n === e.n)) this.scored.push(e);
    }
    this.events = this.events.slice(-LOG_KEEP);
    // Back from a lost connection: the first whole frame brings what happened meanwhile.
    // His seat's moves meanwhile were the stand-in's (he could not play offline): named first, by
    // their cards; the rest in brief (its number and its last lines).
    if (this.away && this.connection === "online" && frame.type === "table" && !this.away.back) {
      const missed = this.events.filter((e) => e.n > this.away.since);
      const forYou = this.mine() ? missed.filter((e) => e.type === "action" && e.seat === s.you) : [];
      const rest = missed.filter((e) => !forYou.includes(e));
      this.away.forYou = forYou.map((e) => (e.move ? playedText(e.move) : line(this, e)));
      this.away.back = rest.slice(-3).map((e) => line(this, e));
      this.away.count = rest.length;
    }
    const turn = this.myTurn();
    const spoken = [];
    // A whole table frame (a join) is not read out, only what happens from then on.
    if (frame.type === "update" && fresh.length) spoken.push(...fresh.slice(-3).map((e) => line(this, e)));
    if (turn && !this.wasTurn) spoken.push(t("table.your_turn"));
    if (spoken.length) this.announcer.textContent = spoken.join(". ");
    sessionStorage.setItem(this.key(), JSON.stringify({ n: s.n, events: this.events, scored: this.scored }));
    this.pending = false;
    // A selection names cards by their place in the hand: it ends when the hand changes.
    if (!s.legal?.length || JSON.stringify(s.observation?.hand || []) !== handBefore) {
      this.selected = null;
      if (!this.passTarget) this.picked.clear();
    }
    this.message = this.stopped ? t("error.stopped", { reason: this.stopped }) : "";
    const becameTurn = turn && !this.wasTurn;
    this.wasTurn = turn;
    notify.title(turn, this.gameTitle());
    if (becameTurn) notify.yourTurn(this.gameTitle());
    this.render();
    // (not away from a chat line being typed: the keys typed next would play a card)
    if (becameTurn && document.activeElement !== this.chat.input) this.focusTurn();
    this.game.pump?.(this);
  }

  /** The page's connection changed (app.js): "online", "connecting" or "offline". */
  setConnection(status) {
    const was = this.connection;
    this.connection = status;
    if (status === "offline" && was !== "offline" && !this.away) this.away = { since: this.state.n, back: null };
    if (status !== "online" || was !== "online") this.render();
  }

  error(frame) {
    this.pending = false;
    // A stale action only means the table moved on meanwhile: the next frame redraws it.
    if (frame.code !== "stale") this.message = errorText(frame.code);
    this.render();
  }

  gone() {
    this.message = t("error.gone");
    this.render();
  }

  offline() {
    return this.connection !== "online";
  }

  act(entry) {
    if (!entry) return;
    if (this.offline()) {
      // Never dropped silently, never queued to be played into a position he has not seen.
      this.message = t("table.offline_refused");
      this.render();
      return;
    }
    if (this.pending) return;
    this.pending = true;
    this.selected = null;
    this.away = null; // he plays on: what happened while away has been seen
    this.hooks.send({ type: "act", table: this.id, action: entry.action, n: this.state.n });
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
    for (const el of this.root.querySelectorAll(".timer[data-seat], .turn-timer")) {
      const seat = el.dataset.seat ?? String(this.state.you);
      const end = deadlines[seat];
      const left = end ? Math.max(0, Math.round((end - Date.now()) / 1000)) : null;
      const urgent = left !== null && left <= URGENT_SECONDS;
      el.classList.toggle("urgent", urgent);
      el.classList.toggle("critical", left !== null && left <= URGENT_SECONDS / 2);
      if (left === null) el.textContent = "";
      else if (el.classList.contains("turn-timer") && urgent) {
        el.textContent = t("table.timer_urgent", { seconds: left, bot: this.standInName() });
      } else el.textContent = t("table.timer", { seconds: left });
      if (el.classList.contains("turn-timer") && urgent && this.beeped !== end) {
        this.beeped = end;
        notify.beep(true);
      }
    }
  }

  standInName() {
    const bot = this.state.settings?.stand_in;
    return bot ? t(`bot.${bot}`) : t("bot.rules");
  }

  // --- choosing -------------------------------------------------------------------------------------

  choose(index, card, entries) {
    if (this.offline()) return this.act(entries[0]); // refused, with its message
    if (this.pending) return;
    this.focusIndex = index;
    if (this.game.onCard(this, index, card, entries)) return;
    if (entries.length === 1) this.act(entries[0]);
    else {
      this.selected = this.selected === index ? null : index;
      this.render();
    }
  }

  /** Its turn has come: the focus goes to the first playable card (or the first move). */
  focusTurn() {
    const active = document.activeElement;
    if (document.querySelector("dialog[open]")) return;
    if (active && active !== document.body && active.closest("input, select, textarea, .side, header")) return;
    // (folded: the button that opens the dock, whose turn line says it is his turn)
    const target = this.folded
      ? this.root.querySelector("#dock-fold")
      : this.root.querySelector(".hand .card.legal, .actions button.act:not([disabled]), .felt .card.legal");
    if (!target) return;
    if (target.matches(".hand .card")) this.focusIndex = Number(target.dataset.index);
    target.focus({ preventScroll: true });
  }

  keydown(event) {
    const target = event.target;
    if (target instanceof HTMLElement && target.closest("input, select, textarea")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    // A dialog over the table (the rules, a replay, the help) has the keys to itself.
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
    } else if (event.key === "?") {
      event.preventDefault();
      this.showHelp();
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
    cards[i].focus({ preventScroll: true });
    this.focusIndex = i;
  }

  // --- dialogs: leaving, the help ---------------------------------------------------------------------

  /** "Leave" during a match: what it means, asked first. */
  confirmLeave() {
    const el = dialog("leave-dialog");
    const rated = this.state.seats.every((x) => x.kind === "person") ? t("leave.rated_people") : t("leave.rated_bots");
    el.replaceChildren(
      h("h2", { id: "leave-dialog-title", text: t("leave.title") }),
      h("p", { text: t("leave.explain", { bot: this.standInName() }) }),
      h("p", { text: rated }),
      h("p", { text: t("leave.instead") }),
      h(
        "div",
        { class: "row dialog-buttons" },
        h("button", { type: "button", id: "leave-cancel", class: "primary", text: t("leave.cancel"), onclick: () => el.close() }),
        h("button", {
          type: "button",
          id: "leave-confirm",
          class: "danger",
          text: t("leave.confirm"),
          onclick: () => {
            el.close();
            this.hooks.leave();
          },
        }),
      ),
    );
    el.showModal();
    el.querySelector("#leave-cancel").focus();
  }

  /** The "?" panel: the keys, and how to be told it is one's turn (sound, notification). */
  showHelp() {
    const el = dialog("help-dialog");
    const keys = [
      ["←  →", "help.keys.arrows"],
      ["1 … 9, 0", "help.keys.digits"],
      ["Enter", "help.keys.enter"],
      ["Tab", "help.keys.tab"],
      ["L", "help.keys.last"],
      ["Esc", "help.keys.escape"],
      ["?", "help.keys.help"],
    ];
    const toggle = (id, key, on, change) =>
      h(
        "label",
        { class: "toggle" },
        h("input", { type: "checkbox", id, checked: on, onchange: (e) => change(e.target) }),
        " ",
        t(key),
      );
    el.replaceChildren(
      h("h2", { id: "help-dialog-title", text: t("help.title") }),
      h("dl", { class: "keys" }, keys.map(([k, text]) => [h("dt", {}, h("kbd", { text: k })), h("dd", { text: t(text) })])),
      h("h3", { text: t("help.turn") }),
      h("p", { text: t("help.turn_title") }),
      toggle("opt-sound", "help.sound", notify.soundOn(), (box) => {
        notify.setSound(box.checked);
        if (box.checked) notify.beep();
      }),
      toggle("opt-notify", "help.notify", notify.notificationsOn(), async (box) => {
        box.checked = await notify.setNotifications(box.checked);
        el.querySelector(".notify-state").textContent = box.checked ? "" : t("help.notify_off");
      }),
      h("p", { class: "notify-state", role: "status" }),
      h("div", { class: "row dialog-buttons" }, h("button", { type: "button", id: "help-close", class: "primary", text: t("help.close"), onclick: () => el.close() })),
    );
    el.showModal();
    el.querySelector("#help-close").focus();
  }

  // --- drawing --------------------------------------------------------------------------------------

  /** The hand's groups: the game's (gin's melds) or by suit in the game's order, trump last. */
  handGroups(o) {
    const hand = o.hand || [];
    const own = this.game.groups(o, this);
    if (own) {
      const left = hand.map((card, index) => [card, index]);
      return own.map((g) => ({
        ...g,
        cards: g.cards.map((card) => {
          const i = left.findIndex(([c]) => c === card);
          return i >= 0 ? left.splice(i, 1)[0] : [card, hand.indexOf(card)];
        }),
      }));
    }
    const order = this.game.suitOrder(o);
    const groups = new Map();
    hand.forEach((card, index) => {
      const suit = suitOf(card) ?? "?";
      if (!groups.has(suit)) groups.set(suit, []);
      groups.get(suit).push([card, index]);
    });
    const suits = [...groups.keys()];
    if (order) suits.sort((a, b) => order.indexOf(a) - order.indexOf(b));
    return suits.map((suit) => ({ cards: groups.get(suit), cls: "", suit }));
  }

  handCards(o, byCard) {
    const hand = o.hand || [];
    if (!hand.length) return this.game.emptyHand(o, this);
    // Cards are dimmed only when some card is playable (not while bidding or betting).
    const anyLegal = byCard.size > 0;
    return this.handGroups(o).map((group) =>
      h(
        "div",
        { class: `suit-group ${group.cls}`.trim(), "data-suit": group.suit ?? null, role: group.label ? "group" : null, "aria-label": group.label ?? null },
        group.label ? h("small", { class: "group-label", text: group.label }) : null,
        group.cards.map(([card, index]) => {
          const entries = byCard.get(card);
          const classes = [entries ? "legal" : anyLegal ? "dim" : "", this.game.cardMark(o, card, index, this)];
          if (this.selected === index) classes.push("selected");
          const state = entries ? t("table.legal") : anyLegal ? t("table.not_legal") : "";
          const el = cardElement(card, classes.join(" "), state);
          el.dataset.index = index;
          // Tab reaches every playable card (and arrows every card of the hand).
          el.tabIndex = entries ? 0 : -1;
          if (entries) {
            el.setAttribute("role", "button");
            el.setAttribute("aria-pressed", this.selected === index || this.picked.has(index) ? "true" : "false");
            if (this.offline()) el.setAttribute("aria-disabled", "true");
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

  /** The deal_scored event whose summary shows (until closed, or until he moves in the next deal), or null. */
  shownSummary() {
    const last = this.scored[this.scored.length - 1];
    if (!last || last.n <= this.dismissed) return null;
    const later = this.events.filter((e) => e.n > last.n);
    const moved = this.mine()
      ? later.some((e) => e.type === "action" && e.seat === this.state.you)
      : later.some((e) => e.type === "trick" || e.type === "deal_scored");
    if (moved && !this.over()) return null;
    return last;
  }

  /** The stage's line for a deal just scored (its summary is in the side column: below the stage on a
   * narrow window, so the line says the points and leads there). */
  summaryLine(e) {
    const deal = e.deal_number ?? e.deal;
    const you = this.state.you;
    const text = this.mine()
      ? t("table.scored_you", { deal, points: signed(e.points?.[you] ?? 0, num), total: num(e.totals?.[you] ?? 0) })
      : t("table.scored", { deal });
    return h(
      "p",
      { class: "summary-line" }, // (the summary itself is the status read out)
      text,
      " ",
      h("button", {
        type: "button",
        id: "to-summary",
        class: "link-button",
        text: t("table.see_summary"),
        onclick: () => {
          const el = this.root.querySelector(".side .deal-summary");
          el?.scrollIntoView({ block: "start", behavior: "smooth" });
          el?.focus({ preventScroll: true });
        },
      }),
    );
  }

  /** The first time a person sits at a table in this browser: sound and notifications offered (both off
   * until he says so; "No thanks" is kept too, and the "?" panel changes them later). */
  offer() {
    if (!this.mine() || this.over() || store.get("turn_offer")) return null;
    if (notify.soundOn() || notify.notificationsOn()) return null;
    const done = (choice) => {
      store.set("turn_offer", choice);
      this.render();
    };
    return h(
      "div",
      { class: "turn-offer", role: "group", "aria-labelledby": "turn-offer-text" },
      h("span", { id: "turn-offer-text", text: t("offer.text") }),
      h(
        "span",
        { class: "row" },
        h("button", {
          type: "button",
          id: "offer-sound",
          class: "primary",
          text: t("offer.sound"),
          onclick: () => {
            notify.setSound(true);
            notify.beep();
            done("sound");
          },
        }),
        h("button", {
          type: "button",
          id: "offer-notify",
          text: t("offer.notify"),
          onclick: async () => {
            const on = await notify.setNotifications(true);
            done(on ? "notify" : "refused");
          },
        }),
        h("button", { type: "button", id: "offer-no", class: "link-button", text: t("offer.no"), onclick: () => done("no") }),
      ),
    );
  }

  /** The notices above the arena: a refusal, the connection, a stand-in, watching, the game's notice,
   * the match's end, a deal scored, the offer of sound and notifications, the game's panel. */
  notices(o, summary) {
    const s = this.state;
    const out = [];
    const mine = this.mine();
    const over = this.over();
    if (this.message) out.push(h("p", { class: "error", role: "alert", text: this.message }));
    if (this.connection === "offline" || (this.away && this.connection !== "online")) {
      const away = Number(s.settings?.away_seconds ?? 0);
      const text =
        mine && s.status === "playing" && !over
          ? away
            ? t("table.offline_seat", { seconds: away, bot: this.standInName() })
            : t("table.offline_seat_now", { bot: this.standInName() })
          : t("table.offline");
      out.push(h("p", { class: "offline-banner", role: "alert" }, h("strong", { text: t("table.offline_head") }), " ", text));
    } else if (this.away?.back) {
      const forYou = this.away.forYou || [];
      const rest = this.away.count;
      out.push(
        h(
          "div",
          { class: "back-banner", role: "status" },
          h("strong", { text: t("table.back_online") }),
          " ",
          forYou.length ? h("span", { class: "played-for-you", text: t("table.played_for_you", { bot: this.standInName(), moves: forYou.join(", ") }) }) : null,
          forYou.length && rest ? ` ${t("table.while_away_more", { count: rest })}` : null,
          !forYou.length ? (rest ? t("table.while_away", { count: rest }) : t("table.while_away_none")) : null,
          this.away.back.length ? h("ul", {}, this.away.back.map((text) => h("li", { text }))) : null,
          h("button", {
            type: "button",
            id: "back-close",
            class: "close-small",
            text: t("summary.close"),
            onclick: () => {
              this.away = null;
              this.render();
            },
          }),
        ),
      );
    }
    if (s.paused) out.push(h("p", { class: "offline-banner paused", role: "alert", text: t("table.paused") }));
    // (once the match is over nothing is played for him any more: no "I'm back")
    if (mine && !over && s.seats[s.you]?.stand_in && !s.seats[s.you]?.left) {
      out.push(
        h(
          "p",
          { class: "stand-in-banner", role: "status" },
          t("table.stand_in_you"),
          " ",
          h("button", { type: "button", id: "back", text: t("table.back"), onclick: () => this.hooks.send({ type: "back", table: this.id }) }),
        ),
      );
    }
    if (!mine) out.push(h("p", { class: "spectating", role: "status", text: this.note && !over ? this.note : t("table.spectating") }));
    const notice = !this.noticeClosed && !over ? this.game.notice(o, this) : null;
    if (notice) {
      out.push(
        h(
          "div",
          { class: "game-notice", role: "alert" },
          h("p", { text: notice }),
          h(
            "div",
            { class: "row" },
            h("button", {
              type: "button",
              id: "notice-watch",
              text: t("table.watch_on"),
              onclick: () => {
                this.noticeClosed = true;
                this.render();
              },
            }),
            h("button", { type: "button", id: "notice-leave", class: "danger", text: t("table.leave_match"), onclick: () => this.confirmLeave() }),
          ),
        ),
      );
    }
    if (over) out.push(this.overBox(o));
    if (summary) out.push(this.summaryLine(summary));
    out.push(this.offer());
    out.push(this.game.panel(o, this));
    return out.flat().filter(Boolean);
  }

  /** The match is over: the winners, playing again (an offer to make, or to answer: the others play
   * again only with those who accept), the replay. */
  overBox(o) {
    const s = this.state;
    const buttons = [];
    const notes = [];
    if (this.mine() && s.status === "finished") {
      const r = this.rematch?.until || this.rematch?.new ? this.rematch : null;
      const me = s.you;
      const answer = (decline) => this.hooks.send({ type: "rematch", table: this.id, decline, id: `again:${this.id}` });
      const button = (id, key, decline, primary = false) =>
        h("button", { type: "button", id, class: primary ? "primary" : null, text: t(key), onclick: () => answer(decline) });
      if (r?.new) {
        if (r.accepted.includes(me)) {
          notes.push(h("p", { class: "rematch-ready", text: t("table.rematch_ready") }));
          buttons.push(h("button", { type: "button", id: "rematch-join", class: "primary", text: t("table.rematch_join"), onclick: () => this.hooks.open(r.new) }));
        } else notes.push(h("p", { class: "rematch-note", text: t("table.rematch_without_you") }));
      } else if (r) {
        const answered = new Set([...r.accepted, ...r.declined]);
        const waiting = (s.seats || []).filter((x) => x.kind === "person" && !x.left && !answered.has(x.seat)).map((x) => this.seatName(x.seat));
        const names = waiting.join(", ");
        let text;
        if (r.accepted.includes(me)) {
          text = r.by === me ? t("table.rematch_offered", { names }) : t("table.rematch_accepted", { names });
          buttons.push(button("rematch-decline", r.by === me ? "table.rematch_withdraw" : "table.rematch_decline", true));
        } else {
          const declined = r.declined.includes(me);
          text = declined ? t("table.rematch_you_declined", { name: this.seatName(r.by) }) : t("table.rematch_offer", { name: this.seatName(r.by) });
          buttons.push(button("rematch-accept", "table.rematch_accept", false, true));
          if (!declined) buttons.push(button("rematch-decline", "table.rematch_decline", true));
        }
        // (the clock ticks every second: not read out each time, inside the box's live region)
        const clock = h("span", { class: "rematch-clock", "data-table": this.id, "aria-live": "off", text: rematchClock(this.rematch) });
        notes.push(h("p", { class: "rematch-offer" }, text, " ", clock));
      } else buttons.push(button("rematch", "table.rematch", false, true));
    }
    if (s.status === "finished") buttons.push(h("button", { type: "button", id: "over-replay", text: t("replay.open"), onclick: () => this.hooks.replay() }));
    // (a table an event seated him at: back to the event's standings, where the next round finds him)
    if (this.hooks.event?.()) buttons.push(h("button", { type: "button", id: "over-event", class: "primary", text: t("events.back_to_standings"), onclick: () => this.hooks.toEvent() }));
    buttons.push(h("button", { type: "button", id: "over-lobby", text: t("table.lobby"), onclick: () => this.hooks.lobby() }));
    return h(
      "div",
      { class: "match-over", role: "status" },
      h("p", { text: t("table.over", { winners: (o.winners || []).map((w) => this.seatName(w)).join(", ") }) }),
      notes,
      h("div", { class: "row" }, buttons),
    );
  }

  render() {
    if (this.pressed !== null) {
      this.redrawDue = true; // (drawn at the press's release)
      return;
    }
    this.redrawDue = false;
    const s = this.state;
    const o = s.observation || {};
    const game = this.game;
    const name = (s.game || "").split("(")[0];
    const you = s.you;
    const mine = this.mine();
    const over = this.over();
    const hand = o.hand || [];
    // The legal moves about a card of the hand (play it, discard it, lay it off, suggest it) belong to
    // that card, unless the game makes them buttons; the others are buttons.
    const byCard = new Map();
    const others = [];
    for (const entry of s.legal || []) {
      const card = moveCard(entry);
      if (card && hand.includes(card) && game.cardMoves(entry)) {
        if (!byCard.has(card)) byCard.set(card, []);
        byCard.get(card).push(entry);
      } else others.push(entry);
    }
    const selectedCard = this.selected !== null ? hand[this.selected] : null;
    const buttons = [];
    if (selectedCard && byCard.has(selectedCard)) buttons.push(...controls(this, byCard.get(selectedCard)));
    buttons.push(...controls(this, others));
    if (this.offline()) {
      for (const el of buttons) {
        for (const b of el.matches("button") ? [el] : el.querySelectorAll("button")) b.setAttribute("aria-disabled", "true");
      }
    }

    const info = [];
    if (o.phase) {
      const key = [`table.phase.${o.phase}`, `phase.${o.phase}`].find((k) => has(k));
      info.push(key ? t(key) : o.phase);
    }
    const deal = o.hand_number ?? o.deal_number;
    if (deal && game.dealChip) info.push(t("table.deal", { deal }));
    info.push(...game.info(o, this));

    const toAct = (o.to_act || s.to_act || []).filter((seat) => seat !== you);
    let prompt = null;
    if (mine && s.legal?.length && this.offline()) prompt = h("span", { class: "prompt offline", text: t("table.offline_paused") });
    else if (mine && s.legal?.length) prompt = h("span", { class: "prompt", text: t(this.folded ? "table.your_turn_folded" : "table.your_turn") });
    else if (toAct.length && !over)
      prompt = h("span", { class: "waiting", text: t("table.waiting_for", { who: toAct.map((x) => this.seatName(x)).join(", ") }) });
    // A hint holds while the seat's choice is the one it was asked for (other seats may move meanwhile).
    const hinted = this.hint?.legal === legalKey(s) ? (s.legal || []).find((e) => e.label === this.hint.action) : null;
    const hintLine =
      s.settings?.hints && mine && s.legal?.length && !this.offline()
        ? h(
            "span",
            { class: "hint-line" },
            hinted
              ? h("span", { class: "hint", role: "status", text: t("table.hint_is", { move: moveText(hinted) }) })
              : h("button", {
                  type: "button",
                  id: "hint",
                  text: t("table.hint"),
                  onclick: () => this.hooks.send({ type: "hint", table: this.id, n: s.n }),
                }),
          )
        : null;

    const typing = document.activeElement === this.chat.input; // (kept while the table is redrawn)
    this.chat.draw();
    const focusWasIn = this.root.contains(document.activeElement) ? document.activeElement : null;
    const focusLabel = focusWasIn?.dataset?.label;
    const focusId = focusWasIn?.id;
    const focusHand = Boolean(focusWasIn?.closest?.(".hand"));
    // (the focus was where he plays: it stays there, whatever the redraw took away)
    const focusPlay = Boolean(focusWasIn?.closest?.(".dock, .felt [role='button']"));
    const showRules = () => this.hooks.rules(name);
    const playing = mine && s.status === "playing" && !over && !s.seats[you]?.left;
    const summary = this.shownSummary();
    const notices = this.notices(o, summary);
    const value = mine && !over ? game.handValue(o, this) : null;

    // The dock: whenever this seat plays (not once the match is over: nothing is left to play).
    let bottom = null;
    if (mine && !over) {
      bottom = h(
        "div",
        { class: `dock${this.myTurn() ? " my-turn" : ""}${this.folded ? " folded" : ""}`, role: "region", "aria-label": t("table.dock"), tabindex: "-1" },
        h(
          "div",
          { class: "turn-line" },
          prompt,
          hintLine,
          h("span", { class: "turn-timer", role: "timer", "aria-label": t("table.your_timer") }),
          // the hand's value right above the hand (and still there, folded)
          value ? h("span", { class: "hand-value", text: value }) : null,
          h("button", {
            type: "button",
            id: "dock-fold",
            class: "dock-fold",
            "aria-expanded": this.folded ? "false" : "true",
            "aria-controls": "dock-body",
            text: t(this.folded ? "table.dock_show" : "table.dock_hide"),
            onclick: () => this.fold(!this.folded),
          }),
        ),
        h(
          "div",
          { class: "dock-body", id: "dock-body", hidden: this.folded },
          h("div", { class: `hand${hand.length > 12 ? " many" : ""}`, role: "group", "aria-label": t("table.hand_keys") }, this.handCards(o, byCard)),
          h("div", { class: "actions", role: "group", "aria-label": t("table.actions") }, buttons),
        ),
      );
    } else if (prompt) bottom = h("p", { class: "watch-line" }, prompt);

    this.root.replaceChildren(
      h(
        "div",
        {
          class: `table-view game-${name}${this.pending ? " pending" : ""}${this.offline() ? " offline" : ""}${mine ? " seated" : ""}`,
          "aria-live": "off",
          "data-status": s.status,
          "data-phase": o.phase || "",
          "data-connection": this.connection,
        },
        h(
          "div",
          { class: "stage" },
          h(
            "div",
            { class: "bar" },
            h("h2", { class: "title", text: t(`game.${name}.title`) }),
            h("span", { class: "status", text: t(`status.${s.status}`) }),
            s.spectators ? h("span", { class: "watchers", text: t("table.watchers", { count: s.spectators }) }) : null,
            info.length ? h("ul", { class: "info", "aria-label": t("table.info") }, info.map((text) => h("li", { text }))) : null,
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
              h("button", { type: "button", id: "help", text: "?", "aria-label": t("help.title"), "aria-keyshortcuts": "?", title: t("help.title"), onclick: () => this.showHelp() }),
              // A finished match may be stepped through at once, every hand open.
              over && s.status === "finished"
                ? h("button", { type: "button", id: "table-replay", text: t("replay.open"), onclick: () => this.hooks.replay() })
                : null,
              h("button", { type: "button", id: "to-lobby", text: t("table.lobby"), onclick: () => this.hooks.lobby() }),
            ),
          ),
          notices.length ? h("div", { class: "notices" }, notices) : null,
          h(
            "div",
            { class: `arena seats-${s.seats.length}` },
            h("div", { class: "felt", role: "group", "aria-label": t(game.tricks ? "table.trick" : "table.middle") }, game.tricks ? trickArea(this, o) : null, game.felt(o, this)),
            s.seats.map((_, seat) => seatBox(this, seat)),
          ),
          bottom,
        ),
        h(
          "div",
          { class: "side" },
          sharePanel(this.id),
          summary ? this.namedAt(summary.n, () => dealSummary(this, summary, !over)) : null,
          scores(this, o),
          scoreSheet(this, o, over || game.sheetOpen),
          h(
            "ol",
            { class: "log", "aria-label": t("table.log"), tabindex: "0" },
            this.events.slice(-80).map((e) => h("li", { class: `ev ev-${e.type}`, text: line(this, e) })),
          ),
          this.chat.element,
          playing
            ? h("div", { class: "leave-row" }, h("button", { type: "button", id: "leave", class: "danger", text: t("table.leave_match"), onclick: () => this.confirmLeave() }))
            : null,
        ),
      ),
    );
    this.scrollLog();
    if (typing) this.chat.input.focus({ preventScroll: true });
    if (focusHand && this.focusIndex !== null) {
      const card = this.root.querySelector(`.hand .card[data-index="${this.focusIndex}"]`);
      (card || this.root.querySelector(".hand .card"))?.focus({ preventScroll: true });
    } else if (focusLabel) this.root.querySelector(`button[data-label="${CSS.escape(focusLabel)}"]`)?.focus({ preventScroll: true });
    else if (focusId) this.root.querySelector(`#${CSS.escape(focusId)}`)?.focus({ preventScroll: true });
    if (focusPlay && !document.activeElement?.closest?.(".dock, .felt [role='button']")) this.focusPlay();
    if (hinted) {
      for (const el of this.root.querySelectorAll(`[data-label="${CSS.escape(hinted.label)}"]`)) el.classList.add("hinted");
      const card = moveCard(hinted);
      const at = card ? hand.indexOf(card) : -1;
      if (at >= 0) this.root.querySelector(`.hand .card[data-index="${at}"]`)?.classList.add("hinted");
    }
    this.tick();
  }

  /** The focus was where he plays and the redraw took its element away: the next playable card or move
   * (not while a move is on its way), else the dock itself; at the match's end, its first button. */
  focusPlay() {
    const next = this.pending || this.folded ? null : this.root.querySelector(".dock .hand .card.legal, .dock .actions button.act:not([disabled]), .felt .card.legal");
    const target = next || this.root.querySelector(".dock") || this.root.querySelector(".match-over button");
    if (!target) return;
    if (target.matches(".hand .card")) this.focusIndex = Number(target.dataset.index);
    target.focus({ preventScroll: true });
  }

  /** Fold the dock to its turn line (`folded`), or open it again; kept for this browser. */
  fold(folded) {
    this.folded = folded;
    if (folded) store.set("dock_folded", "1");
    else store.drop("dock_folded");
    this.render();
    this.root.querySelector("#dock-fold")?.focus({ preventScroll: true });
  }

  scrollLog() {
    const logEl = this.root.querySelector(".log");
    if (logEl) logEl.scrollTop = logEl.scrollHeight;
  }
}

/** The modal dialog `id` (made at its first use), for the leave confirmation and the help. */
function dialog(id) {
  let el = document.getElementById(id);
  if (!el) {
    el = h("dialog", { id, class: "small-dialog", "aria-labelledby": `${id}-title` });
    document.body.append(el);
  }
  return el;
}

/** The seat's choice as a key: the labels of its legal moves. */
function legalKey(state) {
  return (state.legal || []).map((e) => e.label).join(" ");
}

/** A move the stand-in made for him, short: a card played is its card ("7♠"), any other move its text. */
function playedText(move) {
  return move.kind === "play" && move.card ? cardText(move.card) : moveText(move);
}

/** What an open offer to play again has left: "starts in 24 s, without those who have not accepted". */
function rematchClock(rematch) {
  if (!rematch?.until || rematch.new) return "";
  return t("table.rematch_clock", { seconds: Math.max(0, Math.round((rematch.until - Date.now()) / 1000)) });
}
