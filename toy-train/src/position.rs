//! One position of the game as IOI's statement plays it (switches set on first visit) at a
//! time: its legal moves, the position after one, and its exact value; and the game as a
//! [`games::Game`] ([`TrainGame`]) for the jury of the interactive version, `play` and
//! `query`. The protocol is in the statement's "Interactive version".
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
use std::fmt::Write as _;

use games::{MoveError, Notation, Rules, Turn, Value};
use serde::Serialize;

use crate::game::{Game, Player};
use crate::railway::Railway;

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
        heads(game, self.current())
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

/// The distinct heads of the tracks out of `station`, in input order. `O(d²)` for the
/// out-degree `d` (`O(d)` with few duplicates).
fn heads(game: &Game, station: u32) -> Vec<u32> {
    let mut heads: Vec<u32> = Vec::new();
    for &t in game.succ(station) {
        if !heads.contains(&t) {
            heads.push(t);
        }
    }
    heads
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

/// The first-visit game on the railway of the last input read, whose games these are.
#[derive(Debug, Default)]
pub struct TrainGame {
    game: Option<Game>,
    /// The railway in the input's format, line by line, for each game's opening.
    lines: Vec<String>,
}

impl TrainGame {
    /// A game with no railway yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    fn railway(&self) -> &Game {
        self.game.as_ref().expect("a railway is read before its games")
    }
}

/// A position as data ([`Notation::board`]): the railway, the walk, and who wins from each
/// station with the walk's switches set (the graph `G'` of the module notes), so a page draws
/// both players' winning regions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Board {
    /// `arezou[s]`: Arezou owns station `s` (else Borzou).
    pub arezou: Vec<bool>,
    /// `charging[s]`: station `s` charges.
    pub charging: Vec<bool>,
    /// The distinct tracks `[from, to]`, by station and then in input order.
    pub tracks: Vec<[u32; 2]>,
    /// The stations passed, the train's last.
    pub walk: Vec<u32>,
    /// Once the cycle is closed, the index in `walk` where it starts.
    pub closed_at: Option<usize>,
    /// The station whose switch is set next (the train's), `null` once the cycle is closed.
    pub train: Option<u32>,
    /// `arezou_wins[s]`: Arezou wins from station `s` in `G'`; Borzou wins from the others.
    pub arezou_wins: Vec<bool>,
}

impl Rules for TrainGame {
    type Position = Position;
    type Move = u32;
    type Player = Player;

    fn turn(&self, position: &Position) -> Turn<Player> {
        match position.winner_if_over(self.railway()) {
            Some(winner) => Turn::Over(winner),
            None => Turn::Player(position.mover(self.railway())),
        }
    }

    fn moves(&self, position: &Position) -> Vec<u32> {
        position.moves(self.railway())
    }

    fn after(&self, position: &Position, mv: &u32) -> Position {
        position.after(*mv)
    }
}

impl Notation for TrainGame {
    type Board = Board;

    /// The station the train goes to next.
    fn parse_move(&self, position: &Position, line: &str) -> Result<u32, MoveError> {
        let to = line
            .parse::<u32>()
            .map_err(|_| MoveError::Malformed("expected a station number".to_owned()))?;
        // A number that names no station is not a station number at all: malformed, as the
        // statement says, not a move along a missing track.
        if !self.railway().stations().contains(&to) {
            let last = self.railway().n().saturating_sub(1);
            return Err(MoveError::Malformed(format!("no station {to}: stations are 0 to {last}")));
        }
        if position.moves(self.railway()).contains(&to) {
            Ok(to)
        } else {
            Err(MoveError::Illegal(format!("no track from {} to {to}", position.current())))
        }
    }

    fn write_move(&self, _: &Position, mv: &u32) -> String {
        mv.to_string()
    }

    fn draw(&self, position: &Position) -> String {
        let game = self.railway();
        let name = |s: u32| {
            let owner = if game.arezou(s) { "A" } else { "B" };
            let charger = if game.charging(s) { "*" } else { "" };
            format!("{s}{charger}({owner})")
        };
        let walk: Vec<String> = position.path.iter().map(|&s| name(s)).collect();
        let mut out = format!("walk: {}", walk.join(" -> "));
        if let Some(at) = position.closed_at {
            let _ = write!(out, " -> {} (the cycle closes)", position.path[at]);
        } else {
            let here = position.current();
            let _ =
                write!(out, "\ntrain at {}; {} sets the switch", name(here), position.mover(game));
        }
        out.push_str("\n(* charging station; A Arezou's, B Borzou's)");
        out
    }

    /// `O(n + m)` plus one solve of `G'`.
    fn board(&self, position: &Position) -> Board {
        let game = self.railway();
        let mut tracks = Vec::new();
        for s in game.stations() {
            for &t in &heads(game, s) {
                tracks.push([s, t]);
            }
        }
        let solution = crate::solve(&position.fixed_game(game), crate::Solver::Fast);
        Board {
            arezou: game.stations().map(|s| game.arezou(s)).collect(),
            charging: game.stations().map(|s| game.charging(s)).collect(),
            tracks,
            walk: position.path.clone(),
            closed_at: position.closed_at,
            train: position.closed_at.is_none().then(|| position.current()),
            arezou_wins: solution.arezou_wins,
        }
    }

