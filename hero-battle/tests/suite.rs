//! hero-battle: the sample (written here, as none survived), snapshots of every input under
//! tests/data, the threshold solver against the reference on thousands of generated cases and
//! on every case of the judge's exhaustive enumeration up to 2 (and a sample up to 3),
//! `--explain` checked move by move, and thread-count independence.

use engine::driver::DriverOptions;
use hero_battle::explain::{Plan, after};
use hero_battle::generate::{Family, cases, to_input};
use hero_battle::reference::Reference;
use hero_battle::rules::{Case, Player, WhoWins};
use hero_battle::threshold::{Orientation, ThresholdSolver};
use hero_battle::{Options, Solver};

/// The options a data file's flags ask for.
fn options(flags: &[String]) -> Options {
    let mut options = Options::default();
    for flag in flags {
        match flag.as_str() {
            "--explain" => options.explain = true,
            other => panic!("no test flag {other}"),
        }
    }
    options
}

#[test]
fn expected_outputs_match() {
    tests::assert_expected_outputs(
        env!("CARGO_MANIFEST_DIR"),
        &[Solver::Fast, Solver::Reference],
        |input, solver| {
            tests::render(hero_battle::run(input, &Options { solver, ..Options::default() }))
        },
    );
}

#[test]
fn snapshot_hero_battle() {
    tests::snapshot_suite(env!("CARGO_MANIFEST_DIR"), |input, flags| {
        hero_battle::run(input, &options(flags))
    });
}

/// The generated families of the differential test and how many cases of each.
const FAMILIES: [(Family, usize); 4] =
    [(Family::Small, 2000), (Family::Large, 600), (Family::Lopsided, 600), (Family::Random, 2000)];

#[test]
fn threshold_solver_agrees_with_the_reference() {
    let mut fast = ThresholdSolver::new();
    let mut naive = Reference::new();
    let mut answers = std::collections::HashMap::new();
    let mut total = 0;
    for (i, (family, count)) in FAMILIES.into_iter().enumerate() {
        for case in cases(family, count, 0x5eed + i as u64) {
            let want = naive.solve(&case);
            for orientation in Orientation::ALL {
                assert_eq!(
                    fast.solve_with(&case, orientation),
                    want,
                    "{family:?} {orientation:?} {case:?}"
                );
            }
            *answers.entry(want.who_wins()).or_insert(0) += 1;
            total += 1;
        }
    }
    assert!(total >= 3000);
    for w in WhoWins::ALL {
        assert!(answers.get(&w).is_some_and(|&n| n >= 50), "{w:?}: {answers:?}");
    }
}

