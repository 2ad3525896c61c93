//! What `stress` and `shrink` print: a [`Hunt`] rendered as a screen-sized report
//! ([`FailureReport`]) with the texts saved beside `--save`, or one `ok` line.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::args::{EXIT_FOUND, EXIT_PASSED, LimitsUsed, StressArgs};
use super::layout::{FailureReport, Role, Text, beside, unused_save_path};
use crate::hunt::{
    Failed, Finding, Hunt, Reruns, ShrinkEnd, ShrinkOutcome, Shrunk, Standing, Transcript, Trial,
};
use crate::rules::{Limits, Problem, VerdictKind, render};
use crate::sandbox::{ChildReport, Program};
use crate::text::{self, megabytes, plural, seconds};

/// What a report needs beyond the hunt: the problem, the program, the limits, where to save.
pub(super) struct Context<'a, P> {
    pub(super) problem: &'a P,
    pub(super) program: &'a Program,
    /// Chance's seed when the program plays against the jury (`--interactive`).
    pub(super) jury_seed: Option<u64>,
    pub(super) limits: &'a LimitsUsed,
    /// The inputs' limits.
    pub(super) inputs: Limits,
    /// `--save`.
    pub(super) save: &'a Path,
    /// `--shrink-time`.
    pub(super) shrink_time: Duration,
    /// `-j`.
    pub(super) jobs: usize,
    /// The margin a time limit is shrunk under, in percent of the limit; `None`: not shrunk.
    pub(super) time_limit_margin: Option<u32>,
}

/// How a failure was found, for its report.
struct Found {
    /// `found by run 14: ...`.
    headline: String,
    /// Lines about the search and the limits.
    about: Vec<String>,
    /// A command that replays the run that found it.
    replay: Option<String>,
    /// The search's time line.
    time: String,
}

/// `stress`'s report and exit code.
pub(super) fn stress<P: Problem>(
    context: &Context<'_, P>,
    args: &StressArgs,
    hunt: &Hunt<P::Input>,
    total: Option<u64>,
    caught: Option<i32>,
) -> (String, i32) {
    let source = match args.exhaustive {
        Some(bound) => format!("exhaustive up to {bound}"),
        None => format!("seed {}", args.seed),
    };
    let counts = format!("{}, {} ({source})", plural(hunt.runs, "run"), plural(hunt.cases, "case"));
    let mut about = vec![context.limits.line(context.inputs)];
    if !hunt.unconfirmed.is_empty() {
        let runs: Vec<String> = hunt.unconfirmed.iter().map(u64::to_string).collect();
        about.push(format!(
            "{} that no rerun alone met, taken for the machine's load: run {}",
            plural(hunt.unconfirmed.len() as u64, "time limit"),
            runs.join(", ")
        ));
    }
    let time = format!("time: {:.1} s", hunt.elapsed.as_secs_f64());
    let failed = match &hunt.finding {
        Finding::Failed(failed) => failed,
        Finding::Passed(_) | Finding::Interrupted(_) | Finding::Unconfirmed(_) => {
            let headline = if let Finding::Interrupted(signal) = hunt.finding {
                format!(
                    "interrupted by {} after {counts}: no failure so far",
                    crate::sandbox::signal(signal)
                )
            } else if total.is_some_and(|t| args.from == 0 && hunt.runs == t) {
                format!("ok: right on every input: {counts}")
            } else {
                format!("ok: no failure in {counts}")
            };
            let text = format!("{headline}\n{}\n{time}, -j {}\n", about.join("\n"), context.jobs);
            return (text, EXIT_PASSED);
        }
    };
    let replay_source = match (args.exhaustive, args.level) {
        (Some(bound), _) => format!("--exhaustive {bound}"),
        (None, Some(level)) => format!("--seed {} --level {level}", args.seed),
        (None, None) => format!("--seed {}", args.seed),
    };
    let replay = format!(
        "{} stress{} {replay_source} --from {} --runs 1 {} --limits {} -- {}",
        context.problem.name(),
        context.interactive_flags(),
        failed.found.index,
        context.limits.flags(),
        context.inputs,
        context.program.display()
    );
    about.insert(0, format!("tried {counts}"));
    let found = Found {
        headline: format!("found by run {}: {}", failed.found.index, failed.found.trial.verdict),
        about,
        replay: Some(replay),
        time,
    };
    // A shrink stopped by its time was stopped by the flag that set that time.
    let shrink_stop = match args.time {
        Some(time) if hunt.shrink_cut => format!("--time {}", text::seconds_given(time)),
        _ => format!("--shrink-time {}", text::seconds_given(context.shrink_time)),
    };
    (failure(context, failed, found, &shrink_stop, caught), EXIT_FOUND)
}

