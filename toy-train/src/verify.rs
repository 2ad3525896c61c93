//! An independent check of an answer and its strategies, in `O(n + m)`: it trusts nothing the
//! solvers computed besides the two vectors it is given.
//!
//! Soundness: if the checks pass, Arezou's strategy keeps every play from her region inside it
//! and every cycle it allows passes a charging station, so she charges infinitely often
//! whatever Borzou does; Borzou's strategy keeps every play from his region inside it and no
//! cycle it allows passes a charging station, so each charging station is seen at most once.
//! Hence a wrong answer can never pass, whatever strategies come with it.

use std::fmt;

use crate::game::{Game, Player, Solution};

/// Why a claimed answer and strategy pair is not a certificate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The answer or the strategy does not have one entry per station.
    #[error("expected {expected} answers and strategy entries, found {answers} and {strategy}")]
    WrongLength {
        /// Number of stations.
        expected: usize,
        /// Length of the answer.
        answers: usize,
        /// Length of the strategy.
        strategy: usize,
    },
    /// The strategy picks a track that does not exist.
    #[error("the strategy moves from station {station} to {to}, but there is no such track")]
    NotATrack {
        /// The station.
        station: u32,
        /// The claimed successor.
        to: u32,
    },
    /// A move the region's winner makes, or the loser may make, leaves the region.
    #[error("station {station} is in {winner}'s region but a move to {to} leaves it")]
    LeavesRegion {
        /// The station.
        station: u32,
        /// Its successor outside the region.
        to: u32,
        /// Whose region it is.
        winner: Player,
    },
    /// Arezou's strategy allows a cycle without a charging station.
    #[error(
        "in Arezou's region her strategy allows a cycle through station {station} without a charging station"
    )]
    ArezouCycleWithoutCharger {
        /// A station on such a cycle.
        station: u32,
    },
    /// Borzou's strategy allows a cycle through a charging station.
    #[error("in Borzou's region his strategy allows a cycle through charging station {station}")]
    BorzouCycleThroughCharger {
        /// The charging station.
        station: u32,
    },
}

/// What a successful check established.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Stations from which Arezou wins.
    pub arezou: usize,
    /// Stations from which Borzou wins.
    pub borzou: usize,
}

impl fmt::Display for Verified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stations =
            |k: usize| if k == 1 { "1 station".to_owned() } else { format!("{k} stations") };
        write!(
            f,
            "verified: Arezou wins from {}, Borzou from {}; both regions are closed and both \
             strategies win",
            stations(self.arezou),
            stations(self.borzou)
        )
    }
}

/// Checks that `solution` is a winning-region certificate for `game`:
///
/// 1. every strategy entry is a track out of its station;
/// 2. both regions are closed: the owner's chosen track stays inside, and so does every track
///    of a station the region's loser owns;
/// 3. in Arezou's region, the graph of her chosen tracks and all of Borzou's tracks, without
///    the charging stations, is acyclic;
/// 4. in Borzou's region, no charging station lies on a cycle of his chosen tracks and all of
///    Arezou's tracks (strongly connected components, found by an iterative Tarjan search).
///
/// Time `O(n + m)`, space `O(n)`; no recursion, so millions of stations are fine.
///
/// # Errors
/// The first failed check, naming a station where it fails.
pub fn verify(game: &Game, solution: &Solution) -> Result<Verified, VerifyError> {
    let n = game.n();
    let (wins, strategy) = (&solution.arezou_wins, &solution.strategy);
    if wins.len() != n || strategy.len() != n {
        return Err(VerifyError::WrongLength {
            expected: n,
            answers: wins.len(),
            strategy: strategy.len(),
        });
    }
    for v in game.stations() {
        let to = strategy[v as usize];
        if !game.succ(v).contains(&to) {
            return Err(VerifyError::NotATrack { station: v, to });
        }
        let region = wins[v as usize];
        let winner = Player::of(region);
        if game.arezou(v) == region {
            if wins[to as usize] != region {
                return Err(VerifyError::LeavesRegion { station: v, to, winner });
            }
        } else if let Some(&to) = game.succ(v).iter().find(|&&w| wins[w as usize] != region) {
            return Err(VerifyError::LeavesRegion { station: v, to, winner });
        }
    }
    // The moves a region's winner allows: their own chosen track, all of the opponent's.
    let moves = |v: u32| -> &[u32] {
        if game.arezou(v) == wins[v as usize] {
            std::slice::from_ref(&strategy[v as usize])
        } else {
            game.succ(v)
        }
    };
    let arezou_free = |v: u32| wins[v as usize] && !game.charging(v);
    if let Some(station) = find_cycle(n, &moves, &arezou_free, |_| true) {
        return Err(VerifyError::ArezouCycleWithoutCharger { station });
    }
    let borzou = |v: u32| !wins[v as usize];
    if let Some(station) = find_cycle(n, &moves, &borzou, |v| game.charging(v)) {
        return Err(VerifyError::BorzouCycleThroughCharger { station });
    }
    let arezou = wins.iter().filter(|&&w| w).count();
    Ok(Verified { arezou, borzou: n - arezou })
}

