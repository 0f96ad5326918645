//! The rules resource (the only truth about the board) and the messages that change it.

use super::AppState;
use super::GameSet;
use super::animation::Animator;
use super::text;
use crate::ai::{Level, accepts_draw};
use crate::rules::{Color, Game, Move, Position, Variant};
use bevy::prelude::*;

/// Who plays one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Human,
    Computer(Level),
}

/// The choices of the new-game panel, resolved to one player per colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub variant: Variant,
    pub white: Player,
    pub black: Player,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            variant: Variant::Russian,
            white: Player::Human,
            black: Player::Computer(Level::default()),
        }
    }
}

impl Setup {
    pub fn player(&self, color: Color) -> Player {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    pub fn is_human(&self, color: Color) -> bool {
        self.player(color) == Player::Human
    }

    /// The colour the view should face: the only human, else White.
    pub fn viewer(&self) -> Color {
        if !self.is_human(Color::White) && self.is_human(Color::Black) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The single computer colour of a human-against-computer game.
    pub fn computer(&self) -> Option<Color> {
        match (self.white, self.black) {
            (Player::Human, Player::Computer(_)) => Some(Color::Black),
            (Player::Computer(_), Player::Human) => Some(Color::White),
            _ => None,
        }
    }
}

/// The game being played: the rules engine's [`Game`] and who plays each side.
#[derive(Resource, Debug, Clone)]
pub struct Rules {
    pub game: Game,
    pub setup: Setup,
    /// Bumped whenever the game changes other than by a move (new game, undo, redo), so a
    /// search started before is discarded.
    pub generation: u64,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            game: Game::new(Variant::Russian),
            setup: Setup::default(),
            generation: 0,
        }
    }
}

impl Rules {
    /// True when a human is to move in a game still going on.
    pub fn human_to_move(&self) -> bool {
        self.game.outcome().is_none() && self.setup.is_human(self.game.side_to_move())
    }

    /// The level of the computer to move, if a computer is to move in a game still going on.
    pub fn computer_to_move(&self) -> Option<Level> {
        if self.game.outcome().is_some() {
            return None;
        }
        match self.setup.player(self.game.side_to_move()) {
            Player::Computer(level) => Some(level),
            Player::Human => None,
        }
    }
}

/// Start a new game (optionally from a set-up position), abandoning the current one.
#[derive(Message, Debug, Clone)]
pub struct NewGame {
    pub setup: Setup,
    pub start: Option<Position>,
}

/// A complete move chosen by a human or the computer; the rules check it.
#[derive(Message, Debug, Clone, Copy)]
pub struct PlayMove(pub Move);

/// A move the rules accepted; the animation shows it from `before`.
#[derive(Message, Debug, Clone, Copy)]
pub struct MoveCommitted {
    pub mv: Move,
    pub before: Position,
}

/// Buttons of the game panel.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameCommand {
    /// Against the computer, back to the human's previous turn.
    Undo,
    Redo,
    /// The human (in a two-human game, the side to move) resigns.
    Resign,
    OfferDraw,
}

/// What the player is told: the end banner and a short-lived message.
#[derive(Resource, Debug, Default, Clone)]
pub struct Status {
    /// Result and reason in player words, once the game is over and the last move shown.
    pub banner: Option<String>,
    pub message: Option<String>,
    /// Seconds the message stays.
    pub message_ttl: f32,
}

impl Status {
    pub fn say(&mut self, text: impl Into<String>) {
        self.message = Some(text.into());
        self.message_ttl = 4.0;
    }
}

/// Entities must be rebuilt from the rules resource (after undo, redo, new game, loading).
#[derive(Message, Debug, Clone, Copy, Default)]
pub struct RebuildPieces;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Rules>()
        .init_resource::<Status>()
        .add_message::<NewGame>()
        .add_message::<PlayMove>()
        .add_message::<MoveCommitted>()
        .add_message::<GameCommand>()
        .add_message::<RebuildPieces>()
        .add_systems(
            Update,
            (start_new_game, play_moves, run_commands, update_status)
                .chain()
                .in_set(GameSet::Rules),
        );
}

