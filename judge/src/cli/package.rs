//! `PROBLEM package DIR --accepted SRC... [--wrong SRC...] [--slow SRC...]`: a problem
//! package in the Kattis format (legacy version, or 2025-09 with `--format`), built by
//! [`build`]; this runner prints its steps on stderr as they come and what it built on
//! stdout.
//!
//! Exit codes: 0 the package is written and every submission filed; 1 the package is written
//! but some `--wrong` or `--slow` submission was killed by no test (a search of `--stress-time`
//! found nothing, and it passes every test): it is not filed, and a warning names it; 2
//! trouble (a folder name problemtools refuses, a language not supported, a source that does
//! not compile, an accepted submission that fails a test, a file that cannot be written);
//! stopped by SIGINT, SIGTERM or SIGHUP, 130, 143 or 129, nothing written.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use super::{EXIT_FOUND, EXIT_PASSED, EXIT_TROUBLE, parse_duration};
use crate::hunt::Juries;
use crate::package::{
    Built, Format, INTERACTION_LINES, Interactive, PYPY, PackageError, PackageOptions, Packaged,
    SUPPORTED, TIME_MULTIPLIER, build, time_limit,
};
use crate::sandbox::{Sandbox, exit_code};
use crate::text::{bytes, plural, seconds};

/// `PROBLEM package`: a problem package.
#[derive(Clone, Debug, clap::Args)]
#[command(after_help = format!(
    "Languages: {SUPPORTED}. Verify the package with Kattis's problemtools: \
     verifyproblem DIR -p config data validators submissions; one in 2025-09 with \
     BAPCtools: bt validate --problem DIR && bt run --problem DIR"
))]
pub struct PackageArgs {
    /// The package folder (first, before the options). Its last part is the problem's short
    /// name, as problemtools demands: [a-z0-9]+, e.g. packages/herobattle. An earlier package
    /// there is replaced; any other folder that is not empty is refused.
    pub(crate) dir: PathBuf,
    /// Right submissions: each must pass every test within 5 times the original time limit;
    /// the slowest run sets the package's time limit, as Kattis sets it.
    #[arg(long, num_args = 1.., required = true, value_name = "SRC")]
    pub(crate) accepted: Vec<PathBuf>,
    /// Submissions with a wrong answer or a crash on some input: stress finds the test that
    /// kills each.
    #[arg(long, num_args = 1.., value_name = "SRC")]
    pub(crate) wrong: Vec<PathBuf>,
    /// Submissions too slow on some input: stress finds the test that kills each, at twice
    /// the time limit (Kattis's safety margin), and keeps it unshrunk.
    #[arg(long, num_args = 1.., value_name = "SRC")]
    pub(crate) slow: Vec<PathBuf>,
    /// The seed of the generated tests and of every stress search.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Each --wrong or --slow submission's stress budget.
    #[arg(long, value_parser = parse_duration, default_value = "60s")]
    pub(crate) stress_time: Duration,
    /// Each kill test's shrinking budget, in runs (one at a time, so where it stops does not
    /// depend on the machine): a shrink that reaches it is not known to be 1-minimal.
    #[arg(long, default_value_t = 200)]
    pub(crate) shrink_runs: u64,
    /// Only the first N size levels (the smallest) of the generated tests and of each stress
    /// search, and none of the limits' extremes: a smaller package, for right submissions too
    /// slow on large inputs.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) levels: Option<u32>,
    /// Programs run at once by a stress search [default: the number of cores].
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u16).range(1..))]
    pub(crate) jobs: Option<u16>,
    /// The package's time limit, in whole seconds as Kattis takes it (e.g. 1 or 2s), instead
    /// of 5 times the slowest accepted run: every accepted submission must pass every test
    /// within it. Verify a legacy package with verifyproblem -t T, as the legacy format has
    /// no time limit of its own.
    #[arg(long, value_parser = parse_whole_seconds, value_name = "T")]
    pub(crate) time_limit: Option<u64>,
    /// A folder of your own tests: each NAME.in in it (the canonical format, the original
    /// limits: what `validate` accepts) goes into the secret data as test NAME, in every
    /// group whose constraints it meets, with our answer; a NAME.ans beside it must agree
    /// with ours.
    #[arg(long, value_name = "DIR")]
    pub(crate) tests: Option<PathBuf>,
    /// The interactive version instead (the statement's "Interactive version"): the
    /// submissions are players, judged by our jury, which goes into the package as
    /// output_validators/jury/run, a static build of this binary (--jury).
    #[arg(long)]
    pub(crate) interactive: bool,
    /// The jury's binary for --interactive: this problem's binary, linked statically (as
    /// `cargo build --release --target x86_64-unknown-linux-musl` builds it) [default: this
    /// binary, if it is static]
    #[arg(long, value_name = "BINARY", requires = "interactive")]
    pub(crate) jury: Option<PathBuf>,
    /// The package format's version: legacy (problemtools, Kattis, DOMjudge, pc2) or 2025-09
    /// (BAPCtools; problem.yaml's type and time_limit, statement/, output_validator/,
    /// data/test_group.yaml), for a pass-fail or an interactive package.
    #[arg(long, value_name = "VERSION", default_value = "legacy")]
    pub(crate) format: Format,
}

