//! The Hospital's numbers (seed 000 §8.3–§8.4): the fee by level with zone-tier and cleric
//! modifiers and the 40 % cap, the debt's XP penalty, and the recovery rest by level.
//!
//! Rounding: modifiers apply one after the other to the base fee, each result rounded to the
//! nearest coin (halves round up); the cap is 40 % of the coins held at admission, rounded down,
//! and again 40 % of the coins held at payment ([`charged_at_payment`]: the smaller fee wins),
//! so the fee never exceeds 40 % of the *current* balance.

use chrono::Duration;

/// Base fee by player level (§8.3).
pub fn base_fee(level: u32) -> u32 {
    match level {
        0..=3 => 20,
        4..=6 => 50,
        7..=9 => 120,
        10..=12 => 250,
        13..=15 => 400,
        16..=18 => 600,
        _ => 900,
    }
}

/// Percent change for dying in a zone of `tier` (§8.3): tiers 1–2 −20 %, 3 base, 4 +15 %, 5 +30 %.
pub fn zone_modifier_percent(tier: u8) -> i64 {
    match tier {
        0..=2 => -20,
        3 => 0,
        4 => 15,
        _ => 30,
    }
}

/// Percent change when a cleric fought beside the fallen player (§8.3): −25 %.
pub const CLERIC_MODIFIER_PERCENT: i64 = -25;

/// The fee never exceeds this share of the coins held at admission (§8.3).
pub const CAP_PERCENT: u64 = 40;

/// XP gains are reduced by this share while a debt is unpaid (§8.3).
pub const DEBT_XP_PENALTY_PERCENT: u32 = 10;

/// `amount` changed by `percent`, rounded to the nearest coin, halves up.
fn adjust(amount: u64, percent: i64) -> u64 {
    let scaled = amount as i64 * (100 + percent);
    ((scaled + 50).div_euclid(100)).max(0) as u64
}

/// How a fee was reached, for the admission embed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fee {
    pub base: u32,
    pub after_zone: u64,
    pub after_cleric: u64,
    pub cap: u64,
    /// What is owed: the modified fee, or the cap if lower.
    pub fee: u64,
    pub capped: bool,
}

/// The Hospital fee for a player of `level` who died in a zone of `zone_tier` holding `coins`.
pub fn fee(level: u32, zone_tier: u8, cleric_in_party: bool, coins: u64) -> Fee {
    let base = base_fee(level);
    let after_zone = adjust(u64::from(base), zone_modifier_percent(zone_tier));
    let after_cleric = if cleric_in_party {
        adjust(after_zone, CLERIC_MODIFIER_PERCENT)
    } else {
        after_zone
    };
    let cap = cap(coins);
    let fee = after_cleric.min(cap);
    Fee {
        base,
        after_zone,
        after_cleric,
        cap,
        fee,
        capped: fee < after_cleric,
    }
}

/// 40 % of `coins`, rounded down (none of a negative balance).
fn cap(coins: u64) -> u64 {
    // In u128: 40 % of any u64 is a u64, but 40 times it may not be.
    u64::try_from(u128::from(coins) * u128::from(CAP_PERCENT) / 100).unwrap_or(u64::MAX)
}

/// What `/hospital pay` charges: the fee fixed at admission, or 40 % of the `coins` held now if
/// that is smaller (§8.3: "never exceeds 40 % of the player's current coin balance").
pub fn charged_at_payment(admission_fee: i64, coins: i64) -> i64 {
    let now = i64::try_from(cap(coins.max(0).unsigned_abs())).unwrap_or(i64::MAX);
    admission_fee.max(0).min(now)
}

/// XP actually gained while in debt: 10 % less, rounded down.
pub fn xp_gain(xp: u32, in_debt: bool) -> u32 {
    if in_debt {
        xp - u32::try_from(u64::from(xp) * u64::from(DEBT_XP_PENALTY_PERCENT) / 100).unwrap_or(xp)
    } else {
        xp
    }
}

