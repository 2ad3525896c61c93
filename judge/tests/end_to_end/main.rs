//! The judge end to end on the toy problem (sum of two numbers per case), in one test binary:
//! the stress loop and the shrinker against small shell programs of every kind of failure
//! (`stress`), the command-line runners with their reports as snapshots (`cli`), and a
//! package of the toy problem (`package`).

#![cfg(all(unix, feature = "cli", feature = "testing"))]

mod cli;
mod package;
mod stress;
