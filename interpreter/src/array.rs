//! The ops of the `array` dialect, from their descriptions in `td/ArrayOps.td`.
//!
//! The semantic choices where the descriptions leave room are listed in the crate
//! documentation (`lib.rs`).

use crate::{
    InterpError,
    exec::{Frame, Machine, R, bool_of, in_bounds, int_of, tensor_of},
    fail,
    ir::{self, Op, Ty},
    value::{ElemType, Tensor, Value},
};
use array_dialect::view::{ArrayOp, OpKind, ScanDirection, ScanKind};
use melior::ir::{OperationRef, ValueLike};

/// An operand of an op, as the typed view gives it.
type OperandValue<'c, 'a> = melior::ir::Value<'c, 'a>;
use std::sync::Arc;

/// The terminator of every region of the dialect.
const YIELD: &str = OpKind::Yield.name();

/// The typed view of `op`, an `array` op of the module being run.
fn decode<'c, 'a>(op: Op) -> R<ArrayOp<'c, 'a>> {
    // SAFETY: the interpreter only reads the module, which outlives the run; the view is
    // dropped before the op's execution ends.
    match ArrayOp::decode(unsafe { OperationRef::from_raw(op) }) {
        Some(Ok(decoded)) => Ok(decoded),
        Some(Err(e)) => Err(fail::invalid(op, e.message)),
        None => Err(fail::unsupported(op)),
    }
}

/// Row-major multi-index of position `k` in `shape`.
fn unravel(mut k: usize, shape: &[usize]) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        if shape[d] > 0 {
            index[d] = k % shape[d];
            k /= shape[d];
        }
    }
    index
}

fn index_values(index: &[usize]) -> Vec<Value> {
    index.iter().map(|&i| Value::Index(i as i64)).collect()
}

/// The element types of the op's tensor results.
fn result_elems(op: Op) -> R<Vec<ElemType>> {
    ir::result_types(op)
        .into_iter()
        .map(|t| match ir::ty(t) {
            Ty::Tensor { elem, .. } => Ok(elem),
            other => Err(fail::invalid(op, format!("a result of type {other:?} where a tensor is expected"))),
        })
        .collect()
}

/// The static shape of result `i`, when it has one.
fn static_result_shape(op: Op, i: usize) -> Option<Vec<usize>> {
    match ir::ty(*ir::result_types(op).get(i)?) {
        Ty::Tensor { shape, .. } => shape.into_iter().collect(),
        _ => None,
    }
}

fn make_tensor(op: Op, elem: ElemType, shape: Vec<usize>, elements: Vec<Value>) -> R<Value> {
    Tensor::new(elem, shape, elements).map(|t| Value::Tensor(Arc::new(t))).map_err(|e| fail::invalid(op, e))
}

fn tensors(op: Op, values: &[Value]) -> R<Vec<Arc<Tensor>>> {
    values.iter().map(|v| tensor_of(op, v)).collect()
}

/// The common shape of `ts` (a shape mismatch otherwise).
fn common_shape(op: Op, ts: &[Arc<Tensor>], what: &str) -> R<Option<Vec<usize>>> {
    let Some(first) = ts.first() else { return Ok(None) };
    if let Some(t) = ts.iter().find(|t| t.shape != first.shape) {
        return Err(fail::shape_mismatch(op, format!("{what} of shapes {:?} and {:?}", first.shape, t.shape)));
    }
    Ok(Some(first.shape.clone()))
}

fn size_of(op: Op, v: &Value) -> R<usize> {
    let s = int_of(op, v)?;
    usize::try_from(s).map_err(|_| fail::undefined(op, format!("negative size {s}")))
}

fn indices_of(op: Op, values: &[Value]) -> R<Vec<i64>> {
    values.iter().map(|v| int_of(op, v)).collect()
}

