//! Puzzles ("Комбинации"): a position and its forced solution. The player enters the
//! solver's moves on the board, the opponent's replies are played by the game, a wrong
//! move is refused with "try again", a hint lights the next move, and the solution can
//! be shown. The collections are `assets/puzzles/*.tsv` (made by `shashki puzzles`).
//!
//! The endgame trainer works the same way with a classic ending from the endgame tables:
//! the player must win before the counting rules draw, any move that keeps the win is
//! accepted, one that lets it go is refused, and the computer defends perfectly.

use super::animation::Animator;
use super::rules::{NewGame, PlayMove, Player, Rules, Setup, Start, Status};
use super::{AppState, GameSet};
use crate::ai::puzzle::{Puzzle, read_puzzles};
use crate::ai::tablebase::endings::{self, Ending};
use crate::i18n::Text;
use crate::rules::{Color, Game, Move, Variant};
use bevy::prelude::*;

const RUSSIAN: &str = include_str!("../../assets/puzzles/russian.tsv");
const GIVEAWAY: &str = include_str!("../../assets/puzzles/giveaway.tsv");

/// Seconds between the player's move and the opponent's reply (or two shown moves).
const REPLY_DELAY: f32 = 0.35;

/// The shipped puzzles of a variant (checked by a test, so they always read).
pub fn collection(variant: Variant) -> Vec<Puzzle> {
    let text = match variant {
        Variant::Russian => RUSSIAN,
        Variant::Giveaway => GIVEAWAY,
    };
    read_puzzles(text).unwrap_or_default()
}

/// A name for a puzzle that stays the same when the collection is made again.
pub fn puzzle_id(p: &Puzzle) -> String {
    format!("{}:{}", p.variant, p.start.to_fen())
}

/// What the player asks of the puzzles.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub enum PuzzleCommand {
    /// Start puzzle `index` of the variant's collection.
    Start { variant: Variant, index: usize },
    /// Light the next move of the solution.
    Hint,
    /// Play the rest of the solution.
    ShowSolution,
    /// Start an ending of the trainer.
    StartEnding(Ending),
    /// Leave the puzzle (the position stays on the board).
    Leave,
}

/// The ending of the trainer on the board (White, the player, to win).
#[derive(Clone, Debug)]
pub struct ActiveEnding {
    pub ending: Ending,
    /// The hint is shown at this ply.
    pub hint_at: Option<usize>,
    pub showing: bool,
    pub solved: bool,
    since_move: f32,
    started: bool,
}

/// The puzzle on the board.
#[derive(Clone, Debug)]
pub struct Active {
    pub variant: Variant,
    pub index: usize,
    pub puzzle: Puzzle,
    /// The hint is shown for the move at this ply.
    pub hint_at: Option<usize>,
    /// The solution is being played by the game.
    pub showing: bool,
    /// Solved by the player (without the solution shown).
    pub solved: bool,
    since_move: f32,
    started: bool,
}

impl Active {
    /// The next move of the solution at `ply`, if any.
    pub fn expected(&self, ply: usize) -> Option<Move> {
        self.puzzle.solution.get(ply).copied()
    }

    /// True when the move at `ply` is the solver's.
    pub fn solver_turn(&self, ply: usize) -> bool {
        ply.is_multiple_of(2)
    }
}

/// The puzzle mode: the collections and the puzzle being solved.
#[derive(Resource)]
pub struct Puzzles {
    pub russian: Vec<Puzzle>,
    pub giveaway: Vec<Puzzle>,
    pub active: Option<Active>,
    pub ending: Option<ActiveEnding>,
    /// Puzzles solved in this run that the settings do not hold yet (the window saves
    /// them): ids as [`puzzle_id`] gives them.
    pub newly_solved: Vec<String>,
    /// The unfinished game that was on the board when the puzzles began: it comes back
    /// when the player leaves them (the autosave keeps it meanwhile).
    pub set_aside: Option<(Setup, Game, Option<crate::rules::GameClock>)>,
    /// The game set aside came back this frame: the panel says so once it is on.
    came_back: bool,
}

impl Puzzles {
    /// A puzzle or an ending of the trainer is on the board.
    pub fn in_exercise(&self) -> bool {
        self.active.is_some() || self.ending.is_some()
    }

