//! The reference solver: the classic repeated-attractor algorithm for Büchi games, written to
//! be obviously right rather than fast.

use std::collections::VecDeque;

use crate::game::{Game, Solution};
#[cfg(feature = "internals")]
use crate::work::Work;
use crate::work::{Meter, NoMeter};

/// Solves `game` by repeated attractors. Each round, on the stations `G` still undecided:
///
/// 1. `W = Attr_A(R ∩ G)`: where Arezou can force a visit to a charging station inside `G`;
/// 2. `Tr = G \ W` is a trap Borzou can hold forever without charging; if it is empty, Arezou
///    wins all of `G` and we stop;
/// 3. Borzou wins `L = Attr_B(Tr)`, and `G` loses `L` (the rest is still a game: Borzou
///    cannot leave it and Arezou never has to).
///
/// Strategies: Arezou moves along her attractor witnesses of the last round (any track inside
/// her region at a charging station); Borzou, on each removed `L`, along his attractor
/// witnesses toward `Tr` and, inside `Tr`, to a station of `Tr`. At the loser's stations the
/// first track is printed (every track there stays in the loser's region).
///
/// Time: `O(rounds · (n + m))` with up to `n` rounds, so `O(n · m)`; a staircase needs about
/// `n / 2` rounds. Space: `O(n)` besides the game.
#[must_use]
pub fn solve(game: &Game) -> Solution {
    solve_metered(game, &mut NoMeter)
}

/// [`solve`], also returning the work it did (see [`crate::work`]): the yardstick the default
/// solver's budget and the adversarial search measure against. Same complexity.
#[cfg(feature = "internals")]
#[must_use]
pub fn solve_with_work(game: &Game) -> (Solution, Work) {
    let mut work = Work::default();
    let solution = solve_metered(game, &mut work);
    (solution, work)
}

/// [`solve`] with every station visit and adjacency entry read counted in `meter`.
fn solve_metered(game: &Game, meter: &mut impl Meter) -> Solution {
    let n = game.n();
    meter.add(n);
    let mut alive = vec![true; n];
    // Tracks into alive stations, kept up to date as stations are removed.
    let mut alive_out: Vec<u32> = game.stations().map(|v| game.succ(v).len() as u32).collect();
    let mut choice: Vec<u32> = game.stations().map(|v| game.succ(v)[0]).collect();
    let mut in_w = vec![false; n];
    let mut missing = vec![0u32; n];
    let mut queue = VecDeque::new();
    loop {
        // 1. Arezou's attractor to the charging stations, from scratch.
        meter.add(n);
        for v in game.stations() {
            let i = v as usize;
            in_w[i] = alive[i] && game.charging(v);
            missing[i] = alive_out[i];
            if in_w[i] {
                queue.push_back(v);
            }
        }
        while let Some(u) = queue.pop_front() {
            meter.add(1 + game.pred(u).len());
            for &p in game.pred(u) {
                let pi = p as usize;
                if !alive[pi] || in_w[pi] {
                    continue;
                }
                missing[pi] -= 1;
                if game.arezou(p) || missing[pi] == 0 {
                    in_w[pi] = true;
                    if game.arezou(p) {
                        choice[pi] = u;
                    }
                    queue.push_back(p);
                }
            }
        }
        // 2. The trap; Borzou stays inside it.
        meter.add(n);
        let trap: Vec<u32> =
            game.stations().filter(|&v| alive[v as usize] && !in_w[v as usize]).collect();
        if trap.is_empty() {
            break;
        }
        for &v in &trap {
            if !game.arezou(v) {
                meter.add(game.succ(v).len());
                let stay = game.succ(v).iter().find(|&&w| alive[w as usize] && !in_w[w as usize]);
                choice[v as usize] = *stay.unwrap_or(&choice[v as usize]);
            }
        }
        // 3. Borzou's attractor to the trap leaves the game.
        for &v in &trap {
            alive[v as usize] = false;
            queue.push_back(v);
        }
        while let Some(u) = queue.pop_front() {
            meter.add(1 + game.pred(u).len());
            for &p in game.pred(u) {
                let pi = p as usize;
                if !alive[pi] {
                    continue;
                }
                alive_out[pi] -= 1;
                if !game.arezou(p) || alive_out[pi] == 0 {
                    alive[pi] = false;
                    if !game.arezou(p) {
                        choice[pi] = u;
                    }
                    queue.push_back(p);
                }
            }
        }
    }
    for v in game.stations() {
        let i = v as usize;
        if alive[i] && game.arezou(v) && game.charging(v) {
            let stay = game.succ(v).iter().find(|&&w| alive[w as usize]);
            choice[i] = *stay.unwrap_or(&choice[i]);
        } else if alive[i] != game.arezou(v) {
            // The loser's station: its first track.
            choice[i] = game.succ(v)[0];
        }
    }
    Solution { arezou_wins: alive, strategy: choice }
}
