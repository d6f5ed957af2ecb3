//===- ArrayDialect.cpp - verifiers and registration of `array` -----------===//
//
// The op classes, parsers and printers are generated from td/ArrayOps.td.
// This file holds what ODS cannot express: the shape and region checks of
// each combinator (with messages that say which operand, result, region or
// block argument is wrong), type inference of `array.size`, and the C API
// entry point through which Rust registers the dialect.
//
//===----------------------------------------------------------------------===//

#include "ArrayDialect.h"

#include "mlir-c/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::array;

#include "ArrayDialect.cpp.inc"
#include "ArrayEnums.cpp.inc"

void ArrayDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ArrayOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "ArrayOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

namespace {

RankedTensorType tensorOf(Value v) { return llvm::cast<RankedTensorType>(v.getType()); }

/// Two shapes agree when they have the same rank and no pair of static
/// extents differs (a dynamic extent agrees with anything; size inference,
/// seed 001 §1.3, decides the rest).
bool shapesAgree(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip_equal(a, b))
    if (!ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y)
      return false;
  return true;
}

/// The sugar ops that move elements around (transpose, slice, reshape, replicate) keep
/// their element type.
LogicalResult verifySameElementType(Operation *op, RankedTensorType input, RankedTensorType result) {
  if (result.getElementType() == input.getElementType())
    return success();
  return op->emitOpError() << "result element type " << result.getElementType()
                           << " differs from the input element type " << input.getElementType();
}

std::string typeList(TypeRange types) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "(";
  llvm::interleaveComma(types, os);
  os << ")";
  return s;
}

SmallVector<Type> elementTypes(ValueRange arrays) {
  return llvm::map_to_vector(arrays, [](Value v) { return tensorOf(v).getElementType(); });
}

SmallVector<Type> elementTypes(TypeRange arrays) {
  return llvm::map_to_vector(
      arrays, [](Type t) { return llvm::cast<RankedTensorType>(t).getElementType(); });
}

/// Every array in `arrays` has the shape of the first one.
LogicalResult verifySameShapes(Operation *op, ValueRange arrays, StringRef what) {
  if (arrays.empty())
    return success();
  RankedTensorType first = tensorOf(arrays.front());
  for (auto [i, v] : llvm::enumerate(arrays.drop_front()))
    if (!shapesAgree(first.getShape(), tensorOf(v).getShape()))
      return op->emitOpError() << what << " #" << (i + 1) << " of type " << v.getType()
                               << " does not have the shape of " << what << " #0 of type "
                               << first;
  return success();
}

/// Every result has `shape` (an input's shape, or a shape derived from it).
LogicalResult verifyResultShapes(Operation *op, ArrayRef<int64_t> shape, StringRef expected) {
  for (auto [i, t] : llvm::enumerate(op->getResultTypes()))
    if (!shapesAgree(llvm::cast<RankedTensorType>(t).getShape(), shape))
      return op->emitOpError() << "result #" << i << " of type " << t
                               << " does not have the shape of " << expected;
  return success();
}

/// The single block of `region` takes exactly `expected` arguments.
LogicalResult verifyBlockArguments(Operation *op, Region &region, StringRef name,
                                   TypeRange expected) {
  Block &block = region.front();
  TypeRange actual = block.getArgumentTypes();
  if (actual != expected)
    return op->emitOpError() << "region '" << name << "' must take arguments "
                             << typeList(expected) << ", but takes " << typeList(actual);
  return success();
}

/// The terminator of `region` is an `array.yield` of exactly `expected` types.
LogicalResult verifyYield(Operation *op, Region &region, StringRef name, TypeRange expected) {
  auto yield = llvm::dyn_cast<YieldOp>(region.front().getTerminator());
  if (!yield)
    return op->emitOpError() << "region '" << name << "' must end with 'array.yield'";
  TypeRange actual = yield.getValues().getTypes();
  if (actual != expected)
    return yield.emitOpError() << "yields " << typeList(actual) << ", but region '" << name
                               << "' of '" << op->getName() << "' must yield "
                               << typeList(expected);
  return success();
}

LogicalResult verifyRegion(Operation *op, Region &region, StringRef name, TypeRange arguments,
                           TypeRange yields) {
  if (failed(verifyBlockArguments(op, region, name, arguments)))
    return failure();
  return verifyYield(op, region, name, yields);
}

/// When a shape operand is a constant and the result dimension is static,
/// they must agree.
LogicalResult verifyShapeOperands(Operation *op, ValueRange shape, RankedTensorType result,
                                  StringRef resultName) {
  if (static_cast<int64_t>(shape.size()) != result.getRank())
    return op->emitOpError() << "has " << shape.size() << " shape operand(s), but "
                             << resultName << " of type " << result << " has rank "
                             << result.getRank();
  for (auto [i, v] : llvm::enumerate(shape)) {
    APInt constant;
    if (!matchPattern(v, m_ConstantInt(&constant)))
      continue;
    if (constant.isNegative())
      return op->emitOpError() << "shape operand #" << i << " is the negative constant "
                               << constant.getSExtValue();
    int64_t dim = result.getDimSize(i);
    if (!ShapedType::isDynamic(dim) && constant.getSExtValue() != dim)
      return op->emitOpError() << "shape operand #" << i << " is the constant "
                               << constant.getSExtValue() << ", but dimension " << i << " of "
                               << resultName << " is " << dim;
  }
  return success();
}

