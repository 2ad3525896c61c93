//! The reference solver: the problem page's rules applied to an explicit state, one operation
//! at a time, valued by a memoized expectiminimax over a hash map. It is slow and obvious on
//! purpose (every minion is its own ping target, E maximizes and the teacher minimizes, no
//! symmetry is used); the fast solver is tested against it.
//!
//! Time and space: one memo entry per decision state reachable from the positions asked, each
//! costing `O(actions * (k + 2)^3)` for the pings. Fine for small HP; hopeless for HP 20 with
//! full boards, which is what the fast solver is for.

use engine::InlineVec;
use engine::store::HashMemo;

use crate::rules::{
    Action, Board, FACE_DAMAGE, HERO_POWER_COST, MAX_HAND, MAX_MINIONS, MINION_HP, PINGS_PER_PLAY,
    Position,
};

const E: usize = 0;
const TEACHER: usize = 1;

/// One minion on the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Minion {
    hp: i32,
    attacked: bool,
}

/// One side's minions, at most four, stored inline so states copy without allocating.
type Minions = InlineVec<Minion, { MAX_MINIONS as usize }>;

/// Everything that decides the rest of the game at a moment the mover chooses an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct State {
    /// Hit points, indexed by player (`E`, `TEACHER`).
    hp: [i32; 2],
    /// Cards in hand, by player.
    hand: [u8; 2],
    /// Minions, by player; kept sorted so equal tables are equal states.
    board: [Minions; 2],
    /// Whose turn it is.
    mover: usize,
    /// Hero powers plus cards played this turn.
    used: u8,
    /// Whether the mover performed an operation this turn (then he may end it).
    acted: bool,
    /// Pings still to come in the card being played; 0 when the mover is to choose.
    pings: u8,
}

impl State {
    fn draw(&mut self, player: usize) {
        self.hand[player] = (self.hand[player] + 1).min(MAX_HAND);
    }
}

/// The reference solver for one O, remembering every state it has valued.
#[derive(Debug)]
pub struct Reference {
    ops: u8,
    memo: HashMemo<State, f64>,
}

impl Reference {
    /// A solver for `ops` hero powers plus cards played per turn.
    #[must_use]
    pub fn new(ops: u8) -> Reference {
        Reference { ops, memo: HashMemo::new() }
    }

    /// E's winning probability from `position`.
    pub fn value(&mut self, position: &Position) -> f64 {
        let state = self.turn_start(start_state(position), E);
        self.value_of(state)
    }

    /// The value of every distinct legal first action of E after his draw, in
    /// [`Action::FIRST`] order (minions of equal HP offer the same action once).
    #[cfg(any(test, feature = "internals"))]
    pub fn first_actions(&mut self, position: &Position) -> Vec<(Action, f64)> {
        let state = self.turn_start(start_state(position), E);
        let mut actions = self.actions(&state);
        actions.sort_by_key(|&(action, _)| action);
        actions.dedup_by_key(|&mut (action, _)| action);
        actions
    }

    /// E's winning probability at a moment of the game (module `position`), for its
    /// differential test: the moment as an explicit state, valued by the rules.
    #[cfg(test)]
    pub(crate) fn value_of_moment(&mut self, moment: &crate::position::State) -> f64 {
        use crate::position::Side;
        let mover = if moment.mover == Side::E { E } else { TEACHER };
        let minions = |board: Board, attacked: bool, into: &mut Minions| {
            for hp in (0..board.ones).map(|_| 1).chain((0..board.twos).map(|_| 2)) {
                into.push(Minion { hp, attacked });
            }
        };
        let mut board = [Minions::default(), Minions::default()];
        minions(moment.ready, false, &mut board[mover]);
        minions(moment.spent, true, &mut board[mover]);
        minions(moment.other, false, &mut board[1 - mover]);
        let state = State {
            hp: moment.hp.map(i32::from),
            hand: moment.hand,
            board,
            mover,
            used: moment.used,
            acted: moment.acted,
            pings: moment.pings,
        };
        self.value_of(state)
    }

    /// The state after `player`'s turn starts: he draws, his minions may attack again.
    fn turn_start(&self, mut state: State, player: usize) -> State {
        state.mover = player;
        state.draw(player);
        // His minions may attack again. The other side's marks cannot matter before they are
        // cleared at that side's own turn start, so they are cleared now too: equal futures,
        // one state.
        for minion in state.board.iter_mut().flat_map(|b| b.iter_mut()) {
            minion.attacked = false;
        }
        state.used = 0;
        state.acted = false;
        state
    }

