// Playing with people one knows: the lobby's friends panel (friends online and the tables they sit at,
// requests to answer, people blocked, a friend added by his player number), the invitation a friend
// sends (shown on whatever page is open: the lobby and the table hold the same websocket), and a table's
// "share" row (copy the private table's link, invite a friend who is online).
//
// Decisions:
// - A person is named by his player number (the server's id: names are not unique); the panel shows
//   one's own, to give to friends, and names link to his page, /players/{id}.
// - A private table's invitation is kept per table in localStorage once known (from its link, from an
//   invitation, or as its creator), so a reload joins again; the link carries it in its fragment
//   (/#invite/{table}/{invitation}), which the browser never sends to the server.
// - The share row asks the server for a table's link only when the table may be private: one whose
//   invitation the page knows shows its link at once, and one that the lobby's summary
//   (GET /api/tables/{id}) answers for is open to all; only a table that summary does not show asks for
//   its invitation (a player of a private table on another device). A quick-play table asks for none.
// - A friend is offered for an invitation only while he is online and not at the table (the seats of
//   the table's frames: shareSeats).
import { t } from "./i18n.js";
import { api, errorText, h, store } from "./util.js";

export function invitationFor(table) {
  return store.get(`invite.${table}`);
}

export function rememberInvitation(table, invitation) {
  if (invitation) store.set(`invite.${table}`, invitation);
}

function person(p, ...controls) {
  return h("li", { class: "friend", "data-player": String(p.id) }, h("a", { class: "friend-name", href: `/players/${p.id}`, text: p.name }), " ", controls);
}

/** The lobby's friends panel; `nav.openTable(id, mode, waiting)` opens a friend's table. */
export function friendsPanel(nav) {
  const panel = h("section", { class: "panel friends", id: "friends", "aria-labelledby": "friends-title" });
  const message = h("p", { class: "error", role: "alert" });
  const call = async (method, path, body) => {
    try {
      await api(method, path, body);
      message.textContent = "";
    } catch (e) {
      message.textContent = errorText(e.error);
    }
    draw();
  };
  const button = (id, text, onclick, extra = {}) => h("button", { type: "button", class: id, text, onclick, ...extra });
  async function draw() {
    let data = { friends: [], incoming: [], outgoing: [], blocked: [] };
    try {
      data = await api("GET", "/api/friends");
    } catch {
      /* shown empty */
    }
    const input = h("input", { id: "friend-id", type: "text", inputmode: "numeric", "aria-label": t("friends.add_label") });
    const mine = store.get("id");
    // (replaceChildren writes a null as the text "null": the parts left out are dropped first)
    const parts = [
      h("h2", { id: "friends-title", text: t("friends.title") }),
      mine ? h("p", { class: "my-number" }, t("friends.your_number", { id: Number(mine) })) : null,
      h(
        "form",
        {
          class: "row add-friend",
          onsubmit: (event) => {
            event.preventDefault();
            // Bengali digits read as the Latin ones the server knows
            const id = input.value.trim().replace(/[০-৯]/g, (d) => String("০১২৩৪৫৬৭৮৯".indexOf(d)));
            if (/^\d+$/.test(id)) call("POST", `/api/friends/${id}/request`, {});
            else message.textContent = t("friends.bad_number");
          },
        },
        h("label", { text: t("friends.add_label") }, input),
        h("button", { type: "submit", id: "friend-add", text: t("friends.add") }),
      ),
      message,
      data.friends.length
        ? h(
            "ul",
            { class: "friend-list", "aria-label": t("friends.title") },
            data.friends.map((f) =>
              person(
                f,
                h("span", { class: `presence ${f.online ? "online" : "offline"}`, text: t(f.online ? "friends.online" : "friends.offline") }),
                f.tables.map((x) =>
                  button("friend-table", t("friends.join_at", { seat: x.seat + 1 }), () => nav.openTable(x.table, x.status === "waiting" ? "join" : "watch", x.status === "waiting"), {
                    "aria-label": t("friends.table_of", { name: f.name }),
                  }),
                ),
                button("friend-remove", t("friends.remove"), () => call("POST", `/api/friends/${f.id}/remove`, {}), { "aria-label": t("friends.remove_who", { name: f.name }) }),
              ),
            ),
          )
        : h("p", { class: "none", text: t("friends.none") }),
      data.incoming.length
        ? h("div", {}, h("h3", { text: t("friends.incoming") }), h("ul", { class: "friend-list" }, data.incoming.map((p) =>
            person(
              p,
              button("friend-accept", t("friends.accept"), () => call("POST", `/api/friends/${p.id}/accept`, {}), { "aria-label": t("friends.accept_who", { name: p.name }) }),
              button("friend-refuse", t("friends.refuse"), () => call("POST", `/api/friends/${p.id}/refuse`, {}), { "aria-label": t("friends.refuse_who", { name: p.name }) }),
              button("friend-block", t("chat.block"), () => call("POST", `/api/blocks/${p.id}`, {}), { "aria-label": t("chat.block_who", { name: p.name }) }),
            ),
          )))
        : null,
      data.outgoing.length
        ? h("div", {}, h("h3", { text: t("friends.outgoing") }), h("ul", { class: "friend-list" }, data.outgoing.map((p) =>
            person(p, button("friend-cancel", t("friends.cancel"), () => call("POST", `/api/friends/${p.id}/remove`, {}))),
          )))
        : null,
      data.blocked.length
        ? h("details", {}, h("summary", { text: t("friends.blocked", { count: data.blocked.length }) }), h("ul", { class: "friend-list" }, data.blocked.map((p) =>
            person(p, button("friend-unblock", t("friends.unblock"), () => call("POST", `/api/blocks/${p.id}/remove`, {}))),
          )))
        : null,
    ];
    panel.replaceChildren(...parts.filter(Boolean));
  }
  draw();
  panel.refresh = draw;
  return panel;
}