LogicalResult verifyAtLeastOne(Operation *op, size_t count, StringRef what) {
  if (count == 0)
    return op->emitOpError() << "needs at least one " << what;
  return success();
}

/// Vectors only (filter and expand of seeds 001 and 004 are one-dimensional).
LogicalResult verifyVectors(Operation *op, ValueRange inputs) {
  for (auto [i, v] : llvm::enumerate(inputs))
    if (tensorOf(v).getRank() != 1)
      return op->emitOpError() << "input #" << i << " of type " << v.getType()
                               << " is not one-dimensional";
  return success();
}

/// Results of size-changing combinators have a data-dependent length.
LogicalResult verifyDynamicVectorResults(Operation *op) {
  for (auto [i, t] : llvm::enumerate(op->getResultTypes())) {
    auto tensor = llvm::cast<RankedTensorType>(t);
    if (tensor.getRank() != 1 || !tensor.isDynamicDim(0))
      return op->emitOpError() << "result #" << i << " of type " << t
                               << " must be a vector of dynamic length (its size depends on "
                                  "the data)";
  }
  return success();
}

SmallVector<Type> indexTypes(MLIRContext *ctx, int64_t count) {
  return SmallVector<Type>(count, IndexType::get(ctx));
}

/// Shared by fold and scan: m >= 1 inputs of one shape, n >= 1 initial values and
/// n results (one per accumulator; the accumulators need not match the inputs one
/// to one), with initial values typed as result elements.
LogicalResult verifyAccumulating(Operation *op, ValueRange inputs, ValueRange inits) {
  if (failed(verifyAtLeastOne(op, inputs.size(), "input array")) ||
      failed(verifyAtLeastOne(op, inits.size(), "initial value")))
    return failure();
  if (op->getNumResults() != inits.size())
    return op->emitOpError() << "has " << inits.size() << " initial value(s) and "
                             << op->getNumResults()
                             << " result(s); there is one result per accumulator";
  if (failed(verifySameShapes(op, inputs, "input")))
    return failure();
  if (tensorOf(inputs.front()).getRank() == 0)
    return op->emitOpError() << "cannot combine along the innermost dimension of rank-0 "
                                "input of type "
                             << inputs.front().getType();
  for (auto [i, pair] : llvm::enumerate(llvm::zip_equal(inits, op->getResultTypes()))) {
    auto [init, resultType] = pair;
    Type element = llvm::cast<RankedTensorType>(resultType).getElementType();
    if (init.getType() != element)
      return op->emitOpError() << "initial value #" << i << " has type " << init.getType()
                               << ", but result #" << i << " has element type " << element;
  }
  return success();
}

/// Region of fold and scan: (accumulators..., elements...) -> accumulators.
LogicalResult verifyAccumulatingBody(Operation *op, Region &body, ValueRange inputs) {
  SmallVector<Type> accumulators = elementTypes(op->getResultTypes());
  SmallVector<Type> arguments(accumulators);
  llvm::append_range(arguments, elementTypes(inputs));
  return verifyRegion(op, body, "body", arguments, accumulators);
}

} // namespace

//===----------------------------------------------------------------------===//
// map
//===----------------------------------------------------------------------===//

LogicalResult MapOp::verify() {
  if (failed(verifyAtLeastOne(*this, getInputs().size(), "input array")) ||
      failed(verifyAtLeastOne(*this, getNumResults(), "result")) ||
      failed(verifySameShapes(*this, getInputs(), "input")))
    return failure();
  return verifyResultShapes(*this, tensorOf(getInputs().front()).getShape(), "input #0");
}

LogicalResult MapOp::verifyRegions() {
  return verifyRegion(*this, getBody(), "body", elementTypes(getInputs()),
                      elementTypes(getResultTypes()));
}

//===----------------------------------------------------------------------===//
// generate
//===----------------------------------------------------------------------===//

LogicalResult GenerateOp::verify() {
  if (failed(verifyAtLeastOne(*this, getNumResults(), "result")))
    return failure();
  auto first = llvm::cast<RankedTensorType>(getResult(0).getType());
  if (failed(verifyShapeOperands(*this, getShape(), first, "result #0")))
    return failure();
  return verifyResultShapes(*this, first.getShape(), "result #0");
}

