//! A combatant's rules (seed 000 §2–§3, §6): how one is made from its content, and the figures
//! the rules read off it — armor class, speed, encumbrance, attacks — with the changes to its
//! sheet. Its data is `crate::state::combatant`.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::content::data::{
    ArmorDef, ClassDef, ClassLevel, CreatureType, Defences, Feature, ItemDef, ItemEffectDef, MonsterDef, RaceDef,
    RaceTrait, SpellDef, WeaponDef,
};
use crate::content::{Abilities, Ability, Armor, Behaviour, Class, Item, Monster, Race, Skill, Spell, Weapon};
pub use crate::state::combatant::{
    Approach, Combatant, Conditions, Controller, CunningStrike, Encumbrance, ModelSheet, Pools,
};
use crate::state::death_saves::DeathSaveState;
use crate::state::ids::Ruleset;
pub use crate::state::ids::{CombatantId, Side};
use crate::state::resources::TurnResources;
pub use crate::state::sheet::{CharacterDef, Kind, Sheet};

/// What every character carries besides gear and consumables (rations, waterskin, tinderbox), in
/// pounds: light enough that no race × class starts encumbered by its own kit (§3.2).
pub const KIT_LB: i32 = 3;

/// A combatant's sheet, open for changes ([`Combatant::sheet_mut`]): when dropped, the
/// combatant's [`Repertoire`] is worked out again from what the sheet now says (as
/// `BinaryHeap::peek_mut` restores the heap).
pub struct SheetMut<'c>(&'c mut Combatant);

impl std::ops::Deref for SheetMut<'_> {
    type Target = Sheet;

    fn deref(&self) -> &Sheet {
        &self.0.sheet
    }
}

impl std::ops::DerefMut for SheetMut<'_> {
    fn deref_mut(&mut self) -> &mut Sheet {
        Arc::make_mut(&mut self.0.sheet)
    }
}

impl Drop for SheetMut<'_> {
    fn drop(&mut self) {
        self.0.recount_repertoire();
    }
}

impl Combatant {
    /// A built-in player character at full health with its class kit and a Potion of Healing.
    pub fn character(name: &str, race: Race, class: Class, level: u32, controller: Controller) -> Self {
        Self::of_character(
            name,
            crate::content::data::builtin(),
            race.def(),
            class.def(),
            level,
            controller,
        )
    }

    /// A player character of `content`'s `race` and `class` (found there by id) at full health,
    /// with its class kit and a Potion of Healing.
    pub fn of_character(
        name: &str,
        content: &crate::content::data::Content,
        race: &Arc<RaceDef>,
        def: &ClassDef,
        level: u32,
        controller: Controller,
    ) -> Self {
        let sheet = Sheet::of_character(content, race, def, level);
        let at = sheet.character_def().map_or(level, |c| c.level);
        let abilities = def.base_abilities.plus(race.ability_bonus);
        let max_hp = def.max_hp(at, abilities.modifier(Ability::Con));
        let row = *def.at(at);
        let mut items = BTreeMap::new();
        items.insert(Item::POTION_OF_HEALING, 1);
        Self {
            pools: Pools {
                spell_slots: row.spell_slots,
                second_wind: row.second_wind,
                rage: row.rage,
                divine_favor: row.divine_favor,
                racial_rage: sheet.has_trait(RaceTrait::Rage),
                racial_misty_step: sheet.has_trait(RaceTrait::MistyStep),
                ..Pools::default()
            },
            items,
            pack_lb: KIT_LB,
            ..Self::blank(name, Side::Party, controller, sheet, abilities, max_hp)
        }
    }

    /// A built-in monster with average hit points.
    pub fn monster(name: &str, monster: Monster) -> Self {
        Self::of_monster(name, Arc::clone(monster.def()))
    }

    /// A monster of any content (built-in or a server's own) with average hit points.
    pub fn of_monster(name: &str, def: Arc<MonsterDef>) -> Self {
        let hp = def.hit_points.average().max(1);
        let pools = Pools {
            spell_slots: def.spell_slots,
            legendary_resistance: def.legendary_resistance,
            legendary_actions: def.legendary.as_ref().map_or(0, |l| l.actions),
            ..Pools::default()
        };
        let (abilities, behaviour) = (def.abilities, def.behaviour);
        Self {
            pools,
            ..Self::blank(
                name,
                Side::Enemies,
                Controller::Ai(behaviour),
                Sheet::of_monster(def),
                abilities,
                hp,
            )
        }
    }

