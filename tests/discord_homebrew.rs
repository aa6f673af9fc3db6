//! End to end through Discord: `/homebrew import file:<attachment>` — the server
//! owner attaches a file, the bot downloads it from the attachment's URL (from the fake
//! Discord's CDN, once its sender's permission and its declared size and type are checked) and
//! imports it; the guild then spawns
//! its monster. A file that does not load is refused line by line, storing nothing. In two
//! servers (commands registered globally): the homebrew item is granted and the spell known in
//! the importing guild, and `/use` and `/cast` autocomplete list them there only.

mod support;

use std::sync::Arc;

use fake_discord::FakeDiscord;
use serde_json::json;
use support::*;

const EXAMPLE: &[u8] = include_bytes!("../examples/homebrew/marsh-raiders.toml");

/// What a command answered — its content and embeds (titles, descriptions, fields) — from the
/// callback, or from the original message when the callback deferred.
fn answer(table: &Table, callback: &fake_discord::Callback) -> String {
    let data = &callback.body["data"];
    let message = if data["embeds"].is_null() && data["content"].is_null() {
        table.fake.original_message(callback.interaction).unwrap_or_default()
    } else {
        data.clone()
    };
    let mut text = message["content"].as_str().unwrap_or_default().to_owned();
    for embed in message["embeds"].as_array().into_iter().flatten() {
        for part in [&embed["title"], &embed["description"]] {
            text.push('\n');
            text.push_str(part.as_str().unwrap_or_default());
        }
        for field in embed["fields"].as_array().into_iter().flatten() {
            text.push('\n');
            text.push_str(field["name"].as_str().unwrap_or_default());
            text.push_str(": ");
            text.push_str(field["value"].as_str().unwrap_or_default());
        }
    }
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attached_homebrew_file_is_downloaded_imported_and_its_monster_spawned() {
    let (fake, bot, table, _dir) = start("homebrew-attachment").await;
    let file = fake.upload("marsh-raiders.toml", EXAMPLE);
    let imported = table
        .slash("owner", "homebrew", &["import"], json!({"file": file}))
        .await;
    let text = answer(&table, &imported);
    assert!(
        text.contains("Bog Hag") && text.contains("Marsh Goblin"),
        "the five entries are named: {text}\n{}",
        bot.logs()
    );
    let path = format!("/attachments/{file}/marsh-raiders.toml");
    let fetched: Vec<u16> = fake
        .requests()
        .iter()
        .filter(|r| r.method == "GET" && r.path == path)
        .map(|r| r.status)
        .collect();
    assert_eq!(fetched, [200], "the bot downloaded the attachment once");

    let listed = table.slash("owner", "homebrew", &["list"], json!({})).await;
    let text = answer(&table, &listed);
    for name in ["Bog Rot", "Marsh Bolt", "Swamp Tonic", "Bog Hag", "Marsh Goblin"] {
        assert!(text.contains(name), "{name} in {text}");
    }

    let spawned = table
        .slash("owner", "gm", &["spawn"], json!({"monster": "bog hag"}))
        .await;
    assert!(!is_ephemeral(&spawned), "{}", spawned.body);
    let text = answer(&table, &spawned);
    assert!(
        text.contains("**Bog Hag** `██████████ 33/33`"),
        "6d8+6 averages 33: {text}"
    );
    // `replaces = "goblin"`: this guild's goblin is the Marsh Goblin.
    let goblin = table
        .slash("owner", "gm", &["spawn"], json!({"monster": "goblin"}))
        .await;
    let text = answer(&table, &goblin);
    assert!(
        text.contains("**Marsh Goblin** `██████████ 10/10`"),
        "3d6 averages 10: {text}"
    );

    // A file that does not load, attached: refused by line, nothing stored.
    let bad = fake.upload("bad.toml", b"[[monster]\nname = \"Mudling\"\n");
    let refused = table
        .slash("owner", "homebrew", &["import"], json!({"file": bad}))
        .await;
    assert_refused(&refused, "line 1:");
    let again = table.slash("owner", "homebrew", &["list"], json!({})).await;
    assert!(!answer(&table, &again).contains("Mudling"));
    assert_all_valid(&fake);
    drop(bot);
}

/// The GETs of an attachment's URL the bot made.
fn downloads(fake: &FakeDiscord, file: &str, name: &str) -> usize {
    let path = format!("/attachments/{file}/{name}");
    fake.requests()
        .iter()
        .filter(|r| r.method == "GET" && r.path == path)
        .count()
}

/// An attachment is checked before it is fetched: a member without Manage Server, a file
/// declared larger than a homebrew file may be, or one that is not text make the bot download
/// nothing; a file larger than it declared is cut off at the limit and refused. Nothing is
/// stored by any of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attachment_is_checked_before_any_byte_of_it_is_downloaded() {
    let (fake, bot, table, _dir) = start("homebrew-attachment-checks").await;
    let import = |file: &str| json!({ "file": file });

    // Alice may not manage the server (the owner lets every member see /homebrew): refused,
    // the file never fetched.
    fake.open_command(table.guild, "homebrew");
    let file = fake.upload("marsh-raiders.toml", EXAMPLE);
    let refused = table.slash("alice", "homebrew", &["import"], import(&file)).await;
    assert_refused(&refused, "Manage Server");
    assert_eq!(downloads(&fake, &file, "marsh-raiders.toml"), 0, "{}", bot.logs());

    // Declared at 10 MiB: refused with the figures, never fetched.
    let big = fake.upload_as("huge.toml", EXAMPLE, 10 * 1024 * 1024, Some("text/plain"));
    let refused = table.slash("owner", "homebrew", &["import"], import(&big)).await;
    assert_refused(&refused, "is 10240 KB; a homebrew file is at most 256 KB");
    assert_eq!(downloads(&fake, &big, "huge.toml"), 0);

    // An image: refused, never fetched.
    let image = fake.upload_as("map.png", b"\x89PNG", 4, Some("image/png"));
    let refused = table.slash("owner", "homebrew", &["import"], import(&image)).await;
    assert_refused(&refused, "is image/png");
    assert_eq!(downloads(&fake, &image, "map.png"), 0);

    // Declared small, served large: the download stops at the limit and is refused.
    let mut padded = EXAMPLE.to_vec();
    padded.extend(std::iter::repeat_n(b'#', 300 * 1024));
    let liar = fake.upload_as("liar.toml", &padded, 1_000, Some("text/plain"));
    let refused = table.slash("owner", "homebrew", &["import"], import(&liar)).await;
    assert_refused(&refused, "larger than 256 KB");

    let listed = table.slash("owner", "homebrew", &["list"], json!({})).await;
    assert!(answer(&table, &listed).contains("No homebrew yet"), "nothing stored");
    assert_all_valid(&fake);
    drop(bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn homebrew_items_and_spells_are_offered_and_granted_in_their_guild_only() {
    let fake = Arc::new(FakeDiscord::start().await);
    let dir = scratch("homebrew-guilds");
    let bot = Bot::start(&fake, &dir, None);
    let registered = fake.wait_for_commands(None, WAIT).await;
    assert!(registered.is_ok(), "no global commands:\n{}", bot.logs());
    let owner = fake.user("owner");
    let (guild_a, channel_a) = fake.add_guild("Marsh", owner);
    let (guild_b, channel_b) = fake.add_guild("Plain", owner);
    let (a, b) = (
        Table::new(&fake, guild_a, channel_a),
        Table::new(&fake, guild_b, channel_b),
    );
    let file = fake.upload("marsh-raiders.toml", EXAMPLE);
    let imported = a.slash("owner", "homebrew", &["import"], json!({"file": file})).await;
    assert!(answer(&a, &imported).contains("Swamp Tonic"), "{}", bot.logs());

    // With no character, autocomplete offers the server's content: guild A's homebrew, only there.
    assert_eq!(a.offered("bob", "use", &[], "item", "swamp").await, ["Swamp Tonic"]);
    assert_eq!(a.offered("bob", "cast", &[], "spell", "marsh").await, ["Marsh Bolt"]);
    assert!(b.offered("bob", "use", &[], "item", "swamp").await.is_empty());
    assert!(b.offered("bob", "cast", &[], "spell", "marsh").await.is_empty());

    for table in [&a, &b] {
        let created = table
            .slash(
                "alice",
                "character",
                &["create"],
                json!({"name": "Aria", "race": "elf", "class": "mage"}),
            )
            .await;
        assert!(answer(table, &created).contains("Aria"), "{}", created.body);
    }
    // Guild A: the GM grants the homebrew item; the Mage knows the spell (classes = ["Mage", …]).
    let granted = a
        .slash(
            "owner",
            "gm",
            &["grant"],
            json!({"player": "alice", "item": "Swamp Tonic", "count": 2}),
        )
        .await;
    assert!(answer(&a, &granted).contains("Swamp Tonic × 2"), "{}", granted.body);
    assert_eq!(
        a.offered("alice", "use", &[], "item", "").await,
        ["Potion of Healing", "Swamp Tonic"]
    );
    assert!(
        a.offered("alice", "cast", &[], "spell", "")
            .await
            .contains(&"Marsh Bolt".to_owned())
    );

    // Guild B: refused as unknown, with the items there are; nothing offered.
    let refused = b
        .slash(
            "owner",
            "gm",
            &["grant"],
            json!({"player": "alice", "item": "Swamp Tonic"}),
        )
        .await;
    assert_refused(&refused, "Potion of Healing");
    let said = answer(&b, &refused);
    assert!(
        said.contains("Swamp Tonic") && said.matches("Swamp Tonic").count() == 1,
        "{said}"
    );
    assert_eq!(b.offered("alice", "use", &[], "item", "").await, ["Potion of Healing"]);
    let spells = b.offered("alice", "cast", &[], "spell", "").await;
    assert!(
        spells.contains(&"Fire Bolt".to_owned()) && !spells.contains(&"Marsh Bolt".to_owned()),
        "{spells:?}"
    );
    assert_all_valid(&fake);
    drop(bot);
}
