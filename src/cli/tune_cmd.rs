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
