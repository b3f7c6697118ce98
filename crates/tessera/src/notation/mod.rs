//! notation
