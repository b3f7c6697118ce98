//! Linear layouts as text: the one-line text form (printer and parser, documented in
//! `docs/banks.md`) and JSON.

use super::*;

impl LinearLayout {
    /// JSON: `{"in_dims":[{"name":…,"bases":[[…],…]}],"out_dims":[{"name":…,"size":…}]}`.
    ///
    /// Pre: none. Post: compact JSON (serde), keys in that order. Example: the identity on 2
    /// gives `{"in_dims":[{"name":"a","bases":[[1]]}],"out_dims":[{"name":"b","size":2}]}`.
    pub fn to_json(&self) -> String {
        let ins: Vec<serde_json::Value> = self
            .ins
            .iter()
            .map(|d| {
                let bases: Vec<Vec<u64>> = d.bases.iter().map(|&b| self.split_out(b)).collect();
                serde_json::json!({"name": d.name, "bases": bases})
            })
            .collect();
        let outs: Vec<serde_json::Value> = self
            .outs
            .iter()
            .map(|d| serde_json::json!({"name": d.name, "size": 1u64 << d.bits}))
            .collect();
        serde_json::json!({"in_dims": ins, "out_dims": outs}).to_string()
    }

    /// Parses the text form (see the module documentation).
    ///
    /// Pre: well-formed text. Post: `parse(l.to_string()) == l`.
    pub fn parse(text: &str) -> LResult<LinearLayout> {
        Parser {
            s: text.as_bytes(),
            i: 0,
        }
        .layout()
    }
}

impl std::fmt::Display for LinearLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (k, d) in self.ins.iter().enumerate() {
            if k > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{} = [", d.name)?;
            for (i, &b) in d.bases.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                let parts: Vec<String> = self.split_out(b).iter().map(|e| e.to_string()).collect();
                write!(f, "[{}]", parts.join(", "))?;
            }
            write!(f, "]")?;
        }
        write!(f, " ->")?;
        for (k, d) in self.outs.iter().enumerate() {
            write!(
                f,
                "{} {} = {}",
                if k > 0 { "," } else { "" },
                d.name,
                1u64 << d.bits
            )?;
        }
        Ok(())
    }
}

impl std::str::FromStr for LinearLayout {
    type Err = LinearError;
    fn from_str(s: &str) -> LResult<Self> {
        LinearLayout::parse(s)
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn err<T>(&self, m: &str) -> LResult<T> {
        Err(LinearError::Parse {
            column: self.i + 1,
            message: m.into(),
        })
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) -> LResult<()> {
        if self.eat(c) {
            Ok(())
        } else {
            self.err(&format!("expected `{}`", c as char))
        }
    }
    fn name(&mut self) -> LResult<String> {
        self.ws();
        let st = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_')
        {
            self.i += 1;
        }
        if st == self.i {
            return self.err("expected a dimension name");
        }
        Ok(String::from_utf8_lossy(&self.s[st..self.i]).into_owned())
    }
    fn num(&mut self) -> LResult<u64> {
        self.ws();
        let st = self.i;
        let mut v: u64 = 0;
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            v = match v
                .checked_mul(10)
                .and_then(|v| v.checked_add((self.s[self.i] - b'0') as u64))
            {
                Some(v) => v,
                None => return self.err("number too large"),
            };
            self.i += 1;
        }
        if st == self.i {
            return self.err("expected a number");
        }
        Ok(v)
    }
    fn layout(&mut self) -> LResult<LinearLayout> {
        let mut ins: Vec<(String, Vec<Vec<u64>>)> = Vec::new();
        let mut col = Vec::new();
        loop {
            self.ws();
            if self.s[self.i..].starts_with(b"->") {
                break;
            }
            let n = self.name()?;
            self.expect(b'=')?;
            self.expect(b'[')?;
            let mut bases = Vec::new();
            if !self.eat(b']') {
                loop {
                    col.push(self.i + 1);
                    self.expect(b'[')?;
                    let mut b = Vec::new();
                    if !self.eat(b']') {
                        loop {
                            b.push(self.num()?);
                            if self.eat(b']') {
                                break;
                            }
                            self.expect(b',')?;
                        }
                    }
                    bases.push(b);
                    if bases.len() > MAX_BITS as usize {
                        return self.err("too many bases");
                    }
                    if self.eat(b']') {
                        break;
                    }
                    self.expect(b',')?;
                }
            }
            ins.push((n, bases));
            if !self.eat(b',') {
                self.ws();
                if !self.s[self.i..].starts_with(b"->") {
                    return self.err("expected `,` or `->`");
                }
            }
        }
        self.i += 2;
        let mut outs = Vec::new();
        loop {
            let n = self.name()?;
            self.expect(b'=')?;
            let v = self.num()?;
            outs.push((n, v));
            if !self.eat(b',') {
                break;
            }
        }
        self.ws();
        if self.i != self.s.len() {
            return self.err("unexpected text after the layout");
        }
        let ins_ref: Vec<(&str, Vec<Vec<u64>>)> =
            ins.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
        let outs_ref: Vec<(&str, u64)> = outs.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        LinearLayout::new(&ins_ref, &outs_ref)
    }
}
