//! The battlefield as a picture (a PNG attached to the status): three lanes seen from the acting
//! combatant — *here* (its own melee group, and allies standing apart), *near* and *far* — each
//! melee group drawn together in one frame, every combatant a card with its side's stripe, an
//! HP bar coloured by health and a marker per condition, the actor framed in gold; the round (or
//! tick) and the ruleset in the top corner; below, the timing model's own view (the initiative
//! order, the order by REF → LUK with Interrupts left, the charge race, the tick timeline with
//! each actor's phase), and who has fallen.
//!
//! [`layout`] decides where everything goes from the engine's state alone and [`draw`] paints
//! that layout, so a test reads back which combatant is in which group and lane and checks the
//! pixels where the layout says they are. The text says the same in words (`battlefield`).

use engine::combatant::Combatant;
use engine::movement::Band;
use engine::timing::{ctb, tdgs};
use engine::{Combat, CombatantId, Ruleset, Side};
use plotters::prelude::*;

use crate::payload::Attachment;

/// The picture's width in pixels (Discord shows it about 400 px wide on a phone: text is drawn
/// large enough to read at that scale).
pub const WIDTH: u32 = 600;
const MARGIN: i32 = 8;
const HEADER: i32 = 30;
const LANE_GAP: i32 = 6;
const LANE_TITLE: i32 = 20;
const CARD_H: i32 = 40;
/// A card's height in a fight of more than [`COMPACT_ABOVE`] combatants: name and bar only.
const COMPACT_CARD_H: i32 = 28;
const CARD_GAP: i32 = 4;
/// More combatants than this are drawn on compact cards (no HP figures, smaller names), so 40
/// stay within a phone screen's few heights and 200 KB.
pub const COMPACT_ABOVE: usize = 12;
const GROUP_PAD: i32 = 4;
const GROUP_GAP: i32 = 8;
const CHIP_W: i32 = 143;
const CHIP_H: i32 = 22;
const CHIPS_PER_ROW: i32 = 4;
/// The highlight's width around the actor's card and chip.
pub const HIGHLIGHT_WIDTH: i32 = 3;

/// Colours (opaque, on a dark ground: the picture reads the same in Discord's light and dark
/// themes).
pub mod colors {
    use plotters::style::RGBColor;
    pub const GROUND: RGBColor = RGBColor(30, 31, 34);
    pub const LANE: RGBColor = RGBColor(43, 45, 49);
    pub const GROUP: RGBColor = RGBColor(78, 80, 88);
    pub const CARD: RGBColor = RGBColor(56, 58, 64);
    pub const INK: RGBColor = RGBColor(235, 236, 238);
    pub const DIM: RGBColor = RGBColor(160, 164, 171);
    pub const PARTY: RGBColor = RGBColor(88, 101, 242);
    pub const ENEMIES: RGBColor = RGBColor(237, 66, 69);
    /// The actor's frame.
    pub const ACTOR: RGBColor = RGBColor(241, 196, 15);
    /// HP above half.
    pub const HEALTHY: RGBColor = RGBColor(59, 165, 93);
    /// HP above a quarter.
    pub const HURT: RGBColor = RGBColor(250, 166, 26);
    /// HP at a quarter or less.
    pub const BLOODIED: RGBColor = RGBColor(218, 55, 60);
    /// At 0 HP (downed).
    pub const DOWN: RGBColor = RGBColor(100, 100, 100);
    pub const BAR_EMPTY: RGBColor = RGBColor(24, 25, 28);
    pub const MARKER: RGBColor = RGBColor(196, 160, 255);
    pub const CHARGE: RGBColor = RGBColor(70, 120, 200);
}

/// A rectangle in pixels, corners included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

impl Rect {
    fn inset(self, by: i32) -> Rect {
        Rect {
            x0: self.x0 + by,
            y0: self.y0 + by,
            x1: self.x1 - by,
            y1: self.y1 - by,
        }
    }

    fn corners(self) -> [(i32, i32); 2] {
        [(self.x0, self.y0), (self.x1, self.y1)]
    }
}

/// Where a group stands, seen from the actor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lane {
    /// The actor's own melee group, and groups with none of its opponents (its allies apart).
    Here,
    /// The nearest of the actor's opponents in the group is Near.
    Near,
    /// Far.
    Far,
}

impl Lane {
    pub const ALL: [Lane; 3] = [Lane::Here, Lane::Near, Lane::Far];

