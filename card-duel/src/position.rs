//! One moment of the duel at a time, inside a turn as well as at its start: the mover's legal
//! actions, the moment after one, the random pings of a card being played, and the exact
//! value (E's winning probability under optimal play), for the jury, `play` and `query`.
//!
//! # Value
//! E maximizes and the teacher minimizes E's winning probability; a ping is a chance node
//! over the characters on the table, each with equal probability. The value of a moment is
//! found by a memoized expectiminimax over the rest of the current turn only: ending the turn
//! leads to the start of the other player's, whose value a [`Tablebase`] of the file's O holds
//! (the probability that the player about to start his turn wins). So a moment costs the
//! states of one turn reachable from it, each `O(actions + ping targets)`: up to about 200,000
//! for a turn start at O = 5 with many minions and a full hand (tens of milliseconds; `cargo
//! xtask bench play` measures), memoized by a one-word key; the memo is kept between queries
//! (it holds exact values), up to [`MEMO_LIMIT`] entries. The
//! tablebase costs one sweep of every position of O, once (0.1 to 0.25 s with two threads,
//! see the crate's README), or a read of its file.

use std::fmt;
use std::sync::Arc;

use engine::store::HashMemo;

use crate::rules::{
    Action, Board, FACE_DAMAGE, HERO_POWER_COST, MAX_HAND, MAX_MINIONS, MINION_HP, PINGS_PER_PLAY,
    Position,
};
use crate::tablebase::Tablebase;

/// Most states the memo keeps before it is cleared.
pub const MEMO_LIMIT: usize = 1 << 22;

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// E, who maximizes his winning probability.
    E,
    /// The teacher, who minimizes it.
    Teacher,
}

impl Side {
    /// The other player.
    #[must_use]
    pub fn other(self) -> Self {
        match self {
            Self::E => Self::Teacher,
            Self::Teacher => Self::E,
        }
    }

    fn index(self) -> usize {
        match self {
            Self::E => 0,
            Self::Teacher => 1,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::E => "E",
            Self::Teacher => "the teacher",
        })
    }
}

/// A moment of the game: whose turn it is, after his draw, and how far into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// O: hero powers plus cards played per turn.
    pub ops: u8,
    /// Whose turn it is.
    pub mover: Side,
    /// Hit points by player (E, the teacher); 0 means dead (the game is over).
    pub hp: [u8; 2],
    /// Cards in hand by player.
    pub hand: [u8; 2],
    /// The mover's minions that may still attack this turn.
    pub ready: Board,
    /// The mover's minions that may not: they attacked, or were played, this turn.
    pub spent: Board,
    /// The other player's minions.
    pub other: Board,
    /// Hero powers plus cards played this turn.
    pub used: u8,
    /// Whether the mover performed an operation this turn (then he may end it).
    pub acted: bool,
    /// Pings still to come of the card being played: a chance node when positive.
    pub pings: u8,
}

/// Whose move a moment is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// This player chooses an action.
    Choose(Side),
    /// The next ping is drawn.
    Chance,
    /// The game is over: this player won.
    Over(Side),
}

/// The character a ping hits: a player, or a minion by its owner, hit points and, for the
/// mover's minions, whether it may still attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A player.
    Player(Side),
    /// A minion.
    Minion {
        /// Its owner.
        owner: Side,
        /// Its hit points before the ping (1 or 2).
        hp: u8,
        /// Whether it may still attack this turn (only the mover's may).
        ready: bool,
    },
}

impl fmt::Display for Target {
    /// `E`, `T` (the players); `e2`, `t1` (a minion of E or the teacher with that HP), with
    /// `*` for a minion of the mover that may not attack this turn (`e2*`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Target::Player(Side::E) => f.write_str("E"),
            Target::Player(Side::Teacher) => f.write_str("T"),
            Target::Minion { owner, hp, ready } => {
                let side = if owner == Side::E { 'e' } else { 't' };
                write!(f, "{side}{hp}{}", if ready { "" } else { "*" })
            }
        }
    }
}

/// `board` with one more minion of `hp`.
fn plus(board: Board, hp: u8) -> Board {
    match hp {
        1 => Board { ones: board.ones + 1, ..board },
        _ => Board { twos: board.twos + 1, ..board },
    }
}

/// `board` with one minion of `hp` less.
fn minus(board: Board, hp: u8) -> Board {
    match hp {
        1 => Board { ones: board.ones - 1, ..board },
        _ => Board { twos: board.twos - 1, ..board },
    }
}

/// How many minions of `hp` `board` holds.
fn count(board: Board, hp: u8) -> u8 {
    if hp == 1 { board.ones } else { board.twos }
}

