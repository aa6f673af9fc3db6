//! A fight's combatants, each distinct sheet stored once: `{"sheets": [...], "list": [...]}`.
//! A fight stored before sheets existed (a plain list naming its content) still loads, its
//! sheets rebuilt from today's built-in content under the names it was stored with.

use std::fmt;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserializer, Serializer};

use std::sync::Arc;

use crate::state::combatant::Combatant;
use crate::state::sheet::{Scope, Sheet, WRITING};

pub fn serialize<S: Serializer>(list: &[Combatant], s: S) -> Result<S::Ok, S::Error> {
    let mut sheets: Vec<&Arc<Sheet>> = Vec::new();
    let mut of = Vec::with_capacity(list.len());
    for c in list {
        let index = sheets
            .iter()
            .position(|x| Arc::ptr_eq(x, &c.sheet) || ***x == *c.sheet)
            .unwrap_or_else(|| {
                sheets.push(&c.sheet);
                sheets.len() - 1
            });
        of.push((Arc::as_ptr(&c.sheet), index as u32));
    }
    let mut m = s.serialize_struct("Roster", 2)?;
    m.serialize_field("sheets", &sheets)?;
    let previous = WRITING.with(|w| w.replace(Some(of)));
    let written = m.serialize_field("list", list);
    WRITING.with(|w| w.replace(previous));
    written?;
    m.end()
}

/// Reads a fight's combatants, each with its repertoire worked out from its sheet (it is not
/// stored: see [`crate::state::repertoire::Repertoire`]).
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Combatant>, D::Error> {
    let mut list = d.deserialize_any(RosterVisitor)?;
    for c in &mut list {
        c.adopt_stored();
        c.recount_repertoire();
    }
    Ok(list)
}

struct RosterVisitor;

impl<'de> Visitor<'de> for RosterVisitor {
    type Value = Vec<Combatant>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a roster {sheets, list} or a list of combatants")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut scope: Option<Scope> = None;
        let mut list = None;
        // A store that reorders keys (PostgreSQL's jsonb puts `list` first) gets the list
        // buffered until the sheets are known.
        let mut early: Option<serde_json::Value> = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "sheets" => {
                    let sheets: Vec<Sheet> = map.next_value()?;
                    scope = Some(Scope::enter(sheets.into_iter().map(Arc::new).collect()));
                }
                "list" if scope.is_some() => list = Some(map.next_value::<Vec<Combatant>>()?),
                "list" => early = Some(map.next_value()?),
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        if let (Some(value), Some(_)) = (early, &scope) {
            list = Some(serde_json::from_value(value).map_err(de::Error::custom)?);
        }
        drop(scope);
        list.ok_or_else(|| de::Error::missing_field("list"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut list = Vec::new();
        while let Some(c) = seq.next_element::<legacy::Stored>()? {
            list.push(c.into_combatant());
        }
        Ok(list)
    }
}

/// A combatant as fights stored it before sheets: its content named by the built-in enums.
pub mod legacy {
    use serde::Deserializer;

    use std::sync::Arc;

    use serde::Deserialize;

    use crate::content::data;
    use crate::content::{Armor, Class, Monster, Race, Weapon};
    use crate::state::combatant::Combatant;
    use crate::state::sheet::{Sheet, builtin_items};

    #[derive(Deserialize)]
    enum LegacyKind {
        Character { race: Race, class: Class, level: u32 },
        Monster(Monster),
    }

    /// A combatant in either form: with its sheet, or with the names it was stored with.
    #[derive(Deserialize)]
    pub(super) struct Stored {
        #[serde(default)]
        kind: Option<LegacyKind>,
        #[serde(default)]
        weapon: Option<Weapon>,
        #[serde(default)]
        off_hand: Option<Weapon>,
        #[serde(default)]
        armor: Option<Armor>,
        #[serde(default)]
        shield: Option<bool>,
        #[serde(flatten)]
        combatant: Combatant,
    }

    impl Stored {
        pub(super) fn into_combatant(self) -> Combatant {
            let mut c = self.combatant;
            let Some(kind) = self.kind else {
                return c;
            };
            let mut sheet = match kind {
                LegacyKind::Character { race, class, level } => Sheet::character(race, class, level),
                LegacyKind::Monster(m) => Sheet::monster(m),
            };
            if let Some(w) = self.weapon {
                sheet.weapon = Arc::clone(w.def());
            }
            sheet.off_hand = self.off_hand.map(|w| Arc::clone(w.def()));
            if let Some(a) = self.armor {
                sheet.armor = Arc::clone(a.def());
            }
            if let Some(shield) = self.shield {
                sheet.shield = shield.then_some(data::builtin().shield);
            }
            sheet.items = builtin_items(&c.items);
            c.sheet = Arc::new(sheet);
            c
        }
    }

    /// A single combatant (a `Join` in the command log) in either form, with its repertoire
    /// worked out from its sheet.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Box<Combatant>, D::Error> {
        let mut c = Stored::deserialize(d)?.into_combatant();
        c.adopt_stored();
        c.recount_repertoire();
        Ok(Box::new(c))
    }
}
