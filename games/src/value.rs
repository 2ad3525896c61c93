//! [`Value`]: what a position is worth to the player about to move, the one currency of the
//! three games' position APIs, their juries, `play` and `query`.

use std::fmt;

/// The exact value of a position for the player about to move (the *mover*), or of a move for
/// the player who makes it.
///
/// Remoteness follows GamesmanOne: the number of moves until the game ends when the winner
/// wins as fast as it can and the loser loses as slowly as it can. A decided position (the
/// game is over) has remoteness 0 and is a loss for the player who would move next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// The mover wins, in `remoteness` moves (`None` where the game does not compute it; its
    /// module says when).
    Win {
        /// Moves to the end of the game.
        remoteness: Option<u32>,
    },
    /// The mover loses, in `remoteness` moves.
    Lose {
        /// Moves to the end of the game.
        remoteness: Option<u32>,
    },
    /// A game of chance: the probability that the mover wins under optimal play.
    Chance {
        /// The mover's winning probability, in `0.0..=1.0`.
        probability: f64,
    },
}

impl Value {
    /// A win in `remoteness` moves.
    #[must_use]
    pub fn win(remoteness: u32) -> Self {
        Self::Win { remoteness: Some(remoteness) }
    }

    /// A loss in `remoteness` moves.
    #[must_use]
    pub fn lose(remoteness: u32) -> Self {
        Self::Lose { remoteness: Some(remoteness) }
    }

    /// What a move into a position of value `self` (for the player moving there) is worth to
    /// the player who makes it, when the turn passes: a win becomes a loss one move later, and
    /// the other way round; a probability becomes its complement.
    #[must_use]
    pub fn after_move(self) -> Self {
        self.after_own_move().flipped()
    }

    /// What a move into a position of value `self` (for the player moving there) is worth to
    /// the player who makes it when that player moves again there (card-duel's actions within
    /// a turn): the same value, one move later.
    #[must_use]
    pub fn after_own_move(self) -> Self {
        let later = |r: Option<u32>| r.map(|r| r + 1);
        match self {
            Self::Win { remoteness } => Self::Win { remoteness: later(remoteness) },
            Self::Lose { remoteness } => Self::Lose { remoteness: later(remoteness) },
            Self::Chance { .. } => self,
        }
    }

    /// The same position's value seen by the other player at the same moment: a win for one is
    /// a loss for the other in the same number of moves; a probability is its complement.
    #[must_use]
    pub fn flipped(self) -> Self {
        match self {
            Self::Win { remoteness } => Self::Lose { remoteness },
            Self::Lose { remoteness } => Self::Win { remoteness },
            Self::Chance { probability } => Self::Chance { probability: 1.0 - probability },
        }
    }

    /// The mover's winning probability: 1 for a win, 0 for a loss.
    #[must_use]
    pub fn probability(self) -> f64 {
        match self {
            Self::Win { .. } => 1.0,
            Self::Lose { .. } => 0.0,
            Self::Chance { probability } => probability,
        }
    }

    /// How good the value is for the mover, as a key that sorts best first: wins before
    /// losses, a quick win before a slow one, a slow loss before a quick one (an unknown
    /// remoteness after every known one), then a higher probability.
    #[must_use]
    pub fn rank(self) -> (u8, i64, OrderedProbability) {
        let known = |r: Option<u32>| r.map_or(i64::MAX, i64::from);
        match self {
            Self::Win { remoteness } => (0, known(remoteness), OrderedProbability(0.0)),
            Self::Chance { probability } => (1, 0, OrderedProbability(-probability)),
            Self::Lose { remoteness } => (2, -known(remoteness), OrderedProbability(0.0)),
        }
    }

    /// The word a person reads: `win`, `lose` or `chance`.
    #[must_use]
    pub fn kind(self) -> &'static str {
        match self {
            Self::Win { .. } => "win",
            Self::Lose { .. } => "lose",
            Self::Chance { .. } => "chance",
        }
    }
}

/// A probability ordered by `f64::total_cmp`, so values sort without a partial order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrderedProbability(pub f64);

impl Eq for OrderedProbability {}

impl PartialOrd for OrderedProbability {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OrderedProbability {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl fmt::Display for Value {
    /// `win in 3`, `lose in 8`, `win` (remoteness unknown), `0.041879441`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Win { remoteness: Some(r) } => write!(f, "win in {r}"),
            Self::Lose { remoteness: Some(r) } => write!(f, "lose in {r}"),
            Self::Win { remoteness: None } => f.write_str("win"),
            Self::Lose { remoteness: None } => f.write_str("lose"),
            Self::Chance { probability } => write!(f, "{probability:.9}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_flip_across_a_move_and_sort_best_first() {
        assert_eq!(Value::win(3).after_move(), Value::lose(4));
        assert_eq!(Value::lose(0).after_move(), Value::win(1));
        assert_eq!(Value::lose(2).after_own_move(), Value::lose(3));
        assert_eq!(
            Value::Chance { probability: 0.25 }.after_move(),
            Value::Chance { probability: 0.75 }
        );
        let mut values = [
            Value::lose(2),
            Value::win(5),
            Value::lose(7),
            Value::win(1),
            Value::Win { remoteness: None },
        ];
        values.sort_by_key(|v| v.rank());
        assert_eq!(
            values,
            [
                Value::win(1),
                Value::win(5),
                Value::Win { remoteness: None },
                Value::lose(7),
                Value::lose(2)
            ]
        );
        assert_eq!(Value::win(3).to_string(), "win in 3");
        assert_eq!(Value::Chance { probability: 0.5 }.to_string(), "0.500000000");
    }
}
