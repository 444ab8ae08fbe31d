// The review of a finished match, in the replay viewer: a seat's decisions valued by the server's search
// from what that seat could know (GET and POST /api/tables/{table}/review?seat=N). A player of the match
// asks for a seat's review and waits for it (a minute at most for a whole match); anyone sees a review
// made. Then each decision of that seat is marked at its move by its verdict; a plot (SVG, drawn here: no
// charting library) shows the seat's expected deal result after each decision, with numbers on both
// axes and a legend; each deal has its accuracy and result. The browser judges nothing: every number is
// the server's (cardhall.review), and so is what is called better.
//
// How it is worded (issue 46, D7 and D8), decisions written down here:
// - A move is named as its button at the table names it ("Play 10♠", from the move's data), so no verb is
//   said twice ("Played play 10♠").
// - A better move is named only where the server calls it better (`better`: its lead clear of the noise),
//   never a move that merely came first by a hair ("Better: 7♠ (costs 0 ± 0)").
// - Every amount carries its unit (points; Svara's chips), and every list item ends its own sentence: no
//   list marker runs into the text before it ("result +52. Deal 2" was "+5", then the marker "2.").
// - What the move played cost has an honest interval: ± two standard errors (about 95%) over the sampled
//   deals, said with their number; where every sampled deal agreed, it says so instead of "± 0".
// - The match's counted losses are "left on the table", measured against the better moves the search
//   found: words that also make sense in a match the player won.
import { t, num } from "./i18n.js";
import { h, api, store, errorText } from "./util.js";
import { actionText, moveText } from "./cards.js";
import { invitationFor } from "./friends.js";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 2000;
const VERDICT_MARK = { good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
const VERDICT_ORDER = ["good", "inaccuracy", "mistake", "blunder", "unclear"];

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  el.append(...children);
  return el;
}

/** A number as the review shows it: one decimal, three for a small one that one would show as 0. */
function rounded(x) {
  const places = x === 0 || Math.abs(x) >= 0.05 ? 1 : 3;
  const factor = 10 ** places;
  return Math.round(x * factor) / factor || 0; // (never "-0")
}

/** An amount in the review's unit, "+3.2 points" (`signed`) or "3.2 points"; "1 chip" in the singular. */
export function amount(x, unit, signed = false) {
  const r = rounded(x);
  const sign = r < 0 ? "-" : signed && r > 0 ? "+" : "";
  return t(`review.${unit === "chips" ? "chips" : "points"}`, { sign, count: Math.abs(r) });
}

/** The text of a verdict (null: unclear). */
export function verdictText(verdict) {
  return t(`review.verdict.${verdict ?? "unclear"}`);
}

/** A candidate move as its button at the table names it. */
function moveName(candidate) {
  return candidate.move ? moveText({ ...candidate.move, label: candidate.label }) : actionText(candidate.label);
}

export class ReviewPanel {
  /** `replay`: the viewer (its `meta`, `seatName`, `go`, `step`). */
  constructor(replay) {
    this.replay = replay;
    this.review = null;
    this.seat = null;
    this.atStep = new Map(); // the position a decision's move leads to -> the decision
    this.el = h("section", { class: "review", "aria-label": t("review.title") });
  }

  /** Called once the replay's first page came: offers the seats, the viewer's own first. */
  start() {
    const seats = this.replay.meta.seats;
    const mine = seats.find((s) => s.player !== null && String(s.player) === store.get("id"));
    this.played = Boolean(mine);
    const first = mine ?? seats.find((s) => s.kind === "person") ?? seats[0];
    const select = h(
      "select",
      { class: "review-seat", "aria-label": t("review.whose"), onchange: (e) => this.choose(Number(e.target.value)) },
      seats.map((s) => h("option", { value: String(s.seat), text: this.replay.seatName(s.seat) })),
    );
    select.value = String(first.seat);
    this.status = h("p", { class: "review-status", role: "status", "aria-live": "polite" });
    this.body = h("div", { class: "review-body" });
    this.el.replaceChildren(
      h("div", { class: "review-head" }, h("h3", { text: t("review.title") }), h("label", {}, t("review.whose"), " ", select)),
      this.status,
      this.body,
    );
    this.choose(first.seat);
  }

