//! Damage in flight (SRD 5.1 "Damage Types"): the parts of one hit that are of another type than
//! its first ("2d10 + 4 piercing plus 1d6 fire"). Data only: `defences` applies them as they land.

use serde::{Deserialize, Serialize};

use crate::content::DamageType;
use crate::content::data::MAX_EXTRA_PARTS;

/// An amount of damage of one type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamagePart {
    pub amount: i32,
    pub damage_type: DamageType,
}

/// A hit's damage parts after its first, in the order the attack names them (none for most
/// hits); inline, so a pending hit stays `Copy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ExtraParts([Option<DamagePart>; MAX_EXTRA_PARTS]);

impl ExtraParts {
    pub const NONE: ExtraParts = ExtraParts([None; MAX_EXTRA_PARTS]);

    /// The parts of `parts` (the first [`MAX_EXTRA_PARTS`]).
    pub fn of(parts: impl IntoIterator<Item = DamagePart>) -> Self {
        let mut out = ExtraParts::NONE;
        for (slot, part) in out.0.iter_mut().zip(parts) {
            *slot = Some(part);
        }
        out
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(Option::is_none)
    }

    pub fn iter(&self) -> impl Iterator<Item = DamagePart> + '_ {
        self.0.iter().flatten().copied()
    }

    /// Their amounts added up.
    pub fn total(&self) -> i32 {
        self.iter().map(|p| p.amount).sum()
    }

    /// Scales every part by `to / from` (rounded down), as a reaction that cuts the hit's
    /// whole damage from `from` to `to` cuts each type in proportion.
    pub fn scale(&mut self, from: i32, to: i32) {
        for part in self.0.iter_mut().flatten() {
            part.amount = if from <= 0 {
                0
            } else {
                (i64::from(part.amount) * i64::from(to.max(0)) / i64::from(from)) as i32
            };
        }
    }
}

/// What a defence did to a part of damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Defence {
    /// Halved (rounded down).
    Resistance,
    /// None of it.
    Immunity,
    /// Doubled.
    Vulnerability,
}
