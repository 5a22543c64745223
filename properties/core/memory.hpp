#pragma once
// Resident memory: what the memory ceiling (adsem --max-memory) measures. Resident memory, not
// RLIMIT_AS: address space is no measure of what a process takes from the machine, and ASan's
// shadow reservations (the fuzz/sanitizer builds) exceed any useful RLIMIT_AS at once.
#include <cstddef>
#include <string>

#include <sys/types.h>

namespace adsem::props {

// 4 GiB: about twice the largest legitimate run measured (`adsem complexity all`: 2.1 GiB peak;
// `adsem campaign all -n 50`: 46 MiB), so a runaway term stops there instead of taking the
// machine (24 GiB here; two parallel jobs of a 2-core CI runner take 8 GiB at most).
inline constexpr std::size_t default_max_memory_bytes = std::size_t{4} << 30;

// Resident set size of process `pid` (0: this process) from /proc/PID/statm, in bytes; 0 when it
// cannot be read (no /proc, or the process is gone), so a missing /proc disables the ceiling.
std::size_t resident_bytes(pid_t pid = 0);

// Sets this process's peak resident memory (VmHWM) back to its current resident memory (Linux
// /proc/self/clear_refs "5", since 4.0); false when it cannot (then the peak stays monotone).
bool reset_peak_resident();
// This process's peak resident memory (VmHWM of /proc/self/status) since it started or since the
// last reset_peak_resident, in bytes; 0 when it cannot be read.
std::size_t peak_resident_bytes();

// Gives the heap's free pages back to the system, so that resident memory counts what is in use:
// glibc's malloc_trim, and where the executable is linked with jemalloc (CMake ADSEM_JEMALLOC),
// a purge of every jemalloc arena (which keeps freed pages resident for seconds otherwise).
void release_free_memory();

// "4G", "512M", "100k", "1073741824" (bytes), case-insensitive, binary units (K = 1024 bytes);
// "0" means no ceiling. Throws AdsemError(usage) naming `option` otherwise.
std::size_t parse_memory_size(const std::string& text, const std::string& option);

// "4 GiB", "512 MiB", "1026.3 MiB", "900.0 KiB" (for messages; exact units when they are).
std::string format_bytes(std::size_t bytes);

} // namespace adsem::props
