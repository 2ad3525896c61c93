//! Generated cases with fixed seeds, for the tests, the benchmark and `cargo xtask gen`.

use engine::rng::SplitMix64;

use crate::rules::Case;

/// A family of generated cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Family {
    /// All twelve numbers uniform in 1..=99 (games of a few turns).
    Random,
    /// Hit points 90..=99, damage 1..=3: the longest games, the editorial's slow case.
    Hard,
    /// Hit points 1..=14, damage 1..=6: every kind of position, small enough for the
    /// reference solver.
    Small,
    /// Hit points 40..=99, damage 9..=60: large hit points the reference solver still handles.
    Large,
    /// One hero a side dies in a blow or two (hit points 1..=4 against damage 4..=30), the
    /// other lives long: games with one living hero a side.
    Lopsided,
}

impl Family {
    /// One case of the family: four hit points and eight damages drawn from the family's
    /// ranges.
    pub fn draw(self, rng: &mut SplitMix64) -> Case {
        let mut pick = |lo: u8, hi: u8| rng.range(u64::from(lo), u64::from(hi)) as u8;
        let (hp, dmg): ((u8, u8), (u8, u8)) = match self {
            Self::Random => ((1, 99), (1, 99)),
            Self::Hard => ((90, 99), (1, 3)),
            Self::Small => ((1, 14), (1, 6)),
            Self::Large => ((40, 99), (9, 60)),
            Self::Lopsided => ((15, 45), (4, 30)),
        };
        let mut case = Case {
            alice_hp: [pick(hp.0, hp.1), pick(hp.0, hp.1)],
            bob_hp: [pick(hp.0, hp.1), pick(hp.0, hp.1)],
            alice_damage: [
                [pick(dmg.0, dmg.1), pick(dmg.0, dmg.1)],
                [pick(dmg.0, dmg.1), pick(dmg.0, dmg.1)],
            ],
            bob_damage: [
                [pick(dmg.0, dmg.1), pick(dmg.0, dmg.1)],
                [pick(dmg.0, dmg.1), pick(dmg.0, dmg.1)],
            ],
        };
        if self == Self::Lopsided {
            let fragile_alice = usize::from(pick(0, 1));
            let fragile_bob = usize::from(pick(0, 1));
            case.alice_hp[fragile_alice] = pick(1, 4);
            case.bob_hp[fragile_bob] = pick(1, 4);
        }
        case
    }
}

/// `count` cases of `family` from `seed`.
#[must_use]
pub fn cases(family: Family, count: usize, seed: u64) -> Vec<Case> {
    let mut rng = SplitMix64::new(seed);
    (0..count).map(|_| family.draw(&mut rng)).collect()
}

/// Appends the judge's input for `cases`: `T`, then one line of twelve numbers per case.
/// `O(cases)`, without formatting machinery (the stress loop renders every input it runs).
pub fn write_input(cases: &[Case], out: &mut Vec<u8>) {
    out.extend_from_slice(cases.len().to_string().as_bytes());
    out.push(b'\n');
    for case in cases {
        for (k, v) in case.to_array().into_iter().enumerate() {
            if v >= 100 {
                out.push(b'0' + v / 100);
            }
            if v >= 10 {
                out.push(b'0' + v / 10 % 10);
            }
            out.push(b'0' + v % 10);
            out.push(if k == 11 { b'\n' } else { b' ' });
        }
    }
}

/// The judge's input for `cases`, as text.
#[must_use]
pub fn to_input(cases: &[Case]) -> String {
    let mut out = Vec::with_capacity(8 + cases.len() * 36);
    write_input(cases, &mut out);
    String::from_utf8(out).expect("digits, spaces and newlines are ASCII")
}