/// `shrink`'s report and exit code.
pub(super) fn shrink<P: Problem>(
    context: &Context<'_, P>,
    input: &Path,
    hunt: &Hunt<P::Input>,
    caught: Option<i32>,
) -> (String, i32) {
    let name = input.display();
    let limits_line = context.limits.line(context.inputs);
    let time = format!("time: {:.1} s", hunt.elapsed.as_secs_f64());
    let program = context.program.display();
    match &hunt.finding {
        Finding::Passed(last) => {
            let verdict = last.as_ref().map(|t| t.verdict.to_string()).unwrap_or_default();
            let runs = plural(hunt.runs, "run");
            let text = format!(
                "ok: {program} passes on {name} ({runs}): {verdict}\n{limits_line}\n{time}\n"
            );
            (text, EXIT_PASSED)
        }
        Finding::Unconfirmed(reruns) => {
            let text = format!(
                "ok: {program} passes on {name}: its {} was not met again in {} alone, taken for \
                 the machine's load\n{limits_line}\n{time}\n",
                reruns.kind.words(),
                plural(u64::from(reruns.runs), "rerun")
            );
            (text, EXIT_PASSED)
        }
        Finding::Interrupted(signal) => {
            let text = format!(
                "interrupted by {}\n{limits_line}\n{time}\n",
                crate::sandbox::signal(*signal)
            );
            (text, EXIT_PASSED)
        }
        Finding::Failed(failed) => {
            let found = Found {
                headline: format!("{name} fails: {}", failed.found.trial.verdict),
                about: vec![limits_line],
                replay: None,
                time,
            };
            let shrink_stop = format!("--shrink-time {}", text::seconds_given(context.shrink_time));
            (failure(context, failed, found, &shrink_stop, caught), EXIT_FOUND)
        }
    }
}

