//! card-duel: the exact solver (being built).
