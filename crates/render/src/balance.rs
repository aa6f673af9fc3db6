//! `/homebrew balance` and `gogobee sim duel`'s answer (docs/homebrew.md "Is it
//! fair?"): the tally of seeded duels as one sentence per figure, and the same figures as a PNG
//! chart — the outcome bar (party wins, foes win, halted) and how many rounds the duels lasted.
//! The text and the chart are drawn from one [`Figures`], so their numbers are the same.

use engine::balance::{Tally, Verdict};
use plotters::prelude::*;

use crate::font::{FAMILY, register};
use crate::messages::info;
use crate::payload::{Attachment, MessagePayload};

/// The chart's size in pixels.
pub const WIDTH: u32 = 800;
pub const HEIGHT: u32 = 440;
/// The outcome bar: its left and right ends and the row through its middle, in pixels.
pub const BAR_LEFT: u32 = 20;
pub const BAR_RIGHT: u32 = WIDTH - 20;
pub const BAR_MIDDLE: u32 = 80;
const BAR_TOP: u32 = 62;
const BAR_BOTTOM: u32 = 98;

/// The outcome bar's colours: a pixel of one of these on [`BAR_MIDDLE`] belongs to its share.
pub const WIN: RGBColor = RGBColor(46, 160, 67);
pub const LOSS: RGBColor = RGBColor(207, 34, 46);
pub const HALT: RGBColor = RGBColor(140, 149, 159);
const ROUNDS: RGBColor = RGBColor(9, 105, 218);
const INK: RGBColor = RGBColor(31, 35, 40);

/// What the answer shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    /// Who fights whom: "Bog Troll ×2 vs fighter:3, cleric:3".
    pub matchup: String,
    /// The ruleset's name.
    pub ruleset: String,
    pub tally: Tally,
}

impl Figures {
    /// A share as the text and the chart print it: "62.4%".
    pub fn percent(share: f64) -> String {
        format!("{:.1}%", 100.0 * share)
    }

    fn party(&self) -> String {
        let t = &self.tally;
        let members = if t.party_size == 1 {
            "one character".to_owned()
        } else {
            format!("{} characters", t.party_size)
        };
        format!("a level-{} party of {members}", t.party_level)
    }

    /// The figures, one a line, as the reply's text.
    pub fn lines(&self) -> Vec<String> {
        let t = &self.tally;
        let verdict = t.verdict();
        vec![
            format!("{} seeded duels under the {} rules.", t.duels, self.ruleset),
            format!(
                "Party wins {} · foes win {} · halted at the round limit {}.",
                Self::percent(t.win_rate()),
                Self::percent(t.loss_rate()),
                Self::percent(t.halt_rate())
            ),
            format!(
                "{:.1} rounds a duel on average; the party loses {} of its hit points and {:.2} members dead a duel.",
                t.mean_rounds(),
                Self::percent(t.mean_hp_lost()),
                t.mean_deaths()
            ),
            format!(
                "Verdict for {}: **{}** — {}.",
                self.party(),
                verdict.name(),
                verdict.meaning()
            ),
        ]
    }

    /// The bands, for the reply's footer.
    pub fn bands() -> String {
        let bands: Vec<String> = Verdict::ALL
            .iter()
            .map(|v| match v {
                Verdict::Easy => "easy: wins ≥ 98% and loses < 30% HP".to_owned(),
                Verdict::Medium => "medium: wins ≥ 90% and loses < 60% HP".to_owned(),
                Verdict::Hard => "hard: wins ≥ 50%".to_owned(),
                Verdict::Deadly => "deadly: wins < 50%".to_owned(),
                Verdict::Stalemate => "stalemate: ≥ 50% halted".to_owned(),
            })
            .collect();
        bands.join(" · ")
    }
}

/// The reply: the figures as text, the chart attached as `balance.png`.
pub fn message(figures: &Figures) -> MessagePayload {
    let mut message = info(
        &format!("Balance: {}", figures.matchup),
        &format!("{}\n-# {}", figures.lines().join("\n"), Figures::bands()),
    );
    message.attachments = vec![Attachment::bytes(
        0,
        "balance.png",
        "Win rate and rounds of the duels",
        chart(figures),
    )];
    message
}

