// The pure parts of the events' pages (events.js): the list grouped by status, an event's times and
// state in words, the standings' ranks and figures, a duplicate deal's comparison with the other tables,
// a private event's link. Nothing here draws or asks the server, so it is tested in Node
// (tests/web_unit/eventtext.test.mjs).
//
// Decisions: the server sends times as ISO strings or seconds since the epoch (either is read); a rank
// shared by several people is written once with "=" after it ("3=") on each of their lines, as chess
// and bridge results do; a matchpoint share is a percentage with one decimal, the figures in the page's
// digits (i18n.num); a bot's line is never a standing (the server leaves bots out; a stray one is
// dropped here too). A private event's link carries its token in the fragment (/events/<id>#token=...),
// as a private table's invitation does: a fragment is never sent to a server, so the token reaches no
// log, proxy or Referer (read back by router.js's eventToken, kept by util.js's eventTokens: the first
// page needs them, not this module).
import { t, num } from "./i18n.js";

export const STATUSES = ["running", "upcoming", "finished"]; // the list's order: what one can play now first

/** The events of GET /api/events grouped by status ({running, upcoming, finished, cancelled}), whether
 * the server sent them grouped ({upcoming: [...], ...}) or as one list ({events: [...]}); running and
 * upcoming ones soonest first, finished ones latest first. */
export function groupEvents(data) {
  const groups = { running: [], upcoming: [], finished: [], cancelled: [] };
  const all = Array.isArray(data?.events) ? data.events : [...STATUSES, "cancelled"].flatMap((s) => (data?.[s] || []).map((e) => ({ status: s, ...e })));
  for (const e of all) (groups[e.status] ?? groups.upcoming).push(e);
  const at = (e) => seconds(e.starts_at) ?? 0;
  groups.running.sort((a, b) => at(a) - at(b));
  groups.upcoming.sort((a, b) => at(a) - at(b));
  groups.finished.sort((a, b) => at(b) - at(a));
  return groups;
}

/** A time as seconds since the epoch: a number is taken as seconds, a string as an ISO date; null for
 * none or one unreadable. */
export function seconds(value) {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "number") return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms / 1000;
}

/** A span of `s` seconds in words, rounded up to the minute past a minute: "40 s", "5 min", "2 h 10 min". */
export function spanText(s) {
  const whole = Math.max(0, Math.ceil(s));
  if (whole < 60) return t("events.span_s", { n: whole });
  const minutes = Math.ceil(whole / 60);
  if (minutes < 60) return t("events.span_min", { n: minutes });
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? t("events.span_h_min", { h: hours, n: rest }) : t("events.span_h", { h: hours });
}

/** What the event is: "Arena, 30 min" or "Duplicate, 3 rounds of 2 deals". */
export function formatText(e) {
  if (e.kind === "arena") return t("events.arena_of", { n: e.minutes ?? Math.round(((seconds(e.ends_at) ?? 0) - (seconds(e.starts_at) ?? 0)) / 60) });
  const rounds = e.rounds ?? 0;
  const deals = e.deals ?? e.deals_per_round ?? 1;
  return `${t("events.duplicate_rounds", { count: rounds })}, ${t("events.deals_each", { count: deals })}`;
}

/** Where the event is at `now` (seconds since the epoch), in words: "starts in 5 min", "round 2 of 3",
 * "ends in 12 min", "finished", "cancelled". */
export function stateText(e, now) {
  if (e.status === "cancelled") return t("events.cancelled");
  if (e.status === "finished") return t("events.finished_state");
  const start = seconds(e.starts_at);
  if (e.status === "upcoming" || (start !== null && start > now)) {
    return start === null ? t("events.soon") : start > now ? t("events.starts_in", { span: spanText(start - now) }) : t("events.starting");
  }
  if (e.kind === "arena") {
    const end = seconds(e.ends_at);
    return end === null ? t("events.running_state") : t("events.ends_in", { span: spanText(Math.max(0, end - now)) });
  }
  return e.round ? t("events.round_of", { round: e.round, rounds: e.rounds }) : t("events.running_state");
}

/** The people's standings in rank order, each with the rank as written: "3=" when shared. Bots' lines
 * (a stray `is_bot`) are left out. */
