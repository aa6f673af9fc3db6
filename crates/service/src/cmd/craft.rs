//! Crafting at Thom Krooke's workbench: `/craft list` and `/craft make recipe`. A
//! recipe (content data, `recipes.toml`) turns materials brought home from expeditions (each
//! zone's material, monsters' trophies) and coins into goods. One version-guarded write takes
//! the materials and coins and adds the goods; anything short refuses it with what is missing,
//! and nothing changes. Not in a fight, and not out on an expedition (the bench is at the inn).

use engine::content::data::{GoodKind, RecipeDef};

use crate::entity::character;
use crate::goods::{self, the_world};
use crate::repo::characters;
use crate::{Service, ServiceError};

/// A recipe as the player sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipe {
    pub name: String,
    pub makes: String,
    pub kind: GoodKind,
    pub count: u32,
    pub coins: u32,
    /// Each material: name, needed, held.
    pub materials: Vec<(String, u32, u32)>,
    /// Everything needed is at hand.
    pub can_make: bool,
}

/// `/craft list`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipes {
    pub name: String,
    pub coins: i64,
    pub recipes: Vec<Recipe>,
}

/// What `/craft make` made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crafted {
    pub name: String,
    pub recipe: Recipe,
    pub coins_left: i64,
}

fn view(def: &RecipeDef, row: &character::Model) -> Result<Recipe, ServiceError> {
    let mut materials = Vec::new();
    for (m, n) in &def.materials {
        let held = goods::held_material(row, m)?.map_or(0, |(_, h)| h);
        materials.push((m.to_string(), *n, held));
    }
    let can_make = row.coins >= i64::from(def.coins) && materials.iter().all(|(_, n, h)| h >= n);
    Ok(Recipe {
        name: def.name.to_string(),
        makes: def.makes.to_string(),
        kind: def.kind,
        count: def.count,
        coins: def.coins,
        materials,
        can_make,
    })
}

/// What is missing for a recipe, as a sentence part: "2 Shadow moss (you have 1), 10 coins (you have 4)".
fn missing(recipe: &Recipe, coins: i64) -> String {
    let mut short: Vec<String> = recipe
        .materials
        .iter()
        .filter(|(_, n, h)| h < n)
        .map(|(m, n, h)| format!("{n} {m} (you have {h})"))
        .collect();
    if coins < i64::from(recipe.coins) {
        short.push(format!("{} coins (you have {coins})", recipe.coins));
    }
    short.join(", ")
}

impl Service {
    /// `/craft list`: every recipe, with what the character holds of each material.
    pub async fn craft_list(&self, campaign_id: i64, player_id: &str) -> Result<Recipes, ServiceError> {
        let world = the_world()?;
        let row = Self::character_of(self.db().conn(), campaign_id, player_id).await?;
        let recipes = world.recipes.iter().map(|r| view(r, &row)).collect::<Result<_, _>>()?;
        Ok(Recipes {
            name: row.name,
            coins: row.coins,
            recipes,
        })
    }

    /// `/craft make recipe`.
    pub async fn craft(&self, campaign_id: i64, player_id: &str, recipe: &str) -> Result<Crafted, ServiceError> {
        let world = the_world()?;
        let def = world.recipe(recipe).ok_or_else(|| ServiceError::Unknown {
            kind: "recipe",
            given: recipe.trim().to_owned(),
            valid: crate::convert::choices(world.recipes.iter().map(|r| &*r.name)),
        })?;
        let conn = self.db().conn();
        let row = Self::character_of(conn, campaign_id, player_id).await?;
        Self::at_the_inn(conn, &row).await?;
        let mut made = None;
        let row = characters::modify(self.db(), row, |row| {
            let recipe = view(def, row)?;
            if !recipe.can_make {
                return Err(ServiceError::InvalidInput(format!(
                    "{} needs {} — nothing was used.",
                    recipe.name,
                    missing(&recipe, row.coins)
                )));
            }
            for (m, n, _) in &recipe.materials {
                goods::take_material(row, m, *n)?;
            }
            row.coins -= i64::from(recipe.coins);
            goods::add(
                row,
                engine::content::data::builtin(),
                recipe.kind,
                &recipe.makes,
                recipe.count,
            )?;
            made = Some(recipe);
            Ok(())
        })
        .await?;
        let recipe = made.ok_or(ServiceError::Contended)?;
        Ok(Crafted {
            name: row.name,
            recipe,
            coins_left: row.coins,
        })
    }
}
