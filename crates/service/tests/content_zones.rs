//! The built-in `zones.toml` names the material each zone's quiet rooms yield exactly as the
//! expedition service's table does, so the service can switch to the data without a change.

use engine::content::Zone;
use engine::content::data::Content;
use service::cmd::expedition::zone_material;

#[test]
fn every_zone_material_matches_the_expedition_table() {
    let content = Content::builtin().unwrap_or_else(|e| panic!("{e}"));
    for zone in Zone::ALL {
        let def = content.zones.get(zone.name()).unwrap();
        assert_eq!(&*def.material, zone_material(zone), "{}", zone.name());
    }
}
