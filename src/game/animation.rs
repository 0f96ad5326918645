//! Animation of committed moves: slides, capture hops, promotion, taken pieces leaving.
//!
//! The rules resource is already updated when a move is committed; the entities catch up
//! here, one step at a time, and match the resource when the queue is empty.

use super::GameSet;
use super::pieces::{DISC_HEIGHT, Disc, OnSquare, PieceToken, Taken, pieces_of, square_center};
use super::rules::{MoveCommitted, RebuildPieces, Rules};
use crate::rules::{Color, Move, PieceKind, Position, Square};
use bevy::prelude::*;
use std::collections::VecDeque;
use std::f32::consts::PI;

/// How fast moves are shown; `Off` shows each move at once.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AnimationSpeed {
    Off,
    Slow,
    #[default]
    Normal,
    Fast,
}

impl AnimationSpeed {
    pub const ALL: [AnimationSpeed; 4] = [
        AnimationSpeed::Off,
        AnimationSpeed::Slow,
        AnimationSpeed::Normal,
        AnimationSpeed::Fast,
    ];

    pub fn name(self) -> &'static str {
        match self {
            AnimationSpeed::Off => "Off",
            AnimationSpeed::Slow => "Slow",
            AnimationSpeed::Normal => "Normal",
            AnimationSpeed::Fast => "Fast",
        }
    }

    fn factor(self) -> f32 {
        match self {
            AnimationSpeed::Off => f32::INFINITY,
            AnimationSpeed::Slow => 0.6,
            AnimationSpeed::Normal => 1.0,
            AnimationSpeed::Fast => 2.0,
        }
    }
}

/// Moments the player may hear: the end of each step of a move, and a refused click.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cue {
    /// A quiet move's piece lands.
    Placed,
    /// A capturing piece lands after one hop.
    Hop,
    /// A taken piece leaves the board.
    Removed,
    /// The second disc lands on a new king.
    Crowned,
    /// A click on the board was refused.
    Refused,
}

/// Seconds per step at normal speed.
const SLIDE_SECS: f32 = 0.35;
const HOP_SECS: f32 = 0.42;
const CROWN_SECS: f32 = 0.5;
const REMOVE_SECS: f32 = 0.3;
/// Height the second disc of a new king starts from, above the man.
const CROWN_DROP: f32 = 1.6;

#[derive(Debug, Clone, Copy)]
enum Step {
    /// A quiet move with a slight lift.
    Slide { from: Vec3, to: Vec3 },
    /// One hop of a capture; the jumped piece is dimmed on landing.
    Hop { from: Vec3, to: Vec3, taken: Entity },
    /// The second disc flies onto the man.
    Crown { disc: Entity },
    /// A taken piece lifts, shrinks and leaves, in the order taken.
    Remove { piece: Entity, at: Vec3 },
}

impl Step {
    fn seconds(self) -> f32 {
        match self {
            Step::Slide { .. } => SLIDE_SECS,
            Step::Hop { .. } => HOP_SECS,
            Step::Crown { .. } => CROWN_SECS,
            Step::Remove { .. } => REMOVE_SECS,
        }
    }
}

#[derive(Debug)]
struct Active {
    mover: Entity,
    steps: Vec<Step>,
    index: usize,
    elapsed: f32,
    to: Square,
    color: Color,
    king_after: bool,
}

/// Moves waiting to be shown and the one being shown.
#[derive(Resource, Debug, Default)]
pub struct Animator {
    queue: VecDeque<(Move, Position)>,
    active: Option<Active>,
    /// Set by a rebuild: moves committed before it are already on the board.
    discard_committed: bool,
}

impl Animator {
    /// True while any move is still being shown (input waits for this).
    pub fn is_busy(&self) -> bool {
        self.active.is_some() || !self.queue.is_empty()
    }

