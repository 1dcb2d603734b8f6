// Move, capture and low-time sounds, made with Web Audio (no files), when not muted.
import { prefs } from "./prefs.js";

let ctx = null;

function tone(freq, ms, gain) {
  try {
    ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
    const osc = ctx.createOscillator(), amp = ctx.createGain();
    osc.frequency.value = freq;
    amp.gain.setValueAtTime(gain, ctx.currentTime);
    amp.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + ms / 1000);
    osc.connect(amp).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + ms / 1000);
  } catch (e) {
    // No audio here: silence is fine.
  }
}

/** A soft click for a move, a lower knock for a capture, two high notes
 *  when one's clock runs low. */
export function playSound(kind) {
  if (!prefs.sound) return;
  // What the tests read: sounds played, by kind (none while muted).
  window.agonSounds = [...(window.agonSounds || []), kind];
  if (kind === "capture") { tone(180, 180, 0.2); tone(120, 220, 0.15); } else if (kind === "low-time") { tone(880, 120, 0.1); tone(660, 160, 0.1); } else tone(520, 90, 0.08);
}
