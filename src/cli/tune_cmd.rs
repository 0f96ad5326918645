//! `shashki tune`: fits the learned evaluation to training positions and writes the
//! weights file (see `src/ai/train.rs` and `src/ai/pattern.rs`).

use crate::ai::train::{self, FitOptions, Sample};
use crate::rules::Variant;
use std::io::{BufRead, BufReader};
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct TuneOptions {
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// Training files written by `shashki selfplay` (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub data: Vec<String>,
    /// The weights file to write.
    #[arg(long)]
    pub out: String,
    #[arg(long, default_value_t = 300)]
    pub epochs: u32,
    /// Share of the game result in the target (the rest: the search's own score).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// L2 penalty of the pattern weights (one position's curvature is about 1e-5).
    #[arg(long, default_value_t = 0.0005)]
    pub l2: f64,
    /// Adam's step in centi-men.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Positions a step; 0 fits with the whole set at every step.
    #[arg(long, default_value_t = 0)]
    pub batch: usize,
    /// Write the starting weights (material and mobility only) without fitting.
    #[arg(long)]
    pub init: bool,
    /// Fit the network that adds to the embedded pattern weights (`src/ai/net.rs`) and
    /// write a network file instead of a weights file (`--epochs`, `--batch`, `--rate`
    /// and `--lambda` apply; the rate is in network units, e.g. 0.002).
    #[arg(long)]
    pub net: bool,
    /// With `--net`: output buckets by the number of pieces on the board (1 to 12).
    #[arg(long, default_value_t = 1)]
    pub buckets: usize,
    /// With `--net`: split the buckets by kings, half for positions without a king and
    /// half for those with one (an even `--buckets`).
    #[arg(long)]
    pub king_buckets: bool,
    /// With `--net`: square the clipped units.
    #[arg(long)]
    pub squared: bool,
    /// With `--net`: a hidden layer of N units between the first layer and the output
    /// (0: none; at most 64).
    #[arg(long, default_value_t = 0)]
    pub hidden2: usize,
    /// With `--net`: start from this network file instead of small random weights (its
    /// buckets and activation are kept; `--hidden2` adds a hidden layer where it has none).
    #[arg(long)]
    pub from: Option<String>,
}

/// Fits the network over the embedded pattern weights.
fn run_net(opts: &TuneOptions) -> Result<(), String> {
    use crate::ai::train::net::{self, FloatNet, NetSample, Shape};
    if opts.data.is_empty() {
        return Err("give --data FILE".into());
    }
    if !(1..=crate::ai::net::MAX_BUCKETS).contains(&opts.buckets) {
        return Err(format!(
            "--buckets must be 1 to {}",
            crate::ai::net::MAX_BUCKETS
        ));
    }
    if opts.king_buckets && !opts.buckets.is_multiple_of(2) {
        return Err("--king-buckets needs an even number of --buckets".into());
    }
    if opts.hidden2 > crate::ai::net::MAX_HIDDEN2 {
        return Err(format!(
            "--hidden2 must be 0 to {}",
            crate::ai::net::MAX_HIDDEN2
        ));
    }
    let shape = Shape {
        buckets: opts.buckets,
        squared: opts.squared,
        hidden2: opts.hidden2,
        king_buckets: opts.king_buckets,
    };
    let start_net = match &opts.from {
        None => FloatNet::new(0x5EED, shape),
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            let stored = crate::ai::net::Net::parse(&bytes, opts.variant)
                .map_err(|e| format!("{path}: {e}"))?;
            let mut f = net::to_float(&stored);
            if f.hidden2() == 0 && opts.hidden2 > 0 {
                f.add_hidden(opts.hidden2, 0x5EED);
            }
            f
        }
    };
    let start = Instant::now();
    let table = crate::ai::pattern::embedded(opts.variant);
    let mut samples = Vec::new();
    let mut valid = Vec::new();
    let mut raw = Vec::new();
    for path in &opts.data {
        let f = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        for (n, line) in BufReader::new(f).lines().enumerate() {
            let line = line.map_err(|e| format!("{path}: {e}"))?;
            if line.trim().is_empty() {
                continue;
            }
            let (s, pos) = train::parse_line_with_position(&line)
                .map_err(|e| format!("{path}, line {}: {e}", n + 1))?;
            raw.push((s, net::active_inputs(&pos), table.score(&s.features) as f32));
        }
    }
    let plain: Vec<Sample> = raw.iter().map(|r| r.0).collect();
    let k_search = train::fit_scale(&plain);
    // The scale at which the pattern scores themselves predict the results best.
    let as_base: Vec<Sample> = raw
        .iter()
        .map(|(s, _, b)| Sample {
            score: *b as i32,
            ..*s
        })
        .collect();
    let k = train::fit_scale(&as_base) as f32;
    drop((plain, as_base));
    for (s, inputs, base) in raw {
        let t = NetSample {
            inputs,
            base,
            target: train::target(&s, k_search, opts.lambda) as f32,
        };
        if s.game % 20 == 7 {
            valid.push(t);
        } else {
            samples.push(t);
        }
    }
    eprintln!(
        "tune: {} training positions, {} held out, read in {:.1} s; K = {k:.1} (search {k_search:.1})",
        samples.len(),
        valid.len(),
        start.elapsed().as_secs_f64()
    );
    let mut fnet = FloatNet::new(0x5EED, shape);
    fnet.w2.iter_mut().for_each(|w| *w = 0.0);
    eprintln!(
        "tune: held-out loss of the patterns alone {:.5}",
        net::loss(&fnet, &valid, k)
    );
    let mut fnet = start_net;
    if opts.from.is_some() {
        eprintln!(
            "tune: held-out loss of the starting network {:.5}",
            net::loss(&fnet, &valid, k)
        );
    }
    let batch = if opts.batch == 0 { 4096 } else { opts.batch };
    net::fit(
        &mut fnet,
        &samples,
        k,
        opts.epochs,
        batch,
        opts.rate as f32,
        &mut |epoch, l, now| {
            eprintln!(
                "tune: epoch {epoch} training loss {l:.5} held out {:.5} ({:.0} s)",
                net::loss(now, &valid, k),
                start.elapsed().as_secs_f64()
            )
        },
    );
    let bytes = net::quantize(&fnet).to_bytes(opts.variant);
    std::fs::write(&opts.out, bytes).map_err(|e| format!("cannot write {}: {e}", opts.out))?;
    println!("tune: wrote {}", opts.out);
    Ok(())
}

