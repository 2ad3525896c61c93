//! The judge end to end on the toy problem (sum of two numbers per case), in one test binary:
//! the stress loop and the shrinker against small shell programs of every kind of failure
//! (`stress`), and the command-line runners with their reports as snapshots (`cli`).

#![cfg(all(unix, feature = "cli", feature = "testing"))]

mod cli;
mod stress;
