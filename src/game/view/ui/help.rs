//! The help window: the controls, and a short illustrated page of the rules of each
//! variant (diagrams drawn from positions by the rules engine).

use super::Windows;
use crate::game::Language;
use crate::i18n::{Lang, Text, tr};
use crate::rules::{Color as Side, PieceKind, Position, Square};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// The pages of the help window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Page {
    #[default]
    Controls,
    Russian,
    Giveaway,
}

/// A diagram: a position and a route drawn over it, with its caption.
struct Diagram {
    fen: &'static str,
    route: &'static [&'static str],
    caption: Text,
}

const RUSSIAN_DIAGRAMS: [Diagram; 2] = [
    Diagram {
        fen: "W:Wc3:Bd4,f6",
        route: &["c3", "e5", "g7"],
        caption: Text::DiagramManCaptures,
    },
    Diagram {
        fen: "W:WKa1:Bc3,f4",
        route: &["a1", "e5", "g3"],
        caption: Text::DiagramKingCaptures,
    },
];

const GIVEAWAY_DIAGRAMS: [Diagram; 1] = [Diagram {
    fen: "W:We3,c1:Bg5,a7",
    route: &["e3", "f4"],
    caption: Text::DiagramGiveaway,
}];

pub(super) fn window(
    mut contexts: EguiContexts,
    language: Res<Language>,
    mut windows: ResMut<Windows>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if !windows.help {
        return Ok(());
    }
    let lang = language.0;
    let t = |k| tr(lang, k);
    let mut open = true;
    // The window fits the screen; the page scrolls inside it, its scroll bar always shown.
    let height = (ctx.content_rect().height() - 120.0).max(200.0);
    egui::Window::new(t(Text::Help))
        .id(egui::Id::new("help"))
        .open(&mut open)
        .default_width(560.0)
        .resizable(false)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                let page = &mut windows.help_page;
                ui.selectable_value(page, Page::Controls, t(Text::HelpControls));
                ui.selectable_value(page, Page::Russian, t(Text::RulesRussianTitle));
                ui.selectable_value(page, Page::Giveaway, t(Text::RulesGiveawayTitle));
            });
            ui.separator();
            // The window sizes itself to the tabs and this scroll area, so it fits; a solid
            // scroll bar shows that the page goes on.
            ui.style_mut().spacing.scroll = egui::style::ScrollStyle::solid();
            egui::ScrollArea::vertical()
                .max_height(height.min(520.0) - 60.0)
                .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
                .show(ui, |ui| match windows.help_page {
                    Page::Controls => controls(ui, lang),
                    Page::Russian => rules_page(ui, lang, Text::RulesRussian, &RUSSIAN_DIAGRAMS),
                    Page::Giveaway => rules_page(ui, lang, Text::RulesGiveaway, &GIVEAWAY_DIAGRAMS),
                });
        });
    if !open {
        windows.help = false;
    }
    Ok(())
}

fn controls(ui: &mut egui::Ui, lang: Lang) {
    for text in [
        Text::KeysSelect,
        Text::KeysCamera,
        Text::KeysCancel,
        Text::KeysFlip,
        Text::KeysNewGame,
        Text::KeysUndo,
        Text::KeysReview,
        Text::KeysCursor,
        Text::KeysHint,
        Text::KeysMove,
        Text::KeysPause,
        Text::KeysHelp,
    ] {
        ui.label(format!("• {}", tr(lang, text)));
    }
}

fn rules_page(ui: &mut egui::Ui, lang: Lang, text: Text, diagrams: &[Diagram]) {
    ui.horizontal_wrapped(|ui| {
        for d in diagrams {
            ui.vertical(|ui| {
                ui.set_width(190.0);
                diagram(ui, d);
                ui.small(tr(lang, d.caption));
            });
        }
    });
    ui.separator();
    ui.label(tr(lang, text));
}

/// Draws the diagram's position with White at the bottom and its route as arrows.
fn diagram(ui: &mut egui::Ui, d: &Diagram) {
    let size = 176.0;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let cell = size / 8.0;
    let centre = |sq: Square| {
        let (file, rank) = (sq.file() as f32, sq.rank() as f32);
        egui::pos2(
            rect.left() + (file + 0.5) * cell,
            rect.bottom() - (rank + 0.5) * cell,
        )
    };
    for rank in 0..8 {
        for file in 0..8 {
            let dark = (rank + file) % 2 == 0;
            let min = egui::pos2(
                rect.left() + file as f32 * cell,
                rect.bottom() - (rank + 1) as f32 * cell,
            );
            let color = if dark {
                egui::Color32::from_rgb(150, 98, 58)
            } else {
                egui::Color32::from_rgb(232, 204, 160)
            };
            painter.rect_filled(
                egui::Rect::from_min_size(min, egui::vec2(cell, cell)),
                0.0,
                color,
            );
        }
    }
    let Ok(position) = Position::from_fen(d.fen) else {
        return;
    };
    for sq in Square::all() {
        let Some(piece) = position.piece_at(sq) else {
            continue;
        };
        let (fill, edge) = match piece.color {
            Side::White => (
                egui::Color32::from_rgb(240, 232, 212),
                egui::Color32::from_rgb(120, 110, 90),
            ),
            Side::Black => (
                egui::Color32::from_rgb(36, 12, 10),
                egui::Color32::from_rgb(225, 190, 150),
            ),
        };
        let c = centre(sq);
        painter.circle(c, cell * 0.38, fill, egui::Stroke::new(1.5, edge));
        if piece.kind == PieceKind::King {
            painter.circle_stroke(c, cell * 0.22, egui::Stroke::new(2.0, edge));
        }
    }
    let stroke = egui::Stroke::new(3.0, egui::Color32::from_rgb(40, 170, 80));
    let squares: Vec<Square> = d.route.iter().filter_map(|s| s.parse().ok()).collect();
    for pair in squares.windows(2) {
        let (a, b) = (centre(pair[0]), centre(pair[1]));
        painter.arrow(a, b - a, stroke);
    }
}