/// A station `v` with `target(v)` that lies on a cycle of the graph `moves` restricted to
/// the stations where `keep` holds, if any (the smallest such station of the first strongly
/// connected component found). Iterative Tarjan: `O(n + m)` time, `O(n)` space.
fn find_cycle<'a>(
    n: usize,
    moves: &impl Fn(u32) -> &'a [u32],
    keep: &impl Fn(u32) -> bool,
    target: impl Fn(u32) -> bool,
) -> Option<u32> {
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    // The search path: a station and how many of its moves have been followed.
    let mut path: Vec<(u32, usize)> = Vec::new();
    let mut next_index = 0u32;
    for root in 0..n as u32 {
        if index[root as usize] != UNSEEN || !keep(root) {
            continue;
        }
        path.push((root, 0));
        index[root as usize] = next_index;
        low[root as usize] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some(&mut (v, ref mut pos)) = path.last_mut() {
            let vi = v as usize;
            let out = moves(v);
            if let Some(&w) = out.get(*pos) {
                *pos += 1;
                let wi = w as usize;
                if !keep(w) {
                    continue;
                }
                if w == v && target(v) {
                    return Some(v);
                }
                if index[wi] == UNSEEN {
                    index[wi] = next_index;
                    low[wi] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[wi] = true;
                    path.push((w, 0));
                } else if on_stack[wi] {
                    low[vi] = low[vi].min(index[wi]);
                }
                continue;
            }
            path.pop();
            if let Some(&(parent, _)) = path.last() {
                let pi = parent as usize;
                low[pi] = low[pi].min(low[vi]);
            }
            if low[vi] == index[vi] {
                // `v` roots a component: pop it and see whether it is a cycle with a target.
                let mut size = 0usize;
                let mut found: Option<u32> = None;
                while let Some(x) = stack.pop() {
                    on_stack[x as usize] = false;
                    size += 1;
                    if target(x) {
                        found = Some(found.map_or(x, |f| f.min(x)));
                    }
                    if x == v {
                        break;
                    }
                }
                if size > 1 && found.is_some() {
                    return found;
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Game {
        Game::new(&[false, true], &[true, false], &[(0, 0), (0, 1), (1, 0), (1, 1)]).unwrap()
    }

    #[test]
    fn accepts_the_sample_certificate() {
        let solution = Solution { arezou_wins: vec![true, true], strategy: vec![0, 0] };
        assert_eq!(verify(&sample(), &solution), Ok(Verified { arezou: 2, borzou: 0 }));
    }

    #[test]
    fn rejects_what_is_wrong() {
        let game = sample();
        let check = |wins: [bool; 2], strategy: [u32; 2]| {
            verify(&game, &Solution { arezou_wins: wins.to_vec(), strategy: strategy.to_vec() })
        };
        // Arezou looping at station 1 forever never charges.
        assert_eq!(
            check([true, true], [0, 1]),
            Err(VerifyError::ArezouCycleWithoutCharger { station: 1 })
        );
        // Borzou cannot claim station 0: after his 0 -> 1, Arezou's 1 -> 0 closes a cycle
        // through the charger.
        assert_eq!(
            check([false, false], [1, 0]),
            Err(VerifyError::BorzouCycleThroughCharger { station: 0 })
        );
        assert_eq!(
            check([true, false], [0, 1]),
            Err(VerifyError::LeavesRegion { station: 0, to: 1, winner: Player::Arezou })
        );
        let bad = verify(&game, &Solution { arezou_wins: vec![true], strategy: vec![0] });
        assert!(matches!(bad, Err(VerifyError::WrongLength { .. })));
        let game = Game::new(&[true, true], &[true, false], &[(0, 1), (1, 0)]).unwrap();
        let bad = verify(&game, &Solution { arezou_wins: vec![true; 2], strategy: vec![0, 0] });
        assert_eq!(bad, Err(VerifyError::NotATrack { station: 0, to: 0 }));
    }
}
