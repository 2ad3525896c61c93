//! card-duel's problem package end to end: `card-duel package` with an accepted program
//! (our binary behind a C++ `exec`: a right C++ program of this game is a project of its
//! own) and planted-bug programs (one half everywhere, our values but 0 at E's HP 20, a
//! crash past 100,000 cases), each filed by the verdict it gets, verified by Kattis's
//! `verifyproblem` where it is installed, and rebuilt in the 2025-09 format to the same
//! files, verified by BAPCtools; the package's C++ input validator held to `validate` on the
//! samples, their canonical-format variants, every test of the package (two of the official
//! 8 MB size among them) and random corruptions of them, and its answer validator to
//! `answer_is_canonical` on every answer and corruptions of them. hero-battle's test files a
//! hang; here it would cost half a minute more.
//! The interactive package, with our static jury, is judge's shared check
//! (`interactive_package_end_to_end`) with card-duel's players.

#![cfg(unix)]

use card_duel::judge::Judge;
use card_duel::position::DuelGame;
use judge::package::Format;
use judge::testing::package::{
    InteractiveCase, PackageCase, assert_answer_validator_agrees, assert_validator_agrees,
    behind_binary, interactive_package_end_to_end, package_end_to_end, require_gpp,
};

mod player;
use player::{BUG, INTRO};

const BINARY: &str = env!("CARGO_BIN_EXE_card-duel");

/// A case: E's HP and S's, two boards (a count, then each minion's HP), two hands; E's HP
/// 20 gets 0.
const HP20: &str = r#"long e = next(); next();
        for (int board = 0; board < 2; ++board) for (long m = next(); m > 0; --m) next();
        next(); next();
        if (e == 20) strcpy(line, "0\n");"#;

const SAMPLES: [&[u8]; 2] =
    [include_bytes!("../problem/sample1.in"), include_bytes!("../problem/sample2.in")];

#[test]
fn the_package_verifies_and_its_validator_is_validate() {
    require_gpp();
    let dir = tests::scratch_dir("card-duel-package", "e2e");
    let accepted = format!(
        "// Our solver.\n#include <unistd.h>\nint main() {{ execl(\"{BINARY}\", \"card-duel\", \"-j\", \"1\", (char *)0); return 1; }}\n"
    );
    let half = "// One half, whatever the position.\n#include <cstdio>\nint main() { long t; int o; if (scanf(\"%ld %d\", &t, &o) != 2) return 1; while (t--) puts(\"0.5\"); }\n";
    let hp20 = behind_binary("Our values, but 0 at E's HP 20.", BINARY, "false", 1, HP20);
    let crash =
        behind_binary("A table of 100,000 cases.", BINARY, "atol(in.c_str()) > 100000", 0, "");
    let case = PackageCase {
        binary: BINARY.to_owned(),
        dir: dir.to_path_buf(),
        short_name: "cardduel",
        submissions: vec![
            ("ours.cpp", "--accepted", accepted, "accepted"),
            ("half.cpp", "--wrong", half.to_owned(), "wrong_answer"),
            ("hp20.cpp", "--wrong", hp20, "wrong_answer"),
            ("crash.cpp", "--wrong", crash, "run_time_error"),
        ],
        options: vec!["--seed", "1", "--stress-time", "60s", "--shrink-runs", "60"],
        rebuild: Some(Format::V2025_09),
        interactive: false,
    };
    let (package, printed) = package_end_to_end(&case);
    assert!(printed.contains("kills-hp20 kills hp20.cpp"), "{printed}");
    let mut files = Vec::new();
    for (k, sample) in SAMPLES.iter().enumerate() {
        files.push((format!("sample{}", k + 1), sample.to_vec()));
        for (kind, bytes) in tests::canonical::variants(sample) {
            files.push((format!("sample{}, {kind}", k + 1), bytes));
        }
    }
    let tests = judge::find_tests(&package.join("data/secret")).expect("its tests");
    let official_size =
        tests.iter().filter(|t| t.input.metadata().is_ok_and(|m| m.len() > 1 << 20)).count();
    assert_eq!(
        official_size, 3,
        "two official-size tests and the crash's kill test (100,001 cases or more)"
    );
    for test in tests {
        files.push((test.name, std::fs::read(&test.input).expect("a test of the package")));
    }
    let checked = assert_validator_agrees(&Judge::new(), &files, 6, &dir.join("validator"));
    assert!(checked > 150, "{checked} files");
    let checked = assert_answer_validator_agrees(&Judge::new(), &package, 6, &dir.join("answer"));
    assert!(checked > 150, "{checked} answers");
    // Only when it passed: a failure leaves the package to look at.
    let _ = std::fs::remove_dir_all(&dir);
}

/// A C++ player that uses its hero power once a turn, then ends the turn.
const HERO: &str = r#"// Each turn: the hero power, then the end of the turn.
#include <cstdio>
#include <cstdlib>
#include <cstring>
static char line[64];
static bool next() {
    if (!fgets(line, sizeof line, stdin)) return false;
    line[strcspn(line, "\r\n")] = 0;
    return true;
}
int main() {
    if (!next()) return 1;
    int games = atoi(line);
    for (int g = 0; g < games; ++g) {
        for (int k = 0; k < 6; ++k) next();  // O, the four lines, and E.
        for (;;) {
            puts("hero");
            puts("end");
            fflush(stdout);
            // The jury's lines until the teacher's turn ends, or the game does.
            while (next() && strcmp(line, "end") && strcmp(line, "win") && strcmp(line, "lose")) {}
            if (strcmp(line, "end")) break;
        }
    }
}
"#;

#[test]
fn the_interactive_package_verifies() {
    let case = InteractiveCase {
        binary: BINARY,
        crates: tests::registry::problem_names(),
        short_name: "cardduel",
        intro: INTRO,
        bug: BUG,
        perfect_cpp: include_str!("player/perfect.cpp"),
        // The right C++ player searches without a tablebase, so it is quick on the first
        // three levels' small positions alone (at 20 hit points it takes minutes a game).
        options: &["--levels", "3"],
        wrong_cpp: ("hero.cpp", HERO),
    };
    if let Some(printed) = interactive_package_end_to_end(&case, DuelGame::new()) {
        println!("{printed}");
    }
}