    pub fn title(self) -> &'static str {
        match self {
            Lane::Here => "here",
            Lane::Near => "near · 30 ft",
            Lane::Far => "far · 60 ft",
        }
    }

    fn of(band: Band) -> Lane {
        match band {
            Band::Melee => Lane::Here,
            Band::Near => Lane::Near,
            Band::Far => Lane::Far,
        }
    }

    fn index(self) -> i32 {
        self as i32
    }
}

/// One melee group: combatants joined by melee bands (a lone combatant is a group of one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub lane: Lane,
    /// The actor's side first, then by id.
    pub members: Vec<CombatantId>,
    pub frame: Rect,
}

/// One combatant's card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    pub id: CombatantId,
    /// Index into [`Layout::groups`].
    pub group: usize,
    pub rect: Rect,
    /// The whole HP bar; its filled part starts at its left.
    pub bar: Rect,
    /// The bar's colour by health.
    pub health: RGBColor,
    /// One short mark per condition (`Pr` prone, `Co` concentrating, `!` a readied action, `?`
    /// a reaction to choose …), as the legend explains; at most [`MARKERS`].
    pub markers: Vec<String>,
}

/// One entry of the timing model's view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chip {
    pub id: CombatantId,
    pub rect: Rect,
    pub label: String,
    /// The share filled behind the label (the charge toward 100, a PER cycle's progress), ‰.
    pub fill: u32,
}

/// What the picture shows and where: the test's way of reading it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub width: u32,
    pub height: u32,
    /// Compact cards (a large fight).
    pub compact: bool,
    /// Whose view it is: the acting combatant (or, between turns, the first standing one).
    pub actor: Option<CombatantId>,
    pub corner: String,
    pub groups: Vec<Group>,
    pub cards: Vec<Card>,
    /// The model's view: its title and one chip per combatant in its order.
    pub order_title: String,
    pub order: Vec<Chip>,
    /// The dead, named at the bottom.
    pub fallen: Vec<CombatantId>,
    /// The markers drawn, with their meaning.
    pub legend: Vec<(String, String)>,
}

impl Layout {
    pub fn card(&self, id: CombatantId) -> Option<&Card> {
        self.cards.iter().find(|c| c.id == id)
    }
}

/// The bar's colour for `hp` of `max`.
pub fn health(hp: i32, max: i32) -> RGBColor {
    let max = max.max(1);
    if hp <= 0 {
        colors::DOWN
    } else if hp * 2 > max {
        colors::HEALTHY
    } else if hp * 4 > max {
        colors::HURT
    } else {
        colors::BLOODIED
    }
}

/// Most markers a card shows.
pub const MARKERS: usize = 3;

/// A condition word's marker: its first two letters (`concentrating on Bless` → `Co`); being
/// down is `KO`, a readied action `!`, a reaction to choose `?`.
fn marker(word: &str) -> String {
    match word {
        "down" => "KO".to_owned(),
        "readied" => "!".to_owned(),
        "reacting" => "?".to_owned(),
        _ => {
            let mut letters = word.chars().take(2);
            letters
                .next()
                .map(|c| c.to_ascii_uppercase())
                .into_iter()
                .chain(letters)
                .collect()
        }
    }
}

/// Whose view the picture takes: the acting combatant, else the first standing party member,
/// else the first living combatant.
fn viewer(combat: &Combat) -> Option<CombatantId> {
    combat
        .current()
        .filter(|&id| !combat.get(id).is_dead())
        .or_else(|| {
            combat
                .combatants
                .iter()
                .find(|c| c.side == Side::Party && c.is_standing())
                .map(|c| c.id)
        })
        .or_else(|| combat.combatants.iter().find(|c| !c.is_dead()).map(|c| c.id))
}

/// The melee groups among the living: combatants joined by the engine's melee bands
/// (`Combat::engaged_with`), each group in the order of its lowest id.
pub fn melee_groups(combat: &Combat) -> Vec<Vec<CombatantId>> {
    fn find(root: &mut [usize], mut i: usize) -> usize {
        while root[i] != i {
            root[i] = root[root[i]];
            i = root[i];
        }
        i
    }
    let mut root: Vec<usize> = (0..combat.combatants.len()).collect();
    for c in combat.combatants.iter().filter(|c| !c.is_dead()) {
        for other in combat.engaged_with(c.id) {
            let (a, b) = (find(&mut root, c.id.0 as usize), find(&mut root, other.0 as usize));
            if a != b {
                root[a.max(b)] = a.min(b);
            }
        }
    }
    let mut groups: Vec<(usize, Vec<CombatantId>)> = Vec::new();
    for c in combat.combatants.iter().filter(|c| !c.is_dead()) {
        let r = find(&mut root, c.id.0 as usize);
        match groups.iter_mut().find(|(g, _)| *g == r) {
            Some((_, members)) => members.push(c.id),
            None => groups.push((r, vec![c.id])),
        }
    }
    groups.into_iter().map(|(_, members)| members).collect()
}

