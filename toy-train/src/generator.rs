//! Reproducible input generators: random railways, the six subtask shapes of the original,
//! the staircase that makes repeated attractors take one round a step (about `n / 2.2`
//! rounds, a tenth of the stations forming the charging block), the cascades built
//! on it against the decremental solver's repairs, and the adversarial families: the star
//! detour, built by hand, and seven found by `cargo xtask adversary toy-train` (built from
//! their gadgets in module `gadget::found`). A seed fixes the output forever (the generator
//! is [`engine::rng::SplitMix64`]).

use std::fmt;
use std::str::FromStr;

use engine::rng::SplitMix64;

use crate::game::{MAX_STATIONS, MAX_TRACKS};
use crate::railway::Railway;

/// The shapes the generators know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Subtask 6 (no further limits): random owners, chargers and distinct tracks.
    Random,
    /// Subtask 1: every track goes from `u` to `u` or `u + 1`.
    Line,
    /// Subtask 2: a random railway with at most 15 stations.
    Small,
    /// Subtask 3: Arezou owns every station.
    Arezou,
    /// Subtask 4: Borzou owns every station.
    Borzou,
    /// Subtask 5: exactly one charging station.
    OneCharger,
    /// The problem page's staircase plus a dense block of Arezou-owned charging stations:
    /// repeated attractors need about `n / 2.2` rounds.
    Staircase,
    /// A staircase with a chain `y_1 → y_2 → …` of Arezou stations (each also leading to its
    /// step's charger) and a long tail hanging off `y_1`: every round the chain's head loses
    /// its charger and must switch to the next link. Without lifts (see module
    /// `decremental`) the whole chain and tail would be re-derived every round.
    Cascade,
    /// The cascade with each link `y_i → y_(i+1)` made a detour of three tracks
    /// `y_i → p_i → q_i → y_(i+1)`: the next link now ranks above what depends on the head,
    /// so the head cannot be lifted and every round's bump moves the chain behind it,
    /// `Θ(n²)` work for the decremental solver, though far less than the classic solver's.
    Detour,
    /// The detour with its tail made a star, every `t_j → y_1`: a path's stations are ranked
    /// in breadth-first layers and stay above the chain once moved, but a star's all rank
    /// just above `y_1`, so every round's bump (see module `decremental`) must move the
    /// whole star again, `Θ(n)` heap operations a round. Built by hand, against the bumps:
    /// the decremental solver without its budget does five times the classic solver's work
    /// on it at 16,000 stations.
    StarDetour,
    /// Found by the adversarial search: two hub stations every copy may move to, whose
    /// justifications run through a chain across the copies (see
    /// `gadget::found::avalanche`).
    Avalanche,
    /// Found by the adversarial search: the worst it found against the unbudgeted solver
    /// (`gadget::found::avalanche_deep`).
    AvalancheDeep,
    /// Found by the adversarial search: bumps that explore the chain above them and are
    /// called off (`gadget::found::recoil`).
    Recoil,
    /// Found by the adversarial search: two rounds, the second failing most of the railway
    /// at once (`gadget::found::burst`).
    Burst,
    /// Found by the adversarial search against the default solver itself: a successor must
    /// change its witness before it can serve (`gadget::found::reroute`).
    Reroute,
    /// Found by the adversarial search against the default solver: one round in which a
    /// whole chain must relay to its next link (`gadget::found::relay`).
    Relay,
    /// Found by the adversarial search against the default solver: rounds whose repairs
    /// cost less than a rebuild but more than the budget's slack
    /// (`gadget::found::undertow`).
    Undertow,
}