LogicalResult GenerateOp::verifyRegions() {
  return verifyRegion(*this, getBody(), "body", indexTypes(getContext(), getShape().size()),
                      elementTypes(getResultTypes()));
}

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  RankedTensorType source = getSource().getType();
  if (static_cast<int64_t>(getIndices().size()) != source.getRank())
    return emitOpError() << "needs one index array per source dimension: the source of type "
                         << source << " has rank " << source.getRank() << ", but "
                         << getIndices().size() << " index array(s) are given";
  if (getIndices().empty())
    return emitOpError() << "cannot gather from a rank-0 source";
  if (failed(verifySameShapes(*this, getIndices(), "index array")))
    return failure();
  RankedTensorType result = getResult().getType();
  if (!shapesAgree(result.getShape(), tensorOf(getIndices().front()).getShape()))
    return emitOpError() << "result of type " << result
                         << " does not have the shape of the index arrays "
                         << getIndices().front().getType();
  if (result.getElementType() != source.getElementType())
    return emitOpError() << "result element type " << result.getElementType()
                         << " differs from the source element type " << source.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// scatter
//===----------------------------------------------------------------------===//

LogicalResult ScatterOp::verify() {
  RankedTensorType dest = getDest().getType();
  if (static_cast<int64_t>(getIndices().size()) != dest.getRank())
    return emitOpError() << "needs one index array per destination dimension: the "
                            "destination of type "
                         << dest << " has rank " << dest.getRank() << ", but "
                         << getIndices().size() << " index array(s) are given";
  if (getIndices().empty())
    return emitOpError() << "cannot scatter into a rank-0 destination";
  if (failed(verifySameShapes(*this, getIndices(), "index array")))
    return failure();
  if (!shapesAgree(getValues().getType().getShape(), tensorOf(getIndices().front()).getShape()))
    return emitOpError() << "values of type " << getValues().getType()
                         << " do not have the shape of the index arrays "
                         << getIndices().front().getType();
  if (Value keep = getKeep())
    if (!shapesAgree(tensorOf(keep).getShape(), tensorOf(getIndices().front()).getShape()))
      return emitOpError() << "keep flags of type " << keep.getType()
                           << " do not have the shape of the index arrays "
                           << getIndices().front().getType();
  return success();
}

LogicalResult ScatterOp::verifyRegions() {
  Type destElement = getDest().getType().getElementType();
  Type valueElement = getValues().getType().getElementType();
  return verifyRegion(*this, getCombine(), "combine", {destElement, valueElement},
                      {destElement});
}

//===----------------------------------------------------------------------===//
// fold and scan
//===----------------------------------------------------------------------===//

LogicalResult FoldOp::verify() {
  if (failed(verifyAccumulating(*this, getInputs(), getInits())))
    return failure();
  ArrayRef<int64_t> shape = tensorOf(getInputs().front()).getShape();
  return verifyResultShapes(*this, shape.drop_back(),
                            "input #0 without its innermost dimension");
}

LogicalResult FoldOp::verifyRegions() {
  return verifyAccumulatingBody(*this, getBody(), getInputs());
}

LogicalResult ScanOp::verify() {
  if (failed(verifyAccumulating(*this, getInputs(), getInits())))
    return failure();
  return verifyResultShapes(*this, tensorOf(getInputs().front()).getShape(), "input #0");
}

LogicalResult ScanOp::verifyRegions() {
  return verifyAccumulatingBody(*this, getBody(), getInputs());
}

//===----------------------------------------------------------------------===//
// filter and expand (size-changing, seeds 001 and 004)
//===----------------------------------------------------------------------===//

LogicalResult FilterOp::verify() {
  if (failed(verifyAtLeastOne(*this, getInputs().size(), "input array")))
    return failure();
  if (getNumResults() != getInputs().size())
    return emitOpError() << "has " << getInputs().size() << " input(s) but "
                         << getNumResults() << " result(s); each input is filtered into "
                            "one result";
  if (failed(verifyVectors(*this, getInputs())) ||
      failed(verifySameShapes(*this, getInputs(), "input")) ||
      failed(verifyDynamicVectorResults(*this)))
    return failure();
  for (auto [i, pair] : llvm::enumerate(llvm::zip_equal(getInputs(), getResultTypes()))) {
    auto [input, resultType] = pair;
    Type element = llvm::cast<RankedTensorType>(resultType).getElementType();
    if (element != tensorOf(input).getElementType())
      return emitOpError() << "result #" << i << " has element type " << element
                           << ", but input #" << i << " has element type "
                           << tensorOf(input).getElementType();
  }
  return success();
}

LogicalResult FilterOp::verifyRegions() {
  return verifyRegion(*this, getPredicate(), "predicate", elementTypes(getInputs()),
                      {IntegerType::get(getContext(), 1)});
}

LogicalResult ExpandOp::verify() {
  if (failed(verifyAtLeastOne(*this, getInputs().size(), "input array")) ||
      failed(verifyAtLeastOne(*this, getNumResults(), "result")) ||
      failed(verifyVectors(*this, getInputs())) ||
      failed(verifySameShapes(*this, getInputs(), "input")))
    return failure();
  return verifyDynamicVectorResults(*this);
}

