//! The rules of the battle as data: a case, the attack orders a side may give, and their effect.

use std::fmt;

use engine::InlineVec;

/// Largest hit points or damage a case may hold.
pub(crate) const MAX_VALUE: u8 = 99;

/// Most cases a file holds under the original limits, and the size of an exhaustive file.
pub(crate) const ORIGINAL_MAX_CASES: usize = 40;

/// Names of the twelve numbers of a case, in input order (the order of [`Case::to_array`]).
pub(crate) const FIELDS: [&str; 12] = [
    "hit points a1",
    "hit points a2",
    "hit points b1",
    "hit points b2",
    "damage a11",
    "damage a12",
    "damage a21",
    "damage a22",
    "damage b11",
    "damage b12",
    "damage b21",
    "damage b22",
];

/// One test case: both sides' hit points and damage matrices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Case {
    /// Hit points of A1 and A2.
    pub alice_hp: [u8; 2],
    /// Hit points of B1 and B2.
    pub bob_hp: [u8; 2],
    /// `alice_damage[i][j]`: damage of Alice's hero i+1 to Bob's hero j+1 (`a_ij`).
    pub alice_damage: [[u8; 2]; 2],
    /// `bob_damage[i][j]`: damage of Bob's hero i+1 to Alice's hero j+1 (`b_ij`).
    pub bob_damage: [[u8; 2]; 2],
}

impl Case {
    /// The twelve numbers in input order: `a1 a2 b1 b2 a11 a12 a21 a22 b11 b12 b21 b22`.
    #[must_use]
    pub fn to_array(&self) -> [u8; 12] {
        let ([a1, a2], [b1, b2]) = (self.alice_hp, self.bob_hp);
        let [[a11, a12], [a21, a22]] = self.alice_damage;
        let [[b11, b12], [b21, b22]] = self.bob_damage;
        [a1, a2, b1, b2, a11, a12, a21, a22, b11, b12, b21, b22]
    }

    /// The case of twelve numbers in input order (the inverse of [`Case::to_array`]).
    #[must_use]
    pub fn from_array(v: [u8; 12]) -> Self {
        Self {
            alice_hp: [v[0], v[1]],
            bob_hp: [v[2], v[3]],
            alice_damage: [[v[4], v[5]], [v[6], v[7]]],
            bob_damage: [[v[8], v[9]], [v[10], v[11]]],
        }
    }

    /// The same battle with the players' names exchanged (Bob's heroes become A1, A2).
    #[must_use]
    pub fn swapped(&self) -> Self {
        Self {
            alice_hp: self.bob_hp,
            bob_hp: self.alice_hp,
            alice_damage: self.bob_damage,
            bob_damage: self.alice_damage,
        }
    }
}

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Owns A1 and A2.
    Alice,
    /// Owns B1 and B2.
    Bob,
}

impl Player {
    /// The other player.
    #[must_use]
    pub fn other(self) -> Self {
        match self {
            Self::Alice => Self::Bob,
            Self::Bob => Self::Alice,
        }
    }

    /// The letter naming this player's heroes.
    fn letter(self) -> char {
        match self {
            Self::Alice => 'A',
            Self::Bob => 'B',
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Alice => "Alice",
            Self::Bob => "Bob",
        })
    }
}

/// A case's answer line: who wins whoever moves first (`Alice wins`, `Bob wins`), or that
/// whoever moves first wins (`It depends`). The statement calls it the verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WhoWins {
    /// Alice wins whoever moves first.
    AliceWins,
    /// Bob wins whoever moves first.
    BobWins,
    /// Whoever moves first wins.
    ItDepends,
}

impl WhoWins {
    /// Every answer, in the order the statement lists them.
    pub const ALL: [Self; 3] = [Self::AliceWins, Self::BobWins, Self::ItDepends];

    /// The answer whose judge's line is exactly `line` (no white space around it).
    #[must_use]
    pub fn from_line(line: &[u8]) -> Option<Self> {
        Self::ALL.into_iter().find(|w| w.as_str().as_bytes() == line)
    }

    /// The judge's line for this answer.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::AliceWins => "Alice wins",
            Self::BobWins => "Bob wins",
            Self::ItDepends => "It depends",
        }
    }
}

/// The two results a case asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Whether Alice wins when she moves first.
    pub alice_first: bool,
    /// Whether Alice wins when Bob moves first.
    pub bob_first: bool,
}

impl Outcome {
    /// The answer line these two results give.
    #[must_use]
    pub fn who_wins(self) -> WhoWins {
        match (self.alice_first, self.bob_first) {
            (true, true) => WhoWins::AliceWins,
            (false, false) => WhoWins::BobWins,
            _ => WhoWins::ItDepends,
        }
    }

