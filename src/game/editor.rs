//! Setting up a position: place and remove men and kings of either colour, choose the
//! side to move and the variant, then play from there.
//!
//! While the editor is open the rules resource holds the position being built (every
//! change is checked by the rules engine), so the board shows it like any other.

use super::input::BoardClick;
use super::rules::{NewGame, Note, RebuildPieces, Rules, Setup, Start, Status};
use super::{AppState, GameSet};
use crate::i18n::{self, Text};
use crate::rules::{Color, Game, Piece, PieceKind, Position, Square, Variant};
use bevy::prelude::*;

/// What a click on a square puts there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Tool {
    #[default]
    WhiteMan,
    WhiteKing,
    BlackMan,
    BlackKing,
    Eraser,
}

impl Tool {
    pub const ALL: [Tool; 5] = [
        Tool::WhiteMan,
        Tool::WhiteKing,
        Tool::BlackMan,
        Tool::BlackKing,
        Tool::Eraser,
    ];

    pub fn label(self) -> Text {
        match self {
            Tool::WhiteMan => Text::EditorWhiteMan,
            Tool::WhiteKing => Text::EditorWhiteKing,
            Tool::BlackMan => Text::EditorBlackMan,
            Tool::BlackKing => Text::EditorBlackKing,
            Tool::Eraser => Text::EditorEraser,
        }
    }

    fn piece(self) -> Option<Piece> {
        let (color, kind) = match self {
            Tool::WhiteMan => (Color::White, PieceKind::Man),
            Tool::WhiteKing => (Color::White, PieceKind::King),
            Tool::BlackMan => (Color::Black, PieceKind::Man),
            Tool::BlackKing => (Color::Black, PieceKind::King),
            Tool::Eraser => return None,
        };
        Some(Piece { color, kind })
    }
}

/// The editor's state: the tool in hand and the game to go back to on cancel.
#[derive(Resource, Debug, Default)]
pub struct Editor {
    pub tool: Tool,
    /// The game on the board when the editor opened, with the state it was in.
    before: Option<(Rules, AppState)>,
}

impl Editor {
    /// True from opening the editor until a game is started from it or it is cancelled.
    pub fn is_open(&self) -> bool {
        self.before.is_some()
    }
}

/// What the editor's panel asks for.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditorCommand {
    Open,
    Clear,
    StartPosition,
    SideToMove(Color),
    SetVariant(Variant),
    /// Start a game from the position with these players (the variant is the editor's).
    Play(Setup),
    Cancel,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Editor>()
        .add_message::<EditorCommand>()
        .add_systems(
            Update,
            (
                (run_editor_commands, edit_squares)
                    .chain()
                    .before(super::rules::start_new_game),
                close_on_new_game.after(super::rules::start_new_game),
            )
                .in_set(GameSet::Rules),
        );
}

/// Any new game (from the editor or the new-game panel) closes the editor.
fn close_on_new_game(mut new_games: MessageReader<NewGame>, mut editor: ResMut<Editor>) {
    if new_games.read().count() > 0 {
        editor.before = None;
    }
}

/// The position with the piece of `tool` put on (or, if it is there already, taken off)
/// `sq`, or the rules engine's reason why it cannot stand.
pub fn apply_tool(
    position: &Position,
    tool: Tool,
    sq: Square,
) -> Result<Position, crate::rules::PositionError> {
    let mut next = *position;
    let wanted = tool.piece();
    let now = position.piece_at(sq);
    next.set_piece(sq, if now == wanted { None } else { wanted });
    next.validate()
}

fn show(
    rules: &mut Rules,
    variant: Variant,
    position: Position,
    rebuild: &mut MessageWriter<RebuildPieces>,
) {
    rules.game = Game::from_position(variant, position);
    rules.generation += 1;
    rebuild.write(RebuildPieces);
}

/// Why a position cannot be played: a game would already be over, and the reason says
/// how it ended in the variant.
fn unplayable(position: &Position, variant: Variant) -> Option<Text> {
    if position.pieces(Color::White) == 0 || position.pieces(Color::Black) == 0 {
        Some(Text::EditorNeedsBothSides)
    } else if position.legal_moves().is_empty() {
        Some(match variant {
            Variant::Russian => Text::EditorNoMoves,
            Variant::Giveaway => Text::EditorNoMovesGiveaway,
        })
    } else {
        None
    }
}

#[allow(clippy::too_many_arguments)]
fn run_editor_commands(
    mut commands: MessageReader<EditorCommand>,
    mut editor: ResMut<Editor>,
    mut rules: ResMut<Rules>,
    mut status: ResMut<Status>,
    state: Res<State<AppState>>,
    mut next: ResMut<NextState<AppState>>,
    mut rebuild: MessageWriter<RebuildPieces>,
    mut new_games: MessageWriter<NewGame>,
) {
    for command in commands.read() {
        let editing = *state.get() == AppState::Editing;
        let position = *rules.game.position();
        let variant = rules.game.variant();
        match *command {
            EditorCommand::Open => {
                if editing {
                    continue;
                }
                editor.before = Some((rules.clone(), *state.get()));
                rules.setup = Setup {
                    variant,
                    white: super::Player::Human,
                    black: super::Player::Human,
                };
                rules.reviewing = false;
                rules.pending_branch = None;
                // The board is not a game now: the game's clock waits in `before`.
                rules.clock = None;
                show(&mut rules, variant, position, &mut rebuild);
                next.set(AppState::Editing);
            }
            _ if !editing => {}
            EditorCommand::Clear => {
                let empty = Position::empty(position.side_to_move());
                show(&mut rules, variant, empty, &mut rebuild);
            }
            EditorCommand::StartPosition => {
                show(&mut rules, variant, Position::start(), &mut rebuild);
            }
            EditorCommand::SideToMove(side) => {
                show(
                    &mut rules,
                    variant,
                    position.with_side_to_move(side),
                    &mut rebuild,
                );
            }
            EditorCommand::SetVariant(v) => {
                rules.setup.variant = v;
                show(&mut rules, v, position, &mut rebuild);
            }
            EditorCommand::Play(setup) => {
                if let Some(why) = unplayable(&position, variant) {
                    status.say(why);
                    continue;
                }
                editor.before = None;
                new_games.write(NewGame {
                    setup: Setup { variant, ..setup },
                    start: Start::Position(position),
                    clock: None,
                });
            }
            EditorCommand::Cancel => {
                let (before, was) = editor
                    .before
                    .take()
                    .unwrap_or_else(|| (Rules::default(), AppState::Setup));
                let generation = rules.generation + 1;
                *rules = Rules {
                    generation,
                    ..before
                };
                rebuild.write(RebuildPieces);
                next.set(was);
            }
        }
    }
}

/// In the editor a click on a square places or removes a piece.
fn edit_squares(
    mut clicks: MessageReader<BoardClick>,
    editor: Res<Editor>,
    state: Res<State<AppState>>,
    language: Res<super::Language>,
    mut rules: ResMut<Rules>,
    mut status: ResMut<Status>,
    mut rebuild: MessageWriter<RebuildPieces>,
) {
    if *state.get() != AppState::Editing {
        clicks.clear();
        return;
    }
    for &BoardClick(sq) in clicks.read() {
        let variant = rules.game.variant();
        match apply_tool(rules.game.position(), editor.tool, sq) {
            Ok(position) => show(&mut rules, variant, position, &mut rebuild),
            Err(e) => status.say(Note::Plain(i18n::position_error(language.0, &e))),
        }
    }
}
