// The import graph of the page's modules (src/cardhall/web, every .js under it) and its cycles. An edge
// is a static import or export-from, or a dynamic import() of a string: a module loaded later still
// runs its imports then, and a circle through one is still a circle a reader has to hold in his head.
// (An import() of a computed name, as games/index.js's of a game's module, names no edge.)
import fs from "node:fs";
import path from "node:path";

const IMPORT = /\b(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']|\bimport\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** A source without its comments (block comments and whole-line ones: a "//" inside a string stays). */
function uncommented(source) {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

/** The modules a source imports, by their paths relative to `root`. */
export function importsOf(source, file, root) {
  const out = new Set();
  for (const m of uncommented(source).matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith(".")) continue;
    out.add(path.relative(root, path.resolve(path.dirname(file), spec)).split(path.sep).join("/"));
  }
  return [...out].sort();
}

/** {module: [modules it imports]} for every .js file under `root`. */
export function importGraph(root) {
  const graph = {};
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".js")) {
        const name = path.relative(root, file).split(path.sep).join("/");
        graph[name] = importsOf(fs.readFileSync(file, "utf8"), file, root);
      }
    }
  };
  walk(root);
  return graph;
}

/** The cycles a depth-first walk of `graph` meets (each a path a -> ... -> a): at least one when the
 * graph has a circle, none when it has none. */
export function cycles(graph) {
  const state = new Map(); // module -> "open" while on the path walked, "done" after
  const found = [];
  const visit = (node, trail) => {
    state.set(node, "open");
    for (const next of graph[node] ?? []) {
      if (state.get(next) === "open") found.push([...trail.slice(trail.indexOf(next)), next]);
      else if (!state.has(next)) visit(next, [...trail, next]);
    }
    state.set(node, "done");
  };
  for (const node of Object.keys(graph).sort()) if (!state.has(node)) visit(node, [node]);
  return found;
}