/// Parses a time limit in whole seconds, at least 1: `2`, `2s`, `2000ms`.
fn parse_whole_seconds(text: &str) -> Result<u64, String> {
    let duration = parse_duration(text)?;
    match (duration.subsec_nanos(), duration.as_secs()) {
        (0, seconds) if seconds >= 1 => Ok(seconds),
        _ => Err(format!(
            "expected whole seconds, at least 1, as Kattis takes them, found {:?}",
            text.trim()
        )),
    }
}

/// What was built, for stdout.
fn summary(built: &Built, seed: u64) -> String {
    let legacy = built.format == Format::Legacy;
    let mut out = format!("package: {} (format {})\n", built.dir.display(), built.format);
    if let Some(size) = built.jury_bytes {
        let kind = if legacy { "validation: custom interactive" } else { "type: interactive" };
        out += &format!(
            "jury: {}/run, a static binary of {} ({kind})\n",
            built.format.output_validator_folder("jury"),
            bytes(size)
        );
    }
    let mut tests = format!("tests: {}, {} (inputs and answers)", built.tests, bytes(built.bytes));
    if built.left_out > 0 && built.jury_bytes.is_some() {
        tests += &format!(
            "; {} left out by the size budget or as a perfect game over {}",
            plural(built.left_out as u64, "big test"),
            plural(INTERACTION_LINES as u64, "line")
        );
    } else if built.left_out > 0 {
        tests +=
            &format!("; {} left out by the size budget", plural(built.left_out as u64, "big test"));
    }
    out += &format!("{tests}\n");
    let (slowest, test) = &built.slowest_accepted;
    let file = built.format.time_limit_file();
    out += &if built.time_limit_given {
        format!(
            "time limit: {} s ({file}), as given; the slowest accepted run took {} on {test}\n",
            built.time_limit,
            seconds(*slowest)
        )
    } else {
        format!(
            "time limit: {} s ({file}): {TIME_MULTIPLIER} times the slowest accepted run ({} on \
             {test}), rounded up to whole seconds, at least 1 s\n",
            built.time_limit,
            seconds(*slowest)
        )
    };
    let rule = time_limit(*slowest);
    if built.time_limit_given && rule > built.time_limit && legacy {
        out += &format!(
            "note: Kattis's rule would give {rule} s ({TIME_MULTIPLIER} times the slowest accepted \
             run): verifyproblem -t {} warns that the given limit is tighter\n",
            built.time_limit
        );
    }
    out += "submissions:\n";
    for filed in &built.filed {
        let place = format!("{}/{}", filed.folder, filed.file);
        out += &format!("  {place:<40} {}\n", filed.grade);
        if let Some(lenient) = &filed.lenient {
            out += &format!(
                "  {:<40} accepted only leniently on {lenient}: the package's output validator \
                 may judge it otherwise\n",
                ""
            );
        }
    }
    for kill in &built.kills {
        out += &format!(
            "kill test: {} kills {}: found by run {} of stress (seed {seed}), {}; {}\n",
            kill.test, kill.file, kill.runs, kill.kept, kill.size
        );
    }
    for not in &built.not_killed {
        out += &format!(
            "not killed: {} ({}): no failure in {} of stress nor on any test; not filed\n",
            not.file,
            not.role.option(),
            plural(not.runs, "run")
        );
    }
    let dir = built.dir.display();
    out += &if legacy {
        // The legacy format has no time limit of its own: problemtools is told a given one.
        let fixed = if built.time_limit_given {
            format!(" -t {}", built.time_limit)
        } else {
            String::new()
        };
        format!("verify it: verifyproblem {dir}{fixed} -p config data validators submissions\n")
    } else {
        format!("verify it: bt validate --problem {dir} && bt run --problem {dir}\n")
    };
    match built.python {
        Some(PYPY) => {
            out += "note: the .py submissions ran with pypy3, as problemtools and Kattis run \
                    them: their times here are PyPy's\n";
        }
        Some(python) => {
            out += &format!(
                "note: the .py submissions ran with {python} (CPython), as pypy3 is not on \
                 PATH: problemtools and Kattis run them with PyPy 3, so verifyproblem needs \
                 pypy3, and their times there are PyPy's, not the CPython times measured here\n"
            );
        }
        None => {}
    }
    out += &format!("time: {:.1} s\n", built.elapsed.as_secs_f64());
    out
}

