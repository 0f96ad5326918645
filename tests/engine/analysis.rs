//! Game analysis and `annotate`: marks, the better move, and PDN that reads back.

use shashki::ai::analysis::{self, Mark};
use shashki::ai::{Ai, Limits};
use shashki::rules::Color;
use shashki::rules::pdn::read_pdn;
use std::sync::atomic::AtomicBool;

/// White hangs a man (g3-f4 lets e5 take it); Black takes it; the rest is quiet.
const BLUNDER: &str = r#"[Event "Analysis test"]
[Site "Minsk"]
[White "A"]
[Black "B"]
[Round "3"]
[SetUp "1"]
[FEN "W:Wa1,g3:Be5,b8"]

1. g3-f4 e5:g3 2. a1-b2 b8-a7 *
"#;

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        nodes: None,
        time: None,
        clock: None,
    }
}

#[test]
fn thresholds_follow_the_documented_win_chances() {
    assert_eq!(Mark::for_loss(0.05), None);
    assert_eq!(Mark::for_loss(0.10), Some(Mark::Inaccuracy));
    assert_eq!(Mark::for_loss(0.25), Some(Mark::Mistake));
    assert_eq!(Mark::for_loss(0.30), Some(Mark::Blunder));
    assert!((analysis::win_chance(0) - 0.5).abs() < 1e-9);
    assert!(analysis::win_chance(100) > 0.7 && analysis::win_chance(100) < 0.75);
    assert!(analysis::win_chance(30_000) > 0.999);
    assert_eq!(
        (
            Mark::Inaccuracy.nag(),
            Mark::Mistake.nag(),
            Mark::Blunder.nag()
        ),
        (6, 2, 4)
    );
}

#[test]
fn a_hung_man_is_a_blunder_with_the_better_move_shown() {
    let record = read_pdn(BLUNDER).remove(0).unwrap();
    let stop = AtomicBool::new(false);
    let mut progress = Vec::new();
    let a = analysis::analyse(
        &mut Ai::new(),
        &record.game,
        &depth(10),
        &stop,
        &mut |d, t| progress.push((d, t)),
    )
    .unwrap();
    assert_eq!(progress.last(), Some(&(5, 5)));
    assert_eq!(a.white_scores.len(), 5);
    assert_eq!(a.moves.len(), 4);
    let first = &a.moves[0];
    assert_eq!(first.mover, Color::White);
    assert_eq!(first.mark, Some(Mark::Blunder), "{a:?}");
    let better = first.best_line.first().expect("a better move").to_string();
    assert!(better == "a1-b2" || better == "g3-h4", "{better}");
    // Black's capture was forced: never marked.
    assert_eq!(a.moves[1].mark, None);
    assert!(a.white_scores[1] < -150, "{:?}", a.white_scores);
    let white = a.summary(Color::White);
    assert_eq!((white.moves, white.blunders), (2, 1));
    assert!(white.average_loss >= 15.0);
    assert_eq!(a.summary(Color::Black).blunders, 0);
}

#[test]
fn annotated_pdn_reads_back_with_its_tags_marks_and_variation() {
    let record = read_pdn(BLUNDER).remove(0).unwrap();
    let stop = AtomicBool::new(false);
    let a = analysis::analyse(
        &mut Ai::new(),
        &record.game,
        &depth(10),
        &stop,
        &mut |_, _| {},
    )
    .unwrap();
    let text = shashki::cli::annotated_pdn(&record, &a);
    assert!(text.contains("1. g3-f4 $4 {"), "{text}");
    assert!(
        text.contains("( 1. a1-b2") || text.contains("( 1. g3-h4"),
        "{text}"
    );
    assert!(text.contains("[Annotator \"shashki\"]"), "{text}");
    let back = read_pdn(&text).remove(0).unwrap();
    assert_eq!(back.game.moves(), record.game.moves());
    assert_eq!(back.game.start_position(), record.game.start_position());
    for tag in ["Event", "Site", "White", "Black", "Round"] {
        assert_eq!(back.tag(tag), record.tag(tag), "{tag}");
    }
}

#[test]
fn a_stopped_analysis_gives_nothing() {
    let record = read_pdn(BLUNDER).remove(0).unwrap();
    let stop = AtomicBool::new(true);
    assert!(
        analysis::analyse(
            &mut Ai::new(),
            &record.game,
            &depth(10),
            &stop,
            &mut |_, _| {}
        )
        .is_none()
    );
}
