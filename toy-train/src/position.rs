//! One position of the game as IOI's statement plays it (switches set on first visit) at a
//! time: its legal moves, the position after one, and its exact value, for the jury, `play`
//! and `query`.
//!
//! # The game from a position
//! A position is the train's walk so far, `path = [p_0, ..., p_k]`, distinct stations: every
//! switch along it is set (`p_i` to `p_(i+1)`), the train stands at `p_k`, whose switch is
//! not set yet, and the owner of `p_k` moves: it picks a track `p_k -> w`. If `w` is on the
//! path the train will run the cycle `p_j, ..., p_k, w = p_j` forever and the game is over:
//! Arezou wins iff that cycle holds a charging station. Otherwise `w` joins the path. So a
//! game ends within `n` moves.
//!
//! # Who wins: the Büchi game with the path's switches fixed
//! **Claim.** The winner of the position is the winner, from `p_k`, of the Büchi game on the
//! graph `G'` where each `p_i` with `i < k` keeps only its track to `p_(i+1)` (every other
//! station keeps all its tracks).
//!
//! *Proof.* Büchi games are determined with positional strategies: say Arezou wins `G'` from
//! `p_k` with a positional strategy `σ` (Borzou's case is the same with the roles
//! exchanged). In the first-visit game let her set each switch of hers by `σ`. Take any way
//! Borzou sets his; the walk goes `p_k, q_1, ..., q_t` over new stations and then reaches a
//! station `u` already passed, closing the cycle `C` from `u`. Every switch on `C` is set, by
//! the path (which `G'` fixes) or in this game (by `σ` for Arezou's stations, by Borzou's
//! choices for his). The infinite walk of `G'` that follows the same tracks, and then goes
//! round `C` forever with Borzou repeating his choices, is a play of `G'` from `p_k`
//! consistent with `σ`: Arezou wins it, so it passes a charging station infinitely often, and
//! after its first `t + 1` moves it only goes round `C`: `C` holds a charging station. So
//! Arezou wins the first-visit game. ∎
//!
//! Hence the crate's solver decides any position: build `G'` (`O(n + m)`) and solve it
//! (`O(n · m)` worst case, linear on every family found so far; see [`crate::solve`]).
//!
//! # Remoteness
//! The remoteness of a position is the number of moves until the cycle closes when the
//! winner closes a winning cycle as fast as it can and the loser delays it as long as it can
//! (GamesmanOne's convention). Computing it is NP-hard in general: on a railway that Arezou
//! owns entirely, without a charging station, Borzou wins and Arezou, the loser, delays by
//! walking the longest simple path from the start, so the remoteness is one more than that
//! path's length, and a Hamiltonian path from `s` exists iff it is `n`. So the remoteness is
//! computed exactly when at most [`EXACT_STATIONS`] stations are *ahead* (not on the path and
//! reachable from the train through stations not on the path), by a memoized search over
//! (stations passed, stations passed since the last charging station, the train's station):
//! the cycle closing back onto the walk of the search holds a charging station iff it closes
//! onto a station passed at or before the last charging station, so those three say all
//! that matters; at most `3^E · E` states of `O(d)` each for `E` stations ahead. With more
//! stations ahead the value has no remoteness (`None`) and says only who wins.

use std::collections::HashMap;

use judge::game::Value;

use crate::game::{Game, Player};

/// Most stations ahead of the train for which the remoteness is computed exactly.
pub const EXACT_STATIONS: usize = 10;

/// A position: the walk so far, and whether the last move closed the cycle.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The stations passed, in order, the train's last; distinct.
    pub path: Vec<u32>,
    /// When the game is over: the index in `path` of the station the last move returned to,
    /// where the final cycle starts.
    pub closed_at: Option<usize>,
}

/// Who wins a position and in how many moves (`None`: not computed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner.
    pub winner: Player,
    /// Moves until the cycle closes.
    pub remoteness: Option<u32>,
}

impl Outcome {
    /// The outcome as a value for `player`.
    #[must_use]
    pub fn value_for(self, player: Player) -> Value {
        let remoteness = self.remoteness;
        if self.winner == player { Value::Win { remoteness } } else { Value::Lose { remoteness } }
    }
}

impl Position {
    /// The train at `start`, no switch set.
    #[must_use]
    pub fn start(start: u32) -> Self {
        Self { path: vec![start], closed_at: None }
    }

    /// The station the train is at.
    #[must_use]
    pub fn current(&self) -> u32 {
        *self.path.last().expect("a walk has a station")
    }

    /// Who sets the switch at the train's station.
    #[must_use]
    pub fn mover(&self, game: &Game) -> Player {
        Player::of(game.arezou(self.current()))
    }

    /// The winner once the cycle is closed: Arezou iff it holds a charging station. `O(n)`.
    #[must_use]
    pub fn winner_if_over(&self, game: &Game) -> Option<Player> {
        let from = self.closed_at?;
        Some(Player::of(self.path[from..].iter().any(|&s| game.charging(s))))
    }

