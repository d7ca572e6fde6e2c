//! Master: the strongest Gomoku level.
//!
//! A threat-space engine in the classic style: an incremental board with line patterns
//! looked up from precomputed tables ([`board`], [`pattern`]), a VCF and a VCT solver
//! ([`vcf`], [`vct`]), and an iterative-deepening PVS ([`search`]) with a transposition table
//! ([`tt`]), threat-aware move generation ([`movegen`]) and time management ([`time`]).

pub mod board;
pub mod eval;
pub mod movegen;
pub mod pattern;
pub mod search;
pub mod time;
pub mod tt;
pub mod vcf;
pub mod vct;
