// The trick in the middle of the felt, each card in front of the seat that played it and named for him
// at every width (the card that led marked ▶): a card just
// played slides in from its player; a trick just taken slides toward its winner and stays there, the
// winning card raised and cancelled cards (Cancellation Hearts) struck through, until the next trick
// starts, also after the deal ends. The previous trick can be shown on demand (button or key L).
import { t } from "../i18n.js";
import { cardElement } from "../cards.js";
import { h } from "./dom.js";
import { seatAngle } from "./seats.js";

function lastTricks(view) {
  const out = [];
  for (let i = view.events.length - 1; i >= 0 && out.length < 2; i--) {
    if (view.events[i].type === "trick") out.push(view.events[i]);
  }
  return out;
}

/** The cards of a trick placed round the felt; `closed` is its trick event once taken. */
function placed(view, plays, closed, animate) {
  const winnerAngle = closed && closed.winner !== null ? seatAngle(view, closed.winner) : null;
  const cancelled = new Set(closed?.cancelled || []);
  return plays.map((play, i) => {
    // Where the card lies is the direction of its player (--cx, --cy) times the felt's radii, set in the
    // stylesheet (smaller on a phone); a taken trick leans toward its winner (--wx, --wy).
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
          "--cx": Math.cos(angle).toFixed(3),
          "--cy": Math.sin(angle).toFixed(3),
          "--wx": Math.cos(toward).toFixed(3),
          "--wy": Math.sin(toward).toFixed(3),
          zIndex: String(i + 1),
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
  } else if (last) {
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
  // On demand: the last finished trick while another is being played (or the one before it).
  const shown = o.trick?.length ? last : before;
  if (view.showLast && shown) {
    out.push(
      h(
        "div",
        { class: "last-trick", role: "dialog", "aria-label": t("table.last_trick") },
        h("strong", { text: t("table.last_trick") }),
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
  return Boolean(o.trick?.length ? last : before);
}
