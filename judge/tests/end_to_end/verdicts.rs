//! Interactive verdicts as a contest judge gives them, on a busy machine: the subtraction
//! game ([`judge::testing::subtraction`]) against shell players that write a move in pieces,
//! close their output, crash or are killed mid-line, or never flush; each judged while
//! three busy loops compete for the cores.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use judge::testing::subtraction::Subtraction;
use judge::testing::toy::Sum;
use judge::{ChildOptions, Juries, Player, Problem, Program, Sandbox, VerdictKind, trial};

/// One game: 5 stones, take 1 or 2; the program moves first and must take 2, then 3 minus
/// the jury's move.
const FIVE: &[u8] = b"1\n5 2\n";

/// Reads the game's opening (the count, the pile, the side).
const OPENING: &str = "read n; read pile; read side;";

/// Three threads that spin until dropped: the machine busy with other work.
struct Busy(Arc<AtomicBool>, Vec<std::thread::JoinHandle<()>>);

impl Busy {
    fn start() -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let spin = |stop: Arc<AtomicBool>| {
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
            })
        };
        let threads = (0..3).map(|_| spin(Arc::clone(&stop))).collect();
        Self(stop, threads)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        for thread in self.1.drain(..) {
            let _ = thread.join();
        }
    }
}

/// The verdict's kind and message for the shell `script` on [`FIVE`], 0.5 s of CPU time.
fn judged(script: &str) -> (VerdictKind, String, Duration) {
    let problem = Sum;
    let input = problem.parse(FIVE, judge::Limits::Extended).expect("the input is valid");
    let juries = Juries::new(&problem, Subtraction::new);
    let program = Program::new(&["/bin/sh", "-c", script]);
    let player = Player::new(program, juries, 1);
    let options = ChildOptions::new(Duration::from_millis(500), None);
    let started = Instant::now();
    let trial = trial(&Sandbox::new(), &problem, &player, &input, &options).expect("it runs");
    (trial.verdict.kind, trial.verdict.message, started.elapsed())
}

#[test]
fn whoever_ends_first_decides_exactly_on_a_busy_machine() {
    let _busy = Busy::start();
    // A right player that writes each move in two pieces, flushed apart.
    let pieces = format!(
        "{OPENING} printf 2; sleep 0.2; echo; read j; printf $((3 - j)); sleep 0.2; echo; read r"
    );
    let (kind, message, _) = judged(&pieces);
    assert_eq!(kind, VerdictKind::Ok, "{message}");
    // Its last move without a newline, then an exit with code 0: a move.
    let (kind, message, _) = judged(&format!("{OPENING} echo 2; read j; printf $((3 - j))"));
    assert_eq!(kind, VerdictKind::Ok, "{message}");

    // Half a move, then a crash, a kill at the CPU limit or a non-zero exit: that verdict.
    let cases = [
        ("printf 2; kill -SEGV $$", VerdictKind::RuntimeError),
        ("printf 2; exit 4", VerdictKind::RuntimeError),
        ("printf 2; while :; do :; done", VerdictKind::TimeLimit),
    ];
    for (end, expected) in cases {
        let (kind, message, _) = judged(&format!("{OPENING} {end}"));
        assert_eq!(kind, expected, "{end}: {message}");
        assert!(!message.contains("malformed"), "{end}: {message}");
    }

    // Output closed while the jury waits: a protocol error at once, however it goes on.
    for end in ["exec 1>&-; sleep 20", "exec 1>&-; sleep 0.5; exit 4"] {
        let (kind, message, took) = judged(&format!("{OPENING} {end}"));
        assert_eq!(kind, VerdictKind::PresentationError, "{end}: {message}");
        assert!(message.starts_with("protocol error"), "{end}: {message}");
        assert!(took < Duration::from_secs(10), "{end}: {took:?}");
    }

    // A move never flushed (here: never written) while the jury waits: both sides wait, and
    // the verdict says so.
    let (kind, message, _) = judged(&format!("{OPENING} sleep 20"));
    assert_eq!(kind, VerdictKind::TimeLimit, "{message}");
    assert!(message.contains("idle: both sides were waiting"), "{message}");
}

#[test]
fn a_helper_process_that_waits_for_a_core_does_not_bring_the_backstop_closer() {
    // The program's leader waits, asleep, for a helper process that works 0.1 s of CPU at a low
    // priority (nice 10, its session's scheduling group's too where the kernel groups
    // sessions) beside three busy loops: the helper waits for a core many times as long as
    // it works, past the 1.6 s backstop of a 0.3 s limit. Its waits are the machine's doing,
    // not the program's, with a cgroup or without.
    let _busy = Busy::start();
    let helper = "import time\nwhile time.process_time() < 0.1: pass";
    let script = format!(
        "echo 10 2>/dev/null >/proc/self/autogroup; nice -n 10 python3 -c '{helper}' && echo done"
    );
    let program = Program::new(&["/bin/sh", "-c", &script]);
    for cgroup in [true, false] {
        let options =
            ChildOptions { cgroup, ..ChildOptions::new(Duration::from_millis(300), None) };
        let report = Sandbox::new().run(&program, b"", &options).expect("it runs");
        assert_eq!(report.exit, judge::Exit::Code(0), "cgroup {cgroup}: {report:?}");
        assert_eq!(report.stdout, b"done\n", "cgroup {cgroup}");
        eprintln!("cgroup {cgroup}: wall {:?}, CPU {:?}", report.wall, report.cpu);
    }
}
