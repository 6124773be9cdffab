// The kernel stage kind: a user's OpenCL C file run as an image stage (docs/kernel-lab.md). The file's first
// kernel takes (src, dst, width, height) and then one argument per `// @param` line; it runs once per pixel
// over width x height, the width rounded up to the work-group size (--kernel-group; 0: the driver's choice).
// Its program goes through the device's program cache like every built-in kernel. A build failure is one
// line, FILE:LINE:COL of the first error (lab/build_log.hpp), then the device; the log rides along.
#include <cmath>
#include <sstream>

#include "engine/lab/annotations.hpp"
#include "engine/lab/build_log.hpp"
#include "engine/ops/device_launch.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"
#include "engine/stages/stage.hpp"

namespace hs::stages {

namespace {

// A kernel's source is text a person writes: far below this.
constexpr std::uint64_t kMaxKernelBytes = std::uint64_t{1} << 20;
constexpr int kMaxGroup = 1024;

class UserKernelKind;
const UserKernelKind& userKernelKind();

class UserKernelStage final : public Stage {
  public:
    UserKernelStage(Values values, std::string path, std::string text, lab::KernelSource source,
                    std::vector<double> arguments, int group)
        : Stage(std::move(values)),
          path_(std::move(path)),
          text_(std::move(text)),
          source_(std::move(source)),
          arguments_(std::move(arguments)),
          group_(group) {}

    const StageKind& kind() const override;
    const StrategyInfo* requestedStrategy() const override { return nullptr; }

    StageRun run(DeviceContext* on, PixelSource& input) const override {
        DeviceContext& device = requireDevice(on, kind());
        const int width = input.width();
        const int height = input.height();
        launch::requirePixels(width, height, "kernel");
        if (auto problem = launch::pixelBufferProblem(device.info(), width, height); !problem.empty())
            throw OpenClError("kernel", 0, "device " + device.info().name + ": " + problem);
        const KernelBuild build{path_, "", text_};
        const cl::Program program = buildOn(device, build);
        TimingLog log;
        cl::Buffer output = launch::newPixelBuffer(device, width, height);
        withClErrors("device " + device.info().name + ": " + path_ + ": kernel " + source_.kernelName, [&] {
            cl::Kernel kernel(program, source_.kernelName.c_str());
            const auto expected = 4 + source_.params.size();
            const auto declared = kernel.getInfo<CL_KERNEL_NUM_ARGS>();
            if (declared != expected)
                throw InputError(path_ + ": kernel " + source_.kernelName + " takes " +
                                 std::to_string(declared) + " arguments; (src, dst, width, height) and its " +
                                 std::to_string(source_.params.size()) + " @param lines make " +
                                 std::to_string(expected));
            const cl::Buffer& pixels = input.device(device, log);
            setKernelArgs(kernel, 0, pixels, output, cl_int{width}, cl_int{height});
            for (std::size_t i = 0; i < source_.params.size(); ++i) {
                const auto index = static_cast<cl_uint>(4 + i);
                if (source_.params[i].type == lab::KernelParam::Type::Int)
                    kernel.setArg(index, static_cast<cl_int>(arguments_[i]));
                else
                    kernel.setArg(index, static_cast<cl_float>(arguments_[i]));
            }
            const auto group = static_cast<std::size_t>(group_);
            const auto columns = static_cast<std::size_t>(width);
            const cl::NDRange global(group == 0 ? columns : (columns + group - 1) / group * group,
                                     static_cast<std::size_t>(height));
            device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, global,
                                                group == 0 ? cl::NullRange : cl::NDRange(group, 1), nullptr,
                                                log.track(hs::Stage::Kernel, source_.kernelName));
        });
        StageRun out;
        out.timings = log.collect();
        out.builds = {build};
        out.image.emplace(device, std::move(output), width, height);
        return out;
    }

    // A user kernel has no CPU reference of ours: a caller that needs one (a reference pipeline) is told so
    // instead of being handed an image that would pass for one. The lab checks an edited built-in against
    // the reference of the stage it replaces.
    ImageRGBA8 reference(const ImageRGBA8&) const override {
        throw UsageError("kernel: " + path_ + " is a user kernel, which has no CPU reference");
    }

    void writeJson(JsonWriter& json) const override {
        json.field("file", path_).field("kernel", source_.kernelName).field("work_group", group_);
        json.key("params").beginObject();
        for (std::size_t i = 0; i < source_.params.size(); ++i)
            json.field(source_.params[i].name, arguments_[i]);
        json.endObject();
    }

    std::string summary() const override {
        std::ostringstream text;
        text << source_.kernelName << " (" << path_ << ")";
        for (std::size_t i = 0; i < source_.params.size(); ++i)
            text << (i == 0 ? ": " : ", ") << source_.params[i].name << '=' << arguments_[i];
        return text.str();
    }

