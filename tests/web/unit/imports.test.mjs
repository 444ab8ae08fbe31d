// The page's modules import one another without a circle (issue 48: dialogs.js -> profile.js -> lobby.js
// -> dialogs.js was one): what a module needs is below it, never above.
import test from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { cycles, importGraph, importsOf } from "./graph.mjs";

const ROOT = fileURLToPath(new URL("../../../src/cardhall/web/", import.meta.url));

test("the page's modules import one another without a circle", () => {
  const graph = importGraph(ROOT);
  assert.ok(Object.keys(graph).length > 20, "the page's modules are found");
  assert.deepEqual(graph["dialogs.js"], ["profile.js", "replay.js", "router.js", "rules.js"], "dynamic imports are edges");
  assert.deepEqual(cycles(graph), []);
});

test("a circle is found, through a dynamic import too", () => {
  assert.deepEqual(cycles({ "a.js": ["b.js"], "b.js": ["c.js"], "c.js": ["a.js"] }), [["a.js", "b.js", "c.js", "a.js"]]);
  assert.deepEqual(cycles({ "a.js": ["a.js"] }), [["a.js", "a.js"]]);
  assert.deepEqual(cycles({ "a.js": ["b.js", "c.js"], "b.js": ["c.js"], "c.js": [] }), []);
  const source = 'import { x } from "./b.js";\nexport { y } from "./sub/c.js";\nconst m = () => import("../d.js");\n';
  assert.deepEqual(importsOf(source, "/web/sub/a.js", "/web"), ["d.js", "sub/b.js", "sub/sub/c.js"]);
});

test("imports named in comments or by a computed name are no edges", () => {
  const source = '// import { x } from "./b.js";\n/* import("./c.js") */\nimport(`./${name}.js`);\nconst s = "http://x";\n';
  assert.deepEqual(importsOf(source, "/web/a.js", "/web"), []);
});
