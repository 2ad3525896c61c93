//! The default solver: repeated attractors kept up to date decrementally, so a round costs
//! what it touches near the removed stations instead of a rescan of the whole graph, under a
//! work budget that keeps it within a few percent of the classic solver on any input.
//!
//! # Idea
//!
//! The classic algorithm (see [`crate::classic`]) recomputes Arezou's attractor
//! `W = Attr_A(R ∩ G)` from scratch every round although removing Borzou's region `L` only
//! shrinks it near `L`. Here every station of `W` keeps a *justification* and a *rank*, its
//! place in an order of `W` (charging stations have rank 0; ranks need not be distinct):
//!
//! - an Arezou station points at a *witness*, a successor in `W` of smaller rank;
//! - a Borzou station has all its successors in `W`, each of smaller rank.
//!
//! Ranks make the justifications well-founded, so every station of `W` really can be forced
//! to a charging station. Stations get ranks, spaced `GAP` (2³²) apart, in the order they
//! join `W`. When `L` leaves the game, an Arezou station whose witness is gone is repaired if
//! it can be, in one of three ways:
//!
//! 1. any other successor still in `W` with a smaller rank becomes the witness, found with a
//!    per-station scan pointer (a successor the pointer has passed could only become usable
//!    by moving down, which costs at most a repair chance, so the pointer never moves back);
//! 2. a *lift*: the station takes a new rank between a new witness and the lowest-ranked
//!    station that depends on it (an Arezou station with it as witness, or a Borzou station
//!    with a track to it): just below that dependent, or `GAP` above the witness if nothing
//!    depends on it. If every successor ranks too high, one may *sink* first: the stations
//!    of its witness chain (Arezou stations followed to their witness, Borzou stations with
//!    one track to it, a Borzou station with more tracks ending the chain; at most
//!    `SINK_DEPTH` = 8) move down to the ranks just below the station's new one, one apart;
//!    the successor may also take another witness whose chain fits (at most `SINK_WALKS` =
//!    16 tries a lift). Moving a station down is always allowed, since whatever depends on
//!    it ranks above it already, and no cycle forms as long as the chain passes neither
//!    through the station being repaired nor through the successor: anything depending on
//!    them ranks above the room the chain must fit in. Every justification still points
//!    down the order, so nothing else changes. (A chain that grows below its last link every
//!    round, as in the `detour` and the search's families, uses up one rank a link this way;
//!    spreading it over the room would halve the room every round and exhaust it within
//!    forty rounds.)
//! 3. a *bump*: the station takes its lowest-ranked successor in `W` as witness, ranks just
//!    above it, and whatever depends on it moves up as far as needed, in order of rank (a
//!    variant of Pearce and Kelly's dynamic topological ordering). Should the witness itself
//!    have to move, it depends on the station and the bump is called off. Bumps may look at
//!    no more than `n + m` tracks a round.
//!
//! Only when all three fail does the station *fail*, and with it every Borzou predecessor
//! and every Arezou predecessor whose witness it was and which cannot be repaired in turn.
//! The failed stations are then attracted again, backward from the surviving `W`, with
//! fresh ranks at the top of the order; those that stay out form the next trap `Tr`, and
//! Borzou's attractor to it is removed next round.
//!
//! This is "delete and re-derive" from incremental view maintenance, with the ranks cutting
//! the deletion short. Why it is exact: every station kept in `W` keeps a justification down
//! the order, so it is truly in the new attractor; the failed rest is then re-attracted
//! exactly as in the classic algorithm, and what is left out is exactly the new trap.
//!
//! # Budget: never much more work than the classic solver
//!
//! Repairs are heuristics, and an adversary can defeat them: `cargo xtask adversary
//! toy-train` found railways on which the solver without a budget (and without sinking)
//! moved `Θ(n)` stations a round by bumps, or failed and re-derived most of `W` every round,
//! up to 28 times the classic solver's work; sinking deals with those, but the next search
//! may find something else. So every step counts *work units* ([`crate::work`]: a station
//! visited, an adjacency entry read, a heap operation by its logarithm), and the solver keeps
//! a *yardstick* `Y`, what the classic solver spends on the same rounds:
//!
//! - round 0 (the first attractor) and, each round, the removal of `L` and the choice of
//!   Borzou's moves in the trap are done exactly as the classic solver does them, and count
//!   in `Y` as they are;
//! - each later round adds `C = 2n + Σ (1 + in-degree)` over the stations not removed: the
//!   most a from-scratch attractor on them costs (two passes over the stations, and a visit
//!   with its predecessor list for each station it attracts), and at least what the classic
//!   solver's round costs on them, less the stations of this round's trap.
//!
//! With the slack `β` of [`Budget::Slack`] (1/16 by default) and a one-off credit
//! `K = (n + m) / 4`, a round's repairs may run until the work counter `T` reaches
//! `(1 + β) · Y + K − C`; past that, the round is abandoned and the attractor recomputed
//! from scratch, fresh ranks and all (a *rebuild*, which costs at most `C`). (Every 64
//! candidates the repairs' cost so far is also extrapolated to the candidates still waiting,
//! and the round given up at once if that passes the limit: the slack is then not spent on
//! a round that was never going to fit.) The limit is checked after every step, and a step is at most one station's lift, failure, attraction
//! or planned move: `O(d)` units for the largest degree `d`. By induction over the rounds,
//! then, `T ≤ (1 + β) · Y + K + O(d)` at all times: a round that finishes its repairs stays
//! below its limit, and a round that is abandoned stops within a step of it and adds at most
//! `C` for the rebuild, which its limit reserved. And `Y` exceeds the classic solver's work
//! by at most `n + m`, since it counts each trap's stations as if attracted, and every
//! station is in a trap at most once. So:
//!
//! > **the default's work is at most `1 + β` times the classic solver's, plus `O(n + m)`:
//! > `O(n · m)` time in the worst case.**
//!
//! Rounds that repair cheaply save the difference, which later rounds may spend. A rebuild
//! also re-ranks `W` in breadth-first order, which undoes whatever rank layout an adversary
//! had built up; after one rebuild most adversarial families repair cheaply again.
//!
//! # Cost
//!
//! A repaired round costs `O(Σ deg)` over the stations it removes, the stations it tries to
//! lift (`O(deg · SINK_DEPTH)` with the sinking) or bump, once a station a round, or fails,
//! and the pointer steps of repairs (a pointer crosses each track at most once between two
//! attractions or lifts of its station), plus `O(k log k)` for the `k ≤ n + m` tracks its
//! bumps look at. Staircases cost `O(1)` a round (one station fails and is removed); a
//! station that loses one witness among many charging successors repairs in `O(1)`
//! amortised; a chain whose head switches to the next link every round (the cascades, and
//! all the search's families but `burst`) is lifted and sunk in `O(1)` a round. Worst case,
//! by the budget: `O(n · m)` time, at most `1 + β` times the classic solver's work plus
//! `O(n + m)`. Space: `O(n)` besides the game (a state byte and a 24-byte record a station,
//! 8 more once a bump is tried, a bit for sorting levels, plus queues).
//!
//! # Layout
//!
//! The searches jump around the graph, so each station's working data sits in one record
//! and its state and flags in one byte: a visit costs one or two cache misses instead of one
//! per array. A rebuild's passes over the stations read and write only the state bytes.
//! On a graph too large for the cache, the attractors take each large level in the order of
//! the stations, so that the predecessor lists are read in the order they lie in memory
//! (`sort_level`), and read a list a few stations ahead of its turn (`read_ahead`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::game::{self, Game, Solution};
use crate::work::heap_op;