    /// What a move that [`Puzzles::allows`] refuses is told.
    pub fn refusal(&self) -> Text {
        if self.ending.is_some() {
            Text::EndingLetsWinGo
        } else {
            Text::PuzzleTryAgain
        }
    }
}

impl Default for Puzzles {
    fn default() -> Self {
        Puzzles {
            russian: collection(Variant::Russian),
            giveaway: collection(Variant::Giveaway),
            active: None,
            ending: None,
            newly_solved: Vec::new(),
            set_aside: None,
            came_back: false,
        }
    }
}

impl Puzzles {
    pub fn of(&self, variant: Variant) -> &[Puzzle] {
        match variant {
            Variant::Russian => &self.russian,
            Variant::Giveaway => &self.giveaway,
        }
    }

    /// Whether `mv` may be played now: always outside a puzzle; inside, only the
    /// solution's move; in an ending of the trainer, a move that keeps the win.
    pub fn allows(&self, game: &Game, mv: &Move) -> bool {
        if let Some(e) = &self.ending
            && !e.solved
            && !e.showing
            && game.side_to_move() == Color::White
            && let Some(tb) = crate::ai::tablebase::ready(game.variant())
        {
            return endings::keeps_win(&tb, game, mv);
        }
        match &self.active {
            Some(a) if !a.solved && !a.showing => a.expected(game.ply()) == Some(*mv),
            _ => true,
        }
    }

