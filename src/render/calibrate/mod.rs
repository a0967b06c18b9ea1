//! A calibration (`ragsynth calibrate`): per judge and source, kappa with its interval, and
//! whether the judge runs with the model; `text` for people, `json` for scripts.

pub mod json;
pub mod text;
