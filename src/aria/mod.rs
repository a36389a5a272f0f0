//! Stage 2: what assistive technology would say about an element.
//!
//! - [`roles`]: explicit and implicit ARIA roles and the snapshot's role categories;
//! - [`name`]: accessible names and descriptions (accname 1.2, HTML-AAM);
//! - [`hidden`]: what a person cannot see, decided from markup and inline style.
//!
//! Every function here is a pure function of the arena: the walk calls them in document
//! order, the probe command calls them for one element.

pub mod hidden;
pub mod name;
pub mod roles;
