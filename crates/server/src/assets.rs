//! The browser front end, embedded in the binary: one HTML page for every
//! route of the app, and its script, translations and style.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};

const INDEX_HTML: &str = include_str!("../static/index.html");
const APP_JS: &str = include_str!("../static/app.js");
const I18N_JS: &str = include_str!("../static/i18n.js");
const STYLE_CSS: &str = include_str!("../static/style.css");

/// The app's page; the script draws the route.
pub async fn page() -> Html<&'static str> {
    Html(INDEX_HTML)
}

/// One of the embedded static files.
pub async fn static_file(Path(file): Path<String>) -> Response {
    let (body, mime) = match file.as_str() {
        "app.js" => (APP_JS, "text/javascript; charset=utf-8"),
        "i18n.js" => (I18N_JS, "text/javascript; charset=utf-8"),
        "style.css" => (STYLE_CSS, "text/css; charset=utf-8"),
        _ => return not_found().await.into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, mime),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// Any unknown path: the edge makes it a JSON error under `/api/` and an
/// HTML page elsewhere.
pub async fn not_found() -> StatusCode {
    StatusCode::NOT_FOUND
}