/// The lane of `members` seen from `viewer`: the nearest band to one of its opponents there.
fn lane_of(combat: &Combat, viewer: Option<CombatantId>, members: &[CombatantId]) -> Lane {
    let Some(v) = viewer else {
        return Lane::Here;
    };
    if members.contains(&v) {
        return Lane::Here;
    }
    let side = combat.get(v).side;
    members
        .iter()
        .filter(|&&m| combat.get(m).side != side)
        .map(|&m| combat.band(v, m))
        .min()
        .map_or(Lane::Here, Lane::of)
}

fn lane_x(lane: Lane) -> (i32, i32) {
    let inner = WIDTH as i32 - 2 * MARGIN;
    let w = (inner - 2 * LANE_GAP) / 3;
    let x0 = MARGIN + lane.index() * (w + LANE_GAP);
    (x0, x0 + w - 1)
}

/// "Round 3 · gogobee", "Tick 42 · round 2 · ticks".
fn corner(combat: &Combat) -> String {
    let when = match combat.ruleset {
        Ruleset::Ticks | Ruleset::Ctb if combat.started => {
            format!("Tick {} · round {}", combat.model.tick, combat.round)
        }
        _ if combat.started => format!("Round {}", combat.round),
        _ => "Not begun".to_owned(),
    };
    format!("{when} · {} rules", combat.ruleset.name())
}

/// The timing model's view: its title and, in its order, each combatant's chip label and fill.
fn model_view(combat: &Combat) -> (String, Vec<(CombatantId, String, u32)>) {
    let short = |c: &Combatant| truncate_chars(&c.name, 11);
    match combat.ruleset {
        Ruleset::Gogobee => (
            "Initiative".to_owned(),
            combat
                .order
                .iter()
                .map(|&id| {
                    let c = combat.get(id);
                    (id, format!("{:>2} {}", c.initiative, short(c)), 0)
                })
                .collect(),
        ),
        Ruleset::Tdgs => (
            "Order by REF → LUK · Interrupts left".to_owned(),
            combat
                .order
                .iter()
                .map(|&id| {
                    let c = combat.get(id);
                    let left: u32 = tdgs::interrupts(c).iter().map(|i| i.left).sum();
                    (
                        id,
                        format!("{} R{} I{left}", truncate_chars(&c.name, 8), tdgs::reflex(c)),
                        0,
                    )
                })
                .collect(),
        ),
        Ruleset::Ctb => {
            let units = ctb::standings(combat);
            (
                "Charge race (to 100)".to_owned(),
                units
                    .iter()
                    .map(|c| {
                        let fill = (c.ctb().charge.clamp(0, ctb::THRESHOLD) * 1000 / ctb::THRESHOLD).unsigned_abs();
                        (c.id, format!("{} {}", truncate_chars(&c.name, 9), c.ctb().charge), fill)
                    })
                    .collect(),
            )
        }
        Ruleset::Ticks => (
            format!("Timeline · tick {}", combat.model.tick),
            combat
                .order
                .iter()
                .map(|&id| {
                    let c = combat.get(id);
                    let (phase, fill) = match &c.ticks().current {
                        _ if combat.model.timeline.awaiting == Some(id) => ("choosing", 0),
                        Some(cycle) => {
                            let total = (cycle.prep + cycle.exec + cycle.recover).max(1);
                            let phase = if cycle.entered.is_none() {
                                "start"
                            } else {
                                cycle.phase().name()
                            };
                            (phase, cycle.elapsed.min(total) * 1000 / total)
                        }
                        None => ("idle", 0),
                    };
                    (id, format!("{} {phase}", truncate_chars(&c.name, 8)), fill)
                })
                .collect(),
        ),
    }
}

fn truncate_chars(text: &str, max: usize) -> String {
    crate::payload::truncate(text, max)
}

