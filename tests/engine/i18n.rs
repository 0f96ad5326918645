//! The texts of the interface: complete in both languages, and the composed messages.

use shashki::i18n::{
    Lang, Text, countdown_text, outcome_text, player_name, repetition_text, ru_plural,
    side_to_move, tr, variant_name,
};
use shashki::rules::game::{Countdown, WinReason};
use shashki::rules::{Color, DrawRule, Outcome, Variant};
use shashki::store::{AnimationSpeed, BoardTheme, ColourChoice, GraphicsQuality, OpponentChoice};

fn has_cyrillic(s: &str) -> bool {
    s.chars().any(|c| ('\u{400}'..='\u{4ff}').contains(&c))
}

const DRAW_RULES: [DrawRule; 7] = [
    DrawRule::Agreement,
    DrawRule::Repetition,
    DrawRule::ThreeKingsVsOne,
    DrawRule::KingsOnly,
    DrawRule::BalanceUnchanged,
    DrawRule::LongDiagonal,
    DrawRule::SmallEnding,
];

/// Every outcome of both variants.
fn outcomes() -> Vec<(Outcome, Variant)> {
    let mut all = Vec::new();
    for variant in [Variant::Russian, Variant::Giveaway] {
        for winner in [Color::White, Color::Black] {
            for reason in [
                WinReason::NoPieces,
                WinReason::NoMoves,
                WinReason::Resignation,
            ] {
                all.push((Outcome::Win { winner, reason }, variant));
            }
        }
        for rule in DRAW_RULES {
            all.push((Outcome::Draw(rule), variant));
        }
    }
    all
}

#[test]
fn every_text_exists_in_both_languages() {
    assert!(Text::ALL.len() > 100);
    for &text in Text::ALL {
        let en = tr(Lang::En, text);
        let ru = tr(Lang::Ru, text);
        assert!(!en.trim().is_empty(), "{text:?} English");
        assert!(!ru.trim().is_empty(), "{text:?} Russian");
        assert!(has_cyrillic(ru), "{text:?} Russian has no Cyrillic: {ru}");
        assert_eq!(Lang::Ru.tr(text), ru);
    }
}

#[test]
fn setting_labels_are_texts() {
    let labels = AnimationSpeed::ALL
        .iter()
        .map(|s| s.label())
        .chain(BoardTheme::ALL.iter().map(|t| t.label()))
        .chain(ColourChoice::ALL.iter().map(|c| c.label()))
        .chain(GraphicsQuality::ALL.iter().map(|q| q.label()))
        .chain(OpponentChoice::ALL.iter().map(|o| o.label()));
    for label in labels {
        assert!(has_cyrillic(tr(Lang::Ru, label)));
    }
    assert_eq!(Lang::Ru.native_name(), "Русский");
}

#[test]
fn result_banners() {
    let black_wins = Outcome::Win {
        winner: Color::Black,
        reason: WinReason::NoMoves,
    };
    assert_eq!(
        outcome_text(Lang::En, black_wins, Variant::Russian),
        "White has no moves: Black wins"
    );
    assert_eq!(
        outcome_text(Lang::Ru, black_wins, Variant::Russian),
        "У белых нет ходов: победа чёрных"
    );
    let repetition = Outcome::Draw(DrawRule::Repetition);
    assert_eq!(
        outcome_text(Lang::En, repetition, Variant::Russian),
        "Draw by threefold repetition (7.2.3)"
    );
    let gave_away = Outcome::Win {
        winner: Color::White,
        reason: WinReason::NoPieces,
    };
    assert_eq!(
        outcome_text(Lang::En, gave_away, Variant::Giveaway),
        "поддавки: White gave away all pieces and wins"
    );
    assert_eq!(
        outcome_text(Lang::Ru, gave_away, Variant::Giveaway),
        "Поддавки: белые отдали все шашки и победили"
    );
    for (outcome, variant) in outcomes() {
        let en = outcome_text(Lang::En, outcome, variant);
        let ru = outcome_text(Lang::Ru, outcome, variant);
        assert!(has_cyrillic(&ru), "{ru}");
        assert_ne!(en, ru);
        if let Outcome::Draw(rule) = outcome {
            assert!(en.contains(rule.number()) && ru.contains(rule.number()));
        }
    }
}

#[test]
fn draw_countdowns() {
    let c = Countdown {
        rule: DrawRule::KingsOnly,
        plies_left: 18,
    };
    assert_eq!(
        countdown_text(Lang::En, &c),
        "15 king-only moves: 9 left (7.2.5)"
    );
    assert_eq!(
        countdown_text(Lang::Ru, &c),
        "15 ходов только дамками: осталось 9 ходов (7.2.5)"
    );
    let one = Countdown {
        rule: DrawRule::SmallEnding,
        plies_left: 1,
    };
    assert!(countdown_text(Lang::Ru, &one).contains("остался 1 ход ("));
    for rule in DRAW_RULES {
        let c = Countdown {
            rule,
            plies_left: 4,
        };
        assert!(countdown_text(Lang::Ru, &c).contains("2 хода"));
        assert!(countdown_text(Lang::En, &c).contains(rule.number()));
    }
    assert!(repetition_text(Lang::Ru, 2).contains("2 раза"));
}

#[test]
fn russian_plural_forms() {
    let forms: Vec<&str> = [0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111]
        .iter()
        .map(|&n| ru_plural(n, "ход", "хода", "ходов"))
        .collect();
    assert_eq!(
        forms,
        [
            "ходов",
            "ход",
            "хода",
            "хода",
            "ходов",
            "ходов",
            "ходов",
            "ходов",
            "ход",
            "хода",
            "ходов",
            "ход",
            "ходов"
        ]
    );
}

#[test]
fn other_composed_texts() {
    assert_eq!(side_to_move(Lang::En, Color::White), "White to move");
    assert_eq!(side_to_move(Lang::Ru, Color::Black), "Ход чёрных");
    assert_eq!(player_name(Lang::En, Some(5)), "Computer, level 5");
    assert_eq!(player_name(Lang::Ru, None), "Человек");
    assert_eq!(variant_name(Lang::Ru, Variant::Russian), "Русские шашки");
}

#[test]
fn system_language_follows_the_locale() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    };
    assert_eq!(Lang::from_locale_vars(env(&[])), Lang::En);
    assert_eq!(
        Lang::from_locale_vars(env(&[("LANG", "ru_RU.UTF-8")])),
        Lang::Ru
    );
    assert_eq!(
        Lang::from_locale_vars(env(&[("LANG", "ru_RU.UTF-8"), ("LC_ALL", "en_GB.UTF-8")])),
        Lang::En
    );
    assert_eq!(
        Lang::from_locale_vars(env(&[("LC_ALL", ""), ("LC_MESSAGES", "ru"), ("LANG", "C")])),
        Lang::Ru
    );
    assert_eq!(Lang::from_locale("C.UTF-8"), Lang::En);
    assert_eq!(Lang::from_locale("r"), Lang::En);
}
