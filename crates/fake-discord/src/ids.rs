//! Snowflake ids, one type per kind of thing, so a test cannot pass a channel where a user goes.

use std::fmt;

macro_rules! snowflake {
    ($(#[$doc:meta] $name:ident),* $(,)?) => {$(
        #[$doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u64);

        impl $name {
            /// The id as Discord writes it in JSON: a decimal string.
            pub fn to_json(self) -> serde_json::Value {
                serde_json::Value::String(self.0.to_string())
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    )*};
}

snowflake! {
    /// The bot's application (also the id of its interaction webhooks).
    ApplicationId,
    /// A user: a player, the server owner, or the bot itself.
    UserId,
    /// A guild (Discord server).
    GuildId,
    /// A channel: a guild text channel or a DM channel.
    ChannelId,
    /// A message, sent by the bot or created by an interaction response.
    MessageId,
    /// An interaction the fake dispatched (slash command, button press, autocomplete).
    InteractionId,
    /// A registered application command.
    CommandId,
}

/// Milliseconds from the Discord epoch (2015-01-01) to 2026-01-01, so ids look like real ones
/// and sort by creation; the low 22 bits hold a counter, which keeps ids deterministic per run.
const BASE_TIMESTAMP_MS: u64 = 1_767_225_600_000 - 1_420_070_400_000;

/// Hands out increasing, realistic-looking snowflakes.
#[derive(Debug)]
pub(crate) struct SnowflakeGen {
    next: u64,
}

impl SnowflakeGen {
    pub(crate) fn new() -> Self {
        Self { next: 1 }
    }

    pub(crate) fn next(&mut self) -> u64 {
        let counter = self.next;
        self.next += 1;
        // One millisecond per 4096 ids keeps them unique and creation-ordered.
        ((BASE_TIMESTAMP_MS + counter / 4096) << 22) | (counter % 4096)
    }
}
