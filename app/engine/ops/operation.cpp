#include "engine/ops/operation.hpp"

namespace hs {

std::string_view operationName(OperationKind kind) {
    switch (kind) {
        case OperationKind::Rotate:
            return "rotate";
        case OperationKind::Convolve:
            return "convolve";
        case OperationKind::Bow:
            return "bow";
        case OperationKind::Scope:
            return "scope";
        case OperationKind::Histogram:
            break;
    }
    return "histogram";
}

}  // namespace hs
