//! card-duel: the official samples on both solvers, the fast solver against the reference on
//! random positions for O = 3, 4 and 5 (and fewer for O = 1 and 20), small files' exact reach
//! against the full table on every generator family, explanations against the reference,
//! thread-count independence, and the snapshot suites.

use card_duel::generate::{self, Family};
use card_duel::reference::Reference;
use card_duel::rules::Action;
use card_duel::{Board, Options, Position, Reach, Solver, Tables};
use engine::driver::DriverOptions;
use engine::rng::SplitMix64;

fn run(bytes: &[u8], solver: Solver, threads: usize) -> String {
    let driver = DriverOptions { threads: Some(threads), progress: false };
    tests::render(card_duel::run(bytes, &Options { solver, driver, ..Options::default() }))
}

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
fn official_samples_pass_on_both_solvers() {
    let solvers = [(Solver::Fast, 2), (Solver::Reference, 1)];
    let checked = tests::assert_expected_outputs(
        env!("CARGO_MANIFEST_DIR"),
        &solvers,
        |input, (solver, threads)| run(input, solver, threads),
    );
    assert_eq!(checked, 2, "both official samples have an expected output");
}

/// A random position with HP in `1..=max_hp`, E holding at most `e_minions` minions, any
/// teacher board and hands.
fn random_position(rng: &mut SplitMix64, max_hp: u64, e_minions: u8) -> Position {
    let mut board = |most: u8| {
        let ones = rng.range(0, u64::from(most)) as u8;
        let twos = rng.range(0, u64::from(most - ones)) as u8;
        Board { ones, twos }
    };
    let (e_board, teacher_board) = (board(e_minions), board(4));
    Position {
        e_hp: rng.range(1, max_hp) as u8,
        teacher_hp: rng.range(1, max_hp) as u8,
        e_board,
        teacher_board,
        e_hand: rng.range(0, 3) as u8,
        teacher_hand: rng.range(0, 3) as u8,
    }
}

/// 1,060 random positions with small HP: half with any boards (E, moving first, mostly wins
/// those outright), half with at most one minion for E (mostly close games), and a few with
/// 1 to 3 HP for E against up to 8, where pings can kill either player first.
fn differential_positions(seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut positions: Vec<Position> = (0..1000)
        .map(|i| {
            if i % 2 == 0 {
                random_position(&mut rng, 5, 4)
            } else {
                random_position(&mut rng, 6, 1)
            }
        })
        .collect();
    positions.extend((0..60).map(|_| {
        let mut p = random_position(&mut rng, 3, 2);
        p.teacher_hp = rng.range(1, 8) as u8;
        p
    }));
    positions
}

#[test]
fn fast_matches_reference_on_random_positions() {
    for (ops, seed) in [(3u8, 31), (4, 41), (5, 51)] {
        let positions = differential_positions(seed);
        let fast = card_duel::solve(ops, &positions);
        let mut reference = Reference::new(ops);
        let mut close = 0;
        for (p, &f) in positions.iter().zip(&fast) {
            let r = reference.value(p);
            assert!((f - r).abs() <= 1e-9, "O = {ops}, {p:?}: fast {f}, reference {r}");
            close += usize::from(f > 0.0 && f < 1.0);
        }
        // The positions must exercise the game, not just its instant wins and losses.
        assert!(close >= 300, "O = {ops}: only {close} positions are neither won nor lost");
    }
}

#[test]
fn fast_matches_reference_beyond_the_original_o() {
    // The original uses O = 3..=5; the solvers accept 1..=20.
    for (ops, seed) in [(1u8, 11), (20, 201)] {
        let positions: Vec<Position> =
            differential_positions(seed).into_iter().step_by(5).collect();
        let fast = card_duel::solve(ops, &positions);
        let mut reference = Reference::new(ops);
        for (p, &f) in positions.iter().zip(&fast) {
            let r = reference.value(p);
            assert!((f - r).abs() <= 1e-9, "O = {ops}, {p:?}: fast {f}, reference {r}");
        }
    }
}

#[test]
fn tables_for_a_file_agree_with_tables_for_every_position() {
    let all = Tables::build(3, Reach::all());
    // A large file computes whole HP boxes; a small one only the cells it can reach.
    let positions = differential_positions(77);
    let file = card_duel::solve(3, &positions);
    for (p, f) in positions.iter().zip(file) {
        assert_eq!(all.value(p), Some(f), "{p:?}");
    }
    let mut seed = 78;
    for family in Family::ALL {
        let counts: &[usize] = if family == Family::Uniform {
            &[1, 1, 1, 1, 2, 5, Reach::EXACT_UP_TO]
        } else {
            &[1, 3]
        };
        for &count in counts {
            seed += 1;
            let few = generate::positions(family, count, seed);
            for (p, f) in few.iter().zip(card_duel::solve(3, &few)) {
                assert_eq!(all.value(p), Some(f), "{family:?}, {p:?}");
            }
        }
    }
    // Tables of a few positions keep those alone: a position below one of them, within the
    // HP box, has no value there.
    let few = [Position { e_hp: 9, teacher_hp: 7, ..positions[0] }];
    let tables = Tables::build(3, Reach::of(&few));
    assert_eq!(tables.value(&few[0]), all.value(&few[0]));
    assert_eq!(tables.value(&Position { e_hp: 8, ..few[0] }), None);
}

