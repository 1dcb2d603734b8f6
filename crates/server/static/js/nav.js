// The site's menu: five groups (Play, Watch, Learn, Tools, Community). On a
// wide screen each group's button opens its list under it; on a phone the
// Menu button opens every group at once, as one column a thumb reaches.
// Escape closes what is open and gives the focus back to its button; a
// click elsewhere, or following a link, closes it too.

/** Closes every group's list (and, `all`, the phone's menu). */
function closeAll(all = true) {
  for (const b of document.querySelectorAll("#site-nav .group-toggle")) b.setAttribute("aria-expanded", "false");
  if (all) {
    document.getElementById("menu-button")?.setAttribute("aria-expanded", "false");
    document.getElementById("site-nav")?.classList.remove("open");
  }
}

/** Marks the link of the page shown (and its group) as the current one. */
export function markCurrent() {
  const path = location.pathname;
  for (const a of document.querySelectorAll("#site-nav a")) {
    const href = a.getAttribute("href").split("#")[0];
    const here = href === path || (href !== "/" && path.startsWith(href + "/"));
    if (here) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
  for (const g of document.querySelectorAll("#site-nav .group")) {
    g.classList.toggle("current", !!g.querySelector("a[aria-current]"));
  }
  closeAll();
}

/** Wires the menu's buttons and keys, once. */
export function startNav() {
  const menu = document.getElementById("menu-button");
  const nav = document.getElementById("site-nav");
  if (!menu || !nav) return;
  // Each page drawn: its link marked, the menu closed, and each group's
  // name given to its list (shown over it on a phone).
  document.addEventListener("agon-route", () => {
    markCurrent();
    for (const b of nav.querySelectorAll(".group-toggle")) {
      document.getElementById(b.getAttribute("aria-controls"))?.setAttribute("data-label", b.textContent);
    }
  });
  menu.addEventListener("click", () => {
    const open = menu.getAttribute("aria-expanded") !== "true";
    menu.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("open", open);
    if (open) nav.querySelector("a")?.focus();
  });
  for (const b of nav.querySelectorAll(".group-toggle")) {
    b.addEventListener("click", () => {
      const open = b.getAttribute("aria-expanded") !== "true";
      closeAll(false);
      b.setAttribute("aria-expanded", String(open));
      if (open) document.getElementById(b.getAttribute("aria-controls"))?.querySelector("a")?.focus();
    });
  }
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    const open = nav.querySelector(".group-toggle[aria-expanded=true]");
    if (open) { closeAll(false); open.focus(); return; }
    if (menu.getAttribute("aria-expanded") === "true") { closeAll(); menu.focus(); }
  });
  document.addEventListener("click", (e) => {
    if (!e.target.closest("#site-nav") && !e.target.closest("#menu-button")) closeAll();
  });
  // Focus leaving a group's list closes it (Tab walks on to the next group).
  nav.addEventListener("focusout", (e) => {
    const group = e.target.closest(".group");
    if (group && !group.contains(e.relatedTarget)) {
      group.querySelector(".group-toggle")?.setAttribute("aria-expanded", "false");
    }
  });
}
