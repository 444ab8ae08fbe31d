// router.js: every screen's address, built and read back, and the old links' fragments.
import "./shim.mjs";
import test from "node:test";
import assert from "node:assert/strict";
import { KINDS, fromHash, invitationLink, parse, paths } from "../../../src/cardhall/web/router.js";

test("each screen's and dialog's address is read back as what it names", () => {
  assert.deepEqual(parse(paths.lobby()), { screen: "lobby" });
  assert.deepEqual(parse(""), { screen: "lobby" });
  assert.deepEqual(parse(paths.table("t-42_a")), { screen: "table", table: "t-42_a" });
  assert.deepEqual(parse(paths.replay("t-42")), { dialog: "replay", table: "t-42" });
  assert.deepEqual(parse(paths.player(17)), { dialog: "player", player: "17" });
  assert.deepEqual(parse(paths.rules("hokm")), { dialog: "rules", game: "hokm" });
  assert.equal(paths.table("t1"), "/tables/t1");
  assert.equal(paths.replay("t1"), "/tables/t1/replay");
  assert.equal(paths.player(3), "/players/3");
  assert.equal(paths.rules("gin"), "/rules/gin");
  for (const kind of KINDS) assert.equal(parse(paths[kind]("1")).dialog, kind, kind);
});

test("an address of nothing the page shows is null", () => {
  for (const path of ["/tables", "/tables/", "/tables/a/b", "/tables/a/replay/x", "/players/ann", "/players/", "/rules/", "/rules/a-b", "/api/games", "/static/app.js", "//", "/tables/a%20b"]) {
    assert.equal(parse(path), null, path);
  }
});

test("a name is escaped in its address, and one escaped is no address", () => {
  assert.equal(paths.table("a b/c"), "/tables/a%20b%2Fc");
  assert.equal(parse(paths.table("a b/c")), null);
});

test("an old link's fragment becomes its new address", () => {
  assert.equal(fromHash("#rules/hokm"), "/rules/hokm");
  assert.equal(fromHash("#replay/t-9"), "/tables/t-9/replay");
  assert.equal(fromHash("#player/12"), "/players/12");
  for (const hash of ["", "#", "#rules", "#rules/", "#table/t1", "#rules/a/b", "rules/hokm"]) assert.equal(fromHash(hash), null, hash);
});

test("a private table's link names its table and invitation", () => {
  assert.deepEqual(invitationLink("#invite/t-1/abc_DEF-9"), { table: "t-1", invitation: "abc_DEF-9" });
  for (const hash of ["#invite/t-1", "#invite/t-1/", "#invite//x", "#invite/t 1/x", "#rules/hokm", ""]) assert.equal(invitationLink(hash), null, hash);
});

test("the events' addresses (issue 50): the list, an event, a player's results in it", () => {
  assert.deepEqual(parse(paths.events()), { screen: "events" });
  assert.deepEqual(parse(paths.event("ev-7")), { screen: "event", event: "ev-7" });
  assert.deepEqual(parse(paths.eventPlayer("ev-7", 12)), { screen: "event_player", event: "ev-7", player: "12" });
  assert.equal(paths.eventPlayer(3, 4), "/events/3/players/4");
  for (const path of ["/events/", "/events/a/b", "/events/a/players/ann", "/events/a/players/", "/events/a%20b"]) assert.equal(parse(path), null, path);
});
