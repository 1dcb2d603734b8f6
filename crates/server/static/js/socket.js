// One reconnecting WebSocket, the one every page keeps (the site's, a
// game's, the lobby's, an event's, a review's progress), as lila-ws's
// client keeps its: opened on an API path of this page's host and scheme,
// its messages read as JSON, opened again after a drop with a wait that
// doubles from half a second to eight, and closed for good when the page
// leaves. What a page does on each message, each opening and each drop is
// the page's; reconnecting is written once, here.

/** The first wait before opening again, and the longest, in ms. */
const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 8000;

/** Keeps a socket open on `path` (`/api/site/ws`, `/api/games/ID/ws`, …).
 *  `onMessage(msg)` is handed each message, parsed (one that is not JSON is
 *  dropped); `onOpen(ws)` runs at every opening (to say hello, to hold
 *  seeks again, to read what was missed while away: `first` says whether
 *  it is the first); `onDrop()` at every drop; `onSocket(ws)` when a socket
 *  is made, before it opens (a lag meter, a test's handle). Answers the
 *  handle: `socket` (the one open or opening, if any), `send(msg)` (sent as
 *  JSON when open; false otherwise), `reopen()` (a new socket at once: after
 *  a sign-in or a sign-out, so the server counts the right player) and
 *  `close()`. */
export function keepSocket(path, { onMessage, onOpen, onDrop, onSocket } = {}) {
  let ws = null;
  let retry = FIRST_RETRY_MS;
  let closed = false;
  let timer = null;
  let opened = false;
  const open = () => {
    timer = null;
    if (closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const sock = new WebSocket(`${proto}//${location.host}${path}`);
    ws = sock;
    onSocket?.(sock);
    sock.onopen = () => {
      retry = FIRST_RETRY_MS;
      const first = !opened;
      opened = true;
      onOpen?.(sock, first);
    };
    sock.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      onMessage?.(msg);
    };
    sock.onclose = () => {
      // A socket replaced (reopen) or closed for good says nothing more.
      if (ws !== sock || closed) return;
      ws = null;
      onDrop?.();
      timer = setTimeout(open, retry);
      retry = Math.min(retry * 2, LONGEST_RETRY_MS);
    };
  };
  open();
  return {
    get socket() { return ws; },
    send(msg) {
      if (!ws || ws.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(msg));
      return true;
    },
    reopen() {
      const old = ws;
      ws = null;
      if (old) { old.onclose = null; old.close(); }
      if (timer) clearTimeout(timer);
      retry = FIRST_RETRY_MS;
      open();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const old = ws;
      ws = null;
      if (old) { old.onclose = null; old.close(); }
    },
  };
}
