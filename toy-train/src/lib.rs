//! toy-train: the exact solver (being built).
