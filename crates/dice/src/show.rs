//! The display players expect from Avrae: each die shown, dropped ones struck through, 1s and highest faces bold, within Discord's limits.

use std::fmt::Write as _;

use crate::MAX_DETAIL_CHARS;
use crate::parse::{Cat, Expr, Kind, NodeId, Spelling};
use crate::roll::{Die, Tally};

struct Show<'a> {
    expr: &'a Expr,
    tally: &'a Tally,
    out: String,
    /// Dice shown per group before the rest are summed up as `…+N`.
    per_group: usize,
    scratch: Vec<u16>,
}

fn face(out: &mut String, value: u16, sides: u32, exploded: bool) {
    let crit = value == 1 || u32::from(value) == sides;
    if crit {
        out.push_str("**");
    }
    let _ = write!(out, "{value}");
    if exploded {
        out.push('!');
    }
    if crit {
        out.push_str("**");
    }
}

impl Show<'_> {
    fn ops(&mut self, ops: crate::parse::Span) {
        for op in &self.expr.ops[ops.range()] {
            for sel in &self.expr.sels[op.sels.range()] {
                match sel.spelling {
                    Spelling::Bang => {
                        self.out.push('!');
                        continue;
                    }
                    Spelling::DropShort => self.out.push('d'),
                    Spelling::Plain => self.out.push_str(op.kind.symbol()),
                }
                match sel.cat {
                    Cat::Is => {}
                    Cat::Highest => self.out.push('h'),
                    Cat::Lowest => self.out.push('l'),
                    Cat::Below => self.out.push('<'),
                    Cat::Above => self.out.push('>'),
                }
                let _ = write!(self.out, "{}", sel.num);
            }
        }
    }

    fn die(&mut self, die: &Die, sides: u32, struck: bool) {
        let strike = !die.kept && !struck;
        if strike {
            self.out.push_str("~~");
        }
        // Faces rerolled away, oldest first, struck through.
        self.scratch.clear();
        let mut at = die.last_reroll;
        while let Some(i) = at {
            self.scratch.push(i);
            at = self.tally.history[usize::from(i)].before;
        }
        for k in (0..self.scratch.len()).rev() {
            let old = self.tally.history[usize::from(self.scratch[k])];
            if !strike && !struck {
                self.out.push_str("~~");
            }
            face(&mut self.out, old.value, sides, old.exploded);
            if !strike && !struck {
                self.out.push_str("~~");
            }
            self.out.push_str(", ");
        }
        if die.rolled == die.value {
            face(&mut self.out, die.value, sides, die.exploded);
        } else {
            let _ = write!(self.out, "{} -> ", die.rolled);
            face(&mut self.out, die.value, sides, die.exploded);
        }
        if strike {
            self.out.push_str("~~");
        }
    }

    fn node(&mut self, id: NodeId, struck: bool) {
        let node = self.expr.nodes[usize::from(id)];
        let out = self.tally.out[usize::from(id)];
        let strike = !out.kept && !struck;
        if strike {
            self.out.push_str("~~");
        }
        let struck = struck || strike;
        match node.kind {
            Kind::Number(n) => {
                let _ = write!(self.out, "{n}");
            }
            Kind::Dice {
                count,
                sides,
                percent,
                ops,
            } => {
                let _ = write!(self.out, "{count}d");
                if percent {
                    self.out.push('%');
                } else {
                    let _ = write!(self.out, "{sides}");
                }
                self.ops(ops);
                self.out.push_str(" (");
                let (a, b) = (usize::from(out.dice.0), usize::from(out.dice.1));
                let shown = (b - a).min(self.per_group);
                for (k, die) in self.tally.dice[a..a + shown].iter().enumerate() {
                    if k > 0 {
                        self.out.push_str(", ");
                    }
                    self.die(die, sides, struck);
                }
                if shown < b - a {
                    let _ = write!(self.out, "{}…+{}", if shown > 0 { ", " } else { "" }, b - a - shown);
                }
                self.out.push(')');
            }
            Kind::Set { items, ops } => {
                self.out.push('(');
                let members = &self.expr.items[items.range()];
                for (k, &m) in members.iter().enumerate() {
                    if k > 0 {
                        self.out.push_str(", ");
                    }
                    self.node(m, struck);
                }
                if members.len() == 1 {
                    self.out.push(',');
                }
                self.out.push(')');
                self.ops(ops);
            }
            Kind::Paren(inner) => {
                self.out.push('(');
                self.node(inner, struck);
                self.out.push(')');
            }
            Kind::Neg(inner) | Kind::Pos(inner) => {
                self.out.push(if matches!(node.kind, Kind::Neg(_)) { '-' } else { '+' });
                self.node(inner, struck);
            }
            Kind::Bin(op, l, r) => {
                self.node(l, struck);
                self.out.push(' ');
                self.out.push_str(op.symbol());
                self.out.push(' ');
                self.node(r, struck);
            }
        }
        if let Some((a, b)) = node.note {
            self.out.push(' ');
            self.out.push_str(&self.expr.source[usize::from(a)..usize::from(b)]);
        }
        if strike {
            self.out.push_str("~~");
        }
    }
}

/// The rolled expression shown die by die, at most [`MAX_DETAIL_CHARS`] characters: when every
/// die does not fit, each group shows as many as fit and sums up the rest (`…+412`).
pub(crate) fn show(expr: &Expr, tally: &Tally) -> String {
    let mut s = Show {
        expr,
        tally,
        out: String::with_capacity(32 + 8 * tally.dice.len()),
        per_group: usize::MAX,
        scratch: Vec::new(),
    };
    s.node(expr.root, false);
    if s.out.chars().count() <= MAX_DETAIL_CHARS {
        return s.out;
    }
    // Binary search the most dice per group that fit (0 always does: at most 200 characters typed).
    let (mut lo, mut hi) = (0, tally.dice.len());
    let mut best = String::new();
    while lo <= hi {
        let mid = usize::midpoint(lo, hi);
        s.per_group = mid;
        s.out.clear();
        s.node(expr.root, false);
        if s.out.chars().count() <= MAX_DETAIL_CHARS {
            best.clone_from(&s.out);
            lo = mid + 1;
        } else if mid == 0 {
            break;
        } else {
            hi = mid - 1;
        }
    }
    best
}
