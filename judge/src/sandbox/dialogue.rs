//! A run whose stdin is a dialogue ([`Sandbox::interact`](super::Sandbox::interact)): the
//! program reads what the other side writes to a pipe, and each line it writes is handed to
//! that side, which answers with more lines, or closes the program's input, or stops the
//! run. The other side is any [`Dialogue`]; the sandbox knows nothing of what is said.
//!
//! **Threads.** The program's lines are read on the stdout reader's thread and handed, in
//! order, to the thread that runs the program (the one that called `interact`), which asks
//! the dialogue and queues its answer; a writer thread of its own writes the answers to the
//! pipe. So the dialogue need not be `Send`, and nothing deadlocks: a program that never
//! reads blocks only the writer, one that never writes leaves the dialogue waiting; either
//! is ended by the run's limits, as every run is.
//!
//! **Time.** The program's CPU time is limited over the whole dialogue: while the other
//! side thinks, a program that waits for its answer uses none. The wall-clock backstop is
//! pushed back by the time the dialogue takes to answer, and the report's wall time leaves
//! that time out, so a slow other side never fails the program. It is pushed back too by
//! the time the threads that carry the lines (the writer, the stdout reader, the one that
//! asks the dialogue) waited for a core, as by the program's own waits (module `child`): on
//! a busy machine each of thousands of round trips waits for a core several times, which is
//! the machine's doing, not the program's.

use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// The other side of a dialogue with a program ([`Sandbox::interact`](super::Sandbox::interact)):
/// it writes first, then answers each line the program writes.
pub(crate) trait Dialogue {
    /// What the program reads first, before it writes anything.
    fn open(&mut self) -> Next;

    /// The program wrote `line` (its `\n` removed). A last line without one is handed over
    /// only when the program closed its output and ran on, or exited by itself with code 0:
    /// bytes cut short by a kill or a crash are not a line.
    fn line(&mut self, line: &[u8]) -> Next;

    /// The program's output ended after its last line: it closed its stdout and runs on
    /// (then a [`Next::Stop`] ends it at once), or it exited or was killed.
    fn closed(&mut self) -> Next;
}

/// What the other side of a [`Dialogue`] does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Next {
    /// Write these bytes to the program, and wait for its next line.
    Send(Vec<u8>),
    /// Write these bytes, then close the program's input: it has all it will read, and is
    /// to end by itself, as a batch run ends (the run's limits end it otherwise). Lines it
    /// writes later are still handed to the dialogue, which may only stop the run then.
    Close(Vec<u8>),
    /// The dialogue is over with a verdict of its own: the program is ended at once
    /// ([`Exit::Stopped`](super::Exit::Stopped)) and no later line is handed over.
    Stop,
}

/// The run's side of a dialogue: the dialogue, the queue to the writer thread, and the time
/// the dialogue took to answer.
pub(super) struct Talk<'a> {
    dialogue: &'a mut dyn Dialogue,
    /// The writer thread's queue; `None` once the program's input is closed.
    writer: Option<mpsc::Sender<Vec<u8>>>,
    /// Whether the dialogue stopped the run: later lines are not handed over.
    stopped: bool,
    /// Whether the dialogue waits for the program's next line (it answered the last and
    /// keeps the input open).
    waiting: bool,
    /// The writer thread's kernel id once it runs (0 before): its waits for a core are the
    /// dialogue's, not the program's.
    pub(super) writer_id: Arc<AtomicI64>,
    /// The time the dialogue took to answer, all told.
    pub(super) thinking: Duration,
}

impl<'a> Talk<'a> {
    /// Starts the writer thread on `pipe` (the write end of the program's stdin) and queues
    /// the dialogue's opening. Whether the dialogue stopped the run before it started.
    pub(super) fn open(dialogue: &'a mut dyn Dialogue, pipe: File) -> (Self, bool) {
        let (tx, rx) = mpsc::channel();
        let writer_id = Arc::new(AtomicI64::new(0));
        let id = Arc::clone(&writer_id);
        std::thread::spawn(move || {
            id.store(super::sys::thread_id(), Ordering::Relaxed);
            write_all(pipe, &rx);
        });
        let mut talk = Self {
            dialogue,
            writer: Some(tx),
            stopped: false,
            waiting: false,
            writer_id,
            thinking: Duration::ZERO,
        };
        let next = talk.dialogue.open();
        let stop = talk.apply(next);
        (talk, stop)
    }

