//! The battlefield picture, read back: the renderer returns the layout it drew, so each test
//! checks which combatant is drawn in which melee group and lane against the engine's bands, and
//! the pixels where the layout puts the actor's frame, the HP bars and the model's view — for
//! 1, 2, 6 and 40 combatants under every ruleset.

use std::collections::BTreeSet;

use engine::content::{Class, Monster, Race};
use engine::{Actor, Band, Combat, Combatant, CombatantId, Command, Controller, Dice, Ruleset, Terrain, apply};
use render::map::{self, Lane, Layout, colors};

/// `n` combatants: a quarter (rounded up) players, the rest goblins, begun under `ruleset`;
/// then melee set by hand — each player with its share of goblins but the second player, who
/// stands apart, one goblin far — and HP spread over every health colour.
fn fight(n: usize, ruleset: Ruleset) -> Combat {
    let players = n.div_ceil(4);
    let mut all: Vec<Combatant> = (0..players)
        .map(|i| {
            Combatant::character(
                &format!("Hero {i}"),
                Race::HUMAN,
                Class::FIGHTER,
                5,
                Controller::Player(format!("p{i}")),
            )
        })
        .collect();
    all.extend((0..n - players).map(|i| Combatant::monster(&format!("Goblin {i}"), Monster::GOBLIN)));
    let mut c = Combat::new(all, Terrain::default()).with_ruleset(ruleset);
    let now = chrono::DateTime::from_timestamp(0, 0).unwrap();
    if n > players {
        apply(&mut c, Actor::Director, Command::Begin, &mut Dice::seeded(3), now).unwrap();
    }
    let goblins: Vec<CombatantId> = (players..n).map(|i| CombatantId(i as u32)).collect();
    for e in &mut c.bands {
        e.band = Band::Near;
    }
    for (k, &g) in goblins.iter().enumerate() {
        let p = CombatantId((k % players) as u32);
        if players == 1 || p != CombatantId(1) {
            c.set_band(p, g, Band::Melee);
        }
    }
    if let Some(&last) = goblins.last()
        && goblins.len() > 1
    {
        for p in 0..players {
            c.set_band(CombatantId(p as u32), last, Band::Far);
        }
    }
    for (i, x) in c.combatants.iter_mut().enumerate() {
        x.max_hp = 40;
        x.hp = [40, 24, 14, 6][i % 4];
    }
    c
}

/// The melee groups the engine's bands make among the living, each a set.
fn components(c: &Combat) -> BTreeSet<BTreeSet<CombatantId>> {
    let living: Vec<CombatantId> = c.combatants.iter().filter(|x| !x.is_dead()).map(|x| x.id).collect();
    let mut seen = BTreeSet::new();
    let mut out = BTreeSet::new();
    for &start in &living {
        if seen.contains(&start) {
            continue;
        }
        let mut group = BTreeSet::from([start]);
        let mut todo = vec![start];
        while let Some(a) = todo.pop() {
            for &b in &living {
                if c.get(a).side != c.get(b).side && c.band(a, b) == Band::Melee && group.insert(b) {
                    todo.push(b);
                }
            }
        }
        seen.extend(group.iter().copied());
        out.insert(group);
    }
    out
}

fn decode(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    (info.width, info.height, buf)
}

fn pixel(img: &(u32, u32, Vec<u8>), x: i32, y: i32) -> [u8; 3] {
    let i = ((y as u32 * img.0 + x as u32) * 3) as usize;
    [img.2[i], img.2[i + 1], img.2[i + 2]]
}

fn rgb(c: plotters::style::RGBColor) -> [u8; 3] {
    [c.0, c.1, c.2]
}

/// The colour a bar of `hp` out of `max` must have: over half green, over a quarter amber,
/// else red; grey at 0.
fn expected_health(hp: i32, max: i32) -> plotters::style::RGBColor {
    match (hp, max) {
        (h, _) if h <= 0 => colors::DOWN,
        (h, m) if 2 * h > m => colors::HEALTHY,
        (h, m) if 4 * h > m => colors::HURT,
        _ => colors::BLOODIED,
    }
}