impl Machine<'_, '_> {
    pub fn exec_array(&self, frame: &mut Frame, op: Op, kind: OpKind) -> R<Vec<Value>> {
        if kind.is_fusion_tree() {
            return self.fusion_tree(frame, op, kind);
        }
        match decode(op)? {
            ArrayOp::Map { inputs, .. } => {
                let inputs = self.values(frame, op, &inputs)?;
                self.map(frame, op, inputs)
            }
            ArrayOp::Generate { shape, .. } => {
                let shape = self.values(frame, op, &shape)?;
                self.generate(frame, op, shape)
            }
            ArrayOp::Gather { source, indices } => {
                self.gather(op, self.value(frame, op, source)?, self.values(frame, op, &indices)?)
            }
            ArrayOp::Scatter { dest, indices, keep, values, .. } => {
                let dest = self.value(frame, op, dest)?;
                let keep = keep.map(|k| self.value(frame, op, k)).transpose()?;
                let mut indices = self.values(frame, op, &indices)?;
                indices.push(self.value(frame, op, values)?);
                self.scatter(frame, op, dest, keep, indices)
            }
            ArrayOp::Fold { inputs, inits, .. } => {
                let (inputs, inits) = (self.values(frame, op, &inputs)?, self.values(frame, op, &inits)?);
                self.fold(frame, op, inputs, inits)
            }
            ArrayOp::Scan { direction, kind, inputs, inits, .. } => {
                let (inputs, inits) = (self.values(frame, op, &inputs)?, self.values(frame, op, &inits)?);
                self.scan(frame, op, (direction, kind), inputs, inits)
            }
            ArrayOp::Filter { inputs, .. } => {
                let inputs = self.values(frame, op, &inputs)?;
                self.filter(frame, op, inputs)
            }
            ArrayOp::Expand { inputs, .. } => {
                let inputs = self.values(frame, op, &inputs)?;
                self.expand(frame, op, inputs)
            }
            ArrayOp::Force { input } => Ok(vec![self.value(frame, op, input)?]),
            ArrayOp::Size { input } => {
                let t = tensor_of(op, &self.value(frame, op, input)?)?;
                Ok(t.shape.iter().map(|&d| Value::Index(d as i64)).collect())
            }
            ArrayOp::Dim { input, dimension } => {
                let t = tensor_of(op, &self.value(frame, op, input)?)?;
                let d = in_bounds(op, &[dimension], &[t.rank()], "the dimensions")?[0];
                Ok(vec![Value::Index(t.shape[d] as i64)])
            }
            ArrayOp::Index { array, indices } => {
                let t = tensor_of(op, &self.value(frame, op, array)?)?;
                let indices = self.values(frame, op, &indices)?;
                let index = in_bounds(op, &indices_of(op, &indices)?, &t.shape, "the array")?;
                Ok(vec![t.elements[t.offset(&index)].clone()])
            }
            ArrayOp::Backpermute { source, shape, .. } => {
                let (source, shape) = (self.value(frame, op, source)?, self.values(frame, op, &shape)?);
                self.backpermute(frame, op, source, shape)
            }
            ArrayOp::Permute { source, dest, .. } => {
                let (source, dest) = (self.value(frame, op, source)?, self.value(frame, op, dest)?);
                self.permute(frame, op, source, dest)
            }
            ArrayOp::Reverse { input } => reverse(op, self.value(frame, op, input)?),
            ArrayOp::Transpose { input, permutation } => transpose(op, self.value(frame, op, input)?, &permutation),
            ArrayOp::Concat { lhs, rhs } => concat(op, self.value(frame, op, lhs)?, self.value(frame, op, rhs)?),
            ArrayOp::Reshape { input, shape } => {
                let input = self.value(frame, op, input)?;
                let extents = shape.iter().map(|&v| self.value(frame, op, v)).collect::<R<Vec<Value>>>()?;
                let extents = extents.iter().map(|v| int_of(op, v)).collect::<R<Vec<i64>>>()?;
                reshape(op, input, &extents)
            }
            ArrayOp::Slice { input, offset, size } => {
                let (offset, size) = (self.value(frame, op, offset)?, self.value(frame, op, size)?);
                slice(op, self.value(frame, op, input)?, int_of(op, &offset)?, int_of(op, &size)?)
            }
            ArrayOp::Replicate { input, count } => {
                self.replicate(op, self.value(frame, op, input)?, self.value(frame, op, count)?)
            }
            ArrayOp::Yield { .. }
            | ArrayOp::Cluster { .. }
            | ArrayOp::Vertical { .. }
            | ArrayOp::Horizontal { .. }
            | ArrayOp::Diagonal { .. } => Err(fail::unsupported(op)),
        }
    }

    /// The value operand `v` of `op` has in `frame`.
    fn value(&self, frame: &Frame, op: Op, v: OperandValue) -> R<Value> {
        self.get(frame, v.to_raw(), op)
    }

