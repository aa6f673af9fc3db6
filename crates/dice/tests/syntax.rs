//! Every syntax form, rolled with known faces: the display and the total, as Avrae's d20 would give them.

/// Rolls `text` with `faces` handed out in order (each must fit the die asked for), and checks
/// the display, the total and that every face was used.
#[track_caller]
fn check(text: &str, faces: &[u32], detail: &str, total: i64) {
    let mut next = faces.iter().copied();
    let mut asked = Vec::new();
    let rolled = dice::roll(text, &mut |sides| {
        let f = next
            .next()
            .unwrap_or_else(|| panic!("{text}: more dice than the {} faces given", faces.len()));
        assert!((1..=sides).contains(&f), "{text}: face {f} on a d{sides}");
        asked.push(sides);
        f
    })
    .unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(next.next(), None, "{text}: fewer dice than faces given");
    assert_eq!(rolled.detail, detail, "{text}");
    assert_eq!(rolled.total, total, "{text}");
    assert_eq!(rolled.dice_rolled as usize, faces.len(), "{text}");
}

#[test]
fn plain_dice_numbers_and_arithmetic() {
    check("1d20+5", &[12], "1d20 (12) + 5", 17);
    check("d20", &[7], "1d20 (7)", 7);
    check(
        "8d6",
        &[1, 2, 3, 4, 5, 6, 6, 1],
        "8d6 (**1**, 2, 3, 4, 5, **6**, **6**, **1**)",
        28,
    );
    check("1d20+1d4+3", &[20, 2], "1d20 (**20**) + 1d4 (2) + 3", 25);
    check("3 + 4 * 2", &[], "3 + 4 * 2", 11);
    check("(2d6+3)*2", &[4, 5], "(2d6 (4, 5) + 3) * 2", 24);
    check("-1d4", &[3], "-1d4 (3)", -3);
    check("1d6 - -2", &[2], "1d6 (2) - -2", 4);
    check("+3", &[], "+3", 3);
    check("10 / 3", &[], "10 / 3", 3);
    check("-7 / 2", &[], "-7 / 2", -4);
    check("7 // 2", &[], "7 // 2", 3);
    check("-7 % 3", &[], "-7 % 3", 2);
    check("0d6+1", &[], "0d6 () + 1", 1);
    check("1D20 + 2", &[9], "1d20 (9) + 2", 11);
}

#[test]
fn big_dice_and_percentile() {
    check("1d1000", &[1000], "1d1000 (**1000**)", 1000);
    check("1d256", &[129], "1d256 (129)", 129);
    check("1d10000", &[9999], "1d10000 (9999)", 9999);
    check("1d%", &[37], "1d% (37)", 37);
    check("d%", &[100], "1d% (**100**)", 100);
}

#[test]
fn keep_and_drop() {
    check("4d6kh3", &[2, 5, 3, 6], "4d6kh3 (~~2~~, 5, 3, **6**)", 14);
    check("4d6kl1", &[2, 5, 3, 6], "4d6kl1 (2, ~~5~~, ~~3~~, ~~**6**~~)", 2);
    check("2d20kh1+7", &[4, 17], "2d20kh1 (~~4~~, 17) + 7", 24);
    check("2d20kl1", &[4, 17], "2d20kl1 (4, ~~17~~)", 4);
    check("2d20kh", &[9, 3], "2d20kh1 (9, ~~3~~)", 9);
    check("4d6k>3", &[2, 5, 3, 6], "4d6k>3 (~~2~~, 5, ~~3~~, **6**)", 11);
    check("4d6k5", &[2, 5, 3, 5], "4d6k5 (~~2~~, 5, ~~3~~, 5)", 10);
    check("4d6p<3", &[2, 5, 1, 6], "4d6p<3 (~~2~~, 5, ~~**1**~~, **6**)", 11);
    check("4d6ph1", &[2, 5, 3, 6], "4d6ph1 (2, 5, 3, ~~**6**~~)", 10);
    check("4d6dl1", &[2, 5, 3, 6], "4d6dl1 (~~2~~, 5, 3, **6**)", 14);
    check("4d6dl", &[2, 5, 3, 6], "4d6dl1 (~~2~~, 5, 3, **6**)", 14);
    check("3d20dh2+5", &[4, 18, 11], "3d20dh2 (4, ~~18~~, ~~11~~) + 5", 9);
    check(
        "10d10kh5+2",
        &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        "10d10kh5 (~~**1**~~, ~~2~~, ~~3~~, ~~4~~, ~~5~~, 6, 7, 8, 9, **10**) + 2",
        42,
    );
    // Ties go to the earlier die; consecutive keeps merge (keep what either matches).
    check("3d6kh1", &[4, 4, 2], "3d6kh1 (4, ~~4~~, ~~2~~)", 4);
    check("4d6kh1kl1", &[2, 5, 3, 6], "4d6kh1kl1 (2, ~~5~~, ~~3~~, **6**)", 8);
}

