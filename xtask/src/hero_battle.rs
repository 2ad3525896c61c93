//! `cargo xtask gen hero-battle` and `cargo xtask bench hero-battle` (being built).

use crate::TaskResult;
use crate::measure::BenchArgs;

/// Generator options for hero-battle.
#[derive(Clone, Debug, clap::Args)]
pub struct GenArgs {}

/// Writes a generated hero-battle input to stdout.
pub fn gen_to_stdout(_args: &GenArgs) -> TaskResult {
    Err("the hero-battle generator is not built yet".into())
}

/// Benchmarks hero-battle.
pub fn bench(_args: &BenchArgs) -> TaskResult {
    Err("the hero-battle benchmark is not built yet".into())
}