    /// Hands the program's `line` to the dialogue and queues its answer; the time it took,
    /// and whether it stops the run.
    pub(super) fn line(&mut self, line: &[u8]) -> (Duration, bool) {
        if self.stopped {
            return (Duration::ZERO, false);
        }
        self.waiting = false;
        let started = Instant::now();
        let next = self.dialogue.line(line);
        let took = started.elapsed();
        self.thinking += took;
        (took, self.apply(next))
    }

    /// Tells the dialogue that the program's output ended; whether it stops the run.
    pub(super) fn closed(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        let next = self.dialogue.closed();
        // No line can follow: what the dialogue sends now is the last the program reads.
        let next = match next {
            Next::Send(bytes) => Next::Close(bytes),
            next => next,
        };
        self.apply(next)
    }

    /// Whether the dialogue waits for the program's next line.
    pub(super) fn waiting(&self) -> bool {
        self.waiting
    }

    /// Queues what `next` sends, closes the input when it says so; whether it stops the run.
    fn apply(&mut self, next: Next) -> bool {
        self.waiting = matches!(next, Next::Send(_)) && self.writer.is_some();
        let (bytes, close) = match next {
            Next::Send(bytes) => (bytes, false),
            Next::Close(bytes) => (bytes, true),
            Next::Stop => {
                self.stopped = true;
                self.writer = None;
                return true;
            }
        };
        match &self.writer {
            // A program that exited or closed its stdin reads nothing more: the writer has
            // ended, and what it was sent goes nowhere.
            Some(writer) if !bytes.is_empty() => drop(writer.send(bytes)),
            Some(_) => {}
            None => assert!(bytes.is_empty(), "a dialogue sends nothing after the input closed"),
        }
        if close {
            self.writer = None;
        }
        false
    }
}

