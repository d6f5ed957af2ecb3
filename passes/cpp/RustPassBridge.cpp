//===- RustPassBridge.cpp - passes written in Rust, registered like C++ ones --===//
//
// The MLIR C API can wrap a Rust callback as a pass (mlirCreateExternalPass), but
// such a pass has no options and is not in the pass registry, so it cannot appear
// in --pass-pipeline strings or in --help. `RustPass` is a real mlir::Pass whose
// name, description and string options come from a descriptor filled in by Rust
// and whose runOnOperation calls back into Rust; `fusionRegisterRustPass` puts it
// in the global registry that MlirOptMain (fuse-opt) and any embedding compiler use.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/TypeID.h"

#include <memory>
#include <string>
#include <vector>

extern "C" {
/// Filled in by Rust (passes/src/bridge.rs); every string is NUL-terminated and
/// lives for the whole process.
typedef struct {
  const char *argument;    // name in pass pipelines, e.g. "array-fusion-analysis"
  const char *description; // one line for --help
  const char *anchor;      // op the pass runs on ("func.func"), or NULL for any op
  int numOptions;
  const char *const *optionNames;
  const char *const *optionDescriptions;
  const char *const *optionDefaults;
  void *userData;
  /// Returns nonzero on success; on failure the pass has emitted an error.
  int (*run)(void *userData, MlirOperation op, const char *const *optionValues);
} FusionRustPassInfo;

void fusionRegisterRustPass(const FusionRustPassInfo *info);
void fusionEmitWarning(MlirLocation location, const char *message);
void fusionEmitRemark(MlirLocation location, const char *message);
}

namespace {

class RustPass : public mlir::Pass {
public:
  RustPass(const FusionRustPassInfo *info, mlir::TypeID id)
      : Pass(id, info->anchor ? std::optional<llvm::StringRef>(info->anchor) : std::nullopt),
        info(info), id(id) {
    for (int i = 0; i < info->numOptions; ++i)
      options.push_back(std::make_unique<Option<std::string>>(
          *this, info->optionNames[i], llvm::cl::desc(info->optionDescriptions[i]),
          llvm::cl::init(std::string(info->optionDefaults[i]))));
  }

  llvm::StringRef getName() const override { return info->argument; }
  llvm::StringRef getArgument() const override { return info->argument; }
  llvm::StringRef getDescription() const override { return info->description; }
  bool canScheduleOn(mlir::RegisteredOperationName) const override { return true; }

  std::unique_ptr<mlir::Pass> clonePass() const override {
    auto copy = std::make_unique<RustPass>(info, id);
    copy->copyOptionValuesFrom(this);
    return copy;
  }

  void runOnOperation() override {
    std::vector<const char *> values;
    values.reserve(options.size());
    for (const auto &option : options)
      values.push_back(option->getValue().c_str());
    if (!info->run(info->userData, wrap(getOperation()), values.data()))
      signalPassFailure();
  }

private:
  const FusionRustPassInfo *info;
  mlir::TypeID id;
  std::vector<std::unique_ptr<Option<std::string>>> options;
};

} // namespace

void fusionRegisterRustPass(const FusionRustPassInfo *info) {
  static mlir::TypeIDAllocator allocator;
  mlir::TypeID id = allocator.allocate();
  mlir::registerPass([info, id]() -> std::unique_ptr<mlir::Pass> {
    return std::make_unique<RustPass>(info, id);
  });
}

void fusionEmitWarning(MlirLocation location, const char *message) {
  mlir::emitWarning(unwrap(location)) << message;
}

void fusionEmitRemark(MlirLocation location, const char *message) {
  mlir::emitRemark(unwrap(location)) << message;
}
