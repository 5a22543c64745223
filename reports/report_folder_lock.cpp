#include "reports/report_folder_lock.hpp"

#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include "syntax/core/diagnostic.hpp"

namespace adsem::reports {

ReportFolderLock::ReportFolderLock(std::filesystem::path dir) : dir_(std::move(dir)) {
  std::error_code error;
  std::filesystem::create_directories(dir_, error);
  if (error)
    throw AdsemError(ErrorKind::io, fmt::format("cannot create report folder {}: {}", dir_.string(),
                                                error.message()));
  const std::filesystem::path file = dir_ / report_lock_name;
  // O_CLOEXEC: a program this run starts must not keep the folder locked after it ends.
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw AdsemError(ErrorKind::io,
                     fmt::format("cannot open {}: {}", file.string(), std::strerror(errno)));
  int status = 0;
  do {
    status = ::flock(fd_, LOCK_EX | LOCK_NB);
  } while (status != 0 && errno == EINTR);
  if (status != 0) {
    const int reason = errno;
    ::close(fd_);
    fd_ = -1;
    if (reason == EWOULDBLOCK)
      throw AdsemError(ErrorKind::usage,
                       fmt::format("report folder {} is in use: another adsem run holds it (it "
                                   "writes its report there); wait for it or choose another "
                                   "--report folder",
                                   dir_.string()));
    throw AdsemError(ErrorKind::io,
                     fmt::format("cannot lock {}: {}", file.string(), std::strerror(reason)));
  }
}

ReportFolderLock::ReportFolderLock(ReportFolderLock&& other) noexcept
    : dir_(std::move(other.dir_)), fd_(std::exchange(other.fd_, -1)) {}

ReportFolderLock& ReportFolderLock::operator=(ReportFolderLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    dir_ = std::move(other.dir_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

ReportFolderLock::~ReportFolderLock() {
  if (fd_ >= 0) ::close(fd_); // closing the last descriptor releases the flock
}

ReportFolderLock claim_report_folder(const std::filesystem::path& dir,
                                     const std::vector<std::string>& stale_names) {
  ReportFolderLock lock(dir);
  for (const std::string& name : stale_names) {
    std::error_code error;
    std::filesystem::remove(dir / name, error);
    if (error)
      throw AdsemError(ErrorKind::io, fmt::format("cannot remove the earlier run's {}: {}",
                                                  (dir / name).string(), error.message()));
  }
  return lock;
}

} // namespace adsem::reports
