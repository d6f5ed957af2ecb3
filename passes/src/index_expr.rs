//! Index expressions and their simplification by equality saturation (egg).
//!
//! Fusion composes index functions: a gather of a gather reads `xs[f(g(i))]`, and
//! `reverse ∘ reverse` becomes `n-1-(n-1-i)`. Simplifying the composition to `i` is what
//! lets a fused loop read in order and an identity gather disappear (DESIGN.md,
//! "egg is for equality saturation on element-level / index expressions"). The language
//! is integer arithmetic on `index` values: constants, symbols (loop indices and values
//! defined outside, such as extents), `+`, `-`, `*`.

use egg::{
    Analysis, AstSize, DidMerge, EGraph, Extractor, Id, RecExpr, Rewrite, Runner, Symbol, define_language,
    rewrite as rw,
};

define_language! {
    /// The index expression language.
    pub enum IndexLang {
        "+" = Add([Id; 2]),
        "-" = Sub([Id; 2]),
        "*" = Mul([Id; 2]),
        Num(i64),
        Symbol(Symbol),
    }
}

/// Constant folding, so that `(* -1 -1)` becomes `1` during saturation.
#[derive(Default)]
pub struct ConstantFold;

impl Analysis<IndexLang> for ConstantFold {
    type Data = Option<i64>;

    fn make(egraph: &mut EGraph<IndexLang, Self>, enode: &IndexLang) -> Self::Data {
        let c = |i: &Id| egraph[*i].data;
        match enode {
            IndexLang::Num(n) => Some(*n),
            IndexLang::Add([a, b]) => c(a)?.checked_add(c(b)?),
            IndexLang::Sub([a, b]) => c(a)?.checked_sub(c(b)?),
            IndexLang::Mul([a, b]) => c(a)?.checked_mul(c(b)?),
            IndexLang::Symbol(_) => None,
        }
    }

    fn merge(&mut self, to: &mut Self::Data, from: Self::Data) -> DidMerge {
        egg::merge_option(to, from, |a, b| {
            debug_assert_eq!(*a, b, "merged different constants");
            DidMerge(false, false)
        })
    }

    fn modify(egraph: &mut EGraph<IndexLang, Self>, id: Id) {
        if let Some(n) = egraph[id].data {
            let constant = egraph.add(IndexLang::Num(n));
            egraph.union(id, constant);
        }
    }
}

/// Ring identities of integer arithmetic (wrap-around never matters for in-bounds
/// indices): enough to cancel `n-1-(n-1-i)` and `(i+k)-k`.
fn rules() -> Vec<Rewrite<IndexLang, ConstantFold>> {
    vec![
        rw!("sub-to-add"; "(- ?a ?b)" => "(+ ?a (* -1 ?b))"),
        rw!("add-comm"; "(+ ?a ?b)" => "(+ ?b ?a)"),
        rw!("mul-comm"; "(* ?a ?b)" => "(* ?b ?a)"),
        rw!("add-assoc"; "(+ ?a (+ ?b ?c))" => "(+ (+ ?a ?b) ?c)"),
        rw!("mul-assoc"; "(* ?a (* ?b ?c))" => "(* (* ?a ?b) ?c)"),
        rw!("distribute"; "(* ?a (+ ?b ?c))" => "(+ (* ?a ?b) (* ?a ?c))"),
        rw!("add-zero"; "(+ ?a 0)" => "?a"),
        rw!("mul-one"; "(* ?a 1)" => "?a"),
        rw!("mul-zero"; "(* ?a 0)" => "0"),
        rw!("cancel"; "(+ ?a (* -1 ?a))" => "0"),
        rw!("cancel-inner"; "(+ (+ ?b ?a) (* -1 ?a))" => "?b"),
    ]
}

/// The smallest expression equal to `expr` found within a bounded saturation.
pub fn simplify(expr: &RecExpr<IndexLang>) -> RecExpr<IndexLang> {
    let runner = Runner::default().with_iter_limit(12).with_node_limit(20_000).with_expr(expr).run(&rules());
    let root = runner.roots[0];
    Extractor::new(&runner.egraph, AstSize).find_best(root).1
}

/// Builds expressions bottom-up: each call returns the id of the new node.
#[derive(Default, Clone, Debug)]
pub struct Builder {
    pub expr: RecExpr<IndexLang>,
}

impl Builder {
    pub fn num(&mut self, n: i64) -> Id {
        self.expr.add(IndexLang::Num(n))
    }
    pub fn symbol(&mut self, name: &str) -> Id {
        self.expr.add(IndexLang::Symbol(Symbol::from(name)))
    }
    pub fn add(&mut self, a: Id, b: Id) -> Id {
        self.expr.add(IndexLang::Add([a, b]))
    }
    pub fn sub(&mut self, a: Id, b: Id) -> Id {
        self.expr.add(IndexLang::Sub([a, b]))
    }
    pub fn mul(&mut self, a: Id, b: Id) -> Id {
        self.expr.add(IndexLang::Mul([a, b]))
    }
}

