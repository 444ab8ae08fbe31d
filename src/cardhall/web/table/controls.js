// The moves that are not a card of the hand: one labelled button per legal action (any label, known or
// not, so a new phase of a game still plays), and one amount control per verb with many amounts
// ("raise 10" .. "raise 990"): a slider and a number field over exactly the legal amounts, with min,
// double, pot and all-in presets; the amount chosen is sent as that legal action's label.
import { t, num } from "../i18n.js";
import { actionText } from "../cards.js";
import { h } from "./dom.js";

export function button(view, entry, extra = {}) {
  return h("button", {
    type: "button",
    class: "act",
    "data-label": entry.label,
    disabled: view.pending,
    text: actionText(entry.label),
    "aria-label": actionText(entry.label),
    onclick: () => view.act(entry),
    ...extra,
  });
}

/** The legal amount nearest to `want`, preferring the next higher one. */
function snap(amounts, want) {
  for (const a of amounts) if (a >= want) return a;
  return amounts[amounts.length - 1];
}

export function amountControl(view, verb, entries) {
  const o = view.state.observation || {};
  const byAmount = new Map(entries.map((e) => [Number(e.label.split(" ")[1]), e]));
  const amounts = [...byAmount.keys()].sort((a, b) => a - b);
  const chosen = snap(amounts, view.amounts[verb] ?? amounts[0]);
  view.amounts[verb] = chosen;
  const step = amounts.length > 1 ? amounts[1] - amounts[0] : 1;
  const id = `amount-${verb}`;
  const send = h("button", {
    type: "button",
    class: "act send",
    "data-label": `${verb} ${chosen}`,
    disabled: view.pending,
    text: actionText(`${verb} ${chosen}`),
    onclick: () => view.act(byAmount.get(view.amounts[verb])),
  });
  const slider = h("input", {
    type: "range",
    class: "slider",
    min: 0,
    max: amounts.length - 1,
    step: 1,
    value: amounts.indexOf(chosen),
    "aria-label": t("table.amount_of", { verb: actionText(verb) }),
    "aria-valuetext": num(chosen),
  });
  const field = h("input", {
    type: "number",
    id,
    class: "amount-field",
    min: amounts[0],
    max: amounts[amounts.length - 1],
    step,
    value: chosen,
    inputmode: "numeric",
    "aria-label": t("table.amount_of", { verb: actionText(verb) }),
  });
  const show = (amount) => {
    view.amounts[verb] = amount;
    slider.value = String(amounts.indexOf(amount));
    slider.setAttribute("aria-valuetext", num(amount));
    field.value = String(amount);
    send.textContent = actionText(`${verb} ${amount}`);
    send.dataset.label = `${verb} ${amount}`;
  };
  slider.addEventListener("input", () => show(amounts[Number(slider.value)]));
  field.addEventListener("change", () => show(snap(amounts, Number(field.value) || amounts[0])));
  field.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      show(snap(amounts, Number(field.value) || amounts[0]));
      send.click();
    }
  });
  const allIn = (view.state.legal || []).find((e) => e.label === "all in");
  const preset = (key, amount, cls) =>
    h("button", {
      type: "button",
      class: `preset ${cls}`,
      disabled: view.pending,
      text: t(key),
      "aria-label": `${t(key)}: ${actionText(`${verb} ${amount}`)}`,
      onclick: () => show(amount),
    });
  const presets = [
    preset("table.amount_min", amounts[0], "min"),
    preset("table.amount_double", snap(amounts, 2 * amounts[0]), "double"),
    o.pot ? preset("table.amount_pot", snap(amounts, o.pot), "pot") : null,
    // All in is its own action where the game offers it; otherwise the largest amount.
    allIn
      ? h("button", { type: "button", class: "preset all-in", disabled: view.pending, text: t("table.amount_all"), onclick: () => view.act(allIn) })
      : preset("table.amount_all", amounts[amounts.length - 1], "all-in"),
  ];
  return h(
    "fieldset",
    { class: "amount", "data-verb": verb },
    h("legend", { text: actionText(verb) }),
    h("div", { class: "amount-row" }, slider, field, send),
    h("div", { class: "presets" }, presets),
  );
}

/**
 * The controls for the legal actions not taken by a hand card: the game's own first, then one amount
 * control per amount verb, then a button each.
 */
export function controls(view, entries) {
  const o = view.state.observation || {};
  const [own, rest] = view.game.controls(view, o, entries);
  const groups = new Map();
  for (const entry of rest) {
    const m = /^(\S+) (\d+)$/.exec(entry.label);
    if (!m) continue;
    if (!groups.has(m[1])) groups.set(m[1], []);
    groups.get(m[1]).push(entry);
  }
  const amountVerb = (verb) => groups.has(verb) && (view.game.amountVerbs.includes(verb) || groups.get(verb).length > 12);
  const hasAmount = [...groups.keys()].some(amountVerb);
  const out = [...own];
  const placed = new Set();
  for (const entry of rest) {
    const verb = entry.label.split(" ")[0];
    if (/^\S+ \d+$/.test(entry.label) && amountVerb(verb)) {
      if (!placed.has(verb)) out.push(amountControl(view, verb, groups.get(verb)));
      placed.add(verb);
    } else if (!(hasAmount && entry.label === "all in")) {
      // "all in" is one of the amount control's presets when there is one
      out.push(button(view, entry));
    }
  }
  return out;
}
