//! Graphics quality: shadows, MSAA and shadow-map size; Low by itself on a software renderer.

use super::scene::{BACKDROP_HIGH, BACKDROP_LOW, FillLight, MainLight, Table, WoodSurface};
use super::wood::WoodMaterial;
use crate::game::GameSet;
use bevy::light::{CascadeShadowConfigBuilder, DirectionalLightShadowMap};
use bevy::prelude::*;
use bevy::render::renderer::RenderAdapterInfo;
use bevy::render::view::Msaa;

/// The graphics setting of the panel.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Quality {
    Low,
    #[default]
    High,
}

/// Why the quality is what it is, for the panel.
#[derive(Resource, Debug, Default, Clone)]
pub struct RendererInfo {
    pub adapter: String,
    pub software: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Quality>()
        .init_resource::<RendererInfo>()
        .insert_resource(DirectionalLightShadowMap { size: 2048 })
        .add_systems(Startup, detect_software_renderer)
        .add_systems(Update, apply_quality.in_set(GameSet::View));
}

/// A CPU adapter (lavapipe, llvmpipe, SwiftShader) cannot afford shadows and MSAA.
fn detect_software_renderer(
    adapter: Option<Res<RenderAdapterInfo>>,
    mut info: ResMut<RendererInfo>,
    mut quality: ResMut<Quality>,
) {
    let Some(adapter) = adapter else {
        return;
    };
    // wgpu's DeviceType is not re-exported by Bevy; its Debug name is stable.
    let software = format!("{:?}", adapter.device_type) == "Cpu";
    *info = RendererInfo {
        adapter: format!("{} ({:?})", adapter.name, adapter.backend),
        software,
    };
    if software {
        *quality = Quality::Low;
    }
}

#[allow(clippy::too_many_arguments)]
fn apply_quality(
    mut commands: Commands,
    quality: Res<Quality>,
    cameras: Query<Entity, With<Camera3d>>,
    mut lights: Query<(Entity, &mut DirectionalLight), With<MainLight>>,
    mut fill: Query<&mut Visibility, (With<FillLight>, Without<Table>)>,
    mut table: Query<&mut Visibility, With<Table>>,
    mut backdrop: ResMut<ClearColor>,
    mut shadow_map: ResMut<DirectionalLightShadowMap>,
    surfaces: Query<(Entity, &WoodSurface)>,
    mut applied: Local<Option<(Quality, usize, usize)>>,
) {
    // Re-applied when the camera or the scene appears as well as when the setting changes.
    let key = (*quality, cameras.iter().count(), surfaces.iter().count());
    if *applied == Some(key) {
        return;
    }
    *applied = Some(key);
    let high = *quality == Quality::High;
    for camera in &cameras {
        let mut camera = commands.entity(camera);
        camera.insert(if high { Msaa::Sample4 } else { Msaa::Off });
    }
    let shown = if high {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    };
    for mut visibility in fill.iter_mut().chain(table.iter_mut()) {
        *visibility = shown;
    }
    backdrop.0 = if high { BACKDROP_HIGH } else { BACKDROP_LOW };
    for (entity, mut light) in &mut lights {
        light.shadow_maps_enabled = high;
        commands.entity(entity).insert(
            CascadeShadowConfigBuilder {
                num_cascades: if high { 2 } else { 1 },
                first_cascade_far_bound: 14.0,
                maximum_distance: 40.0,
                ..default()
            }
            .build(),
        );
    }
    shadow_map.size = if high { 2048 } else { 512 };
    // The table, frame and squares cover the window: at low quality they use the cheap
    // wood shader (no shadows received), which a software rasteriser shades many times
    // faster than the standard one.
    for (entity, surface) in &surfaces {
        let mut entity = commands.entity(entity);
        if high {
            entity
                .remove::<MeshMaterial3d<WoodMaterial>>()
                .insert(MeshMaterial3d(surface.standard.clone()));
        } else {
            entity
                .remove::<MeshMaterial3d<StandardMaterial>>()
                .insert(MeshMaterial3d(surface.cheap.clone()));
        }
    }
}
