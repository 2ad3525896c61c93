//! hero-battle: the exact solver (being built).
