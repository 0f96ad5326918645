//! The rules resource (the only truth about the board) and the messages that change it.

use super::AppState;
use super::GameSet;
use super::animation::Animator;
use crate::ai::{Level, accepts_draw};
use crate::i18n::{self, Lang, Text};
use crate::rules::game::WinReason;
use crate::rules::{Color, DrawRule, Game, GameClock, Move, Outcome, Position, Variant};
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
    /// The player is stepping through the moves: the computer waits, and a move that
    /// differs from the recorded one needs a confirmation before the tail is dropped.
    pub reviewing: bool,
    /// A change that would drop the moves after the reviewed point, waiting for the
    /// player's confirmation.
    pub pending_branch: Option<Branch>,
    /// A declared result (resignation, agreed draw) set aside while the player reviews
    /// earlier moves, with the ply it belongs to; it comes back at that ply.
    pub declared: Option<(usize, Outcome)>,
    /// The chess clock of a game played with a time control, with both players' time
    /// after every ply of the record.
    pub clock: Option<GameClock>,
}

/// What replaces the moves after the reviewed point once the player confirms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Branch {
    /// A human move different from the recorded one.
    Move(Move),
    /// The computer takes over from here (it is its turn).
    ContinueHere,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            game: Game::new(Variant::Russian),
            setup: Setup::default(),
            generation: 0,
            reviewing: false,
            pending_branch: None,
            declared: None,
            clock: None,
        }
    }
}

impl Rules {
    /// True when a human is to move in a game still going on.
    pub fn human_to_move(&self) -> bool {
        self.game.outcome().is_none()
            && self.setup.is_human(self.game.side_to_move())
            && self.pending_branch.is_none()
            && !self.paused()
    }

    /// True when the side to move is played by the computer (whether or not it may move now).
    pub fn computer_side_to_move(&self) -> bool {
        !self.setup.is_human(self.game.side_to_move())
    }

    /// True while the player looks at an earlier point of the game with moves after it.
    pub fn in_review(&self) -> bool {
        self.reviewing && self.game.can_redo()
    }

    /// Plies played and recorded after the current point: the whole game's length.
    pub fn total_plies(&self) -> usize {
        self.game.ply() + self.game.redo_moves().len()
    }

    /// The whole game: the moves stepped back over replayed, a declared result restored.
    pub fn full_game(&self) -> Game {
        let mut game = self.game.clone();
        while game.redo().is_some() {}
        if let Some((ply, outcome)) = self.declared
            && game.ply() == ply
        {
            game.declare(outcome);
        }
        game
    }

    /// One move back for review; a declared result is set aside, not lost.
    fn step_back(&mut self) -> bool {
        if self.game.ply() == 0 {
            return false;
        }
        let outcome = self.game.outcome();
        if self.game.undo().is_none() {
            // Only the declaration was lifted: keep it for the end, then step back.
            if let Some(outcome) = outcome {
                self.declared = Some((self.game.ply(), outcome));
            }
            self.game.undo();
        }
        true
    }

    /// One recorded move forward; at the end of the record a declared result comes back.
    fn step_forward(&mut self) -> Option<Move> {
        let played = self.game.redo()?;
        self.restore_declared();
        Some(played)
    }

    fn restore_declared(&mut self) {
        if let Some((ply, outcome)) = self.declared
            && self.game.ply() == ply
            && !self.game.can_redo()
        {
            self.game.declare(outcome);
            self.declared = None;
        }
    }

    /// Time left on `color`'s clock at the point of the game shown, if the game has a clock.
    pub fn clock_time(&self, color: Color) -> Option<std::time::Duration> {
        let clock = self.clock.as_ref()?;
        Some(clock.remaining(color, self.game.ply(), self.game.side_to_move()))
    }

    /// True while the side to move's clock runs: a live game with a clock, not paused,
    /// not under review, no question pending.
    pub fn clock_running(&self) -> bool {
        self.clock.as_ref().is_some_and(|c| !c.paused)
            && self.game.outcome().is_none()
            && !self.in_review()
            && self.pending_branch.is_none()
    }

