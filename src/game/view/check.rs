//! `shashki demo --check`: the real window driven like a person, with pointer events
//! (moves and presses of the left button, as the window system sends them) that go
//! through picking. It plays a capture hop by hop, provokes messages, hovers a piece and
//! leaves it for the panel, undoes, turns the board, switches the language, and checks
//! on the way that the whole board is in the free part of the window from both sides,
//! that each message is one line, and that no piece stays lit. Exits with an error
//! naming the first check that failed.

use super::FlipView;
use super::picking::Hovered;
use crate::game::pieces::square_center;
use crate::game::{Animator, GameCommand, Language, Rules, Selection, Status};
use crate::i18n::Lang;
use crate::rules::Square;
use bevy::input::ButtonState;
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::{CursorMoved, PrimaryWindow, WindowEvent};
use bevy_egui::{EguiContexts, egui};

/// The check's position: White's man on c3 takes d4 and f6 (c3:e5:g7); a1 cannot move.
pub const CHECK_FEN: &str = "W:Wa1,c3:Bd4,f6,h8";

/// One thing the script does, then waits for.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// Wait until the scene is drawn and nothing moves.
    Settle(u32),
    Point(&'static str),
    /// The pointer over the game panel, away from the board.
    PointAtPanel,
    Press,
    Release,
    /// A whole click within one frame, as a slow frame receives it.
    ClickNow(&'static str),
    Expect(Check),
    Undo,
    Flip,
    Russian,
    Shot(&'static str),
}

#[derive(Clone, Copy, Debug)]
enum Check {
    BoardFits,
    Selected(&'static str),
    Hops(usize),
    Plies(usize),
    OneLineMessage,
    Hovering(&'static str),
    NothingLit,
}

/// A click is a move of the pointer, then a press and a release on later frames.
const fn click(sq: &'static str) -> [Step; 4] {
    [Step::Point(sq), Step::Press, Step::Release, Step::Settle(6)]
}

fn script() -> Vec<Step> {
    let mut s = vec![
        Step::Settle(40),
        Step::Expect(Check::BoardFits),
        Step::Shot("white"),
    ];
    // A man that cannot move while a capture is due: a message of one line.
    s.extend(click("a1"));
    s.push(Step::Expect(Check::OneLineMessage));
    // The opponent's piece: another, longer message, still one line.
    s.extend(click("h8"));
    s.push(Step::Expect(Check::OneLineMessage));
    // The capture, hop by hop.
    s.extend(click("c3"));
    s.push(Step::Expect(Check::Selected("c3")));
    s.extend(click("e5"));
    s.push(Step::Expect(Check::Hops(1)));
    s.extend(click("g7"));
    s.push(Step::Settle(30));
    s.push(Step::Expect(Check::Plies(1)));
    // Undo takes the man back from under the pointer: nothing stays lit.
    s.extend([
        Step::Point("g7"),
        Step::Settle(6),
        Step::Undo,
        Step::Settle(20),
        Step::Expect(Check::Plies(0)),
        Step::Expect(Check::NothingLit),
    ]);
    // Hover a piece, then leave it for the panel: nothing stays lit.
    s.extend([
        Step::Point("c3"),
        Step::Settle(6),
        Step::Expect(Check::Hovering("c3")),
        Step::PointAtPanel,
        Step::Settle(6),
        Step::Expect(Check::NothingLit),
    ]);
    s.extend([
        Step::Flip,
        Step::Settle(60),
        Step::Expect(Check::BoardFits),
        Step::Russian,
    ]);
    s.extend(click("a1"));
    s.extend([
        Step::Expect(Check::OneLineMessage),
        Step::Shot("black"),
        // A move and a whole click within one long frame: the click is not lost.
        Step::ClickNow("c3"),
        Step::Settle(6),
        Step::Expect(Check::Selected("c3")),
        Step::Settle(10),
    ]);
    s
}

/// A window event the script sends.
enum Sent {
    Move(CursorMoved),
    Button(ButtonState),
}

/// Where the script is.
#[derive(Resource)]
struct Progress {
    steps: Vec<Step>,
    at: usize,
    /// Frames left to wait in the current step.
    wait: u32,
    cursor: Vec2,
    shots: Option<String>,
    /// Passed or failed: nothing more to do.
    done: bool,
}

/// Adds the check to a game app; `shots` is a file prefix for the two screenshots.
pub fn plugin(app: &mut App, shots: Option<String>) {
    app.insert_resource(Progress {
        steps: script(),
        at: 0,
        wait: 0,
        cursor: Vec2::ZERO,
        shots,
        done: false,
    })
    .add_systems(Last, run_script);
}

/// What the script sends: window events as the window system does, and commands.
type Writers<'a> = (
    MessageWriter<'a, CursorMoved>,
    MessageWriter<'a, MouseButtonInput>,
    MessageWriter<'a, WindowEvent>,
    MessageWriter<'a, GameCommand>,
    MessageWriter<'a, FlipView>,
    MessageWriter<'a, AppExit>,
);

fn fail(exit: &mut MessageWriter<AppExit>, what: String) {
    eprintln!("check failed: {what}");
    exit.write(AppExit::from_code(1));
}

#[allow(clippy::too_many_arguments)]
fn run_script(
    mut commands: Commands,
    mut progress: ResMut<Progress>,
    mut contexts: EguiContexts,
    window: Query<(Entity, &Window), With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    rules: Res<Rules>,
    selection: Res<Selection>,
    hovered: Res<Hovered>,
    status: Res<Status>,
    animator: Res<Animator>,
    mut language: ResMut<Language>,
    mut persist: Option<ResMut<crate::game::persist::Persist>>,
    mut writers: Writers,
) -> Result {
    let (cursor_w, button_w, window_w, command_w, flip_w, exit) = &mut writers;
    let Ok((window_entity, window)) = window.single() else {
        return Ok(());
    };
    let Ok((cam, cam_t)) = camera.single() else {
        return Ok(());
    };
    if progress.done {
        return Ok(());
    }
    if progress.wait > 0 {
        progress.wait -= 1;
        return Ok(());
    }
    if animator.is_busy() {
        return Ok(());
    }
    let Some(step) = progress.steps.get(progress.at).copied() else {
        println!("check: ok ({} steps)", progress.steps.len());
        exit.write(AppExit::Success);
        progress.done = true;
        return Ok(());
    };
    progress.at += 1;
    let size = Vec2::new(window.width(), window.height());
    let on_screen = |sq: &str| -> Option<Vec2> {
        let sq: Square = sq.parse().ok()?;
        cam.world_to_viewport(cam_t, square_center(sq) + Vec3::Y * 0.1)
            .ok()
    };
    // What this step sends, written after it as the window system would.
    let mut sent: Vec<Sent> = Vec::new();
    let move_to = |p: Vec2, progress: &mut Progress, sent: &mut Vec<Sent>| {
        sent.push(Sent::Move(CursorMoved {
            window: window_entity,
            position: p,
            delta: Some(p - progress.cursor),
        }));
        progress.cursor = p;
    };
    match step {
        Step::Settle(n) => progress.wait = n,
        Step::Point(sq) => match on_screen(sq) {
            Some(p) => {
                // A pixel aside each time, so that pointing again is a move.
                let p = p + Vec2::new((progress.at % 3) as f32, 0.0);
                move_to(p, &mut progress, &mut sent);
                progress.wait = 2;
            }
            None => {
                fail(exit, format!("{sq} is not on the screen"));
                progress.done = true;
            }
        },
        Step::PointAtPanel => {
            let p = Vec2::new(size.x - 150.0, 120.0);
            move_to(p, &mut progress, &mut sent);
            progress.wait = 2;
        }
        Step::ClickNow(sq) => match on_screen(sq) {
            Some(p) => {
                move_to(p, &mut progress, &mut sent);
                sent.push(Sent::Button(ButtonState::Pressed));
                sent.push(Sent::Button(ButtonState::Released));
            }
            None => {
                fail(exit, format!("{sq} is not on the screen"));
                progress.done = true;
            }
        },
        Step::Press => {
            sent.push(Sent::Button(ButtonState::Pressed));
            progress.wait = 3;
        }
        Step::Release => {
            sent.push(Sent::Button(ButtonState::Released));
            progress.wait = 3;
        }
        Step::Undo => {
            command_w.write(GameCommand::Undo);
        }
        Step::Flip => {
            flip_w.write(FlipView);
        }
        // As the settings window does it.
        Step::Russian => match persist.as_mut() {
            Some(p) => p.settings.language = Lang::Ru,
            None => language.0 = Lang::Ru,
        },
        Step::Shot(name) => {
            if let Some(prefix) = &progress.shots {
                commands
                    .spawn(Screenshot::primary_window())
                    .observe(save_to_disk(format!("{prefix}-{name}.png")));
                progress.wait = 10;
            }
        }
        Step::Expect(check) => {
            let ok: std::result::Result<(), String> = match check {
                Check::BoardFits => {
                    // The free part as the panels really stand, not as the camera was told.
                    let ctx = contexts.ctx_mut()?;
                    let rect = |id: &str| ctx.memory(|m| m.area_rect(egui::Id::new(id)));
                    let right = rect("game_panel").map_or(0.0, |r| size.x - r.left());
                    let top = rect("menu").map_or(0.0, |r| r.bottom());
                    let (left, bottom) = (0.0, 0.0);
                    let half = super::scene::FRAME_HALF;
                    let mut bad = None;
                    for x in [-half, half] {
                        for z in [-half, half] {
                            let p = cam.world_to_viewport(cam_t, Vec3::new(x, 0.0, z));
                            let inside = p.as_ref().is_ok_and(|p| {
                                p.x >= left - 2.0
                                    && p.x <= size.x - right + 2.0
                                    && p.y >= top - 2.0
                                    && p.y <= size.y - bottom + 2.0
                            });
                            if !inside {
                                bad = Some(format!(
                                    "board corner ({x}, {z}) at {p:?} outside the free part \
                                     of a {size} window (panel from x {:.0}, menu to y {top:.0})",
                                    size.x - right
                                ));
                            }
                        }
                    }
                    bad.map_or(Ok(()), Err)
                }
                Check::Selected(sq) => {
                    let want = sq.parse::<Square>().ok();
                    if selection.from == want {
                        Ok(())
                    } else {
                        Err(format!("selected {:?}, expected {sq}", selection.from))
                    }
                }
                Check::Hops(n) => (selection.hops.len() == n)
                    .then_some(())
                    .ok_or_else(|| format!("{} hops chosen, expected {n}", selection.hops.len())),
                Check::Plies(n) => (rules.game.ply() == n)
                    .then_some(())
                    .ok_or_else(|| format!("{} plies played, expected {n}", rules.game.ply())),
                Check::OneLineMessage => match &status.message {
                    None => Err("no message was shown".into()),
                    Some(m) => {
                        let text = m.text(language.0);
                        let ctx = contexts.ctx_mut()?;
                        match ctx.memory(|mem| mem.area_rect(egui::Id::new(("message", &text)))) {
                            Some(r) if r.height() < 56.0 => Ok(()),
                            Some(r) => Err(format!(
                                "message '{text}' is {:.0} px tall: more than one line",
                                r.height()
                            )),
                            None => Err(format!("message '{text}' is not on the screen")),
                        }
                    }
                },
                Check::Hovering(sq) => {
                    let want = sq.parse::<Square>().ok();
                    (hovered.0 == want)
                        .then_some(())
                        .ok_or_else(|| format!("hovering {:?}, expected {sq}", hovered.0))
                }
                Check::NothingLit => hovered.0.map_or(Ok(()), |sq| {
                    Err(format!("{sq} still lit after the pointer left its piece"))
                }),
            };
            if let Err(what) = ok {
                fail(exit, format!("step {} ({check:?}): {what}", progress.at));
                progress.done = true;
            }
        }
    }
    for event in sent {
        match event {
            Sent::Move(moved) => {
                cursor_w.write(moved.clone());
                window_w.write(WindowEvent::CursorMoved(moved));
            }
            Sent::Button(state) => {
                let input = MouseButtonInput {
                    button: MouseButton::Left,
                    state,
                    window: window_entity,
                };
                button_w.write(input);
                window_w.write(WindowEvent::MouseButtonInput(input));
            }
        }
    }
    Ok(())
}
