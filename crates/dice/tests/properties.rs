//! Properties over random dice and random text: the total is the kept dice plus the modifiers, keeps keep what they say, and nothing panics on any input.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn seeded(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    move |sides| rng.random_range(1..=sides)
}

proptest! {
    #[test]
    fn the_total_is_the_kept_dice_plus_the_modifier(
        count in 1u32..40, sides in 1u32..=10_000, keep in 1u32..40, modifier in -1000i64..1000, seed: u64,
    ) {
        let keep = keep.min(count);
        let text = format!("{count}d{sides}kh{keep} + {modifier}");
        let rolled = dice::roll(&text, &mut seeded(seed)).unwrap();
        prop_assert_eq!(rolled.kept_dice, keep);
        prop_assert_eq!(rolled.total, rolled.kept_dice_sum + modifier);
        prop_assert!(rolled.kept_dice_sum >= i64::from(keep) && rolled.kept_dice_sum <= i64::from(keep * sides));
        prop_assert_eq!(rolled.detail.matches("~~").count() as u32, 2 * (count - keep), "{}", rolled.detail);
    }

    #[test]
    fn kept_counts_are_as_asked_for_keep_and_drop(count in 1u32..30, n in 0u32..30, seed: u64, low: bool, drop: bool) {
        let n = n.min(count - 1);
        let (op, kept) = match (drop, low) {
            (false, false) => (format!("kh{}", n + 1), n + 1),
            (false, true) => (format!("kl{}", n + 1), n + 1),
            (true, false) => (format!("dh{n}"), count - n),
            (true, true) => (format!("dl{n}"), count - n),
        };
        let text = format!("{count}d20{op}");
        if n == 0 && drop {
            // dh0 / dl0 drop nothing.
            prop_assert_eq!(dice::roll(&text, &mut seeded(seed)).unwrap().kept_dice, count);
        } else {
            let rolled = dice::roll(&text, &mut seeded(seed)).unwrap();
            prop_assert_eq!(rolled.kept_dice, kept, "{}", text);
            prop_assert_eq!(rolled.total, rolled.kept_dice_sum);
        }
    }

    #[test]
    fn rerolls_and_explosions_never_exceed_the_budget(count in 1u32..200, sides in 1u32..12, face in 1u32..12, seed: u64, explode: bool) {
        let text = format!("{count}d{sides}{}{face}", if explode { "e" } else { "rr" });
        match dice::Expr::parse(&text) {
            Ok(expr) => {
                let mut asked = 0u32;
                let mut inner = seeded(seed);
                let result = expr.roll(&mut |s| { asked += 1; inner(s) });
                prop_assert!(asked <= dice::MAX_DICE);
                if let Ok(rolled) = result {
                    prop_assert_eq!(rolled.dice_rolled, asked);
                }
            }
            Err(err) => prop_assert!(sides == 1 && face == 1, "{}: {}", text, err),
        }
    }

    #[test]
    fn the_same_dice_give_the_same_roll(seed: u64, text in "[1-9]d(6|20|100)(kh1|kl1|rr1|ro1|e6|mi2|ma5)?( [+-] [0-9]{1,2})?") {
        let a = dice::roll(&text, &mut seeded(seed));
        let b = dice::roll(&text, &mut seeded(seed));
        prop_assert_eq!(a, b);
    }

    /// Fuzz-style: any text at all is rolled or refused with a message, never a panic, and a
    /// roll's display fits Discord.
    #[test]
    fn no_text_panics(text in "\\PC{0,220}", seed: u64) {
        check_any(&text, seed)?;
    }

    /// The same over text made of the grammar's own pieces, which reaches deeper than random characters.
    #[test]
    fn no_grammar_soup_panics(parts in proptest::collection::vec(
        prop_oneof![
            Just("d"), Just("d%"), Just("20"), Just("6"), Just("0"), Just("1000"), Just("10000"), Just("k"), Just("kh"), Just("kl"),
            Just("p"), Just("dh"), Just("dl"), Just("rr"), Just("ro"), Just("ra"), Just("e"), Just("!"), Just("mi"),
            Just("ma"), Just("<"), Just(">"), Just("h"), Just("l"), Just("+"), Just("-"), Just("*"), Just("/"),
            Just("//"), Just("%"), Just("=="), Just("!="), Just("("), Just(")"), Just(","), Just(" "), Just("[x]"),
            Just("adv"), Just("dis"), Just("1"), Just("3"), Just(" to hit"),
        ],
        0..60,
    ), seed: u64) {
        check_any(&parts.concat(), seed)?;
    }
}

fn check_any(text: &str, seed: u64) -> Result<(), TestCaseError> {
    match dice::Expr::parse(text) {
        Ok(expr) => {
            prop_assert!(expr.dice() <= dice::MAX_DICE);
            let mut asked = 0u32;
            let mut inner = seeded(seed);
            if let Ok(rolled) = expr.roll(&mut |s| {
                asked += 1;
                inner(s)
            }) {
                prop_assert!(rolled.detail.chars().count() <= dice::MAX_DETAIL_CHARS);
                prop_assert_eq!(rolled.dice_rolled, asked);
            }
            prop_assert!(asked <= dice::MAX_DICE);
        }
        Err(err) => prop_assert!(!err.to_string().is_empty()),
    }
    Ok(())
}
