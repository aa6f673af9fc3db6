//! The grammar: Avrae's d20 syntax, parsed by recursive descent into a flat [`Expr`], with every limit but the dynamic roll budget checked here.
//!
//! ```text
//! expr       := comparison [comment]
//! comparison := additive (("==" | "!=" | "<=" | ">=" | "<" | ">") additive)*
//! additive   := term (("+" | "-") term)*
//! term       := unary (("*" | "//" | "/" | "%") unary)*
//! unary      := ("+" | "-") unary | atom
//! atom       := (dice | set | number | "adv" | "dis") annotation*
//! dice       := [number] "d" (number | "%") op*
//! set        := "(" [comparison ("," comparison)* [","]] ")" (("k" | "p") selector)*
//! op         := ("k" | "p" | "rr" | "ro" | "ra" | "e" | "mi" | "ma") selector
//!             | ("kh" | "kl" | "dh" | "dl") [number] | "!"
//! selector   := ["h" | "l" | "<" | ">"] number
//! annotation := "[" text "]"
//! comment    := whitespace, then a word that is not a dice term (or "adv" / "dis" first)
//! ```

use crate::{DiceError, MAX_CHARS, MAX_DEPTH, MAX_DICE, MAX_SIDES};

/// Index of a node in [`Expr::nodes`].
pub(crate) type NodeId = u16;

/// A half-open range into one of the expression's flat lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Span {
    pub start: u16,
    pub end: u16,
}

impl Span {
    pub fn range(self) -> std::ops::Range<usize> {
        usize::from(self.start)..usize::from(self.end)
    }
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Rem,
    Eq,
    Ne,
    Le,
    Ge,
    Lt,
    Gt,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Add => "+",
            Self::Sub => "-",
            Self::Mul => "*",
            Self::Div => "/",
            Self::FloorDiv => "//",
            Self::Rem => "%",
            Self::Eq => "==",
            Self::Ne => "!=",
            Self::Le => "<=",
            Self::Ge => ">=",
            Self::Lt => "<",
            Self::Gt => ">",
        }
    }
}

/// What a set operator does to the values its selectors match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OpKind {
    /// `k`: keep the matched, drop the rest.
    Keep,
    /// `p`: drop the matched.
    Drop,
    /// `rr`: reroll the matched until none match.
    Reroll,
    /// `ro`: reroll the matched once.
    RerollOnce,
    /// `ra`: roll one more die for the first match, once.
    RerollAdd,
    /// `e`: one more die for each match, and again for each new match.
    Explode,
    /// `mi`: raise each die below the number to it.
    Min,
    /// `ma`: lower each die above the number to it.
    Max,
}

impl OpKind {
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Keep => "k",
            Self::Drop => "p",
            Self::Reroll => "rr",
            Self::RerollOnce => "ro",
            Self::RerollAdd => "ra",
            Self::Explode => "e",
            Self::Min => "mi",
            Self::Max => "ma",
        }
    }
}

/// Which values a selector matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cat {
    /// Exactly the number.
    Is,
    /// The highest N.
    Highest,
    /// The lowest N.
    Lowest,
    /// Less than N.
    Below,
    /// More than N.
    Above,
}

/// How a selector was written, so it is shown back the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spelling {
    /// `k`, `p`, `rr`… followed by the selector.
    Plain,
    /// `dh` / `dl` (drop highest / lowest).
    DropShort,
    /// `!` (explode on the highest face).
    Bang,
}

/// One selector of an operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sel {
    pub cat: Cat,
    pub num: u32,
    pub spelling: Spelling,
}

/// An operator and its selectors (consecutive uses of the same operator merge, as in d20:
/// `k1k2` keeps what either matches).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SetOp {
    pub kind: OpKind,
    pub sels: Span,
}

