//! `cargo xtask adversary toy-train`: a search for railways on which a solver does much more
//! work than the classic repeated attractors, measured by the solvers' deterministic work
//! counters (`toy_train::work`), never by wall time.
//!
//! Two kinds of candidates are searched, by simulated annealing with restarts:
//!
//! - `free`: a small railway (tens of stations), mutated one owner, charger, track, track
//!   order or station name at a time;
//! - `chain`: a gadget of a few stations, repeated many times, each copy wired to the one
//!   before it (and to a ground of two stations) by the gadget's tracks, with an optional
//!   tail of Borzou stations hanging off the last copy. Staircases, cascades and detours are
//!   all of this shape, and a gadget that scores well at two sizes is a family that scales:
//!   the score is the work ratio at the larger size, provided it grows from the smaller one.
//!
//! The best candidate is printed (owners, chargers, tracks) and written in the input format,
//! so that it can be generalised by hand into a generator family.

use std::fmt::Write as _;
use std::path::PathBuf;

use engine::rng::SplitMix64;
use toy_train::decremental::{self, Budget, Repairs};
use toy_train::gadget::Gadget;
use toy_train::{Game, Railway, classic};

use crate::TaskResult;
use crate::measure;

/// Options of `cargo xtask adversary toy-train`.
#[derive(Clone, Debug, clap::Args)]
pub struct AdversaryArgs {
    /// What to mutate: a whole small railway, or a gadget repeated along a chain.
    #[arg(long, value_enum, default_value_t = Mode::Free)]
    mode: Mode,
    /// Most stations of a railway (free) or of a gadget (chain).
    #[arg(long, default_value_t = 24)]
    stations: usize,
    /// Most tracks out of a station.
    #[arg(long, default_value_t = 4)]
    max_degree: usize,
    /// Copies of the gadget at the larger of the two sizes scored (chain mode; the smaller
    /// has a quarter as many).
    #[arg(long, default_value_t = 64)]
    copies: usize,
    /// Mutations tried per restart.
    #[arg(long, default_value_t = 20_000)]
    iterations: usize,
    /// Independent restarts from random candidates.
    #[arg(long, default_value_t = 4)]
    restarts: usize,
    /// The seed: the same arguments always give the same search.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The candidate every restart starts from (chain mode): a random gadget, or the step of
    /// a known family.
    #[arg(long, value_enum, default_value_t = Start::Random)]
    start: Start,
    /// The solver attacked; its work is divided by the classic solver's.
    #[arg(long, value_enum, default_value_t = Attack::Default)]
    attack: Attack,
    /// Copies of the best gadget in the railway written (chain mode) [default: --copies].
    #[arg(long)]
    write_copies: Option<usize>,
    /// Work units charged to both solvers per station and per track for reading the input,
    /// so that the score is like a ratio of whole runs: without it the search favours inputs
    /// on which both solvers are fast, only the classic one a little faster.
    #[arg(long, default_value_t = 8)]
    input_weight: u64,
    /// Chain mode: reward only inputs on which the classic solver is quadratic, dividing the
    /// score by how far its work falls short of `copies · (n + m) / 8`.
    #[arg(long)]
    quadratic: bool,
    /// How much of the annealed score the simplification may give up.
    #[arg(long, default_value_t = 0.1)]
    simplify_tolerance: f64,
    /// Where to write the best railway found [default: target/adversary/toy-train-MODE-SEED.in].
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The solver under attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Attack {
    /// The default solver, as `toy-train` runs it.
    Default,
    /// The default's repairs without its budget.
    Unbounded,
    /// Lifts and bumps without sinking and without a budget, the setting the found families
    /// were found against.
    Old,
}

impl Attack {
    /// The attacked solver's work on `game`.
    pub fn work(self, game: &Game) -> u64 {
        let repairs = match self {
            Self::Default => Repairs::default(),
            Self::Unbounded => Repairs { budget: Budget::Unbounded, ..Repairs::default() },
            Self::Old => Repairs { sink: false, budget: Budget::Unbounded, ..Repairs::default() },
        };
        decremental::solve_with(game, repairs).1.work
    }
}

/// Where a chain-mode restart starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Start {
    /// A random gadget.
    Random,
    /// The staircase's step: `x` (Arezou, self-loop, to `c`) and `c` (a Borzou charger, to
    /// the previous `x`).
    Staircase,
    /// The cascade's step: the staircase's plus `y` (Arezou, to `c` and to the next `y`),
    /// with a tail into the first `y`.
    Cascade,
    /// The detour's step: the cascade's with the link to the next `y` through two stations.
    Detour,
}