/// Where everything goes: the groups in their lanes, the cards, the model's view and the fallen.
pub fn layout(combat: &Combat) -> Layout {
    let actor = viewer(combat);
    let actor_side = actor.map(|a| combat.get(a).side);
    let mut groups: Vec<Group> = melee_groups(combat)
        .into_iter()
        .map(|mut members| {
            members.sort_by_key(|&m| (Some(combat.get(m).side) != actor_side, m));
            Group {
                lane: lane_of(combat, actor, &members),
                members,
                frame: Rect {
                    x0: 0,
                    y0: 0,
                    x1: 0,
                    y1: 0,
                },
            }
        })
        .collect();
    // The actor's group first in its lane; then in the order of their lowest id.
    groups.sort_by_key(|g| (g.lane, actor.is_none_or(|a| !g.members.contains(&a))));
    let compact = combat.combatants.len() > COMPACT_ABOVE;
    let card_h = if compact { COMPACT_CARD_H } else { CARD_H };
    let mut cards = Vec::new();
    let mut lane_bottom = [HEADER + LANE_TITLE; 3];
    let mut legend: Vec<(String, String)> = Vec::new();
    for (gi, g) in groups.iter_mut().enumerate() {
        let (x0, x1) = lane_x(g.lane);
        let top = lane_bottom[g.lane.index() as usize];
        let n = g.members.len() as i32;
        let height = 2 * GROUP_PAD + n * card_h + (n - 1) * CARD_GAP;
        g.frame = Rect {
            x0: x0 + 2,
            y0: top,
            x1: x1 - 2,
            y1: top + height - 1,
        };
        lane_bottom[g.lane.index() as usize] = top + height + GROUP_GAP;
        for (i, &id) in g.members.iter().enumerate() {
            let c = combat.get(id);
            let y0 = top + GROUP_PAD + i as i32 * (card_h + CARD_GAP);
            let rect = Rect {
                x0: g.frame.x0 + GROUP_PAD,
                y0,
                x1: g.frame.x1 - GROUP_PAD,
                y1: y0 + card_h - 1,
            };
            let mut words = if c.is_downed() {
                vec!["down".to_owned()]
            } else {
                crate::battlefield::conditions(c)
            };
            if combat.window.as_ref().is_some_and(|w| w.reactor == id) {
                words.insert(0, "reacting".to_owned());
            }
            if c.readied.as_ref().is_some_and(|r| !r.fired) {
                words.insert(0, "readied".to_owned());
            }
            let mut markers: Vec<String> = Vec::new();
            for word in &words {
                let m = marker(word);
                if markers.len() == MARKERS || markers.contains(&m) {
                    continue;
                }
                let meaning = word.split(' ').next().unwrap_or(word).to_owned();
                if !legend.iter().any(|(l, w)| *l == m && *w == meaning) {
                    legend.push((m.clone(), meaning));
                }
                markers.push(m);
            }
            cards.push(Card {
                id,
                group: gi,
                rect,
                bar: if compact {
                    Rect {
                        x0: rect.x0 + 10,
                        y0: rect.y0 + 20,
                        x1: rect.x0 + 10 + 99,
                        y1: rect.y0 + 23,
                    }
                } else {
                    Rect {
                        x0: rect.x0 + 10,
                        y0: rect.y0 + 26,
                        x1: rect.x0 + 10 + 79,
                        y1: rect.y0 + 33,
                    }
                },
                health: health(c.hp, c.max_hp),
                markers,
            });
        }
    }
    legend.sort();
    let deepest = lane_bottom.iter().copied().max().unwrap_or(HEADER + LANE_TITLE);
    let (order_title, entries) = if combat.started && combat.outcome.is_none() {
        model_view(combat)
    } else {
        (String::new(), Vec::new())
    };
    let order_top = deepest + 4 + LANE_TITLE;
    let order: Vec<Chip> = entries
        .into_iter()
        .enumerate()
        .map(|(i, (id, label, fill))| {
            let (row, col) = (i as i32 / CHIPS_PER_ROW, i as i32 % CHIPS_PER_ROW);
            let x0 = MARGIN + col * (CHIP_W + 4);
            let y0 = order_top + row * (CHIP_H + 4);
            Chip {
                id,
                rect: Rect {
                    x0,
                    y0,
                    x1: x0 + CHIP_W - 1,
                    y1: y0 + CHIP_H - 1,
                },
                label,
                fill,
            }
        })
        .collect();
    let mut bottom = order.last().map_or(deepest, |c| c.rect.y1 + 8);
    let fallen: Vec<CombatantId> = combat.combatants.iter().filter(|c| c.is_dead()).map(|c| c.id).collect();
    if !legend.is_empty() {
        bottom += 20;
    }
    if !fallen.is_empty() {
        bottom += 20;
    }
    Layout {
        width: WIDTH,
        height: (bottom + MARGIN).unsigned_abs(),
        compact,
        actor,
        corner: corner(combat),
        groups,
        cards,
        order_title,
        order,
        fallen,
        legend,
    }
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn text_style(size: u32, color: RGBColor) -> TextStyle<'static> {
    (crate::font::FAMILY, size).into_font().color(&color)
}

