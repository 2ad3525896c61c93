//! A brute force straight from the rules, with no game theory: the train's walk is played out
//! move by move, each owner setting a switch the first time the train reaches a station,
//! until the train comes back to a station and the cycle it will run forever is known.

use crate::game::Game;

/// Most stations [`winners`] accepts; its cost grows like the number of simple paths.
pub const BRUTE_MAX_STATIONS: usize = 10;

/// The game is too large for the brute force.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the brute force takes at most {BRUTE_MAX_STATIONS} stations, not {0}")]
pub struct TooLarge(pub usize);

/// For every start station, whether Arezou wins by the rules: the walk so far is a simple
/// path; the owner of its last station picks a track; if it leads back onto the path, the
/// switches on the cycle from there are all set and the train runs that cycle forever, so
/// Arezou wins exactly when the cycle holds a charging station; otherwise play goes on.
/// Arezou needs one winning track at her stations, Borzou one losing track at his.
///
/// Time: `O(n² · d · P)` where `P` is the number of simple paths from a station and `d` the
/// largest out-degree: exponential in `n`. Space: `O(n)`.
///
/// # Errors
/// More than [`BRUTE_MAX_STATIONS`] stations.
pub fn winners(game: &Game) -> Result<Vec<bool>, TooLarge> {
    winners_with_switches(game, &vec![None; game.n()])
}

/// [`winners`] when some switches are set before the train starts: `switches[s] = Some(t)`
/// fixes the switch at `s` along track `s → t` (it must be one), whoever owns `s`. With one
/// player's positional strategy fixed this says from where it wins against every reply,
/// which is what the verifier decides in `O(n + m)`. Same cost as [`winners`].
///
/// # Errors
/// More than [`BRUTE_MAX_STATIONS`] stations.
pub fn winners_with_switches(game: &Game, switches: &[Option<u32>]) -> Result<Vec<bool>, TooLarge> {
    if game.n() > BRUTE_MAX_STATIONS {
        return Err(TooLarge(game.n()));
    }
    Ok(game
        .stations()
        .map(|s| {
            let mut path = vec![s];
            arezou_wins(game, switches, &mut path)
        })
        .collect())
}

/// Whether Arezou wins once the train has run along `path` (distinct stations, the last one
/// just reached and its switch not yet set unless `switches` fixes it).
fn arezou_wins(game: &Game, switches: &[Option<u32>], path: &mut Vec<u32>) -> bool {
    let Some(&here) = path.last() else { return false };
    let outcome = |next: u32, path: &mut Vec<u32>| {
        if let Some(at) = path.iter().position(|&s| s == next) {
            path[at..].iter().any(|&s| game.charging(s))
        } else {
            path.push(next);
            let win = arezou_wins(game, switches, path);
            path.pop();
            win
        }
    };
    let fixed = switches.get(here as usize).copied().flatten();
    let moves = fixed.as_ref().map_or(game.succ(here), std::slice::from_ref);
    if game.arezou(here) {
        moves.iter().any(|&next| outcome(next, path))
    } else {
        moves.iter().all(|&next| outcome(next, path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_by_the_rules() {
        // who_wins([0, 1], [1, 0], [0, 0, 1, 1], [0, 1, 0, 1]) == [1, 1].
        let game =
            Game::new(&[false, true], &[true, false], &[(0, 0), (0, 1), (1, 0), (1, 1)]).unwrap();
        assert_eq!(winners(&game), Ok(vec![true, true]));
    }

    #[test]
    fn a_charger_off_the_cycle_does_not_count() {
        // 0 (charging) -> 1 -> 2 -> 1: the train ends up circling 1 and 2 without a charger.
        let game = Game::new(&[true; 3], &[true, false, false], &[(0, 1), (1, 2), (2, 1)]).unwrap();
        assert_eq!(winners(&game), Ok(vec![false; 3]));
    }

    #[test]
    fn large_games_are_refused() {
        let n = BRUTE_MAX_STATIONS + 1;
        let tracks: Vec<(u32, u32)> = (0..n as u32).map(|v| (v, v)).collect();
        let game = Game::new(&vec![true; n], &vec![false; n], &tracks).unwrap();
        assert_eq!(winners(&game), Err(TooLarge(n)));
    }
}
