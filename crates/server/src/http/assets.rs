//! The browser front end, embedded in the binary: one HTML page for every
//! route of the app, and its ES modules, translations, style and icon.

use axum::extract::Path;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

/// The app's page: the script draws the route.
pub const INDEX_HTML: &str = include_str!("../../static/index.html");

/// Every file under `static/` but the page, by its path below `/static/`.
/// A test checks that no file of the folder is missing here.
const FILES: &[(&str, &str)] = &[
    ("app.js", include_str!("../../static/app.js")),
    ("i18n.js", include_str!("../../static/i18n.js")),
    ("style.css", include_str!("../../static/style.css")),
    ("favicon.svg", include_str!("../../static/favicon.svg")),
    ("sw.js", include_str!("../../static/sw.js")),
    ("lang/en.js", include_str!("../../static/lang/en.js")),
    ("lang/pl.js", include_str!("../../static/lang/pl.js")),
    ("lang/fr.js", include_str!("../../static/lang/fr.js")),
    ("js/api.js", include_str!("../../static/js/api.js")),
    ("js/account.js", include_str!("../../static/js/account.js")),
    ("js/players.js", include_str!("../../static/js/players.js")),
    ("js/clock.js", include_str!("../../static/js/clock.js")),
    (
        "js/countdown.js",
        include_str!("../../static/js/countdown.js"),
    ),
    ("js/notify.js", include_str!("../../static/js/notify.js")),
    (
        "js/pages/learn.js",
        include_str!("../../static/js/pages/learn.js"),
    ),
    (
        "js/pages/puzzles.js",
        include_str!("../../static/js/pages/puzzles.js"),
    ),
    (
        "learn/ringo.json",
        include_str!("../../static/learn/ringo.json"),
    ),
    (
        "learn/urgammon.json",
        include_str!("../../static/learn/urgammon.json"),
    ),
    (
        "learn/terms.json",
        include_str!("../../static/learn/terms.json"),
    ),
    (
        "learn/strategy.json",
        include_str!("../../static/learn/strategy.json"),
    ),
    (
        "js/pages/strategy.js",
        include_str!("../../static/js/pages/strategy.js"),
    ),
    (
        "js/glossary.js",
        include_str!("../../static/js/glossary.js"),
    ),
    (
        "js/pages/history.js",
        include_str!("../../static/js/pages/history.js"),
    ),
    (
        "js/pages/glossary.js",
        include_str!("../../static/js/pages/glossary.js"),
    ),
    (
        "js/panels/offers.js",
        include_str!("../../static/js/panels/offers.js"),
    ),
    (
        "js/panels/chat.js",
        include_str!("../../static/js/panels/chat.js"),
    ),
    (
        "js/pages/lobby.js",
        include_str!("../../static/js/pages/lobby.js"),
    ),
    (
        "js/passkeys.js",
        include_str!("../../static/js/passkeys.js"),
    ),
    (
        "js/pages/account.js",
        include_str!("../../static/js/pages/account.js"),
    ),
    (
        "js/pages/profile.js",
        include_str!("../../static/js/pages/profile.js"),
    ),
    ("js/dom.js", include_str!("../../static/js/dom.js")),
    ("js/log.js", include_str!("../../static/js/log.js")),
    ("js/games.js", include_str!("../../static/js/games.js")),
    (
        "js/gamefields.js",
        include_str!("../../static/js/gamefields.js"),
    ),
    ("js/socket.js", include_str!("../../static/js/socket.js")),
    ("js/prefs.js", include_str!("../../static/js/prefs.js")),
    ("js/router.js", include_str!("../../static/js/router.js")),
    (
        "js/settings.js",
        include_str!("../../static/js/settings.js"),
    ),
    ("js/sound.js", include_str!("../../static/js/sound.js")),
    (
        "js/boards/arrows.js",
        include_str!("../../static/js/boards/arrows.js"),
    ),
    (
        "js/boards/keys.js",
        include_str!("../../static/js/boards/keys.js"),
    ),
    (
        "js/boards/ringo.js",
        include_str!("../../static/js/boards/ringo.js"),
    ),
    (
        "js/boards/urgammon.js",
        include_str!("../../static/js/boards/urgammon.js"),
    ),
    (
        "js/panels/common.js",
        include_str!("../../static/js/panels/common.js"),
    ),
    (
        "js/panels/ringo.js",
        include_str!("../../static/js/panels/ringo.js"),
    ),
    (
        "js/panels/urgammon.js",
        include_str!("../../static/js/panels/urgammon.js"),
    ),
    (
        "js/pages/analysis.js",
        include_str!("../../static/js/pages/analysis.js"),
    ),
    (
        "js/pages/game.js",
        include_str!("../../static/js/pages/game.js"),
    ),
    (
        "js/pages/list.js",
        include_str!("../../static/js/pages/list.js"),
    ),
    (
        "js/pages/newgame.js",
        include_str!("../../static/js/pages/newgame.js"),
    ),
    (
        "js/pages/watch.js",
        include_str!("../../static/js/pages/watch.js"),
    ),
    (
        "js/pages/tournaments.js",
        include_str!("../../static/js/pages/tournaments.js"),
    ),
    (
        "js/pages/players.js",
        include_str!("../../static/js/pages/players.js"),
    ),
    ("js/nav.js", include_str!("../../static/js/nav.js")),
    ("js/site.js", include_str!("../../static/js/site.js")),
    (
        "js/pages/mod.js",
        include_str!("../../static/js/pages/mod.js"),
    ),
    (
        "js/pages/home.js",
        include_str!("../../static/js/pages/home.js"),
    ),
    (
        "js/pages/lab.js",
        include_str!("../../static/js/pages/lab.js"),
    ),
    (
        "js/pages/notfound.js",
        include_str!("../../static/js/pages/notfound.js"),
    ),
    (
        "js/pages/replay.js",
        include_str!("../../static/js/pages/replay.js"),
    ),
    (
        "js/pages/review.js",
        include_str!("../../static/js/pages/review.js"),
    ),
    (
        "js/pages/rules.js",
        include_str!("../../static/js/pages/rules.js"),
    ),
];

