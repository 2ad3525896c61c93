//! toy-train: the official sample, snapshots of every input under tests/data
//! (answers with strategies and the verifier's verdict, or the error line), and differential
//! tests: the decremental solver against the classic one and a brute force from the rules on
//! thousands of generated railways, with every answer checked by the independent verifier.

use engine::rng::SplitMix64;
use toy_train::decremental::{Budget, Repairs};
use toy_train::generator::{Family, GenParams, generate};
use toy_train::{Game, Options, Railway, Solution, Solver, brute, classic, decremental, verify};

/// The options a data file's flags ask for.
fn options(flags: &[String]) -> Options {
    let mut options = Options::default();
    for flag in flags {
        match flag.as_str() {
            "--strategy" => options.strategy = true,
            "--verify" => options.verify = true,
            "--dot" => options.dot = true,
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
            tests::render(toy_train::run(input, &Options { solver, ..Options::default() }))
        },
    );
}

#[test]
fn snapshot_toy_train() {
    tests::snapshot_suite(env!("CARGO_MANIFEST_DIR"), |input, flags| {
        toy_train::run(input, &options(flags))
    });
}

/// Every snapshot input, solved by both solvers and, when small, by the brute force: the
/// answers in the snapshots are the right ones, not merely the ones the code printed once.
#[test]
fn inputs_of_the_snapshots_are_solved_right_by_every_solver() {
    let mut solved = 0;
    for file in tests::suite(env!("CARGO_MANIFEST_DIR")) {
        let Ok(game) = toy_train::parse(&file.input) else { continue };
        let want = check_all(&game, &file.path.display().to_string());
        if let Ok(brute) = brute::winners(&game) {
            assert_eq!(want, brute, "{}", file.path.display());
        }
        solved += 1;
    }
    assert!(solved >= 10);
}

/// The decremental solver's settings the tests run: the default (all repairs, the default
/// budget); all repairs, none (plain delete and re-derive), lifts only and bumps only, all
/// without a budget; all repairs with no slack at all, so that rounds are abandoned half-way
/// through and rebuilt as often as possible; and lifts and bumps without sinking or a budget ([`NO_SINK_UNBOUNDED`]).
const SETTINGS: [Repairs; 7] = [
    Repairs { lift: true, bump: true, sink: true, budget: Budget::DEFAULT },
    Repairs { lift: true, bump: true, sink: true, budget: Budget::Unbounded },
    Repairs { lift: false, bump: false, sink: false, budget: Budget::Unbounded },
    Repairs { lift: true, bump: false, sink: true, budget: Budget::Unbounded },
    Repairs { lift: false, bump: true, sink: false, budget: Budget::Unbounded },
    Repairs { lift: true, bump: true, sink: true, budget: Budget::Slack { per_mille: 0 } },
    NO_SINK_UNBOUNDED,
];

/// Lifts and bumps, no sinking, no budget: the setting the adversarial families were found
/// against.
const NO_SINK_UNBOUNDED: Repairs =
    Repairs { lift: true, bump: true, sink: false, budget: Budget::Unbounded };

/// Solves `game` with both solvers (the decremental one with each of [`SETTINGS`]), verifies
/// every certificate, checks they all agree, and returns the answer with what the
/// decremental solver did under each setting.
fn solve_checked(game: &Game, what: &str) -> (Vec<bool>, [decremental::Stats; 7]) {
    let (classic, classic_work) = classic::solve_with_work(game);
    certify(game, &classic, &format!("classic, {what}"));
    let mut stats = [decremental::Stats::default(); 7];
    for (i, repairs) in SETTINGS.into_iter().enumerate() {
        let (fast, s) = decremental::solve_with(game, repairs);
        certify(game, &fast, &format!("decremental with {repairs:?}, {what}"));
        assert_eq!(fast.arezou_wins, classic.arezou_wins, "{repairs:?}: {what}");
        if let Budget::Slack { per_mille } = repairs.budget {
            assert_within_budget(&s, classic_work.0, per_mille, game, what);
        }
        stats[i] = s;
    }
    (classic.arezou_wins, stats)
}