/** A friend's invitation (an `invited` frame), shown over any page until answered. */
export function showInvitation(frame, go) {
  rememberInvitation(frame.table, frame.invitation);
  document.getElementById("invitation")?.remove();
  const box = h(
    "div",
    { id: "invitation", class: "invitation-toast", role: "alert" },
    h("p", { text: t("friends.invited", { name: frame.from.name, game: t(`game.${frame.game.split("(")[0]}.title`) }) }),
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", id: "invitation-join", class: "primary", text: t("friends.go"), onclick: () => { box.remove(); go(frame.table); } }),
      h("button", { type: "button", id: "invitation-close", text: t("friends.not_now"), onclick: () => box.remove() }),
    ),
  );
  document.body.append(box);
}

/** A friend request came, or one was accepted: a short note, and the friends panel drawn again. */
export function friendsChanged(frame) {
  document.getElementById("friends")?.refresh?.();
  const note = document.getElementById("friends-note") || h("p", { id: "friends-note", class: "friends-note", role: "status" });
  note.textContent = t(`friends.event.${frame.event}`, { name: frame.player.name });
  if (!note.isConnected) document.body.append(note);
  setTimeout(() => note.remove(), 8000);
}

const shares = new Map(); // table id -> its share row (made once)
const seatedAt = new Map(); // table id -> the player ids seated there (its frames' seats)

/** The seats of table `id` changed (a frame's): the friends offered for an invitation follow. */
export function shareSeats(id, seats) {
  const seated = new Set(seats.filter((s) => s.player !== null && s.player !== undefined).map((s) => s.player));
  const before = seatedAt.get(id);
  if (before && before.size === seated.size && [...seated].every((p) => before.has(p))) return;
  seatedAt.set(id, seated);
  shares.get(id)?.draw?.();
}

/** The link of private table `id` for someone at it, or null for a table open to all (see the module's
 * decisions: no request for the invitation of a table known to be open to all). */
async function privateLink(id) {
  const known = invitationFor(id);
  if (known) return `${location.origin}/#invite/${id}/${known}`;
  try {
    await api("GET", `/api/tables/${encodeURIComponent(id)}`);
    return null; // the lobby's summary shows it: open to all
  } catch (e) {
    if (e.error !== "no_such_table") return null;
  }
  try {
    const data = await api("GET", `/api/private-tables/${encodeURIComponent(id)}/invitation`);
    rememberInvitation(id, data.invitation);
    return `${location.origin}${data.link}`;
  } catch {
    return null; // not his to share
  }
}

/** The share row of table `id`: a private table's link to copy, and a friend to invite (made once). */
export function sharePanel(id) {
  let row = shares.get(id);
  if (row) return row;
  row = h("div", { class: "share", "data-table": id });
  shares.set(id, row);
  const note = h("span", { class: "share-note", role: "status" });
  let link = null;
  let friends = [];
  const draw = () => {
    const parts = [];
    if (link) {
      const text = h("input", { id: "invite-link", type: "text", readonly: true, value: link, "aria-label": t("share.link") });
      parts.push(
        h("span", { class: "private-badge", text: t("share.private") }),
        h("button", {
          type: "button",
          id: "copy-invite",
          text: t("share.copy"),
          onclick: async () => {
            try {
              await navigator.clipboard.writeText(link);
              note.textContent = t("share.copied");
            } catch {
              text.select(); // no clipboard here: selected, to copy by hand
              note.textContent = t("share.copy_by_hand");
            }
          },
        }),
        text,
      );
    }
    const seated = seatedAt.get(id) ?? new Set();
    const away = friends.filter((f) => !seated.has(f.id)); // (one at the table is not invited to it)
    if (away.length) {
      const pick = h("select", { id: "invite-friend", "aria-label": t("share.friend") }, away.map((f) => h("option", { value: String(f.id), text: f.name })));
      parts.push(
        pick,
        h("button", {
          type: "button",
          id: "invite-send",
          text: t("share.invite"),
          onclick: async () => {
            try {
              await api("POST", "/api/invitations", { table: id, player: Number(pick.value) });
              note.textContent = t("share.sent");
            } catch (e) {
              note.textContent = errorText(e.error);
            }
          },
        }),
      );
    }
    row.replaceChildren(...(parts.length ? [...parts, note] : []));
  };
  (async () => {
    link = await privateLink(id);
    try {
      friends = (await api("GET", "/api/friends")).friends.filter((f) => f.online);
    } catch {
      /* none */
    }
    row.draw = draw;
    draw();
  })();
  return row;
}
