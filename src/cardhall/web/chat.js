// A table's chat, for the waiting room and the table page: the lines said there (each speaker's name a
// link to his page, /players/{id}), a line to type (at most 500 characters, as the server takes), and
// per line: mute its speaker in this browser, block him, report the line to the moderators.
//
// Decisions:
// - Nothing a person typed ever goes in as HTML: names and lines are put in as text (h() sets
//   textContent), so markup shows as typed and no script in a line can run.
// - Muting is this browser's, per person (kept in localStorage): a muted speaker's lines are hidden
//   here and nowhere else, and can be shown again; blocking is the server's (it stops his lines
//   reaching you, and more: docs/protocol.md, "Friends and blocks").
// - One panel per table, kept while the page moves from the waiting room to the table, so the lines
//   said while waiting stay in view.
// - What was said before is there after a reload or on a new visit: the server sends a table's last
//   lines to each connection that arrives (docs/protocol.md, join); a line is kept once, by its id, in
//   the order said, however often it comes (a reconnect sends them again).
// - A guest's name is marked with his number ("Ann (guest #12)"), as everywhere a name is listed.
import { t } from "./i18n.js";
import { api, errorText, guestMark, h, store } from "./util.js";

const MAX_CHAT = 500; // protocol.MAX_CHAT
const KEEP = 100; // lines kept in view
const panels = new Map();

function muted() {
  try {
    return new Set(JSON.parse(store.get("muted") || "[]"));
  } catch {
    return new Set();
  }
}

function setMuted(ids) {
  store.set("muted", JSON.stringify([...ids]));
}

/** The chat panel of table `id` (`send` sends a websocket message), made once per table. */
export function chatPanel(id, send) {
  let panel = panels.get(id);
  if (!panel) {
    panel = new ChatPanel(id, send);
    panels.set(id, panel);
  }
  panel.send = send;
  return panel;
}

/** A refusal of a chat line (its message's id starts with "chat:"): shown in the table's panel. */
export function chatError(frame) {
  panels.get(chatTable(frame.ref))?.refused(frame);
}

/** The lines kept in view once `frame` (a chat line) came to `lines` (in the order said): null when it
 * is there already (a reconnect sends a table's last lines again), else {lines, fresh}: the new list,
 * in the order said whatever order they came in, the last `keep` only, and `fresh` when it is the
 * newest line (not an older one sent again on arrival). */
export function keepLine(lines, frame, keep = KEEP) {
  if (lines.some((line) => line.line === frame.line)) return null;
  const fresh = !lines.length || frame.line > lines[lines.length - 1].line;
  const kept = [...lines, frame].sort((a, b) => a.line - b.line).slice(-keep);
  return { lines: kept, fresh };
}

/** The table a refused chat line was for, from its message's id ("chat:<table>:<count>"). */
export function chatTable(ref) {
  return String(ref).slice("chat:".length).split(":")[0];
}

class ChatPanel {
  constructor(id, send) {
    this.id = id;
    this.send = send;
    this.lines = [];
    this.count = 0;
    this.reporting = null; // the line whose report is being written
    this.list = h("ol", { class: "chat-lines", role: "log", "aria-live": "polite", "aria-label": t("chat.lines") });
    this.note = h("p", { class: "chat-note", role: "status" });
    this.input = h("input", {
      id: "chat-text",
      type: "text",
      maxlength: String(MAX_CHAT),
      autocomplete: "off",
      "aria-label": t("chat.say"),
      placeholder: t("chat.placeholder"),
    });
    this.form = h(
      "form",
      {
        class: "chat-form",
        onsubmit: (event) => {
          event.preventDefault();
          this.say();
        },
      },
      this.input,
      h("button", { type: "submit", id: "chat-send", text: t("chat.send") }),
    );
    this.title = h("h2", { id: `chat-title-${id}`, text: t("chat.title") });
    this.element = h("section", { class: "panel chat", "aria-labelledby": `chat-title-${id}` }, this.title, this.list, this.note, this.form);
  }

