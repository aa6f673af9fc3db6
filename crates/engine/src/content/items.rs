//! Consumables are named by id ([`Item`]); what one does is its definition in the content
//! (`items.toml`, or a server's own file), copied onto the sheet of the combatant carrying it.
//! The constants name the built-in items the rules and tests refer to.

use super::id::id_type;

id_type! {
    /// An item's id: the normalised name of a consumable of the content (`potionofhealing`).
    Item
}

impl Item {
    pub const POTION_OF_HEALING: Item = Item::known("potionofhealing");
    pub const POTION_OF_GREATER_HEALING: Item = Item::known("potionofgreaterhealing");
    pub const POTION_OF_HASTE: Item = Item::known("potionofhaste");
    pub const SCROLL_OF_MAGIC_MISSILE: Item = Item::known("scrollofmagicmissile");
    pub const ANTITOXIN: Item = Item::known("antitoxin");
    pub const NET: Item = Item::known("net");

    /// What to call it without a sheet at hand: the built-in item's name, else its id.
    pub fn label(self) -> String {
        self.builtin()
            .map_or_else(|| self.as_str().to_owned(), |d| d.name.to_string())
    }

    /// Its definition in the built-in content, if it is a built-in item.
    pub fn builtin(self) -> Option<&'static std::sync::Arc<super::data::ItemDef>> {
        super::data::builtin().items.get(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::data::builtin;

    #[test]
    fn items_are_found_by_id_or_alias() {
        assert_eq!(
            builtin().items.get("potion").and_then(|d| Item::named(&d.name)),
            Some(Item::POTION_OF_HEALING)
        );
        assert_eq!(
            Item::POTION_OF_HASTE.builtin().map(|d| &*d.name),
            Some("Potion of Haste")
        );
        assert_eq!(Item::known("elixiroflife").builtin(), None);
    }
}
