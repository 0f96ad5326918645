//! A cheap material for the scene at low quality (and for the flat overlays always).
//!
//! Bevy's standard PBR shader costs several hundred milliseconds per frame when it covers
//! the whole window on a software rasteriser; this one samples a texture and adds one
//! directional light, an ambient term and a highlight, which looks much the same on matt
//! wood and turned pieces.

use bevy::asset::embedded_asset;
use bevy::prelude::*;
use bevy::render::render_resource::{AsBindGroup, ShaderType};
use bevy::shader::ShaderRef;

/// Where the sun comes from (its position; it looks at the centre of the board).
pub const SUN: Vec3 = Vec3::new(-4.0, 12.0, 6.0);

/// The numbers of a [`WoodMaterial`], as the shader reads them.
#[derive(ShaderType, Debug, Clone, Copy)]
pub struct WoodLight {
    /// rgb: colour (multiplies the texture); a: opacity.
    pub color: Vec4,
    /// xyz: direction towards the light (world space, normalised); w: its strength.
    pub light: Vec4,
    /// rgb: ambient light.
    pub ambient: Vec4,
    /// rgb: highlight colour and strength; w: shininess.
    pub specular: Vec4,
}

impl WoodLight {
    /// Lit by the sun, with a highlight of `gloss` (0 for matt) and `shininess`.
    pub fn sunlit(color: Color, gloss: f32, shininess: f32) -> WoodLight {
        let c = color.to_linear();
        WoodLight {
            color: Vec4::new(c.red, c.green, c.blue, c.alpha),
            light: SUN.normalize().extend(0.85),
            ambient: Vec4::new(0.42, 0.39, 0.35, 1.0),
            specular: Vec4::new(gloss, gloss * 0.97, gloss * 0.92, shininess),
        }
    }

    /// A flat colour, the same from every side (for overlays).
    pub fn flat(color: Color) -> WoodLight {
        let c = color.to_linear();
        WoodLight {
            color: Vec4::new(c.red, c.green, c.blue, c.alpha),
            light: Vec4::new(0.0, 1.0, 0.0, 0.0),
            ambient: Vec4::ONE,
            specular: Vec4::new(0.0, 0.0, 0.0, 1.0),
        }
    }
}

/// `texture × colour × (ambient + strength × max(n·l, 0)) + highlight`.
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
pub struct WoodMaterial {
    #[uniform(0)]
    pub lighting: WoodLight,
    #[texture(1)]
    #[sampler(2)]
    pub texture: Handle<Image>,
    pub alpha_mode: AlphaMode,
}

impl WoodMaterial {
    /// A material of one colour (a white texture underneath).
    pub fn plain(lighting: WoodLight, alpha_mode: AlphaMode) -> WoodMaterial {
        WoodMaterial {
            lighting,
            texture: Handle::default(),
            alpha_mode,
        }
    }
}

impl Material for WoodMaterial {
    fn fragment_shader() -> ShaderRef {
        "embedded://shashki/game/view/shaders/wood.wgsl".into()
    }

    fn alpha_mode(&self) -> AlphaMode {
        self.alpha_mode
    }
}

pub fn plugin(app: &mut App) {
    embedded_asset!(app, "src/", "shaders/wood.wgsl");
    app.add_plugins(MaterialPlugin::<WoodMaterial>::default());
}
