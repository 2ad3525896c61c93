//! The judge's format, read in one place: [`InputFormat`] reads `T`, then one case of twelve
//! numbers a line, with errors that name line and column, under the limits it is given.

use std::ops::RangeInclusive;

use engine::driver::Format;
use engine::input::Limits;
use engine::input::{Input, InputError};

use crate::rules::{Case, FIELDS, MAX_VALUE, ORIGINAL_MAX_CASES};

/// Largest case count accepted; more cases than this cannot fit in memory anyway.
pub const MAX_CASES: usize = 1 << 32;

/// The judge's input format: `T`, then `T` lines of twelve numbers in `1..=99`, with `T`
/// in the range `limits` allow. The one parser of the input: the solver reads with
/// [`InputFormat::SOLVER`], the judge ([`Judge`](crate::judge::Judge)) under the limits it is
/// asked for, so the validator's messages are the solver's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputFormat {
    /// Which case counts `T` are accepted.
    pub limits: Limits,
}

impl InputFormat {
    /// What the solver reads: any `T` up to [`MAX_CASES`] (the extended limits).
    pub const SOLVER: Self = Self { limits: Limits::Extended };

    /// The case counts `T` the limits allow: `1..=40` under the original limits,
    /// `0..=MAX_CASES` under the extended ones.
    #[must_use]
    pub fn case_counts(&self) -> RangeInclusive<usize> {
        match self.limits {
            Limits::Original => 1..=ORIGINAL_MAX_CASES,
            Limits::Extended => 0..=MAX_CASES,
        }
    }
}

impl Format for InputFormat {
    type Header = ();
    type Case = Case;

    fn parse_header(&self, input: &mut Input<'_>) -> Result<((), usize), InputError> {
        Ok(((), input.uint("the number of cases T", self.case_counts())?))
    }

    /// The judge's files hold one case a line.
    fn lines_per_case(&self, _: &()) -> Option<usize> {
        Some(1)
    }

    fn parse_case(&self, _: &(), _index: usize, input: &mut Input<'_>) -> Result<Case, InputError> {
        let mut v = [0u8; 12];
        for (value, what) in v.iter_mut().zip(FIELDS) {
            *value = input.uint(what, 1..=MAX_VALUE)?;
        }
        Ok(Case::from_array(v))
    }
}
