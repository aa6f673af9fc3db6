//! Each limit and each malformed expression refused with its message, before any die is rolled (the roll budget: while rolling).

use dice::{DiceError, Expr};

/// Refuses `text` before rolling a single die, with exactly `message`.
#[track_caller]
fn refused(text: &str, message: &str) -> DiceError {
    let err = Expr::parse(text).expect_err(text);
    assert_eq!(err.to_string(), message, "{text}");
    err
}

#[test]
fn malformed_expressions_are_refused_with_what_was_expected() {
    refused("", "it is empty");
    refused("   ", "it is empty");
    refused(
        "2d",
        "it ends where the number of sides (d20) or % after d should follow",
    );
    refused("abc", "\"a\" at column 1 should be a number, a die (d20) or \"(\"");
    refused("banana", "\"b\" at column 1 should be a number, a die (d20) or \"(\"");
    refused("1d20+", "it ends where a number, a die (d20) or \"(\" should follow");
    refused(
        "d20 d20",
        "there is no operator before column 5: join the terms with + or - (e.g. 1d20 + 1d4)",
    );
    refused(
        "1d20 (2)",
        "there is no operator before column 6: join the terms with + or - (e.g. 1d20 + 1d4)",
    );
    refused("d%%!", "\"!\" at column 4 should be a number, a die (d20) or \"(\"");
    refused(
        "1d20x",
        "\"x\" at column 5 should be an operator (+ - * / …), a dice operator (kh, rr, e…) or the end",
    );
    refused(
        "1d20 + 5 %",
        "it ends where a number, a die (d20) or \"(\" should follow",
    );
    refused("(1d4, 1d6", "it ends where \",\" or \")\" should follow");
    refused(
        "4d6k",
        "it ends where a selector after the operator (e.g. kh3, rr1, e6, p<3) should follow",
    );
    refused("1d6mi", "it ends where a number after mi / ma should follow");
    refused("1.5d6", "the number at column 1 is not whole; dice use whole numbers");
    refused(".5", "the number at column 1 is not whole; dice use whole numbers");
    refused("1d20+.5", "the number at column 6 is not whole; dice use whole numbers");
    refused("(4d6)kh0", "keeping 0 of 4 dice leaves none");
    refused("1d8 [fire", "the [ at column 5 is never closed with ]");
    refused(
        "1d6 ]",
        "\"]\" at column 5 should be an operator (+ - * / …) or a comment that starts with a word",
    );
    refused(
        "(1d4, 1d6)rr1",
        "rr works on dice only; a set in parentheses takes k (keep) and p (drop)",
    );
    refused("8d6mi<2", "mi takes a plain number (e.g. mi2), not h, l, < or >");
    refused("2d6dl2", "dropping 2 of 2 dice leaves none");
    refused("4d6kh0", "keeping 0 of 4 dice leaves none");
    refused(
        "2d6+3 adv",
        "\"adv\" at the end needs the expression to start with 1d20",
    );
}

#[test]
fn each_limit_is_refused_and_says_which() {
    refused(&"1".repeat(201), "it is 201 characters long; the most is 200");
    assert!(Expr::parse(&format!("1d20+{}", "1".repeat(195))).is_err_and(|e| e.to_string().contains("more than")));
    refused("1d0", "a die has 1 to 10,000 sides, not 0");
    refused("1d10001", "the number of sides is more than 10,000");
    refused("1001d6", "it rolls 1,001 dice; the most is 1,000");
    refused("600d6+400d6+1d4", "it rolls 1,001 dice; the most is 1,000");
    refused(
        "999d6 adv",
        "\"adv\" at the end needs the expression to start with 1d20",
    );
    refused("1d20+999d6 adv", "it rolls 1,001 dice; the most is 1,000");
    refused(
        &format!("{}1{}", "(".repeat(21), ")".repeat(21)),
        "it nests parentheses and signs more than 20 deep",
    );
    refused(
        &format!("{}1", "-".repeat(21)),
        "it nests parentheses and signs more than 20 deep",
    );
    assert!(Expr::parse(&format!("{}1{}", "(".repeat(20), ")".repeat(20))).is_ok());
    refused(
        "99999999999999999999",
        "a number is more than 9,223,372,036,854,775,807",
    );
    refused("4d6kh10001", "a selector's number is more than 10,000");
}

