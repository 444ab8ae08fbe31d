// The table's small DOM helpers: h() is the page's (util.js), a signed number is the table's own.
export { h } from "../util.js";

/** A signed number in the page's digits: "+20", "-40", "0". */
export function signed(value, num) {
  return value > 0 ? `+${num(value)}` : num(value);
}