export function rankedRows(standings) {
  const people = (standings || []).filter((s) => !s.is_bot).sort((a, b) => a.rank - b.rank);
  const shared = new Map();
  for (const s of people) shared.set(s.rank, (shared.get(s.rank) || 0) + 1);
  return people.map((s) => ({ ...s, rankText: `${num(s.rank)}${shared.get(s.rank) > 1 ? "=" : ""}` }));
}

/** A matchpoint share (0..1) as a percentage with one decimal: "62.5 %". */
export function shareText(share) {
  if (share === null || share === undefined) return "–";
  return t("events.percent", { n: Math.round(share * 1000) / 10 });
}

/** A number with at most one decimal ("7.5", "12"), in the page's digits; a dash for none. */
export function figure(x) {
  if (x === null || x === undefined || Number.isNaN(x)) return "–";
  return num(Math.round(x * 10) / 10);
}

/** The columns of an event's standings table and each line's cells: arena: points; duplicate: matchpoints,
 * their share, then the tie-breaks (strength, performance). [headings, rows of cells]. */
export function standingsTable(kind, standings) {
  const rows = rankedRows(standings);
  if (kind === "arena") {
    return [
      [t("events.col_rank"), t("events.col_player"), t("events.col_points"), t("events.col_tables")],
      rows.map((s) => [s.rankText, s, figure(s.points), figure(s.tables)]),
    ];
  }
  return [
    [t("events.col_rank"), t("events.col_player"), t("events.col_mp"), t("events.col_share"), t("events.col_strength"), t("events.col_performance")],
    rows.map((s) => [s.rankText, s, figure(s.matchpoints), shareText(s.share), shareText(s.strength), s.performance === null || s.performance === undefined ? "–" : num(Math.round(s.performance))]),
  ];
}

/** How a player's score in a deal stands against another holder's of the same cards: "beat", "tie" or
 * "lost", from the server's word for it when it sends one, else from the scores (`higherWins`: a higher
 * score is better, as in every game but those scored by penalty points). */
export function versus(mine, other, higherWins = true) {
  if (other.result) return other.result;
  if (mine === other.score) return "tie";
  return (mine > other.score) === higherWins ? "beat" : "lost";
}

const earned = (deal, higherWins) =>
  (deal.others || []).reduce((sum, o) => {
    const v = versus(deal.score, o, higherWins);
    return sum + (v === "beat" ? 1 : v === "tie" ? 0.5 : 0);
  }, 0);

/** Whether a higher score wins in `deal`: as told (`higherWins`, or the deal's `lowest_wins`), else the
 * direction that gives the matchpoints the server counted (a penalty-point game's deal counts the other
 * way), else higher. */
export function higherWinsIn(deal, higherWins) {
  if (typeof higherWins === "boolean") return higherWins;
  if (typeof deal.lowest_wins === "boolean") return !deal.lowest_wins;
  if (typeof deal.matchpoints === "number" && earned(deal, true) !== deal.matchpoints && earned(deal, false) === deal.matchpoints) return false;
  return true;
}

/** A duplicate deal's comparison: his own line and each other table's (the same cards, held by someone
 * else; `bot` or `is_bot` for a bot), best first, each marked beat / tie / lost from his side; and his
 * matchpoints for the deal, the server's, else summed from those marks (1 per player beaten, 1/2 per tie). */
export function dealComparison(deal, higherWins) {
  const higher = higherWinsIn(deal, higherWins);
  const others = (deal.others || []).map((o) => ({ ...o, is_bot: Boolean(o.is_bot || o.bot), versus: versus(deal.score, o, higher) }));
  const lines = [{ mine: true, score: deal.score, table: deal.table, name: deal.name }, ...others];
  lines.sort((a, b) => (higher ? b.score - a.score : a.score - b.score));
  return { lines, matchpoints: deal.matchpoints ?? earned(deal, higher), out_of: others.length, higher };
}

/** The link that lets a friend into a private event: its page's address with the token in the fragment. */
export function privateLink(origin, id, token) {
  return `${origin}/events/${encodeURIComponent(id)}#token=${encodeURIComponent(token)}`;
}