/// Paints `layout` of `combat` as RGB pixels, `width × height × 3`.
pub fn pixels(combat: &Combat, layout: &Layout) -> Vec<u8> {
    crate::font::register();
    let mut rgb = vec![0u8; (layout.width * layout.height * 3) as usize];
    paint(combat, layout, &mut rgb).expect("drawing into a buffer of the layout's size does not fail");
    rgb
}

fn paint(combat: &Combat, l: &Layout, rgb: &mut [u8]) -> DrawResult {
    let root = BitMapBackend::with_buffer(rgb, (l.width, l.height)).into_drawing_area();
    root.fill(&colors::GROUND)?;
    // The corner: round (or tick) and ruleset; the zone and its terrain on the right.
    root.draw(&Text::new(l.corner.clone(), (MARGIN, 7), text_style(16, colors::INK)))?;
    if let Some(zone) = combat.terrain.zone {
        let terrain = if combat.terrain.difficult { " · difficult" } else { "" };
        let text = truncate_chars(&format!("{}{terrain}", zone.label()), 30);
        let x = WIDTH as i32 - MARGIN - 8 * text.chars().count() as i32;
        root.draw(&Text::new(text, (x, 9), text_style(13, colors::DIM)))?;
    }
    let bottom = l
        .groups
        .iter()
        .map(|g| g.frame.y1)
        .max()
        .unwrap_or(HEADER + LANE_TITLE)
        .max(HEADER + LANE_TITLE + COMPACT_CARD_H);
    for lane in Lane::ALL {
        let (x0, x1) = lane_x(lane);
        root.draw(&rect(
            Rect {
                x0,
                y0: HEADER,
                x1,
                y1: bottom + 4,
            },
            colors::LANE,
        ))?;
        root.draw(&Text::new(
            lane.title(),
            (x0 + 6, HEADER + 3),
            text_style(13, colors::DIM),
        ))?;
    }
    for g in &l.groups {
        root.draw(&rect(g.frame, colors::GROUP))?;
        root.draw(&rect(g.frame.inset(1), colors::LANE))?;
    }
    for card in &l.cards {
        paint_card(&root, combat, l, card)?;
    }
    if let Some(first) = l.order.first() {
        root.draw(&Text::new(
            l.order_title.clone(),
            (MARGIN, first.rect.y0 - LANE_TITLE + 3),
            text_style(13, colors::DIM),
        ))?;
    }
    for chip in &l.order {
        paint_chip(&root, l, chip)?;
    }
    let mut y = l.order.last().map_or(bottom + 12, |c| c.rect.y1 + 8);
    if !l.legend.is_empty() {
        let words: Vec<String> = l.legend.iter().map(|(m, w)| format!("{m} {w}")).collect();
        root.draw(&Text::new(
            truncate_chars(&words.join(" · "), 80),
            (MARGIN, y),
            text_style(12, colors::DIM),
        ))?;
        y += 20;
    }
    if !l.fallen.is_empty() {
        let names: Vec<String> = l.fallen.iter().map(|&id| combat.get(id).name.clone()).collect();
        root.draw(&Text::new(
            truncate_chars(&format!("fallen: {}", names.join(", ")), 80),
            (MARGIN, y),
            text_style(12, colors::DIM),
        ))?;
    }
    root.present()?;
    Ok(())
}

type Area<'a> = DrawingArea<BitMapBackend<'a>, plotters::coord::Shift>;

fn rect(r: Rect, color: RGBColor) -> Rectangle<(i32, i32)> {
    Rectangle::new(r.corners(), color.filled())
}

