// Whether the process is exiting. A library may release OpenCL objects from its own exit-time
// destructors (CLBlast's program cache, freed as libclblast is unloaded), after the Vulkan loader's
// layers and drivers have run theirs: destroying Vulkan objects then calls into finalized code (the
// validation layer crashed there). Once the process has run cl2vk's exit handler (as soon as
// `exit` begins, before any library is finalized), the executor's objects are left to the end of
// the process, which reclaims them, instead of being destroyed.
#pragma once

namespace cl2vk::vulkan {

bool processIsExiting();

}  // namespace cl2vk::vulkan
