//! The classic Gomoku levels of the seed articles, weakest first: five-tuple scoring,
//! win-array weights, the nine-cell pattern scorer, and the forcing-move lookahead. Each is
//! its scoring and its policy, run by the one [`driver`]. They share the nine-cell scorer ([`ninecell`], kept up to date stone by stone in
//! [`scoreboard`]), the playouts ([`playout`]) and the forcing reading of
//! [`threat`](super::threat).

pub mod driver;
pub mod fivetuple;
pub mod lookahead;
pub mod ninecell;
pub mod pattern;
pub mod playout;
pub mod scoreboard;
pub mod winarray;

pub use fivetuple::FiveTuple;
pub use lookahead::Lookahead;
pub use pattern::Pattern;
pub use winarray::WinArray;