LogicalResult ExpandOp::verifyRegions() {
  SmallVector<Type> elements = elementTypes(getInputs());
  if (failed(verifyRegion(*this, getCount(), "count", elements, {IndexType::get(getContext())})))
    return failure();
  SmallVector<Type> getArguments(elements);
  getArguments.push_back(IndexType::get(getContext()));
  return verifyRegion(*this, getGet(), "get", getArguments, elementTypes(getResultTypes()));
}

//===----------------------------------------------------------------------===//
// size, dim, index
//===----------------------------------------------------------------------===//

LogicalResult SizeOp::inferReturnTypes(MLIRContext *context, std::optional<Location>,
                                       ValueRange operands, DictionaryAttr, OpaqueProperties,
                                       RegionRange, SmallVectorImpl<Type> &inferred) {
  if (operands.empty())
    return failure();
  auto tensor = llvm::dyn_cast<RankedTensorType>(operands.front().getType());
  if (!tensor)
    return failure();
  inferred.assign(tensor.getRank(), IndexType::get(context));
  return success();
}

LogicalResult DimOp::verify() {
  int64_t rank = getInput().getType().getRank();
  // The attribute is an I64Attr; read it signed so that -1 is reported as -1.
  int64_t dimension = static_cast<int64_t>(getDimension());
  if (dimension < 0 || dimension >= rank)
    return emitOpError() << "dimension " << dimension << " is out of range for "
                         << getInput().getType() << " of rank " << rank;
  return success();
}

LogicalResult IndexOp::verify() {
  int64_t rank = getArray().getType().getRank();
  if (static_cast<int64_t>(getIndices().size()) != rank)
    return emitOpError() << "needs " << rank << " index value(s) for " << getArray().getType()
                         << ", but " << getIndices().size() << " are given";
  return success();
}

//===----------------------------------------------------------------------===//
// Sugar
//===----------------------------------------------------------------------===//

LogicalResult BackpermuteOp::verify() {
  RankedTensorType result = getResult().getType();
  if (failed(verifyShapeOperands(*this, getShape(), result, "the result")))
    return failure();
  if (getSource().getType().getRank() == 0)
    return emitOpError() << "cannot read a rank-0 source at computed indices";
  if (result.getElementType() != getSource().getType().getElementType())
    return emitOpError() << "result element type " << result.getElementType()
                         << " differs from the source element type "
                         << getSource().getType().getElementType();
  return success();
}

LogicalResult BackpermuteOp::verifyRegions() {
  return verifyRegion(*this, getIndexMap(), "index",
                      indexTypes(getContext(), getResult().getType().getRank()),
                      indexTypes(getContext(), getSource().getType().getRank()));
}

LogicalResult PermuteOp::verifyRegions() {
  MLIRContext *ctx = getContext();
  RankedTensorType source = getSource().getType();
  RankedTensorType dest = getDest().getType();
  if (dest.getRank() == 0)
    return emitOpError() << "cannot permute into a rank-0 destination";
  // The index region yields one index per destination dimension, optionally
  // followed by an i1 that keeps (true) or drops the element (seed 004 §1.1).
  Region &indexMap = getIndexMap();
  if (failed(verifyBlockArguments(*this, indexMap, "index", indexTypes(ctx, source.getRank()))))
    return failure();
  SmallVector<Type> targets = indexTypes(ctx, dest.getRank());
  SmallVector<Type> targetsAndKeep(targets);
  targetsAndKeep.push_back(IntegerType::get(ctx, 1));
  auto yield = llvm::dyn_cast<YieldOp>(indexMap.front().getTerminator());
  if (!yield)
    return emitOpError() << "region 'index' must end with 'array.yield'";
  TypeRange yielded = yield.getValues().getTypes();
  if (yielded != TypeRange(targets) && yielded != TypeRange(targetsAndKeep))
    return yield.emitOpError() << "yields " << typeList(yielded)
                               << ", but region 'index' of 'array.permute' must yield "
                               << typeList(targets) << " or " << typeList(targetsAndKeep)
                               << " (target indices, then an optional keep flag)";
  return verifyRegion(*this, getCombine(), "combine",
                      {dest.getElementType(), source.getElementType()}, {dest.getElementType()});
}

LogicalResult ReverseOp::verify() {
  if (getInput().getType().getRank() == 0)
    return emitOpError() << "cannot reverse a rank-0 array";
  return success();
}