    fn board_script(&self) -> &'static str {
        include_str!("board.js")
    }

    /// The railway with the walk so far in thick numbered arrows.
    fn picture(&self, position: &Position) -> Option<String> {
        let game = self.railway();
        let mut out = String::from(
            "digraph play {\n  graph [rankdir=LR, label=\"toy-train play: box = Arezou's, ellipse = Borzou's, double border = charging; thick = the walk so far\", labelloc=t, fontsize=11];\n",
        );
        for s in game.stations() {
            let shape = if game.arezou(s) { "box" } else { "ellipse" };
            let border = if game.charging(s) { 2 } else { 1 };
            let fill =
                if s == position.current() { ", style=filled, fillcolor=\"#ffe08a\"" } else { "" };
            let _ = writeln!(out, "  {s} [shape={shape}, peripheries={border}{fill}];");
        }
        let mut walk: Vec<(u32, u32)> = position.path.windows(2).map(|w| (w[0], w[1])).collect();
        if let Some(at) = position.closed_at {
            walk.push((position.current(), position.path[at]));
        }
        for s in game.stations() {
            for t in heads(game, s) {
                match walk.iter().position(|&e| e == (s, t)) {
                    Some(i) => {
                        let _ = writeln!(out, "  {s} -> {t} [penwidth=3, label=\"{}\"];", i + 1);
                    }
                    None => {
                        let _ = writeln!(out, "  {s} -> {t} [color=\"#9a9a9a\"];");
                    }
                }
            }
        }
        out.push_str("}\n");
        Some(out)
    }
}

impl games::Game for TrainGame {
    type Input = Railway;

    fn name(&self) -> &'static str {
        "toy-train"
    }

    fn sample(&self) -> &'static [u8] {
        b"2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 1\n"
    }

    fn read(&self, bytes: &[u8]) -> Result<Railway, String> {
        Railway::parse(bytes, engine::input::Limits::Extended).map_err(|e| e.to_string())
    }

    /// One game a station: game `k` starts at station `k - 1`.
    fn starts(&mut self, railway: &Railway) -> Vec<Position> {
        let game = railway.to_game().expect("a parsed railway has a track out of every station");
        let starts = game.stations().map(Position::start).collect();
        self.lines =
            String::from_utf8_lossy(&railway.to_text()).lines().map(str::to_owned).collect();
        self.game = Some(game);
        starts
    }

    /// Levels 0 to 3, railways of up to 15 stations: every game sends the railway, so a
    /// railway of `n` stations and `m` tracks costs `n (m + n)` lines of opening alone.
    fn stress_levels(&self) -> u32 {
        4
    }

    fn players(&self) -> [Player; 2] {
        [Player::Arezou, Player::Borzou]
    }

    fn program_side(&mut self, start: &Position) -> Player {
        outcome(self.railway(), start).winner
    }

    /// The railway in the input's format, then the start station, then the program's side.
    fn intro(&self, start: &Position, side: Player) -> Vec<String> {
        let mut lines = self.lines.clone();
        lines.push(start.current().to_string());
        lines.push(side.to_string());
        lines
    }

    fn valued_moves(&mut self, position: &Position) -> Vec<(u32, Value)> {
        moves(self.railway(), position)
    }
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
    use games::exact::Exact;

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

    #[test]
    fn positions_agree_with_the_generic_exact_search_and_the_brute_force() {
        let mut rng = SplitMix64::new(17);
        let mut checked = 0;
        for round in 0..600 {
            let game = railway(&mut rng, 2 + round % 7);
            // The generic exact search over the rules is the reference.
            let rules = TrainGame { game: Some(game.clone()), lines: Vec::new() };
            let exact = Exact::new();
            let mut p = Position::start(rng.below(game.n()) as u32);
            while p.closed_at.is_none() {
                let mover = p.mover(&game);
                let expected = exact.value_for(&rules, &p, mover);
                assert_eq!(value(&game, &p), expected, "{p:?}");
                assert_eq!(moves(&game, &p), exact.moves(&rules, &p), "{p:?}");
                let winner = outcome(&game, &p).winner;
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

    #[test]
    fn a_number_that_names_no_station_is_malformed_a_missing_track_illegal() {
        // Stations 0 and 1, a track each way and a loop at 1.
        let game = Game::new(&[true, false], &[false, false], &[(0, 1), (1, 0), (1, 1)]).unwrap();
        let rules = TrainGame { game: Some(game), lines: Vec::new() };
        let start = Position::start(0);
        assert!(matches!(rules.parse_move(&start, "15"), Err(MoveError::Malformed(_))));
        assert!(matches!(rules.parse_move(&start, "0"), Err(MoveError::Illegal(_))));
        assert_eq!(rules.parse_move(&start, "1"), Ok(1));
    }
}
