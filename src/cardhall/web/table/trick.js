// The trick in the middle of the felt, each card in front of the seat that played it and named for him
// at every width (the card that led marked ▶): a card just
// played slides in from its player; a trick just taken slides toward its winner and stays there, the
// winning card raised and cancelled cards (Cancellation Hearts) struck through, until the next trick
// starts, also after the deal ends, but never once the next deal is dealt (issue 46, D20: it lay under
// the next deal's bidding, and over Kierki's lottery). The previous trick can be shown on demand (button
// or key L): the previous deal's last one, named so, while this deal has none.
import { t } from "../i18n.js";
import { cardElement } from "../cards.js";
import { h } from "./dom.js";
import { seatAngle } from "./seats.js";

/** The last two tricks, latest first, each with `earlier`: the deal it belongs to when that deal is over
 * and another has been dealt since (its number from its deal_scored event), else null. */
function lastTricks(view) {
  const out = [];
  let dealt = false; // a deal event came after the tricks being looked at
  let scored = null;
  for (let i = view.events.length - 1; i >= 0 && out.length < 2; i--) {
    const e = view.events[i];
    if (e.type === "deal") dealt = true;
    else if (e.type === "deal_scored") scored = e;
    else if (e.type === "trick") out.push({ ...e, earlier: dealt ? (scored?.deal_number ?? scored?.deal ?? "?") : null });
  }
  return out;
}

// The ring the trick lies on is about twice as wide as tall (style.css: --ring-x, --ring-y). Its cards
// are spaced evenly along it, not by the seats' angles, which would bunch them at its sides, each over
// the index of the next at a table of eight or eleven: the arc length from its bottom, per angle.
const RING_RATIO = 2;
const STEPS = 720;
const ARC = (() => {
  const out = [0];
  for (let i = 1; i <= STEPS; i++) {
    const [a, b] = [Math.PI / 2 + (2 * Math.PI * (i - 1)) / STEPS, Math.PI / 2 + (2 * Math.PI * i) / STEPS];
    out.push(out[i - 1] + Math.hypot(RING_RATIO * (Math.cos(b) - Math.cos(a)), Math.sin(b) - Math.sin(a)));
  }
  return out.map((length) => length / out[STEPS]);
})();

/** Where on the ring the card of the seat at `angle` (seatAngle) lies: [x, y] in -1..1, as text. */
export function ringPoint(angle) {
  const turn = ((((angle - Math.PI / 2) / (2 * Math.PI)) % 1) + 1) % 1; // its share of the way round
  let i = 0;
  while (i < STEPS && ARC[i + 1] < turn) i++;
  const part = (turn - ARC[i]) / (ARC[i + 1] - ARC[i] || 1);
  const at = Math.PI / 2 + (2 * Math.PI * (i + part)) / STEPS;
  return [Math.cos(at).toFixed(3), Math.sin(at).toFixed(3)];
}

/** The cards of a trick placed round the felt; `closed` is its trick event once taken. */
function placed(view, plays, closed, animate) {
  const winnerAngle = closed && closed.winner !== null ? seatAngle(view, closed.winner) : null;
  const cancelled = new Set(closed?.cancelled || []);
  return plays.map((play, i) => {
    // Where the card lies is the direction of its player (--cx, --cy) times the ring's radii, set in the
    // stylesheet from the arena's size; a taken trick leans toward its winner (--wx, --wy).
    const angle = seatAngle(view, play.seat);
    const toward = winnerAngle ?? angle;
    const key = `${(view.state.observation?.tricks || []).length}:${play.seat}:${play.card}`;
    let cls = "";
    const states = [];
    if (closed) {
      cls = animate ? "taking" : "taken";
      if (closed.winner === play.seat) {
        cls += " winner";
        states.push(t("table.card_wins"));
      }
      if (cancelled.has(play.card)) {
        cls += " cancelled";
        states.push(t("table.card_cancelled"));
      }
    } else if (!view.seenPlays.has(key)) cls = "new";
    // The first card of a trick was led: its player is marked.
    if (i === 0) states.push(t("table.card_led"));
    const el = h(
      "div",
      {
        class: `played ${cls}${i === 0 ? " lead" : ""}`,
        "data-seat": play.seat,
        style: {
          "--cx": ringPoint(angle)[0],
          "--cy": ringPoint(angle)[1],
          "--wx": ringPoint(toward)[0],
          "--wy": ringPoint(toward)[1],
          "--z": String(i + 1), // (each card over the one played before it, and over every name)
        },
      },
      cardElement(play.card, "", [view.seatName(play.seat), ...states].join(", ")),
      h("small", { "aria-hidden": "true" }, i === 0 ? h("span", { class: "lead-mark", text: "▶ " }) : null, view.seatName(play.seat)),
    );
    if (!closed) view.seenPlays.add(key);
    return el;
  });
}

export function trickArea(view, o) {
  const out = [];
  const [last, before] = lastTricks(view);
  if (o.trick?.length) {
    out.push(...placed(view, o.trick, null, false));
  } else if (last && last.earlier === null) {
    const animate = view.animatedTrick !== last.n;
    view.animatedTrick = last.n;
    out.push(...placed(view, last.cards, last, animate));
    out.push(
      h("div", {
        class: "taken-by",
        role: "status",
        text: last.winner === null ? t("table.trick_aside") : t("table.trick_taken", { who: view.seatName(last.winner) }),
      }),
    );
  }
  // On demand: the last finished trick while another is being played or none lies on the felt (the
  // previous deal's, then), else the one before the trick lying there.
  const shown = o.trick?.length || last?.earlier != null ? last : before;
  if (view.showLast && shown) {
    out.push(
      h(
        "div",
        { class: "last-trick", role: "dialog", "aria-label": t("table.last_trick") },
        h("strong", { text: shown.earlier != null ? t("table.last_trick_of", { deal: shown.earlier }) : t("table.last_trick") }),
        h(
          "div",
          { class: "fan" },
          shown.cards.map((p) => {
            const states = [view.seatName(p.seat)];
            if (p.seat === shown.winner) states.push(t("table.card_wins"));
            if ((shown.cancelled || []).includes(p.card)) states.push(t("table.card_cancelled"));
            return h(
              "div",
              { class: `played-mini${p.seat === shown.winner ? " winner" : ""}${(shown.cancelled || []).includes(p.card) ? " cancelled" : ""}` },
              cardElement(p.card, "mini", states.join(", ")),
              h("small", { text: view.seatName(p.seat) }),
            );
          }),
        ),
        h("small", {
          text: shown.winner === null ? t("table.trick_aside") : t("table.trick_taken", { who: view.seatName(shown.winner) }),
        }),
      ),
    );
  }
  return out;
}

export function hasLastTrick(view, o) {
  const [last, before] = lastTricks(view);
  return Boolean(o.trick?.length || last?.earlier != null ? last : before);
}
