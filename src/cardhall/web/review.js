// The review of a finished match, in the replay viewer: a seat's decisions valued by the server's search
// from what that seat could know (GET and POST /api/tables/{table}/review?seat=N). A player of the match
// asks for a seat's review and waits for it (a minute at most for a whole match); anyone sees a review
// made. Then each decision of that seat is marked at its move by its verdict, with the better move
// beside the one played; a plot (SVG, drawn here: no charting library) shows the seat's expected deal
// value after each decision, the better move's above it where the two differ; each deal has its
// accuracy. The browser judges nothing: every number is the server's.
import { t, num } from "./i18n.js";
import { h, api, store, errorText } from "./util.js";
import { actionText } from "./cards.js";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 2000;
const VERDICT_MARK = { good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  el.append(...children);
  return el;
}

function signed(x) {
  return `${x > 0 ? "+" : ""}${num(Math.round(x * 10) / 10)}`;
}

/** The text of a verdict (null: unclear). */
export function verdictText(verdict) {
  return t(`review.verdict.${verdict ?? "unclear"}`);
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
    return `/api/tables/${encodeURIComponent(this.replay.table)}/review?seat=${seat}`;
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
    for (const d of review.decisions) this.atStep.set(d.index + 1, d);
    const m = review.match;
    this.status.textContent = m.accuracy === null ? t("review.no_decisions") : t("review.summary", {
      accuracy: num(Math.round(m.accuracy)),
      decisions: num(m.decisions),
      loss: num(Math.round(m.loss * 10) / 10),
    });
    const counts = ["blunder", "mistake", "inaccuracy", "good"].map((v) =>
      h("li", { class: `verdict-${v}` }, h("span", { class: "verdict-mark", text: VERDICT_MARK[v] }), ` ${verdictText(v)}: ${num(m.verdicts[v])}`),
    );
    const deals = review.deals.map((d) =>
      h("li", {
        text: t("review.deal", {
          deal: num(d.deal),
          accuracy: d.accuracy === null ? "—" : num(Math.round(d.accuracy)),
          result: d.result === null ? "—" : signed(d.result),
        }),
      }),
    );
    this.body.replaceChildren(
      h("ul", { class: "review-counts", "aria-label": t("review.counts") }, counts),
      this.plot(review),
      h("ol", { class: "review-deals", "aria-label": t("review.deals") }, deals),
      h("p", { class: "review-note", text: t("review.note", { budget: num(review.budget) }) }),
    );
    this.replay.refresh();
  }

  /** The seat's expected deal value after each decision: the move played (a line), the better move where
   * it differs (a dot above), each decision a point coloured by its verdict that steps the replay there. */
  plot(review) {
    const ds = review.decisions;
    const W = 600, H = 160, pad = 24;
    const values = ds.flatMap((d) => [d.played.value, d.best.value]);
    const lo = Math.min(0, ...values), hi = Math.max(0, ...values);
    const span = hi - lo || 1;
    const x = (i) => pad + ((W - 2 * pad) * (ds.length > 1 ? i / (ds.length - 1) : 0.5));
    const y = (v) => H - pad - ((H - 2 * pad) * (v - lo)) / span;
    const parts = [svg("line", { x1: pad, x2: W - pad, y1: y(0), y2: y(0), class: "axis" })];
    let deal = null;
    ds.forEach((d, i) => {
      if (d.deal !== deal && i > 0) parts.push(svg("line", { x1: x(i), x2: x(i), y1: pad / 2, y2: H - pad / 2, class: "deal-line" }));
      deal = d.deal;
    });
    if (ds.length) {
      parts.push(svg("polyline", { class: "played-line", points: ds.map((d, i) => `${x(i)},${y(d.played.value)}`).join(" ") }));
    }
    ds.forEach((d, i) => {
      if (d.best.action !== d.played.action) parts.push(svg("circle", { cx: x(i), cy: y(d.best.value), r: 3, class: "best-dot" }));
      const dot = svg("circle", { cx: x(i), cy: y(d.played.value), r: 4.5, class: `dot verdict-${d.verdict ?? "unclear"}`, tabindex: 0 });
      dot.append(svg("title", {}, `${this.decisionText(d)}`));
      dot.addEventListener("click", () => this.replay.go(d.index + 1));
      dot.addEventListener("keydown", (e) => e.key === "Enter" && this.replay.go(d.index + 1));
      parts.push(dot);
    });
    parts.push(svg("text", { x: pad, y: pad / 2 + 4, class: "plot-label" }, t("review.plot_axis")));
    return svg("svg", { class: "review-plot", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("review.plot") }, ...parts);
  }

  decisionText(d) {
    const base = t("review.decision", { played: actionText(d.played.label), verdict: verdictText(d.verdict) });
    if (d.best.action === d.played.action) return base;
    return `${base} ${t("review.better", { best: actionText(d.best.label), loss: num(Math.round(d.loss * 10) / 10), se: num(Math.round(d.loss_se * 10) / 10) })}`;
  }

  /** What the review says of the move that led to position `step` (null: not a reviewed decision). */
  mark(step) {
    const d = this.atStep.get(step);
    if (!d) return null;
    const verdict = d.verdict ?? "unclear";
    return h(
      "div",
      { class: `review-mark verdict-${verdict}`, role: "note" },
      h("span", { class: "verdict-mark", "aria-hidden": "true", text: VERDICT_MARK[d.verdict] ?? "·" }),
      h("strong", { text: ` ${verdictText(d.verdict)}` }),
      " ",
      h("span", { text: t("review.played", { played: actionText(d.played.label), value: signed(d.played.value) }) }),
      d.best.action !== d.played.action
        ? h("span", { class: "review-better", text: ` ${t("review.better_move", { best: actionText(d.best.label), value: signed(d.best.value), loss: num(Math.round(d.loss * 10) / 10), se: num(Math.round(d.loss_se * 10) / 10) })}` })
        : null,
    );
  }
}