    /// E's winning probability in `state`, both players alive: the mover's choice, or the
    /// next ping when a card is being played.
    fn value_of(&mut self, mut state: State) -> f64 {
        state.board[0].sort_unstable();
        state.board[1].sort_unstable();
        if let Some(&value) = self.memo.get(&state) {
            return value;
        }
        let value = if state.pings > 0 {
            self.ping(&state)
        } else {
            let values = self.actions(&state).into_iter().map(|(_, value)| value);
            if state.mover == E {
                values.fold(f64::NEG_INFINITY, f64::max)
            } else {
                values.fold(f64::INFINITY, f64::min)
            }
        };
        self.memo.insert(state, value);
        value
    }

    /// E's winning probability after an operation: a dead player decides it, else the mover
    /// chooses again. The rules guarantee that both players never die at once.
    fn after(&mut self, state: State) -> f64 {
        if state.hp[E] <= 0 {
            0.0
        } else if state.hp[TEACHER] <= 0 {
            1.0
        } else {
            self.value_of(state)
        }
    }

    /// Every legal operation with E's winning probability after it.
    fn actions(&mut self, state: &State) -> Vec<(Action, f64)> {
        let me = state.mover;
        let foe = 1 - me;
        let mut actions = Vec::new();

        // Hero power: lose 2 HP, draw; legal whatever the hand and even if it kills.
        if state.used < self.ops {
            let mut next = *state;
            next.hp[me] -= i32::from(HERO_POWER_COST);
            next.draw(me);
            next.used += 1;
            next.acted = true;
            actions.push((Action::HeroPower, self.after(next)));
        }

        // Attacks with each minion that has not attacked this turn.
        for i in 0..state.board[me].len() {
            let minion = state.board[me][i];
            if minion.attacked {
                continue;
            }
            let minion_hp = minion.hp as u8;
            for j in 0..state.board[foe].len() {
                let mut next = *state;
                let target_hp = next.board[foe].remove(j).hp as u8;
                next.board[me].remove(i);
                next.acted = true;
                actions.push((Action::Trade { minion_hp, target_hp }, self.after(next)));
            }
            let mut next = *state;
            next.hp[foe] -= i32::from(FACE_DAMAGE);
            next.board[me][i].attacked = true;
            next.acted = true;
            actions.push((Action::Face { minion_hp }, self.after(next)));
        }

        // Play a card: three pings, then the new minion, which cannot attack this turn.
        if state.used < self.ops
            && state.board[me].len() < usize::from(MAX_MINIONS)
            && state.hand[me] > 0
        {
            let mut next = *state;
            next.hand[me] -= 1;
            next.used += 1;
            next.acted = true;
            next.pings = PINGS_PER_PLAY;
            actions.push((Action::Play, self.value_of(next)));
        }

        // End the turn, only after an operation.
        if state.acted {
            let next = self.turn_start(*state, foe);
            actions.push((Action::EndTurn, self.value_of(next)));
        }
        actions
    }

    /// E's winning probability when the next ping of a play is about to hit: each player
    /// and each minion on the table with equal chance. After the last ping the card lands as
    /// a 2-HP minion that cannot attack this turn.
    fn ping(&mut self, state: &State) -> f64 {
        let mut hits = Vec::new();
        for player in [E, TEACHER] {
            let mut next = *state;
            next.hp[player] -= 1;
            hits.push(next);
        }
        for side in [E, TEACHER] {
            for i in 0..state.board[side].len() {
                let mut next = *state;
                next.board[side][i].hp -= 1;
                if next.board[side][i].hp == 0 {
                    next.board[side].remove(i);
                }
                hits.push(next);
            }
        }
        let chance = 1.0 / hits.len() as f64;
        let mut total = 0.0;
        for mut next in hits {
            next.pings -= 1;
            if next.pings == 0 {
                let me = next.mover;
                next.board[me].push(Minion { hp: i32::from(MINION_HP), attacked: true });
            }
            // A player at 0 HP loses at once; the remaining pings never happen.
            total += chance * self.after(next);
        }
        total
    }
}

/// The explicit state of `position` before E's turn starts.
fn start_state(position: &Position) -> State {
    let minions = |board: Board| {
        let mut minions = Minions::default();
        for hp in (0..board.ones).map(|_| 1).chain((0..board.twos).map(|_| 2)) {
            minions.push(Minion { hp, attacked: false });
        }
        minions
    };
    State {
        hp: [i32::from(position.e_hp), i32::from(position.teacher_hp)],
        hand: [position.e_hand, position.teacher_hand],
        board: [minions(position.e_board), minions(position.teacher_board)],
        mover: E,
        used: 0,
        acted: false,
        pings: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_one_is_a_coin_flip() {
        let position = Position {
            e_hp: 1,
            teacher_hp: 1,
            e_board: Board::EMPTY,
            teacher_board: Board::EMPTY,
            e_hand: 1,
            teacher_hand: 0,
        };
        let mut reference = Reference::new(5);
        assert_eq!(reference.value(&position), 0.5);
        assert_eq!(
            reference.first_actions(&position),
            vec![(Action::HeroPower, 0.0), (Action::Play, 0.5)]
        );
    }
}
