/* embed FILE FUNCTION N: a C host of the array fusion passes, through MLIR's C API and
 * include/array-fusion.h only.
 *
 * It registers the array dialect in its own context, parses FILE, builds its own pass
 * manager (the fusion passes with cost=reads, array-to-loops, MLIR's lowering to LLVM),
 * prints every function's clustering from the reports, JIT-compiles the module and calls
 * FUNCTION, which must have the type (index) -> tensor<i64>, on N.
 *
 * Build (the lit test lit/embedding/c-api-example.mlir does exactly this):
 *   cc -std=c11 -Iembed/include -I/usr/lib/llvm-22/include examples/embedding/c/embed.c \
 *      -Ltarget/debug -larray_fusion -L.deps/mlir-c -lMLIR-C \
 *      -Wl,-rpath,$PWD/target/debug -Wl,-rpath,$PWD/.deps/mlir-c -o target/debug/embed-c
 */
#include "array-fusion.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_to(MlirStringRef text, void *stream) {
  fwrite(text.data, 1, text.length, (FILE *)stream);
}

static void report_error(MlirStringRef text, void *userData) {
  (void)userData;
  fputs("embed: error: ", stderr);
  print_to(text, stderr);
  fputc('\n', stderr);
}

static int fail(const char *message) {
  fprintf(stderr, "embed: error: %s\n", message);
  return 1;
}

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

/* The func.func named `name` in `module`, or a null operation. */
static MlirOperation find_function(MlirModule module, const char *name) {
  MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  while (!mlirOperationIsNull(op)) {
    MlirAttribute symbol = mlirOperationGetAttributeByName(op, str("sym_name"));
    if (!mlirAttributeIsNull(symbol) && mlirAttributeIsAString(symbol) &&
        mlirStringRefEqual(mlirStringAttrGetValue(symbol), str(name)))
      return op;
    op = mlirOperationGetNextInBlock(op);
  }
  return (MlirOperation){NULL};
}

/* Whether `function` has the type (index) -> tensor<i64>. */
static bool takes_index_returns_i64_scalar(MlirOperation function) {
  MlirAttribute type = mlirOperationGetAttributeByName(function, str("function_type"));
  if (mlirAttributeIsNull(type) || !mlirAttributeIsAType(type))
    return false;
  MlirType signature = mlirTypeAttrGetValue(type);
  if (mlirFunctionTypeGetNumInputs(signature) != 1 || mlirFunctionTypeGetNumResults(signature) != 1)
    return false;
  MlirType input = mlirFunctionTypeGetInput(signature, 0);
  MlirType result = mlirFunctionTypeGetResult(signature, 0);
  return mlirTypeIsAIndex(input) && mlirTypeIsARankedTensor(result) && mlirShapedTypeGetRank(result) == 0 &&
         mlirTypeIsAInteger(mlirShapedTypeGetElementType(result)) &&
         mlirIntegerTypeGetWidth(mlirShapedTypeGetElementType(result)) == 64;
}

static void print_reports(ArrayFusionReports reports) {
  intptr_t functions = arrayFusionReportsGetNumFunctions(reports);
  for (intptr_t f = 0; f < functions; ++f) {
    arrayFusionReportsGetFunctionName(reports, f, print_to, stdout);
    printf(": %ld loop(s), objective %g, ", (long)arrayFusionReportsGetNumClusters(reports, f),
           arrayFusionReportsGetObjective(reports, f));
    arrayFusionReportsGetStatus(reports, f, print_to, stdout);
    printf("\n");
    for (intptr_t c = 0; c < arrayFusionReportsGetNumClusters(reports, f); ++c) {
      printf("  [");
      for (intptr_t m = 0; m < arrayFusionReportsGetClusterSize(reports, f, c); ++m) {
        if (m > 0)
          printf(", ");
        arrayFusionReportsGetClusterMember(reports, f, c, m, print_to, stdout);
      }
      printf("]\n");
    }
  }
}

/* A rank-0 memref in the C interface: what a tensor<i64> result becomes. */
typedef struct {
  int64_t *allocated;
  int64_t *aligned;
  int64_t offset;
} ScalarMemref;

int main(int argc, char **argv) {
  if (argc != 4)
    return fail("usage: embed FILE FUNCTION N");
  const char *file = argv[1], *name = argv[2];
  char *end;
  int64_t n = strtoll(argv[3], &end, 10);
  if (*end != '\0')
    return fail("N is not an integer");

  /* The host's context, with the array dialect beside the upstream ones. */
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirDialectHandleInsertDialect(arrayFusionGetDialectHandle(), registry);
  MlirContext context = mlirContextCreate();
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(context);
  mlirRegisterAllLLVMTranslations(context);

  int status = 1;
  MlirModule module = mlirModuleCreateParseFromFile(context, str(file));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "embed: error: %s does not parse\n", file);
    goto destroy_context;
  }
  MlirOperation function = find_function(module, name);
  if (mlirOperationIsNull(function)) {
    fprintf(stderr, "embed: error: no function @%s in %s\n", name, file);
    goto destroy_module;
  }
  if (!takes_index_returns_i64_scalar(function)) {
    fprintf(stderr, "embed: error: @%s does not have the type (index) -> tensor<i64>\n", name);
    goto destroy_module;
  }
  /* The C interface (_mlir_ciface_NAME) is what the execution engine calls. */
  mlirOperationSetDiscardableAttributeByName(function, str("llvm.emit_c_interface"), mlirUnitAttrGet(context));

  /* The host's pass manager, with the fusion passes in it. */
  ArrayFusionReports reports = arrayFusionReportsCreate();
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirOpPassManager modulePm = mlirPassManagerGetAsOpPassManager(pm);
  if (mlirLogicalResultIsFailure(arrayFusionAddFusionPasses(modulePm, str("cost=reads"), reports, report_error, NULL)))
    goto destroy_pm;
  mlirPassManagerAddOwnedPass(pm, arrayFusionCreateToLoopsPass());
  if (mlirLogicalResultIsFailure(arrayFusionAddLoweringToLLVM(modulePm, false, report_error, NULL)))
    goto destroy_pm;
  if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    fprintf(stderr, "embed: error: the pipeline failed\n");
    goto destroy_pm;
  }
  print_reports(reports);

  MlirExecutionEngine engine = mlirExecutionEngineCreate(module, 2, 0, NULL, false, false);
  if (mlirExecutionEngineIsNull(engine)) {
    fprintf(stderr, "embed: error: the module does not compile\n");
    goto destroy_pm;
  }
  /* Packed arguments: a memref result comes first, through a pointer to its descriptor. */
  ScalarMemref result = {0};
  ScalarMemref *resultPointer = &result;
  void *arguments[] = {&resultPointer, &n};
  if (mlirLogicalResultIsFailure(mlirExecutionEngineInvokePacked(engine, str(name), arguments))) {
    fprintf(stderr, "embed: error: @%s cannot be called\n", name);
  } else {
    printf("@%s(%lld) = %lld\n", name, (long long)n, (long long)result.aligned[result.offset]);
    free(result.allocated); /* the caller owns a returned buffer */
    status = 0;
  }
  mlirExecutionEngineDestroy(engine);

destroy_pm:
  mlirPassManagerDestroy(pm);
  arrayFusionReportsDestroy(reports);
destroy_module:
  mlirModuleDestroy(module);
destroy_context:
  mlirContextDestroy(context);
  return status;
}
