//! Games against perfect play: what the three problems' games share.

mod value;

pub use value::{OrderedProbability, Value};
