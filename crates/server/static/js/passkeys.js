// Passkeys in the browser: WebAuthn's own JSON both ways
// (`PublicKeyCredential.parseCreationOptionsFromJSON`, `toJSON()`), so the
// page never handles a key.
import { api } from "./api.js";

/** Whether this browser can make and use passkeys. */
export const passkeysWork = () => typeof window.PublicKeyCredential === "function"
  && typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function";

/** Adds a passkey to the signed-in account. */
export async function addPasskey() {
  const options = await api("POST", "/api/account/passkeys/options", {});
  const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
  return api("POST", "/api/account/passkeys", credential.toJSON());
}

/** Signs in with a passkey this browser holds (no name to type). */
export async function signInWithPasskey() {
  const options = await api("POST", "/api/account/passkey-login/options", {});
  const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
  return api("POST", "/api/account/passkey-login", credential.toJSON());
}
