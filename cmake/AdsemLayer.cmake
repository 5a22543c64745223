# adsem_layer(LAYER DEPS...): the layer's core/ becomes adsem_<layer>_core, every other folder
# below the layer (one per calculus) becomes adsem_<layer>_<calc> on top of it, and adsem_<layer>
# gathers them all. Adding a calculus folder needs no CMake edit, and a calculus that does not
# compile does not stop the core libraries and their tests from building.
include(GNUInstallDirs)

# adsem_exported(name): the library is installed and exported as adsem::<name without adsem_>
# (cmake/AdsemInstall.cmake installs every target listed here), and its headers are found from
# the source root in the build tree and from include/ once installed ("syntax/core/...").
function(adsem_exported name)
  get_target_property(type ${name} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    set(scope INTERFACE)
  else()
    set(scope PUBLIC)
  endif()
  target_include_directories(${name} ${scope} $<BUILD_INTERFACE:${ADSEM_ROOT}>
                                              $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  string(REGEX REPLACE "^adsem_" "" export_name ${name})
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${export_name})
  set_property(GLOBAL APPEND PROPERTY ADSEM_EXPORTED_TARGETS ${name})
endfunction()

function(adsem_add_library name dir)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${dir}/*.cpp)
  if(sources)
    add_library(${name} STATIC ${sources})
    target_link_libraries(${name} PUBLIC ${ARGN})
  else()
    add_library(${name} INTERFACE)
    target_link_libraries(${name} INTERFACE ${ARGN})
  endif()
  adsem_exported(${name})
endfunction()

# CORE_DEPS: what the layer's core needs; CALC_DEPS: what each calculus folder needs besides the
# layer core (use @CALC@ for the calculus folder name, e.g. adsem_syntax_@CALC@).
function(adsem_layer layer)
  cmake_parse_arguments(L "" "" "CORE_DEPS;CALC_DEPS" ${ARGN})
  adsem_add_library(adsem_${layer}_core ${CMAKE_CURRENT_SOURCE_DIR}/core ${L_CORE_DEPS})
  add_library(adsem_${layer} INTERFACE)
  target_link_libraries(adsem_${layer} INTERFACE adsem_${layer}_core)
  adsem_exported(adsem_${layer})
  file(GLOB children LIST_DIRECTORIES true ${CMAKE_CURRENT_SOURCE_DIR}/*)
  foreach(child ${children})
    get_filename_component(calc ${child} NAME)
    if(IS_DIRECTORY ${child} AND NOT calc STREQUAL "core")
      string(REPLACE "@CALC@" ${calc} wanted "${L_CALC_DEPS}")
      set(deps "")
      foreach(dep ${wanted}) # a calculus may lack a folder in a lower layer (e.g. properties/model)
        if(TARGET ${dep})
          list(APPEND deps ${dep})
        endif()
      endforeach()
      adsem_add_library(adsem_${layer}_${calc} ${child} adsem_${layer}_core ${deps})
      target_link_libraries(adsem_${layer} INTERFACE adsem_${layer}_${calc})
    endif()
  endforeach()
endfunction()