impl Family {
    /// Every family with its command-line name.
    pub const ALL: [(Self, &'static str); 17] = [
        (Self::Random, "random"),
        (Self::Line, "line"),
        (Self::Small, "small"),
        (Self::Arezou, "arezou"),
        (Self::Borzou, "borzou"),
        (Self::OneCharger, "one-charger"),
        (Self::Staircase, "staircase"),
        (Self::Cascade, "cascade"),
        (Self::Detour, "detour"),
        (Self::StarDetour, "star-detour"),
        (Self::Avalanche, "avalanche"),
        (Self::AvalancheDeep, "avalanche-deep"),
        (Self::Recoil, "recoil"),
        (Self::Burst, "burst"),
        (Self::Reroute, "reroute"),
        (Self::Relay, "relay"),
        (Self::Undertow, "undertow"),
    ];

    /// The families found by the adversarial search, with their gadgets.
    #[must_use]
    pub fn gadget(self) -> Option<crate::gadget::Gadget> {
        use crate::gadget::found;
        match self {
            Self::Avalanche => Some(found::avalanche()),
            Self::AvalancheDeep => Some(found::avalanche_deep()),
            Self::Recoil => Some(found::recoil()),
            Self::Burst => Some(found::burst()),
            Self::Reroute => Some(found::reroute()),
            Self::Relay => Some(found::relay()),
            Self::Undertow => Some(found::undertow()),
            _ => None,
        }
    }

    /// The command-line name.
    #[must_use]
    pub fn name(self) -> &'static str {
        let (_, name) = Self::ALL.iter().find(|(f, _)| *f == self).expect("every family is in ALL");
        name
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Family {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL.iter().find(|(_, name)| *name == s).map(|(f, _)| *f).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|(_, n)| *n).collect();
            format!("unknown family {s:?}; expected one of {}", names.join(", "))
        })
    }
}

/// What to generate (with the `cli` feature, also the arguments of `cargo xtask gen toy-train`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct GenParams {
    /// The shape: random, line, small, arezou, borzou, one-charger (the six subtasks, random
    /// standing for the last), staircase, cascade, detour, or the adversarial families
    /// star-detour, avalanche, avalanche-deep, recoil, burst, reroute, relay and undertow.
    #[cfg_attr(feature = "cli", arg(value_parser = <Family as FromStr>::from_str))]
    pub family: Family,
    /// Number of stations.
    #[cfg_attr(feature = "cli", arg(long, short = 'n', default_value_t = 10))]
    pub n: usize,
    /// Number of tracks; `None` picks the family's default (`4n`, at most `n²`, for the
    /// random shapes). `line`, the cascades and the adversarial families ignore it: their
    /// shape fixes `m`.
    #[cfg_attr(feature = "cli", arg(long, short = 'm'))]
    pub m: Option<usize>,
    /// The seed; the same parameters give the same instance forever.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1))]
    pub seed: u64,
    /// Chance per mille that Arezou owns a station (random shapes; default 500).
    #[cfg_attr(feature = "cli", arg(long))]
    pub arezou_per_mille: Option<u64>,
    /// Chance per mille that a station charges (random shapes; default 100). With a positive
    /// chance at least one station charges, as the original requires.
    #[cfg_attr(feature = "cli", arg(long))]
    pub charging_per_mille: Option<u64>,
    /// Rename the stations at random and shuffle the tracks.
    #[cfg_attr(feature = "cli", arg(long))]
    pub shuffle: bool,
}

impl GenParams {
    /// Parameters with every option at its default.
    #[must_use]
    pub fn new(family: Family, n: usize, seed: u64) -> Self {
        Self {
            family,
            n,
            m: None,
            seed,
            arezou_per_mille: None,
            charging_per_mille: None,
            shuffle: false,
        }
    }
}

/// Parameters no instance satisfies.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot generate {family} with n = {n}{}: {reason}", .m.map(|m| format!(", m = {m}")).unwrap_or_default())]
pub struct GenError {
    family: Family,
    n: usize,
    m: Option<usize>,
    reason: String,
}

