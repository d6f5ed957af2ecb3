//! The evaluation machinery: frames, regions and blocks (with `cf` branches), op dispatch,
//! and the `func`, `scf` and `tensor` ops.

use crate::{
    InterpError, Interpreter, fail,
    ir::{self, Op, Ty},
    scalar,
    value::{ElemType, Tensor, Value},
};
use array_dialect::view::OpKind;
use mlir_sys::{MlirBlock, MlirRegion};
use std::{
    cell::RefCell,
    collections::HashMap,
    hash::{BuildHasherDefault, Hasher},
    rc::Rc,
    sync::Arc,
};

pub type R<T> = Result<T, InterpError>;

/// Hashes IR handles (pointers): a multiplicative hash is plenty, and much cheaper than
/// SipHash in the interpreter's innermost loop.
#[derive(Default)]
pub struct PtrHasher(u64);

impl Hasher for PtrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64 ^ (n as u64 >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type PtrMap<V> = HashMap<usize, V, BuildHasherDefault<PtrHasher>>;

/// The values of one function activation, by SSA value (regions of nested ops share the
/// frame of their function: SSA names are unique, and block arguments are rebound each
/// time a block runs).
pub struct Frame {
    values: PtrMap<Value>,
    depth: usize,
}

/// What the interpreter reads of an op each time it runs it, read from the IR once.
pub struct OpMeta {
    pub name: String,
    /// Which `array` op it is, if it is one.
    pub kind: Option<OpKind>,
    pub operands: Vec<ir::Val>,
    pub results: Vec<ir::Val>,
    pub result_types: Vec<Ty>,
}

/// What the interpreter reads of a block each time it runs it.
struct BlockMeta {
    ops: Vec<Op>,
    arguments: Vec<usize>,
}

pub struct Machine<'i, 'm> {
    pub interp: &'i Interpreter<'m>,
    ops: RefCell<PtrMap<Rc<OpMeta>>>,
    blocks: RefCell<PtrMap<Rc<BlockMeta>>>,
}

/// Whether `v` is a value of type `t`: `Err(true)` for a shape mismatch, `Err(false)` for
/// another mismatch.
pub fn fits(v: &Value, t: &Ty) -> Result<(), bool> {
    match (v, t) {
        (Value::Tensor(x), Ty::Tensor { elem, shape }) => {
            if x.elem != *elem {
                return Err(false);
            }
            if x.shape.len() != shape.len() || x.shape.iter().zip(shape).any(|(a, b)| b.is_some_and(|b| b != *a)) {
                return Err(true);
            }
            Ok(())
        }
        (v, Ty::Scalar(e)) if v.has_type(*e) => Ok(()),
        (Value::Opaque(_), Ty::Other(_)) => Ok(()),
        _ => Err(false),
    }
}

fn describe(t: &Ty) -> String {
    match t {
        Ty::Scalar(e) => e.to_string(),
        Ty::Tensor { elem, shape } => {
            let dims: String = shape.iter().map(|d| d.map_or("?x".to_owned(), |d| format!("{d}x"))).collect();
            format!("tensor<{dims}{elem}>")
        }
        Ty::Other(s) => s.clone(),
    }
}

/// A zero of each element type (the contents of `tensor.empty`).
pub fn zero(elem: ElemType) -> Value {
    match elem {
        ElemType::Int(w) => Value::Int { width: w, bits: 0 },
        ElemType::Index => Value::Index(0),
        ElemType::F32 => Value::F32(0.0),
        ElemType::F64 => Value::F64(0.0),
        ElemType::Complex32 | ElemType::Complex64 => Value::Complex { re: 0.0, im: 0.0 },
        ElemType::Opaque => Value::Opaque(0),
    }
}

/// The signed value of an `index` or integer used as an index or size.
pub fn int_of(op: Op, v: &Value) -> R<i64> {
    v.as_i64().ok_or_else(|| fail::invalid(op, format!("expected an index or integer, got {v}")))
}

pub fn bool_of(op: Op, v: &Value) -> R<bool> {
    v.as_bool().ok_or_else(|| fail::invalid(op, format!("expected an i1, got {v}")))
}

pub fn tensor_of(op: Op, v: &Value) -> R<Arc<Tensor>> {
    match v {
        Value::Tensor(t) => Ok(t.clone()),
        other => Err(fail::invalid(op, format!("expected a tensor, got {other}"))),
    }
}

/// Checks a multi-index against a shape.
pub fn in_bounds(op: Op, index: &[i64], shape: &[usize], what: &str) -> R<Vec<usize>> {
    if index.len() != shape.len() {
        return Err(fail::invalid(op, format!("{} indices for a rank-{} {what}", index.len(), shape.len())));
    }
    if index.iter().zip(shape).any(|(&i, &d)| i < 0 || i as u64 >= d as u64) {
        return Err(fail::out_of_bounds(op, format!("index {index:?} into {what} of shape {shape:?}")));
    }
    Ok(index.iter().map(|&i| i as usize).collect())
}

impl<'i, 'm> Machine<'i, 'm> {
    pub fn new(interp: &'i Interpreter<'m>) -> Self {
        Machine { interp, ops: RefCell::default(), blocks: RefCell::default() }
    }

    /// The number of elements of `shape`, within the element limit.
    pub fn count(&self, op: Op, shape: &[usize]) -> R<usize> {
        let limit = self.interp.max_elements;
        match shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)) {
            Some(n) if n <= limit => {
                self.interp.note_array(n);
                Ok(n)
            }
            Some(n) => Err(fail::too_large(op, format!("{n} elements (shape {shape:?}), the limit is {limit}"))),
            None => Err(fail::too_large(op, format!("the shape {shape:?} overflows"))),
        }
    }

    pub fn meta(&self, op: Op) -> Rc<OpMeta> {
        if let Some(m) = self.ops.borrow().get(&(op.ptr as usize)) {
            return m.clone();
        }
        let results = ir::results(op);
        let meta = Rc::new(OpMeta {
            name: ir::op_name(op).to_owned(),
            kind: OpKind::from_name(ir::op_name(op)),
            operands: ir::operands(op),
            result_types: results.iter().map(|&r| ir::ty(ir::value_type(r))).collect(),
            results,
        });
        self.ops.borrow_mut().insert(op.ptr as usize, meta.clone());
        meta
    }

    fn block_meta(&self, block: MlirBlock) -> Rc<BlockMeta> {
        if let Some(m) = self.blocks.borrow().get(&(block.ptr as usize)) {
            return m.clone();
        }
        let meta = Rc::new(BlockMeta {
            ops: ir::block_ops(block),
            arguments: ir::block_arguments(block).into_iter().map(ir::key).collect(),
        });
        self.blocks.borrow_mut().insert(block.ptr as usize, meta.clone());
        meta
    }

    /// Runs a function from outside: arguments are checked against its signature.
    pub fn call_entry(&self, name: &str, args: Vec<Value>) -> R<Vec<Value>> {
        let &function = self.interp.functions.get(name).ok_or_else(|| InterpError::UnknownFunction(name.into()))?;
        if let Some((inputs, _)) = ir::function_type(function) {
            if inputs.len() != args.len() {
                return Err(InterpError::BadArguments {
                    function: name.into(),
                    detail: format!("expected {} arguments, got {}", inputs.len(), args.len()),
                });
            }
            for (i, (a, t)) in args.iter().zip(inputs).enumerate() {
                let t = ir::ty(t);
                if fits(a, &t).is_err() {
                    return Err(InterpError::BadArguments {
                        function: name.into(),
                        detail: format!("argument {i} is {a} but the function takes {}", describe(&t)),
                    });
                }
            }
        }
        self.call(name, args, 0, None)
    }

    /// Calls `name` at call depth `depth` (from `call_op`, if any).
    fn call(&self, name: &str, args: Vec<Value>, depth: usize, call_op: Option<Op>) -> R<Vec<Value>> {
        if depth > self.interp.max_call_depth {
            return Err(InterpError::CallDepthExceeded { function: name.into(), limit: self.interp.max_call_depth });
        }
        let function = self.interp.functions.get(name).copied();
        let results = match function {
            Some(f) if ir::has_body(f) => {
                let mut frame = Frame { values: PtrMap::default(), depth };
                let (term, values) = self.run_region(&mut frame, ir::region(f, 0), args, f)?;
                if ir::op_name(term) != "func.return" {
                    return Err(fail::invalid(term, "unexpected terminator of a function body"));
                }
                values
            }
            _ => match self.interp.externals.get(name) {
                Some(external) => external(&args)?,
                None if function.is_some() => return Err(InterpError::External(name.into())),
                None => return Err(InterpError::UnknownFunction(name.into())),
            },
        };
        if let Some(f) = function
            && let Some((_, types)) = ir::function_type(f)
        {
            let at = call_op.unwrap_or(f);
            if types.len() != results.len() {
                return Err(fail::invalid(
                    at,
                    format!("@{name} returned {} values, not {}", results.len(), types.len()),
                ));
            }
            for (v, t) in results.iter().zip(types) {
                let t = ir::ty(t);
                if fits(v, &t).is_err() {
                    return Err(fail::invalid(
                        at,
                        format!("@{name} returned {v} for a result of type {}", describe(&t)),
                    ));
                }
            }
        }
        Ok(results)
    }

    pub fn get(&self, frame: &Frame, v: ir::Val, user: Op) -> R<Value> {
        frame.values.get(&ir::key(v)).cloned().ok_or_else(|| fail::invalid(user, "an operand has no value"))
    }

    pub fn operand_values(&self, frame: &Frame, op: Op) -> R<Vec<Value>> {
        self.meta(op).operands.iter().map(|&v| self.get(frame, v, op)).collect()
    }

    fn bind_block(&self, frame: &mut Frame, block: &BlockMeta, args: Vec<Value>, owner: Op) -> R<()> {
        if block.arguments.len() != args.len() {
            let n = block.arguments.len();
            return Err(fail::invalid(owner, format!("a block takes {n} arguments, got {}", args.len())));
        }
        for (&p, a) in block.arguments.iter().zip(args) {
            frame.values.insert(p, a);
        }
        Ok(())
    }

    /// Runs a region from its entry block with `args`, following `cf.br`/`cf.cond_br`, and
    /// returns the terminator that left it with its operand values.
    pub fn run_region(
        &self,
        frame: &mut Frame,
        region: MlirRegion,
        args: Vec<Value>,
        owner: Op,
    ) -> R<(Op, Vec<Value>)> {
        let mut block = ir::first_block(region).ok_or_else(|| fail::invalid(owner, "an empty region"))?;
        let mut args = args;
        let mut branches: u64 = 0;
        loop {
            let meta = self.block_meta(block);
            self.bind_block(frame, &meta, args, owner)?;
            let Some((&term, body)) = meta.ops.split_last() else {
                return Err(fail::invalid(owner, "a block without terminator"));
            };
            for &op in body {
                self.exec_op(frame, op)?;
            }
            match ir::op_name(term) {
                "cf.br" => {
                    args = self.operand_values(frame, term)?;
                    block = ir::successor(term, 0).ok_or_else(|| fail::invalid(term, "no successor"))?;
                }
                "cf.cond_br" => {
                    let values = self.operand_values(frame, term)?;
                    let sizes = ir::i32_array_attribute(term, "operandSegmentSizes")
                        .filter(|s| s.len() == 3)
                        .ok_or_else(|| fail::invalid(term, "no operand segments"))?;
                    let (n_true, n_false) = (sizes[1] as usize, sizes[2] as usize);
                    if values.len() != 1 + n_true + n_false {
                        return Err(fail::invalid(term, "operand segments do not add up"));
                    }
                    let taken = bool_of(term, &values[0])?;
                    let (which, range) = if taken { (0, 1..1 + n_true) } else { (1, 1 + n_true..values.len()) };
                    args = values[range].to_vec();
                    block = ir::successor(term, which).ok_or_else(|| fail::invalid(term, "no successor"))?;
                }
                name if name == OpKind::Yield.name()
                    || matches!(name, "scf.yield" | "scf.condition" | "func.return") =>
                {
                    return Ok((term, self.operand_values(frame, term)?));
                }
                _ => return Err(fail::unsupported(term)),
            }
            branches += 1;
            if branches > self.interp.max_loop_iterations {
                return Err(fail::loop_limit(owner, self.interp.max_loop_iterations));
            }
        }
    }

    /// Runs region `index` of `op`, which must end in `terminator`, and checks the number
    /// of values it yields against `expect`.
    pub fn yield_region(
        &self,
        frame: &mut Frame,
        op: Op,
        index: usize,
        args: Vec<Value>,
        terminator: &str,
        expect: Option<usize>,
    ) -> R<Vec<Value>> {
        if index >= ir::region_count(op) {
            return Err(fail::invalid(op, format!("no region {index}")));
        }
        let (term, values) = self.run_region(frame, ir::region(op, index), args, op)?;
        if ir::op_name(term) != terminator {
            return Err(fail::invalid(term, format!("expected `{terminator}` to end the region")));
        }
        if let Some(n) = expect
            && values.len() != n
        {
            return Err(fail::invalid(op, format!("region {index} yields {} values, expected {n}", values.len())));
        }
        Ok(values)
    }

    /// Runs one op (not a terminator) and binds its results.
    pub fn exec_op(&self, frame: &mut Frame, op: Op) -> R<()> {
        let meta = self.meta(op);
        let name = meta.name.as_str();
        let dialect = name.split_once('.').map_or("", |(d, _)| d);
        let results = if let Some(kind) = meta.kind {
            self.exec_array(frame, op, kind)?
        } else {
            match dialect {
                "arith" | "math" | "complex" => {
                    let args = self.operand_values(frame, op)?;
                    scalar::exec(op, name, &args, &meta.result_types)?
                }
                "scf" => self.exec_scf(frame, op, name)?,
                "tensor" => self.exec_tensor(frame, op, name)?,
                "func" if name == "func.call" => {
                    let callee =
                        ir::string_attribute(op, "callee").ok_or_else(|| fail::invalid(op, "a call without callee"))?;
                    let args = self.operand_values(frame, op)?;
                    self.call(&callee, args, frame.depth + 1, Some(op))?
                }
                _ => return Err(fail::unsupported(op)),
            }
        };
        if meta.results.len() != results.len() {
            return Err(fail::invalid(
                op,
                format!("{} results computed for {} results", results.len(), meta.results.len()),
            ));
        }
        for ((&r, t), v) in meta.results.iter().zip(&meta.result_types).zip(results) {
            if let Err(shape) = fits(&v, t) {
                let detail = format!("the result {v} does not have the op's type {}", describe(t));
                return Err(if shape { fail::shape_mismatch(op, detail) } else { fail::invalid(op, detail) });
            }
            frame.values.insert(ir::key(r), v);
        }
        Ok(())
    }

    fn exec_scf(&self, frame: &mut Frame, op: Op, name: &str) -> R<Vec<Value>> {
        let n_results = ir::result_count(op);
        match name {
            "scf.if" => {
                let cond = self.meta(op).operands.first().copied().ok_or_else(|| fail::invalid(op, "no condition"))?;
                let cond = bool_of(op, &self.get(frame, cond, op)?)?;
                let index = if cond { 0 } else { 1 };
                if index >= ir::region_count(op) || ir::first_block(ir::region(op, index)).is_none() {
                    if n_results != 0 {
                        return Err(fail::invalid(op, "an scf.if with results needs an else region"));
                    }
                    return Ok(vec![]);
                }
                self.yield_region(frame, op, index, vec![], "scf.yield", Some(n_results))
            }
            "scf.execute_region" => self.yield_region(frame, op, 0, vec![], "scf.yield", Some(n_results)),
            "scf.for" => self.scf_for(frame, op, n_results),
            "scf.while" => {
                let mut args = self.operand_values(frame, op)?;
                let mut iterations: u64 = 0;
                loop {
                    let mut cond = self.yield_region(frame, op, 0, args, "scf.condition", None)?;
                    if cond.is_empty() {
                        return Err(fail::invalid(op, "scf.condition without a condition"));
                    }
                    let go = bool_of(op, &cond[0])?;
                    let forwarded = cond.split_off(1);
                    if !go {
                        return Ok(forwarded);
                    }
                    iterations += 1;
                    if iterations > self.interp.max_loop_iterations {
                        return Err(fail::loop_limit(op, self.interp.max_loop_iterations));
                    }
                    args = self.yield_region(frame, op, 1, forwarded, "scf.yield", None)?;
                }
            }
            _ => Err(fail::unsupported(op)),
        }
    }

    fn scf_for(&self, frame: &mut Frame, op: Op, n_results: usize) -> R<Vec<Value>> {
        let values = self.operand_values(frame, op)?;
        if values.len() < 3 {
            return Err(fail::invalid(op, "scf.for needs bounds and a step"));
        }
        let iv_type = values[0].elem_type().filter(|e| matches!(e, ElemType::Index | ElemType::Int(_)));
        let Some(iv_type) = iv_type else { return Err(fail::invalid(op, "a non-integer induction variable")) };
        let unsigned = ir::attribute(op, "unsignedCmp").is_some();
        let (lb, ub, step) = if unsigned {
            let u = |v: &Value| v.as_u64().ok_or_else(|| fail::invalid(op, "a non-integer bound"));
            (u(&values[0])? as i128, u(&values[1])? as i128, u(&values[2])? as i128)
        } else {
            (int_of(op, &values[0])? as i128, int_of(op, &values[1])? as i128, int_of(op, &values[2])? as i128)
        };
        if step <= 0 {
            return Err(fail::undefined(op, format!("scf.for with step {step}")));
        }
        let mut iters = values[3..].to_vec();
        let mut iv = lb;
        let mut iterations: u64 = 0;
        while iv < ub {
            iterations += 1;
            if iterations > self.interp.max_loop_iterations {
                return Err(fail::loop_limit(op, self.interp.max_loop_iterations));
            }
            let mut args = Vec::with_capacity(iters.len() + 1);
            args.push(scalar::make_int(iv_type, iv as u64));
            args.extend(iters);
            iters = self.yield_region(frame, op, 0, args, "scf.yield", Some(n_results))?;
            iv += step;
        }
        Ok(iters)
    }

    fn exec_tensor(&self, frame: &mut Frame, op: Op, name: &str) -> R<Vec<Value>> {
        let args = self.operand_values(frame, op)?;
        let result_ty = self.meta(op).result_types.first().cloned();
        let result_tensor = || match &result_ty {
            Some(Ty::Tensor { elem, shape }) => Ok((*elem, shape.clone())),
            _ => Err(fail::unsupported_form(op, "result type")),
        };
        // Fills the dynamic dimensions of the result type from `sizes`, in order.
        let fill = |shape: &[Option<usize>], sizes: &[Value]| -> R<Vec<usize>> {
            let mut sizes = sizes.iter();
            shape
                .iter()
                .map(|d| match d {
                    Some(d) => Ok(*d),
                    None => {
                        let s = int_of(op, sizes.next().ok_or_else(|| fail::invalid(op, "missing dynamic size"))?)?;
                        usize::try_from(s).map_err(|_| fail::undefined(op, format!("negative size {s}")))
                    }
                })
                .collect()
        };
        let value = match name {
            "tensor.from_elements" => {
                let (elem, shape) = result_tensor()?;
                let shape = fill(&shape, &[])?;
                Tensor::new(elem, shape, args).map_err(|e| fail::invalid(op, e))?
            }
            "tensor.empty" => {
                let (elem, shape) = result_tensor()?;
                let shape = fill(&shape, &args)?;
                let n = self.count(op, &shape)?;
                Tensor { elem, shape, elements: vec![zero(elem); n] }
            }
            "tensor.splat" => {
                let (elem, shape) = result_tensor()?;
                let shape = fill(&shape, args.get(1..).unwrap_or(&[]))?;
                let n = self.count(op, &shape)?;
                let v = args.first().ok_or_else(|| fail::invalid(op, "no value"))?.clone();
                Tensor::new(elem, shape, vec![v; n]).map_err(|e| fail::invalid(op, e))?
            }
            "tensor.cast" => {
                let t = tensor_of(op, args.first().ok_or_else(|| fail::invalid(op, "no operand"))?)?;
                return Ok(vec![Value::Tensor(t)]); // the result type is checked by exec_op
            }
            "tensor.dim" => {
                let t = tensor_of(op, &args[0])?;
                let d = int_of(op, &args[1])?;
                let extent = in_bounds(op, &[d], &[t.rank()], "the dimensions")?;
                return Ok(vec![Value::Index(t.shape[extent[0]] as i64)]);
            }
            "tensor.extract" => {
                let t = tensor_of(op, &args[0])?;
                let index: Vec<i64> = args[1..].iter().map(|v| int_of(op, v)).collect::<R<_>>()?;
                let index = in_bounds(op, &index, &t.shape, "the tensor")?;
                return Ok(vec![t.elements[t.offset(&index)].clone()]);
            }
            "tensor.insert" => {
                let t = tensor_of(op, &args[1])?;
                let index: Vec<i64> = args[2..].iter().map(|v| int_of(op, v)).collect::<R<_>>()?;
                let index = in_bounds(op, &index, &t.shape, "the tensor")?;
                let mut t = (*t).clone();
                let at = t.offset(&index);
                t.elements[at] = args[0].clone();
                t
            }
            _ => return Err(fail::unsupported(op)),
        };
        Ok(vec![Value::Tensor(Arc::new(value))])
    }
}
