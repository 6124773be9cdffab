#pragma once
// The one updating line histoscope-cli shows on the user's terminal while it works (program builds, batch's
// progress bar), on the stream the user sees as stderr (file descriptor 2 itself captures the libraries'
// diagnostics, see cli_main.cpp), and only when that stream is a terminal: piped or redirected, nothing.

#include <cstdio>
#include <string>
#include <string_view>

#include "engine/ops/histogram/auto_strategy.hpp"

namespace hs::cli::terminal {

// Where the CLI's own lines go (set once by main before any command runs).
void setUserStream(std::FILE* stream);
std::FILE* userStream();
// Whether userStream() is a terminal.
bool isTerminal();

// Replaces the line with `text` (cut to the terminal's width); nothing unless isTerminal(). Thread-safe.
void show(std::string_view text);
// Removes the line, before other output goes to the terminal. Thread-safe.
void clear();

// While alive, the program builds on this thread show as "building local-atomic for <device> (2 of 4)"
// (the auto trial's candidate, when one is being tried; else the program's file) and go when done.
// Each thread that runs stages holds one (main's for every command, batch's device threads their own).
class ShowBuilds {
  public:
    ShowBuilds();
    ShowBuilds(const ShowBuilds&) = delete;
    ShowBuilds& operator=(const ShowBuilds&) = delete;

  private:
    histogram::ScopedAutoTrialObserver trial_;
};

}  // namespace hs::cli::terminal
