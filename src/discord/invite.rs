//! What a server grants the bot when it is invited: the permissions its posts and reads need,
//! and nothing more. The README, docs/operations.md and `gogobee bot --help` give the same
//! integer (a test reads them).
//!
//! What each is for:
//! - *View Channel* and *Send Messages*: timers post in the fight's channel (a reaction window
//!   that ran out, the monsters' turns after it, a turn timer; [`super::send`]);
//! - *Send Messages in Threads*: the same, when the fight is in a thread;
//! - *Embed Links*: those posts are embeds (the status, the narration);
//! - *Attach Files*: the replay log, the homebrew export and the balance chart are files, and a
//!   post carries its payload's files;
//! - *Read Message History*: a restarted bot finds the reaction prompts an earlier process
//!   posted in the channel's recent history, to take their buttons away.
//!
//! Not asked for: *Mention @everyone* (every message's `allowed_mentions` names its users
//! only), *Use External Emojis* (no custom emoji is used), *Manage Messages* (the bot edits
//! only its own), *Use Application Commands* (a member's permission, not the bot's).

use poise::serenity_prelude::Permissions;

/// The permissions the invite asks for.
pub const PERMISSIONS: Permissions = Permissions::VIEW_CHANNEL
    .union(Permissions::SEND_MESSAGES)
    .union(Permissions::SEND_MESSAGES_IN_THREADS)
    .union(Permissions::EMBED_LINKS)
    .union(Permissions::ATTACH_FILES)
    .union(Permissions::READ_MESSAGE_HISTORY);

/// The invite URL for the application `client_id`, with the `bot` and `applications.commands`
/// scopes and [`PERMISSIONS`].
pub fn url(client_id: &str) -> String {
    format!(
        "https://discord.com/oauth2/authorize?client_id={client_id}&scope=bot%20applications.commands&permissions={}",
        PERMISSIONS.bits()
    )
}

/// The invite, as `gogobee bot --help` ends with it.
pub fn help() -> String {
    format!(
        "Invite (the bot and applications.commands scopes):\n  {}\n  permissions: {}",
        url("<APP_ID>"),
        PERMISSIONS.get_permission_names().join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `permissions=<integer>` in `text`.
    fn integers_in(text: &str) -> Vec<u64> {
        text.split("permissions=")
            .skip(1)
            .map(|rest| {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                digits
                    .parse()
                    .unwrap_or_else(|_| panic!("permissions= without an integer: {rest:.40}"))
            })
            .collect()
    }

    #[test]
    fn the_permissions_are_the_named_flags_and_never_mention_everyone() {
        let named = (1 << 10) // View Channel
            | (1 << 11) // Send Messages
            | (1 << 38) // Send Messages in Threads
            | (1 << 14) // Embed Links
            | (1 << 15) // Attach Files
            | (1 << 16); // Read Message History
        assert_eq!(PERMISSIONS.bits(), named);
        assert_eq!(PERMISSIONS.bits(), 274_878_024_704);
        for never in [
            Permissions::MENTION_EVERYONE,
            Permissions::ADMINISTRATOR,
            Permissions::MANAGE_MESSAGES,
            Permissions::USE_EXTERNAL_EMOJIS,
        ] {
            assert!(!PERMISSIONS.contains(never), "{never:?}");
        }
    }

    #[test]
    fn the_fake_discord_gives_the_bot_what_the_invite_asks_for_and_no_mention_everyone() {
        let held = Permissions::from_bits_retain(fake_discord::permissions::BOT);
        assert!(held.contains(PERMISSIONS), "{held:?}");
        assert!(!held.contains(Permissions::MENTION_EVERYONE), "{held:?}");
    }

    #[test]
    fn the_readme_and_the_operations_guide_invite_with_exactly_these_permissions() {
        for file in ["README.md", "docs/operations.md"] {
            let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
            let found = integers_in(&text);
            assert!(!found.is_empty(), "{file} has no invite URL");
            assert!(
                found.iter().all(|n| *n == PERMISSIONS.bits()),
                "{file} invites with permissions {found:?}, not {}",
                PERMISSIONS.bits()
            );
            assert!(text.contains(&url("<APP_ID>")), "{file} lacks {}", url("<APP_ID>"));
            let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
            for name in PERMISSIONS.get_permission_names() {
                assert!(words.contains(name), "{file} does not name {name:?}");
            }
        }
    }

    #[test]
    fn bot_help_ends_with_the_invite() {
        use clap::CommandFactory;
        let mut cli = crate::Cli::command();
        let help = cli
            .find_subcommand_mut("bot")
            .expect("the bot subcommand")
            .render_long_help()
            .to_string();
        assert_eq!(integers_in(&help), [PERMISSIONS.bits()], "{help}");
        assert!(help.contains(&url("<APP_ID>")), "{help}");
        assert!(help.contains("Send Messages in Threads"), "{help}");
    }
}