/// The guarantee of a budgeted run: its work is at most `1 + per_mille / 1000` times its
/// yardstick, plus the initial credit `(n + m) / 4`, plus one step's worth of work (the step
/// that crosses the limit completes: at worst a lift, which reads a station's tracks both
/// ways and sinks down witness chains from each successor) and the final pass over the
/// stations; and the yardstick is at most the classic solver's work plus `n + m` (stations
/// of a trap are counted as if attracted once).
fn assert_within_budget(
    s: &decremental::Stats,
    classic_work: u64,
    per_mille: u32,
    game: &Game,
    what: &str,
) {
    let (n, m) = (game.n() as u64, game.m() as u64);
    let degree = game.stations().map(|v| game.pred(v).len() + game.succ(v).len()).max();
    let log = u64::from(u64::BITS - n.leading_zeros());
    let step = (degree.unwrap_or(0) as u64 + 1) * 10 + 8 + 2 * log + n;
    assert!(
        s.work <= s.yardstick + s.yardstick * u64::from(per_mille) / 1000 + (n + m) / 4 + step,
        "over budget: {s:?}, {what}"
    );
    assert!(s.yardstick <= classic_work + n + m, "yardstick {s:?} against {classic_work}: {what}");
}

/// [`solve_checked`], the answer only.
fn check_all(game: &Game, what: &str) -> Vec<bool> {
    solve_checked(game, what).0
}

fn certify(game: &Game, solution: &Solution, what: &str) {
    if let Err(e) = verify(game, solution) {
        panic!("{what}: the certificate does not verify: {e}");
    }
}

fn game_of(params: &GenParams) -> Game {
    let instance = generate(params).expect("the test's parameters are valid");
    instance.to_game().expect("generated railways are valid games")
}

/// Random railways of up to 8 stations with every mix of owners and chargers, against the
/// brute force that plays the rules out literally.
#[test]
fn both_solvers_agree_with_the_rules_on_thousands_of_tiny_railways() {
    let mut rng = SplitMix64::new(0x7011);
    let (mut mixed, mut multi_round, mut total) = (0, 0, 0);
    for case in 0..10_000u64 {
        let n = rng.range(1, 8) as usize;
        let m = rng.range(n as u64, (n * n).min(3 * n) as u64) as usize;
        let mut params = GenParams::new(Family::Random, n, case);
        params.m = Some(m);
        params.arezou_per_mille = Some(rng.range(0, 1000));
        params.charging_per_mille = Some(rng.range(0, 500));
        let game = game_of(&params);
        let want = brute::winners(&game).unwrap();
        let (got, [stats, ..]) = solve_checked(&game, &format!("{params:?}"));
        assert_eq!(got, want, "{params:?}");
        mixed += usize::from(want.contains(&true) && want.contains(&false));
        multi_round += usize::from(stats.rounds >= 2);
        total += 1;
    }
    assert_eq!(total, 10_000);
    assert!(
        mixed >= 1500 && multi_round >= 250,
        "too easy: {mixed} mixed, {multi_round} multi-round"
    );
}

/// Every family and several sizes, plain and with stations renamed: the decremental solver
/// (under every repair setting) against the classic one, with every certificate verified.
/// The paths of the algorithm must actually run: totals are checked at the end.
#[test]
fn fast_agrees_with_classic_on_every_family() {
    let mut totals = [decremental::Stats::default(); 7];
    let mut cases = 0;
    for (family, _) in Family::ALL {
        for n in [5, 15, 40, 150, 600] {
            if family == Family::Small && n > 15 {
                continue;
            }
            for seed in 0..12u64 {
                let mut params = GenParams::new(family, n, seed);
                params.shuffle = seed % 2 == 1;
                params.charging_per_mille = Some([20, 60, 150, 400][seed as usize % 4]);
                params.m = match seed % 3 {
                    0 => None,
                    1 => Some(n + n / 2),
                    _ => Some((3 * n).min(n * n)),
                }
                .filter(|_| {
                    !matches!(
                        family,
                        Family::Staircase | Family::Line | Family::Cascade | Family::Detour
                    )
                });
                let Ok(instance) = generate(&params) else {
                    // A found family needs room for the ground and one copy of its gadget.
                    assert!(n < 15 && family.gadget().is_some(), "{params:?}");
                    continue;
                };
                let game = instance.to_game().expect("generated railways are valid games");
                let (_, stats) = solve_checked(&game, &format!("{params:?}"));
                for (total, s) in totals.iter_mut().zip(stats) {
                    add(total, s);
                }
                cases += 1;
            }
        }
    }
    assert!(cases >= 400);
    let [default, all, none, lift_only, bump_only, tight, old] = totals;
    assert!(all.sunk >= 100 && old.sunk == 0 && old.lifted >= 100, "{all:?} {old:?}");
    assert!(default.rounds >= 2000 && default.rebuilt >= 10, "{default:?}");
    assert!(tight.rebuilt >= 500, "{tight:?}");
    assert!(all.rounds >= 2000 && all.repaired >= 100, "{all:?}");
    assert!(all.lifted >= 100 && all.bumped >= 50 && all.moved >= 1000, "{all:?}");
    assert!(none.failed >= 2000 && none.reattracted >= 500, "{none:?}");
    assert!(none.lifted == 0 && none.bumped == 0, "{none:?}");
    assert!(lift_only.lifted >= 100 && lift_only.bumped == 0, "{lift_only:?}");
    assert!(bump_only.bumped >= 100 && bump_only.lifted == 0, "{bump_only:?}");
}

