// The hook of fault_injection.hpp: this file defines the counted OpenCL entry points themselves. The engine
// is linked whole into every executable, so the executable's own calls bind to these definitions, which
// forward to the ICD loader's (the next definition, found with dlsym(RTLD_NEXT)). Drivers call through the
// loader's dispatch tables and never come here.
#include "engine/runtime/fault_injection.hpp"

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>

#include "engine/runtime/cl.hpp"  // the OpenCL C API too, cl_gl.h included
#include "engine/runtime/error.hpp"

namespace hs::faults {

namespace {

std::atomic<std::uint64_t> counted{0};
std::atomic<std::uint64_t> failAt{0};
std::atomic<int> failCode{CL_SUCCESS};
std::atomic<std::int64_t> memReferences{0};
std::once_flag environmentRead;

// CL_OUT_OF_RESOURCES or -5; 0 (CL_SUCCESS cannot be injected) for anything else.
int parseCode(std::string_view text) {
    if (text.empty()) return 0;
    if (text.front() == '-' || (text.front() >= '0' && text.front() <= '9')) {
        try {
            std::size_t used = 0;
            const int code = std::stoi(std::string(text), &used);
            return used == text.size() ? code : 0;
        } catch (const std::exception&) {
            return 0;
        }
    }
    // The codes the specification names: 0 to -72 and the extensions' -1000 to -1100.
    for (int code = -1; code >= -1100; --code) {
        if (clErrorName(code) == text) return code;
    }
    return 0;
}

void armFromEnvironment() {
    const char* value = std::getenv("HISTOSCOPE_FAIL_CL_CALL");
    if (value == nullptr || *value == '\0') return;
    const std::string_view text(value);
    const auto colon = text.find(':');
    std::uint64_t n = 0;
    bool valid = colon != std::string_view::npos && colon > 0;
    for (std::size_t i = 0; valid && i < colon; ++i) {
        valid = text[i] >= '0' && text[i] <= '9' && n < UINT64_MAX / 10;
        n = n * 10 + static_cast<std::uint64_t>(text[i] - '0');
    }
    const int code = valid ? parseCode(text.substr(colon + 1)) : 0;
    // Thrown through the OpenCL call in progress to whoever called it, as a bad setting of the user's.
    if (n == 0 || code == 0)
        throw UsageError("HISTOSCOPE_FAIL_CL_CALL=" + std::string(text) +
                         ": expected N:CL_ERROR_NAME (N from 1, the error's name or number)");
    failAt = n;
    failCode = code;
}

// The status the current call must fail with, or CL_SUCCESS to make it.
int injectedFailure() {
    std::call_once(environmentRead, armFromEnvironment);
    const std::uint64_t call = counted.fetch_add(1) + 1;
    return call == failAt.load() ? failCode.load() : CL_SUCCESS;
}

template <typename Function>
Function nextDefinition(const char* name) {
    void* symbol = dlsym(RTLD_NEXT, name);
    if (symbol == nullptr) {
        std::fprintf(stderr, "histoscope: the OpenCL library has no %s\n", name);
        std::abort();
    }
    return reinterpret_cast<Function>(symbol);
}

void trackCreated(cl_mem memory) {
    if (memory != nullptr) ++memReferences;
}
template <typename Object>
void trackCreated(Object) {}

}  // namespace

void failClCall(std::uint64_t n, int code) {
    std::call_once(environmentRead, [] {});  // a test's choice replaces the environment's
    failAt = 0;
    counted = 0;
    failCode = code;
    failAt = n;
}

std::uint64_t clCallsCounted() {
    return counted.load();
}

std::int64_t liveMemObjectReferences() {
    return memReferences.load();
}

}  // namespace hs::faults