    /// The winner when `first` moves first.
    #[must_use]
    pub fn winner(self, first: Player) -> Player {
        let alice_wins = match first {
            Player::Alice => self.alice_first,
            Player::Bob => self.bob_first,
        };
        if alice_wins { Player::Alice } else { Player::Bob }
    }
}

/// One turn's orders: `targets[i]` is the target of the mover's hero `i`, `None` when that
/// hero is dead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Attack {
    /// Who gives the orders.
    pub mover: Player,
    /// Target index (0 or 1) of each of the mover's heroes.
    pub targets: [Option<u8>; 2],
}

impl Default for Attack {
    /// A placeholder for spare slots of an [`AttackList`]; never an order a player gives.
    fn default() -> Self {
        Self { mover: Player::Alice, targets: [None, None] }
    }
}

impl Attack {
    /// The damage this attack deals to each enemy hero.
    #[must_use]
    pub(crate) fn damage(self, damage: &[[u8; 2]; 2]) -> [u8; 2] {
        let mut total = [0u8; 2];
        for (hero, target) in self.targets.iter().enumerate() {
            if let Some(t) = *target {
                total[usize::from(t)] += damage[hero][usize::from(t)];
            }
        }
        total
    }

    /// The enemy's hit points after this attack (dead stays at 0).
    #[must_use]
    pub fn apply(self, damage: &[[u8; 2]; 2], enemy_hp: [u8; 2]) -> [u8; 2] {
        let dealt = self.damage(damage);
        [enemy_hp[0].saturating_sub(dealt[0]), enemy_hp[1].saturating_sub(dealt[1])]
    }
}

impl fmt::Display for Attack {
    /// Like `A1->B2, A2->B2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (me, them) = (self.mover.letter(), self.mover.other().letter());
        let mut first = true;
        for (hero, target) in self.targets.iter().enumerate() {
            if let Some(t) = target {
                if !first {
                    f.write_str(", ")?;
                }
                write!(f, "{me}{}->{them}{}", hero + 1, t + 1)?;
                first = false;
            }
        }
        Ok(())
    }
}

/// The winner of a position where one side has no living hero, `None` while both fight on.
/// Only the mover deals damage, so both sides are never wiped out at once; the rules check
/// Bob's side first, as a position with both at zero cannot arise.
#[must_use]
pub(crate) fn decided(alice_hp: [u8; 2], bob_hp: [u8; 2]) -> Option<Player> {
    if bob_hp == [0, 0] {
        Some(Player::Alice)
    } else if alice_hp == [0, 0] {
        Some(Player::Bob)
    } else {
        None
    }
}

/// Up to four attacks, without a heap allocation.
pub type AttackList = InlineVec<Attack, 4>;

/// Every attack `mover` may order: each living hero of `own_hp` picks a living hero of
/// `enemy_hp`. At most four; empty when either side has no living hero.
#[must_use]
pub fn attacks(mover: Player, own_hp: [u8; 2], enemy_hp: [u8; 2]) -> AttackList {
    let mut list = AttackList::new();
    let targets: &[u8] = match (enemy_hp[0] > 0, enemy_hp[1] > 0) {
        (true, true) => &[0, 1],
        (true, false) => &[0],
        (false, true) => &[1],
        (false, false) => return list,
    };
    if own_hp == [0, 0] {
        return list;
    }
    let choices = |hero: usize| -> &[Option<u8>] {
        match (own_hp[hero] > 0, targets) {
            (false, _) => &[None],
            (true, [0, 1]) => &[Some(0), Some(1)],
            (true, [0]) => &[Some(0)],
            (true, _) => &[Some(1)],
        }
    };
    for &first in choices(0) {
        for &second in choices(1) {
            list.push(Attack { mover, targets: [first, second] });
        }
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attack_lists_follow_the_living_heroes() {
        assert_eq!(attacks(Player::Alice, [5, 5], [5, 5]).len(), 4);
        assert_eq!(attacks(Player::Alice, [5, 0], [5, 5]).len(), 2);
        assert_eq!(attacks(Player::Alice, [5, 5], [0, 5]).len(), 1);
        assert_eq!(attacks(Player::Alice, [0, 5], [5, 0]).len(), 1);
        assert!(attacks(Player::Alice, [0, 0], [5, 5]).is_empty());
        assert!(attacks(Player::Bob, [5, 5], [0, 0]).is_empty());
    }

    #[test]
    fn attacks_apply_and_print() {
        let damage = [[3, 4], [5, 6]];
        let both_on_b2 = Attack { mover: Player::Alice, targets: [Some(1), Some(1)] };
        assert_eq!(both_on_b2.apply(&damage, [9, 9]), [9, 0]);
        assert_eq!(both_on_b2.to_string(), "A1->B2, A2->B2");
        let lone = Attack { mover: Player::Bob, targets: [None, Some(0)] };
        assert_eq!(lone.apply(&damage, [9, 9]), [4, 9]);
        assert_eq!(lone.to_string(), "B2->A1");
    }
}
