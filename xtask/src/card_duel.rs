//! `cargo xtask gen card-duel` and `cargo xtask bench card-duel` (being built).

use crate::TaskResult;
use crate::measure::BenchArgs;

/// Generator options for card-duel.
#[derive(Clone, Debug, clap::Args)]
pub struct GenArgs {}

/// Writes a generated card-duel input to stdout.
pub fn gen_to_stdout(_args: &GenArgs) -> TaskResult {
    Err("the card-duel generator is not built yet".into())
}

/// Benchmarks card-duel.
pub fn bench(_args: &BenchArgs) -> TaskResult {
    Err("the card-duel benchmark is not built yet".into())
}
