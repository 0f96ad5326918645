#![cfg(feature = "game")]
//! Headless tests of the game plugins: piece entities follow the rules resource, moves are
//! animated hop by hop, the computer moves while frames keep running.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use shashki::ai::Level;
use shashki::game::pieces::pieces_of;
use shashki::game::{
    Animator, BoardClick, BoardCursor, Cue, CursorKey, Disc, GameCommand, GamePlugin, NewGame,
    Note, OnSquare, PieceToken, Player, Rules, Selection, Setup, Start, Status, Taken,
};
use shashki::i18n::{Lang, Text};
use shashki::rules::game::WinReason;
use shashki::rules::{
    Color as Side, Game, GameClock, Outcome, Position, Square, TimeControl, Variant,
};
use std::time::Duration;

const FRAME: Duration = Duration::from_millis(20);

fn humans(variant: Variant) -> Setup {
    Setup {
        variant,
        white: Player::Human,
        black: Player::Human,
    }
}

fn app_with(setup: Setup, fen: Option<&str>) -> App {
    let start = match fen {
        Some(f) => Start::Position(Position::from_fen(f).expect("test FEN")),
        None => Start::Initial,
    };
    app_starting(NewGame {
        setup,
        start,
        clock: None,
    })
}

/// The game plugins, headless, with `new_game` started.
fn app_starting(new_game: NewGame) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, GamePlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(FRAME));
    app.update();
    app.world_mut().write_message(new_game);
    frames(&mut app, 3);
    app
}

/// Runs frames in real time until the computer has moved and `side` is to move.
fn await_reply(app: &mut App, side: Side) {
    let mut updates = 0;
    while app.world().resource::<Rules>().game.side_to_move() != side
        || app.world().resource::<Animator>().is_busy()
    {
        app.update();
        updates += 1;
        std::thread::sleep(Duration::from_millis(2));
        assert!(updates < 5000, "the computer did not move");
    }
}