fn read(paths: &[String]) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for path in paths {
        let f = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        for (n, line) in BufReader::new(f).lines().enumerate() {
            let line = line.map_err(|e| format!("{path}: {e}"))?;
            if line.trim().is_empty() {
                continue;
            }
            out.push(train::parse_line(&line).map_err(|e| format!("{path}, line {}: {e}", n + 1))?);
        }
    }
    Ok(out)
}

pub fn run(opts: TuneOptions) -> Result<(), String> {
    if opts.net {
        return run_net(&opts);
    }
    let mut w = train::initial_weights(opts.variant);
    if !opts.init {
        if opts.data.is_empty() {
            return Err("give --data FILE (or --init for the starting weights)".into());
        }
        let start = Instant::now();
        let all = read(&opts.data)?;
        // Every 20th game is held out to check that the fit generalises.
        let (valid, samples): (Vec<Sample>, Vec<Sample>) =
            all.into_iter().partition(|s| s.game % 20 == 7);
        eprintln!(
            "tune: {} training positions, {} held out, read in {:.1} s",
            samples.len(),
            valid.len(),
            start.elapsed().as_secs_f64()
        );
        let k = train::fit_scale(&samples);
        eprintln!("tune: scale K = {k:.1} centi-men");
        let fit = FitOptions {
            epochs: opts.epochs,
            lambda: opts.lambda,
            l2: opts.l2,
            rate: opts.rate,
            batch: opts.batch,
            report: if opts.batch > 0 { 1 } else { 25 },
        };
        eprintln!(
            "tune: held-out loss before {:.5}",
            train::loss(&w, &valid, k, opts.lambda)
        );
        train::fit(&mut w, &samples, k, &fit, &mut |epoch, l, now| {
            eprintln!(
                "tune: epoch {epoch} training loss {l:.5} held out {:.5} ({:.0} s)",
                train::loss(now, &valid, k, opts.lambda),
                start.elapsed().as_secs_f64()
            )
        });
        eprintln!(
            "tune: held-out loss after {:.5}",
            train::loss(&w, &valid, k, opts.lambda)
        );
        if opts.variant == Variant::Russian {
            let f = train::normalize(&mut w);
            eprintln!("tune: scaled by {f:.3} so that a man is worth 100");
        }
        for line in train::describe(&w) {
            eprintln!("  {line}");
        }
    }
    let bytes = train::quantize(&w).to_bytes(opts.variant);
    std::fs::write(&opts.out, bytes).map_err(|e| format!("cannot write {}: {e}", opts.out))?;
    println!("tune: wrote {}", opts.out);
    Ok(())
}
