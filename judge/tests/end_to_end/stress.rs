//! The stress loop and the shrinker on the toy problem (sum of two numbers per case) against small shell
//! programs: a right one and wrong ones of every kind. Each failure is found, named, and
//! shrunk to an input that the test proves 1-minimal by trying every move itself.

use std::path::Path;
use std::time::{Duration, Instant};

use engine::rng::SplitMix64;
use judge::testing::toy::Sum;
use judge::testing::{TestDir, sandbox};
use judge::{
    ChildOptions, Limits, Plan, Problem, Program, Schedule, ShrinkOptions, Standing, StressError,
    StressOptions, Verdict, VerdictKind, check, render, run_seed, shrink, stress, trial,
};

/// A scratch folder for this test binary's scripts, shared by its tests: never dropped, it is
/// removed by the first scratch folder of a later test process ([`TestDir`]).
fn scratch() -> &'static Path {
    static DIR: std::sync::OnceLock<TestDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| TestDir::new("end-to-end"))
}

/// A `/bin/sh` program that reads the toy input and prints `$((a + b))` per case, with
/// `body` run first for each case (it may print and `continue`, or exit).
fn program(name: &str, body: &str) -> Program {
    let path = scratch().join(format!("{name}.sh"));
    let script =
        format!("read t\nprev=0\nwhile read a b; do\n{body}\necho $((a + b))\nprev=$a\ndone\n");
    // Tests run at once and share scripts such as `right`: write aside, then rename, so no
    // run ever reads a half-written script.
    let aside = path.with_extension(format!("{:?}", std::thread::current().id()));
    std::fs::write(&aside, script).expect("the scratch folder is writable");
    std::fs::rename(&aside, &path).expect("the scratch folder is writable");
    Program::new(&["/bin/sh".into(), path.into_os_string()])
}

fn right() -> Program {
    program("right", ":")
}

/// A program whose first `first_runs` runs (counted in a file of its own) do `first` for each
/// case, and whose later runs are right: a failure of the moment, as a busy machine makes one.
fn first_runs_only(name: &str, first_runs: u32, first: &str) -> Program {
    let count = scratch().join(format!("{name}.count"));
    let _ = std::fs::remove_file(&count);
    let count = count.display();
    program(
        name,
        &format!(
            "if [ -z \"$seen\" ]; then seen=1; n=$(cat {count} 2>/dev/null || echo 0); \
             echo $((n + 1)) > {count}; fi\nif [ \"$n\" -lt {first_runs} ]; then {first}; fi"
        ),
    )
}

fn options(seed: u64, jobs: usize) -> StressOptions {
    StressOptions {
        seed,
        runs: Some(400),
        jobs,
        limits: Limits::Original,
        run: ChildOptions::new(Duration::from_secs(5), None),
        schedule: Some(Schedule {
            first_level: 0,
            levels: Sum::LEVELS,
            runs_per_level: 5,
            extremes: 0,
            extremes_from: 0,
        }),
        ..StressOptions::default()
    }
}

fn shrink_options(run: &ChildOptions) -> ShrinkOptions {
    ShrinkOptions {
        jobs: 2,
        limits: Limits::Original,
        run: run.clone(),
        ..ShrinkOptions::default()
    }
}

/// Stresses `program`, expects a failure of `kind`, shrinks it and proves the result
/// 1-minimal: every move of it is invalid or does not fail the same way.
fn find_and_shrink(program: &Program, kind: VerdictKind) -> (Vec<(u32, u32)>, Verdict) {
    find_and_shrink_under(program, kind, options(1, 2))
}

/// [`find_and_shrink`] with the stress options `options`.
fn find_and_shrink_under(
    program: &Program,
    kind: VerdictKind,
    options: StressOptions,
) -> (Vec<(u32, u32)>, Verdict) {
    let report = stress(sandbox(), &Sum, program, &options, None).expect("the program runs");
    let failure = report.failure.expect("the wrong program fails");
    assert_eq!(failure.trial.verdict.kind, kind, "{}", failure.trial.verdict);
    assert_eq!(report.runs, failure.index + 1);
    let shrunk = shrink(
        sandbox(),
        &Sum,
        program,
        failure.input.clone(),
        failure.trial,
        &shrink_options(&options.run),
    )
    .expect("the candidates run");
    assert!(shrunk.minimal());
    assert_eq!(shrunk.trial.verdict.kind, kind);
    assert!(Sum.size(&shrunk.input) <= Sum.size(&failure.input));
    for candidate in Sum.shrink(&shrunk.input) {
        if Sum.validate(&candidate, Limits::Original).is_err() {
            continue;
        }
        let t = trial(sandbox(), &Sum, program, &candidate, &options.run).expect("the move runs");
        assert_ne!(t.verdict.kind, kind, "{candidate:?} is smaller and fails: {}", t.verdict);
    }
    (shrunk.input, shrunk.trial.verdict)
}

