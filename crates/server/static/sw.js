// Agon's service worker: it shows a Web Push notification (the server
// encrypts each one for this browser; the push service reads nothing) and
// opens the game when the notification is clicked. A push that comes while
// a tab of the game is in front is not shown twice: the page says it.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = { title: "Agon", body: event.data?.text() || "" }; }
  const url = typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/";
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const showing = windows.some((w) => w.focused && new URL(w.url).pathname === url);
    if (showing) return;
    await self.registration.showNotification(String(data.title || "Agon"), {
      body: String(data.body || ""),
      tag: String(data.tag || "agon"),
      data: { url },
      icon: "/favicon.ico",
    });
  })());
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data?.url || "/";
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((w) => new URL(w.url).pathname === url);
    if (open) return open.focus();
    return self.clients.openWindow(url);
  })());
});