/// The writer thread: writes what it is sent to the program's stdin, in order, until the
/// queue closes (the input is closed) or a write fails (the program is gone or closed its
/// stdin); the pipe closes when it returns.
fn write_all(mut pipe: File, rx: &mpsc::Receiver<Vec<u8>>) {
    for bytes in rx {
        if pipe.write_all(&bytes).is_err() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;
    use std::time::{Duration, Instant};

    use super::{Dialogue, Next};
    use crate::sandbox::{ChildOptions, ChildReport, Exit, Program, Sandbox};

    fn sandbox() -> &'static Sandbox {
        static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
        SANDBOX.get_or_init(Sandbox::new)
    }

    fn sh(script: &str) -> Program {
        Program::new(&["/bin/sh", "-c", script])
    }

    /// Sends 10, 20, ... one a line, `rounds` in all, closing the input with the last; records
    /// every line heard and how often the output's end was heard. Options: think `pause`
    /// before each answer, open with `padding` more bytes, stop on hearing `stop_on`.
    #[derive(Default)]
    struct Counter {
        rounds: u32,
        sent: u32,
        heard: Vec<String>,
        closed: u32,
        pause: Duration,
        padding: usize,
        stop_on: Option<&'static str>,
        stop_on_close: bool,
    }

    impl Counter {
        fn new(rounds: u32) -> Self {
            Self { rounds, ..Self::default() }
        }

        fn next(&mut self) -> Next {
            self.sent += 1;
            let bytes = format!("{}\n", self.sent * 10).into_bytes();
            if self.sent < self.rounds { Next::Send(bytes) } else { Next::Close(bytes) }
        }
    }

    impl Dialogue for Counter {
        fn open(&mut self) -> Next {
            match self.next() {
                Next::Send(bytes) => Next::Send([vec![b' '; self.padding], bytes].concat()),
                next => next,
            }
        }

        fn line(&mut self, line: &[u8]) -> Next {
            std::thread::sleep(self.pause);
            let line = String::from_utf8_lossy(line).into_owned();
            let stop = self.stop_on.is_some_and(|s| s == line);
            self.heard.push(line);
            if stop {
                Next::Stop
            } else if self.sent < self.rounds {
                self.next()
            } else {
                Next::Send(Vec::new())
            }
        }

        fn closed(&mut self) -> Next {
            self.closed += 1;
            if self.stop_on_close { Next::Stop } else { Next::Close(Vec::new()) }
        }
    }

    /// Reads numbers and writes each plus one.
    const ADDER: &str = "while read n; do echo $((n+1)); done";

    fn talk(program: &str, options: &ChildOptions, counter: &mut Counter) -> ChildReport {
        sandbox().interact(&sh(program), options, counter).expect("the program runs")
    }

    #[test]
    fn each_line_is_answered_in_turn_and_the_last_needs_no_newline() {
        let mut counter = Counter::new(4);
        let report = talk(ADDER, &ChildOptions::default(), &mut counter);
        assert_eq!(report.exit, Exit::Code(0), "{report:?}");
        assert_eq!(counter.heard, ["11", "21", "31", "41"]);
        assert_eq!((counter.closed, report.stdout.as_slice()), (1, &b"11\n21\n31\n41\n"[..]));
        let mut counter = Counter::new(2);
        let script = "read n; echo $((n+1)); read n; printf x";
        let report = talk(script, &ChildOptions::default(), &mut counter);
        assert_eq!((report.exit, counter.closed), (Exit::Code(0), 1), "{report:?}");
        assert_eq!(counter.heard, ["11", "x"]);
    }

    #[test]
    fn the_other_sides_thinking_costs_the_program_no_time() {
        // Four answers of 400 ms each: 1.6 s, past the 1.4 s backstop of a 200 ms limit.
        let options = ChildOptions::new(Duration::from_millis(200), None);
        let mut counter = Counter { pause: Duration::from_millis(400), ..Counter::new(4) };
        let report = talk(ADDER, &options, &mut counter);
        assert_eq!((report.exit, counter.heard.len()), (Exit::Code(0), 4), "{report:?}");
        assert!(report.wall < options.wall_limit, "{:?}", report.wall);
    }

    #[test]
    fn a_program_that_never_reads_or_never_writes_meets_the_limits_and_a_stop_ends_it() {
        let options = ChildOptions::new(Duration::from_millis(100), None);
        // A megabyte first, far more than a pipe holds: the writer blocks on a program that
        // does not read; one that reads waits for a line that never comes. Both sides wait:
        // the backstop's kill is called idleness.
        let cases = [
            ("sleep 30", Exit::Idle),
            ("cat > /dev/null", Exit::Idle),
            ("while :; do :; done", Exit::TimeLimit),
        ];
        for (script, exit) in cases {
            let mut counter = Counter { padding: 1 << 20, ..Counter::new(3) };
            let started = Instant::now();
            let report = talk(script, &options, &mut counter);
            assert_eq!(report.exit, exit, "{script}: {report:?}");
            assert!(started.elapsed() < Duration::from_secs(10), "{script}");
        }
        let mut counter = Counter { stop_on: Some("11"), ..Counter::new(3) };
        let started = Instant::now();
        let report =
            talk("read n; echo $((n+1)); sleep 30", &ChildOptions::default(), &mut counter);
        assert_eq!((report.exit, counter.heard.len()), (Exit::Stopped, 1), "{report:?}");
        assert!(started.elapsed() < Duration::from_secs(4), "{:?}", started.elapsed());
    }

    #[test]
    fn a_line_cut_short_by_a_kill_or_a_crash_is_no_line() {
        let options = ChildOptions::new(Duration::from_millis(200), None);
        let cases = [
            ("read n; printf 1; while :; do :; done", Exit::TimeLimit),
            ("read n; printf 1; kill -SEGV $$", Exit::Signal(libc::SIGSEGV)),
            ("read n; printf 1; exit 3", Exit::Code(3)),
        ];
        for (script, exit) in cases {
            let mut counter = Counter::new(3);
            let report = talk(script, &options, &mut counter);
            assert_eq!(report.exit, exit, "{script}: {report:?}");
            assert!(counter.heard.is_empty(), "{script}: {:?}", counter.heard);
            assert_eq!((counter.closed, report.stdout.as_slice()), (1, &b"1"[..]), "{script}");
        }
    }

    #[test]
    fn a_program_that_closes_its_output_and_runs_on_has_ended_it() {
        // Its last bytes are its last line; the other side hears the end while it runs, and
        // a stop ends it long before its limits would.
        for (script, heard) in [
            ("read n; exec 1>&-; sleep 30", &[][..]),
            ("printf 1; exec 1>&-; sleep 30", &["1"][..]),
        ] {
            let mut counter = Counter { stop_on_close: true, ..Counter::new(3) };
            let started = Instant::now();
            let report = talk(script, &ChildOptions::default(), &mut counter);
            assert_eq!((report.exit, counter.closed), (Exit::Stopped, 1), "{script}: {report:?}");
            assert_eq!(counter.heard, heard, "{script}");
            assert!(started.elapsed() < Duration::from_secs(4), "{:?}", started.elapsed());
        }
    }
}