/// What the search mutates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Mode {
    /// A whole railway of at most `--stations` stations.
    Free,
    /// A gadget of at most `--stations` stations repeated `--copies` times.
    Chain,
}

/// Runs the search and reports the best railway found.
pub fn run(args: &AdversaryArgs) -> TaskResult {
    if args.stations < 2 || args.max_degree < 1 {
        return Err("need at least 2 stations and 1 track a station".into());
    }
    let mut rng = SplitMix64::new(args.seed);
    let mut best: Option<(f64, Candidate)> = None;
    for restart in 0..args.restarts {
        let start = Candidate::random(args, &mut rng);
        let (annealed, found) = anneal(args, start, &mut rng);
        let (score, found) = simplify(args, annealed, found);
        println!("restart {restart}: work ratio {annealed:.3}, {score:.3} once simplified");
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, found));
        }
    }
    let (score, found) = best.expect("at least one restart ran");
    let instance = found.instance(args.write_copies.unwrap_or(args.copies));
    let game = instance.to_game().map_err(|e| format!("the search built a bad railway: {e}"))?;
    let (ours, ref_work) = (args.attack.work(&game), classic::solve_with_work(&game).1.0);
    println!(
        "best: work ratio {score:.3} ({} stations, {} tracks; {ours} units against classic's \
         {ref_work})",
        game.n(),
        game.m()
    );
    print!("{}", found.describe());
    if let Candidate::Chain(_) = found {
        for copies in [args.copies / 4, args.copies, 4 * args.copies, 16 * args.copies] {
            let game = found.instance(copies).to_game().map_err(|e| e.to_string())?;
            let ratio = work_ratio(&game, args.attack, args.input_weight);
            println!("  {copies:>6} copies, {:>8} stations: work ratio {ratio:.3}", game.n());
        }
    }
    let path = match &args.out {
        Some(path) => path.clone(),
        None => {
            let dir = measure::workspace_root().join("target").join("adversary");
            std::fs::create_dir_all(&dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let mode = if args.mode == Mode::Free { "free" } else { "chain" };
            dir.join(format!("toy-train-{mode}-{}.in", args.seed))
        }
    };
    std::fs::write(&path, instance.to_text())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!("written to {}", path.display());
    Ok(())
}

/// Simulated annealing on the logarithm of the score: a worse candidate is accepted with
/// probability `exp(-drop / temperature)`, the temperature falling linearly to zero.
fn anneal(args: &AdversaryArgs, start: Candidate, rng: &mut SplitMix64) -> (f64, Candidate) {
    let mut current = start;
    let mut current_score = score(args, &current);
    let (mut best, mut best_score) = (current.clone(), current_score);
    for i in 0..args.iterations {
        let mut next = current.clone();
        let changes = 1 + rng.below(3);
        for _ in 0..changes {
            next.mutate(args, rng);
        }
        let next_score = score(args, &next);
        let temperature = 0.05 * (1.0 - i as f64 / args.iterations as f64);
        let drop = (current_score / next_score).ln();
        let uniform = rng.next_u64() as f64 / u64::MAX as f64;
        if drop <= 0.0 || (temperature > 0.0 && uniform < (-drop / temperature).exp()) {
            current = next;
            current_score = next_score;
            if current_score > best_score {
                best = current.clone();
                best_score = current_score;
            }
        }
    }
    (best_score, best)
}