    /// True while a game with a clock is paused: nobody may move.
    pub fn paused(&self) -> bool {
        self.clock.as_ref().is_some_and(|c| c.paused) && self.game.outcome().is_none()
    }

    /// A new move was played from the position after `ply` plies by `mover`.
    fn clock_move(&mut self, ply: usize, mover: Color) {
        if let Some(clock) = &mut self.clock {
            clock.record_move(ply, mover);
        }
        self.standard_draw_at_once();
    }

    /// FSR 7.2.9: under a clock without increment the endings of 7.2.7 and 7.2.8 are not
    /// played but drawn at once, unless the stronger side can show the win: read as the
    /// endgame tables, once read, finding a win within the count (which 7.2.7 and 7.2.8
    /// then still limit to five moves).
    fn standard_draw_at_once(&mut self) {
        let no_increment = self
            .clock
            .as_ref()
            .is_some_and(|c| c.control.increment.is_zero());
        if !no_increment || self.game.variant() != Variant::Russian || self.game.outcome().is_some()
        {
            return;
        }
        let standard = self
            .game
            .draw_countdowns()
            .iter()
            .any(|c| matches!(c.rule, DrawRule::LongDiagonal | DrawRule::SmallEnding));
        if !standard {
            return;
        }
        let shown = crate::ai::tablebase::ready(Variant::Russian)
            .and_then(|tb| tb.probe_game(&self.game))
            .is_some_and(|p| p.wdl != crate::ai::tablebase::Wdl::Draw);
        if !shown {
            self.game.declare(Outcome::Draw(DrawRule::StandardEnding));
        }
    }

    /// The level of the computer to move, if a computer is to move in a game still going on
    /// (and the player is not reviewing the moves).
    pub fn computer_to_move(&self) -> Option<Level> {
        if self.game.outcome().is_some() || self.in_review() || self.paused() {
            return None;
        }
        match self.setup.player(self.game.side_to_move()) {
            Player::Computer(level) => Some(level),
            Player::Human => None,
        }
    }
}

/// Start a new game, abandoning the current one.
#[derive(Message, Debug, Clone)]
pub struct NewGame {
    pub setup: Setup,
    pub start: Start,
    /// The game's clock: a fresh one for a new game with a time control, the saved one
    /// for a game continued; `None` plays without a clock.
    pub clock: Option<GameClock>,
}

/// Where a new game starts.
#[derive(Debug, Clone, Default)]
pub enum Start {
    /// The usual start position.
    #[default]
    Initial,
    /// A set-up position (from the editor or a pasted FEN).
    Position(Position),
    /// A game with its moves (a saved game or one opened from PDN); play goes on from
    /// its last position.
    Game(Box<Game>),
}

impl NewGame {
    pub fn fresh(setup: Setup) -> NewGame {
        NewGame {
            setup,
            start: Start::Initial,
            clock: None,
        }
    }
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
    /// Review: one move back (arrow left).
    StepBack,
    /// Review: the next recorded move, animated (arrow right).
    StepForward,
    /// A game with a clock: stop both clocks, or start them again.
    Pause,
    /// Review: straight to the position after `ply` plies (clicking a move, first/last).
    GoTo(usize),
    /// Review, at the computer's turn: drop the later moves and let it play from here
    /// (asks for confirmation first).
    ContinueHere,
    /// The player confirmed the pending branch.
    ConfirmBranch,
    /// The player kept the recorded moves.
    CancelBranch,
}

/// The language the player reads, from the settings; switchable while the game runs.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Language(pub Lang);

/// A short message for the player: a fixed text (shown in the language of the moment)
/// or one already written out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    Text(Text),
    Plain(String),
}

impl Note {
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Note::Text(text) => i18n::tr(lang, *text).to_string(),
            Note::Plain(text) => text.clone(),
        }
    }
}

impl From<Text> for Note {
    fn from(text: Text) -> Note {
        Note::Text(text)
    }
}

impl From<String> for Note {
    fn from(text: String) -> Note {
        Note::Plain(text)
    }
}