    fn values(&self, frame: &Frame, op: Op, vs: &[OperandValue]) -> R<Vec<Value>> {
        vs.iter().map(|v| self.value(frame, op, *v)).collect()
    }

    /// `cluster`, `vertical`, `horizontal`, `diagonal`: run their regions in order.
    fn fusion_tree(&self, frame: &mut Frame, op: Op, kind: OpKind) -> R<Vec<Value>> {
        match kind {
            OpKind::Cluster => {
                let n = ir::result_count(op);
                self.yield_region(frame, op, 0, vec![], YIELD, Some(n))
            }
            OpKind::Vertical | OpKind::Diagonal => {
                let produced = self.yield_region(frame, op, 0, vec![], YIELD, None)?;
                let consumed = self.yield_region(frame, op, 1, produced.clone(), YIELD, None)?;
                let mut results = if kind == OpKind::Diagonal { produced } else { vec![] };
                results.extend(consumed);
                self.check_count(op, results)
            }
            OpKind::Horizontal => {
                let mut results = self.yield_region(frame, op, 0, vec![], YIELD, None)?;
                results.extend(self.yield_region(frame, op, 1, vec![], YIELD, None)?);
                self.check_count(op, results)
            }
            _ => Err(fail::unsupported(op)),
        }
    }

    fn check_count(&self, op: Op, results: Vec<Value>) -> R<Vec<Value>> {
        let n = ir::result_count(op);
        if results.len() != n {
            return Err(fail::invalid(op, format!("the regions yield {} values for {n} results", results.len())));
        }
        Ok(results)
    }

    fn map(&self, frame: &mut Frame, op: Op, operands: Vec<Value>) -> R<Vec<Value>> {
        let inputs = tensors(op, &operands)?;
        let elems = result_elems(op)?;
        let shape = match common_shape(op, &inputs, "inputs")? {
            Some(s) => s,
            None => static_result_shape(op, 0).ok_or_else(|| fail::invalid(op, "a map without inputs"))?,
        };
        let n = self.count(op, &shape)?;
        let mut outs: Vec<Vec<Value>> = elems.iter().map(|_| Vec::with_capacity(n)).collect();
        for k in 0..n {
            let args = inputs.iter().map(|t| t.elements[k].clone()).collect();
            let ys = self.yield_region(frame, op, 0, args, YIELD, Some(elems.len()))?;
            for (out, y) in outs.iter_mut().zip(ys) {
                out.push(y);
            }
        }
        elems.into_iter().zip(outs).map(|(e, out)| make_tensor(op, e, shape.clone(), out)).collect()
    }

    fn generate(&self, frame: &mut Frame, op: Op, operands: Vec<Value>) -> R<Vec<Value>> {
        let shape: Vec<usize> = operands.iter().map(|v| size_of(op, v)).collect::<R<_>>()?;
        let elems = result_elems(op)?;
        let n = self.count(op, &shape)?;
        let mut outs: Vec<Vec<Value>> = elems.iter().map(|_| Vec::with_capacity(n)).collect();
        for k in 0..n {
            let args = index_values(&unravel(k, &shape));
            let ys = self.yield_region(frame, op, 0, args, YIELD, Some(elems.len()))?;
            for (out, y) in outs.iter_mut().zip(ys) {
                out.push(y);
            }
        }
        elems.into_iter().zip(outs).map(|(e, out)| make_tensor(op, e, shape.clone(), out)).collect()
    }

