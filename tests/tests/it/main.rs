//! The workspace's integration tests, in one test binary so that insta and the three solvers
//! are linked once: one module per problem (its samples, snapshot suite and differential
//! tests against the reference solvers), `validate`'s canonical format on the three official
//! samples, and the tidy checks of the architecture.

mod canonical;
mod card_duel;
mod hero_battle;
mod tidy;
mod toy_train;