    fn blank(name: &str, side: Side, controller: Controller, sheet: Sheet, abilities: Abilities, hp: i32) -> Self {
        Self {
            id: CombatantId(0),
            name: name.to_owned(),
            side,
            controller,
            repertoire: crate::reactions::repertoire_of(&sheet),
            sheet: Arc::new(sheet),
            abilities,
            hp,
            max_hp: hp,
            temp_hp: 0,
            pack_lb: 0,
            initiative: 0,
            resources: TurnResources::default(),
            conditions: Conditions::default(),
            pools: Pools::default(),
            items: BTreeMap::new(),
            death: DeathSaveState::default(),
            readied: None,
            statuses: Vec::new(),
            model: ModelSheet::Gogobee,
            stored_ctb: None,
            stored_tdgs: None,
            stored_ticks: None,
        }
    }

    pub fn on_side(mut self, side: Side) -> Self {
        self.side = side;
        self
    }

    pub fn controlled_by(mut self, controller: Controller) -> Self {
        self.controller = controller;
        self
    }

    /// Its sheet, to change before it joins a fight (gear from a character row, a test's
    /// set-up); copied first if another combatant shares it. Its [`Repertoire`] is worked out
    /// again from the changed sheet when the returned guard is dropped.
    pub fn sheet_mut(&mut self) -> SheetMut<'_> {
        SheetMut(self)
    }

    /// Works its [`Repertoire`] out again from its sheet: for a combatant read from storage,
    /// which does not keep it.
    /// A fight stored when status effects were the charge race's alone kept them on its sheet:
    /// read back, they move to the combatant, where every ruleset reads them.
    /// A fight stored before area abilities kept whether the breath weapon was charged: read
    /// back, a spent one counts as a use of the first area ability.
    /// A fight stored before [`ModelSheet`] kept all three models' sheets on every combatant:
    /// read back, the one holding anything becomes its model sheet (a fight runs one model, so
    /// the others are blank, and blank is no sheet).
    pub(crate) fn adopt_stored(&mut self) {
        if let Some(ctb) = &mut self.stored_ctb
            && !ctb.statuses.is_empty()
        {
            let mut stored = std::mem::take(&mut ctb.statuses);
            stored.append(&mut self.statuses);
            self.statuses = stored;
        }
        let stored = [
            self.stored_ctb.take().map(ModelSheet::Ctb),
            self.stored_tdgs.take().map(ModelSheet::Tdgs),
            self.stored_ticks.take().map(ModelSheet::Ticks),
        ];
        if self.model.is_blank()
            && let Some(sheet) = stored.into_iter().flatten().find(|s| !s.is_blank())
        {
            self.model = sheet;
        }
        if !std::mem::replace(&mut self.pools.stored_breath_ready, true)
            && self
                .stat_block()
                .is_some_and(|m| m.each_area_ability().next().is_some())
        {
            self.pools.ability_uses[0] = 1;
        }
    }

    pub(crate) fn recount_repertoire(&mut self) {
        self.repertoire = crate::reactions::repertoire_of(&self.sheet);
    }

    /// Wields a built-in weapon in the main hand.
    pub fn set_weapon(&mut self, weapon: Weapon) {
        self.wield(Some(Arc::clone(weapon.def())));
    }

    /// Wields a built-in weapon in the off hand, or nothing.
    pub fn set_off_hand(&mut self, weapon: Option<Weapon>) {
        self.wield_off_hand(weapon.map(|w| Arc::clone(w.def())));
    }

    /// Wears a built-in armor.
    pub fn set_armor(&mut self, armor: Armor) {
        self.wear(Some(Arc::clone(armor.def())));
    }

    /// Wields a weapon of any content in the main hand; nothing in it, it strikes unarmed.
    pub fn wield(&mut self, weapon: Option<Arc<WeaponDef>>) {
        let mut sheet = self.sheet_mut();
        sheet.weapon = weapon.unwrap_or_else(|| Arc::clone(&sheet.unarmed));
    }

    /// Wields a weapon of any content in the off hand, or nothing.
    pub fn wield_off_hand(&mut self, weapon: Option<Arc<WeaponDef>>) {
        self.sheet_mut().off_hand = weapon;
    }

    /// Wears an armor of any content, or none.
    pub fn wear(&mut self, armor: Option<Arc<ArmorDef>>) {
        self.sheet_mut().armor = armor.unwrap_or_else(|| Arc::clone(Armor::NONE.def()));
    }

    /// Carries the shield or not.
    pub fn set_shield(&mut self, shield: bool) {
        self.sheet_mut().shield = shield.then_some(crate::content::data::builtin().shield);
    }

    /// Carries these built-in consumables.
    pub fn set_items(&mut self, items: BTreeMap<Item, u32>) {
        self.sheet_mut().items = crate::state::sheet::builtin_items(&items);
        self.items = items;
    }

    /// Gives it `count` more of a built-in consumable (its definition goes on the sheet); an id
    /// the built-in content does not have gives nothing.
    pub fn give(&mut self, item: Item, count: u32) {
        if let Some(def) = item.builtin() {
            self.carry(def, count);
        }
    }

    /// Gives it `count` more of a consumable of any content (built-in or a server's own); its
    /// definition goes on the sheet unless one of that id is there already.
    pub fn carry(&mut self, def: &Arc<ItemDef>, count: u32) {
        let Some(item) = Item::named(&def.name) else {
            return;
        };
        if self.item_def(item).is_none() {
            let mut sheet = self.sheet_mut();
            let mut items = sheet.items.to_vec();
            items.push(Arc::clone(def));
            sheet.items = items.into();
        }
        let n = self.items.entry(item).or_default();
        *n = n.saturating_add(count);
    }

    /// Copies onto its sheet what `content` (a campaign's: the built-ins with its homebrew)
    /// defines for it, as it joins a fight: the consumables it holds that the built-in content
    /// lacks, and, for a character, its class's spells at its level as `content` lists them (a
    /// homebrew spell the class learns, a spell a homebrew entry replaces). An id `content`
    /// does not define stays held, unusable, as before.
    pub fn draw_on(&mut self, content: &crate::content::data::Content) {
        let missing: Vec<Arc<ItemDef>> = self
            .items
            .keys()
            .filter(|item| self.item_def(**item).is_none())
            .filter_map(|item| content.items.get(item.as_str()).filter(|d| item.names(&d.name)))
            .cloned()
            .collect();
        if !missing.is_empty() {
            let mut sheet = self.sheet_mut();
            let mut items = sheet.items.to_vec();
            items.extend(missing);
            sheet.items = items.into();
        }
        let Some(character) = self.sheet.character_def() else {
            return;
        };
        let Some(class) = content.classes.get(&character.class) else {
            return;
        };
        let known: Vec<SpellDef> = class.known_spells(character.level).cloned().collect();
        if *character.spells != *known
            && let crate::state::sheet::Kind::Character(c) = &mut self.sheet_mut().kind
        {
            c.spells = known.into();
        }
    }

    /// The name of a consumable it carries (its id when it carries none of that id).
    pub fn item_name(&self, item: Item) -> String {
        self.item_def(item).map_or_else(|| item.label(), |d| d.name.to_string())
    }

    /// The name of a spell it can cast (its id when it cannot).
    pub fn spell_name(&self, spell: Spell) -> String {
        self.spell(spell).map_or_else(|| spell.label(), |d| d.name.to_string())
    }

    pub fn weapon(&self) -> &WeaponDef {
        &self.sheet.weapon
    }

    pub fn off_hand(&self) -> Option<&WeaponDef> {
        self.sheet.off_hand.as_deref()
    }

    pub fn armor(&self) -> &ArmorDef {
        &self.sheet.armor
    }

    pub fn has_shield(&self) -> bool {
        self.sheet.shield.is_some()
    }

    pub fn is_player(&self) -> bool {
        matches!(self.controller, Controller::Player(_))
    }

    pub fn player_id(&self) -> Option<&str> {
        match &self.controller {
            Controller::Player(id) => Some(id),
            Controller::Ai(_) => None,
        }
    }

    pub fn is_character(&self) -> bool {
        matches!(self.sheet.kind, Kind::Character(_))
    }

    /// Its race, class and level, if it is a character.
    pub fn character_def(&self) -> Option<&CharacterDef> {
        self.sheet.character_def()
    }

    /// Its stat block, if it is a monster.
    pub fn stat_block(&self) -> Option<&MonsterDef> {
        self.sheet.monster_def()
    }

    /// Its creature type: a character's is humanoid, a monster's what its stat block names.
    pub fn creature_type(&self) -> Option<CreatureType> {
        match self.stat_block() {
            Some(m) => m.creature_type,
            None => Some(CreatureType::Humanoid),
        }
    }

    /// Its class's name, if it is a character.
    pub fn class_name(&self) -> Option<&str> {
        self.character_def().map(|c| &*c.class)
    }

    /// Its race's name, if it is a character.
    pub fn race_name(&self) -> Option<&str> {
        self.character_def().map(|c| &*c.race.name)
    }

    /// Its stat block's name, if it is a monster.
    pub fn monster_name(&self) -> Option<&str> {
        self.stat_block().map(|m| &*m.name)
    }

    /// Character level (monsters count as level 1 for level-gated rules, which they never pass).
    pub fn level(&self) -> u32 {
        self.character_def().map_or(1, |c| c.level)
    }

    /// Whether it has a class feature (or its stat block the trait) under `ruleset`.
    pub fn has_feature(&self, feature: Feature, ruleset: Ruleset) -> bool {
        self.sheet.has_feature(feature, ruleset)
    }

    /// Whether its race has `t`.
    pub fn has_trait(&self, t: RaceTrait) -> bool {
        self.sheet.has_trait(t)
    }

    /// Its class table's row for its level (a monster's is all zeroes).
    pub fn class_row(&self) -> ClassLevel {
        self.character_def().map(|c| c.at_level).unwrap_or_default()
    }

    pub fn proficiency(&self) -> i32 {
        match &self.sheet.kind {
            Kind::Character(c) => c.proficiency,
            Kind::Monster(m) => m.proficiency,
        }
    }

    /// Cantrip dice multiplier (1 for a monster).
    pub fn cantrip_dice(&self) -> u32 {
        self.character_def().map_or(1, |c| c.cantrip_dice)
    }

    pub fn modifier(&self, ability: Ability) -> i32 {
        self.abilities.modifier(ability)
    }

    /// Dead: a monster at 0 HP, or a character with three failed death saves.
    pub fn is_dead(&self) -> bool {
        match self.sheet.kind {
            Kind::Character(_) => self.death.dead,
            Kind::Monster(_) => self.hp <= 0,
        }
    }

    /// Downed (0 HP) but not dead: unconscious.
    pub fn is_downed(&self) -> bool {
        self.death.downed && !self.death.dead
    }

    /// Conscious and alive: can act and react.
    pub fn is_standing(&self) -> bool {
        !self.is_dead() && !self.death.downed
    }

    pub fn armor_class(&self) -> i32 {
        let base = match &self.sheet.kind {
            Kind::Character(_) => self
                .armor()
                .armor_class(self.modifier(Ability::Dex), self.sheet.shield.map_or(0, |s| s.ac_bonus)),
            Kind::Monster(m) => m.armor_class,
        };
        base + self.conditions.ac_bonus + crate::statuses::armor_class_modifier(&self.statuses)
    }

    /// Carried weight: weapons, armor, shield and pack.
    pub fn carried_lb(&self) -> i32 {
        self.weapon().weight_lb
            + self.off_hand().map_or(0, |w| w.weight_lb)
            + self.armor().weight_lb
            + self.sheet.shield.map_or(0, |s| s.weight_lb)
            + self.pack_lb
    }

    pub fn encumbrance(&self) -> Encumbrance {
        if self.stat_block().is_some() {
            return Encumbrance::Unencumbered;
        }
        let strength = self.abilities.str;
        let carried = self.carried_lb();
        if carried > strength * 10 {
            Encumbrance::HeavilyEncumbered
        } else if carried > strength * 5 {
            Encumbrance::Encumbered
        } else {
            Encumbrance::Unencumbered
        }
    }

    /// Base speed: the race's (§3.1) or the monster's.
    pub fn base_speed(&self) -> i32 {
        match &self.sheet.kind {
            Kind::Character(c) => c.race.speed,
            // The band model has no air or water to tell them apart: it moves at its best of
            // walking and flying.
            Kind::Monster(m) => m.speed.max(m.speeds.fly),
        }
    }

    /// Speed after the modifiers of §3.2 (difficult terrain is applied to movement cost, not here).
    pub fn speed(&self) -> i32 {
        let c = &self.conditions;
        if c.restrained || c.grappled_by.is_some() || crate::conditions::holds_still(self) {
            return 0;
        }
        let mut speed = self.base_speed();
        let armor = self.armor();
        let exempt = self.has_trait(RaceTrait::ArmoredStride);
        if armor.heavy && self.abilities.str < armor.str_requirement && !exempt {
            speed -= 10;
        }
        speed -= match self.encumbrance() {
            Encumbrance::Unencumbered => 0,
            Encumbrance::Encumbered => 10,
            Encumbrance::HeavilyEncumbered => 20,
        };
        if c.hasted {
            speed += 30;
        }
        if c.entangled > 0 {
            speed /= 2;
        }
        speed.max(0)
    }

    pub fn proficient_in(&self, skill: Skill) -> bool {
        match &self.sheet.kind {
            Kind::Character(c) => {
                c.skills.contains(&skill) || (skill == Skill::Perception && c.race.has(RaceTrait::KeenSenses))
            }
            Kind::Monster(m) => {
                (skill == Skill::Perception && m.perception > 0)
                    || (skill == Skill::Stealth && m.stealth > 0)
                    || skill == Skill::Athletics
            }
        }
    }

    /// Skill check bonus.
    pub fn skill_bonus(&self, skill: Skill) -> i32 {
        if let Some(m) = self.stat_block() {
            match skill {
                Skill::Perception if m.perception > 0 => return m.perception,
                Skill::Stealth if m.stealth > 0 => return m.stealth,
                _ => {}
            }
        }
        self.modifier(skill.ability())
            + if self.proficient_in(skill) {
                self.proficiency()
            } else {
                0
            }
    }

    /// Passive Perception: 10 + Perception bonus.
    pub fn passive_perception(&self) -> i32 {
        10 + self.skill_bonus(Skill::Perception)
    }

    /// Saving throw bonus.
    pub fn save_bonus(&self, ability: Ability) -> i32 {
        if let Some(bonus) = self.stat_block().and_then(|m| m.save(ability)) {
            return bonus;
        }
        let proficient = self.character_def().is_some_and(|c| c.saving_throws.contains(&ability));
        self.modifier(ability) + if proficient { self.proficiency() } else { 0 }
    }

    /// Its resistances, immunities, vulnerabilities and condition immunities (a stat block's;
    /// none for a character).
    pub fn defences(&self) -> Defences {
        self.stat_block().map_or_else(Defences::default, |m| m.defences)
    }

    /// Whether it flies (a flying speed): difficult terrain on the ground costs it nothing extra.
    pub fn flies(&self) -> bool {
        self.stat_block().is_some_and(|m| m.speeds.fly > 0)
    }

    /// The spellcasting ability modifier (0 for non-casters).
    pub fn casting_modifier(&self) -> i32 {
        match &self.sheet.kind {
            Kind::Character(c) => c.casting_ability.map_or(0, |a| self.modifier(a)),
            Kind::Monster(m) => m.casting_mod,
        }
    }

    /// Spell save DC: 8 + proficiency + casting modifier.
    pub fn spell_save_dc(&self) -> i32 {
        8 + self.proficiency() + self.casting_modifier()
    }

    /// The spells it can cast, in its list's order.
    pub fn known_spells(&self) -> &[SpellDef] {
        self.sheet.spells()
    }

    /// The definition of a spell it knows.
    pub fn known_spell(&self, spell: Spell) -> Option<&SpellDef> {
        self.sheet.known_spell(spell)
    }

    /// The definition of a spell it can cast: known, or on a scroll it carries.
    pub fn spell(&self, spell: Spell) -> Option<&SpellDef> {
        self.known_spell(spell).or_else(|| {
            self.sheet.items.iter().find_map(|i| match &i.effect {
                ItemEffectDef::Scroll(s) if spell.names(&s.name) => Some(&**s),
                _ => None,
            })
        })
    }

    pub fn knows(&self, spell: Spell) -> bool {
        self.known_spell(spell).is_some()
    }

    /// The definition of a consumable it carries.
    pub fn item_def(&self, item: Item) -> Option<&ItemDef> {
        self.sheet.item(item).map(|d| &**d)
    }

    /// The index of `spell` among its innate spells and how often a fight it casts it (0: at
    /// will), if it casts it innately.
    pub fn innate(&self, spell: &SpellDef) -> Option<(usize, u8)> {
        self.stat_block()?
            .innate_spells
            .iter()
            .enumerate()
            .find(|(_, innate)| *innate.spell == *spell.name)
            .map(|(i, innate)| (i, innate.per_day))
    }

    /// Whether it can cast `spell` now: a cantrip, an innate spell with a cast left, or a spell
    /// with a slot of its level (or higher) left.
    pub fn can_cast(&self, spell: &SpellDef) -> bool {
        match self.innate(spell) {
            Some((i, per_day)) => per_day == 0 || self.pools.innate_spent.get(i).is_some_and(|&n| n < per_day),
            None => spell.level == 0 || self.lowest_slot(spell.level).is_some(),
        }
    }

    /// The lowest slot level (1–9) at or above `min_level` with a slot left.
    pub fn lowest_slot(&self, min_level: u32) -> Option<u32> {
        (min_level.max(1)..=9).find(|&l| self.pools.spell_slots[l as usize - 1] > 0)
    }

    /// Attacks per Attack action (§6; a monster's Multiattack).
    pub fn attacks_per_action(&self) -> u32 {
        match &self.sheet.kind {
            Kind::Character(c) => u32::from(c.at_level.attacks.max(1)),
            Kind::Monster(m) => m.multiattack,
        }
    }

    /// Whether it can attack in melee at all (to make opportunity attacks).
    pub fn has_melee_attack(&self) -> bool {
        self.sheet.has_melee_attack()
    }

    /// Its best ranged attack, if any.
    pub fn has_ranged_attack(&self) -> bool {
        match &self.sheet.kind {
            Kind::Character(_) => self.weapon().ranged,
            Kind::Monster(m) => m.attacks.iter().any(|a| a.ranged),
        }
    }

    pub fn behaviour(&self) -> Option<Behaviour> {
        match self.controller {
            Controller::Ai(b) => Some(b),
            Controller::Player(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hero(race: Race, class: Class) -> Combatant {
        Combatant::character("Hero", race, class, 1, Controller::Player("p".into()))
    }

    #[test]
    fn heavy_armor_without_the_strength_requirement_costs_ten_feet() {
        let mut mage = hero(Race::HUMAN, Class::MAGE);
        mage.set_armor(Armor::PLATE);
        mage.abilities.str = 14;
        mage.pack_lb = 0;
        mage.set_weapon(Weapon::DAGGER);
        assert_eq!(mage.encumbrance(), Encumbrance::Unencumbered);
        assert_eq!(mage.speed(), 20);
    }

    #[test]
    fn dwarves_are_not_slowed_by_heavy_armor() {
        let mut dwarf = hero(Race::DWARF, Class::MAGE);
        dwarf.set_armor(Armor::PLATE);
        dwarf.abilities.str = 14;
        dwarf.set_weapon(Weapon::DAGGER);
        dwarf.pack_lb = 0;
        assert_eq!(dwarf.speed(), 25);
    }

    #[test]
    fn encumbered_costs_ten_feet_and_heavily_encumbered_twenty() {
        let mut rogue = hero(Race::HUMAN, Class::ROGUE);
        let strength = rogue.abilities.str;
        rogue.pack_lb = strength * 5 + 1 - (rogue.carried_lb() - rogue.pack_lb);
        assert_eq!(rogue.encumbrance(), Encumbrance::Encumbered);
        assert_eq!(rogue.speed(), 20);
        rogue.pack_lb += strength * 5;
        assert_eq!(rogue.encumbrance(), Encumbrance::HeavilyEncumbered);
        assert_eq!(rogue.speed(), 10);
    }

    #[test]
    fn haste_adds_thirty_feet_and_restrained_is_zero() {
        let mut elf = hero(Race::ELF, Class::ROGUE);
        elf.conditions.hasted = true;
        assert_eq!(elf.speed(), 65);
        elf.conditions.restrained = true;
        assert_eq!(elf.speed(), 0);
    }

    #[test]
    fn web_or_entangled_halves_speed() {
        let mut human = hero(Race::HUMAN, Class::ROGUE);
        human.conditions.entangled = 1;
        assert_eq!(human.speed(), 15);
    }

    #[test]
    fn fighter_kit_gives_chain_mail_and_shield_armor_class() {
        let f = hero(Race::HUMAN, Class::FIGHTER);
        assert_eq!(f.armor_class(), 18);
    }
}