    /// Drops every animation (the entities are about to be rebuilt).
    pub fn clear(&mut self) {
        self.queue.clear();
        self.active = None;
        self.discard_committed = true;
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Animator>()
        .init_resource::<AnimationSpeed>()
        .add_message::<Cue>()
        .add_systems(Update, animate.in_set(GameSet::Animate))
        .add_systems(Update, reconcile.in_set(GameSet::View));
}

fn smooth(s: f32) -> f32 {
    s * s * (3.0 - 2.0 * s)
}

/// Advances the animation by this frame's time, finishing as many steps as fit in it.
#[allow(clippy::too_many_arguments)]
pub(super) fn animate(
    mut commands: Commands,
    mut committed: MessageReader<MoveCommitted>,
    mut animator: ResMut<Animator>,
    mut rebuild: MessageWriter<RebuildPieces>,
    mut cues: MessageWriter<Cue>,
    speed: Res<AnimationSpeed>,
    time: Res<Time>,
    pieces: Query<(Entity, &OnSquare, &PieceToken)>,
    mut transforms: Query<&mut Transform>,
    mut visibility: Query<&mut Visibility>,
) {
    let animator = &mut *animator;
    if animator.discard_committed {
        committed.clear();
        animator.discard_committed = false;
    }
    for c in committed.read() {
        animator.queue.push_back((c.mv, c.before));
    }
    let mut budget = time.delta_secs() * speed.factor();
    loop {
        let Some(active) = animator.active.as_mut() else {
            let Some((mv, before)) = animator.queue.pop_front() else {
                return;
            };
            match start(&mut commands, &pieces, mv, &before) {
                Some(active) => animator.active = Some(active),
                None => {
                    // The entities disagree with the rules resource: show the position as is.
                    animator.clear();
                    rebuild.write(RebuildPieces);
                    return;
                }
            }
            // Spawned discs exist from the next frame on.
            return;
        };
        let Some(&step) = active.steps.get(active.index) else {
            finish(&mut commands, &mut transforms, active);
            animator.active = None;
            // The finished piece's components change at the end of this frame; start the next
            // move on the next one.
            return;
        };
        let remaining = step.seconds() - active.elapsed;
        if budget >= remaining {
            budget -= remaining;
            pose(step, 1.0, &mut transforms, &mut visibility, active.mover);
            let cue = match step {
                Step::Hop { taken, .. } => {
                    commands.entity(taken).try_insert(Taken);
                    Cue::Hop
                }
                Step::Remove { piece, .. } => {
                    commands.entity(piece).try_despawn();
                    Cue::Removed
                }
                Step::Slide { .. } => Cue::Placed,
                Step::Crown { .. } => Cue::Crowned,
            };
            cues.write(cue);
            active.index += 1;
            active.elapsed = 0.0;
        } else {
            active.elapsed += budget;
            let s = active.elapsed / step.seconds();
            pose(step, s, &mut transforms, &mut visibility, active.mover);
            return;
        }
    }
}

/// Plans the steps of a move from the entities standing on the board.
fn start(
    commands: &mut Commands,
    pieces: &Query<(Entity, &OnSquare, &PieceToken)>,
    mv: Move,
    before: &Position,
) -> Option<Active> {
    let at = |sq: Square| {
        pieces
            .iter()
            .find(|(_, on, _)| on.0 == sq)
            .map(|(e, _, _)| e)
    };
    let mover = at(mv.from())?;
    let piece = before.piece_at(mv.from())?;
    let was_king = piece.kind == PieceKind::King;
    let promotion_rank = match piece.color {
        Color::White => 7,
        Color::Black => 0,
    };
    // The hop that makes a king: the first landing on the far rank (mid-capture or last).
    let crown_after = (!was_king && mv.promotes())
        .then(|| mv.path().iter().position(|sq| sq.rank() == promotion_rank))
        .flatten();
    let crown = crown_after.map(|_| {
        commands
            .spawn((
                Disc {
                    color: piece.color,
                    level: 1,
                },
                Transform::from_xyz(0.0, CROWN_DROP, 0.0),
                Visibility::Hidden,
                ChildOf(mover),
            ))
            .id()
    });
    let mut steps = Vec::new();
    let mut from = square_center(mv.from());
    if mv.is_capture() {
        let mut taken = Vec::new();
        for (i, (&land, &victim)) in mv.path().iter().zip(mv.captured()).enumerate() {
            let victim = at(victim)?;
            let to = square_center(land);
            steps.push(Step::Hop {
                from,
                to,
                taken: victim,
            });
            taken.push((victim, square_center(mv.captured()[i])));
            if crown_after == Some(i)
                && let Some(disc) = crown
            {
                steps.push(Step::Crown { disc });
            }
            from = to;
        }
        for (piece, at) in taken {
            steps.push(Step::Remove { piece, at });
        }
    } else {
        steps.push(Step::Slide {
            from,
            to: square_center(mv.to()),
        });
        if let Some(disc) = crown {
            steps.push(Step::Crown { disc });
        }
    }
    Some(Active {
        mover,
        steps,
        index: 0,
        elapsed: 0.0,
        to: mv.to(),
        color: piece.color,
        king_after: was_king || mv.promotes(),
    })
}

/// Places the entities of one step at fraction `s` (0..=1) of it.
fn pose(
    step: Step,
    s: f32,
    transforms: &mut Query<&mut Transform>,
    visibility: &mut Query<&mut Visibility>,
    mover: Entity,
) {
    let s = s.clamp(0.0, 1.0);
    match step {
        Step::Slide { from, to } => {
            if let Ok(mut t) = transforms.get_mut(mover) {
                t.translation = from.lerp(to, smooth(s)) + Vec3::Y * 0.12 * (PI * s).sin();
            }
        }
        Step::Hop { from, to, .. } => {
            if let Ok(mut t) = transforms.get_mut(mover) {
                t.translation = from.lerp(to, smooth(s)) + Vec3::Y * 0.55 * (PI * s).sin();
            }
        }
        Step::Crown { disc } => {
            if let Ok(mut v) = visibility.get_mut(disc) {
                *v = Visibility::Inherited;
            }
            if let Ok(mut t) = transforms.get_mut(disc) {
                let e = s * s;
                t.translation = Vec3::new(
                    0.25 * (1.0 - s) * (PI * s).sin(),
                    CROWN_DROP + (DISC_HEIGHT - CROWN_DROP) * e,
                    0.0,
                );
                t.rotation = Quat::from_rotation_y((1.0 - s) * PI);
            }
        }
        Step::Remove { piece, at } => {
            if let Ok(mut t) = transforms.get_mut(piece) {
                t.translation = at + Vec3::Y * 0.9 * smooth(s);
                t.scale = Vec3::splat((1.0 - s).max(0.001));
            }
        }
    }
}

/// Leaves the mover on its destination, as a king if it became one.
fn finish(commands: &mut Commands, transforms: &mut Query<&mut Transform>, active: &Active) {
    if let Ok(mut t) = transforms.get_mut(active.mover) {
        t.translation = square_center(active.to);
    }
    commands.entity(active.mover).try_insert((
        OnSquare(active.to),
        PieceToken {
            color: active.color,
            king: active.king_after,
        },
    ));
}

/// When nothing is being shown, entities must match the rules resource; if they drifted
/// (e.g. a move was refused mid-way), they are rebuilt.
fn reconcile(
    animator: Res<Animator>,
    rules: Res<Rules>,
    pieces: Query<(&OnSquare, &PieceToken)>,
    mut rebuild: MessageWriter<RebuildPieces>,
    mut frames_off: Local<u32>,
) {
    if animator.is_busy() {
        *frames_off = 0;
        return;
    }
    let mut want: Vec<_> = pieces_of(rules.game.position())
        .into_iter()
        .map(|(sq, color, king)| (sq, color.index(), king))
        .collect();
    let mut have: Vec<_> = pieces
        .iter()
        .map(|(on, p)| (on.0, p.color.index(), p.king))
        .collect();
    want.sort();
    have.sort();
    if want == have {
        *frames_off = 0;
        return;
    }
    // Give spawns and despawns one frame to land before deciding they drifted.
    *frames_off += 1;
    if *frames_off >= 2 {
        *frames_off = 0;
        rebuild.write(RebuildPieces);
    }
}