/// The state bits of a station's byte.
const STATE: u8 = 0b11;
/// Still in Arezou's attractor, with a valid justification.
const GOOD: u8 = 0;
/// Lost its justification this round (or not yet attracted); re-attracted or trapped.
const FAILED: u8 = 1;
/// Removed: Borzou wins here.
const DEAD: u8 = 2;
/// The spacing of the ranks handed out as stations join `W`: room for lifts in between
/// (a lift takes the rank just below a dependent's, so a gap holds billions of them).
const GAP: u64 = 1 << 32;
/// The game's flag bits sit above the two state bits of a station's byte.
const FLAG_SHIFT: u32 = STATE.count_ones();
/// Flag bit: Arezou owns the station ([`game::AREZOU`] moved above the state bits).
const AREZOU: u8 = game::AREZOU << FLAG_SHIFT;
/// Flag bit: the station charges ([`game::CHARGING`] moved above the state bits).
const CHARGING: u8 = game::CHARGING << FLAG_SHIFT;
/// How far down a witness chain [`Solver::sink_below`] lowers stations: a few links cover the
/// chains the search found, and the bound keeps a lift `O(degree)`.
const SINK_DEPTH: usize = 8;
/// How often [`Solver::repair`] extrapolates its cost so far to the candidates left, to give
/// up early on a round it cannot finish within budget.
const PROJECT_EVERY: u64 = 64;
/// How many other successors of its successors [`Solver::sink_below`] may try as new witnesses
/// for them: enough for the families the search found, and a bound that keeps a lift
/// `O(degree)`.
const SINK_WALKS: usize = 16;

/// Solves `game` with the decremental repeated-attractor algorithm described in the module
/// documentation. Same answers as [`crate::classic::solve`] (the winning regions are unique);
/// the strategies may differ but are equally valid.
///
/// Time: `O(n · m)` worst case, at most `1 + 1/16` times the classic solver's work plus
/// `O(n + m)`; `O(n + m)` plus the work near each round's removals in practice (see the
/// module documentation). Space: `O(n)` besides the game.
#[must_use]
pub fn solve(game: &Game) -> Solution {
    solve_with(game, Repairs::default()).0
}

/// What a run of [`solve`] did, to show which paths of the algorithm a test exercised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Rounds after the first attractor (traps removed).
    pub rounds: usize,
    /// Stations whose lost witness was replaced by a successor of smaller rank.
    pub repaired: usize,
    /// Stations repaired by taking a new witness and a new rank between it and their dependents.
    pub lifted: usize,
    /// Stations moved down the order, to just above their witness, so that a lift could use
    /// them.
    pub sunk: usize,
    /// Stations repaired by moving them and what depends on them up the order.
    pub bumped: usize,
    /// Bumps called off: the witness would have had to move (it depends on the station), or
    /// (without a budget) the round's cap on the tracks bumps may look at was reached.
    pub called_off: usize,
    /// Stations moved up the order along with a bumped one.
    pub moved: usize,
    /// Stations that lost their justification and went back to be re-attracted.
    pub failed: usize,
    /// Failed stations that were attracted again.
    pub reattracted: usize,
    /// Rounds whose repairs ran out of budget and were recomputed from scratch instead.
    pub rebuilt: usize,
    /// Times the ranks ran out of room at the top and were renumbered.
    pub renumbered: usize,
    /// Rounds given up early, their repairs extrapolated past the budget (counted in
    /// `rebuilt` too).
    pub projected: usize,
    /// Work units spent (see [`crate::work`]).
    pub work: u64,
    /// What the classic solver spends on the same rounds, as estimated for the budget (an
    /// upper bound on its work plus `n + m`; see the module documentation).
    pub yardstick: u64,
}

/// Which repairs [`solve_with`] may use before failing a station, and the budget they share:
/// all repairs and [`Budget::DEFAULT`] by default. Other settings change the work, never the
/// answer; the tests run every combination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repairs {
    /// Lifts: move a station up to just below what depends on it.
    pub lift: bool,
    /// Bumps: move a station and what depends on it up the order.
    pub bump: bool,
    /// Sinking: lifts may move a successor down its witness chain to make it usable, and put
    /// a station nothing depends on just above its witness rather than at the top.
    pub sink: bool,
    /// How much work the repairs may do before a round is recomputed from scratch.
    pub budget: Budget,
}

impl Default for Repairs {
    fn default() -> Self {
        Self { lift: true, bump: true, sink: true, budget: Budget::DEFAULT }
    }
}

/// How much work the solver may spend beyond the classic solver's: the guarantee that keeps
/// it within a constant factor of [`crate::classic`] on every input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    not(feature = "internals"),
    expect(dead_code, reason = "only xtask and the tests run the solver without a budget")
)]
pub enum Budget {
    /// Everything the solver does stays within `1 + per_mille / 1000` times the classic
    /// solver's work on the same rounds (plus `O(n + m)`): a round whose repairs would go
    /// beyond that is abandoned and recomputed from scratch, as the classic solver would.
    Slack {
        /// The slack, in thousandths of the classic solver's work.
        per_mille: u32,
    },
    /// Repair every round however long it takes (with bumps capped at `n + m` tracks a
    /// round, as always): `O(n · m · log n)` worst case. Without sinking, this setting is many
    /// times slower than the classic solver on the families the adversarial search found. For
    /// comparisons and tests.
    Unbounded,
}

impl Budget {
    /// The default slack, 1/16: an input can make every round's repairs cost up to the
    /// budget, so the slack is what such an input costs beyond the classic solver's work;
    /// 1/16 keeps that within the bench's tolerance of a tenth, with room for the units'
    /// error against wall time. (A rebuild itself runs a little faster per unit than a
    /// classic round: one byte and one record a station instead of five arrays.)
    pub const DEFAULT: Self = Self::Slack { per_mille: 62 };
}

/// The repairs ran out of budget: the round is recomputed from scratch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OutOfBudget;

/// [`solve`] with only the given repairs, returning what the run did. Same complexity.
#[must_use]
pub fn solve_with(game: &Game, repairs: Repairs) -> (Solution, Stats) {
    solve_from_rank(game, 1, repairs)
}

/// [`solve_with`] with the first rank given, so tests can make the rank counter wrap.
pub(crate) fn solve_from_rank(game: &Game, first_rank: u64, repairs: Repairs) -> (Solution, Stats) {
    let sort_from = if too_large_for_cache(game) { SORT_FROM } else { usize::MAX };
    solve_sorting(game, first_rank, repairs, sort_from)
}

