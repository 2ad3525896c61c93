//! toy-train's problem package (`toy-train package`): what a Kattis package says of the
//! problem beyond its judge. The title and origin, the statement and the official sample
//! from the crate's `problem/` folder; the input validator (`judge/validator.cpp`, as strict
//! as `validate`, and with `subtask K` the subtask's constraint too); CMS's white-diff as a
//! custom output validator (`judge/whitediff.cpp`), since Kattis's default one compares
//! tokens and not lines; IOI 2017's six subtasks as scoring groups; and IOI's function
//! interface (`train.h` and our `grader.cpp`, in `problem/`).
//!
//! **Groups.** IOI 2017 gave the subtasks 5, 10, 11, 11, 12 and 51 points, a subtask's
//! points for passing every test in it, and a test was in every subtask whose constraints
//! it met (a railway of 10 stations with one charger is in subtasks 2, 5 and 6, and subtask
//! 6 holds every test). So here: a test is in every group whose constraints it meets
//! ([`Packaged::groups_of`]), its files in the first and a link in the others, and a
//! program wrong on one small railway scores nothing for subtask 6, as at IOI. Each group
//! also gets railways of its own subtask's shape ([`Packaged::group_input`]), which `stress
//! --subtask K` and `generate --subtask K` draw too: a railway of the level's size made to
//! meet the constraint (a line, all Arezou's, all Borzou's, one charger), and for subtask 2
//! a railway of at most 15 stations.

use engine::rng::SplitMix64;
use judge::package::{About, Group, Interface, OutputValidator, Packaged, Sample, Scoring};
use judge::{Limits, Problem};

use super::{Judge, generate, subtasks};
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
    Group { points: 12, validator_flags: "subtask 5", about: "exactly one charging station" },
    Group { points: 51, validator_flags: "subtask 6", about: "no further constraints" },
];

/// The level whose railways have at most 15 stations (subtask 2's bound).
const SMALL_LEVEL: u32 = 3;

/// IOI's function interface: the header and our grader.
const INTERFACE: Interface = Interface {
    function: "std::vector<int> who_wins(std::vector<int> a, std::vector<int> r, \
               std::vector<int> u, std::vector<int> v)",
    submission: "train.cpp",
    header: ("train.h", include_str!("../../problem/train.h")),
    grader: ("grader.cpp", include_str!("../../problem/grader.cpp")),
};

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
            note: "Groups: IOI 2017's six subtasks, with their points (5, 10, 11, 11, 12, 51), \
                   each all or nothing. As at IOI, a test is in every subtask whose \
                   constraints it meets: its files are in the first such group's folder and \
                   the others link to them, so group 6 holds every test and a failure costs \
                   every group that holds its test.",
        })
    }

    /// The subtasks `input` is in, as group indices (subtask `k` is group `k - 1`).
    fn groups_of(&self, input: &Railway) -> Vec<usize> {
        subtasks(input)
            .map_or_else(|_| Vec::new(), |ks| ks.iter().map(|&k| usize::from(k) - 1).collect())
    }

    /// A railway drawn at `level` (at most level 3, 15 stations, for subtask 2; the last level at
    /// the limit, 5,000 stations, where the others mix the sizes), made to meet the group's
    /// constraint: every track turned into a line's (`u -> u` or `u -> u + 1`), every
    /// station given to one player, or one charger kept. `O(n + m)`.
    fn group_input(&self, group: usize, level: u32, rng: &mut SplitMix64) -> Railway {
        let mut railway = match group {
            1 => self.generate(rng, level.min(SMALL_LEVEL), Limits::Original),
            _ if level + 1 >= Self::LEVELS => generate::at_the_limit(rng),
            _ => self.generate(rng, level, Limits::Original),
        };
        let n = railway.n();
        match group {
            0 => railway.tracks = line_tracks(n, rng),
            2 => railway.arezou = vec![true; n],
            3 => railway.arezou = vec![false; n],
            4 => {
                let one = rng.below(n);
                railway.charging = (0..n).map(|s| s == one).collect();
            }
            _ => {}
        }
        debug_assert!(self.groups_of(&railway).contains(&group), "{railway:?}");
        railway
    }

    fn interface(&self) -> Option<Interface> {
        Some(INTERFACE)
    }
}

/// Subtask 1's tracks on `n` stations: each station leads to itself, to the next or both
/// (the last to itself), so every station has a track and none repeats.
fn line_tracks(n: usize, rng: &mut SplitMix64) -> Vec<(u32, u32)> {
    let mut tracks = Vec::with_capacity(2 * n);
    for u in 0..n as u32 {
        let kind = if u as usize + 1 == n { 0 } else { rng.below(3) };
        if kind != 1 {
            tracks.push((u, u));
        }
        if kind != 0 {
            tracks.push((u, u + 1));
        }
    }
    tracks
}
