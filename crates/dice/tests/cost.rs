//! The cost of any expression is bounded: the heap that parse + roll + render hold at once stays within a few KB, at the limits too, and a refused expression costs nothing.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The peak heap and the allocations of one parse + roll + render of `text`.
fn cost(text: &str) -> (u64, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let info = allocation_counter::measure(|| {
        let _ = std::hint::black_box(dice::roll(text, &mut |sides| rng.random_range(1..=sides)));
    });
    assert_eq!(info.bytes_current, 0, "{text}: nothing is left allocated");
    eprintln!(
        "COST {text}: peak {} B, {} allocations",
        info.bytes_max, info.count_total
    );
    (info.bytes_max, info.count_total)
}

#[test]
fn the_common_expressions_hold_under_a_kilobyte() {
    for text in [
        "1d20+5",
        "4d6kh3",
        "2d20kh1+7",
        "8d6",
        "1d20+1d4+3",
        "10d10kh5+2",
        "(1d4, 1d6)kh1 [fire]",
    ] {
        let (peak, count) = cost(text);
        assert!(peak <= 1024, "{text}: {peak} bytes at once");
        assert!(count <= 12, "{text}: {count} allocations");
    }
}

#[test]
fn the_largest_rolls_hold_a_few_kilobytes() {
    // 1,000 dice (the budget), each shown, rerolled or exploded, and cut to fit an embed.
    for text in [
        "1000d10000",
        "1000d10000p>0",
        "500d10000ro<10000",
        "10d6e>1",
        "255d255rr<255",
        &["100d10000"; 10].join("+"),
        &format!("{}1d20{}", "(".repeat(20), ")".repeat(20)),
    ] {
        let (peak, _) = cost(text);
        assert!(peak <= 16 * 1024, "{text}: {peak} bytes at once");
    }
}

#[test]
fn a_refused_expression_costs_no_more_than_its_parse() {
    for text in ["1d0x", "1d0rr=0", "1001d6", "1d1e1", "d20 d20", &"1".repeat(500)] {
        let (peak, _) = cost(text);
        assert!(peak <= 512, "{text}: {peak} bytes at once");
    }
}
