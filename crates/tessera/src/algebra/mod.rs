//! algebra
