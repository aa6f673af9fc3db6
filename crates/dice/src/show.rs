//! The display players expect from Avrae: each die shown, dropped ones struck through, 1s and highest faces bold, within Discord's limits.

use crate::MAX_DETAIL_CHARS;
use crate::parse::{Cat, Expr, Kind, NodeId, Spelling};
use crate::roll::{Die, NONE, Tally};

struct Show<'a> {
    expr: &'a Expr,
    tally: &'a Tally,
    out: String,
    /// Dice shown per group before the rest are summed up as `…+N`.
    per_group: usize,
    scratch: Vec<u16>,
    /// Set when the text passed the limit and showing stopped early.
    overflow: bool,
}

/// Appends `n` in decimal (faster than `core::fmt` for the many small numbers shown).
pub(crate) fn push_int(out: &mut String, n: i64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut m = n.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if n < 0 {
        out.push('-');
    }
    out.push_str(std::str::from_utf8(&buf[i..]).expect("ASCII digits"));
}

fn face(out: &mut String, value: u16, sides: u32, exploded: bool) {
    let crit = value == 1 || u32::from(value) == sides;
    if crit {
        out.push_str("**");
    }
    push_int(out, i64::from(value));
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
                push_int(&mut self.out, i64::from(sel.num));
            }
        }
    }

    fn die(&mut self, die: Die, sides: u32, struck: bool) {
        let strike = !die.kept && !struck;
        if strike {
            self.out.push_str("~~");
        }
        // Faces rerolled away, oldest first, struck through.
        self.scratch.clear();
        let mut at = die.last_reroll;
        while at != NONE {
            self.scratch.push(at);
            at = self.tally.history[usize::from(at)].before;
        }
        for k in (0..self.scratch.len()).rev() {
            if self.out.len() > MAX_DETAIL_CHARS {
                self.overflow = true;
                return;
            }
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
            push_int(&mut self.out, i64::from(die.rolled));
            self.out.push_str(" -> ");
            face(&mut self.out, die.value, sides, die.exploded);
        }
        if strike {
            self.out.push_str("~~");
        }
    }

    fn node(&mut self, id: NodeId, struck: bool) {
        if self.out.len() > MAX_DETAIL_CHARS {
            self.overflow = true;
            return;
        }
        let node = self.expr.nodes[usize::from(id)];
        let out = self.tally.out[usize::from(id)];
        let strike = !out.kept && !struck;
        if strike {
            self.out.push_str("~~");
        }
        let struck = struck || strike;
        match node.kind {
            Kind::Number(n) => push_int(&mut self.out, n),
            Kind::Dice {
                count,
                sides,
                percent,
                ops,
            } => {
                push_int(&mut self.out, i64::from(count));
                self.out.push('d');
                if percent {
                    self.out.push('%');
                } else {
                    push_int(&mut self.out, i64::from(sides));
                }
                self.ops(ops);
                self.out.push_str(" (");
                let (a, b) = (usize::from(out.dice.0), usize::from(out.dice.1));
                let shown = (b - a).min(self.per_group);
                for (k, die) in self.tally.dice[a..a + shown].iter().enumerate() {
                    if self.out.len() > MAX_DETAIL_CHARS {
                        // Past the limit already: this pass cannot fit, stop building it.
                        self.overflow = true;
                        return;
                    }
                    if k > 0 {
                        self.out.push_str(", ");
                    }
                    self.die(*die, sides, struck);
                }
                if shown < b - a {
                    if shown > 0 {
                        self.out.push_str(", ");
                    }
                    self.out.push_str("…+");
                    push_int(&mut self.out, (b - a - shown) as i64);
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

/// Room for the whole text, or, when it may pass the limit, for the limit and the most one node
/// adds past it before showing stops (a die with its marks, or the annotations typed, ≤ 800 bytes):
/// the text never grows into a second buffer.
fn room(expr: &Expr, tally: &Tally) -> usize {
    let want = 32 + expr.source.len() + 10 * (tally.dice.len() + tally.history.len());
    if want < MAX_DETAIL_CHARS {
        want
    } else {
        MAX_DETAIL_CHARS + 1024
    }
}

/// The rolled expression shown die by die, at most [`MAX_DETAIL_CHARS`] characters: when every
/// die does not fit, each group shows as many as fit and sums up the rest (`…+412`). No pass
/// builds more than the limit and one die past it.
pub(crate) fn show(expr: &Expr, tally: &Tally) -> String {
    let mut s = Show {
        expr,
        tally,
        out: String::with_capacity(room(expr, tally)),
        per_group: usize::MAX,
        scratch: Vec::new(),
        overflow: false,
    };
    let fits =
        |s: &Show<'_>| !s.overflow && (s.out.len() <= MAX_DETAIL_CHARS || s.out.chars().count() <= MAX_DETAIL_CHARS);
    s.node(expr.root, false);
    if fits(&s) {
        return s.out;
    }
    // Binary search the most dice per group that fit (0 always does: at most 200 characters
    // typed), then show that many.
    let (mut lo, mut hi, mut best) = (1, tally.dice.len(), 0);
    while lo <= hi {
        let mid = usize::midpoint(lo, hi);
        s.per_group = mid;
        s.overflow = false;
        s.out.clear();
        s.node(expr.root, false);
        if fits(&s) {
            best = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    s.per_group = best;
    s.overflow = false;
    s.out.clear();
    s.node(expr.root, false);
    s.out
}
