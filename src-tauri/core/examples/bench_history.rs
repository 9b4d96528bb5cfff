//! Writes a made-up history for the app's figures at the sizes no import is quick enough for
//! (a hundred thousand conversations, two million messages), through the same public `Store`
//! API and generator as the store's own figures (`benches/support/history.rs`), then indexes
//! it for search as the app would have after each turn.
//!
//!   cargo run --release -p ponder-core --example bench_history -- PATH CONVERSATIONS TURNS
//!
//! The same arguments write the same history. The bench writes it under a temporary name and
//! keeps it, renamed, between runs: a history cut short is never taken for a whole one.

#[path = "../benches/support/history.rs"]
#[allow(dead_code)]
mod history;

use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, conversations, turns] = &args[..] else {
        eprintln!("usage: bench_history PATH CONVERSATIONS TURNS");
        std::process::exit(2);
    };
    let path = PathBuf::from(path);
    let (Ok(conversations), Ok(turns)) = (conversations.parse(), turns.parse()) else {
        eprintln!("CONVERSATIONS and TURNS are numbers");
        std::process::exit(2);
    };
    let built = history::build(&path, conversations, turns, 0, 11, true);
    let started = Instant::now();
    let indexed = built.store.index_pending().expect("indexing the history");
    println!(
        "wrote {} conversations of {turns} turns in {:.0} s, indexed {indexed} answers in {:.0} s",
        built.conversations.len(),
        built.seconds,
        started.elapsed().as_secs_f64()
    );
}
