//! toy-train's problem package end to end: `toy-train package` with a right C++ program of
//! its own (repeated attractors, IOI's classic solution) in both styles (reading stdin, and
//! IOI's `who_wins` built with the package's grader) and planted-bug programs (Arezou
//! everywhere; a function-style one wrong only on railways of subtask 2 and no other but 6;
//! a crash and a hang are hero-battle's test's), each filed by the verdict
//! and the IOI score it gets under the overlapping subtask groups, judged again by `toy-train
//! run` from their sources, and verified by Kattis's `verifyproblem` where it is installed
//! (hero-battle's test rebuilds its package to the same bytes); the package's C++ input
//! validator held to `validate` (and each group's flags to the subtasks) on the sample, its
//! nine canonical-format variants, every test of the package and random corruptions of
//! them; and its white-diff output validator held to `check` on outputs laid out every way
//! white-diff tells apart.
//! The interactive package, with our static jury, is judge's shared check
//! (`interactive_package_end_to_end`) with toy-train's players.

#![cfg(unix)]

use std::process::{Command, Stdio};

use engine::rng::SplitMix64;
use judge::package::{OutputValidator, Packaged, compile_cpp};
use judge::testing::package::{
    InteractiveCase, PackageCase, assert_validator_agrees, interactive_package_end_to_end,
    package_end_to_end, require_gpp,
};
use judge::{Limits, Problem, check};
use toy_train::judge::Judge;
use toy_train::position::TrainGame;

mod player;
use player::{BUG, INTRO};

const BINARY: &str = env!("CARGO_BIN_EXE_toy-train");

const SAMPLE: &[u8] = include_bytes!("../problem/sample1.in");

/// IOI 2017's classic solution as IOI's function (`train.h`): Arezou's attractor of the
/// chargers; Borzou's attractor of the rest is lost for her and removed; again until nothing
/// is removed, `O(n m)`. Its answers are changed by `bug` (a statement that may change
/// `alive`, run before they are returned): the planted bugs.
const FUNCTION: &str = r#"
#include "train.h"
using namespace std;
vector<int> who_wins(vector<int> a, vector<int> r, vector<int> u, vector<int> v) {
    int n = a.size(), m = u.size();
    vector<vector<int>> out(n), in(n);
    for (int i = 0; i < m; ++i) { out[u[i]].push_back(v[i]); in[v[i]].push_back(u[i]); }
    vector<int> alive(n, 1);
    auto attractor = [&](int player, const vector<char> &target) {
        vector<char> in_set(n, 0);
        vector<int> left(n, 0), queue;
        for (int s = 0; s < n; ++s) {
            if (!alive[s]) continue;
            for (int t : out[s]) left[s] += alive[t];
            if (target[s]) { in_set[s] = 1; queue.push_back(s); }
        }
        for (size_t i = 0; i < queue.size(); ++i)
            for (int p : in[queue[i]]) {
                if (!alive[p] || in_set[p]) continue;
                if (a[p] == player || --left[p] == 0) { in_set[p] = 1; queue.push_back(p); }
            }
        return in_set;
    };
    for (;;) {
        vector<char> target(n, 0);
        for (int s = 0; s < n; ++s) target[s] = alive[s] && r[s];
        vector<char> wins = attractor(1, target), rest(n, 0);
        bool any = false;
        for (int s = 0; s < n; ++s) if (alive[s] && !wins[s]) rest[s] = 1, any = true;
        if (!any) break;
        vector<char> lost = attractor(0, rest);
        for (int s = 0; s < n; ++s) if (lost[s]) alive[s] = 0;
    }
    BUG;
    return alive;
}
"#;

/// The function-style solution with `bug` planted.
fn function(what: &str, bug: &str) -> String {
    format!("// {what}{}", FUNCTION.replace("BUG", bug))
}

/// The same solution reading stdin itself, with a `main` of its own.
fn reading_stdin(what: &str) -> String {
    let main = r#"
int main() {
    int n, m;
    if (scanf("%d %d", &n, &m) != 2) return 1;
    vector<int> a(n), r(n), u(m), v(m);
    for (int &x : a) scanf("%d", &x);
    for (int &x : r) scanf("%d", &x);
    for (int i = 0; i < m; ++i) scanf("%d %d", &u[i], &v[i]);
    vector<int> w = who_wins(a, r, u, v);
    for (int s = 0; s < n; ++s) printf("%d%c", w[s], s + 1 == n ? '\n' : ' ');
}
"#;
    let own = FUNCTION
        .replace("BUG", "(void)0")
        .replace("#include \"train.h\"", "#include <cstdio>\n#include <vector>");
    format!("// {what}{own}{main}")
}