/// The chart as a PNG.
pub fn chart(figures: &Figures) -> Vec<u8> {
    register();
    let mut rgb = vec![255u8; (WIDTH * HEIGHT * 3) as usize];
    draw(figures, &mut rgb).expect("drawing into a buffer of the right size does not fail");
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, WIDTH, HEIGHT);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("writing to a Vec does not fail");
    writer.write_image_data(&rgb).expect("the buffer is WIDTH × HEIGHT RGB");
    writer.finish().expect("writing to a Vec does not fail");
    png
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn draw(figures: &Figures, rgb: &mut [u8]) -> DrawResult {
    let t = &figures.tally;
    let root = BitMapBackend::with_buffer(rgb, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let title = format!("{} — {} duels, {} rules", figures.matchup, t.duels, figures.ruleset);
    root.draw(&Text::new(
        title,
        (BAR_LEFT as i32, 14),
        (FAMILY, 18).into_font().color(&INK),
    ))?;
    root.draw(&Text::new(
        format!("outcome — verdict: {} for {}", t.verdict().name(), figures.party()),
        (BAR_LEFT as i32, 40),
        (FAMILY, 14).into_font().color(&INK),
    ))?;

    // The outcome bar: each share a segment in proportion, left to right.
    let width = f64::from(BAR_RIGHT - BAR_LEFT);
    let mut x = f64::from(BAR_LEFT);
    for (share, color) in [(t.win_rate(), WIN), (t.loss_rate(), LOSS), (t.halt_rate(), HALT)] {
        let end = x + share * width;
        if end.round() > x.round() {
            root.draw(&Rectangle::new(
                [
                    (x.round() as i32, BAR_TOP as i32),
                    (end.round() as i32, BAR_BOTTOM as i32),
                ],
                color.filled(),
            ))?;
        }
        x = end;
    }
    let legend = format!(
        "party wins {}   foes win {}   halted {}",
        Figures::percent(t.win_rate()),
        Figures::percent(t.loss_rate()),
        Figures::percent(t.halt_rate())
    );
    root.draw(&Text::new(
        legend,
        (BAR_LEFT as i32, 106),
        (FAMILY, 14).into_font().color(&INK),
    ))?;

    // How long the duels lasted.
    let (_, lower) = root.split_vertically(135);
    let first = t.rounds.keys().next().copied().unwrap_or(0);
    let last = t.rounds.keys().next_back().copied().unwrap_or(0);
    let most = t.rounds.values().copied().max().unwrap_or(1);
    let mut chart = ChartBuilder::on(&lower)
        .margin(16)
        .caption(
            format!("rounds a duel lasted (mean {:.1})", t.mean_rounds()),
            (FAMILY, 14).into_font().color(&INK),
        )
        .x_label_area_size(28)
        .y_label_area_size(56)
        .build_cartesian_2d(
            f64::from(first) - 0.5..f64::from(last) + 0.5,
            0u32..most + most / 10 + 1,
        )?;
    let span = (last - first + 1) as usize;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(span.min(25))
        .x_label_formatter(&|x| {
            if (x - x.round()).abs() < 1e-6 {
                format!("{}", x.round() as i64)
            } else {
                String::new()
            }
        })
        .y_desc("duels")
        .x_desc("rounds")
        .label_style((FAMILY, 12).into_font().color(&INK))
        .axis_desc_style((FAMILY, 12).into_font().color(&INK))
        .draw()?;
    chart.draw_series(t.rounds.iter().map(|(&r, &n)| {
        let r = f64::from(r);
        Rectangle::new([(r - 0.4, 0), (r + 0.4, n)], ROUNDS.filled())
    }))?;
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn figures(party_wins: u32, foe_wins: u32, halted: u32) -> Figures {
        let duels = party_wins + foe_wins + halted;
        Figures {
            matchup: "Bog Troll ×1 vs fighter:3".into(),
            ruleset: "gogobee".into(),
            tally: Tally {
                duels,
                party_wins,
                foe_wins,
                halted,
                rounds: BTreeMap::from([(3, duels / 2), (4, duels - duels / 2)]),
                hp_lost: 10 * u64::from(duels),
                hp_full: 40,
                deaths: foe_wins,
                party_level: 3,
                party_size: 1,
            },
        }
    }

    /// The outcome bar's pixels of `color` on its middle row.
    fn bar_pixels(png_bytes: &[u8], color: RGBColor) -> u32 {
        let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (WIDTH, HEIGHT));
        let row = &buf[(BAR_MIDDLE * WIDTH * 3) as usize..((BAR_MIDDLE + 1) * WIDTH * 3) as usize];
        row.chunks(3).filter(|p| *p == [color.0, color.1, color.2]).count() as u32
    }

    #[test]
    fn the_charts_outcome_bar_is_split_as_the_text_says() {
        for (w, l, h) in [(624, 351, 25), (2000, 0, 0), (0, 1990, 10), (1, 1, 1)] {
            let f = figures(w, l, h);
            let png = chart(&f);
            let width = f64::from(BAR_RIGHT - BAR_LEFT);
            for (share, color) in [
                (f.tally.win_rate(), WIN),
                (f.tally.loss_rate(), LOSS),
                (f.tally.halt_rate(), HALT),
            ] {
                let pixels = f64::from(bar_pixels(&png, color));
                assert!(
                    (pixels - share * width).abs() <= 1.0,
                    "{w}/{l}/{h}: {pixels} px of {color:?} for {share}"
                );
            }
            // The text prints the same shares the bar draws.
            let text = f.lines().join("\n");
            assert!(
                text.contains(&format!("Party wins {}", Figures::percent(f.tally.win_rate()))),
                "{text}"
            );
        }
    }

    #[test]
    fn the_reply_names_the_verdict_and_attaches_the_chart() {
        let f = figures(624, 351, 25);
        let m = message(&f);
        let text = m.embeds[0].description.clone().unwrap();
        assert!(
            text.contains("Party wins 62.4% · foes win 35.1% · halted at the round limit 2.5%"),
            "{text}"
        );
        assert!(text.contains("3.5 rounds a duel on average"), "{text}");
        assert!(text.contains("loses 25.0% of its hit points"), "{text}");
        assert!(
            text.contains("Verdict for a level-3 party of one character: **hard**"),
            "{text}"
        );
        assert_eq!(m.attachments.len(), 1);
        assert_eq!(m.attachments[0].filename, "balance.png");
        assert!(m.attachments[0].content.starts_with(b"\x89PNG\r\n\x1a\n"));
    }
}