/// The app's page; the script draws the route.
pub async fn page(headers: HeaderMap) -> Response {
    validated(&headers, "text/html; charset=utf-8", INDEX_HTML)
}

/// A strong validator of a body built into the binary: FNV-1a of its bytes,
/// in quotes. Every instance of one build gives the same tag, so a copy a
/// browser holds stays good behind a load balancer, and a new build that
/// changes the file changes the tag.
fn etag(body: &str) -> String {
    let hash = body.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("\"{hash:016x}\"")
}

/// The ETag of a body built into the binary, worked out once per body (the
/// page, every static file, the lab's answer) the first time it is asked
/// for, rather than on every request: a page load asks for some thirty
/// files. The bodies are `'static`, so their address and length name them.
fn tag_of(body: &'static str) -> String {
    static TAGS: std::sync::OnceLock<
        std::sync::Mutex<std::collections::HashMap<(usize, usize), String>>,
    > = std::sync::OnceLock::new();
    let key = (body.as_ptr() as usize, body.len());
    let tags = TAGS.get_or_init(Default::default);
    if let Some(tag) = tags.lock().ok().and_then(|t| t.get(&key).cloned()) {
        return tag;
    }
    let tag = etag(body);
    if let Ok(mut t) = tags.lock() {
        t.insert(key, tag.clone());
    }
    tag
}

/// Whether an `If-None-Match` header names `tag` (a list of tags, weak ones
/// compared by their value, or `*`), as RFC 9110 compares them for a GET.
fn holds(headers: &HeaderMap, tag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim())
        .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == tag)
}

/// A body built into the binary, with its ETag and `Cache-Control:
/// no-cache` (the browser asks again each time, since a new build may have
/// changed it): a browser that already holds this version gets `304 Not
/// Modified` and no body. Until 2026-11-27 every page load fetched the
/// whole front end again (254 kB), since no-cache without a validator
/// leaves a browser nothing to ask with.
pub fn validated(headers: &HeaderMap, content_type: &'static str, body: &'static str) -> Response {
    let tag = tag_of(body);
    let cache = [
        (header::CACHE_CONTROL, "no-cache".to_string()),
        (header::ETAG, tag.clone()),
    ];
    if holds(headers, &tag) {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (
        [(header::CONTENT_TYPE, content_type.to_string())],
        cache,
        body,
    )
        .into_response()
}

/// The content type of a static file, by its extension.
fn mime(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

/// One of the embedded static files.
pub async fn static_file(Path(path): Path<String>, headers: HeaderMap) -> Response {
    let Some((_, body)) = FILES.iter().find(|(p, _)| *p == path) else {
        return not_found().await.into_response();
    };
    validated(&headers, mime(&path), body)
}

/// The service worker, at the site's root so that it serves every page
/// (it shows Web Push notifications with every tab closed).
pub async fn service_worker(headers: HeaderMap) -> Response {
    static_file(Path("sw.js".to_string()), headers).await
}

/// The icon, also at the address browsers try by themselves.
pub async fn favicon(headers: HeaderMap) -> Response {
    static_file(Path("favicon.svg".to_string()), headers).await
}

/// Any unknown path: the edge makes it a JSON error under `/api/` and the
/// app's page (which shows its own translated "not found") elsewhere.
pub async fn not_found() -> StatusCode {
    StatusCode::NOT_FOUND
}

#[cfg(test)]
mod tests {
    use super::FILES;

    /// Every file of `static/` is embedded (a new module that is not listed
    /// would fail to load in the browser).
    #[test]
    fn every_static_file_is_embedded() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
        let mut stack = vec![root.clone()];
        let mut found = vec![];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    let rel = path
                        .strip_prefix(&root)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/");
                    if rel != "index.html" {
                        found.push(rel);
                    }
                }
            }
        }
        for f in &found {
            assert!(
                FILES.iter().any(|(p, _)| p == f),
                "static/{f} is not embedded"
            );
        }
        assert_eq!(found.len(), FILES.len());
    }
}
