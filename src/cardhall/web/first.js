// The first page, for someone this browser does not know yet: what cardhall is, the five games (each with
// "Play now" and its rules), a name, and a way back in for someone with an account.
//
// Decisions:
// - Playing takes one step: the name field comes filled in with a guest's name ("Player 4821", in the
//   page's language), selected so that typing replaces it, and each game's "Play now" makes the guest
//   and seats him at once at a quick-play table of that game against normal bots, with the game's
//   default options. "Enter" makes the guest and shows the lobby instead.
// - A name is checked before it is sent: an empty one, or one of spaces alone, is refused here with
//   words saying so (the server would refuse it too, as it refuses one it cannot take: then the page
//   says what a name may hold). Nothing is made until the name is right.
// - Someone sent a table's address (a friend's link) sees the same page, told where it leads: the table
//   shows once he has a name (its waiting room offers him a seat).
import { t } from "./i18n.js";
import { h, api, store, errorText } from "./util.js";
import { gameList, gameTitle } from "./catalogue.js";
import { signInForm } from "./account.js";
import { paths } from "./router.js";
import { isOffline } from "./offline.js";

const MAX_NAME = 40; // (the server's: cardhall.server.protocol.MAX_NAME)
const suggested = 1000 + Math.floor(Math.random() * 9000); // the guest's number, the same all along

/** The name typed, or the words saying what is wrong with it. */
function checkName(raw) {
  const name = raw.trim();
  if (!name) return { error: t(raw.length ? "name.spaces" : "name.empty") };
  if (name.length > MAX_NAME) return { error: t("error.name") };
  return { name };
}

/** The first page in `main`. `done()`: the guest is made (the lobby, or the table of the address, shows);
 * `play(table)`: he was seated at a quick-play table; `table`: the table of the address opened, if any. */
export async function renderFirst(main, { done, play, table = null }) {
  const input = h("input", {
    id: "name",
    name: "name",
    maxlength: MAX_NAME,
    autocomplete: "nickname",
    value: t("first.guest_name", { number: suggested }),
    "aria-describedby": "name-help name-error",
  });
  const error = h("p", { class: "error", id: "name-error", role: "alert" });
  const busy = (on) => {
    for (const b of main.querySelectorAll(".first button")) b.disabled = on;
  };
  /** Make the guest (once: a second click does not make another). */
  const guest = async () => {
    if (store.get("token")) return true;
    const checked = checkName(input.value);
    error.textContent = checked.error ?? "";
    if (checked.error) {
      input.focus();
      return false;
    }
    try {
      const player = await api("POST", "/api/players", { name: checked.name });
      store.set("token", player.token);
      store.set("name", player.name);
      store.set("id", String(player.id));
      return true;
    } catch (e) {
      error.textContent = isOffline(e) ? t("offline.short") : e.error === "bad_message" ? nameRefused(e.message) : errorText(e.error);
      input.focus();
      return false;
    }
  };
  const form = h(
    "form",
    {
      class: "name-form",
      novalidate: true, // (the page says what is wrong, in its words)
      onsubmit: async (event) => {
        event.preventDefault();
        busy(true);
        const made = await guest();
        busy(false);
        if (made) done();
      },
    },
    h("label", { for: "name", text: t("name.label") }),
    h("div", { class: "row" }, input, h("button", { type: "submit", id: "enter", class: "primary", text: t(table ? "first.to_table" : "name.enter") })),
    h("small", { id: "name-help", class: "help", text: t("first.name_help") }),
    error,
  );
  const games = h("ul", { class: "first-games-list" });
  const gamesError = h("p", { class: "error", role: "alert" });
  main.replaceChildren(
    h(
      "div",
      { class: "first" },
      h(
        "section",
        { class: "panel first-intro", "aria-labelledby": "first-title" },
        h("h2", { id: "first-title", text: t("name.title") }),
        h("p", { class: "first-what", text: t("first.what") }),
        table ? h("p", { class: "first-table-note", role: "status", text: t("first.table_note") }) : null,
        form,
      ),
      h(
        "section",
        { class: "panel first-games", "aria-labelledby": "first-games-title" },
        h("h2", { id: "first-games-title", text: t("first.games") }),
        h("p", { class: "help", text: t("first.games_help") }),
        games,
        gamesError,
      ),
      h(
        "details",
        { class: "panel account first-signin", id: "account", "data-state": "nobody" },
        h("summary", { text: t("account.signin_title") }),
        signInForm(done),
      ),
    ),
  );
  input.focus();
  input.select(); // (typing replaces the name offered)
  let catalogue;
  try {
    catalogue = await gameList();
  } catch (e) {
    gamesError.textContent = isOffline(e) ? t("offline.short") : t("first.games_failed");
    return;
  }
  if (!games.isConnected) return; // another page was drawn meanwhile
  const playNow = async (game, button) => {
    busy(true);
    gamesError.textContent = "";
    try {
      if (!(await guest())) return;
      const made = await api("POST", "/api/quickplay", { game, level: "normal", settings: {} });
      play(made.table);
    } catch (e) {
      gamesError.textContent = isOffline(e) ? t("offline.short") : t("error.quickplay", { message: errorText(e.error) });
      button.focus();
    } finally {
      busy(false);
    }
  };
  games.replaceChildren(
    ...catalogue.games.map((g) => {
      const title = gameTitle(g.name);
      const button = h("button", {
        type: "button",
        class: "play-now primary",
        text: t("lobby.play"),
        "aria-label": t("first.play_of", { game: title }),
        onclick: () => playNow(g.name, button),
      });
      return h(
        "li",
        { class: "first-game", "data-game": g.name },
        h("h3", { text: title }),
        h("span", {
          class: "players",
          text:
            g.players[0] === g.players[1]
              ? t("lobby.players_fixed", { count: g.players[0] })
              : t("lobby.players", { min: g.players[0], max: g.players[1] }),
        }),
        h("p", { class: "blurb", text: t(`game.${g.name}.blurb`) }),
        h(
          "div",
          { class: "row" },
          button,
          h("a", { class: "rules-link", href: paths.rules(g.name), text: t("lobby.rules"), "aria-label": t("lobby.rules_of", { game: title }) }),
        ),
      );
    }),
  );
}

/** The server's refusal of a name, in the page's language: the character it names (its code point, "U+3164
 * HANGUL FILLER", from the message) when there is one, else what a name may hold. */
function nameRefused(message) {
  const char = /U\+[0-9A-F]{4,6}(?: [A-Z0-9 -]+?)?(?= at position|$)/.exec(message || "");
  return char ? t("error.name_char", { char: char[0] }) : t("error.name");
}
