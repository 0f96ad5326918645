//! The static scene: table, wooden board with its frame, dark squares to click, lights.

use super::meshes::{Wood, wood_image};
use super::wood::{SUN, WoodLight, WoodMaterial};
use crate::rules::Square;
use crate::store::BoardTheme;
use bevy::light::GlobalAmbientLight;
use bevy::prelude::*;

/// The squares of the board (a click on a dark one becomes [`crate::game::BoardClick`]).
#[derive(Component, Debug, Clone, Copy)]
pub struct BoardSurface;

/// The sun over the table (its shadows follow the quality setting).
#[derive(Component)]
pub struct MainLight;

/// The warm fill light (off at low quality: every light costs per pixel).
#[derive(Component)]
pub struct FillLight;

/// The table top (at low quality the background colour stands in for it: it covers most
/// of the window, and a software rasteriser pays for every pixel it shades).
#[derive(Component)]
pub struct Table;

/// The background at high quality (behind the table) and at low quality (as the table).
pub const BACKDROP_HIGH: Color = Color::srgb(0.06, 0.055, 0.05);
pub const BACKDROP_LOW: Color = Color::srgb(0.36, 0.25, 0.155);

/// Half the width of the frame around the 8x8 squares.
pub const FRAME_HALF: f32 = 4.65;
/// Where the fill light stands, seen from White's side (it turns with the camera).
pub const FILL_LIGHT: Vec3 = Vec3::new(6.0, 7.0, -5.0);
/// Top of the frame, just below the squares.
const FRAME_TOP: f32 = -0.006;

const LIGHT_WOOD: Wood = Wood {
    light: [0.86, 0.70, 0.50],
    dark: [0.74, 0.56, 0.36],
    rings: 9.0,
    seed: 11,
};
const DARK_WOOD: Wood = Wood {
    light: [0.36, 0.19, 0.09],
    dark: [0.22, 0.10, 0.045],
    rings: 8.0,
    seed: 23,
};
const FRAME_WOOD: Wood = Wood {
    light: [0.30, 0.15, 0.07],
    dark: [0.17, 0.075, 0.03],
    rings: 14.0,
    seed: 5,
};
const TABLE_WOOD: Wood = Wood {
    light: [0.50, 0.36, 0.24],
    dark: [0.33, 0.22, 0.13],
    rings: 20.0,
    seed: 41,
};

/// The woods of the light and dark squares of each board theme.
fn theme_woods(theme: BoardTheme) -> (Wood, Wood) {
    match theme {
        BoardTheme::Walnut => (LIGHT_WOOD, DARK_WOOD),
        BoardTheme::Birch => (
            Wood {
                light: [0.95, 0.88, 0.72],
                dark: [0.88, 0.78, 0.60],
                rings: 11.0,
                seed: 13,
            },
            Wood {
                light: [0.62, 0.40, 0.22],
                dark: [0.50, 0.30, 0.15],
                rings: 9.0,
                seed: 29,
            },
        ),
        BoardTheme::Tournament => (
            Wood {
                light: [0.93, 0.90, 0.78],
                dark: [0.86, 0.82, 0.68],
                rings: 6.0,
                seed: 17,
            },
            Wood {
                light: [0.20, 0.42, 0.26],
                dark: [0.13, 0.32, 0.18],
                rings: 6.0,
                seed: 31,
            },
        ),
    }
}

/// A wooden surface's two looks: the standard PBR material (shadows, highlights) and the
/// cheap one used at low quality (see [`WoodMaterial`]). Both read the same texture.
#[derive(Component, Clone, Debug)]
pub struct WoodSurface {
    pub standard: Handle<StandardMaterial>,
    pub cheap: Handle<WoodMaterial>,
}

/// The square materials, so that a change of theme can give them new wood.
#[derive(Resource, Default)]
struct SquareMaterials {
    /// Materials, whether they are for dark squares, and their variant (0 or 1).
    materials: Vec<(WoodSurface, bool, u32)>,
    theme: Option<BoardTheme>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SquareMaterials>()
        .add_systems(Update, apply_theme)
        .insert_resource(ClearColor(BACKDROP_HIGH))
        .insert_resource(GlobalAmbientLight {
            color: Color::srgb(1.0, 0.92, 0.82),
            brightness: 260.0,
            ..default()
        })
        .add_systems(Startup, spawn_scene);
}

/// The standard and the cheap material of one wood, on one texture.
fn wood_material(
    images: &mut Assets<Image>,
    materials: &mut Assets<StandardMaterial>,
    woods: &mut Assets<WoodMaterial>,
    wood: Wood,
    size: u32,
    roughness: f32,
) -> WoodSurface {
    let texture = images.add(wood_image(wood, size));
    WoodSurface {
        standard: materials.add(StandardMaterial {
            base_color_texture: Some(texture.clone()),
            perceptual_roughness: roughness,
            reflectance: 0.4,
            ..default()
        }),
        cheap: woods.add(WoodMaterial {
            lighting: WoodLight::sunlit(Color::WHITE, 0.04 * (1.0 - roughness), 16.0),
            texture,
            alpha_mode: AlphaMode::Opaque,
        }),
    }
}

