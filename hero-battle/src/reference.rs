//! The reference solver: a plain memoized AND/OR search written straight from the rules, with
//! no pruning, no dominance and no monotonicity. Slow on purpose; the tests trust it.

use engine::store::HashMemo;

use crate::rules::{Case, Outcome, Player, attacks, decided};

engine::packed_key! {
    /// A position: both sides' hit points and who moves.
    pub(crate) struct Position {
        a1: u8 in 0..100,
        a2: u8 in 0..100,
        b1: u8 in 0..100,
        b2: u8 in 0..100,
        alice_moves: bool in 0..2,
    }
}

/// Memoized search over every position reachable from the start.
///
/// Time `O(P)` and space `O(P)` for `P` reachable positions, at most `2 * 100^4`: fine for
/// small hit points or large damage, hopeless for hit points near 99 with damage 1.
#[derive(Debug, Default)]
pub struct Reference {
    memo: HashMemo<u32, bool>,
}

impl Reference {
    /// A solver with an empty memo.
    #[cfg(feature = "internals")]
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Positions stored by the last [`Reference::solve`].
    #[must_use]
    pub(crate) fn memo_entries(&self) -> usize {
        self.memo.len()
    }

    /// Who wins `case` for each first mover.
    pub fn solve(&mut self, case: &Case) -> Outcome {
        self.memo.reset();
        Outcome {
            alice_first: self.alice_wins(case, case.alice_hp, case.bob_hp, Player::Alice),
            bob_first: self.alice_wins(case, case.alice_hp, case.bob_hp, Player::Bob),
        }
    }

    /// Whether Alice wins from any position `(alice, bob)` of `case` with `mover` to move.
    /// Reuses the memo of the last call for the same case; call [`Reference::solve`] before
    /// switching cases.
    pub fn alice_wins(&mut self, case: &Case, alice: [u8; 2], bob: [u8; 2], mover: Player) -> bool {
        if let Some(winner) = decided(alice, bob) {
            return winner == Player::Alice;
        }
        let key = Position {
            a1: alice[0],
            a2: alice[1],
            b1: bob[0],
            b2: bob[1],
            alice_moves: mover == Player::Alice,
        }
        .pack() as u32;
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let wins = match mover {
            // Alice needs one attack after which she wins.
            Player::Alice => attacks(mover, alice, bob).into_iter().any(|a| {
                self.alice_wins(case, alice, a.apply(&case.alice_damage, bob), Player::Bob)
            }),
            // Against Bob she must win after every attack he may order.
            Player::Bob => attacks(mover, bob, alice).into_iter().all(|a| {
                self.alice_wins(case, a.apply(&case.bob_damage, alice), bob, Player::Alice)
            }),
        };
        self.memo.insert(key, wins);
        wins
    }
}
