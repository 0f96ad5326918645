//! The 3D game: plugins that keep piece entities in step with the rules resource.
//!
//! [`GamePlugin`] holds everything that works without a window (rules, input logic, AI,
//! animation) so tests can drive it headlessly; [`view::ViewPlugin`] adds the renderer,
//! picking, camera, egui panels and audio for the real window.

pub mod ai;
pub mod analysis;
pub mod animation;
pub mod demo;
pub mod editor;
pub mod input;
pub mod persist;
pub mod pieces;
pub mod puzzles;
pub mod records;
pub mod review;
pub mod rules;
pub mod tables;
pub mod text;
pub mod view;

use bevy::prelude::*;

pub use animation::{AnimationSpeed, Animator, Cue};
pub use input::{
    BoardClick, BoardCursor, CancelSelection, CursorKey, Highlights, Selection, TypedMove,
};
pub use pieces::{Disc, OnSquare, PieceToken, Taken};
pub use rules::{
    Branch, GameCommand, Language, MoveCommitted, NewGame, Note, PlayMove, Player, Rules, Setup,
    Start, Status,
};

/// Top-level flow: the new-game panel before the first game, then play.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AppState {
    /// The board shows the start position and the new-game panel waits for a choice.
    #[default]
    Setup,
    /// A game is on (or just ended; the banner shows the result).
    Playing,
    /// The position editor is open: clicks place and remove pieces.
    Editing,
}

/// The order of the frame: input is read, the rules change, the AI is polled, entities
/// are animated towards the rules resource, then the view derives highlights and panels.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameSet {
    /// Clicks and buttons become messages; nothing else changes.
    Input,
    /// The only place the rules resource changes.
    Rules,
    /// AI tasks start and finish (their moves go back through `Rules` next frame).
    Ai,
    /// Piece entities move towards the rules resource.
    Animate,
    /// Derived visual state: highlights, materials, labels.
    View,
}

/// Everything that runs without a window: rules, selection logic, AI, animation.
pub struct GamePlugin;

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.init_state::<AppState>().configure_sets(
            Update,
            (
                GameSet::Input,
                GameSet::Rules,
                GameSet::Ai,
                GameSet::Animate,
                GameSet::View,
            )
                .chain(),
        );
        app.add_plugins((
            rules::plugin,
            input::plugin,
            ai::plugin,
            analysis::plugin,
            review::plugin,
            puzzles::plugin,
            editor::plugin,
            pieces::plugin,
            animation::plugin,
            tables::plugin,
        ));
    }
}