#[test]
fn a_reroll_or_explosion_that_every_face_matches_is_refused_before_rolling() {
    refused(
        "1d1e1",
        "every face of 1d1 matches its explosion, so it would never stop",
    );
    refused(
        "1d1!",
        "every face of 1d1 matches its explosion, so it would never stop",
    );
    refused(
        "1d6e<7",
        "every face of 1d6 matches its explosion, so it would never stop",
    );
    refused(
        "1d6rr>0",
        "every face of 1d6 matches its reroll (rr), so it would never stop",
    );
    refused(
        "1d2rr1rr2",
        "every face of 1d2 matches its reroll (rr), so it would never stop",
    );
    refused(
        "3d6rr<4rr>3",
        "every face of 3d6 matches its reroll (rr), so it would never stop",
    );
    refused(
        "2d20rrh1",
        "every face of 2d20 matches its reroll (rr), so it would never stop",
    );
    refused(
        "1d%rr<101",
        "every face of 1d% matches its reroll (rr), so it would never stop",
    );
    // One face left out: it stops (the budget bounds how long).
    assert!(Expr::parse("3d6rr<4rr>4").is_ok());
    assert!(Expr::parse("1d6ro<7").is_ok(), "ro rerolls once: it always stops");
    assert!(Expr::parse("1d6eh1").is_ok(), "an exploded die is not selected again");
}

#[test]
fn the_three_expressions_that_took_the_bot_down_are_refused() {
    // 1d0x exploded forever; 1d0rr=0 rerolled forever; both are refused for the zero-sided die.
    refused("1d0x", "a die has 1 to 10,000 sides, not 0");
    refused("1d0rr=0", "a die has 1 to 10,000 sides, not 0");
    // The 100-character valid tyche expression: the fourth 255d255 already asks for 1,020 dice.
    let heavy = ["255d255rr<255"; 7].join("+") + "+12";
    assert_eq!(heavy.len(), 100);
    refused(&heavy, "it rolls 1,020 dice; the most is 1,000");
}

#[test]
fn rerolls_and_explosions_stop_at_the_dice_budget_and_say_so() {
    // Faces of 1 forever: 255d255rr<255 would reroll without end; it stops at 1,000 dice.
    let mut asked = 0u32;
    let err = dice::roll("255d255rr<255", &mut |_| {
        asked += 1;
        1
    })
    .unwrap_err();
    assert_eq!(err, DiceError::TooManyRolls);
    assert_eq!(err.to_string(), "its rerolls and explosions went past 1,000 dice");
    assert_eq!(asked, 1000, "the budget counts every die rolled, rerolls included");

    let mut asked = 0u32;
    let err = dice::roll("1d6e6", &mut |sides| {
        asked += 1;
        sides
    })
    .unwrap_err();
    assert_eq!((err, asked), (DiceError::TooManyRolls, 1000));

    // 1,000 dice exactly is within the budget.
    let rolled = dice::roll("1000d6", &mut |_| 3).unwrap();
    assert_eq!((rolled.total, rolled.dice_rolled), (3000, 1000));
}

#[test]
fn arithmetic_errors_are_refused() {
    let err = dice::roll("1d6/0", &mut |_| 1).unwrap_err();
    assert_eq!(err.to_string(), "it divides by zero");
    let err = dice::roll("1d6 % (1-1)", &mut |_| 1).unwrap_err();
    assert_eq!(err.to_string(), "it divides by zero");
    let err = dice::roll("9223372036854775807 + 1d6", &mut |_| 1).unwrap_err();
    assert_eq!(err.to_string(), "its total is too large to count");
    let err = dice::roll("-9223372036854775807 - 2", &mut |_| 1).unwrap_err();
    assert_eq!(err.to_string(), "its total is too large to count");
}

#[test]
fn the_display_fits_discord_for_the_largest_rolls() {
    // 1,000 dice of 10,000 sides, all dropped (~~10000~~, …): the full list is ≈ 11,000
    // characters; the display keeps the dice that fit and sums up the rest.
    let rolled = dice::roll("1000d10000p>0", &mut |_| 9999).unwrap();
    assert!(
        rolled.detail.chars().count() <= dice::MAX_DETAIL_CHARS,
        "{}",
        rolled.detail.len()
    );
    assert!(
        rolled.detail.starts_with("1000d10000p>0 (~~9999~~, ~~9999~~"),
        "{}",
        &rolled.detail[..60]
    );
    let rest: usize = rolled
        .detail
        .rsplit("…+")
        .next()
        .unwrap()
        .trim_end_matches(')')
        .parse()
        .unwrap();
    let shown = rolled.detail.matches("~~9999~~").count();
    assert_eq!(shown + rest, 1000);
    assert!(shown > 250, "as many as fit are shown: {shown}");
    assert_eq!(rolled.total, 0);

    // Many groups: every group keeps its head and its count.
    let text = ["100d10000"; 10].join("+");
    let rolled = dice::roll(&text, &mut |_| 1234).unwrap();
    assert!(rolled.detail.chars().count() <= dice::MAX_DETAIL_CHARS);
    assert_eq!(
        rolled.detail.matches("100d10000 (1234").count(),
        10,
        "{}",
        rolled.detail
    );
    assert_eq!(rolled.total, 1_234_000);
}