/// Removes stations and tracks (and the tail) one at a time while the score stays within
/// `--simplify-tolerance` of the annealed one, so that what is left is the mechanism and
/// can be generalised by hand.
fn simplify(args: &AdversaryArgs, annealed: f64, mut found: Candidate) -> (f64, Candidate) {
    let floor = annealed * (1.0 - args.simplify_tolerance);
    let mut current = annealed;
    loop {
        let better = found.simpler().into_iter().find_map(|c| {
            let s = score(args, &c);
            (s >= floor).then_some((s, c))
        });
        match better {
            Some((s, c)) => (current, found) = (s, c),
            None => return (current, found),
        }
    }
}

/// The work ratio of the attacked solver to the classic one (chain mode: at the larger size,
/// discounted when it does not grow with the size).
fn score(args: &AdversaryArgs, candidate: &Candidate) -> f64 {
    let ratio = |copies: usize| {
        let Ok(game) = candidate.instance(copies).to_game() else { return 0.0 };
        let ratio = work_ratio(&game, args.attack, args.input_weight);
        if args.quadratic {
            let classic = classic::solve_with_work(&game).1.0 as f64;
            let quadratic = (copies * (game.n() + game.m())) as f64 / 8.0;
            ratio * (classic / quadratic).min(1.0)
        } else {
            ratio
        }
    };
    match candidate {
        Candidate::Free(_) => ratio(1),
        Candidate::Chain(_) => {
            let (small, large) = (ratio(args.copies / 4), ratio(args.copies));
            if large >= small { large } else { large * large / small }
        }
    }
}

/// The attacked solver's work over the classic solver's, both charged `input_weight` units
/// per station and per track for reading the input.
pub fn work_ratio(game: &Game, attack: Attack, input_weight: u64) -> f64 {
    let input = (input_weight * (game.n() + game.m()) as u64) as f64;
    let ours = attack.work(game) as f64;
    let reference = classic::solve_with_work(game).1.0 as f64;
    (input + ours) / (input + reference)
}

/// A candidate of either mode.
#[derive(Clone, Debug)]
enum Candidate {
    Free(Rail),
    Chain(Gadget),
}

impl Candidate {
    fn random(args: &AdversaryArgs, rng: &mut SplitMix64) -> Self {
        match args.mode {
            Mode::Free => Self::Free(Rail::random(args, rng)),
            Mode::Chain => Self::Chain(chain::start(args, rng)),
        }
    }

    fn mutate(&mut self, args: &AdversaryArgs, rng: &mut SplitMix64) {
        match self {
            Self::Free(rail) => rail.mutate(args, rng),
            Self::Chain(gadget) => chain::mutate(gadget, args, rng),
        }
    }

    fn instance(&self, copies: usize) -> Railway {
        match self {
            Self::Free(rail) => rail.instance(),
            Self::Chain(gadget) => gadget.chain(copies),
        }
    }

    fn describe(&self) -> String {
        match self {
            Self::Free(rail) => rail.describe(),
            Self::Chain(gadget) => chain::describe(gadget),
        }
    }

