//! Messages outside the combat embed: refusals, info, the character sheet, and narration
//! moments the service triggers (room entry, the Hospital) — plain data in, a payload out.

use engine::RuleViolation;
use engine::combatant::Combatant;
use engine::content::{Ability, Zone};

use crate::combat::{Renderer, colors, hp_bar};
use crate::flavor::{Key, mix};
use crate::payload::{AllowedMentions, Embed, EmbedField, EmbedFooter, MessagePayload, truncate};
use crate::text::{bold_name, escape_markdown};

/// A refused command: an ephemeral line saying what to do instead (the violation's message).
pub fn refusal(violation: &RuleViolation) -> MessagePayload {
    refusal_text(&violation.to_string())
}

/// A refusal from any layer (a service error's player-facing message): ephemeral, one line.
pub fn refusal_text(text: &str) -> MessagePayload {
    let line = text.lines().next().unwrap_or_default().trim();
    MessagePayload {
        content: Some(line.to_owned()),
        allowed_mentions: Some(AllowedMentions::none()),
        ..MessagePayload::default()
    }
    .ephemeral()
    .clamp_to_limits()
}

/// A plain informational embed (status, help, confirmations); `.ephemeral()` it if private.
pub fn info(title: &str, body: &str) -> MessagePayload {
    MessagePayload {
        embeds: vec![Embed {
            title: Some(title.to_owned()),
            description: (!body.is_empty()).then(|| body.to_owned()),
            color: Some(colors::TWINBEE),
            ..Embed::default()
        }],
        allowed_mentions: Some(AllowedMentions::none()),
        ..MessagePayload::default()
    }
    .clamp_to_limits()
}

/// A character sheet as plain data (the service fills it from its rows; or see
/// [`CharacterSheet::from_combatant`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CharacterSheet {
    pub name: String,
    pub race: String,
    pub class: String,
    pub level: u32,
    pub xp: u32,
    /// XP needed for the next level, if there is one.
    pub next_level_xp: Option<u32>,
    pub hp: i32,
    pub max_hp: i32,
    pub armor_class: i32,
    /// Speed in feet.
    pub speed: i32,
    pub coins: i64,
    /// Ability scores by short name ("STR", 16).
    pub abilities: Vec<(String, i32)>,
    /// Weapon, off-hand, armor, shield.
    pub gear: Vec<String>,
    /// Carried items and counts.
    pub inventory: Vec<(String, u32)>,
    /// Anything else worth showing: Hospital, recovery rest, debt, arena streak, pet, housing.
    pub notes: Vec<String>,
    /// Their part in the fight in progress, as [`crate::models::sheet_lines`] gives it (already
    /// Discord markdown); empty outside a fight.
    pub fight: Vec<String>,
}

impl CharacterSheet {
    /// Ability scores as a sheet shows them: ("STR", 16), … in the usual order.
    pub fn ability_scores(abilities: &engine::content::Abilities) -> Vec<(String, i32)> {
        [
            (Ability::Str, "STR"),
            (Ability::Dex, "DEX"),
            (Ability::Con, "CON"),
            (Ability::Int, "INT"),
            (Ability::Wis, "WIS"),
            (Ability::Cha, "CHA"),
        ]
        .iter()
        .map(|(a, short)| ((*short).to_owned(), abilities.score(*a)))
        .collect()
    }

    /// Wielded and worn gear as a sheet lists it: weapon, off hand, armor, shield.
    pub fn gear_list(weapon: &str, off_hand: Option<&str>, armor: &str, shield: bool) -> Vec<String> {
        let mut gear = vec![weapon.to_owned()];
        gear.extend(off_hand.map(|w| format!("{w} (off hand)")));
        gear.push(armor.to_owned());
        if shield {
            gear.push("Shield".to_owned());
        }
        gear
    }

    /// What a combatant carries into a fight (coins, XP and notes are left for the caller).
    pub fn from_combatant(c: &Combatant) -> Self {
        let abilities = Self::ability_scores(&c.abilities);
        let gear = Self::gear_list(
            &c.weapon().name,
            c.off_hand().map(|w| &*w.name),
            &c.armor().name,
            c.has_shield(),
        );
        Self {
            name: c.name.clone(),
            race: c.race_name().unwrap_or_default().to_owned(),
            class: c.class_name().unwrap_or_default().to_owned(),
            level: c.level(),
            hp: c.hp,
            max_hp: c.max_hp,
            armor_class: c.armor_class(),
            speed: c.speed(),
            abilities,
            gear,
            inventory: c.items.iter().map(|(item, n)| (c.item_name(*item), *n)).collect(),
            ..Self::default()
        }
    }
}

