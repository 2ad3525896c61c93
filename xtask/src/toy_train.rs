//! `cargo xtask gen toy-train` and `cargo xtask bench toy-train` (being built).

use crate::TaskResult;
use crate::measure::BenchArgs;

/// Generator options for toy-train.
#[derive(Clone, Debug, clap::Args)]
pub struct GenArgs {}

/// Writes a generated toy-train input to stdout.
pub fn gen_to_stdout(_args: &GenArgs) -> TaskResult {
    Err("the toy-train generator is not built yet".into())
}

/// Benchmarks toy-train.
pub fn bench(_args: &BenchArgs) -> TaskResult {
    Err("the toy-train benchmark is not built yet".into())
}