fn check(c: &Combat) -> Layout {
    let (png_bytes, layout) = map::picture(c);
    let label = format!("{} combatants, {}", c.combatants.len(), c.ruleset.name());
    assert!(png_bytes.len() <= 200 * 1024, "{label}: {} bytes", png_bytes.len());
    let img = decode(&png_bytes);
    assert_eq!((img.0, img.1), (layout.width, layout.height), "{label}");
    assert!(
        layout.corner.ends_with(&format!("{} rules", c.ruleset.name())),
        "{label}: {}",
        layout.corner
    );

    // Every living combatant is drawn once; the dead are named as fallen.
    let drawn: Vec<CombatantId> = layout.cards.iter().map(|k| k.id).collect();
    let living: Vec<CombatantId> = c.combatants.iter().filter(|x| !x.is_dead()).map(|x| x.id).collect();
    assert_eq!(
        drawn.iter().copied().collect::<BTreeSet<_>>(),
        living.iter().copied().collect(),
        "{label}"
    );
    assert_eq!(drawn.len(), living.len(), "{label}: someone drawn twice");
    let dead: Vec<CombatantId> = c.combatants.iter().filter(|x| x.is_dead()).map(|x| x.id).collect();
    assert_eq!(layout.fallen, dead, "{label}");

    // The groups are the engine's melee groups, each card in its group's frame.
    let groups: BTreeSet<BTreeSet<CombatantId>> = layout
        .groups
        .iter()
        .map(|g| g.members.iter().copied().collect())
        .collect();
    assert_eq!(groups, components(c), "{label}");
    for card in &layout.cards {
        let g = &layout.groups[card.group];
        assert!(g.members.contains(&card.id), "{label}");
        assert!(
            card.rect.x0 > g.frame.x0
                && card.rect.x1 < g.frame.x1
                && card.rect.y0 > g.frame.y0
                && card.rect.y1 < g.frame.y1,
            "{label}: a card outside its group"
        );
    }

    // Each group stands in the lane of its nearest opponent of the actor.
    let actor = layout.actor.expect("someone's view");
    for g in &layout.groups {
        let nearest = g
            .members
            .iter()
            .filter(|&&m| c.get(m).side != c.get(actor).side)
            .map(|&m| c.band(actor, m))
            .min();
        let lane = match nearest {
            _ if g.members.contains(&actor) => Lane::Here,
            None | Some(Band::Melee) => Lane::Here,
            Some(Band::Near) => Lane::Near,
            Some(Band::Far) => Lane::Far,
        };
        assert_eq!(g.lane, lane, "{label}: {:?}", g.members);
    }

    // The actor is framed in gold, no one else is; each bar's colour is its health.
    for card in &layout.cards {
        let corner = pixel(&img, card.rect.x0 + 1, card.rect.y0 + 1);
        if card.id == actor {
            assert_eq!(corner, rgb(colors::ACTOR), "{label}: the actor's frame");
        } else {
            assert_ne!(corner, rgb(colors::ACTOR), "{label}: {:?} framed", card.id);
        }
        let x = c.get(card.id);
        let want = expected_health(x.hp, x.max_hp);
        assert_eq!(card.health, want, "{label}");
        let middle = i32::midpoint(card.bar.y0, card.bar.y1);
        assert_eq!(
            pixel(&img, card.bar.x0 + 1, middle),
            rgb(want),
            "{label}: {}'s bar",
            x.name
        );
    }

    // The model's view: each entry once, in the model's order, the actor's chip framed.
    if c.started && c.outcome.is_none() {
        let chips: Vec<CombatantId> = layout.order.iter().map(|k| k.id).collect();
        match c.ruleset {
            Ruleset::Ctb => assert_eq!(
                chips.iter().copied().collect::<BTreeSet<_>>(),
                living.iter().copied().collect()
            ),
            _ => assert_eq!(chips, c.order, "{label}"),
        }
        for chip in &layout.order {
            let corner = pixel(&img, chip.rect.x0, chip.rect.y0);
            assert_eq!(
                corner == rgb(colors::ACTOR),
                Some(chip.id) == c.current(),
                "{label}: {}",
                chip.label
            );
        }
    }
    layout
}

#[test]
fn the_picture_draws_every_group_lane_actor_and_bar_as_the_engine_has_them() {
    for ruleset in Ruleset::ALL {
        for n in [1, 2, 6, 40] {
            let c = fight(n, ruleset);
            let layout = check(&c);
            let label = format!("{n} combatants, {}", ruleset.name());
            // Hero 0 with its goblins; Hero 1 apart, its share of goblins each alone; one goblin far.
            let groups = match n {
                1 | 2 => 1,
                6 => 4,
                _ => 9 + 1 + 3 + 1,
            };
            assert_eq!(layout.groups.len(), groups, "{label}");
        }
    }
}

#[test]
fn the_model_view_names_each_models_own_figures() {
    let labels = |r: Ruleset| {
        let c = fight(6, r);
        let l = map::layout(&c);
        (
            l.order_title.clone(),
            l.order.iter().map(|k| k.label.clone()).collect::<Vec<_>>(),
            c,
        )
    };
    let (title, chips, c) = labels(Ruleset::Gogobee);
    assert_eq!(title, "Initiative");
    let first = c.get(c.order[0]);
    assert_eq!(chips[0], format!("{:>2} {}", first.initiative, first.name));
    let (title, chips, _) = labels(Ruleset::Tdgs);
    assert_eq!(title, "Order by REF → LUK · Interrupts left");
    assert!(chips.iter().all(|k| k.contains(" R") && k.contains(" I")), "{chips:?}");
    let (title, chips, _) = labels(Ruleset::Ctb);
    assert_eq!(title, "Charge race (to 100)");
    assert_eq!(chips.len(), 6);
    let (title, chips, _) = labels(Ruleset::Ticks);
    assert!(title.starts_with("Timeline · tick "), "{title}");
    assert!(
        chips.iter().any(|k| k.ends_with(" choosing")) || chips.iter().any(|k| k.ends_with(" prep")),
        "{chips:?}"
    );
}