/// A character sheet embed.
pub fn character_sheet(sheet: &CharacterSheet) -> MessagePayload {
    let or_dash = |s: String| if s.trim().is_empty() { "—".to_owned() } else { s };
    let field = |name: &str, value: String, inline: bool| EmbedField {
        name: name.to_owned(),
        value: truncate(&or_dash(value), crate::payload::limits::FIELD_VALUE),
        inline,
    };
    let xp = match sheet.next_level_xp {
        Some(next) => format!("{} / {next}", sheet.xp),
        None => sheet.xp.to_string(),
    };
    let abilities = sheet
        .abilities
        .iter()
        .map(|(name, score)| format!("{name} {score} ({:+})", (score - 10).div_euclid(2)))
        .collect::<Vec<_>>()
        .join(" · ");
    let inventory = sheet
        .inventory
        .iter()
        .map(|(item, n)| format!("{} ×{n}", escape_markdown(item)))
        .collect::<Vec<_>>()
        .join("\n");
    let mut fields = vec![
        field("HP", format!("`{}`", hp_bar(sheet.hp, sheet.max_hp)), true),
        field("AC", sheet.armor_class.to_string(), true),
        field("Speed", format!("{} ft", sheet.speed), true),
        field("XP", xp, true),
        field("Coins", sheet.coins.to_string(), true),
        field("Abilities", abilities, false),
        field(
            "Gear",
            sheet
                .gear
                .iter()
                .map(|g| escape_markdown(g))
                .collect::<Vec<_>>()
                .join(", "),
            false,
        ),
        field("Inventory", inventory, false),
    ];
    if !sheet.notes.is_empty() {
        fields.push(field(
            "Status",
            sheet
                .notes
                .iter()
                .map(|g| escape_markdown(g))
                .collect::<Vec<_>>()
                .join("\n"),
            false,
        ));
    }
    if !sheet.fight.is_empty() {
        fields.push(field("In this fight", sheet.fight.join("\n"), false));
    }
    let subtitle = [sheet.race.as_str(), sheet.class.as_str()]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    MessagePayload {
        embeds: vec![Embed {
            title: Some(
                format!("{} — level {} {subtitle}", sheet.name, sheet.level)
                    .trim_end()
                    .to_owned(),
            ),
            color: Some(colors::TWINBEE),
            fields,
            ..Embed::default()
        }],
        allowed_mentions: Some(AllowedMentions::none()),
        ..MessagePayload::default()
    }
    .clamp_to_limits()
}

/// A room as the expedition enters it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomEntry {
    /// The character (or party leader) entering.
    pub name: String,
    pub zone: Zone,
    /// 1-based room number, and the rooms in the expedition.
    pub room: u32,
    pub rooms: u32,
    /// The room is Difficult Terrain (§3.4): flagged on entry, unasked.
    pub difficult: bool,
    /// Monster names met here (empty: a quiet room).
    pub monsters: Vec<String>,
}

impl Renderer {
    /// One flavor line, filled (names are bolded and escaped by the caller, or passed raw and
    /// escaped here with [`Renderer::story`]).
    pub fn line(&self, key: Key, seed: u64, salt: u64, values: &[(&str, &str)]) -> String {
        self.flavor().pick(key, seed, salt, values)
    }

    /// A narration moment the service triggers (Hospital, rest, expedition, GM tools): one embed
    /// in the key's speaker's voice. `values` are raw text; names are escaped and bolded.
    pub fn story(&self, key: Key, values: &[(&str, &str)], seed: u64) -> MessagePayload {
        self.story_lines(&[(key, values)], seed, None)
    }

    fn story_lines(&self, parts: &[(Key, &[(&str, &str)])], seed: u64, title: Option<String>) -> MessagePayload {
        let speaker = parts.first().map(|(k, _)| k.file().speaker());
        let lines: Vec<String> = parts
            .iter()
            .enumerate()
            .map(|(i, (key, values))| {
                let styled: Vec<(&str, String)> = values
                    .iter()
                    .map(|(name, value)| {
                        let v = if matches!(*name, "name" | "target" | "ally") {
                            bold_name(value)
                        } else {
                            escape_markdown(value)
                        };
                        (*name, v)
                    })
                    .collect();
                let borrowed: Vec<(&str, &str)> = styled.iter().map(|(n, v)| (*n, v.as_str())).collect();
                self.flavor().pick(*key, seed, i as u64, &borrowed)
            })
            .collect();
        let (color, footer) = match speaker {
            Some(crate::flavor::Speaker::ThomKrooke) => (colors::THOM, "Thom Krooke"),
            _ => (colors::TWINBEE, "TwinBee"),
        };
        MessagePayload {
            embeds: vec![Embed {
                title,
                description: Some(lines.join("\n")),
                color: Some(color),
                footer: Some(EmbedFooter {
                    text: footer.to_owned(),
                }),
                ..Embed::default()
            }],
            allowed_mentions: Some(AllowedMentions::none()),
            ..MessagePayload::default()
        }
        .clamp_to_limits()
    }

    /// Room entry: the room line, Difficult Terrain flagged for the zone when the room has it,
    /// then the encounter (or the quiet). `seed` is the expedition's seed mixed with the room.
    pub fn room_entry(&self, room: &RoomEntry, seed: u64) -> MessagePayload {
        let seed = mix(seed, u64::from(room.room));
        let zone = room.zone.label();
        let zone = zone.as_str();
        let (room_no, rooms) = (room.room.to_string(), room.rooms.to_string());
        let monsters = room.monsters.join(", ");
        let base: [(&str, &str); 2] = [("name", &room.name), ("zone", zone)];
        let entry = [
            ("name", room.name.as_str()),
            ("zone", zone),
            ("room", room_no.as_str()),
            ("rooms", rooms.as_str()),
        ];
        let encounter = [
            ("name", room.name.as_str()),
            ("zone", zone),
            ("monsters", monsters.as_str()),
        ];
        let mut parts: Vec<(Key, &[(&str, &str)])> = vec![(Key::RoomEntry, &entry)];
        if room.difficult
            && let Some(key) = Key::difficult_terrain(room.zone)
        {
            parts.push((key, &base));
        }
        if room.monsters.is_empty() {
            parts.push((Key::RoomQuiet, &base));
        } else {
            parts.push((Key::Encounter, &encounter));
        }
        self.story_lines(
            &parts,
            seed,
            Some(format!("{zone} — room {}/{}", room.room, room.rooms)),
        )
    }

    /// Thom Krooke's Hospital admission (§8.6), in his own embed.
    pub fn hospital_admission(&self, name: &str, fee: u32, seed: u64) -> MessagePayload {
        self.story(
            Key::HospitalAdmission,
            &[("name", name), ("fee", &fee.to_string())],
            seed,
        )
    }
}
