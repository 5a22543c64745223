#pragma once
// One adsem run per report folder. Two campaigns writing one folder used to interleave their
// files, and one run's results (a failing run's counterexamples among them) vanished while both
// printed "report written". A run that writes a folder holds an exclusive flock(2) on
// DIR/.adsem-lock for its whole life; the kernel drops it when the process ends, even by SIGKILL,
// so a killed run never leaves the folder locked.
#include <filesystem>
#include <string>
#include <vector>

namespace adsem::reports {

inline constexpr const char* report_lock_name = ".adsem-lock";

class ReportFolderLock {
public:
  // Creates `dir` if needed and locks it. Throws AdsemError(usage) naming the folder when another
  // adsem run holds it, AdsemError(io) when the folder or its lock file cannot be created.
  explicit ReportFolderLock(std::filesystem::path dir);
  ReportFolderLock(ReportFolderLock&& other) noexcept;
  ReportFolderLock& operator=(ReportFolderLock&& other) noexcept;
  ReportFolderLock(const ReportFolderLock&) = delete;
  ReportFolderLock& operator=(const ReportFolderLock&) = delete;
  ~ReportFolderLock();

  const std::filesystem::path& dir() const { return dir_; }

private:
  std::filesystem::path dir_;
  int fd_ = -1;
};

// Locks `dir` and removes the files an earlier run left there under `stale_names` (its final
// files): a run killed before writing its own would otherwise leave the older report beside its
// new results.jsonl, and `merge` or a reader would take the old run for this one.
ReportFolderLock claim_report_folder(const std::filesystem::path& dir,
                                     const std::vector<std::string>& stale_names);

} // namespace adsem::reports
