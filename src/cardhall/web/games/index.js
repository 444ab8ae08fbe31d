// Each game's table module, by game name: games/<name>.js (exporting `<name>`), which the server sends
// from the game's folder (its web.js). The names come from the server's game list (GET /api/games), so
// no list of games is kept here; a game without a module of its own, or one that fails to load, gets the
// shared table (base.js).
import { base } from "./base.js";
import { api } from "../util.js";

const { games } = await api("GET", "/api/games");
const loaded = await Promise.all(
  games.map(({ name }) =>
    import(`./${name}.js`).then(
      (module) => [name, module[name] || base],
      () => [name, base],
    ),
  ),
);
const GAMES = Object.fromEntries(loaded);

export function gameModule(gameString) {
  return GAMES[(gameString || "").split("(")[0]] || base;
}