    /// Every candidate with one station, one track or the tail less.
    fn simpler(&self) -> Vec<Self> {
        let mut out = Vec::new();
        match self {
            Self::Free(rail) => {
                for u in 0..rail.n() {
                    if rail.n() > 2 {
                        let mut c = rail.clone();
                        c.remove_station(u);
                        out.push(Self::Free(c));
                    }
                    for at in 0..rail.succ[u].len() {
                        if rail.succ[u].len() > 1 {
                            let mut c = rail.clone();
                            c.succ[u].remove(at);
                            out.push(Self::Free(c));
                        }
                    }
                }
            }
            Self::Chain(gadget) => {
                if gadget.tail.per_copy > 0 {
                    let mut c = gadget.clone();
                    c.tail.per_copy -= 1;
                    out.push(Self::Chain(c));
                }
                let g = gadget.stations.len();
                for u in 0..g {
                    if g > 1 {
                        let mut c = gadget.clone();
                        chain::remove_station(&mut c, u);
                        out.push(Self::Chain(c));
                    }
                    let len = gadget.stations[u].tracks.len();
                    for at in 0..len {
                        if len > 1 {
                            let mut c = gadget.clone();
                            c.stations[u].tracks.remove(at);
                            out.push(Self::Chain(c));
                        }
                    }
                }
            }
        }
        out
    }
}

/// A small railway with its tracks by tail, in order (the order matters to the solvers).
#[derive(Clone, Debug)]
struct Rail {
    arezou: Vec<bool>,
    charging: Vec<bool>,
    succ: Vec<Vec<u32>>,
}

impl Rail {
    fn random(args: &AdversaryArgs, rng: &mut SplitMix64) -> Self {
        let n = args.stations.max(2);
        let mut rail = Self {
            arezou: (0..n).map(|_| rng.chance(1, 2)).collect(),
            charging: (0..n).map(|_| rng.chance(1, 5)).collect(),
            succ: vec![Vec::new(); n],
        };
        for u in 0..n {
            let degree = 1 + rng.below(args.max_degree.min(n));
            while rail.succ[u].len() < degree {
                let v = rng.below(n) as u32;
                if !rail.succ[u].contains(&v) {
                    rail.succ[u].push(v);
                }
            }
        }
        rail.charging[rng.below(n)] = true;
        rail
    }

    fn n(&self) -> usize {
        self.arezou.len()
    }

    /// One random change that keeps the railway valid: every station keeps a track out, no
    /// track repeats, some station charges.
    fn mutate(&mut self, args: &AdversaryArgs, rng: &mut SplitMix64) {
        let n = self.n();
        let u = rng.below(n);
        match rng.below(9) {
            0 => self.arezou[u] = !self.arezou[u],
            1 => {
                self.charging[u] = !self.charging[u];
                if !self.charging.contains(&true) {
                    self.charging[rng.below(n)] = true;
                }
            }
            2 => {
                let v = rng.below(n) as u32;
                if self.succ[u].len() < args.max_degree && !self.succ[u].contains(&v) {
                    let at = rng.below(self.succ[u].len() + 1);
                    self.succ[u].insert(at, v);
                }
            }
            3 => {
                if self.succ[u].len() > 1 {
                    let at = rng.below(self.succ[u].len());
                    self.succ[u].remove(at);
                }
            }
            4 => {
                let v = rng.below(n) as u32;
                if !self.succ[u].contains(&v) {
                    let at = rng.below(self.succ[u].len());
                    self.succ[u][at] = v;
                }
            }
            5 => {
                let len = self.succ[u].len();
                self.succ[u].swap(rng.below(len), rng.below(len));
            }
            6 => self.swap_names(u, rng.below(n)),
            7 => {
                if n < args.stations {
                    self.add_station(rng);
                }
            }
            _ => {
                if n > 2 {
                    self.remove_station(u);
                }
            }
        }
    }

    fn swap_names(&mut self, a: usize, b: usize) {
        let (a32, b32) = (a as u32, b as u32);
        let rename = |x: u32| {
            if x == a32 {
                b32
            } else if x == b32 {
                a32
            } else {
                x
            }
        };
        self.arezou.swap(a, b);
        self.charging.swap(a, b);
        self.succ.swap(a, b);
        for list in &mut self.succ {
            for x in list.iter_mut() {
                *x = rename(*x);
            }
        }
    }