  say() {
    const text = this.input.value.trim();
    if (!text) return;
    this.count += 1;
    this.send({ type: "chat", table: this.id, text, id: `chat:${this.id}:${this.count}` });
    this.input.value = "";
  }

  add(frame) {
    const kept = keepLine(this.lines, frame);
    if (!kept) return;
    this.lines = kept.lines;
    if (kept.fresh) this.note.textContent = "";
    this.draw();
  }

  refused(frame) {
    this.note.textContent = errorText(frame.code);
  }

  /** Redraw in the page's language (after a switch) and with who is muted now. */
  draw() {
    this.title.textContent = t("chat.title");
    this.input.placeholder = t("chat.placeholder");
    this.input.setAttribute("aria-label", t("chat.say"));
    this.form.querySelector("button").textContent = t("chat.send");
    const hidden = muted();
    const me = Number(store.get("id"));
    const items = [];
    let skipped = 0;
    for (const line of this.lines) {
      if (line.player !== null && hidden.has(line.player)) {
        skipped += 1;
        continue;
      }
      items.push(this.item(line, line.player === me));
    }
    if (skipped) {
      items.push(
        h(
          "li",
          { class: "chat-muted" },
          t("chat.hidden", { count: skipped }),
          " ",
          h("button", {
            type: "button",
            class: "link-button",
            id: "chat-unmute",
            text: t("chat.unmute_all"),
            onclick: () => {
              setMuted(new Set());
              this.draw();
            },
          }),
        ),
      );
    }
    this.list.replaceChildren(...items);
    this.list.scrollTop = this.list.scrollHeight;
  }

  item(line, mine) {
    const mark = line.guest && line.player !== null ? h("span", { class: "guest-mark", text: ` (${guestMark(line.player)})` }) : null;
    const name = line.player !== null ? h("a", { class: "chat-name", href: `/players/${line.player}` }, line.from, mark) : h("span", { class: "chat-name", text: line.from });
    const tools = [];
    if (!mine && line.player !== null) {
      if (this.reporting === line.line) {
        const reason = h(
          "select",
          { class: "report-reason", "aria-label": t("chat.report_reason") },
          ["abuse", "spam", "cheating", "other"].map((r) => h("option", { value: r, text: t(`chat.reason.${r}`) })),
        );
        tools.push(
          reason,
          h("button", {
            type: "button",
            class: "report-send",
            text: t("chat.report_send"),
            onclick: async () => {
              try {
                await api("POST", "/api/reports", { line: line.line, reason: t(`chat.reason.${reason.value}`) });
                this.note.textContent = t("chat.reported");
              } catch (e) {
                this.note.textContent = errorText(e.error);
              }
              this.reporting = null;
              this.draw();
            },
          }),
        );
      } else {
        tools.push(
          h("button", {
            type: "button",
            class: "chat-mute",
            text: t("chat.mute"),
            "aria-label": t("chat.mute_who", { name: line.from }),
            onclick: () => {
              const ids = muted();
              ids.add(line.player);
              setMuted(ids);
              this.draw();
            },
          }),
          h("button", {
            type: "button",
            class: "chat-block",
            text: t("chat.block"),
            "aria-label": t("chat.block_who", { name: line.from }),
            onclick: async () => {
              try {
                await api("POST", `/api/blocks/${line.player}`, {});
                const ids = muted();
                ids.add(line.player);
                setMuted(ids);
                this.note.textContent = t("chat.blocked", { name: line.from });
              } catch (e) {
                this.note.textContent = errorText(e.error);
              }
              this.draw();
            },
          }),
          h("button", {
            type: "button",
            class: "chat-report",
            text: t("chat.report"),
            "aria-label": t("chat.report_line", { name: line.from }),
            onclick: () => {
              this.reporting = line.line;
              this.draw();
            },
          }),
        );
      }
    }
    return h(
      "li",
      { class: `chat-line${mine ? " mine" : ""}`, "data-line": String(line.line) },
      name,
      h("span", { class: "chat-text", text: line.text }),
      tools.length ? h("span", { class: "chat-tools" }, tools) : null,
    );
  }
}
