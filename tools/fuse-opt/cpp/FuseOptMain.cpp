//===- FuseOptMain.cpp - fuse-opt's command line, by MLIR's own driver ------===//
//
// fuse-opt behaves exactly like mlir-opt (same flags, diagnostics, exit codes,
// --split-input-file, --verify-diagnostics, --mlir-print-ir-after-all, pass
// pipelines), because it *is* MLIR's driver: this file registers every upstream
// dialect, extension, pass and GPU-to-LLVM-IR translation, adds the dialects and passes handed over from Rust,
// and calls MlirOptMain.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace {
std::string versionLine;
} // namespace

// `checkInput` is called with the input file's name (`-` for stdin) once the command
// line is parsed and before MLIR reads the input; a non-zero result (after it has
// reported why) ends the run with exit code 1. It is not called for the flags that
// read no input.
extern "C" int fuseOptMain(int argc, char **argv, const char *version,
                           const MlirDialectHandle *dialects, int numDialects,
                           int (*checkInput)(const char *inputFilename)) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // As mlir-opt: gpu-module-to-binary translates gpu.modules to LLVM IR (PTX, AMDGPU).
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  for (int i = 0; i < numDialects; ++i)
    mlirDialectHandleInsertDialect(dialects[i], wrap(&registry));
  mlir::registerAllPasses();

  versionLine = version;
  llvm::cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { os << versionLine << "\n"; });

  // MlirOptMain(argc, argv, toolName, registry) in two steps, so that the input can be
  // checked between them.
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "fuse-opt: optimal fusion of data-parallel array combinators\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (!config.shouldShowDialects() && !config.shouldListPasses() &&
      checkInput(inputFilename.c_str()) != 0)
    return 1;
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
}
