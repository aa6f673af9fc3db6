//! Rolling a parsed [`Expr`]: dice from the caller's [`Roller`], operators in d20's order, and a hard budget of [`MAX_DICE`] dice rolled.

use crate::parse::{BinOp, Cat, Expr, Kind, NodeId, OpKind, Sel, SetOp};
use crate::{DiceError, MAX_DICE};

/// Where the dice come from: `die(sides)` returns a face in `1..=sides`.
pub trait Roller {
    fn die(&mut self, sides: u32) -> u32;
}

impl<F: FnMut(u32) -> u32> Roller for F {
    fn die(&mut self, sides: u32) -> u32 {
        self(sides)
    }
}

/// No entry in `Tally::history` (8 bytes a die: 1,000 dice hold 8 KB).
pub(crate) const NONE: u16 = u16::MAX;

/// One die as it stands: its face (after `mi`/`ma`), the face it rolled, and its marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Die {
    pub value: u16,
    pub rolled: u16,
    /// The latest face this die rerolled away (index into `Tally::history`), or [`NONE`].
    pub last_reroll: u16,
    pub kept: bool,
    pub exploded: bool,
}

/// A face rerolled away: shown struck through before the die's face.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rerolled {
    pub value: u16,
    /// The face rerolled away before this one on the same die, or [`NONE`].
    pub before: u16,
    pub exploded: bool,
}

/// What each node came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Out {
    pub value: i64,
    pub kept: bool,
    /// For dice: their range in `Tally::dice`.
    pub dice: (u16, u16),
}

/// Everything one roll produced, for the total and the display.
#[derive(Debug, Clone)]
pub(crate) struct Tally {
    pub dice: Vec<Die>,
    pub history: Vec<Rerolled>,
    pub out: Vec<Out>,
    rolled: u32,
}

impl Tally {
    fn roll(&mut self, roller: &mut impl Roller, sides: u32) -> Result<u16, DiceError> {
        self.rolled += 1;
        if self.rolled > MAX_DICE {
            return Err(DiceError::TooManyRolls);
        }
        // A roller outside 1..=sides is clamped: the total stays within what the dice allow.
        Ok(roller.die(sides).clamp(1, sides) as u16)
    }

    fn push_die(&mut self, roller: &mut impl Roller, sides: u32) -> Result<(), DiceError> {
        let v = self.roll(roller, sides)?;
        self.dice.push(Die {
            value: v,
            rolled: v,
            last_reroll: NONE,
            kept: true,
            exploded: false,
        });
        Ok(())
    }

    fn reroll(&mut self, roller: &mut impl Roller, i: usize, sides: u32) -> Result<(), DiceError> {
        let v = self.roll(roller, sides)?;
        let die = &mut self.dice[i];
        self.history.push(Rerolled {
            value: die.value,
            exploded: die.exploded,
            before: die.last_reroll,
        });
        die.last_reroll = (self.history.len() - 1) as u16;
        die.value = v;
        die.rolled = v;
        die.exploded = false;
        Ok(())
    }
}

/// Marks in `picked` (indexed from 0 over `n` values; `value(i)` is `None` for a dropped one)
/// what the selectors match among the kept values; `limit` caps how many (for `ra`). Ties in
/// highest/lowest go to the earlier value.
fn select(
    sels: &[Sel],
    n: usize,
    value: impl Fn(usize) -> Option<i64>,
    picked: &mut Vec<bool>,
    order: &mut Vec<u16>,
    limit: Option<usize>,
) {
    picked.clear();
    picked.resize(n, false);
    let mut count = 0;
    for sel in sels {
        let room = limit.map_or(usize::MAX, |l| l - count);
        if room == 0 {
            break;
        }
        match sel.cat {
            Cat::Highest | Cat::Lowest => {
                order.clear();
                order.extend((0..n as u16).filter(|&i| value(usize::from(i)).is_some()));
                let key = |i: &u16| value(usize::from(*i)).unwrap_or(0);
                if sel.cat == Cat::Highest {
                    order.sort_by_key(|i| std::cmp::Reverse(key(i)));
                } else {
                    order.sort_by_key(key);
                }
                let take = (sel.num as usize).min(order.len()).min(room);
                for &i in &order[..take] {
                    if !picked[usize::from(i)] {
                        picked[usize::from(i)] = true;
                        count += 1;
                    }
                }
            }
            Cat::Is | Cat::Below | Cat::Above => {
                let target = i64::from(sel.num);
                let mut left = room;
                for (i, done) in picked.iter_mut().enumerate() {
                    if left == 0 {
                        break;
                    }
                    let hit = value(i).is_some_and(|v| match sel.cat {
                        Cat::Is => v == target,
                        Cat::Below => v < target,
                        _ => v > target,
                    });
                    if hit {
                        left -= 1;
                        if !*done {
                            *done = true;
                            count += 1;
                        }
                    }
                }
            }
        }
    }
}