/// Generates an instance. `O(n + m)` time and space (the staircase's block too).
///
/// # Errors
/// Sizes no instance of the family has (for example `m < n`, `m > n²`, `small` with more than
/// 15 stations, a staircase with fewer than 3 stations).
pub fn generate(params: &GenParams) -> Result<Railway, GenError> {
    let fail = |reason: &str| GenError {
        family: params.family,
        n: params.n,
        m: params.m,
        reason: reason.to_owned(),
    };
    let n = params.n;
    if n == 0 || n as u64 > MAX_STATIONS {
        return Err(fail(&format!("n must be in 1..={MAX_STATIONS}")));
    }
    let mut rng = SplitMix64::new(params.seed);
    let per_mille = |x: Option<u64>, default| x.unwrap_or(default).min(1000);
    let (arezou_pm, charging_pm) =
        (per_mille(params.arezou_per_mille, 500), per_mille(params.charging_per_mille, 100));
    let instance = match params.family {
        Family::Random | Family::Small | Family::Arezou | Family::Borzou | Family::OneCharger => {
            if params.family == Family::Small && n > 15 {
                return Err(fail("small has at most 15 stations"));
            }
            let square = (n as u64).saturating_mul(n as u64).min(MAX_TRACKS) as usize;
            let m = params.m.unwrap_or((4 * n).min(square));
            if m < n || m > square {
                return Err(fail(
                    "m must be in n..=n² (one track out of every station, no repeats)",
                ));
            }
            let tracks = random_tracks(&mut rng, n, m);
            let arezou_pm = match params.family {
                Family::Arezou => 1000,
                Family::Borzou => 0,
                _ => arezou_pm,
            };
            let arezou = (0..n).map(|_| rng.chance(arezou_pm, 1000)).collect();
            let charging = if params.family == Family::OneCharger {
                let one = rng.below(n);
                (0..n).map(|i| i == one).collect()
            } else {
                random_chargers(&mut rng, n, charging_pm)
            };
            Railway { arezou, charging, tracks }
        }
        Family::Line => line(&mut rng, n, arezou_pm, charging_pm),
        Family::Staircase => staircase(n, params.m).map_err(|r| fail(&r))?,
        Family::Cascade => cascade(n, 1, TailShape::Path).map_err(|r| fail(&r))?,
        Family::Detour => cascade(n, 3, TailShape::Path).map_err(|r| fail(&r))?,
        Family::StarDetour => cascade(n, 3, TailShape::Star).map_err(|r| fail(&r))?,
        Family::Avalanche
        | Family::AvalancheDeep
        | Family::Recoil
        | Family::Burst
        | Family::Reroute
        | Family::Relay
        | Family::Undertow => {
            let gadget = params.family.gadget().expect("a found family has a gadget");
            gadget.chain_of_size(n).map_err(|r| fail(&r))?
        }
    };
    Ok(if params.shuffle { instance.shuffled(&mut rng) } else { instance })
}

/// Charger flags with the given chance, at least one when the chance is positive.
fn random_chargers(rng: &mut SplitMix64, n: usize, per_mille: u64) -> Vec<bool> {
    let mut charging: Vec<bool> = (0..n).map(|_| rng.chance(per_mille, 1000)).collect();
    if per_mille > 0 && !charging.contains(&true) {
        charging[rng.below(n)] = true;
    }
    charging
}

/// `m` distinct tracks, at least one out of every station: out-degrees are one plus a
/// uniform share of the rest, and each station's heads are distinct, drawn with an
/// epoch-stamped "seen" array (or by drawing the heads to leave out, for very dense rows).
fn random_tracks(rng: &mut SplitMix64, n: usize, m: usize) -> Vec<(u32, u32)> {
    let mut degree = vec![1usize; n];
    for _ in n..m {
        loop {
            let u = rng.below(n);
            if degree[u] < n {
                degree[u] += 1;
                break;
            }
        }
    }
    let mut seen = vec![0u32; n];
    let mut tracks = Vec::with_capacity(m);
    for (u, &d) in degree.iter().enumerate() {
        let stamp = u as u32 + 1;
        let (count, mark_means_take) = if 2 * d <= n { (d, true) } else { (n - d, false) };
        let mut picked = 0;
        let mut heads = Vec::with_capacity(count);
        while picked < count {
            let v = rng.below(n);
            if seen[v] != stamp {
                seen[v] = stamp;
                heads.push(v as u32);
                picked += 1;
            }
        }
        if !mark_means_take {
            heads = (0..n as u32).filter(|&v| seen[v as usize] != stamp).collect();
        }
        tracks.extend(heads.into_iter().map(|v| (u as u32, v)));
    }
    tracks
}