  async choose(seat) {
    this.seat = seat;
    this.review = null;
    this.atStep.clear();
    this.body.replaceChildren();
    this.status.textContent = t("review.loading");
    try {
      this.shown(seat, await api("GET", this.url(seat)));
    } catch (e) {
      this.failed(seat, e);
    }
  }

  url(seat) {
    return `/api/tables/${encodeURIComponent(this.replay.table)}/review?seat=${seat}${shared(this.replay.table)}`;
  }

  async ask(seat) {
    this.status.textContent = t("review.running");
    this.body.replaceChildren();
    try {
      let status = await api("POST", this.url(seat), {});
      while (status.status === "running" && this.seat === seat && this.replay.shown) {
        await new Promise((done) => setTimeout(done, POLL_MS));
        status = await api("GET", this.url(seat));
      }
      this.shown(seat, status);
    } catch (e) {
      this.failed(seat, e);
    }
  }

  failed(seat, e) {
    if (this.seat !== seat) return;
    this.status.textContent = e.error ? errorText(e.error) : t("review.failed");
  }

  shown(seat, status) {
    if (this.seat !== seat || !this.replay.shown) return; // another seat chosen, or the dialog closed, meanwhile
    if (status.status === "done") return this.show(status.review);
    if (status.status === "running") return this.ask(seat);
    const again = status.status === "failed";
    this.status.textContent = again ? t("review.failed") : this.played ? t("review.none") : t("review.none_other");
    if (this.played) {
      this.body.replaceChildren(h("button", { type: "button", class: "review-ask", text: t("review.ask"), onclick: () => this.ask(seat) }));
    }
  }

  show(review) {
    this.review = review;
    this.unit = review.unit === "chips" ? "chips" : "points";
    for (const d of review.decisions) this.atStep.set(d.index + 1, d);
    const m = review.match;
    this.status.textContent =
      m.accuracy === null
        ? t("review.no_decisions")
        : `${t("review.accuracy", { accuracy: Math.round(m.accuracy), count: m.decisions })} ${
            m.loss > 0 ? t("review.left", { amount: amount(m.loss, this.unit) }) : t("review.left_none")
          }`;
    // Every decision counted once: the unclear ones too, so the counts add up to the decisions reviewed.
    const counts = ["blunder", "mistake", "inaccuracy", "good", "unclear"].map((v) =>
      h(
        "li",
        { class: `verdict-${v}` },
        h("span", { class: "verdict-mark", text: VERDICT_MARK[v] ?? "·" }),
        ` ${verdictText(v === "unclear" ? null : v)}: ${num(v === "unclear" ? m.unclear : m.verdicts[v])}`,
      ),
    );
    const deals = review.deals.map((d) =>
      h("li", {
        "data-deal": d.deal,
        text: t("review.deal", {
          deal: d.deal,
          accuracy: d.accuracy === null ? "—" : num(Math.round(d.accuracy)),
          result: d.result === null ? "—" : amount(d.result, this.unit, true),
        }),
      }),
    );
    const unitWord = t(`review.unit.${this.unit}`);
    const figure = h("figure", { class: "review-figure" }, this.plot(review), this.legend());
    this.redrawn(figure, review);
    this.body.replaceChildren(
      h("ul", { class: "review-counts", "aria-label": t("review.counts") }, counts),
      figure,
      h("p", { class: "review-deals-title", id: "review-deals-title", text: t("review.deals", { unit: unitWord }) }),
      h("ul", { class: "review-deals", "aria-labelledby": "review-deals-title" }, deals),
      h("p", { class: "review-note", text: t("review.note", { count: review.budget }) }),
    );
    this.replay.refresh();
  }