    /// The stations the mover may send the train to: the distinct heads of the tracks out of
    /// the train's station, in input order; none once the game is over. `O(d²)` for the
    /// out-degree `d` (`O(d)` with few duplicates).
    #[must_use]
    pub fn moves(&self, game: &Game) -> Vec<u32> {
        if self.closed_at.is_some() {
            return Vec::new();
        }
        let mut moves: Vec<u32> = Vec::new();
        for &t in game.succ(self.current()) {
            if !moves.contains(&t) {
                moves.push(t);
            }
        }
        moves
    }

    /// The position after the train goes to `to`. `O(k)` for a walk of `k` stations.
    ///
    /// # Panics
    /// When the game is over.
    #[must_use]
    pub fn after(&self, to: u32) -> Self {
        assert!(self.closed_at.is_none(), "the game is over");
        let mut next = self.clone();
        match self.path.iter().position(|&s| s == to) {
            Some(at) => next.closed_at = Some(at),
            None => next.path.push(to),
        }
        next
    }

    /// The graph `G'` of the module notes: every station passed but the train's keeps only
    /// its track along the walk. `O(n + m)`.
    fn fixed_game(&self, game: &Game) -> Game {
        let n = game.n();
        let mut next = vec![u32::MAX; n];
        for pair in self.path.windows(2) {
            next[pair[0] as usize] = pair[1];
        }
        let mut tracks = Vec::with_capacity(game.m());
        for s in game.stations() {
            match next[s as usize] {
                u32::MAX => tracks.extend(game.succ(s).iter().map(|&t| (s, t))),
                t => tracks.push((s, t)),
            }
        }
        let arezou: Vec<bool> = game.stations().map(|s| game.arezou(s)).collect();
        let charging: Vec<bool> = game.stations().map(|s| game.charging(s)).collect();
        Game::new(&arezou, &charging, &tracks).expect("G' keeps a track out of every station")
    }
}

/// Who wins `position` and, when at most [`EXACT_STATIONS`] stations are ahead, in how many
/// moves: `O(n + m)` to build `G'` plus the solver's time, plus the search of the module
/// notes.
#[must_use]
pub fn outcome(game: &Game, position: &Position) -> Outcome {
    if let Some(winner) = position.winner_if_over(game) {
        return Outcome { winner, remoteness: Some(0) };
    }
    if let Some(exact) = Search::new(game, position).map(|mut s| s.run()) {
        return exact;
    }
    let fixed = position.fixed_game(game);
    let solution = crate::solve(&fixed, crate::Solver::Fast);
    let winner = Player::of(solution.arezou_wins[position.current() as usize]);
    Outcome { winner, remoteness: None }
}

/// The value of `position` for its mover. As [`outcome`].
#[must_use]
pub fn value(game: &Game, position: &Position) -> Value {
    outcome(game, position).value_for(position.mover(game))
}

/// Every move of `position` with its value for the mover: one [`outcome`] a move.
#[must_use]
pub fn moves(game: &Game, position: &Position) -> Vec<(u32, Value)> {
    let mover = position.mover(game);
    position
        .moves(game)
        .into_iter()
        .map(|to| {
            let after = outcome(game, &position.after(to));
            let later = Outcome { remoteness: after.remoteness.map(|r| r + 1), ..after };
            (to, later.value_for(mover))
        })
        .collect()
}

/// The exact search of the module notes over the stations ahead of the train.
struct Search<'a> {
    game: &'a Game,
    /// Local index of each station ahead (the train's is 0), by station.
    local: HashMap<u32, u8>,
    /// The stations ahead, by local index.
    stations: Vec<u32>,
    /// For a station on the walk before the train's: whether the walk from it on holds a
    /// charging station.
    charged_from: HashMap<u32, bool>,
    /// Outcome by (passed, passed since the last charging station, station).
    memo: HashMap<(u16, u16, u8), (bool, u32)>,
}

impl<'a> Search<'a> {
    /// The search from `position`, or `None` with more than [`EXACT_STATIONS`] stations
    /// ahead. `O(k + E · d)` for a walk of `k` stations.
    fn new(game: &'a Game, position: &Position) -> Option<Self> {
        let on_path: HashMap<u32, usize> =
            position.path.iter().enumerate().map(|(i, &s)| (s, i)).collect();
        let current = position.current();
        let mut stations = vec![current];
        let mut local = HashMap::from([(current, 0u8)]);
        let mut next = 0;
        while next < stations.len() {
            for &t in game.succ(stations[next]) {
                if !on_path.contains_key(&t) && !local.contains_key(&t) {
                    if stations.len() == EXACT_STATIONS {
                        return None;
                    }
                    local.insert(t, stations.len() as u8);
                    stations.push(t);
                }
            }
            next += 1;
        }
        let before = &position.path[..position.path.len() - 1];
        let mut charged_from = HashMap::new();
        let mut charged = false;
        for &s in before.iter().rev() {
            charged |= game.charging(s);
            charged_from.insert(s, charged);
        }
        Some(Self { game, local, stations, charged_from, memo: HashMap::new() })
    }

