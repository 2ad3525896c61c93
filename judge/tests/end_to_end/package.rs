//! A package of the toy problem built end to end from the library (`package::build`): a
//! right C++ submission, a C++ one wrong on a single case and a Python one that crashes on
//! a 9, each filed by its verdict with the shrunk test that kills it, and a rebuild the
//! same bytes. And the toy's C++ input validator held to `validate`.

use std::path::Path;
use std::time::Duration;

use judge::Problem;
use judge::package::{Format, Grade, PackageOptions, Role, build};
use judge::testing::package::{assert_validator_agrees, require_gpp, tree};
use judge::testing::sandbox;
use judge::testing::toy::Sum;
use judge::{Limits, VerdictKind, package, render};

use engine::rng::SplitMix64;

fn scratch(name: &str) -> judge::testing::TestDir {
    judge::testing::TestDir::new(&format!("package-{name}"))
}

/// A C++ submission that prints `answer` (of `a` and `b`) per case.
fn cpp(dir: &Path, name: &str, answer: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    let source = format!(
        "#include <cstdio>\nint main() {{ int t, a, b; if (scanf(\"%d\", &t) != 1) return 1;\n\
         while (t-- && scanf(\"%d %d\", &a, &b) == 2) printf(\"%d\\n\", {answer}); }}\n"
    );
    std::fs::write(&path, source).expect("the scratch folder is writable");
    path
}

