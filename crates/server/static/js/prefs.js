// What the player chose and the browser remembers: sounds, board flip.
export const prefs = {
  get sound() { return localStorage.getItem("agon-sound") !== "off"; },
  set sound(on) { localStorage.setItem("agon-sound", on ? "on" : "off"); },
  flipped(id) { return localStorage.getItem("agon-flip-" + id) === "1"; },
  setFlipped(id, on) { localStorage.setItem("agon-flip-" + id, on ? "1" : "0"); },
};
