// The moves that are not a card of the hand: one labelled button per legal move (any kind, known or not,
// so a new phase of a game still plays), and one amount control per kind of move with an amount
// ("raise": 10 .. 990): a slider and a number field over exactly the legal amounts, with min, double,
// pot and all-in presets. Every move is read from its structured fields (kind, amount, ...) and sent
// as its action int; no label is read or built here.
import { t, num } from "../i18n.js";
import { moveText } from "../cards.js";
import { h } from "./dom.js";

export function button(view, entry, extra = {}) {
  return h("button", {
    type: "button",
    class: "act",
    "data-label": entry.label,
    "data-kind": entry.kind,
    disabled: view.pending,
    text: moveText(entry),
    "aria-label": moveText(entry),
    onclick: () => view.act(entry),
    ...extra,
  });
}

/** The legal amount nearest to `want`, preferring the next higher one. */
function snap(amounts, want) {
  for (const a of amounts) if (a >= want) return a;
  return amounts[amounts.length - 1];
}

/** The name of a kind of amount move ("raise") for the control's legend. */
function kindName(kind) {
  return t(`move.kind.${kind}`);
}

export function amountControl(view, kind, entries) {
  const o = view.state.observation || {};
  const byAmount = new Map(entries.map((e) => [e.amount, e]));
  const amounts = [...byAmount.keys()].sort((a, b) => a - b);
  const chosen = snap(amounts, view.amounts[kind] ?? amounts[0]);
  view.amounts[kind] = chosen;
  const step = amounts.length > 1 ? amounts[1] - amounts[0] : 1;
  const id = `amount-${kind}`;
  const send = h("button", {
    type: "button",
    class: "act send",
    "data-label": byAmount.get(chosen).label,
    "data-kind": kind,
    disabled: view.pending,
    text: moveText(byAmount.get(chosen)),
    onclick: () => view.act(byAmount.get(view.amounts[kind])),
  });
  const slider = h("input", {
    type: "range",
    class: "slider",
    min: 0,
    max: amounts.length - 1,
    step: 1,
    value: amounts.indexOf(chosen),
    "aria-label": t("table.amount_of", { verb: kindName(kind) }),
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
    "aria-label": t("table.amount_of", { verb: kindName(kind) }),
  });
  const show = (amount) => {
    view.amounts[kind] = amount;
    slider.value = String(amounts.indexOf(amount));
    slider.setAttribute("aria-valuetext", num(amount));
    field.value = String(amount);
    send.textContent = moveText(byAmount.get(amount));
    send.dataset.label = byAmount.get(amount).label;
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
  const allIn = (view.state.legal || []).find((e) => e.kind === "all_in");
  const preset = (key, amount, cls) =>
    h("button", {
      type: "button",
      class: `preset ${cls}`,
      disabled: view.pending,
      text: t(key),
      "aria-label": `${t(key)}: ${moveText(byAmount.get(amount))}`,
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
    { class: "amount", "data-verb": kind },
    h("legend", { text: kindName(kind) }),
    h("div", { class: "amount-row" }, slider, field, send),
    h("div", { class: "presets" }, presets),
  );
}

/**
 * The controls for the legal moves not taken by a hand card: the game's own first, then one amount
 * control per kind of move with an amount, then a button each.
 */
export function controls(view, entries) {
  const o = view.state.observation || {};
  const [own, rest] = view.game.controls(view, o, entries);
  const groups = new Map();
  for (const entry of rest) {
    if (typeof entry.amount !== "number") continue;
    if (!groups.has(entry.kind)) groups.set(entry.kind, []);
    groups.get(entry.kind).push(entry);
  }
  const hasAmount = groups.size > 0;
  const out = [...own];
  const placed = new Set();
  for (const entry of rest) {
    if (groups.has(entry.kind)) {
      if (!placed.has(entry.kind)) out.push(amountControl(view, entry.kind, groups.get(entry.kind)));
      placed.add(entry.kind);
    } else if (!(hasAmount && entry.kind === "all_in")) {
      // "all in" is one of the amount control's presets when there is one
      out.push(button(view, entry));
    }
  }
  return out;
}
