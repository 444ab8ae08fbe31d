// One readable line per event of the table's stream (docs/events.md), in the page's language, each a
// statement ("Ann plays Q♠"): a move from the action event's structured `move`, never from its label; a
// game's own events are worded by its module (games/<game>.js), the shared ones here.
import { t, num, has } from "../i18n.js";
import { actionText, cardText, didText } from "../cards.js";
import { signed } from "./dom.js";

export function line(view, e) {
  // (each seat named as it was held then: a bot's moves before a person took its seat are the bot's)
  return view.namedAt ? view.namedAt(e.n, () => eventLine(view, e)) : eventLine(view, e);
}

function eventLine(view, e) {
  const own = view.game.line(e, view);
  if (own) return own;
  const who = (seat) => view.seatName(seat);
  const cards = (list) => (list || []).map((c) => cardText(c.card ?? c)).join(" ");
  const people = (list) => (list || []).map(who).join(", ");
  switch (e.type) {
    case "seat":
      // a person taking a bot's seat during the match (Play now): "Ann takes Bot 2's seat"
      if (e.replaces) return t("ev.takes_seat", { name: e.name, before: e.replaces.kind === "bot" ? t("seat.bot", { seat: e.seat + 1 }) : e.replaces.name });
      return t("ev.seat", { name: who(e.seat), seat: e.seat + 1 });
    case "action":
      // what the move means (the event's move); a hidden one only as much as this seat may know
      if (e.move) return didText(who(e.seat), e.move);
      return has(`did.hidden.${e.action}`) ? t(`did.hidden.${e.action}`, { who: who(e.seat) }) : t("ev.action", { who: who(e.seat), action: actionText(e.action) });
    case "deal":
      return t("ev.deal", { deal: e.deal, dealer: who(e.dealer) });
    case "trick":
      return e.winner === null
        ? t("ev.trick_aside", { cards: cards(e.cards) })
        : t("ev.trick", { who: who(e.winner), cards: cards(e.cards) });
    case "deal_scored":
      return t("ev.deal_scored", {
        deal: e.deal,
        points: (e.points || []).map((p, seat) => `${who(seat)} ${signed(p, num)}`).join(", "),
      });
    case "match_over":
      return t("ev.match_over", { winners: people(e.winners) });
    default:
      return t(`ev.${e.type}`);
  }
}
