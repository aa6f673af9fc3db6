//! The expedition zones (seed 000 §3.4) are named by id ([`Zone`]); what a zone is — its tier,
//! its rooms and their Difficult Terrain source, its material, the monsters met there (by id),
//! what its rooms hide — is its definition in `zones.toml` ([`super::data::ZoneDef`]). A fight
//! stored before ids named its zone by the enum variant (`"ForestOfShadows"`), which reads as
//! the same id. The constants name the built-in zones the rules and tests refer to.

use super::id::id_type;

id_type! {
    /// A zone's id: the normalised name of a zone of the content (`"Dragon's Lair"` → `dragonslair`).
    Zone
}

impl Zone {
    pub const FOREST_OF_SHADOWS: Zone = Zone::known("forestofshadows");
    pub const SUNKEN_TEMPLE: Zone = Zone::known("sunkentemple");
    pub const HAUNTED_MANOR: Zone = Zone::known("hauntedmanor");
    pub const UNDERFORGE: Zone = Zone::known("underforge");
    pub const UNDERDARK: Zone = Zone::known("underdark");
    pub const FEYWILD_CROSSING: Zone = Zone::known("feywildcrossing");
    pub const DRAGONS_LAIR: Zone = Zone::known("dragonslair");
    pub const ABYSS_PORTAL: Zone = Zone::known("abyssportal");

    /// What to call it: the built-in zone's name, else its id.
    pub fn label(self) -> String {
        self.builtin()
            .map_or_else(|| self.as_str().to_owned(), |d| d.name.to_string())
    }

    /// Its definition in the built-in content, if it is a built-in zone.
    pub fn builtin(self) -> Option<&'static std::sync::Arc<super::data::ZoneDef>> {
        super::data::builtin().zones.get(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::data::builtin;

    #[test]
    fn every_built_in_zone_has_its_id_and_spans_tiers_one_to_five() {
        for z in builtin().zones.all() {
            let id = Zone::named(&z.name).unwrap();
            assert_eq!(id.builtin().map(|d| &d.name), Some(&z.name));
            assert!(!z.difficult_terrain.is_empty(), "{}", z.name);
        }
        let tiers: Vec<u8> = builtin().zones.all().iter().map(|z| z.tier).collect();
        assert!((1..=5).all(|t| tiers.contains(&t)), "{tiers:?}");
        assert_eq!(Zone::DRAGONS_LAIR.label(), "Dragon's Lair");
        assert_eq!(
            builtin().zone("forest").and_then(|z| Zone::named(&z.name)),
            Some(Zone::FOREST_OF_SHADOWS)
        );
        assert_eq!(Zone::known("moon").builtin(), None);
    }

    #[test]
    fn a_zone_stored_by_its_old_variant_name_reads_as_its_id() {
        let zone: Zone = serde_json::from_str("\"DragonsLair\"").unwrap();
        assert_eq!(zone, Zone::DRAGONS_LAIR);
        let zone: Option<Zone> = serde_json::from_str("\"ForestOfShadows\"").unwrap();
        assert_eq!(zone, Some(Zone::FOREST_OF_SHADOWS));
        assert_eq!(serde_json::to_string(&Zone::SUNKEN_TEMPLE).unwrap(), "\"sunkentemple\"");
    }
}