    /// The move the hint lights, if one was asked for at this position.
    pub fn hint(&self, game: &Game) -> Option<Move> {
        if let Some(e) = &self.ending {
            if e.hint_at != Some(game.ply()) {
                return None;
            }
            let tb = crate::ai::tablebase::ready(game.variant())?;
            return endings::best_move(&tb, game);
        }
        let a = self.active.as_ref()?;
        let ply = game.ply();
        (a.hint_at == Some(ply)).then(|| a.expected(ply)).flatten()
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Puzzles>()
        .add_message::<PuzzleCommand>()
        .add_systems(Update, take_commands.in_set(GameSet::Input))
        .add_systems(
            Update,
            follow_the_board
                .in_set(GameSet::Ai)
                .run_if(in_state(AppState::Playing)),
        );
}

/// The game of a puzzle or an ending: its position, both sides entered on the board.
fn exercise_game(variant: Variant, start: crate::rules::Position) -> NewGame {
    NewGame {
        setup: Setup {
            variant,
            white: Player::Human,
            black: Player::Human,
        },
        start: Start::Position(start),
        clock: None,
    }
}

fn take_commands(
    mut commands: MessageReader<PuzzleCommand>,
    mut puzzles: ResMut<Puzzles>,
    rules: Res<Rules>,
    state: Res<State<AppState>>,
    mut new_games: MessageWriter<NewGame>,
    mut next_state: ResMut<NextState<AppState>>,
) {
    for command in commands.read() {
        // A game in progress is kept aside, not thrown away, when the puzzles begin.
        if matches!(
            command,
            PuzzleCommand::Start { .. } | PuzzleCommand::StartEnding(_)
        ) && !puzzles.in_exercise()
            && *state.get() == AppState::Playing
            && rules.full_game().outcome().is_none()
            && rules.total_plies() > 0
        {
            puzzles.set_aside = Some((rules.setup, rules.full_game(), rules.clock.clone()));
        }
        match command {
            PuzzleCommand::Start { variant, index } => {
                let Some(puzzle) = puzzles.of(*variant).get(*index).cloned() else {
                    continue;
                };
                new_games.write(exercise_game(*variant, puzzle.start));
                next_state.set(AppState::Playing);
                puzzles.ending = None;
                puzzles.active = Some(Active {
                    variant: *variant,
                    index: *index,
                    puzzle,
                    hint_at: None,
                    showing: false,
                    solved: false,
                    since_move: 0.0,
                    started: false,
                });
            }
            PuzzleCommand::StartEnding(ending) => {
                new_games.write(exercise_game(ending.theme.variant(), ending.start));
                next_state.set(AppState::Playing);
                puzzles.active = None;
                puzzles.ending = Some(ActiveEnding {
                    ending: ending.clone(),
                    hint_at: None,
                    showing: false,
                    solved: false,
                    since_move: 0.0,
                    started: false,
                });
            }
            PuzzleCommand::Hint => {
                let ply = rules.game.ply();
                if let Some(e) = puzzles.ending.as_mut()
                    && rules.game.side_to_move() == Color::White
                {
                    e.hint_at = Some(ply);
                }
                if let Some(a) = puzzles.active.as_mut()
                    && a.solver_turn(ply)
                {
                    a.hint_at = Some(ply);
                }
            }
            PuzzleCommand::ShowSolution => {
                if let Some(e) = puzzles.ending.as_mut()
                    && !e.solved
                {
                    e.showing = true;
                }
                if let Some(a) = puzzles.active.as_mut()
                    && !a.solved
                {
                    a.showing = true;
                }
            }
            PuzzleCommand::Leave => {
                puzzles.active = None;
                puzzles.ending = None;
                if let Some((setup, game, clock)) = puzzles.set_aside.take() {
                    new_games.write(NewGame {
                        setup,
                        start: Start::Game(Box::new(game)),
                        clock,
                    });
                    next_state.set(AppState::Playing);
                    puzzles.came_back = true;
                }
            }
        }
    }
}

/// Plays the opponent's replies (and the shown solution), notices the end, and drops the
/// puzzle when the board holds another game.
fn follow_the_board(
    time: Res<Time>,
    rules: Res<Rules>,
    animator: Res<Animator>,
    mut puzzles: ResMut<Puzzles>,
    mut play: MessageWriter<PlayMove>,
    mut status: ResMut<Status>,
) {
    let puzzles = &mut *puzzles;
    // The new game clears the messages as it starts: the note follows it.
    if std::mem::take(&mut puzzles.came_back) {
        status.say(Text::GameBack);
    }
    // Another game took the board (a new game, an opened file): the one set aside is
    // abandoned as any game is when another starts.
    if !puzzles.in_exercise() {
        puzzles.set_aside = None;
    }
    if puzzles.ending.is_some() {
        let changed = rules.is_changed();
        follow_the_ending(
            &time,
            &rules,
            changed,
            &animator,
            puzzles,
            &mut play,
            &mut status,
        );
        return;
    }
    let Some(active) = puzzles.active.as_mut() else {
        return;
    };
    let game = &rules.game;
    let on_board = *game.start_position() == active.puzzle.start
        && active.puzzle.solution.starts_with(game.moves())
        && game.variant() == active.variant;
    if !on_board {
        // The new game of this puzzle may not have reached the rules yet.
        if active.started {
            puzzles.active = None;
        }
        return;
    }
    active.started = true;
    if rules.is_changed() {
        active.since_move = 0.0;
    }
    active.since_move += time.delta_secs();
    let ply = game.ply();
    if ply >= active.puzzle.solution.len() {
        if !active.solved && !active.showing {
            active.solved = true;
            status.say(Text::PuzzleSolved);
            puzzles.newly_solved.push(puzzle_id(&active.puzzle));
        }
        return;
    }
    let auto = active.showing || !active.solver_turn(ply);
    if auto
        && !animator.is_busy()
        && active.since_move >= REPLY_DELAY
        && let Some(mv) = active.expected(ply)
    {
        play.write(PlayMove(mv));
        active.since_move = 0.0;
    }
}

/// The trainer's ending: the computer's perfect defence (and the shown solution), and the
/// end of the exercise.
fn follow_the_ending(
    time: &Time,
    rules: &Rules,
    changed: bool,
    animator: &Animator,
    puzzles: &mut Puzzles,
    play: &mut MessageWriter<PlayMove>,
    status: &mut Status,
) {
    let Some(e) = puzzles.ending.as_mut() else {
        return;
    };
    let game = &rules.game;
    if *game.start_position() != e.ending.start || game.variant() != e.ending.theme.variant() {
        if e.started {
            puzzles.ending = None;
        }
        return;
    }
    e.started = true;
    if changed {
        e.since_move = 0.0;
    }
    e.since_move += time.delta_secs();
    if let Some(outcome) = game.outcome() {
        if outcome.winner() == Some(Color::White) && !e.solved && !e.showing {
            e.solved = true;
            status.say(Text::PuzzleSolved);
        }
        return;
    }
    let auto = e.showing || game.side_to_move() != Color::White;
    if auto
        && !animator.is_busy()
        && e.since_move >= REPLY_DELAY
        && let Some(tb) = crate::ai::tablebase::ready(game.variant())
        && let Some(mv) = endings::best_move(&tb, game)
    {
        play.write(PlayMove(mv));
        e.since_move = 0.0;
    }
}
