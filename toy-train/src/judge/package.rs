//! toy-train's problem package (`toy-train package`): what a Kattis package says of the
//! problem beyond its judge. The title and origin, the statement and the official sample
//! from the crate's `problem/` folder; the input validator (`judge/validator.cpp`, as strict
//! as `validate`, and with `subtask K` the subtask's constraint too); CMS's white-diff as a
//! custom output validator (`judge/whitediff.cpp`), since Kattis's default one compares
//! tokens and not lines; and IOI 2017's six subtasks as scoring groups.
//!
//! **Groups.** IOI 2017 gave the subtasks 5, 10, 11, 11, 18 and 45 points, a subtask's points
//! for passing every test in it. Kattis's groups each hold their own tests, where IOI's
//! subtasks overlap (a railway of 10 stations with one charger is in subtasks 2, 5 and 6),
//! so a test goes into the first subtask whose constraints it meets
//! ([`Packaged::groups_of`]); group 6 then holds the tests in no other subtask. A program
//! wrong only on small railways keeps group 6's 45 points here, where IOI would give it 0
//! for subtask 6. Each group also gets railways of its own subtask's shape
//! ([`Packaged::group_inputs`]).

use engine::rng::SplitMix64;
use judge::Limits;
use judge::package::{About, Group, OutputValidator, Packaged, Sample, Scoring};

use super::{Judge, subtasks, validate};
use crate::generator::{Family, GenParams, generate};
use crate::railway::Railway;

/// IOI 2017's official example, in the sample grader's format.
const SAMPLES: &[Sample] = &[Sample {
    name: "sample1",
    input: include_bytes!("../../problem/sample1.in"),
    answer: include_bytes!("../../problem/sample1.out"),
}];

/// The six subtasks as groups: points, the validator's flags and the constraint.
const GROUPS: &[Group] = &[
    Group { points: 5, validator_flags: "subtask 1", about: "every track is u -> u or u -> u + 1" },
    Group { points: 10, validator_flags: "subtask 2", about: "n <= 15" },
    Group { points: 11, validator_flags: "subtask 3", about: "Arezou owns every station" },
    Group { points: 11, validator_flags: "subtask 4", about: "Borzou owns every station" },
    Group { points: 18, validator_flags: "subtask 5", about: "exactly one charging station" },
    Group { points: 45, validator_flags: "subtask 6", about: "no further constraints" },
];

/// The family that builds railways of each subtask's shape, and the sizes each group gets:
/// one small, one at the original limit (a subtask 2 railway has at most 15 stations).
const SHAPES: [(Family, [usize; 2]); 6] = [
    (Family::Line, [40, 5_000]),
    (Family::Small, [9, 15]),
    (Family::Arezou, [40, 5_000]),
    (Family::Borzou, [40, 5_000]),
    (Family::OneCharger, [40, 5_000]),
    (Family::Staircase, [40, 5_000]),
];

impl Packaged for Judge {
    fn about(&self) -> About {
        About {
            title: "Toy Train",
            source: "IOI 2017 (International Olympiad in Informatics, Tehran), day 1",
            source_url: None,
            statement_path: "toy-train/problem/statement.md",
            statement: include_str!("../../problem/statement.md"),
            samples: SAMPLES,
        }
    }

    /// The canonical format under the original limits, and with `subtask K` subtask K's
    /// constraint (module notes of the validator).
    fn input_validator(&self) -> &'static str {
        include_str!("validator.cpp")
    }

    /// CMS's white-diff (module notes of the validator).
    fn output_validator(&self) -> OutputValidator {
        OutputValidator::Custom {
            name: "whitediff",
            source: include_str!("whitediff.cpp"),
            unlike_check: "output_validators/whitediff is CMS's white-diff, IOI 2017's rule and \
                           `toy-train check`'s: they accept the same outputs. Kattis's default \
                           validator would not do, as it compares tokens across lines, where \
                           white-diff wants every answer on line 1.",
        }
    }

    fn scoring(&self) -> Option<Scoring> {
        Some(Scoring {
            groups: GROUPS,
            note: "Groups: IOI 2017's six subtasks, with their points (5, 10, 11, 11, 18, 45), \
                   each all or nothing. IOI's subtasks overlap, Kattis's groups do not: a test \
                   is in the first subtask whose constraints it meets, so group 6 holds only \
                   the tests in no other subtask.",
        })
    }

    /// The subtasks `input` is in, as group indices (subtask `k` is group `k - 1`).
    fn groups_of(&self, input: &Railway) -> Vec<usize> {
        subtasks(input)
            .map_or_else(|_| Vec::new(), |ks| ks.iter().map(|&k| usize::from(k) - 1).collect())
    }

    /// Two railways of the group's own shape (a line, a small railway, one owner, one
    /// charger, a staircase for group 6), small and at the limit; a draw the original limits
    /// refuse is left out.
    fn group_inputs(&self, group: usize, rng: &mut SplitMix64) -> Vec<Railway> {
        let (family, sizes) = SHAPES[group];
        sizes
            .iter()
            .filter_map(|&n| generate(&GenParams::new(family, n, rng.next_u64())).ok())
            .filter(|railway| validate(railway, Limits::Original).is_ok())
            .collect()
    }
}