/// The expression rooted at `root` of `expr`, as its own `RecExpr`.
pub fn extract(expr: &RecExpr<IndexLang>, root: Id) -> RecExpr<IndexLang> {
    let mut out = RecExpr::default();
    fn go(expr: &RecExpr<IndexLang>, id: Id, out: &mut RecExpr<IndexLang>) -> Id {
        let node = expr[id].clone();
        let node = match node {
            IndexLang::Add([a, b]) => IndexLang::Add([go(expr, a, out), go(expr, b, out)]),
            IndexLang::Sub([a, b]) => IndexLang::Sub([go(expr, a, out), go(expr, b, out)]),
            IndexLang::Mul([a, b]) => IndexLang::Mul([go(expr, a, out), go(expr, b, out)]),
            leaf => leaf,
        };
        out.add(node)
    }
    go(expr, root, &mut out);
    out
}

/// Substitution of symbols, for composing index functions.
pub trait RecExprExt {
    /// `self` with every symbol `{prefix}{t}` replaced by `replacements[t]`.
    fn substitute_prefix(&self, prefix: &str, replacements: &[RecExpr<IndexLang>]) -> RecExpr<IndexLang>;
}

impl RecExprExt for RecExpr<IndexLang> {
    fn substitute_prefix(&self, prefix: &str, replacements: &[RecExpr<IndexLang>]) -> RecExpr<IndexLang> {
        let mut out = RecExpr::default();
        // Copies `from` (rooted at its last node) into `out`, returning the new root.
        fn copy(from: &RecExpr<IndexLang>, id: Id, out: &mut RecExpr<IndexLang>) -> Id {
            let node = match from[id].clone() {
                IndexLang::Add([a, b]) => IndexLang::Add([copy(from, a, out), copy(from, b, out)]),
                IndexLang::Sub([a, b]) => IndexLang::Sub([copy(from, a, out), copy(from, b, out)]),
                IndexLang::Mul([a, b]) => IndexLang::Mul([copy(from, a, out), copy(from, b, out)]),
                leaf => leaf,
            };
            out.add(node)
        }
        fn go(
            expr: &RecExpr<IndexLang>,
            id: Id,
            prefix: &str,
            replacements: &[RecExpr<IndexLang>],
            out: &mut RecExpr<IndexLang>,
        ) -> Id {
            let node = match expr[id].clone() {
                IndexLang::Symbol(s) => {
                    let index = s.as_str().strip_prefix(prefix).and_then(|t| t.parse::<usize>().ok());
                    match index.and_then(|t| replacements.get(t)) {
                        Some(r) if !r.as_ref().is_empty() => {
                            return copy(r, Id::from(r.as_ref().len() - 1), out);
                        }
                        _ => IndexLang::Symbol(s),
                    }
                }
                IndexLang::Add([a, b]) => {
                    IndexLang::Add([go(expr, a, prefix, replacements, out), go(expr, b, prefix, replacements, out)])
                }
                IndexLang::Sub([a, b]) => {
                    IndexLang::Sub([go(expr, a, prefix, replacements, out), go(expr, b, prefix, replacements, out)])
                }
                IndexLang::Mul([a, b]) => {
                    IndexLang::Mul([go(expr, a, prefix, replacements, out), go(expr, b, prefix, replacements, out)])
                }
                leaf => leaf,
            };
            out.add(node)
        }
        if !self.as_ref().is_empty() {
            go(self, Id::from(self.as_ref().len() - 1), prefix, replacements, &mut out);
        }
        out
    }
}

/// Whether `expr` simplifies to exactly the symbol `name`.
pub fn is_symbol(expr: &RecExpr<IndexLang>, name: &str) -> bool {
    let simple = simplify(expr);
    simple.as_ref().len() == 1 && matches!(&simple.as_ref()[0], IndexLang::Symbol(s) if s.as_str() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> RecExpr<IndexLang> {
        s.parse().unwrap()
    }

    #[test]
    fn reverse_of_reverse_is_the_identity() {
        // seed 000 §2: reverse reads n-i-1; twice: n-(n-i-1)-1.
        assert!(is_symbol(&parse("(- (- n (- (- n i) 1)) 1)"), "i"));
        assert_eq!(simplify(&parse("(- (- n (- (- n i) 1)) 1)")).to_string(), "i");
    }

    #[test]
    fn shifts_cancel_and_constants_fold() {
        assert!(is_symbol(&parse("(- (+ i 3) 3)"), "i"));
        assert_eq!(simplify(&parse("(* (+ 2 3) (- 7 5))")).to_string(), "10");
        assert!(is_symbol(&parse("(+ (* 1 j) (* 0 k))"), "j"));
    }

    #[test]
    fn different_expressions_stay_different() {
        // A reverse of a shift is not the identity.
        assert!(!is_symbol(&parse("(- (- n (+ i 1)) 1)"), "i"));
        assert!(!is_symbol(&parse("(* 2 i)"), "i"));
        assert!(!is_symbol(&parse("j"), "i"));
    }

    #[test]
    fn composition_by_substitution() {
        // outer: i -> n-1-i ; inner: p -> n-1-p ; composed: n-1-(n-1-i) = i.
        let outer = vec![parse("(- (- n 1) i0)")];
        let inner = parse("(- (- n 1) p0)");
        let composed = inner.substitute_prefix("p", &outer);
        assert_eq!(composed.to_string(), "(- (- n 1) (- (- n 1) i0))");
        assert!(is_symbol(&composed, "i0"));
    }

    #[test]
    fn builder_and_extract_round_trip() {
        let mut b = Builder::default();
        let n = b.symbol("n");
        let i = b.symbol("i");
        let one = b.num(1);
        let t = b.sub(n, i);
        let r = b.sub(t, one);
        let sub = extract(&b.expr, r);
        assert_eq!(sub.to_string(), "(- (- n i) 1)");
    }
}