#[test]
fn the_package_verifies_and_its_validator_is_validate() {
    require_gpp();
    let dir = tests::scratch_dir("toy-train-package", "e2e");
    let ones = "// Arezou wins everywhere.\n#include <cstdio>\nint main() { int n, m; if (scanf(\"%d %d\", &n, &m) != 2) return 1; for (int s = 0; s < n; ++s) printf(\"1%c\", s + 1 == n ? '\\n' : ' '); }\n";
    let case = PackageCase {
        binary: BINARY.to_owned(),
        dir: dir.to_path_buf(),
        short_name: "toytrain",
        submissions: vec![
            ("classic.cpp", "--accepted", reading_stdin("Right, reading stdin."), "accepted"),
            ("ones.cpp", "--wrong", ones.to_owned(), "wrong_answer"),
            (
                "train.cpp",
                "--accepted",
                function("Right, as IOI's function.", "(void)0"),
                "accepted",
            ),
            // Wrong on railways in subtask 2 only (of 1 to 5): mixed owners, two chargers or
            // more, a track off the line, n <= 15.
            (
                "subtwo.cpp",
                "--wrong",
                function(
                    "Wrong on subtask 2's railways of no other subtask but 6.",
                    r#"int arezou = 0, chargers = 0; bool line = true;
    for (int s = 0; s < n; ++s) arezou += a[s], chargers += r[s];
    for (int i = 0; i < m; ++i) line = line && (v[i] == u[i] || v[i] == u[i] + 1);
    if (n <= 15 && arezou > 0 && arezou < n && chargers >= 2 && !line) alive[0] ^= 1"#,
                ),
                "partially_accepted",
            ),
        ],
        options: vec!["--seed", "1", "--stress-time", "60s", "--shrink-runs", "100"],
        rebuild: None,
        interactive: false,
    };
    let (package, printed) = package_end_to_end(&case);
    // IOI's scoring: a failure costs every subtask that holds its test, and subtask 6 holds
    // every test: wrong only on subtask 2's railways, subtwo.cpp keeps 5 + 11 + 11 + 12 and
    // not subtask 6's 51 (with a test in its first group only, it would score 90).
    let scored = |file: &str| {
        let line = printed.lines().find(|l| l.contains(&format!("partially_accepted/{file}")));
        line.unwrap_or_else(|| panic!("{file} is not partially accepted:\n{printed}")).to_owned()
    };
    let subtwo = scored("subtwo.cpp");
    assert!(subtwo.contains("score 39 of 100: group1 5/5, group2 0/10, group3 11/11, group4 11/11, group5 12/12, group6 0/51"), "{subtwo}");
    let mut files = vec![("sample1".to_owned(), SAMPLE.to_vec())];
    for (kind, bytes) in tests::canonical::variants(SAMPLE) {
        files.push((format!("sample1, {kind}"), bytes));
    }
    let tests = judge::find_tests(&package.join("data/secret")).expect("its tests");
    // Each test once: a group's link to another's files is the same input.
    let links = |path: &std::path::Path| path.symlink_metadata().is_ok_and(|m| m.is_symlink());
    for test in tests.into_iter().filter(|t| !links(&t.input)) {
        files.push((test.name, std::fs::read(&test.input).expect("a test of the package")));
    }
    let checked = assert_validator_agrees(&Judge, &files, 10, &dir.join("validator"));
    assert!(checked > 300, "{checked} files");
    // Only when it passed: a failure leaves the package to look at.
    let _ = std::fs::remove_dir_all(&dir);
}

/// Outputs for `answer` (one bit a station) laid out every way white-diff tells apart: right
/// or one bit flipped, white space of every kind between, before and after the answers, a
/// line break among them, blank lines before and after, a token missing or extra, no final
/// newline, nothing at all.
fn outputs(rng: &mut SplitMix64, answer: &[bool]) -> Vec<Vec<u8>> {
    let bits: Vec<&str> = answer.iter().map(|&b| if b { "1" } else { "0" }).collect();
    let mut out = Vec::new();
    for _ in 0..40 {
        let mut tokens = bits.clone();
        if rng.chance(1, 4) {
            let k = rng.below(tokens.len());
            tokens[k] = if tokens[k] == "1" { "0" } else { "1" };
        }
        if rng.chance(1, 8) {
            tokens.pop();
        }
        if rng.chance(1, 8) {
            tokens.push(["1", "x", "01"][rng.below(3)]);
        }
        let white = |rng: &mut SplitMix64| {
            [" ", "  ", "\t", " \r", "\x0b", "\x0c"][rng.below(6)].to_owned()
        };
        let mut text = String::new();
        if rng.chance(1, 6) {
            text += "\n";
        }
        if rng.chance(1, 4) {
            text += &white(rng);
        }
        for (k, token) in tokens.iter().enumerate() {
            if k > 0 {
                text += &if rng.chance(1, 10) { "\n".to_owned() } else { white(rng) };
            }
            text += token;
        }
        if rng.chance(1, 4) {
            text += &white(rng);
        }
        match rng.below(4) {
            0 => {}
            1 => text += "\n",
            2 => text += "\r\n\n \n",
            _ => text += "\n0\n",
        }
        out.push(text.into_bytes());
    }
    out.push(Vec::new());
    out
}