fn frames(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

fn sq(name: &str) -> Square {
    name.parse().expect("test square")
}

fn click(app: &mut App, name: &str) {
    app.world_mut().write_message(BoardClick(sq(name)));
    app.update();
}

/// Runs frames until nothing is animated (at most ten seconds of game time).
fn settle(app: &mut App) {
    for _ in 0..500 {
        app.update();
        if !app.world().resource::<Animator>().is_busy() {
            frames(app, 3);
            return;
        }
    }
    panic!("animation did not end");
}

fn entities(app: &mut App) -> Vec<(Square, usize, bool)> {
    let mut v: Vec<_> = app
        .world_mut()
        .query::<(&OnSquare, &PieceToken)>()
        .iter(app.world())
        .map(|(on, p)| (on.0, p.color.index(), p.king))
        .collect();
    v.sort();
    v
}

fn expected(app: &App) -> Vec<(Square, usize, bool)> {
    let mut v: Vec<_> = pieces_of(app.world().resource::<Rules>().game.position())
        .into_iter()
        .map(|(s, c, k)| (s, c.index(), k))
        .collect();
    v.sort();
    v
}

fn piece_at(app: &mut App, name: &str) -> Option<Entity> {
    let target = sq(name);
    app.world_mut()
        .query::<(Entity, &OnSquare, &PieceToken)>()
        .iter(app.world())
        .find(|(_, on, _)| on.0 == target)
        .map(|(e, _, _)| e)
}

fn discs_of(app: &mut App, piece: Entity) -> usize {
    let children: Vec<Entity> = app
        .world()
        .get::<Children>(piece)
        .map(|c| c.iter().collect())
        .unwrap_or_default();
    children
        .into_iter()
        .filter(|&c| app.world().get::<Disc>(c).is_some())
        .count()
}

/// The second disc sits on the first (not still flying in).
fn crown_stacked(app: &mut App, piece: Entity) -> bool {
    let children: Vec<Entity> = app
        .world()
        .get::<Children>(piece)
        .map(|c| c.iter().collect())
        .unwrap_or_default();
    children.into_iter().any(|c| {
        let w = app.world();
        w.get::<Disc>(c).is_some_and(|d| d.level == 1)
            && w.get::<Transform>(c).is_some_and(|t| {
                (t.translation - Vec3::Y * shashki::game::pieces::DISC_HEIGHT).length() < 1e-4
            })
    })
}

fn total_discs(app: &mut App) -> usize {
    app.world_mut().query::<&Disc>().iter(app.world()).count()
}

#[test]
fn start_has_24_pieces_on_their_squares() {
    let mut app = app_with(humans(Variant::Russian), None);
    let have = entities(&mut app);
    assert_eq!(have.len(), 24);
    assert_eq!(have, expected(&app));
    assert_eq!(total_discs(&mut app), 24);
    let white_c3 = piece_at(&mut app, "c3").expect("a piece on c3");
    let token = app.world().get::<PieceToken>(white_c3).unwrap();
    assert_eq!(token.color, Side::White);
}

#[test]
fn quiet_move_by_clicks_is_animated_then_matches() {
    let mut app = app_with(humans(Variant::Russian), None);
    let mover = piece_at(&mut app, "c3").unwrap();
    click(&mut app, "c3");
    assert_eq!(app.world().resource::<Selection>().from, Some(sq("c3")));
    click(&mut app, "d4");
    assert_eq!(app.world().resource::<Rules>().game.ply(), 1);
    frames(&mut app, 6);
    // Mid-slide: between the squares and lifted.
    let t = app.world().get::<Transform>(mover).unwrap().translation;
    assert!(t.y > 0.0, "the man is lifted while it slides: {t}");
    assert!(app.world().resource::<Animator>().is_busy());
    settle(&mut app);
    assert_eq!(entities(&mut app), expected(&app));
    assert_eq!(
        piece_at(&mut app, "d4"),
        Some(mover),
        "the same entity moved"
    );
    let t = app.world().get::<Transform>(mover).unwrap().translation;
    assert!(t.y.abs() < 1e-4);
}

#[test]
fn illegal_clicks_are_refused_with_a_message() {
    let mut app = app_with(humans(Variant::Russian), None);
    // A back-rank man cannot move.
    click(&mut app, "a1");
    assert_eq!(app.world().resource::<Selection>().from, None);
    assert!(app.world().resource::<Status>().message.is_some());
    click(&mut app, "c3");
    click(&mut app, "c5");
    assert_eq!(app.world().resource::<Rules>().game.ply(), 0);
    // Capture is compulsory: the man that cannot take does not select.
    let mut app = app_with(humans(Variant::Russian), Some("W:Wc3,a1:Bd4,h8"));
    click(&mut app, "a1");
    assert_eq!(app.world().resource::<Selection>().from, None);
    let message = app.world().resource::<Status>().message.clone().unwrap();
    assert_eq!(message, Note::Text(Text::CaptureCompulsory));
    assert!(message.text(Lang::En).contains("compulsory"));
}

#[test]
fn turkish_strike_keeps_taken_pieces_until_the_end_then_removes_them_in_order() {
    let mut app = app_with(humans(Variant::Russian), Some("W:Wc3:Bd4,f6,h8"));
    let first = piece_at(&mut app, "d4").unwrap();
    let second = piece_at(&mut app, "f6").unwrap();
    click(&mut app, "c3");
    // A landing square that is not the next hop is refused.
    click(&mut app, "d2");
    assert_eq!(app.world().resource::<Rules>().game.ply(), 0);
    click(&mut app, "e5");
    assert_eq!(app.world().resource::<Selection>().hops, vec![sq("e5")]);
    click(&mut app, "g7");
    assert_eq!(app.world().resource::<Rules>().game.ply(), 1);
    let mut first_gone = None;
    let mut second_gone = None;
    let mut both_taken_while_present = false;
    for frame in 0..400 {
        app.update();
        let w = app.world();
        let a = w.get_entity(first).is_ok();
        let b = w.get_entity(second).is_ok();
        if a && b && w.get::<Taken>(first).is_some() && w.get::<Taken>(second).is_some() {
            both_taken_while_present = true;
        }
        if !a && first_gone.is_none() {
            first_gone = Some(frame);
        }
        if !b && second_gone.is_none() {
            second_gone = Some(frame);
        }
        if !w.resource::<Animator>().is_busy() {
            break;
        }
    }
    assert!(
        both_taken_while_present,
        "both taken pieces stay, dimmed, until the sequence ends"
    );
    let (a, b) = (first_gone.unwrap(), second_gone.unwrap());
    assert!(
        a < b,
        "taken pieces leave in the order taken ({a} then {b})"
    );
    settle(&mut app);
    assert_eq!(entities(&mut app), expected(&app));
}

#[test]
fn promotion_stacks_a_second_disc() {
    let mut app = app_with(humans(Variant::Russian), Some("W:Wc7:Bh2"));
    let man = piece_at(&mut app, "c7").unwrap();
    assert_eq!(discs_of(&mut app, man), 1);
    click(&mut app, "c7");
    click(&mut app, "d8");
    settle(&mut app);
    assert_eq!(piece_at(&mut app, "d8"), Some(man));
    assert!(app.world().get::<PieceToken>(man).unwrap().king);
    assert_eq!(discs_of(&mut app, man), 2);
    assert_eq!(entities(&mut app), expected(&app));
}

#[test]
fn promotion_mid_capture_stacks_then_the_king_continues() {
    let mut app = app_with(humans(Variant::Russian), Some("W:Wb6:Bc7,f6,a7"));
    let man = piece_at(&mut app, "b6").unwrap();
    click(&mut app, "b6");
    // The route through d8 to h4 is the only one ending there.
    click(&mut app, "h4");
    let game = &app.world().resource::<Rules>().game;
    assert_eq!(game.moves().last().unwrap().to_string(), "b6:d8:h4");
    // After the first hop and the crown, the man is a king on d8 before going on.
    let mut crowned_on_d8 = false;
    for _ in 0..400 {
        app.update();
        let t = app.world().get::<Transform>(man).unwrap().translation;
        if (t - Vec3::new(-0.5, 0.0, -3.5)).length() < 1e-3 && crown_stacked(&mut app, man) {
            crowned_on_d8 = true;
        }
        if !app.world().resource::<Animator>().is_busy() {
            break;
        }
    }
    assert!(
        crowned_on_d8,
        "the second disc lands while the piece stands on d8"
    );
    settle(&mut app);
    assert_eq!(piece_at(&mut app, "h4"), Some(man));
    assert!(app.world().get::<PieceToken>(man).unwrap().king);
    assert_eq!(discs_of(&mut app, man), 2);
    assert_eq!(entities(&mut app), expected(&app));
}

#[test]
fn undo_restores_the_entities() {
    let mut app = app_with(humans(Variant::Russian), None);
    click(&mut app, "c3");
    click(&mut app, "d4");
    settle(&mut app);
    click(&mut app, "f6");
    click(&mut app, "g5");
    // Undo in the middle of the animation as well.
    frames(&mut app, 3);
    app.world_mut().write_message(GameCommand::Undo);
    frames(&mut app, 3);
    app.world_mut().write_message(GameCommand::Undo);
    settle(&mut app);
    assert_eq!(app.world().resource::<Rules>().game.ply(), 0);
    assert_eq!(entities(&mut app), expected(&app));
    assert_eq!(entities(&mut app).len(), 24);
    assert_eq!(total_discs(&mut app), 24, "no leftover discs");
    app.world_mut().write_message(GameCommand::Redo);
    settle(&mut app);
    assert_eq!(app.world().resource::<Rules>().game.ply(), 1);
    assert_eq!(entities(&mut app), expected(&app));
}

#[test]
fn the_computer_moves_while_frames_keep_running() {
    let setup = Setup {
        variant: Variant::Russian,
        white: Player::Human,
        black: Player::Computer(Level::new(1)),
    };
    let mut app = app_with(setup, None);
    click(&mut app, "c3");
    click(&mut app, "d4");
    let mut updates = 0;
    while app.world().resource::<Rules>().game.ply() < 2
        || app.world().resource::<Animator>().is_busy()
    {
        app.update();
        updates += 1;
        std::thread::sleep(Duration::from_millis(2));
        assert!(updates < 5000, "the computer did not move");
    }
    assert!(
        updates > 1,
        "frames kept running while the computer thought"
    );
    let game = app.world().resource::<Rules>().game.clone();
    let texts: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
    Game::replay(Variant::Russian, Position::start(), &texts).expect("legal moves");
    settle(&mut app);
    assert_eq!(entities(&mut app), expected(&app));
    // Undo against the computer goes back to the human's turn.
    app.world_mut().write_message(GameCommand::Undo);
    settle(&mut app);
    let game = &app.world().resource::<Rules>().game;
    assert_eq!(game.ply(), 0);
    assert_eq!(game.side_to_move(), Side::White);
}

#[test]
fn giveaway_banner_names_the_winner() {
    let mut app = app_with(humans(Variant::Giveaway), Some("B:Wd4:Be5,h8"));
    assert!(app.world().resource::<Status>().banner.is_none());
    click(&mut app, "e5");
    click(&mut app, "c3");
    settle(&mut app);
    let banner = app
        .world()
        .resource::<Status>()
        .banner
        .clone()
        .expect("a banner");
    assert_eq!(banner, "поддавки: White gave away all pieces and wins");
}

#[test]
fn russian_banner_names_the_winner() {
    let mut app = app_with(humans(Variant::Russian), Some("B:Wd4:Be5,h8"));
    click(&mut app, "e5");
    click(&mut app, "c3");
    settle(&mut app);
    let banner = app
        .world()
        .resource::<Status>()
        .banner
        .clone()
        .expect("a banner");
    assert_eq!(banner, "White has no pieces left: Black wins");
}

/// The cues heard so far, in order.
#[derive(Resource, Default)]
struct Heard(Vec<Cue>);

fn listen(mut cues: MessageReader<Cue>, mut heard: ResMut<Heard>) {
    heard.0.extend(cues.read().copied());
}

#[test]
fn cues_follow_the_steps_of_the_animation() {
    let mut app = app_with(humans(Variant::Russian), Some("W:Wc3:Bd4,f6,h8"));
    app.init_resource::<Heard>().add_systems(Last, listen);
    click(&mut app, "c3");
    click(&mut app, "d2");
    click(&mut app, "e5");
    click(&mut app, "g7");
    settle(&mut app);
    assert_eq!(
        app.world().resource::<Heard>().0,
        vec![Cue::Refused, Cue::Hop, Cue::Hop, Cue::Removed, Cue::Removed]
    );
    let mut app = app_with(humans(Variant::Russian), Some("W:Wc7:Bh2"));
    app.init_resource::<Heard>().add_systems(Last, listen);
    click(&mut app, "c7");
    click(&mut app, "d8");
    settle(&mut app);
    assert_eq!(
        app.world().resource::<Heard>().0,
        vec![Cue::Placed, Cue::Crowned]
    );
}

/// Plays `moves` (complete moves in notation) by clicking their squares.
fn play(app: &mut App, moves: &[&str]) {
    for text in moves {
        let mv = app
            .world()
            .resource::<Rules>()
            .game
            .position()
            .parse_move(text)
            .expect("a legal test move");
        click(app, &mv.from().to_string());
        for hop in mv.path() {
            click(app, &hop.to_string());
        }
        settle(app);
    }
}

fn command(app: &mut App, command: GameCommand) {
    app.world_mut().write_message(command);
    settle(app);
}

#[test]
fn review_steps_through_the_moves_and_a_new_branch_needs_confirmation() {
    let setup = Setup {
        variant: Variant::Russian,
        white: Player::Human,
        black: Player::Computer(Level::new(1)),
    };
    let fen = "W:Wa1,c1,e1,g1,c3,e3:Ba7,c7,e7,g7,f6,h6";
    let mut app = app_with(setup, Some(fen));
    // Both sides' moves are recorded by hand through a two-human game, then the computer
    // takes Black back for the review.
    app.world_mut().resource_mut::<Rules>().setup = humans(Variant::Russian);
    play(&mut app, &["c3-b4", "f6-g5", "e3-d4", "g5-h4"]);
    let full = app.world().resource::<Rules>().game.clone();
    assert_eq!(full.ply(), 4);
    app.world_mut().resource_mut::<Rules>().setup = setup;

    // A step back: Black (the computer) is to move but waits while the player reviews.
    command(&mut app, GameCommand::StepBack);
    for _ in 0..30 {
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(app.world().resource::<Rules>().game.ply(), 3);
    command(&mut app, GameCommand::StepBack);
    let rules = app.world().resource::<Rules>();
    assert_eq!(rules.game.ply(), 2);
    assert!(rules.in_review());
    assert_eq!(rules.game.position(), full.position_at(2).unwrap());
    assert_eq!(rules.total_plies(), 4);
    assert_eq!(entities(&mut app), expected(&app));

    // Forward again is the recorded move, animated like any other.
    app.world_mut().write_message(GameCommand::StepForward);
    app.update();
    assert!(app.world().resource::<Animator>().is_busy());
    settle(&mut app);
    assert_eq!(app.world().resource::<Rules>().game.ply(), 3);
    assert_eq!(entities(&mut app), expected(&app));

    // Clicking a move goes straight there.
    command(&mut app, GameCommand::GoTo(1));
    assert_eq!(app.world().resource::<Rules>().game.ply(), 1);
    command(&mut app, GameCommand::GoTo(2));
    // At White's turn a move other than the recorded e3-d4 waits for confirmation.
    play(&mut app, &["a1-b2"]);
    let rules = app.world().resource::<Rules>();
    assert!(rules.pending_branch.is_some());
    assert_eq!(rules.game.ply(), 2, "nothing dropped before the answer");
    command(&mut app, GameCommand::CancelBranch);
    let rules = app.world().resource::<Rules>();
    assert!(rules.pending_branch.is_none());
    assert_eq!(rules.total_plies(), 4, "the recorded moves are kept");
    play(&mut app, &["a1-b2"]);
    command(&mut app, GameCommand::ConfirmBranch);
    let rules = app.world().resource::<Rules>();
    // The computer may already have answered the new move.
    assert!((3..=4).contains(&rules.game.ply()), "{}", rules.game.ply());
    assert!(!rules.game.can_redo(), "the old tail is gone");
    assert_eq!(rules.game.moves()[2].to_string(), "a1-b2");
    assert!(!rules.in_review());
    settle(&mut app);
    assert_eq!(entities(&mut app), expected(&app));
    // Out of review, the computer (Black) answers.
    for _ in 0..3000 {
        app.update();
        if app.world().resource::<Rules>().game.ply() == 4 {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    assert_eq!(app.world().resource::<Rules>().game.ply(), 4);
}

#[test]
fn a_hint_shows_the_engines_best_move_for_the_human() {
    use shashki::game::Highlights;
    use shashki::game::analysis::{Analysis, RequestHint};
    for variant in [Variant::Russian, Variant::Giveaway] {
        let mut app = app_with(humans(variant), None);
        app.world_mut().resource_mut::<Analysis>().evaluate = true;
        app.world_mut().write_message(RequestHint);
        let mut hint = None;
        for _ in 0..2000 {
            app.update();
            hint = app.world().resource::<Analysis>().hint;
            if hint.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let hint = hint.expect("a hint within ten seconds");
        let game = &app.world().resource::<Rules>().game;
        assert_eq!(game.variant(), variant);
        assert!(game.legal_moves().iter().any(|m| m.same_effect(&hint)));
        // The evaluation bar reads the same search, for this position.
        let verdict = app
            .world()
            .resource::<Analysis>()
            .verdict
            .expect("a verdict");
        assert_eq!(verdict.key.1, 0);
        assert_eq!(verdict.best, Some(hint));
        app.update();
        let lit = &app.world().resource::<Highlights>().hint;
        assert_eq!(lit.first(), Some(&hint.from()));
        assert_eq!(lit.last(), Some(&hint.to()));
        // Once the move is played the hint is gone.
        play(&mut app, &[&hint.to_string()]);
        assert!(app.world().resource::<Analysis>().hint.is_none());
        assert!(app.world().resource::<Highlights>().hint.is_empty());
    }
}

#[test]
fn the_editor_places_pieces_checks_them_and_plays_from_there() {
    use shashki::game::AppState;
    use shashki::game::editor::{Editor, EditorCommand, Tool};
    let mut app = app_with(humans(Variant::Russian), None);
    play(&mut app, &["c3-d4"]);
    let before = app.world().resource::<Rules>().game.clone();
    app.world_mut().write_message(EditorCommand::Open);
    frames(&mut app, 2);
    assert_eq!(
        *app.world().resource::<State<AppState>>().get(),
        AppState::Editing
    );
    app.world_mut().write_message(EditorCommand::Clear);
    frames(&mut app, 2);
    assert_eq!(entities(&mut app), vec![]);
    app.world_mut().resource_mut::<Editor>().tool = Tool::WhiteKing;
    click(&mut app, "a1");
    app.world_mut().resource_mut::<Editor>().tool = Tool::BlackMan;
    click(&mut app, "e5");
    click(&mut app, "f6");
    click(&mut app, "f6"); // a second click takes it off again
    frames(&mut app, 2);
    assert_eq!(entities(&mut app), expected(&app));
    assert_eq!(
        app.world().resource::<Rules>().game.position().to_fen(),
        "B:WKa1:Be5",
        "the side to move stays as it was"
    );
    // A black man on its last row is refused by the rules engine, with a reason.
    click(&mut app, "b2");
    click(&mut app, "c1");
    let message = app
        .world()
        .resource::<Status>()
        .message
        .clone()
        .expect("a reason");
    assert!(message.text(Lang::En).contains("c1"), "{message:?}");
    assert!(message.text(Lang::Ru).contains("c1"));
    assert_eq!(
        app.world().resource::<Rules>().game.position().to_fen(),
        "B:WKa1:Bb2,e5"
    );
    app.world_mut()
        .write_message(EditorCommand::SetVariant(Variant::Giveaway));
    app.world_mut()
        .write_message(EditorCommand::SideToMove(Side::White));
    frames(&mut app, 2);
    app.world_mut()
        .write_message(EditorCommand::Play(humans(Variant::Russian)));
    frames(&mut app, 3);
    let rules = app.world().resource::<Rules>();
    assert_eq!(rules.game.variant(), Variant::Giveaway);
    assert_eq!(rules.game.position().to_fen(), "W:WKa1:Bb2,e5");
    assert_eq!(rules.game.ply(), 0);
    assert_eq!(
        *app.world().resource::<State<AppState>>().get(),
        AppState::Playing
    );
    assert_eq!(entities(&mut app), expected(&app));

    // Cancel brings back the game that was on the board.
    let mut app = app_with(humans(Variant::Russian), None);
    play(&mut app, &["c3-d4"]);
    app.world_mut().write_message(EditorCommand::Open);
    frames(&mut app, 2);
    app.world_mut().write_message(EditorCommand::Clear);
    frames(&mut app, 2);
    app.world_mut().write_message(EditorCommand::Cancel);
    frames(&mut app, 3);
    assert_eq!(app.world().resource::<Rules>().game.moves(), before.moves());
    assert_eq!(entities(&mut app), expected(&app));
}

#[test]
fn a_game_read_from_pdn_continues_where_it_ended() {
    use shashki::game::records;
    let pdn = "[White \"A\"]\n[Black \"B\"]\n\n1. c3-d4 f6-g5 2. b2-c3 g5-h4 3. g3-f4 *\n\n\
               [White \"C\"]\n\n1. c3-d4 x *\n";
    let loaded = records::read_games(pdn, Lang::En);
    assert_eq!(loaded.games.len(), 1);
    assert_eq!(loaded.errors.len(), 1);
    assert!(
        loaded.errors[0].starts_with("Game 2: line "),
        "{:?}",
        loaded.errors
    );
    let record = loaded.games.into_iter().next().unwrap();
    let mut app = app_with(humans(Variant::Russian), None);
    app.world_mut().write_message(NewGame {
        setup: humans(Variant::Russian),
        start: Start::Game(Box::new(record.game.clone())),
        clock: None,
    });
    frames(&mut app, 3);
    let rules = app.world().resource::<Rules>();
    assert_eq!(rules.game.ply(), 5);
    assert_eq!(rules.game.side_to_move(), Side::Black);
    assert_eq!(entities(&mut app), expected(&app));
    // Written back, it reads as the same game.
    let text = records::pdn_of(app.world().resource::<Rules>());
    let again = records::read_games(&text, Lang::En);
    assert!(again.errors.is_empty(), "{:?}", again.errors);
    assert_eq!(again.games[0].game.moves(), record.game.moves());
    assert!(text.contains("[Date \"20"), "{text}");
}

#[test]
fn messages_and_the_banner_follow_the_language() {
    use shashki::game::Language;
    let mut app = app_with(humans(Variant::Russian), Some("W:Wc3,a1:Bd4,h8"));
    app.world_mut().resource_mut::<Language>().0 = Lang::Ru;
    click(&mut app, "a1");
    let message = app.world().resource::<Status>().message.clone().unwrap();
    assert!(message.text(Lang::Ru).starts_with("Бить обязательно"));
    let mut app = app_with(humans(Variant::Russian), Some("W:Wc3:Bd4"));
    app.world_mut().resource_mut::<Language>().0 = Lang::Ru;
    play(&mut app, &["c3:e5"]);
    let banner = app.world().resource::<Status>().banner.clone().unwrap();
    assert_eq!(banner, "У чёрных не осталось шашек: победа белых");
    // Switching while the banner is up rewrites it.
    app.world_mut().resource_mut::<Language>().0 = Lang::En;
    frames(&mut app, 1);
    let banner = app.world().resource::<Status>().banner.clone().unwrap();
    assert_eq!(banner, "Black has no pieces left: White wins");
}

#[test]
fn the_interface_font_shows_every_russian_text() {
    use bevy_egui::egui::{FontDefinitions, FontFamily};
    use shashki::i18n::tr;
    use skrifa::MetadataProvider;
    let fonts = FontDefinitions::default();
    for family in [FontFamily::Proportional, FontFamily::Monospace] {
        let faces: Vec<skrifa::FontRef> = fonts.families[&family]
            .iter()
            .map(|name| skrifa::FontRef::new(&fonts.font_data[name].font).expect("a font"))
            .collect();
        let mut missing = Vec::new();
        for &text in Text::ALL {
            for c in tr(Lang::Ru, text).chars().chain(tr(Lang::En, text).chars()) {
                if !c.is_control() && !faces.iter().any(|f| f.charmap().map(c).is_some()) {
                    missing.push((text, c));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "{family:?} has no glyph for {missing:?}"
        );
    }
}

#[test]
fn reviewing_a_resigned_game_keeps_its_result_and_continuing_drops_the_tail() {
    let mut app = app_with(humans(Variant::Russian), None);
    play(&mut app, &["c3-d4", "f6-g5", "b2-c3"]);
    command(&mut app, GameCommand::Resign);
    let resigned = app.world().resource::<Rules>().game.outcome();
    assert!(resigned.is_some());
    // Back through the moves and forward again: the resignation comes back at the end.
    command(&mut app, GameCommand::StepBack);
    let rules = app.world().resource::<Rules>();
    assert_eq!(rules.game.ply(), 2);
    assert!(rules.game.outcome().is_none());
    assert!(rules.in_review());
    assert_eq!(rules.full_game().outcome(), resigned, "the save keeps it");
    // Resigning or offering a draw at a reviewed point does nothing.
    command(&mut app, GameCommand::OfferDraw);
    assert!(app.world().resource::<Rules>().game.outcome().is_none());
    command(&mut app, GameCommand::GoTo(usize::MAX));
    let rules = app.world().resource::<Rules>();
    assert_eq!(rules.game.ply(), 3);
    assert_eq!(rules.game.outcome(), resigned);

    // Redo while reviewing stays a review; "continue from here" drops the later moves.
    command(&mut app, GameCommand::GoTo(1));
    command(&mut app, GameCommand::Redo);
    let rules = app.world().resource::<Rules>();
    assert_eq!(rules.game.ply(), 2);
    assert!(rules.in_review());
    command(&mut app, GameCommand::ContinueHere);
    command(&mut app, GameCommand::ConfirmBranch);
    let rules = app.world().resource::<Rules>();
    assert_eq!(rules.game.ply(), 2);
    assert_eq!(rules.total_plies(), 2, "the tail is gone");
    assert!(!rules.game.can_redo());
    assert!(rules.game.outcome().is_none());
    assert!(rules.declared.is_none());
}

#[test]
fn the_editor_refuses_a_position_without_a_move() {
    use shashki::game::AppState;
    use shashki::game::editor::{Editor, EditorCommand, Tool};
    let mut app = app_with(humans(Variant::Russian), None);
    app.world_mut().write_message(EditorCommand::Open);
    frames(&mut app, 2);
    app.world_mut().write_message(EditorCommand::Clear);
    frames(&mut app, 2);
    app.world_mut().resource_mut::<Editor>().tool = Tool::WhiteMan;
    click(&mut app, "a1");
    app.world_mut().resource_mut::<Editor>().tool = Tool::BlackMan;
    click(&mut app, "b2");
    click(&mut app, "c3");
    app.world_mut()
        .write_message(EditorCommand::SideToMove(Side::White));
    frames(&mut app, 2);
    app.world_mut()
        .write_message(EditorCommand::Play(humans(Variant::Russian)));
    frames(&mut app, 3);
    assert_eq!(
        *app.world().resource::<State<AppState>>().get(),
        AppState::Editing,
        "White is blocked: no game starts"
    );
    let message = app.world().resource::<Status>().message.clone().unwrap();
    assert_eq!(message, Note::Text(Text::EditorNoMoves));
    assert!(app.world().resource::<Editor>().is_open());
    // In поддавки the same blocked position is refused as a win already made.
    app.world_mut()
        .write_message(EditorCommand::SetVariant(Variant::Giveaway));
    frames(&mut app, 2);
    app.world_mut()
        .write_message(EditorCommand::Play(humans(Variant::Giveaway)));
    frames(&mut app, 3);
    let message = app.world().resource::<Status>().message.clone().unwrap();
    assert_eq!(message, Note::Text(Text::EditorNoMovesGiveaway));
    app.world_mut()
        .write_message(EditorCommand::SetVariant(Variant::Russian));
    frames(&mut app, 2);
    // A new game from the new-game panel leaves the editor for good.
    app.world_mut()
        .write_message(NewGame::fresh(humans(Variant::Russian)));
    frames(&mut app, 3);
    assert!(!app.world().resource::<Editor>().is_open());
    assert_eq!(
        *app.world().resource::<State<AppState>>().get(),
        AppState::Playing
    );
    assert_eq!(entities(&mut app).len(), 24);
}

#[test]
fn analysing_the_game_marks_a_hung_man_and_shows_the_better_move() {
    use shashki::ai::analysis::Mark;
    use shashki::game::Highlights;
    use shashki::game::review::{GameReview, ReviewCommand};
    let mut app = app_with(humans(Variant::Russian), Some("W:Wa1,g3:Be5,b8"));
    play(&mut app, &["g3-f4", "e5:g3", "a1-b2", "b8-a7"]);
    app.world_mut().write_message(ReviewCommand::Start);
    app.update();
    assert!(app.world().resource::<GameReview>().progress().is_some());
    for _ in 0..3000 {
        app.update();
        if app.world().resource::<GameReview>().result().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let review = app.world().resource::<GameReview>();
    let result = review.result().expect("the analysis finishes");
    assert_eq!(result.analysis.moves.len(), 4);
    assert_eq!(
        review.move_before(1).and_then(|r| r.mark),
        Some(Mark::Blunder)
    );
    assert_eq!(review.move_before(2).and_then(|r| r.mark), None);
    // At the marked move the better one is drawn as an arrow.
    command(&mut app, GameCommand::GoTo(1));
    let better = app
        .world()
        .resource::<GameReview>()
        .move_before(1)
        .unwrap()
        .best_line[0];
    let hint = app.world().resource::<Highlights>().hint.clone();
    assert_eq!(hint.first(), Some(&better.from()));
    assert_eq!(hint.last(), Some(&better.to()));
    // Another game on the board drops the analysis.
    command(&mut app, GameCommand::GoTo(4));
    play(&mut app, &["b2-c3"]);
    assert!(app.world().resource::<GameReview>().result().is_none());
}

#[test]
fn the_opening_is_named_and_saved_with_the_game() {
    use shashki::game::records;
    let mut app = app_with(humans(Variant::Russian), None);
    play(&mut app, &["c3-d4", "d6-c5", "b2-c3"]);
    assert!(!records::pdn_of(app.world().resource::<Rules>()).contains("[Opening"));
    play(&mut app, &["f6-g5"]);
    let text = records::pdn_of(app.world().resource::<Rules>());
    assert!(text.contains("[Opening \"Городская партия\"]"), "{text}");
}

#[test]
fn a_puzzle_refuses_wrong_moves_answers_for_the_opponent_and_counts_as_solved() {
    use shashki::ai::puzzle::Puzzle;
    use shashki::game::Highlights;
    use shashki::game::puzzles::{PuzzleCommand, Puzzles, puzzle_id};
    let line = "1\trussian\tW:Wa5,b4,c1,f2,g1,g3:Bc7,d4,e3,e5,e7,h8\tmaterial\t1\t\
                b4-c5 d4:b6 f2:d4:f6:d8\ttest";
    let puzzle = Puzzle::from_line(line).unwrap();
    let mut app = app_with(humans(Variant::Russian), None);
    app.world_mut().resource_mut::<Puzzles>().russian = vec![puzzle.clone()];
    app.world_mut().write_message(PuzzleCommand::Start {
        variant: Variant::Russian,
        index: 0,
    });
    settle(&mut app);
    assert_eq!(
        app.world().resource::<Rules>().game.position(),
        &puzzle.start
    );
    // A legal move that is not the solution is refused.
    click(&mut app, "g3");
    click(&mut app, "h4");
    assert_eq!(app.world().resource::<Rules>().game.ply(), 0);
    assert_eq!(
        app.world().resource::<Status>().message,
        Some(Note::Text(Text::PuzzleTryAgain))
    );
    // The hint lights the solution's first move.
    app.world_mut().write_message(PuzzleCommand::Hint);
    frames(&mut app, 3);
    assert_eq!(
        app.world().resource::<Highlights>().hint,
        vec![sq("b4"), sq("c5")]
    );
    play(&mut app, &["b4-c5"]);
    // The opponent's forced reply comes by itself.
    for _ in 0..200 {
        app.update();
        if app.world().resource::<Rules>().game.ply() == 2 {
            break;
        }
    }
    settle(&mut app);
    assert_eq!(app.world().resource::<Rules>().game.ply(), 2);
    play(&mut app, &["f2:d4:f6:d8"]);
    frames(&mut app, 3);
    let puzzles = app.world().resource::<Puzzles>();
    assert!(puzzles.active.as_ref().unwrap().solved);
    assert_eq!(puzzles.newly_solved, vec![puzzle_id(&puzzle)]);

    // Shown instead of solved: the game plays it all, and it does not count.
    app.world_mut()
        .resource_mut::<Puzzles>()
        .newly_solved
        .clear();
    app.world_mut().write_message(PuzzleCommand::Start {
        variant: Variant::Russian,
        index: 0,
    });
    settle(&mut app);
    app.world_mut().write_message(PuzzleCommand::ShowSolution);
    for _ in 0..400 {
        app.update();
        if app.world().resource::<Rules>().game.ply() == 3 {
            break;
        }
    }
    settle(&mut app);
    assert_eq!(app.world().resource::<Rules>().game.ply(), 3);
    let puzzles = app.world().resource::<Puzzles>();
    assert!(!puzzles.active.as_ref().unwrap().solved);
    assert!(puzzles.newly_solved.is_empty());
    // Another game on the board ends the puzzle.
    app.world_mut()
        .write_message(NewGame::fresh(humans(Variant::Russian)));
    frames(&mut app, 3);
    assert!(app.world().resource::<Puzzles>().active.is_none());
}

#[test]
fn each_sides_last_move_is_lit() {
    use shashki::game::Highlights;
    let mut app = app_with(humans(Variant::Russian), None);
    play(&mut app, &["c3-d4", "f6-g5"]);
    frames(&mut app, 2);
    let h = app.world().resource::<Highlights>();
    assert_eq!(h.last_move, vec![sq("f6"), sq("g5")]);
    assert_eq!(h.previous_move, vec![sq("c3"), sq("d4")]);
}

#[test]
fn a_puzzle_keeps_the_game_in_progress_and_leaving_brings_it_back() {
    use shashki::game::puzzles::{PuzzleCommand, Puzzles};
    use shashki::rules::Color;
    let setup = Setup {
        variant: Variant::Russian,
        white: Player::Human,
        black: Player::Computer(shashki::ai::Level::new(1)),
    };
    let mut app = app_with(setup, None);
    play(&mut app, &["c3-d4"]);
    // The computer answers (its search runs on a thread: real time passes).
    await_reply(&mut app, Color::White);
    settle(&mut app);
    let before = app.world().resource::<Rules>().game.clone();
    assert_eq!(before.ply(), 2);
    app.world_mut().write_message(PuzzleCommand::Start {
        variant: Variant::Russian,
        index: 0,
    });
    settle(&mut app);
    {
        let puzzles = app.world().resource::<Puzzles>();
        assert!(puzzles.active.is_some());
        assert_eq!(
            puzzles.set_aside.as_ref().unwrap().1.moves(),
            before.moves()
        );
        let rules = app.world().resource::<Rules>();
        assert_ne!(
            rules.game.moves(),
            before.moves(),
            "the puzzle is on the board"
        );
    }
    app.world_mut().write_message(PuzzleCommand::Leave);
    settle(&mut app);
    let rules = app.world().resource::<Rules>();
    assert_eq!(rules.game.moves(), before.moves(), "the game is back");
    assert_eq!(rules.setup, setup, "against the computer again");
    assert_eq!(
        app.world().resource::<Status>().message,
        Some(Note::Text(Text::GameBack))
    );
    assert!(app.world().resource::<Puzzles>().set_aside.is_none());
}

#[test]
fn a_whole_exchange_is_played_from_the_keyboard_and_bad_entries_say_why() {
    use shashki::game::TypedMove;
    let mut app = app_with(humans(Variant::Russian), None);
    let typed = |app: &mut App, text: &str| {
        app.world_mut().write_message(TypedMove(text.to_string()));
        settle(app);
    };
    typed(&mut app, "cd4");
    typed(&mut app, "f6-e5");
    assert_eq!(app.world().resource::<Rules>().game.ply(), 2);
    // An illegal entry is refused with the legal moves; the capture is compulsory.
    typed(&mut app, "g3-h4");
    assert_eq!(app.world().resource::<Rules>().game.ply(), 2);
    let Some(Note::Plain(text)) = app.world().resource::<Status>().message.clone() else {
        panic!("a reason is given");
    };
    assert!(text.contains("d4:f6"), "{text}");
    typed(&mut app, "d4f6");
    typed(&mut app, "g7xe5");
    assert_eq!(app.world().resource::<Rules>().game.ply(), 4);
    assert_eq!(
        app.world().resource::<Rules>().game.moves()[3].to_string(),
        "g7:e5"
    );
    typed(&mut app, "nonsense");
    assert_eq!(app.world().resource::<Rules>().game.ply(), 4);
    // In Russian the reason is in Russian.
    app.world_mut().resource_mut::<shashki::game::Language>().0 = shashki::i18n::Lang::Ru;
    typed(&mut app, "a1-b2");
    let Some(Note::Plain(text)) = app.world().resource::<Status>().message.clone() else {
        panic!("a reason is given");
    };
    assert!(text.contains("невозможен"), "{text}");
}

fn clocked(setup: Setup, control: TimeControl) -> App {
    app_starting(NewGame {
        setup,
        start: Start::Initial,
        clock: Some(GameClock::new(control)),
    })
}

fn clock_secs(app: &App, side: Side) -> f64 {
    let rules = app.world().resource::<Rules>();
    rules.clock_time(side).expect("a clock").as_secs_f64()
}

#[test]
fn the_clock_runs_for_the_side_to_move_and_a_flag_loses() {
    let mut app = clocked(humans(Variant::Russian), TimeControl::new(2.0, 1.0));
    frames(&mut app, 25);
    let white = clock_secs(&app, Side::White);
    assert!((1.3..1.5).contains(&white), "{white}");
    assert_eq!(clock_secs(&app, Side::Black), 2.0);
    click(&mut app, "c3");
    click(&mut app, "d4");
    settle(&mut app);
    // The move took its time off and earned the increment; the clock waited for the
    // move to be shown, and now Black's runs.
    let after = clock_secs(&app, Side::White);
    assert!((2.25..2.5).contains(&after), "{after}");
    assert!(clock_secs(&app, Side::Black) < 2.0);
    for _ in 0..200 {
        app.update();
        if app.world().resource::<Rules>().game.outcome().is_some() {
            break;
        }
    }
    let rules = app.world().resource::<Rules>();
    assert_eq!(
        rules.game.outcome(),
        Some(Outcome::Win {
            winner: Side::White,
            reason: WinReason::Time
        })
    );
    assert_eq!(clock_secs(&app, Side::White), after);
    assert_eq!(clock_secs(&app, Side::Black), 0.0);
    // The PDN has the control and each move's clock.
    let pdn = shashki::game::records::pdn_of(rules);
    assert!(pdn.contains("[TimeControl \"2+1\"]"), "{pdn}");
    assert!(pdn.contains("[Result \"1-0\"]"), "{pdn}");
    assert!(pdn.contains("1. c3-d4 {[%clk 0:00:02]}"), "{pdn}");
    // Read back, the record gives its clocks again (in whole seconds, as PDN writes them).
    let back = shashki::rules::pdn::read_pdn(&pdn).remove(0).unwrap();
    let clock = back.clock().expect("the clock comes back");
    assert_eq!(clock.len(), 2);
    assert_eq!(
        clock.remaining(Side::White, 1, Side::Black),
        Duration::from_secs(after as u64)
    );
    // Taking the move back gives Black the game and its time back.
    app.world_mut().write_message(GameCommand::Undo);
    frames(&mut app, 1);
    assert!(app.world().resource::<Rules>().game.outcome().is_none());
    assert!(clock_secs(&app, Side::Black) > 1.9);
}

#[test]
fn a_paused_game_stops_both_clocks_and_takes_no_move() {
    let mut app = clocked(humans(Variant::Giveaway), TimeControl::minutes(3, 2));
    frames(&mut app, 10);
    app.world_mut().write_message(GameCommand::Pause);
    frames(&mut app, 1);
    let white = clock_secs(&app, Side::White);
    frames(&mut app, 100);
    assert_eq!(clock_secs(&app, Side::White), white);
    click(&mut app, "c3");
    click(&mut app, "d4");
    settle(&mut app);
    let rules = app.world().resource::<Rules>();
    assert_eq!(rules.game.ply(), 0);
    assert_eq!(
        app.world().resource::<Status>().message,
        Some(Note::Text(Text::GamePaused))
    );
    app.world_mut().write_message(GameCommand::Pause);
    frames(&mut app, 10);
    assert!(clock_secs(&app, Side::White) < white);
    click(&mut app, "c3");
    click(&mut app, "d4");
    settle(&mut app);
    assert_eq!(app.world().resource::<Rules>().game.ply(), 1);
}

#[test]
fn the_computer_plays_under_the_clock() {
    let setup = Setup {
        variant: Variant::Russian,
        white: Player::Human,
        black: Player::Computer(Level::new(6)),
    };
    let mut app = clocked(setup, TimeControl::minutes(3, 2));
    click(&mut app, "c3");
    click(&mut app, "d4");
    settle(&mut app);
    await_reply(&mut app, Side::White);
    let rules = app.world().resource::<Rules>();
    assert_eq!(rules.game.ply(), 2);
    assert_eq!(rules.clock.as_ref().map(|c| c.len()), Some(3));
    // It used some of its time and got the increment for its move.
    let black = clock_secs(&app, Side::Black);
    assert!(black > 170.0 && black <= 182.0, "{black}");
}

#[test]
fn the_board_cursor_plays_a_whole_move_from_the_keyboard() {
    let mut app = app_with(humans(Variant::Russian), None);
    let key = |app: &mut App, k: CursorKey| {
        app.world_mut().write_message(k);
        app.update();
    };
    let at = |app: &App| app.world().resource::<BoardCursor>().at;
    // The first key shows the cursor on a piece that can move (a1 would be first, but a
    // man on a1 cannot move: the first legal move's piece).
    key(&mut app, CursorKey::Step { files: 0, ranks: 1 });
    let start = at(&app).expect("the cursor shows");
    let legal = app.world().resource::<Rules>().game.legal_moves();
    assert_eq!(Square::from_coords(start.0, start.1), Some(legal[0].from()));
    // Walk to c3 (file 2, rank 2), clamped at the edge on the way.
    for _ in 0..10 {
        key(
            &mut app,
            CursorKey::Step {
                files: -1,
                ranks: 0,
            },
        );
    }
    for _ in 0..10 {
        key(
            &mut app,
            CursorKey::Step {
                files: 0,
                ranks: -1,
            },
        );
    }
    assert_eq!(at(&app), Some((0, 0)));
    for _ in 0..2 {
        key(&mut app, CursorKey::Step { files: 1, ranks: 0 });
        key(&mut app, CursorKey::Step { files: 0, ranks: 1 });
    }
    assert_eq!(at(&app), Some((2, 2)));
    key(&mut app, CursorKey::Press);
    assert_eq!(app.world().resource::<Selection>().from, Some(sq("c3")));
    // A light square is not a click: the selection stays.
    key(&mut app, CursorKey::Step { files: 0, ranks: 1 });
    key(&mut app, CursorKey::Press);
    assert_eq!(app.world().resource::<Selection>().from, Some(sq("c3")));
    key(&mut app, CursorKey::Step { files: 1, ranks: 0 });
    key(&mut app, CursorKey::Press);
    settle(&mut app);
    let rules = app.world().resource::<Rules>();
    assert_eq!(rules.game.ply(), 1);
    assert_eq!(rules.game.moves()[0].to(), sq("d4"));
    key(&mut app, CursorKey::Hide);
    assert_eq!(at(&app), None);
}

#[test]
fn without_increment_a_standard_draw_ending_is_drawn_at_once() {
    for (control, drawn) in [
        (TimeControl::minutes(5, 0), true),
        (TimeControl::minutes(5, 3), false),
    ] {
        let mut app = app_starting(NewGame {
            setup: humans(Variant::Russian),
            start: Start::Position(Position::from_fen("W:WKa1,Kc3:BKf8").unwrap()),
            clock: Some(GameClock::new(control)),
        });
        click(&mut app, "a1");
        click(&mut app, "b2");
        settle(&mut app);
        let rules = app.world().resource::<Rules>();
        assert_eq!(rules.game.ply(), 1);
        let expected = drawn.then_some(Outcome::Draw(shashki::rules::DrawRule::StandardEnding));
        assert_eq!(rules.game.outcome(), expected, "{control}");
    }
}

#[test]
fn the_clock_waits_while_the_editor_holds_the_board() {
    use shashki::game::editor::EditorCommand;
    let mut app = clocked(humans(Variant::Russian), TimeControl::minutes(3, 2));
    frames(&mut app, 10);
    app.world_mut().write_message(EditorCommand::Open);
    frames(&mut app, 2);
    let white = app.world().resource::<Rules>().clock.clone();
    assert!(white.is_none(), "the editor's board has no clock");
    frames(&mut app, 200);
    app.world_mut().write_message(EditorCommand::Cancel);
    frames(&mut app, 2);
    // Four seconds in the editor cost nothing: about 15 frames of play in all.
    let left = clock_secs(&app, Side::White);
    assert!(left > 179.5 && left < 180.0, "{left}");
}
