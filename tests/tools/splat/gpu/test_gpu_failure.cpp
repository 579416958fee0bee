// The failure path of the GPU backend, runnable on machines without a GPU (CI): an
// impossible device index, or no device at all, is a run failure (exit 1) that names the
// phase, never a fallback to the CPU.
#include <doctest/doctest.h>

#include <string>

#include "backend.h"
#include "core/errors.h"

using namespace starlens;

TEST_CASE("an impossible --gpu-device fails with 'gpu device: ...'") {
  SplatSettings settings;
  settings.gpu_device = 4096;
  std::string message;
  try {
    auto backend = make_gpu_backend(settings);
    FAIL("no error for device 4096");
  } catch (const RunFailure& failure) {
    message = failure.what();
  }
  INFO(message);
  CHECK(message.rfind("gpu device: ", 0) == 0);
  // With a GPU: the index is out of range; without one: no usable GPU.
  const bool out_of_range = message.find("--gpu-device 4096 is out of range") != std::string::npos;
  const bool no_gpu = message.find("no usable GPU") != std::string::npos ||
                      message.find("no GPU found") != std::string::npos;
  CHECK((out_of_range || no_gpu));
}
