//! hero-battle's problem package end to end: `hero-battle package` with an accepted
//! program (our binary behind a C++ `exec`) and planted-bug programs of each kind (a wrong
//! answer everywhere, a wrong answer on some cases, a crash at hit points 99, a hang), each
//! filed by the verdict it gets, verified by Kattis's `verifyproblem` where it is installed,
//! and rebuilt in the 2025-09 format to the same files, verified by BAPCtools; the package's
//! C++ input validator held to `validate` on the sample, its nine canonical-format variants,
//! every test of the package and random corruptions of them, and its answer validator to
//! `answer_is_canonical` on every answer and corruptions of them. The interactive package,
//! with our static jury, is judge's shared check (`interactive_package_end_to_end`) with
//! hero-battle's players.

#![cfg(unix)]

use std::path::Path;

use hero_battle::judge::Judge;
use hero_battle::position::HeroGame;
use judge::package::Format;
use judge::testing::package::{
    InteractiveCase, PackageCase, assert_answer_validator_agrees, assert_validator_agrees,
    behind_binary, interactive_package_end_to_end, package_end_to_end, require_gpp,
};

mod player;
use player::{BUG, INTRO};

const BINARY: &str = env!("CARGO_BIN_EXE_hero-battle");

const SAMPLE: &[u8] = include_bytes!("../problem/sample1.in");

#[test]
fn the_package_verifies_and_its_validator_is_validate() {
    require_gpp();
    let dir = tests::scratch_dir("hero-battle-package", "e2e");
    let accepted = format!(
        "// Our solver.\n#include <unistd.h>\nint main() {{ execl(\"{BINARY}\", \"hero-battle\", \"-j\", \"1\", (char *)0); return 1; }}\n"
    );
    let alice = "// Alice always wins.\n#include <cstdio>\nint main() { int t, v; if (scanf(\"%d\", &t) != 1) return 1; while (scanf(\"%d\", &v) == 1) {} while (t--) puts(\"Alice wins\"); }\n";
    // A case is twelve numbers, a1 first.
    let flip = behind_binary(
        "\"It depends\" read as Alice's win when a1 is even.",
        BINARY,
        "false",
        0,
        r#"long a1 = next(); for (int j = 0; j < 11; ++j) next();
        if (a1 % 2 == 0 && strcmp(line, "It depends\n") == 0) strcpy(line, "Alice wins\n");"#,
    );
    let crash = behind_binary(
        "A table of hit points one too short: 99 crashes.",
        BINARY,
        r#"in.find("99") != std::string::npos"#,
        0,
        "",
    );
    let spin = "// Never ends.\nint main() { volatile unsigned long long x = 0; for (;;) ++x; }\n";
    let case = PackageCase {
        binary: BINARY.to_owned(),
        dir: dir.to_path_buf(),
        short_name: "herobattle",
        submissions: vec![
            ("ours.cpp", "--accepted", accepted, "accepted"),
            ("alice.cpp", "--wrong", alice.to_owned(), "wrong_answer"),
            ("flip.cpp", "--wrong", flip, "wrong_answer"),
            ("crash.cpp", "--wrong", crash, "run_time_error"),
            ("spin.cpp", "--slow", spin.to_owned(), "time_limit_exceeded"),
        ],
        options: vec!["--seed", "1", "--stress-time", "60s"],
        rebuild: Some(Format::V2025_09),
        interactive: false,
    };
    let (package, printed) = package_end_to_end(&case);
    for kill in
        ["kills-alice kills alice.cpp", "kills-flip kills flip.cpp", "kills-crash kills crash.cpp"]
    {
        assert!(printed.contains(kill), "{printed}");
    }
    let mut files = vec![("sample1".to_owned(), SAMPLE.to_vec())];
    for (kind, bytes) in tests::canonical::variants(SAMPLE) {
        files.push((format!("sample1, {kind}"), bytes));
    }
    files.extend(secret_tests(&package.join("data/secret")));
    let checked = assert_validator_agrees(&Judge, &files, 20, &dir.join("validator"));
    assert!(checked > 400, "{checked} files");
    let checked = assert_answer_validator_agrees(&Judge, &package, 20, &dir.join("answer"));
    assert!(checked > 400, "{checked} answers");
    // Only when it passed: a failure leaves the package to look at.
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every input below `dir`, by name.
fn secret_tests(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let tests = judge::find_tests(dir).expect("the package's tests");
    tests
        .into_iter()
        .map(|t| (t.name, std::fs::read(&t.input).expect("a test of the package")))
        .collect()
}

/// A C++ player that always attacks the enemy's hero 1 with both heroes.
const ONES: &str = r#"// Always attacks the enemy's hero 1 with both heroes.
#include <cstdio>
#include <cstring>
int main() {
    char line[256], first[64], side[64];
    int games;
    if (!fgets(line, sizeof line, stdin) || sscanf(line, "%d", &games) != 1) return 1;
    for (int g = 0; g < games; ++g) {
        if (!fgets(line, sizeof line, stdin) || !fgets(first, sizeof first, stdin)
            || !fgets(side, sizeof side, stdin)) return 1;
        bool mine = strcmp(first, side) == 0;
        for (;;) {
            if (mine) { puts("1 1"); fflush(stdout); }
            if (!fgets(line, sizeof line, stdin)) return 0;
            if (!strncmp(line, "win", 3) || !strncmp(line, "lose", 4)) break;
            mine = true;
        }
    }
}
"#;

#[test]
fn the_interactive_package_verifies() {
    let case = InteractiveCase {
        binary: BINARY,
        crates: tests::registry::problem_names(),
        short_name: "herobattle",
        intro: INTRO,
        bug: BUG,
        perfect_cpp: include_str!("player/perfect.cpp"),
        options: &[],
        wrong_cpp: ("ones.cpp", ONES),
    };
    if let Some(printed) = interactive_package_end_to_end(&case, HeroGame::new()) {
        println!("{printed}");
    }
}
