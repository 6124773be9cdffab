#pragma once
// The memory of the `auto` strategy, for tests and for showing what it chose.

#include <cstdint>
#include <string>

namespace hs::histogram {

// Timed trials `auto` has run in this process (a remembered choice runs none).
std::uint64_t autoTrialCount();
// Forgets the choices held in memory, as a new process starts; the file under the state directory stays.
void forgetAutoChoices();
// The file, under ProgramCache::stateDirectory(), that keeps `auto` choices between processes.
inline constexpr const char* kAutoChoicesFile = "histogram-auto.txt";

}  // namespace hs::histogram