  /** The plot drawn again when its width changes much (a phone turned, a window resized), so its text
   * stays the page's size. */
  redrawn(figure, review) {
    this.resizing?.disconnect();
    if (typeof ResizeObserver === "undefined") return;
    this.resizing = new ResizeObserver(() => {
      const plot = figure.querySelector(".review-plot");
      if (!plot || this.review !== review || !figure.isConnected) return this.resizing.disconnect();
      const drawn = Number(plot.getAttribute("viewBox").split(" ")[2]);
      if (Math.abs(this.width() - drawn) > 24) plot.replaceWith(this.plot(review));
    });
    this.resizing.observe(figure);
  }

  /** The width the plot is drawn at: the panel's, between 300 and 640 px. */
  width() {
    return Math.round(Math.min(640, Math.max(300, this.body.clientWidth || 600)));
  }

  /** What the plot's marks mean: the line, the better moves, the verdicts' colours. */
  legend() {
    const swatch = (cls) => svg("svg", { class: `swatch ${cls}`, viewBox: "0 0 16 12", width: 16, height: 12, "aria-hidden": "true" });
    const line = swatch("swatch-played");
    line.append(svg("line", { x1: 0, x2: 16, y1: 6, y2: 6, class: "played-line" }));
    const ring = swatch("swatch-better");
    ring.append(svg("line", { x1: 8, x2: 8, y1: 11, y2: 4, class: "gap-line" }), svg("circle", { cx: 8, cy: 4, r: 3, class: "best-dot" }));
    const items = [h("li", {}, line, ` ${t("review.legend.played")}`), h("li", {}, ring, ` ${t("review.legend.better")}`)];
    for (const v of VERDICT_ORDER) {
      const dot = swatch(`verdict-${v}`);
      dot.append(svg("circle", { cx: 8, cy: 6, r: 4.5, class: "dot" }));
      items.push(h("li", { class: `verdict-${v}` }, dot, ` ${verdictText(v === "unclear" ? null : v)}`));
    }
    return h("figcaption", {}, h("ul", { class: "review-legend", "aria-label": t("review.legend") }, items));
  }

  /** The seat's expected deal result after each decision: the move played (a line, a point per decision
   * coloured by its verdict, which steps the replay there), and where a move was clearly better, that
   * move's (a ring above, joined to it). The y axis has its numbers and unit, the x axis the deals. */
  plot(review) {
    const ds = review.decisions;
    // Drawn at the width it is shown at (at most 40rem), so its text is the page's size on a phone too.
    const W = this.width();
    const H = 220;
    const left = 52, right = 12, top = 28, bottom = 40;
    const values = ds.flatMap((d) => [d.played.value, ...(d.better ? [d.better.value] : [])]);
    const [lo, hi, step] = ticks(Math.min(0, ...values), Math.max(0, ...values));
    const x = (i) => left + (W - left - right) * (ds.length > 1 ? i / (ds.length - 1) : 0.5);
    const y = (v) => H - bottom - ((H - top - bottom) * (v - lo)) / (hi - lo);
    const parts = [];
    // The y axis: its numbers, a light line at each, the zero line dashed; its title above it.
    for (let v = lo; v <= hi + step / 2; v += step) {
      const value = Math.round(v / step) * step;
      parts.push(
        svg("line", { x1: left, x2: W - right, y1: y(value), y2: y(value), class: value === 0 ? "axis zero" : "grid" }),
        svg("text", { x: left - 6, y: y(value) + 4, class: "tick y-tick", "text-anchor": "end" }, num(value)),
      );
    }
    parts.push(
      svg("line", { x1: left, x2: left, y1: top, y2: H - bottom, class: "axis" }),
      svg("text", { x: 6, y: 16, class: "plot-label y-label" }, t("review.plot_axis", { unit: t(`review.unit.${this.unit}`) })),
    );
    // The x axis: each deal from its first decision, its number under it where there is room.
    let deal = null;
    let lastLabel = -Infinity;
    ds.forEach((d, i) => {
      if (d.deal === deal) return;
      deal = d.deal;
      if (i > 0) parts.push(svg("line", { x1: x(i) - 0.5 * (x(1) - x(0)), x2: x(i) - 0.5 * (x(1) - x(0)), y1: top, y2: H - bottom, class: "deal-line" }));
      if (x(i) - lastLabel >= 28) {
        parts.push(svg("text", { x: x(i), y: H - bottom + 15, class: "tick x-tick", "text-anchor": i === 0 && ds.length > 1 ? "start" : "middle" }, num(d.deal)));
        lastLabel = x(i);
      }
    });
    parts.push(svg("text", { x: (left + W - right) / 2, y: H - 6, class: "plot-label x-label", "text-anchor": "middle" }, t("review.plot_x")));
    if (ds.length) {
      parts.push(svg("polyline", { class: "played-line", points: ds.map((d, i) => `${x(i)},${y(d.played.value)}`).join(" ") }));
    }
    ds.forEach((d, i) => {
      if (d.better) {
        parts.push(
          svg("line", { x1: x(i), x2: x(i), y1: y(d.played.value), y2: y(d.better.value), class: "gap-line" }),
          svg("circle", { cx: x(i), cy: y(d.better.value), r: 3.5, class: "best-dot" }),
        );
      }
      const dot = svg("circle", { cx: x(i), cy: y(d.played.value), r: 4.5, class: `dot verdict-${d.verdict ?? "unclear"}`, tabindex: 0 });
      dot.append(svg("title", {}, this.decisionText(d)));
      dot.addEventListener("click", () => this.replay.go(d.index + 1));
      dot.addEventListener("keydown", (e) => e.key === "Enter" && this.replay.go(d.index + 1));
      parts.push(dot);
    });
    return svg("svg", { class: "review-plot", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("review.plot") }, ...parts);
  }