/// Recovery rest after paying (§8.4): 2 h at 1–5, 4 h at 6–10, 8 h at 11–15, 12 h at 16–20.
pub fn recovery_rest(level: u32) -> Duration {
    Duration::hours(match level {
        0..=5 => 2,
        6..=10 => 4,
        11..=15 => 8,
        _ => 12,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_fee_follows_the_level_tiers() {
        let fees: Vec<u32> = [1, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16, 18, 19, 20]
            .iter()
            .map(|&l| base_fee(l))
            .collect();
        assert_eq!(
            fees,
            vec![20, 20, 50, 50, 120, 120, 250, 250, 400, 400, 600, 600, 900, 900]
        );
    }

    #[test]
    fn zone_tier_modifiers_are_minus_twenty_base_plus_fifteen_plus_thirty() {
        let rich = 1_000_000;
        assert_eq!(fee(10, 1, false, rich).fee, 200);
        assert_eq!(fee(10, 2, false, rich).fee, 200);
        assert_eq!(fee(10, 3, false, rich).fee, 250);
        assert_eq!(fee(10, 4, false, rich).fee, 288); // 287.5 rounds up
        assert_eq!(fee(10, 5, false, rich).fee, 325);
    }

    #[test]
    fn a_cleric_in_the_party_takes_a_quarter_off_after_the_zone_modifier() {
        assert_eq!(fee(19, 5, true, 1_000_000).fee, 878); // 900 → 1170 → 877.5 → 878
        assert_eq!(fee(1, 1, true, 1_000).fee, 12); // 20 → 16 → 12
    }

    #[test]
    fn the_fee_never_exceeds_forty_percent_of_coins_held() {
        let f = fee(20, 5, false, 1_000);
        assert_eq!((f.after_cleric, f.cap, f.fee, f.capped), (1_170, 400, 400, true));
        assert_eq!(fee(1, 3, false, 0).fee, 0);
        assert_eq!(fee(1, 3, false, 49).fee, 19); // 40 % of 49 is 19.6, rounded down
    }

    #[test]
    fn the_fee_never_exceeds_forty_percent_of_the_current_coin_balance() {
        // 138 fixed at admission with 1,000 held; 100 left at payment: 40 % of 100 wins.
        assert_eq!(charged_at_payment(138, 100), 40);
        assert_eq!(charged_at_payment(138, 1_000), 138);
        assert_eq!(charged_at_payment(138, 345), 138); // 40 % of 345 is 138
        assert_eq!(charged_at_payment(138, 49), 19);
        assert_eq!(charged_at_payment(138, 0), 0);
        assert_eq!(charged_at_payment(138, -5), 0);
        assert_eq!(charged_at_payment(900, i64::MAX), 900);
    }

    #[test]
    fn debt_reduces_xp_gains_by_ten_percent() {
        assert_eq!(xp_gain(100, true), 90);
        assert_eq!(xp_gain(55, true), 50); // 5.5 lost, rounded down to 5
        assert_eq!(xp_gain(100, false), 100);
    }

    #[test]
    fn the_largest_hoards_and_gains_do_not_overflow() {
        let hoard = fee(20, 5, false, u64::MAX);
        assert_eq!(hoard.cap, u64::MAX / 100 * 40 + u64::MAX % 100 * 40 / 100);
        assert!(!hoard.capped);
        assert_eq!(xp_gain(u32::MAX, true), u32::MAX - u32::MAX / 10);
    }

    #[test]
    fn recovery_rest_is_two_four_eight_or_twelve_hours_by_level() {
        let hours: Vec<i64> = [1, 5, 6, 10, 11, 15, 16, 20]
            .iter()
            .map(|&l| recovery_rest(l).num_hours())
            .collect();
        assert_eq!(hours, vec![2, 2, 4, 4, 8, 8, 12, 12]);
    }
}