/// Subtask 1: station `u` has a self-loop, a track to `u + 1`, or both (the last station
/// only its self-loop).
fn line(rng: &mut SplitMix64, n: usize, arezou_pm: u64, charging_pm: u64) -> Railway {
    let mut tracks = Vec::with_capacity(2 * n);
    for u in 0..n as u32 {
        let kind = if u as usize + 1 == n { 0 } else { rng.below(3) };
        if kind != 1 {
            tracks.push((u, u));
        }
        if kind != 0 {
            tracks.push((u, u + 1));
        }
    }
    let arezou = (0..n).map(|_| rng.chance(arezou_pm, 1000)).collect();
    let charging = random_chargers(rng, n, charging_pm);
    Railway { arezou, charging, tracks }
}

/// The staircase: `x_0..x_k` owned by Arezou, each with a self-loop (`x_0`'s only track),
/// chargers `c_1..c_k` owned by Borzou, tracks `x_j → c_j` and `c_j → x_(j-1)`, then a block
/// of `b ≈ n / 10` Arezou-owned charging stations, station `i` of the block leading to the
/// next `d_i` stations of the block (cyclically) to make up `m` (default about `4n`).
/// Stations are numbered `x_0..x_k`, `c_1..c_k`, then the block.
fn staircase(n: usize, m: Option<usize>) -> Result<Railway, String> {
    if n < 3 {
        return Err("a staircase needs at least 3 stations".into());
    }
    let mut b = (n / 10).max(1);
    let k = (n - 1 - b) / 2;
    b = n - 1 - 2 * k;
    let fixed = 3 * k + 1;
    let block_tracks = match m {
        Some(m) if m < fixed + b || m - fixed > b * b => {
            return Err(format!(
                "with {k} steps and a block of {b}, m must be in {}..={}",
                fixed + b,
                fixed + b * b
            ));
        }
        Some(m) => m - fixed,
        None => (4 * n).saturating_sub(fixed).clamp(b, b * b),
    };
    let x = |j: usize| j as u32;
    let mut arezou = vec![true; n];
    let mut charging = vec![false; n];
    let mut tracks = Vec::with_capacity(fixed + block_tracks);
    tracks.push((x(0), x(0)));
    for j in 1..=k {
        push_step(j, k, &mut tracks, &mut arezou, &mut charging);
    }
    let first = 2 * k + 1;
    for i in 0..b {
        charging[first + i] = true;
        let d = block_tracks / b + usize::from(i < block_tracks % b);
        for step in 1..=d {
            tracks.push(((first + i) as u32, (first + (i + step) % b) as u32));
        }
    }
    Ok(Railway { arezou, charging, tracks })
}

/// Step `j` of a staircase of `k` steps (stations `x_j = j`, `c_j = k + j`): the self-loop
/// `x_j → x_j`, `x_j → c_j` and `c_j → x_(j-1)`, with `c_j` a Borzou-owned charger.
fn push_step(
    j: usize,
    k: usize,
    tracks: &mut Vec<(u32, u32)>,
    arezou: &mut [bool],
    charging: &mut [bool],
) {
    let (x, c) = (j as u32, (k + j) as u32);
    tracks.push((x, x));
    tracks.push((x, c));
    tracks.push((c, x - 1));
    arezou[c as usize] = false;
    charging[c as usize] = true;
}