#[test]
fn rerolls_until_none_match_and_once() {
    // rr: the first 1 rerolls to a 1 again, then a 2; the third die's 1 rerolls to a 6.
    check(
        "3d6rr1",
        &[1, 4, 1, 1, 6, 2],
        "3d6rr1 (~~**1**~~, ~~**1**~~, 2, 4, ~~**1**~~, **6**)",
        12,
    );
    check("1d20ro<3", &[2, 1], "1d20ro<3 (~~2~~, **1**)", 1);
    check("2d20ro<3", &[5, 2, 15], "2d20ro<3 (5, ~~2~~, 15)", 20);
    check("1d6ra6", &[6, 4], "1d6ra6 (**6!**, 4)", 10);
    check("2d6ra6", &[6, 6, 3], "2d6ra6 (**6!**, **6**, 3)", 15);
}

#[test]
fn explosions_and_limits_on_faces() {
    check("3d6!", &[6, 2, 5, 6, 1], "3d6! (**6!**, 2, 5, **6!**, **1**)", 20);
    check("1d10e10", &[10, 10, 3], "1d10e10 (**10!**, **10!**, 3)", 23);
    check("2d6e>4", &[5, 1, 2], "2d6e>4 (5!, **1**, 2)", 8);
    check(
        "8d6mi2",
        &[1, 4, 2, 6, 1, 3, 5, 2],
        "8d6mi2 (1 -> 2, 4, 2, **6**, 1 -> 2, 3, 5, 2)",
        26,
    );
    check("2d6ma3", &[6, 2], "2d6ma3 (6 -> 3, 2)", 5);
}

#[test]
fn sets_and_parentheses() {
    check("(1d4, 1d6)kh1", &[3, 5], "(~~1d4 (3)~~, 1d6 (5))kh1", 5);
    check(
        "(1d4, 1d6, 1d8)kl1",
        &[3, 5, 2],
        "(~~1d4 (3)~~, ~~1d6 (5)~~, 1d8 (2))kl1",
        2,
    );
    check("(1, 2, 3)p<2", &[], "(~~1~~, 2, 3)p<2", 5);
    check("(1d6,)", &[4], "(1d6 (4),)", 4);
    check("()", &[], "()", 0);
    check(
        "1d20+(4d6kh3)",
        &[11, 2, 5, 3, 6],
        "1d20 (11) + (4d6kh3 (~~2~~, 5, 3, **6**))",
        25,
    );
}

/// As in d20, brackets around dice are brackets, not a set: a keep or drop after them acts on
/// the dice (`(4d6)kh1` is one die, 1–6), and a set of one needs its comma (`(4d6,)kh1` keeps
/// the one total, 4–24).
#[test]
fn a_keep_after_bracketed_dice_acts_on_the_dice_as_in_d20() {
    check("(4d6)kh1", &[2, 5, 3, 6], "(4d6kh1 (~~2~~, ~~5~~, ~~3~~, **6**))", 6);
    check("((4d6))dl1+2", &[2, 5, 3, 6], "((4d6dl1 (~~2~~, 5, 3, **6**))) + 2", 16);
    check(
        "(4d6kh3)kl1",
        &[2, 5, 3, 6],
        "(4d6kh3kl1 (~~2~~, ~~5~~, 3, ~~**6**~~))",
        3,
    );
    check("(4d6,)kh1", &[2, 5, 3, 6], "(4d6 (2, 5, 3, **6**),)kh1", 16);
    check("(4d6+1)kh1", &[2, 5, 3, 6], "(4d6 (2, 5, 3, **6**) + 1,)kh1", 17);
}

#[test]
fn comparisons() {
    check("1d20 >= 15", &[16], "1d20 (16) >= 15", 1);
    check("1d20 < 15", &[16], "1d20 (16) < 15", 0);
    check("1d20!=20", &[20], "1d20 (**20**) != 20", 0);
    check("2 == 2", &[], "2 == 2", 1);
}

#[test]
fn annotations_and_comments() {
    check("1d8+3 [slashing]", &[5], "1d8 (5) + 3 [slashing]", 8);
    check(
        "1d8 [piercing] + 2d6 [fire]",
        &[5, 2, 3],
        "1d8 (5) [piercing] + 2d6 (2, 3) [fire]",
        10,
    );
    let expr = dice::Expr::parse("1d20+5 to hit the dragon").unwrap();
    assert_eq!(expr.text(), "1d20+5");
    assert_eq!(expr.comment(), Some("to hit the dragon"));
    check("1d20+5 to hit the dragon", &[3], "1d20 (3) + 5", 8);
    assert_eq!(dice::Expr::parse("1d20").unwrap().comment(), None);
}

#[test]
fn advantage_and_disadvantage() {
    check("adv", &[4, 17], "2d20kh1 (~~4~~, 17)", 17);
    check("dis+5", &[4, 17], "2d20kl1 (4, ~~17~~) + 5", 9);
    check("1d20+5 adv", &[4, 17], "2d20kh1 (~~4~~, 17) + 5", 22);
    check("1d20+5 dis to hit", &[4, 17], "2d20kl1 (4, ~~17~~) + 5", 9);
    assert_eq!(
        dice::Expr::parse("1d20+5 dis to hit").unwrap().comment(),
        Some("to hit")
    );
}

#[test]
fn the_total_is_the_kept_dice_plus_the_modifiers() {
    let mut faces = [2, 5, 3, 6].into_iter();
    let rolled = dice::roll("4d6kh3 + 2", &mut |_| faces.next().unwrap()).unwrap();
    assert_eq!((rolled.kept_dice, rolled.kept_dice_sum, rolled.total), (3, 14, 16));
}