    /// `indices_and_values`: the index arrays, then the value array.
    /// `keep`: seed 004's `Nothing` targets; a position whose flag is false is dropped
    /// before its index is read (so its index may be out of range).
    fn scatter(
        &self,
        frame: &mut Frame,
        op: Op,
        dest: Value,
        keep: Option<Value>,
        indices_and_values: Vec<Value>,
    ) -> R<Vec<Value>> {
        let dest = &tensor_of(op, &dest)?;
        let all = tensors(op, &indices_and_values)?;
        let keep = keep.map(|k| tensor_of(op, &k)).transpose()?;
        let Some((values, indices)) = all.split_last() else {
            return Err(fail::invalid(op, "scatter needs a destination and values"));
        };
        if indices.len() != dest.rank() {
            return Err(fail::invalid(
                op,
                format!("{} index arrays for a rank-{} destination", indices.len(), dest.rank()),
            ));
        }
        common_shape(op, &all, "index and value arrays")?;
        if let Some(keep) = &keep
            && keep.shape != values.shape
        {
            return Err(fail::invalid(
                op,
                format!("keep flags of shape {:?} for values of shape {:?}", keep.shape, values.shape),
            ));
        }
        let mut result = (**dest).clone();
        for s in 0..values.len() {
            if let Some(keep) = &keep
                && !bool_of(op, &keep.elements[s])?
            {
                continue;
            }
            let target: Vec<i64> = indices.iter().map(|t| int_of(op, &t.elements[s])).collect::<R<_>>()?;
            let target = in_bounds(op, &target, &dest.shape, "the destination")
                .map_err(|e| with_position(e, "source position", &unravel(s, &values.shape)))?;
            let at = result.offset(&target);
            let old = result.elements[at].clone();
            let combined = self.yield_region(frame, op, 0, vec![old, values.elements[s].clone()], YIELD, Some(1))?;
            result.elements[at] = combined.into_iter().next().expect("one value");
        }
        let elem = result.elem;
        Ok(vec![make_tensor(op, elem, result.shape, result.elements)?])
    }

    fn fold(&self, frame: &mut Frame, op: Op, inputs: Vec<Value>, inits: Vec<Value>) -> R<Vec<Value>> {
        let inputs = tensors(op, &inputs)?;
        let elems = result_elems(op)?;
        if elems.len() != inits.len() {
            return Err(fail::invalid(op, format!("{} results for {} initial values", elems.len(), inits.len())));
        }
        let shape = common_shape(op, &inputs, "inputs")?.ok_or_else(|| fail::invalid(op, "a fold without inputs"))?;
        let Some((&n, outer)) = shape.split_last() else {
            return Err(fail::invalid(op, "a fold of a rank-0 array"));
        };
        let rows = self.count(op, outer)?;
        let mut outs: Vec<Vec<Value>> = elems.iter().map(|_| Vec::with_capacity(rows)).collect();
        for row in 0..rows {
            let mut acc = inits.clone();
            for j in 0..n {
                let mut args = acc;
                args.extend(inputs.iter().map(|t| t.elements[row * n + j].clone()));
                acc = self.yield_region(frame, op, 0, args, YIELD, Some(inits.len()))?;
            }
            for (out, a) in outs.iter_mut().zip(acc) {
                out.push(a);
            }
        }
        elems.into_iter().zip(outs).map(|(e, out)| make_tensor(op, e, outer.to_vec(), out)).collect()
    }

    fn scan(
        &self,
        frame: &mut Frame,
        op: Op,
        (direction, kind): (ScanDirection, ScanKind),
        inputs: Vec<Value>,
        inits: Vec<Value>,
    ) -> R<Vec<Value>> {
        let right = direction == ScanDirection::Right;
        let exclusive = kind == ScanKind::Exclusive;
        let inputs = tensors(op, &inputs)?;
        let elems = result_elems(op)?;
        if elems.len() != inits.len() {
            return Err(fail::invalid(op, format!("{} results for {} initial values", elems.len(), inits.len())));
        }
        let shape = common_shape(op, &inputs, "inputs")?.ok_or_else(|| fail::invalid(op, "a scan without inputs"))?;
        let Some((&n, outer)) = shape.split_last() else {
            return Err(fail::invalid(op, "a scan of a rank-0 array"));
        };
        let rows = self.count(op, outer)?;
        let total = self.count(op, &shape)?;
        let mut outs: Vec<Vec<Option<Value>>> = elems.iter().map(|_| vec![None; total]).collect();
        for row in 0..rows {
            let mut acc = inits.clone();
            let order: Box<dyn Iterator<Item = usize>> = if right { Box::new((0..n).rev()) } else { Box::new(0..n) };
            for j in order {
                let at = row * n + j;
                if exclusive {
                    for (out, a) in outs.iter_mut().zip(&acc) {
                        out[at] = Some(a.clone());
                    }
                }
                let mut args = acc;
                args.extend(inputs.iter().map(|t| t.elements[at].clone()));
                acc = self.yield_region(frame, op, 0, args, YIELD, Some(inits.len()))?;
                if !exclusive {
                    for (out, a) in outs.iter_mut().zip(&acc) {
                        out[at] = Some(a.clone());
                    }
                }
            }
        }
        elems
            .into_iter()
            .zip(outs)
            .map(|(e, out)| make_tensor(op, e, shape.clone(), out.into_iter().map(|v| v.expect("filled")).collect()))
            .collect()
    }

