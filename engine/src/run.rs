//! What every problem's library entry point returns: `run(input, &Options)` gives the bytes
//! for stdout and the lines for stderr, or one typed error that knows its exit code.

use crate::fs::WriteError;
use crate::input::InputError;

/// What a run prints: the judge's output, and the `--stats` lines meant for stderr.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// The judge's output, byte for byte.
    pub stdout: Vec<u8>,
    /// Diagnostics (`--stats`); empty unless asked for.
    pub stderr: String,
}

/// Why a run printed nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// The input is malformed; the message names the line, the column and what was expected.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The input is well formed, but the solver asked for cannot take it (e.g. a reference
    /// solver with a size limit).
    #[error("{0}")]
    Unsupported(String),
    /// A file the run reads besides its input (such as a precomputed table) cannot be used:
    /// unreadable, damaged, or for other parameters.
    #[error("cannot use {name}: {reason}")]
    File {
        /// The file, as the user knows it (e.g. `the tablebase o5.tb`).
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A file the run writes (such as a table it saves for later runs) could not be written:
    /// `cannot write FILE: REASON`.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The thread pool could not be built.
    #[error("cannot start {threads} worker threads: {reason}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// What the pool builder said.
        reason: String,
    },
    /// A solver's answer failed its independent check: a bug in the solver, never the input's
    /// fault.
    #[error("self-check failed: {0}")]
    SelfCheck(String),
}

/// Exit code for malformed input, bad arguments and unreadable files.
pub const EXIT_BAD_INPUT: i32 = 2;

/// Exit code for a failed self-check: the solver, not the input, is wrong.
pub const EXIT_BUG: i32 = 1;

impl RunError {
    /// The exit code a binary gives for this error: [`EXIT_BUG`] for a failed self-check,
    /// [`EXIT_BAD_INPUT`] for everything the user can fix.
    #[must_use]
    pub fn exit_code(&self) -> i32 {
        match self {
            Self::SelfCheck(_) => EXIT_BUG,
            Self::Input(_)
            | Self::Unsupported(_)
            | Self::File { .. }
            | Self::Write(_)
            | Self::Threads { .. } => EXIT_BAD_INPUT,
        }
    }
}