// A counted call returning a status.
#define HS_COUNTED_STATUS_CALL(name, parameters, arguments)                                          \
    extern "C" CL_API_ENTRY cl_int CL_API_CALL name parameters {                                     \
        if (const int failure = hs::faults::injectedFailure()) return failure;                       \
        static const auto real = hs::faults::nextDefinition<cl_int(CL_API_CALL*) parameters>(#name); \
        return real arguments;                                                                       \
    }

// A counted call returning an object (or a mapped pointer), its status in the last parameter, errcode_ret.
#define HS_COUNTED_CREATE_CALL(type, name, parameters, arguments)                                  \
    extern "C" CL_API_ENTRY type CL_API_CALL name parameters {                                     \
        if (const int failure = hs::faults::injectedFailure()) {                                   \
            if (errcode_ret != nullptr) *errcode_ret = failure;                                    \
            return nullptr;                                                                        \
        }                                                                                          \
        static const auto real = hs::faults::nextDefinition<type(CL_API_CALL*) parameters>(#name); \
        type created = real arguments;                                                             \
        hs::faults::trackCreated(created);                                                         \
        return created;                                                                            \
    }

HS_COUNTED_CREATE_CALL(cl_context, clCreateContext,
                       (const cl_context_properties* properties, cl_uint num_devices,
                        const cl_device_id* devices,
                        void(CL_CALLBACK* pfn_notify)(const char*, const void*, size_t, void*),
                        void* user_data, cl_int* errcode_ret),
                       (properties, num_devices, devices, pfn_notify, user_data, errcode_ret))
HS_COUNTED_CREATE_CALL(cl_command_queue, clCreateCommandQueueWithProperties,
                       (cl_context context, cl_device_id device, const cl_queue_properties* properties,
                        cl_int* errcode_ret),
                       (context, device, properties, errcode_ret))
HS_COUNTED_CREATE_CALL(cl_mem, clCreateBuffer,
                       (cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                        cl_int* errcode_ret),
                       (context, flags, size, host_ptr, errcode_ret))
HS_COUNTED_CREATE_CALL(cl_mem, clCreateSubBuffer,
                       (cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
                        const void* buffer_create_info, cl_int* errcode_ret),
                       (buffer, flags, buffer_create_type, buffer_create_info, errcode_ret))
HS_COUNTED_CREATE_CALL(cl_mem, clCreateImage,
                       (cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                        const cl_image_desc* image_desc, void* host_ptr, cl_int* errcode_ret),
                       (context, flags, image_format, image_desc, host_ptr, errcode_ret))
HS_COUNTED_CREATE_CALL(cl_mem, clCreatePipe,
                       (cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
                        cl_uint pipe_max_packets, const cl_pipe_properties* properties, cl_int* errcode_ret),
                       (context, flags, pipe_packet_size, pipe_max_packets, properties, errcode_ret))
HS_COUNTED_CREATE_CALL(cl_mem, clCreateFromGLTexture,
                       (cl_context context, cl_mem_flags flags, cl_GLenum target, cl_GLint miplevel,
                        cl_GLuint texture, cl_int* errcode_ret),
                       (context, flags, target, miplevel, texture, errcode_ret))
HS_COUNTED_CREATE_CALL(cl_sampler, clCreateSamplerWithProperties,
                       (cl_context context, const cl_sampler_properties* sampler_properties,
                        cl_int* errcode_ret),
                       (context, sampler_properties, errcode_ret))
HS_COUNTED_CREATE_CALL(cl_program, clCreateProgramWithSource,
                       (cl_context context, cl_uint count, const char** strings, const size_t* lengths,
                        cl_int* errcode_ret),
                       (context, count, strings, lengths, errcode_ret))
HS_COUNTED_CREATE_CALL(cl_program, clCreateProgramWithBinary,
                       (cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                        const size_t* lengths, const unsigned char** binaries, cl_int* binary_status,
                        cl_int* errcode_ret),
                       (context, num_devices, device_list, lengths, binaries, binary_status, errcode_ret))
HS_COUNTED_CREATE_CALL(cl_kernel, clCreateKernel,
                       (cl_program program, const char* kernel_name, cl_int* errcode_ret),
                       (program, kernel_name, errcode_ret))
HS_COUNTED_CREATE_CALL(void*, clEnqueueMapBuffer,
                       (cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                        cl_map_flags map_flags, size_t offset, size_t size, cl_uint num_events_in_wait_list,
                        const cl_event* event_wait_list, cl_event* event, cl_int* errcode_ret),
                       (command_queue, buffer, blocking_map, map_flags, offset, size, num_events_in_wait_list,
                        event_wait_list, event, errcode_ret))

HS_COUNTED_STATUS_CALL(clBuildProgram,
                       (cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                        const char* options, void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                        void* user_data),
                       (program, num_devices, device_list, options, pfn_notify, user_data))
HS_COUNTED_STATUS_CALL(clSetKernelArg,
                       (cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void* arg_value),
                       (kernel, arg_index, arg_size, arg_value))
HS_COUNTED_STATUS_CALL(clEnqueueNDRangeKernel,
                       (cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                        const size_t* global_work_offset, const size_t* global_work_size,
                        const size_t* local_work_size, cl_uint num_events_in_wait_list,
                        const cl_event* event_wait_list, cl_event* event),
                       (command_queue, kernel, work_dim, global_work_offset, global_work_size,
                        local_work_size, num_events_in_wait_list, event_wait_list, event))
HS_COUNTED_STATUS_CALL(clEnqueueReadBuffer,
                       (cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read, size_t offset,
                        size_t size, void* ptr, cl_uint num_events_in_wait_list,
                        const cl_event* event_wait_list, cl_event* event),
                       (command_queue, buffer, blocking_read, offset, size, ptr, num_events_in_wait_list,
                        event_wait_list, event))
HS_COUNTED_STATUS_CALL(clEnqueueWriteBuffer,
                       (cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write, size_t offset,
                        size_t size, const void* ptr, cl_uint num_events_in_wait_list,
                        const cl_event* event_wait_list, cl_event* event),
                       (command_queue, buffer, blocking_write, offset, size, ptr, num_events_in_wait_list,
                        event_wait_list, event))
HS_COUNTED_STATUS_CALL(clEnqueueFillBuffer,
                       (cl_command_queue command_queue, cl_mem buffer, const void* pattern,
                        size_t pattern_size, size_t offset, size_t size, cl_uint num_events_in_wait_list,
                        const cl_event* event_wait_list, cl_event* event),
                       (command_queue, buffer, pattern, pattern_size, offset, size, num_events_in_wait_list,
                        event_wait_list, event))
HS_COUNTED_STATUS_CALL(clEnqueueCopyBuffer,
                       (cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                        size_t src_offset, size_t dst_offset, size_t size, cl_uint num_events_in_wait_list,
                        const cl_event* event_wait_list, cl_event* event),
                       (command_queue, src_buffer, dst_buffer, src_offset, dst_offset, size,
                        num_events_in_wait_list, event_wait_list, event))
HS_COUNTED_STATUS_CALL(clEnqueueCopyBufferToImage,
                       (cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image,
                        size_t src_offset, const size_t* dst_origin, const size_t* region,
                        cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event),
                       (command_queue, src_buffer, dst_image, src_offset, dst_origin, region,
                        num_events_in_wait_list, event_wait_list, event))
HS_COUNTED_STATUS_CALL(clEnqueueWriteImage,
                       (cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
                        const size_t* origin, const size_t* region, size_t input_row_pitch,
                        size_t input_slice_pitch, const void* ptr, cl_uint num_events_in_wait_list,
                        const cl_event* event_wait_list, cl_event* event),
                       (command_queue, image, blocking_write, origin, region, input_row_pitch,
                        input_slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event))
HS_COUNTED_STATUS_CALL(clEnqueueUnmapMemObject,
                       (cl_command_queue command_queue, cl_mem memobj, void* mapped_ptr,
                        cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event),
                       (command_queue, memobj, mapped_ptr, num_events_in_wait_list, event_wait_list, event))
HS_COUNTED_STATUS_CALL(clEnqueueMarkerWithWaitList,
                       (cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                        const cl_event* event_wait_list, cl_event* event),
                       (command_queue, num_events_in_wait_list, event_wait_list, event))
HS_COUNTED_STATUS_CALL(clEnqueueBarrierWithWaitList,
                       (cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                        const cl_event* event_wait_list, cl_event* event),
                       (command_queue, num_events_in_wait_list, event_wait_list, event))
HS_COUNTED_STATUS_CALL(clEnqueueAcquireGLObjects,
                       (cl_command_queue command_queue, cl_uint num_objects, const cl_mem* mem_objects,
                        cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event),
                       (command_queue, num_objects, mem_objects, num_events_in_wait_list, event_wait_list,
                        event))
HS_COUNTED_STATUS_CALL(clEnqueueReleaseGLObjects,
                       (cl_command_queue command_queue, cl_uint num_objects, const cl_mem* mem_objects,
                        cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event),
                       (command_queue, num_objects, mem_objects, num_events_in_wait_list, event_wait_list,
                        event))

// Not counted: only the references to memory objects are tracked.
extern "C" CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
    static const auto real = hs::faults::nextDefinition<cl_int(CL_API_CALL*)(cl_mem)>("clRetainMemObject");
    const cl_int status = real(memobj);
    if (status == CL_SUCCESS) ++hs::faults::memReferences;
    return status;
}

extern "C" CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
    static const auto real = hs::faults::nextDefinition<cl_int(CL_API_CALL*)(cl_mem)>("clReleaseMemObject");
    const cl_int status = real(memobj);
    if (status == CL_SUCCESS) --hs::faults::memReferences;
    return status;
}