/// Runs `package`: builds the package (the interactive version against `juries`, which
/// `--interactive` needs), prints its steps and what it built; returns the exit code.
pub(super) fn run_package<P: Packaged>(
    sandbox: &Sandbox,
    problem: &P,
    args: &PackageArgs,
    juries: Option<Juries>,
) -> i32 {
    if let Err(e) = super::catch_signals(sandbox) {
        eprintln!("error: cannot catch signals: {e}");
        return EXIT_TROUBLE;
    }
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        usize::from,
    );
    let interactive = match (args.interactive, juries) {
        (false, _) => None,
        (true, None) => {
            eprintln!("error: --interactive: this problem has no game to play");
            return EXIT_TROUBLE;
        }
        (true, Some(juries)) => {
            let jury = match args.jury.clone().map_or_else(std::env::current_exe, Ok) {
                Ok(jury) => jury,
                Err(e) => {
                    eprintln!("error: --interactive: cannot find this binary: {e}; give --jury");
                    return EXIT_TROUBLE;
                }
            };
            Some(Interactive { juries, jury })
        }
    };
    let options = PackageOptions {
        dir: args.dir.clone(),
        accepted: args.accepted.clone(),
        wrong: args.wrong.clone(),
        slow: args.slow.clone(),
        seed: args.seed,
        stress_time: args.stress_time,
        shrink_runs: args.shrink_runs,
        jobs,
        levels: args.levels,
        time_limit: args.time_limit,
        own_tests: args.tests.clone(),
        interactive,
        format: args.format,
    };
    let progress = |step| eprintln!("package: {step}");
    match build(sandbox, problem, &options, &progress) {
        Ok(built) => {
            let _ = std::io::stdout().lock().write_all(summary(&built, args.seed).as_bytes());
            for not in &built.not_killed {
                eprintln!(
                    "warning: {} ({}) was killed by no test: not filed; give it more \
                     --stress-time, or check that it is wrong",
                    not.file,
                    not.role.option()
                );
            }
            if built.not_killed.is_empty() { EXIT_PASSED } else { EXIT_FOUND }
        }
        Err(PackageError::Interrupted(signal)) => {
            eprintln!("interrupted by {}: no package written", crate::sandbox::signal(signal));
            exit_code(signal)
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_TROUBLE
        }
    }
}