  private:
    // The program, or OpenClError "FILE:LINE:COL: error: MESSAGE (device NAME)" carrying the whole log.
    cl::Program buildOn(DeviceContext& device, const KernelBuild& build) const {
        try {
            return device.programFromText(path_, text_, build.options);
        } catch (const OpenClError& error) {
            if (error.buildLog().empty()) throw;
            const lab::ParsedLog log = lab::parseBuildLog(error.buildLog());
            std::string line;
            if (const lab::Diagnostic* first = log.firstError()) {
                // An assembler's error (ptxas) has no source line: the file alone.
                const std::string where =
                    first->line > 0 ? ':' + std::to_string(first->line) + ':' + std::to_string(first->column)
                                    : "";
                line = path_ + where + ": error: " + first->message;
            } else {
                // A format we do not know: its first non-empty line, as the driver wrote it.
                std::istringstream lines(error.buildLog());
                std::string text;
                while (std::getline(lines, text) && text.find_first_not_of(" \t\r") == std::string::npos) {
                }
                line = path_ + ": build failed: " + text;
            }
            throw OpenClError(error.call(), 0, line + " (device " + device.info().name + ")",
                              error.buildLog());
        }
    }

    std::string path_;
    std::string text_;
    lab::KernelSource source_;
    std::vector<double> arguments_;  // per @param, in order
    int group_;
};

class UserKernelKind final : public StageKind {
  public:
    std::string_view name() const override { return "kernel"; }
    std::string_view label() const override { return "Kernel"; }
    std::string_view help() const override {
        return "Runs a user's OpenCL C image kernel from a file (docs/kernel-lab.md), one work-item per "
               "pixel.";
    }
    int order() const override { return 50; }
    bool producesImage() const override { return true; }
    const std::vector<Parameter>& parameters() const override {
        static const std::vector<Parameter> list = {
            {.name = "kernel",
             .placeholder = "FILE.cl",
             .label = "Kernel file",
             .help =
                 "A user kernel: kernel void NAME(global const uchar4* src, global uchar4* dst, int width, "
                 "int height, ...) and its // @param lines (docs/kernel-lab.md).",
             .type = Parameter::Type::Text},
            {.name = "param",
             .placeholder = "NAME=VALUE",
             .label = "Parameters",
             .help = "A value for the kernel's @param NAME (repeatable); others take their default.",
             .type = Parameter::Type::Text,
             .repeated = true},
            {.name = "kernel-group",
             .placeholder = "N",
             .label = "Work-group size",
             .help = "Work-items per work-group (N x 1), the width rounded up to it; 0: the driver's choice.",
             .type = Parameter::Type::Integer,
             .min = 0,
             .max = kMaxGroup,
             .defaultValue = 0,
             .automaticText = "driver's choice",
             .defaultText = "0"},
        };
        return list;
    }
    std::string_view trigger() const override { return "kernel"; }

    std::shared_ptr<const Stage> configure(const Values& values, std::string_view strategy,
                                           const FileReader& readFile) const override {
        requireKnownValues(*this, values);
        if (!strategy.empty()) throw UsageError("kernel: has no strategies to choose from");
        const auto file = values.find("kernel");
        if (file == values.end() || file->second.empty())
            throw UsageError("kernel: --kernel FILE.cl is required");
        const std::string& path = file->second;
        std::string text = readFile(path, kMaxKernelBytes, "kernel");
        lab::KernelSource source = lab::parseKernelSource(text, path);
        std::vector<double> arguments;
        for (const auto& param : source.params) arguments.push_back(param.defaultValue);
        if (const auto given = values.find("param"); given != values.end()) {
            std::istringstream lines(given->second);
            std::vector<std::string> seen;
            for (std::string assignment; std::getline(lines, assignment);) {
                const auto equals = assignment.find('=');
                if (equals == std::string::npos)
                    throw UsageError("--param: '" + assignment + "' is not NAME=VALUE");
                const std::string name = assignment.substr(0, equals);
                std::size_t index = 0;
                while (index < source.params.size() && source.params[index].name != name) ++index;
                if (index == source.params.size()) {
                    std::string known;
                    for (const auto& param : source.params) known += (known.empty() ? "" : ", ") + param.name;
                    throw UsageError("--param " + name + ": " + path + " declares no @param " + name +
                                     " (it declares: " + (known.empty() ? "none" : known) + ")");
                }
                if (std::find(seen.begin(), seen.end(), name) != seen.end())
                    throw UsageError("--param " + name + ": given twice");
                seen.push_back(name);
                arguments[index] = lab::parseParamValue(source.params[index], assignment.substr(equals + 1));
            }
        }
        const std::string groupText = valueOr(*this, values, "kernel-group").value_or("0");
        int group = 0;
        try {
            std::size_t used = 0;
            group = std::stoi(groupText, &used);
            if (used != groupText.size() || group < 0 || group > kMaxGroup) throw std::out_of_range("range");
        } catch (const std::exception&) {
            throw UsageError("--kernel-group: '" + groupText + "' is not a whole number in 0.." +
                             std::to_string(kMaxGroup));
        }
        return std::make_shared<UserKernelStage>(values, path, std::move(text), std::move(source),
                                                 std::move(arguments), group);
    }
};

const UserKernelKind& userKernelKind() {
    static const UserKernelKind kind;
    return kind;
}

const StageKind& UserKernelStage::kind() const {
    return userKernelKind();
}

[[maybe_unused]] const bool registered = registerKind(userKernelKind());

}  // namespace

}  // namespace hs::stages