    fn filter(&self, frame: &mut Frame, op: Op, operands: Vec<Value>) -> R<Vec<Value>> {
        let inputs = tensors(op, &operands)?;
        let elems = result_elems(op)?;
        if elems.len() != inputs.len() {
            return Err(fail::invalid(op, format!("{} results for {} inputs", elems.len(), inputs.len())));
        }
        let shape = common_shape(op, &inputs, "inputs")?.ok_or_else(|| fail::invalid(op, "a filter without inputs"))?;
        if shape.len() != 1 {
            return Err(fail::invalid(op, format!("filter inputs must be vectors, not of shape {shape:?}")));
        }
        let mut outs: Vec<Vec<Value>> = elems.iter().map(|_| Vec::new()).collect();
        for k in 0..shape[0] {
            let args: Vec<Value> = inputs.iter().map(|t| t.elements[k].clone()).collect();
            let keep = self.yield_region(frame, op, 0, args.clone(), YIELD, Some(1))?;
            if bool_of(op, &keep[0])? {
                for (out, a) in outs.iter_mut().zip(args) {
                    out.push(a);
                }
            }
        }
        vectors(op, elems, outs)
    }

    fn expand(&self, frame: &mut Frame, op: Op, operands: Vec<Value>) -> R<Vec<Value>> {
        let inputs = tensors(op, &operands)?;
        let elems = result_elems(op)?;
        let shape =
            common_shape(op, &inputs, "inputs")?.ok_or_else(|| fail::invalid(op, "an expand without inputs"))?;
        let n = self.count(op, &shape)?;
        let mut produced: usize = 0;
        let mut outs: Vec<Vec<Value>> = elems.iter().map(|_| Vec::new()).collect();
        for k in 0..n {
            let args: Vec<Value> = inputs.iter().map(|t| t.elements[k].clone()).collect();
            let count = self.yield_region(frame, op, 0, args.clone(), YIELD, Some(1))?;
            let count = int_of(op, &count[0])?;
            if count < 0 {
                return Err(fail::undefined(op, format!("negative count {count} for element {k}")));
            }
            produced = produced.saturating_add(count as usize);
            self.count(op, &[produced])?;
            for j in 0..count {
                let mut get_args = args.clone();
                get_args.push(Value::Index(j));
                let ys = self.yield_region(frame, op, 1, get_args, YIELD, Some(elems.len()))?;
                for (out, y) in outs.iter_mut().zip(ys) {
                    out.push(y);
                }
            }
        }
        vectors(op, elems, outs)
    }

    fn backpermute(&self, frame: &mut Frame, op: Op, source: Value, shape: Vec<Value>) -> R<Vec<Value>> {
        let source = tensor_of(op, &source)?;
        let shape: Vec<usize> = shape.iter().map(|v| size_of(op, v)).collect::<R<_>>()?;
        let elem = *result_elems(op)?.first().ok_or_else(|| fail::invalid(op, "no result"))?;
        let n = self.count(op, &shape)?;
        let mut out = Vec::with_capacity(n);
        for k in 0..n {
            let here = unravel(k, &shape);
            let from = self.yield_region(frame, op, 0, index_values(&here), YIELD, Some(source.rank()))?;
            let from = in_bounds(op, &indices_of(op, &from)?, &source.shape, "the source")
                .map_err(|e| with_position(e, "output position", &here))?;
            out.push(source.elements[source.offset(&from)].clone());
        }
        Ok(vec![make_tensor(op, elem, shape, out)?])
    }

    fn permute(&self, frame: &mut Frame, op: Op, source: Value, dest: Value) -> R<Vec<Value>> {
        let (source, dest) = (tensor_of(op, &source)?, tensor_of(op, &dest)?);
        let mut result = (*dest).clone();
        for s in 0..source.len() {
            let here = unravel(s, &source.shape);
            let mut target = self.yield_region(frame, op, 0, index_values(&here), YIELD, None)?;
            if target.len() == dest.rank() + 1 {
                let keep = target.pop().expect("the flag");
                if !bool_of(op, &keep)? {
                    continue;
                }
            } else if target.len() != dest.rank() {
                return Err(fail::invalid(
                    op,
                    format!("the index region yields {} values for a rank-{} destination", target.len(), dest.rank()),
                ));
            }
            let target = in_bounds(op, &indices_of(op, &target)?, &dest.shape, "the destination")
                .map_err(|e| with_position(e, "source position", &here))?;
            let at = result.offset(&target);
            let old = result.elements[at].clone();
            let combined = self.yield_region(frame, op, 1, vec![old, source.elements[s].clone()], YIELD, Some(1))?;
            result.elements[at] = combined.into_iter().next().expect("one value");
        }
        let elem = result.elem;
        Ok(vec![make_tensor(op, elem, result.shape, result.elements)?])
    }
}

