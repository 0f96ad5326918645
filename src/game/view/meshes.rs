//! Procedural assets: the turned disc of a piece and wood-grain textures.

use crate::game::pieces::{DISC_HEIGHT, DISC_RADIUS};
use bevy::asset::RenderAssetUsages;
use bevy::image::{ImageAddressMode, ImageSampler, ImageSamplerDescriptor};
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use std::f32::consts::TAU;

/// A surface of revolution around the y axis from a (radius, height) profile, bottom first.
fn lathe(profile: &[(f32, f32)], segments: u32) -> Mesh {
    let n = profile.len();
    // Smooth normals along the profile: the average of the two adjacent segments.
    let seg_normal = |i: usize| {
        let (r0, y0) = profile[i];
        let (r1, y1) = profile[i + 1];
        Vec2::new(y1 - y0, -(r1 - r0)).normalize_or_zero()
    };
    let normals2: Vec<Vec2> = (0..n)
        .map(|i| {
            let a = if i > 0 { seg_normal(i - 1) } else { Vec2::ZERO };
            let b = if i + 1 < n { seg_normal(i) } else { Vec2::ZERO };
            (a + b).normalize_or(Vec2::Y)
        })
        .collect();
    let mut positions = Vec::new();
    let mut normals = Vec::new();
    let mut uvs = Vec::new();
    for (i, &(r, y)) in profile.iter().enumerate() {
        for j in 0..=segments {
            let a = TAU * j as f32 / segments as f32;
            let (s, c) = a.sin_cos();
            positions.push([r * c, y, r * s]);
            let nn = normals2[i];
            normals.push([nn.x * c, nn.y, nn.x * s]);
            uvs.push([j as f32 / segments as f32, i as f32 / (n - 1) as f32]);
        }
    }
    let row = segments + 1;
    let mut indices = Vec::new();
    for i in 0..(n as u32 - 1) {
        for j in 0..segments {
            let a = i * row + j;
            let b = a + row;
            indices.extend_from_slice(&[a, b, a + 1, a + 1, b, b + 1]);
        }
    }
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
    .with_inserted_indices(Indices::U32(indices))
}

/// One disc of a piece: rounded edge, a raised rim and a turned groove on top.
pub fn piece_disc() -> Mesh {
    let r = DISC_RADIUS;
    let h = DISC_HEIGHT;
    // Few rings and segments: a software rasteriser pays per triangle.
    let profile = [
        (0.0, 0.0),
        (r - 0.04, 0.0),
        (r - 0.006, 0.01),
        (r, 0.035),
        (r, h - 0.035),
        (r - 0.006, h - 0.01),
        (r - 0.04, h),
        (r - 0.065, h - 0.016),
        (r - 0.12, h - 0.022),
        (r - 0.15, h - 0.008),
        (r - 0.2, h - 0.02),
        (0.0, h - 0.016),
    ];
    lathe(&profile, 32)
}

fn hash(x: i32, y: i32, seed: u32) -> f32 {
    let mut h = (x as u32)
        .wrapping_mul(0x8da6_b343)
        .wrapping_add((y as u32).wrapping_mul(0xd816_3841))
        .wrapping_add(seed.wrapping_mul(0xcb1a_b31f));
    h ^= h >> 13;
    h = h.wrapping_mul(0x5bd1_e995);
    h ^= h >> 15;
    (h & 0xffff) as f32 / 65535.0
}

fn value_noise(x: f32, y: f32, seed: u32) -> f32 {
    let (xi, yi) = (x.floor() as i32, y.floor() as i32);
    let (fx, fy) = (x - x.floor(), y - y.floor());
    let (sx, sy) = (fx * fx * (3.0 - 2.0 * fx), fy * fy * (3.0 - 2.0 * fy));
    let a = hash(xi, yi, seed);
    let b = hash(xi + 1, yi, seed);
    let c = hash(xi, yi + 1, seed);
    let d = hash(xi + 1, yi + 1, seed);
    let top = a + (b - a) * sx;
    let bottom = c + (d - c) * sx;
    top + (bottom - top) * sy
}

fn fbm(x: f32, y: f32, seed: u32) -> f32 {
    let mut sum = 0.0;
    let mut amp = 0.5;
    let mut f = 1.0;
    for o in 0..4 {
        sum += amp * value_noise(x * f, y * f, seed + o);
        f *= 2.0;
        amp *= 0.5;
    }
    sum
}

/// Colours and grain of one kind of wood.
#[derive(Clone, Copy, Debug)]
pub struct Wood {
    pub light: [f32; 3],
    pub dark: [f32; 3],
    /// Growth rings across the texture (more = finer grain).
    pub rings: f32,
    pub seed: u32,
}

/// A tileable-enough wood texture with the grain running along u.
pub fn wood_image(wood: Wood, size: u32) -> Image {
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let u = x as f32 / size as f32;
            let v = y as f32 / size as f32;
            // Rings: distance from a far-away log centre, warped by noise; long streaks along u.
            let warp = fbm(u * 3.0, v * 12.0, wood.seed) * 2.5;
            let ring = (v * wood.rings + warp).fract();
            let ring = (ring * std::f32::consts::PI).sin().powf(3.0);
            let streak = fbm(u * 1.5, v * 90.0, wood.seed + 7);
            let pores = value_noise(u * 200.0, v * 700.0, wood.seed + 13);
            let t = (0.55 * ring + 0.35 * streak + 0.1 * pores).clamp(0.0, 1.0);
            for c in 0..3 {
                let value = wood.light[c] + (wood.dark[c] - wood.light[c]) * t;
                data.push((value.clamp(0.0, 1.0) * 255.0) as u8);
            }
            data.push(255);
        }
    }
    let mut image = Image::new(
        Extent3d {
            width: size,
            height: size,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor {
        address_mode_u: ImageAddressMode::Repeat,
        address_mode_v: ImageAddressMode::Repeat,
        ..ImageSamplerDescriptor::linear()
    });
    image
}