LogicalResult TransposeOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getResult().getType();
  ArrayRef<int64_t> permutation = getPermutation();
  int64_t rank = input.getRank();
  if (rank == 0)
    return emitOpError() << "cannot transpose a rank-0 array";
  if (static_cast<int64_t>(permutation.size()) != rank)
    return emitOpError() << "permutation has " << permutation.size()
                         << " entries, but the input has rank " << rank;
  llvm::SmallVector<bool> seen(rank, false);
  for (int64_t d : permutation) {
    if (d < 0 || d >= rank || seen[d])
      return emitOpError() << "permutation must list each of the dimensions 0.." << rank - 1
                           << " once";
    seen[d] = true;
  }
  if (failed(verifySameElementType(getOperation(), input, result)))
    return failure();
  llvm::SmallVector<int64_t> permuted;
  for (int64_t d : permutation)
    permuted.push_back(input.getShape()[d]);
  if (result.getRank() != rank || !shapesAgree(result.getShape(), permuted))
    return emitOpError() << "result of type " << result
                         << " must have the input's dimensions in the permuted order (input type "
                         << input << ")";
  return success();
}

LogicalResult SliceOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getResult().getType();
  if (input.getRank() == 0)
    return emitOpError() << "cannot slice a rank-0 array";
  if (result.getRank() != input.getRank() ||
      !shapesAgree(result.getShape().drop_back(), input.getShape().drop_back()))
    return emitOpError() << "result of type " << result
                         << " must have the input's outer dimensions (input type " << input << ")";
  if (failed(verifySameElementType(getOperation(), input, result)))
    return failure();
  APInt constant;
  if (matchPattern(getOffset(), m_ConstantInt(&constant)) && constant.isNegative())
    return emitOpError() << "offset is the negative constant " << constant.getSExtValue();
  int64_t inner = result.getShape().back();
  if (matchPattern(getSize(), m_ConstantInt(&constant))) {
    if (constant.isNegative())
      return emitOpError() << "size is the negative constant " << constant.getSExtValue();
    if (!ShapedType::isDynamic(inner) && constant.getSExtValue() != inner)
      return emitOpError() << "size is the constant " << constant.getSExtValue()
                           << ", but the innermost result dimension is " << inner;
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getResult().getType();
  if (input.getRank() == 0 || result.getRank() == 0)
    return emitOpError() << "reshapes arrays of rank 1 or more (input type " << input
                         << ", result type " << result << ")";
  if (static_cast<int64_t>(getShape().size()) != result.getRank())
    return emitOpError() << "has " << getShape().size() << " extents for a result of rank "
                         << result.getRank();
  if (failed(verifySameElementType(getOperation(), input, result)))
    return failure();
  for (auto [d, extent] : llvm::enumerate(getShape())) {
    APInt constant;
    if (!matchPattern(extent, m_ConstantInt(&constant)))
      continue;
    if (constant.isNegative())
      return emitOpError() << "extent " << d << " is the negative constant " << constant.getSExtValue();
    int64_t dim = result.getShape()[d];
    if (!ShapedType::isDynamic(dim) && constant.getSExtValue() != dim)
      return emitOpError() << "extent " << d << " is the constant " << constant.getSExtValue()
                           << ", but dimension " << d << " of the result is " << dim;
  }
  if (input.hasStaticShape() && result.hasStaticShape() &&
      input.getNumElements() != result.getNumElements())
    return emitOpError() << "cannot reshape " << input.getNumElements() << " elements into "
                         << result.getNumElements();
  return success();
}

LogicalResult ConcatOp::verify() {
  RankedTensorType lhs = getLhs().getType();
  RankedTensorType rhs = getRhs().getType();
  RankedTensorType result = getResult().getType();
  if (lhs.getRank() == 0)
    return emitOpError() << "cannot concatenate rank-0 arrays";
  if (rhs.getRank() != lhs.getRank() ||
      !shapesAgree(rhs.getShape().drop_back(), lhs.getShape().drop_back()))
    return emitOpError() << "operands of types " << lhs << " and " << rhs
                         << " must have the same outer dimensions";
  if (rhs.getElementType() != lhs.getElementType() ||
      result.getElementType() != lhs.getElementType())
    return emitOpError() << "operands and result must have one element type";
  int64_t n = lhs.getShape().back(), m = rhs.getShape().back();
  int64_t inner = ShapedType::isDynamic(n) || ShapedType::isDynamic(m) ? ShapedType::kDynamic : n + m;
  llvm::SmallVector<int64_t> expected(lhs.getShape().drop_back());
  expected.push_back(inner);
  if (result.getRank() != lhs.getRank() || !shapesAgree(result.getShape(), expected))
    return emitOpError() << "result of type " << result
                         << " must have the operands' outer dimensions and the sum of their "
                            "innermost extents";
  return success();
}

LogicalResult ReplicateOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getResult().getType();
  if (result.getRank() != input.getRank() + 1 ||
      !shapesAgree(result.getShape().drop_back(), input.getShape()))
    return emitOpError() << "result of type " << result
                         << " must be the input shape with one more innermost dimension "
                            "(input type "
                         << input << ")";
  if (failed(verifySameElementType(getOperation(), input, result)))
    return failure();
  APInt constant;
  int64_t inner = result.getShape().back();
  if (matchPattern(getCount(), m_ConstantInt(&constant)) && constant.isNegative())
    return emitOpError() << "count is the negative constant " << constant.getSExtValue();
  if (!ShapedType::isDynamic(inner) && matchPattern(getCount(), m_ConstantInt(&constant)) &&
      constant.getSExtValue() != inner)
    return emitOpError() << "count is the constant " << constant.getSExtValue()
                         << ", but the innermost result dimension is " << inner;
  return success();
}