/// The kept dice of a group, for [`select`].
fn die_value(dice: &[Die]) -> impl Fn(usize) -> Option<i64> + '_ {
    |i| dice[i].kept.then(|| i64::from(dice[i].value))
}

struct Roll<'e, R> {
    expr: &'e Expr,
    roller: &'e mut R,
    tally: Tally,
    picked: Vec<bool>,
    order: Vec<u16>,
}

impl<R: Roller> Roll<'_, R> {
    fn node(&mut self, id: NodeId) -> Result<i64, DiceError> {
        let node = self.expr.nodes[usize::from(id)];
        let mut out = Out {
            kept: true,
            ..Out::default()
        };
        out.value = match node.kind {
            Kind::Number(n) => n,
            Kind::Dice { count, sides, ops, .. } => {
                let start = self.tally.dice.len();
                for _ in 0..count {
                    self.tally.push_die(self.roller, sides)?;
                }
                for op in &self.expr.ops[ops.range()] {
                    self.dice_op(*op, start, sides)?;
                }
                out.dice = (start as u16, self.tally.dice.len() as u16);
                self.tally.dice[start..]
                    .iter()
                    .filter(|d| d.kept)
                    .map(|d| i64::from(d.value))
                    .sum()
            }
            Kind::Set { items, ops } => {
                let members = &self.expr.items[items.range()];
                for &m in members {
                    self.node(m)?;
                }
                for op in &self.expr.ops[ops.range()] {
                    let selectors = &self.expr.sels[op.sels.range()];
                    let out = &self.tally.out;
                    let value = |k: usize| {
                        let o = out[usize::from(members[k])];
                        o.kept.then_some(o.value)
                    };
                    select(selectors, members.len(), value, &mut self.picked, &mut self.order, None);
                    for (k, &m) in members.iter().enumerate() {
                        let o = &mut self.tally.out[usize::from(m)];
                        match op.kind {
                            OpKind::Keep if !self.picked[k] => o.kept = false,
                            OpKind::Drop if self.picked[k] => o.kept = false,
                            _ => {}
                        }
                    }
                }
                let mut sum: i64 = 0;
                for &m in members {
                    let o = self.tally.out[usize::from(m)];
                    if o.kept {
                        sum = sum.checked_add(o.value).ok_or(DiceError::Overflow)?;
                    }
                }
                sum
            }
            Kind::Paren(inner) | Kind::Pos(inner) => self.node(inner)?,
            Kind::Neg(inner) => self.node(inner)?.checked_neg().ok_or(DiceError::Overflow)?,
            Kind::Bin(op, l, r) => {
                let l = self.node(l)?;
                let r = self.node(r)?;
                binary(op, l, r)?
            }
        };
        self.tally.out[usize::from(id)] = out;
        Ok(out.value)
    }

    /// Selects among the dice of the group starting at `start`.
    fn pick(&mut self, selectors: &[Sel], start: usize, limit: Option<usize>) {
        let dice = &self.tally.dice[start..];
        select(
            selectors,
            dice.len(),
            die_value(dice),
            &mut self.picked,
            &mut self.order,
            limit,
        );
    }

    fn dice_op(&mut self, op: SetOp, start: usize, sides: u32) -> Result<(), DiceError> {
        let selectors = &self.expr.sels[op.sels.range()];
        match op.kind {
            OpKind::Keep | OpKind::Drop => {
                self.pick(selectors, start, None);
                for (k, die) in self.tally.dice[start..].iter_mut().enumerate() {
                    if self.picked[k] == (op.kind == OpKind::Drop) {
                        die.kept = false;
                    }
                }
            }
            OpKind::Reroll | OpKind::RerollOnce => loop {
                self.pick(selectors, start, None);
                let mut any = false;
                for k in 0..self.picked.len() {
                    if self.picked[k] {
                        any = true;
                        self.tally.reroll(self.roller, start + k, sides)?;
                    }
                }
                // Every pass rolls at least one die, so the budget ends any loop.
                if !any || op.kind == OpKind::RerollOnce {
                    break;
                }
            },
            OpKind::RerollAdd | OpKind::Explode => {
                let mut done: Vec<bool> = Vec::new();
                loop {
                    let limit = (op.kind == OpKind::RerollAdd).then_some(1);
                    self.pick(selectors, start, limit);
                    done.resize(self.picked.len(), false);
                    let mut any = false;
                    for (k, done) in done.iter_mut().enumerate() {
                        if self.picked[k] && !*done {
                            any = true;
                            *done = true;
                            self.tally.dice[start + k].exploded = true;
                            self.tally.push_die(self.roller, sides)?;
                        }
                    }
                    if !any || op.kind == OpKind::RerollAdd {
                        break;
                    }
                }
            }
            OpKind::Min | OpKind::Max => {
                let bound = selectors.last().map_or(0, |s| s.num) as u16;
                for die in &mut self.tally.dice[start..] {
                    if die.kept
                        && ((op.kind == OpKind::Min && die.value < bound)
                            || (op.kind == OpKind::Max && die.value > bound))
                    {
                        die.value = bound;
                    }
                }
            }
        }
        Ok(())
    }
}