pub(super) fn start_new_game(
    mut requests: MessageReader<NewGame>,
    mut rules: ResMut<Rules>,
    mut status: ResMut<Status>,
    mut rebuild: MessageWriter<RebuildPieces>,
    mut next: ResMut<NextState<AppState>>,
) {
    let Some(request) = requests.read().last() else {
        return;
    };
    let game = match request.start {
        Some(pos) => Game::from_position(request.setup.variant, pos),
        None => Game::new(request.setup.variant),
    };
    let generation = rules.generation + 1;
    *rules = Rules {
        game,
        setup: request.setup,
        generation,
    };
    *status = Status::default();
    rebuild.write(RebuildPieces);
    next.set(AppState::Playing);
}

fn play_moves(
    mut moves: MessageReader<PlayMove>,
    mut rules: ResMut<Rules>,
    mut status: ResMut<Status>,
    mut committed: MessageWriter<MoveCommitted>,
) {
    for PlayMove(mv) in moves.read() {
        let before = *rules.game.position();
        match rules.game.play(mv) {
            Ok(()) => {
                // The game keeps the generator's own copy of the move (full route).
                let played = *rules.game.moves().last().unwrap_or(mv);
                committed.write(MoveCommitted { mv: played, before });
            }
            Err(e) => status.say(e.to_string()),
        }
    }
}

fn run_commands(
    mut commands: MessageReader<GameCommand>,
    mut rules: ResMut<Rules>,
    mut status: ResMut<Status>,
    mut rebuild: MessageWriter<RebuildPieces>,
) {
    for command in commands.read() {
        let rules = &mut *rules;
        let against_computer = rules.setup.computer().is_some();
        match command {
            GameCommand::Undo => {
                // A move still being animated counts as played: undo takes it back too.
                let had_outcome = rules.game.outcome().is_some();
                let undone = rules.game.undo().is_some();
                if !undone && !had_outcome {
                    status.say("Nothing to take back");
                    continue;
                }
                if against_computer {
                    while !rules.setup.is_human(rules.game.side_to_move()) && rules.game.ply() > 0 {
                        rules.game.undo();
                    }
                }
                rules.generation += 1;
                rebuild.write(RebuildPieces);
            }
            GameCommand::Redo => {
                if rules.game.redo().is_none() {
                    status.say("Nothing to replay");
                    continue;
                }
                if against_computer {
                    while !rules.setup.is_human(rules.game.side_to_move())
                        && rules.game.can_redo()
                        && rules.game.outcome().is_none()
                    {
                        rules.game.redo();
                    }
                }
                rules.generation += 1;
                rebuild.write(RebuildPieces);
            }
            GameCommand::Resign => {
                if rules.game.outcome().is_some() {
                    continue;
                }
                let loser = rules
                    .setup
                    .computer()
                    .map(Color::opposite)
                    .unwrap_or(rules.game.side_to_move());
                rules.game.resign(loser);
                rules.generation += 1;
            }
            GameCommand::OfferDraw => {
                if rules.game.outcome().is_some() {
                    continue;
                }
                match rules.setup.computer() {
                    Some(ai) if !accepts_draw(&rules.game, ai) => {
                        status.say("The computer declines the draw");
                    }
                    _ => {
                        rules.game.agree_draw();
                        rules.generation += 1;
                    }
                }
            }
        }
    }
}

/// Keeps the banner in step with the game, once the last move has been shown.
fn update_status(
    rules: Res<Rules>,
    animator: Res<Animator>,
    time: Res<Time>,
    mut status: ResMut<Status>,
) {
    let banner = if animator.is_busy() {
        None
    } else {
        rules
            .game
            .outcome()
            .map(|o| text::outcome_text(o, rules.game.variant()))
    };
    if status.banner != banner {
        status.banner = banner;
    }
    if status.message.is_some() {
        status.message_ttl -= time.delta_secs();
        if status.message_ttl <= 0.0 {
            status.message = None;
        }
    }
}