/// One combatant's card: the actor's highlight, the side's stripe, the name, the HP bar and
/// the markers.
fn paint_card(root: &Area<'_>, combat: &Combat, l: &Layout, card: &Card) -> DrawResult {
    let c = combat.get(card.id);
    let body = if l.actor == Some(card.id) {
        root.draw(&rect(card.rect, colors::ACTOR))?;
        card.rect.inset(HIGHLIGHT_WIDTH)
    } else {
        card.rect
    };
    root.draw(&rect(body, colors::CARD))?;
    let stripe = if c.side == Side::Party {
        colors::PARTY
    } else {
        colors::ENEMIES
    };
    root.draw(&rect(
        Rect {
            x0: body.x0,
            y0: body.y0,
            x1: body.x0 + 4,
            y1: body.y1,
        },
        stripe,
    ))?;
    // Each marker takes about three characters of the name's room.
    let name_room = |full: usize| (full - 3 * card.markers.len()).max(5);
    let (name, at, size) = if l.compact {
        (truncate_chars(&c.name, name_room(13)), card.rect.y0 + 5, 13)
    } else {
        (truncate_chars(&c.name, name_room(17)), card.rect.y0 + 5, 15)
    };
    root.draw(&Text::new(name, (card.rect.x0 + 10, at), text_style(size, colors::INK)))?;
    root.draw(&rect(card.bar, colors::BAR_EMPTY))?;
    let width = card.bar.x1 - card.bar.x0 + 1;
    let filled = if c.hp <= 0 {
        width
    } else {
        (c.hp.min(c.max_hp) * width / c.max_hp.max(1)).max(1)
    };
    root.draw(&rect(
        Rect {
            x1: card.bar.x0 + filled - 1,
            ..card.bar
        },
        card.health,
    ))?;
    if !l.compact {
        root.draw(&Text::new(
            format!("{}/{}", c.hp, c.max_hp),
            (card.bar.x1 + 5, card.bar.y0 - 3),
            text_style(11, colors::DIM),
        ))?;
    }
    for (i, m) in card.markers.iter().enumerate() {
        let x0 = card.rect.x1 - 6 - (card.markers.len() - i) as i32 * 20;
        let y0 = card.rect.y0 + 6;
        root.draw(&rect(
            Rect {
                x0,
                y0,
                x1: x0 + 17,
                y1: y0 + 12,
            },
            colors::MARKER,
        ))?;
        root.draw(&Text::new(m.clone(), (x0 + 2, y0), text_style(11, colors::GROUND)))?;
    }
    Ok(())
}

/// One chip of the order strip, filled as far as its charge.
fn paint_chip(root: &Area<'_>, l: &Layout, chip: &Chip) -> DrawResult {
    let body = if l.actor == Some(chip.id) {
        root.draw(&rect(chip.rect, colors::ACTOR))?;
        chip.rect.inset(2)
    } else {
        chip.rect
    };
    root.draw(&rect(body, colors::CARD))?;
    if chip.fill > 0 {
        let w = (body.x1 - body.x0 + 1) * chip.fill.min(1000) as i32 / 1000;
        if w > 0 {
            root.draw(&rect(
                Rect {
                    x1: body.x0 + w - 1,
                    ..body
                },
                colors::CHARGE,
            ))?;
        }
    }
    root.draw(&Text::new(
        chip.label.clone(),
        (chip.rect.x0 + 5, chip.rect.y0 + 4),
        text_style(12, colors::INK),
    ))?;
    Ok(())
}

/// The picture as a PNG, with the layout it drew.
pub fn picture(combat: &Combat) -> (Vec<u8>, Layout) {
    let layout = layout(combat);
    let rgb = pixels(combat, &layout);
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, layout.width, layout.height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().expect("writing to a Vec does not fail");
    writer.write_image_data(&rgb).expect("the buffer is width × height RGB");
    writer.finish().expect("writing to a Vec does not fail");
    (png, layout)
}

/// The picture as the message's `id`-th file, `map.png`.
pub fn attachment(combat: &Combat, id: u64) -> Attachment {
    Attachment::bytes(id, FILENAME, "The battlefield: who stands where", picture(combat).0)
}

/// The picture's file name.
pub const FILENAME: &str = "map.png";

/// `/combat map`'s answer: the battlefield in words — the engagements, the terrain, and what
/// closing costs whoever acts — with the picture attached.
pub fn message(combat: &Combat) -> crate::payload::MessagePayload {
    let mut lines: Vec<String> = crate::battlefield::field(combat).map(|f| f.value).into_iter().collect();
    if let Some(id) = combat.current().filter(|_| combat.outcome.is_none()) {
        lines.push(format!("▶ {}", crate::text::bold_name(&combat.get(id).name)));
        lines.extend(crate::battlefield::from_actor(combat, id));
    }
    let mut message = crate::messages::info(&format!("The battlefield — {}", corner(combat)), &lines.join("\n"));
    message.attachments = vec![attachment(combat, 0)];
    message
}