/// [`solve_from_rank`] with the levels (and repair candidates) of at least `sort_from`
/// stations and a 64th of all taken in the order of the stations (see [`sort_level`]), so
/// tests can sort those of small graphs.
pub(crate) fn solve_sorting(
    game: &Game,
    first_rank: u64,
    repairs: Repairs,
    sort_from: usize,
) -> (Solution, Stats) {
    let mut s = Solver::new(game, first_rank, repairs);
    s.sort_from = sort_from;
    // Round 0 is the classic solver's first round, so it counts in the yardstick as it is.
    s.rebuild();
    s.stats.yardstick = s.stats.work;
    s.keep_borzou_in_trap();
    while !s.trap.is_empty() {
        s.stats.rounds += 1;
        s.remove_trap_attractor();
        // What a from-scratch attractor on the stations left costs at most: the classic
        // solver's round, and ours when the repairs give up.
        let scratch = s.scratch_cost();
        s.stats.yardstick += scratch;
        s.limit = match s.repairs.budget {
            Budget::Unbounded => u64::MAX,
            Budget::Slack { per_mille } => {
                let allowed = s.stats.yardstick
                    + s.stats.yardstick * u64::from(per_mille) / 1000
                    + s.initial_credit;
                allowed.saturating_sub(scratch)
            }
        };
        let repaired = s.stats.work < s.limit && s.repair().is_ok() && s.reattract().is_ok();
        if !repaired {
            s.abandon_round();
            s.stats.rebuilt += 1;
            s.rebuild();
        }
        s.keep_borzou_in_trap();
    }
    s.finish()
}

/// One station's working data, 24 bytes: a random graph with millions of stations spends
/// its time on cache misses, so the fields an owner does not need hold what the other does.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// The station's place in the order of `W` (0 for charging stations); only compared.
    rank: u64,
    /// Arezou: tracks into stations not removed. Borzou, while `FAILED`: tracks into
    /// stations not (re-)attracted yet, if `mark` is the solver's current epoch; otherwise
    /// all of his tracks (a rebuild thus resets every count without visiting a station).
    count: u32,
    /// Arezou in `W`: the witness. Borzou removed: his strategy's successor.
    choice: u32,
    /// Arezou in `W`: where in its successor list the repair scan resumes. Borzou: the
    /// number of his tracks, which a stale `count` stands for.
    ptr: u32,
    /// Arezou: the last round in which a lift or bump of the station was tried (once a round
    /// is enough, and it keeps a round's cost bounded). Borzou: the epoch in which `count`
    /// was last set.
    mark: u32,
}

/// The solver's working state.
struct Solver<'g> {
    game: &'g Game,
    /// State bits and flags, per station.
    st: Vec<u8>,
    node: Vec<Node>,
    /// Above every rank in use; new stations of `W` get it, then it grows by `GAP`.
    next_rank: u64,
    /// Where ranks start again at every [`Solver::rebuild`].
    first_rank: u64,
    /// Advanced by every rebuild, so that Borzou's stale counts read as full (see [`Node`]).
    epoch: u32,
    /// The charging stations, where every rebuild starts.
    chargers: Vec<u32>,
    queue: Vec<u32>,
    /// Arezou stations whose witness has gone (possibly stale entries).
    candidates: Vec<u32>,
    /// Stations that failed this round, in failing order.
    failed: Vec<u32>,
    /// The current trap.
    trap: Vec<u32>,
    /// Failed stations whose predecessors are still to be looked at.
    stack: Vec<u32>,
    /// Scratch for [`Solver::bump`]: the new ranks it plans, and its work list by rank.
    /// `plan[x]`: the rank `x` is to move to, 0 if none; allocated by the first bump and
    /// cleared through `planned`, the stations with a plan.
    plan: Vec<u64>,
    planned: Vec<u32>,
    by_rank: BinaryHeap<Reverse<(u64, u32)>>,
    /// Scratch for [`Solver::sink_below`]: a witness chain.
    chain: Vec<u32>,
    /// Tracks [`Solver::bump`] may still look at this round, so that a round stays
    /// `O((n + m) log n)` however many bumps are tried (and called off).
    bump_budget: usize,
    /// Where the current round's repairs stop: the work counter may not pass it.
    limit: u64,
    /// Work the budget grants once, up front: `(n + m) / 4`. Without it, the first repairs
    /// after round 0 could spend no more than the slack, too little for a random graph whose
    /// first trap takes half the stations with it (their repairs cost a tenth of a round);
    /// with it, the bound gains an additive `(n + m) / 4`, which changes nothing
    /// asymptotically and little even on inputs of two rounds.
    initial_credit: u64,
    /// `Σ (1 + in-degree)` over the stations not removed: what a from-scratch attractor
    /// reads at most besides its two passes over the stations.
    alive_cost: u64,
    repairs: Repairs,
    stats: Stats,
    /// Scratch for [`sort_level`]: a bit a station, all clear between calls.
    bits: Vec<u64>,
    /// Levels of at least this many stations are sorted (see [`sort_level`]).
    sort_from: usize,
}

impl<'g> Solver<'g> {
    fn new(game: &'g Game, first_rank: u64, repairs: Repairs) -> Self {
        let st = game
            .stations()
            .map(|v| {
                FAILED
                    | if game.arezou(v) { AREZOU } else { 0 }
                    | if game.charging(v) { CHARGING } else { 0 }
            })
            .collect();
        Self {
            game,
            st,
            // Arezou's count, the tracks into stations not removed, starts at her out-degree;
            // Borzou's is stale (mark 0, epoch 1 from the first rebuild on), standing for his degree.
            node: {
                let mut node = game::huge_capacity(game.n());
                node.extend(game.stations().map(|v| {
                    let degree = game.succ(v).len() as u32;
                    let ptr = if game.arezou(v) { 0 } else { degree };
                    Node { count: degree, ptr, ..Node::default() }
                }));
                node
            },
            next_rank: first_rank.max(GAP),
            first_rank: first_rank.max(GAP),
            epoch: 0,
            chargers: game.stations().filter(|&v| game.charging(v)).collect(),
            queue: Vec::new(),
            candidates: Vec::new(),
            failed: Vec::new(),
            trap: Vec::new(),
            stack: Vec::new(),
            plan: Vec::new(),
            planned: Vec::new(),
            by_rank: BinaryHeap::new(),
            chain: Vec::new(),
            bump_budget: 0,
            limit: u64::MAX,
            initial_credit: (game.n() + game.m()) as u64 / 4,
            alive_cost: (game.n() + game.m()) as u64,
            repairs,
            stats: Stats::default(),
            bits: vec![0; game.n().div_ceil(64)],
            sort_from: SORT_FROM,
        }
    }

    #[inline]
    fn state(&self, v: u32) -> u8 {
        self.st[v as usize] & STATE
    }

    #[inline]
    fn set_state(&mut self, v: u32, state: u8) {
        let b = &mut self.st[v as usize];
        *b = (*b & !STATE) | state;
    }

