# CL2VK_TEST_VALIDATION runs every test under VK_LAYER_KHRONOS_validation, enabled from outside the
# program (VK_INSTANCE_LAYERS), so that every Vulkan instance a test creates is validated, whatever
# the code under test asks for. tests/validation/vk_layer_settings.txt turns on synchronization
# validation and makes any error or warning raise SIGTRAP, which fails the test.
#   AUTO (default): on when the layer is installed, else off with a note
#   ON: the layer must be installed (CI: tools/run-tests.sh); OFF: never
set(CL2VK_TEST_VALIDATION AUTO CACHE STRING
    "Run the tests under VK_LAYER_KHRONOS_validation: AUTO (when installed), ON (required) or OFF")
set_property(CACHE CL2VK_TEST_VALIDATION PROPERTY STRINGS AUTO ON OFF)

# The loader finds explicit layers through these manifests (or VK_LAYER_PATH).
find_file(CL2VK_VALIDATION_LAYER_MANIFEST VkLayer_khronos_validation.json
  HINTS ENV VK_LAYER_PATH
  PATH_SUFFIXES share/vulkan/explicit_layer.d
  PATHS /etc/vulkan/explicit_layer.d
  DOC "VK_LAYER_KHRONOS_validation's manifest (Debian: vulkan-validationlayers)")

if(CL2VK_TEST_VALIDATION STREQUAL "AUTO")
  if(CL2VK_VALIDATION_LAYER_MANIFEST)
    set(cl2vk_validate_tests ON)
  else()
    set(cl2vk_validate_tests OFF)
    message(STATUS "Tests run without the Vulkan validation layer: VkLayer_khronos_validation.json "
                   "not found (install vulkan-validationlayers)")
  endif()
elseif(CL2VK_TEST_VALIDATION STREQUAL "ON")
  if(NOT CL2VK_VALIDATION_LAYER_MANIFEST)
    message(FATAL_ERROR "CL2VK_TEST_VALIDATION=ON but VK_LAYER_KHRONOS_validation is not installed "
                        "(no VkLayer_khronos_validation.json); install vulkan-validationlayers or "
                        "configure with -DCL2VK_TEST_VALIDATION=OFF")
  endif()
  set(cl2vk_validate_tests ON)
elseif(CL2VK_TEST_VALIDATION STREQUAL "OFF")
  set(cl2vk_validate_tests OFF)
else()
  message(FATAL_ERROR "CL2VK_TEST_VALIDATION=${CL2VK_TEST_VALIDATION}: give AUTO, ON or OFF")
endif()

# Tests that use the layer on purpose check for it themselves; this says whether CI's setup is on.
set(CL2VK_TESTS_VALIDATED ${cl2vk_validate_tests})
if(cl2vk_validate_tests)
  list(APPEND CL2VK_TEST_ENVIRONMENT
    "VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation"
    "VK_LAYER_SETTINGS_PATH=${PROJECT_SOURCE_DIR}/tests/validation/vk_layer_settings.txt")
  message(STATUS "Tests run under VK_LAYER_KHRONOS_validation (${CL2VK_VALIDATION_LAYER_MANIFEST})")
endif()
