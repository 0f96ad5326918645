//! The game panel (players, side to move, draw countdowns, buttons, the move list with
//! review) and the evaluation bar.

use super::{Windows, player_text};
use crate::ai::analysis::Mark;
use crate::ai::tablebase::Wdl;
use crate::game::ai::AiPlayer;
use crate::game::analysis::{Analysis, RequestHint};
use crate::game::animation::Animator;
use crate::game::review::{self, GameReview, ReviewCommand};
use crate::game::text::line_text;
use crate::game::text::move_rows;
use crate::game::view::FlipView;
use crate::game::view::quality::RendererInfo;
use crate::game::{AppState, GameCommand, Language, Rules};
use crate::i18n::{self, Text, tr};
use crate::rules::Color as Side;
use crate::rules::clock::clock_text;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use std::time::Duration;

#[allow(clippy::too_many_arguments)]
pub(super) fn game_panel(
    mut contexts: EguiContexts,
    language: Res<Language>,
    rules: Res<Rules>,
    ai: Res<AiPlayer>,
    analysis: Res<Analysis>,
    animator: Res<Animator>,
    state: Res<State<AppState>>,
    info: Res<RendererInfo>,
    mut windows: ResMut<Windows>,
    mut commands: MessageWriter<GameCommand>,
    mut flips: MessageWriter<FlipView>,
    mut hints: MessageWriter<RequestHint>,
    (review, mut reviews): (Res<GameReview>, MessageWriter<ReviewCommand>),
    (puzzles, mut puzzle_commands): (
        Res<crate::game::puzzles::Puzzles>,
        MessageWriter<crate::game::puzzles::PuzzleCommand>,
    ),
    (mut shown_ply, mut typing, mut typed): (
        Local<Option<usize>>,
        Local<String>,
        MessageWriter<crate::game::TypedMove>,
    ),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let lang = language.0;
    let t = |k| tr(lang, k);
    let game = &rules.game;
    // The list scrolls to the current move once when it changes, not on every frame.
    let scroll = shown_ply.replace(game.ply()) != Some(game.ply());
    let playing = *state.get() == AppState::Playing;
    if *state.get() == AppState::Editing {
        return Ok(());
    }
    egui::Window::new(t(Text::AppTitle))
        .id(egui::Id::new("game_panel"))
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0])
        .resizable(false)
        .collapsible(true)
        // A fixed width: a long line ("Looking for the best move…", a Russian label)
        // wraps instead of widening the panel for good.
        .default_width(290.0)
        .min_width(290.0)
        .max_width(290.0)
        .show(ctx, |ui| {
            ui.heading(i18n::variant_name(lang, game.variant()));
            if let Some(opening) = crate::rules::openings::book().name_of(game) {
                let name = match lang {
                    crate::i18n::Lang::En => &opening.name_en,
                    crate::i18n::Lang::Ru => &opening.name_ru,
                };
                ui.label(egui::RichText::new(name).italics());
            }
            // Before the first game starts (generation 0) nobody plays yet: the new-game
            // panel is where the players are chosen, so none are named here.
            // In a puzzle or an ending the board is an exercise, not a game between two.
            if puzzles.in_exercise() {
                let kind = if puzzles.ending.is_some() {
                    Text::Endings
                } else {
                    Text::Puzzles
                };
                ui.label(egui::RichText::new(t(kind)).strong());
            } else if rules.generation > 0 {
                ui.label(format!(
                    "{}: {}",
                    t(Text::White),
                    player_text(lang, rules.setup.white)
                ));
                ui.label(format!(
                    "{}: {}",
                    t(Text::Black),
                    player_text(lang, rules.setup.black)
                ));
            }
            if !puzzles.in_exercise() && playing {
                clocks(ui, lang, &rules, &mut commands);
            }
            ui.separator();
            match game.outcome() {
                Some(outcome) => {
                    ui.strong(i18n::outcome_text(lang, outcome, game.variant()));
                }
                None if !playing => {
                    ui.label(t(Text::ChooseGame));
                }
                None => {
                    ui.horizontal(|ui| {
                        ui.strong(i18n::side_to_move(lang, game.side_to_move()));
                        if ai.is_thinking() {
                            ui.add(egui::Spinner::new());
                            ui.label(t(Text::Thinking));
                        } else if analysis.is_busy() && !analysis.evaluate {
                            ui.add(egui::Spinner::new());
                            ui.label(t(Text::HintThinking));
                        } else if animator.is_busy() {
                            ui.label("…");
                        }
                    });
                }
            }
            for countdown in game.draw_countdowns() {
                ui.label(i18n::countdown_text(lang, &countdown));
            }
            if game.outcome().is_none() && game.repetitions() >= 2 {
                ui.label(i18n::repetition_text(lang, game.repetitions()));
            }
            if let Some(probe) = crate::game::tables::verdict(game) {
                ui.colored_label(
                    egui::Color32::from_rgb(170, 210, 150),
                    i18n::tablebase_text(lang, &probe, game.side_to_move()),
                );
            }
            if let Some((done, total)) = crate::game::tables::building() {
                ui.weak(i18n::tables_building_text(lang, done, total));
            }
            ui.separator();
            let live = playing && game.outcome().is_none() && !rules.in_review();
            ui.horizontal_wrapped(|ui| {
                if ui.button(t(Text::NewGame)).on_hover_text("N").clicked() {
                    windows.new_game = true;
                }
                if ui
                    .add_enabled(playing && game.ply() > 0, egui::Button::new(t(Text::Undo)))
                    .on_hover_text("U, Ctrl+Z")
                    .clicked()
                {
                    commands.write(GameCommand::Undo);
                }
                if ui
                    .add_enabled(playing && game.can_redo(), egui::Button::new(t(Text::Redo)))
                    .on_hover_text("Ctrl+Y")
                    .clicked()
                {
                    commands.write(GameCommand::Redo);
                }
                if ui.button(t(Text::Flip)).on_hover_text("F").clicked() {
                    flips.write(FlipView);
                }
                if ui
                    .add_enabled(
                        live && rules.human_to_move(),
                        egui::Button::new(t(Text::Hint)),
                    )
                    .on_hover_text("H")
                    .clicked()
                {
                    hints.write(RequestHint);
                }
                // A puzzle or an ending is left, not resigned or drawn.
                if puzzles.in_exercise() {
                    if ui.button(t(Text::PuzzleLeave)).clicked() {
                        puzzle_commands.write(crate::game::puzzles::PuzzleCommand::Leave);
                    }
                    return;
                }
                if ui
                    .add_enabled(live, egui::Button::new(t(Text::Resign)))
                    .clicked()
                {
                    windows.confirm_resign = true;
                }
                if ui
                    .add_enabled(live, egui::Button::new(t(Text::OfferDraw)))
                    .clicked()
                {
                    commands.write(GameCommand::OfferDraw);
                }
            });
            // The move field: a whole game can be played from the keyboard.
            ui.horizontal(|ui| {
                ui.label(t(Text::MoveField));
                let field = ui
                    .add_enabled(
                        live,
                        egui::TextEdit::singleline(&mut *typing)
                            .hint_text("c3-d4")
                            .desired_width(150.0),
                    )
                    .on_hover_text(t(Text::MoveFieldHover));
                if std::mem::take(&mut windows.focus_move) && live {
                    field.request_focus();
                }
                if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    let text = std::mem::take(&mut *typing);
                    if !text.trim().is_empty() {
                        typed.write(crate::game::TypedMove(text));
                    }
                    field.request_focus();
                }
            });
            ui.separator();
            ui.horizontal(|ui| {
                ui.label(t(Text::MoveList));
                let total = rules.total_plies();
                let ply = game.ply();
                let nav = |ui: &mut egui::Ui, label: &str, hover: Text, enabled: bool| {
                    ui.add_enabled(enabled, egui::Button::new(label).small())
                        .on_hover_text(t(hover))
                        .clicked()
                };
                if nav(ui, "⏮", Text::ReviewFirst, playing && ply > 0) {
                    commands.write(GameCommand::GoTo(0));
                }
                if nav(ui, "◀", Text::ReviewBack, playing && ply > 0) {
                    commands.write(GameCommand::StepBack);
                }
                if nav(ui, "▶", Text::ReviewForward, playing && ply < total) {
                    commands.write(GameCommand::StepForward);
                }
                if nav(ui, "⏭", Text::ReviewLast, playing && ply < total) {
                    commands.write(GameCommand::GoTo(total));
                }
            });
            if rules.in_review() {
                ui.horizontal_wrapped(|ui| {
                    ui.colored_label(egui::Color32::from_rgb(240, 200, 120), t(Text::Reviewing));
                    if rules.computer_side_to_move() && ui.button(t(Text::ContinueHere)).clicked() {
                        commands.write(GameCommand::ContinueHere);
                    }
                });
            }
            move_list(ui, &rules, &review, lang, scroll, &mut commands);
            review_section(ui, &rules, &review, lang, &mut commands, &mut reviews);
            if info.software {
                ui.small(format!("{}: {}", t(Text::SoftwareRenderer), info.adapter));
            }
        });
    Ok(())
}