//===----------------------------------------------------------------------===//
// Fusion trees: cluster, vertical, horizontal, diagonal
//===----------------------------------------------------------------------===//
//
// What seed 002 §4.4 could not enforce in Haskell types, checked here:
// * structure: the `LeftHandSide` binding (the consumer of a vertical or
//   diagonal receives exactly the producer's arrays), the result lists of each
//   rule (vertical: consumer's; horizontal and diagonal: both sides'), one tree
//   per cluster, and leaves that are combinators;
// * seed 000 Fig. 2: a bound array x is read by the consumer only element by
//   element, in the order its producer produces it (VERTICAL/DIAGONAL with the
//   side condition x ∉ I₂: no read at arbitrary indices, no other order);
// * seed 000 §3.3: every output of a cluster is produced in order 0 or 1;
// * the INTRO rules' side conditions (no array is both an input and an output
//   of one cluster, p ∉ O₂ / p ∉ I₂) hold by construction in SSA form: a region
//   can only read values defined before its op, never the op's own results;
// * one iteration space: the two sides of a horizontal node with static
//   iteration shapes must agree unless a size-changing combinator is involved
//   (symbolic sizes and concestors are checked by the analysis's validator
//   before `array-fuse` builds the tree).
// Orders come from the `array.order` attribute of each leaf (0 when absent)
// and gather labels from `array.label`.