/// Every position of a small case, not just the start, in every orientation of the tables:
/// they must be right everywhere the explanations read them.
#[test]
fn threshold_tables_agree_with_the_reference_on_every_reached_position() {
    let mut fast = ThresholdSolver::new();
    let mut naive = Reference::new();
    let mut compared = 0;
    for case in cases(Family::Small, 120, 77) {
        naive.solve(&case);
        let alice_reached = reachable(&case);
        let bob_reached = reachable(&case.swapped());
        for orientation in Orientation::ALL {
            fast.solve_with(&case, orientation);
            for a1 in 0..=case.alice_hp[0] {
                for a2 in 0..=case.alice_hp[1] {
                    for b1 in 0..=case.bob_hp[0] {
                        for b2 in 0..=case.bob_hp[1] {
                            let (a, b) = ([a1, a2], [b1, b2]);
                            // Only the row side's reachable hit points are in the tables.
                            let rows_reached = match orientation {
                                Orientation::Fixed { exchanged: true, .. } => {
                                    bob_reached.contains(&b)
                                }
                                Orientation::Fixed { exchanged: false, .. } => {
                                    alice_reached.contains(&a)
                                }
                                Orientation::Cheaper => {
                                    alice_reached.contains(&a) && bob_reached.contains(&b)
                                }
                            };
                            if a == [0, 0] || b == [0, 0] || !rows_reached {
                                continue;
                            }
                            for mover in [Player::Alice, Player::Bob] {
                                assert_eq!(
                                    fast.alice_wins(a, b, mover),
                                    naive.alice_wins(&case, a, b, mover),
                                    "{case:?} {orientation:?} at a={a:?} b={b:?} {mover} to move"
                                );
                                compared += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(compared > 100_000, "compared {compared} positions");
}

/// Every pair of Alice hit points Bob's attacks (any living attackers) can bring her to.
fn reachable(case: &Case) -> std::collections::HashSet<[u8; 2]> {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![case.alice_hp];
    while let Some(a) = stack.pop() {
        if !seen.insert(a) {
            continue;
        }
        for attackers in [[1, 1], [1, 0], [0, 1]] {
            for attack in hero_battle::rules::attacks(Player::Bob, attackers, a) {
                stack.push(attack.apply(&case.bob_damage, a));
            }
        }
    }
    seen
}

#[test]
fn explanations_are_winning_moves() {
    let mut fast = ThresholdSolver::new();
    let mut naive = Reference::new();
    let mut answered = 0;
    for case in cases(Family::Small, 400, 99).into_iter().chain(cases(Family::Lopsided, 200, 98)) {
        let outcome = fast.solve(&case);
        naive.solve(&case);
        let (a0, b0) = (case.alice_hp, case.bob_hp);
        let wins = |naive: &mut Reference, winner: Player, a: [u8; 2], b: [u8; 2], mover| {
            let alice = if a == [0, 0] { false } else { naive.alice_wins(&case, a, b, mover) };
            alice == (winner == Player::Alice)
        };
        for line in hero_battle::explain::explain(&case, outcome, &fast) {
            match line.plan {
                Plan::Open(attack) => {
                    assert_eq!(line.first, line.winner);
                    let (a, b) = after(&case, attack, a0, b0);
                    assert!(
                        wins(&mut naive, line.winner, a, b, line.first.other()),
                        "{case:?} {line}"
                    );
                }
                Plan::Answer(pairs) => {
                    assert_ne!(line.first, line.winner);
                    assert!(!pairs.is_empty());
                    for (attack, answer) in pairs {
                        let (a, b) = after(&case, attack, a0, b0);
                        let (a, b) = after(&case, answer, a, b);
                        assert!(
                            wins(&mut naive, line.winner, a, b, line.first),
                            "{case:?} {answer}"
                        );
                        answered += 1;
                    }
                }
            }
        }
    }
    assert!(answered > 100, "second-mover wins were exercised ({answered} answers)");
}

#[test]
fn output_is_identical_for_every_thread_count() {
    // Enough cases for the driver to parse the file in chunks on several threads.
    let mut batch = cases(Family::Random, 6000, 1);
    batch.extend(cases(Family::Hard, 6, 2));
    batch.extend(cases(Family::Small, 1000, 3));
    let input = to_input(&batch);
    let run = |threads| {
        let driver = DriverOptions { threads: Some(threads), progress: false };
        hero_battle::run(input.as_bytes(), &Options { driver, ..Options::default() })
            .unwrap()
            .stdout
    };
    let one = run(1);
    assert_eq!(one.iter().filter(|&&b| b == b'\n').count(), batch.len());
    for threads in [2, 3, 8] {
        assert_eq!(run(threads), one, "{threads} threads");
    }
}

/// The judge's `stress --exhaustive` promises "right on every input"; the answers it judges
/// by are the fast solver's, so they must be right on every case it enumerates: all 4,096
/// cases up to 2, and every 61st of the 531,441 up to 3.
#[test]
fn the_fast_solver_is_right_on_the_exhaustive_enumeration() {
    use hero_battle::judge::Judge;
    use judge::{Limits, Problem};

    let mut naive = Reference::new();
    let mut compared = 0;
    let mut check = |bound: u64, files: &mut dyn Iterator<Item = u64>| {
        for index in files {
            let file = Judge.exhaustive(bound, index, Limits::Original).expect("below the length");
            let fast = Judge.solve(&file);
            for (case, who_wins) in file.iter().zip(fast) {
                assert_eq!(naive.solve(case).who_wins(), who_wins, "{case:?}");
                compared += 1;
            }
        }
    };
    let up_to_2 = Judge.exhaustive_len(2, Limits::Original).unwrap();
    check(2, &mut (0..up_to_2));
    let up_to_3 = Judge.exhaustive_len(3, Limits::Original).unwrap();
    check(3, &mut (0..up_to_3).step_by(61));
    assert!(compared > 4096 + 8000, "compared {compared} cases");
}

/// A large file with one malformed case, or a token after the last: every thread count
/// reports the error the sequential parser finds first, and prints nothing.
#[test]
fn a_malformed_large_file_reports_its_first_error_for_every_thread_count() {
    let text = to_input(&cases(Family::Random, 8000, 4));
    let lines: Vec<&str> = text.lines().collect();
    let mut seen = 0;
    for (line, bad) in [(7000, "0"), (4500, "x"), (1, "100"), (8001, "1 2")] {
        let mut corrupt: Vec<String> = lines.iter().map(|&l| l.to_owned()).collect();
        if line < corrupt.len() {
            let mut tokens: Vec<&str> = corrupt[line].split(' ').collect();
            tokens[1] = bad;
            corrupt[line] = tokens.join(" ");
        } else {
            corrupt.push(bad.to_owned());
        }
        let bytes = (corrupt.join("\n") + "\n").into_bytes();
        let expected = engine::driver::parse_all(&hero_battle::InputFormat::SOLVER, &bytes)
            .expect_err("the file is malformed");
        for threads in [1, 2, 3, 8] {
            let driver = DriverOptions { threads: Some(threads), progress: false };
            let got = hero_battle::run(&bytes, &Options { driver, ..Options::default() });
            assert_eq!(got, Err(engine::RunError::Input(expected.clone())), "{threads} threads");
        }
        seen += 1;
    }
    assert_eq!(seen, 4);
}

/// The sample is canonical, and each of nine kinds of flaw made from it is rejected
/// with its place (the table `tests/data/validate-canonical.txt`).
#[test]
fn the_sample_is_canonical_and_each_flaw_is_named_with_its_place() {
    let read =
        tests::canonical::assert_table(&hero_battle::judge::Judge, env!("CARGO_MANIFEST_DIR"));
    assert_eq!(read, 1 + tests::canonical::KINDS.len());
}

/// Every sample is canonical, byte for byte.
#[test]
fn every_sample_is_canonical() {
    use judge::canonical::Strictness;
    use tests::canonical::validate_line;
    let judge = hero_battle::judge::Judge;
    let ok = |line: String| assert!(line.starts_with("ok: "), "{line}");
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problem");
    let mut read = 0;
    for entry in std::fs::read_dir(&samples).expect("the samples").flatten() {
        if entry.path().extension().is_some_and(|e| e == "in") {
            let bytes = std::fs::read(entry.path()).expect("the sample");
            ok(validate_line(&judge, &bytes, Strictness::Canonical));
            read += 1;
        }
    }
    assert!(read >= 1, "no sample in {}", samples.display());
}
