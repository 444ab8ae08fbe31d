// The seats round the table: each seat's name (bots marked, a stand-in bot visibly playing for an away
// person), the game's badges and facts (dealer, cards, tricks, chips, score) and its turn timer. Each
// seat sits on the ellipse touching the arena's edges, the viewer's at the bottom: its place is given as
// two numbers 0..100 (--px, --py), which the stylesheet turns into a box kept whole inside the arena
// (the bottom seat's box ends at the arena's bottom, the top one's starts at its top).
import { t } from "../i18n.js";
import { h } from "./dom.js";
import { playerLink } from "../util.js";

const LEVELS = { random: "easy", rules: "normal" };

/** The bot level a bot string stands for ("search(ms=300)" is hard, "expert(ms=500)" expert), for its badge. */
function level(bot) {
  if (!bot) return "";
  if (LEVELS[bot]) return t(`level.${LEVELS[bot]}`);
  if (bot.startsWith("expert")) return t("level.expert");
  return bot.startsWith("search") ? t("level.hard") : bot;
}

export function seatName(view, seat) {
  if (seat === null || seat === undefined) return "";
  const entry = view.state.seats[seat];
  if (!entry || entry.kind === "empty") return t("seat.number", { seat: seat + 1 });
  if (entry.kind === "bot") return t("seat.bot", { seat: seat + 1 });
  return entry.name;
}

/** Where seat number `seat` sits: its angle round the table, the viewer's seat at the bottom. */
export function seatAngle(view, seat) {
  const n = view.state.seats.length || 1;
  const me = view.state.you ?? 0;
  const step = (((seat - me) % n) + n) % n;
  return Math.PI / 2 + view.game.direction * ((2 * Math.PI * step) / n);
}

/** Left/top percentages on an ellipse of radii (rx, ry) percent round the centre. */
export function around(angle, rx, ry) {
  return { left: 50 + rx * Math.cos(angle), top: 50 + ry * Math.sin(angle) };
}

export function seatBox(view, seat) {
  const s = view.state;
  const o = s.observation || {};
  const entry = s.seats[seat] || {};
  const toAct = new Set(o.to_act || s.to_act || []);
  const badges = [];
  if (entry.kind === "bot")
    badges.push(h("span", { class: "badge bot", text: `${t("badge.bot")} · ${level(entry.bot)}` }));
  if (o.dealer === seat) badges.push(h("span", { class: "badge dealer", text: t("badge.dealer") }));
  if (entry.stand_in) badges.push(h("span", { class: "badge stand-in", text: t("badge.stand_in") }));
  if (entry.left) badges.push(h("span", { class: "badge away", text: t("table.left") }));
  else if (entry.kind === "person" && entry.connected === false)
    badges.push(h("span", { class: "badge away", text: t("badge.away") }));
  // Before the match there is no observation: names only.
  if (s.observation) badges.push(...view.game.badges(o, seat, view));
  const facts = s.observation ? view.game.facts(o, seat, view) : [];
  const pos = around(seatAngle(view, seat), 50, 50);
  const turn = toAct.has(seat);
  const name = seatName(view, seat);
  return h(
    "div",
    {
      class: `seat${turn ? " turn" : ""}${seat === s.you ? " me" : ""}${entry.stand_in ? " standing-in" : ""}`,
      "data-seat": seat,
      style: { "--px": pos.left.toFixed(2), "--py": pos.top.toFixed(2) },
      role: "group",
      "aria-label": turn ? t("table.seat_turn", { name }) : name,
      "aria-current": turn ? "true" : null,
    },
    h("div", { class: "seat-name" }, entry.kind === "person" ? playerLink(entry.player, name, entry.guest) : name),
    h("div", { class: "badges" }, badges),
    // each fact its own span: a phone shows the first two (the scores are in their table below)
    facts.length ? h("div", { class: "facts" }, facts.map((fact) => h("span", { text: fact }))) : null,
    h("div", { class: "timer", "data-seat": seat }),
  );
}
