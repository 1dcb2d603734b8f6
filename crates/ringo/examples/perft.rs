//! Prints perft counts: `cargo run --release -p ringo --example perft -- RULES DEPTH`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules: ringo::Rules = args.get(1).map_or("classic", |s| s).parse().unwrap();
    let depth: u32 = args.get(2).map_or("4", |s| s).parse().unwrap();
    let game = ringo::Game::new(rules);
    for d in 1..=depth {
        let t = std::time::Instant::now();
        let n = ringo::perft(&game, d);
        let s = t.elapsed().as_secs_f64();
        println!("{rules} depth {d}: {n} ({:.1} M/s)", n as f64 / s / 1e6);
    }
}
