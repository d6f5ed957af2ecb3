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
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
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
  int numDependentDialects;
  /// Dialects the pass creates entities of; loaded by the pass manager before it runs.
  MlirDialectHandle (*const *dependentDialects)(void);
  int numOptions;
  const char *const *optionNames;
  const char *const *optionDescriptions;
  const char *const *optionDefaults;
  void *userData;
  /// Returns nonzero on success; on failure the pass has emitted an error.
  int (*run)(void *userData, MlirContext context, MlirOperation op, const char *const *optionValues);
} FusionRustPassInfo;

void fusionRegisterRustPass(const FusionRustPassInfo *info);
void fusionRegisterFusionPipeline(const char *passes);
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

  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    for (int i = 0; i < info->numDependentDialects; ++i)
      mlirDialectHandleInsertDialect(info->dependentDialects[i](), wrap(&registry));
  }

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
    if (!info->run(info->userData, wrap(&getContext()), wrap(getOperation()), values.data()))
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

namespace {
/// The options of `array-fusion`, forwarded to `array-fusion-analysis`.
struct FusionPipelineOptions : public mlir::PassPipelineOptions<FusionPipelineOptions> {
  Option<std::string> formulation{*this, "formulation", llvm::cl::desc("ILP formulation (see array-fusion-analysis)"), llvm::cl::init("combined")};
  Option<std::string> cost{*this, "cost", llvm::cl::desc("Cost model (see array-fusion-analysis)"), llvm::cl::init("reads-writes")};
  Option<std::string> timeLimit{*this, "time-limit", llvm::cl::desc("Solver time limit in seconds"), llvm::cl::init("10")};
  Option<std::string> gap{*this, "gap", llvm::cl::desc("Relative optimality gap"), llvm::cl::init("0")};
  Option<std::string> threads{*this, "threads", llvm::cl::desc("Solver threads"), llvm::cl::init("1")};
  Option<std::string> dumpIlp{*this, "dump-ilp", llvm::cl::desc("Write each block's ILP to this file"), llvm::cl::init("")};
};
std::string pipelineTemplate;
} // namespace

/// Registers `array-fusion` (on func.func): the passes in `passes`, a comma-separated
/// pipeline in which `ANALYSIS` stands for array-fusion-analysis with the options given.
void fusionRegisterFusionPipeline(const char *passes) {
  pipelineTemplate = passes;
  mlir::PassPipelineRegistration<FusionPipelineOptions>(
      "array-fusion",
      "The whole fusion pipeline on a function: desugar, remove identity gathers, choose the "
      "optimal clustering, materialize it as fusion trees; options are those of "
      "array-fusion-analysis",
      [](mlir::OpPassManager &pm, const FusionPipelineOptions &o) {
        std::string analysis = "array-fusion-analysis{formulation=" + o.formulation + " cost=" + o.cost +
                               " time-limit=" + o.timeLimit + " gap=" + o.gap + " threads=" + o.threads;
        if (!o.dumpIlp.getValue().empty())
          analysis += " dump-ilp=" + o.dumpIlp.getValue();
        analysis += "}";
        std::string text = pipelineTemplate;
        size_t at = text.find("ANALYSIS");
        if (at != std::string::npos)
          text.replace(at, 8, analysis);
        if (mlir::failed(mlir::parsePassPipeline(text, pm, llvm::errs())))
          llvm::errs() << "array-fusion: could not build the pipeline '" << text << "'\n";
      });
}