#[test]
fn white_diff_accepts_what_check_accepts() {
    require_gpp();
    let dir = tests::scratch_dir("toy-train-package", "whitediff");
    let OutputValidator::Custom { name, source, .. } = Judge.output_validator() else {
        panic!("toy-train's output validator is its own white-diff");
    };
    let file = dir.join(format!("{name}.cpp"));
    std::fs::write(&file, source).expect("the scratch folder is writable");
    let binary = dir.join(name);
    compile_cpp(&file, &binary).expect("white-diff compiles");
    let mut rng = SplitMix64::new(17);
    let mut judged = 0;
    for level in 0..Judge::LEVELS - 1 {
        let railway = Judge.generate(&mut rng, level, Limits::Original);
        let input = judge::render(&Judge, &railway);
        let mut answer = Vec::new();
        Judge.render_answer(&railway, &Judge.solve(&railway), &mut answer);
        let (input_file, answer_file) = (dir.join("judge.in"), dir.join("judge.ans"));
        std::fs::write(&input_file, &input).expect("the scratch folder is writable");
        std::fs::write(&answer_file, &answer).expect("the scratch folder is writable");
        for output in outputs(&mut rng, &Judge.solve(&railway)) {
            let mut child = Command::new(&binary)
                .args([&input_file, &answer_file, &dir.to_path_buf()])
                .stdin(Stdio::piped())
                .spawn()
                .expect("white-diff runs");
            std::io::Write::write_all(&mut child.stdin.take().expect("its stdin"), &output)
                .expect("white-diff reads the output");
            let code = child.wait().expect("white-diff ends").code();
            let ours = check(&Judge, &input, &output, None, Limits::Original, true, false);
            let expected = if ours.is_ok() { Some(42) } else { Some(43) };
            assert_eq!(code, expected, "{:?}: check says {ours}", String::from_utf8_lossy(&output));
            judged += 1;
        }
    }
    assert!(judged > 250, "{judged} outputs");
}

/// A C++ player that always takes the first track out of its station, in input order.
const FIRST: &str = r#"// Always takes the first track out of the station, in input order.
#include <cstdio>
#include <vector>
int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int g = 0; g < games; ++g) {
        int n, m;
        if (scanf("%d %d", &n, &m) != 2) return 1;
        std::vector<int> owner(n), charger(n), first(n, -1), passed(n, 0);
        for (int &a : owner) scanf("%d", &a);
        for (int &r : charger) scanf("%d", &r);
        for (int k = 0; k < m; ++k) {
            int u, v;
            scanf("%d %d", &u, &v);
            if (first[u] < 0) first[u] = v;
        }
        int at;
        char side[16], line[16];
        scanf("%d %15s", &at, side);
        int me = side[0] == 'A' ? 1 : 0;
        passed[at] = 1;
        for (;;) {
            int next;
            if (owner[at] == me) {
                next = first[at];
                printf("%d\n", next);
                fflush(stdout);
            } else {
                scanf("%15s", line);
                if (line[0] == 'w' || line[0] == 'l') break;
                sscanf(line, "%d", &next);
            }
            if (passed[next]) {
                scanf("%15s", line);
                break;
            }
            passed[next] = 1, at = next;
        }
    }
}
"#;

#[test]
fn the_interactive_package_verifies() {
    let case = InteractiveCase {
        binary: BINARY,
        crates: tests::registry::problem_names(),
        short_name: "toytrain",
        intro: INTRO,
        bug: BUG,
        perfect_cpp: include_str!("player/perfect.cpp"),
        options: &[],
        wrong_cpp: ("first.cpp", FIRST),
    };
    if let Some(printed) = interactive_package_end_to_end(&case, TrainGame::new()) {
        println!("{printed}");
    }
}

/// The batch problem is a scoring one, which BAPCtools cannot verify in 2025-09: refused
/// before any work, saying why, and nothing written.
#[test]
fn a_scoring_package_in_2025_09_is_refused() {
    let dir = tests::scratch_dir("toy-train-package", "format");
    let package = dir.join("toytrain");
    let output = Command::new(BINARY)
        .arg("package")
        .arg(&package)
        .args(["--accepted", "missing.cpp", "--format", "2025-09"])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("toy-train is a scoring problem") && stderr.contains("type: scoring"));
    assert!(!package.exists(), "nothing is written");
}