  /** The sentences the review says of a decision: the move and its expected result, then the better
   * move and what the one played cost, where there is a better one. */
  sentences(d) {
    const out = [t("review.played", { move: moveName(d.played), value: amount(d.played.value, this.unit, true) })];
    if (d.better) {
      out.push(t("review.better_move", { best: moveName(d.better), value: amount(d.better.value, this.unit, true) }));
      const [low, high] = d.interval ?? [d.loss - 2 * d.loss_se, d.loss + 2 * d.loss_se];
      const how = d.agree
        ? t("review.agree", { count: d.samples ?? this.review.budget })
        : t("review.interval", {
            low: num(rounded(low)),
            high: num(rounded(high)),
            unit: t(`review.unit.${this.unit}`),
            count: d.samples ?? this.review.budget,
          });
      out.push(t("review.cost", { amount: amount(d.loss, this.unit), how }));
    } else if (d.verdict === null) {
      out.push(t("review.no_better"));
    }
    return out;
  }

  decisionText(d) {
    return [`${verdictText(d.verdict)}.`, ...this.sentences(d)].join(" ");
  }

  /** What the review says of the move that led to position `step` (null: not a reviewed decision). */
  mark(step) {
    const d = this.atStep.get(step);
    if (!d) return null;
    const verdict = d.verdict ?? "unclear";
    const [played, ...rest] = this.sentences(d);
    return h(
      "div",
      { class: `review-mark verdict-${verdict}`, role: "note" },
      h("span", { class: "verdict-mark", "aria-hidden": "true", text: VERDICT_MARK[d.verdict] ?? "·" }),
      h("strong", { text: ` ${verdictText(d.verdict)}.` }),
      " ",
      h("span", { class: "review-played", text: played }),
      rest.length ? h("span", { class: "review-better", text: ` ${rest.join(" ")}` }) : null,
    );
  }
}

/** The y axis's range and step: round numbers (1, 2 or 5 times a power of ten), four to six steps. */
export function ticks(lo, hi) {
  const span = hi - lo || 1;
  const raw = span / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * power).find((s) => s >= raw);
  const bottom = Math.floor(lo / step) * step;
  const top = Math.ceil(hi / step) * step;
  return [bottom, top > bottom ? top : bottom + step, step];
}

/** A private table's invitation as a query (its record is for its people and its link's holders: the
 * page that opened the link shows its replay and review too); nothing for another table. */
export function shared(table) {
  const invitation = invitationFor(table);
  return invitation ? `&invitation=${encodeURIComponent(invitation)}` : "";
}