    fn add_station(&mut self, rng: &mut SplitMix64) {
        let n = self.n();
        let new = n as u32;
        self.arezou.push(rng.chance(1, 2));
        self.charging.push(rng.chance(1, 5));
        self.succ.push(vec![rng.below(n) as u32]);
        let from = rng.below(n);
        if !self.succ[from].contains(&new) {
            self.succ[from].push(new);
        }
    }

    fn remove_station(&mut self, gone: usize) {
        let gone32 = gone as u32;
        self.arezou.remove(gone);
        self.charging.remove(gone);
        self.succ.remove(gone);
        for (u, list) in self.succ.iter_mut().enumerate() {
            list.retain(|&x| x != gone32);
            for x in list.iter_mut() {
                if *x > gone32 {
                    *x -= 1;
                }
            }
            if list.is_empty() {
                list.push(u as u32);
            }
        }
        if !self.charging.contains(&true) {
            self.charging[0] = true;
        }
    }

    fn instance(&self) -> Railway {
        let tracks = self
            .succ
            .iter()
            .enumerate()
            .flat_map(|(u, list)| list.iter().map(move |&v| (u as u32, v)))
            .collect();
        Railway { arezou: self.arezou.clone(), charging: self.charging.clone(), tracks }
    }

    fn describe(&self) -> String {
        let mut text = String::new();
        for u in 0..self.n() {
            let owner = if self.arezou[u] { 'A' } else { 'B' };
            let charger = if self.charging[u] { "*" } else { " " };
            let _ = writeln!(text, "  {u:>3} {owner}{charger} -> {:?}", self.succ[u]);
        }
        text
    }
}

/// Mutations of a gadget (the chain mode's candidate); `toy_train::gadget` builds the
/// railway.
mod chain {
    use engine::rng::SplitMix64;
    use toy_train::gadget::{Gadget, Link, Station, Tail};

    use super::{AdversaryArgs, Start};

    /// The gadget a restart begins with.
    pub fn start(args: &AdversaryArgs, rng: &mut SplitMix64) -> Gadget {
        use Link::{Next, Previous, Same};
        let (x, c, y, p, q) = (0, 1, 2, 3, 4);
        let table: &[(bool, bool, &[Link])] = match args.start {
            Start::Random => return random(args, rng),
            Start::Staircase => {
                &[(true, false, &[Same(x), Same(c)]), (false, true, &[Previous(x)])]
            }
            Start::Cascade => &[
                (true, false, &[Same(x), Same(c)]),
                (false, true, &[Previous(x)]),
                (true, false, &[Same(c), Next(y)]),
            ],
            Start::Detour => &[
                (true, false, &[Same(x), Same(c)]),
                (false, true, &[Previous(x)]),
                (true, false, &[Same(c), Same(p)]),
                (true, false, &[Same(q)]),
                (true, false, &[Next(y)]),
            ],
        };
        let per_copy = if args.start == Start::Staircase { 0 } else { 4 };
        Gadget::from_table(table, Tail { per_copy, into: y, at_first: true })
    }

    fn random(args: &AdversaryArgs, rng: &mut SplitMix64) -> Gadget {
        let g = 2 + rng.below(args.stations.max(2) - 1);
        let arezou: Vec<bool> = (0..g).map(|_| rng.chance(1, 2)).collect();
        let charging: Vec<bool> = (0..g).map(|_| rng.chance(1, 4)).collect();
        let tail = Tail { per_copy: rng.below(4), into: rng.below(g), at_first: rng.chance(1, 2) };
        let mut gadget = Gadget {
            stations: (0..g)
                .map(|i| Station { arezou: arezou[i], charging: charging[i], tracks: Vec::new() })
                .collect(),
            tail,
        };
        for u in 0..g {
            let degree = 1 + rng.below(args.max_degree.min(3));
            for _ in 0..degree {
                let t = random_link(g, rng);
                if !gadget.stations[u].tracks.contains(&t) {
                    gadget.stations[u].tracks.push(t);
                }
            }
        }
        gadget
    }

