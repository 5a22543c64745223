# `cmake --install BUILD --prefix P` (docs/kit.md): the headers under P/include in the source
# layout ("syntax/core/..."), every layer's static libraries, the adsem executable, and
# P/lib/cmake/adsem/adsemConfig.cmake with the exported targets, so that a calculus built outside
# the tree (examples/kit/) finds the toolkit with find_package(adsem) and links adsem::adsem.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ADSEM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/adsem)
get_property(adsem_exported_targets GLOBAL PROPERTY ADSEM_EXPORTED_TARGETS)
install(TARGETS ${adsem_exported_targets}
        EXPORT adsemTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS adsem RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(layer syntax semantics generators reports properties cli)
  install(DIRECTORY ${ADSEM_ROOT}/${layer} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()

install(EXPORT adsemTargets NAMESPACE adsem:: DESTINATION ${ADSEM_CMAKE_DIR})
configure_package_config_file(${ADSEM_ROOT}/cmake/adsemConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/adsemConfig.cmake
                              INSTALL_DESTINATION ${ADSEM_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/adsemConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/adsemConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/adsemConfigVersion.cmake
        DESTINATION ${ADSEM_CMAKE_DIR})