#[test]
fn explanations_match_the_reference() {
    let mut rng = SplitMix64::new(7);
    let positions: Vec<Position> =
        (0..150).map(|i| random_position(&mut rng, 6, if i % 2 == 0 { 4 } else { 1 })).collect();
    // All at once (whole HP boxes), and in files small enough for the exact reach, which
    // must still value every first action of a position a face attack wins at once.
    let at_once = card_duel::explain::explain(4, &positions);
    let in_small_files: Vec<_> = positions
        .chunks(Reach::EXACT_UP_TO - 2)
        .flat_map(|chunk| card_duel::explain::explain(4, chunk))
        .collect();
    assert_eq!(at_once, in_small_files);
    let won_at_once = positions
        .iter()
        .zip(&at_once)
        .filter(|(p, e)| p.teacher_hp <= 3 && !p.e_board.is_empty() && e.actions.len() > 2);
    assert!(won_at_once.count() >= 5);
    let mut reference = Reference::new(4);
    let mut seen_best = std::collections::HashSet::new();
    for (p, e) in positions.iter().zip(&at_once) {
        let expected = reference.first_actions(p);
        let actions: Vec<Action> = e.actions.iter().map(|a| a.0).collect();
        assert_eq!(actions, expected.iter().map(|a| a.0).collect::<Vec<_>>(), "{p:?}");
        for ((_, fast), (_, slow)) in e.actions.iter().zip(&expected) {
            assert!((fast - slow).abs() <= 1e-9, "{p:?}: {fast} vs {slow}");
        }
        assert!((e.value - reference.value(p)).abs() <= 1e-9);
        assert!(e.actions.iter().all(|&(_, v)| v <= e.value));
        // The tie-break: a face attack when E's minions kill this turn, else the first of
        // the best actions.
        let kills_at_once = p.teacher_hp <= 3 * p.e_board.len();
        let first_best = e.actions.iter().find(|&&(_, v)| v == e.value).map(|a| a.0);
        if kills_at_once && !p.e_board.is_empty() {
            assert!(matches!(e.best, Action::Face { .. }), "{p:?}: {e:?}");
        } else {
            assert_eq!(Some(e.best), first_best, "{p:?}");
        }
        seen_best.insert(std::mem::discriminant(&e.best));
    }
    assert!(seen_best.len() >= 3, "only {} kinds of best action seen", seen_best.len());
}

#[test]
fn output_is_identical_for_every_thread_count() {
    let positions: Vec<Position> = generate::positions(Family::Uniform, 3000, 99)
        .into_iter()
        .filter(|p| p.total_hp() <= 30)
        .collect();
    let text = card_duel::write_input(5, &positions);
    let one = run(text.as_bytes(), Solver::Fast, 1);
    assert_eq!(one.lines().count(), positions.len());
    assert_eq!(run(text.as_bytes(), Solver::Fast, 2), one);
    assert_eq!(run(text.as_bytes(), Solver::Fast, 3), one);
}

/// A file large enough to be parsed in chunks on several threads: the same bytes for every
/// thread count, and a malformed case gives the sequential parser's first error.
#[test]
fn large_files_read_alike_on_every_thread_count() {
    let text = generate::official_file(3, 20_000, 17);
    let one = run(text.as_bytes(), Solver::Fast, 1);
    assert_eq!(one.lines().count(), 20_000);
    for threads in [2, 3, 8] {
        assert_eq!(run(text.as_bytes(), Solver::Fast, threads), one, "{threads} threads");
    }
    // Corrupt the teacher's minion count of a late case, then E's HP of an early one.
    for (case, field, bad) in [(16_000, 2, "5"), (3_000, 0, "21")] {
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let line = 1 + 4 * case + field.min(1);
        let mut tokens: Vec<String> = lines[line].split(' ').map(str::to_owned).collect();
        tokens[if field == 2 { 0 } else { field }] = bad.to_owned();
        lines[line] = tokens.join(" ");
        let bytes = (lines.join("\n") + "\n").into_bytes();
        let expected = engine::driver::parse_all(&card_duel::InputFormat::SOLVER, &bytes)
            .expect_err("the file is malformed");
        for threads in [1, 2, 8] {
            let driver = DriverOptions { threads: Some(threads), progress: false };
            let got = card_duel::run(&bytes, &Options { driver, ..Options::default() });
            assert_eq!(got, Err(engine::RunError::Input(expected.clone())), "{threads} threads");
        }
    }
}

#[test]
fn snapshot_card_duel() {
    tests::snapshot_suite(env!("CARGO_MANIFEST_DIR"), |input, flags| {
        card_duel::run(input, &options(flags))
    });
}

/// The official sample is canonical, and each of nine kinds of flaw made from it is rejected
/// with its place (the table `tests/data/validate-canonical.txt`).
#[test]
fn the_sample_is_canonical_and_each_flaw_is_named_with_its_place() {
    let read =
        tests::canonical::assert_table(&card_duel::judge::Judge::new(), env!("CARGO_MANIFEST_DIR"));
    assert_eq!(read, 1 + tests::canonical::KINDS.len());
}

/// Every official sample is canonical, byte for byte.
#[test]
fn every_official_sample_is_canonical() {
    use judge::canonical::Strictness;
    use tests::canonical::validate_line;
    let judge = card_duel::judge::Judge::new();
    let ok = |line: String| assert!(line.starts_with("ok: "), "{line}");
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problem");
    let mut read = 0;
    for entry in std::fs::read_dir(&samples).expect("the official samples").flatten() {
        if entry.path().extension().is_some_and(|e| e == "in") {
            let bytes = std::fs::read(entry.path()).expect("the official sample");
            ok(validate_line(&judge, &bytes, Strictness::Canonical));
            read += 1;
        }
    }
    assert!(read >= 1, "no official sample in {}", samples.display());
    // The official files list a board's minions in any order.
    let shuffled = b"2 3\n1 1\n3 2 1 2\n0\n0 0\n4 5\n0\n4 2 2 1 1\n3 1\n";
    ok(validate_line(&judge, shuffled, Strictness::Canonical));
}
