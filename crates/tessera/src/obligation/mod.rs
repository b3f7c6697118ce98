//! Proof obligations and the error type.

/// A failed obligation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Checked arithmetic overflowed.
    #[error("arithmetic overflow in {0}")]
    Overflow(&'static str),
}

/// Result alias.
pub type Result<T> = std::result::Result<T, Error>;
