//! card-duel's problem package (`card-duel package`): what a Kattis package says of the
//! problem beyond its judge. The title and origin, the statement and the official samples
//! from the crate's `problem/` folder, the input validator (`judge/validator.cpp`, as strict
//! as `validate`), Kattis's default output validator within 1e-6, and at most two
//! official-size files (8 to 10 MB of input each): a package is about 30 MB.

use judge::package::{About, OutputValidator, Packaged, Sample, TestBudget};

use super::Judge;

/// THUPC 2021's two samples.
const SAMPLES: &[Sample] = &[
    Sample {
        name: "sample1",
        input: include_bytes!("../../problem/sample1.in"),
        answer: include_bytes!("../../problem/sample1.out"),
    },
    Sample {
        name: "sample2",
        input: include_bytes!("../../problem/sample2.in"),
        answer: include_bytes!("../../problem/sample2.out"),
    },
];

impl Packaged for Judge {
    fn about(&self) -> About {
        About {
            title: "狗蛋和二五仔 (a Hearthstone-like duel with random pings)",
            source: "THUPC 2021 (Tsinghua University Programming Contest), preliminary round",
            source_url: Some("https://www.luogu.com.cn/problem/P7144"),
            statement_path: "card-duel/problem/statement.md",
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

    /// Kattis's default validator within an absolute error of 1e-6.
    fn output_validator(&self) -> OutputValidator {
        OutputValidator::Default {
            flags: "float_absolute_tolerance 1e-6",
            unlike_check: "Kattis's default validator with float_absolute_tolerance 1e-6 reads \
                           the output token by token and accepts a number within 1e-6 of our \
                           answer, as THUPC's chk.cpp and `card-duel check` do, and reads the \
                           numbers chk.cpp reads (hex, .5, 1., +0.5). It differs in two \
                           places, both outputs check accepts only as overlooked: text after \
                           the last answer, which chk.cpp ignores, and two numbers with \
                           nothing between them (0.50.25), which chk.cpp reads apart; the \
                           default validator rejects both, as `check --strict` does.",
        }
    }

    /// Two tests a level, and at most two tests over 1 MiB: the first made, the extremes of
    /// 351,493 distinct positions at O = 5 and of the heavy positions at O = 3 (8 MB each).
    fn test_budget(&self) -> TestBudget {
        TestBudget { big_tests: 2, ..TestBudget::DEFAULT }
    }
}