/// The moves in pairs; the current one is marked and a click goes to any of them.
fn move_list(
    ui: &mut egui::Ui,
    rules: &Rules,
    review: &GameReview,
    lang: crate::i18n::Lang,
    scroll: bool,
    commands: &mut MessageWriter<GameCommand>,
) {
    let game = &rules.game;
    let mut all = game.moves().to_vec();
    all.extend(game.redo_moves().iter().rev());
    let black_first = game.start_position().side_to_move() == Side::Black;
    let current = game.ply();
    egui::ScrollArea::vertical()
        .max_height(240.0)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            if all.is_empty() {
                ui.weak(tr(lang, Text::NoMovesYet));
            }
            for (number, entries) in move_rows(&all, black_first) {
                ui.horizontal(|ui| {
                    ui.monospace(format!("{number:>3}."));
                    if black_first && number == 1 {
                        ui.monospace("…");
                    }
                    for (ply, mut text) in entries {
                        let here = ply == current;
                        let mark = review.move_before(ply).and_then(|r| r.mark);
                        if let Some(mark) = mark {
                            text.push_str(mark.glyph());
                        }
                        let mut label = egui::RichText::new(text).monospace();
                        if let Some(mark) = mark {
                            label = label.color(mark_color(mark));
                        }
                        let label = if ply > current { label.weak() } else { label };
                        let response = ui.selectable_label(here, label);
                        if here && scroll {
                            response.scroll_to_me(None);
                        }
                        if response.clicked() {
                            commands.write(GameCommand::GoTo(ply));
                        }
                    }
                });
            }
        });
}