    /// The outcome from the train's station.
    fn run(&mut self) -> Outcome {
        let here = self.stations[0];
        let recent = if self.game.charging(here) { 0 } else { 1 };
        let (arezou, remoteness) = self.solve(1, recent, 0);
        Outcome { winner: Player::of(arezou), remoteness: Some(remoteness) }
    }

    /// Whether Arezou wins, and in how many moves, with the stations ahead in `passed` passed
    /// (those in `recent` after the last charging station among them) and the train at local
    /// station `at`.
    fn solve(&mut self, passed: u16, recent: u16, at: u8) -> (bool, u32) {
        if let Some(&known) = self.memo.get(&(passed, recent, at)) {
            return known;
        }
        let here = self.stations[usize::from(at)];
        let arezou_moves = self.game.arezou(here);
        let mut best: Option<(bool, u32)> = None;
        for &t in self.game.succ(here) {
            let result = if let Some(&charged) = self.charged_from.get(&t) {
                // Back onto the walk before the search: its part from `t` on, and all of
                // the search's.
                (charged || passed != recent, 1)
            } else {
                let i = self.local[&t];
                let bit = 1u16 << i;
                if passed & bit != 0 {
                    (recent & bit == 0, 1)
                } else {
                    let charging = self.game.charging(t);
                    let recent = if charging { 0 } else { recent | bit };
                    let (win, r) = self.solve(passed | bit, recent, i);
                    (win, r + 1)
                }
            };
            // The mover's view: a win for them first, fastest; else slowest.
            let key = |(arezou, r): (bool, u32)| {
                let mine = arezou == arezou_moves;
                (!mine, if mine { i64::from(r) } else { -i64::from(r) })
            };
            if best.is_none_or(|b| key(result) < key(b)) {
                best = Some(result);
            }
        }
        let best = best.expect("every station has a track");
        self.memo.insert((passed, recent, at), best);
        best
    }
}

#[cfg(test)]
mod tests {
    use engine::rng::SplitMix64;

    use super::*;
    use crate::brute;

    /// A random railway of `n` stations, every station with one to three tracks.
    fn railway(rng: &mut SplitMix64, n: usize) -> Game {
        let arezou: Vec<bool> = (0..n).map(|_| rng.chance(1, 2)).collect();
        let charging: Vec<bool> = (0..n).map(|_| rng.chance(1, 3)).collect();
        let mut tracks = Vec::new();
        for u in 0..n as u32 {
            for _ in 0..rng.range(1, 3) {
                let v = rng.below(n) as u32;
                if !tracks.contains(&(u, v)) {
                    tracks.push((u, v));
                }
            }
        }
        Game::new(&arezou, &charging, &tracks).unwrap()
    }

    /// The outcome by the rules: every walk played out, no memo.
    fn literal(game: &Game, position: &Position) -> (Player, u32) {
        if let Some(winner) = position.winner_if_over(game) {
            return (winner, 0);
        }
        let mover = position.mover(game);
        let results = position.moves(game).into_iter().map(|t| literal(game, &position.after(t)));
        results
            .map(|(w, r)| (w, r + 1))
            .min_by_key(|&(w, r)| if w == mover { (0, i64::from(r)) } else { (1, -i64::from(r)) })
            .unwrap()
    }

    #[test]
    fn positions_agree_with_the_rules_and_the_brute_force() {
        let mut rng = SplitMix64::new(17);
        let mut checked = 0;
        for round in 0..600 {
            let game = railway(&mut rng, 2 + round % 7);
            let mut p = Position::start(rng.below(game.n()) as u32);
            while p.closed_at.is_none() {
                let (winner, remoteness) = literal(&game, &p);
                assert_eq!(outcome(&game, &p), Outcome { winner, remoteness: Some(remoteness) });
                // The claim of the module notes, against the brute force with the walk's
                // switches set.
                let mut switches = vec![None; game.n()];
                for pair in p.path.windows(2) {
                    switches[pair[0] as usize] = Some(pair[1]);
                }
                let brute = brute::winners_with_switches(&game, &switches).unwrap();
                assert_eq!(Player::of(brute[p.current() as usize]), winner);
                let fixed = crate::solve(&p.fixed_game(&game), crate::Solver::Fast);
                assert_eq!(Player::of(fixed.arezou_wins[p.current() as usize]), winner);
                checked += 1;
                let options = p.moves(&game);
                p = p.after(options[rng.below(options.len())]);
            }
        }
        assert!(checked > 1_000, "{checked}");
    }
}