    /// Puts `v` into `W` with a fresh rank and queues it for the backward search.
    #[inline(always)]
    fn attract(&mut self, v: u32, witness: u32) {
        if self.next_rank > u64::MAX - GAP {
            self.renumber();
        }
        let arezou = self.st[v as usize] & AREZOU != 0;
        self.set_state(v, GOOD);
        let node = &mut self.node[v as usize];
        node.rank = self.next_rank;
        node.choice = witness;
        if arezou {
            node.ptr = 0;
        }
        self.next_rank += GAP;
        self.queue.push(v);
    }

    /// Renumbers the ranks of `W` as `GAP, 2 GAP, …` in the same order, when the counter is
    /// about to wrap (after some four billion attractions). `O(n log n)`, so amortised nothing.
    #[cold]
    fn renumber(&mut self) {
        let mut good: Vec<u32> = (0..self.st.len() as u32)
            .filter(|&v| self.state(v) == GOOD && self.node[v as usize].rank > 0)
            .collect();
        self.stats.renumbered += 1;
        self.stats.work += (self.st.len() + good.len() * heap_op(good.len())) as u64;
        good.sort_unstable_by_key(|&v| self.node[v as usize].rank);
        for (i, &v) in good.iter().enumerate() {
            self.node[v as usize].rank = (i as u64 + 1) * GAP;
        }
        self.next_rank = (good.len() as u64 + 1) * GAP;
    }

    /// Backward search from the queued stations over `FAILED` predecessors: an Arezou
    /// station joins through any queued successor, a Borzou station once none of its
    /// successors is left out; returns how many stations were queued in all.
    /// `O(Σ in-degree)` of the stations that join.
    ///
    /// # Errors
    /// The work counter passed `limit` (the queue is then left as it is).
    fn propagate(&mut self, limit: u64) -> Result<usize, OutOfBudget> {
        let game = self.game;
        let mut head = 0;
        if !self.sorts_levels() {
            // No level can be sorted: the plain queue, with nothing a level to decide (on
            // a graph that fits in the cache and rebuilds often, as `undertow`, levels of a
            // station or two make that a tenth more instructions).
            while head < self.queue.len() {
                if self.stats.work > limit {
                    return Err(OutOfBudget);
                }
                let u = self.queue[head];
                head += 1;
                self.visit(u);
            }
        } else {
            while head < self.queue.len() {
                let level_end = self.queue.len();
                let level = &mut self.queue[head..level_end];
                let large = sort_level(level, &mut self.bits, self.sort_from);
                while head < level_end {
                    if self.stats.work > limit {
                        return Err(OutOfBudget);
                    }
                    if large {
                        read_ahead(game, &self.queue, head);
                    }
                    let u = self.queue[head];
                    head += 1;
                    self.visit(u);
                }
            }
        }
        self.queue.clear();
        Ok(head)
    }

    /// Whether a level may be large enough to be sorted (see [`sort_level`]).
    fn sorts_levels(&self) -> bool {
        self.sort_from <= self.game.n()
    }

    /// One station of [`Solver::propagate`]'s search: its predecessors that join.
    #[inline(always)]
    fn visit(&mut self, u: u32) {
        let game = self.game;
        self.stats.work += 1 + game.pred(u).len() as u64;
        for &p in game.pred(u) {
            let b = self.st[p as usize];
            if b & STATE != FAILED {
                continue;
            }
            if b & AREZOU != 0 {
                self.attract(p, u);
            } else {
                let node = &mut self.node[p as usize];
                if node.mark != self.epoch {
                    node.mark = self.epoch;
                    node.count = node.ptr;
                }
                node.count -= 1;
                if node.count == 0 {
                    self.attract(p, u);
                }
            }
        }
    }

    /// The most a from-scratch attractor on the stations not removed can cost: two passes
    /// over the stations and `1 + in-degree` for each station it attracts.
    fn scratch_cost(&self) -> u64 {
        2 * self.game.n() as u64 + self.alive_cost
    }

    /// Arezou's attractor to the charging stations among the stations not removed, from
    /// scratch, with fresh ranks; the stations left out are the next trap. This is round 0,
    /// and the fallback for a round whose repairs ran out of budget: the classic solver's
    /// round. Work at most [`Solver::scratch_cost`], so `O(n + m)`.
    ///
    /// The two passes over the stations are over their state bytes only, so they run at
    /// memory speed: the first is a branch-free byte map, and Borzou's counts are reset by
    /// advancing the epoch (every alive Borzou station has all its tracks, since one with a
    /// track to a removed station is removed too; Arezou's counts, the tracks into stations
    /// not removed, are kept up to date by the removals); the second skips eight bytes at a
    /// time while none of them is `FAILED`.
    fn rebuild(&mut self) {
        let game = self.game;
        self.stats.work += 2 * game.n() as u64;
        self.next_rank = self.first_rank;
        self.epoch += 1;
        for b in &mut self.st {
            let state = if *b & STATE == DEAD {
                DEAD
            } else if *b & CHARGING != 0 {
                GOOD
            } else {
                FAILED
            };
            *b = (*b & !STATE) | state;
        }
        for &c in &self.chargers {
            if self.st[c as usize] & STATE != DEAD {
                self.queue.push(c);
            }
        }
        self.propagate(u64::MAX).expect("a rebuild has no budget to run out of");
        self.trap.clear();
        collect_failed(&self.st, &mut self.trap);
    }

    /// Drops what an abandoned round left half done; [`Solver::rebuild`] resets the rest.
    fn abandon_round(&mut self) {
        self.candidates.clear();
        self.failed.clear();
        self.stack.clear();
        self.queue.clear();
    }

    /// Borzou's strategy inside the trap: a successor that is also in it (one exists, or the
    /// station would have joined `W`). The classic solver does the same, so the work counts
    /// in the yardstick too.
    fn keep_borzou_in_trap(&mut self) {
        for &v in &self.trap {
            if self.st[v as usize] & AREZOU == 0 {
                let len = self.game.succ(v).len() as u64;
                self.stats.work += len;
                self.stats.yardstick += len;
                let stay = self.game.succ(v).iter().find(|&&w| self.state(w) == FAILED);
                if let Some(&w) = stay {
                    self.node[v as usize].choice = w;
                }
            }
        }
    }

    /// Removes Borzou's attractor to the trap. Arezou stations whose witness goes become
    /// repair candidates. `O(Σ in-degree)` of the removed stations; the classic solver does
    /// the same, so the work counts in the yardstick too.
    fn remove_trap_attractor(&mut self) {
        let game = self.game;
        let mut queue = std::mem::take(&mut self.trap);
        for &v in &queue {
            self.set_state(v, DEAD);
        }
        let mut head = 0;
        let (mut level_end, mut large) = (0, false);
        let sorting = self.sorts_levels();
        while head < queue.len() {
            if sorting && head == level_end {
                level_end = queue.len();
                large = sort_level(&mut queue[head..level_end], &mut self.bits, self.sort_from);
            }
            if large {
                read_ahead(game, &queue, head);
            }
            let u = queue[head];
            head += 1;
            let cost = 1 + game.pred(u).len() as u64;
            self.stats.work += cost;
            self.stats.yardstick += cost;
            self.alive_cost -= cost;
            for &p in game.pred(u) {
                let b = self.st[p as usize];
                if b & STATE == DEAD {
                    continue;
                }
                let node = &mut self.node[p as usize];
                if b & AREZOU == 0 {
                    node.choice = u;
                    self.set_state(p, DEAD);
                    queue.push(p);
                } else {
                    node.count -= 1;
                    if node.count == 0 {
                        self.set_state(p, DEAD);
                        queue.push(p);
                    } else if node.choice == u && b & CHARGING == 0 {
                        self.candidates.push(p);
                    }
                }
            }
        }
        queue.clear();
        self.trap = queue;
    }

