//! `--explain`: for each case, E's best first action after his draw and the value of every
//! legal first action, taken from the fast solver's sweep while the layers below the case are
//! still in memory.
//!
//! Which action is called best, when several share the greatest value (the rule hero-battle's
//! `--explain` follows too): a move that wins at once comes first. Here that is a face attack
//! when E's minions kill the teacher with face attacks this turn whatever else happens (the
//! teacher has at most [`FACE_DAMAGE`] HP per minion of E, and all of them are ready at the
//! start of E's turn): no ping and no reply of the teacher can change the outcome, so the
//! attack that starts the kill reads better than, say, a hero power that merely keeps it
//! available. Otherwise, the first of the best actions in [`Action::FIRST`] order is named.
//! Only the name changes with this rule, never a value.

use std::io::Write;

use crate::parse::write_probability;
use crate::rules::{Action, FACE_DAMAGE, Position};
use crate::tables::{SweepSize, Tables};

/// E's options at the start of one case.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// E's winning probability (the best action's value).
    pub value: f64,
    /// The best first action: among those of greatest value, a face attack when E's minions
    /// kill the teacher this turn, else the first in [`Action::FIRST`] order (see the module
    /// notes).
    pub best: Action,
    /// Every legal first action with E's winning probability after it, in
    /// [`Action::FIRST`] order.
    pub actions: Vec<(Action, f64)>,
}

impl Explanation {
    /// The explanation of `position` from its valued first actions. `O(actions)`.
    ///
    /// # Panics
    /// When `actions` is empty: a fresh turn always allows the hero power, so the first
    /// actions of a real position never are.
    #[must_use]
    pub fn new(position: &Position, actions: Vec<(Action, f64)>) -> Explanation {
        let value = actions
            .iter()
            .map(|&(_, value)| value)
            .reduce(f64::max)
            .expect("a turn always allows the hero power");
        let best_actions = actions.iter().filter(|&&(_, v)| v == value).map(|&(action, _)| action);
        let best = best_actions
            .clone()
            .find(|&action| wins_at_once(position, action))
            .or_else(|| best_actions.clone().next())
            .expect("the greatest value belongs to an action");
        Explanation { value, best, actions }
    }
}

/// Whether `action`, as E's first action in `position`, wins at once: a face attack when the
/// face attacks of all E's minions (ready at his turn start) kill the teacher.
fn wins_at_once(position: &Position, action: Action) -> bool {
    matches!(action, Action::Face { .. })
        && u16::from(position.teacher_hp)
            <= u16::from(FACE_DAMAGE) * u16::from(position.e_board.len())
}

/// Explains every position for O = `ops`, on the current rayon pool. Costs one
/// [`Tables::build`] over the positions' reach plus `O(block * outcomes)` a position.
///
/// # Panics
/// When `ops` is outside `1..=MAX_OPS`.
#[must_use]
#[cfg(feature = "judge")]
pub fn explain(ops: u8, positions: &[Position]) -> Vec<Explanation> {
    explain_swept(ops, positions).0
}

/// [`explain`], with the size of the sweep it took (for `--stats`).
pub(crate) fn explain_swept(ops: u8, positions: &[Position]) -> (Vec<Explanation>, SweepSize) {
    let (tables, actions) = Tables::build_probed(ops, positions);
    let size = tables.size().expect("tables built by a sweep know its size");
    let explained = positions.iter().zip(actions).map(|(p, a)| Explanation::new(p, a)).collect();
    (explained, size)
}

/// Renders explanations, one block per case:
///
/// ```text
/// case 1: 0.500000000
///   best: play a card
///   hero power: 0.000000000
///   play a card: 0.500000000
/// ```
#[cfg(feature = "judge")]
pub(crate) fn render(explanations: &[Explanation], out: &mut Vec<u8>) {
    for (i, e) in explanations.iter().enumerate() {
        write(i, e, out);
    }
}

/// Appends the block of case `index` (0-based) to `out`, as [`render`] writes it.
pub(crate) fn write(index: usize, e: &Explanation, out: &mut Vec<u8>) {
    let _ = write!(out, "case {}: ", index + 1);
    write_probability(out, e.value);
    let _ = writeln!(out, "  best: {}", e.best);
    for (action, value) in &e.actions {
        let _ = write!(out, "  {action}: ");
        write_probability(out, *value);
    }
}
