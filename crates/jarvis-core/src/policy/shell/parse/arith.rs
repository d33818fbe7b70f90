//! Bash integer arithmetic, evaluated statically where every operand is a
//! literal or a variable the line gave a number: `$((0x1cfc))` is 7420,
//! `${a[i]}` with `i=$((2-1))` is the second element. Anything that assigns
//! (`i++`, `n=3`) or reads what the analyser does not know is left alone.

/// The value of `expr`, or `None` when it cannot be known statically.
/// `var` gives a variable's text (`#` is the count of positional words).
pub(super) fn eval(expr: &str, var: &dyn Fn(&str) -> Option<String>) -> Option<i64> {
    let toks = tokens(expr)?;
    let budget = std::cell::Cell::new(MAX_STEPS);
    let mut p = Parser {
        toks,
        at: 0,
        var,
        depth: 0,
        nesting: 0,
        budget: &budget,
    };
    let v = p.ternary()?;
    (p.at == p.toks.len()).then_some(v)
}

/// Past these, an expression is not worked out (nested too deep for the
/// stack, or variables expanding into too much work).
const MAX_NESTING: usize = 64;
const MAX_STEPS: usize = 10_000;

/// Whether `expr` assigns (`i++`, `n=3`, `i+=1`): the variables in it then
/// change when the shell evaluates it.
pub(super) fn assigns_anything(expr: &str) -> bool {
    let b: Vec<char> = expr.chars().collect();
    (0..b.len()).any(|i| {
        let rest: String = b[i..b.len().min(i + 3)].iter().collect();
        let after_op = i > 0 && "=<>!+-*/%&|^".contains(b[i - 1]);
        rest.starts_with("++") || rest.starts_with("--") || (!after_op && assigns(&rest))
    })
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(i64),
    Name(String),
    Op(&'static str),
}

const OPS: &[&str] = &[
    "**", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "<", ">", "&",
    "|", "^", "!", "~", "(", ")", "?", ":",
];

fn tokens(s: &str) -> Option<Vec<Tok>> {
    let b: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        // Assignments and increments change variables: not evaluated.
        let rest: String = b[i..b.len().min(i + 3)].iter().collect();
        if rest.starts_with("++") || rest.starts_with("--") || assigns(&rest) {
            return None;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == '#' || b[i] == '_') {
                i += 1;
            }
            out.push(Tok::Num(number(&b[start..i].iter().collect::<String>())?));
            continue;
        }
        if c == '$' || c.is_ascii_alphabetic() || c == '_' {
            let mut j = i + usize::from(c == '$');
            let braced = b.get(j) == Some(&'{');
            j += usize::from(braced);
            let start = j;
            if b.get(j) == Some(&'#') {
                j += 1;
            } else {
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == '_') {
                    j += 1;
                }
            }
            if j == start {
                return None;
            }
            out.push(Tok::Name(b[start..j].iter().collect()));
            if braced {
                if b.get(j) != Some(&'}') {
                    return None;
                }
                j += 1;
            }
            i = j;
            continue;
        }
        let op = OPS.iter().find(|op| {
            let n = op.chars().count();
            b.len() >= i + n && b[i..i + n].iter().copied().eq(op.chars())
        })?;
        out.push(Tok::Op(op));
        i += op.chars().count();
    }
    Some(out)
}

/// `=`, `+=`, `<<=`… but not `==`, `<=`, `>=`, `!=`.
fn assigns(s: &str) -> bool {
    let c: Vec<char> = s.chars().collect();
    match c.as_slice() {
        ['=', '=', ..] => false,
        ['=', ..] => true,
        [a, '=', ..] if "+-*/%&|^".contains(*a) => true,
        ['<', '<', '='] | ['>', '>', '='] => true,
        _ => false,
    }
}

/// `42`, `0x1F`, `017` (octal), `2#101`, `36#z`.
fn number(t: &str) -> Option<i64> {
    if let Some((base, digits)) = t.split_once('#') {
        let base: u32 = base.parse().ok()?;
        if !(2..=36).contains(&base) {
            return None;
        }
        return i64::from_str_radix(digits, base).ok();
    }
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return i64::from_str_radix(h, 16).ok();
    }
    if t.len() > 1 && t.starts_with('0') {
        return i64::from_str_radix(&t[1..], 8).ok();
    }
    t.parse().ok()
}

struct Parser<'a> {
    toks: Vec<Tok>,
    at: usize,
    var: &'a dyn Fn(&str) -> Option<String>,
    depth: usize,
    /// Unary operators, parentheses and `?:` open now.
    nesting: usize,
    /// Steps left for the whole expression, its variables included.
    budget: &'a std::cell::Cell<usize>,
}

