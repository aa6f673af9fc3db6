//! The eight expedition zones and their Difficult Terrain sources (seed 000 §3.4), with tiers
//! that set the monsters met and, later, the Hospital fee modifiers (§8.3).

use serde::{Deserialize, Serialize};

use super::{Monster, find_by_name};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Zone {
    ForestOfShadows,
    SunkenTemple,
    HauntedManor,
    Underforge,
    Underdark,
    FeywildCrossing,
    DragonsLair,
    AbyssPortal,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZoneStats {
    pub name: &'static str,
    /// 1–5.
    pub tier: u8,
    /// What makes a room Difficult Terrain here (§3.4).
    pub difficult_terrain: &'static str,
    /// Chance in 6 that a room is Difficult Terrain.
    pub difficult_in_6: u32,
    /// Rooms in one expedition.
    pub rooms: u32,
    pub monsters: &'static [Monster],
}

impl Zone {
    pub const ALL: [Zone; 8] = [
        Zone::ForestOfShadows,
        Zone::SunkenTemple,
        Zone::HauntedManor,
        Zone::Underforge,
        Zone::Underdark,
        Zone::FeywildCrossing,
        Zone::DragonsLair,
        Zone::AbyssPortal,
    ];

    pub fn stats(self) -> ZoneStats {
        use Monster as M;
        let z = |name, tier, difficult_terrain, difficult_in_6, rooms, monsters| ZoneStats {
            name,
            tier,
            difficult_terrain,
            difficult_in_6,
            rooms,
            monsters,
        };
        match self {
            Zone::ForestOfShadows => z(
                "Forest of Shadows",
                1,
                "dense undergrowth and root-covered floors",
                2,
                4,
                &[M::Goblin, M::Wolf, M::GiantRat, M::Kobold],
            ),
            Zone::SunkenTemple => z(
                "Sunken Temple",
                1,
                "flooded rooms, the water knee-deep or higher",
                3,
                4,
                &[M::Skeleton, M::Zombie, M::GiantRat, M::Kobold],
            ),
            Zone::HauntedManor => z(
                "Haunted Manor",
                2,
                "collapsed floor sections and furniture hazards",
                2,
                5,
                &[M::Ghoul, M::Skeleton, M::Zombie, M::BanditCaptain],
            ),
            Zone::Underforge => z(
                "Underforge",
                2,
                "cooled lava flows and slag piles",
                2,
                5,
                &[M::Orc, M::Hobgoblin, M::Bugbear],
            ),
            Zone::Underdark => z(
                "Underdark",
                3,
                "stalagmite fields and cave-in debris",
                3,
                6,
                &[M::DrowMage, M::Ogre, M::Bugbear],
            ),
            Zone::FeywildCrossing => z(
                "Feywild Crossing",
                4,
                "entangling vines and dreamlike terrain shifts",
                3,
                6,
                &[M::Quickling, M::Troll],
            ),
            Zone::DragonsLair => z(
                "Dragon's Lair",
                5,
                "coin drifts and melted-gold floors",
                2,
                7,
                &[M::RedDragonWyrmling, M::YoungRedDragon, M::Troll],
            ),
            Zone::AbyssPortal => z(
                "Abyss Portal",
                5,
                "reality fractures and unstable ground",
                4,
                7,
                &[M::Vrock, M::Troll, M::Quickling],
            ),
        }
    }

    pub fn name(self) -> &'static str {
        self.stats().name
    }

    pub fn parse(text: &str) -> Option<Zone> {
        find_by_name(&Self::ALL, Self::name, text).or_else(|| {
            let wanted = super::normalize(text);
            Self::ALL
                .into_iter()
                .find(|z| super::normalize(z.name()).starts_with(&wanted) && wanted.len() >= 4)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_zone_names_its_difficult_terrain_source() {
        let sources: Vec<(&str, &str)> = Zone::ALL
            .iter()
            .map(|z| (z.name(), z.stats().difficult_terrain))
            .collect();
        assert_eq!(sources.len(), 8);
        assert!(sources.iter().all(|(_, s)| !s.is_empty()));
        assert_eq!(
            Zone::SunkenTemple.stats().difficult_terrain,
            "flooded rooms, the water knee-deep or higher"
        );
    }

    #[test]
    fn zones_span_tiers_one_to_five() {
        let tiers: Vec<u8> = Zone::ALL.iter().map(|z| z.stats().tier).collect();
        for t in 1..=5 {
            assert!(tiers.contains(&t));
        }
    }

    #[test]
    fn zones_parse_by_name_or_prefix() {
        assert_eq!(Zone::parse("dragon's lair"), Some(Zone::DragonsLair));
        assert_eq!(Zone::parse("underdark"), Some(Zone::Underdark));
        assert_eq!(Zone::parse("forest"), Some(Zone::ForestOfShadows));
        assert_eq!(Zone::parse("moon"), None);
    }
}