/// The engine's view of the position as a bar beside the board: white from below.
pub(super) fn eval_bar(
    mut contexts: EguiContexts,
    language: Res<Language>,
    analysis: Res<Analysis>,
    rules: Res<Rules>,
    state: Res<State<AppState>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if !analysis.evaluate || *state.get() != AppState::Playing {
        return Ok(());
    }
    let lang = language.0;
    // A finished game shows its result; otherwise the last verdict, or the middle.
    let tables = crate::game::tables::verdict(&rules.game);
    let (fraction, text) = match (rules.game.outcome(), analysis.verdict) {
        (Some(outcome), _) => match outcome.winner() {
            Some(Side::White) => (1.0, "1-0".to_string()),
            Some(Side::Black) => (0.0, "0-1".to_string()),
            None => (0.5, "½".to_string()),
        },
        // A position the endgame tables hold shows their verdict.
        (None, _) if tables.is_some() => {
            let white_wins = match tables.map(|p| p.wdl).unwrap_or(Wdl::Draw) {
                Wdl::Win => Some(rules.game.side_to_move() == Side::White),
                Wdl::Loss => Some(rules.game.side_to_move() == Side::Black),
                Wdl::Draw => None,
            };
            match white_wins {
                Some(true) => (1.0, "TB".to_string()),
                Some(false) => (0.0, "TB".to_string()),
                None => (0.5, "TB =".to_string()),
            }
        }
        (None, Some(v)) => {
            let men = v.score_white as f32 / 100.0;
            let fraction = 0.5 + 0.5 * (men / 3.0).tanh();
            (fraction, format!("{men:+.1}"))
        }
        (None, None) => (0.5, "…".to_string()),
    };
    let verdict_text = if fraction > 0.6 {
        tr(lang, Text::EvalWhiteBetter)
    } else if fraction < 0.4 {
        tr(lang, Text::EvalBlackBetter)
    } else {
        tr(lang, Text::EvalEqual)
    };
    egui::Area::new(egui::Id::new("eval_bar"))
        .anchor(egui::Align2::LEFT_CENTER, [12.0, 0.0])
        .show(ctx, |ui| {
            let (area, response) =
                ui.allocate_exact_size(egui::vec2(44.0, 322.0), egui::Sense::hover());
            let rect = egui::Rect::from_center_size(
                egui::pos2(area.center().x, area.top() + 150.0),
                egui::vec2(22.0, 300.0),
            );
            let painter = ui.painter();
            painter.rect_filled(rect, 4.0, egui::Color32::from_rgb(40, 14, 10));
            let mut white = rect;
            white.set_top(rect.bottom() - rect.height() * fraction);
            painter.rect_filled(white, 4.0, egui::Color32::from_rgb(238, 228, 205));
            painter.line_segment(
                [
                    egui::pos2(rect.left(), rect.center().y),
                    egui::pos2(rect.right(), rect.center().y),
                ],
                egui::Stroke::new(1.0, egui::Color32::from_rgb(200, 120, 40)),
            );
            painter.text(
                egui::pos2(area.center().x, area.bottom()),
                egui::Align2::CENTER_BOTTOM,
                text,
                egui::FontId::proportional(14.0),
                egui::Color32::from_rgb(240, 225, 190),
            );
            response.on_hover_text(verdict_text);
        });
    Ok(())
}

