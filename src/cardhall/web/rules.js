// The rules page of a game, in a dialog over any page (the lobby, a waiting room, a table): its text comes
// from the server (GET /api/rules/{game}?lang=..., the rules of record in the player's words) as a small
// Markdown subset, rendered here element by element: "#", "##", "###" headings, paragraphs, "-" lists and
// **bold** (`code` too). Text only ever goes in as text (textContent), never as HTML. The rules texts
// write numbers in Latin digits in both languages (cardhall.rulebook); the page shows them in the
// language's digits, cards' indices (10♥) and `code` left as they are.
//
// Options are named as the lobby's create form names them (issue 46, D13), never by their code words: the
// texts name an option and its values in bold by code (`**max_deals**`, `**svara_join**: **anyone**`, what
// the command line types), and the page puts in the option's title and its values' words in the page's
// language, from the server's option list (GET /api/games, through catalogue.js's optionText and
// optionValue). Which bold words are codes: in the Options section (a text's last "##" section, as the
// rulebook writes every text), an item's first bold word is its option and the bold words after it are
// that option's values (or another option); elsewhere only an option's name written as code is (a word
// with "_": the plain ones, **widow**, are also the game's own terms there).
import { t, language, localDigits } from "./i18n.js";
import { h, api } from "./util.js";
import { gameList, optionText, optionValue } from "./catalogue.js";
import { dialogClosed } from "./router.js";

const INLINE = /\*\*(.+?)\*\*|`([^`]+)`/g;

/** The inline pieces of a line: text, **bold** and `code`, as nodes. `words(bold)`: the words a bold
 * code word stands for (an option's title, a value's words), or null to show it as it is. */
export function inline(text, words = () => null) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(localDigits(text.slice(last, m.index)));
    if (m[1] !== undefined) {
      const named = words(m[1]);
      out.push(named === null ? h("strong", { text: localDigits(m[1]) }) : h("strong", { class: "option-word", "data-code": m[1], text: named }));
    } else {
      out.push(h("code", { text: m[2] }));
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(localDigits(text.slice(last)));
  return out;
}

/** How the bold code words of one line are named (see the top of this module): `options` the game's
 * option list (GET /api/games), `inOptions` whether the line is in the Options section. */
function optionWords(options, inOptions, line) {
  const byName = new Map((options || []).map((o) => [o.name, o]));
  const first = /^\*\*([^*]+)\*\*/.exec(line);
  const own = inOptions && first ? byName.get(first[1]) : undefined;
  return (code) => {
    const option = byName.get(code);
    if (option && (inOptions || code.includes("_"))) return optionText(option).title;
    if (own && (own.values || []).map(String).includes(code)) return optionValue(own, own.values.find((v) => String(v) === code));
    return null;
  };
}

/** The Markdown subset as elements: "#" becomes h2 (the dialog's title), "##" h3, "###" h4. `options`:
 * the game's option list, whose names and values' words replace their code words (null: codes kept). */
export function markdown(text, options = null) {
  const blocks = [];
  let paragraph = [];
  let list = null;
  const lines = text.split(/\r?\n/);
  const lastSection = lines.map((l) => /^##\s/.test(l.trim())).lastIndexOf(true);
  let inOptions = false;
  const words = (line) => (options ? optionWords(options, inOptions, line) : undefined);
  const flush = () => {
    if (paragraph.length) blocks.push(h("p", {}, inline(paragraph.join(" "), words(paragraph[0]))));
    paragraph = [];
    list = null;
  };
  lines.forEach((raw, i) => {
    const line = raw.trim();
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const item = /^[-*]\s+(.*)$/.exec(line);
    if (heading) inOptions = i === lastSection;
    if (!line) {
      flush();
    } else if (heading) {
      flush();
      blocks.push(h(`h${heading[1].length + 1}`, {}, inline(heading[2])));
    } else if (item) {
      if (paragraph.length) {
        blocks.push(h("p", {}, inline(paragraph.join(" "), words(paragraph[0]))));
        paragraph = [];
      }
      if (!list) {
        list = h("ul");
        blocks.push(list);
      }
      list.append(h("li", {}, inline(item[1], words(item[1]))));
    } else if (list && /^\s/.test(raw)) {
      list.lastChild.append(" ", ...inline(line, words(line))); // a list item's continued line
    } else {
      list = null;
      paragraph.push(line);
    }
  });
  flush();
  return blocks;
}

/** The options of `game` as the lobby lists them (null when the list cannot be had: codes are shown). */
async function gameOptions(game) {
  try {
    return (await gameList()).games.find((g) => g.name === game)?.options ?? null;
  } catch {
    return null;
  }
}

/** A dialog closed by the person (its close button, Escape) drops its address from the history (router.js),
 * so Back does not open it again. Only its own address: the "close" event comes a task late, and a dialog
 * opened meanwhile (closed, then the next replay opened at once) has an address of its own. */
function forgetLink(el) {
  const route = el.dataset.route;
  delete el.dataset.route;
  dialogClosed(route);
}

/** Note that the sheet dialog `id` shows the address `path` (see forgetLink). */
export function openedAt(id, path) {
  const el = document.getElementById(id);
  if (el) el.dataset.route = path;
}

/** The sheet dialog `id` (made at its first use), emptied and its address dropped when it closes. The
 * "close" event comes a task after `close()`: if the dialog was opened again meanwhile (the next rules, the
 * next replay), the event is late and must leave the new content and address alone. */
export function sheetDialog(id) {
  let el = document.getElementById(id);
  if (el) return el;
  el = h("dialog", { id, class: "sheet", "aria-labelledby": `${id}-title` });
  el.addEventListener("close", () => {
    if (el.open) return; // opened again before this event came
    el.replaceChildren();
    forgetLink(el);
  });
  document.body.append(el);
  return el;
}

/** Show the rules of `game` (its name: "hokm") in the page's language. */
export async function showRules(game) {
  const el = sheetDialog("rules-dialog");
  const close = h("button", {
    type: "button",
    class: "close",
    id: "rules-close",
    text: "×",
    "aria-label": t("rules.close"),
    onclick: () => el.close(),
  });
  const body = h("div", { class: "rules-text", lang: language() }, h("p", { text: t("rules.loading") }));
  el.replaceChildren(
    h("div", { class: "sheet-bar" }, h("span", { id: "rules-dialog-title", class: "sheet-title", text: t("rules.title", { game: t(`game.${game}.title`) }) }), close),
    body,
  );
  el.dataset.game = game;
  if (!el.open) el.showModal();
  try {
    const [data, options] = await Promise.all([api("GET", `/api/rules/${encodeURIComponent(game)}?lang=${language()}`), gameOptions(game)]);
    if (!el.contains(body)) return; // closed, or other rules opened, meanwhile
    body.replaceChildren(...markdown(data.markdown, options));
    el.dataset.lang = data.lang;
  } catch (e) {
    body.replaceChildren(h("p", { class: "error", role: "alert", text: t("rules.failed") }));
  }
  if (el.contains(close)) close.focus();
}
