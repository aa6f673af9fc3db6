//! The bot's clock: what time it is for the game (`now` for every command, button and timer).
//!
//! It reads the UTC time once, at creation, and runs on with tokio's monotonic clock from there,
//! so a test can drive it with `tokio::time::pause` and `advance`. `GOGOBEE_CLOCK_OFFSET` sets
//! it ahead of (or behind) the real time — a testing aid: restart the bot two hours ahead and
//! a recovery rest is over.

use anyhow::{Context as _, Result};
use chrono::{DateTime, TimeDelta, Utc};
use tokio::time::Instant;

/// Wall-clock time as the game sees it: the UTC time at creation plus tokio's time elapsed since.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    /// What the clock read at `started`.
    base: DateTime<Utc>,
    started: Instant,
}

impl Clock {
    /// The real time, shifted by `offset`.
    pub fn system(offset: TimeDelta) -> Self {
        Self::starting_at(Utc::now() + offset)
    }

    /// A clock that reads `base` now and runs on from there.
    pub fn starting_at(base: DateTime<Utc>) -> Self {
        Self {
            base,
            started: Instant::now(),
        }
    }

    pub fn now(&self) -> DateTime<Utc> {
        TimeDelta::from_std(self.started.elapsed()).map_or(self.base, |elapsed| self.base + elapsed)
    }
}

/// Parses a clock offset: `2h`, `90m`, `1h30m`, `45s`, `1d`, or a number of seconds (`7200`);
/// a leading `-` sets the clock back.
pub fn parse_offset(text: &str) -> Result<TimeDelta> {
    let text = text.trim();
    let (sign, magnitude) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest.trim()),
        None => (1, text),
    };
    let seconds = if magnitude.chars().all(|c| c.is_ascii_digit()) && !magnitude.is_empty() {
        magnitude
            .parse::<i64>()
            .with_context(|| format!("{magnitude} seconds is too far"))?
    } else {
        let duration = crate::script::parse_duration(magnitude)?;
        i64::try_from(duration.as_secs()).context("that offset is too far")?
    };
    TimeDelta::try_seconds(sign * seconds).context("that offset is too far")
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[tokio::test(start_paused = true)]
    async fn runs_with_the_paused_tokio_clock() {
        let base = Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap();
        let clock = Clock::starting_at(base);
        assert_eq!(clock.now(), base);
        tokio::time::advance(std::time::Duration::from_secs(2 * 3600 - 1)).await;
        assert_eq!(clock.now(), Utc.with_ymd_and_hms(2026, 11, 29, 13, 59, 59).unwrap());
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        assert_eq!((clock.now() - base).num_milliseconds(), 7_200_500);
    }

    #[tokio::test]
    async fn the_system_clock_is_shifted_by_its_offset() {
        let clock = Clock::system(TimeDelta::hours(2));
        let ahead = clock.now() - Utc::now();
        assert!(
            ahead > TimeDelta::minutes(119) && ahead < TimeDelta::minutes(121),
            "{ahead}"
        );
    }

    #[test]
    fn offsets_parse_as_durations_or_seconds() {
        assert_eq!(parse_offset("2h").unwrap(), TimeDelta::hours(2));
        assert_eq!(parse_offset(" 1h30m ").unwrap(), TimeDelta::minutes(90));
        assert_eq!(parse_offset("7200").unwrap(), TimeDelta::hours(2));
        assert_eq!(parse_offset("-45s").unwrap(), TimeDelta::seconds(-45));
        assert_eq!(parse_offset("0").unwrap(), TimeDelta::zero());
        for bad in ["", "-", "2 hours", "h", "1.5h"] {
            assert!(parse_offset(bad).is_err(), "{bad:?} should be refused");
        }
    }
}