/// The colour of a mark in the move list and on the graph.
fn mark_color(mark: Mark) -> egui::Color32 {
    match mark {
        Mark::Inaccuracy => egui::Color32::from_rgb(110, 190, 230),
        Mark::Mistake => egui::Color32::from_rgb(240, 170, 60),
        Mark::Blunder => egui::Color32::from_rgb(235, 80, 70),
    }
}

/// The analysis of the whole game: its button, its progress, then the graph, the
/// summary and the better move for a marked move.
fn review_section(
    ui: &mut egui::Ui,
    rules: &Rules,
    review: &GameReview,
    lang: crate::i18n::Lang,
    commands: &mut MessageWriter<GameCommand>,
    reviews: &mut MessageWriter<ReviewCommand>,
) {
    let t = |k| tr(lang, k);
    if let Some((done, total)) = review.progress() {
        ui.horizontal(|ui| {
            let fraction = done as f32 / total.max(1) as f32;
            ui.add(
                egui::ProgressBar::new(fraction)
                    .desired_width(180.0)
                    .text(format!("{} {done}/{total}", t(Text::Analysing))),
            );
            if ui.button(t(Text::CancelAnalysis)).clicked() {
                reviews.write(ReviewCommand::Cancel);
            }
        });
        return;
    }
    let Some(result) = review.result() else {
        if ui
            .add_enabled(
                review::can_review(rules),
                egui::Button::new(t(Text::AnalyseGame)),
            )
            .on_hover_text(t(Text::AnalyseGameHover))
            .clicked()
        {
            reviews.write(ReviewCommand::Start);
        }
        return;
    };
    let analysis = &result.analysis;
    let scores = &analysis.white_scores;
    let current = rules.game.ply();
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(ui.available_width(), 70.0), egui::Sense::click());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 3.0, egui::Color32::from_rgb(40, 14, 10));
    let n = scores.len().max(2) - 1;
    let x = |i: usize| rect.left() + rect.width() * i as f32 / n as f32;
    // Men, squeezed so that a won game stays inside: ±3 men is most of the height.
    let y = |s: i32| {
        let men = s.clamp(-3000, 3000) as f32 / 100.0;
        rect.center().y - (men / 3.0).tanh() * rect.height() * 0.45
    };
    let mut area = vec![egui::pos2(x(0), rect.center().y)];
    area.extend(
        scores
            .iter()
            .enumerate()
            .map(|(i, &s)| egui::pos2(x(i), y(s))),
    );
    painter.line_segment(
        [
            egui::pos2(rect.left(), rect.center().y),
            egui::pos2(rect.right(), rect.center().y),
        ],
        egui::Stroke::new(1.0, egui::Color32::from_rgb(120, 80, 50)),
    );
    painter.add(egui::Shape::line(
        area[1..].to_vec(),
        egui::Stroke::new(1.5, egui::Color32::from_rgb(238, 228, 205)),
    ));
    for (i, m) in analysis.moves.iter().enumerate() {
        if let (Some(mark), Some(&s)) = (m.mark, scores.get(i + 1)) {
            painter.circle_filled(egui::pos2(x(i + 1), y(s)), 3.0, mark_color(mark));
        }
    }
    painter.line_segment(
        [
            egui::pos2(x(current.min(n)), rect.top()),
            egui::pos2(x(current.min(n)), rect.bottom()),
        ],
        egui::Stroke::new(1.0, egui::Color32::from_rgb(200, 120, 40)),
    );
    if response.clicked()
        && let Some(at) = response.interact_pointer_pos()
    {
        let ply = ((at.x - rect.left()) / rect.width() * n as f32).round() as usize;
        commands.write(GameCommand::GoTo(ply.min(rules.total_plies())));
    }
    response.on_hover_text(t(Text::AnalysisGraph));
    for side in [Side::White, Side::Black] {
        ui.small(i18n::review_summary(lang, side, &analysis.summary(side)));
    }
    if let Some(report) = review.move_before(current)
        && let Some(mark) = report.mark
        && !report.best_line.is_empty()
    {
        let name = match mark {
            Mark::Inaccuracy => Text::Inaccuracy,
            Mark::Mistake => Text::Mistake,
            Mark::Blunder => Text::Blunder,
        };
        let black_first = result.start.side_to_move() == Side::Black;
        // The first moves of the line: enough to see the idea, short enough to read.
        let shown = &report.best_line[..report.best_line.len().min(6)];
        let line = line_text(current - 1 + usize::from(black_first), shown);
        ui.colored_label(
            mark_color(mark),
            format!("{}. {}: {line}", t(name), t(Text::BetterWas)),
        );
    }
}

