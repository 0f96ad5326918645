//! Perft node counts from data files (`tests/data/*.perft`), read by one generic test.

use shashki::rules::Position;
use std::path::Path;

struct Case {
    fen: String,
    depth: u32,
    nodes: u64,
    slow: bool,
}

fn load(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).expect("perft data file");
    let mut fen = String::new();
    let mut cases = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        if let Some(f) = line.strip_prefix("fen ") {
            fen = f.to_string();
            continue;
        }
        let parts: Vec<&str> = line.split_whitespace().collect();
        cases.push(Case {
            fen: fen.clone(),
            depth: parts[0].parse().expect("depth"),
            nodes: parts[1].parse().expect("nodes"),
            slow: parts.get(2) == Some(&"slow"),
        });
    }
    cases
}

#[test]
fn perft_counts_match_published_data() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).expect("tests/data") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("perft") {
            continue;
        }
        for case in load(&path) {
            // Debug builds are slow: depth 8 and up run only in release (benchmark).
            if case.slow || (cfg!(debug_assertions) && case.nodes > 200_000) {
                continue;
            }
            let pos = Position::from_fen(&case.fen).expect("valid FEN");
            assert_eq!(
                pos.perft(case.depth),
                case.nodes,
                "{} depth {}",
                case.fen,
                case.depth
            );
            checked += 1;
        }
    }
    assert!(checked >= 7, "only {checked} perft cases ran");
}