/// Adds where an out-of-bounds index came from to its detail.
fn with_position(e: InterpError, what: &str, position: &[usize]) -> InterpError {
    match e {
        InterpError::OutOfBounds { op, location, detail } => {
            InterpError::OutOfBounds { op, location, detail: format!("{detail} (at {what} {position:?})") }
        }
        other => other,
    }
}

impl Machine<'_, '_> {
    fn gather(&self, op: Op, source: Value, indices: Vec<Value>) -> R<Vec<Value>> {
        let source = &tensor_of(op, &source)?;
        let indices = &tensors(op, &indices)?[..];
        if indices.len() != source.rank() {
            return Err(fail::invalid(
                op,
                format!("{} index arrays for a rank-{} source", indices.len(), source.rank()),
            ));
        }
        let elem = *result_elems(op)?.first().ok_or_else(|| fail::invalid(op, "no result"))?;
        let shape = match common_shape(op, indices, "index arrays")? {
            Some(s) => s,
            None => static_result_shape(op, 0).ok_or_else(|| fail::invalid(op, "a gather of a rank-0 source"))?,
        };
        let n = self.count(op, &shape)?;
        let mut out = Vec::with_capacity(n);
        for k in 0..n {
            let from: Vec<i64> = indices.iter().map(|t| int_of(op, &t.elements[k])).collect::<R<_>>()?;
            let from = in_bounds(op, &from, &source.shape, "the source")
                .map_err(|e| with_position(e, "output position", &unravel(k, &shape)))?;
            out.push(source.elements[source.offset(&from)].clone());
        }
        Ok(vec![make_tensor(op, elem, shape, out)?])
    }

    fn replicate(&self, op: Op, input: Value, count: Value) -> R<Vec<Value>> {
        let t = tensor_of(op, &input)?;
        let count = size_of(op, &count)?;
        let mut shape = t.shape.clone();
        shape.push(count);
        let mut elements = Vec::with_capacity(self.count(op, &shape)?);
        for x in &t.elements {
            elements.extend(std::iter::repeat_n(x.clone(), count));
        }
        Ok(vec![make_tensor(op, t.elem, shape, elements)?])
    }
}

fn reverse(op: Op, input: Value) -> R<Vec<Value>> {
    let t = tensor_of(op, &input)?;
    let Some(&n) = t.shape.last() else { return Ok(vec![Value::Tensor(t)]) };
    let mut elements = Vec::with_capacity(t.len());
    for row in t.elements.chunks(n.max(1)) {
        elements.extend(row.iter().rev().cloned());
    }
    Ok(vec![make_tensor(op, t.elem, t.shape.clone(), elements)?])
}

/// `ys[i] = xs[j]` with `j[permutation[k]] = i[k]`; the result's dimension k is the
/// input's dimension `permutation[k]`.
fn transpose(op: Op, input: Value, permutation: &[usize]) -> R<Vec<Value>> {
    let t = tensor_of(op, &input)?;
    if permutation.len() != t.shape.len() || permutation.iter().any(|&d| d >= t.shape.len()) {
        return Err(fail::invalid(op, format!("permutation {permutation:?} does not fit rank {}", t.shape.len())));
    }
    let shape: Vec<usize> = permutation.iter().map(|&d| t.shape[d]).collect();
    let mut elements = Vec::with_capacity(t.len());
    for k in 0..t.len() {
        let i = unravel(k, &shape);
        let mut j = vec![0; i.len()];
        for (k, &d) in permutation.iter().enumerate() {
            j[d] = i[k];
        }
        let linear = j.iter().zip(&t.shape).fold(0, |acc, (&x, &n)| acc * n + x);
        elements.push(t.elements[linear].clone());
    }
    Ok(vec![make_tensor(op, t.elem, shape, elements)?])
}

