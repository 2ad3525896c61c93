//! `cargo xtask bench judge`: the stress loop's own cost, for every problem of the registry
//! (`tests::registry`). It builds each problem's release binary and runs `PROBLEM stress
//! --accept-everything --no-shrink -- cat`: `cat` answers by echoing its input, and the hidden
//! flag makes the judge do all of its work (our answer, the rule) and then accept. So the
//! figure is what a run costs us: generating, rendering, solving, starting the program in its
//! own folder (and cgroup), reading its output and judging it. Over the default schedule the
//! large inputs weigh (card-duel's official-size files cost our sweep); on level 0 alone
//! (`--level 0`) what shows is the loop's own cost, mostly starting a process.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::measure::build_release;

/// Options of `cargo xtask bench judge`.
#[derive(Clone, Debug, clap::Args)]
pub struct JudgeBenchArgs {
    /// Runs of each stress loop.
    #[arg(long, default_value_t = 2000)]
    pub runs: u64,
    /// Repetitions of each loop (the median is reported).
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
}

/// Runs the bench and prints its table.
pub fn bench(args: &JudgeBenchArgs) -> crate::TaskResult {
    let problems = tests::registry::problems();
    let binaries = problems
        .iter()
        .map(|p| Ok((p.name.clone(), build_release(&p.name)?)))
        .collect::<Result<Vec<_>, String>>()?;
    println!("{}", crate::measure::machine_line(&["-j 1", "-j 2"]));
    println!("\n| problem | inputs | -j 1 | -j 2 |");
    println!("|---|---|---|---|");
    for tiny in [false, true] {
        for (name, binary) in &binaries {
            row(name, binary, tiny, args)?;
        }
    }
    Ok(())
}

/// One row: runs a second with one and two jobs, medians of `args.repeat` loops, over the
/// default schedule or (`tiny`) level 0 alone, where the loop's own cost shows.
fn row(name: &str, binary: &Path, tiny: bool, args: &JudgeBenchArgs) -> crate::TaskResult {
    let mut cells = Vec::new();
    for jobs in ["1", "2"] {
        let mut rates = Vec::new();
        for _ in 0..args.repeat.max(1) {
            let runs = args.runs.to_string();
            let mut command = Command::new(binary);
            command.args(["stress", "--accept-everything", "--no-shrink", "--runs", &runs]);
            command.args(["-j", jobs]);
            if tiny {
                command.args(["--level", "0"]);
            }
            command.args(["--", "cat"]);
            let started = Instant::now();
            let output = command.output().map_err(|e| format!("cannot run {name}: {e}"))?;
            let elapsed = started.elapsed().as_secs_f64();
            if !output.status.success() {
                return Err(format!(
                    "{name} stress failed: {}{}",
                    String::from_utf8_lossy(&output.stdout),
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
            rates.push(args.runs as f64 / elapsed);
        }
        rates.sort_by(f64::total_cmp);
        cells.push(format!("{:.0} runs/s", rates[rates.len() / 2]));
    }
    let inputs = if tiny { "level 0 only" } else { "the default schedule" };
    println!("| {name} | {inputs} | {} | {} |", cells[0], cells[1]);
    Ok(())
}
