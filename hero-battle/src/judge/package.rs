//! hero-battle's problem package (`hero-battle package`): what a Kattis package says of the
//! problem beyond its judge. The title and origin, the statement and the sample from the
//! crate's `problem/` folder, the input validator (`judge/validator.cpp`, as strict as
//! `validate`), and Kattis's default output validator comparing lines exactly.

use judge::package::{About, OutputValidator, Packaged, Sample};

use super::Judge;

/// The sample: written for this project, since no official one survived (the statement says
/// so); its answers are an exhaustive search's.
const SAMPLES: &[Sample] = &[Sample {
    name: "sample1",
    input: include_bytes!("../../problem/sample1.in"),
    answer: include_bytes!("../../problem/sample1.out"),
}];

impl Packaged for Judge {
    fn about(&self) -> About {
        About {
            title: "Battle in Two Pairs of Heroes",
            source: "ICPC 2017 Asia Qingdao Regional Contest",
            source_url: Some("https://qoj.ac/problem/11912"),
            statement_path: "hero-battle/problem/statement.md",
            statement: include_str!("../../problem/statement.md"),
            samples: SAMPLES,
        }
    }

    /// The canonical format under the original limits (module notes of the validator).
    fn input_validator(&self) -> &'static str {
        include_str!("validator.cpp")
    }

    fn answer_validator(&self) -> Option<&'static str> {
        Some(include_str!("answer_validator.cpp"))
    }

    /// Kattis's default validator, case and white space sensitive: byte for byte.
    fn output_validator(&self) -> OutputValidator {
        OutputValidator::Default {
            flags: "case_sensitive space_change_sensitive",
            unlike_check: "Kattis's default validator with case_sensitive and \
                           space_change_sensitive compares the output with our answer byte for \
                           byte. That is `hero-battle check`'s rule, exact lines, but for a \
                           missing newline after the last line, which check accepts as \
                           overlooked and this validator rejects, as `check --strict` does.",
        }
    }
}
