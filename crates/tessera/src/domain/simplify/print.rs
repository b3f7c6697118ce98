//! Printing: the canonical order of terms and factors, and the `Display` of polynomials and
//! predicates (the strings the reference fixtures compare with).

use super::*;
use std::fmt;

pub(super) fn var_key(v: &str) -> (String, String) {
    (v.to_lowercase(), v.to_string())
}

/// Variables in printing order, lowercased (the ordering key of terms and factors).
pub(super) fn atom_vars(a: &Atom, out: &mut Vec<String>) {
    match a {
        Atom::Var(v) => out.push(v.to_lowercase()),
        Atom::Div(x, y) | Atom::Mod(x, y) | Atom::CeilDiv(x, y) | Atom::Gcd(x, y) => {
            poly_vars(x, out);
            poly_vars(y, out);
        }
        Atom::Max(xs) | Atom::Min(xs) => xs.iter().for_each(|x| poly_vars(x, out)),
        Atom::Abs(x) => poly_vars(x, out),
    }
}

pub(super) fn poly_vars(p: &Poly, out: &mut Vec<String>) {
    for (atoms, _) in sorted_terms(p) {
        for a in ordered_factors(&atoms) {
            atom_vars(&a, out);
        }
    }
}

pub(super) fn ordered_factors(atoms: &[Atom]) -> Vec<Atom> {
    let mut compound: Vec<Atom> = atoms
        .iter()
        .filter(|a| !matches!(a, Atom::Var(_)))
        .cloned()
        .collect();
    compound.sort_by_key(|a| {
        let mut v = Vec::new();
        atom_vars(a, &mut v);
        (v, a.clone())
    });
    let mut vars: Vec<Atom> = atoms
        .iter()
        .filter(|a| matches!(a, Atom::Var(_)))
        .cloned()
        .collect();
    vars.sort_by_key(|a| match a {
        Atom::Var(v) => var_key(v),
        _ => (String::new(), String::new()),
    });
    compound.extend(vars);
    compound
}

pub(super) fn sorted_terms(p: &Poly) -> Vec<Mono> {
    let mut ts: Vec<Mono> = p.terms.iter().map(|(a, c)| (a.clone(), *c)).collect();
    ts.sort_by_key(|(atoms, _)| {
        let mut v = Vec::new();
        for a in ordered_factors(atoms) {
            atom_vars(&a, &mut v);
        }
        (atoms.is_empty(), v, atoms.clone())
    });
    ts
}

pub(super) fn is_function(a: &Atom) -> bool {
    matches!(
        a,
        Atom::CeilDiv(..) | Atom::Gcd(..) | Atom::Max(_) | Atom::Min(_) | Atom::Abs(_)
    )
}

/// An operand of `/` or `%`: bare if a variable, a non-negative constant or a function call.
pub(super) fn operand(p: &Poly) -> String {
    let bare = match (p.as_const(), p.as_atom()) {
        (Some(c), _) => c >= 0,
        (_, Some(a)) => matches!(a, Atom::Var(_)) || is_function(a),
        _ => false,
    };
    if bare {
        p.to_string()
    } else {
        format!("({p})")
    }
}

pub(super) fn atom_str(a: &Atom, in_product: bool) -> String {
    let list = |xs: &[Poly]| {
        xs.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match a {
        Atom::Var(v) => v.clone(),
        Atom::Div(x, y) | Atom::Mod(x, y) => {
            let op = if matches!(a, Atom::Div(..)) { "/" } else { "%" };
            let s = format!("{} {op} {}", operand(x), operand(y));
            if in_product {
                format!("({s})")
            } else {
                s
            }
        }
        Atom::CeilDiv(x, y) => format!("cdiv({x}, {y})"),
        Atom::Gcd(x, y) => format!("gcd({x}, {y})"),
        Atom::Max(xs) => format!("max({})", list(xs)),
        Atom::Min(xs) => format!("min({})", list(xs)),
        Atom::Abs(x) => format!("abs({x})"),
    }
}

/// A monomial with a positive coefficient `c`.
pub(super) fn mono_str(atoms: &[Atom], c: u64) -> String {
    let factors = ordered_factors(atoms);
    let compound: Vec<&Atom> = factors
        .iter()
        .filter(|a| !matches!(a, Atom::Var(_)))
        .collect();
    let mut plain: Vec<String> = Vec::new();
    if c != 1 || factors.is_empty() {
        plain.push(c.to_string());
    }
    plain.extend(
        factors
            .iter()
            .filter(|a| matches!(a, Atom::Var(_)))
            .map(|a| atom_str(a, false)),
    );
    if compound.is_empty() {
        return plain.join(" * ");
    }
    let many = compound.len() + usize::from(!plain.is_empty()) > 1;
    let mut parts: Vec<String> = compound.iter().map(|a| atom_str(a, many)).collect();
    match plain.len() {
        0 => {}
        1 => parts.push(plain.remove(0)),
        _ => parts.push(format!("({})", plain.join(" * "))),
    }
    parts.join(" * ")
}

impl fmt::Display for Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ts = sorted_terms(self);
        if ts.is_empty() {
            return f.write_str("0");
        }
        for (i, (atoms, c)) in ts.iter().enumerate() {
            let body = mono_str(atoms, c.unsigned_abs());
            match (i, *c < 0) {
                (0, true) => write!(f, "-{body}")?,
                (0, false) => f.write_str(&body)?,
                (_, true) => write!(f, " - {body}")?,
                (_, false) => write!(f, " + {body}")?,
            }
        }
        Ok(())
    }
}

impl fmt::Display for CPred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CPred::Bool(b) => write!(f, "{b}"),
            CPred::Cmp(a, op, b) => write!(f, "{a} {} {b}", op.symbol()),
            CPred::And(ps) => {
                let parts: Vec<String> = ps.iter().map(|p| p.to_string()).collect();
                f.write_str(&parts.join(" && "))
            }
        }
    }
}
