//! The lessons shipped in `static/learn/`: every lesson's position is one
//! the rules engine takes, every move its task accepts is legal there, and
//! every text is in the three languages. A lesson that a rules change broke
//! fails here, before a player meets it.

mod common;

use serde_json::Value;

fn lessons(game: &str) -> Vec<Value> {
    let path = format!("{}/static/learn/{game}.json", env!("CARGO_MANIFEST_DIR"));
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(data["game"], game);
    data["lessons"].as_array().unwrap().clone()
}

#[tokio::test]
async fn every_lesson_is_a_legal_task_in_three_languages() {
    let app = agon_server::app(common::state_on(
        agon_server::store::Store::in_memory().unwrap(),
    ));
    for game in ["ringo", "urgammon"] {
        let list = lessons(game);
        assert!(list.len() >= 10, "{game}: {} lessons", list.len());
        let mut ids = std::collections::HashSet::new();
        for l in &list {
            let id = l["id"].as_str().unwrap();
            assert!(ids.insert(id), "{game}: lesson {id} twice");
            for key in ["title", "task", "hint", "wrong", "done"] {
                for lang in ["en", "pl", "fr"] {
                    let text = l[key][lang].as_str().unwrap_or_default();
                    assert!(!text.is_empty(), "{game}/{id}: no {key} in {lang}");
                }
                assert_ne!(
                    l[key]["pl"], l[key]["en"],
                    "{game}/{id}: {key} in Polish is the English"
                );
            }
            let (legal, _) = common::analysed_legal(&app, game, l).await;
            let accept = l["accept"].as_array().unwrap();
            assert!(!accept.is_empty(), "{game}/{id}: accepts nothing");
            for m in accept {
                let m = m.as_str().unwrap();
                assert!(
                    legal.iter().any(|x| x == m),
                    "{game}/{id}: {m} is not legal ({legal:?})"
                );
            }
        }
    }
}