#[test]
fn a_right_program_passes_and_runs_are_counted() {
    let options = StressOptions { runs: Some(40), ..options(3, 2) };
    let report = stress(sandbox(), &Sum, &right(), &options, None).unwrap();
    assert!(report.failure.is_none());
    assert_eq!(report.runs, 40);
    let schedule = options.schedule.unwrap();
    let cases: u64 = (0..40)
        .map(|i| {
            let mut rng = SplitMix64::new(run_seed(3, i));
            let Plan::Level(level) = schedule.plan(i) else { unreachable!("no extremes") };
            Sum.generate(&mut rng, level, Limits::Original).len() as u64
        })
        .sum();
    assert_eq!(report.cases, cases);
}

#[test]
fn a_rule_bug_is_a_wrong_answer_shrunk_to_one_case() {
    // Forgets the carry: prints (a + b) mod 10.
    let carry = program("carry", "echo $(( (a + b) % 10 )); prev=$a; continue");
    let (input, verdict) = find_and_shrink(&carry, VerdictKind::WrongAnswer);
    assert_eq!(input.len(), 1, "{input:?}");
    assert_eq!(input[0].0 + input[0].1, 10, "the smallest sums that carry: {input:?}");
    assert_eq!(verdict.to_string(), r#"wrong answer: case 1: expected "10", found "0""#);
}

#[test]
fn state_kept_between_cases_keeps_the_cases_it_needs() {
    // Wrong on a case with a = 1 right after a case with a > 5.
    let state = program(
        "state",
        r#"if [ "$prev" -gt 5 ] && [ "$a" -eq 1 ]; then echo $((a + b + 1)); prev=$a; continue; fi"#,
    );
    let (input, verdict) = find_and_shrink(&state, VerdictKind::WrongAnswer);
    assert_eq!(input.len(), 2, "{input:?}");
    assert_eq!((input[0].0, input[1].0), (6, 1), "{input:?}");
    assert!(verdict.message.starts_with("case 2: "), "{verdict}");
}

#[test]
fn a_crash_is_a_runtime_error_with_its_stderr() {
    let crash = program("crash", r#"if [ "$a" -ge 7 ]; then echo "boom: a is $a" >&2; exit 3; fi"#);
    let (input, verdict) = find_and_shrink(&crash, VerdictKind::RuntimeError);
    assert_eq!(input, [(7, 1)]);
    assert_eq!(verdict.to_string(), r#"runtime error: exit code 3, stderr: "boom: a is 7""#);
}

#[test]
fn a_memory_hog_is_a_memory_limit_exceeded() {
    // Holds 40 MB in a shell variable on a case with a >= 8, under a 16 MB limit.
    let hog = program(
        "hog",
        r#"if [ "$a" -ge 8 ]; then x=$(head -c 40000000 /dev/zero | tr '\0' a); fi"#,
    );
    let mut limited = options(1, 2);
    limited.run.memory_limit_kib = Some(16 * 1024);
    let (input, verdict) = find_and_shrink_under(&hog, VerdictKind::MemoryLimit, limited);
    assert_eq!(input, [(8, 1)]);
    assert!(
        verdict.message.starts_with("peak resident memory ")
            && verdict.message.ends_with(" MB (memory limit 16 MB)"),
        "{verdict}"
    );
    // Without a limit the same program is right.
    let report =
        stress(sandbox(), &Sum, &hog, &StressOptions { runs: Some(60), ..options(1, 2) }, None);
    let failure = report.expect("the program runs").failure;
    assert!(failure.is_none(), "{:?}", failure.map(|f| (f.trial.verdict, f.reruns)));
}

#[test]
fn a_misspelt_answer_is_a_presentation_error() {
    let spell = program("spell", r#"if [ "$a" -eq 9 ]; then echo nine; continue; fi"#);
    let (input, verdict) = find_and_shrink(&spell, VerdictKind::PresentationError);
    assert_eq!(input, [(9, 1)]);
    assert_eq!(
        verdict.to_string(),
        r#"presentation error: case 1: expected "10", found "nine", which is not an answer"#
    );
}

fn alive(pid: u32) -> bool {
    // A killed process may linger as a zombie until its new parent reaps it.
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| !stat.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'))
}

#[test]
fn a_hang_is_killed_at_the_limit_with_its_whole_process_group() {
    let pid_file = scratch().join("sleeper.pid");
    let _ = std::fs::remove_file(&pid_file);
    let hang = program(
        "hang",
        &format!(
            r#"if [ "$a" -eq 2 ]; then sleep 30 & echo $! > {}; wait; fi"#,
            pid_file.display()
        ),
    );
    let run = ChildOptions::new(Duration::from_millis(300), None);
    let started = Instant::now();
    let t = trial(sandbox(), &Sum, &hang, &vec![(1, 1), (2, 1)], &run).unwrap();
    assert_eq!(t.verdict.kind, VerdictKind::TimeLimit, "{}", t.verdict);
    assert!(
        t.verdict.message.starts_with("killed at the wall-clock backstop, 1.600 s"),
        "{}",
        t.verdict
    );
    assert!(started.elapsed() < Duration::from_secs(4), "the run returned at the backstop");
    assert_eq!(t.run.stdout, b"2\n", "output before the hang is kept");
    let sleeper: u32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    let gone = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(10));
        !alive(sleeper)
    });
    assert!(gone, "the grandchild {sleeper} (sleep 30) survived the kill");
}

#[test]
fn a_time_limit_that_no_rerun_alone_meets_is_set_aside_and_the_loop_goes_on() {
    let slow_once = first_runs_only("slow-once", 1, "while :; do :; done");
    let run = ChildOptions::new(Duration::from_millis(300), None);
    let options = StressOptions { runs: Some(3), run, ..options(1, 1) };
    let report = stress(sandbox(), &Sum, &slow_once, &options, None).unwrap();
    assert!(report.failure.is_none(), "{:?}", report.failure.map(|f| f.trial.verdict));
    assert_eq!((report.unconfirmed.as_slice(), report.runs), (&[0][..], 3));
}

#[test]
fn a_failure_that_does_not_come_back_is_nondeterministic() {
    // One job: with two, run 1 may take the counter's first value and fail in run 0's place.
    let wrong_once = first_runs_only("wrong-once", 1, "echo 0; continue");
    let report = stress(sandbox(), &Sum, &wrong_once, &options(1, 1), None).unwrap();
    let failure = report.failure.expect("the first run fails");
    let reruns = failure.reruns.expect("rerun alone");
    assert_eq!((failure.index, reruns.standing()), (0, Standing::Nondeterministic));
    assert_eq!(reruns.with_first(), (1, 7));
}

#[test]
fn a_time_limit_that_is_a_wrong_answer_alone_is_reported_as_one() {
    // Slow on its first run; wrong, and quick, on every run after.
    let count = scratch().join("slow-then-wrong.count");
    let _ = std::fs::remove_file(&count);
    let slow_then_wrong = program(
        "slow-then-wrong",
        &format!(
            "if [ -z \"$seen\" ]; then seen=1; n=$(cat {c} 2>/dev/null || echo 0); \
             echo $((n + 1)) > {c}; fi\nif [ \"$n\" -lt 1 ]; then while :; do :; done; fi\n\
             echo 0; continue",
            c = count.display()
        ),
    );
    let run = ChildOptions::new(Duration::from_millis(300), None);
    let options = StressOptions { runs: Some(3), run, ..options(1, 1) };
    let failure =
        stress(sandbox(), &Sum, &slow_then_wrong, &options, None).unwrap().failure.unwrap();
    assert_eq!(failure.trial.verdict.kind, VerdictKind::TimeLimit);
    let reruns = failure.reruns.expect("rerun alone");
    assert_eq!((reruns.kind, reruns.first_counts), (VerdictKind::WrongAnswer, false));
    assert_eq!((reruns.standing(), reruns.with_first()), (Standing::Confirmed, (2, 2)));
}

#[test]
fn the_first_failure_does_not_depend_on_jobs() {
    // Fails only on a case 4 4 (about one input in fifteen from level 1 on).
    let rare = program("rare", r#"if [ "$a" -eq 4 ] && [ "$b" -eq 4 ]; then echo 7; continue; fi"#);
    let run = |jobs| {
        let report = stress(sandbox(), &Sum, &rare, &options(11, jobs), None).unwrap();
        let f = report.failure.expect("case 4 4 comes up");
        (f.index, f.seed, f.input, f.trial.verdict, report.runs, report.cases)
    };
    let one = run(1);
    assert!(one.0 > 0, "not found on the first run: the test would prove little");
    assert_eq!(run(2), one);
    assert_eq!(run(3), one);

    // The report's reproduction: the same seed from the failing index, one run.
    let replay = StressOptions { first: one.0, runs: Some(1), ..options(11, 1) };
    let report = stress(sandbox(), &Sum, &rare, &replay, None).expect("the program runs");
    let f = report.failure.expect("the replay fails");
    assert_eq!((f.index, f.input, report.runs), (one.0, one.2, 1));
}

#[test]
fn a_time_budget_ends_the_loop() {
    let budget =
        StressOptions { runs: None, time: Some(Duration::from_millis(200)), ..options(5, 2) };
    let started = Instant::now();
    let report = stress(sandbox(), &Sum, &right(), &budget, None).expect("the program runs");
    assert!(report.failure.is_none() && report.runs > 0);
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
}

#[test]
fn a_program_that_cannot_start_is_trouble() {
    let missing = Program::new(&["/no/such/solver"]);
    let err = stress(sandbox(), &Sum, &missing, &options(1, 2), None).unwrap_err();
    assert!(matches!(err, StressError::Run { index: 0, .. }), "{err}");
}

#[test]
fn check_judges_against_our_answer_or_a_jury_answer() {
    let input = b"2\n1 2\n3 4\n";
    let verdict = |output: &[u8], answer: Option<&[u8]>| {
        check(&Sum, input, output, answer, Limits::Original, true, false).to_string()
    };
    assert_eq!(verdict(b"3\n7\n", None), "ok: 2 cases");
    assert_eq!(verdict(b"3\n8\n", None), r#"wrong answer: case 2: expected "7", found "8""#);
    assert_eq!(
        verdict(b"3\n", Some(b"3\n7\n")),
        r#"presentation error: case 2: expected "7", found end of output"#
    );
    assert_eq!(verdict(b"3\n7\n", Some(b"3\nx\n")), r#"fail: answer: line 2: "x" is not a sum"#);
    assert_eq!(
        verdict(b"3\n7\n", Some(b"3\n8\n")),
        r#"fail: the answer file disagrees with ours: case 2: expected "7", found "8""#
    );
    assert_eq!(
        check(&Sum, b"2\n1 2\n1 2\n", b"3\n3\n", None, Limits::Original, true, false).to_string(),
        "fail: input: line 3, column 1: case 1 2 appears twice"
    );
}

#[test]
fn generated_inputs_round_trip_and_are_valid() {
    let mut rng = SplitMix64::new(5);
    for level in 0..Sum::LEVELS {
        for limits in [Limits::Original, Limits::Extended] {
            let input = Sum.generate(&mut rng, level, limits);
            Sum.validate(&input, limits).unwrap();
            assert_eq!(Sum.parse(&render(&Sum, &input), limits).unwrap(), input);
        }
    }
}

#[test]
fn an_exhaustive_run_takes_every_input_in_order_whatever_the_jobs() {
    let exhaustive = |jobs| StressOptions { runs: None, exhaustive: Some(5), ..options(1, jobs) };
    let report = stress(sandbox(), &Sum, &right(), &exhaustive(2), None).expect("the program runs");
    assert!(report.failure.is_none());
    assert_eq!((report.runs, report.cases), (3, 25), "every pair up to 5 in files of 10");
    assert_eq!(
        Sum.exhaustive(5, 0, Limits::Original).unwrap()[..4],
        [(1, 1), (1, 2), (2, 1), (2, 2)]
    );
    assert_eq!(Sum.exhaustive(5, 3, Limits::Original), None);

    // Wrong on 3 + 4 only: the first file holding it fails, for any number of jobs.
    let seven =
        program("seven", r#"if [ "$a" -eq 3 ] && [ "$b" -eq 4 ]; then echo 0; continue; fi"#);
    let found = |jobs| {
        let report =
            stress(sandbox(), &Sum, &seven, &exhaustive(jobs), None).expect("the program runs");
        let f = report.failure.expect("3 4 is enumerated");
        (f.index, f.seed, f.input, report.runs, report.cases)
    };
    let one = found(1);
    assert_eq!((one.0, one.1, one.3, one.4), (1, 0, 2, 20), "{one:?}");
    assert!(one.2.contains(&(3, 4)));
    assert_eq!(found(2), one);

    let err = stress(
        sandbox(),
        &Sum,
        &right(),
        &StressOptions { exhaustive: Some(10), ..options(1, 1) },
        None,
    );
    assert_eq!(
        err.unwrap_err().to_string(),
        "no exhaustive run: the bound is a value in 1..=9, found 10"
    );
}

/// A program each of whose runs leaves a daemon behind in a session of its own, and waits
/// until the daemon has noted its pid in a file in `pids` named after the run's shell.
fn daemon_leaver(name: &str, pids: &Path) -> Program {
    let _ = std::fs::remove_dir_all(pids);
    std::fs::create_dir_all(pids).expect("the scratch folder is writable");
    program(
        name,
        &format!(
            "if [ -z \"$left\" ]; then left=1; noted={}/$$; \
             setsid sh -c \"echo \\$\\$ > $noted.part; mv $noted.part $noted; exec sleep 30\" & \
             while [ ! -e $noted ]; do :; done; fi",
            pids.display()
        ),
    )
}

/// Asserts that `runs` daemons noted their pids in `pids` and that all of them are gone
/// (the sweep or the cgroup ended them with their runs), then empties `pids`.
fn assert_the_daemons_are_gone(pids: &Path, runs: usize, what: &str) {
    let daemons: Vec<u32> = std::fs::read_dir(pids)
        .expect("the daemons noted their pids")
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path()).ok()?.trim().parse().ok())
        .collect();
    assert_eq!(daemons.len(), runs, "{what}: {daemons:?}");
    let gone = (0..200).any(|_| {
        std::thread::sleep(Duration::from_millis(10));
        daemons.iter().all(|&pid| !alive(pid))
    });
    assert!(gone, "{what}: a run's daemon survived its run");
    std::fs::remove_dir_all(pids).expect("the daemons noted their pids");
    std::fs::create_dir_all(pids).expect("the scratch folder is writable");
}

#[test]
fn an_embedding_program_keeps_its_own_children_and_loses_the_runs_daemons() {
    // This test process embeds the judge: it has children of its own, one in its session
    // and one in a session of its own, as a program that starts services would.
    let mut own = std::process::Command::new("sleep").arg("30").spawn().expect("sleep starts");
    let mut detached =
        std::process::Command::new("setsid").args(["sleep", "30"]).spawn().expect("setsid starts");
    let pids = scratch().join("daemons");
    let daemon = daemon_leaver("daemon", &pids);
    for cgroup in [true, false] {
        let options = StressOptions {
            runs: Some(20),
            run: ChildOptions { cgroup, ..ChildOptions::new(Duration::from_secs(5), None) },
            ..options(1, 2)
        };
        // A sandbox of its own, as a library user makes one.
        let sandbox = judge::Sandbox::new();
        let report = stress(&sandbox, &Sum, &daemon, &options, None).expect("the program runs");
        assert!(report.failure.is_none() && report.runs == 20, "cgroup {cgroup}: {report:?}");
        assert_the_daemons_are_gone(&pids, 20, &format!("cgroup {cgroup}"));
        for child in [&mut own, &mut detached] {
            assert!(child.try_wait().expect("our child").is_none(), "cgroup {cgroup}: lost one");
        }
    }
    for child in [&mut own, &mut detached] {
        child.kill().expect("our child is ours to kill");
        child.wait().expect("our child is ours to reap");
    }
}

#[test]
fn a_program_that_forks_and_dies_leaves_no_zombie_when_the_sandbox_reaps_orphans() {
    // The program leaves workers behind, a plain one and one in a session of its own, and
    // exits: the workers are orphans, ended with the run. Killed, they are zombies until
    // their parent reaps them, and init (the first process of a container) may never do; a
    // sandbox that reaps orphans, as the command line's do, adopted and reaped them already.
    let sandbox = judge::Sandbox::new();
    sandbox.reap_orphans();
    let script = "sleep 30 & echo $!; setsid sleep 30 & echo $!";
    let program = Program::new(&["/bin/sh", "-c", script]);
    for cgroup in [true, false] {
        let options = ChildOptions { cgroup, ..ChildOptions::new(Duration::from_secs(2), None) };
        let report = sandbox.run(&program, b"", &options).expect("it runs");
        let workers: Vec<u32> = String::from_utf8_lossy(&report.stdout)
            .lines()
            .map(|line| line.parse().expect("a process id"))
            .collect();
        assert_eq!(workers.len(), 2, "cgroup {cgroup}: {report:?}");
        for pid in workers {
            let left = state_and_parent(pid);
            assert!(left.is_none_or(|(state, _)| state != 'Z'), "cgroup {cgroup}: {left:?}");
        }
    }
}

/// The state letter of process `pid` (`R`, `S`, `Z`, ...) and its parent, from
/// `/proc/PID/stat`.
fn state_and_parent(pid: u32) -> Option<(char, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace();
    let state = fields.next()?.chars().next()?;
    Some((state, fields.next()?.parse().ok()?))
}

#[test]
fn an_embedders_children_under_a_cpu_limit_outlive_the_sweeps_of_runs_without_a_cgroup() {
    // A judging service starts workers of its own under a hard CPU limit, as the judge starts
    // its runs: one in our session, one in a session of its own, and one that has exited and
    // waits, a zombie with no environment, for us to reap it. Without a cgroup, the sweep at
    // the end of each run must tell them from a run's orphans.
    let limited = |script: &str| {
        std::process::Command::new("sh")
            .args(["-c", &format!("ulimit -t 100 && {script}")])
            .spawn()
            .expect("sh starts")
    };
    let mut own = limited("exec sleep 30");
    let mut detached = limited("exec setsid sleep 30");
    let mut exited = limited("exit 7");
    let me = std::process::id();
    let zombie = (0..500).any(|_| {
        std::thread::sleep(Duration::from_millis(10));
        state_and_parent(exited.id()) == Some(('Z', me))
    });
    assert!(zombie, "the worker that exits is a zombie of ours");
    let cpu_limit = (0..500).find_map(|_| {
        std::thread::sleep(Duration::from_millis(10));
        let limits = std::fs::read_to_string(format!("/proc/{}/limits", own.id())).ok()?;
        let line = limits.lines().find_map(|l| l.strip_prefix("Max cpu time"))?;
        (line.split_whitespace().nth(1)? == "100").then_some(())
    });
    assert!(cpu_limit.is_some(), "the worker runs under a hard CPU limit of 100 s");

    let pids = scratch().join("daemons-of-limited-runs");
    let daemon = daemon_leaver("daemon-of-limited-runs", &pids);
    let options = StressOptions {
        runs: Some(10),
        run: ChildOptions { cgroup: false, ..ChildOptions::new(Duration::from_secs(5), None) },
        ..options(1, 2)
    };
    let sandbox = judge::Sandbox::new();
    let report = stress(&sandbox, &Sum, &daemon, &options, None).expect("the program runs");
    assert!(report.failure.is_none() && report.runs == 10, "{report:?}");
    assert_the_daemons_are_gone(&pids, 10, "without a cgroup");
    for child in [&mut own, &mut detached] {
        assert!(child.try_wait().expect("our child").is_none(), "a live worker was ended");
    }
    assert_eq!(state_and_parent(exited.id()), Some(('Z', me)), "the zombie was reaped");
    assert_eq!(exited.wait().expect("our zombie is ours to reap").code(), Some(7));
    for child in [&mut own, &mut detached] {
        child.kill().expect("our child is ours to kill");
        child.wait().expect("our child is ours to reap");
    }
}