/// Both boards, E's first: the mover's `ready + spent` and the other's.
fn joined(a: Board, b: Board) -> Board {
    Board { ones: a.ones + b.ones, twos: a.twos + b.twos }
}

impl State {
    /// The moment E's turn starts from `position` (the input's, before his draw), with O =
    /// `ops`: E draws, his minions may attack.
    #[must_use]
    pub fn start(ops: u8, position: &Position) -> Self {
        Self {
            ops,
            mover: Side::E,
            hp: [position.e_hp, position.teacher_hp],
            hand: [(position.e_hand + 1).min(MAX_HAND), position.teacher_hand],
            ready: position.e_board,
            spent: Board::EMPTY,
            other: position.teacher_board,
            used: 0,
            acted: false,
            pings: 0,
        }
    }

    /// Whose move it is.
    #[must_use]
    pub fn turn(&self) -> Turn {
        if self.hp[0] == 0 {
            Turn::Over(Side::Teacher)
        } else if self.hp[1] == 0 {
            Turn::Over(Side::E)
        } else if self.pings > 0 {
            Turn::Chance
        } else {
            Turn::Choose(self.mover)
        }
    }

    /// A player's minions.
    #[must_use]
    pub fn board(&self, side: Side) -> Board {
        if side == self.mover { joined(self.ready, self.spent) } else { self.other }
    }

    /// The mover's legal actions, in [`Action::FIRST`] order and then ending the turn; none
    /// unless the mover chooses. `O(1)`, at most 9.
    #[must_use]
    pub fn actions(&self) -> Vec<Action> {
        let (list, len) = self.action_array();
        list[..len].to_vec()
    }

    /// [`State::actions`] without the heap: the list and its length.
    fn action_array(&self) -> ([Action; 9], usize) {
        let mut list = [Action::EndTurn; 9];
        let mut len = 0;
        let mut push = |a: Action| {
            list[len] = a;
            len += 1;
        };
        if self.turn() != Turn::Choose(self.mover) {
            return (list, 0);
        }
        if self.used < self.ops {
            push(Action::HeroPower);
        }
        for minion_hp in [1, 2] {
            if count(self.ready, minion_hp) > 0 {
                push(Action::Face { minion_hp });
            }
        }
        for minion_hp in [1, 2] {
            for target_hp in [1, 2] {
                if count(self.ready, minion_hp) > 0 && count(self.other, target_hp) > 0 {
                    push(Action::Trade { minion_hp, target_hp });
                }
            }
        }
        let minions = self.ready.len() + self.spent.len();
        if self.used < self.ops && minions < MAX_MINIONS && self.hand[self.mover.index()] > 0 {
            push(Action::Play);
        }
        if self.acted {
            push(Action::EndTurn);
        }
        (list, len)
    }

    /// The moment after the mover's `action`. `O(1)`.
    ///
    /// # Panics
    /// When `action` is not legal.
    #[must_use]
    pub fn after(&self, action: Action) -> Self {
        assert!(self.actions().contains(&action), "{action} is not legal here");
        self.apply(action)
    }

    /// [`State::after`] for an action known to be legal.
    fn apply(&self, action: Action) -> Self {
        let (me, foe) = (self.mover.index(), self.mover.other().index());
        let mut next = *self;
        next.acted = true;
        match action {
            Action::HeroPower => {
                next.hp[me] = next.hp[me].saturating_sub(HERO_POWER_COST);
                next.hand[me] = (next.hand[me] + 1).min(MAX_HAND);
                next.used += 1;
            }
            Action::Face { minion_hp } => {
                next.ready = minus(next.ready, minion_hp);
                next.spent = plus(next.spent, minion_hp);
                next.hp[foe] = next.hp[foe].saturating_sub(FACE_DAMAGE);
            }
            Action::Trade { minion_hp, target_hp } => {
                next.ready = minus(next.ready, minion_hp);
                next.other = minus(next.other, target_hp);
            }
            Action::Play => {
                next.hand[me] -= 1;
                next.used += 1;
                next.pings = PINGS_PER_PLAY;
            }
            Action::EndTurn => {
                next.mover = self.mover.other();
                next.hand[foe] = (next.hand[foe] + 1).min(MAX_HAND);
                next.ready = self.other;
                next.spent = Board::EMPTY;
                next.other = joined(self.ready, self.spent);
                next.used = 0;
                next.acted = false;
            }
        }
        next
    }

    /// The characters the next ping may hit, each with its probability and the moment after
    /// it (the new minion lands after the last ping, unless a player died). Empty unless a
    /// ping is due. `O(1)`, at most 8.
    #[must_use]
    pub fn outcomes(&self) -> Vec<(Target, f64, State)> {
        let (list, len) = self.outcome_array();
        list[..len].to_vec()
    }