/// What the player is told: the end banner and a short-lived message.
#[derive(Resource, Debug, Default, Clone)]
pub struct Status {
    /// Result and reason in player words, once the game is over and the last move shown.
    pub banner: Option<String>,
    pub message: Option<Note>,
    /// Seconds the message stays.
    pub message_ttl: f32,
}

impl Status {
    pub fn say(&mut self, note: impl Into<Note>) {
        self.message = Some(note.into());
        self.message_ttl = 4.0;
    }
}

/// Entities must be rebuilt from the rules resource (after undo, redo, new game, loading).
#[derive(Message, Debug, Clone, Copy, Default)]
pub struct RebuildPieces;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Rules>()
        .init_resource::<Status>()
        .init_resource::<Language>()
        .add_message::<NewGame>()
        .add_message::<PlayMove>()
        .add_message::<MoveCommitted>()
        .add_message::<GameCommand>()
        .add_message::<RebuildPieces>()
        .add_systems(
            Update,
            (
                start_new_game,
                play_moves,
                run_commands,
                run_clock,
                update_status,
            )
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
    let mut setup = request.setup;
    let game = match &request.start {
        Start::Position(pos) => Game::from_position(setup.variant, *pos),
        Start::Initial => Game::new(setup.variant),
        Start::Game(game) => {
            setup.variant = game.variant();
            (**game).clone()
        }
    };
    let generation = rules.generation + 1;
    // A clock that does not fit the game's record is not used.
    let clock = request
        .clock
        .clone()
        .filter(|c| c.len() == game.ply() + game.redo_moves().len() + 1);
    *rules = Rules {
        game,
        setup,
        generation,
        reviewing: false,
        pending_branch: None,
        declared: None,
        clock,
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
        let before_ply = rules.game.ply();
        if rules.in_review() {
            // The recorded move is simply replayed; another one starts a new branch.
            if rules
                .game
                .redo_moves()
                .last()
                .is_some_and(|next| next.same_effect(mv))
            {
                if let Some(played) = rules.step_forward() {
                    rules.reviewing = rules.game.can_redo();
                    committed.write(MoveCommitted { mv: played, before });
                }
            } else if rules.game.legal_moves().iter().any(|m| m.same_effect(mv)) {
                rules.pending_branch = Some(Branch::Move(*mv));
            } else {
                status.say(Text::NotALegalMove);
            }
            continue;
        }
        if rules.paused() {
            status.say(Text::GamePaused);
            continue;
        }
        let mover = rules.game.side_to_move();
        match rules.game.play(mv) {
            Ok(()) => {
                rules.clock_move(before_ply, mover);
                rules.reviewing = false;
                // The game keeps the generator's own copy of the move (full route).
                let played = *rules.game.moves().last().unwrap_or(mv);
                committed.write(MoveCommitted { mv: played, before });
            }
            Err(_) => status.say(Text::NotALegalMove),
        }
    }
}