    fn random_link(g: usize, rng: &mut SplitMix64) -> Link {
        match rng.below(12) {
            0 => Link::Sink,
            1 => Link::Home,
            2..=4 => Link::Previous(rng.below(g)),
            5 | 6 => Link::Next(rng.below(g)),
            7 => Link::First(rng.below(g)),
            8 => Link::Last(rng.below(g)),
            _ => Link::Same(rng.below(g)),
        }
    }

    /// One random change: an owner, a charger, a track added, removed, retargeted or moved in
    /// its list, the tail, or a station added or removed.
    pub fn mutate(gadget: &mut Gadget, args: &AdversaryArgs, rng: &mut SplitMix64) {
        let g = gadget.stations.len();
        let u = rng.below(g);
        match rng.below(9) {
            0 => gadget.stations[u].arezou = !gadget.stations[u].arezou,
            1 => gadget.stations[u].charging = !gadget.stations[u].charging,
            2 => {
                let t = random_link(g, rng);
                let tracks = &mut gadget.stations[u].tracks;
                if tracks.len() < args.max_degree && !tracks.contains(&t) {
                    let at = rng.below(tracks.len() + 1);
                    tracks.insert(at, t);
                }
            }
            3 => {
                let tracks = &mut gadget.stations[u].tracks;
                if tracks.len() > 1 {
                    let at = rng.below(tracks.len());
                    tracks.remove(at);
                }
            }
            4 => {
                let t = random_link(g, rng);
                let tracks = &mut gadget.stations[u].tracks;
                if !tracks.contains(&t) {
                    let at = rng.below(tracks.len());
                    tracks[at] = t;
                }
            }
            5 => {
                let tracks = &mut gadget.stations[u].tracks;
                let len = tracks.len();
                tracks.swap(rng.below(len), rng.below(len));
            }
            6 => match rng.below(3) {
                0 => gadget.tail.per_copy = rng.below(6),
                1 => gadget.tail.into = rng.below(g),
                _ => gadget.tail.at_first = !gadget.tail.at_first,
            },
            7 => {
                if g < args.stations {
                    let arezou = rng.chance(1, 2);
                    let charging = rng.chance(1, 4);
                    let t = random_link(g, rng);
                    gadget.stations.push(Station { arezou, charging, tracks: vec![t] });
                    let from = rng.below(g);
                    if gadget.stations[from].tracks.len() < args.max_degree {
                        gadget.stations[from].tracks.push(Link::Same(g));
                    }
                }
            }
            _ => {
                if g > 1 {
                    remove_station(gadget, u);
                }
            }
        }
    }

    /// Removes station `gone` and every link to it; a station left without tracks leads to
    /// the sink.
    pub fn remove_station(gadget: &mut Gadget, gone: usize) {
        gadget.stations.remove(gone);
        let shift = |i: usize| if i > gone { i - 1 } else { i };
        for s in &mut gadget.stations {
            s.tracks.retain(|t| t.station() != Some(gone));
            for t in &mut s.tracks {
                *t = t.map(shift);
            }
            if s.tracks.is_empty() {
                s.tracks.push(Link::Sink);
            }
        }
        gadget.tail.into = shift(gadget.tail.into).min(gadget.stations.len() - 1);
    }

    /// The gadget as a table for `toy_train::gadget::Gadget::from_table`, with a comment per
    /// station.
    pub fn describe(gadget: &Gadget) -> String {
        use std::fmt::Write as _;
        let Tail { per_copy, into, at_first } = gadget.tail;
        let mut text = format!(
            "  gadget of {} stations (ground: 0 sink, 1 home), tail {{ per_copy: {per_copy}, \
             into: {into}, at_first: {at_first} }}\n",
            gadget.stations.len()
        );
        for (u, s) in gadget.stations.iter().enumerate() {
            let _ = writeln!(text, "    ({}, {}, &{:?}), // {u}", s.arezou, s.charging, s.tracks);
        }
        text
    }
}