fn binary(op: BinOp, l: i64, r: i64) -> Result<i64, DiceError> {
    let zero = || if r == 0 { Err(DiceError::DivideByZero) } else { Ok(()) };
    Ok(match op {
        BinOp::Add => l.checked_add(r).ok_or(DiceError::Overflow)?,
        BinOp::Sub => l.checked_sub(r).ok_or(DiceError::Overflow)?,
        BinOp::Mul => l.checked_mul(r).ok_or(DiceError::Overflow)?,
        // `/` rounds down, as the 5e rules do; `//` too.
        BinOp::Div | BinOp::FloorDiv => {
            zero()?;
            let q = l.checked_div(r).ok_or(DiceError::Overflow)?;
            if l % r != 0 && ((l < 0) != (r < 0)) { q - 1 } else { q }
        }
        // The remainder takes the divisor's sign (as Python's `%` in d20).
        BinOp::Rem => {
            zero()?;
            let m = l.checked_rem(r).ok_or(DiceError::Overflow)?;
            if m != 0 && ((m < 0) != (r < 0)) { m + r } else { m }
        }
        BinOp::Eq => i64::from(l == r),
        BinOp::Ne => i64::from(l != r),
        BinOp::Le => i64::from(l <= r),
        BinOp::Ge => i64::from(l >= r),
        BinOp::Lt => i64::from(l < r),
        BinOp::Gt => i64::from(l > r),
    })
}

/// Rolls `expr`: its total, and what each node and die came to.
pub(crate) fn roll(expr: &Expr, roller: &mut impl Roller) -> Result<(i64, Tally), DiceError> {
    let mut r = Roll {
        expr,
        roller,
        tally: Tally {
            dice: Vec::with_capacity(expr.dice as usize),
            history: Vec::new(),
            out: vec![Out::default(); expr.nodes.len()],
            rolled: 0,
        },
        picked: Vec::new(),
        order: Vec::new(),
    };
    let total = r.node(expr.root)?;
    Ok((total, r.tally))
}