#[test]
fn a_toy_package_files_each_submission_with_the_test_that_kills_it() {
    let dir = scratch("build");
    require_gpp();
    let right = cpp(&dir, "right.cpp", "a + b");
    let wrong = cpp(&dir, "wrong.cpp", "a == 7 && b == 8 ? 0 : a + b");
    let crash = dir.join("crash.py");
    let python = "import sys\nnumbers = [int(x) for x in sys.stdin.read().split()]\n\
                  assert 9 not in numbers[1:]\nfor k in range(numbers[0]):\n    \
                  print(numbers[1 + 2 * k] + numbers[2 + 2 * k])\n";
    std::fs::write(&crash, python).expect("the scratch folder is writable");
    let options = |folder: &str| PackageOptions {
        dir: dir.join(folder).join("sum"),
        accepted: vec![right.clone()],
        wrong: vec![wrong.clone(), crash.clone()],
        slow: Vec::new(),
        seed: 1,
        stress_time: Duration::from_secs(60),
        shrink_runs: 200,
        jobs: 2,
        levels: None,
        time_limit: None,
        own_tests: None,
        interactive: None,
        format: Format::Legacy,
    };
    let built = build(sandbox(), &Sum, &options("a"), &|_| {}).expect("the package builds");
    let filed: Vec<(&str, &str)> =
        built.filed.iter().map(|f| (f.file.as_str(), f.folder)).collect();
    assert_eq!(
        filed,
        [("right.cpp", "accepted"), ("wrong.cpp", "wrong_answer"), ("crash.py", "run_time_error")]
    );
    assert!(built.not_killed.is_empty());
    assert_eq!(built.time_limit, 1, "the slowest accepted run is far below 0.2 s");
    // Each submission's grade: the right one right everywhere, the wrong ones failed the way
    // they fail, on the test that kills them (the first in problemtools' order that does).
    let grades: Vec<(Role, String)> =
        built.filed.iter().map(|f| (f.role, f.grade.to_string())).collect();
    assert_eq!(grades[0], (Role::Accepted, "right on every test".to_owned()));
    assert!(
        matches!(&built.filed[1].grade, Grade::Failed(v, test)
            if v.kind == VerdictKind::WrongAnswer && test == "secret/kills-wrong"),
        "{grades:?}"
    );
    assert!(
        matches!(&built.filed[2].grade, Grade::Failed(v, _) if v.kind == VerdictKind::RuntimeError),
        "{grades:?}"
    );
    let files = tree(&built.dir);
    let kill = |name: &str| String::from_utf8_lossy(&files[Path::new(name)]).into_owned();
    assert_eq!(kill("data/secret/kills-wrong.in"), "1\n7 8\n", "shrunk to the one case");
    assert_eq!(kill("data/secret/kills-wrong.ans"), "15\n");
    assert_eq!(kill("data/secret/kills-crash.in").lines().next(), Some("1"), "one case");
    for needed in ["problem.yaml", ".timelimit", "input_validators/validate.cpp"] {
        assert!(files.contains_key(Path::new(needed)), "no {needed}");
    }
    for (file, folder) in filed {
        assert!(files.contains_key(&Path::new("submissions").join(folder).join(file)));
    }
    let again = build(sandbox(), &Sum, &options("b"), &|_| {}).expect("the package builds again");
    let mut second = tree(&again.dir);
    let mut first = files;
    first.remove(Path::new(".timelimit"));
    second.remove(Path::new(".timelimit"));
    assert!(first == second, "a rebuild from the same seed and sources is the same bytes");

    // The setter's time limit and tests: the limit as given, each test in the secret data
    // with our answer; a test `validate` rejects, or whose answer disagrees, is refused.
    let own = dir.join("own");
    std::fs::create_dir_all(&own).expect("the scratch folder is writable");
    std::fs::write(own.join("mine.in"), "2\n4 2\n5 5\n").expect("the scratch folder is writable");
    std::fs::write(own.join("mine.ans"), "6\n10\n").expect("the scratch folder is writable");
    let given = |folder: &str| PackageOptions {
        wrong: Vec::new(),
        time_limit: Some(3),
        own_tests: Some(own.clone()),
        levels: Some(1),
        ..options(folder)
    };
    let built = build(sandbox(), &Sum, &given("c"), &|_| {}).expect("the package builds");
    assert!(built.time_limit_given && built.time_limit == 3);
    let files = tree(&built.dir);
    let text = |name: &str| String::from_utf8_lossy(&files[Path::new(name)]).into_owned();
    assert_eq!(text(".timelimit"), "3\n");
    // `--levels 1`: the generated tests of level 0 alone, and no extremes.
    let generated: Vec<String> = (files.keys().filter_map(|f| f.file_name()))
        .map(|f| f.to_string_lossy().into_owned())
        .filter(|f| (f.starts_with("level-") || f.starts_with("limits-")) && f.ends_with(".in"))
        .collect();
    assert!(
        !generated.is_empty() && generated.iter().all(|f| f.starts_with("level-0-")),
        "{generated:?}"
    );
    assert_eq!(
        (text("data/secret/mine.in"), text("data/secret/mine.ans")),
        ("2\n4 2\n5 5\n".to_owned(), "6\n10\n".to_owned())
    );
    assert!(text("problem.yaml").contains("as the setter gave it"), "{}", text("problem.yaml"));
    // The same in 2025-09: the time limit in problem.yaml, the statement in statement/.
    let newer = PackageOptions { format: Format::V2025_09, ..given("e") };
    let built = build(sandbox(), &Sum, &newer, &|_| {}).expect("the package builds");
    let newer_files = tree(&built.dir);
    let yaml = String::from_utf8_lossy(&newer_files[Path::new("problem.yaml")]).into_owned();
    for line in ["problem_format_version: 2025-09\n", "type: pass-fail\n", "  time_limit: 3.0\n"] {
        assert!(yaml.contains(line), "{line:?} in {yaml}");
    }
    assert!(!newer_files.contains_key(Path::new(".timelimit")));
    assert!(newer_files.contains_key(Path::new("statement/problem.en.tex")));
    assert_eq!(newer_files[Path::new("data/secret/mine.in")], b"2\n4 2\n5 5\n");
    for (input, answer, says) in [
        ("1\n10 2\n", None, "line 2, column 1"),
        ("1\n1 2\n", Some("4\n"), "disagrees with our answer"),
    ] {
        std::fs::write(own.join("mine.in"), input).expect("the scratch folder is writable");
        let _ = std::fs::remove_file(own.join("mine.ans"));
        if let Some(answer) = answer {
            std::fs::write(own.join("mine.ans"), answer).expect("the scratch folder is writable");
        }
        let error = build(sandbox(), &Sum, &given("d"), &|_| {}).expect_err("refused");
        assert!(error.to_string().contains(says), "{error}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_toy_input_validator_is_validate() {
    require_gpp();
    let dir = scratch("validator");
    let mut rng = SplitMix64::new(5);
    let mut files = Vec::new();
    for level in 0..Sum::LEVELS {
        for k in 0..5 {
            let input = Sum.generate(&mut rng, level, Limits::Original);
            files.push((format!("level {level}, {k}"), render(&Sum, &input)));
        }
    }
    files.push(("the sample".to_owned(), package::Packaged::about(&Sum).samples[0].input.to_vec()));
    let checked = assert_validator_agrees(&Sum, &files, 30, &dir);
    assert!(checked > 600, "{checked} files");
    let _ = std::fs::remove_dir_all(&dir);
}