    /// [`State::outcomes`] without the heap: the list and its length.
    fn outcome_array(&self) -> ([(Target, f64, State); 8], usize) {
        let mut out = [(Target::Player(Side::E), 0.0, *self); 8];
        let mut len = 0;
        if self.turn() != Turn::Chance {
            return (out, 0);
        }
        let mut push = |o: (Target, f64, State)| {
            out[len] = o;
            len += 1;
        };
        let characters = 2 + self.ready.len() + self.spent.len() + self.other.len();
        let chance = |k: u8| f64::from(k) / f64::from(characters);
        let land = |mut next: State| {
            next.pings -= 1;
            if next.pings == 0 && next.hp.iter().all(|&hp| hp > 0) {
                next.spent = plus(next.spent, MINION_HP);
            }
            if next.hp.contains(&0) {
                next.pings = 0;
            }
            next
        };
        for side in [Side::E, Side::Teacher] {
            let mut next = *self;
            next.hp[side.index()] -= 1;
            push((Target::Player(side), chance(1), land(next)));
        }
        let hit =
            |board: Board, hp: u8| if hp == 1 { minus(board, 1) } else { plus(minus(board, 2), 1) };
        for hp in [1, 2] {
            for (ready, k) in [(true, count(self.ready, hp)), (false, count(self.spent, hp))] {
                if k > 0 {
                    let mut next = *self;
                    if ready {
                        next.ready = hit(next.ready, hp);
                    } else {
                        next.spent = hit(next.spent, hp);
                    }
                    push((Target::Minion { owner: self.mover, hp, ready }, chance(k), land(next)));
                }
            }
        }
        for hp in [1, 2] {
            let k = count(self.other, hp);
            if k > 0 {
                let mut next = *self;
                next.other = hit(next.other, hp);
                let owner = self.mover.other();
                push((Target::Minion { owner, hp, ready: true }, chance(k), land(next)));
            }
        }
        (out, len)
    }

    /// The moment packed into one word, field by field (46 bits): equal keys are equal
    /// moments. `O(1)`.
    fn key(&self) -> u64 {
        let board = |b: Board| u64::from(b.ones) | u64::from(b.twos) << 3;
        let fields: [(u64, u32); 12] = [
            (u64::from(self.ops), 5),
            (u64::from(self.mover == Side::Teacher), 1),
            (u64::from(self.hp[0]), 5),
            (u64::from(self.hp[1]), 5),
            (u64::from(self.hand[0]), 2),
            (u64::from(self.hand[1]), 2),
            (board(self.ready), 6),
            (board(self.spent), 6),
            (board(self.other), 6),
            (u64::from(self.used), 5),
            (u64::from(self.acted), 1),
            (u64::from(self.pings), 2),
        ];
        fields.iter().fold(0, |key, &(value, bits)| {
            debug_assert!(value < 1 << bits, "a field fits its bits");
            key << bits | value
        })
    }

    /// The start of the next turn as the tablebase indexes it: the new mover as "E", before
    /// his draw. Only for a moment whose mover just ended his turn.
    fn next_turn_start(&self) -> Position {
        let (me, foe) = (self.mover.index(), self.mover.other().index());
        Position {
            e_hp: self.hp[foe],
            teacher_hp: self.hp[me],
            e_board: self.other,
            teacher_board: joined(self.ready, self.spent),
            e_hand: self.hand[foe],
            teacher_hand: self.hand[me],
        }
    }
}

/// Values moments of one O: its tablebase and the memo of the turns valued so far.
#[derive(Debug)]
pub struct Oracle {
    tablebase: Arc<Tablebase>,
    /// Values by [`State::key`]: one word hashes in a fraction of the fields' time.
    memo: HashMemo<u64, f64>,
}

impl Oracle {
    /// An oracle over the tablebase of the game's O.
    #[must_use]
    pub fn new(tablebase: Arc<Tablebase>) -> Self {
        Self { tablebase, memo: HashMemo::new() }
    }

    /// E's winning probability from `state` under optimal play. See the module notes.
    ///
    /// # Panics
    /// When `state`'s O is not the tablebase's.
    pub fn e_wins(&mut self, state: &State) -> f64 {
        self.check_ops(state);
        if self.memo.len() > MEMO_LIMIT {
            self.memo.reset();
        }
        self.value_of(state)
    }

    /// Its tablebase's O.
    #[must_use]
    pub fn ops(&self) -> u8 {
        self.tablebase.ops()
    }

