//! The judge end to end on the toy problem (sum of two numbers per case), in one test binary:
//! the stress loop and the shrinker against small shell programs of every kind of failure
//! (`stress`), the command-line runners with their reports as snapshots (`cli`), a
//! package of the toy problem (`package`), a game in one file on it (`subtraction`), and
//! interactive verdicts on a busy machine (`verdicts`).

#![cfg(all(unix, feature = "cli", feature = "testing"))]

mod cli;
mod package;
mod stress;
mod subtraction;
mod verdicts;
