// What the player chose and the browser remembers: sounds, moves animated,
// boards shown upside down by default, and each game's own flip. The first
// three follow a signed-in player's account (js/account.js).
export const prefs = {
  get sound() { return localStorage.getItem("agon-sound") !== "off"; },
  set sound(on) { localStorage.setItem("agon-sound", on ? "on" : "off"); },
  get animation() { return localStorage.getItem("agon-animation") !== "off"; },
  set animation(on) { localStorage.setItem("agon-animation", on ? "on" : "off"); },
  get flipDefault() { return localStorage.getItem("agon-flip-default") === "on"; },
  set flipDefault(on) { localStorage.setItem("agon-flip-default", on ? "on" : "off"); },
  /** A game's board upside down: its own choice, else the default. */
  flipped(id) {
    const own = localStorage.getItem("agon-flip-" + id);
    return own === null ? this.flipDefault : own === "1";
  },
  setFlipped(id, on) { localStorage.setItem("agon-flip-" + id, on ? "1" : "0"); },
};
