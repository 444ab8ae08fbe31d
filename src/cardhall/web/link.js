// The page's one websocket connection (docs/protocol.md): it says hello once open (with the guest's
// token; an account's browser leans on its session cookie), sends what waited while it was down, and
// after a drop opens again, rejoining the table it was attached to (`wanted`).
//
// Decisions: a server that died drops every page at once, so each page comes back a little apart (its
// wait a quarter either way of the schedule's), and the waits double from half a second up to 4 s at
// most (issue 47: the next move after a failover must reach people within 5 s). The schedule is pure
// (nextRetry, jittered) so that it is tested outside a browser (tests/web_unit/).
//
// Its hello asks for deltas (docs/protocol.md, `update`'s `delta` and `grown`): an update carries only
// what its observation changed since the connection's previous frame of the table, fewer bytes on a
// phone's data plan and less for the server to compress. The link puts the observation back together
// (`whole`, pure) before any frame reaches the page, so the page sees every frame whole, as it was.
// A server that does not know deltas refuses the key: the hello goes again without it.
import { store } from "./util.js";

export const FIRST_RETRY_MS = 500; // the wait after the first drop (and after every connection that worked)
export const RETRY_MAX_MS = 4000; // the longest wait between two tries to connect again

/** The wait after the next drop, `retry` being this one's: twice as long, at most RETRY_MAX_MS. */
export function nextRetry(retry) {
  return Math.min(retry * 2, RETRY_MAX_MS);
}

/** A wait of `retry` ms, a quarter either way (`random` in [0, 1), as Math.random gives). */
export function jittered(retry, random = Math.random()) {
  return retry * (0.75 + random / 2);
}

/** `frame` whole: an `update` whose observation is what changed (`delta`: the keys gone; `grown`: the
 * lists whose new items alone it holds) gets the rest back from the table's previous frame (`shown`: a
 * Map, table id -> the observation it brought last, kept up to date here), in that one's order. */
export function whole(frame, shown) {
  if (frame.type !== "table" && frame.type !== "update") return frame;
  if (frame.type === "update" && frame.delta) {
    const base = shown.get(frame.table) || {};
    const gone = new Set(frame.delta);
    const grown = new Set(frame.grown || []);
    const observation = {};
    for (const key of Object.keys(base)) if (!gone.has(key)) observation[key] = base[key];
    for (const [key, value] of Object.entries(frame.observation || {})) {
      observation[key] = grown.has(key) ? [...(base[key] || []), ...value] : value;
    }
    frame = { ...frame, observation };
    delete frame.delta;
    delete frame.grown;
  }
  if ("observation" in frame) shown.set(frame.table, frame.observation);
  return frame;
}

export class Link {
  constructor(onFrame, onStatus) {
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.ws = null;
    this.ready = false;
    this.queue = [];
    this.retry = FIRST_RETRY_MS;
    this.wanted = null; // () => the message that (re)attaches this connection to its table
    // Deltas (issue 48). The stand-in banner that tests/web/test_web.py's out-of-time test missed with
    // them was drawn all along (the frames rebuilt are the whole ones at every step of that scenario:
    // tests/server/host/test_host_deltas_standin.py): the test's wait lost its race with the redraws.
    this.deltas = true;
  }

  open() {
    this.onStatus(this.ws ? "offline" : "connecting");
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    this.ws = ws;
    const shown = new Map(); // (this connection's: a new one starts from whole frames)
    const hello = (deltas) => JSON.stringify({ type: "hello", token: store.get("token"), ...(deltas ? { deltas } : {}), id: "hello" });
    ws.onopen = () => ws.send(hello(this.deltas));
    ws.onmessage = (message) => {
      const frame = whole(JSON.parse(message.data), shown);
      if (!this.ready && frame.type === "error" && frame.code === "bad_message" && String(frame.message).includes("deltas")) {
        ws.send(hello(false)); // an older server (a hall being upgraded) knows no deltas: whole frames
        return;
      }
      if (frame.type === "welcome") {
        this.ready = true;
        this.retry = FIRST_RETRY_MS;
        this.onStatus("online");
        if (this.wanted) ws.send(JSON.stringify(this.wanted()));
        for (const m of this.queue.splice(0)) ws.send(JSON.stringify(m));
      }
      this.onFrame(frame);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ready = false;
      this.onStatus("offline");
      setTimeout(() => this.open(), jittered(this.retry));
      this.retry = nextRetry(this.retry);
    };
  }

  send(message) {
    if (this.ready) this.ws.send(JSON.stringify(message));
    else this.queue.push(message);
  }
}
