//! `--explain`: for each first mover, a winning first attack of the winner, or, when the
//! second mover wins, a winning answer to each possible first attack.
//!
//! Tie-break, the same in every crate of the workspace: among winning moves, one that ends
//! the game at once is named first; otherwise the first winning one in the rules' order.

use crate::rules::{Attack, Case, Outcome, Player, attacks, decided};
use crate::threshold::ThresholdSolver;

/// Whether `winner` wins at `(alice, bob)` with `mover` to move, read from a solved table.
fn wins(
    solved: &ThresholdSolver,
    winner: Player,
    alice: [u8; 2],
    bob: [u8; 2],
    mover: Player,
) -> bool {
    if let Some(decided) = decided(alice, bob) {
        return decided == winner;
    }
    solved.alice_wins(alice, bob, mover) == (winner == Player::Alice)
}

/// Hit points after `attack` from `(alice, bob)`, as `(alice, bob)`.
pub fn after(case: &Case, attack: Attack, alice: [u8; 2], bob: [u8; 2]) -> ([u8; 2], [u8; 2]) {
    match attack.mover {
        Player::Alice => (alice, attack.apply(&case.alice_damage, bob)),
        Player::Bob => (attack.apply(&case.bob_damage, alice), bob),
    }
}

fn own_and_enemy(mover: Player, alice: [u8; 2], bob: [u8; 2]) -> ([u8; 2], [u8; 2]) {
    match mover {
        Player::Alice => (alice, bob),
        Player::Bob => (bob, alice),
    }
}

/// A winning attack for `mover` at `(alice, bob)`, where the tables say `mover` wins.
///
/// # Panics
/// When no attack wins: the tables would contradict themselves.
fn winning_attack(
    case: &Case,
    solved: &ThresholdSolver,
    mover: Player,
    alice: [u8; 2],
    bob: [u8; 2],
) -> Attack {
    let (own, enemy) = own_and_enemy(mover, alice, bob);
    let options = attacks(mover, own, enemy);
    let finishes = |&attack: &Attack| {
        let (a, b) = after(case, attack, alice, bob);
        decided(a, b) == Some(mover)
    };
    let wins_later = |&attack: &Attack| {
        let (a, b) = after(case, attack, alice, bob);
        wins(solved, mover, a, b, mover.other())
    };
    let found =
        options.iter().find(|a| finishes(a)).or_else(|| options.iter().find(|a| wins_later(a)));
    *found.expect("the tables' winner has a winning attack")
}

/// How the winner wins for one first mover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The first mover wins with this opening attack.
    Open(Attack),
    /// The second mover wins: each opening attack paired with a winning answer.
    Answer(Vec<(Attack, Attack)>),
}

/// The winner and a plan for one first mover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Who moves first.
    pub first: Player,
    /// Who wins.
    pub winner: Player,
    /// How.
    pub plan: Plan,
}

impl std::fmt::Display for Line {
    /// Like `Alice first: Alice wins with A1->B2, A2->B2`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (first, winner) = (self.first, self.winner);
        write!(f, "{first} first: {winner} wins")?;
        match &self.plan {
            Plan::Open(attack) => write!(f, " with {attack}"),
            Plan::Answer(pairs) => {
                write!(f, " whatever {first} plays:")?;
                for (i, (attack, answer)) in pairs.iter().enumerate() {
                    let sep = if i == 0 { " " } else { "; " };
                    write!(f, "{sep}{attack} answered by {answer}")?;
                }
                Ok(())
            }
        }
    }
}

/// One [`Line`] per first mover, Alice first. `solved` must hold the tables of `case` (its
/// last solve). At most 4 openings times 4 answers: 20 table look-ups.
#[must_use]
pub fn explain(case: &Case, outcome: Outcome, solved: &ThresholdSolver) -> [Line; 2] {
    let (alice, bob) = (case.alice_hp, case.bob_hp);
    [Player::Alice, Player::Bob].map(|first| {
        let winner = outcome.winner(first);
        let plan = if winner == first {
            Plan::Open(winning_attack(case, solved, first, alice, bob))
        } else {
            let (own, enemy) = own_and_enemy(first, alice, bob);
            Plan::Answer(
                attacks(first, own, enemy)
                    .into_iter()
                    .map(|attack| {
                        let (a, b) = after(case, attack, alice, bob);
                        (attack, winning_attack(case, solved, winner, a, b))
                    })
                    .collect(),
            )
        };
        Line { first, winner, plan }
    })
}
