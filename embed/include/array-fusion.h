/*===- array-fusion.h - C API of the array dialect and its fusion passes ---===*\
|*                                                                            *|
|* For C and C++ hosts built on MLIR 22's C API. Link with libarray_fusion.so *|
|* (target/<profile>/, printed by `make plugin-path`), libMLIR-C.so and       *|
|* libMLIR.so; see the README, "Embedding: C".                                *|
|*                                                                            *|
|* Conventions are MLIR's C API's: handles hold one pointer; strings go out    *|
|* through MlirStringCallback and live only during the call; a failed         *|
|* creation returns a null handle and gives the reason to `onError`.          *|
\*===----------------------------------------------------------------------===*/

#ifndef ARRAY_FUSION_H
#define ARRAY_FUSION_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ----- The dialect -------------------------------------------------------- */

/// The `array` dialect: insert it into a registry with
/// mlirDialectHandleInsertDialect, or load it with mlirDialectHandleLoadDialect.
MlirDialectHandle arrayFusionGetDialectHandle(void);

/* ----- Passes ------------------------------------------------------------- */

/// Adds the passes and the `array-fusion` pipeline alias to MLIR's pass
/// registry (idempotent), so that mlirParsePassPipeline and
/// mlirOpPassManagerAddPipeline accept `func.func(array-fusion{cost=reads})`.
void arrayFusionRegisterPasses(void);

/// Where the fusion analysis writes the report of every block it analyses.
typedef struct ArrayFusionReports {
  void *ptr;
} ArrayFusionReports;

/// One pass each; add the func.func ones under
/// mlirOpPassManagerGetNestedUnder(pm, "func.func"), array-to-loops on the module.
MlirPass arrayFusionCreateRotateWhilePass(void);
MlirPass arrayFusionCreateDesugarPass(void);
MlirPass arrayFusionCreateSimplifyGathersPass(void);
MlirPass arrayFusionCreateFusePass(void);
MlirPass arrayFusionCreateToLoopsPass(void);

/// array-fusion-analysis with `options` written as in a pipeline string
/// ("cost=reads time-limit=5"; empty for the defaults), reporting into
/// `reports` (may be null). Null pass, and `onError` called, on a bad option.
MlirPass arrayFusionCreateAnalysisPass(MlirStringRef options,
                                       ArrayFusionReports reports,
                                       MlirStringCallback onError,
                                       void *userData);

/// Adds rotate-while, desugar, simplify-gathers, the analysis (with `options`, into
/// `reports`) and fuse on every func.func under `pm`, a module's pass manager.
MlirLogicalResult arrayFusionAddFusionPasses(MlirOpPassManager pm,
                                             MlirStringRef options,
                                             ArrayFusionReports reports,
                                             MlirStringCallback onError,
                                             void *userData);

/// Adds MLIR's lowering of the loop nests (after array-to-loops) down to the
/// LLVM dialect, bufferization included; `scf.parallel` becomes OpenMP loops
/// when `openmp` is true (the compiled code then needs libomp).
MlirLogicalResult arrayFusionAddLoweringToLLVM(MlirOpPassManager pm,
                                               bool openmp,
                                               MlirStringCallback onError,
                                               void *userData);

/* ----- Reports ------------------------------------------------------------ */

ArrayFusionReports arrayFusionReportsCreate(void);
/// Passes given the reports keep their own share: they may outlive this call.
void arrayFusionReportsDestroy(ArrayFusionReports reports);

/// Analysed blocks so far, in source order (a function without combinators
/// has none; nested scf blocks have their own).
intptr_t arrayFusionReportsGetNumFunctions(ArrayFusionReports reports);
void arrayFusionReportsGetFunctionName(ArrayFusionReports reports,
                                       intptr_t index,
                                       MlirStringCallback callback,
                                       void *userData);
/// "optimal", "time-limit", "unproven", "fallback" or "baseline", as reported
/// by fuse-opt --emit-clustering=json.
void arrayFusionReportsGetStatus(ArrayFusionReports reports, intptr_t index,
                                 MlirStringCallback callback, void *userData);
double arrayFusionReportsGetObjective(ArrayFusionReports reports,
                                      intptr_t index);
/// The proven lower bound (NaN when there is none).
double arrayFusionReportsGetBound(ArrayFusionReports reports, intptr_t index);
intptr_t arrayFusionReportsGetNumClusters(ArrayFusionReports reports,
                                          intptr_t index);
intptr_t arrayFusionReportsGetClusterSize(ArrayFusionReports reports,
                                          intptr_t index, intptr_t cluster);
/// The SSA name (or op position) of a member of a cluster.
void arrayFusionReportsGetClusterMember(ArrayFusionReports reports,
                                        intptr_t index, intptr_t cluster,
                                        intptr_t member,
                                        MlirStringCallback callback,
                                        void *userData);
/// All reports as the JSON of fuse-opt --emit-clustering=json.
void arrayFusionReportsPrintJson(ArrayFusionReports reports,
                                 MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // ARRAY_FUSION_H
