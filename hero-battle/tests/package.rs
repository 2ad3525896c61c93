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
    PackageCase, assert_validator_agrees, behind_binary, package_end_to_end, require_gpp,
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
        rebuild: true,
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
    require_gpp();
    let Some(jury) = judge::testing::package::static_binary("hero-battle", BINARY) else {
        return;
    };
    let dir = tests::scratch_dir("hero-battle-package", "interactive");
    let files = dir.join("player");
    std::fs::create_dir_all(&files).expect("the scratch folder is writable");
    let (player, intro, bug) =
        (files.join("player.py"), files.join("intro.py"), files.join("bug.py"));
    std::fs::write(&player, judge::testing::interactive::PLAYER).expect("writable");
    std::fs::write(&intro, INTRO).expect("writable");
    std::fs::write(&bug, BUG).expect("writable");
    // The static build answers the player's queries: an optimized build, as a player's
    // oracle should be.
    let oracle = format!("{} query", jury.display());
    let python = |what: &str, rule: Option<&std::path::PathBuf>| {
        let mut argv = format!("[\"player\", {:?}, {oracle:?}", intro.display().to_string());
        if let Some(rule) = rule {
            argv += &format!(", {:?}", rule.display().to_string());
        }
        format!(
            "# {what}: the judge's test player, asking {oracle}.\nimport sys\n\
             sys.argv = {argv}]\nexec(open({:?}).read())\n",
            player.display().to_string()
        )
    };
    let cpp = format!(
        "// A perfect player: the judge's test player in Python, started from C++.\n\
         #include <unistd.h>\nint main() {{ execl(\"/usr/bin/python3\", \"python3\", \"-S\", \
         {:?}, {:?}, {oracle:?}, (char *)0); return 1; }}\n",
        player.display().to_string(),
        intro.display().to_string()
    );
    let jury = jury.display().to_string();
    let case = PackageCase {
        binary: BINARY.to_owned(),
        dir: dir.to_path_buf(),
        short_name: "herobattle",
        submissions: vec![
            ("perfect.cpp", "--accepted", cpp, "accepted"),
            ("perfect.py", "--accepted", python("A perfect player", None), "accepted"),
            ("ones.cpp", "--wrong", ONES.to_owned(), "wrong_answer"),
            (
                "rare.py",
                "--wrong",
                python("A player that misplays one rare position", Some(&bug)),
                "wrong_answer",
            ),
        ],
        // The perfect player asks a query server, whose time counts here, as the time of
        // everything a run starts counts (problemtools counts the player's alone): a given
        // limit well above it (8.6 s on a loaded 2-core machine), which costs nothing when
        // the players are right and the wrong ones fail at once.
        options: vec![
            "--interactive",
            "--jury",
            Box::leak(jury.into_boxed_str()),
            "--stress-time",
            "120s",
            "--time-limit",
            "30",
        ],
        rebuild: false,
        interactive: true,
    };
    let (_, printed) = package_end_to_end(&case);
    println!("{printed}");
    for kill in ["kills-ones kills ones.cpp", "kills-rare kills rare.py"] {
        assert!(printed.contains(kill), "{printed}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