/// A failure's report as its reruns alone and its shrink left it: a confirmed one shrunk
/// (when asked), a nondeterministic one or one whose reruns a signal stopped as found.
/// A failure's report; `shrink_stop` names the flag whose time stops its shrink
/// (`--shrink-time 60 s`, or stress's `--time 40 s` when what it left was less).
fn failure<P: Problem>(
    context: &Context<'_, P>,
    failed: &Failed<P::Input>,
    mut found: Found,
    shrink_stop: &str,
    caught: Option<i32>,
) -> String {
    let input = &failed.found.input;
    let reruns = failed.found.reruns.as_ref();
    if let Some(r) = reruns.filter(|r| r.standing() == Standing::Confirmed) {
        if !r.first_counts {
            // Alone, with its time, the run fails otherwise: that failure is the one.
            found.about.push(format!("run alone, it fails otherwise: {}", failed.failing.verdict));
        }
        found.about.push(format!(
            "confirmed: it failed the same way in {} alone",
            plural(u64::from(r.runs), "rerun")
        ));
    }
    let margin = |percent: u32| format!("{} times the limit", f64::from(percent) / 100.0);
    // A confirmed failure not shrunk is measured by its first rerun alone.
    let measured_alone = reruns.and_then(|r| r.trial.as_ref()).unwrap_or(&failed.failing);
    let shrunk = match &failed.shrink {
        ShrinkOutcome::Stopped => {
            found.about.push(format!(
                "not confirmed: stopped by {} before a rerun alone",
                caught.map_or_else(|| "a signal".to_owned(), crate::sandbox::signal)
            ));
            return report(context, input, &failed.failing, found, None, true);
        }
        ShrinkOutcome::NearTimeLimit { failed: some, runs } => {
            found.about.push(format!(
                "near the limit: it failed {some} of {runs} runs of this input (the reruns \
                 alone), its CPU time about the limit, where the machine's load decides; not \
                 shrunk (`shrink` shrinks it under {} times the limit)",
                f64::from(super::TIME_LIMIT_MARGIN) / 100.0
            ));
            return report(context, input, &failed.found.trial, found, None, false);
        }
        ShrinkOutcome::Nondeterministic { failed: some, runs } => {
            found.about.push(format!(
                "nondeterministic: it failed {some} of {runs} runs of this input (the reruns \
                 alone); not shrunk, since a shrink would follow chance rather than the bug"
            ));
            return report(context, input, &failed.found.trial, found, None, false);
        }
        ShrinkOutcome::NotAsked => {
            return report(context, input, measured_alone, found, None, true);
        }
        ShrinkOutcome::KeptTimeLimit => {
            found.about.push(match context.time_limit_margin {
                None => format!(
                    "a time limit: reported as found, not shrunk (a shrink at the limit would \
                     end on an input just over it, where the machine's load decides); `shrink` \
                     shrinks it under {}",
                    margin(super::TIME_LIMIT_MARGIN)
                ),
                Some(percent) => format!(
                    "a time limit that the input does not meet under {}: not shrunk, since a \
                     shrink would end at the edge of the limit",
                    margin(percent)
                ),
            });
            return report(context, input, measured_alone, found, None, true);
        }
        ShrinkOutcome::Shrunk(shrunk) | ShrinkOutcome::FollowedChance { shrunk, .. } => shrunk,
    };
    found.time += &format!(
        ", shrinking {:.1} s in {}",
        shrunk.elapsed.as_secs_f64(),
        plural(shrunk.runs, "run")
    );
    let shrunk_line = shrink_line(shrunk, shrink_stop);
    if let Some(percent) = context.time_limit_margin
        && failed.failing.verdict.kind == VerdictKind::TimeLimit
    {
        found.about.push(format!(
            "a time limit, shrunk under {}, so that the input it ends on fails by a margin",
            margin(percent)
        ));
    }
    let alone = |r: &Reruns| r.trial.clone().unwrap_or_else(|| shrunk.trial.clone());
    match (&failed.shrink, &shrunk.reruns) {
        (ShrinkOutcome::FollowedChance { failed: 0, runs, .. }, _) => {
            // The shrink followed chance: say what was tried, not what it claimed.
            found.about.push(format!(
                "nondeterministic: a shrink by {} ended on an input that failed 0 of {} alone; \
                 the input as found is reported instead",
                plural(shrunk.steps, "move"),
                plural(u64::from(*runs), "rerun")
            ));
            report(context, input, &failed.failing, found, None, false)
        }
        (ShrinkOutcome::FollowedChance { failed: some, runs, .. }, Some(r)) => {
            found.about.push(format!(
                "nondeterministic: {shrunk_line}, but the shrunk input failed {some} of {} alone, \
                 so the shrink may have followed chance",
                plural(u64::from(*runs), "rerun")
            ));
            report(context, &shrunk.input, &alone(r), found, Some(shrunk.end), false)
        }
        (_, Some(r)) => {
            found.about.push(shrunk_line);
            found.about.push(format!(
                "the shrunk input failed again in {} of {} alone",
                r.failed,
                plural(u64::from(r.runs), "rerun")
            ));
            report(context, &shrunk.input, &alone(r), found, Some(shrunk.end), true)
        }
        (_, None) => {
            found.about.push(shrunk_line);
            report(context, &shrunk.input, &shrunk.trial, found, Some(shrunk.end), true)
        }
    }
}

impl<P> Context<'_, P> {
    /// The flags that make a command play against the jury as this one did: `
    /// --interactive` and, when not the default, `--jury-seed S`; empty for a batch program.
    fn interactive_flags(&self) -> String {
        match self.jury_seed {
            None => String::new(),
            Some(1) => " --interactive".to_owned(),
            Some(seed) => format!(" --interactive --jury-seed {seed}"),
        }
    }
}