fn add(total: &mut decremental::Stats, s: decremental::Stats) {
    total.rounds += s.rounds;
    total.repaired += s.repaired;
    total.lifted += s.lifted;
    total.bumped += s.bumped;
    total.sunk += s.sunk;
    total.called_off += s.called_off;
    total.moved += s.moved;
    total.failed += s.failed;
    total.reattracted += s.reattracted;
    total.rebuilt += s.rebuilt;
    total.renumbered += s.renumbered;
    total.projected += s.projected;
    total.work += s.work;
}

/// The adversarial families are what they claim: the decremental solver with lifts and bumps
/// alone ([`NO_SINK_UNBOUNDED`]: no sinking, no budget) does more than the classic solver's
/// work on each,
/// several times more on those found against it, while the default stays within its budget
/// of the classic solver's work (checked by [`solve_checked`]), answers the same, and does far
/// less, but on the two families where the classic solver is linear (`burst`; `relay`, where
/// the budget gives up part way) and on `undertow`, where it rebuilds every round.
#[test]
fn adversarial_families_defeat_only_the_old_solver() {
    for (family, at_least, at_most) in [
        (Family::StarDetour, 3.0, 0.5),
        (Family::Avalanche, 8.0, 0.5),
        (Family::AvalancheDeep, 10.0, 0.5),
        (Family::Recoil, 3.0, 0.5),
        (Family::Burst, 5.0, 1.1),
        (Family::Reroute, 1.2, 0.5),
        (Family::Relay, 0.9, 1.05),
        (Family::Undertow, 1.2, 1.07),
    ] {
        let game = game_of(&GenParams::new(family, 2000, 0));
        let (_, [default, .., old]) = solve_checked(&game, &format!("{family} 2000"));
        if family == Family::Relay {
            // The repairs' cost so far, extrapolated, gives the round up early.
            assert!(default.projected == 1 && default.rebuilt == 1, "{default:?}");
        }
        let classic = classic::solve_with_work(&game).1.0 as f64;
        let (old, default) = (old.work as f64 / classic, default.work as f64 / classic);
        assert!(old >= at_least, "{family}: the old solver's work is {old} times classic's");
        assert!(default <= at_most, "{family}: the default's work is {default} times classic's");
    }
}

