//! The fitted weights of the pattern evaluation: file format, loading and the shipped set.
//!
//! File format (little-endian): the magic `TGRW`, then `u32` version (1), `u32` number of
//! stages, `u32` weights per stage, then `stages * per_stage` `i16` weights in hundredths
//! of a disc. The shipped file `weights.bin` is produced by
//! `cargo run --release -p tengen-engine --example fit_reversi_eval` (see that file).

use std::sync::OnceLock;

use super::pattern::{Layout, N_STAGES};

/// The shipped weights file.
static SHIPPED: &[u8] = include_bytes!("weights.bin");

const MAGIC: &[u8; 4] = b"TGRW";
const VERSION: u32 = 1;
const HEADER: usize = 16;

/// Why a weights file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    #[error("the weights file does not start with the expected header")]
    BadHeader,
    #[error("the weights file has version {0}, but version 1 is expected")]
    BadVersion(u32),
    #[error("the weights file has {stages} stages of {per_stage} weights, but {expected_stages} stages of {expected_per_stage} are expected")]
    WrongShape {
        stages: usize,
        per_stage: usize,
        expected_stages: usize,
        expected_per_stage: usize,
    },
    #[error("the weights file is {0} bytes long, which does not match its header")]
    WrongLength(usize),
}

/// Pattern weights for every stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    per_stage: usize,
    data: Vec<i16>,
}

impl Weights {
    /// All-zero weights of the current layout.
    pub fn zero() -> Weights {
        let per_stage = Layout::get().stage_len;
        Weights { per_stage, data: vec![0; per_stage * N_STAGES] }
    }

    /// Weights from a vector of `N_STAGES * stage_len` values.
    pub fn from_vec(data: Vec<i16>) -> Result<Weights, WeightsError> {
        let per_stage = Layout::get().stage_len;
        if data.len() != per_stage * N_STAGES {
            return Err(WeightsError::WrongLength(data.len() * 2));
        }
        Ok(Weights { per_stage, data })
    }

    /// The weights of one stage.
    #[inline]
    pub fn stage(&self, s: usize) -> &[i16] {
        &self.data[s * self.per_stage..(s + 1) * self.per_stage]
    }

    /// All weights, stage after stage.
    pub fn as_slice(&self) -> &[i16] {
        &self.data
    }

    /// Reads a weights file, checking its shape against the current layout.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        if bytes.len() < HEADER || &bytes[..4] != MAGIC {
            return Err(WeightsError::BadHeader);
        }
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let version = word(4);
        if version != VERSION {
            return Err(WeightsError::BadVersion(version));
        }
        let stages = word(8) as usize;
        let per_stage = word(12) as usize;
        let expected_per_stage = Layout::get().stage_len;
        if stages != N_STAGES || per_stage != expected_per_stage {
            return Err(WeightsError::WrongShape {
                stages,
                per_stage,
                expected_stages: N_STAGES,
                expected_per_stage,
            });
        }
        let body = &bytes[HEADER..];
        if body.len() != stages * per_stage * 2 {
            return Err(WeightsError::WrongLength(bytes.len()));
        }
        let data = body.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
        Ok(Weights { per_stage, data })
    }

    /// The file form of these weights.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.data.len() * 2);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(N_STAGES as u32).to_le_bytes());
        out.extend_from_slice(&(self.per_stage as u32).to_le_bytes());
        for w in &self.data {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// The shipped weights (zero weights if the shipped file were unreadable, which the
    /// tests rule out).
    pub fn shipped() -> &'static Weights {
        static W: OnceLock<Weights> = OnceLock::new();
        W.get_or_init(|| Weights::from_bytes(SHIPPED).unwrap_or_else(|_| Weights::zero()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_weights_load_with_the_expected_size() {
        let w = Weights::from_bytes(SHIPPED).expect("shipped weights load");
        assert_eq!(w.as_slice().len(), N_STAGES * Layout::get().stage_len);
        assert_eq!(SHIPPED.len(), HEADER + 2 * N_STAGES * Layout::get().stage_len);
        // Fitted, not empty: most stages have many non-zero weights.
        let nonzero = w.as_slice().iter().filter(|&&x| x != 0).count();
        assert!(nonzero > 10_000, "only {nonzero} non-zero weights");
    }

    #[test]
    fn round_trip_and_bad_files() {
        let mut v = vec![0i16; N_STAGES * Layout::get().stage_len];
        v[5] = -7;
        v[1000] = 300;
        let w = Weights::from_vec(v).unwrap();
        let bytes = w.to_bytes();
        assert_eq!(Weights::from_bytes(&bytes).unwrap(), w);
        assert_eq!(Weights::from_bytes(b"nope"), Err(WeightsError::BadHeader));
        assert!(matches!(
            Weights::from_bytes(&bytes[..bytes.len() - 1]),
            Err(WeightsError::WrongLength(_))
        ));
        let mut bad = bytes.clone();
        bad[8] = 3;
        assert!(matches!(Weights::from_bytes(&bad), Err(WeightsError::WrongShape { .. })));
    }
}