#[test]
fn conditions_are_marked_and_explained_and_the_downed_drawn_grey() {
    let mut c = fight(6, Ruleset::Gogobee);
    let hero = CombatantId(0);
    c.get_mut(hero).conditions.prone = true;
    c.get_mut(hero).conditions.concentration = Some("Bless".into());
    let other = CombatantId(1);
    c.get_mut(other).hp = 0;
    c.get_mut(other).death.downed = true;
    // A goblin in melee with the hero must choose whether to strike as it leaves.
    let goblin = CombatantId(2);
    c.window = Some(engine::ReactionWindow::new(
        goblin,
        engine::ReactionTrigger::LeavesMelee { mover: hero },
        vec![engine::ReactionKind::OpportunityAttack],
    ));
    let layout = check(&c);
    assert_eq!(layout.card(goblin).unwrap().markers[0], "?");
    assert!(
        layout.legend.contains(&("?".to_owned(), "reacting".to_owned())),
        "{:?}",
        layout.legend
    );
    assert_eq!(layout.card(hero).unwrap().markers, ["Pr", "Co"]);
    assert_eq!(layout.card(other).unwrap().markers, ["KO"]);
    assert_eq!(layout.card(other).unwrap().health, colors::DOWN);
    assert!(
        layout.legend.contains(&("Co".to_owned(), "concentrating".to_owned())),
        "{:?}",
        layout.legend
    );
    assert!(
        layout.legend.contains(&("Pr".to_owned(), "prone".to_owned())),
        "{:?}",
        layout.legend
    );
}

#[test]
fn forty_combatants_in_groups_of_four_with_conditions_stay_under_200_kb() {
    let mut c = fight(40, Ruleset::Gogobee);
    for e in &mut c.bands {
        e.band = Band::Near;
    }
    for g in 10..40u32 {
        c.set_band(CombatantId(g % 10), CombatantId(g), Band::Melee);
    }
    for x in &mut c.combatants {
        x.conditions.prone = true;
        x.conditions.concentration = Some("Bless".into());
        x.conditions.hidden = Some(15);
    }
    let layout = check(&c);
    assert!(layout.compact);
    assert_eq!(layout.groups.len(), 10);
    assert!(layout.height < 1700, "{} px tall", layout.height);
}

/// Where the golden pictures are kept.
fn golden_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The share of pixels of `a` and `b` (same size) that differ by more than `by` in a channel.
fn differing(a: &[u8], b: &[u8], by: u8) -> f64 {
    let off = a
        .chunks(3)
        .zip(b.chunks(3))
        .filter(|(x, y)| x.iter().zip(y.iter()).any(|(p, q)| p.abs_diff(*q) > by))
        .count();
    off as f64 / (a.len() / 3).max(1) as f64
}

/// Golden pictures, one per ruleset at 2 and 6 combatants: a picture drawn today matches the
/// kept one to within anti-aliasing — at most 0.1 % of its pixels (≈ 250, a third of one HP bar) off by more than 32 in a
/// channel, at the same size. A picture that changes on purpose is kept again with
/// `GOGOBEE_BLESS_GOLDEN=1 cargo test -p render --test map golden` (look at it first).
#[test]
fn the_pictures_match_the_golden_ones_within_anti_aliasing() {
    let bless = std::env::var_os("GOGOBEE_BLESS_GOLDEN").is_some();
    for ruleset in Ruleset::ALL {
        for n in [2, 6] {
            let (png, _) = map::picture(&fight(n, ruleset));
            let path = golden_dir().join(format!("{}-{n}.png", ruleset.name()));
            if bless {
                std::fs::create_dir_all(golden_dir()).expect("the golden folder");
                std::fs::write(&path, &png).expect("the golden picture is kept");
                continue;
            }
            let kept = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("{}: {e} (keep it with GOGOBEE_BLESS_GOLDEN=1)", path.display()));
            let ((w, h, now), (gw, gh, gold)) = (decode(&png), decode(&kept));
            assert_eq!((w, h), (gw, gh), "{}: the size", path.display());
            let off = differing(&now, &gold, 32);
            assert!(
                off <= 0.001,
                "{}: {:.2} % of the pixels differ",
                path.display(),
                off * 100.0
            );
        }
    }
}

/// The tolerance is not blind: a picture with one combatant's HP changed, or another ruleset's,
/// is told from the golden one.
#[test]
fn a_golden_comparison_tells_a_changed_picture() {
    let gold = decode(&map::picture(&fight(6, Ruleset::Gogobee)).0).2;
    let mut hurt = fight(6, Ruleset::Gogobee);
    hurt.combatants[0].hp = 1;
    let hurt = decode(&map::picture(&hurt).0).2;
    assert_eq!(hurt.len(), gold.len(), "the same size");
    assert!(differing(&hurt, &gold, 32) > 0.001, "a bar from green to red is seen");
    let other = decode(&map::picture(&fight(6, Ruleset::Ctb)).0);
    assert!(other.2.len() != gold.len() || differing(&other.2, &gold, 32) > 0.001);
}
