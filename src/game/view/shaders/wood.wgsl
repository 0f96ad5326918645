// A cheap lit surface for the scene at low quality: the texture times a colour, lit by
// one directional light, an ambient term and a Blinn-Phong highlight. Software
// rasterisers shade every pixel of the table and the board with it, so it is kept to a
// few instructions (Bevy's standard shader costs about eight times as much there).
#import bevy_pbr::forward_io::VertexOutput
#import bevy_pbr::mesh_view_bindings::view

struct Wood {
    // rgb: colour; a: opacity.
    color: vec4<f32>,
    // xyz: direction towards the light, in world space; w: strength of the light.
    light: vec4<f32>,
    // rgb: ambient light.
    ambient: vec4<f32>,
    // rgb: highlight colour and strength; w: shininess.
    specular: vec4<f32>,
}

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> wood: Wood;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var wood_texture: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(2) var wood_sampler: sampler;

@fragment
fn fragment(in: VertexOutput) -> @location(0) vec4<f32> {
    let base = textureSample(wood_texture, wood_sampler, in.uv).rgb * wood.color.rgb;
    let n = normalize(in.world_normal);
    // The light turns with the camera around the board, so that both sides see the
    // pieces lit alike (from Black's side a fixed sun would glare on the dark tops).
    let cam = view.world_position.xz;
    let turn = cam / max(length(cam), 1e-4);
    let l0 = wood.light.xyz;
    let l = vec3(l0.x * turn.y + l0.z * turn.x, l0.y, l0.z * turn.y - l0.x * turn.x);
    let diffuse = max(dot(n, l), 0.0) * wood.light.w;
    let to_eye = normalize(view.world_position - in.world_position.xyz);
    let h = normalize(l + to_eye);
    let highlight = pow(max(dot(n, h), 0.0), wood.specular.w) * wood.specular.rgb;
    return vec4(base * (wood.ambient.rgb + diffuse) + highlight, wood.color.a);
}