/// Saves the failing input and its texts beside `--save` (under a name no earlier failure
/// holds) and renders the report; `shrinkable` offers a command that shrinks it (further).
/// A batch program's texts are our answer, its output and our proofs; a player's, the
/// transcript of its games against the jury.
fn report<P: Problem>(
    context: &Context<'_, P>,
    input: &P::Input,
    trial: &Trial,
    found: Found,
    end: Option<ShrinkEnd>,
    shrinkable: bool,
) -> String {
    let Found { headline, about, replay, time } = found;
    let problem = context.problem;
    let exhibits = if trial.transcript.is_some() { Vec::new() } else { problem.explain(input) };
    let mut extensions = match trial.transcript {
        Some(_) => vec!["transcript"],
        None => vec!["ans", "out"],
    };
    extensions.extend(exhibits.iter().map(|e| e.extension));
    let save = unused_save_path(context.save, &extensions);
    let mut texts = vec![Text::saved(
        Role::Input,
        "input",
        Some(problem.summary(input)),
        render(problem, input),
        save.clone(),
    )];
    match &trial.transcript {
        Some(transcript) => texts.push(transcript_text(transcript, beside(&save, "transcript"))),
        None => {
            let mut ours = Vec::new();
            problem.render_answer(input, &problem.solve(input), &mut ours);
            texts.push(Text::saved(Role::Answer, "our answer", None, ours, beside(&save, "ans")));
            let out = beside(&save, "out");
            texts.push(Text::saved(
                Role::Output,
                "your output",
                None,
                trial.run.stdout.clone(),
                out,
            ));
        }
    }
    texts.extend(stderr_text(&trial.run));
    for exhibit in exhibits {
        let path = beside(&save, exhibit.extension);
        texts.push(Text::saved(
            Role::Exhibit,
            exhibit.title,
            None,
            exhibit.text.into_bytes(),
            path,
        ));
    }
    let command = context.program.display();
    let saved = text::shell_quote(&save.display().to_string());
    let again = match context.jury_seed {
        None => format!("{} < {saved}", context.program.run_line()),
        Some(seed) => format!(
            "{} interact {saved}{} {} -- {command}",
            problem.name(),
            if seed == 1 { String::new() } else { format!(" --seed {seed}") },
            context.limits.flags()
        ),
    };
    let mut commands = vec![("run it again".to_owned(), again)];
    if let Some(replay) = replay {
        commands.push(("replay the run".to_owned(), replay));
    }
    if shrinkable && end != Some(ShrinkEnd::Minimal) {
        commands.push((
            "go on shrinking".to_owned(),
            format!(
                "{} shrink {saved}{} {} --limits {} -- {command}",
                problem.name(),
                context.interactive_flags(),
                context.limits.flags(),
                context.inputs
            ),
        ));
    }
    let measured = measured(trial);
    let report = FailureReport {
        found: headline,
        about,
        verdict: trial.verdict.clone(),
        texts,
        commands,
        measured,
        time: format!("{time}, -j {}", context.jobs),
    };
    report.save().to_string()
}

/// The transcript of a player's games, to be saved at `path`.
pub(super) fn transcript_text(transcript: &Transcript, path: PathBuf) -> Text {
    let about = "> the jury's lines, < the program's";
    Text::saved(Role::Transcript, "transcript", Some(about.to_owned()), transcript.text(), path)
}

/// What the program wrote to stderr, when it wrote anything.
pub(super) fn stderr_text(run: &ChildReport) -> Option<Text> {
    if run.stderr_len == 0 {
        return None;
    }
    let kept = run.stderr_head.len() + run.stderr_tail.len();
    let about = (run.stderr_len > kept)
        .then(|| format!("its first and last {}", text::bytes(run.stderr_tail.len() as u64)));
    Some(Text::shown(Role::Stderr, "your stderr", about, run.stderr_kept()))
}

/// The `measured: ...` line of a trial: its CPU time, wall time and peak memory, and for a
/// player the jury's replies as the interaction saw them.
pub(super) fn measured(trial: &Trial) -> String {
    let run = &trial.run;
    let mut line = format!(
        "measured: CPU {}, wall {}, peak memory {}",
        seconds(run.cpu),
        seconds(run.wall),
        megabytes(run.memory.kib())
    );
    if let Some(transcript) = &trial.transcript {
        let replies = transcript.replies;
        line += &format!(
            "; the jury's {} (not in the wall time): median {}, worst {}",
            plural(replies.count as u64, "answer"),
            text::milliseconds(replies.median),
            text::milliseconds(replies.worst)
        );
    }
    line
}

/// The line that says how far shrinking got; `stop` names the flag whose time stopped it.
fn shrink_line<I>(shrunk: &Shrunk<I>, stop: &str) -> String {
    let moves = plural(shrunk.steps, "move");
    match shrunk.end {
        ShrinkEnd::Minimal => format!(
            "shrunk by {moves}: 1-minimal (no single move gives a valid input that fails the same way)"
        ),
        ShrinkEnd::Time => {
            format!("shrunk by {moves}, then stopped by {stop}: not known to be 1-minimal")
        }
        ShrinkEnd::Runs => format!("shrunk by {moves}, then stopped by the run budget"),
        ShrinkEnd::Interrupted(signal) => format!(
            "shrunk by {moves}, then stopped by {}: not known to be 1-minimal",
            crate::sandbox::signal(signal)
        ),
    }
}