    fn check_ops(&self, state: &State) {
        assert_eq!(state.ops, self.tablebase.ops(), "one O per tablebase");
    }

    /// The probability that `side` wins from `state`.
    pub fn wins(&mut self, state: &State, side: Side) -> f64 {
        let e = self.e_wins(state);
        if side == Side::E { e } else { 1.0 - e }
    }

    /// Every legal action of the mover with the probability that he wins after it, in
    /// [`State::actions`] order.
    pub fn actions(&mut self, state: &State) -> Vec<(Action, f64)> {
        let mover = state.mover;
        state.actions().into_iter().map(|a| (a, self.wins(&state.after(a), mover))).collect()
    }

    fn value_of(&mut self, state: &State) -> f64 {
        match state.turn() {
            Turn::Over(side) => return if side == Side::E { 1.0 } else { 0.0 },
            Turn::Choose(_) if !state.acted => {
                // A turn start: the tablebase knows it, once the draw is undone.
                if let Some(position) = self.turn_start(state) {
                    let v = self.tablebase.value(&position);
                    return if state.mover == Side::E { v } else { 1.0 - v };
                }
            }
            _ => {}
        }
        if let Some(&v) = self.memo.get(&state.key()) {
            return v;
        }
        let v = match state.turn() {
            Turn::Chance => {
                state.outcomes().iter().map(|(_, p, next)| p * self.value_of(next)).sum()
            }
            Turn::Choose(mover) => {
                let (actions, len) = state.action_array();
                let values = actions[..len].iter().map(|&a| match a {
                    Action::EndTurn => {
                        let v = self.tablebase.value(&state.next_turn_start());
                        if mover == Side::E { 1.0 - v } else { v }
                    }
                    _ => self.value_of(&state.apply(a)),
                });
                if mover == Side::E {
                    values.fold(f64::NEG_INFINITY, f64::max)
                } else {
                    values.fold(f64::INFINITY, f64::min)
                }
            }
            Turn::Over(_) => unreachable!("handled above"),
        };
        self.memo.insert(state.key(), v);
        v
    }

    /// The tablebase's position of a turn start, with the draw that started it undone (a
    /// hand of 3 may have been 2 or 3 before it, which gives the same game from the draw
    /// on); `None` for an empty hand, which no draw leaves.
    fn turn_start(&self, state: &State) -> Option<Position> {
        let me = state.mover.index();
        let hand = state.hand[me].checked_sub(1)?;
        Some(Position {
            e_hp: state.hp[me],
            teacher_hp: state.hp[1 - me],
            e_board: state.ready,
            teacher_board: state.other,
            e_hand: hand,
            teacher_hand: state.hand[1 - me],
        })
    }
}

#[cfg(test)]
mod tests {
    use engine::rng::SplitMix64;

    use super::*;
    use crate::reference::Reference;

    fn random_position(rng: &mut SplitMix64, hp: u64) -> Position {
        let board = |rng: &mut SplitMix64| Board::all().nth(rng.below(15)).unwrap();
        Position {
            e_hp: rng.range(1, hp) as u8,
            teacher_hp: rng.range(1, hp) as u8,
            e_board: board(rng),
            teacher_board: board(rng),
            e_hand: rng.range(0, 3) as u8,
            teacher_hand: rng.range(0, 3) as u8,
        }
    }

    #[test]
    fn moments_agree_with_the_reference_along_random_games() {
        let mut rng = SplitMix64::new(21);
        let mut checked = 0;
        for ops in [3u8] {
            let tablebase = Arc::new(Tablebase::build(ops));
            let mut oracle = Oracle::new(Arc::clone(&tablebase));
            let mut reference = Reference::new(ops);
            for _ in 0..260 {
                let position = random_position(&mut rng, 6);
                let mut state = State::start(ops, &position);
                assert!((oracle.e_wins(&state) - tablebase.value(&position)).abs() < 1e-12);
                while let Turn::Choose(_) | Turn::Chance = state.turn() {
                    let expected = reference.value_of_moment(&state);
                    assert!((oracle.e_wins(&state) - expected).abs() < 1e-9, "{state:?}");
                    checked += 1;
                    state = match state.turn() {
                        Turn::Chance => {
                            let outcomes = state.outcomes();
                            let total: f64 = outcomes.iter().map(|o| o.1).sum();
                            assert!((total - 1.0).abs() < 1e-12);
                            outcomes[rng.below(outcomes.len())].2
                        }
                        _ => {
                            let actions = state.actions();
                            state.after(actions[rng.below(actions.len())])
                        }
                    };
                }
            }
        }
        assert!(checked > 1_000, "{checked}");
    }
}