/// A node of the expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Number(i64),
    /// `count` dice of `sides` faces (`percent`: written `d%`, a d100).
    Dice {
        count: u32,
        sides: u32,
        percent: bool,
        ops: Span,
    },
    /// A set of sub-expressions, with keep/drop operators.
    Set {
        items: Span,
        ops: Span,
    },
    Paren(NodeId),
    Neg(NodeId),
    Pos(NodeId),
    Bin(BinOp, NodeId, NodeId),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Node {
    pub kind: Kind,
    /// The byte range of its annotations (`[slashing]`) in the source, if any.
    pub note: Option<(u16, u16)>,
}

/// A parsed expression that passed every static limit: ready to roll any number of times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    pub(crate) source: String,
    pub(crate) nodes: Vec<Node>,
    pub(crate) items: Vec<NodeId>,
    pub(crate) ops: Vec<SetOp>,
    pub(crate) sels: Vec<Sel>,
    pub(crate) root: NodeId,
    /// Byte range of the expression part of the source (before any comment).
    pub(crate) body_end: usize,
    /// Byte range of the comment, if any.
    pub(crate) comment: Option<(usize, usize)>,
    /// Dice asked for before any reroll or explosion.
    pub(crate) dice: u32,
}

impl Expr {
    /// Parses `text`, refusing it with the reason if it is malformed or breaks a limit.
    pub fn parse(text: &str) -> Result<Self, DiceError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(DiceError::Empty);
        }
        // Bytes bound characters from above: count them only when it matters.
        if text.len() > MAX_CHARS {
            let chars = text.chars().count();
            if chars > MAX_CHARS {
                return Err(DiceError::TooLong { chars });
            }
        }
        let mut p = Parser {
            s: text.as_bytes(),
            text,
            pos: 0,
            depth: 0,
            members: Vec::new(),
            expr: Expr {
                source: String::new(),
                nodes: Vec::with_capacity(8),
                items: Vec::new(),
                ops: Vec::new(),
                sels: Vec::new(),
                root: 0,
                body_end: text.len(),
                comment: None,
                dice: 0,
            },
        };
        let root = p.comparison()?;
        p.expr.root = root;
        p.trailer()?;
        let mut expr = p.expr;
        text.clone_into(&mut expr.source);
        Ok(expr)
    }

    /// The expression as typed, without its comment.
    pub fn text(&self) -> &str {
        self.source[..self.body_end].trim_end()
    }

    /// The comment after the expression (`1d20+5 to hit` → `to hit`), if any.
    pub fn comment(&self) -> Option<&str> {
        self.comment.map(|(a, b)| &self.source[a..b])
    }

    /// How many dice it asks for before rerolls and explosions.
    pub fn dice(&self) -> u32 {
        self.dice
    }
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    depth: usize,
    expr: Expr,
    /// The members of the sets being parsed, innermost last.
    members: Vec<NodeId>,
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).map(u8::to_ascii_lowercase)
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.s.get(self.pos + ahead).map(u8::to_ascii_lowercase)
    }

    fn skip_ws(&mut self) {
        while self.s.get(self.pos).is_some_and(|&b| is_ws(b)) {
            self.pos += 1;
        }
    }

    fn column(&self, pos: usize) -> usize {
        self.text[..pos.min(self.text.len())].chars().count() + 1
    }

    fn unexpected(&self, expected: &'static str) -> DiceError {
        let found = self.text[self.pos.min(self.text.len())..]
            .chars()
            .next()
            .map(String::from)
            .unwrap_or_default();
        DiceError::Unexpected {
            column: self.column(self.pos),
            found,
            expected,
        }
    }

    fn push(&mut self, kind: Kind) -> NodeId {
        // At most 200 characters: never near u16::MAX nodes.
        self.expr.nodes.push(Node { kind, note: None });
        (self.expr.nodes.len() - 1) as NodeId
    }

    fn deeper(&mut self) -> Result<(), DiceError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(DiceError::TooDeep);
        }
        Ok(())
    }

    fn comparison(&mut self) -> Result<NodeId, DiceError> {
        let mut left = self.additive()?;
        loop {
            self.skip_ws();
            let (op, len) = match (self.peek(), self.peek_at(1)) {
                (Some(b'='), Some(b'=')) => (BinOp::Eq, 2),
                (Some(b'!'), Some(b'=')) => (BinOp::Ne, 2),
                (Some(b'<'), Some(b'=')) => (BinOp::Le, 2),
                (Some(b'>'), Some(b'=')) => (BinOp::Ge, 2),
                (Some(b'<'), _) => (BinOp::Lt, 1),
                (Some(b'>'), _) => (BinOp::Gt, 1),
                _ => return Ok(left),
            };
            self.pos += len;
            let right = self.additive()?;
            left = self.push(Kind::Bin(op, left, right));
        }
    }

    fn additive(&mut self) -> Result<NodeId, DiceError> {
        let mut left = self.term()?;
        loop {
            self.skip_ws();
            let op = match self.peek() {
                Some(b'+') => BinOp::Add,
                Some(b'-') => BinOp::Sub,
                _ => return Ok(left),
            };
            self.pos += 1;
            let right = self.term()?;
            left = self.push(Kind::Bin(op, left, right));
        }
    }

    fn term(&mut self) -> Result<NodeId, DiceError> {
        let mut left = self.unary()?;
        loop {
            self.skip_ws();
            let (op, len) = match (self.peek(), self.peek_at(1)) {
                (Some(b'*'), _) => (BinOp::Mul, 1),
                (Some(b'/'), Some(b'/')) => (BinOp::FloorDiv, 2),
                (Some(b'/'), _) => (BinOp::Div, 1),
                (Some(b'%'), _) => (BinOp::Rem, 1),
                _ => return Ok(left),
            };
            self.pos += len;
            let right = self.unary()?;
            left = self.push(Kind::Bin(op, left, right));
        }
    }

    fn unary(&mut self) -> Result<NodeId, DiceError> {
        self.skip_ws();
        let neg = match self.peek() {
            Some(b'-') => true,
            Some(b'+') => false,
            _ => return self.atom(),
        };
        self.pos += 1;
        self.deeper()?;
        let inner = self.unary()?;
        self.depth -= 1;
        Ok(self.push(if neg { Kind::Neg(inner) } else { Kind::Pos(inner) }))
    }

    /// Digits at the cursor, if any (`None` when there are none).
    fn number(&mut self, what: &'static str, max: u64) -> Result<Option<u64>, DiceError> {
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(b) = self.s.get(self.pos).copied().filter(u8::is_ascii_digit) {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(b - b'0')))
                .filter(|v| *v <= max)
                .ok_or(DiceError::TooLarge { what, max })?;
            self.pos += 1;
        }
        if self.pos == start {
            return Ok(None);
        }
        if self.peek() == Some(b'.') && self.peek_at(1).is_some_and(|b| b.is_ascii_digit()) {
            return Err(DiceError::Decimal {
                column: self.column(start),
            });
        }
        Ok(Some(value))
    }

    /// A word (`adv`, `dis`) at the cursor, ending at a non-letter.
    fn word_is(&self, word: &str) -> bool {
        let end = self.pos + word.len();
        self.s.len() >= end
            && self.s[self.pos..end].eq_ignore_ascii_case(word.as_bytes())
            && !self.s.get(end).is_some_and(u8::is_ascii_alphabetic)
    }

    fn atom(&mut self) -> Result<NodeId, DiceError> {
        self.skip_ws();
        let node = match self.peek() {
            Some(b'0'..=b'9') => {
                let n = self.number("a number", i64::MAX as u64)?.unwrap_or(0);
                if self.peek() == Some(b'd') && !self.word_is("dis") {
                    self.pos += 1;
                    self.dice(n)?
                } else {
                    self.push(Kind::Number(n as i64))
                }
            }
            Some(b'a') if self.word_is("adv") => {
                self.pos += 3;
                self.advantage(Cat::Highest)?
            }
            Some(b'd') if self.word_is("dis") => {
                self.pos += 3;
                self.advantage(Cat::Lowest)?
            }
            Some(b'd') => {
                self.pos += 1;
                self.dice(1)?
            }
            Some(b'(') => self.set()?,
            Some(b'.') if self.peek_at(1).is_some_and(|b| b.is_ascii_digit()) => {
                return Err(DiceError::Decimal {
                    column: self.column(self.pos),
                });
            }
            _ => return Err(self.unexpected("a number, a die (d20) or \"(\"")),
        };
        self.annotations(node)?;
        Ok(node)
    }

    fn annotations(&mut self, node: NodeId) -> Result<(), DiceError> {
        let mut span: Option<(u16, u16)> = None;
        loop {
            let before = self.pos;
            self.skip_ws();
            if self.peek() != Some(b'[') {
                self.pos = before;
                break;
            }
            let open = self.pos;
            let close = self.s[open..]
                .iter()
                .position(|&b| b == b']')
                .ok_or(DiceError::UnclosedAnnotation {
                    column: self.column(open),
                })?;
            self.pos = open + close + 1;
            let start = span.map_or(open as u16, |n| n.0);
            span = Some((start, self.pos as u16));
        }
        if span.is_some() {
            self.expr.nodes[usize::from(node)].note = span;
        }
        Ok(())
    }

    fn count_dice(&mut self, count: u64) -> Result<(), DiceError> {
        let total = u64::from(self.expr.dice) + count;
        if total > u64::from(MAX_DICE) {
            return Err(DiceError::TooManyDice { dice: total });
        }
        self.expr.dice = total as u32;
        Ok(())
    }

    /// `adv` / `dis`: `2d20kh1` / `2d20kl1`.
    fn advantage(&mut self, cat: Cat) -> Result<NodeId, DiceError> {
        self.count_dice(2)?;
        let start = self.expr.ops.len() as u16;
        self.expr.sels.push(Sel {
            cat,
            num: 1,
            spelling: Spelling::Plain,
        });
        let s = self.expr.sels.len() as u16;
        self.expr.ops.push(SetOp {
            kind: OpKind::Keep,
            sels: Span { start: s - 1, end: s },
        });
        let ops = Span { start, end: start + 1 };
        Ok(self.push(Kind::Dice {
            count: 2,
            sides: 20,
            percent: false,
            ops,
        }))
    }

    /// After the `d`: sides, then operators.
    fn dice(&mut self, count: u64) -> Result<NodeId, DiceError> {
        let (sides, percent) = if self.peek() == Some(b'%') {
            self.pos += 1;
            (100, true)
        } else {
            match self.number("the number of sides", u64::from(MAX_SIDES))? {
                Some(0) => return Err(DiceError::Sides { sides: 0 }),
                Some(n) => (n as u32, false),
                None => return Err(self.unexpected("the number of sides (d20) or % after d")),
            }
        };
        if count > u64::from(MAX_DICE) {
            return Err(DiceError::TooManyDice { dice: count });
        }
        self.count_dice(count)?;
        let ops = self.ops(Some(sides))?;
        self.check_dice_ops(ops, sides, count, percent)?;
        Ok(self.push(Kind::Dice {
            count: count as u32,
            sides,
            percent,
            ops,
        }))
    }

    /// Refuses `rr` and `e` that every face matches (they would never stop), and a keep or
    /// drop that leaves no die of those asked for (`2d6dl2`).
    fn check_dice_ops(&self, ops: Span, sides: u32, count: u64, percent: bool) -> Result<(), DiceError> {
        let mut grows = false;
        for op in &self.expr.ops[ops.range()] {
            let selectors = &self.expr.sels[op.sels.range()];
            if let (false, [sel]) = (grows, selectors) {
                let n = u64::from(sel.num);
                let empties = match (op.kind, sel.cat) {
                    (OpKind::Keep, Cat::Highest | Cat::Lowest) => n == 0 && count > 0,
                    (OpKind::Drop, Cat::Highest | Cat::Lowest) => n >= count && count > 0,
                    _ => false,
                };
                if empties {
                    return Err(DiceError::LeavesNone {
                        op: if op.kind == OpKind::Keep { "keeping" } else { "dropping" },
                        n,
                        count,
                    });
                }
            }
            grows |= matches!(op.kind, OpKind::Explode | OpKind::RerollAdd);
            if !matches!(op.kind, OpKind::Reroll | OpKind::Explode) {
                continue;
            }
            if covers_every_face(selectors, sides, op.kind == OpKind::Reroll) {
                let die = if percent { "%".to_owned() } else { sides.to_string() };
                return Err(DiceError::NeverStops {
                    op: if op.kind == OpKind::Reroll {
                        "reroll (rr)"
                    } else {
                        "explosion"
                    },
                    dice: format!("{count}d{die}"),
                });
            }
        }
        Ok(())
    }

    /// Operators after dice (`dice`) or after a set's `)`.
    fn ops(&mut self, sides: Option<u32>) -> Result<Span, DiceError> {
        let start = self.expr.ops.len() as u16;
        loop {
            let (kind, cat, optional, spelling, len) = match (self.peek(), self.peek_at(1)) {
                (Some(b'k'), Some(b'h')) => (OpKind::Keep, Some(Cat::Highest), true, Spelling::Plain, 2),
                (Some(b'k'), Some(b'l')) => (OpKind::Keep, Some(Cat::Lowest), true, Spelling::Plain, 2),
                (Some(b'k'), _) => (OpKind::Keep, None, false, Spelling::Plain, 1),
                (Some(b'p'), _) => (OpKind::Drop, None, false, Spelling::Plain, 1),
                (Some(b'd'), Some(b'h')) => (OpKind::Drop, Some(Cat::Highest), true, Spelling::DropShort, 2),
                (Some(b'd'), Some(b'l')) => (OpKind::Drop, Some(Cat::Lowest), true, Spelling::DropShort, 2),
                (Some(b'r'), Some(b'r')) => (OpKind::Reroll, None, false, Spelling::Plain, 2),
                (Some(b'r'), Some(b'o')) => (OpKind::RerollOnce, None, false, Spelling::Plain, 2),
                (Some(b'r'), Some(b'a')) => (OpKind::RerollAdd, None, false, Spelling::Plain, 2),
                (Some(b'e'), _) => (OpKind::Explode, None, false, Spelling::Plain, 1),
                (Some(b'm'), Some(b'i')) => (OpKind::Min, None, false, Spelling::Plain, 2),
                (Some(b'm'), Some(b'a')) => (OpKind::Max, None, false, Spelling::Plain, 2),
                (Some(b'!'), next) if next != Some(b'=') => (OpKind::Explode, None, false, Spelling::Bang, 1),
                _ => break,
            };
            if sides.is_none() && !matches!(kind, OpKind::Keep | OpKind::Drop) {
                return Err(DiceError::DiceOnly { op: kind.symbol() });
            }
            self.pos += len;
            let sel = if spelling == Spelling::Bang {
                // On the highest face.
                Sel {
                    cat: Cat::Is,
                    num: sides.unwrap_or(0),
                    spelling,
                }
            } else {
                let cat = if let Some(cat) = cat {
                    cat
                } else {
                    let cat = match self.peek() {
                        Some(b'h') => Some(Cat::Highest),
                        Some(b'l') => Some(Cat::Lowest),
                        Some(b'<') => Some(Cat::Below),
                        Some(b'>') => Some(Cat::Above),
                        _ => None,
                    };
                    if cat.is_some() {
                        self.pos += 1;
                    }
                    cat.unwrap_or(Cat::Is)
                };
                if matches!(kind, OpKind::Min | OpKind::Max) && cat != Cat::Is {
                    return Err(DiceError::MinMaxSelector { op: kind.symbol() });
                }
                let num = match self.number("a selector's number", u64::from(MAX_SIDES))? {
                    Some(n) => n as u32,
                    None if optional => 1,
                    None => {
                        return Err(self.unexpected(match kind {
                            OpKind::Min | OpKind::Max => "a number after mi / ma",
                            _ => "a selector after the operator (e.g. kh3, rr1, e6, p<3)",
                        }));
                    }
                };
                Sel { cat, num, spelling }
            };
            self.expr.sels.push(sel);
            let s = self.expr.sels.len() as u16;
            // Consecutive uses of one operator merge (not mi / ma, which act at once).
            let merges = self.expr.ops.len() as u16 > start
                && self.expr.ops.last().is_some_and(|last| {
                    last.kind == kind && !matches!(kind, OpKind::Min | OpKind::Max) && last.sels.end == s - 1
                });
            if merges {
                self.expr.ops.last_mut().expect("checked").sels.end = s;
            } else {
                self.expr.ops.push(SetOp {
                    kind,
                    sels: Span { start: s - 1, end: s },
                });
            }
        }
        Ok(Span {
            start,
            end: self.expr.ops.len() as u16,
        })
    }

    fn set(&mut self) -> Result<NodeId, DiceError> {
        self.pos += 1; // (
        self.deeper()?;
        let base = self.members.len();
        let mut comma = false;
        self.skip_ws();
        if self.peek() != Some(b')') {
            loop {
                let member = self.comparison()?;
                self.members.push(member);
                self.skip_ws();
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        comma = true;
                        self.skip_ws();
                        if self.peek() == Some(b')') {
                            break;
                        }
                    }
                    Some(b')') => break,
                    _ => return Err(self.unexpected("\",\" or \")\"")),
                }
            }
        }
        self.pos += 1; // )
        self.depth -= 1;
        let ops = self.ops(None)?;
        if self.members.len() == base + 1 && !comma && ops.start == ops.end {
            let inner = self.members.pop().expect("one member");
            return Ok(self.push(Kind::Paren(inner)));
        }
        // As in d20, brackets around dice are only brackets: `(4d6)kh1` is `4d6kh1`, its keep
        // or drop acting on the dice (a set needs a comma: `(4d6,)kh1`).
        if self.members.len() == base + 1 && !comma {
            let inner = self.members[base];
            if let Some(dice) = self.bracketed_dice(inner, ops)? {
                self.members.pop();
                return Ok(self.push(Kind::Paren(dice)));
            }
        }
        let start = self.expr.items.len() as u16;
        self.expr.items.extend(self.members.drain(base..));
        let items = Span {
            start,
            end: self.expr.items.len() as u16,
        };
        Ok(self.push(Kind::Set { items, ops }))
    }

    /// Dice `inner` (inside any brackets) whose own operators end where the set operators
    /// `ops` begin, given those too (checked as the dice's own); `None` for anything else.
    fn bracketed_dice(&mut self, inner: NodeId, ops: Span) -> Result<Option<NodeId>, DiceError> {
        let mut id = inner;
        while let Kind::Paren(next) = self.expr.nodes[id as usize].kind {
            id = next;
        }
        let Kind::Dice {
            count,
            sides,
            percent,
            ops: own,
        } = self.expr.nodes[id as usize].kind
        else {
            return Ok(None);
        };
        if own.end != ops.start || self.expr.nodes[id as usize].note.is_some() {
            return Ok(None);
        }
        let all = Span {
            start: own.start,
            end: ops.end,
        };
        self.check_dice_ops(all, sides, u64::from(count), percent)?;
        self.expr.nodes[id as usize].kind = Kind::Dice {
            count,
            sides,
            percent,
            ops: all,
        };
        Ok(Some(inner))
    }

    /// After the expression: the end, or a comment (optionally led by `adv` / `dis`).
    fn trailer(&mut self) -> Result<(), DiceError> {
        self.skip_ws();
        if self.pos == self.s.len() {
            return Ok(());
        }
        let mut end = self.pos;
        while end > 0 && is_ws(self.s[end - 1]) {
            end -= 1;
        }
        let spaced = self.pos > end;
        let starts_term = matches!(
            (self.peek(), self.peek_at(1)),
            (Some(b'0'..=b'9' | b'('), _) | (Some(b'd'), Some(b'0'..=b'9' | b'%'))
        );
        let letter = self.peek().is_some_and(|b| b.is_ascii_alphabetic());
        if !spaced || !letter || starts_term {
            if starts_term {
                return Err(DiceError::Adjacent {
                    column: self.column(self.pos),
                });
            }
            return Err(self.unexpected(if spaced {
                "an operator (+ - * / …) or a comment that starts with a word"
            } else {
                "an operator (+ - * / …), a dice operator (kh, rr, e…) or the end"
            }));
        }
        self.expr.body_end = end;
        for (word, cat) in [("adv", Cat::Highest), ("dis", Cat::Lowest)] {
            if self.word_is(word) {
                self.pos += 3;
                self.leading_d20_to(cat, word)?;
                self.skip_ws();
                break;
            }
        }
        if self.pos < self.s.len() {
            self.expr.comment = Some((self.pos, self.s.len()));
        }
        Ok(())
    }

    /// `… adv` / `… dis`: the leftmost `1d20` becomes `2d20kh1` / `2d20kl1` (as in Avrae).
    fn leading_d20_to(&mut self, cat: Cat, word: &'static str) -> Result<(), DiceError> {
        let mut at = self.expr.root;
        loop {
            match self.expr.nodes[usize::from(at)].kind {
                Kind::Bin(_, left, _) => at = left,
                Kind::Dice {
                    count: 1,
                    sides: 20,
                    percent: false,
                    ops,
                } if ops.start == ops.end => break,
                _ => return Err(DiceError::AdvantageNeedsD20 { word }),
            }
        }
        self.count_dice(1)?;
        self.expr.sels.push(Sel {
            cat,
            num: 1,
            spelling: Spelling::Plain,
        });
        let s = self.expr.sels.len() as u16;
        self.expr.ops.push(SetOp {
            kind: OpKind::Keep,
            sels: Span { start: s - 1, end: s },
        });
        let o = self.expr.ops.len() as u16;
        self.expr.nodes[usize::from(at)].kind = Kind::Dice {
            count: 2,
            sides: 20,
            percent: false,
            ops: Span { start: o - 1, end: o },
        };
        Ok(())
    }
}

/// Whether the selectors match every face `1..=sides` of a fresh die (so `rr` or `e` never stops).
/// `rr` with a highest/lowest selector always finds a die to reroll; `e` with one does not
/// (an exploded die is not selected again).
pub(crate) fn covers_every_face(sels: &[Sel], sides: u32, reroll: bool) -> bool {
    let mut below = 1u32; // faces < below are covered
    let mut above = sides; // faces > above are covered
    for sel in sels {
        match sel.cat {
            Cat::Highest | Cat::Lowest if reroll && sel.num > 0 => return true,
            Cat::Below => below = below.max(sel.num.min(sides + 1)),
            Cat::Above => above = above.min(sel.num),
            _ => {}
        }
    }
    if below > above {
        return true;
    }
    // Every face in below..=above must be one of the exact selectors.
    let mut exact: Vec<u32> = sels
        .iter()
        .filter(|s| s.cat == Cat::Is)
        .map(|s| s.num)
        .filter(|n| (below..=above).contains(n))
        .collect();
    exact.sort_unstable();
    exact.dedup();
    exact.len() as u64 == u64::from(above - below) + 1
}