fn run_commands(
    mut commands: MessageReader<GameCommand>,
    mut rules: ResMut<Rules>,
    mut status: ResMut<Status>,
    mut rebuild: MessageWriter<RebuildPieces>,
    mut committed: MessageWriter<MoveCommitted>,
) {
    for command in commands.read() {
        let rules = &mut *rules;
        let against_computer = rules.setup.computer().is_some();
        if rules.pending_branch.is_some()
            && !matches!(
                command,
                GameCommand::ConfirmBranch | GameCommand::CancelBranch
            )
        {
            continue;
        }
        match command {
            GameCommand::StepBack => {
                if !rules.step_back() {
                    continue;
                }
                rules.reviewing = true;
                rules.generation += 1;
                rebuild.write(RebuildPieces);
            }
            GameCommand::StepForward => {
                let before = *rules.game.position();
                if let Some(played) = rules.step_forward() {
                    rules.reviewing = rules.game.can_redo();
                    rules.generation += 1;
                    committed.write(MoveCommitted { mv: played, before });
                }
            }
            GameCommand::GoTo(ply) => {
                let ply = (*ply).min(rules.total_plies());
                if ply == rules.game.ply() {
                    continue;
                }
                while rules.game.ply() > ply && rules.step_back() {}
                while rules.game.ply() < ply && rules.step_forward().is_some() {}
                rules.reviewing = rules.game.can_redo();
                rules.generation += 1;
                rebuild.write(RebuildPieces);
            }
            GameCommand::ContinueHere => {
                if rules.in_review() {
                    rules.pending_branch = Some(Branch::ContinueHere);
                }
            }
            GameCommand::ConfirmBranch => {
                let Some(branch) = rules.pending_branch.take() else {
                    continue;
                };
                let ply = rules.game.ply();
                rules.game.truncate(ply);
                if let Some(clock) = &mut rules.clock {
                    clock.truncate(ply);
                }
                rules.reviewing = false;
                rules.declared = None;
                rules.generation += 1;
                if let Branch::Move(mv) = branch {
                    let before = *rules.game.position();
                    let mover = rules.game.side_to_move();
                    if rules.game.play(&mv).is_ok() {
                        rules.clock_move(ply, mover);
                        let played = *rules.game.moves().last().unwrap_or(&mv);
                        committed.write(MoveCommitted { mv: played, before });
                    }
                }
            }
            GameCommand::CancelBranch => {
                rules.pending_branch = None;
            }
            GameCommand::Pause => {
                let over = rules.game.outcome().is_some();
                if let Some(clock) = &mut rules.clock
                    && !over
                {
                    clock.paused = !clock.paused;
                    // The computer's search in flight is dropped and started again.
                    rules.generation += 1;
                }
            }
            GameCommand::Undo => {
                // A move still being animated counts as played: undo takes it back too.
                let had_outcome = rules.game.outcome().is_some();
                let undone = rules.game.undo().is_some();
                if !undone && !had_outcome {
                    status.say(Text::NothingToUndo);
                    continue;
                }
                if against_computer {
                    while !rules.setup.is_human(rules.game.side_to_move()) && rules.game.ply() > 0 {
                        rules.game.undo();
                    }
                }
                if let Some(clock) = &mut rules.clock {
                    clock.restart_move();
                }
                // Stepping back through a review stays a review.
                rules.reviewing = rules.reviewing && rules.game.can_redo();
                rules.generation += 1;
                rebuild.write(RebuildPieces);
            }
            GameCommand::Redo => {
                if rules.game.redo().is_none() {
                    status.say(Text::NothingToRedo);
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
                rules.restore_declared();
                rules.reviewing = rules.reviewing && rules.game.can_redo();
                rules.generation += 1;
                rebuild.write(RebuildPieces);
            }
            GameCommand::Resign => {
                if rules.game.outcome().is_some() || rules.in_review() {
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
                if rules.game.outcome().is_some() || rules.in_review() {
                    continue;
                }
                match rules.setup.computer() {
                    Some(ai) if !accepts_draw(&rules.game, ai) => {
                        status.say(Text::DrawDeclined);
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

/// Runs the side to move's clock by the frame's time; a flag falling loses the game
/// (1.8.1), in поддавки as well. The clocks wait while a move is being shown, and while
/// the position editor holds the board.
fn run_clock(
    time: Res<Time>,
    animator: Res<Animator>,
    state: Res<State<AppState>>,
    mut rules: ResMut<Rules>,
) {
    if *state.get() != AppState::Playing || !rules.clock_running() || animator.is_busy() {
        return;
    }
    let rules = &mut *rules;
    let (ply, to_move) = (rules.game.ply(), rules.game.side_to_move());
    let Some(clock) = &mut rules.clock else {
        return;
    };
    if clock.tick(ply, to_move, time.delta()) {
        rules.game.declare(Outcome::Win {
            winner: to_move.opposite(),
            reason: WinReason::Time,
        });
        rules.generation += 1;
    }
}

/// Keeps the banner in step with the game, once the last move has been shown.
fn update_status(
    rules: Res<Rules>,
    animator: Res<Animator>,
    time: Res<Time>,
    language: Res<Language>,
    mut status: ResMut<Status>,
) {
    let banner = if animator.is_busy() {
        None
    } else {
        rules
            .game
            .outcome()
            .map(|o| i18n::outcome_text(language.0, o, rules.game.variant()))
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