    /// Repairs or fails every candidate; failures spread to Borzou predecessors and to the
    /// Arezou predecessors they were witnesses for. The result does not depend on the order
    /// (it is the largest self-justifying set), so a plain stack serves as the work list.
    ///
    /// # Errors
    /// The work counter passed the round's limit: the round must be recomputed.
    fn repair(&mut self) -> Result<(), OutOfBudget> {
        let game = self.game;
        // Bumps that are called off are pure waste, so whatever the budget allows, they may
        // look at no more than `n + m` tracks a round.
        self.bump_budget = game.n() + game.m();
        let start = self.stats.work;
        let mut done = 0u64;
        // Many candidates are taken in the order of the stations, for the reason levels are
        // (see `sort_level`); they are distinct stations, each pushed when its witness left.
        if sort_level(&mut self.candidates, &mut self.bits, self.sort_from) {
            self.candidates.reverse();
        }
        while let Some(v) = self.candidates.pop() {
            if self.stats.work > self.limit {
                return Err(OutOfBudget);
            }
            done += 1;
            if done.is_multiple_of(PROJECT_EVERY) {
                // The repairs so far, extrapolated to the candidates still waiting: if that
                // already passes the limit, give up now rather than when the budget is spent
                // (a rebuild costs the same either way). Only a heuristic: it can give up on
                // repairs that would have fitted, which costs no more than the classic round.
                let per_candidate = (self.stats.work - start) / done;
                let waiting = self.candidates.len() as u64;
                if self.stats.work + per_candidate * waiting > self.limit {
                    self.stats.projected += 1;
                    return Err(OutOfBudget);
                }
            }
            self.stats.work += 1;
            if self.state(v) != GOOD {
                continue;
            }
            let Node { rank, choice, ptr, .. } = self.node[v as usize];
            let valid = |w: u32| self.state(w) == GOOD && self.node[w as usize].rank < rank;
            if valid(choice) {
                continue; // A stale entry: already repaired.
            }
            let succ = game.succ(v);
            let skip = succ[ptr as usize..].iter().position(|&w| valid(w));
            self.stats.work += skip.map_or(succ.len() - ptr as usize, |k| k + 1) as u64;
            match skip {
                Some(k) => {
                    self.stats.repaired += 1;
                    let node = &mut self.node[v as usize];
                    node.ptr = ptr + k as u32;
                    node.choice = succ[node.ptr as usize];
                }
                None => {
                    let round = self.stats.rounds as u32;
                    let node = &mut self.node[v as usize];
                    node.ptr = succ.len() as u32;
                    let fresh = node.mark != round;
                    node.mark = round;
                    if fresh && self.repairs.lift && self.lift(v) {
                        self.stats.lifted += 1;
                    } else if fresh && self.repairs.bump && self.bump(v)? {
                        self.stats.bumped += 1;
                    } else {
                        self.fail(v)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The second way to repair `v`: re-rank it between a new witness and the stations that
    /// depend on it (Arezou stations with `v` as witness, Borzou stations with a track to
    /// `v`), if some successor in `W` ranks low enough for that, possibly after *sinking* it
    /// (see [`Solver::sink_below`]). Every justification still points down the order, so
    /// nothing else changes. `v` takes the rank just below its lowest dependent, as high as it
    /// may go, so that a chain whose stations each move below the one before (the cascade)
    /// uses up one rank a round; if nothing depends on `v`, it takes the lowest such
    /// successor and ranks `GAP` above it, low enough to serve as a witness later.
    /// Returns whether it worked. `O(deg(v) · SINK_DEPTH + in-degree(v))`.
    ///
    /// A chain of stations that each switch to the next one as the round's charger goes (the
    /// cascade) would otherwise fail, with everything hanging off it, every round.
    fn lift(&mut self, v: u32) -> bool {
        let game = self.game;
        self.stats.work += (game.pred(v).len() + game.succ(v).len()) as u64;
        let mut ceiling = u64::MAX;
        for &p in game.pred(v) {
            let b = self.st[p as usize];
            if b & (STATE | CHARGING) != GOOD {
                continue;
            }
            let node = &self.node[p as usize];
            if b & AREZOU == 0 || node.choice == v {
                ceiling = ceiling.min(node.rank);
            }
        }
        // `v` must rank strictly between its witness and its dependents; `v` itself is still
        // in `W` and must not be its own witness. Whatever depends on `v` ranks at least
        // `ceiling`, so no cycle can form otherwise.
        let succ = game.succ(v);
        if !self.repairs.sink {
            return self.lift_to_the_top(v, ceiling);
        }
        let lowest = succ
            .iter()
            .enumerate()
            .filter(|&(_, &w)| w != v && self.state(w) == GOOD)
            .map(|(k, &w)| (self.node[w as usize].rank, k))
            .min();
        let (witness_rank, k) = match lowest {
            Some((rank, k)) if rank.saturating_add(1) < ceiling => (rank, k),
            _ => {
                let Some((k, rank)) = self.sink_below(v, ceiling) else { return false };
                (rank, k)
            }
        };
        let rank = if ceiling == u64::MAX { witness_rank.saturating_add(GAP) } else { ceiling - 1 };
        debug_assert!(witness_rank < rank && rank < ceiling);
        if rank >= self.next_rank {
            // New stations of `W` must keep ranking above every station.
            if rank > u64::MAX - 2 * GAP {
                self.renumber();
                return self.lift(v);
            }
            self.next_rank = rank + GAP;
        }
        let node = &mut self.node[v as usize];
        node.rank = rank;
        node.choice = succ[k];
        // The scan resumes at the witness: entries before it may have become usable, which
        // only costs a repair chance.
        node.ptr = k as u32;
        true
    }

    /// [`Solver::lift`] without sinking, as the solver lifted before the adversarial families
    /// were found (kept to show what they do to it): the first successor ranking below
    /// `ceiling - 1` becomes the witness, and a station nothing depends on goes to the top.
    fn lift_to_the_top(&mut self, v: u32, ceiling: u64) -> bool {
        let rank = if ceiling == u64::MAX { self.next_rank } else { ceiling - 1 };
        let succ = self.game.succ(v);
        let usable = |w: u32| w != v && self.state(w) == GOOD && self.node[w as usize].rank < rank;
        let Some(k) = succ.iter().position(|&w| usable(w)) else {
            return false;
        };
        if ceiling == u64::MAX {
            if self.next_rank > u64::MAX - GAP {
                self.renumber();
                return self.lift(v);
            }
            self.next_rank += GAP;
        }
        let node = &mut self.node[v as usize];
        node.rank = rank;
        node.choice = succ[k];
        node.ptr = k as u32;
        true
    }

    /// A successor of `v` that can *sink* so that `v` fits between it and `ceiling`: the
    /// stations of its witness chain (see [`Solver::witness_chain`]), up to [`SINK_DEPTH`] of
    /// them, move down to the ranks just below `v`'s new one, `ceiling - 1`, one apart, if
    /// what the chain rests on ranks lower still. Moving a station down never breaks a
    /// justification (whatever depends on it ranks above its old rank). No cycle forms: a
    /// chain through `v` is refused, and a chain that reached `v` beyond the depth would end
    /// at a station depending on one of `v`'s dependents, ranked above `ceiling`, so no
    /// station of it could move below `ceiling`. Sinks the first successor that fits and
    /// returns its index and new rank. `O(deg(v) · SINK_DEPTH)`.
    ///
    /// A chain that grows at its far end every round (the `avalanche` families) gets its new
    /// link ranked by the breadth-first order of the attractor, often just above the station
    /// that now needs it; without sinking, the station could only be bumped, moving the chain
    /// and all that hangs off it, and the bump was often called off.
    fn sink_below(&mut self, v: u32, ceiling: u64) -> Option<(usize, u64)> {
        let game = self.game;
        let succ = game.succ(v);
        let mut chain = std::mem::take(&mut self.chain);
        let mut found = None;
        let mut walks = SINK_WALKS;
        'successors: for (k, &w) in succ.iter().enumerate() {
            if w == v || self.state(w) != GOOD {
                continue;
            }
            // `w` with its own witness chain.
            chain.clear();
            let own = self.witness_chain([v, v], w, &mut chain);
            if own.is_some_and(|base| self.place_chain(&chain, base, ceiling)) {
                found = Some((k, self.node[w as usize].rank));
                break;
            }
            // `w` re-witnessed: an Arezou station of `W` may switch to another successor
            // whose chain fits below it (the chain may pass through neither `v` nor `w`).
            if self.st[w as usize] & (STATE | AREZOU | CHARGING) != GOOD | AREZOU {
                continue;
            }
            for (k2, &w2) in game.succ(w).iter().enumerate() {
                if walks == 0 {
                    break 'successors;
                }
                walks -= 1;
                if w2 == v || w2 == w || self.state(w2) != GOOD {
                    continue;
                }
                chain.clear();
                chain.push(w);
                let Some(base) = self.witness_chain([v, w], w2, &mut chain) else { continue };
                if self.place_chain(&chain, base, ceiling) {
                    let node = &mut self.node[w as usize];
                    node.choice = w2;
                    node.ptr = k2 as u32;
                    found = Some((k, node.rank));
                    break 'successors;
                }
            }
        }
        self.chain = chain;
        found
    }

    /// Lowers the stations of `chain`, which rests on a station of rank `base`, to the ranks
    /// just below `ceiling - 1`, one apart (never raising one), if they fit above `base`.
    /// Returns whether they did.
    fn place_chain(&mut self, chain: &[u32], base: u64, ceiling: u64) -> bool {
        // A chain that keeps growing below the last one (the star detour) thus uses up its
        // room one rank a link, not half of it a round as spreading it out would.
        let len = chain.len() as u64;
        self.stats.work += len + 1;
        if ceiling.saturating_sub(base) <= len + 1 {
            return false;
        }
        for (i, &x) in chain.iter().enumerate() {
            let node = &mut self.node[x as usize];
            node.rank = node.rank.min(ceiling - 2 - i as u64);
        }
        self.stats.sunk += chain.len();
        true
    }

    /// The chain from `w` that [`Solver::sink_below`] may lower, appended to `chain` until it
    /// holds at most [`SINK_DEPTH`] stations of `W`: an Arezou station continues with its
    /// witness, if that ranks below it; a Borzou station with one track continues with its
    /// successor; a Borzou station with more tracks ends the chain, just above the highest
    /// of its successors. Returns the rank the last station must stay above (`w`'s own, if
    /// `w` cannot sink and `chain` already holds a station that will rest on it), or `None`
    /// if the chain would pass through a station of `forbidden` or nothing can sink.
    /// `O(SINK_DEPTH + deg)` of the last station.
    fn witness_chain(&mut self, forbidden: [u32; 2], w: u32, chain: &mut Vec<u32>) -> Option<u64> {
        let game = self.game;
        let mut x = w;
        loop {
            let b = self.st[x as usize];
            let node = &self.node[x as usize];
            if b & (STATE | CHARGING) != GOOD {
                return (!chain.is_empty()).then_some(node.rank);
            }
            let succ = game.succ(x);
            let below = if b & AREZOU != 0 {
                node.choice
            } else if let [only] = succ {
                *only
            } else {
                // Every successor of a Borzou station of `W` is in `W`, below it.
                self.stats.work += succ.len() as u64;
                if forbidden.iter().any(|f| succ.contains(f)) {
                    return None;
                }
                chain.push(x);
                return succ.iter().map(|&s| self.node[s as usize].rank).max();
            };
            if self.state(below) != GOOD || self.node[below as usize].rank >= node.rank {
                return (!chain.is_empty()).then_some(node.rank);
            }
            if forbidden.contains(&below) {
                return None;
            }
            chain.push(x);
            if chain.len() == SINK_DEPTH {
                return Some(self.node[below as usize].rank);
            }
            x = below;
        }
    }

    /// The third way to repair `v`: take the successor `w` in `W` of lowest rank as witness,
    /// rank `v` just above it, and move up whatever depends on `v` and no longer ranks above
    /// what it depends on, in order of rank (a variant of Pearce and Kelly's dynamic
    /// topological ordering). If `w` itself would have to move, it depends on `v` and taking
    /// it would close a cycle: then, as when the round's budget runs out, nothing changes and
    /// this returns `false`. Cost `O(deg(v))` plus `O(k log k)` for the `k` tracks looked
    /// at, which the round's budget caps.
    ///
    /// A chain whose next link ranks above the stations hanging off its head (the `detour`
    /// family) would otherwise fail, with all of them, every round.
    fn bump(&mut self, v: u32) -> Result<bool, OutOfBudget> {
        let game = self.game;
        let succ = game.succ(v);
        self.stats.work += succ.len() as u64;
        let lowest = succ
            .iter()
            .enumerate()
            .filter(|&(_, &w)| w != v && self.state(w) == GOOD)
            .min_by_key(|&(_, &w)| self.node[w as usize].rank);
        let Some((_, &w)) = lowest else { return Ok(false) };
        if self.plan.is_empty() {
            self.plan = game::huge_zeroed(game.n());
        }
        let (mut plan, mut planned) =
            (std::mem::take(&mut self.plan), std::mem::take(&mut self.planned));
        let mut by_rank = std::mem::take(&mut self.by_rank);
        by_rank.clear();
        plan[v as usize] = self.node[w as usize].rank + 1;
        planned.push(v);
        by_rank.push(Reverse((self.node[v as usize].rank, v)));
        let mut ok = true;
        let mut out_of_budget = false;
        // Old ranks order the dependencies, so a station is taken up only after every
        // station it depends on that moves: its planned rank is final by then.
        'plan: while let Some(Reverse((_, x))) = by_rank.pop() {
            if self.stats.work > self.limit {
                (ok, out_of_budget) = (false, true);
                break;
            }
            let above = plan[x as usize];
            let pred = game.pred(x);
            self.stats.work += pred.len() as u64;
            if pred.len() > self.bump_budget {
                ok = false;
                break;
            }
            self.bump_budget -= pred.len();
            for &p in pred {
                let b = self.st[p as usize];
                let node = &self.node[p as usize];
                if b & (STATE | CHARGING) != GOOD || (b & AREZOU != 0 && node.choice != x) {
                    continue; // `p` does not depend on `x`.
                }
                let planned_rank = plan[p as usize];
                if planned_rank.max(node.rank) > above {
                    continue;
                }
                if p == w {
                    ok = false;
                    break 'plan;
                }
                plan[p as usize] = above + 1;
                if planned_rank == 0 {
                    // A planned station costs a heap push and pop and four more random
                    // accesses (its plan, its rank read and written, the list of plans):
                    // charged here, as measured against the classic solver's units. The
                    // limit is checked here too, so that a station with many dependents
                    // cannot take the work far past it in one step.
                    self.stats.work += (4 + 2 * heap_op(by_rank.len() + 1)) as u64;
                    planned.push(p);
                    by_rank.push(Reverse((node.rank, p)));
                    if self.stats.work > self.limit {
                        (ok, out_of_budget) = (false, true);
                        break 'plan;
                    }
                }
            }
        }
        let mut top = 0;
        for &x in &planned {
            // The others keep their scan pointers: skipping successors that have become
            // usable only costs a repair chance, and keeps the scans linear.
            if ok {
                self.node[x as usize].rank = plan[x as usize];
                top = top.max(plan[x as usize]);
            }
            plan[x as usize] = 0;
        }
        if ok {
            let node = &mut self.node[v as usize];
            node.choice = w;
            node.ptr = 0;
            self.stats.moved += planned.len() - 1;
            if top >= self.next_rank {
                self.next_rank = top.saturating_add(GAP);
            }
        }
        planned.clear();
        (self.plan, self.planned, self.by_rank) = (plan, planned, by_rank);
        if out_of_budget {
            return Err(OutOfBudget);
        }
        self.stats.called_off += usize::from(!ok);
        Ok(ok)
    }

    /// Marks `v` failed and spreads the failure. `O(Σ in-degree)` of the stations failed.
    ///
    /// # Errors
    /// The work counter passed the round's limit: the round must be recomputed.
    fn fail(&mut self, v: u32) -> Result<(), OutOfBudget> {
        let game = self.game;
        self.set_state(v, FAILED);
        self.failed.push(v);
        self.stack.push(v);
        while let Some(x) = self.stack.pop() {
            if self.stats.work > self.limit {
                return Err(OutOfBudget);
            }
            self.stats.work += 1 + game.pred(x).len() as u64;
            for &p in game.pred(x) {
                let b = self.st[p as usize];
                let node = &mut self.node[p as usize];
                match (b & STATE, b & AREZOU != 0) {
                    (GOOD, _) if b & CHARGING != 0 => {}
                    (GOOD, false) => {
                        node.count = 1;
                        node.mark = self.epoch;
                        self.set_state(p, FAILED);
                        self.failed.push(p);
                        self.stack.push(p);
                    }
                    (GOOD, true) if node.choice == x => self.candidates.push(p),
                    (FAILED, false) => node.count += 1,
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Attracts the failed stations again, backward from the surviving `W`; the rest is the
    /// next trap. `O(Σ deg)` of the failed stations.
    ///
    /// # Errors
    /// The work counter passed the round's limit: the round must be recomputed.
    fn reattract(&mut self) -> Result<(), OutOfBudget> {
        let game = self.game;
        for i in 0..self.failed.len() {
            if self.stats.work > self.limit {
                return Err(OutOfBudget);
            }
            let v = self.failed[i];
            self.stats.work += 1;
            if self.st[v as usize] & (STATE | AREZOU) == FAILED | AREZOU {
                self.stats.work += game.succ(v).len() as u64;
                let good = game.succ(v).iter().find(|&&w| self.state(w) == GOOD);
                if let Some(&w) = good {
                    self.attract(v, w);
                }
            }
        }
        self.stats.reattracted += self.propagate(self.limit)?;
        self.stats.failed += self.failed.len();
        let st = &self.st;
        self.trap.extend(self.failed.iter().filter(|&&v| st[v as usize] & STATE == FAILED));
        self.failed.clear();
        Ok(())
    }

    /// Reads off the regions and completes the strategies.
    fn finish(self) -> (Solution, Stats) {
        let game = self.game;
        let mut stats = self.stats;
        stats.work += game.n() as u64;
        let mut wins = game::huge_capacity(game.n());
        let mut strategy = game::huge_capacity(game.n());
        for v in game.stations() {
            let b = self.st[v as usize];
            let alive = b & STATE != DEAD;
            let arezou = b & AREZOU != 0;
            wins.push(alive);
            strategy.push(if alive != arezou {
                // The loser's station: its first track.
                game.succ(v)[0]
            } else if alive && b & CHARGING != 0 {
                // Arezou at a charger: any track that stays in her region.
                let stay = game.succ(v).iter().find(|&&w| self.state(w) != DEAD);
                stay.copied().unwrap_or(game.succ(v)[0])
            } else {
                self.node[v as usize].choice
            });
        }
        (Solution { arezou_wins: wins, strategy }, stats)
    }
}

/// On a graph too large for the cache, levels of at least this many stations (and a 64th
/// of all) are searched in the order of the stations.
const SORT_FROM: usize = 1 << 14;

/// What the searches may read at random, in bytes, beyond which a graph counts as too large
/// for the cache: the processor's last-level cache (32 MiB on the machine measured).
const CACHE_BYTES: usize = 32 << 20;

/// Whether the searches' working set, read at random, is larger than [`CACHE_BYTES`]: the
/// state byte, the record and the offset of each station (29 bytes) and a predecessor a
/// track (4). Only then do sorted levels pay: on a graph in the cache, a list read in
/// station order costs what one read at random does, and deciding each level whether to
/// sort it is pure overhead where levels hold a station or two (`undertow`, which rebuilds
/// every round, was 10-15% slower with it).
fn too_large_for_cache(game: &Game) -> bool {
    29 * game.n() + 4 * game.m() > CACHE_BYTES
}

/// Puts the stations of a level of a backward search (distinct stations) in increasing
/// order if it has at least `from` stations and a 64th of all, through `bits`, a bit a
/// station, left clear; returns whether it did. The search then reads the predecessor
/// lists, and their offsets, in the order they lie in memory, not at random: on a graph too
/// large for the cache, that is what a level costs most. The search stays breadth-first;
/// the order within a level only chooses among equally good witnesses and ranks.
/// `O(level + n / 64)`, so `O(level)`; nothing for the levels left as they are.
fn sort_level(level: &mut [u32], bits: &mut [u64], from: usize) -> bool {
    if level.len() < from || level.len() < bits.len() {
        return false;
    }
    for &v in level.iter() {
        bits[v as usize / 64] |= 1 << (v % 64);
    }
    let mut at = 0;
    for (w, word) in bits.iter_mut().enumerate() {
        while *word != 0 {
            level[at] = (w * 64) as u32 + word.trailing_zeros();
            at += 1;
            *word &= *word - 1;
        }
    }
    debug_assert_eq!(at, level.len(), "the stations of a level are distinct");
    true
}

/// How far ahead in its queue a search reads a predecessor list early.
const AHEAD: usize = 8;

/// Reads the first predecessor of the station [`AHEAD`] places after `head` in `queue`, and
/// drops it; done only in sorted levels (elsewhere the lists are in the cache, and the read
/// only costs time). On a graph too large for the cache, the list (and its offsets before
/// it) then arrives while the stations before it are searched, instead of being waited for
/// when its turn comes. (Safe Rust has no prefetch instruction; an ordinary read does the same, at
/// the cost of some room in the processor's reorder buffer.)
#[inline(always)]
fn read_ahead(game: &Game, queue: &[u32], head: usize) {
    if let Some(&ahead) = queue.get(head + AHEAD) {
        std::hint::black_box(game.pred(ahead).first().copied());
    }
}

/// Appends the stations whose state is `FAILED` to `out`, in order. `O(n)`, but eight state
/// bytes are tested at once: a word whose bytes all differ from `FAILED` in their state bits
/// is skipped with a few arithmetic operations.
fn collect_failed(st: &[u8], out: &mut Vec<u32>) {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const STATES: u64 = LOW * STATE as u64;
    let words = st.chunks_exact(8);
    let rest = words.remainder();
    for (w, chunk) in words.enumerate() {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks of eight"));
        // A byte of `x` is zero exactly where the state bits equal `FAILED`.
        let x = (word & STATES) ^ (LOW * u64::from(FAILED));
        if x.wrapping_sub(LOW) & !x & HIGH == 0 {
            continue;
        }
        for (i, &b) in chunk.iter().enumerate() {
            if b & STATE == FAILED {
                out.push((w * 8 + i) as u32);
            }
        }
    }
    let base = st.len() - rest.len();
    for (i, &b) in rest.iter().enumerate() {
        if b & STATE == FAILED {
            out.push((base + i) as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::{Family, GenParams, generate};

    #[test]
    fn failed_stations_are_collected_eight_at_a_time_and_one_by_one() {
        let mut rng = engine::rng::SplitMix64::new(8);
        for len in [0, 1, 7, 8, 9, 63, 64, 65, 200] {
            for density in [0, 1, 5, 100] {
                let st: Vec<u8> = (0..len)
                    .map(|_| {
                        let state = if rng.chance(density, 100) {
                            FAILED
                        } else {
                            [GOOD, DEAD][rng.below(2)]
                        };
                        state
                            | if rng.chance(1, 2) { AREZOU } else { 0 }
                            | if rng.chance(1, 3) { CHARGING } else { 0 }
                    })
                    .collect();
                let mut got = Vec::new();
                collect_failed(&st, &mut got);
                let want: Vec<u32> =
                    (0..len as u32).filter(|&v| st[v as usize] & STATE == FAILED).collect();
                assert_eq!(got, want, "length {len}, density {density}");
            }
        }
    }

    #[test]
    fn levels_searched_in_order_give_the_same_answers() {
        let mut sorted = 0;
        for (family, _) in Family::ALL {
            for seed in 0..16 {
                let n = [5, 40, 300, 3_000][seed as usize % 4];
                let mut params = GenParams::new(family, n, seed);
                params.shuffle = seed % 2 == 1;
                let Ok(railway) = generate(&params) else { continue };
                let game = railway.to_game().unwrap();
                let want = crate::classic::solve(&game).arezou_wins;
                let budget = Budget::Slack { per_mille: [62, 0][seed as usize % 2] };
                let repairs = Repairs { budget, ..Repairs::default() };
                let (got, stats) = solve_sorting(&game, 1, repairs, 0);
                assert_eq!(got.arezou_wins, want, "{family} {seed}");
                crate::verify(&game, &got).unwrap();
                sorted += usize::from(stats != solve_with(&game, repairs).1);
            }
        }
        // Sorting changes the ranks, and with them the repairs, on many of the railways.
        assert!(sorted > 30, "{sorted}");
        // Railways large enough for the threshold of large graphs to sort their levels.
        for family in [Family::Random, Family::Arezou, Family::Borzou] {
            let game = generate(&GenParams::new(family, 200_000, 5)).unwrap().to_game().unwrap();
            let (got, _) = solve_sorting(&game, 1, Repairs::default(), SORT_FROM);
            assert_eq!(got.arezou_wins, crate::classic::solve(&game).arezou_wins, "{family}");
            crate::verify(&game, &got).unwrap();
            assert_ne!(solve_sorting(&game, 1, Repairs::default(), usize::MAX).0, got, "{family}");
            // They fit in the cache, so the default leaves them unsorted.
            assert!(!too_large_for_cache(&game));
            assert_eq!(solve(&game), solve_sorting(&game, 1, Repairs::default(), usize::MAX).0);
        }
    }

    #[test]
    fn levels_are_sorted_through_the_bits() {
        let mut rng = engine::rng::SplitMix64::new(9);
        for n in [1usize, 63, 64, 65, 1000] {
            let mut bits = vec![0; n.div_ceil(64)];
            let mut level: Vec<u32> = (0..n as u32).filter(|_| rng.chance(1, 2)).collect();
            rng.shuffle(&mut level);
            let mut want = level.clone();
            want.sort_unstable();
            let sorted = sort_level(&mut level, &mut bits, 0);
            assert_eq!(sorted, level.len() >= bits.len(), "{n}");
            if sorted {
                assert_eq!(level, want);
            }
            assert!(bits.iter().all(|&w| w == 0));
        }
    }

    #[test]
    fn ranks_survive_the_counter_wrapping() {
        let mut renumbered = 0;
        for (family, seeds) in [(Family::Random, 40), (Family::Cascade, 3), (Family::Detour, 3)] {
            for seed in 0..seeds {
                let mut params = GenParams::new(family, 300, seed);
                params.charging_per_mille = Some(60);
                let game = generate(&params).unwrap().to_game().unwrap();
                let want = crate::classic::solve(&game).arezou_wins;
                for first in [1, u64::MAX - 70 * GAP, u64::MAX - GAP] {
                    let (got, stats) = solve_from_rank(&game, first, Repairs::default());
                    assert_eq!(got.arezou_wins, want, "{family} {seed}, first rank {first}");
                    crate::verify(&game, &got).unwrap();
                    renumbered += usize::from(first > 1 && stats.rounds > 0);
                }
            }
        }
        assert!(renumbered >= 20);
    }
}
