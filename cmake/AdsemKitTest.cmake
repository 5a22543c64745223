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

# A command that must exit with `expected` (a rule file that fails its checks exits 1).
function(kit_expect what expected)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("== ${what}: exit ${rc} (expected ${expected})\n${out}${err}")
  if(NOT rc EQUAL expected)
    message(FATAL_ERROR "kit test: ${what} exited ${rc}, not ${expected}")
  endif()
  set(kit_out "${out}${err}" PARENT_SCOPE)
endfunction()

# The round-trip property's check fails when it is given a parser that loses a minus sign.
kit_step("round-trip self-test" ${WORK}/build/dual-numbers-selftest)

# User rules (docs/kit.md, "Rules"): check-rule and --rules through the installed core.
set(rules ${SOURCE}/examples/kit/rules)
kit_expect("check-rule holds.rules" 0 ${kit} check-rule dual-numbers ${rules}/holds.rules --seed 1)
if(NOT kit_out MATCHES "3 of 3 rules passed")
  message(FATAL_ERROR "kit test: a rule of holds.rules failed check-rule")
endif()
kit_expect("check-rule unsound.rules" 1 ${kit} check-rule dual-numbers ${rules}/unsound.rules
           --seed 1 --no-mutants)
if(NOT kit_out MATCHES "0 of 3 rules passed")
  message(FATAL_ERROR "kit test: check-rule passed a rule of unsound.rules")
endif()
if(NOT kit_out MATCHES "replay: adsem-kit check-rule dual-numbers")
  message(FATAL_ERROR "kit test: check-rule's replay command does not name adsem-kit")
endif()
file(WRITE ${WORK}/unbound.rules "meta M : real, P : real\ngrow: add(M, 0) -->\n    add(M, P)\n")
kit_expect("check-rule unbound.rules" 2 ${kit} check-rule dual-numbers ${WORK}/unbound.rules)
if(NOT kit_out MATCHES "3:12: parse error: unbound metavariable 'P'")
  message(FATAL_ERROR "kit test: the unbound metavariable is not located at 3:12")
endif()
kit_expect("campaign --rules holds.rules" 0 ${kit} campaign dual-numbers --rules
           ${rules}/holds.rules -n 200 --seed 1 --no-config --report ${WORK}/rules-holds)
kit_expect("campaign --rules unsound.rules" 1 ${kit} campaign dual-numbers --rules
           ${rules}/unsound.rules -n 200 --seed 1 --no-config --report ${WORK}/rules-unsound)
