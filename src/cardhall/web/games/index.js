// Each game's table module by game name; a game without one gets the shared table (base.js).
import { base } from "./base.js";
import { gin } from "./gin.js";
import { hearts } from "./hearts.js";
import { hokm } from "./hokm.js";
import { kierki } from "./kierki.js";
import { svara } from "./svara.js";

const GAMES = { gin, hearts, hokm, kierki, svara };

export function gameModule(gameString) {
  return GAMES[(gameString || "").split("(")[0]] || base;
}
