// The player's account, in the lobby and on the first page: a guest makes himself an account (a name and
// a password; he keeps his matches and ratings), an account signs in on another device, signs out (this
// device, or everywhere) and changes his password (docs/protocol.md, "Accounts and sessions").
//
// Decisions: the browser holds an account's session only in the server's HttpOnly cookie (it asks with
// "cookie": true): the page never sees the session's token, so no script can carry it off; store
// "session" = "cookie" only remembers that the cookie is there. A guest keeps his guest token in
// localStorage as before (it is all he has), and gives it up when he becomes an account. Refusals are
// worded from their code (util.errorText), like every other refusal of the client.
import { t } from "./i18n.js";
import { h, api, store, errorText } from "./util.js";

/** Whether this browser speaks for a player: a guest's token, or an account's session cookie. */
export const signedIn = () => Boolean(store.get("token") || store.get("session"));

/** An account's session may have ended elsewhere (signed out everywhere, a new password): ask, and call
 * `gone()` when the server no longer knows it. */
export async function checkSession(gone) {
  if (!store.get("session")) return;
  try {
    await api("GET", "/api/players/me");
  } catch (e) {
    if (e.error === "bad_token" || e.error === "not_authenticated") gone();
  }
}

/** Forget the player on this browser (after a sign-out, or a session the server no longer knows). */
export function forget() {
  for (const key of ["token", "name", "id", "table", "room", "session"]) store.drop(key);
}

function hold(player) {
  store.drop("token"); // a guest's token ends when he becomes an account
  store.set("session", "cookie");
  store.set("name", player.name);
  store.set("id", String(player.id));
}

function field(id, label, attrs) {
  return h("div", { class: "field" }, h("label", { for: id, text: label }), h("input", { id, name: id, ...attrs }));
}

/** A form that posts its fields' values to `path`; `done(answer)` after a success, the refusal's words in
 * its alert line otherwise. */
function form(attrs, fields, submit, path, values, done) {
  const alert = h("p", { class: "error", role: "alert" });
  const el = h(
    "form",
    {
      ...attrs,
      onsubmit: async (event) => {
        event.preventDefault();
        alert.textContent = "";
        const button = el.querySelector("button[type=submit]");
        button.disabled = true;
        try {
          done(await api("POST", path, values(el.elements)));
        } catch (e) {
          alert.textContent = errorText(e.error);
        } finally {
          button.disabled = false;
        }
      },
    },
    fields,
    h("button", { type: "submit", text: submit }),
    alert,
  );
  return el;
}

const password = (id, label, current = false) =>
  field(id, label, { type: "password", required: true, minlength: current ? 1 : 8, maxlength: 256, autocomplete: current ? "current-password" : "new-password" });

/** Sign in to an account (on a new device, or instead of this guest): `done()` once signed in. */
export function signInForm(done, prefix = "signin") {
  return form(
    { class: "account-form", id: `${prefix}-form` },
    [
      field(`${prefix}-name`, t("account.name"), { required: true, maxlength: 24, autocomplete: "username" }),
      password(`${prefix}-password`, t("account.password"), true),
    ],
    t("account.signin"),
    "/api/signin",
    (els) => ({ name: els[`${prefix}-name`].value, password: els[`${prefix}-password`].value, cookie: true }),
    (player) => {
      hold(player);
      done();
    },
  );
}

async function signOut(everywhere, done) {
  try {
    await api("POST", "/api/signout", { everywhere });
  } catch {
    /* the session is gone either way: forget it here */
  }
  forget();
  done();
}

/** The lobby's account panel: a guest's way to an account (or to sign in instead), an account's sign-out
 * and new password. `done()` redraws the page. */
export function accountPanel(done) {
  const name = store.get("name") || "";
  const id = store.get("id");
  const title = h("h2", { id: "account-title", text: t("account.title") });
  if (store.get("session")) {
    const changed = h("p", { class: "note", role: "status" });
    return h(
      "section",
      { class: "panel account", id: "account", "aria-labelledby": "account-title", "data-state": "account" },
      title,
      h("p", {}, t("account.signed_in", { name }), " ", id ? h("a", { href: `/players/${id}`, id: "my-page", text: t("account.my_page") }) : null),
      h(
        "div",
        { class: "row" },
        h("button", { type: "button", id: "signout", text: t("account.signout"), onclick: () => signOut(false, done) }),
        h("button", { type: "button", id: "signout-all", text: t("account.signout_all"), onclick: () => signOut(true, done) }),
      ),
      h(
        "details",
        {},
        h("summary", { text: t("account.change") }),
        form(
          { class: "account-form", id: "password-form" },
          [password("pw-current", t("account.current"), true), password("pw-new", t("account.new"))],
          t("account.change"),
          "/api/account/password",
          (els) => ({ current: els["pw-current"].value, new: els["pw-new"].value }),
          () => {
            changed.textContent = t("account.changed");
            document.getElementById("password-form")?.reset();
          },
        ),
        changed,
      ),
    );
  }
  return h(
    "section",
    { class: "panel account", id: "account", "aria-labelledby": "account-title", "data-state": "guest" },
    title,
    h("p", { class: "note", text: t("account.guest_note") }),
    form(
      { class: "account-form", id: "signup-form" },
      [
        field("signup-name", t("account.name"), { required: true, minlength: 3, maxlength: 24, autocomplete: "username", value: name.length >= 3 ? name : "" }),
        password("signup-password", t("account.password")),
        h("small", { class: "help", text: t("account.password_hint") }),
      ],
      t("account.create"),
      "/api/account",
      (els) => ({ name: els["signup-name"].value, password: els["signup-password"].value, cookie: true }),
      (player) => {
        hold(player);
        done();
      },
    ),
    h("details", {}, h("summary", { text: t("account.signin_title") }), h("p", { class: "note", text: t("account.leave_guest") }), signInForm(done, "switch")),
  );
}

/** The first page's way back for someone who has an account: sign in instead of entering a name. */
export function firstPageSignIn(done) {
  return h(
    "section",
    { class: "panel account", id: "account", "aria-labelledby": "first-signin-title", "data-state": "nobody" },
    h("h2", { id: "first-signin-title", text: t("account.signin_title") }),
    signInForm(done),
  );
}
