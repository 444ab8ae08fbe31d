// util.js: the saved settings, the HTTP API with the player's token, and the words of a refusal.
import "./shim.mjs";
import { fetched, serve, speak } from "./shim.mjs";
import test from "node:test";
import assert from "node:assert/strict";
import { api, errorText, guestMark, store } from "../../../src/cardhall/web/util.js";

const en = {
  "error.code.table_full": "Every seat is taken.",
  "error.refused": "The server refused ({code}).",
  "account.guest_number": "guest #{id}",
};

test("settings are kept under the site's prefix", () => {
  localStorage.clear();
  store.set("name", "Ann");
  assert.equal(localStorage.getItem("cardhall.name"), "Ann");
  assert.equal(store.get("name"), "Ann");
  store.set("id", 12);
  assert.equal(store.get("id"), "12");
  store.drop("name");
  assert.equal(store.get("name"), null);
  assert.equal(localStorage.getItem("name"), null);
});

test("a refusal is worded by its code, an unknown code named", async () => {
  await speak("en", { en });
  assert.equal(errorText("table_full"), "Every seat is taken.");
  assert.equal(errorText("no_such_thing"), "The server refused (no_such_thing).");
  assert.equal(guestMark(12), "guest #12");
  assert.equal(guestMark("7"), "guest #7", "a player's id from an address is a number");
});

test("the API is called with JSON and the player's token, a refusal thrown with its code", async () => {
  localStorage.clear();
  serve("/api/things", { things: [1, 2] });
  fetched.length = 0;
  assert.deepEqual(await api("GET", "/api/things"), { things: [1, 2] });
  assert.equal(fetched[0].init.method, "GET");
  assert.equal(fetched[0].init.headers.Authorization, undefined, "no token, no header");
  assert.equal(fetched[0].init.body, undefined);
  store.set("token", "tok-1");
  await api("POST", "/api/things", { a: 1 });
  assert.equal(fetched[1].init.headers.Authorization, "Bearer tok-1");
  assert.equal(fetched[1].init.headers["Content-Type"], "application/json");
  assert.equal(fetched[1].init.body, '{"a":1}');
  serve("/api/full", { error: "table_full", message: "table is full" }, 409);
  await assert.rejects(api("POST", "/api/full", {}), (e) => e.error === "table_full" && e.message === "table is full");
  await assert.rejects(api("GET", "/api/none"), (e) => e.message === "Not Found" && e.error === undefined);
});
