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
#include "mlir/CAPI/Pass.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/TypeID.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <mutex>
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
  /// The state of a new pass instance (NULL for none), shared with its clones, and
  /// its destructor, called when the last of them goes.
  void *(*newState)(void *userData);
  void (*dropState)(void *state);
  /// Returns nonzero on success; on failure the pass has emitted an error.
  int (*run)(void *userData, void *state, MlirContext context, MlirOperation op,
             const char *const *optionValues);
} FusionRustPassInfo;

void fusionRegisterRustPass(const FusionRustPassInfo *info);

/// A new instance of the registered pass `info`, outside any pipeline text: with `state`
/// (owned from here on; NULL for a fresh one from `newState`) and `options` parsed as
/// `--pass-pipeline` would (`cost=reads time-limit=5`). Returns a null pass and calls
/// `onError` with the reason when `info` is not registered or an option is bad.
MlirPass fusionCreateRustPass(const FusionRustPassInfo *info, void *state, const char *options,
                              void (*onError)(const char *message, void *userData), void *userData);

/// A pipeline alias of registered passes, filled in by Rust like FusionRustPassInfo.
typedef struct {
  const char *argument;
  const char *description;
  const char *anchor; // the op the passes run on, nested into on a pass manager for another op
  int numPasses;
  const char *const *passes; // arguments of registered passes, in order
  int optionsPass;           // the index of the pass that receives the pipeline's options
  const FusionRustPassInfo *optionsInfo; // that pass, for --help
} FusionRustPipelineInfo;

void fusionRegisterRustPipeline(const FusionRustPipelineInfo *info);
void fusionEmitWarning(MlirLocation location, const char *message);
void fusionEmitRemark(MlirLocation location, const char *message);
}

namespace {

class RustPass : public mlir::Pass {
public:
  RustPass(const FusionRustPassInfo *info, mlir::TypeID id)
      : RustPass(info, id, std::shared_ptr<void>(info->newState(info->userData), info->dropState)) {}

  /// A pass sharing `state`: a clone the pass manager makes to run on several ops.
  RustPass(const FusionRustPassInfo *info, mlir::TypeID id, std::shared_ptr<void> state)
      : Pass(id, info->anchor ? std::optional<llvm::StringRef>(info->anchor) : std::nullopt),
        info(info), id(id), state(std::move(state)) {
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
    auto copy = std::make_unique<RustPass>(info, id, state);
    copy->copyOptionValuesFrom(this);
    return copy;
  }

  void runOnOperation() override {
    std::vector<const char *> values;
    values.reserve(options.size());
    for (const auto &option : options)
      values.push_back(option->getValue().c_str());
    if (!info->run(info->userData, state.get(), wrap(&getContext()), wrap(getOperation()), values.data()))
      signalPassFailure();
  }

private:
  const FusionRustPassInfo *info;
  mlir::TypeID id;
  std::shared_ptr<void> state;
  std::vector<std::unique_ptr<Option<std::string>>> options;
};

} // namespace

namespace {
/// The TypeID each registered pass was given, so that an instance made by
/// fusionCreateRustPass is the same pass to the pass manager as one made from the registry.
std::mutex registeredMutex;
llvm::DenseMap<const FusionRustPassInfo *, mlir::TypeID> &registeredIds() {
  static llvm::DenseMap<const FusionRustPassInfo *, mlir::TypeID> ids;
  return ids;
}
} // namespace

void fusionRegisterRustPass(const FusionRustPassInfo *info) {
  static mlir::TypeIDAllocator allocator;
  mlir::TypeID id = allocator.allocate();
  {
    std::lock_guard<std::mutex> lock(registeredMutex);
    registeredIds()[info] = id;
  }
  mlir::registerPass([info, id]() -> std::unique_ptr<mlir::Pass> {
    return std::make_unique<RustPass>(info, id);
  });
}

MlirPass fusionCreateRustPass(const FusionRustPassInfo *info, void *state, const char *options,
                              void (*onError)(const char *message, void *userData), void *userData) {
  std::shared_ptr<void> shared(state ? state : info->newState(info->userData), info->dropState);
  mlir::TypeID id;
  {
    std::lock_guard<std::mutex> lock(registeredMutex);
    auto found = registeredIds().find(info);
    if (found == registeredIds().end()) {
      onError((std::string("pass '") + info->argument + "' is not registered").c_str(), userData);
      return MlirPass{nullptr};
    }
    id = found->second;
  }
  auto pass = std::make_unique<RustPass>(info, id, std::move(shared));
  auto reportError = [&](const llvm::Twine &message) -> mlir::LogicalResult {
    onError((llvm::Twine(info->argument) + ": " + message).str().c_str(), userData);
    return mlir::failure();
  };
  if (mlir::failed(pass->initializeOptions(options, reportError)))
    return MlirPass{nullptr};
  return wrap(static_cast<mlir::Pass *>(pass.release()));
}

void fusionEmitWarning(MlirLocation location, const char *message) {
  mlir::emitWarning(unwrap(location)) << message;
}

void fusionEmitRemark(MlirLocation location, const char *message) {
  mlir::emitRemark(unwrap(location)) << message;
}

namespace {
/// The options of a Rust pass outside any pass instance: what `--help` lists under a
/// pipeline that forwards its options to that pass.
struct RustPassOptions : public mlir::PassPipelineOptions<RustPassOptions> {
  explicit RustPassOptions(const FusionRustPassInfo *info) {
    for (int i = 0; i < info->numOptions; ++i)
      options.push_back(std::make_unique<Option<std::string>>(
          *this, info->optionNames[i], llvm::cl::desc(info->optionDescriptions[i]),
          llvm::cl::init(std::string(info->optionDefaults[i]))));
  }
  std::vector<std::unique_ptr<Option<std::string>>> options;
};
} // namespace

void fusionRegisterRustPipeline(const FusionRustPipelineInfo *info) {
  mlir::registerPassPipeline(
      info->argument, info->description,
      [info](mlir::OpPassManager &pm, llvm::StringRef options,
             llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler) -> mlir::LogicalResult {
        // On a pass manager for another op (fuse-opt --array-fusion runs on the module),
        // the passes run on every nested anchor op.
        mlir::OpPassManager &nested = pm.getOpAnchorName() == info->anchor ? pm : pm.nest(info->anchor);
        for (int i = 0; i < info->numPasses; ++i) {
          const mlir::PassInfo *pass = mlir::PassInfo::lookup(info->passes[i]);
          if (!pass)
            return errorHandler(llvm::Twine(info->argument) + ": pass '" + info->passes[i] + "' is not registered");
          // The pipeline's options go, as written, to the pass that declares them: it
          // parses them (quoting included) and reports bad ones.
          if (mlir::failed(pass->addToPipeline(nested, i == info->optionsPass ? options : "", errorHandler)))
            return mlir::failure();
        }
        return mlir::success();
      },
      [info](llvm::function_ref<void(const mlir::detail::PassOptions &)> handler) {
        RustPassOptions options(info->optionsInfo);
        handler(options);
      });
}