namespace {

bool isFusionNode(Operation *op) { return isa<VerticalOp, HorizontalOp, DiagonalOp>(op); }

bool isLeafCombinator(Operation *op) {
  return isa<MapOp, GenerateOp, GatherOp, ScatterOp, FoldOp, ScanOp, FilterOp, ExpandOp,
             BackpermuteOp, PermuteOp, ReverseOp, ReplicateOp>(op);
}

int64_t orderOf(Operation *leaf) {
  if (auto a = leaf->getAttrOfType<IntegerAttr>("array.order"))
    return a.getInt();
  return 0;
}

/// The leaf op producing `v`, looking through the results of nested fusion
/// nodes and clusters; null if `v` is not produced by a leaf of a tree.
Operation *producingLeaf(Value v) {
  for (int depth = 0; depth < 1024; ++depth) {
    if (auto argument = dyn_cast<BlockArgument>(v)) {
      // A consumer's block argument is the producer's yielded array (the binding).
      Operation *owner = argument.getOwner()->getParentOp();
      if (!isa_and_nonnull<VerticalOp, DiagonalOp>(owner) ||
          argument.getOwner()->getParent() != &owner->getRegion(1))
        return nullptr;
      v = cast<YieldOp>(owner->getRegion(0).front().getTerminator()).getValues()[argument.getArgNumber()];
      continue;
    }
    auto result = dyn_cast<OpResult>(v);
    if (!result)
      return nullptr;
    Operation *op = result.getOwner();
    if (isLeafCombinator(op))
      return op;
    unsigned index = result.getResultNumber();
    auto yieldOf = [](Region &r) { return cast<YieldOp>(r.front().getTerminator()); };
    if (auto c = dyn_cast<ClusterOp>(op)) {
      v = yieldOf(c.getBody()).getValues()[index];
    } else if (auto vert = dyn_cast<VerticalOp>(op)) {
      v = yieldOf(vert.getConsumer()).getValues()[index];
    } else if (isa<HorizontalOp, DiagonalOp>(op)) {
      Region &first = op->getRegion(0), &second = op->getRegion(1);
      unsigned n = yieldOf(first).getValues().size();
      v = index < n ? yieldOf(first).getValues()[index] : yieldOf(second).getValues()[index - n];
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

/// Every region of a fusion node or cluster: one block ending in array.yield,
/// holding only leaves and fusion nodes.
LogicalResult verifyTreeRegion(Operation *op, Region &region, StringRef name, bool mayHaveArguments) {
  Block &block = region.front();
  if (!mayHaveArguments && block.getNumArguments() != 0)
    return op->emitOpError() << "region '" << name << "' takes no arguments";
  if (!isa<YieldOp>(block.getTerminator()))
    return op->emitOpError() << "region '" << name << "' must end with 'array.yield'";
  if (isFusionNode(op) && block.getOperations().size() < 2)
    return op->emitOpError() << "region '" << name
                             << "' holds no combinator (each side of a fusion is a loop)";
  if (isFusionNode(op) && !isa<ClusterOp>(op->getParentOp()) && !isFusionNode(op->getParentOp()))
    return op->emitOpError() << "must be nested in an 'array.cluster' (a fusion tree has a root)";
  for (Operation &inner : block.without_terminator())
    if (!isLeafCombinator(&inner) && !isFusionNode(&inner))
      return op->emitOpError() << "region '" << name
                               << "' may only hold combinators and fusion nodes, found '"
                               << inner.getName() << "'";
  return success();
}

TypeRange yieldTypes(Region &region) {
  return cast<YieldOp>(region.front().getTerminator()).getValues().getTypes();
}

/// The order in which `user` reads operand `use`; failure for reads at
/// arbitrary indices (free variables, scatter destinations).
FailureOr<int64_t> readOrder(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto gather = dyn_cast<GatherOp>(user)) {
    if (use.get() == gather.getSource() && use.getOperandNumber() == 0) {
      if (auto label = gather->getAttrOfType<IntegerAttr>("array.label"))
        return label.getInt();
      return failure();
    }
    return orderOf(user);
  }
  if (auto scatter = dyn_cast<ScatterOp>(user))
    if (use.getOperandNumber() == 0)
      return failure(); // the destination is written at arbitrary indices
  if (isa<BackpermuteOp, ReverseOp, ReplicateOp>(user) && use.getOperandNumber() == 0) {
    // Gather-like sugar reads its source in its own order, like a gather.
    if (auto label = user->getAttrOfType<IntegerAttr>("array.label"))
      return label.getInt();
    return failure();
  }
  if (isa<PermuteOp>(user) && use.getOperandNumber() == 1)
    return failure(); // the destination is written at arbitrary indices
  return orderOf(user);
}

/// seed 000 Fig. 2 VERTICAL/DIAGONAL: each bound array is read only element by
/// element, in its producer's order.
LogicalResult verifyBinding(Operation *op, Region &producer, Region &consumer) {
  auto produced = cast<YieldOp>(producer.front().getTerminator()).getValues();
  Block &block = consumer.front();
  if (block.getArgumentTypes() != TypeRange(produced.getTypes()))
    return op->emitOpError() << "region 'consumer' must take the producer's arrays "
                             << typeList(produced.getTypes()) << " as arguments, but takes "
                             << typeList(block.getArgumentTypes());
  for (auto [i, argument] : llvm::enumerate(block.getArguments())) {
    Operation *leaf = producingLeaf(produced[i]);
    int64_t order = leaf ? orderOf(leaf) : 0;
    if (isa<VerticalOp>(op) && argument.use_empty())
      return op->emitOpError() << "array #" << i
                               << " bound by the consumer is never used: a vertical fusion drops "
                                  "the producer's arrays, so the consumer must stream them (use "
                                  "horizontal for independent loops)";
    for (OpOperand &use : argument.getUses()) {
      Operation *user = use.getOwner();
      if (isa<YieldOp>(user) && (user->getParentOp() == op || isFusionNode(user->getParentOp()) ||
                                 isa<ClusterOp>(user->getParentOp())))
        continue; // forwarded as a result
      // A use nested inside a leaf's element function reads at arbitrary indices.
      Operation *leafUser = user;
      while (leafUser && !isLeafCombinator(leafUser))
        leafUser = leafUser->getParentOp();
      if (leafUser != user)
        return op->emitOpError() << "array #" << i
                                 << " bound by the consumer is read at arbitrary indices inside '"
                                 << (leafUser ? leafUser->getName().getStringRef() : StringRef("?"))
                                 << "'; a fused array may only be streamed (seed 000 Fig. 2, x "
                                    "not in I2)";
      FailureOr<int64_t> read = readOrder(use);
      if (failed(read))
        return op->emitOpError() << "array #" << i << " bound by the consumer is read by '"
                                 << user->getName()
                                 << "' in no traversal order; it cannot be fused over (seed 000 "
                                    "Table 1)";
      if (*read != order)
        return op->emitOpError() << "array #" << i << " is produced in order " << order
                                 << " but read in order " << *read << " by '" << user->getName()
                                 << "' (seed 000 Fig. 2: fusion needs matching traversal orders)";
    }
  }
  return success();
}

/// A static iteration shape of a leaf, if it has one.
std::optional<SmallVector<int64_t>> staticIterationShape(Operation *leaf) {
  // A leaf produced in a gather's order runs over that gather's index space, not
  // its own shape (seed 000 §3.3): it tells nothing about the side's loop.
  if (orderOf(leaf) > 1)
    return std::nullopt;
  Value driver;
  if (auto gather = dyn_cast<GatherOp>(leaf))
    driver = gather.getIndices().empty() ? Value() : gather.getIndices().front();
  else if (auto scatter = dyn_cast<ScatterOp>(leaf))
    driver = scatter.getValues();
  else if (leaf->getNumOperands() > 0 && isa<RankedTensorType>(leaf->getOperand(0).getType()) &&
           !isa<GenerateOp>(leaf))
    driver = leaf->getOperand(0);
  else if (leaf->getNumResults() > 0)
    driver = leaf->getResult(0);
  if (!driver)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(driver.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  return SmallVector<int64_t>(type.getShape());
}

void collectLeaves(Region &region, SmallVectorImpl<Operation *> &leaves) {
  region.walk([&](Operation *op) {
    if (isLeafCombinator(op))
      leaves.push_back(op);
    return isLeafCombinator(op) ? WalkResult::skip() : WalkResult::advance();
  });
}

} // namespace

LogicalResult ClusterOp::verifyRegions() {
  Region &body = getBody();
  if (failed(verifyTreeRegion(*this, body, "body", false)))
    return failure();
  Block &block = body.front();
  if (std::distance(block.begin(), block.end()) != 2)
    return emitOpError() << "body must hold exactly one fusion tree (or one combinator) and the "
                            "yield";
  auto yield = cast<YieldOp>(block.getTerminator());
  if (TypeRange(yield.getValues().getTypes()) != getResultTypes())
    return emitOpError() << "yields " << typeList(yield.getValues().getTypes())
                         << ", but its results are " << typeList(getResultTypes());
  Operation *root = &block.front();
  for (auto [i, v] : llvm::enumerate(yield.getValues())) {
    if (v.getDefiningOp() != root)
      return emitOpError() << "output #" << i << " is not a result of the cluster's tree";
    if (Operation *leaf = producingLeaf(v)) {
      int64_t order = orderOf(leaf);
      if (order != 0 && order != 1)
        return emitOpError() << "output #" << i << " is produced in order " << order
                             << " (a gather's order), so it would not be fully computed; outputs "
                                "of a cluster must be in order 0 or 1 (seed 000 §3.3)";
    }
  }
  return success();
}

LogicalResult VerticalOp::verifyRegions() {
  if (failed(verifyTreeRegion(*this, getProducer(), "producer", false)) ||
      failed(verifyTreeRegion(*this, getConsumer(), "consumer", true)))
    return failure();
  if (yieldTypes(getConsumer()) != getResultTypes())
    return emitOpError() << "must yield the consumer's arrays " << typeList(yieldTypes(getConsumer()))
                         << ", but its results are " << typeList(getResultTypes());
  return verifyBinding(*this, getProducer(), getConsumer());
}

LogicalResult DiagonalOp::verifyRegions() {
  if (failed(verifyTreeRegion(*this, getProducer(), "producer", false)) ||
      failed(verifyTreeRegion(*this, getConsumer(), "consumer", true)))
    return failure();
  SmallVector<Type> expected(yieldTypes(getProducer()));
  llvm::append_range(expected, yieldTypes(getConsumer()));
  if (TypeRange(expected) != getResultTypes())
    return emitOpError() << "must yield the producer's then the consumer's arrays "
                         << typeList(expected) << ", but its results are "
                         << typeList(getResultTypes());
  return verifyBinding(*this, getProducer(), getConsumer());
}

LogicalResult HorizontalOp::verifyRegions() {
  if (failed(verifyTreeRegion(*this, getLeft(), "left", false)) ||
      failed(verifyTreeRegion(*this, getRight(), "right", false)))
    return failure();
  SmallVector<Type> expected(yieldTypes(getLeft()));
  llvm::append_range(expected, yieldTypes(getRight()));
  if (TypeRange(expected) != getResultTypes())
    return emitOpError() << "must yield the left then the right side's arrays " << typeList(expected)
                         << ", but its results are " << typeList(getResultTypes());
  // One iteration space: compare static iteration shapes when no size-changing
  // combinator (filter, expand, fold) is involved.
  SmallVector<Operation *> left, right;
  collectLeaves(getLeft(), left);
  collectLeaves(getRight(), right);
  // Filters and expands change the size of what follows them (seed 001 §1.3.6);
  // folds loop over their input's shape, which staticIterationShape reports.
  auto changesSize = [](Operation *op) { return isa<FilterOp, ExpandOp>(op); };
  if (llvm::any_of(left, changesSize) || llvm::any_of(right, changesSize))
    return success();
  auto firstShape = [](ArrayRef<Operation *> leaves) -> std::pair<Operation *, std::optional<SmallVector<int64_t>>> {
    for (Operation *leaf : leaves)
      if (auto shape = staticIterationShape(leaf))
        return {leaf, shape};
    return {nullptr, std::nullopt};
  };
  auto [l, lShape] = firstShape(left);
  auto [r, rShape] = firstShape(right);
  if (lShape && rShape && *lShape != *rShape)
    return emitOpError() << "fuses loops over different iteration spaces ('" << l->getName()
                         << "' and '" << r->getName()
                         << "' have static iteration shapes of different sizes)";
  return success();
}

//===----------------------------------------------------------------------===//
// C API
//===----------------------------------------------------------------------===//

extern "C" {
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Array, array);
}
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Array, array, mlir::array::ArrayDialect)