/// Each row of `lhs` followed by the same row of `rhs` (innermost dimension); the outer
/// dimensions must agree.
fn concat(op: Op, lhs: Value, rhs: Value) -> R<Vec<Value>> {
    let (a, b) = (tensor_of(op, &lhs)?, tensor_of(op, &rhs)?);
    let (Some((&n, outer)), Some((&m, outer_b))) = (a.shape.split_last(), b.shape.split_last()) else {
        return Err(fail::invalid(op, "cannot concatenate rank-0 arrays"));
    };
    if outer != outer_b {
        return Err(fail::shape_mismatch(op, format!("operands of shapes {:?} and {:?}", a.shape, b.shape)));
    }
    let rows: usize = outer.iter().product();
    let mut elements = Vec::with_capacity(rows * (n + m));
    for r in 0..rows {
        elements.extend_from_slice(&a.elements[r * n..(r + 1) * n]);
        elements.extend_from_slice(&b.elements[r * m..(r + 1) * m]);
    }
    let mut shape = outer.to_vec();
    shape.push(n + m);
    Ok(vec![make_tensor(op, a.elem, shape, elements)?])
}

/// The elements of `input` in row-major order, in the shape `extents`; the element
/// counts must agree.
fn reshape(op: Op, input: Value, extents: &[i64]) -> R<Vec<Value>> {
    let t = tensor_of(op, &input)?;
    let shape: Vec<usize> = extents
        .iter()
        .map(|&e| usize::try_from(e).map_err(|_| fail::invalid(op, format!("negative extent {e}"))))
        .collect::<R<_>>()?;
    let count = shape.iter().try_fold(1usize, |n, &e| n.checked_mul(e));
    if count != Some(t.len()) {
        return Err(fail::shape_mismatch(
            op,
            format!("cannot reshape {} elements of shape {:?} into shape {shape:?}", t.len(), t.shape),
        ));
    }
    Ok(vec![make_tensor(op, t.elem, shape, t.elements.clone())?])
}

/// `ys[..., i] = xs[..., offset + i]` for `i < size`; reading outside the innermost
/// dimension is an out-of-bounds error (a compiled gather would read out of range).
fn slice(op: Op, input: Value, offset: i64, size: i64) -> R<Vec<Value>> {
    let t = tensor_of(op, &input)?;
    let n = *t.shape.last().ok_or_else(|| fail::invalid(op, "cannot slice a rank-0 array"))?;
    // Only elements actually read must be in range, as in the gather it desugars to: an
    // empty run (or an array without rows) may start anywhere.
    let rows: usize = t.shape[..t.shape.len() - 1].iter().product();
    // A negative size is undefined behaviour, as for the generate it desugars to (so the
    // program and its desugared form fail alike under `--check`).
    if size < 0 {
        return Err(fail::undefined(op, format!("negative size {size}")));
    }
    let reads = size > 0 && rows > 0;
    if reads && (offset < 0 || offset.checked_add(size).is_none_or(|end| end > n as i64)) {
        return Err(fail::out_of_bounds(
            op,
            format!("the run from {offset} of size {size} is outside the innermost dimension of extent {n}"),
        ));
    }
    let (offset, size) = (offset.max(0) as usize, size as usize);
    let mut shape = t.shape.clone();
    *shape.last_mut().expect("rank >= 1") = size;
    let mut elements = Vec::with_capacity(shape.iter().product());
    // Without reads (an empty run, or no rows) there is nothing to cut.
    for row in t.elements.chunks(n.max(1)).filter(|_| reads) {
        elements.extend_from_slice(&row[offset..offset + size]);
    }
    Ok(vec![make_tensor(op, t.elem, shape, elements)?])
}

/// One vector result per element type, holding the elements collected for it (the
/// results of `filter` and `expand`, whose lengths are known only after the loop).
fn vectors(op: Op, elems: Vec<ElemType>, outs: Vec<Vec<Value>>) -> R<Vec<Value>> {
    elems
        .into_iter()
        .zip(outs)
        .map(|(e, out)| {
            let n = out.len();
            make_tensor(op, e, vec![n], out)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::unravel;

    #[test]
    fn unravel_is_row_major() {
        assert_eq!(unravel(0, &[2, 3]), vec![0, 0]);
        assert_eq!(unravel(4, &[2, 3]), vec![1, 1]);
        assert_eq!(unravel(5, &[2, 3]), vec![1, 2]);
        assert_eq!(unravel(0, &[]), Vec::<usize>::new());
    }
}