/// Every family at the sizes the brute force takes, against it.
#[test]
fn every_family_agrees_with_the_rules_where_the_brute_force_reaches() {
    let mut checked = 0;
    for (family, _) in Family::ALL {
        for n in 5..=brute::BRUTE_MAX_STATIONS {
            for seed in 0..3 {
                let mut params = GenParams::new(family, n, seed);
                params.shuffle = seed == 2;
                let Ok(instance) = generate(&params) else { continue };
                let game = instance.to_game().expect("generated railways are valid games");
                let want = brute::winners(&game).expect("small enough");
                assert_eq!(check_all(&game, &format!("{params:?}")), want, "{params:?}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 200, "{checked}");
}

/// Denser, larger random railways with few chargers, where rounds cascade.
#[test]
fn fast_agrees_with_classic_on_larger_random_railways() {
    let mut rng = SplitMix64::new(0xb16);
    for seed in 0..60u64 {
        let n = rng.range(200, 3000) as usize;
        let mut params = GenParams::new(Family::Random, n, seed);
        params.m = Some(rng.range(n as u64, 6 * n as u64) as usize);
        params.arezou_per_mille = Some(rng.range(200, 800));
        params.charging_per_mille = Some(rng.range(1, 60));
        params.shuffle = true;
        check_all(&game_of(&params), &format!("{params:?}"));
    }
    let mut params = GenParams::new(Family::Random, 200_000, 9);
    params.m = Some(800_000);
    params.charging_per_mille = Some(30);
    check_all(&game_of(&params), "200,000 stations");
}

/// The staircase: Borzou wins on the steps (each round peels one), Arezou on the block; the
/// cascades: Borzou wins everywhere, after a round per step.
#[test]
fn staircase_and_cascade_have_the_known_answers() {
    for n in [3, 10, 101, 2000] {
        let game = game_of(&GenParams::new(Family::Staircase, n, 0));
        let (wins, [stats, ..]) = solve_checked(&game, &format!("staircase {n}"));
        let steps = (n - 1 - (n / 10).max(1)) / 2;
        for (v, &w) in wins.iter().enumerate() {
            assert_eq!(w, v > 2 * steps, "staircase {n}, station {v}");
        }
        assert!(stats.rounds >= steps);
    }
    for family in [Family::Cascade, Family::Detour] {
        for n in [5, 60, 1200] {
            let game = game_of(&GenParams::new(family, n, 0));
            let (wins, [_, all, none, lift_only, _, _, old]) =
                solve_checked(&game, &format!("{family} {n}"));
            assert!(wins.iter().all(|&w| !w), "{family} {n}");
            // Without repairs, the chain and the tail are re-derived every round. The plain
            // cascade is all lifts; the detour defeats lifts without sinking, but not bumps,
            // and with sinking lifts handle it too.
            if n == 1200 {
                assert!(none.failed >= 10_000, "{none:?}");
                match family {
                    Family::Cascade => assert!(all.lifted >= 150 && all.failed < 1000),
                    _ => {
                        assert!(old.bumped >= 50 && old.lifted == 0 && old.failed < 1000);
                        assert!(lift_only.lifted >= 50 && lift_only.sunk >= 100);
                        assert!(all.work * 10 <= all.yardstick, "{all:?}");
                    }
                }
            }
        }
    }
}

/// A railway without charging stations is valid, and Borzou wins everywhere.
#[test]
fn no_charger_means_borzou_wins_everywhere() {
    for seed in 0..20 {
        let mut params = GenParams::new(Family::Random, 50, seed);
        params.charging_per_mille = Some(0);
        let game = game_of(&params);
        assert!(check_all(&game, "no chargers").iter().all(|&w| !w));
    }
}

/// The verifier is not a rubber stamp: flipping any single answer bit of a correct solution
/// must be rejected (a wrong answer has no certificate, whatever the strategies), and so must
/// a strategy entry that is not a track or leaves the winner's region.
#[test]
fn the_verifier_rejects_every_single_wrong_answer() {
    for seed in 0..200u64 {
        let mut params = GenParams::new(Family::Random, 12, seed);
        params.m = Some(24);
        params.charging_per_mille = Some(150);
        let game = game_of(&params);
        let good = decremental::solve(&game);
        certify(&game, &good, "unchanged");
        let wins = &good.arezou_wins;
        for s in game.stations() {
            let i = s as usize;
            let mut bad = good.clone();
            bad.arezou_wins[i] = !wins[i];
            assert!(verify(&game, &bad).is_err(), "flipped station {s}: {params:?}");
            if game.arezou(s) == wins[i] {
                for &t in game.succ(s).iter().filter(|&&t| wins[t as usize] != wins[i]) {
                    let mut bad = good.clone();
                    bad.strategy[i] = t;
                    assert!(verify(&game, &bad).is_err(), "{s} -> {t} leaves the region");
                }
            }
            if let Some(t) = game.stations().find(|t| !game.succ(s).contains(t)) {
                let mut bad = good.clone();
                bad.strategy[i] = t;
                assert!(verify(&game, &bad).is_err(), "{s} -> {t} is no track");
            }
        }
    }
}

/// The verifier against the rules: with each player's strategy fixed as switches set in
/// advance, the brute force says whether it wins from every station of its region; the
/// verifier must accept exactly the strategies that do. Strategies are the solvers' with
/// random entries changed, so both verdicts occur often.
#[test]
fn the_verifier_accepts_exactly_the_winning_strategies() {
    let mut rng = SplitMix64::new(0x5eaf);
    let (mut accepted, mut rejected) = (0, 0);
    for case in 0..1500u64 {
        let n = rng.range(2, 7) as usize;
        let mut params = GenParams::new(Family::Random, n, case);
        params.m = Some(rng.range(n as u64, (2 * n) as u64) as usize);
        params.arezou_per_mille = Some(rng.range(200, 800));
        params.charging_per_mille = Some(rng.range(100, 500));
        let game = game_of(&params);
        let mut solution = decremental::solve(&game);
        for s in game.stations() {
            if rng.chance(1, 2) {
                let succ = game.succ(s);
                solution.strategy[s as usize] = succ[rng.below(succ.len())];
            }
        }
        let wins = &solution.arezou_wins;
        // Each player's switches fixed where they own a station of their own region.
        let fixed = |arezou: bool| -> Vec<Option<u32>> {
            game.stations()
                .map(|s| {
                    let mine = game.arezou(s) == arezou && wins[s as usize] == arezou;
                    mine.then_some(solution.strategy[s as usize])
                })
                .collect()
        };
        let a = brute::winners_with_switches(&game, &fixed(true)).unwrap();
        let b = brute::winners_with_switches(&game, &fixed(false)).unwrap();
        let both_win = game.stations().all(|s| {
            let i = s as usize;
            if wins[i] { a[i] } else { !b[i] }
        });
        assert_eq!(verify(&game, &solution).is_ok(), both_win, "{params:?} {solution:?}");
        if both_win {
            accepted += 1;
        } else {
            rejected += 1;
        }
    }
    assert!(accepted >= 200 && rejected >= 200, "{accepted} accepted, {rejected} rejected");
}

/// The generators: the same seed gives the same bytes, every file parses back to the same
/// game, the subtask shapes hold, and no random family repeats a track.
#[test]
fn generators_are_reproducible_and_keep_their_shapes() {
    for (family, name) in Family::ALL {
        for seed in 0..5 {
            let mut params = GenParams::new(family, 15, seed);
            params.shuffle = seed == 4;
            let inst = generate(&params).unwrap();
            assert_eq!(generate(&params).unwrap(), inst, "{name} is not reproducible");
            let text = inst.to_text();
            assert_eq!(toy_train::parse(&text).unwrap(), inst.to_game().unwrap(), "{name}");
            if !params.shuffle {
                check_shape(family, &inst);
            }
        }
    }
    assert!(generate(&GenParams::new(Family::Small, 16, 0)).is_err());
    let mut params = GenParams::new(Family::Random, 4, 0);
    params.m = Some(17);
    assert!(generate(&params).is_err(), "more tracks than n² without repeats");
}

fn check_shape(family: Family, inst: &Railway) {
    let n = inst.arezou.len();
    let chargers = inst.charging.iter().filter(|&&c| c).count();
    match family {
        Family::Line => assert!(inst.tracks.iter().all(|&(u, v)| v == u || v == u + 1)),
        Family::Small => assert!(n <= 15),
        Family::Arezou => assert!(inst.arezou.iter().all(|&a| a)),
        Family::Borzou => assert!(inst.arezou.iter().all(|&a| !a)),
        Family::OneCharger => assert_eq!(chargers, 1),
        Family::Random
        | Family::Staircase
        | Family::Cascade
        | Family::Detour
        | Family::StarDetour => {
            assert!(chargers >= 1);
        }
        Family::Avalanche
        | Family::AvalancheDeep
        | Family::Recoil
        | Family::Burst
        | Family::Reroute
        | Family::Relay
        | Family::Undertow => {
            let gadget = family.gadget().expect("a found family has a gadget");
            let want = gadget.chain_of_size(n).expect("the generator made one");
            assert_eq!(*inst, want, "{family}");
        }
    }
    let mut tracks = inst.tracks.clone();
    tracks.sort_unstable();
    tracks.dedup();
    assert_eq!(tracks.len(), inst.tracks.len(), "{family} repeats a track");
}

/// The official sample is canonical, and each of nine kinds of flaw made from it is rejected
/// with its place (the table `tests/data/validate-canonical.txt`).
#[test]
fn the_sample_is_canonical_and_each_flaw_is_named_with_its_place() {
    let read = tests::canonical::assert_table(&toy_train::judge::Judge, env!("CARGO_MANIFEST_DIR"));
    assert_eq!(read, 1 + tests::canonical::KINDS.len());
}

/// Every official sample is canonical, byte for byte.
#[test]
fn every_official_sample_is_canonical() {
    use judge::canonical::Strictness;
    use tests::canonical::validate_line;
    let judge = toy_train::judge::Judge;
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
}
