// What every game's table shows unless its module (games/<game>.js) says otherwise. A game module is
// this object with some entries replaced: the table (table.js) asks it for the bar's facts, each seat's
// badges and facts, what lies on the felt besides the trick, a panel among the notices above the arena,
// the hand's value (in the dock, beside the hand), marks on hand cards, its own controls, how a deal was scored and the score sheet. Everything is read from the
// observation, the legal actions and the events; nothing here decides what is legal.
import { t, num } from "../i18n.js";

export const base = {
  /** 1: the next seat in the order of play sits clockwise (on the left); -1: counter-clockwise. */
  direction: 1,
  /** Whether the game plays tricks (drawn in the middle; the last trick on demand). */
  tricks: true,
  /** Whether the bar shows the deal's number by itself. */
  dealChip: true,

  info() {
    return [];
  },
  badges() {
    return [];
  },
  facts(o, seat) {
    const facts = [];
    if (o.hand_sizes) facts.push(t("seat.cards", { count: o.hand_sizes[seat] }));
    if (o.tricks_won) facts.push(t("seat.tricks", { count: o.tricks_won[seat] }));
    if (o.scores) facts.push(t("seat.score", { score: o.scores[seat] }));
    return facts;
  },
  /** Elements on the felt besides the trick (a pile, the stock, the pot, a layout). */
  felt() {
    return [];
  },
  /** Elements among the notices above the arena (melds, a suggestion, a pass to choose). */
  panel() {
    return [];
  },
  /** The hand's value, shown in the dock beside the hand (Svara's worth, gin's deadwood), or null. */
  handValue() {
    return null;
  },
  /** Extra classes of a hand card (a suggested one, one received in a pass). */
  cardMark() {
    return "";
  },
  /** What the hand shows when the observation holds no cards (Svara before looking). */
  emptyHand() {
    return [];
  },
  /** Whether a legal move about a card of the hand is made by clicking that card (else: a button). */
  cardMoves() {
    return true;
  },
  /** The hand's groups in order, [{cards, cls, label}], or null: by suit (the observation's order). */
  groups() {
    return null;
  },
  /** A notice above the table for this seat (Svara: out of chips), or null. */
  notice() {
    return null;
  },
  /** A click on a hand card with legal actions; true when the game handled it. */
  onCard() {
    return false;
  },
  /** The game's own controls for some legal actions: [elements, the entries still to show]. */
  controls(view, o, entries) {
    return [[], entries];
  },
  /** The deal summary's columns besides points and total: [{head, cell(seat)}]. */
  summaryColumns() {
    return [];
  },
  /** The deal summary's lines of text above its table. */
  summaryLines() {
    return [];
  },
  /** The score sheet's rows [{label, points, totals}] from the observation, or null (then the events). */
  sheet(o) {
    if (!Array.isArray(o.score_sheet) || !o.score_sheet.length || !o.score_sheet[0].points) return null;
    return o.score_sheet.map((row) => ({
      label: t("table.deal", { deal: row.deal ?? row.hand }),
      points: row.points,
      totals: row.totals,
    }));
  },
  /** Whether the score sheet is shown open during play (Kierki's is part of the game). */
  sheetOpen: false,
  /** The scores table's cell of a seat (its total), and the table's caption. */
  scoreCell(o, seat) {
    return num(o.scores[seat]);
  },
  scoresCaption() {
    return t("table.scores");
  },
  /** A log line for one of the game's own events, or null for the shared ones. */
  line() {
    return null;
  },
  /** The suit groups of the hand in order: the observation's order, trump last. */
  suitOrder(o) {
    return o.trump ? ["C", "D", "H", "S"].filter((s) => s !== o.trump).concat([o.trump]) : null;
  },
};

