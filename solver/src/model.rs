//! The solver-neutral model: variables with bounds, linear rows, a linear objective.

/// Index of a variable in its [`Model`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub usize);

/// Domain of a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    Continuous,
    Integer,
    Binary,
}

/// One variable: a unique name (used in LP files and diagnostics), its kind and bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    pub name: String,
    pub kind: VarKind,
    pub lower: f64,
    pub upper: f64,
}

/// One linear row `lower <= sum(coef * var) <= upper` (either side may be infinite).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub name: String,
    pub terms: Vec<(VarId, f64)>,
    pub lower: f64,
    pub upper: f64,
}

/// Direction of optimisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sense {
    Minimize,
    Maximize,
}

/// A mixed-integer linear program.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub name: String,
    pub sense: Sense,
    pub variables: Vec<Variable>,
    pub rows: Vec<Row>,
    /// Sparse objective coefficients, in insertion order.
    pub objective: Vec<(VarId, f64)>,
}

impl Model {
    pub fn new(name: impl Into<String>, sense: Sense) -> Self {
        Self { name: name.into(), sense, variables: Vec::new(), rows: Vec::new(), objective: Vec::new() }
    }

    /// Adds a variable; names must be unique within the model.
    pub fn add_variable(&mut self, name: impl Into<String>, kind: VarKind, lower: f64, upper: f64) -> VarId {
        let (lower, upper) = match kind {
            VarKind::Binary => (lower.max(0.0), upper.min(1.0)),
            _ => (lower, upper),
        };
        self.variables.push(Variable { name: name.into(), kind, lower, upper });
        VarId(self.variables.len() - 1)
    }

    /// Adds the row `lower <= terms <= upper`.
    pub fn add_row(&mut self, name: impl Into<String>, terms: Vec<(VarId, f64)>, lower: f64, upper: f64) {
        self.rows.push(Row { name: name.into(), terms, lower, upper });
    }

    /// Adds `coef * var` to the objective.
    pub fn add_objective_term(&mut self, var: VarId, coef: f64) {
        self.objective.push((var, coef));
    }

    pub fn variable(&self, id: VarId) -> &Variable {
        &self.variables[id.0]
    }
}
