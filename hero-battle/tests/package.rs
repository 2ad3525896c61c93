//! hero-battle's problem package end to end: `hero-battle package` with an accepted
//! program (our binary behind a C++ `exec`) and planted-bug programs of each kind (a wrong
//! answer everywhere, a wrong answer on some cases, a crash at hit points 99, a hang), each
//! filed by the verdict it gets, the package rebuilt to the same bytes and verified by
//! Kattis's `verifyproblem` where it is installed; and the package's C++ input validator
//! held to `validate` on the sample, its nine canonical-format variants, every test of the
//! package and random corruptions of them.

#![cfg(unix)]

use std::path::Path;

use hero_battle::judge::Judge;
use judge::testing::package::{
    PackageCase, assert_validator_agrees, package_end_to_end, require_gpp,
};

const BINARY: &str = env!("CARGO_BIN_EXE_hero-battle");

const SAMPLE: &[u8] = include_bytes!("../../docs/problems/hero-battle/sample1.in");

/// A C++ program that reads the whole input, then either aborts (when `crash_if` holds of
/// it) or hands it to our binary and prints its verdicts, each passed through `flip` with
/// the case's first number: planted bugs behind a right program.
fn behind_our_solver(what: &str, crash_if: &str, flip: &str) -> String {
    format!(
        r#"// {what}
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
int main() {{
    std::string in;
    char buffer[65536];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, stdin)) > 0) in.append(buffer, n);
    if ({crash_if}) abort();
    char path[] = "/tmp/hero-battle-package-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, in.data(), in.size()) != (ssize_t)in.size()) return 1;
    close(fd);
    std::string command = std::string("{BINARY} -j 1 < ") + path;
    FILE *solver = popen(command.c_str(), "r");
    char *p = (char *)in.c_str();
    long t = strtol(p, &p, 10);
    char line[64];
    for (long k = 0; k < t && fgets(line, sizeof line, solver); ++k) {{
        long a1 = strtol(p, &p, 10);
        for (int j = 0; j < 11; ++j) strtol(p, &p, 10);
        std::string verdict = line;
        {flip}
        fputs(verdict.c_str(), stdout);
    }}
    int status = pclose(solver);
    unlink(path);
    return status == 0 ? 0 : 1;
}}
"#
    )
}

#[test]
fn the_package_verifies_and_its_validator_is_validate() {
    require_gpp();
    let dir = tests::scratch_dir("hero-battle-package", "e2e");
    let accepted = format!(
        "// Our solver.\n#include <unistd.h>\nint main() {{ execl(\"{BINARY}\", \"hero-battle\", \"-j\", \"1\", (char *)0); return 1; }}\n"
    );
    let alice = "// Alice always wins.\n#include <cstdio>\nint main() { int t, v; if (scanf(\"%d\", &t) != 1) return 1; while (scanf(\"%d\", &v) == 1) {} while (t--) puts(\"Alice wins\"); }\n";
    let flip = behind_our_solver(
        "\"It depends\" read as Alice's win when a1 is even.",
        "false",
        r#"if (a1 % 2 == 0 && verdict == "It depends\n") verdict = "Alice wins\n";"#,
    );
    let crash = behind_our_solver(
        "A table of hit points one too short: 99 crashes.",
        r#"in.find("99") != std::string::npos"#,
        "",
    );
    let spin = "// Never ends.\nint main() { volatile unsigned long long x = 0; for (;;) ++x; }\n";
    let case = PackageCase {
        binary: BINARY.to_owned(),
        dir: dir.clone(),
        short_name: "herobattle",
        submissions: vec![
            ("ours.cpp", "--accepted", accepted, "accepted"),
            ("alice.cpp", "--wrong", alice.to_owned(), "wrong_answer"),
            ("flip.cpp", "--wrong", flip, "wrong_answer"),
            ("crash.cpp", "--wrong", crash, "run_time_error"),
            ("spin.cpp", "--slow", spin.to_owned(), "time_limit_exceeded"),
        ],
        options: vec!["--seed", "1", "--stress-time", "60s"],
        rebuild: true,
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
}

/// Every input below `dir`, by name.
fn secret_tests(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let tests = judge::testset::find_tests(dir).expect("the package's tests");
    tests
        .into_iter()
        .map(|t| (t.name, std::fs::read(&t.input).expect("a test of the package")))
        .collect()
}
