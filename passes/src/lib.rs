//! Analyses and passes over programs in the `array` dialect.

pub mod summary;