/// Binary operators by precedence, loosest first (bash's table).
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["|"],
    &["^"],
    &["&"],
    &["==", "!="],
    &["<", ">", "<=", ">="],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Parser<'_> {
    fn peek_op(&self) -> Option<&'static str> {
        match self.toks.get(self.at) {
            Some(Tok::Op(o)) => Some(o),
            _ => None,
        }
    }

    /// One more step and one more level open, or `None` past the limits.
    fn enter(&mut self) -> Option<()> {
        let left = self.budget.get().checked_sub(1)?;
        self.budget.set(left);
        self.nesting += 1;
        (self.nesting <= MAX_NESTING).then_some(())
    }

    fn ternary(&mut self) -> Option<i64> {
        self.enter()?;
        let v = self.ternary_inner();
        self.nesting -= 1;
        v
    }

    fn ternary_inner(&mut self) -> Option<i64> {
        let c = self.binary(0)?;
        if self.peek_op() != Some("?") {
            return Some(c);
        }
        self.at += 1;
        let a = self.ternary()?;
        if self.peek_op() != Some(":") {
            return None;
        }
        self.at += 1;
        let b = self.ternary()?;
        Some(if c != 0 { a } else { b })
    }

    fn binary(&mut self, level: usize) -> Option<i64> {
        if level == LEVELS.len() {
            return self.power();
        }
        let mut l = self.binary(level + 1)?;
        while let Some(op) = self.peek_op().filter(|o| LEVELS[level].contains(o)) {
            self.at += 1;
            let r = self.binary(level + 1)?;
            l = apply(op, l, r)?;
        }
        Some(l)
    }

    /// `**` binds tighter than `*` and to the right.
    fn power(&mut self) -> Option<i64> {
        let base = self.unary()?;
        if self.peek_op() != Some("**") {
            return Some(base);
        }
        self.at += 1;
        let exp = self.power()?;
        base.checked_pow(u32::try_from(exp).ok()?)
    }

    fn unary(&mut self) -> Option<i64> {
        self.enter()?;
        let v = self.unary_inner();
        self.nesting -= 1;
        v
    }

    fn unary_inner(&mut self) -> Option<i64> {
        match self.toks.get(self.at).cloned()? {
            Tok::Op(o @ ("-" | "+" | "!" | "~")) => {
                self.at += 1;
                let v = self.unary()?;
                Some(match o {
                    "-" => v.checked_neg()?,
                    "+" => v,
                    "!" => i64::from(v == 0),
                    _ => !v,
                })
            }
            Tok::Op("(") => {
                self.at += 1;
                let v = self.ternary()?;
                if self.peek_op() != Some(")") {
                    return None;
                }
                self.at += 1;
                Some(v)
            }
            Tok::Num(n) => {
                self.at += 1;
                Some(n)
            }
            Tok::Name(name) => {
                self.at += 1;
                let text = (self.var)(&name)?;
                let text = text.trim();
                if text.is_empty() {
                    // An empty or unset variable is 0 in arithmetic; the
                    // analyser only knows "empty" for values it was given.
                    return Some(0);
                }
                // A variable's value is itself an expression (`a=b+1`).
                if self.depth > 8 {
                    return None;
                }
                let toks = tokens(text)?;
                let mut inner = Parser {
                    toks,
                    at: 0,
                    var: self.var,
                    depth: self.depth + 1,
                    nesting: self.nesting,
                    budget: self.budget,
                };
                let v = inner.ternary()?;
                (inner.at == inner.toks.len()).then_some(v)
            }
            Tok::Op(_) => None,
        }
    }
}

fn apply(op: &str, l: i64, r: i64) -> Option<i64> {
    Some(match op {
        "||" => i64::from(l != 0 || r != 0),
        "&&" => i64::from(l != 0 && r != 0),
        "|" => l | r,
        "^" => l ^ r,
        "&" => l & r,
        "==" => i64::from(l == r),
        "!=" => i64::from(l != r),
        "<" => i64::from(l < r),
        ">" => i64::from(l > r),
        "<=" => i64::from(l <= r),
        ">=" => i64::from(l >= r),
        "<<" => l.checked_shl(u32::try_from(r).ok()?)?,
        ">>" => l.checked_shr(u32::try_from(r).ok()?)?,
        "+" => l.checked_add(r)?,
        "-" => l.checked_sub(r)?,
        "*" => l.checked_mul(r)?,
        "/" => l.checked_div(r)?,
        "%" => l.checked_rem(r)?,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::eval;

    fn known(name: &str) -> Option<String> {
        match name {
            "i" => Some("2".into()),
            "j" => Some("i*3".into()),
            "#" => Some("1".into()),
            _ => None,
        }
    }

    #[test]
    fn evaluates_what_bash_does() {
        let cases = [
            ("0x1cfc", Some(7420)),
            ("7000 + 420", Some(7420)),
            ("2#1110011111100", Some(7420)),
            ("017", Some(15)),
            ("2 ** 3 ** 2", Some(512)),
            ("-2 + 3 * 4", Some(10)),
            ("(1 + 2) * 3 % 4", Some(1)),
            ("i - 1", Some(1)),
            ("$i + ${i}", Some(4)),
            ("j + 1", Some(7)),
            ("$#", Some(1)),
            ("1 < 2 ? 10 : 20", Some(10)),
            ("1 << 4 | 1", Some(17)),
            ("!0 && ~0", Some(1)),
        ];
        for (e, want) in cases {
            assert_eq!(eval(e, &known), want, "{e}");
        }
    }

    #[test]
    fn deep_or_wide_expressions_are_left_not_overflowed() {
        let deep = format!("{}1", "!".repeat(100_000));
        assert_eq!(eval(&deep, &known), None);
        let parens = format!("{}1{}", "(".repeat(50_000), ")".repeat(50_000));
        assert_eq!(eval(&parens, &known), None);
        let wide = |name: &str| match name {
            "z" => Some("1".to_string()),
            n if n.starts_with('v') => {
                let k: usize = n[1..].parse().ok()?;
                let below = if k == 0 {
                    "z".to_string()
                } else {
                    format!("v{}", k - 1)
                };
                Some(vec![below; 10].join("+"))
            }
            _ => None,
        };
        assert_eq!(eval("v8", &wide), None);
    }

    #[test]
    fn leaves_what_it_cannot_know() {
        for e in [
            "unknown + 1",
            "i++",
            "n = 3",
            "i += 1",
            "1 / 0",
            "2 ** -1",
            "(1 + 2",
            "$(id)",
            "a[0]",
        ] {
            assert_eq!(eval(e, &known), None, "{e}");
        }
    }
}
