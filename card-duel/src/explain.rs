//! `--explain`: for each case, E's best first action after his draw and the value of every
//! legal first action, taken from the fast solver's sweep while the layers below the case are
//! still in memory.

use std::io::Write;

use crate::rules::{Action, Position};
use crate::tables::Tables;
use crate::write_probability;

/// E's options at the start of one case.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// E's winning probability (the best action's value).
    pub value: f64,
    /// The best first action; the first in [`Action::FIRST`] order among equals.
    pub best: Action,
    /// Every legal first action with E's winning probability after it, in
    /// [`Action::FIRST`] order.
    pub actions: Vec<(Action, f64)>,
}

impl Explanation {
    /// The explanation for a list of valued first actions. A real position always has one
    /// (a fresh turn allows the hero power); an empty list gives a value of NaN.
    #[must_use]
    pub fn from_actions(actions: Vec<(Action, f64)>) -> Explanation {
        let (best, value) = actions
            .iter()
            .copied()
            .reduce(|best, next| if next.1 > best.1 { next } else { best })
            .unwrap_or((Action::HeroPower, f64::NAN));
        Explanation { value, best, actions }
    }
}

/// Explains every position for O = `ops`, on the current rayon pool. Costs one
/// [`Tables::build`] over the positions' reach plus `O(block * outcomes)` a position.
///
/// # Panics
/// When `ops` is outside `1..=MAX_OPS`.
#[must_use]
pub fn explain(ops: u8, positions: &[Position]) -> Vec<Explanation> {
    let (_, actions) = Tables::build_probed(ops, positions);
    actions.into_iter().map(Explanation::from_actions).collect()
}

/// Renders explanations, one block per case:
///
/// ```text
/// case 1: 0.500000000
///   best: play a card
///   hero power: 0.000000000
///   play a card: 0.500000000
/// ```
pub fn render(explanations: &[Explanation], out: &mut Vec<u8>) {
    for (i, e) in explanations.iter().enumerate() {
        let _ = write!(out, "case {}: ", i + 1);
        write_probability(out, e.value);
        let _ = writeln!(out, "  best: {}", e.best);
        for (action, value) in &e.actions {
            let _ = write!(out, "  {action}: ");
            write_probability(out, *value);
        }
    }
}
