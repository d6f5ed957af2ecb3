//! Test-only crate; see src/integration.rs.
