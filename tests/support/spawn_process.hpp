#pragma once
// Starts a program (e.g. the adsem executable) as a child process with stdout and stderr going to
// a log file, for tests that signal or time it. Returns the pid, or -1 when it cannot start.
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>

extern char** environ;

namespace adsem::testing {

// own_group: the child leads a new process group, so kill(-pid, ...) reaches it and its own
// children (as Ctrl-C in a terminal does) but not the test.
inline pid_t spawn_logged(std::vector<std::string> args, const std::string& log,
                          bool own_group = false) {
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (own_group) {
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  pid_t pid = -1;
  if (posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  return pid;
}

} // namespace adsem::testing