/// How the Borzou stations `t_1..t_s` of a cascade hang off its first link `y_1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TailShape {
    /// A path: `t_1 → y_1` and `t_j → t_(j-1)`.
    Path,
    /// A star: `t_j → y_1` for every `j`.
    Star,
}

/// The cascade: a staircase of `k` steps (numbered as in [`staircase`]), Arezou stations
/// `y_1..y_k` with tracks `y_i → c_i` and a link from `y_i` to `y_(i+1)`, and a tail
/// `t_1..t_s` of Borzou stations leading to `y_1`, as a path or a star. A link is one track
/// (`link = 1`, `k ≈ n / 6`) or a detour `y_i → p_i → q_i → y_(i+1)` through two more Arezou
/// stations (`link = 3`, `k ≈ n / 14`). In round `i` the charger `c_i` goes and `y_i` must
/// switch to its link, and so must everything that leads through it.
fn cascade(n: usize, link: usize, tail: TailShape) -> Result<Railway, String> {
    if n < 5 {
        return Err("a cascade needs at least 5 stations".into());
    }
    let per_step = 3 + 2 * (link - 1); // x, c and y, plus the detour's stations
    let k = (n / (2 * per_step)).max(1);
    let detours = (link - 1) * (k - 1);
    let s = n - 3 * k - 1 - detours;
    let x = |j: usize| j as u32;
    let c = |j: usize| (k + j) as u32;
    let y = |j: usize| (2 * k + j) as u32;
    let d = |j: usize, h: usize| (3 * k + 1 + (link - 1) * (j - 1) + h) as u32;
    let t = |j: usize| (3 * k + detours + j) as u32;
    let mut arezou = vec![true; n];
    let mut charging = vec![false; n];
    let mut tracks = Vec::with_capacity(n + 3 * k);
    tracks.push((x(0), x(0)));
    for j in 1..=k {
        push_step(j, k, &mut tracks, &mut arezou, &mut charging);
        tracks.push((y(j), c(j)));
        if j < k {
            let mut from = y(j);
            for h in 0..link - 1 {
                tracks.push((from, d(j, h)));
                from = d(j, h);
            }
            tracks.push((from, y(j + 1)));
        }
    }
    for j in 1..=s {
        arezou[t(j) as usize] = false;
        let to = if j == 1 || tail == TailShape::Star { y(1) } else { t(j - 1) };
        tracks.push((t(j), to));
    }
    Ok(Railway { arezou, charging, tracks })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_names_round_trip() {
        for (family, name) in Family::ALL {
            assert_eq!(name.parse::<Family>(), Ok(family));
            assert_eq!(family.to_string(), name);
        }
        assert!("stairs".parse::<Family>().is_err());
    }

    #[test]
    fn random_tracks_are_distinct_and_cover_every_station() {
        let mut rng = SplitMix64::new(3);
        for (n, m) in [(1, 1), (5, 25), (7, 30), (50, 200)] {
            let mut tracks = random_tracks(&mut rng, n, m);
            assert_eq!(tracks.len(), m);
            assert!((0..n as u32).all(|u| tracks.iter().any(|t| t.0 == u)));
            tracks.sort_unstable();
            tracks.dedup();
            assert_eq!(tracks.len(), m, "repeated tracks for n = {n}, m = {m}");
        }
    }

    #[test]
    fn staircase_sizes_match() {
        let inst = staircase(1000, None).unwrap();
        assert_eq!((inst.arezou.len(), inst.tracks.len()), (1000, 4000));
        assert!(staircase(100, Some(50)).is_err());
        for n in [5, 10, 30, 301] {
            for (link, tail) in [(1, TailShape::Path), (3, TailShape::Path), (3, TailShape::Star)] {
                assert_eq!(cascade(n, link, tail).unwrap().arezou.len(), n);
            }
        }
    }
}