/// Gives the squares the wood of the theme chosen in the settings.
fn apply_theme(
    persist: Option<Res<crate::game::persist::Persist>>,
    mut squares: ResMut<SquareMaterials>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut woods: ResMut<Assets<WoodMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    let theme = persist.map_or(BoardTheme::Walnut, |p| p.settings.board_theme);
    if squares.theme == Some(theme) || squares.materials.is_empty() {
        return;
    }
    // The first look is the one the scene was built with.
    let first = squares.theme.is_none();
    squares.theme = Some(theme);
    if first && theme == BoardTheme::Walnut {
        return;
    }
    let (light, dark) = theme_woods(theme);
    for (surface, is_dark, variant) in &squares.materials {
        let base = if *is_dark { dark } else { light };
        let wood = Wood {
            seed: base.seed + variant * 101,
            ..base
        };
        let image = images.add(wood_image(wood, 128));
        if let Some(mut material) = materials.get_mut(&surface.standard) {
            material.base_color_texture = Some(image.clone());
        }
        if let Some(mut material) = woods.get_mut(&surface.cheap) {
            material.texture = image;
        }
    }
}

fn spawn_scene(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
    mut woods: ResMut<Assets<WoodMaterial>>,
    mut squares: ResMut<SquareMaterials>,
) {
    let light_squares: Vec<_> = (0..2)
        .map(|i| {
            let wood = Wood {
                seed: LIGHT_WOOD.seed + i * 101,
                ..LIGHT_WOOD
            };
            wood_material(&mut images, &mut materials, &mut woods, wood, 128, 0.55)
        })
        .collect();
    let dark_squares: Vec<_> = (0..2)
        .map(|i| {
            let wood = Wood {
                seed: DARK_WOOD.seed + i * 101,
                ..DARK_WOOD
            };
            wood_material(&mut images, &mut materials, &mut woods, wood, 128, 0.5)
        })
        .collect();
    for (i, m) in light_squares.iter().enumerate() {
        squares.materials.push((m.clone(), false, i as u32));
    }
    for (i, m) in dark_squares.iter().enumerate() {
        squares.materials.push((m.clone(), true, i as u32));
    }
    let frame = wood_material(
        &mut images,
        &mut materials,
        &mut woods,
        FRAME_WOOD,
        256,
        0.45,
    );
    let table = wood_material(
        &mut images,
        &mut materials,
        &mut woods,
        TABLE_WOOD,
        256,
        0.7,
    );

    // The table top, well below and around the board.
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(40.0, 0.6, 26.0))),
        MeshMaterial3d(table.standard.clone()),
        table,
        Table,
        Transform::from_xyz(0.0, -0.5 - 0.3, 0.0),
        Pickable::IGNORE,
    ));
    // The board body and frame; the squares sit on its top.
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(2.0 * FRAME_HALF, 0.5, 2.0 * FRAME_HALF))),
        MeshMaterial3d(frame.standard.clone()),
        frame,
        Transform::from_xyz(0.0, FRAME_TOP - 0.25, 0.0),
        Pickable::IGNORE,
    ));
    // A thin inlay line between squares and frame.
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(8.12, 0.01, 8.12))),
        MeshMaterial3d(woods.add(WoodMaterial::plain(
            WoodLight::sunlit(Color::srgb(0.78, 0.62, 0.38), 0.05, 24.0),
            AlphaMode::Opaque,
        ))),
        // Below the squares' tops, so only the rim outside them shows.
        Transform::from_xyz(0.0, -0.007, 0.0),
        Pickable::IGNORE,
    ));
    // The squares are merged into one mesh per material (four draws instead of 64): a
    // software rasteriser pays per draw. Clicks find their square from the hit point.
    let mut merged: [Option<Mesh>; 4] = [None, None, None, None];
    for rank in 0..8u8 {
        for file in 0..8u8 {
            let centre = Vec3::new(file as f32 - 3.5, -0.01, 3.5 - rank as f32);
            // Grain alternates direction like a real inlaid board.
            let rotation = Quat::from_rotation_y(if (file + rank) % 4 < 2 {
                0.0
            } else {
                std::f32::consts::FRAC_PI_2
            });
            let variant = ((file * 7 + rank * 3) % 2) as usize;
            let dark = Square::from_coords(file, rank).is_some();
            let tile = Mesh::from(Cuboid::new(1.0, 0.02, 1.0))
                .transformed_by(Transform::from_translation(centre).with_rotation(rotation));
            let slot = &mut merged[usize::from(dark) * 2 + variant];
            match slot {
                Some(mesh) => {
                    if let Err(e) = mesh.merge(&tile) {
                        warn!("board squares: {e}");
                    }
                }
                None => *slot = Some(tile),
            }
        }
    }
    for (i, mesh) in merged.into_iter().enumerate() {
        let Some(mesh) = mesh else { continue };
        let material = if i >= 2 {
            dark_squares[i - 2].clone()
        } else {
            light_squares[i].clone()
        };
        commands.spawn((
            Mesh3d(meshes.add(mesh)),
            MeshMaterial3d(material.standard.clone()),
            material,
            BoardSurface,
        ));
    }
    commands.spawn((
        DirectionalLight {
            illuminance: 9_000.0,
            shadow_maps_enabled: true,
            color: Color::srgb(1.0, 0.96, 0.9),
            ..default()
        },
        Transform::from_translation(SUN).looking_at(Vec3::ZERO, Vec3::Y),
        MainLight,
    ));
    // A soft fill from the other side so the dark pieces keep their shape.
    commands.spawn((
        PointLight {
            intensity: 600_000.0,
            range: 40.0,
            color: Color::srgb(1.0, 0.85, 0.7),
            ..default()
        },
        Transform::from_translation(FILL_LIGHT).looking_at(Vec3::ZERO, Vec3::Y),
        FillLight,
    ));
}
