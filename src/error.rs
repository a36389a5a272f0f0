//! The crate's error type.

use crate::parse::encoding::UnknownEncoding;
use crate::tree::TreeJsonError;

/// Everything that can go wrong in the library. Malformed HTML is not an error (it parses
/// as a browser would parse it); unknown refs are answers, not errors
/// ([`crate::QueryError`]).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    UnknownEncoding(#[from] UnknownEncoding),
    #[error(transparent)]
    TreeJson(#[from] TreeJsonError),
}
