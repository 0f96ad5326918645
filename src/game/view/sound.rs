//! Sounds timed to the animation: a piece placed, each hop, each taken piece leaving, the
//! crown, a refused click, and the result from the player's side.

use super::UiClick;
use crate::game::persist::Persist;
use crate::game::{Cue, Rules, Status};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_kira_audio::prelude::*;
use std::io::Cursor;

/// Volume when no settings are loaded.
const DEFAULT_VOLUME: f32 = 0.8;

macro_rules! sound_files {
    ($($name:literal),*) => {
        [$(($name, include_bytes!(concat!("../../../assets/audio/", $name, ".ogg")).as_slice())),*]
    };
}

/// Built into the binary, so the sounds play wherever the game is started from.
const FILES: [(&str, &[u8]); 9] = sound_files!(
    "place", "hop", "remove", "crown", "refuse", "won", "lost", "drawn", "click"
);

/// The decoded sounds by name.
#[derive(Resource, Default)]
struct Sounds(HashMap<&'static str, Handle<AudioSource>>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Sounds>()
        .add_systems(Startup, decode_sounds)
        .add_systems(
            Update,
            (play_cues, play_result, play_clicks).after(crate::game::GameSet::View),
        );
}

fn decode_sounds(mut sounds: ResMut<Sounds>, mut sources: ResMut<Assets<AudioSource>>) {
    for (name, bytes) in FILES {
        match StaticSoundData::from_cursor(Cursor::new(bytes)) {
            Ok(sound) => {
                sounds.0.insert(name, sources.add(AudioSource { sound }));
            }
            Err(e) => warn!("sound {name}: {e}"),
        }
    }
}

/// The player's volume in decibels, or `None` when silent.
fn decibels(persist: Option<&Persist>) -> Option<f32> {
    let volume = persist.map_or(DEFAULT_VOLUME, |p| p.settings.effective_volume());
    (volume > 0.0).then(|| 20.0 * volume.log10())
}

fn play(audio: &Audio, sounds: &Sounds, name: &str, db: f32) {
    if let Some(handle) = sounds.0.get(name) {
        audio.play(handle.clone()).with_volume(db);
    }
}

fn play_cues(
    mut cues: MessageReader<Cue>,
    audio: Res<Audio>,
    sounds: Res<Sounds>,
    persist: Option<Res<Persist>>,
) {
    let Some(db) = decibels(persist.as_deref()) else {
        cues.clear();
        return;
    };
    for cue in cues.read() {
        let file = match cue {
            Cue::Placed => "place",
            Cue::Hop => "hop",
            Cue::Removed => "remove",
            Cue::Crowned => "crown",
            Cue::Refused => "refuse",
        };
        play(&audio, &sounds, file, db);
    }
}

/// Once the banner appears (the last move shown): won or lost for the human at the board,
/// drawn for a draw; a game between two people ends with "won".
fn play_result(
    status: Res<Status>,
    rules: Res<Rules>,
    audio: Res<Audio>,
    sounds: Res<Sounds>,
    persist: Option<Res<Persist>>,
    mut shown: Local<bool>,
) {
    let showing = status.banner.is_some();
    if showing == *shown {
        return;
    }
    *shown = showing;
    let (Some(outcome), Some(db)) = (rules.game.outcome(), decibels(persist.as_deref())) else {
        return;
    };
    if !showing {
        return;
    }
    let file = match (outcome.winner(), rules.setup.computer()) {
        (None, _) => "drawn",
        (Some(winner), Some(computer)) if winner == computer => "lost",
        _ => "won",
    };
    play(&audio, &sounds, file, db);
}

/// A soft click for every click on a panel.
fn play_clicks(
    mut clicks: MessageReader<UiClick>,
    audio: Res<Audio>,
    sounds: Res<Sounds>,
    persist: Option<Res<Persist>>,
) {
    if clicks.read().count() == 0 {
        return;
    }
    if let Some(db) = decibels(persist.as_deref()) {
        play(&audio, &sounds, "click", db);
    }
}
