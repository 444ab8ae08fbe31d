// Telling a person it is his turn where he looks: the tab's title (always), a short sound and a system
// notification when the tab is hidden (each off until he turns it on; the browser is asked for the
// notification permission once, when he turns notifications on). The choices are kept in localStorage.
import { t } from "./i18n.js";
import { store } from "./util.js";

const TITLE = "cardhall";

export function soundOn() {
  return store.get("sound") === "1";
}

export function notificationsOn() {
  return store.get("notify") === "1" && "Notification" in window && Notification.permission === "granted";
}

export function setSound(on) {
  if (on) store.set("sound", "1");
  else store.drop("sound");
}

/** Turn notifications on (asking the browser once) or off; whether they are on afterwards. */
export async function setNotifications(on) {
  if (!on || !("Notification" in window)) {
    store.drop("notify");
    return false;
  }
  if (Notification.permission === "default") await Notification.requestPermission();
  if (Notification.permission !== "granted") {
    store.drop("notify");
    return false;
  }
  store.set("notify", "1");
  return true;
}

let audio = null;

/** A short tone (`urgent`: higher, for the last seconds of the timer), if sound is on. */
export function beep(urgent = false) {
  if (!soundOn()) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = urgent ? 880 : 587;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch {
    /* no sound here: the title still says it */
  }
}

/** The page's title while a table shows: `turn` whether it is this person's turn there. */
export function title(turn, game) {
  document.title = turn ? `${t("title.your_turn")} · ${game} · ${TITLE}` : game ? `${game} · ${TITLE}` : TITLE;
}

/** It has just become this person's turn at `game`. */
export function yourTurn(game) {
  beep();
  if (document.hidden && notificationsOn()) {
    try {
      const note = new Notification(t("title.your_turn"), { body: t("notify.body", { game }), tag: "cardhall-turn" });
      note.onclick = () => {
        window.focus();
        note.close();
      };
    } catch {
      /* a browser that shows none from a page */
    }
  }
}
