# The kit test (tests/CMakeLists.txt, label `kit`; docs/kit.md): install the built tree into a
# fresh prefix, configure and build examples/kit against it as an outside project would
# (find_package(adsem) through CMAKE_PREFIX_PATH), then run the sixth calculus's campaign and
# mutants. Run as `cmake -DBUILD=... -DSOURCE=... -DWORK=... [-DGENERATOR=...] [-DLAUNCHER=...]
# -P` after the build; it installs what is built and never builds the main tree.
foreach(var BUILD SOURCE WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "AdsemKitTest.cmake needs -D${var}=...")
  endif()
endforeach()

function(kit_step what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("== ${what}: exit ${rc}\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "kit test: ${what} failed (exit ${rc})")
  endif()
  set(kit_out "${out}${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(prefix ${WORK}/prefix)
kit_step("install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})
if(NOT GENERATOR)
  set(GENERATOR Ninja)
endif()
set(launcher "")
if(LAUNCHER)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
kit_step("configure examples/kit" ${CMAKE_COMMAND} -S ${SOURCE}/examples/kit -B ${WORK}/build
         -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix} ${launcher})
kit_step("build examples/kit" ${CMAKE_COMMAND} --build ${WORK}/build)
set(kit ${WORK}/build/adsem-kit)
kit_step("calculi" ${kit} calculi)
if(NOT kit_out MATCHES "dual-numbers" OR NOT kit_out MATCHES "simple-diff")
  message(FATAL_ERROR "kit test: `adsem-kit calculi` does not list dual-numbers beside the five")
endif()
kit_step("grad" ${kit} grad dual-numbers -e "(\\x:real. mul(x, sin(x)))" --at 2)
if(NOT kit_out MATCHES "gradient: \\[0\\.0770037537")
  message(FATAL_ERROR "kit test: grad of x sin x at 2 is not sin 2 + 2 cos 2")
endif()
kit_step("campaign" ${kit} campaign dual-numbers -n 200 --seed 1 --no-corpus --no-config
         --report ${WORK}/report)
kit_step("mutants" ${kit} mutants dual-numbers --seed 1 --time 3 --no-isolate
         --report ${WORK}/mutants)
if(NOT kit_out MATCHES "product-rule-drops-a-term: killed in [^\n]* by dual-numbers/ad-correctness")
  message(FATAL_ERROR "kit test: product-rule-drops-a-term was not killed by ad-correctness")
endif()
if(NOT kit_out MATCHES "lambda-keeps-binder-type: killed in [^\n]* by dual-numbers/macro-typing")
  message(FATAL_ERROR "kit test: lambda-keeps-binder-type was not killed by macro-typing")
endif()
if(NOT kit_out MATCHES "4 of 4 mutants killed")
  message(FATAL_ERROR "kit test: a mutant of dual-numbers survived")
endif()