/// Both clocks of a game with a time control, the running one lit and red in its last
/// ten seconds, with the pause button.
fn clocks(
    ui: &mut egui::Ui,
    lang: crate::i18n::Lang,
    rules: &Rules,
    commands: &mut MessageWriter<GameCommand>,
) {
    let Some(clock) = &rules.clock else {
        return;
    };
    let t = |k| tr(lang, k);
    let to_move = rules.game.side_to_move();
    ui.horizontal(|ui| {
        for side in [Side::White, Side::Black] {
            let Some(left) = rules.clock_time(side) else {
                continue;
            };
            let running = side == to_move && rules.clock_running();
            let mut text = egui::RichText::new(format!(
                "{} {}",
                t(match side {
                    Side::White => Text::White,
                    Side::Black => Text::Black,
                }),
                clock_text(left)
            ))
            .monospace()
            .size(18.0);
            if left < Duration::from_secs(10) {
                text = text.color(egui::Color32::from_rgb(235, 80, 70));
            } else if running {
                text = text.color(egui::Color32::from_rgb(240, 240, 240));
            } else {
                text = text.weak();
            }
            if running {
                text = text.strong().background_color(egui::Color32::from_gray(60));
            }
            ui.label(text);
        }
    });
    if rules.game.outcome().is_none() {
        ui.horizontal(|ui| {
            let label = if clock.paused {
                Text::Resume
            } else {
                Text::Pause
            };
            if ui.button(t(label)).on_hover_text("P").clicked() {
                commands.write(GameCommand::Pause);
            }
            if clock.paused {
                ui.weak(t(Text::ClockPausedLabel));
            }
        });
    }
}
