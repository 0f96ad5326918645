//! The window: the game itself and `shashki demo`.

use crate::rules::Variant;

#[cfg(feature = "game")]
pub fn run_game() -> Result<(), String> {
    let mut app = crate::game::view::game_app();
    app.insert_resource(crate::game::tables::BuildTablesAtStart);
    app.run();
    Ok(())
}

#[cfg(not(feature = "game"))]
pub fn run_game() -> Result<(), String> {
    Err("this build has no window (built without the `game` feature); run a subcommand (see --help)".into())
}

/// The computer plays both sides in the window; with `bare`, a reference scene is timed instead.
#[cfg(feature = "game")]
pub fn demo(
    variant: Variant,
    moves: Option<u32>,
    screenshot: Option<String>,
    bare: bool,
    level: Option<u8>,
) -> Result<(), String> {
    use crate::ai::Level;
    use crate::game::demo::DemoConfig;
    use crate::game::{NewGame, Player, Setup};
    if bare {
        crate::game::view::bare::bare_app(moves.unwrap_or(40) * 8).run();
        return Ok(());
    }
    // Low levels keep the demo brisk; the point is to watch every animation.
    let setup = Setup {
        variant,
        white: Player::Computer(Level::new(level.unwrap_or(1))),
        black: Player::Computer(Level::new(level.unwrap_or(2))),
    };
    let config = DemoConfig {
        new_game: NewGame::fresh(setup),
        moves,
        screenshot,
        started: super::started(),
    };
    crate::game::view::demo_app(config).run();
    Ok(())
}

#[cfg(not(feature = "game"))]
pub fn demo(
    variant: Variant,
    moves: Option<u32>,
    screenshot: Option<String>,
    bare: bool,
    level: Option<u8>,
) -> Result<(), String> {
    let _ = (variant, moves, screenshot, bare, level);
    Err("this build has no window (built without the `game` feature)".into())
}

/// The window driven like a person (see `src/game/view/check.rs`).
#[cfg(feature = "game")]
pub fn check(screenshots: Option<String>) -> Result<(), String> {
    use crate::game::demo::DemoConfig;
    use crate::game::{NewGame, Player, Setup, Start};
    use crate::rules::Position;
    let start =
        Position::from_fen(crate::game::view::check::CHECK_FEN).map_err(|e| e.to_string())?;
    let config = DemoConfig {
        new_game: NewGame {
            setup: Setup {
                variant: Variant::Russian,
                white: Player::Human,
                black: Player::Human,
            },
            start: Start::Position(start),
            clock: None,
        },
        moves: None,
        screenshot: screenshots,
        started: super::started(),
    };
    match crate::game::view::check_app(config).run() {
        bevy::app::AppExit::Success => Ok(()),
        bevy::app::AppExit::Error(_) => Err("the window check failed".into()),
    }
}

#[cfg(not(feature = "game"))]
pub fn check(screenshots: Option<String>) -> Result<(), String> {
    let _ = screenshots;
    Err("this build has no window (built without the `game` feature)".into())
}
